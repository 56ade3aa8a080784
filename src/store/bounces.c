/* bounces: the addresses mail to them bounced from, <home>/bounces.  See bounces.h. */
#include "store/bounces.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/gamefile.h"

static const char header[] = "# oustpbm bounces: address count last status [mark] (store/bounces.h)\n";

#define LINE_MAX_BYTES (MAILADDR_MAX + GAMEFILE_TIME_SIZE + BOUNCES_STATUS_MAX + BOUNCES_MARK_MAX + 32)

static bool status_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!isdigit((unsigned char)s[i]) && s[i] != '.')
			return false;
	return i > 0 && i <= BOUNCES_STATUS_MAX;
}

static bool mark_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= BOUNCES_MARK_MAX && strspn(s, "0123456789abcdef") == n;
}

/* One line "alice@example.org 2 2026-11-24T02:40:00Z 5.1.1 [mark]" into b. */
static bool parse_line(const char *s, size_t len, struct bounce *b)
{
	char addr[MAILADDR_MAX + 2], t[GAMEFILE_TIME_SIZE + 1], status[BOUNCES_STATUS_MAX + 2],
	    mark[BOUNCES_MARK_MAX + 2] = "", line[LINE_MAX_BYTES + 1];
	unsigned long count;
	int n = 0, m = 0, got;

	if (len > LINE_MAX_BYTES)
		return false;
	memcpy(line, s, len);
	line[len] = '\0';
	memset(b, 0, sizeof *b);
	/* the mark is optional: lines written before it was kept have none */
	got = sscanf(line, "%255s %lu %21s %16s%n %33s%n", addr, &count, t, status, &n, mark, &m);
	if (!(got == 4 && (size_t)n == len) && !(got == 5 && (size_t)m == len))
		return false;
	if (strlen(addr) > MAILADDR_MAX || !mailaddr_ok(addr, NULL) || count == 0 || !status_ok(status) ||
	    !gamefile_time_parse(t, strlen(t), &b->last) || (got == 5 && !mark_ok(mark)))
		return false;
	memcpy(b->address, addr, strlen(addr) + 1);
	memcpy(b->status, status, strlen(status) + 1);
	memcpy(b->mark, mark, strlen(mark) + 1);
	b->count = count;
	return true;
}

static bool bounce_record(const char *line, size_t len, void *rec, const char **why)
{
	*why = "is not 'address count last status [mark]'";
	return parse_line(line, len, rec);
}

enum store_status bounces_read(struct store *st, struct bounce **list, size_t *n)
{
	enum store_status status;
	void *recs = NULL;

	*n = 0;
	status = store_read_records(st, &(struct store_records){ BOUNCES_FILE, BOUNCES_FILE_MAX, sizeof **list,
	    bounce_record }, &recs, NULL, n);
	*list = recs;
	if (status == STORE_NOT_FOUND) {
		store_set_error(st, "%s", "");	/* no file: no bounces, and nothing failed */
		status = STORE_OK;
	}
	return status;
}

const struct bounce *bounces_of(const struct bounce *list, size_t n, const char *address)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcasecmp(list[i].address, address) == 0)
			return &list[i];
	return NULL;
}

bool bounces_stopped(const struct bounce *b, unsigned long limit)
{
	return b != NULL && limit != 0 && b->count >= limit;
}

/* Is list[i] worth keeping at now?  Stopped addresses stay until they write. */
static bool keep(const struct bounce *b, int64_t now, unsigned long limit)
{
	return bounces_stopped(b, limit) || b->last > now - (int64_t)BOUNCES_KEEP_DAYS * 86400;
}

/* Write list[0..n), skipping index skip (SIZE_MAX: none), the oldest dropped past BOUNCES_MAX. */
static enum store_status write_all(struct store *st, const struct bounce *list, size_t n, size_t skip)
{
	char *out, t[GAMEFILE_TIME_SIZE];
	size_t cap = sizeof header + (n + 1) * (LINE_MAX_BYTES + 2), used = sizeof header - 1, i, from = 0, live;
	enum store_status status;

	live = n - (skip < n ? 1 : 0);
	if (live > BOUNCES_MAX)
		from = live - BOUNCES_MAX;	/* the list is oldest first: see bounces_add */
	out = malloc(cap);
	if (out == NULL) {
		store_set_error(st, "out of memory");
		return STORE_TEMPFAIL;
	}
	memcpy(out, header, used);
	for (i = 0; i < n; i++) {
		if (i == skip)
			continue;
		if (from > 0) {
			from--;
			continue;
		}
		used += (size_t)snprintf(out + used, cap - used, "%s %lu %s %s%s%s\n", list[i].address, list[i].count,
		    gamefile_time_str(list[i].last, t), list[i].status, list[i].mark[0] != '\0' ? " " : "", list[i].mark);
	}
	status = store_write_file(st, BOUNCES_FILE, out, used);
	free(out);
	return status;
}

/* The address as kept: lower case. */
static void fold(const char *address, char out[MAILADDR_MAX + 1])
{
	size_t i;

	for (i = 0; address[i] != '\0' && i < MAILADDR_MAX; i++)
		out[i] = (char)tolower((unsigned char)address[i]);
	out[i] = '\0';
}

/* One more bounce of nb->address (mark: nb->mark, none if ""); *counted false when its line had that mark. */
static enum store_status add(struct store *st, const struct bounce *nb, unsigned long limit, unsigned long timeout_ms,
    unsigned long *count, bool *counted)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct bounce *list = NULL, *grown, b;
	enum store_status ss;
	size_t n = 0, i, k;

	*count = 0;
	*counted = false;
	if (!mailaddr_ok(nb->address, NULL) || strlen(nb->address) > MAILADDR_MAX) {
		store_set_error(st, "bounces: '%.80s' is not an address", nb->address);
		return STORE_BAD_ADDRESS;
	}
	if (nb->mark[0] != '\0' && !mark_ok(nb->mark)) {
		store_set_error(st, "bounces: '%.40s' is not a mark", nb->mark);
		return STORE_BAD_ADDRESS;
	}
	ss = store_lock_path(st, BOUNCES_LOCK_FILE, timeout_ms, &lock);
	if (ss != STORE_OK)
		return ss;
	ss = bounces_read(st, &list, &n);
	if (ss != STORE_OK)
		goto out;
	memset(&b, 0, sizeof b);
	fold(nb->address, b.address);
	snprintf(b.status, sizeof b.status, "%s", status_ok(nb->status) ? nb->status : "5");
	snprintf(b.mark, sizeof b.mark, "%s", nb->mark);
	b.last = nb->last;
	b.count = 1;
	/* the same report again: counted when its mark was written, nothing to write now */
	for (i = 0; i < n && b.mark[0] != '\0'; i++)
		if (strcasecmp(list[i].address, b.address) == 0 && strcmp(list[i].mark, b.mark) == 0) {
			*count = list[i].count;
			goto out;
		}
	/* pruned, and the address's old line taken out: it goes last, newest */
	for (i = k = 0; i < n; i++) {
		if (strcasecmp(list[i].address, b.address) == 0) {
			b.count = list[i].count + 1;
			continue;
		}
		if (keep(&list[i], nb->last, limit))
			list[k++] = list[i];
	}
	grown = realloc(list, (k + 1) * sizeof *list);
	if (grown == NULL) {
		store_set_error(st, "out of memory");
		ss = STORE_TEMPFAIL;
		goto out;
	}
	list = grown;
	list[k++] = b;
	ss = write_all(st, list, k, (size_t)-1);
	if (ss == STORE_OK) {
		*count = b.count;
		*counted = true;
	}
out:
	free(list);
	store_unlock(&lock);
	return ss;
}

enum store_status bounces_add(struct store *st, const char *address, const char *status, int64_t now,
    unsigned long limit, unsigned long timeout_ms, unsigned long *count)
{
	struct bounce b;
	unsigned long c;
	bool counted;
	enum store_status ss;

	memset(&b, 0, sizeof b);
	if (strlen(address) > MAILADDR_MAX) {
		store_set_error(st, "bounces: '%.80s' is not an address", address);
		return STORE_BAD_ADDRESS;
	}
	memcpy(b.address, address, strlen(address) + 1);
	/* a status that is not one becomes "5" (add) */
	snprintf(b.status, sizeof b.status, "%s", strlen(status) <= BOUNCES_STATUS_MAX ? status : "5");
	b.last = now;
	ss = add(st, &b, limit, timeout_ms, &c, &counted);
	if (count != NULL)
		*count = c;
	return ss;
}

enum store_status bounces_add_report(struct store *st, const struct bounce *b, unsigned long limit,
    unsigned long timeout_ms, unsigned long *count, bool *counted)
{
	return add(st, b, limit, timeout_ms, count, counted);
}

enum store_status bounces_clear(struct store *st, const char *address, unsigned long timeout_ms,
    unsigned long *had)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct bounce *list = NULL;
	const struct bounce *b;
	enum store_status ss;
	size_t n = 0;

	if (had != NULL)
		*had = 0;
	/* most mails come from addresses that never bounced: a read, no lock */
	ss = bounces_read(st, &list, &n);
	if (ss != STORE_OK || bounces_of(list, n, address) == NULL)
		goto out;
	free(list);
	list = NULL;
	ss = store_lock_path(st, BOUNCES_LOCK_FILE, timeout_ms, &lock);
	if (ss != STORE_OK)
		return ss;
	ss = bounces_read(st, &list, &n);
	b = ss == STORE_OK ? bounces_of(list, n, address) : NULL;
	if (b != NULL) {
		if (had != NULL)
			*had = b->count;
		ss = write_all(st, list, n, (size_t)(b - list));
	}
	store_unlock(&lock);
out:
	free(list);
	return ss;
}

void bounces_status_of(const char *reply, char out[BOUNCES_STATUS_MAX + 1])
{
	size_t n;

	snprintf(out, BOUNCES_STATUS_MAX + 1, "5");
	if (strlen(reply) >= 3 && isdigit((unsigned char)reply[0]) && isdigit((unsigned char)reply[1]) &&
	    isdigit((unsigned char)reply[2]))
		snprintf(out, BOUNCES_STATUS_MAX + 1, "%.3s", reply);
	if (strlen(reply) > 5 && isdigit((unsigned char)reply[4]) && reply[5] == '.') {
		n = strspn(reply + 4, "0123456789.");
		if (n <= BOUNCES_STATUS_MAX)
			snprintf(out, BOUNCES_STATUS_MAX + 1, "%.*s", (int)n, reply + 4);
	}
}
