/* web_pages: the pages of the web site (web.h): their pieces, a board and its turns, the lists, a player, the standings. */
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

#include "base/strbuf.h"
#include "commands/services/standings.h"
#include "game/board.h"
#include "game/gamefile.h"
#include "game/html.h"
#include "game/review.h"
#include "mail/mailout.h"
#include "store/reviews.h"

/* ---- pieces of pages ---- */

void web_when(long long t, char buf[GAMEFILE_TIME_SIZE])
{
	gamefile_time_str((int64_t)t, buf);
	buf[10] = ' ';
	buf[16] = '\0';
}

static void player_link(struct strbuf *b, const char *root, const char *userid)
{
	/* user ids are [a-z0-9_-]: safe in a path and in text */
	strbuf_printf(b, "<a href=\"%splayer/%s.html\">%s</a>", root, userid, userid);
}

enum process_status web_page(struct web *w, const char *rel, const char *root, const char *title,
    const char *content)
{
	struct strbuf t = STRBUF_INIT, srv = STRBUF_INIT;
	struct mailout_var vars[4];
	enum mail_status ms;
	enum process_status s;
	char *ts = NULL, *ss = NULL, *out = NULL, err[MAILOUT_ERR_MAX * 2];

	html_escape(&t, title);
	html_escape(&srv, w->cfg->server_name);
	ts = strbuf_finish(&t);
	ss = strbuf_finish(&srv);
	if (ts == NULL || ss == NULL) {
		s = web_fail(w, PROCESS_NOMEM, "out of memory");
		goto out;
	}
	vars[0] = (struct mailout_var){ "title", ts };
	vars[1] = (struct mailout_var){ "content", content };
	vars[2] = (struct mailout_var){ "root", root };
	vars[3] = (struct mailout_var){ "server", ss };
	ms = mailout_template_expand(w->tmpl, vars, 4, &out, err, sizeof err);
	if (ms != MAIL_OK) {
		s = web_fail(w, ms == MAIL_NOMEM ? PROCESS_NOMEM : PROCESS_CONFIG, "web.html %s", err);
		goto out;
	}
	s = web_put(w, rel, out);
out:
	free(ts);
	free(ss);
	free(out);
	return s;
}

/* The status line of a game: "Turn 8: bob (White) to move." or the result. */
static void status_html(struct strbuf *b, const struct game *g, const char *root)
{
	const char *who = game_player_to_move(g);
	const char *wn = g->rg.result == RULES_BLACK_WINS ? g->black : g->white;
	const char *ln = g->rg.result == RULES_BLACK_WINS ? g->white : g->black;

	if (who != NULL) {
		strbuf_printf(b, "<p class=\"status\">Turn %d: ", g->rg.turn);
		player_link(b, root, who);
		strbuf_printf(b, " (%s) to move.</p>\n", g->rg.to_move == RULES_BLACK ? "Black" : "White");
		return;
	}
	strbuf_puts(b, "<p class=\"status\">");
	if (g->rg.result == RULES_BLACK_WINS || g->rg.result == RULES_WHITE_WINS) {
		player_link(b, root, wn);
		strbuf_puts(b, " won: ");
		player_link(b, root, ln);
		switch (g->end) {
		case GAME_END_RESIGN: strbuf_puts(b, " resigned"); break;
		case GAME_END_TIMEOUT: strbuf_puts(b, " ran out of time"); break;
		default: strbuf_puts(b, " has no stones left"); break;
		}
		strbuf_puts(b, ".</p>\n");
	} else {
		strbuf_puts(b, g->end == GAME_END_AGREEMENT ? "The game is drawn: the players agreed a draw.</p>\n" :
		    "The game is drawn: neither player can place.</p>\n");
	}
}

/* The players with their full names and largest/total figures. */
static void players_html(struct web *w, struct strbuf *b, const struct html_board *hb, const char *black,
    const char *white, const char *root)
{
	const char *names[2] = { black, white };
	struct store_user u;
	int i;

	strbuf_puts(b, "<table class=\"players\">\n<tr><th>Colour</th><th>Player</th><th>Largest group / stones</th></tr>\n");
	for (i = 0; i < 2; i++) {
		strbuf_printf(b, "<tr><td>%s</td><td>", i == 0 ? "Black (x)" : "White (o)");
		player_link(b, root, names[i]);
		if (store_user_find(w->st, names[i], &u) == STORE_OK && u.fullname[0] != '\0') {
			strbuf_puts(b, " (");
			html_text(b, u.fullname);
			strbuf_puts(b, ")");
		}
		strbuf_printf(b, "</td><td>%d / %d</td></tr>\n", hb->largest[i], hb->stones[i]);
	}
	strbuf_puts(b, "</table>\n");
}

/* The SVG and its text alternative, the ASCII board. */
static void figure_html(struct strbuf *b, const struct html_board *hb, const char *title, const char *ascii)
{
	strbuf_puts(b, "<figure class=\"board\">\n");
	html_board_svg(b, hb, title, "ascii");
	strbuf_puts(b, "<figcaption><pre id=\"ascii\" class=\"ascii\">");
	html_escape(b, ascii);
	strbuf_puts(b, "</pre></figcaption>\n</figure>\n");
}

static void turn_text(struct strbuf *b, const struct game *g, const struct game_turn *t)
{
	const int *p = game_turn_points(g, t);
	char name[4];
	int i;

	switch (t->action) {
	case GAME_PLACE:
		for (i = 0; i < t->npoints; i++) {
			strbuf_puts(b, i > 0 ? "," : "");
			strbuf_puts(b, rules_point_name(&g->rg.board, p[i], name));
		}
		break;
	case GAME_PASS: strbuf_puts(b, "pass (no placement)"); break;
	case GAME_SWAP: strbuf_puts(b, "swap"); break;
	case GAME_RESIGN: strbuf_puts(b, "resign"); break;
	case GAME_TIMEOUT: strbuf_puts(b, "out of time"); break;
	}
}

/* ---- the pages ---- */

/*
 * A finished board's kept review (store/reviews.h), if any: its chart as
 * inline SVG, and the mail's table (every turn's chances, a decided game's
 * last turns in one line) as text; one made during the game says which
 * turns it covers.
 */
static void review_html(struct web *w, struct strbuf *b, const struct game *g)
{
	struct review r;
	char *text = NULL, *svg = NULL, *table = NULL, why[200];
	size_t len;

	if (reviews_read(w->st, g->board, &text, &len) != STORE_OK)
		return;
	/* a review asked for during a game against the robot covers its first turns only: shown as such */
	if (review_parse(text, len, g, &r, why, sizeof why) == GAME_OK && r.nturns > 0) {
		svg = review_chart_svg(g, &r);
		table = review_table(g, &r);
	}
	if (svg != NULL && table != NULL) {
		strbuf_puts(b, "<h2>Review</h2>\n<p>Black's chance to win after each turn, as the robot's review "
		    "found it; the marks are the mistakes and blunders.</p>\n");
		if (r.nturns < g->nturns)
			strbuf_printf(b, "<p>The review was made during the game: it covers its first %d turns of %d (a "
			    "review asked for now covers them all).</p>\n", r.nturns, g->nturns);
		strbuf_puts(b, svg);
		strbuf_puts(b, "<pre class=\"review\">");
		html_escape(b, table);
		strbuf_puts(b, "</pre>\n");
	}
	free(svg);
	free(table);
	free(text);
	review_release(&r);
}

enum process_status web_board_page(struct web *w, const struct game *g)
{
	struct strbuf b = STRBUF_INIT;
	struct html_board *hb;
	enum process_status s;
	char ascii[BOARD_TEXT_MAX], title[200], rel[64], stamp[GAMEFILE_TIME_SIZE], dims[GAME_DIMENSIONS_SIZE];
	const char *who = game_player_to_move(g);
	char *content;
	int i;

	hb = malloc(sizeof *hb);
	if (hb == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	if (html_board_of_game(g, g->nturns, hb, NULL, NULL) != GAME_OK) {
		free(hb);
		return web_fail(w, PROCESS_DATAERR, "board %ld: its history cannot be replayed (oustpbm fsck %ld)", g->board,
		    g->board);
	}
	board_render_game(g, ascii);
	snprintf(title, sizeof title, "Oust board %ld", g->board);
	strbuf_printf(&b, "<p>%s, swap %s, started %s UTC.</p>\n", game_dimensions(g, false, dims),
	    g->swap ? "on" : "off", (web_when(g->created, stamp), stamp));
	status_html(&b, g, "../");
	players_html(w, &b, hb, g->black, g->white, "../");
	snprintf(title, sizeof title, "Board %ld after turn %d", g->board, g->nturns);
	figure_html(&b, hb, title, ascii);
	if (who != NULL) {
		strbuf_puts(&b, "<h2>To play</h2>\n<p>");
		player_link(&b, "../", who);
		strbuf_puts(&b, " sends a mail to <a href=\"mailto:");
		html_escape(&b, w->cfg->from_address);
		strbuf_puts(&b, "\">");
		html_escape(&b, w->cfg->from_address);
		strbuf_printf(&b, "</a> with the command:</p>\n<pre class=\"command\">move %ld#%d %s &lt;password&gt; "
		    "&lt;placements&gt;</pre>\n", g->board, g->rg.turn, who);
		if (g->swap && rules_game_can_swap(&g->rg))
			strbuf_printf(&b, "<p>or, to take over Black's stones (the pie rule):</p>\n<pre class=\"command\">"
			    "swap %ld#%d %s &lt;password&gt;</pre>\n", g->board, g->rg.turn, who);
	}
	if (game_over(g))
		review_html(w, &b, g);
	strbuf_puts(&b, "<h2>History</h2>\n");
	if (g->nturns == 0)
		strbuf_puts(&b, "<p>No turns yet.</p>\n");
	else
		strbuf_puts(&b, "<table class=\"history\">\n<tr><th>Turn</th><th>Time (UTC)</th><th>Player</th><th>Turn played</th></tr>\n");
	for (i = 0; i < g->nturns; i++) {
		const struct game_turn *t = &g->turns[i];

		web_when(t->time, stamp);
		strbuf_printf(&b, "<tr><td><a href=\"%ld-%d.html\">%d</a></td><td>%s</td><td>%c ", g->board, t->number,
		    t->number, stamp, t->color == RULES_BLACK ? 'x' : 'o');
		player_link(&b, "../", t->player);
		strbuf_puts(&b, "</td><td>");
		turn_text(&b, g, t);
		strbuf_puts(&b, "</td></tr>\n");
	}
	if (g->nturns > 0)
		strbuf_puts(&b, "</table>\n");
	free(hb);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust board %ld", g->board);
	snprintf(rel, sizeof rel, "board/%ld.html", g->board);
	s = web_page(w, rel, "../", title, content);
	free(content);
	return s;
}

enum process_status web_turn_page(struct web *w, const struct game *g, int k)
{
	struct strbuf b = STRBUF_INIT;
	struct html_board *hb;
	enum process_status s;
	char ascii[BOARD_TEXT_MAX], title[200], rel[64], stamp[GAMEFILE_TIME_SIZE];
	char black[GAME_NAME_SIZE], white[GAME_NAME_SIZE];
	const struct game_turn *t = &g->turns[k - 1];
	char *content;

	hb = malloc(sizeof *hb);
	if (hb == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	if (html_board_of_game(g, k, hb, black, white) != GAME_OK ||
	    board_render_turn(g, k, ascii) != GAME_OK) {
		free(hb);
		return web_fail(w, PROCESS_DATAERR, "board %ld: its history cannot be replayed (oustpbm fsck %ld)", g->board,
		    g->board);
	}
	web_when(t->time, stamp);
	strbuf_printf(&b, "<p class=\"nav\"><a href=\"%ld.html\">Board %ld now</a>", g->board, g->board);
	if (k > 1)
		strbuf_printf(&b, " &middot; <a href=\"%ld-%d.html\">turn %d</a>", g->board, k - 1, k - 1);
	if (k < g->nturns)
		strbuf_printf(&b, " &middot; <a href=\"%ld-%d.html\">turn %d</a>", g->board, k + 1, k + 1);
	strbuf_printf(&b, "</p>\n<p class=\"status\">Turn %d, %s UTC: %c ", k, stamp, t->color == RULES_BLACK ? 'x' : 'o');
	player_link(&b, "../", t->player);
	strbuf_puts(&b, " played ");
	turn_text(&b, g, t);
	strbuf_puts(&b, ".</p>\n");
	players_html(w, &b, hb, black, white, "../");
	snprintf(title, sizeof title, "Board %ld after turn %d", g->board, k);
	figure_html(&b, hb, title, ascii);
	free(hb);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust board %ld, turn %d", g->board, k);
	snprintf(rel, sizeof rel, "board/%ld-%d.html", g->board, k);
	s = web_page(w, rel, "../", title, content);
	free(content);
	return s;
}

static bool entry_over(const struct entry *e)
{
	return strcmp(e->result, "playing") != 0;
}

/* A table of the boards e[idx[0..n)], in that order; over: the finished ones (a result column). */
static void boards_table(struct strbuf *b, const struct entry *e, const size_t *idx, size_t n,
    const char *root, bool over)
{
	char stamp[GAMEFILE_TIME_SIZE];
	size_t i;

	strbuf_printf(b, "<table class=\"boards\">\n<tr><th>Board</th><th>Size</th><th>Black</th><th>White</th>"
	    "<th>%s</th><th>Last move (UTC)</th></tr>\n", over ? "Result" : "State");
	for (i = 0; i < n; i++) {
		const struct entry *x = &e[idx[i]];

		web_when(x->last_move, stamp);
		strbuf_printf(b, "<tr><td><a href=\"%sboard/%ld.html\">%ld</a></td><td>", root, x->board, x->board);
		if (x->hex)
			strbuf_printf(b, "hex side %d</td><td>", x->size);
		else
			strbuf_printf(b, "%dx%d</td><td>", x->size, x->size);
		player_link(b, root, x->black);
		strbuf_puts(b, "</td><td>");
		player_link(b, root, x->white);
		if (over || entry_over(x)) {
			strbuf_puts(b, "</td><td>");
			html_escape(b, x->result);
		} else {
			strbuf_printf(b, "</td><td>%d, ", x->turn);
			player_link(b, root, x->to_move);
			strbuf_puts(b, " to move");
		}
		strbuf_printf(b, "</td><td>%s</td></tr>\n", stamp);
	}
	strbuf_puts(b, "</table>\n");
}

static const struct entry *sort_base;

/* Most recent first, then by board. */
static int recent_cmp(const void *a, const void *b)
{
	const struct entry *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];

	if (x->last_move != y->last_move)
		return x->last_move > y->last_move ? -1 : 1;
	return x->board < y->board ? -1 : x->board > y->board;
}

/* The boards of userid (all when NULL), running ones in idx[0..*nrun), then the finished ones, most recent first. */
static size_t *select_boards(struct web *w, const char *userid, size_t *nrun, size_t *nover)
{
	size_t *idx = malloc((w->n + 1) * sizeof *idx), i, r = 0, o = 0;

	if (idx == NULL)
		return NULL;
	for (i = 0; i < w->n; i++)
		if (userid == NULL || strcmp(w->e[i].black, userid) == 0 || strcmp(w->e[i].white, userid) == 0)
			if (!entry_over(&w->e[i]))
				idx[r++] = i;
	for (i = 0; i < w->n; i++)
		if (userid == NULL || strcmp(w->e[i].black, userid) == 0 || strcmp(w->e[i].white, userid) == 0)
			if (entry_over(&w->e[i]))
				idx[r + o++] = i;
	sort_base = w->e;
	qsort(idx + r, o, sizeof *idx, recent_cmp);
	*nrun = r;
	*nover = o;
	return idx;
}

/* The shard of the full list that board is on: all-1.html holds boards 101.. */
long web_shard_of(long board)
{
	return (board - IDENT_BOARD_MIN) / WEB_SHARD + 1;
}

enum process_status web_index_page(struct web *w)
{
	struct strbuf b = STRBUF_INIT;
	size_t nrun, nover, *idx = select_boards(w, NULL, &nrun, &nover), i;
	enum process_status s;
	char *content;
	long k, last = 0;

	if (idx == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	sort_base = w->e;
	qsort(idx, nrun, sizeof *idx, recent_cmp);
	strbuf_printf(&b, "<h2>Boards being played (%zu)</h2>\n", nrun);
	if (nrun > WEB_INDEX_ACTIVE)
		strbuf_printf(&b, "<p>The %d with the latest moves; all the boards are listed below.</p>\n",
		    WEB_INDEX_ACTIVE);
	if (nrun > 0)
		boards_table(&b, w->e, idx, nrun < WEB_INDEX_ACTIVE ? nrun : WEB_INDEX_ACTIVE, "", false);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	strbuf_printf(&b, "<h2>Recently finished</h2>\n");
	if (nover > 0)
		boards_table(&b, w->e, idx + nrun, nover < WEB_RECENT ? nover : WEB_RECENT, "", true);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	if (w->n > 0) {
		strbuf_puts(&b, "<h2>All boards</h2>\n<p>");
		for (i = 0; i < w->n; i++) {
			k = web_shard_of(w->e[i].board);
			if (k != last)
				strbuf_printf(&b, "%s<a href=\"all-%ld.html\">%ld&ndash;%ld</a>", last != 0 ? " &middot; " : "",
				    k, IDENT_BOARD_MIN + (k - 1) * WEB_SHARD, IDENT_BOARD_MIN + k * WEB_SHARD - 1);
			last = k;
		}
		strbuf_puts(&b, "</p>\n");
	}
	strbuf_puts(&b, "<p><a href=\"standings.html\">Standings</a> of the rated players.</p>\n");
	strbuf_puts(&b, "<p><a href=\"tournaments.html\">Tournaments</a> and <a href=\"tournaments.html#open\">open "
	    "challenges</a>, also as an <a href=\"" WEB_FEED "\">Atom feed</a>.</p>\n");
	strbuf_puts(&b, "<p>To play, send <code>help</code> by mail to <a href=\"mailto:");
	html_escape(&b, w->cfg->from_address);
	strbuf_puts(&b, "\">");
	html_escape(&b, w->cfg->from_address);
	strbuf_puts(&b, "</a>.</p>\n");
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	s = web_page(w, "index.html", "", "Oust boards", content);
	free(content);
	return s;
}

/* all-K.html: every board of shard k, by number. */
enum process_status web_shard_page(struct web *w, long k)
{
	struct strbuf b = STRBUF_INIT;
	size_t i, n = 0, *idx = malloc((w->n + 1) * sizeof *idx);
	enum process_status s;
	char *content, title[100], rel[64];

	if (idx == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	for (i = 0; i < w->n; i++)
		if (web_shard_of(w->e[i].board) == k)
			idx[n++] = i;
	boards_table(&b, w->e, idx, n, "", false);
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust boards %ld to %ld", IDENT_BOARD_MIN + (k - 1) * WEB_SHARD,
	    IDENT_BOARD_MIN + k * WEB_SHARD - 1);
	snprintf(rel, sizeof rel, "all-%ld.html", k);
	s = web_page(w, rel, "", title, content);
	free(content);
	return s;
}

enum process_status web_player_page(struct web *w, const char *userid)
{
	struct strbuf b = STRBUF_INIT;
	size_t nrun, nover, i, *idx = select_boards(w, userid, &nrun, &nover);
	struct store_user u;
	enum process_status s;
	char *content, title[100], rel[80];
	int won = 0, lost = 0, drawn = 0;

	if (idx == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	for (i = nrun; i < nrun + nover; i++) {
		const struct entry *e = &w->e[idx[i]];
		size_t n = strlen(userid);

		if (strncmp(e->result, "won by ", 7) == 0)
			(strncmp(e->result + 7, userid, n) == 0 && e->result[7 + n] == ' ') ? won++ : lost++;
		else
			drawn++;
	}
	if (store_user_find(w->st, userid, &u) == STORE_OK && u.fullname[0] != '\0') {
		strbuf_puts(&b, "<p class=\"fullname\">");
		html_text(&b, u.fullname);
		strbuf_puts(&b, "</p>\n");
	}
	strbuf_printf(&b, "<p>%zu boards being played; finished: %d won, %d lost, %d drawn.</p>\n", nrun, won, lost,
	    drawn);
	strbuf_puts(&b, "<p><a href=\"../standings.html\">Standings</a> of the rated players.</p>\n");
	strbuf_puts(&b, "<h2>Boards being played</h2>\n");
	if (nrun > 0)
		boards_table(&b, w->e, idx, nrun, "../", false);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	strbuf_puts(&b, "<h2>Finished boards</h2>\n");
	if (nover > 0)
		boards_table(&b, w->e, idx + nrun, nover, "../", true);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust player %s", userid);
	snprintf(rel, sizeof rel, "player/%s.html", userid);
	s = web_page(w, rel, "../", title, content);
	free(content);
	return s;
}

/* Is the page rel there? */
bool web_has_page(const struct web *w, const char *rel)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof path, "%s/%s", w->dir, rel);
	return access(path, F_OK) == 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* How many of the sorted names[0..n) are name. */
static unsigned count_of(const char *const *names, size_t n, const char *name)
{
	size_t lo = 0, hi = n, mid;
	unsigned c = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(names[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(names[lo], name) == 0; lo++)
		c++;
	return c;
}

/*
 * standings.html: per board class, every rated player (closed accounts
 * left out: standings.h) by rating, with deviation, games, won-lost-drawn,
 * standing, active boards (boards.txt's) and games sought.  The robot's
 * levels have no page.
 */
enum process_status web_standings_page(struct web *w)
{
	static const char *const heads[] = { "established", "provisional", "inactive" };
	struct strbuf b = STRBUF_INIT;
	struct ratings r;
	struct seeks_entry *seeks = NULL;
	const char **playing = NULL;
	enum store_status ss;
	enum process_status s;
	size_t i, e, np = 0, nseeks = 0;
	char err[RATINGS_ERR_MAX > SEEKS_ERR_MAX ? RATINGS_ERR_MAX : SEEKS_ERR_MAX], *content = NULL;
	int64_t now = (int64_t)store_now(w->st);

	ss = ratings_load(w->st, true, &r, err);
	if (ss == STORE_OK && (ss = standings_drop_closed(w->st, &r)) != STORE_OK)
		snprintf(err, sizeof err, "%s", store_error(w->st));
	if (ss == STORE_OK)
		ss = seeks_load(w->st, SEEKS_SEEK, &seeks, &nseeks, err);
	if (ss != STORE_OK) {
		s = web_fail(w, ss == STORE_TEMPFAIL ? PROCESS_NOMEM : PROCESS_DATAERR, "standings: %s", err);
		goto out;
	}
	/* the players of the boards being played, sorted: each one's count by bisection */
	playing = malloc((2 * w->n + 1) * sizeof *playing);
	if (playing == NULL) {
		s = web_fail(w, PROCESS_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < w->n; i++) {
		if (entry_over(&w->e[i]))
			continue;
		playing[np++] = w->e[i].black;
		if (strcmp(w->e[i].white, w->e[i].black) != 0)
			playing[np++] = w->e[i].white;
	}
	qsort(playing, np, sizeof *playing, str_cmp);
	strbuf_puts(&b, "<p>Ratings are Glicko-2, one per board class; the deviation grows while a player has no "
	    "rated game (over 110: provisional; no rated game in the class for half a year: inactive).</p>\n");
	if (r.nplayers == 0)
		strbuf_puts(&b, "<p>Nobody has a rated game yet.</p>\n");
	for (i = 0; i < r.nplayers; i = e) {
		enum ratings_class cls = r.players[i].cls;
		unsigned long rank = 0;

		for (e = i + 1; e < r.nplayers && r.players[e].cls == cls; e++)
			;
		strbuf_printf(&b, "<h2 id=\"%s\">%s (%s): %zu player%s</h2>\n", ratings_class_name(cls),
		    ratings_class_name(cls), ratings_class_sizes(cls), e - i, e - i == 1 ? "" : "s");
		strbuf_puts(&b, "<table class=\"standings\">\n<thead><tr><th>#</th><th>player</th><th>rating</th>"
		    "<th>deviation</th><th>games</th><th>won-lost-drawn</th><th>standing</th><th>active</th>"
		    "<th>seeks</th></tr></thead>\n<tbody>\n");
		for (size_t k = i; k < e; k++) {
			const struct ratings_player *p = &r.players[k];
			struct glicko_rating g = ratings_now(p, now);

			strbuf_printf(&b, "<tr class=\"player\"><td>%lu</td><td>", ++rank);
			if (strchr(p->name, ':') != NULL)
				html_escape(&b, p->name);	/* a robot level: no page */
			else
				player_link(&b, "", p->name);
			strbuf_printf(&b, "</td><td>%ld</td><td>%ld</td><td>%lu</td><td>%lu-%lu-%lu</td><td>%s</td><td>%u</td>"
			    "<td>%u</td></tr>\n", lround(glicko_r(&g)), lround(glicko_rd(&g)), p->games, p->won, p->lost,
			    p->drawn, heads[ratings_standing(p, now)], count_of(playing, np, p->name),
			    seeks_of(seeks, nseeks, p->name));
		}
		strbuf_puts(&b, "</tbody>\n</table>\n");
	}
	strbuf_puts(&b, "<p>By mail: <code>standings [class]</code>, <code>rating &lt;userid&gt;</code>.</p>\n");
	content = strbuf_finish(&b);
	if (content == NULL) {
		s = web_fail(w, PROCESS_NOMEM, "out of memory");
		goto out;
	}
	s = web_page(w, "standings.html", "", "Oust standings", content);
out:
	free(content);
	free(playing);
	free(seeks);
	ratings_release(&r);
	return s;
}
