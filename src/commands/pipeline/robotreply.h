/*
 * robotreply: the robot host's replies read, the incoming half of
 * robotremote.h (which says what they are).  Above the job: only the
 * pipeline's top calls it (process.c, tokenreply.c).
 */
#ifndef OUSTPBM_ROBOTREPLY_H
#define OUSTPBM_ROBOTREPLY_H

#include <stdbool.h>

#include "commands/pipeline/status.h"

struct job;

/* True if the mail of j comes from robot_address (the remote robot's replies). */
bool robotreply_sender(const struct job *j);

/*
 * True if the mail of j comes from robot_address and its Subject carries
 * the robot's right token for the board it names: the robot host's reply.
 * Only such a reply is read although automatic and is exempt from
 * max_mails_per_hour; any other mail From robot_address (which anyone
 * can forge) is throttled as any sender's.
 */
bool robotreply_authentic(const struct job *j);

/*
 * tokenreply_login() for the remote robot: the board's robot player, the
 * token of its Subject checked against the robot's; *ready false after a
 * refusal was sent.
 */
enum process_status robotreply_login(struct job *j, bool *ready);

#endif
