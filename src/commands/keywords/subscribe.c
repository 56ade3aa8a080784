/*
 * subscribe: the mail commands of observers, who follow boards they do not
 * play (unsubscribe.c and notify.c are the others).  subscribe a board
 * (its game file's observers:), or every board ("all", the watchers file,
 * store/audience.h, an account change: accounts.lock, job_commit_account);
 * what the three commands share is lib/watching.h.  Who then gets a board's mail is
 * audience_of_board()'s to say; observers get a read-only view of it
 * (reply_game).  A board's list is changed under its lock and committed by
 * the game file's protocol (job_commit_quiet, job_commit_board: only the
 * observer is told).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/lib/watching.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/audience.h"

/* subscribe <board> <userid> <password>: every mail of the board, as a read-only view. */
enum process_status subscribe_run(struct job *j)
{
	struct game *g = &j->game;
	const char *userid = j->user.userid;
	char subject[120], news[400], how[200], detail[120];
	enum process_status ps;
	int i;

	if (watching_refused_board(j, g, true, "observe", &ps))
		return ps;
	i = game_observer_find(g, userid);
	if (i >= 0 && !g->observers[i].results)
		return job_refuse(j, g, "%s observes board %ld already", userid, g->board);
	if (i >= 0) {
		g->observers[i].results = false;	/* from the result alone to every mail */
	} else if (!game_observer_add(g, userid, false)) {
		return job_refuse(j, g, "board %ld has %d observers already, the most a board has", g->board,
		    GAME_OBSERVERS_MAX);
	}
	snprintf(subject, sizeof subject, "Oust Board %ld subscribed", g->board);
	snprintf(news, sizeof news, "%s now observes board %ld (%s against %s): every mail of the board comes to "
	    "you too, as a read-only view, from the next turn on.", userid, g->board, g->black, g->white);
	snprintf(how, sizeof how, "To stop, send:\n\n    unsubscribe %ld %s <password>", g->board, userid);
	snprintf(detail, sizeof detail, "%s subscribed", userid);
	return watching_commit_change(j, subject, news, how, detail);
}

/*
 * The watchers file (every board): subscribe/unsubscribe ... all, notify
 * on|off.  An account change (accounts.lock held: MAILCMD_ACCOUNTS): the
 * confirmation staged with the token of the mail's stamp, the file
 * rewritten with the change and the stamp (the commit point), the
 * confirmation released (job_commit_account).  A copy of a mail whose
 * change was written finds its stamp there and is dropped: its
 * confirmation, released by the recovery, is the one answer.
 */
/* subscribe <userid> <password> all. */
enum process_status subscribe_all_run(struct job *j)
{
	return watching_every_board(j, AUDIENCE_ALL, true);
}
