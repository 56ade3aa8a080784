/* throttle: the wrong-password throttle per account (see throttle.h). */
#include "store/throttle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "base/mailaddr.h"

#define HEADER "# oustpbm: wrong passwords and lockouts per account; see src/store/throttle.h\n"

enum kind { FAILURE = 'F', LOCKOUT = 'L', CLEARED = 'C', CHALLENGE = 'X', CHAT = 'H', REPLY = 'R' };

/* One parsed line; text points into the file. */
struct event {
	time_t time;
	char userid[IDENT_USERID_MAX + 1];
	enum kind kind;
	time_t until;		/* LOCKOUT */
	const char *text;	/* the whole line, LF included */
	size_t len;
};

struct record {
	char *data;		/* owned */
	struct event *ev;	/* owned */
	size_t n;
	bool too_big;		/* over THROTTLE_FILE_MAX: read as empty, and full */
};

static bool record_full(const struct record *r, time_t now);

static void record_free(struct record *r)
{
	free(r->data);
	free(r->ev);
	memset(r, 0, sizeof *r);
}

static bool parse_time(const char **p, time_t *out)
{
	long long v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 1000000000000LL)
			return false;
		v = v * 10 + (*s - '0');
	}
	*out = (time_t)v;
	*p = s;
	return true;
}

/* Parse the line [s, e) (without its LF); false for a damaged or comment line. */
static bool parse_line(const char *s, const char *e, struct event *ev)
{
	const char *u;
	size_t n;

	if (!parse_time(&s, &ev->time) || s >= e || *s++ != ' ')
		return false;
	for (u = s; s < e && *s != ' '; s++)
		;
	n = (size_t)(s - u);
	if (n == 0 || n > IDENT_USERID_MAX || s + 3 > e || s[0] != ' ' || s[2] != ' ')
		return false;
	memcpy(ev->userid, u, n);
	ev->userid[n] = '\0';
	if (!ident_userid_ok(ev->userid))
		return false;
	ev->kind = (enum kind)s[1];
	s += 3;
	switch (ev->kind) {
	case FAILURE:
	case CLEARED:
	case CHALLENGE:
	case CHAT:
	case REPLY:
		return s < e;
	case LOCKOUT:
		return parse_time(&s, &ev->until) && s == e && ev->until > ev->time;
	}
	return false;
}

/* Read the record; a missing or over-large file reads as empty. */
static enum store_status record_read(struct store *st, struct record *r);

/*
 * Take the file's lock into *lock, then read the record into *r (zeroed
 * by the caller); the caller frees *r and releases *lock either way.
 */
static enum store_status lock_and_read(struct store *st, const struct config *cfg, struct store_lock *lock,
    struct record *r)
{
	enum store_status ss = store_lock_path(st, THROTTLE_LOCK_FILE, cfg->lock_timeout_ms, lock);

	return ss != STORE_OK ? ss : record_read(st, r);
}

/* Read the record; a missing or over-large file reads as empty. */
static enum store_status record_read(struct store *st, struct record *r)
{
	enum store_status ss;
	const char *s, *e, *nl;
	size_t len, cap = 0;

	memset(r, 0, sizeof *r);
	ss = store_read_file(st, THROTTLE_FILE, THROTTLE_FILE_MAX, &r->data, &len);
	r->too_big = ss == STORE_TOO_BIG;
	if (ss == STORE_NOT_FOUND || ss == STORE_TOO_BIG)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	for (s = r->data, e = r->data + len; s < e; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (nl == NULL)
			break;	/* a last line a crash cut short */
		if (r->n == cap) {
			struct event *nev;

			cap = cap != 0 ? cap * 2 : 64;
			nev = realloc(r->ev, cap * sizeof *nev);
			if (nev == NULL) {
				record_free(r);
				return STORE_TEMPFAIL;	/* out of memory */
			}
			r->ev = nev;
		}
		if (!parse_line(s, nl, &r->ev[r->n]))
			continue;
		r->ev[r->n].text = s;
		r->ev[r->n].len = (size_t)(nl + 1 - s);
		r->n++;
	}
	return STORE_OK;
}

/* userid's state at now, as the record says. */
static void state_of(const struct record *r, const char *userid, time_t now, struct throttle_state *out)
{
	time_t since = now - THROTTLE_WINDOW;	/* failures after this count */
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < r->n; i++) {
		const struct event *ev = &r->ev[i];

		if (strcmp(ev->userid, userid) != 0 || ev->time > now)
			continue;
		if (ev->kind == LOCKOUT && ev->until > now && ev->until > out->until)
			out->until = ev->until;
		/* a lockout over, or a new password, starts the count afresh */
		if (ev->kind == LOCKOUT && ev->until <= now && ev->until > since)
			since = ev->until - 1;
		if (ev->kind == CLEARED && ev->time > since) {
			since = ev->time;
			out->until = 0;
		}
	}
	for (i = 0; i < r->n; i++) {
		const struct event *ev = &r->ev[i];

		if (ev->kind == FAILURE && ev->time > since && ev->time <= now && strcmp(ev->userid, userid) == 0)
			out->failures++;
	}
}

/* Is ev still needed at now (see throttle.h)? */
static bool still_needed(const struct event *ev, time_t now)
{
	if (ev->kind == LOCKOUT)
		return ev->until > now - THROTTLE_WINDOW;
	return ev->time > now - THROTTLE_WINDOW;
}

/* Rewrite the record: the lines still needed, then extra (extra_len bytes). */
static enum store_status record_write(struct store *st, const struct record *r, time_t now, const char *extra,
    size_t extra_len)
{
	enum store_status ss;
	size_t i, len = strlen(HEADER);
	char *out, *p;

	for (i = 0; i < r->n; i++)
		if (still_needed(&r->ev[i], now))
			len += r->ev[i].len;
	out = malloc(len + extra_len);
	if (out == NULL)
		return STORE_TEMPFAIL;	/* out of memory */
	p = out;
	memcpy(p, HEADER, strlen(HEADER));
	p += strlen(HEADER);
	for (i = 0; i < r->n; i++) {
		if (still_needed(&r->ev[i], now)) {
			memcpy(p, r->ev[i].text, r->ev[i].len);
			p += r->ev[i].len;
		}
	}
	memcpy(p, extra, extra_len);
	p += extra_len;
	ss = store_write_capped(st, THROTTLE_FILE, out, (size_t)(p - out), THROTTLE_FILE_MAX);
	free(out);
	return ss;
}

enum store_status throttle_check(struct store *st, const struct config *cfg, const char *userid, time_t now,
    struct throttle_state *out)
{
	struct record r;
	enum store_status ss;

	memset(out, 0, sizeof *out);
	if (cfg->max_password_failures == 0)
		return STORE_OK;
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	state_of(&r, userid, now, out);
	out->full = record_full(&r, now);
	record_free(&r);
	return STORE_OK;
}

/*
 * Is the record too full to count one more failure?  What a rewrite keeps
 * (still_needed) and THROTTLE_FULL_MARGIN must fit in THROTTLE_FILE_MAX.
 */
static bool record_full(const struct record *r, time_t now)
{
	size_t live = 0, i;

	for (i = 0; i < r->n; i++)
		if (still_needed(&r->ev[i], now))
			live += r->ev[i].len;
	return r->too_big || live + THROTTLE_FULL_MARGIN > (size_t)THROTTLE_FILE_MAX;
}

/* A sender as one word of a line: bytes outside '!'..'~' become '?'. */
static void word_of(const char *s, char out[MAILADDR_MAX + 1])
{
	size_t i;

	for (i = 0; s[i] != '\0' && i < MAILADDR_MAX; i++)
		out[i] = s[i] > ' ' && s[i] <= '~' ? s[i] : '?';
	out[i] = '\0';
	if (i == 0)
		snprintf(out, MAILADDR_MAX + 1, "-");
}

enum store_status throttle_fail(struct store *st, const struct config *cfg, const char *userid,
    const char *sender, time_t now, struct throttle_state *out)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char line[2 * (IDENT_USERID_MAX + MAILADDR_MAX + 64)], who[MAILADDR_MAX + 1];
	struct record r = { .n = 0 };
	enum store_status ss;
	int n, m = 0;

	memset(out, 0, sizeof *out);
	if (cfg->max_password_failures == 0)
		return STORE_OK;
	ss = lock_and_read(st, cfg, &lock, &r);
	if (ss != STORE_OK)
		goto out;
	state_of(&r, userid, now, out);
	if (out->until != 0)
		goto out;	/* locked: nothing was checked, nothing counts */
	out->full = record_full(&r, now);
	if (out->full) {
		store_set_error(st, "%s/%s is full (%ld bytes): password checks are paused until failures expire",
		    store_home(st), THROTTLE_FILE, THROTTLE_FILE_MAX);
		ss = STORE_TOO_BIG;
		goto out;
	}
	word_of(sender != NULL ? sender : "", who);
	n = snprintf(line, sizeof line, "%lld %s F %s\n", (long long)now, userid, who);
	out->failures++;
	if (out->failures >= cfg->max_password_failures) {
		out->until = now + (time_t)cfg->password_lockout_minutes * 60;
		out->started = true;
		m = snprintf(line + n, sizeof line - (size_t)n, "%lld %s L %lld\n", (long long)now, userid,
		    (long long)out->until);
	}
	ss = record_write(st, &r, now, line, (size_t)n + (size_t)m);
out:
	record_free(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status throttle_prune(struct store *st, const struct config *cfg, time_t now, unsigned *dropped)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct record r = { .n = 0 };
	enum store_status ss;
	size_t i;

	*dropped = 0;
	ss = lock_and_read(st, cfg, &lock, &r);
	for (i = 0; ss == STORE_OK && i < r.n; i++)
		if (!still_needed(&r.ev[i], now))
			(*dropped)++;
	if (ss == STORE_OK && (*dropped > 0 || r.too_big))
		ss = record_write(st, &r, now, "", 0);
	record_free(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status throttle_clear(struct store *st, const struct config *cfg, const char *userid, time_t now)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char line[IDENT_USERID_MAX + 64];
	struct record r = { .n = 0 };
	struct throttle_state state;
	enum store_status ss;
	int n;

	if (cfg->max_password_failures == 0)
		return STORE_OK;
	ss = lock_and_read(st, cfg, &lock, &r);
	if (ss != STORE_OK)
		goto out;
	state_of(&r, userid, now, &state);
	if (state.failures == 0 && state.until == 0)
		goto out;	/* nothing to forget */
	n = snprintf(line, sizeof line, "%lld %s C -\n", (long long)now, userid);
	ss = record_write(st, &r, now, line, (size_t)n);
out:
	record_free(&r);
	store_unlock(&lock);
	return ss;
}

/* The events of kind by userid in (now - THROTTLE_WINDOW, now]. */
static enum store_status count_made(struct store *st, enum kind kind, const char *userid, time_t now,
    unsigned long *count)
{
	struct record r;
	enum store_status ss;
	size_t i;

	*count = 0;
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	for (i = 0; i < r.n; i++)
		if (r.ev[i].kind == kind && r.ev[i].time > now - THROTTLE_WINDOW && r.ev[i].time <= now &&
		    strcmp(r.ev[i].userid, userid) == 0)
			(*count)++;
	record_free(&r);
	return STORE_OK;
}

enum store_status throttle_chats(struct store *st, const char *userid, time_t now, unsigned long *count)
{
	return count_made(st, CHAT, userid, now, count);
}

/* Records one event of kind (CHAT, CHALLENGE) by userid on board, under the file's lock. */
static enum store_status event_made(struct store *st, const struct config *cfg, enum kind kind, const char *userid,
    long board, time_t now)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char line[IDENT_USERID_MAX + 64];
	struct record r = { .n = 0 };
	enum store_status ss;
	int n;

	ss = lock_and_read(st, cfg, &lock, &r);
	if (ss == STORE_OK) {
		n = snprintf(line, sizeof line, "%lld %s %c %ld\n", (long long)now, userid, (char)kind, board);
		ss = record_write(st, &r, now, line, (size_t)n);
	}
	record_free(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status throttle_chat_made(struct store *st, const struct config *cfg, const char *userid, long board,
    time_t now)
{
	return event_made(st, cfg, CHAT, userid, board, now);
}

enum store_status throttle_challenges(struct store *st, const char *userid, time_t now, unsigned long *count)
{
	return count_made(st, CHALLENGE, userid, now, count);
}

enum store_status throttle_challenge_made(struct store *st, const struct config *cfg, const char *userid,
    long board, time_t now)
{
	return event_made(st, cfg, CHALLENGE, userid, board, now);
}

/* Record, under throttle.lock, a token reply of userid (from sender) on board (throttle.h). */
enum store_status throttle_reply_made(struct store *st, const struct config *cfg, const char *userid, long board,
    const char *sender, time_t now)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char line[IDENT_USERID_MAX + MAILADDR_MAX + 64], folded[MAILADDR_MAX + 1], who[MAILADDR_MAX + 1];
	struct record r = { .n = 0 };
	enum store_status ss;
	int n;

	mailaddr_fold(sender, folded);
	word_of(folded, who);
	ss = lock_and_read(st, cfg, &lock, &r);
	if (ss == STORE_OK) {
		n = snprintf(line, sizeof line, "%lld %s %c %ld %s\n", (long long)now, userid, (char)REPLY, board, who);
		ss = record_write(st, &r, now, line, (size_t)n);
	}
	record_free(&r);
	store_unlock(&lock);
	return ss;
}

/* Append t to the growing array *a of *n; false when out of memory. */
static bool push_time(time_t **a, size_t *n, time_t t)
{
	time_t *na;

	if ((*n & (*n - 1)) == 0) {	/* 0, 1, 2, 4...: room doubled */
		na = realloc(*a, (*n != 0 ? *n * 2 : 1) * sizeof *na);
		if (na == NULL)
			return false;
		*a = na;
	}
	(*a)[(*n)++] = t;
	return true;
}

enum store_status throttle_replies(struct store *st, const char *sender, long board, time_t now,
    struct throttle_replies *out)
{
	char folded[MAILADDR_MAX + 1], who[MAILADDR_MAX + 1], num[32];
	struct record r;
	enum store_status ss;
	const char *s, *e;
	size_t i, wl;
	int nl;

	memset(out, 0, sizeof *out);
	mailaddr_fold(sender, folded);
	word_of(folded, who);
	wl = strlen(who);
	nl = snprintf(num, sizeof num, "%ld ", board);
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	/* the record is oldest first: the times come out sorted */
	for (i = 0; i < r.n && ss == STORE_OK; i++) {
		const struct event *ev = &r.ev[i];

		if (ev->kind != REPLY || ev->time <= now - THROTTLE_WINDOW || ev->time > now)
			continue;
		/* "TIME USERID R BOARD SENDER\n": the text after the kind */
		s = strchr(ev->text, ' ');
		s = s != NULL ? strchr(s + 1, ' ') : NULL;
		if (s == NULL)
			continue;
		s += 3;
		e = ev->text + ev->len - 1;
		if ((size_t)(e - s) < (size_t)nl || memcmp(s, num, (size_t)nl) != 0) {
			/* another board's reply: counted by its sender only */
			s = memchr(s, ' ', (size_t)(e - s));
			if (s == NULL)
				continue;
			s++;
		} else {
			s += nl;
			if ((size_t)(e - s) == wl && memcmp(s, who, wl) == 0 &&
			    !push_time(&out->board, &out->nboard, ev->time))
				ss = STORE_TEMPFAIL;
		}
		if (ss == STORE_OK && (size_t)(e - s) == wl && memcmp(s, who, wl) == 0 &&
		    !push_time(&out->all, &out->nall, ev->time))
			ss = STORE_TEMPFAIL;	/* out of memory */
	}
	record_free(&r);
	if (ss != STORE_OK)
		throttle_replies_free(out);
	return ss;
}

void throttle_replies_free(struct throttle_replies *r)
{
	free(r->all);
	free(r->board);
	memset(r, 0, sizeof *r);
}
