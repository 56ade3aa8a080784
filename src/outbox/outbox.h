/*
 * outbox: the queue of outgoing replies under <home>/outbox, and the flush
 * that hands them to a transport (transport.h).
 *
 * Layout: outbox/tmp/ (being written or waiting for their game file),
 * outbox/new/ (queued, to be sent), outbox/failed/ (refused for good, kept for
 * the admin), outbox/sent/ (copies of sent mail, sent_keep_days),
 * outbox/flush.lock, outbox/hosts (each host's backoff: hosts.h).  A queued
 * mail is one file, named like a Maildir message (time.M<usec>P<pid>Q<n>.<host>,
 * which is also its queue id):
 * a small text envelope, a blank line, then the message bytes exactly:
 *
 *     oustpbm-queue 1
 *     from oust@example.org          envelope sender ("from " alone: <>)
 *     rcpt alice@example.com         the one recipient
 *     board 101                      only for replies to a game change
 *     account alice                  or: only for the confirmation of an
 *                                    account change (then commit is of the
 *                                    password hash written)
 *     commit 2345 89abcdef01234567   with board: length and FNV-1a 64 hash
 *                                    of the game file these replies belong to
 *     size 1234                      bytes of message after the blank line
 *     attempts 2                     \  written by a flush after a temporary
 *     first 1700000000               |  failure: failed attempts, time of the
 *     next 1700000180                |  first one, no attempt before next,
 *     error smtp: ... (451)          /  the last error (one line, cut at 400)
 *     reply 550-5.1.1 first line     \  the server's reply to it, every line
 *     reply 550 5.1.1 last line      /  (TRANSPORT_REPLY_MAX bytes), if any
 *     host 127.0.0.1:2525            deferred because that host was down (hosts.h)
 *
 *     <message>
 *
 * Only the message reaches the transport; the envelope is never a header.
 *
 * Commit protocol: a move's replies are sent if and only if its game file
 * was committed.  The mail processor, holding the board lock:
 *   1. outbox_recover(board): settle what a crashed earlier run left;
 *   2. reads the game, computes the new game text and the replies;
 *   3. outbox_batch_new(board, new game text) and outbox_batch_add() for each
 *      reply: each is written into outbox/tmp/ and fsync'ed (or its fsync
 *      deferred and paid before step 4's rename: store.h), tagged with the
 *      board and the hash of the new game text;
 *   4. store_board_write(): the commit point (rename + directory fsync);
 *   5. outbox_batch_commit() if 4 succeeded: the replies are renamed into
 *      outbox/new/ (no fsync needed: a rename lost in a crash leaves them
 *      in tmp/, where recovery finds them); else outbox_batch_abort().
 * A crash before 4 leaves tagged replies in tmp/ and the old game file; a
 * crash after 4 leaves them in tmp/ and the new game file.  Whoever next
 * holds that board's lock (step 1 of the next mail for the board, or a flush
 * that gets the lock without waiting) compares the game file with the tag:
 * the same content means the move was committed and the replies go to new/;
 * anything else means it was not and they are deleted.  Step 1 runs before
 * any later change to the board, so the comparison always sees the file the
 * crashed run left.  outbox_batch_abort() decides the same way, so a
 * store_board_write() that failed after its rename (directory fsync error)
 * still sends the replies of the move that stands.
 * Replies that change no game (board 0: errors, show, help) are renamed into
 * new/ at commit; if the process dies first they stay in tmp/ and are deleted
 * after 36 hours (the Maildir rule), or by the first recovery that sees
 * their process gone (its pid in the name, on this host); the incoming
 * mail was not acknowledged, so the MTA delivers it again and the reply is
 * made again.
 *
 * Batch records: the mails of a board's or an account's batch are written
 * into tmp/ without an fsync each; outbox_batch_seal() writes their bytes
 * into one record, outbox/batch/b<board>.<id> (a.<id> for an account),
 * fsync'ed once before step 4: one sync for a move's mails, however many.
 * The record stays until its mails need it no more: the flush that
 * delivers them removes it (a mail still waiting in new/ fsync'ed first),
 * or recovery (step 1, under the board's lock) does: a committed batch's
 * mails rewritten from the record if a power cut lost their pages, made
 * durable where they wait; an uncommitted one's deleted with the record.
 *
 * Flush: under outbox/flush.lock (waiting at most lock_timeout_ms, so two
 * flushes never send one mail twice) settle leftovers in tmp/, then deliver
 * each file of new/ whose next time has come (config_now), in name order
 * (commit order), except that a reply about a board waits while an earlier
 * reply about the same board to the same address waits (backing off, or
 * deferred in this run): a player gets a board's replies in order;
 * a transport with finish() (transport.h) has them delivered in batches,
 * and its results below are those of finish().  The run's fsyncs are
 * deferred (store.h) and paid before it returns; with OUTBOX_FLUSH_BATCH
 * mails or more in new/ whatever `sync` says (store_defer_begin_batch).
 * TRANSPORT_OK: the file moves to sent/ (a reply that had been deferred is
 * logged as delivered, with its failed attempts), its modification time set to the
 * time of sending, and copies older than sent_keep_days are deleted (at once
 * with 0; the others by a pass at most once per OUTBOX_PRUNE_EVERY);
 * TEMPFAIL: it stays, its retry lines rewritten atomically (attempts
 * + 1, next = now + 1 minute doubling per attempt up to 1 hour, the error),
 * and if retry_days have passed since its first failed attempt it moves to
 * failed/ instead; UNAVAILABLE: the same for this mail, and the run ends
 * (the others wait, untried); PERMFAIL or a damaged queue file: the error
 * is written into it and it moves to failed/; every failure is logged.  A
 * crash between delivery and the move out of new/ means one more delivery
 * later (at least once).  After the run new/ is fsync'ed once, so that the
 * moves stand, unless the transport is idempotent (transport.h: the maildir
 * transport replaces its own earlier copy, the file name being the queue id).
 */
#ifndef OUSTPBM_OUTBOX_H
#define OUSTPBM_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "outbox/transport.h"
#include "store/store.h"

#define OUTBOX_MESSAGE_MAX (8L * 1024 * 1024)	/* bytes in one queued message */
#define OUTBOX_ERR_MAX 700
#define OUTBOX_TMP_MAX_AGE (36L * 3600)	/* seconds before an untagged tmp/ file is junk */
#define OUTBOX_ERROR_LINE_MAX 400	/* bytes of the last error kept in a queue file */
#define OUTBOX_BACKOFF_FIRST 60		/* seconds after the first failed attempt */
#define OUTBOX_BACKOFF_MAX 3600		/* the wait doubles up to this */
#define OUTBOX_ID_MAX 200		/* characters in a queue id */
#define OUTBOX_SUBJECT_MAX 200		/* bytes of Subject shown by outbox_list */
#define OUTBOX_PRUNE_EVERY 3600		/* seconds between two prunings of sent/ */
#define OUTBOX_FLUSH_BATCH 32		/* mails in new/ from which a flush defers its fsyncs (store.h) */

/*
 * The one status of the outbox layer: the queue's (outbox.h), the
 * commands on it (queuecmd.h) and the hosted mailbox's session (imap.h).
 * A transport's verdict on one delivery is not a failure of the layer but
 * what becomes of a mail: enum transport_result (transport_ops.h).
 */
enum outbox_status {
	OUTBOX_OK,
	OUTBOX_BAD_ADDRESS,	/* sender or recipient fails mailaddr_ok() */
	OUTBOX_TOO_BIG,		/* message over OUTBOX_MESSAGE_MAX */
	OUTBOX_TIMEOUT,		/* flush.lock not obtained in time (temporary) */
	OUTBOX_TEMPFAIL,	/* no memory, a permission, a read-only disk (temporary) */
	OUTBOX_IO,		/* any other system error */
	OUTBOX_NO_SPACE,	/* a full disk or quota, a file past ulimit -f (STORE_NO_SPACE; temporary) */
	OUTBOX_DISK_ERROR,	/* the disk failed a read or write (STORE_DISK_ERROR; temporary) */
	OUTBOX_CONFIG,		/* queuecmd: bad configuration (an unknown transport) */
	OUTBOX_NO_SUCH_ID,	/* queuecmd retry: an id not in outbox/failed/, or damaged */
	OUTBOX_REFUSED,		/* imap: the server refused the command (NO or BAD) */
	OUTBOX_UNAVAILABLE,	/* imap: the session is lost */
	OUTBOX_DENIED,		/* imap: the login refused */
	OUTBOX_NOMEM,		/* imap: out of memory */
};

const char *outbox_status_str(enum outbox_status status);
/* True for the failures after which the same command may succeed later (TIMEOUT, TEMPFAIL, NO_SPACE, DISK_ERROR). */
bool outbox_status_temporary(enum outbox_status status);

/*
 * The store's status an outbox failure was mapped from (STORE_NO_SPACE for
 * OUTBOX_NO_SPACE, STORE_DISK_ERROR, STORE_TEMPFAIL, STORE_TIMEOUT,
 * STORE_TOO_BIG, STORE_IO), STORE_OK for OUTBOX_OK and the outbox's own.
 */
enum store_status outbox_store_status(enum outbox_status status);

struct outbox;
struct outbox_batch;

/* What one flush did. */
struct outbox_stats {
	unsigned delivered;	/* handed to the transport and removed */
	unsigned deferred;	/* temporary failure: still in new/ */
	unsigned failed;	/* permanent failure or damaged: moved to failed/ */
	unsigned released;	/* leftovers in tmp/ whose game was committed: moved to new/ */
	unsigned discarded;	/* leftovers in tmp/ whose game was not: deleted */
	unsigned waiting;	/* in new/, not due yet (backing off) */
	unsigned pruned;	/* copies older than sent_keep_days removed from sent/ */
	unsigned left;		/* OUTBOX_FLUSH_MINE: backlog left for the next flush, untried */
};

/*
 * Open the outbox of st's home, creating outbox/{tmp,new,failed}.  st must
 * outlive it.  The caller owns *out (outbox_close); on failure *out is NULL
 * and err says why.
 */
enum outbox_status outbox_open(struct store *st, struct outbox **out, char *err, size_t errlen);
void outbox_close(struct outbox *ob);

/* The message of the last failure of a call on ob or one of its batches. */
const char *outbox_error(const struct outbox *ob);

/* The errno of that failure when a system call failed, else 0 (alert.h classifies it). */
int outbox_errno(const struct outbox *ob);

/* The store ob was opened on (borrowed). */
struct store *outbox_store(const struct outbox *ob);

/*
 * Start the replies of one transaction.  board 0: replies that change no
 * game (game is ignored).  Otherwise the caller holds board's lock until
 * commit or abort, and game/game_len is the game text about to be written
 * with store_board_write().  The caller owns *out (outbox_batch_free).
 */
enum outbox_status outbox_batch_new(struct outbox *ob, long board, const char *game, size_t game_len,
    struct outbox_batch **out);

/*
 * Start the confirmation of an account change (register, password, forgot,
 * reset, address, confirm, signoff): the same protocol with the account's
 * files in place of a game file.  The caller holds accounts.lock
 * (store_lock_accounts) until commit or abort, and hash is the token of the
 * write about to be made for userid (accounts.h: a new password hash, a new
 * code's hash, "address ...", "signoff ..."), which names this one write.
 * Its replies are tagged "account USERID" and "commit LEN HASH" of that
 * token; recovery releases them if the account holds it
 * (accounts_holds), else deletes them.  The caller owns *out.
 */
enum outbox_status outbox_batch_new_account(struct outbox *ob, const char *userid, const char *hash,
    struct outbox_batch **out);

/* Write one reply into outbox/tmp/ and fsync it.  from may be "" (<>). */
enum outbox_status outbox_batch_add(struct outbox_batch *b, const char *from, const char *rcpt,
    const char *msg, size_t len);

/* The game file was written (or board 0): move the replies into new/. */
enum outbox_status outbox_batch_commit(struct outbox_batch *b);

/*
 * A board's or an account's batch, after its last outbox_batch_add() and
 * before the commit point: the batch record written, one fsync for all
 * its mails (see "Batch records" above).  outbox_batch_commit() seals a
 * batch not sealed yet, but a game's writer seals before its write.
 */
enum outbox_status outbox_batch_seal(struct outbox_batch *b);

/*
 * The game file write failed or was not attempted: the replies are deleted,
 * unless the game file holds the batch's game text after all (then they are
 * committed, and OUTBOX_OK says so through *committed).
 */
enum outbox_status outbox_batch_abort(struct outbox_batch *b, bool *committed);

/* Free a batch.  Files not committed or aborted stay in tmp/ for recovery. */
void outbox_batch_free(struct outbox_batch *b);

/* Queue one reply that changes no game: a board 0 batch of one, committed. */
enum outbox_status outbox_enqueue(struct outbox *ob, const char *from, const char *rcpt, const char *msg,
    size_t len);

/*
 * Settle the tmp/ leftovers of board (see the protocol above).  The caller
 * holds board's lock.  stats may be NULL; released and discarded are added.
 */
enum outbox_status outbox_recover(struct outbox *ob, long board, struct outbox_stats *stats);

/* outbox_recover() for the account batches; the caller holds accounts.lock. */
enum outbox_status outbox_recover_accounts(struct outbox *ob, struct outbox_stats *stats);

/*
 * Deliver everything queued with ops (opened only if there is something to
 * send).  cfg gives lock_timeout_ms and the time for log lines.  stats (may
 * be NULL) is zeroed, then filled.  Failures of single mails are in stats and
 * the log, not in the status.
 */
enum outbox_status outbox_flush(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    struct outbox_stats *stats);

/*
 * outbox_flush() with flags:
 *   OUTBOX_FLUSH_ALL    every mail now, backoff or not (`oustpbm flush --all`,
 *                       as postqueue -f: the admin has fixed the relay);
 *   OUTBOX_FLUSH_MINE   the flush after one incoming mail: the replies this
 *                       ob queued go first, then the backlog that is due, in
 *                       queue order, while the run has taken less than
 *                       flush_backlog_seconds and at most flush_backlog_max
 *                       of it (config.h); the rest is left, untried and
 *                       unchanged, for `oustpbm flush` and cron
 *                       (stats->left), so one mail's delivery never waits
 *                       for a slow server to take a whole backlog.
 * Each host's backoff (hosts.h): a reply deferred because the host was down
 * is due again as soon as a delivery to that host succeeds, whatever its
 * own backoff says, so after an outage the first mail handled sends its own
 * replies and then the backlog.
 */
#define OUTBOX_FLUSH_ALL 1u
#define OUTBOX_FLUSH_MINE 2u
enum outbox_status outbox_flush_opts(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    unsigned flags, struct outbox_stats *stats);

/*
 * Move replies from outbox/failed/ back into outbox/new/ with their retry
 * lines dropped (attempts, first, next, error), under outbox/flush.lock:
 * ids[0..nids), or every one when ids is NULL.  An id that is not in
 * failed/, or whose file is damaged, is refused (counted, said on stderr);
 * each reply moved is logged.  A crash may leave a copy in failed/ beside
 * the one in new/, never neither.
 */
enum outbox_status outbox_requeue(struct outbox *ob, char *const *ids, size_t nids, const struct config *cfg,
    unsigned *moved, unsigned *refused);

/* One waiting mail, as outbox_list shows it. */
struct outbox_entry {
	char id[OUTBOX_ID_MAX + 1];
	char rcpt[MAILADDR_MAX + 1];		/* "" if the queue file is damaged */
	char subject[OUTBOX_SUBJECT_MAX + 1];	/* as in the header, control characters as '?' */
	unsigned long attempts;			/* failed attempts so far */
	long long next;				/* no attempt before this time; 0: at once */
	char error[OUTBOX_ERROR_LINE_MAX + 1];	/* the last failure, or why the file is damaged */
	char reply[TRANSPORT_REPLY_MAX + 1];	/* the server's reply to it, lines joined by '\n', or "" */
	bool damaged;
};

/*
 * The mails waiting in outbox/new/, in the order a flush sends them.  Only
 * reads.  The caller owns *entries (free); *count may be 0.
 */
enum outbox_status outbox_list(struct outbox *ob, struct outbox_entry **entries, size_t *count);

/* The same for the replies refused for good in outbox/failed/, each with why (error, reply). */
enum outbox_status outbox_list_failed(struct outbox *ob, struct outbox_entry **entries, size_t *count);

#endif
