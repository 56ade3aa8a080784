/* admin_robot: oustpbm robot [BOARD...], the robot's turns left over and the reviews waiting (robot.h, review.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/services/review.h"
#include "commands/services/robot.h"

/* oustpbm robot [BOARD...]: the robot turns left over (robot.h), then the outbox flush. */
enum process_status admin_robot_run(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct robot_stats stats;
	struct review_stats rvstats = { 0, 0 };
	struct outbox_stats fl;
	enum process_status rs;
	enum outbox_status os;
	enum process_status as = PROCESS_OK;
	char err[OUTBOX_ERR_MAX];
	long *boards = NULL;
	bool retired;

	as = admin_board_args(a, false, &boards);
	if (as != PROCESS_OK)
		return as;
	as = admin_retired_flush(a, &retired);
	if (retired || as != PROCESS_OK) {
		free(boards);
		return as;
	}
	rs = robot_run(&a->srv, boards, (size_t)a->nargs, &stats);
	free(boards);
	/* the reviews asked for by mail (commands/services/review.h): only a run over every board does them */
	if (a->nargs == 0 && !review_waiting(&a->srv, &rvstats) && rs == PROCESS_OK)
		rs = PROCESS_FAULT;
	memset(&fl, 0, sizeof fl);
	os = server_outbox(&a->srv, err, sizeof err);
	if (os == OUTBOX_OK && ops != NULL)
		os = outbox_flush(a->srv.ob, ops, &a->srv.cfg, &fl);
	if (os != OUTBOX_OK || ops == NULL) {
		msg_warn("robot: cannot flush the outbox: %s",
		    ops == NULL ? "unknown transport" : a->srv.ob != NULL ? outbox_error(a->srv.ob) : err);
		as = ops == NULL ? PROCESS_CONFIG : outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	store_log(a->srv.st, "%s robot done: %u boards, %u robot turns played, %u left for the next run; "
	    "mail: %u sent, %u deferred, %u failed", a->srv.stamp, stats.boards, stats.played, stats.failed,
	    fl.delivered, fl.deferred, fl.failed);
	if (rvstats.done > 0 || rvstats.failed > 0)
		store_log(a->srv.st, "%s robot reviews: %u mailed, %u failed", a->srv.stamp, rvstats.done, rvstats.failed);
	if (as != PROCESS_OK)
		return as;
	return rs == PROCESS_FAULT ? PROCESS_TEMPFAIL : rs;	/* a fault: left for the next run */
}
