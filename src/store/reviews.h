/*
 * reviews: the queue of game reviews asked for by mail (`review <board>`)
 * and the reviews kept beside their games.
 *
 * The queue is the home's file `reviews`, a line a request,
 *   <time> <board> <userid> waiting|done
 *   <time> <board> <userid> claimed <since> <pid>
 * under `reviews.lock`, at most REVIEWS_QUEUE_MAX waiting lines and
 * REVIEWS_FILE_CAP bytes.  A mail adds a waiting line (reviews_request);
 * `oustpbm robot` (cron) does the waiting ones, oldest first: it claims
 * each durably before computing it (reviews_claim: claimed since <since>
 * by process <pid>), and, the review made, queues its mail and marks it
 * done in one hold of the lock, if the claim is still its own
 * (reviews_lock, reviews_mine, reviews_finish_locked); so two runs never
 * compute or mail one request.  A claim whose process died stays until it
 * is stale (older than the caller's timeout), then the next run takes it
 * again.  Done lines stay a day: they are what max_reviews_per_day counts
 * (a user's requests in the last 24 hours, done or not); older ones go at
 * the next rewrite.
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
	int64_t claimed;	/* claimed since (epoch seconds), 0 if not claimed */
	long pid;		/* the process that claimed it */
};

enum reviews_outcome {
	REVIEWS_QUEUED = 0,	/* added; *ahead requests wait before it */
	REVIEWS_ALREADY,	/* the same user's request for that board waits already */
	REVIEWS_DAILY_LIMIT,	/* max_per_day requests of the user in the last day */
	REVIEWS_FULL		/* REVIEWS_QUEUE_MAX requests wait */
};

/*
 * Ask for the review want names (its time, board and userid; the rest
 * unused); *ahead: waiting requests before it.
 */
enum store_status reviews_request(struct store *st, const struct reviews_request *want, unsigned long max_per_day,
    unsigned long timeout_ms, enum reviews_outcome *out, int *ahead);

/* The waiting requests, oldest first: *list (the caller frees it), *n of them. */
enum store_status reviews_waiting(struct store *st, struct reviews_request **list, size_t *n);

/*
 * Claim userid's request for board for this process at now: *got true if
 * it was waiting, or claimed before now - stale (its process died: taken
 * again); false if it is done, gone, or another's claim not yet stale.
 */
enum store_status reviews_claim(struct store *st, long board, const char *userid, int64_t now, int64_t stale,
    unsigned long timeout_ms, bool *got);

/* Give this process's claim back: the request waits again (for the next run). */
enum store_status reviews_unclaim(struct store *st, long board, const char *userid, int64_t now,
    unsigned long timeout_ms);

/* Mark userid's request for board done, claimed or waiting (absent: nothing to do). */
enum store_status reviews_finish(struct store *st, long board, const char *userid, int64_t now,
    unsigned long timeout_ms);

/* The queue's lock, for reviews_mine and reviews_finish_locked (store_unlock it). */
enum store_status reviews_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock);

/* Under reviews_lock: *mine true if userid's request for board is claimed by this process. */
enum store_status reviews_mine(struct store *st, long board, const char *userid, bool *mine);

/* Under reviews_lock: reviews_finish. */
enum store_status reviews_finish_locked(struct store *st, long board, const char *userid, int64_t now);

/* The kept review of board (STORE_NOT_FOUND if none); the caller frees *text. */
enum store_status reviews_read(struct store *st, long board, char **text, size_t *len);
enum store_status reviews_write(struct store *st, long board, const char *text, size_t len);

#endif
