/*
 * solve: perfect play on the boards small enough to solve (the hex board
 * of side 3), for the robot and `review`.  Pure: no I/O.
 */
#ifndef OUSTPBM_SOLVE_H
#define OUSTPBM_SOLVE_H

#include <stdbool.h>

#include "game/rules.h"

/* True if boards of this shape and size are solved here. */
bool solve_knows(enum rules_shape shape, int size);

/*
 * The result of rg with perfect play by both sides; false when the board
 * is not solved here (or out of memory).
 */
bool solve_result(const struct rules_game *rg, enum rules_result *out);

/*
 * A best placement for the side to move in rg (*p), or RULES_NO_POINT for a
 * swap; false when the board is not solved here.
 */
bool solve_best(const struct rules_game *rg, int *p);

#endif
