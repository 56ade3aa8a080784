/*
 * review: the reviews the mail command `review <board> <userid>
 * <password>` (keywords/review.c) asks for, and the run of `oustpbm robot`
 * that does the ones it queued.
 *
 * A finished board may be reviewed by anyone with an account; a board in
 * progress only by its players, and only against the robot (a review is
 * advice).  A review kept beside the board (store/reviews.h) for as many
 * turns as the board has is mailed at once; else the request is queued
 * (at most max_reviews_per_day a user), the reply says when to expect it,
 * and review_waiting() computes it (game/review.h: review_seconds of search,
 * or OUSTPBM_TEST_ROBOT_PLAYOUTS a placement, as the robot's test setting,
 * so that tests are deterministic), keeps it, and mails it to the user.
 */
#ifndef OUSTPBM_COMMANDS_REVIEW_H
#define OUSTPBM_COMMANDS_REVIEW_H

#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "game/game.h"
#include "game/review.h"
#include "mail/reply.h"
#include "store/store.h"

/* What one review_waiting() did. */
struct review_stats {
	unsigned done;		/* reviews mailed */
	unsigned failed;	/* left for the next run, or dropped (a board gone) */
};

/*
 * Do every waiting review of srv's store at srv->now, in srv (its outbox
 * opened when first needed, its replies' context set for the robot).
 * One run at a time: it holds robot-reviews.lock of the home, and a run
 * that finds it held logs so and leaves the reviews to it.  Each request
 * is claimed durably before it is computed (store/reviews.h), its mail
 * queued and the request done once; a claim of a run that died is taken
 * again once stale (review_seconds x 2 + robot_seconds + about 10 minutes).
 * Returns false if one failed for a reason the next run may not have
 * (logged and on stderr).
 */
bool review_waiting(struct server *srv, struct review_stats *stats);

/* The review mail of g to to_addr: *out on MAIL_OK. */
enum mail_status review_mail(struct reply_ctx *rc, const struct game *g, const struct review *r,
    const char *to_addr, const char *to_name, struct reply_mail *out);

/* The kept review of g, if it covers every turn of g: true with *r filled (the caller releases it). */
bool review_kept(struct store *st, const struct game *g, struct review *r);

#endif
