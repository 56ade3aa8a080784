/*
 * remind: when the player to move on a board is next reminded (remind_days,
 * or the board's own -remind=DAYS), stored in its game file's remind: with
 * every turn (pipeline/hooks.h's turn hook, the robot's turns), and read by
 * oustpbm cleanup (cleanup.h) that sends the reminders.
 */
#ifndef OUSTPBM_REMIND_H
#define OUSTPBM_REMIND_H

#include <stdint.h>

#include "base/config.h"
#include "game/game.h"

#define REMIND_DAY 86400	/* seconds in a day of remind_days and timeout_days */

/*
 * When the player to move on g should next be reminded, counting from its
 * last turn: g->last_move + remind_days, or 0 when g is over or reminders are
 * off.  The mail processor stores it in g->remind with every turn.
 */
int64_t remind_at(const struct config *cfg, const struct game *g);

#endif
