/*
 * txn: the one commit protocol of every change the server makes, as git's
 * ref_transaction (refs.h): begin on a board or an account, add what is
 * written (the mails, the redelivery record, "also" steps), commit, free.
 * The mail job (a move, a chat, a challenge, an account change), the robot,
 * cleanup and signoff all commit through it, so the protocol of outbox.h
 * is written once:
 *
 *   1. the mails staged in outbox/tmp/, tagged with the board's new text
 *      (or the account's token);
 *   2. the new game file staged beside the old one;
 *   3. the mail that asked for it recorded pending the write (seen.h);
 *   4. a game's end marked for the ratings (ratings.h);
 *   5. one sync: everything above durable at once (store.h, deferred
 *      durability), then the "before install" steps (indices of players
 *      and active boards: players.h, active.h);
 *   6. the install, the commit point: the game file renamed (or removed),
 *      or the account written; its directory synced;
 *   7. the mails released to outbox/new/; the "after" steps (the ratings
 *      counted, a finished board out of the active index).
 *
 * A crash before 6 leaves staged files that recovery deletes (the text
 * they are tagged with was never written); a crash after it leaves mails
 * that recovery releases (outbox_recover).  Authentication is not a step
 * of the transaction: the caller decides who may commit before txn_begin.
 *
 * Typical use:
 *
 *	struct txn *t;
 *	if (txn_begin_board(srv, g, &t) != PROCESS_OK) ...
 *	txn_add_mails(t, mails, n);
 *	txn_record_mail(t, message_key, from, &seen_lock);
 *	txn_also(t, TXN_BEFORE_INSTALL, index_new_board, arg);
 *	if (txn_commit(t) != PROCESS_OK) ... txn_failure(t) says what failed
 *	txn_free(t);
 *
 * The caller holds the board's lock (or accounts.lock) from before
 * txn_begin until after txn_free, and has recovered the outbox for the
 * board (outbox_recover) or the accounts (outbox_recover_accounts).
 */
#ifndef OUSTPBM_TXN_H
#define OUSTPBM_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/game.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/store.h"

/*
 * A transaction returns (status.h) PROCESS_OK, PROCESS_TEMPFAIL (locked,
 * disk full, I/O, no memory: nothing committed, try again) or
 * PROCESS_SOFTWARE (any other failure: nothing committed).
 */

struct txn;

/* When an "also" step runs: before the install (after the sync), or after it. */
enum txn_when {
	TXN_BEFORE_INSTALL,	/* its failure aborts the transaction: nothing installed */
	TXN_AFTER_INSTALL,	/* the change stands whatever it returns (a failure is logged) */
};

/* An "also" step: STORE_OK, or its failure (store_error() saying why). */
typedef enum store_status txn_step_fn(struct server *srv, void *arg);

/*
 * Begin the commit of g (its board lock held) as its game file's new text.
 * PROCESS_TEMPFAIL without memory.  The caller owns *out (txn_free).
 */
enum process_status txn_begin_board(struct server *srv, const struct game *g, struct txn **out);

/* Begin the removal of g's game file (a declined or withdrawn challenge: store_board_remove). */
enum process_status txn_begin_removal(struct server *srv, const struct game *g, struct txn **out);

/*
 * The install of an account change: STORE_OK once the users file (or the
 * file of the change) holds it; a failure after its rename is found by the
 * outbox's token (outbox_batch_abort's committed).
 */
typedef enum store_status txn_write_fn(void *arg);

/*
 * Begin an account change of userid whose mails are tagged with token (the
 * account's token after the write, store/accounts.h); write is its install.
 */
enum process_status txn_begin_account(struct server *srv, const char *userid, const char *token, txn_write_fn *write,
    void *arg, struct txn **out);

/* The mails committed with the change (copied at txn_commit; mails stay the caller's). */
void txn_add_mails(struct txn *t, const struct reply_mail *mails, int n);

/*
 * The mail that asked for the change recorded pending the write in the
 * redelivery record (seen.h), under seen_lock (taken here if not held,
 * released at the end of txn_commit).
 */
void txn_record_mail(struct txn *t, const char *message_key, const char *from, struct store_lock *seen_lock);

/*
 * For a commit outside a mail (the robot, cleanup, signoff): the mails
 * recorded pending the file about to be replaced are settled first, or
 * they would look never committed once it is gone (seen.h).
 */
void txn_settle_first(struct txn *t);

/* Add a step (at most TXN_STEPS_MAX of them), run in the order added. */
#define TXN_STEPS_MAX 8
void txn_also(struct txn *t, enum txn_when when, txn_step_fn *fn, void *arg);

/*
 * Commit: PROCESS_OK once the change is installed (also when only the release
 * of its mails failed: they wait in tmp/ for recovery, and a warning says
 * so), else nothing was committed and txn_failure() says why.
 */
enum process_status txn_commit(struct txn *t);

/* Which layer failed, for the caller's own error path (job_txn_failure). */
enum txn_layer {
	TXN_LAYER_NONE,
	TXN_LAYER_STORE,	/* store_status set; store_error() says why */
	TXN_LAYER_OUTBOX,	/* outbox_status set; outbox_error() says why */
	TXN_LAYER_OTHER,	/* no memory, the ratings: message says why */
};

struct txn_failure {
	enum txn_layer layer;
	enum store_status store_status;
	enum outbox_status outbox_status;
	const char *what;	/* "cannot write the game file" */
	const char *message;	/* the failure's own words (store_error, outbox_error or the step's) */
	bool at_install;	/* the install itself failed (an account's write: STORE_CHANGED...) */
};

/* What failed in the last txn_commit (layer TXN_LAYER_NONE after PROCESS_OK). */
void txn_failure(const struct txn *t, struct txn_failure *f);

/* True if the mail was recorded in the redelivery record (txn_record_mail) and the record stands. */
bool txn_recorded(const struct txn *t);

/* Release everything a transaction not committed staged; harmless on NULL. */
void txn_free(struct txn *t);

#endif
