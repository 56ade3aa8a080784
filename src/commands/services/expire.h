/*
 * expire: challenges that expire (issue 43).  A board one of whose
 * players has not played on it yet (an open challenge nobody took, or a
 * challenge whose player to move has never moved there: the boards a
 * `decline` may still remove) is withdrawn by `oustpbm cleanup`
 * challenge_expiry_days after it was made (`created:`, which an accept
 * sets again).  The board is removed as its decline would remove it, and
 * both players (not the robot, nobody for an open seat) get one mail
 * (templates/decline.txt) staged with the removal by outbox.h's protocol:
 * the mails are tagged with the empty text a removed board holds
 * (store_board_remove), so a crash either leaves the board and drops the
 * mails (the next run withdraws it and tells them) or removes it and
 * sends them: never twice, never lost.
 */
#ifndef OUSTPBM_EXPIRE_H
#define OUSTPBM_EXPIRE_H

#include <stddef.h>
#include <stdint.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/game.h"

/*
 * expire_board returns (status.h) PROCESS_OK, PROCESS_TEMPFAIL (locked,
 * disk full, no memory: nothing done, the next run does it),
 * PROCESS_CONFIG (the template is missing or malformed) or
 * PROCESS_SOFTWARE (any other failure: nothing done).
 */


/* When g (its header is enough) expires as a challenge not accepted, or 0: never (taken, over, or the key 0). */
int64_t expire_due(const struct config *cfg, const struct game *g);

/*
 * Withdraw g (read whole, its lock held, srv's outbox open and recovered
 * for it) and tell its players, in srv at srv->now.  PROCESS_OK once the
 * board is removed; else nothing was and err says why.
 */
enum process_status expire_board(struct server *srv, const struct game *g, char *err, size_t errlen);

#endif
