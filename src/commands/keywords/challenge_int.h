/*
 * challenge_int: what the mail commands challenge (challenge.c, which
 * defines these), accept (accept.c) and decline (decline.c) share.
 * Private to them; challenge_may_start() is mailcmd.h's (limit.c uses it).
 */
#ifndef OUSTPBM_CHALLENGE_INT_H
#define OUSTPBM_CHALLENGE_INT_H

#include <stdbool.h>

#include "commands/pipeline/status.h"
#include "game/game.h"

/* The lock of challenges: a new board and an accept are counted one after the other under it. */
#define CHALLENGE_LOCK_FILE "challenge.lock"

/* Has the opponent of board g not played on it yet? */
bool challenge_unanswered(const struct game *g, const char *opponent);

struct command;
struct job;

/*
 * The clocks of the new board g as challenge c asks (-clock=D+I/C,
 * -weekends; game/gameclock.h): both at D; stopped at weekends with
 * -weekends, or when both players' settings say weekends=on
 * (store/settings.h).  challenge_clock.c.
 */
enum process_status challenge_clock(struct job *j, struct game *g, const struct command *c);

#endif
