/* reviews: the queue of game reviews and the kept reviews.  See reviews.h. */
#include "store/reviews.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"

static bool parse_line(const char *line, size_t len, void *rec, const char **why)
{
	struct reviews_request *r = rec;
	char buf[200], state[16];
	long long t, since = 0;
	long pid = 0;
	int n;

	if (len >= sizeof buf) {
		*why = "is too long";
		return false;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	n = sscanf(buf, "%lld %ld %32s %15s %lld %ld", &t, &r->board, r->userid, state, &since, &pid);
	if (n < 4 || t < 0 || !ident_userid_ok(r->userid) ||
	    !((n == 4 && (strcmp(state, "waiting") == 0 || strcmp(state, "done") == 0)) ||
	    (n == 6 && strcmp(state, "claimed") == 0 && since > 0 && pid > 0))) {
		*why = "is not 'time board userid waiting|done|claimed since pid'";
		return false;
	}
	r->time = (int64_t)t;
	r->done = state[0] == 'd';
	r->claimed = n == 6 ? (int64_t)since : 0;
	r->pid = n == 6 ? pid : 0;
	return true;
}

static enum store_status read_all(struct store *st, struct reviews_request **list, size_t *n)
{
	enum store_status ss;

	*list = NULL;
	*n = 0;
	ss = store_read_records(st, &(struct store_records){ REVIEWS_QUEUE_FILE, REVIEWS_FILE_CAP, sizeof **list,
	    parse_line }, (void **)list, NULL, n);
	if (ss == STORE_NOT_FOUND) {
		*list = NULL;
		*n = 0;
		return STORE_OK;
	}
	return ss;
}

/* The queue file again: done lines older than a day dropped. */
static enum store_status write_all(struct store *st, const struct reviews_request *list, size_t n, int64_t now)
{
	struct strbuf b = STRBUF_INIT;
	enum store_status ss;
	char *text;
	size_t i;

	strbuf_puts(&b, "# review requests: time board userid waiting|done|claimed since pid (oustpbm review)\n");
	for (i = 0; i < n; i++) {
		if (list[i].done && list[i].time <= now - REVIEWS_DAY)
			continue;
		if (!list[i].done && list[i].claimed > 0)
			strbuf_printf(&b, "%" PRId64 " %ld %s claimed %" PRId64 " %ld\n", list[i].time, list[i].board,
			    list[i].userid, list[i].claimed, list[i].pid);
		else
			strbuf_printf(&b, "%" PRId64 " %ld %s %s\n", list[i].time, list[i].board, list[i].userid,
			    list[i].done ? "done" : "waiting");
	}
	text = strbuf_finish(&b);
	if (text == NULL)
		return STORE_TEMPFAIL;
	ss = store_write_file(st, REVIEWS_QUEUE_FILE, text, strlen(text));
	free(text);
	return ss;
}

/* Take the queue's lock into *lock, then read it; the caller frees *list and releases *lock either way. */
static enum store_status lock_and_read(struct store *st, unsigned long timeout_ms, struct store_lock *lock,
    struct reviews_request **list, size_t *n)
{
	enum store_status ss = store_lock_path(st, REVIEWS_LOCK_FILE, timeout_ms, lock);

	return ss != STORE_OK ? ss : read_all(st, list, n);
}

enum store_status reviews_request(struct store *st, const struct reviews_request *want, unsigned long max_per_day,
    unsigned long timeout_ms, enum reviews_outcome *out, int *ahead)
{
	const long board = want->board;
	const char *userid = want->userid;
	const int64_t now = want->time;
	struct store_lock lock = STORE_LOCK_INIT;
	struct reviews_request *list = NULL, *grown;
	enum store_status ss;
	size_t n = 0, i;
	unsigned long today = 0;
	int waiting = 0;

	*ahead = 0;
	ss = lock_and_read(st, timeout_ms, &lock, &list, &n);
	if (ss != STORE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		if (!list[i].done)
			waiting++;
		if (!list[i].done && list[i].board == board && strcmp(list[i].userid, userid) == 0) {
			*out = REVIEWS_ALREADY;
			*ahead = waiting - 1;
			goto out;
		}
		if (strcmp(list[i].userid, userid) == 0 && list[i].time > now - REVIEWS_DAY)
			today++;
	}
	if (max_per_day > 0 && today >= max_per_day) {
		*out = REVIEWS_DAILY_LIMIT;
		goto out;
	}
	if (waiting >= REVIEWS_QUEUE_MAX) {
		*out = REVIEWS_FULL;
		goto out;
	}
	grown = realloc(list, (n + 1) * sizeof *list);
	if (grown == NULL) {
		ss = STORE_TEMPFAIL;
		goto out;
	}
	list = grown;
	memset(&list[n], 0, sizeof list[n]);
	list[n].time = now;
	list[n].board = board;
	snprintf(list[n].userid, sizeof list[n].userid, "%s", userid);
	ss = write_all(st, list, n + 1, now);
	*out = REVIEWS_QUEUED;
	*ahead = waiting;
out:
	store_unlock(&lock);
	free(list);
	return ss;
}

enum store_status reviews_waiting(struct store *st, struct reviews_request **list, size_t *n)
{
	enum store_status ss = read_all(st, list, n);
	size_t i, k = 0;

	if (ss != STORE_OK)
		return ss;
	for (i = 0; i < *n; i++)
		if (!(*list)[i].done)
			(*list)[k++] = (*list)[i];
	*n = k;
	return STORE_OK;
}

/* The not-done request of userid for board in list, NULL if none. */
static struct reviews_request *find(struct reviews_request *list, size_t n, long board, const char *userid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!list[i].done && list[i].board == board && strcmp(list[i].userid, userid) == 0)
			return &list[i];
	return NULL;
}

enum store_status reviews_claim(struct store *st, long board, const char *userid, int64_t now, int64_t stale,
    unsigned long timeout_ms, bool *got)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct reviews_request *list = NULL, *r;
	enum store_status ss;
	size_t n = 0;

	*got = false;
	ss = lock_and_read(st, timeout_ms, &lock, &list, &n);
	if (ss != STORE_OK)
		goto out;
	r = find(list, n, board, userid);
	/* another's claim stands until it is stale: its process may be thinking still */
	if (r == NULL || (r->claimed > 0 && r->claimed > now - stale))
		goto out;
	r->claimed = now > 0 ? now : 1;
	r->pid = (long)getpid();
	/* durable before the think: a crash leaves a claim, which the next run takes once it is stale */
	ss = write_all(st, list, n, now);
	*got = ss == STORE_OK;
out:
	store_unlock(&lock);
	free(list);
	return ss;
}

/* Mark the request done (done) or waiting again (!done), under the caller's lock. */
static enum store_status settle(struct store *st, long board, const char *userid, int64_t now, bool done)
{
	struct reviews_request *list = NULL, *r;
	enum store_status ss;
	size_t n = 0;

	ss = read_all(st, &list, &n);
	if (ss != STORE_OK)
		goto out;
	r = find(list, n, board, userid);
	if (r == NULL)
		goto out;
	if (done)
		r->done = true;
	r->claimed = 0;
	r->pid = 0;
	ss = write_all(st, list, n, now);
out:
	free(list);
	return ss;
}

enum store_status reviews_unclaim(struct store *st, long board, const char *userid, int64_t now,
    unsigned long timeout_ms)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss = store_lock_path(st, REVIEWS_LOCK_FILE, timeout_ms, &lock);
	bool mine = false;

	if (ss == STORE_OK)
		ss = reviews_mine(st, board, userid, &mine);
	if (ss == STORE_OK && mine)
		ss = settle(st, board, userid, now, false);
	store_unlock(&lock);
	return ss;
}

enum store_status reviews_finish(struct store *st, long board, const char *userid, int64_t now,
    unsigned long timeout_ms)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss = store_lock_path(st, REVIEWS_LOCK_FILE, timeout_ms, &lock);

	if (ss == STORE_OK)
		ss = settle(st, board, userid, now, true);
	store_unlock(&lock);
	return ss;
}

enum store_status reviews_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock)
{
	return store_lock_path(st, REVIEWS_LOCK_FILE, timeout_ms, lock);
}

enum store_status reviews_mine(struct store *st, long board, const char *userid, bool *mine)
{
	struct reviews_request *list = NULL, *r;
	enum store_status ss;
	size_t n = 0;

	*mine = false;
	ss = read_all(st, &list, &n);
	if (ss == STORE_OK) {
		r = find(list, n, board, userid);
		*mine = r != NULL && r->claimed > 0 && r->pid == (long)getpid();
	}
	free(list);
	return ss;
}

enum store_status reviews_finish_locked(struct store *st, long board, const char *userid, int64_t now)
{
	return settle(st, board, userid, now, true);
}

static bool review_path(long board, char *buf, size_t size)
{
	return snprintf(buf, size, "games/%ld.review", board) < (int)size;
}

enum store_status reviews_read(struct store *st, long board, char **text, size_t *len)
{
	char path[64];

	if (!review_path(board, path, sizeof path))
		return STORE_BAD_ID;
	return store_read_file(st, path, 256 * 1024, text, len);
}

enum store_status reviews_write(struct store *st, long board, const char *text, size_t len)
{
	char path[64];

	if (!review_path(board, path, sizeof path))
		return STORE_BAD_ID;
	return store_write_file(st, path, text, len);
}
