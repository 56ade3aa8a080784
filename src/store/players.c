/* players: the index of boards per player.  See players.h. */
#include "store/players.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "game/game.h"
#include "game/gamefile.h"

#define PATH_BUF 128

/* One board of one player, while the index is rebuilt. */
struct pair {
	char user[IDENT_USERID_MAX + 1];
	long board;
};

struct pairs {
	struct pair *p;
	size_t n, cap;
};

static bool list_path(const char *userid, char path[PATH_BUF])
{
	if (!ident_userid_ok(userid))
		return false;
	snprintf(path, PATH_BUF, "%s/%s", PLAYERS_DIR, userid);
	return true;
}

/*
 * A home without a game file yet has a complete index once its first board
 * is added: mark it so, and no rebuild is ever needed.  players.lock held.
 */
static enum store_status mark_if_new(struct store *st)
{
	enum store_status ss;
	char *text = NULL;
	long *boards = NULL;
	size_t len, n = 0;

	ss = store_read_file(st, PLAYERS_COMPLETE, 16, &text, &len);
	free(text);
	if (ss != STORE_NOT_FOUND)
		return ss;
	ss = store_list_boards(st, &boards, &n);
	free(boards);
	if (ss == STORE_OK && n == 0)
		ss = store_write_file(st, PLAYERS_COMPLETE, "", 0);
	return ss;
}

enum store_status players_add(struct store *st, unsigned long timeout_ms, long board, const char *black,
    const char *white)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	char path[PATH_BUF], line[32];
	int len = snprintf(line, sizeof line, "%ld\n", board);

	ss = store_lock_path(st, PLAYERS_LOCK_FILE, timeout_ms, &lock);
	if (ss != STORE_OK)
		return ss;
	ss = store_mkdir(st, PLAYERS_DIR);
	if (ss == STORE_OK)
		ss = mark_if_new(st);
	if (ss == STORE_OK && list_path(black, path))
		ss = store_append_file(st, path, line, (size_t)len);
	if (ss == STORE_OK && strcmp(black, white) != 0 && list_path(white, path))
		ss = store_append_file(st, path, line, (size_t)len);
	store_unlock(&lock);
	return ss;
}

enum store_status players_add_list(struct store *st, unsigned long timeout_ms, const char *userid, const long *boards,
    size_t n)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	char path[PATH_BUF], *text;
	size_t i, len = 0;

	if (n == 0)
		return STORE_OK;
	if (!list_path(userid, path))
		return STORE_BAD_ID;
	text = malloc(n * 24 + 1);
	if (text == NULL)
		return STORE_TEMPFAIL;
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, 24, "%ld\n", boards[i]);
	ss = store_lock_path(st, PLAYERS_LOCK_FILE, timeout_ms, &lock);
	if (ss == STORE_OK) {
		ss = store_mkdir(st, PLAYERS_DIR);
		if (ss == STORE_OK)
			ss = mark_if_new(st);
		if (ss == STORE_OK)
			ss = store_append_file(st, path, text, len);
		store_unlock(&lock);
	}
	free(text);
	return ss;
}

/* Parse a list: one board number per line; anything else is skipped. */
static enum store_status parse_list(const char *text, size_t len, long **boards, size_t *count)
{
	const char *p = text, *end = text + len, *nl;
	size_t cap = 0;
	long b, *bigger;

	*boards = NULL;
	*count = 0;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;	/* an append a crash cut short */
		if (!ident_board_parse(p, (size_t)(nl - p), &b))
			continue;
		if (*count == cap) {
			cap = cap != 0 ? cap * 2 : 64;
			bigger = realloc(*boards, cap * sizeof *bigger);
			if (bigger == NULL) {
				free(*boards);
				*boards = NULL;
				*count = 0;
				return STORE_TEMPFAIL;
			}
			*boards = bigger;
		}
		(*boards)[(*count)++] = b;
	}
	return STORE_OK;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->user, y->user);

	return c != 0 ? c : (x->board > y->board) - (x->board < y->board);
}

static bool push(struct pairs *ps, const char *user, long board)
{
	if (ps->n == ps->cap) {
		size_t ncap = ps->cap != 0 ? ps->cap * 2 : 1024;
		struct pair *bigger = realloc(ps->p, ncap * sizeof *bigger);

		if (bigger == NULL)
			return false;
		ps->p = bigger;
		ps->cap = ncap;
	}
	snprintf(ps->p[ps->n].user, sizeof ps->p[ps->n].user, "%s", user);
	ps->p[ps->n++].board = board;
	return true;
}

/* Build every list from the game files and what the lists say; players.lock held. */
static enum store_status rebuild(struct store *st)
{
	struct pairs ps = { NULL, 0, 0 };
	enum store_status ss;
	char **names = NULL, path[PATH_BUF], *text = NULL, *out = NULL;
	long *boards = NULL, *have = NULL;
	size_t nboards = 0, nnames = 0, nhave = 0, len, i, k, start, used, cap;

	ss = store_mkdir(st, PLAYERS_DIR);
	if (ss == STORE_OK)
		ss = store_list_boards(st, &boards, &nboards);
	for (i = 0; ss == STORE_OK && i < nboards; i++) {
		struct game g;

		if (store_board_read(st, boards[i], &text, &len) != STORE_OK)
			continue;	/* gone, or not a regular file: not a board of anyone */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && g.board == boards[i] &&
		    ident_userid_ok(g.black) && ident_userid_ok(g.white) &&
		    (!push(&ps, g.black, g.board) || (strcmp(g.black, g.white) != 0 && !push(&ps, g.white, g.board))))
			ss = STORE_TEMPFAIL;
		free(text);
		text = NULL;
	}
	/* what the lists say already: a board whose game file is being written now */
	if (ss == STORE_OK)
		ss = store_list_dir(st, PLAYERS_DIR, &names, &nnames);
	for (i = 0; ss == STORE_OK && i < nnames; i++) {
		if (!list_path(names[i], path) || store_read_file(st, path, PLAYERS_FILE_MAX, &text, &len) != STORE_OK)
			continue;
		ss = parse_list(text, len, &have, &nhave);
		for (k = 0; ss == STORE_OK && k < nhave; k++)
			if (!push(&ps, names[i], have[k]))
				ss = STORE_TEMPFAIL;
		free(have);
		have = NULL;
		free(text);
		text = NULL;
	}
	if (ss == STORE_OK && ps.n > 1)
		qsort(ps.p, ps.n, sizeof *ps.p, cmp_pair);
	/* one file per player, written whole */
	for (start = 0; ss == STORE_OK && start < ps.n; start = i) {
		cap = 64;
		used = 0;
		out = malloc(cap);
		for (i = start; out != NULL && i < ps.n && strcmp(ps.p[i].user, ps.p[start].user) == 0; i++) {
			char *bigger;

			if (i > start && ps.p[i].board == ps.p[i - 1].board)
				continue;
			if (used + 24 > cap) {
				bigger = realloc(out, cap * 2);
				if (bigger == NULL) {
					free(out);
					out = NULL;
					break;
				}
				out = bigger;
				cap *= 2;
			}
			used += (size_t)snprintf(out + used, cap - used, "%ld\n", ps.p[i].board);
		}
		if (out == NULL) {
			ss = STORE_TEMPFAIL;
			break;
		}
		if (list_path(ps.p[start].user, path))
			ss = store_write_file(st, path, out, used);
		free(out);
		out = NULL;
	}
	if (ss == STORE_OK)
		ss = store_write_file(st, PLAYERS_COMPLETE, "", 0);
	free(ps.p);
	free(boards);
	store_free_names(names, nnames);
	return ss;
}

enum store_status players_boards(struct store *st, unsigned long timeout_ms, const char *userid, long **boards,
    size_t *count)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	char path[PATH_BUF], *text = NULL;
	size_t len, i, k;
	bool complete;

	*boards = NULL;
	*count = 0;
	if (!list_path(userid, path))
		return STORE_OK;	/* no list can name it */
	ss = store_read_file(st, PLAYERS_COMPLETE, 16, &text, &len);
	free(text);
	text = NULL;
	complete = ss == STORE_OK;
	if (!complete) {
		long *all = NULL;
		size_t n = 0;

		/* no board at all: nothing to build, nothing to list */
		ss = store_list_boards(st, &all, &n);
		free(all);
		if (ss != STORE_OK || n == 0)
			return ss;
	}
	if (!complete) {
		ss = store_lock_path(st, PLAYERS_LOCK_FILE, timeout_ms, &lock);
		if (ss != STORE_OK)
			return ss;
		ss = store_read_file(st, PLAYERS_COMPLETE, 16, &text, &len);
		free(text);
		text = NULL;
		ss = ss == STORE_OK ? STORE_OK : rebuild(st);
		store_unlock(&lock);
		if (ss != STORE_OK)
			return ss;
	}
	ss = store_read_file(st, path, PLAYERS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	ss = parse_list(text, len, boards, count);
	free(text);
	if (ss != STORE_OK || *count < 2)
		return ss;
	qsort(*boards, *count, sizeof **boards, cmp_long);
	for (i = 1, k = 1; i < *count; i++)
		if ((*boards)[i] != (*boards)[k - 1])
			(*boards)[k++] = (*boards)[i];
	*count = k;
	return STORE_OK;
}
