/* outbox: the handle, its errors and log lines, the queue ids and the mails of this process. */
#include "outbox/outbox.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errbuf.h"
#include "outbox/outbox_int.h"

void outbox_set_err(struct outbox *ob, const char *fmt, ...)
{
	va_list ap;

	ob->sys_errno = 0;
	va_start(ap, fmt);
	errbuf_vset(ob->err, sizeof ob->err, fmt, ap);
	va_end(ap);
}

int outbox_errno(const struct outbox *ob)
{
	return ob->sys_errno;
}

/* Take over the store's message and map its status. */
enum outbox_status outbox_from_store(struct outbox *ob, enum store_status status)
{
	if (status == STORE_OK)
		return OUTBOX_OK;
	outbox_set_err(ob, "%s", store_error(ob->st));
	ob->sys_errno = store_errno(ob->st);
	switch (status) {
	case STORE_TIMEOUT:
		return OUTBOX_TIMEOUT;
	case STORE_TEMPFAIL:
		return OUTBOX_TEMPFAIL;
	case STORE_NO_SPACE:
		return OUTBOX_NO_SPACE;
	case STORE_DISK_ERROR:
		return OUTBOX_DISK_ERROR;
	case STORE_TOO_BIG:
		return OUTBOX_TOO_BIG;
	default:
		return OUTBOX_IO;
	}
}

struct store *outbox_store(const struct outbox *ob)
{
	return ob->st;
}

const char *outbox_error(const struct outbox *ob)
{
	return ob->err;
}

/* A queue id as outbox_new_id makes them: never '.'-first, no '/'. */
bool outbox_id_ok(const char *id)
{
	size_t i;

	if (id[0] == '\0' || id[0] == '.')
		return false;
	for (i = 0; id[i] != '\0'; i++) {
		char c = id[i];

		if (i >= QUEUE_ID_MAX)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* Maildir unique name: time.M<usec>P<pid>Q<counter>.<host> */
void outbox_new_id(struct outbox *ob, char *buf, size_t size)
{
	static unsigned long counter;	/* per process, whatever the outbox object */
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, "%lld.M%06ldP%ldQ%lu.%s", (long long)ts.tv_sec, ts.tv_nsec / 1000,
	    (long)getpid(), ++counter, ob->host);
}

bool outbox_id_orphan(const struct outbox *ob, const char *id)
{
	const char *p = strchr(id, 'P'), *dot;
	char *end;
	long pid;

	dot = p != NULL ? strchr(p, '.') : NULL;
	if (p == NULL || dot == NULL || strcmp(dot + 1, ob->host) != 0)
		return false;	/* made on another host (a shared home): its pid says nothing here */
	pid = strtol(p + 1, &end, 10);
	if (pid <= 0 || *end != 'Q' || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Seconds since the id was made, -1 if the id does not start with a time. */
long outbox_id_age(const char *id, time_t now)
{
	long long t = 0;
	size_t i;

	for (i = 0; id[i] >= '0' && id[i] <= '9' && i < 12; i++)
		t = t * 10 + (id[i] - '0');
	if (i == 0 || id[i] != '.')
		return -1;
	return now > t ? (long)(now - t) : 0;
}

enum outbox_status outbox_open(struct store *st, struct outbox **out, char *err, size_t errlen)
{
	static const char *const dirs[] = { "outbox", "outbox/tmp", "outbox/new", "outbox/failed",
		"outbox/sent", RECORD_DIR };
	enum store_status status;
	struct outbox *ob;
	size_t i;

	*out = NULL;
	ob = calloc(1, sizeof *ob);
	if (ob == NULL) {
		snprintf(err, errlen, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	ob->st = st;
	if (gethostname(ob->host, sizeof ob->host) != 0)
		snprintf(ob->host, sizeof ob->host, "localhost");
	ob->host[HOST_MAX] = '\0';
	/* Maildir names may not hold '/' or ':'; keep ids to [A-Za-z0-9._-] */
	for (i = 0; ob->host[i] != '\0'; i++) {
		char c = ob->host[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '.' || c == '-'))
			ob->host[i] = '_';
	}
	if (ob->host[0] == '\0')
		snprintf(ob->host, sizeof ob->host, "localhost");
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		status = store_mkdir(st, dirs[i]);
		if (status != STORE_OK) {
			enum outbox_status r = outbox_from_store(ob, status);

			snprintf(err, errlen, "%s", ob->err);
			free(ob);
			return r;
		}
	}
	*out = ob;
	return OUTBOX_OK;
}

void outbox_close(struct outbox *ob)
{
	size_t i;

	if (ob == NULL)
		return;
	for (i = 0; i < ob->nmine; i++)
		free(ob->mine[i]);
	free(ob->mine);
	outbox_record_forget(ob);
	free(ob);
}

/* Note id as one of this process's own replies (flushed first); failing, it is only not first. */
void outbox_note_mine(struct outbox *ob, const char *id)
{
	char *copy;

	if (ob->nmine == ob->capmine) {
		size_t ncap = ob->capmine ? ob->capmine * 2 : 8;
		char **bigger = realloc(ob->mine, ncap * sizeof *bigger);

		if (bigger == NULL)
			return;
		ob->mine = bigger;
		ob->capmine = ncap;
	}
	copy = strdup(id);
	if (copy != NULL)
		ob->mine[ob->nmine++] = copy;
}

bool outbox_is_mine(const struct outbox *ob, const char *id)
{
	size_t i;

	for (i = 0; i < ob->nmine; i++)
		if (strcmp(ob->mine[i], id) == 0)
			return true;
	return false;
}

void outbox_log_mail3(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why, const char *more)
{
	char stamp[32];
	struct tm tm;
	time_t now = config_now(cfg);

	if (gmtime_r(&now, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	store_log(ob->st, "%s outbox %s rcpt=%s %s: %s%s", stamp, id, rcpt[0] != '\0' ? rcpt : "?", what, why,
	    more);
}

void outbox_log_mail(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why)
{
	outbox_log_mail3(ob, cfg, id, rcpt, what, why, "");
}
