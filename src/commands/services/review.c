/* review: the reviews done by oustpbm robot, and the mail of one (review.h). */
#include "commands/services/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

enum reply_status review_mail(struct reply_ctx *rc, const struct game *g, const struct review *r,
    const char *to_addr, const char *to_name, struct reply_mail *out)
{
	struct reply_review rv;
	enum reply_status rs = REPLY_NOMEM;
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
	rs = reply_review(rc, to_addr, to_name, g, &rv, out);
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
	ok = review_parse(text, len, g, r, why, sizeof why) == REVIEW_OK && r->nturns == g->nturns;
	free(text);
	if (!ok)
		review_release(r);
	return ok;
}

/* ---- oustpbm robot: the waiting reviews ---- */

/* Read board whole into g; false (why set) if it is gone or unreadable. */
static bool load(struct store *st, long board, struct game *g, char *why, size_t whylen)
{
	enum gamefile_status gs;
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
	if (gs != GAMEFILE_OK) {
		snprintf(why, whylen, "the game file does not parse");
		return false;
	}
	return true;
}

/*
 * One request: the review computed (or kept), mailed to the user; false
 * with why on a failure, *retry when it is worth trying again (every think
 * slot busy).
 */
static bool one(struct server *srv, const struct reviews_request *q, bool *retry, char *why, size_t whylen)
{
	struct store *st = srv->st;
	struct outbox *ob = srv->ob;
	struct reply_ctx *rc = &srv->rc;
	const struct config *cfg = &srv->cfg;
	struct store_lock slot = STORE_LOCK_INIT;
	struct review_options o;
	struct store_user u;
	struct reply_mail m;
	struct review r;
	struct game g;
	enum review_status vs;
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
		if (vs != REVIEW_OK) {
			snprintf(why, whylen, "cannot review: %s", review_status_str(vs));
			goto out;
		}
		if (review_format(&r, &g, &text, &len) != REVIEW_OK ||
		    reviews_write(st, g.board, text, len) != STORE_OK) {
			snprintf(why, whylen, "cannot keep the review: %s", store_error(st));
			goto out;
		}
		/*
		 * the mail is made from the kept text, as every later request's is
		 * (its chances to 4 decimals): the same review byte for byte each time
		 */
		review_release(&r);
		if (review_parse(text, len, &g, &r, pbad, sizeof pbad) != REVIEW_OK) {
			snprintf(why, whylen, "the kept review does not read back: %s", pbad);
			goto out;
		}
		/* the board's web page shows the chart of a finished game's review */
		if (game_over(&g))
			web_after_commit(srv, &g);
	}
	if (review_mail(rc, &g, &r, u.address, u.fullname, &m) != REPLY_OK) {
		snprintf(why, whylen, "cannot make the mail: %.300s", rc->err);
		goto out;
	}
	os = outbox_enqueue(ob, cfg->from_address, m.rcpt, m.msg, m.len);
	if (os != OUTBOX_OK) {
		snprintf(why, whylen, "cannot queue the mail: %s", outbox_error(ob));
		goto out;
	}
	ok = true;
out:
	store_unlock(&slot);
	reply_mail_release(&m);
	review_release(&r);
	game_release(&g);
	free(text);
	return ok;
}

bool review_waiting(struct server *srv, struct review_stats *stats)
{
	struct reviews_request *list = NULL;
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	const time_t now = srv->now;
	const char *stamp = srv->stamp;
	enum store_status ss;
	char why[400], oerr[OUTBOX_ERR_MAX];
	size_t n = 0, i;
	bool ok = true, retry;

	memset(stats, 0, sizeof *stats);
	ss = reviews_waiting(st, &list, &n);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: robot: cannot read the review queue: %s\n", store_error(st));
		return false;
	}
	if (n == 0)
		goto out;
	if (server_outbox(srv, oerr, sizeof oerr) != OUTBOX_OK) {
		fprintf(stderr, "oustpbm: robot: cannot open the outbox: %s\n", oerr);
		ok = false;
		goto out;
	}
	server_reply_init(srv, "robot");
	for (i = 0; i < n; i++) {
		retry = false;
		if (one(srv, &list[i], &retry, why, sizeof why)) {
			stats->done++;
			store_log(st, "%s robot review board=%ld user=%s ok: review mailed", stamp, list[i].board,
			    list[i].userid);
		} else if (retry) {
			/* left waiting for the next run */
			stats->failed++;
			store_log(st, "%s robot review board=%ld user=%s tempfail: %s; left for the next run", stamp,
			    list[i].board, list[i].userid, why);
			continue;
		} else {
			stats->failed++;
			ok = false;
			store_log(st, "%s robot review board=%ld user=%s failed: %s; dropped", stamp, list[i].board,
			    list[i].userid, why);
			fprintf(stderr, "oustpbm: robot: review of board %ld for %s: %s\n", list[i].board, list[i].userid,
			    why);
		}
		/* done either way: a review that cannot be made now is not retried forever */
		if (reviews_finish(st, list[i].board, list[i].userid, (int64_t)now, cfg->lock_timeout_ms) != STORE_OK)
			fprintf(stderr, "oustpbm: robot: cannot update the review queue: %s\n", store_error(st));
	}
out:
	free(list);
	return ok;
}
