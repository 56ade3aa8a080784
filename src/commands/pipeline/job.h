/*
 * job: one incoming mail being handled, and what a mail command's handler
 * may do with it.  The pipeline (process.c) fills the job as far as the
 * command's row asks (mailcmd.h: the account checked, the board read and
 * locked, accounts.lock held) and then calls the handler; the handler
 * decides, and answers only through the functions below:
 *
 *   job_refuse()          the error reply to the sender; nothing changes
 *   job_reply()           a reply that changes nothing, to any address
 *   job_commit_game()     the board j->game written with the mails to its
 *                         players, by outbox.h's protocol
 *   job_commit_account()  an account written with its confirmation, the
 *                         same way, under accounts.lock
 *   job_detail()          the result in the log line
 *
 * A handler never opens a store file for writing itself.  Every function
 * returning enum process_status returns PROCESS_OK when the mail was
 * handled (a refusal too: the sender got the error reply), or the failure
 * the pipeline turns into the exit status (store.h's temporary failures
 * into PROCESS_TEMPFAIL, and so on), with the log line already set.
 */
#ifndef OUSTPBM_JOB_H
#define OUSTPBM_JOB_H

#include <stdbool.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/game.h"
#include "mail/authres.h"
#include "mail/command.h"
#include "mail/mailfind.h"
#include "mail/mailin.h"
#include "mail/reply.h"
#include "mail/token.h"
#include "outbox/outbox.h"
#include "store/pwcheck.h"
#include "store/store.h"

#define JOB_DETAIL_MAX 700	/* bytes of the result in the log line */
#define JOB_MESSAGE_MAX 640	/* bytes of an error message to a player */

struct cmdtable;
struct hooks;
struct mail_command;

/* An account whose password hash is made again after the mail (an outdated cost), once its password is known. */
struct job_rehash {
	char userid[IDENT_USERID_MAX + 1];	/* "" if none */
	char hash[STORE_HASH_MAX + 1];	/* its hash as it was checked: not made again if it changed meanwhile */
};

/* One incoming mail being handled.  The handler reads; the job functions write. */
struct job {
	struct server srv;	/* the home, cfg, store, outbox (opened when first needed), the replies' context, now */
	const struct hooks *hooks;	/* what follows a commit (hooks.h): the pipeline's top hands them down */
	const struct cmdtable *commands;	/* the table of mail commands (mailcmd.h), as help lists it: the top's */
	struct mailin_message in;
	struct command cmd;
	enum command_result cmd_status;	/* of mailfind_find() into cmd, made once */
	struct mailfind_result found;	/* what else the finder read: the Subject's board, the mail answered */
	const struct mail_command *mc;	/* the command's row, once parsed */
	char *masked;		/* the command line with passwords masked, owned */
	const char *unread;	/* quoted instead of a command when the mail was not read */
	long board;		/* the board concerned, for the log; 0 if none */
	const char *outcome;	/* first word of the log result: ok, refused, dropped... */
	char detail[JOB_DETAIL_MAX];
	bool queued;		/* replies wait in outbox/new/ */
	struct pwcheck pw;	/* a move's password check, running beside it */
	bool recorded;		/* in the redelivery record (seen.h) */
	bool settle;		/* a duplicate: flush what its first copy left */
	struct store_lock seen_lock;	/* seen.lock, while held */
	int sys_errno;		/* the errno of the failure the mail ends with, 0 if none (alert.h) */
	enum store_status store_failed;	/* its store status (STORE_NO_SPACE: the disk), STORE_OK if none (alert.h) */
	bool outbox_failed;	/* that failure was the outbox's (alert.h's cause outbox) */
	struct job_rehash rehash;	/* an account whose hash is to be made at password_cost */
	char to_name[STORE_FULLNAME_MAX + 1];	/* job_sender_name()'s answer */
	long hook_board;	/* a board committed, whose hooks (web pages) are due after the flush; 0 if none */
	bool by_token;		/* a reply with a token in its Subject stands for the command (replytoken.h) */
	struct token_subject token;	/* what that Subject says */
	char token_error[JOB_MESSAGE_MAX];	/* why its text stands for no command, "" if it does */
	char token_now[TOKEN_TEXT_SIZE];	/* its right token, once checked: a refusal's Subject carries it */
	enum authres_verdict auth;	/* the trusted receiving server's verdict (process.c, mail/authres.h) */
	char auth_why[AUTHRES_WHY_MAX];	/* what it rests on; "" when trusted_authserv_id is unset */
	char suggest[8];	/* the one placement a reply of prose held ("Did you mean D3?"): its link, "" if none */

	/* what the pipeline prepared for the handler (mailcmd.h's needs) */
	struct store_user user;	/* MAILCMD_LOGIN: the sender's account */
	struct game game;	/* MAILCMD_BOARD: the board; a challenge makes its new one here */
	bool game_loaded;	/* game holds the board read (or made) */
	struct store_lock board_lock;	/* MAILCMD_LOCK: the board's lock (a challenge: the new board's) */
	struct store_lock accounts_lock;	/* MAILCMD_ACCOUNTS: accounts.lock */
};

/* Set the log line's result: outcome ("ok", "refused"...) and the detail. */
void job_detail(struct job *j, const char *outcome, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Append to the log line's detail. */
void job_detail_add(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Refuse the command with message (plain words, quoting the culprit): the
 * error reply to the sender.  g, when not NULL, is the board it was about,
 * shown in the reply; else the board j->board is shown if it can be read.
 * A wrong password still being checked (MAILCMD_LOCK) is the answer instead.
 */
enum process_status job_refuse(struct job *j, const struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * job_refuse() of a turn refused in its middle: the reply shows where it
 * stopped (reply_error(), its stop) before the board g as it stands.
 */
enum process_status job_refuse_at(struct job *j, const struct game *g, const struct reply_stop *stop,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * The display name of a reply to the sender: the registered full name of
 * userid's account (NULL or "": none named) if it is the sender's, else of
 * the accounts at the sender's address; "" for an unknown sender.  The
 * name in the incoming From: is never used (store_user_display_name).
 * Valid until the next call.
 */
const char *job_sender_name(struct job *j, const char *userid);

/* Queue reply m, which changes nothing; m->rcpt may be any address. */
enum process_status job_reply(struct job *j, const struct reply_mail *m);

/*
 * A reply made (rs, m: what the reply_*() function returned) that changes
 * nothing: job_reply(), or job_reply_failure() when rs is not MAIL_OK.
 * m is released either way.
 */
enum process_status job_send(struct job *j, enum mail_status rs, struct reply_mail *m);

/* Failures of the machinery, not of the player: logged, mapped to the status. */
enum process_status job_store_failure(struct job *j, enum store_status ss, const char *what);
enum process_status job_reply_failure(struct job *j, enum mail_status rs);
enum process_status job_hash_failure(struct job *j, const char *userid);
enum process_status job_no_memory(struct job *j);

/*
 * userid's account, refusing an unknown user (a closed one named so:
 * store.h's reserved ids), a locked account or one locked out by the
 * password throttle:
 * PROCESS_OK with *found true and *user filled; or *found false after a
 * refusal was sent; or a failure.
 */
enum process_status job_find_account(struct job *j, const char *userid, struct store_user *user, bool *found);

/*
 * Check userid's password.  PROCESS_OK with *authorised true and *user
 * filled; or *authorised false after a refusal was sent; or a failure.
 */
enum process_status job_authenticate(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised);

/*
 * Take the verdict on a password checked against user (throttle.h): false
 * means refused, with why saying why, the refusal's words (and the owner
 * told of a new lockout).
 */
bool job_password_verdict(struct job *j, const struct store_user *user, bool right, char why[JOB_MESSAGE_MAX]);

/* The same for the secret what ("password", "code": a one-time code is throttled as a password is). */
bool job_secret_verdict(struct job *j, const struct store_user *user, bool right, const char *what,
    char why[JOB_MESSAGE_MAX]);

/* Is password the account's?  False also when it cannot be told. */
bool job_password_is(const struct store_user *u, const char *password);

/*
 * The account change the mail asks for is already in the users file: a
 * copy of a mail whose run wrote it and died before recording it: dropped.
 */
enum process_status job_account_copy(struct job *j, const char *what);

/* The account write of job_commit_account(): token names it (store/accounts.h); expect and arg are the caller's. */
typedef enum store_status job_account_write(struct job *j, const char *token, const char *expect, const void *arg);

/* An account change of job_commit_account(). */
struct job_account_change {
	const char *userid;	/* the account */
	const char *token;	/* the account token of the write (store/accounts.h) */
	const char *expect;	/* passed to write: what the account holds now, or NULL */
	job_account_write *write;	/* the write, the commit point */
	const void *arg;	/* passed to write */
};

/* What the account write of job_commit_account() came to, its words kept for the reply. */
struct job_account_result {
	enum store_status status;	/* the write's */
	char err[STORE_ERR_MAX];	/* its message (store_error), "" if it wrote */
	int sys_errno;		/* its errno, 0 if no system call failed */
};

/*
 * Commit account change c with its confirmations mails[0..n), as a move
 * is committed (outbox.h): the confirmations staged, tagged with c->token,
 * the account token of the write (store/accounts.h: the new password hash,
 * a new code's hash, "address ...", "signoff ..."); the account written
 * (c->write(j, c->token, c->expect, c->arg), the commit point); the
 * confirmations released, or deleted if the write did not happen.
 * accounts.lock held (MAILCMD_ACCOUNTS).  *wrote is what the write came
 * to; PROCESS_OK unless the outbox failed.
 */
enum process_status job_commit_account(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, struct job_account_result *wrote);

/*
 * job_commit_account where the account may have changed meanwhile (an
 * admin's lock or reset, another mail): that is a try-later, as is every
 * failed write, answered by job_account_failure naming what.  *ok true
 * once the write stands; false after that reply; or a failure.
 */
enum process_status job_commit_account_checked(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, const char *what, bool *ok);

/* A failed account write (job_commit_account), with its own message. */
enum process_status job_account_failure(struct job *j, const struct job_account_result *wrote, const char *what);

/* The user userid (an account, or the robot); *found false after "there is no user". */
enum process_status job_find_user(struct job *j, const char *userid, struct store_user *user, bool *found);

/* The boards userid plays on, their headers only (players.h); *games the caller frees. */
enum process_status job_boards_of(struct job *j, const char *userid, struct game **games, size_t *n);

/*
 * The readers of board g's mails (chat): its players with an account and
 * its observers of every mail, as store/audience.h decides them (board
 * mails go through boardmail.h, which asks the same), but the user except
 * (NULL: none).  fn is called with each, in order, and what it returns
 * other than PROCESS_OK ends the walk.
 */
typedef enum process_status job_reader_fn(struct job *j, const struct reply_player *p, void *arg);
enum process_status job_board_readers(struct job *j, const struct game *g, const char *except,
    job_reader_fn *fn, void *arg);

/*
 * A turn of a handler's: the change it made to j->game, and what
 * job_commit_game() committed of it, for the robot's answer after it
 * (job_turn_answer).  The handler's own, from job_turn_init() to
 * job_turn_free().
 */
struct job_turn {
	struct reply_event ev;	/* the change: the handler fills it before the commit */
	struct reply_mail *mails;	/* the mails of ev (boardmail.h: players and observers), owned */
	int nmails;
	char *comment;		/* ev.comment, owned */
	bool committed;		/* job_commit_game() wrote j->game */
};

void job_turn_init(struct job_turn *t);
void job_turn_free(struct job_turn *t);

/*
 * Commit j->game (its lock held) after the change t->ev made by the
 * handler: the comment of the mail passed on, the next reminder set, the
 * mails to both players made and staged, the game file written, the
 * replies released (outbox.h).  With the robot to move next, the mails
 * wait for its answer (job_turn_answer).  PROCESS_OK with *done false: a
 * password check still running failed, nothing was committed and the
 * refusal was sent.  seats (NULL: neither) says what the commit adds to
 * the players' lists (players.h) and to the active boards (active.h).
 */
struct job_seats {
	bool new_board;		/* a new board (a challenge): both its players */
	const char *taken;	/* accept: who took the open seat; NULL if none */
};
enum process_status job_commit_game(struct job *j, struct job_turn *t, const struct job_seats *seats, bool *done);

/*
 * The answer of a hook to turn t, once the handler (MAILCMD_ROBOT) is done
 * with it: the robot's turn, when it is to move next on j->game after t was
 * committed (hooks.h), the board's lock still held; ps, the handler's
 * status, returned as it is otherwise.
 */
enum process_status job_turn_answer(struct job *j, struct job_turn *t, enum process_status ps);

/*
 * Commit j->game (its lock held) as job_commit_game() does, but with
 * mails[0..n) instead of the board's mails, the reminder left as it was: a
 * change that is no turn and that its players need not hear of (an observer
 * added or dropped, a queue of conditional turns: only the sender is told),
 * or one whose own mails say it (a chat and its note in the history).
 */
enum process_status job_commit_quiet(struct job *j, const struct reply_mail *mails, int n, bool *done);

/*
 * Remove board j->game (its lock held: a declined challenge) with
 * mails[0..n), by the same protocol: the removal is the write of the empty
 * text (store_board_remove), so a crash leaves the board and its mails
 * unsent, or the board gone and its mails released, and a redelivered
 * mail finds it handled.
 */
enum process_status job_commit_removal(struct job *j, const struct reply_mail *mails, int n, bool *done);

/*
 * Take the lock of a new board (a challenge's), settle what a crashed run
 * left for it, and check again, under seen.lock held until the commit,
 * that no copy of the mail made it meanwhile.
 */
enum process_status job_lock_new_board(struct job *j, long board);

/*
 * Load board into *g (the caller's, released by it) under its lock, taken
 * into *lock (the caller's, unlocked by it), what a crashed run left for
 * it settled first: for a command of several boards (notify on|off
 * <board>...), which takes their locks in ascending order.  *found false
 * after a refusal was sent (no such board, an unreadable one).
 */
enum process_status job_load_board(struct job *j, long board, struct store_lock *lock, struct game *g, bool *found);

/*
 * Commit board g (its lock held, loaded by job_load_board) as
 * job_commit_quiet() commits j->game: mails[0..n) with it, the mail
 * recorded pending its text.  With n == 0 and last false, only the game
 * file is written (boardcommit.h, no mail, no record): a board of
 * a command of several whose last board's commit carries the reply.
 */
enum process_status job_commit_board(struct job *j, const struct game *g, const struct reply_mail *mails, int n,
    bool last, bool *done);

/* A lock other than a board's or the accounts', for what (a challenge's limits). */
enum process_status job_lock_path(struct job *j, const char *path, const char *what, struct store_lock *lock);

/* ---- for the pipeline (process.c) ---- */

enum process_status job_authenticate_async(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised);
void job_start_password(struct job *j);
enum process_status job_load_readonly(struct job *j, long board, bool *found);
enum process_status job_load_locked(struct job *j, long board, bool *found);
enum process_status job_lock_accounts(struct job *j);
enum process_status job_check_duplicate(struct job *j, bool *dup);
enum process_status job_need_outbox(struct job *j);
void job_record_handled(struct job *j);

/*
 * The mails of g after ev to whoever gets them (boardmail.h), with the
 * players' ratings line; *mails owned by the caller.  For a hook's answer
 * too (the robot's: hooks.h).
 */
enum process_status job_game_mails(struct job *j, const struct game *g, const struct reply_event *ev,
    struct reply_mail **mails, int *n);

/* ---- between job.c, job_password.c and job_commit.c ---- */

/*
 * Settle a password check still running: PWCHECK_RIGHT when none is
 * pending or the password was taken; PWCHECK_WRONG (why says why);
 * PWCHECK_FAILED when the hash could not be computed.  who names the user.
 */
enum pwcheck_verdict job_password_settled(struct job *j, char who[IDENT_USERID_MAX + 1], char why[JOB_MESSAGE_MAX]);
enum process_status job_outbox_failure(struct job *j, enum outbox_status os, const char *what);
enum process_status job_need_seen_lock(struct job *j);

/* Release what the handler had: the locks, the board (before the replies are delivered). */
void job_unlock(struct job *j);

#endif
