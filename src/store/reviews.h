/*
 * reviews: the queue of game reviews asked for by mail (`review <board>`)
 * and the reviews kept beside their games.
 *
 * The queue is the home's file `reviews`, a line a request,
 *   <time> <board> <userid> waiting|done
 * under `reviews.lock`, at most REVIEWS_QUEUE_MAX waiting lines and
 * REVIEWS_FILE_CAP bytes.  A mail adds a waiting line (reviews_request);
 * `oustpbm robot` (cron) does the waiting ones, oldest first, and marks
 * each done (reviews_finish).  Done lines stay a day: they are what
 * max_reviews_per_day counts (a user's requests in the last 24 hours,
 * done or not); older ones go at the next rewrite.
 *
 * A computed review is kept as games/<board>.review (game/review.h's
 * format), written whole and atomically, so a board is reviewed once.
 */
#ifndef OUSTPBM_REVIEWS_H
#define OUSTPBM_REVIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"
#include "store/store.h"

#define REVIEWS_QUEUE_FILE "reviews"
#define REVIEWS_LOCK_FILE "reviews.lock"
#define REVIEWS_QUEUE_MAX 100	/* waiting requests of the whole server */
#define REVIEWS_FILE_CAP (64 * 1024)	/* bytes of the queue file */
#define REVIEWS_DAY 86400	/* seconds the daily limit looks back */

struct reviews_request {
	int64_t time;
	long board;
	char userid[IDENT_USERID_MAX + 1];
	bool done;
};

enum reviews_outcome {
	REVIEWS_QUEUED = 0,	/* added; *ahead requests wait before it */
	REVIEWS_ALREADY,	/* the same user's request for that board waits already */
	REVIEWS_DAILY_LIMIT,	/* max_per_day requests of the user in the last day */
	REVIEWS_FULL		/* REVIEWS_QUEUE_MAX requests wait */
};

/* Ask for a review of board for userid at now; *ahead: waiting requests before it. */
enum store_status reviews_request(struct store *st, long board, const char *userid, int64_t now,
    unsigned long max_per_day, unsigned long timeout_ms, enum reviews_outcome *out, int *ahead);

/* The waiting requests, oldest first: *list (the caller frees it), *n of them. */
enum store_status reviews_waiting(struct store *st, struct reviews_request **list, size_t *n);

/* Mark userid's waiting request for board done (absent: nothing to do). */
enum store_status reviews_finish(struct store *st, long board, const char *userid, int64_t now,
    unsigned long timeout_ms);

/* The kept review of board (STORE_NOT_FOUND if none); the caller frees *text. */
enum store_status reviews_read(struct store *st, long board, char **text, size_t *len);
enum store_status reviews_write(struct store *st, long board, const char *text, size_t len);

#endif
