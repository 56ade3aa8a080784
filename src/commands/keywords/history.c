/*
 * history: the mail command that lists a board's turns and changes
 * nothing.  The pipeline has read the board (MAILCMD_BOARD) into j->game,
 * without its lock: game files are replaced whole, never rewritten in
 * place.
 */
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

enum process_status history_run(struct job *j)
{
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;

	rs = reply_history(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) }, &j->game, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "history of %d turns", j->game.nturns);
	return ps;
}
