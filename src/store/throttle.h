/*
 * throttle: limits per account against abuse: the wrong-password throttle
 * against guessing, and the count of challenges an account made in the
 * last hour (max_challenges_per_hour, process.c).
 *
 * After max_password_failures wrong passwords for one account within
 * THROTTLE_WINDOW (an hour), whoever sent them, the account is locked out
 * for password_lockout_minutes: every command with a password for it is
 * refused, the right password too, without the password being checked, so
 * a guesser learns nothing more.  The failure that starts a lockout tells
 * the caller, which mails the account's owner once.  When the lockout ends
 * the failures before it no longer count.  The admin command passwd ends a
 * lockout (throttle_clear).
 *
 * The record is <home>/throttle, plain text, one event per line, oldest
 * first:
 *     TIME USERID F SENDER     a wrong password from SENDER
 *     TIME USERID L UNTIL      a lockout from TIME to UNTIL (owner told)
 *     TIME USERID C -          the admin set a new password
 *     TIME USERID X BOARD      USERID challenged someone: board BOARD
 *     TIME USERID H BOARD      USERID chatted on board BOARD (max_chats_per_hour)
 *     TIME USERID R BOARD SENDER   a reply by token from SENDER (folded,
 *                              mailaddr_fold) on USERID's running board BOARD
 *                              (max_board_replies_per_hour, process.c): not
 *                              counted against max_mails_per_hour
 * TIME and UNTIL epoch seconds.  It is rewritten whole (durably, under
 * throttle.lock) by each event, keeping only the lines still needed: a
 * failure or a challenge while it may count, a lockout until it ends.  So it stays small
 * (at most max_password_failures lines per account an hour), a damaged line
 * is skipped, and deleting the file only forgets the failures.
 *
 * The errors are the store's (enum store_status, store_error()).
 */
#ifndef OUSTPBM_THROTTLE_H
#define OUSTPBM_THROTTLE_H

#include <stdbool.h>
#include <time.h>

#include "base/config.h"
#include "store/store.h"

#define THROTTLE_FILE "throttle"
#define THROTTLE_LOCK_FILE "throttle.lock"
#define THROTTLE_WINDOW 3600L		/* seconds in which failures are counted */
#define THROTTLE_FILE_MAX (4L * 1024 * 1024)	/* bytes read and written (store_write_capped) */
/*
 * Room a check needs: with less, checks are refused until failures expire
 * (within THROTTLE_WINDOW), rather than guesses going uncounted.  4 MiB is
 * about 60,000 failures within an hour (lines of about 70 bytes).
 */
#define THROTTLE_FULL_MARGIN (64L * 1024)

/* What the record says of one account at one time. */
struct throttle_state {
	unsigned long failures;	/* wrong passwords counted now */
	time_t until;		/* end of the lockout in force, 0 if none */
	bool started;		/* throttle_fail: this failure started that lockout */
	bool full;		/* the record cannot take one more failure: every check is refused (fail closed) */
};

/*
 * The state of userid at now, without a lock (the file is replaced whole).
 * With max_password_failures 0 (no throttle) nothing is read: never locked.
 */
enum store_status throttle_check(struct store *st, const struct config *cfg, const char *userid, time_t now,
    struct throttle_state *out);

/*
 * Record a wrong password for userid from sender, under throttle.lock, and
 * give the state afterwards: out->started when this failure reached
 * max_password_failures and started a lockout (the caller tells the owner).
 * A failure while a lockout is in force is not counted (none is checked
 * then).  Nothing is recorded with max_password_failures 0.
 */
enum store_status throttle_fail(struct store *st, const struct config *cfg, const char *userid,
    const char *sender, time_t now, struct throttle_state *out);

/* Rewrite the record without what no longer counts at now (cleanup); *dropped counts the lines. */
enum store_status throttle_prune(struct store *st, const struct config *cfg, time_t now, unsigned *dropped);

/* End userid's lockout and forget its failures (a new password was set by the admin). */
enum store_status throttle_clear(struct store *st, const struct config *cfg, const char *userid, time_t now);

/* The challenges userid made in (now - THROTTLE_WINDOW, now], into *count. */
enum store_status throttle_challenges(struct store *st, const char *userid, time_t now, unsigned long *count);

/* The chats userid sent in (now - THROTTLE_WINDOW, now], on any board, into *count. */
enum store_status throttle_chats(struct store *st, const char *userid, time_t now, unsigned long *count);

/* Record, under throttle.lock, that userid chatted on board. */
enum store_status throttle_chat_made(struct store *st, const struct config *cfg, const char *userid, long board,
    time_t now);

/* Record, under throttle.lock, that userid made the challenge of board. */
enum store_status throttle_challenge_made(struct store *st, const struct config *cfg, const char *userid,
    long board, time_t now);

/* The token replies of one sender in the last hour (throttle_replies()).  Owned arrays. */
struct throttle_replies {
	time_t *all;		/* on every board, oldest first */
	size_t nall;
	time_t *board;		/* on the board asked about, oldest first */
	size_t nboard;
};

/*
 * The token replies of sender (folded) in (now - THROTTLE_WINDOW, now]
 * into *out, all of them and those on board; the caller frees *out with
 * throttle_replies_free() (also after a failure: then it is empty).
 */
enum store_status throttle_replies(struct store *st, const char *sender, long board, time_t now,
    struct throttle_replies *out);
void throttle_replies_free(struct throttle_replies *r);

/* Record, under throttle.lock, a token reply of userid from sender on board. */
enum store_status throttle_reply_made(struct store *st, const struct config *cfg, const char *userid, long board,
    const char *sender, time_t now);

#endif
