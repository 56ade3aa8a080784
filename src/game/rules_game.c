/*
 * rules: the turn state of a game: mandatory placement, passing, the swap
 * and the turn that continues after a capture (rules.h; doc/rules.md).
 */
#include "game/rules.h"

#include <assert.h>
#include <string.h>

/* ---- game ---- */

void rules_game_init(struct rules_game *g, int size, bool swap_enabled)
{
	rules_game_init_shape(g, RULES_SQUARE, size, swap_enabled);
}

void rules_game_init_shape(struct rules_game *g, enum rules_shape shape, int size, bool swap_enabled)
{
	rules_board_init_shape(&g->board, shape, size);
	g->to_move = RULES_BLACK;
	g->result = RULES_PLAYING;
	g->turn = 1;
	g->placed = 0;
	g->swap_enabled = swap_enabled;
}

/*
 * A new turn begins for the side to move.  Mandatory placement and passing:
 * with no placement it passes; if the other side has none either, the game
 * is drawn (our decision: the rule sheet says this cannot happen, but it can).
 */
static void begin_turn(struct rules_game *g, struct rules_event *ev)
{
	g->placed = 0;
	if (rules_has_legal(&g->board, g->to_move))
		return;
	if (!rules_has_legal(&g->board, RULES_OTHER(g->to_move))) {
		g->result = RULES_DRAW;
		return;
	}
	ev->passed[ev->npasses++] = g->to_move;
	g->turn++;
	g->to_move = RULES_OTHER(g->to_move);
}

static void end_turn(struct rules_game *g, struct rules_event *ev)
{
	ev->turn_over = true;
	g->turn++;
	g->to_move = RULES_OTHER(g->to_move);
	begin_turn(g, ev);
}

void rules_game_start(struct rules_game *g, const struct rules_board *b, enum rules_color to_move,
    int turn, bool swap_enabled, struct rules_event *ev)
{
	struct rules_event dummy;

	assert(to_move == RULES_BLACK || to_move == RULES_WHITE);
	if (ev == NULL)
		ev = &dummy;
	memset(ev, 0, sizeof(*ev));
	g->board = *b;
	g->to_move = to_move;
	g->result = RULES_PLAYING;
	g->turn = turn;
	g->swap_enabled = swap_enabled;
	begin_turn(g, ev);
	ev->result = g->result;
}

enum rules_verdict rules_game_play(struct rules_game *g, int p, struct rules_event *ev)
{
	struct rules_event dummy;
	enum rules_color c = g->to_move;

	if (ev == NULL)
		ev = &dummy;
	memset(ev, 0, sizeof(*ev));
	ev->result = g->result;
	if (g->result != RULES_PLAYING) {
		ev->verdict = RULES_GAME_OVER;
		return ev->verdict;
	}
	ev->verdict = rules_place(&g->board, c, p, &ev->captured);
	if (!rules_is_legal(ev->verdict))
		return ev->verdict;
	g->placed++;
	if (ev->verdict == RULES_NONCAPTURE) {
		end_turn(g, ev);
	} else if (g->board.stones[RULES_OTHER(c)] == 0) {
		/* Winning: the placement removed the last enemy stones. */
		g->result = c == RULES_BLACK ? RULES_BLACK_WINS : RULES_WHITE_WINS;
		g->turn++;
		ev->turn_over = true;
	} else if (!rules_has_legal(&g->board, c)) {
		/* Mid-turn dead end (our decision): the rest of the turn is passed. */
		ev->dead_end = true;
		end_turn(g, ev);
	}
	ev->result = g->result;
	return ev->verdict;
}

enum rules_verdict rules_game_play_color(struct rules_game *g, enum rules_color c, int p,
    struct rules_event *ev)
{
	if (g->result == RULES_PLAYING && c != g->to_move) {
		if (ev != NULL) {
			memset(ev, 0, sizeof(*ev));
			ev->verdict = RULES_NOT_YOUR_TURN;
			ev->result = g->result;
		}
		return RULES_NOT_YOUR_TURN;
	}
	return rules_game_play(g, p, ev);
}

int rules_game_legal(struct rules_game *g, uint16_t *out)
{
	if (g->result != RULES_PLAYING)
		return 0;
	return rules_legal(&g->board, g->to_move, out);
}

bool rules_game_can_swap(const struct rules_game *g)
{
	return g->swap_enabled && g->result == RULES_PLAYING && g->turn == 2 && g->placed == 0 &&
	    g->to_move == RULES_WHITE;
}

bool rules_game_swap(struct rules_game *g)
{
	if (!rules_game_can_swap(g))
		return false;
	/* Colours stay on the board; White, now the first player, moves next. */
	g->turn++;
	return true;
}

void rules_game_resign(struct rules_game *g, enum rules_color c)
{
	assert(c == RULES_BLACK || c == RULES_WHITE);
	if (g->result != RULES_PLAYING)
		return;
	g->result = c == RULES_BLACK ? RULES_WHITE_WINS : RULES_BLACK_WINS;
	g->turn++;
	g->placed = 0;
}

enum rules_turn_verdict rules_game_turn(struct rules_game *g, const int *points, int n,
    struct rules_turn_report *rep)
{
	struct rules_game work; /* the turn is tried on a copy: atomic */
	struct rules_event ev;
	int i;

	memset(rep, 0, sizeof(*rep));
	rep->result = g->result;
	if (n <= 0) {
		rep->verdict = RULES_TURN_EMPTY;
		return rep->verdict;
	}
	if (g->result != RULES_PLAYING) {
		rep->verdict = RULES_TURN_ILLEGAL;
		rep->check.verdict = RULES_GAME_OVER;
		return rep->verdict;
	}
	work = *g;
	for (i = 0; i < n; i++) {
		rep->index = i;
		if (!rules_is_legal(rules_game_play(&work, points[i], &ev))) {
			rep->verdict = RULES_TURN_ILLEGAL;
			rules_check(&work.board, work.to_move, points[i], &rep->check);
			return rep->verdict;
		}
		rep->captured += ev.captured;
		if (ev.turn_over && i + 1 < n) {
			/* why it was over: a win or a dead end after a capture, else a non-capturing placement */
			rep->verdict = RULES_TURN_TOO_LONG;
			rep->index = i + 1;
			rep->dead_end = ev.dead_end;
			rep->result = ev.result;
			return rep->verdict;
		}
	}
	if (!ev.turn_over) {
		rep->verdict = RULES_TURN_TOO_SHORT;
		rep->index = n - 1;
		return rep->verdict;
	}
	rep->dead_end = ev.dead_end;
	rep->npasses = ev.npasses;
	rep->passed[0] = ev.passed[0];
	rep->passed[1] = ev.passed[1];
	rep->result = ev.result;
	*g = work;
	rep->verdict = RULES_TURN_OK;
	return rep->verdict;
}
