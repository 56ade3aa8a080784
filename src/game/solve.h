/*
 * solve: Oust solved on the hex board of side 3 (19 cells), by a memoised
 * search over its positions with the board's 12 symmetries folded, for the
 * robot (perfect play there), `review` (exact values) and `make
 * solve-hex3` (tests/tools/solvehex.c, which proves and checks the whole
 * board).  Pure: no I/O.
 *
 * A position is the stones and the side to move: after a capture the same
 * side places again, and a side without a placement passes (or, after a
 * capture, its turn ends), so nothing else matters to the result.  The pie
 * rule exchanges names, not colours: a position's result in colours is the
 * same whether White swaps or not.
 *
 * Two kinds of search share the code: SOLVE_PROVE stops at the first
 * winning placement (the result only: the robot, review), SOLVE_EXACT
 * looks at every placement and also finds in how many turns the game ends
 * with perfect play (the winner hurrying, the loser holding out), which
 * needs every reachable position (make solve-hex3).  A search in a cycle
 * of positions would not end: it is detected and reported (GAME_CYCLE);
 * on the hex board of side 3 there is none.
 */
#ifndef OUSTPBM_SOLVE_H
#define OUSTPBM_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game_status.h"
#include "game/rules.h"

#define SOLVE_SIDE 3		/* the hex board solved */
#define SOLVE_CELLS 19
#define SOLVE_NO_DEPTH 0xff	/* SOLVE_PROVE: the turns are not known */

enum solve_mode { SOLVE_PROVE = 0, SOLVE_EXACT };
enum solve_value { SOLVE_LOSS = 0, SOLVE_DRAW, SOLVE_WIN };	/* for the side to move */

/* A search context: its table of positions solved (grows as needed). */
struct solve;
/* NULL when out of memory; the caller frees it with solve_free(). */
struct solve *solve_new(enum solve_mode mode);
void solve_free(struct solve *s);

/* The cells as bits: bit i is cell solve_cell(i) of the board of side 3 (rules_board_init_shape). */
int solve_cell(int i);

/*
 * The value for the side to move (white: White to move) of the position
 * of stones black, white (bit masks), and in how many turns the game ends
 * (the turn in progress counted; SOLVE_NO_DEPTH in SOLVE_PROVE).
 * GAME_OK; GAME_CYCLE (a cycle of positions, see above) or GAME_NO_MEMORY,
 * *value then meaningless.
 */
enum game_status solve_position(struct solve *s, uint32_t black, uint32_t white, bool white_to_move,
    enum solve_value *value, int *turns);

/* What the table holds: positions solved (symmetric ones once), bytes. */
void solve_stats(const struct solve *s, unsigned long *positions, size_t *bytes);

/*
 * Every entry solved so far in turn: fn(black, white, white_to_move, value,
 * turns, arg) for one position of each class of symmetric ones.
 */
typedef void solve_each_fn(uint32_t black, uint32_t white, bool white_to_move, enum solve_value v, int turns,
    void *arg);
void solve_each(const struct solve *s, solve_each_fn *fn, void *arg);

/* ---- for the robot and review: a process-wide SOLVE_PROVE context made when first needed ---- */

/* True if boards of this shape and size are solved here. */
bool solve_knows(enum rules_shape shape, int size);

/* The result of rg with perfect play by both sides; false when rg's board is not solved here. */
bool solve_result(const struct rules_game *rg, enum rules_result *out);

/*
 * A best placement for the side to move in rg (*p): a winning one when
 * there is one; RULES_NO_POINT for a swap, where the pie rule gives the
 * swapper the winning colour.  False when rg's board is not solved here or
 * the game is over.
 */
bool solve_best(const struct rules_game *rg, int *p);

/*
 * The whole turn of perfect play for the side to move in rg: *swap, or
 * the placements points[0..*n) (at most max), each solve_best()'s, until
 * the turn ends.  False as solve_best() is.
 */
bool solve_turn(const struct rules_game *rg, int *points, int max, int *n, bool *swap);

#endif
