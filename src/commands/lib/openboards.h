/*
 * openboards: the boards a player is playing, and whether one more may start: the
 * limits a challenge and an accept check (max_open_boards, the player's own
 * limit), for challenge, accept, decline and limit.
 */
#ifndef OUSTPBM_OPENBOARDS_H
#define OUSTPBM_OPENBOARDS_H

#include <stdbool.h>

#include "commands/pipeline/job.h"
#include "game/game.h"

/* The lock of challenges: a new board and an accept are counted one after the other under it. */
#define OPENBOARDS_LOCK_FILE "challenge.lock"

/* Has the opponent of board g not played on it yet? */
bool openboards_unanswered(const struct game *g, const char *opponent);

/* The boards userid is playing on now (its index, players.h, and each board's header). */
enum process_status openboards_active(struct job *j, const char *userid, unsigned long *count);

/*
 * May userid start another game (the one check of it: a challenge's
 * players, an accept)?  Not past max_open_boards nor past its own limit
 * (limit <userid> <password> N); the robot always may.  *ok false after a
 * refusal was sent, which ends with then (what to do).
 */
enum process_status openboards_may_start(struct job *j, const char *userid, const char *then, bool *ok);

#endif
