/* game: the history replayed, its captures, and checked against the position (game.h). */
#include "game/game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game_int.h"

/* ---- replay ---- */

static enum game_status bad(struct game_replay *r, int turn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum game_status bad(struct game_replay *r, int turn, const char *fmt, ...)
{
	va_list ap;
	int n;

	r->bad_turn = turn;
	n = snprintf(r->why, sizeof(r->why), "turn %d: ", turn);
	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return GAME_BAD_HISTORY;
}
enum game_status game_captures(const struct game *g, struct game_captures *out)
{
	struct rules_board *b = NULL;	/* large: on the heap */
	uint8_t before[RULES_MAX_CELLS];	/* the colours before a placement */
	const struct game_turn *t;
	enum game_status st = GAME_NO_MEMORY;
	size_t used = 0, idx;
	int i, k, q, got;

	memset(out, 0, sizeof(*out));
	b = malloc(sizeof(*b));
	out->first = calloc(g->npoints + 1, sizeof(*out->first));
	out->n = calloc(g->npoints + 1, sizeof(*out->n));
	out->stones = calloc(g->npoints + 1, sizeof(*out->stones));
	if (b == NULL || out->first == NULL || out->n == NULL || out->stones == NULL)
		goto out;
	rules_board_init_shape(b, g->shape, g->size);
	st = GAME_OK;
	for (i = 0; i < g->nturns; i++) {
		t = &g->turns[i];
		if (t->action != GAME_PLACE)
			continue;
		for (k = 0; k < t->npoints; k++) {
			idx = t->first + (size_t)k;
			memcpy(before, b->color, sizeof(before));
			got = 0;
			if (!rules_is_legal(rules_place(b, t->color, g->points[idx], &got))) {
				st = GAME_BAD_HISTORY;
				goto out;
			}
			out->first[idx] = used;
			for (q = 0; got > 0 && q < b->ncells; q++)
				if (before[q] == RULES_OTHER(t->color) && rules_at(b, q) == RULES_EMPTY &&
				    used < g->npoints)
					out->stones[used++] = q;
			out->n[idx] = (int)(used - out->first[idx]);
		}
	}
out:
	free(b);
	if (st != GAME_OK)
		game_captures_release(out);
	return st;
}

void game_captures_release(struct game_captures *c)
{
	free(c->first);
	free(c->n);
	free(c->stones);
	memset(c, 0, sizeof(*c));
}

enum game_status game_replay(const struct game *g, int upto, struct game_replay *out)
{
	struct rules_game *rg = &out->rg;
	enum rules_color pending[2], want;
	int npending = 0, ipending = 0, i, k;
	const struct game_turn *t;
	const char *owner;
	char msg[120], name[GAME_NAME_SIZE];
	bool swapped = g->nturns >= 2 && g->turns[1].action == GAME_SWAP;

	memset(out, 0, sizeof(*out));
	rules_game_init_shape(rg, g->shape, g->size, g->swap);
	/* Before a swap the names were the other way round. */
	snprintf(out->black, sizeof(out->black), "%s", swapped ? g->white : g->black);
	snprintf(out->white, sizeof(out->white), "%s", swapped ? g->black : g->white);
	if (upto < 0 || upto > g->nturns)
		return GAME_BAD_TURN_NUMBER;
	for (i = 0; i < upto; i++) {
		t = &g->turns[i];
		k = i + 1;
		if (t->number != k)
			return bad(out, k, "numbered %d", t->number);
		if (rg->result != RULES_PLAYING)
			return bad(out, k, "comes after the end of the game");
		if (t->color != RULES_BLACK && t->color != RULES_WHITE)
			return bad(out, k, "no colour");
		owner = t->color == RULES_BLACK ? out->black : out->white;
		if (strcasecmp(t->player, owner) != 0)
			return bad(out, k, "%s played %s, but %s owned %s then", t->player,
			    rules_color_name(t->color), owner, rules_color_name(t->color));
		want = ipending < npending ? pending[ipending] : rg->to_move;
		if (t->action != GAME_RESIGN && t->color != want)
			return bad(out, k, "%s played, but it was %s's turn",
			    rules_color_name(t->color), rules_color_name(want));
		if (ipending < npending && t->action != GAME_PASS)
			return bad(out, k, "%s had no placement, so this turn must be a pass",
			    rules_color_name(want));
		switch (t->action) {
		case GAME_PASS:
			if (ipending == npending)
				return bad(out, k, "%s passed, but had a placement",
				    rules_color_name(t->color));
			ipending++;
			break;
		case GAME_PLACE:
			if (rules_game_turn(rg, game_turn_points(g, t), t->npoints, &out->rep) !=
			    RULES_TURN_OK) {
				game_describe_turn(&rg->board, game_turn_points(g, t), &out->rep, msg,
				    sizeof(msg));
				return bad(out, k, "%s", msg);
			}
			npending = out->rep.npasses;
			ipending = 0;
			pending[0] = out->rep.passed[0];
			pending[1] = out->rep.passed[1];
			break;
		case GAME_SWAP:
			if (!rules_game_swap(rg))
				return bad(out, k, "swap is only allowed as White's first turn%s",
				    g->swap ? "" : ", and swap is off");
			memcpy(name, out->black, sizeof(name));
			memcpy(out->black, out->white, sizeof(name));
			memcpy(out->white, name, sizeof(name));
			break;
		case GAME_RESIGN:
		case GAME_TIMEOUT:
			rules_game_resign(rg, t->color);
			break;
		default:
			return bad(out, k, "unknown action %d", (int)t->action);
		}
	}
	if (ipending < npending) {
		if (upto == g->nturns)
			return bad(out, upto + 1, "missing: %s had no placement and passes",
			    rules_color_name(pending[ipending]));
		/* Stop before the recorded passes: the passing side is to move. */
		rg->turn -= npending - ipending;
		rg->to_move = pending[ipending];
	}
	return GAME_OK;
}

/* The last offer note (chats passed over), if it is an accepted draw after the last turn: drawn by agreement. */
static bool agreed_draw(const struct game *g)
{
	const struct game_note *n = game_last_offer_note(g);

	return n != NULL && n->kind == GAME_NOTE_ACCEPT && !n->undo && n->after == g->nturns;
}

static enum game_end end_of_history(const struct game *g, enum rules_result r)
{
	if (r == RULES_PLAYING)
		return GAME_END_NONE;
	if (r == RULES_DRAW && agreed_draw(g))
		return GAME_END_AGREEMENT;
	if (r == RULES_DRAW)
		return GAME_END_NO_PLACEMENTS;
	if (g->nturns > 0 && g->turns[g->nturns - 1].action == GAME_RESIGN)
		return GAME_END_RESIGN;
	if (g->nturns > 0 && g->turns[g->nturns - 1].action == GAME_TIMEOUT)
		return GAME_END_TIMEOUT;
	return GAME_END_CAPTURE;
}

static enum game_status differs(struct game_replay *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum game_status differs(struct game_replay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return GAME_POSITION_DIFFERS;
}

static const char *color_word(enum rules_color c)
{
	return c == RULES_EMPTY ? "empty" : rules_color_name(c);
}

enum game_status game_verify(const struct game *g, struct game_replay *out)
{
	const struct rules_board *have = &g->rg.board, *want = &out->rg.board;
	enum game_status st;
	enum game_end end;
	char name[4];
	int x, y, p;

	st = game_replay(g, g->nturns, out);
	if (st != GAME_OK)
		return st;
	/* a draw agreed by the players ends a game the turns leave running */
	if (out->rg.result == RULES_PLAYING && agreed_draw(g))
		out->rg.result = RULES_DRAW;
	for (y = have->width - 1; y >= 0; y--) {
		for (x = rules_row_first(have, y); x < rules_row_first(have, y) + rules_row_len(have, y); x++) {
			p = rules_point(have, x, y);
			if (have->color[p] != want->color[p])
				return differs(out, "%s is %s, but %s after the history",
				    rules_point_name(have, p, name), color_word(rules_at(have, p)),
				    color_word(rules_at(want, p)));
		}
	}
	if (g->rg.result != out->rg.result)
		return differs(out, "the result is %s, but %s after the history",
		    rules_result_str(g->rg.result), rules_result_str(out->rg.result));
	if (g->rg.result == RULES_PLAYING && g->rg.to_move != out->rg.to_move)
		return differs(out, "%s is to move, but %s after the history",
		    rules_color_name(g->rg.to_move), rules_color_name(out->rg.to_move));
	if (g->rg.turn != out->rg.turn)
		return differs(out, "turn %d is next, but %d after the history", g->rg.turn,
		    out->rg.turn);
	end = end_of_history(g, out->rg.result);
	if (g->end != end)
		return differs(out, "the game ended by %s, but by %s after the history",
		    game_end_str(g->end), game_end_str(end));
	return GAME_OK;
}
