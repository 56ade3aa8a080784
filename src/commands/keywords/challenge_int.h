/*
 * challenge_int: what the mail commands challenge (challenge.c, which
 * defines these), accept (accept.c) and decline (decline.c) share.
 * Private to them; challenge_may_start() is mailcmd.h's (limit.c uses it).
 */
#ifndef OUSTPBM_CHALLENGE_INT_H
#define OUSTPBM_CHALLENGE_INT_H

#include <stdbool.h>

#include "game/game.h"

/* The lock of challenges: a new board and an accept are counted one after the other under it. */
#define CHALLENGE_LOCK_FILE "challenge.lock"

/* Has the opponent of board g not played on it yet? */
bool challenge_unanswered(const struct game *g, const char *opponent);

#endif
