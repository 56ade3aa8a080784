/*
 * away: a player away on vacation, in a line (games, whoami), and their
 * vacation bank and bookings as a reply shows them (vacation, set,
 * settings).
 */
#ifndef OUSTPBM_AWAY_H
#define OUSTPBM_AWAY_H

#include <stddef.h>

#include "commands/pipeline/job.h"
#include "store/vacations.h"

#define AWAY_BANK_MAX 600	/* bytes of away_bank()'s text */

/*
 * "bob is away (vacation) until ...\n\n" into buf if userid is away now,
 * else "".
 */
enum process_status away_line(struct job *j, const char *userid, char *buf, size_t size);

/* The bank's rule of the server's configuration (config.h's vacation_* keys). */
void away_rule(const struct job *j, struct vacation_rule *rule);

/*
 * v's bank (brought to now: vacation_accrue) and its absences not ended,
 * dates in zone, as lines of text into buf (AWAY_BANK_MAX):
 * "Vacation bank: 12 days (...); the next day on ...\nBooked: ...\n".
 */
void away_bank(const struct job *j, const struct vacation *v, const char *zone, int64_t next, char *buf,
    size_t size);

/* The bank of account u read from the store as away_bank() writes it. */
enum process_status away_bank_of(struct job *j, const struct store_user *u, char *buf, size_t size);

#endif
