/* review: the reviews done by oustpbm robot, and the mail of one (review.h). */
#include "commands/services/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/services/robot.h"
#include "commands/services/web.h"
#include "game/gamefile.h"
#include "game/review.h"
#include "outbox/outbox.h"
#include "store/reviews.h"

/* OUSTPBM_TEST_ROBOT_PLAYOUTS (robot.h): a fixed budget a placement, 0 when unset or malformed. */
static long test_playouts(void)
{
	char why[1];
	long n;

	return robot_test_playouts(&n, why, sizeof why) ? n : 0;
}

enum mail_status review_mail(struct reply_ctx *rc, const struct game *g, const struct review *r,
    const char *to_addr, const char *to_name, struct reply_mail *out)
{
	struct reply_review rv;
	enum mail_status rs = MAIL_NOMEM;
	char how[120];
	char *table = review_table(g, r), *worst = review_worst_text(g, r), *chart = review_chart_html(g, r);
	char *worst_html = review_worst_html(g, r), *sgf = NULL;
	size_t len = 0;

	sgf = review_sgf(g, r, &len);
	if (table == NULL || worst == NULL || chart == NULL || worst_html == NULL || sgf == NULL) {
		snprintf(rc->err, sizeof rc->err, "out of memory, or board %ld's history does not replay", g->board);
		goto out;
	}
	if (r->exact)
		snprintf(how, sizeof how, "every figure proved by the solver: perfect play");
	else
		snprintf(how, sizeof how, "%ld playouts of its search in all", r->playouts);
	memset(&rv, 0, sizeof rv);
	rv.table = table;
	rv.worst = worst;
	rv.chart_html = chart;
	rv.worst_html = worst_html;
	rv.how = how;
	rv.sgf = sgf;
	rv.sgf_len = len;
	rs = reply_review(rc, &(struct reply_to){ to_addr, to_name }, g, &rv, out);
out:
	free(table);
	free(worst);
	free(chart);
	free(worst_html);
	free(sgf);
	return rs;
}

bool review_kept(struct store *st, const struct game *g, struct review *r)
{
	char *text = NULL, why[200];
	size_t len;
	bool ok;

	if (reviews_read(st, g->board, &text, &len) != STORE_OK)
		return false;
	ok = review_parse(text, len, g, r, why, sizeof why) == GAME_OK && r->nturns == g->nturns;
	free(text);
	if (!ok)
		review_release(r);
	return ok;
}

/* ---- oustpbm robot: the waiting reviews ---- */

#define REVIEW_RUN_LOCK "robot-reviews.lock"	/* held by the run doing the reviews */
#define REVIEW_CLAIM_MARGIN 600		/* seconds added to a claim's time before it is stale */

/* Read board whole into g; false (why set) if it is gone or unreadable. */
static bool load(struct store *st, long board, struct game *g, char *why, size_t whylen)
{
	enum game_status gs;
	enum store_status ss;
	char *text = NULL;
	size_t len;

	ss = store_board_read(st, board, &text, &len);
	if (ss != STORE_OK) {
		snprintf(why, whylen, "cannot read the game file: %s", store_error(st));
		return false;
	}
	gs = gamefile_parse(text, len, g, NULL);
	free(text);
	if (gs != GAME_OK) {
		snprintf(why, whylen, "the game file does not parse");
		return false;
	}
	return true;
}

/*
 * One request, claimed: the review computed (or kept), mailed to the
 * user, the request done (*finished); false with why on a failure, *retry
 * when it is worth trying again (every think slot busy), *taken when
 * another run took the claim over.
 */
static bool one(struct server *srv, const struct reviews_request *q, bool *retry, bool *taken, bool *finished,
    char *why, size_t whylen)
{
	struct store *st = srv->st;
	struct outbox *ob = srv->ob;
	struct reply_ctx *rc = &srv->rc;
	const struct config *cfg = &srv->cfg;
	struct store_lock slot = STORE_LOCK_INIT, qlock = STORE_LOCK_INIT;
	struct review_options o;
	enum store_status ss;
	bool mine = false;
	struct store_user u;
	struct reply_mail m;
	struct review r;
	struct game g;
	enum game_status vs;
	enum outbox_status os;
	char *text = NULL, pbad[200];
	size_t len;
	bool ok = false;

	memset(&g, 0, sizeof g);
	memset(&r, 0, sizeof r);
	memset(&m, 0, sizeof m);
	if (store_user_find(st, q->userid, &u) != STORE_OK) {
		snprintf(why, whylen, "no account %s", q->userid);
		return false;
	}
	if (!load(st, q->board, &g, why, whylen))
		goto out;
	if (!review_kept(st, &g, &r)) {
		/* a review is a think like the robot's turns: it holds a slot of robot_max_thinking */
		if (!robot_slot_take(srv, (cfg->robot_seconds + ROBOT_GRACE_MS / 1000) * 1000, &slot, why, whylen)) {
			*retry = true;
			goto out;
		}
		memset(&o, 0, sizeof o);
		o.playouts = test_playouts();
		o.seconds = (double)cfg->review_seconds;
		vs = review_compute(&g, &o, &r);
		store_unlock(&slot);
		if (vs != GAME_OK) {
			snprintf(why, whylen, "cannot review: %s", game_status_str(vs));
			goto out;
		}
		if (review_format(&r, &g, &text, &len) != GAME_OK ||
		    reviews_write(st, g.board, text, len) != STORE_OK) {
			snprintf(why, whylen, "cannot keep the review: %s", store_error(st));
			goto out;
		}
		/*
		 * the mail is made from the kept text, as every later request's is
		 * (its chances to 4 decimals): the same review byte for byte each time
		 */
		review_release(&r);
		if (review_parse(text, len, &g, &r, pbad, sizeof pbad) != GAME_OK) {
			snprintf(why, whylen, "the kept review does not read back: %s", pbad);
			goto out;
		}
		/* the board's web page shows the chart of a finished game's review */
		if (game_over(&g))
			web_after_commit(srv, &g);
	}
	if (review_mail(rc, &g, &r, u.address, u.fullname, &m) != MAIL_OK) {
		snprintf(why, whylen, "cannot make the mail: %.300s", rc->err);
		goto out;
	}
	/*
	 * The mail queued and the request done in one hold of the queue's
	 * lock, and only while the claim is this run's: a run whose claim
	 * went stale and was taken again mails nothing (reviews.h).
	 */
	ss = reviews_lock(st, cfg->lock_timeout_ms, &qlock);
	if (ss == STORE_OK)
		ss = reviews_mine(st, q->board, q->userid, &mine);
	if (ss != STORE_OK) {
		snprintf(why, whylen, "cannot read the review queue: %s", store_error(st));
		*retry = true;
		goto out;
	}
	if (!mine) {
		snprintf(why, whylen, "another run took the request over (its claim was stale): not mailed here");
		*taken = true;
		goto out;
	}
	os = outbox_enqueue(ob, cfg->from_address, m.rcpt, m.msg, m.len);
	if (os != OUTBOX_OK) {
		snprintf(why, whylen, "cannot queue the mail: %s", outbox_error(ob));
		goto out;
	}
	ss = reviews_finish_locked(st, q->board, q->userid, (int64_t)srv->now);
	if (ss != STORE_OK)
		msg_warn("robot: cannot update the review queue: %s", store_error(st));
	*finished = true;
	ok = true;
out:
	store_unlock(&qlock);
	store_unlock(&slot);
	reply_mail_release(&m);
	review_release(&r);
	game_release(&g);
	free(text);
	return ok;
}

/* Seconds after which a claim is stale (its run died): a review's think, a wait for a slot, and a margin. */
static int64_t claim_stale(const struct config *cfg)
{
	return (int64_t)cfg->review_seconds * 2 + (int64_t)cfg->robot_seconds + ROBOT_GRACE_MS / 1000 + REVIEW_CLAIM_MARGIN;
}

bool review_waiting(struct server *srv, struct review_stats *stats)
{
	struct store_lock run = STORE_LOCK_INIT;
	struct reviews_request *list = NULL;
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	const time_t now = srv->now;
	const char *stamp = srv->stamp;
	enum store_status ss;
	char why[400], oerr[OUTBOX_ERR_MAX];
	size_t n = 0, i;
	bool ok = true, retry, taken, finished, got;

	memset(stats, 0, sizeof *stats);
	/* one run does the reviews at a time: an overlapping one (cron, a long queue) leaves them to it */
	ss = store_lock_path(st, REVIEW_RUN_LOCK, 0, &run);
	if (ss == STORE_TIMEOUT) {
		store_log(st, "%s robot reviews: another oustpbm robot run does them: left to it", stamp);
		return true;
	}
	if (ss != STORE_OK) {
		msg_warn("robot: cannot lock the reviews: %s", store_error(st));
		return false;
	}
	ss = reviews_waiting(st, &list, &n);
	if (ss != STORE_OK) {
		msg_warn("robot: cannot read the review queue: %s", store_error(st));
		ok = false;
		goto out;
	}
	if (n == 0)
		goto out;
	if (server_outbox(srv, oerr, sizeof oerr) != OUTBOX_OK) {
		msg_warn("robot: cannot open the outbox: %s", oerr);
		ok = false;
		goto out;
	}
	server_reply_init(srv, "robot");
	for (i = 0; i < n; i++) {
		retry = taken = finished = got = false;
		/* claimed durably before it is computed: never computed nor mailed by two runs */
		ss = reviews_claim(st, list[i].board, list[i].userid, (int64_t)now, claim_stale(cfg), cfg->lock_timeout_ms,
		    &got);
		if (ss != STORE_OK) {
			stats->failed++;
			store_log(st, "%s robot review board=%ld user=%s tempfail: cannot claim it: %s; left for the next run",
			    stamp, list[i].board, list[i].userid, store_error(st));
			continue;
		}
		if (!got) {
			store_log(st, "%s robot review board=%ld user=%s skipped: claimed by another run", stamp, list[i].board,
			    list[i].userid);
			continue;
		}
		if (one(srv, &list[i], &retry, &taken, &finished, why, sizeof why)) {
			stats->done++;
			store_log(st, "%s robot review board=%ld user=%s ok: review mailed", stamp, list[i].board,
			    list[i].userid);
			continue;
		}
		stats->failed++;
		if (taken) {
			store_log(st, "%s robot review board=%ld user=%s skipped: %s", stamp, list[i].board, list[i].userid,
			    why);
			continue;
		}
		if (retry) {
			/* waiting again for the next run */
			store_log(st, "%s robot review board=%ld user=%s tempfail: %s; left for the next run", stamp,
			    list[i].board, list[i].userid, why);
			if (reviews_unclaim(st, list[i].board, list[i].userid, (int64_t)now, cfg->lock_timeout_ms) != STORE_OK)
				msg_warn("robot: cannot update the review queue: %s", store_error(st));
			continue;
		}
		ok = false;
		store_log(st, "%s robot review board=%ld user=%s failed: %s; dropped", stamp, list[i].board,
		    list[i].userid, why);
		msg_warn("robot: review of board %ld for %s: %s", list[i].board, list[i].userid, why);
		/* done either way: a review that cannot be made now is not retried forever */
		if (!finished && reviews_finish(st, list[i].board, list[i].userid, (int64_t)now, cfg->lock_timeout_ms) !=
		    STORE_OK)
			msg_warn("robot: cannot update the review queue: %s", store_error(st));
	}
out:
	store_unlock(&run);
	free(list);
	return ok;
}
