/* audience: who gets the mail of a board.  See audience.h. */
#include "store/audience.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/strbuf.h"

#define HEADER "# oustpbm watchers: <userid> all|results, one a line (README: Observers)\n"

/* The kinds of line: enum audience_watch's, then KIND_LAST, the stamp of the user's last change. */
#define KIND_LAST 2
#define KINDS 3
static const char *const kind_names[KINDS] = { "all", "results", "last" };

/* A stamp: AUDIENCE_STAMP_LEN lower-case hex digits. */
static bool stamp_ok(const char *s, size_t n)
{
	size_t i;

	if (n != AUDIENCE_STAMP_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/*
 * The watchers file, "" when missing; the caller frees *text.  With
 * lenient, one over AUDIENCE_FILE_MAX (an admin's edit, an older version:
 * writes are capped) reads as "" too, said on stderr and in the log: a
 * board mail goes to its players and observers, no move fails for it
 * (issue 31); a rewrite is refused instead (it would lose the lines).
 */
static enum store_status read_watchers_as(struct store *st, bool lenient, char **text, size_t *len)
{
	enum store_status ss;

	ss = store_read_file(st, AUDIENCE_FILE, AUDIENCE_FILE_MAX, text, len);
	if (ss == STORE_TOO_BIG && lenient) {
		store_complain(st, "%s/%s is larger than %ld bytes: read as no watchers (fsck)", store_home(st),
		    AUDIENCE_FILE, AUDIENCE_FILE_MAX);
		ss = STORE_NOT_FOUND;
	}
	if (ss == STORE_NOT_FOUND) {
		*text = strdup("");
		*len = 0;
		ss = *text != NULL ? STORE_OK : STORE_TEMPFAIL;
	}
	return ss;
}

static enum store_status read_watchers(struct store *st, char **text, size_t *len)
{
	return read_watchers_as(st, true, text, len);
}

/*
 * The next line of the watchers file from *p: its user id and kind (a
 * "last" line's stamp into stamp, when not NULL), false at the end.  A
 * comment, a blank or a malformed line (an admin's typo) is skipped: it
 * names nobody.
 */
static bool next_watcher(const char **p, char userid[IDENT_USERID_MAX + 1], int *kind, const char **line,
    size_t *linelen, char stamp[AUDIENCE_STAMP_LEN + 1])
{
	const char *s, *e, *sp, *w, *v;
	size_t n;

	for (s = *p; *s != '\0'; s = e + (*e == '\n')) {
		e = s + strcspn(s, "\n");
		*line = s;
		*linelen = (size_t)(e - s) + (*e == '\n');
		*p = e + (*e == '\n');
		if (*s == '#' || e == s)
			continue;
		sp = memchr(s, ' ', (size_t)(e - s));
		if (sp == NULL || (size_t)(sp - s) > IDENT_USERID_MAX)
			continue;
		memcpy(userid, s, (size_t)(sp - s));
		userid[sp - s] = '\0';
		w = sp + 1;
		v = memchr(w, ' ', (size_t)(e - w));
		n = (size_t)((v != NULL ? v : e) - w);
		for (*kind = 0; *kind < KINDS; (*kind)++)
			if (n == strlen(kind_names[*kind]) && strncmp(w, kind_names[*kind], n) == 0)
				break;
		/* "userid last STAMP"; the others have no value */
		if (*kind == KIND_LAST ? v == NULL || !stamp_ok(v + 1, (size_t)(e - v - 1)) : v != NULL)
			continue;
		if (*kind < KINDS && ident_userid_ok(userid)) {
			if (*kind == KIND_LAST && stamp != NULL) {
				memcpy(stamp, v + 1, AUDIENCE_STAMP_LEN);
				stamp[AUDIENCE_STAMP_LEN] = '\0';
			}
			return true;
		}
	}
	*p = s;
	return false;
}

enum store_status audience_watching(struct store *st, const char *userid, enum audience_watch kind, bool *yes)
{
	char *text = NULL, who[IDENT_USERID_MAX + 1];
	const char *p, *line;
	size_t len, linelen;
	enum store_status ss;
	int k;

	*yes = false;
	ss = read_watchers(st, &text, &len);
	if (ss != STORE_OK)
		return ss;
	for (p = text; next_watcher(&p, who, &k, &line, &linelen, NULL);)
		if (k == (int)kind && strcasecmp(who, userid) == 0)
			*yes = true;
	free(text);
	return STORE_OK;
}

/* Add u (found in the users file; skipped if gone) unless already in out[0..*n). */
static enum store_status add(struct store *st, const char *userid, enum audience_via via, struct audience_member **out,
    size_t *n, size_t *cap)
{
	struct audience_member *m;
	struct store_user u;
	enum store_status ss;
	size_t i;

	if (game_user_is_robot(userid) || strcmp(userid, GAME_OPEN_SEAT) == 0)
		return STORE_OK;	/* the robot reads no mail; an open seat has nobody */
	for (i = 0; i < *n; i++)
		if (strcasecmp((*out)[i].user.userid, userid) == 0)
			return STORE_OK;
	ss = store_user_find(st, userid, &u);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;	/* removed by the admin: nobody to tell */
	if (ss != STORE_OK)
		return ss;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		m = realloc(*out, *cap * sizeof **out);
		if (m == NULL)
			return STORE_TEMPFAIL;
		*out = m;
	}
	(*out)[*n].user = u;
	(*out)[*n].via = via;
	(*n)++;
	return STORE_OK;
}

enum store_status audience_of_board(struct store *st, const struct game *g, bool final,
    struct audience_member **out, size_t *n)
{
	char *text = NULL, who[IDENT_USERID_MAX + 1];
	const char *p, *line;
	size_t cap = 0, len, linelen;
	enum store_status ss;
	int i, k;

	*out = NULL;
	*n = 0;
	ss = add(st, g->black, AUDIENCE_PLAYER, out, n, &cap);
	if (ss == STORE_OK)
		ss = add(st, g->white, AUDIENCE_PLAYER, out, n, &cap);
	for (i = 0; i < g->nobservers && ss == STORE_OK; i++)
		if (!g->observers[i].results || final)
			ss = add(st, g->observers[i].userid, g->observers[i].results ? AUDIENCE_NOTIFY : AUDIENCE_OBSERVER, out, n, &cap);
	if (ss == STORE_OK)
		ss = read_watchers(st, &text, &len);
	for (p = text; ss == STORE_OK && next_watcher(&p, who, &k, &line, &linelen, NULL);)
		if (k == AUDIENCE_ALL || (k == AUDIENCE_RESULTS && final))
			ss = add(st, who, k == AUDIENCE_ALL ? AUDIENCE_WATCH_ALL : AUDIENCE_WATCH_RESULTS, out, n, &cap);
	free(text);
	if (ss != STORE_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return ss;
}

enum store_status audience_last(struct store *st, const char *userid, char stamp[AUDIENCE_STAMP_LEN + 1],
    bool *found)
{
	char *text = NULL, who[IDENT_USERID_MAX + 1], got[AUDIENCE_STAMP_LEN + 1];
	const char *p, *line;
	size_t len, linelen;
	enum store_status ss;
	int k;

	*found = false;
	stamp[0] = '\0';
	ss = read_watchers(st, &text, &len);
	if (ss != STORE_OK)
		return ss;
	for (p = text; next_watcher(&p, who, &k, &line, &linelen, got);)
		if (k == KIND_LAST && strcasecmp(who, userid) == 0) {
			memcpy(stamp, got, sizeof got);
			*found = true;
		}
	free(text);
	return STORE_OK;
}

void audience_stamp(const char *id, const char *sender, int64_t now, char stamp[AUDIENCE_STAMP_LEN + 1])
{
	struct strbuf sb = STRBUF_INIT;
	char *key;
	uint64_t h;

	if (id != NULL && id[0] != '\0')
		strbuf_printf(&sb, "mail %s\n%s", id, sender);
	else
		strbuf_printf(&sb, "nomail %s\n%lld %ld", sender, (long long)now, (long)getpid());
	key = strbuf_finish(&sb);
	/* out of memory: a stamp of its own, matching no copy (the copy is then refused as "already") */
	h = key != NULL ? store_text_hash(key, strlen(key)) : (uint64_t)now ^ (uint64_t)getpid() << 32;
	snprintf(stamp, AUDIENCE_STAMP_LEN + 1, "%016llx", (unsigned long long)h);
	free(key);
}

void audience_token(const char *stamp, char buf[AUDIENCE_TOKEN_MAX + 1])
{
	snprintf(buf, AUDIENCE_TOKEN_MAX + 1, "watchers %s", stamp);
}

/*
 * Rewrite the watchers file without the lines of userid (of kind, or of
 * every kind, its "last" line too, when kind < 0), then with "userid kind"
 * added when add_line and, with a stamp, its "last" line replaced by
 * "userid last stamp"; under watchers.lock.  *changed false when the
 * lines of kind would stay the same (then nothing is written).
 */
static enum store_status rewrite(struct store *st, unsigned long timeout_ms, const char *userid, int kind,
    bool add_line, const char *stamp, bool *changed)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *text = NULL, *out = NULL, who[IDENT_USERID_MAX + 1];
	const char *p, *line, *prev;
	size_t len, linelen;
	enum store_status ss;
	bool had = false;
	int k;

	*changed = false;
	ss = store_lock_path(st, AUDIENCE_LOCK_FILE, timeout_ms, &lock);
	if (ss != STORE_OK)
		return ss;
	ss = read_watchers_as(st, false, &text, &len);
	if (ss != STORE_OK)
		goto out;
	if (len == 0)
		strbuf_puts(&sb, HEADER);
	for (p = prev = text; *prev != '\0'; prev = p) {
		bool found = next_watcher(&p, who, &k, &line, &linelen, NULL);
		bool user = found && strcasecmp(who, userid) == 0;
		bool mine = user && (kind < 0 || k == kind);
		bool drop = mine || (user && k == KIND_LAST && stamp != NULL);

		/* the lines skipped on the way (comments, an admin's others) are kept as they are */
		strbuf_add(&sb, prev, found ? (size_t)(line - prev) : (size_t)(p - prev));
		if (!found)
			break;
		if (mine)
			had = true;
		if (!drop)
			strbuf_add(&sb, line, linelen);
		if (line[linelen - 1] != '\n' && !drop)
			strbuf_add(&sb, "\n", 1);
	}
	if (add_line)
		strbuf_printf(&sb, "%s %s\n", userid, kind_names[kind]);
	if (stamp != NULL)
		strbuf_printf(&sb, "%s %s %s\n", userid, kind_names[KIND_LAST], stamp);
	out = strbuf_finish(&sb);
	if (out == NULL) {
		ss = STORE_TEMPFAIL;
		goto out;
	}
	if (had == add_line)
		goto out;	/* there already, or not there to remove */
	ss = store_write_capped(st, AUDIENCE_FILE, out, strlen(out), AUDIENCE_FILE_MAX);
	if (ss == STORE_OK)
		*changed = true;
out:
	store_unlock(&lock);
	free(text);
	free(out);
	return ss;
}

enum store_status audience_watch(struct store *st, unsigned long timeout_ms, const char *userid,
    enum audience_watch kind, bool on, const char *stamp, bool *changed)
{
	assert(stamp == NULL || stamp_ok(stamp, strlen(stamp)));
	return rewrite(st, timeout_ms, userid, (int)kind, on, stamp, changed);
}

enum store_status audience_forget(struct store *st, unsigned long timeout_ms, const char *userid)
{
	bool changed;

	return rewrite(st, timeout_ms, userid, -1, false, NULL, &changed);
}
