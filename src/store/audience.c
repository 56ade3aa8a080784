/* audience: who gets the mail of a board.  See audience.h. */
#include "store/audience.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"

#define HEADER "# oustpbm watchers: <userid> all|results, one a line (README: Observers)\n"

static const char *const kind_names[] = { "all", "results" };

/* The watchers file, "" when missing; the caller frees *text. */
static enum store_status read_watchers(struct store *st, char **text, size_t *len)
{
	enum store_status ss;

	ss = store_read_file(st, AUDIENCE_FILE, AUDIENCE_FILE_MAX, text, len);
	if (ss == STORE_NOT_FOUND) {
		*text = strdup("");
		*len = 0;
		ss = *text != NULL ? STORE_OK : STORE_TEMPFAIL;
	}
	return ss;
}

/*
 * The next line of the watchers file from *p: its user id and kind, false
 * at the end.  A comment, a blank or a malformed line (an admin's typo) is
 * skipped: it names nobody.
 */
static bool next_watcher(const char **p, char userid[IDENT_USERID_MAX + 1], int *kind, const char **line,
    size_t *linelen)
{
	const char *s, *e, *sp;
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
		n = (size_t)(e - sp - 1);
		for (*kind = 0; *kind < 2; (*kind)++)
			if (n == strlen(kind_names[*kind]) && strncmp(sp + 1, kind_names[*kind], n) == 0)
				break;
		if (*kind < 2 && ident_userid_ok(userid))
			return true;
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
	for (p = text; next_watcher(&p, who, &k, &line, &linelen);)
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
	for (p = text; ss == STORE_OK && next_watcher(&p, who, &k, &line, &linelen);)
		if (k == AUDIENCE_ALL || final)
			ss = add(st, who, k == AUDIENCE_ALL ? AUDIENCE_WATCH_ALL : AUDIENCE_WATCH_RESULTS, out, n, &cap);
	free(text);
	if (ss != STORE_OK) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return ss;
}

/*
 * Rewrite the watchers file without the lines of userid (of kind, or of
 * every kind when kind < 0), then with "userid kind" added when add; under
 * watchers.lock.  *changed false when the text would stay the same.
 */
static enum store_status rewrite(struct store *st, unsigned long timeout_ms, const char *userid, int kind,
    bool add_line, bool *changed)
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
	ss = read_watchers(st, &text, &len);
	if (ss != STORE_OK)
		goto out;
	if (len == 0)
		strbuf_puts(&sb, HEADER);
	for (p = prev = text; *prev != '\0'; prev = p) {
		bool found = next_watcher(&p, who, &k, &line, &linelen);
		bool mine = found && strcasecmp(who, userid) == 0 && (kind < 0 || k == kind);

		/* the lines skipped on the way (comments, an admin's others) are kept as they are */
		strbuf_add(&sb, prev, found ? (size_t)(line - prev) : (size_t)(p - prev));
		if (!found)
			break;
		if (mine)
			had = true;
		else
			strbuf_add(&sb, line, linelen);
		if (line[linelen - 1] != '\n' && !mine)
			strbuf_add(&sb, "\n", 1);
	}
	if (add_line)
		strbuf_printf(&sb, "%s %s\n", userid, kind_names[kind]);
	out = strbuf_finish(&sb);
	if (out == NULL) {
		ss = STORE_TEMPFAIL;
		goto out;
	}
	if (had == add_line)
		goto out;	/* there already, or not there to remove */
	ss = store_write_file(st, AUDIENCE_FILE, out, strlen(out));
	if (ss == STORE_OK)
		*changed = true;
out:
	store_unlock(&lock);
	free(text);
	free(out);
	return ss;
}

enum store_status audience_watch(struct store *st, unsigned long timeout_ms, const char *userid,
    enum audience_watch kind, bool on, bool *changed)
{
	return rewrite(st, timeout_ms, userid, (int)kind, on, changed);
}

enum store_status audience_forget(struct store *st, unsigned long timeout_ms, const char *userid)
{
	bool changed;

	return rewrite(st, timeout_ms, userid, -1, false, &changed);
}
