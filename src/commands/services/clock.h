/*
 * clock: the clocks of boards (game/gameclock.h) as the server runs them:
 * settled with every turn (pipeline/hooks.h's turn hook: the time the
 * mover's clock ran, its stops counted out by store/clockstops.h, and the
 * increment), and looked at by oustpbm cleanup (cleanup.c): a clock at zero
 * loses on time; one past a mark of the player's warn setting
 * (store/settings.h) gets a warning, once per mark and turn (the game
 * file's warned:), a board mail the player can tap.
 */
#ifndef OUSTPBM_CLOCK_H
#define OUSTPBM_CLOCK_H

#include <stdint.h>

#include "commands/pipeline/server.h"
#include "game/game.h"
#include "store/clockstops.h"

/* What cleanup has to do on a board with a clock. */
enum clock_due {
	CLOCK_NOTHING = 0,
	CLOCK_WARN,		/* a warning, mark hours before zero (*mark) */
	CLOCK_TIMEOUT		/* the clock is at zero: lost on time */
};

/*
 * What is due on g (a board with a clock, being played) at now: *left the
 * seconds left to the player to move, *mark the warn mark passed, *c their
 * stops.  A store failure is returned, nothing due.
 */
enum store_status clock_due(struct server *srv, const struct game *g, int64_t now, enum clock_due *due,
    int64_t *left, int *mark, struct clockstops *c);

#endif
