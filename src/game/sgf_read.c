/* sgf: the reader, the nodes of an SGF game record into a game (sgf.h). */
#include "game/sgf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "game/gamefile.h"
#include "game/sgf_int.h"

/* ---- reading: from the nodes to the game ---- */

static const struct prop *find(const struct tree *t, const struct node *nd, const char *id)
{
	int i;

	for (i = nd->first; i < nd->first + nd->n; i++)
		if (strcmp(t->props[i].id, id) == 0)
			return &t->props[i];
	return NULL;
}

static const char *val(const struct tree *t, const struct prop *p, int k)
{
	return t->text.s + t->vals[p->first + k].off;
}

/* The single value of property id of node nd, or NULL (absent); a list is an error. */
static enum game_status single(const struct tree *t, const struct node *nd, const char *id, bool needed,
    const char **out, struct sgf_error *err)
{
	const struct prop *p = find(t, nd, id);

	*out = NULL;
	if (p == NULL) {
		if (needed && strncmp(id, "OUST", 4) == 0)
			return sgf_fail(err, nd->line, nd->column, "the root node has no %s[]: not a record written by "
			    "oustpbm export", id);
		if (needed)
			return sgf_fail(err, nd->line, nd->column, "the root node has no %s[]", id);
		return GAME_OK;
	}
	if (p->n != 1)
		return sgf_fail(err, p->line, p->column, "%s has %d values, expected one", id, p->n);
	*out = val(t, p, 0);
	return GAME_OK;
}

struct reader {
	const struct tree *t;
	struct rules_board board;	/* for the shape and names of points */
	struct sgf_error *err;
};

/* An SGF point "cd" of the board into a cell, or RULES_NO_POINT. */
static int sgf_point(const struct rules_board *b, const char *s, size_t len)
{
	int x, y;

	if (len != 2 || s[0] < 'a' || s[0] >= 'a' + b->width || s[1] < 'a' || s[1] >= 'a' + b->width)
		return RULES_NO_POINT;
	x = s[0] - 'a';
	y = b->width - 1 - (s[1] - 'a');
	if (x < rules_row_first(b, y) || x >= rules_row_first(b, y) + rules_row_len(b, y))
		return RULES_NO_POINT;
	return rules_point(b, x, y);
}

/* A list of points (SGF's compressed "ab:cd" rectangles too) into a sorted array. */
static enum game_status point_list(struct reader *rd, const struct prop *p, int *out, int *n)
{
	const struct value *v;
	const char *s;
	int i, x, y, x0, y0, x1, y1, q;

	*n = 0;
	for (i = 0; i < p->n; i++) {
		v = &rd->t->vals[p->first + i];
		s = rd->t->text.s + v->off;
		if (v->len == 5 && s[2] == ':') {
			x0 = s[0] - 'a';
			y0 = s[1] - 'a';
			x1 = s[3] - 'a';
			y1 = s[4] - 'a';
		} else {
			x0 = x1 = s[0] - 'a';
			y0 = y1 = v->len >= 2 ? s[1] - 'a' : -1;
		}
		if ((v->len != 2 && v->len != 5) || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 ||
		    x1 >= rd->board.width || y1 >= rd->board.width)
			return sgf_fail(rd->err, v->line, v->column, "%s[%s]: not a point of the %dx%d grid", p->id, s,
			    rd->board.width, rd->board.width);
		for (y = y0; y <= y1; y++)
			for (x = x0; x <= x1; x++) {
				char two[2] = { (char)('a' + x), (char)('a' + y) };

				q = sgf_point(&rd->board, two, 2);
				if (q == RULES_NO_POINT)
					return sgf_fail(rd->err, v->line, v->column, "%s[%s]: %c%c is not a cell of the "
					    "hex board", p->id, s, two[0], two[1]);
				if (*n >= RULES_MAX_POINTS)
					return sgf_fail(rd->err, v->line, v->column, "%s lists more points than the board has",
					    p->id);
				out[(*n)++] = q;
			}
	}
	for (i = 1; i < *n; i++) {	/* insertion sort: short lists */
		q = out[i];
		for (x = i; x > 0 && out[x - 1] > q; x--)
			out[x] = out[x - 1];
		out[x] = q;
	}
	for (i = 1; i < *n; i++)
		if (out[i] == out[i - 1])
			return sgf_fail(rd->err, p->line, p->column, "%s lists a point twice", p->id);
	return GAME_OK;
}

static void names(const struct rules_board *b, const int *v, int n, char *buf, size_t size)
{
	char name[4];
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && k + 8 < size; i++) {
		rules_point_name(b, v[i], name);
		k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", name);
	}
	if (n == 0)
		snprintf(buf, size, "nothing");
}

static bool time_value(const char *s, int64_t *out)
{
	return s != NULL && gamefile_time_parse(s, strlen(s), out);
}

/* The root's game settings into g (game_init_shape with the turn-1 players). */
static enum game_status read_root(struct reader *rd, struct game *g)
{
	const struct tree *t = rd->t;
	const struct node *root = &t->nodes[0];
	const char *gm, *sz, *board, *shape, *swap, *pb, *pw, *created, *last, *remind, *thread, *level, *ff;
	char lb[GAME_NAME_SIZE], lw[GAME_NAME_SIZE];
	enum rules_shape sh;
	enum game_status st;
	long n;
	int size, width, k;
	int64_t tc, tl, tr = 0;

	if ((st = single(t, root, "FF", false, &ff, rd->err)) != GAME_OK ||
	    (st = single(t, root, "GM", false, &gm, rd->err)) != GAME_OK ||
	    (st = single(t, root, "SZ", true, &sz, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTBOARD", true, &board, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTSHAPE", false, &shape, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTSWAP", true, &swap, rd->err)) != GAME_OK ||
	    (st = single(t, root, "PB", true, &pb, rd->err)) != GAME_OK ||
	    (st = single(t, root, "PW", true, &pw, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTCREATED", true, &created, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTLASTMOVE", true, &last, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTREMIND", false, &remind, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTTHREAD", false, &thread, rd->err)) != GAME_OK ||
	    (st = single(t, root, "OUSTROBOTLEVEL", false, &level, rd->err)) != GAME_OK)
		return st;
#define AT(id) find(t, root, id)->line, find(t, root, id)->column
	if (ff != NULL && strcmp(ff, "4") != 0)
		return sgf_fail(rd->err, AT("FF"), "FF[%s]: only SGF FF[4] is read", ff);
	if (shape != NULL && strcmp(shape, "hex") != 0)
		return sgf_fail(rd->err, AT("OUSTSHAPE"), "OUSTSHAPE[%s]: the only other shape is hex", shape);
	sh = shape != NULL ? RULES_HEX : RULES_SQUARE;
	if (gm != NULL && strcmp(gm, sh == RULES_HEX ? "11" : "1") != 0)
		return sgf_fail(rd->err, AT("GM"), "GM[%s]: a %s board is written as GM[%s]", gm,
		    sh == RULES_HEX ? "hex" : "square", sh == RULES_HEX ? "11" : "1");
	width = 0;
	for (k = 0; isdigit((unsigned char)sz[k]) && k < 3; k++)
		width = 10 * width + (sz[k] - '0');
	size = sh == RULES_HEX ? (width + 1) / 2 : width;
	if (sz[k] != '\0' || k == 0 || !rules_shape_ok(sh, size) || (sh == RULES_HEX && width != 2 * size - 1))
		return sgf_fail(rd->err, AT("SZ"), sh == RULES_HEX ? "SZ[%s]: not 2S-1 for a hex side S of 3 to 10" :
		    "SZ[%s]: not an odd board size from 5 to 25", sz);
	if (!ident_board_parse(board, strlen(board), &n))
		return sgf_fail(rd->err, AT("OUSTBOARD"), "OUSTBOARD[%s]: not a board number", board);
	if (strcmp(swap, "on") != 0 && strcmp(swap, "off") != 0)
		return sgf_fail(rd->err, AT("OUSTSWAP"), "OUSTSWAP[%s]: not on or off", swap);
	if (!ident_userid_ok(pb))
		return sgf_fail(rd->err, AT("PB"), "PB[%s]: not a user id", pb);
	if (!ident_userid_ok(pw))
		return sgf_fail(rd->err, AT("PW"), "PW[%s]: not a user id", pw);
	if (!time_value(created, &tc))
		return sgf_fail(rd->err, AT("OUSTCREATED"), "OUSTCREATED[%s]: not a time like 2026-11-21T18:41:07Z",
		    created);
	if (!time_value(last, &tl))
		return sgf_fail(rd->err, AT("OUSTLASTMOVE"), "OUSTLASTMOVE[%s]: not a time like 2026-11-21T18:41:07Z",
		    last);
	if (remind != NULL && !time_value(remind, &tr))
		return sgf_fail(rd->err, AT("OUSTREMIND"), "OUSTREMIND[%s]: not a time like 2026-11-21T18:41:07Z",
		    remind);
	if (thread != NULL) {
		for (k = 0; thread[k] != '\0'; k++)
			if (thread[k] <= ' ' || thread[k] > '~')
				break;
		if (thread[k] != '\0' || k == 0 || k > GAME_THREAD_MAX)
			return sgf_fail(rd->err, AT("OUSTTHREAD"), "OUSTTHREAD: not 1 to %d printable characters "
			    "without spaces", GAME_THREAD_MAX);
	}
	if (level != NULL && (strlen(level) != 1 || level[0] < '0' + GAME_ROBOT_LEVEL_MIN ||
	    level[0] > '0' + GAME_ROBOT_LEVEL_MAX))
		return sgf_fail(rd->err, AT("OUSTROBOTLEVEL"), "OUSTROBOTLEVEL[%s]: not a level from %d to %d", level,
		    GAME_ROBOT_LEVEL_MIN, GAME_ROBOT_LEVEL_MAX);
#undef AT
	for (k = 0; pb[k] != '\0'; k++)
		lb[k] = (char)tolower((unsigned char)pb[k]);
	lb[k] = '\0';
	for (k = 0; pw[k] != '\0'; k++)
		lw[k] = (char)tolower((unsigned char)pw[k]);
	lw[k] = '\0';
	game_init_shape(g, n, &(struct game_form){ sh, size, strcmp(swap, "on") == 0 }, lb, lw, tc);
	g->last_move = tl;
	g->remind = tr;
	if (thread != NULL)
		snprintf(g->thread, sizeof(g->thread), "%s", thread);
	g->robot_level = level != NULL ? level[0] - '0' : 0;
	rules_board_init_shape(&rd->board, sh, size);
	return GAME_OK;
}

/* One turn read from the nodes: the history entry and where it came from. */
struct pending {
	struct game_turn t;
	int points[RULES_MAX_POINTS];
	const struct node *node;
	bool open;
};

static enum game_status add_turn(struct reader *rd, struct game *g, struct pending *pt)
{
	if (!pt->open)
		return GAME_OK;
	pt->open = false;
	if (pt->t.action == GAME_PLACE && pt->t.npoints == 0)
		return sgf_fail(rd->err, pt->node->line, pt->node->column, "turn %d: no placement (AB or AW)",
		    pt->t.number);
	return game_history_add(g, &pt->t, pt->points) == GAME_OK ? GAME_OK : GAME_NO_MEMORY;
}

/* OUSTTURN[number time colour player [action]] */
static enum game_status read_turn(struct reader *rd, const struct game *g, const struct prop *p,
    struct pending *pt)
{
	static const char *const actions[] = { "pass", "swap", "resign", "timeout" };
	static const enum game_action codes[] = { GAME_PASS, GAME_SWAP, GAME_RESIGN, GAME_TIMEOUT };
	char word[5][64], *s;
	const char *v;
	int nw = 0, len, i, num;

	if (p->n != 1)
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN has %d values, expected one", p->n);
	v = val(rd->t, p, 0);
	while (*v != '\0') {
		while (*v == ' ')
			v++;
		if (*v == '\0')
			break;
		for (len = 0; v[len] != '\0' && v[len] != ' '; len++)
			;
		if (nw == 5 || len >= (int)sizeof(word[0]))
			return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: not 'number time colour player "
			    "[action]'", val(rd->t, p, 0));
		memcpy(word[nw], v, (size_t)len);
		word[nw++][len] = '\0';
		v += len;
	}
	if (nw < 4)
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: not 'number time colour player [action]'",
		    val(rd->t, p, 0));
	memset(&pt->t, 0, sizeof(pt->t));
	num = (int)strtol(word[0], &s, 10);
	if (*s != '\0' || s == word[0] || num != g->nturns + 1)
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: turn %s, expected %d", val(rd->t, p, 0),
		    word[0], g->nturns + 1);
	pt->t.number = num;
	if (!gamefile_time_parse(word[1], strlen(word[1]), &pt->t.time))
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not a time like "
		    "2026-11-21T18:41:07Z", val(rd->t, p, 0), word[1]);
	if (strcmp(word[2], "x") != 0 && strcmp(word[2], "o") != 0)
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: colour '%s' is not x or o",
		    val(rd->t, p, 0), word[2]);
	pt->t.color = word[2][0] == 'x' ? RULES_BLACK : RULES_WHITE;
	for (i = 0; word[3][i] != '\0'; i++)
		word[3][i] = (char)tolower((unsigned char)word[3][i]);
	if (!ident_userid_ok(word[3]))
		return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not a user id", val(rd->t, p, 0),
		    word[3]);
	memcpy(pt->t.player, word[3], strlen(word[3]) + 1);	/* a user id fits (ident.h) */
	pt->t.action = GAME_PLACE;
	if (nw == 5) {
		for (i = 0; i < 4 && strcmp(word[4], actions[i]) != 0; i++)
			;
		if (i == 4)
			return sgf_fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not pass, swap, resign or "
			    "timeout", val(rd->t, p, 0), word[4]);
		pt->t.action = codes[i];
	}
	pt->t.npoints = 0;
	pt->open = true;
	return GAME_OK;
}

static enum game_end end_of(const struct game *g)
{
	enum game_action last = g->nturns > 0 ? g->turns[g->nturns - 1].action : GAME_PLACE;
	const struct game_note *n = game_last_offer_note(g);

	if (g->rg.result == RULES_PLAYING)
		return GAME_END_NONE;
	if (g->rg.result == RULES_DRAW && n != NULL && n->kind == GAME_NOTE_ACCEPT && !n->undo)
		return GAME_END_AGREEMENT;
	if (g->rg.result == RULES_DRAW)
		return GAME_END_NO_PLACEMENTS;
	return last == GAME_RESIGN ? GAME_END_RESIGN : last == GAME_TIMEOUT ? GAME_END_TIMEOUT :
	    GAME_END_CAPTURE;
}

static enum game_status read_game(struct reader *rd, struct game *g)
{
	const struct tree *t = rd->t;
	struct pending *pt;
	struct game_replay *r = NULL;
	struct steps s = { 0 };
	const struct node **at = NULL;	/* the node of each step */
	const struct prop *p, *ab, *aw, *ae, *turn, *note;
	const struct game_note *agreed;
	struct gamefile_error gerr;
	const char *re, *v;
	char want[4], got[RULES_MAX_POINTS * 4], exp[RULES_MAX_POINTS * 4];
	int list[RULES_MAX_POINTS], nlist, i, k, nat = 0;
	enum game_status st;

	pt = calloc(1, sizeof(*pt));
	r = malloc(sizeof(*r));
	at = malloc((size_t)t->nnodes * sizeof(*at));
	if (pt == NULL || r == NULL || at == NULL) {
		st = GAME_NO_MEMORY;
		goto out;
	}
	st = read_root(rd, g);
	if (st != GAME_OK)
		goto out;
	for (i = 1; i < t->nnodes; i++) {
		const struct node *nd = &t->nodes[i];

		turn = find(t, nd, "OUSTTURN");
		note = find(t, nd, "OUSTNOTE");
		if (note != NULL) {
			/* a note stands after the turn before it (game.h) */
			if ((st = add_turn(rd, g, pt)) != GAME_OK)
				goto out;
			for (k = 0; k < note->n; k++) {
				v = val(t, note, k);
				if (gamefile_parse_note(v, strlen(v), 0, g, &gerr) != GAME_OK) {
					st = sgf_fail(rd->err, note->line, note->column, "OUSTNOTE[%s]: %s", v, strstr(gerr.msg, ": ") != NULL ? strstr(gerr.msg, ": ") + 2 : gerr.msg);
					goto out;
				}
			}
		}
		ab = find(t, nd, "AB");
		aw = find(t, nd, "AW");
		ae = find(t, nd, "AE");
		if (turn == NULL && ab == NULL && aw == NULL && ae == NULL)
			continue;	/* a node a viewer added: nothing of the game */
		if (turn != NULL) {
			if ((st = add_turn(rd, g, pt)) != GAME_OK || (st = read_turn(rd, g, turn, pt)) != GAME_OK)
				goto out;
			pt->node = nd;
		} else if (!pt->open || pt->t.action != GAME_PLACE) {
			st = sgf_fail(rd->err, nd->line, nd->column, "node %d: a placement without the OUSTTURN[] of "
			    "its turn", i);
			goto out;
		}
		if (pt->t.action != GAME_PLACE) {
			p = ab != NULL ? ab : aw != NULL ? aw : ae;
			if (p != NULL) {
				st = sgf_fail(rd->err, p->line, p->column, "turn %d is a %s: %s[] has no place in it",
				    pt->t.number, game_action_str(pt->t.action), p->id);
				goto out;
			}
			at[nat++] = nd;
			continue;
		}
		if ((ab != NULL) == (aw != NULL)) {
			st = sgf_fail(rd->err, nd->line, nd->column, "node %d: %s", i, ab != NULL ?
			    "both AB[] and AW[]: a node is one placement" : "AE[] without the placement (AB or AW)");
			goto out;
		}
		p = ab != NULL ? ab : aw;
		if ((p == ab) != (pt->t.color == RULES_BLACK)) {
			st = sgf_fail(rd->err, p->line, p->column, "%s[] in turn %d, which is %s's", p->id, pt->t.number,
			    rules_color_name(pt->t.color));
			goto out;
		}
		if (p->n != 1 || t->vals[p->first].len != 2) {
			st = sgf_fail(rd->err, p->line, p->column, "%s[]: one point per node, the placement", p->id);
			goto out;
		}
		if ((st = point_list(rd, p, list, &nlist)) != GAME_OK)
			goto out;
		pt->points[pt->t.npoints++] = list[0];
		at[nat++] = nd;
	}
	if ((st = add_turn(rd, g, pt)) != GAME_OK)
		goto out;
	if (g->nturns >= 2 && g->turns[1].action == GAME_SWAP) {
		/* the game names the owners after the swap (game.h); PB and PW were those at turn 1 */
		char name[GAME_NAME_SIZE];

		memcpy(name, g->black, sizeof(name));
		memcpy(g->black, g->white, sizeof(name));
		memcpy(g->white, name, sizeof(name));
	}

	/* the history must be one the rules allow */
	if (game_replay(g, g->nturns, r) != GAME_OK) {
		const struct node *nd = &t->nodes[0];

		for (i = 0, k = 0; i < nat; i++) {
			p = find(t, at[i], "OUSTTURN");
			if (p != NULL && ++k == r->bad_turn) {
				nd = at[i];
				break;
			}
		}
		st = sgf_fail(rd->err, nd->line, nd->column, "%s", r->why);
		goto out;
	}
	g->rg = r->rg;
	memcpy(g->black, r->black, sizeof(g->black));
	memcpy(g->white, r->white, sizeof(g->white));
	/* a draw the players agreed ends a game the turns leave running */
	agreed = game_last_offer_note(g);
	if (g->rg.result == RULES_PLAYING && agreed != NULL && agreed->kind == GAME_NOTE_ACCEPT && !agreed->undo &&
	    agreed->after == g->nturns)
		g->rg.result = RULES_DRAW;
	g->end = end_of(g);
	if (game_over(g) && g->remind > 0) {
		p = find(t, &t->nodes[0], "OUSTREMIND");
		st = sgf_fail(rd->err, p->line, p->column, "OUSTREMIND[] on a finished game");
		goto out;
	}
	if ((st = single(t, &t->nodes[0], "RE", false, &re, rd->err)) != GAME_OK)
		goto out;
	if ((re != NULL || game_over(g)) && (re == NULL || !game_over(g) || strcmp(re, sgf_write_result(g, want)) != 0)) {
		p = find(t, &t->nodes[0], "RE");
		st = sgf_fail(rd->err, p != NULL ? p->line : t->nodes[0].line, p != NULL ? p->column : t->nodes[0].column,
		    "RE[%s], but the history gives %s", re != NULL ? re : "", game_over(g) ? sgf_write_result(g, want) :
		    "a game still playing");
		goto out;
	}

	/* every node's setup as the replay makes it */
	if ((st = sgf_steps_make(g, &s)) != GAME_OK)
		goto out;
	if (s.n != nat) {
		st = sgf_fail(rd->err, 0, 0, "%d nodes of the game, but the history makes %d", nat, s.n);
		goto out;
	}
	for (i = 0; i < s.n; i++) {
		ae = find(t, at[i], "AE");
		nlist = 0;
		if (ae != NULL && (st = point_list(rd, ae, list, &nlist)) != GAME_OK)
			goto out;
		if (nlist != s.v[i].nremoved ||
		    (nlist > 0 && memcmp(list, s.removed + s.v[i].removed, (size_t)nlist * sizeof(int)) != 0)) {
			char name[4];

			names(&rd->board, list, nlist, got, sizeof(got));
			names(&rd->board, s.removed + s.v[i].removed, s.v[i].nremoved, exp, sizeof(exp));
			rules_point_name(&rd->board, s.v[i].point, name);
			st = sgf_fail(rd->err, at[i]->line, at[i]->column, "AE[] removes %s, but the placement %s "
			    "removes %s", got, name, exp);
			goto out;
		}
	}
	st = GAME_OK;
out:
	sgf_steps_release(&s);
	free(at);
	free(pt);
	free(r);
	return st;
}

enum game_status sgf_parse(const char *text, size_t len, struct game *out, struct sgf_error *err)
{
	struct tree t = { 0 };
	struct reader rd = { 0 };
	enum game_status st;

	memset(out, 0, sizeof(*out));
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (len > SGF_MAX_BYTES) {
		st = sgf_fail(err, 0, 0, "%zu bytes: an SGF game record is at most %d", len, SGF_MAX_BYTES);
		goto out;
	}
	st = sgf_tree_parse(text, len, &t, err);
	if (st != GAME_OK)
		goto out;
	/* further game trees of a collection are not read */
	rd.t = &t;
	rd.err = err;
	st = read_game(&rd, out);
out:
	if (st == GAME_NO_MEMORY && err != NULL)
		sgf_fail(err, 0, 0, "out of memory");
	if (st != GAME_OK) {
		game_release(out);
		memset(out, 0, sizeof(*out));
	}
	sgf_tree_release(&t);
	return st;
}
