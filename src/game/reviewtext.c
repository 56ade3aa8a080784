/* reviewtext: what a review shows, as text, HTML, SVG and SGF.  See review.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/board.h"
#include "game/html.h"
#include "game/review.h"
#include "game/sgf.h"

#define PLAYED_MAX 40	/* characters of the played turn in the table */

static int pct(double v)
{
	return (int)(v * 100 + 0.5);
}

static char symbol(enum rules_color c)
{
	return c == RULES_BLACK ? 'x' : 'o';
}

static const char *colour(enum rules_color c)
{
	return c == RULES_BLACK ? "Black" : "White";
}

/* Turn k's placements, or its action, "E5,F5", into buf. */
static void played(const struct game *g, int k, char *buf, size_t size)
{
	const struct game_turn *t = &g->turns[k - 1];
	const int *pts = game_turn_points(g, t);
	char name[4];
	size_t n;
	int i;

	if (t->action != GAME_PLACE) {
		snprintf(buf, size, "%s", game_action_str(t->action));
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < t->npoints; i++) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "%s%s", i > 0 ? "," : "", rules_point_name(&g->rg.board, pts[i], name));
	}
}

static void better_str(const struct game *g, const struct review_turn *t, char *buf, size_t size)
{
	char name[4];
	size_t n;
	int i;

	buf[0] = '\0';
	if (t->better_swap) {
		snprintf(buf, size, "swap");
		return;
	}
	for (i = 0; i < t->nbetter; i++) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "%s%s", i > 0 ? "," : "", rules_point_name(&g->rg.board, t->better[i], name));
	}
}

int review_decided(const struct review *r)
{
	bool low = true, high = true;
	int d = 0, i;

	if (r->exact)
		return 0;
	for (i = r->nturns - 1; i >= 0; i--) {
		low = low && r->turns[i].after < REVIEW_DECIDED;
		high = high && r->turns[i].after > 1 - REVIEW_DECIDED;
		if (!low && !high)
			break;
		d = i + 1;
	}
	return d;
}

char *review_table(const struct game *g, const struct review *r)
{
	struct strbuf b = STRBUF_INIT;
	char who[GAME_NAME_SIZE + 8], what[PLAYED_MAX * 4];
	int i, d = review_decided(r), shown = r->nturns;

	/* a decided game's last turns are noise: one line for them, when that is shorter */
	if (d > 0 && r->nturns - d >= 2)
		shown = d;
	strbuf_puts(&b, "turn  player         played          Black's chance\n"
	    "                                      before  after\n");
	for (i = 0; i < shown; i++) {
		const struct review_turn *t = &r->turns[i];

		snprintf(who, sizeof who, "%s (%c)", g->turns[i].player, symbol(t->color));
		played(g, i + 1, what, sizeof what);
		if (strlen(what) > 15)
			strcpy(what + 12, "...");
		strbuf_printf(&b, "%4d  %-14s %-15s %5d%%  %4d%%", t->number, who, what, pct(t->before), pct(t->after));
		if (review_kind_of(r, t) != REVIEW_FINE)
			strbuf_printf(&b, "  %s", review_kind_str(review_kind_of(r, t)));
		strbuf_puts(&b, "\n");
	}
	if (shown < r->nturns)
		strbuf_printf(&b, "%4d-%d  decided: Black's chance stayed %s %d%% to the end\n", shown + 1, r->nturns,
		    r->turns[shown].after < REVIEW_DECIDED ? "under" : "over",
		    r->turns[shown].after < REVIEW_DECIDED ? pct(REVIEW_DECIDED) : pct(1 - REVIEW_DECIDED));
	return strbuf_finish(&b);
}

/* ---- the costliest turns ---- */

/* Where the costliest turns go: text (drawings) or HTML (tables). */
struct worst_out {
	struct strbuf *b;
	bool html;
	char *drawing;		/* BOARD_TEXT_MAX */
	struct html_board *hb;
	struct game_replay *rp;
	struct rules_board *before;
	bool gap;		/* text: a drawing ended: a blank line before the next line */
};

/* A line of prose. */
static void worst_line(struct worst_out *o, const char *line)
{
	if (o->html) {
		strbuf_puts(o->b, "<p style=\"margin:8px 0 4px\">");
		html_text(o->b, line);
		strbuf_puts(o->b, "</p>\n");
	} else {
		strbuf_printf(o->b, "%s%s\n", o->gap ? "\n" : "", line);
		o->gap = false;
	}
}

/* The board of o->rp, the n placements pts marked (and what they took, in HTML), under caption. */
static void worst_board(struct worst_out *o, const char *caption, const int *pts, int n)
{
	worst_line(o, caption);
	if (o->html) {
		size_t len = o->b->len;

		html_board_from(o->hb, &o->rp->rg.board, o->before, pts, n);
		html_board_table(o->b, o->hb);
		if (o->b->len > REVIEW_WORST_HTML_MAX) {
			strbuf_truncate(o->b, len);
			worst_line(o, "(Its drawing is in the text part of this mail: one more board here would make the "
			    "mail too long for some mail programs.)");
		}
	} else {
		board_render(&o->rp->rg.board, o->rp->black, o->rp->white, pts, n, o->drawing);
		strbuf_printf(o->b, "\n%s", o->drawing);
		o->gap = true;
	}
}

/*
 * Replay g to position upto into o->rp, then play the n placements pts on
 * it (o->before: the board before them).  False if it does not replay.
 */
static bool replay_and_play(struct worst_out *o, const struct game *g, int upto, const int *pts, int n)
{
	int i;

	if (game_replay(g, upto, o->rp) != GAME_OK)
		return false;
	*o->before = o->rp->rg.board;
	for (i = 0; i < n; i++)
		if (!rules_is_legal(rules_game_play(&o->rp->rg, pts[i], NULL)))
			return false;
	return true;
}

/* What a whole turn of n placements that captured captured does, "C2, capturing 1 stone" or "C2 wins at once". */
static void turn_words(const char *pts, int captured, bool wins, char *buf, size_t size)
{
	if (wins)
		snprintf(buf, size, "%s wins at once (capturing %d stone%s)", pts, captured, captured == 1 ? "" : "s");
	else if (captured > 0)
		snprintf(buf, size, "%s, capturing %d stone%s", pts, captured, captured == 1 ? "" : "s");
	else
		snprintf(buf, size, "%s, capturing nothing", pts);
}

static bool won_by(const struct rules_game *rg, enum rules_color c)
{
	return rg->result == (c == RULES_BLACK ? RULES_BLACK_WINS : RULES_WHITE_WINS);
}

/* Costliest turn t (of index k): what it cost, the opponent's answer, the better turn, their boards. */
static void worst_turn(struct worst_out *o, const struct game *g, const struct review *r, int k)
{
	const struct review_turn *t = &r->turns[k];
	enum rules_color opp = RULES_OTHER(t->color);
	double mine_b = t->color == RULES_BLACK ? t->before : 1 - t->before;
	double mine_a = t->color == RULES_BLACK ? t->after : 1 - t->after;
	char what[PLAYED_MAX * 4], pts[REVIEW_BETTER_MAX * 4 + 8], words[REVIEW_BETTER_MAX * 4 + 64];
	char line[GAME_NAME_SIZE * 2 + PLAYED_MAX * 4 + REVIEW_BETTER_MAX * 4 + 200], who[GAME_NAME_SIZE];
	bool boards = false;
	int i;

	played(g, t->number, what, sizeof what);
	if (r->exact)
		snprintf(line, sizeof line, "Turn %d, %s (%s) played %s: the %s that lost the game: before it %s had a "
		    "won game with perfect play, after it a lost one.", t->number, g->turns[k].player, colour(t->color),
		    what, review_kind_str(review_kind_of(r, t)), colour(t->color));
	else
		snprintf(line, sizeof line, "Turn %d, %s (%s) played %s: a %s: %s's chance to win fell from %d%% to %d%%.",
		    t->number, g->turns[k].player, colour(t->color), what, review_kind_str(review_kind_of(r, t)),
		    colour(t->color), pct(mine_b), pct(mine_a));
	worst_line(o, line);

	/* the refutation: the opponent's best answer at the position after the turn played */
	if (t->answer_swap || t->nanswer > 0) {
		if (game_replay(g, t->number, o->rp) != GAME_OK)
			return;
		snprintf(who, sizeof who, "%s", opp == RULES_BLACK ? o->rp->black : o->rp->white);
		if (t->answer_swap) {
			snprintf(line, sizeof line, "%s's best answer: swap (take Black's first stone).", who);
			worst_line(o, line);
		} else if (replay_and_play(o, g, t->number, t->answer, t->nanswer)) {
			pts[0] = '\0';
			for (i = 0; i < t->nanswer; i++) {
				char name[4];
				size_t n = strlen(pts);

				snprintf(pts + n, sizeof pts - n, "%s%s", i > 0 ? "," : "",
				    rules_point_name(&g->rg.board, t->answer[i], name));
			}
			turn_words(pts, t->answer_captured, won_by(&o->rp->rg, opp), words, sizeof words);
			snprintf(line, sizeof line, "%s's best answer: %s.", who, words);
			worst_line(o, line);
			snprintf(line, sizeof line, "After %s, %s's answer %s:", what, who, pts);
			worst_board(o, line, t->answer, t->nanswer);
			boards = true;
		}
	}

	/* the better turn, on the position before the turn played */
	better_str(g, t, pts, sizeof pts);
	if (t->better_swap) {
		worst_line(o, "Better: swap (take Black's first stone).");
	} else if (t->nbetter > 0 && replay_and_play(o, g, t->number - 1, t->better, t->nbetter)) {
		turn_words(pts, t->better_captured, won_by(&o->rp->rg, t->color), words, sizeof words);
		snprintf(line, sizeof line, "Better: %s.", words);
		worst_line(o, line);
		snprintf(line, sizeof line, "The better turn, %s:", pts);
		worst_board(o, line, t->better, t->nbetter);
		boards = true;
	} else if (t->action == GAME_RESIGN) {
		worst_line(o, "Better: play on.");
	} else {
		worst_line(o, "The robot would have played the same: the search's own uncertainty.");
	}
	/* a turn with neither board: the position it was played in */
	if (!boards && replay_and_play(o, g, t->number - 1, NULL, 0)) {
		const int *last = t->number > 1 ? game_turn_points(g, &g->turns[k - 1]) : NULL;
		int nlast = t->number > 1 && g->turns[k - 1].action == GAME_PLACE ? g->turns[k - 1].npoints : 0;

		worst_board(o, "The board before it:", last, nlast);
	}
}

static char *worst(const struct game *g, const struct review *r, bool html)
{
	struct strbuf b = STRBUF_INIT;
	struct worst_out o = { .b = &b, .html = html };
	char line[120];
	int idx[REVIEW_WORST_MAX], n = review_worst(r, idx), i;
	char *out = NULL;

	o.drawing = malloc(BOARD_TEXT_MAX);
	o.hb = malloc(sizeof *o.hb);
	o.rp = malloc(sizeof *o.rp);
	o.before = malloc(sizeof *o.before);
	if (o.drawing == NULL || o.hb == NULL || o.rp == NULL || o.before == NULL)
		goto out;
	if (n == 0) {
		snprintf(line, sizeof line, "No turn lost its player %d points of chance to win or more: no mistake.",
		    pct(REVIEW_MISTAKE_DROP));
		worst_line(&o, line);
	}
	for (i = 0; i < n; i++) {
		if (i > 0 && !html) {
			strbuf_puts(&b, "\n");
			o.gap = false;
		}
		worst_turn(&o, g, r, idx[i]);
	}
	out = strbuf_finish(&b);
out:
	strbuf_release(&b);
	free(o.drawing);
	free(o.hb);
	free(o.rp);
	free(o.before);
	return out;
}

char *review_worst_text(const struct game *g, const struct review *r)
{
	return worst(g, r, false);
}

char *review_worst_html(const struct game *g, const struct review *r)
{
	return worst(g, r, true);
}

char *review_chart_html(const struct game *g, const struct review *r)
{
	struct strbuf b = STRBUF_INIT;
	int i, w;

	/* a row a turn: Black's chance after it as a dark bar on a light one, 200 pixels wide */
	strbuf_puts(&b, "<p style=\"margin:10px 0 4px\"><b>Black's chance to win after each turn</b></p>\n"
	    "<table role=\"presentation\" cellspacing=\"0\" cellpadding=\"0\" style=\"border-collapse:collapse;"
	    "font-family:monospace;font-size:12px;color:#1a1a1a\">\n");
	for (i = 0; i < r->nturns; i++) {
		const struct review_turn *t = &r->turns[i];
		enum review_kind k = review_kind_of(r, t);

		w = pct(t->after) * 2;
		strbuf_printf(&b, "<tr><td style=\"padding:0 6px 0 0;text-align:right\">%d</td>"
		    "<td style=\"padding:0 6px 0 0\">%c</td><td style=\"padding:1px 0\"><table role=\"presentation\" "
		    "cellspacing=\"0\" cellpadding=\"0\" style=\"border-collapse:collapse\"><tr>", t->number,
		    symbol(t->color));
		if (w > 0)
			strbuf_printf(&b, "<td width=\"%d\" style=\"width:%dpx;height:10px;background:#222222\"></td>", w, w);
		if (w < 200)
			strbuf_printf(&b, "<td width=\"%d\" style=\"width:%dpx;height:10px;background:#dddddd\"></td>",
			    200 - w, 200 - w);
		strbuf_printf(&b, "</tr></table></td><td style=\"padding:0 0 0 6px;text-align:right\">%d%%</td>"
		    "<td style=\"padding:0 0 0 6px;color:%s\">%s</td></tr>\n", pct(t->after),
		    k == REVIEW_BLUNDER ? "#b00000" : "#a06000", review_kind_str(k));
	}
	strbuf_puts(&b, "</table>\n");
	(void)g;
	return strbuf_finish(&b);
}

char *review_chart_svg(const struct game *g, const struct review *r)
{
	struct strbuf b = STRBUF_INIT;
	int n = r->nturns, width = 600, height = 160, i;
	double dx = n > 0 ? (double)width / n : width;

	strbuf_printf(&b, "<svg class=\"review\" role=\"img\" viewBox=\"-30 -10 %d %d\" width=\"%d\" height=\"%d\">"
	    "<title>Board %ld: Black's chance to win after each turn</title>\n", width + 40, height + 30, width + 40,
	    height + 30, g->board);
	strbuf_printf(&b, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\"/>\n", width, height);
	strbuf_printf(&b, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999999\" stroke-dasharray=\"4\"/>\n",
	    height / 2, width, height / 2);
	strbuf_printf(&b, "<text x=\"-4\" y=\"8\" text-anchor=\"end\" font-size=\"10\">100%%</text>"
	    "<text x=\"-4\" y=\"%d\" text-anchor=\"end\" font-size=\"10\">0%%</text>\n", height);
	strbuf_puts(&b, "<polyline fill=\"none\" stroke=\"#111111\" stroke-width=\"2\" points=\"");
	strbuf_printf(&b, "0,%.1f", height * (1 - (n > 0 ? r->turns[0].before : 0.5)));
	for (i = 0; i < n; i++)
		strbuf_printf(&b, " %.1f,%.1f", dx * (i + 1), height * (1 - r->turns[i].after));
	strbuf_puts(&b, "\"/>\n");
	for (i = 0; i < n; i++) {
		enum review_kind k = review_kind_of(r, &r->turns[i]);

		if (k != REVIEW_FINE)
			strbuf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>turn %d: %s</title>"
			    "</circle>\n", dx * (i + 1), height * (1 - r->turns[i].after),
			    k == REVIEW_BLUNDER ? "#b00000" : "#d08000", i + 1, review_kind_str(k));
	}
	strbuf_printf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"10\">turn %d</text>\n", width,
	    height + 14, n);
	strbuf_puts(&b, "</svg>\n");
	return strbuf_finish(&b);
}

/* ---- the SGF ---- */

/* An SGF text value, ']' and '\' escaped (SGF 3.2). */
static void put_text(struct strbuf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == ']' || *s == '\\')
			strbuf_add(b, "\\", 1);
		strbuf_add(b, s, 1);
	}
}

/* Where the first node of turn k starts in sgf (a line ";OUSTTURN[k "), or NULL. */
static const char *turn_node(const char *sgf, int k)
{
	char key[32];
	const char *p = sgf;
	size_t n;

	n = (size_t)snprintf(key, sizeof key, "\n;OUSTTURN[%d ", k);
	for (p = strstr(p, key); p != NULL; p = strstr(p + 1, key))
		return p + 1;
	(void)n;
	return NULL;
}

/* The end of the value of the C[] property of the node at node (its closing ']'), or NULL. */
static const char *comment_end(const char *node)
{
	const char *p = strstr(node, "]C[");

	if (p == NULL)
		return NULL;
	for (p += 3; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0')
			p++;
		else if (*p == ']')
			return p;
	}
	return NULL;
}

/* The better turn of t as variation nodes, from the position before turn t->number. */
static bool variation(struct strbuf *b, const struct game *g, const struct review_turn *t)
{
	struct game_replay *rp = malloc(sizeof *rp);
	struct rules_board before;
	struct rules_event ev;
	char pt[3], name[4], better[REVIEW_BETTER_MAX * 4 + 8];
	int i, p, x, y;

	if (rp == NULL || game_replay(g, t->number - 1, rp) != GAME_OK) {
		free(rp);
		return false;
	}
	better_str(g, t, better, sizeof better);
	strbuf_puts(b, "(");
	for (i = 0; i < t->nbetter; i++) {
		before = rp->rg.board;
		if (!rules_is_legal(rules_game_play(&rp->rg, t->better[i], &ev)))
			break;
		sgf_point_name(&before, t->better[i], pt);
		strbuf_printf(b, ";%s[%s]", t->color == RULES_BLACK ? "AB" : "AW", pt);
		if (ev.captured > 0) {
			strbuf_puts(b, "AE");
			for (y = 0; y < before.width; y++)
				for (x = 0; x < before.width; x++) {
					p = rules_point(&before, x, y);
					if (rules_at(&before, p) == RULES_OTHER(t->color) &&
					    rules_at(&rp->rg.board, p) == RULES_EMPTY) {
						sgf_point_name(&before, p, pt);
						strbuf_printf(b, "[%s]", pt);
					}
				}
		}
		strbuf_puts(b, "C[");
		if (i == 0)
			strbuf_printf(b, "The robot's turn %d instead: %s, capturing %d stone%s. ", t->number, better,
			    t->better_captured, t->better_captured == 1 ? "" : "s");
		strbuf_printf(b, "%s", rules_point_name(&before, t->better[i], name));
		if (ev.captured > 0)
			strbuf_printf(b, " removes %d.", ev.captured);
		if (ev.result == (t->color == RULES_BLACK ? RULES_BLACK_WINS : RULES_WHITE_WINS))
			strbuf_puts(b, " It wins at once.");
		strbuf_puts(b, "]\n");
	}
	strbuf_puts(b, ")");
	free(rp);
	return true;
}

char *review_sgf(const struct game *g, const struct review *r, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	struct sgf_error err;
	char *sgf = NULL, *out = NULL, what[200];
	const char *at, *node, *end;
	size_t slen;
	int i, nvar = 0, *vars = NULL;

	if (sgf_format(g, &sgf, &slen, &err) != GAME_OK)
		return NULL;
	vars = calloc((size_t)r->nturns + 1, sizeof *vars);
	if (vars == NULL)
		goto out;
	at = sgf;
	for (i = 0; i < r->nturns; i++) {
		const struct review_turn *t = &r->turns[i];
		enum review_kind k = review_kind_of(r, t);

		node = turn_node(at, t->number);
		if (node == NULL || (end = comment_end(node)) == NULL)
			continue;
		/* a branch opens before a turn that has a better one: the game goes on, the better turn beside it */
		strbuf_add(&b, at, (size_t)(node - at));
		if (t->nbetter > 0) {
			strbuf_puts(&b, "(");
			vars[nvar++] = i;
		}
		strbuf_add(&b, node, (size_t)(end - node));
		snprintf(what, sizeof what, "\nBlack's chance to win: %d%% before, %d%% after%s%s.", pct(t->before),
		    pct(t->after), k != REVIEW_FINE ? ": a " : "", review_kind_str(k));
		put_text(&b, what);
		at = end;
	}
	/* the main line ends with the file's last ')': the branches close before it, the innermost first */
	end = strrchr(at, ')');
	if (end == NULL)
		goto out;
	strbuf_add(&b, at, (size_t)(end - at));
	for (i = nvar - 1; i >= 0; i--) {
		strbuf_puts(&b, ")\n");
		if (!variation(&b, g, &r->turns[vars[i]]))
			goto out;
		strbuf_puts(&b, "\n");
	}
	strbuf_puts(&b, end);
	out = strbuf_finish(&b);
	if (out != NULL)
		*len = strlen(out);
out:
	strbuf_release(&b);
	free(sgf);
	free(vars);
	return out;
}
