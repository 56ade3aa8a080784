/*
 * seek: the mail command `seek <userid> <password> N` (how many more
 * games the player wants, shown in the standings), and what it shares
 * with limit.c (lib/seeking.h).  Both numbers kept by seeks.h.
 */
#include <stdio.h>

#include "commands/lib/seeking.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/seeks.h"

_Static_assert(COMMAND_GAMES_MAX == SEEKS_MAX, "an 'n' slot holds what seeks.h keeps");

/* seek <userid> <password> N (MAILCMD_LOGIN: j->user is the account). */
enum process_status seek_run(struct job *j)
{
	const char *id = j->user.userid;
	char text[400], subject[80];
	int n = j->cmd.games;
	enum process_status ps;

	ps = seeking_set(j, SEEKS_SEEK, (unsigned)n);
	if (ps != PROCESS_OK)
		return ps;
	if (n > 0)
		snprintf(text, sizeof text, "%s now seeks %d more game%s: the standings say so, for anyone looking for "
		    "an opponent.\nWhen you have enough, send \"seek %s <password> 0\".\n", id, n, n == 1 ? "" : "s", id);
	else
		snprintf(text, sizeof text, "%s seeks no more games: the standings no longer say so.\n", id);
	snprintf(subject, sizeof subject, "Oust seek %s", id);
	ps = seeking_notice(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%s seeks %d game%s", id, n, n == 1 ? "" : "s");
	return ps;
}
