/* web_update: the web site written whole, or after one change (web.h), and the hook after a mail's commit. */
#include "commands/services/web_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <math.h>

#include "base/msg.h"
#include "commands/pipeline/hooks.h"
#include "commands/services/standings.h"
#include "game/gamefile.h"

/* The board's own pages: the board now and its turns from `from` on. */
static enum process_status game_pages(struct web *w, const struct game *g, int from)
{
	enum process_status s = web_board_page(w, g);
	int k;

	for (k = from < 1 ? 1 : from; s == PROCESS_OK && k <= g->nturns; k++)
		s = web_turn_page(w, g, k);
	return s;
}

enum process_status web_update(struct web *w, const struct game *g)
{
	struct entry e, *old = NULL, key;
	enum process_status s;
	bool inserted = false;
	int from = 1;
	size_t i;

	if (game_is_open(g))
		return PROCESS_OK;	/* not a game yet: on the site once someone accepts it */
	s = web_summary_load(w);
	if (s != PROCESS_OK)
		return s;
	web_entry_of(g, &e);
	key.board = g->board;
	if (w->n > 0)
		old = bsearch(&key, w->e, w->n, sizeof *w->e, web_entry_cmp);
	if (old != NULL) {
		/* the last turn page known gains its "next" link */
		from = old->nturns <= g->nturns ? old->nturns : 1;
		e.off = old->off;
		e.len = old->len;
		*old = e;
		i = (size_t)(old - w->e);
	} else {
		s = web_entries_add(w, &e);
		if (s != PROCESS_OK)
			return s;
		/* in place by number; the lines after keep their offsets */
		for (i = w->n - 1; i > 0 && w->e[i - 1].board > e.board; i--) {
			w->e[i] = w->e[i - 1];
			w->e[i - 1] = e;
		}
		inserted = true;
	}
	s = game_pages(w, g, from);
	if (s == PROCESS_OK)
		s = web_summary_splice(w, i, inserted);
	if (s == PROCESS_OK)
		s = web_index_page(w);
	if (s == PROCESS_OK)
		s = web_shard_page(w, web_shard_of(g->board));
	if (s == PROCESS_OK)
		s = web_player_page(w, g->black);
	if (s == PROCESS_OK && strcmp(g->white, g->black) != 0)
		s = web_player_page(w, g->white);
	/* a rated game's end changed the ratings (settled before the site is updated); or a site without it yet */
	if (s == PROCESS_OK && ((game_over(g) && ratings_game_counts(g)) || !web_has_page(w, "standings.html")))
		s = web_standings_page(w);
	return s;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

enum process_status web_build(struct web *w)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum process_status s = PROCESS_OK;
	struct entry e;
	struct game g;
	long *boards = NULL;
	size_t nb = 0, i, np = 0;
	char **players = NULL, *text;
	size_t len;

	w->n = 0;
	w->loaded = true;
	/* the open challenges found anew */
	w->open_read = true;
	w->nopen = 0;
	w->open_changed = true;
	ss = store_list_boards(w->st, &boards, &nb);
	if (ss != STORE_OK)
		return web_fail(w, PROCESS_DATAERR, "%s", store_error(w->st));
	for (i = 0; s == PROCESS_OK && i < nb; i++) {
		ss = store_board_read(w->st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;
		if (ss != STORE_OK) {
			s = web_fail(w, PROCESS_DATAERR, "%s", store_error(w->st));
			break;
		}
		if (gamefile_parse(text, len, &g, &gerr) != GAME_OK) {
			/* one unreadable board does not keep the others off the site */
			msg_warn("web: games/%ld.game %s", boards[i], gerr.msg);
			free(text);
			continue;
		}
		free(text);
		if (game_is_open(&g)) {
			/* not a game yet: on the site once someone accepts it; till then an open challenge */
			s = web_open_note(w, g.board, &g);
			game_release(&g);
			continue;
		}
		s = game_pages(w, &g, 1);
		if (s == PROCESS_DATAERR) {
			msg_warn("web: %s", w->err);
			s = PROCESS_OK;
		}
		web_entry_of(&g, &e);
		game_release(&g);
		if (s == PROCESS_OK)
			s = web_entries_add(w, &e);
	}
	free(boards);
	if (s != PROCESS_OK)
		return s;
	qsort(w->e, w->n, sizeof *w->e, web_entry_cmp);
	s = web_summary_save(w);
	if (s == PROCESS_OK)
		s = web_index_page(w);
	for (i = 0; s == PROCESS_OK && i < w->n; i++)
		if (i == 0 || web_shard_of(w->e[i].board) != web_shard_of(w->e[i - 1].board))
			s = web_shard_page(w, web_shard_of(w->e[i].board));
	/* each player once */
	players = malloc((2 * w->n + 1) * sizeof *players);
	if (players == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	for (i = 0; i < w->n; i++) {
		players[np++] = w->e[i].black;
		players[np++] = w->e[i].white;
	}
	qsort(players, np, sizeof *players, name_cmp);
	for (i = 0; s == PROCESS_OK && i < np; i++)
		if (i == 0 || strcmp(players[i], players[i - 1]) != 0)
			s = web_player_page(w, players[i]);
	free(players);
	if (s == PROCESS_OK)
		s = web_standings_page(w);
	if (s == PROCESS_OK)
		s = web_tourns_sync(w, true);
	return s;
}

/* boards[i]'s entry: inserted in order when new; *old its turns before (0 if new). */
static enum process_status refresh_entry(struct web *w, const struct game *g, int *old)
{
	struct entry e, key, *at;
	enum process_status s;

	web_entry_of(g, &e);
	key.board = g->board;
	at = w->n > 0 ? bsearch(&key, w->e, w->n, sizeof *w->e, web_entry_cmp) : NULL;
	*old = 0;
	if (at != NULL) {
		*old = at->nturns <= g->nturns ? at->nturns : 1;
		*at = e;
		return PROCESS_OK;
	}
	s = web_entries_add(w, &e);
	if (s == PROCESS_OK)
		qsort(w->e, w->n, sizeof *w->e, web_entry_cmp);
	return s;
}

enum process_status web_boards_refresh(struct web *w, const long *boards, size_t n)
{
	struct gamefile_error gerr;
	enum process_status s = PROCESS_OK;
	char **players = NULL, *text;
	size_t i, np = 0, len;
	bool rated = false;
	struct game g;
	int from;

	if (!w->loaded && (s = web_summary_load(w)) != PROCESS_OK)
		return s;
	players = calloc(2 * n + 1, sizeof *players);
	if (players == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	for (i = 0; s == PROCESS_OK && i < n; i++) {
		if (store_board_read(w->st, boards[i], &text, &len) != STORE_OK)
			continue;	/* not made yet (a start a crash cut short) or gone: the next run */
		if (gamefile_parse(text, len, &g, &gerr) != GAME_OK) {
			free(text);
			continue;
		}
		free(text);
		if (!game_is_open(&g)) {
			s = refresh_entry(w, &g, &from);
			if (s == PROCESS_OK)
				s = game_pages(w, &g, from);
			if ((players[np++] = strdup(g.black)) == NULL || (players[np++] = strdup(g.white)) == NULL)
				s = web_fail(w, PROCESS_NOMEM, "out of memory");
			rated = rated || (game_over(&g) && ratings_game_counts(&g));
		}
		game_release(&g);
	}
	/* boards.txt written whole: its lines moved (what was read is no longer spliced into) */
	w->clean = false;
	if (s == PROCESS_OK)
		s = web_summary_save(w);
	if (s == PROCESS_OK)
		s = web_index_page(w);
	for (i = 0; s == PROCESS_OK && i < n; i++)
		if (i == 0 || web_shard_of(boards[i]) != web_shard_of(boards[i - 1]))
			s = web_shard_page(w, web_shard_of(boards[i]));
	qsort(players, np, sizeof *players, name_cmp);
	for (i = 0; s == PROCESS_OK && i < np; i++)
		if (i == 0 || strcmp(players[i], players[i - 1]) != 0)
			s = web_player_page(w, players[i]);
	if (s == PROCESS_OK && rated)
		s = web_standings_page(w);
	for (i = 0; i < np; i++)
		free(players[i]);
	free(players);
	return s;
}

/*
 * What follows a change: g's pages (when g is not NULL) or the standings
 * page (standings), then the open challenges (board is g, or gone when g
 * is NULL), and the pages of the tournaments whose file changed.
 */
static enum process_status after_pages(struct web *w, long board, const struct game *g, bool standings)
{
	enum process_status s = PROCESS_OK;

	if (g != NULL)
		s = web_update(w, g);
	if (s == PROCESS_OK && standings) {
		s = web_summary_load(w);	/* the boards being played, counted in the page */
		if (s == PROCESS_OK)
			s = web_standings_page(w);
	}
	if (s == PROCESS_OK && board != 0)
		s = web_open_note(w, board, g);
	if (s == PROCESS_OK)
		s = web_tourns_sync(w, false);
	return s;
}

/*
 * Open the site, write what follows a change (after_pages) and close it;
 * a failure is said on stderr and logged, never the command's: its change
 * is committed already, and `oustpbm web` writes the whole site again.
 */
static void after(const struct config *cfg, struct store *st, long board, const struct game *g, bool standings)
{
	char err[WEB_ERR_MAX], what[40];
	enum process_status s;
	struct web *w = NULL;

	if (cfg->web_dir[0] == '\0')
		return;
	s = web_open(cfg, st, cfg->web_dir, &w, err, sizeof err);
	if (s == PROCESS_OK) {
		s = after_pages(w, board, g, standings);
		if (s != PROCESS_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		web_close(w);
	}
	if (s != PROCESS_OK) {
		if (board != 0)
			snprintf(what, sizeof what, "board %ld", board);
		else
			snprintf(what, sizeof what, standings ? "standings" : "tournaments");
		msg_warn("web: %s: %s", what, err);
		store_log(st, "web: %s: %s: %s", what, process_status_str(s), err);
	}
}

void web_standings_after(struct server *srv)
{
	after(&srv->cfg, srv->st, 0, NULL, true);
}

void web_tournaments_after(struct server *srv)
{
	after(&srv->cfg, srv->st, 0, NULL, false);
}

void web_after_commit(struct server *srv, const struct game *g)
{
	after(&srv->cfg, srv->st, g->board, g, false);
}

/*
 * The web pages of the board a mail committed, after its replies were
 * flushed (pipeline/hooks.h): from its game file as committed (with a
 * robot's answer), read again once the game in hand is gone; a board no
 * longer there (a declined open challenge) leaves the open challenges.
 * board 0 (a mail that committed no board: a tournament's commands, seek):
 * the tournaments and the feed alone.  A failure changes nothing but the
 * site, and is logged.
 */
void web_hook_flushed(struct server *srv, long board)
{
	const struct config *cfg = &srv->cfg;
	struct store *st = srv->st;
	struct gamefile_error gerr;
	enum store_status ss;
	struct game g;
	char *text = NULL;
	size_t len;

	if (cfg->web_dir[0] == '\0' || st == NULL)
		return;
	if (board == 0) {
		web_tournaments_after(srv);
		return;
	}
	ss = store_board_read(st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		after(cfg, st, board, NULL, false);
		return;
	}
	if (ss != STORE_OK) {
		store_log(st, "web: board %ld: cannot read the game file: %s", board, store_error(st));
		return;
	}
	if (gamefile_parse(text, len, &g, &gerr) != GAME_OK) {
		store_log(st, "web: board %ld: %s", board, gerr.msg);
		free(text);
		return;
	}
	free(text);
	web_after_commit(srv, &g);
	game_release(&g);
}
