/*
 * seen: the record of recently handled mails, <home>/seen.  It serves two
 * purposes, both keyed by what one handled mail leaves behind:
 *   - redelivery: a mail delivered again with the Message-ID of one already
 *     handled is recognised and dropped (besides the #turn guard);
 *   - the per-sender limit (max_mails_per_hour): how many mails of one
 *     sender were answered in the last hour.
 *
 * The file is plain text, one handled mail per line, oldest first:
 *     TIME BOARD STATE SENDER ID
 * TIME epoch seconds; BOARD the board the mail changed, 0 if none; STATE "-"
 * for a mail whose effect is known to stand, or "LEN:HASH" (the length and
 * FNV-1a 64 hash, hex, of the game text it was about to write) while its
 * board write is not yet settled; SENDER and ID percent-encoded (bytes
 * outside '!'..'~' and '%'), ID "-" for a mail without a Message-ID (counted
 * for the limit, never matched).  ID is the whole Message-ID, never cut; one
 * whose encoding would take SEEN_ID_KEEP bytes or more is recorded as "%00"
 * and the FNV-1a 64 hash and length of the whole id.  A mail is a copy of
 * one recorded with the same ID and the same SENDER.  A settlement line repeats an earlier
 * pending entry's TIME BOARD SENDER ID with STATE "=" (it stands) or "x" (it
 * was never committed); it is not a mail and is not counted.
 *
 * Each record is appended (one write, one fsync, or part of the caller's
 * deferred sync: store.h), not a rewrite of the file: a busy server's
 * record is thousands of lines.  Damaged lines, and a last line a crash cut
 * short, are skipped; the file is a cache, deleting it loses only the
 * record.  It is compacted (rewritten whole: settlements folded in, entries
 * older than SEEN_MAX_AGE and the oldest beyond SEEN_MAX_ENTRIES dropped,
 * damaged lines gone) when it reaches SEEN_COMPACT_LINES lines, when its
 * oldest line is SEEN_COMPACT_SLACK past SEEN_MAX_AGE, or when it is over
 * SEEN_FILE_MAX (then it starts afresh).
 *
 * Ordering with the commit (outbox.h's protocol): a mail that changes a
 * board is recorded, pending with the hash of the new game text, under the
 * board lock and the seen lock, before the game file is written; the seen
 * lock is held until the write is done, and the record is durable before
 * the game file's rename.  An account change (accounts.h: password, reset,
 * signoff...) is recorded the same way, under accounts.lock, before its one
 * account write: BOARD 0, STATE the LEN:HASH of the write's token, and a
 * sixth field, the USERID; it stands when the account holds the token
 * (accounts_holds), and it is settled ("=" or "x" with BOARD 0) right after
 * the write.  So a copy of an account mail is known by its Message-ID alone,
 * never guessed from a password that is now right (issue 31: that answered
 * guesses silently).  Whether a board change was committed is decided like
 * outbox_recover() does: the game file holding that text means it was.
 * The next record made for the same board (under its lock, so before any
 * later change) settles its pending entries with "=" or "x" lines.  So a
 * process killed between the commit and anything after it still leaves its
 * move recognised, and one killed before the commit leaves nothing that
 * blocks the redelivery.  Mails that change no board (show, help, refusals,
 * accounts) are recorded after their reply is queued: a crash in between
 * means the reply is made once more, never that a change is applied twice.
 *
 * Lock order: a board lock before seen.lock, never the other way.  The
 * errors are the store's (enum store_status, store_error()), as every
 * failure here is one of a store call.
 */
#ifndef OUSTPBM_SEEN_H
#define OUSTPBM_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "store/store.h"

#define SEEN_FILE "seen"
#define SEEN_LOCK_FILE "seen.lock"
#define SEEN_MAX_ENTRIES 4000		/* lines kept */
#define SEEN_MAX_AGE (7L * 24 * 3600)	/* seconds an entry is kept (MTAs retry for up to 5 days) */
#define SEEN_ID_KEEP 512		/* bytes of an encoded id kept as it is; a longer one is hashed */
#define SEEN_FILE_MAX (4L * 1024 * 1024)	/* bytes read; beyond it the record starts afresh */
#define SEEN_RATE_WINDOW 3600L		/* seconds counted by seen_count_sender */
#define SEEN_COMPACT_LINES (SEEN_MAX_ENTRIES + SEEN_MAX_ENTRIES / 2)	/* lines that start a compaction */
#define SEEN_COMPACT_SLACK (24L * 3600)	/* age past SEEN_MAX_AGE that starts one */

/* What the record says about one Message-ID. */
struct seen_entry {
	time_t time;		/* when it was recorded */
	long board;		/* the board it changed, 0 if none */
	bool pending;		/* board write not settled: compare game_len/game_hash */
	size_t game_len;
	uint64_t game_hash;
};

/* Take seen.lock, waiting at most timeout_ms (STORE_TIMEOUT past it). */
enum store_status seen_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock);

/*
 * Was the mail with Message-ID id (mailin.h's message_key: the whole id,
 * never cut or cleaned) from sender handled?  *dup is true if the record
 * holds id for that sender and its effect stands: a settled entry, or a pending one whose
 * board file holds its text.  *when is the time it was recorded.  An empty
 * id is never a duplicate.  For a board command the answer is final only
 * while the caller holds that board's lock.
 */
enum store_status seen_is_duplicate(struct store *st, const char *id, const char *sender, bool *dup,
    time_t *when);

/*
 * The mails of sender recorded in (now - SEEN_RATE_WINDOW, now] into *count;
 * addresses are compared folded (mailaddr_fold: case, "+tag").
 */
enum store_status seen_count_sender(struct store *st, const char *sender, time_t now, unsigned long *count);

/*
 * The times of the mails seen_count_sender() counts, oldest first, into
 * *times (the caller frees it, also when *n is 0) and *n.
 */
enum store_status seen_sender_times(struct store *st, const char *sender, time_t now, time_t **times, size_t *n);

/*
 * Record a handled mail.  The caller holds seen.lock and, for board > 0,
 * that board's lock, and game/game_len is the text about to be written to
 * it (the entry is pending until settled).  id may be NULL or "" (no
 * Message-ID: counted for the limit only).  The record is appended to, or
 * compacted, as said above; either way it is durable, or owed to the
 * caller's deferred sync and paid before its next rename (store.h).
 */
enum store_status seen_record(struct store *st, const char *id, const char *sender, time_t now, long board,
    const char *game, size_t game_len);

/*
 * Settle as never committed the entry just recorded with seen_record() for
 * board (> 0), under the same locks: its change was refused after all
 * (a wrong password found after the record was made).
 */
enum store_status seen_void(struct store *st, const char *id, const char *sender, time_t now, long board);

/*
 * Record an account change pending: the write of token (the account
 * token, accounts.h) to userid's account, under accounts.lock and
 * seen.lock.  The account's earlier unsettled entries are settled first
 * (the lock held, the account is as their runs left it).  Durable as
 * seen_record().
 */
enum store_status seen_record_account(struct store *st, const char *id, const char *sender, time_t now,
    const char *userid, const char *token);

/* Settle the account entry just recorded: its write stands, or it never happened (void). */
enum store_status seen_settle_account(struct store *st, const char *id, const char *sender, time_t now, bool stands);

/*
 * Settle the pending entries of board against its game file as it stands,
 * under its lock and seen.lock, before a change that answers no mail
 * replaces the file (the robot's turn, robot.h): a mail whose text the file
 * holds stays recognised and counted once the file changes again.  Durable
 * on return (nothing is written when nothing is pending).
 */
enum store_status seen_settle(struct store *st, long board);

#endif
