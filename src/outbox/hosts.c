/* hosts: each host's backoff, <home>/outbox/hosts.  See hosts.h. */
#include "outbox/hosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char header[] = "# oustpbm hosts: host attempts first next ok error (outbox/hosts.h)\n";

/* One line "HOST ATTEMPTS FIRST NEXT OK ERROR..." into *hs; false if it is not one. */
static bool parse_line(const char *s, size_t len, struct host_state *hs)
{
	char line[HOSTS_NAME_MAX + HOSTS_ERROR_MAX + 128], name[HOSTS_NAME_MAX + 2];
	unsigned long attempts;
	long long first, next, ok;
	int n = 0;

	if (len >= sizeof line)
		return false;
	memcpy(line, s, len);
	line[len] = '\0';
	if (sscanf(line, "%301s %lu %lld %lld %lld %n", name, &attempts, &first, &next, &ok, &n) != 5 || n == 0 ||
	    strlen(name) > HOSTS_NAME_MAX)
		return false;
	memset(hs, 0, sizeof *hs);
	memcpy(hs->name, name, strlen(name) + 1);
	hs->attempts = attempts;
	hs->first = first;
	hs->next = next;
	hs->ok = ok;
	snprintf(hs->error, sizeof hs->error, "%s", strcmp(line + n, "-") == 0 ? "" : line + n);
	return true;
}

void hosts_read(struct store *st, struct hosts *h)
{
	char *text = NULL, *p, *nl;
	size_t len;

	h->n = 0;
	if (store_read_file(st, HOSTS_FILE, HOSTS_FILE_MAX, &text, &len) != STORE_OK)
		return;
	for (p = text; *p != '\0' && h->n < HOSTS_MAX; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			break;	/* an unfinished last line: not ours */
		if (*p != '#' && nl > p && parse_line(p, (size_t)(nl - p), &h->v[h->n]))
			h->n++;
	}
	free(text);
}

enum store_status hosts_write(struct store *st, const struct hosts *h)
{
	char buf[sizeof header + HOSTS_MAX * (HOSTS_NAME_MAX + HOSTS_ERROR_MAX + 96)];
	size_t used = sizeof header - 1, i, k;

	memcpy(buf, header, used);
	for (i = 0; i < h->n; i++) {
		const struct host_state *hs = &h->v[i];
		char err[HOSTS_ERROR_MAX + 1];

		/* one line: no line break, no control character in the error */
		for (k = 0; hs->error[k] != '\0' && k < HOSTS_ERROR_MAX; k++)
			err[k] = (unsigned char)hs->error[k] < 0x20 || hs->error[k] == 0x7f ? '?' : hs->error[k];
		err[k] = '\0';
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s %lu %lld %lld %lld %s\n", hs->name,
		    hs->attempts, hs->first, hs->next, hs->ok, err[0] != '\0' ? err : "-");
	}
	return store_write_file(st, HOSTS_FILE, buf, used);
}

const struct host_state *hosts_find(const struct hosts *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->v[i].name, name) == 0)
			return &h->v[i];
	return NULL;
}

struct host_state *hosts_get(struct hosts *h, const char *name)
{
	size_t i, drop = 0;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->v[i].name, name) == 0)
			return &h->v[i];
	if (h->n == HOSTS_MAX) {
		/* a working host's line goes first, else the first line */
		for (i = 0; i < h->n; i++)
			if (h->v[i].attempts == 0) {
				drop = i;
				break;
			}
		memmove(&h->v[drop], &h->v[drop + 1], (h->n - drop - 1) * sizeof h->v[0]);
		h->n--;
	}
	memset(&h->v[h->n], 0, sizeof h->v[0]);
	snprintf(h->v[h->n].name, sizeof h->v[0].name, "%s", name);
	return &h->v[h->n++];
}

bool hosts_worked(struct host_state *hs, long long now)
{
	if (hs->attempts == 0)
		return false;
	hs->attempts = 0;
	hs->first = hs->next = 0;
	hs->ok = now;
	hs->error[0] = '\0';
	return true;
}

void hosts_failed(struct host_state *hs, long long now, long wait, const char *why)
{
	hs->attempts++;
	if (hs->first == 0)
		hs->first = now;
	hs->next = now + wait;
	snprintf(hs->error, sizeof hs->error, "%.*s", (int)strcspn(why, "\n"), why);
}

bool hosts_released(const struct host_state *hs, const char *host, long long last)
{
	return hs != NULL && host[0] != '\0' && strcmp(host, hs->name) == 0 && hs->attempts == 0 && hs->ok != 0 &&
	    hs->ok >= last;
}
