/*
 * away: a player away on vacation, in a line (games, whoami).
 */
#ifndef OUSTPBM_AWAY_H
#define OUSTPBM_AWAY_H

#include <stddef.h>

#include "commands/pipeline/job.h"

/*
 * "bob is away (vacation) until ...\n\n" into buf if userid is away now,
 * else "".
 */
enum process_status away_line(struct job *j, const char *userid, char *buf, size_t size);

#endif
