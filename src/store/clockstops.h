/*
 * clockstops: when a player's clock on a board stands still
 * (game/gameclock.h): their vacation (vacations.h) and, on a board whose
 * clocks stop at weekends, the weekends of their time zone (settings.h).
 * Read from the store for one player; the arithmetic is gameclock's.
 */
#ifndef OUSTPBM_CLOCKSTOPS_H
#define OUSTPBM_CLOCKSTOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/tzone.h"
#include "game/game.h"
#include "game/gameclock.h"
#include "store/store.h"

struct clockstops {
	struct gameclock_stop stops[GAMECLOCK_STOPS_MAX];
	size_t n;
	bool weekends;			/* the board's clocks stop at weekends */
	char zone[TZONE_NAME_MAX + 1];	/* the player's time zone (UTC by default) */
};

/* The stops of userid's clock on g into *out (none for the robot, an open seat or an unknown player). */
enum store_status clockstops_of(struct store *st, const struct game *g, const char *userid, struct clockstops *out);

/* The seconds of [from, to) the clock runs under c. */
int64_t clockstops_running(const struct clockstops *c, int64_t from, int64_t to);

/* When a clock of left seconds at now reaches zero under c. */
int64_t clockstops_runs_out(const struct clockstops *c, int64_t now, int64_t left);

/*
 * The seconds the clock of g's player to move has run since g->last_move,
 * up to now (0 on a board without a clock or not being played); *c its stops.
 */
enum store_status clockstops_ran(struct store *st, const struct game *g, int64_t now, struct clockstops *c,
    int64_t *ran);

#endif
