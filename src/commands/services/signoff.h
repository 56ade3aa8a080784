/*
 * signoff: an account closed, by its player (the mail command
 * "signoff <userid> <password>") or by the admin (oustpbm deluser USERID).
 *
 * The player is dropped from the boards they observe, and from the
 * watchers of every board (store/audience.h) in the account's removal.
 *
 * Every board the player still plays is resigned, one at a time under that
 * board's lock, as a mail's resign is (outbox.h's protocol: the leftovers
 * of the board recovered, the file read again, the end mail to the
 * opponent staged, the game file written, the mail released): the opponent
 * is told and wins.  The boards are all read first, so a game file that
 * cannot be read stops the signoff before anything is changed.  Then the
 * account is removed and its user id reserved for userid_reserve_days
 * (store.h, store_user_remove), and its one-time codes dropped
 * (accounts.h).  Finished game files are never touched: they keep naming
 * the user id, which nobody else can take meanwhile.
 *
 * A failure after some boards were resigned (a lock held too long, a full
 * disk) leaves those boards over and the account in place: running the
 * signoff again (the MTA delivers the mail again; the admin runs deluser
 * again) finds them over and goes on with the rest.
 */
#ifndef OUSTPBM_SIGNOFF_H
#define OUSTPBM_SIGNOFF_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/store.h"

#define SIGNOFF_ERR_MAX 700
#define SIGNOFF_LIST_MAX 2000	/* bytes of the list of boards resigned */

/*
 * Signoff returns (status.h) PROCESS_OK, PROCESS_TEMPFAIL (a board locked,
 * the disk full...: nothing more was done, try again), PROCESS_DATAERR (a
 * game file of the player cannot be read: nothing was changed),
 * PROCESS_CONFIG (a template is missing or malformed: nothing more was
 * done) or PROCESS_SOFTWARE (any other failure).
 */

/* What signoff_resign_all() did. */
struct signoff_result {
	unsigned resigned;		/* boards resigned now */
	char list[SIGNOFF_LIST_MAX];	/* "101, 104": the boards resigned, or "" */
};

/*
 * Resign every board userid plays that is not over, at srv->now, with the
 * end mail to each opponent made with srv->rc and queued in srv's outbox
 * (open: the caller recovered it).  On failure err says which board and why.
 */
enum process_status signoff_resign_all(struct server *srv, const char *userid, struct signoff_result *res, char *err,
    size_t errlen);

/*
 * Drop userid from the observers of every board (under each board's lock,
 * the game file rewritten without them; no mail).  signoff_resign_all()
 * ends with it.
 */
enum process_status signoff_unobserve_all(struct server *srv, const char *userid, char *err, size_t errlen);

/*
 * Remove userid's account (store_user_remove: expect its hash, or NULL),
 * its id reserved from since until until, after its lines of the watchers
 * file: the one write of a signoff (under accounts.lock, the commit point
 * of its confirmation: job_commit_account) and of deluser.  A failure
 * between the two leaves the account, which the next try removes.
 */
enum store_status signoff_remove(struct server *srv, const char *userid, const char *expect, int64_t since,
    int64_t until);

/* The time until which a user id closed at since stays reserved (userid_reserve_days). */
int64_t signoff_reserved_until(const struct config *cfg, int64_t since);

#endif
