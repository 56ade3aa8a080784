/* sgf: sgf <board>, the game record (game/sgf.h) attached to a short text. */
#include <stdlib.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/sgf.h"

enum process_status sgf_run(struct job *j)
{
	struct reply_mail m;
	struct sgf_error err;
	enum mail_status rs;
	enum process_status ps;
	enum game_status ss;
	char *sgf = NULL;
	size_t len;

	/* MAILCMD_BOARD: j->game is the board */
	ss = sgf_format(&j->game, &sgf, &len, &err);
	if (ss == GAME_NO_MEMORY)
		return job_no_memory(j);
	if (ss != GAME_OK)
		return job_refuse(j, &j->game, "no record of board %ld can be made: its history does not lead to "
		    "its position (the admin edited it)", j->game.board);
	rs = reply_sgf(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
	    &j->game, sgf, len, &m);
	free(sgf);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "record of %d turns sent", j->game.nturns);
	return ps;
}
