/*
 * game_int: what the parts of the game module share (game.c: the board,
 * its players and the messages; game_queue.c: the pending part of a turn
 * and the conditional turns; game_offer.c: undo and draw by agreement;
 * game_replay.c: replay and verify).  Not for other modules: they use game.h.
 */
#ifndef OUSTPBM_GAME_INT_H
#define OUSTPBM_GAME_INT_H

#include <stddef.h>

#include "game/rules.h"

/* What was wrong with a refused turn of points on b, e.g. "F5: the point is occupied". */
void game_describe_turn(const struct rules_board *b, const int *points,
    const struct rules_turn_report *rep, char *buf, size_t size);

#endif
