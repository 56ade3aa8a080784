/* seen: the record of handled mails (redelivery and per-sender limit). */
#include "store/seen.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/accounts.h"

#define FIELD_MAX 1024		/* bytes of an encoded sender or id */
#define HEADER "# oustpbm: handled mails (redelivery record, per-sender limit); see src/store/seen.h\n"

/*
 * What a line says.  An entry is "-" (stands) or pending; the two kinds of
 * settlement line, appended later, decide an earlier pending entry of the
 * same board and id: "=" it stands, "x" it was never committed.
 */
enum mark { MARK_ENTRY, MARK_STANDS, MARK_VOID };

/* One parsed line; sender and id point into the file text. */
struct line {
	struct seen_entry e;
	enum mark mark;
	const char *sender, *id;
	size_t sender_len, id_len;
	char userid[IDENT_USERID_MAX + 1];	/* a pending account entry's account, else "" */
};

struct record {
	char *text;		/* the file, NUL-terminated; owned */
	size_t len;
	struct line *lines;	/* owned */
	size_t n;
	bool too_big;		/* over SEEN_FILE_MAX: read as empty, to be started afresh */
	time_t oldest;		/* of the lines read, 0 if none */
};

enum store_status seen_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock)
{
	return store_lock_path(st, SEEN_LOCK_FILE, timeout_ms, lock);
}

/* Percent-encode s into out (FIELD_MAX bytes); "-" for NULL or "". */
static void encode(const char *s, char out[FIELD_MAX])
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	if (s == NULL || s[0] == '\0' || strcmp(s, "-") == 0) {
		/* "-" marks no id: a real "-" is written encoded */
		snprintf(out, FIELD_MAX, "%s", s != NULL && s[0] != '\0' ? "%2D" : "-");
		return;
	}
	for (; *s != '\0' && o + 4 < FIELD_MAX; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > ' ' && c <= '~' && c != '%') {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = '\0';
}

/*
 * The id as recorded: percent-encoded whole while that fits in SEEN_ID_KEEP
 * bytes (so every id seen so far is recorded as before), else "%00" and the
 * FNV-1a 64 hash and the length of the whole id, in hex ("%00" never starts
 * an encoded id: it would be a NUL).  Nothing is cut: two ids that differ
 * anywhere are two records.
 */
static void encode_id(const char *id, char out[FIELD_MAX])
{
	size_t len;

	encode(id, out);
	if (strlen(out) < SEEN_ID_KEEP)
		return;
	len = strlen(id);
	snprintf(out, FIELD_MAX, "%%00%016" PRIx64 ".%zx", store_text_hash(id, len), len);
}

/* The next space-separated field of [*p, end); false if there is none. */
static bool field(const char **p, const char *end, const char **f, size_t *n)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	*f = s;
	while (s < end && *s != ' ')
		s++;
	*n = (size_t)(s - *f);
	*p = s;
	return *n > 0;
}

static bool number(const char *f, size_t n, int base, unsigned long long max, unsigned long long *out)
{
	char buf[32];
	char *end;

	if (n == 0 || n >= sizeof buf || f[0] == '-' || f[0] == '+')
		return false;
	memcpy(buf, f, n);
	buf[n] = '\0';
	*out = strtoull(buf, &end, base);
	return *end == '\0' && *out <= max;
}

/* Parse one line [s, end); false for a damaged one. */
static bool parse_line(const char *s, const char *end, struct line *l)
{
	const char *f, *colon;
	size_t n;
	unsigned long long v, h;

	memset(l, 0, sizeof *l);
	if (!field(&s, end, &f, &n) || !number(f, n, 10, (unsigned long long)INT64_MAX, &v))
		return false;
	l->e.time = (time_t)v;
	if (!field(&s, end, &f, &n) || !number(f, n, 10, (unsigned long long)IDENT_BOARD_MAX, &v))
		return false;
	l->e.board = (long)v;
	if (!field(&s, end, &f, &n))
		return false;
	if (n == 1 && (f[0] == '=' || f[0] == 'x')) {
		l->mark = f[0] == '=' ? MARK_STANDS : MARK_VOID;
	} else if (!(n == 1 && f[0] == '-')) {
		colon = memchr(f, ':', n);
		if (colon == NULL ||
		    !number(f, (size_t)(colon - f), 10, (unsigned long long)STORE_BOARD_FILE_MAX, &v) ||
		    !number(colon + 1, n - (size_t)(colon + 1 - f), 16, UINT64_MAX, &h))
			return false;
		l->e.pending = true;
		l->e.game_len = (size_t)v;
		l->e.game_hash = h;
	}
	if (!field(&s, end, &l->sender, &l->sender_len) || !field(&s, end, &l->id, &l->id_len))
		return false;
	/* an account change pending (board 0) names its account: the entry's sixth field */
	if (l->mark == MARK_ENTRY && l->e.pending && l->e.board == 0) {
		if (!field(&s, end, &f, &n) || n > IDENT_USERID_MAX)
			return false;
		memcpy(l->userid, f, n);
		l->userid[n] = '\0';
	}
	return !field(&s, end, &f, &n);
}

static void record_free(struct record *r)
{
	free(r->text);
	free(r->lines);
	memset(r, 0, sizeof *r);
}

/* Read and parse the file; a missing or oversized one is an empty record. */
static enum store_status record_read(struct store *st, struct record *r)
{
	enum store_status ss;
	const char *p, *end, *nl;
	size_t len, cap = 0;

	memset(r, 0, sizeof *r);
	ss = store_read_file(st, SEEN_FILE, SEEN_FILE_MAX, &r->text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss == STORE_TOO_BIG) {
		r->too_big = true;
		return STORE_OK;
	}
	if (ss != STORE_OK)
		return ss;
	r->len = len;
	for (p = r->text, end = r->text + len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;	/* a line without its end was never written whole */
		if (*p == '#' || nl == p)
			continue;
		if (r->n == cap) {
			struct line *bigger;

			cap = cap != 0 ? cap * 2 : 64;
			bigger = realloc(r->lines, cap * sizeof *bigger);
			if (bigger == NULL) {
				record_free(r);
				return STORE_TEMPFAIL;
			}
			r->lines = bigger;
		}
		if (parse_line(p, nl, &r->lines[r->n])) {
			if (r->oldest == 0 || r->lines[r->n].e.time < r->oldest)
				r->oldest = r->lines[r->n].e.time;
			r->n++;
		}
	}
	return STORE_OK;
}

static bool same_line_id(const struct line *a, const struct line *b)
{
	return a->id_len == b->id_len && memcmp(a->id, b->id, a->id_len) == 0;
}

/* The settlement line after pending entry i that decides it, or NULL. */
static const struct line *settlement_of(const struct record *r, size_t i)
{
	size_t k;

	for (k = i + 1; k < r->n; k++)
		if (r->lines[k].mark != MARK_ENTRY && r->lines[k].e.board == r->lines[i].e.board &&
		    same_line_id(&r->lines[k], &r->lines[i]))
			return &r->lines[k];
	return NULL;
}

static bool same(const char *f, size_t n, const char *enc)
{
	return strlen(enc) == n && memcmp(f, enc, n) == 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

/* Is the encoded field f (n bytes) an address that folds to folded (mailaddr_fold)? */
static bool same_sender(const char *f, size_t n, const char *folded)
{
	char raw[MAILADDR_MAX + 1], fold[MAILADDR_MAX + 1];
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (o == MAILADDR_MAX)
			return false;	/* longer than any address */
		if (f[i] == '%' && i + 2 < n &&
		    hexval(f[i + 1]) >= 0 && hexval(f[i + 2]) >= 0) {
			raw[o++] = (char)(hexval(f[i + 1]) * 16 + hexval(f[i + 2]));
			i += 2;
		} else {
			raw[o++] = f[i];
		}
	}
	raw[o] = '\0';
	mailaddr_fold(raw, fold);
	return strcmp(fold, folded) == 0;
}

/* Does board's game file hold the text of pending entry l (or its account the token: board 0)? */
static enum store_status committed(struct store *st, const struct line *l, bool *yes)
{
	*yes = !l->e.pending;
	if (!l->e.pending)
		return STORE_OK;
	if (l->e.board == 0)
		return accounts_holds(st, l->userid, l->e.game_len, l->e.game_hash, yes);
	return store_board_holds(st, l->e.board, l->e.game_len, l->e.game_hash, yes);
}

enum store_status seen_is_duplicate(struct store *st, const char *id, const char *sender, bool *dup,
    time_t *when)
{
	char enc[FIELD_MAX], enc_sender[FIELD_MAX];
	struct record r;
	enum store_status ss;
	size_t i;

	*dup = false;
	*when = 0;
	if (id == NULL || id[0] == '\0')
		return STORE_OK;
	encode_id(id, enc);
	encode(sender, enc_sender);
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	for (i = r.n; i-- > 0;) {
		const struct line *l = &r.lines[i];

		/* per sender: another's mail with the same id is not this one */
		if (!same(l->id, l->id_len, enc) || !same(l->sender, l->sender_len, enc_sender))
			continue;
		if (l->mark == MARK_VOID)
			continue;	/* the pending entry it settles is skipped below */
		if (l->mark == MARK_STANDS) {
			*dup = true;
		} else if (l->e.pending) {
			const struct line *d = settlement_of(&r, i);

			if (d != NULL)
				*dup = d->mark == MARK_STANDS;
			else
				ss = committed(st, l, dup);
		} else {
			*dup = true;
		}
		if (ss != STORE_OK || *dup) {
			*when = l->e.time;
			break;
		}
	}
	record_free(&r);
	return ss;
}

/* Does line i of r count as a mail of folded (the per-sender limit)? */
static bool counted(const struct record *r, size_t i, const char *folded, time_t now)
{
	const struct line *l = &r->lines[i], *d;

	if (l->mark != MARK_ENTRY || l->e.time <= now - SEEN_RATE_WINDOW || l->e.time > now ||
	    !same_sender(l->sender, l->sender_len, folded))
		return false;
	/* a move never committed (a crash) is not counted, as if it had not come */
	d = l->e.pending ? settlement_of(r, i) : NULL;
	return d == NULL || d->mark == MARK_STANDS;
}

enum store_status seen_count_sender(struct store *st, const char *sender, time_t now, unsigned long *count)
{
	char folded[MAILADDR_MAX + 1];
	struct record r;
	enum store_status ss;
	size_t i;

	*count = 0;
	mailaddr_fold(sender, folded);
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	for (i = 0; i < r.n; i++)
		if (counted(&r, i, folded, now))
			(*count)++;
	record_free(&r);
	return STORE_OK;
}

static int time_cmp(const void *a, const void *b)
{
	time_t x = *(const time_t *)a, y = *(const time_t *)b;

	return x < y ? -1 : x > y;
}

enum store_status seen_sender_times(struct store *st, const char *sender, time_t now, time_t **times, size_t *n)
{
	char folded[MAILADDR_MAX + 1];
	struct record r;
	enum store_status ss;
	size_t i;

	*times = NULL;
	*n = 0;
	mailaddr_fold(sender, folded);
	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	/* at most one time per line */
	*times = malloc((r.n > 0 ? r.n : 1) * sizeof **times);
	if (*times == NULL) {
		record_free(&r);
		return STORE_TEMPFAIL;	/* out of memory */
	}
	for (i = 0; i < r.n; i++)
		if (counted(&r, i, folded, now))
			(*times)[(*n)++] = r.lines[i].e.time;
	record_free(&r);
	/* appended in time order, but a clock set back may break it */
	qsort(*times, *n, sizeof **times, time_cmp);
	return STORE_OK;
}

/* Append to a growing buffer; false when out of memory. */
static bool append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (n > SEEN_FILE_MAX)
		return false;	/* no field is near that long */
	if (*buf == NULL || *len + n + 1 > *cap) {
		size_t want = (*len + n + 1) * 2;
		char *bigger = realloc(*buf, want);

		if (bigger == NULL)
			return false;
		*buf = bigger;
		*cap = want;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return true;
}

/*
 * One line: l's entry (mark MARK_ENTRY) or a settlement of it; l's userid
 * only for a pending account entry (board 0), else ignored.
 */
static bool append_line(char **buf, size_t *len, size_t *cap, const struct line *l, enum mark mark)
{
	const struct seen_entry *e = &l->e;
	bool account = mark == MARK_ENTRY && e->pending && e->board == 0;

	char head[96];
	int n;

	if (mark != MARK_ENTRY)
		n = snprintf(head, sizeof head, "%lld %ld %c ", (long long)e->time, e->board,
		    mark == MARK_STANDS ? '=' : 'x');
	else if (e->pending)
		n = snprintf(head, sizeof head, "%lld %ld %zu:%016" PRIx64 " ", (long long)e->time, e->board,
		    e->game_len, e->game_hash);
	else
		n = snprintf(head, sizeof head, "%lld %ld - ", (long long)e->time, e->board);
	if (n < 0 || (size_t)n >= sizeof head)
		return false;	/* cannot happen with these fields; never written cut short */
	return append(buf, len, cap, head, (size_t)n) && append(buf, len, cap, l->sender, l->sender_len) &&
	    append(buf, len, cap, " ", 1) && append(buf, len, cap, l->id, l->id_len) &&
	    (!account || (append(buf, len, cap, " ", 1) && append(buf, len, cap, l->userid, strlen(l->userid)))) &&
	    append(buf, len, cap, "\n", 1);
}

/* Is e within SEEN_MAX_AGE of now (either way: a clock set back)?  Compaction keeps only those. */
static bool fresh(const struct seen_entry *e, time_t now)
{
	return e->time > now - SEEN_MAX_AGE && e->time <= now + SEEN_MAX_AGE;
}

/* At most the bytes line l takes once written again (its fields and the numbers'). */
static size_t line_bytes(const struct line *l)
{
	return l->sender_len + l->id_len + strlen(l->userid) + 64;
}

/* Must the record be compacted before this append?  Also before it could pass SEEN_FILE_MAX. */
static bool compact_due(const struct record *r, time_t now)
{
	return r->too_big || r->n >= SEEN_COMPACT_LINES || r->len + 2 * FIELD_MAX + 128 > (size_t)SEEN_FILE_MAX ||
	    (r->oldest != 0 && r->oldest <= now - SEEN_MAX_AGE - SEEN_COMPACT_SLACK);
}

/*
 * The record rewritten whole: settlement lines folded into the entries they
 * decide (stands: "-"; void: gone), entries out of SEEN_MAX_AGE dropped,
 * then the oldest beyond SEEN_MAX_ENTRIES - 1 (room for the new one);
 * damaged lines are not kept.  Appends to *out.
 */
static bool compact(const struct record *r, time_t now, char **out, size_t *len, size_t *cap)
{
	enum mark *fate = NULL;
	size_t i, kept = 0, bytes = 0;
	bool ok = false;

	fate = calloc(r->n + 1, sizeof *fate);
	if (fate == NULL)
		return false;
	for (i = 0; i < r->n; i++) {
		const struct line *l = &r->lines[i], *d;

		fate[i] = MARK_VOID;	/* dropped unless kept below */
		if (l->mark != MARK_ENTRY || !fresh(&l->e, now))
			continue;
		d = l->e.pending ? settlement_of(r, i) : NULL;
		if (d != NULL && d->mark == MARK_VOID)
			continue;
		fate[i] = d != NULL ? MARK_STANDS : MARK_ENTRY;
		kept++;
	}
	for (i = 0; i < r->n && kept >= SEEN_MAX_ENTRIES; i++)
		if (fate[i] != MARK_VOID) {
			fate[i] = MARK_VOID;
			kept--;
		}
	/* and the oldest while the kept lines would take more than half the cap (long ids and senders) */
	for (i = 0; i < r->n; i++)
		if (fate[i] != MARK_VOID)
			bytes += line_bytes(&r->lines[i]);
	for (i = 0; i < r->n && bytes > (size_t)SEEN_FILE_MAX / 2; i++)
		if (fate[i] != MARK_VOID) {
			fate[i] = MARK_VOID;
			bytes -= line_bytes(&r->lines[i]);
		}
	for (i = 0; i < r->n; i++) {
		struct line l = r->lines[i];

		if (fate[i] == MARK_VOID)
			continue;
		if (fate[i] == MARK_STANDS)
			l.e.pending = false;
		if (!append_line(out, len, cap, &l, MARK_ENTRY))
			goto out;
	}
	ok = true;
out:
	free(fate);
	return ok;
}

/*
 * Append a settlement line (stands or void, as its run's commit says) for
 * each unsettled pending entry of board (0: the accounts'); with
 * compacted_at, not for the entries compaction at that time drops.
 */
static enum store_status append_settlements(struct store *st, const struct record *r, long board,
    time_t compacted_at, char **out, size_t *len, size_t *cap)
{
	enum store_status ss;
	size_t i;
	bool yes;

	for (i = 0; i < r->n; i++) {
		const struct line *l = &r->lines[i];

		if (l->mark != MARK_ENTRY || !l->e.pending || l->e.board != board || settlement_of(r, i) != NULL)
			continue;
		if (compacted_at != 0 && !fresh(&l->e, compacted_at))
			continue;	/* compacted away */
		ss = committed(st, l, &yes);
		if (ss != STORE_OK)
			return ss;
		if (!append_line(out, len, cap, l, yes ? MARK_STANDS : MARK_VOID))
			return STORE_TEMPFAIL;
	}
	return STORE_OK;
}

/* A new line of the record: entry e of the encoded id and sender, with userid ("" for none). */
static void new_line(struct line *l, const struct seen_entry *e, const char *enc_id, const char *enc_sender,
    const char *userid)
{
	memset(l, 0, sizeof *l);
	l->e = *e;
	l->mark = MARK_ENTRY;
	l->sender = enc_sender;
	l->sender_len = strlen(enc_sender);
	l->id = enc_id;
	l->id_len = strlen(enc_id);
	snprintf(l->userid, sizeof l->userid, "%s", userid);
}

/*
 * seen_record(), and with board 0 and userid set seen_record_account():
 * the entry pending the account write of the token.  want's time, board,
 * game_len and game_hash are the entry's (the rest is set here).
 */
static enum store_status record_entry(struct store *st, const char *id, const char *sender,
    const struct seen_entry *want, const char *userid)
{
	const time_t now = want->time;
	const long board = want->board;
	char enc_id[FIELD_MAX], enc_sender[FIELD_MAX];
	struct seen_entry e;
	struct line nl;
	struct record r;
	enum store_status ss;
	char *out = NULL;
	size_t len = 0, cap = 0;
	bool whole, ok;

	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	/*
	 * Written whole: a new file (so that its name is durable too), one due
	 * for compaction, and one whose last line a crash cut short (appending
	 * would complete it into something it never said).
	 */
	whole = r.text == NULL || r.len == 0 || r.text[r.len - 1] != '\n' || compact_due(&r, now);
	ok = whole ? append(&out, &len, &cap, HEADER, strlen(HEADER)) && compact(&r, now, &out, &len, &cap) :
	    append(&out, &len, &cap, "", 0);	/* only to have a buffer */
	if (!ok) {
		ss = STORE_TEMPFAIL;
		goto out;
	}
	/*
	 * Settle the board's pending entries: its lock is held, so its file is
	 * the one their runs left.  Settlement lines go after the compacted
	 * text, which keeps undecided ones pending.
	 */
	if (board > 0 || userid != NULL) {
		ss = append_settlements(st, &r, board, whole ? now : 0, &out, &len, &cap);
		if (ss != STORE_OK)
			goto out;
	}
	e = *want;
	e.board = board > 0 ? board : 0;
	e.pending = board > 0 || userid != NULL;
	encode_id(id, enc_id);
	encode(sender, enc_sender);
	new_line(&nl, &e, enc_id, enc_sender, userid != NULL ? userid : "");
	if (!append_line(&out, &len, &cap, &nl, MARK_ENTRY)) {
		ss = STORE_TEMPFAIL;
		goto out;
	}
	if (whole) {
		ss = store_write_file(st, SEEN_FILE, out, len);
		/* durable before the caller's next rename (the game file's): store.h */
		if (ss == STORE_OK)
			ss = store_sync(st);
	} else {
		ss = store_append_file(st, SEEN_FILE, out, len);
	}
out:
	free(out);
	record_free(&r);
	return ss;
}

enum store_status seen_record(struct store *st, const char *id, const char *sender, time_t now, long board,
    const char *game, size_t game_len)
{
	struct seen_entry e = { now, board, false, game_len, game != NULL ? store_text_hash(game, game_len) : 0 };

	return record_entry(st, id, sender, &e, NULL);
}

enum store_status seen_record_account(struct store *st, const char *id, const char *sender, time_t now,
    const char *userid, const char *token)
{
	struct seen_entry e = { now, 0, true, strlen(token), store_text_hash(token, strlen(token)) };

	assert(userid != NULL && userid[0] != '\0' && strlen(userid) <= IDENT_USERID_MAX);
	return record_entry(st, id, sender, &e, userid);
}

/* A settlement line (stands: "=", else "x") for the entry of id and sender on board (0: an account's). */
static enum store_status settle_line(struct store *st, const char *id, const char *sender, time_t now, long board,
    enum mark mark)
{
	char enc_id[FIELD_MAX], enc_sender[FIELD_MAX];
	struct seen_entry e;
	struct line nl;
	char *out = NULL;
	size_t len = 0, cap = 0;
	enum store_status ss = STORE_TEMPFAIL;

	memset(&e, 0, sizeof e);
	e.time = now;
	e.board = board;
	encode_id(id, enc_id);
	encode(sender, enc_sender);
	new_line(&nl, &e, enc_id, enc_sender, "");
	if (append_line(&out, &len, &cap, &nl, mark))
		ss = store_append_file(st, SEEN_FILE, out, len);
	free(out);
	return ss;
}

enum store_status seen_void(struct store *st, const char *id, const char *sender, time_t now, long board)
{
	return settle_line(st, id, sender, now, board, MARK_VOID);
}

enum store_status seen_settle_account(struct store *st, const char *id, const char *sender, time_t now, bool stands)
{
	return settle_line(st, id, sender, now, 0, stands ? MARK_STANDS : MARK_VOID);
}

enum store_status seen_settle(struct store *st, long board)
{
	struct record r;
	enum store_status ss;
	char *out = NULL;
	size_t len = 0, cap = 0;

	ss = record_read(st, &r);
	if (ss != STORE_OK)
		return ss;
	/* as seen_record() does, without a new entry and without compacting */
	if (board > 0)
		ss = append_settlements(st, &r, board, 0, &out, &len, &cap);
	if (ss == STORE_OK && len > 0)
		ss = store_append_file(st, SEEN_FILE, out, len);
	free(out);
	record_free(&r);
	return ss;
}
