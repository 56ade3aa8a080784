/*
 * outbox_int: what the parts of the outbox share (outbox_handle.c: the
 * handle, its errors and log lines, the queue ids; outbox_queue.c: the
 * queue files, batches and recovery; outbox_deliver.c: a flush;
 * outbox_retry.c: backoff, failures, sent and failed mails, requeue;
 * outbox_list.c: listing).  Not for other modules: they use outbox.h.
 */
#ifndef OUSTPBM_OUTBOX_INT_H
#define OUSTPBM_OUTBOX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "base/config.h"
#include "base/ident.h"
#include "base/mailaddr.h"
#include "outbox/hosts.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/store.h"

#define QUEUE_MAGIC "oustpbm-queue 1\n"
#define QUEUE_ENVELOPE_MAX (2048 + 2 * TRANSPORT_REPLY_MAX)	/* bytes before the message in a queue file */
#define QUEUE_ID_MAX OUTBOX_ID_MAX
#define HOST_MAX 64
#define PATH_BUF 512
#define RECOVER_ACCOUNTS (-1L)	/* outbox_queue_recover(): the account batches, accounts.lock held */

struct outbox {
	struct store *st;
	char host[HOST_MAX + 1];	/* for queue ids, Maildir-safe */
	char **mine;		/* queue ids this process put into new/ (a mail's own replies) */
	size_t nmine, capmine;
	char **records;		/* batch records this process committed (outbox_record.c) */
	size_t nrecords, caprecords;
	char err[OUTBOX_ERR_MAX];
	int sys_errno;		/* the errno of the failure err tells, 0 for one of no system call */
};

/* A parsed queue file; msg points into the text it was parsed from. */
struct queue_file {
	char from[MAILADDR_MAX + 1];
	char rcpt[MAILADDR_MAX + 1];
	long board;		/* 0: none */
	char account[IDENT_USERID_MAX + 1];	/* "" unless an account batch's */
	size_t game_len;
	uint64_t game_hash;
	unsigned long attempts;	/* failed attempts so far */
	long long first;	/* time of the first failed attempt, 0: none */
	long long next;		/* no attempt before this time, 0: at once */
	char error[OUTBOX_ERROR_LINE_MAX + 1];	/* the last failure, "" if none */
	char reply[TRANSPORT_REPLY_MAX + 1];	/* the server's reply to it, lines joined by '\n', or "" */
	char host[HOSTS_NAME_MAX + 1];	/* deferred because this host was down (hosts.h), or "" */
	const char *msg;
	size_t len;
};

/* ---- outbox_handle.c ---- */

/* ob's error message (outbox_error()). */
void outbox_set_err(struct outbox *ob, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Take over the store's message and map its status. */
enum outbox_status outbox_from_store(struct outbox *ob, enum store_status status);
/* A queue id as outbox_new_id makes them: never '.'-first, no '/'. */
bool outbox_id_ok(const char *id);
/* Maildir unique name: time.M<usec>P<pid>Q<counter>.<host> */
void outbox_new_id(struct outbox *ob, char *buf, size_t size);
/* Seconds since the id was made, -1 if the id does not start with a time. */
long outbox_id_age(const char *id, time_t now);
/*
 * True if the process that made id (its P<pid>) ran on this host and is
 * gone: a tmp/ file of it that no tag commits is abandoned (kill -9), not
 * being written.  A pid used again by another process only delays it.
 */
bool outbox_id_orphan(const struct outbox *ob, const char *id);
/* Note id as one of this process's own replies (flushed first); failing, it is only not first. */
void outbox_note_mine(struct outbox *ob, const char *id);
/* Is id one of this process's own replies? */
bool outbox_is_mine(const struct outbox *ob, const char *id);
/* The log line "<time> outbox <id> rcpt=<rcpt> <what>: <why><more>". */
void outbox_log_mail3(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why, const char *more);
void outbox_log_mail(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why);

/* A batch of outbox.h (outbox_queue.c; its record: outbox_record.c). */
struct outbox_batch {
	struct outbox *ob;
	long board;
	char account[IDENT_USERID_MAX + 1];	/* an account batch: the user id; "" if not */
	size_t game_len;
	uint64_t game_hash;
	char **names;		/* queue ids written into tmp/ */
	size_t n, cap;
	bool done;		/* committed or aborted */
	/* a board's or an account's batch: its mails durable in one record (outbox_record.c) */
	char *rec;		/* the record's entries so far */
	size_t rec_len, rec_cap;
	bool sealed;		/* the record is written (outbox_batch_seal) */
	char rec_name[PATH_BUF];	/* outbox/batch/<name> once sealed */
};

/* ---- outbox_record.c: a batch's mails made durable by one record ---- */

#define RECORD_DIR "outbox/batch"
#define RECORD_MAGIC "oustpbm-batch 1\n"

/* Append queue file id (data[0..len)) to a record's entries *rec; -1 without memory. */
int outbox_record_add(char **rec, size_t *len, size_t *cap, const char *id, const char *data, size_t size);
/*
 * Write b's record (its tag, its entries b->rec, named after its first
 * mail), fsync'ed: its name, relative to the home, into b->rec_name.
 */
enum outbox_status outbox_record_write(struct outbox_batch *b);
/* Note record name (relative to the home) as committed by this process. */
void outbox_record_note_mine(struct outbox *ob, const char *name);
/*
 * Settle the records of board (its lock held), of the accounts
 * (RECOVER_ACCOUNTS), or with 0 of every board and the accounts whose
 * lock is free, except this process's own: a committed batch's mails
 * rewritten from the record where they lost their data, made durable
 * where they wait, the record removed; an uncommitted one's mails and
 * record removed.
 */
enum outbox_status outbox_record_recover(struct outbox *ob, long board, struct outbox_stats *stats);
/* After a flush: this process's records removed, their mails still waiting in new/ fsync'ed first. */
void outbox_record_retire_mine(struct outbox *ob);
/* Free the list of records. */
void outbox_record_forget(struct outbox *ob);

/* ---- outbox_queue.c ---- */

/* Parse a queue file's text into *q (msg pointing into text); false with *why if it is not one. */
bool outbox_queue_parse(const char *text, size_t len, struct queue_file *q, const char **why);
/* Does board's game file (board 0: account's token) hold the text of length len and hash hash? */
enum outbox_status outbox_queue_committed(struct outbox *ob, long board, const char *account, size_t len,
    uint64_t hash, bool *same);

/*
 * Read and parse outbox/<dir>/<id>; *text owned by the caller.  *why NULL:
 * parsed into *q; else damaged, *why saying how.  *gone: the file was
 * removed meanwhile (*why NULL then, *q not set).
 */
enum outbox_status outbox_queue_read(struct outbox *ob, const char *dir, const char *id, char **text,
    struct queue_file *q, bool *gone, const char **why);
/*
 * Settle the tmp/ files of board (board > 0, lock held by the caller), or
 * those of account batches (RECOVER_ACCOUNTS, accounts.lock held), or with
 * board 0 of every board, and of the accounts, whose lock is free, deleting
 * junk older than OUTBOX_TMP_MAX_AGE.
 */
enum outbox_status outbox_queue_recover(struct outbox *ob, long board, struct outbox_stats *stats);
/* Rewrite outbox/new/<id> with q's envelope, retry lines included, durably and atomically. */
enum outbox_status outbox_queue_rewrite(struct outbox *ob, const char *id, const struct queue_file *q);

/* ---- outbox_retry.c ---- */

/*
 * Split a transport's why (transport.h) into q's error, its first line
 * (OUTBOX_ERROR_LINE_MAX bytes at most), and q's reply, the server's lines
 * after it; control characters but the line breaks become '?'.
 */
void outbox_retry_record_why(struct queue_file *q, const char *why);
/*
 * The log's text of a failure: the error, then the server's reply as
 * server="...", its lines joined by \n, '"' and '\\' escaped with a
 * backslash, so no server can forge a field of the line.  Cut to size.
 */
void outbox_retry_why_for_log(const struct queue_file *q, char *out, size_t size);
/* The wait after the attempts-th failed attempt: 1 minute, doubling, at most 1 hour. */
long outbox_retry_backoff(unsigned long attempts);
/*
 * A permanent failure: the error goes into the queue file, which moves to
 * failed/; true if it moved (counted in stats->failed).
 */
bool outbox_retry_fail(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *what, const char *why, struct outbox_stats *stats);
/*
 * A temporary failure: one more attempt, the next one after the backoff, the
 * error recorded; after retry_days since the first failed attempt the mail
 * moves to failed/ (outbox_retry_fail: true if it moved).
 */
bool outbox_retry_defer(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *why, const char *host, struct outbox_stats *stats);
/* Delivered: the queue file moves to sent/ (or goes when none are kept). */
enum outbox_status outbox_retry_keep_sent(struct outbox *ob, const struct config *cfg, const char *id);
/* Remove the copies in sent/ older than sent_keep_days, at most once per OUTBOX_PRUNE_EVERY. */
void outbox_retry_prune_sent(struct outbox *ob, const struct config *cfg, struct outbox_stats *stats);
/* new/<id> into failed/. */
enum outbox_status outbox_retry_move_failed(struct outbox *ob, const char *id);

#endif
