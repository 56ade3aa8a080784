/*
 * review: the mail command `review <board> <userid> <password>`: a review
 * kept is mailed at once, else the request is queued for oustpbm robot
 * (services/review.h).
 */
#include <stdio.h>
#include <string.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/review.h"
#include "store/reviews.h"

enum process_status review_run(struct job *j)
{
	const struct game *g = &j->game;
	const char *me = j->user.userid;
	struct reply_mail m;
	struct review r;
	struct reviews_request want;
	enum mail_status rs;
	enum process_status ps;
	enum reviews_outcome out;
	enum store_status ss;
	int ahead = 0;

	/* MAILCMD_LOGIN | MAILCMD_BOARD: j->user and j->game */
	if (game_is_open(g))
		return job_refuse(j, g, "board %ld is an open challenge: there is no game to review yet", g->board);
	if (!game_over(g) && game_color_of(g, me) == RULES_EMPTY)
		return job_refuse(j, g, "board %ld is still being played: only its players may ask for a review "
		    "before it ends", g->board);
	if (!game_over(g) && !game_user_is_robot(g->black) && !game_user_is_robot(g->white))
		return job_refuse(j, g, "board %ld is still being played between two people: it can be reviewed "
		    "once it is over", g->board);
	if (g->nturns == 0)
		return job_refuse(j, g, "board %ld has no turn yet: there is nothing to review", g->board);
	if (review_kept(j->srv.st, g, &r)) {
		rs = review_mail(&j->srv.rc, g, &r, j->in.from_addr, job_sender_name(j, me), &m);
		review_release(&r);
		ps = job_send(j, rs, &m);
		if (ps == PROCESS_OK)
			job_detail(j, "ok", "review of %d turns sent (kept): served from games/%ld.review, not recomputed",
			    g->nturns, g->board);
		return ps;
	}
	memset(&want, 0, sizeof want);
	want.time = (int64_t)j->srv.now;
	want.board = g->board;
	snprintf(want.userid, sizeof want.userid, "%s", me);
	ss = reviews_request(j->srv.st, &want, j->srv.cfg.max_reviews_per_day, j->srv.cfg.lock_timeout_ms, &out, &ahead);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot queue the review");
	switch (out) {
	case REVIEWS_ALREADY:
		return job_refuse(j, g, "your review of board %ld is queued already: the robot mails it to you when "
		    "it is done", g->board);
	case REVIEWS_DAILY_LIMIT:
		return job_refuse(j, g, "you asked for %lu review%s in the last 24 hours, the most this server does "
		    "for one account in a day: ask again tomorrow", j->srv.cfg.max_reviews_per_day,
		    j->srv.cfg.max_reviews_per_day == 1 ? "" : "s");
	case REVIEWS_FULL:
		return job_refuse(j, g, "%d reviews wait already, the most the server queues: ask again in an hour",
		    REVIEWS_QUEUE_MAX);
	case REVIEWS_QUEUED:
		break;
	}
	rs = reply_review_queued(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, me) },
	    g, ahead, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "review queued (%d before it)", ahead);
	return ps;
}
