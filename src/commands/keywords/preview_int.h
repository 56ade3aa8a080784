/*
 * preview_int: what the mail commands preview (preview.c, which defines
 * it) and moves (moves.c) share.  Private to them.
 */
#ifndef OUSTPBM_PREVIEW_INT_H
#define OUSTPBM_PREVIEW_INT_H

#include <stddef.h>

#include "game/game.h"

/* How g ended, into buf: "won by alice", "drawn". */
void preview_result_words(const struct game *g, char *buf, size_t size);

#endif
