/*
 * test_solve: the solver of the hex board of side 3 (game/solve.h) on small
 * positions written as ASCII rows (top row e first, then d, c, b, a; x
 * black, o white), and the robot's and review's use of it.
 */
#include <string.h>

#include "game/rules.h"
#include "game/solve.h"
#include "t.h"

static struct rules_board B;
static struct rules_game G;

static void setup(const char *rows)
{
	int k = 0, y;
	const char *s;

	rules_board_init_shape(&B, RULES_HEX, 3);
	y = B.width - 1;
	for (s = rows; *s != '\0'; s++) {
		if (*s == ' ' || *s == '/')
			continue;
		if (*s == 'x')
			rules_board_setup(&B, rules_point(&B, rules_row_first(&B, y) + k, y), RULES_BLACK);
		else if (*s == 'o')
			rules_board_setup(&B, rules_point(&B, rules_row_first(&B, y) + k, y), RULES_WHITE);
		if (++k == rules_row_len(&B, y)) {
			k = 0;
			y--;
		}
	}
}

static void start(const char *rows, enum rules_color to_move, int turn, bool swap)
{
	setup(rows);
	rules_game_start(&G, &B, to_move, turn, swap, NULL);
}

static void masks(uint32_t *black, uint32_t *white)
{
	int i;

	*black = *white = 0;
	for (i = 0; i < SOLVE_CELLS; i++) {
		if (rules_at(&B, solve_cell(i)) == RULES_BLACK)
			*black |= 1u << i;
		else if (rules_at(&B, solve_cell(i)) == RULES_WHITE)
			*white |= 1u << i;
	}
}

static int P(const char *v)
{
	return rules_parse_point(&B, v, (int)strlen(v));
}

/* The exact value and turns of the position of rows, the side given to move. */
static enum solve_value exact(const char *rows, bool wtm, int *turns)
{
	struct solve *s = solve_new(SOLVE_EXACT);
	uint32_t black, white;
	enum solve_value v = SOLVE_DRAW;

	setup(rows);
	masks(&black, &white);
	if (s == NULL || solve_position(s, black, white, wtm, &v, turns) != GAME_OK)
		*turns = -1;
	solve_free(s);
	return v;
}

int main(void)
{
	enum rules_result res;
	struct rules_event ev;
	int turns, p, pts[RULES_MAX_POINTS], n;
	bool swap;

	ok(solve_knows(RULES_HEX, 3) && !solve_knows(RULES_HEX, 4) && !solve_knows(RULES_SQUARE, 5),
	    "only the hex board of side 3 is solved");

	/* exact values and turns on crowded boards (an exact search of a sparse one visits most of the board) */
	ok_int(exact("ooo / o..o / o.x.o / o..o / ooo", false, &turns), SOLVE_LOSS,
	    "x in the centre inside a white ring, black to move: a loss");
	ok_int(turns, 2, "... in two turns: black passes (no placement), white takes the centre");
	ok_int(exact("xxx / x..x / x.o.x / x..x / xxx", false, &turns), SOLVE_WIN, "the same in black, black to move: a win");
	ok_int(turns, 1, "... at once");
	ok_int(exact("xxx / x..x / x.o.x / x..x / xxx", true, &turns), SOLVE_LOSS, "... white to move: a loss");
	ok_int(turns, 2, "... in two turns");
	start("ooo / o..o / o.x.o / o..o / ooo", RULES_WHITE, 9, false);
	ok(solve_best(&G, &p) && rules_is_legal(rules_game_play(&G, p, &ev)) && G.result == RULES_WHITE_WINS,
	    "the solver's placement for white wins the game");

	/* x beside a lone o, black to move: any placement joining x and touching o takes it, and the game */
	start("... / .... / ..xo. / .... / ...", RULES_BLACK, 5, false);
	ok(solve_result(&G, &res) && res == RULES_BLACK_WINS, "x c3, o c4, black to move: black wins");
	ok(solve_best(&G, &p) && rules_is_legal(rules_game_play(&G, p, &ev)) && G.result == RULES_BLACK_WINS,
	    "... the solver's placement wins at once");

	/* the centre wins: whatever White does next, Black takes its stone */
	start("... / .... / ..x.. / .... / ...", RULES_WHITE, 2, false);
	ok(solve_result(&G, &res) && res == RULES_BLACK_WINS, "x in the centre, white to move: black wins");
	/* a corner first stone loses */
	start("... / .... / ..... / .... / x..", RULES_WHITE, 2, false);
	ok(solve_result(&G, &res) && res == RULES_WHITE_WINS, "x in a corner (a1), white to move: white wins");

	/* the empty board: black, to move, wins; its solver's first placement is a winning one */
	start("... / .... / ..... / .... / ...", RULES_BLACK, 1, true);
	ok(solve_result(&G, &res) && res == RULES_BLACK_WINS, "the empty board: black wins without the swap");
	ok(solve_best(&G, &p) && p != RULES_NO_POINT, "... the solver places");
	rules_game_play(&G, p, &ev);
	ok(solve_result(&G, &res) && res == RULES_BLACK_WINS, "... where black still wins");

	/* the pie rule: after the centre White swaps, after a corner it plays on */
	start("... / .... / ..x.. / .... / ...", RULES_WHITE, 2, true);
	ok(rules_game_can_swap(&G) && solve_best(&G, &p) && p == RULES_NO_POINT, "swap on: white swaps after the centre");
	ok(solve_turn(&G, pts, RULES_MAX_POINTS, &n, &swap) && swap, "... solve_turn says swap");
	start("... / .... / ..... / .... / x..", RULES_WHITE, 2, true);
	ok(solve_best(&G, &p) && p != RULES_NO_POINT, "... after a corner white plays on");
	ok(solve_turn(&G, pts, RULES_MAX_POINTS, &n, &swap) && !swap && n >= 1, "... a whole turn of placements");
	rules_game_play(&G, pts[0], &ev);
	ok(solve_result(&G, &res) && res == RULES_WHITE_WINS, "... keeping white's win");

	/* a capture first, then the placement that ends the turn: the turn's placements in order */
	start("... / .... / .o.o. / .x.. / ...", RULES_BLACK, 7, false);
	ok(solve_turn(&G, pts, RULES_MAX_POINTS, &n, &swap) && !swap && n >= 1, "a turn on a position with captures");
	ok(P("c3") != RULES_NO_POINT, "c3 is a point");

	/* a square board is not solved */
	rules_game_init(&G, 5, false);
	ok(!solve_result(&G, &res) && !solve_best(&G, &p), "a 5x5 board: not solved");
	return t_done();
}
