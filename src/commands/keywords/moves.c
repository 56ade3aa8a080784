/*
 * moves: the mail command that lists the legal placements of the player
 * to move.  No password: nothing changes; the pipeline has read the board
 * (MAILCMD_BOARD) without its lock.
 */
#include <stdlib.h>

#include "commands/lib/outcome.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/preview.h"

enum process_status moves_run(struct job *j)
{
	const struct game *g = &j->game;
	struct preview_option *opts = NULL;
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char result[80];
	int n;

	if (game_over(g)) {
		outcome_words(g, result, sizeof result);
		return job_refuse(j, g, "board %ld is over (%s): nobody is to move", g->board, result);
	}
	if (preview_options(&g->rg, &opts, &n) != GAME_OK)
		return job_no_memory(j);
	rs = reply_moves(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) }, g, opts, n, &m);
	free(opts);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%d legal placement%s listed", n, n == 1 ? "" : "s");
	return ps;
}
