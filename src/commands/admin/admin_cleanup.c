/* admin_cleanup: oustpbm cleanup, the run of cron (cleanup.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/admin/admincmd.h"
#include "commands/services/cleanup.h"
#include "store/ratings.h"

enum process_status admin_cleanup_run(struct admin *a)
{
	struct cleanup_stats stats;
	enum process_status cs;
	enum process_status as;
	bool retired;

	if (a->nargs != 0)
		return admin_usage_error();
	as = admin_retired_flush(a, &retired);
	if (retired || as != PROCESS_OK)
		return as;
	/* a game's end a crash left out of the ratings (ratings.h) */
	ratings_after_commit(a->srv.st, a->srv.cfg.lock_timeout_ms);
	cs = cleanup_run(&a->srv, &stats);
	store_log(a->srv.st, "%s cleanup done: %u boards, %u robot turns, %u reminded, %u lost on time, %u failed; "
	    "mail: %u sent, %u deferred, %u failed", a->srv.stamp, stats.boards, stats.robot, stats.reminded,
	    stats.timed_out, stats.failed, stats.flush.delivered, stats.flush.deferred, stats.flush.failed);
	return cs;
}
