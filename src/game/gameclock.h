/*
 * gameclock: a board's clocks (challenge -clock=D+I/C, days, fractions
 * allowed: "3+1.5/5"): each player starts with D days; each turn a player
 * completes adds I days to their clock, never past C; the clock of the
 * player to move runs, except while it is stopped (an absence, a weekend),
 * and at zero the game is lost on time.  The arithmetic only: the stops are
 * the caller's (commands/services/clock.h reads them from the store).
 * Weekends are Saturday 00:00 to Monday 00:00 in a zone (base/tzone.h).
 */
#ifndef OUSTPBM_GAMECLOCK_H
#define OUSTPBM_GAMECLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct game;

#define GAMECLOCK_DAYS_MAX 3650		/* D, I and C at most (game.h's GAME_TIMEOUT_DAYS_MAX) */
#define GAMECLOCK_SPEC_SIZE 48		/* "3650.0000+3650.0000/3650.0000" and its NUL */
#define GAMECLOCK_STOPS_MAX 8		/* the stops the caller passes: absences */

/* A span the clock does not run in: [start, end). */
struct gameclock_stop {
	int64_t start, end;
};

/*
 * "D+I/C" (s, n bytes), days with at most 4 decimals, into seconds:
 * 0 < D <= C, 0 <= I, C <= GAMECLOCK_DAYS_MAX days.  false if not so.
 */
bool gameclock_parse(const char *s, size_t n, int64_t *base, int64_t *inc, int64_t *cap);

/* The spec of base, inc, cap as gameclock_parse reads it ("3+1.5/5") into out (GAMECLOCK_SPEC_SIZE). */
void gameclock_spec(int64_t base, int64_t inc, int64_t cap, char *out, size_t size);

/*
 * The seconds of [from, to) the clock runs: outside the n stops and, with
 * weekend_zone not NULL, outside the weekends of that zone.
 */
int64_t gameclock_running(int64_t from, int64_t to, const struct gameclock_stop *stops, size_t n,
    const char *weekend_zone);

/* When a clock with left seconds, running from now under the same stops, reaches zero. */
int64_t gameclock_runs_out(int64_t now, int64_t left, const struct gameclock_stop *stops, size_t n,
    const char *weekend_zone);

/*
 * After a change of g committed at g->last_move: the clock of the player
 * who was to move when g was read (g->clock_names, g->clock_at) loses ran
 * seconds (gameclock_running over [clock_at, last_move)), and each turn
 * added to the history since adds the increment to its player's clock, up
 * to the cap; the clocks follow their players (a swap exchanges the
 * names).  A board without turns starts both clocks at D.  Then g's
 * clocks are as of g->last_move.  Nothing on a board without a clock.
 */
void gameclock_settle(struct game *g, int64_t ran);

/* g's clocks are as of now (g->last_move): how they stood when read, for gameclock_settle. */
void gameclock_mark(struct game *g);

/* The seconds left to the player of colour c (rules.h) at now, ran seconds having run since g->last_move. */
int64_t gameclock_left(const struct game *g, int color, int64_t ran);

#endif
