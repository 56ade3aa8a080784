/*
 * limit: the mail command `limit <userid> <password> N`, no challenge
 * from or to the player past N active boards (openboards_may_start() in
 * challenge.c); kept by seeks.h as seek's number is.
 */
#include <stdio.h>

#include "commands/lib/openboards.h"
#include "commands/lib/seeking.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

/*
 * limit <userid> <password> N: no challenge from or to the player once it
 * plays on N boards (0: no limit).  A limit below the boards it plays on
 * now is refused.
 */
enum process_status limit_run(struct job *j)
{
	const char *id = j->user.userid;
	char text[400], subject[80];
	int n = j->cmd.games;
	unsigned long active;
	enum process_status ps;

	ps = openboards_active(j, id, &active);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0 && (unsigned long)n < active)
		return job_refuse(j, NULL, "%s plays on %lu boards now: a limit of %d is below that (finish or resign "
		    "boards first, or choose %lu or more)", id, active, n, active);
	ps = seeking_set(j, SEEKS_LIMIT, (unsigned)n);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0)
		snprintf(text, sizeof text, "%s now plays on at most %d board%s at a time (%lu now): a challenge from or "
		    "to %s past that is refused.\nSend \"limit %s <password> 0\" to lift the limit.\n", id, n,
		    n == 1 ? "" : "s", active, id, id);
	else
		snprintf(text, sizeof text, "%s has no limit on boards now.\n", id);
	snprintf(subject, sizeof subject, "Oust limit %s", id);
	ps = seeking_notice(j, subject, text);
	if (ps == PROCESS_OK && n > 0)
		job_detail(j, "ok", "%s limits to %d board%s (%lu active)", id, n, n == 1 ? "" : "s", active);
	else if (ps == PROCESS_OK)
		job_detail(j, "ok", "%s lifts the limit (%lu active)", id, active);
	return ps;
}
