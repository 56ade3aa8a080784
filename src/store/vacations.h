/*
 * vacations: the players' vacation banks and absences (the mail command
 * vacation), in the file <home>/vacations, one line per player who ever
 * went away or booked an absence:
 *     userid bank=DAYS ticks=N [away=FROM,TO,DAYS]...
 * userid  the account, lower case
 * bank    the days in the player's vacation bank once ticks accruals are
 *         counted (vacation_accrue() brings it to now)
 * ticks   the accruals counted: one for every vacation_accrual_days days
 *         since the account was made (store.h's since)
 * away    an absence, FROM to TO (UTC, as the game files write times): the
 *         player is away while FROM <= now < TO; DAYS are the days it took
 *         from the bank.  Sorted by FROM, never overlapping; at most
 *         VACATIONS_AWAY_MAX, of which at most VACATIONS_BOOKED_MAX not yet
 *         begun (booked ahead); an ended one is kept until room is needed,
 *         so the clocks of a board count it out later still.
 * A line of the old form "userid start end year used" (before the bank)
 * still loads: its absence, and used days of year's allowance owed to the
 * bank; the next change writes it in the new form.
 * '#' lines and blank lines are ignored.  A line that does not parse makes
 * the file STORE_CORRUPT, naming the line.  It is rewritten whole, durably,
 * by each change, under accounts.lock (the mail command is MAILCMD_ACCOUNTS).
 *
 * While a player is away the clocks of the boards where they are to move
 * stop: cleanup counts the time of the absences out of the time since the
 * last turn (vacation_stopped()), so neither a reminder nor a loss on time
 * comes during one, and the time left afterwards is what it was.
 *
 * The account token of a change (accounts.h) is "vacation " and the line
 * the change writes: the line names its state.
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
#define VACATIONS_AWAY_MAX 6		/* absences a line keeps */
#define VACATIONS_BOOKED_MAX 3		/* absences booked ahead, not begun */
#define VACATIONS_LINE_MAX 560		/* bytes of a line */
#define VACATIONS_TOKEN_MAX (VACATIONS_LINE_MAX + 9)

struct vacation_absence {
	int64_t from, to;	/* away while from <= now < to */
	int days;		/* the days it took from the bank */
};

struct vacation {
	char userid[IDENT_USERID_MAX + 1];
	bool banked;		/* false: an old line (or none): the bank is counted from the start */
	int bank;		/* days in the bank after ticks accruals */
	long ticks;		/* accruals counted */
	int old_year, old_used;	/* an old line: the days of that year's allowance used */
	size_t n;
	struct vacation_absence away[VACATIONS_AWAY_MAX];	/* sorted by from */
};

/* The bank's rule (config.h): a day every accrual_days as a member, at most cap. */
struct vacation_rule {
	unsigned long accrual_days;	/* 0: nothing accrues */
	unsigned long cap;		/* the most days in the bank */
};

/* Every line of the file (none if it does not exist); the caller frees *list. */
enum store_status vacations_read(struct store *st, struct vacation **list, size_t *n);

/* userid's line: STORE_OK, or STORE_NOT_FOUND (*out then a fresh line of userid: no absence, nothing banked). */
enum store_status vacations_find(struct store *st, const char *userid, struct vacation *out);

/* The line of list[0..n) for userid, or NULL. */
const struct vacation *vacations_of(const struct vacation *list, size_t n, const char *userid);

/* Write v, replacing its player's line (accounts.lock held). */
enum store_status vacations_set(struct store *st, const struct vacation *v);

/*
 * Bring v's bank to now under rule, for a member since since (0: a line
 * from before members had a since, a member from 1970: a full bank); *next
 * the time of the next accrual that adds a day (0: none, the bank is full
 * or nothing accrues).
 */
void vacation_accrue(struct vacation *v, int64_t since, int64_t now, const struct vacation_rule *rule,
    int64_t *next);

/* Is the player of v away at now (v may be NULL)? */
bool vacation_away(const struct vacation *v, int64_t now);

/* The absence of v at now, else the last one ended before now, else NULL. */
const struct vacation_absence *vacation_current(const struct vacation *v, int64_t now);

/* The absences of v not begun at now. */
size_t vacation_booked(const struct vacation *v, int64_t now);

/* The seconds of v's absences between from and now: the time a clock started at from stood still. */
int64_t vacation_stopped(const struct vacation *v, int64_t from, int64_t now);

/*
 * Add absence a to v (sorted in), dropping the oldest ended absence if v is
 * full; false if it overlaps one (*clash set) or v is full of absences not
 * ended.
 */
bool vacation_add(struct vacation *v, const struct vacation_absence *a, int64_t now,
    const struct vacation_absence **clash);

/* Remove v's absence i. */
void vacation_remove(struct vacation *v, size_t i);

/* The calendar year (UTC) of t. */
int vacation_year(int64_t t);

/* v's line as the file holds it (no newline) into buf. */
void vacations_line(const struct vacation *v, char buf[VACATIONS_LINE_MAX + 1]);

/* The account token of writing v (accounts.h), into buf. */
void vacations_token(const struct vacation *v, char buf[VACATIONS_TOKEN_MAX + 1]);

#endif
