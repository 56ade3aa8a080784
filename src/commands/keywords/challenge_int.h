/*
 * challenge_int: what the parts of the mail command challenge share
 * (challenge.c, challenge_clock.c and challenge_token.c).  Private to them.
 */
#ifndef OUSTPBM_CHALLENGE_INT_H
#define OUSTPBM_CHALLENGE_INT_H

#include <stdbool.h>

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

/*
 * A challenge by reply token (tokenreply.h: the game-end mail's return
 * game link): j->game is the token's board, locked, j->user its player.
 * Only that board's return game is made so: the board over, the
 * opponent its other player, no -ladder, and no board between the two
 * numbered after it (one return game per board: a link tapped again, or
 * replayed by a runaway client, makes no second).  *ok true with the
 * board released (the challenge goes on as one with the password);
 * false after a refusal.  challenge_token.c.
 */
enum process_status challenge_token_check(struct job *j, bool *ok);

#endif
