/*
 * challenge_int: what the parts of the mail command challenge share
 * (challenge.c and challenge_clock.c).  Private to them.
 */
#ifndef OUSTPBM_CHALLENGE_INT_H
#define OUSTPBM_CHALLENGE_INT_H

#include "commands/pipeline/status.h"

struct command;
struct game;
struct job;

/*
 * The clocks of the new board g as challenge c asks (-clock=D+I/C,
 * -weekends; game/gameclock.h): both at D; stopped at weekends with
 * -weekends, or when both players' settings say weekends=on
 * (store/settings.h).  challenge_clock.c.
 */
enum process_status challenge_clock(struct job *j, struct game *g, const struct command *c);

#endif
