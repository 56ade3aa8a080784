/*
 * vacations: the players away (the mail command vacation), in the file
 * <home>/vacations, one line per player who ever went away:
 *     userid start end year used
 * userid  the account, lower case
 * start   when the current or last absence began (UTC, as the game files
 *         write times)
 * end     when it ends (or ended); the player is away while start <= now < end
 * year    the calendar year (UTC) of the allowance counted in used
 * used    days of the yearly allowance (vacation_days_per_year) used in year
 * '#' lines and blank lines are ignored.  A line that does not parse makes
 * the file STORE_CORRUPT, naming the line.  It is rewritten whole, durably,
 * by each change, under accounts.lock (the mail command is MAILCMD_ACCOUNTS).
 *
 * While a player is away the clocks of the boards where they are to move
 * stop: cleanup counts the time of the absence out of the time since the
 * last turn (vacation_stopped()), so neither a reminder nor a loss on time
 * comes during it, and the time left afterwards is what it was.
 *
 * The account token of a change (accounts.h) is "vacation START END".
 */
#ifndef OUSTPBM_VACATIONS_H
#define OUSTPBM_VACATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"
#include "store/store.h"

#define VACATIONS_FILE "vacations"
#define VACATIONS_FILE_MAX (4L * 1024 * 1024)	/* bytes read of the file */
#define VACATIONS_DAY INT64_C(86400)
#define VACATIONS_TOKEN_MAX 64

struct vacation {
	char userid[IDENT_USERID_MAX + 1];
	int64_t start, end;
	int year;
	int used;
};

/* Every line of the file (none if it does not exist); the caller frees *list. */
enum store_status vacations_read(struct store *st, struct vacation **list, size_t *n);

/* userid's line: STORE_OK, or STORE_NOT_FOUND if the player never went away. */
enum store_status vacations_find(struct store *st, const char *userid, struct vacation *out);

/* The line of list[0..n) for userid, or NULL. */
const struct vacation *vacations_of(const struct vacation *list, size_t n, const char *userid);

/* Write v, replacing its player's line (accounts.lock held). */
enum store_status vacations_set(struct store *st, const struct vacation *v);

/* Is the player of v away at now? */
bool vacation_away(const struct vacation *v, int64_t now);

/* The seconds of v's absence between from and now: the time a clock started at from stood still. */
int64_t vacation_stopped(const struct vacation *v, int64_t from, int64_t now);

/* The calendar year (UTC) of t. */
int vacation_year(int64_t t);

/* The account token of writing v (accounts.h), into buf. */
void vacations_token(const struct vacation *v, char buf[VACATIONS_TOKEN_MAX + 1]);

#endif
