/*
 * outcome: how a game ended, in words (preview, moves).
 */
#ifndef OUSTPBM_OUTCOME_H
#define OUSTPBM_OUTCOME_H

#include <stddef.h>

#include "game/game.h"

/* How g ended, into buf: "won by alice", "drawn". */
void outcome_words(const struct game *g, char *buf, size_t size);

#endif
