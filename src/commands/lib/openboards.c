/* openboards: the boards a player plays, and whether one more may start.  See openboards.h. */
#include "commands/lib/openboards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "store/seeks.h"

/*
 * openboards.h.  Before the second turn the header's colours are the
 * first ones (a swap is the second turn at the earliest), and passes
 * cannot come that early.
 */
bool openboards_unanswered(const struct game *g, const char *opponent)
{
	return g->rg.turn == 1 || (g->rg.turn == 2 && strcmp(g->white, opponent) == 0);
}

enum process_status openboards_active(struct job *j, const char *userid, unsigned long *count)
{
	struct game *games = NULL;
	enum process_status ps;
	size_t n = 0, i;

	*count = 0;
	ps = job_boards_of(j, userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	for (i = 0; i < n; i++)
		*count += !game_over(&games[i]);
	free(games);
	return PROCESS_OK;
}

/*
 * May userid start another game?  The one check of it, for a challenge
 * (its challenger and its opponent) and for an accept: max_open_boards,
 * and the limit userid set itself (limit <userid> <password> N, seeks.h),
 * against the boards userid plays that are not over (an open challenge
 * counts for its challenger).  The robot plays every board it is given.
 * then says what to do, in the refusal.  *ok false after a refusal was sent.
 */
enum process_status openboards_may_start(struct job *j, const char *userid, const char *then, bool *ok)
{
	const struct config *cfg = &j->srv.cfg;
	struct seeks_entry *limits = NULL;
	unsigned long open = 0, limit = 0;
	char err[SEEKS_ERR_MAX];
	enum store_status ss;
	enum process_status ps;
	size_t n = 0;

	*ok = false;
	if (game_user_is_robot(userid)) {
		*ok = true;
		return PROCESS_OK;
	}
	ss = seeks_load(j->srv.st, SEEKS_LIMIT, &limits, &n, err);
	if (ss != STORE_OK) {
		msg_warn("%s", err);
		job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	limit = seeks_of(limits, n, userid);
	free(limits);
	if (cfg->max_open_boards == 0 && limit == 0) {
		*ok = true;
		return PROCESS_OK;
	}
	ps = openboards_active(j, userid, &open);
	if (ps != PROCESS_OK)
		return ps;
	if (cfg->max_open_boards != 0 && open >= cfg->max_open_boards)
		return job_refuse(j, NULL, "%s is playing on %lu board%s already (max_open_boards = %lu): %s",
		    userid, open, open == 1 ? "" : "s", cfg->max_open_boards, then);
	if (limit != 0 && open >= limit)
		return job_refuse(j, NULL, "%s is playing on %lu board%s, the limit %s set with the limit command: %s",
		    userid, open, open == 1 ? "" : "s", userid, then);
	*ok = true;
	return PROCESS_OK;
}
