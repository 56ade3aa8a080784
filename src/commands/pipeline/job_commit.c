/*
 * job_commit: the one commit protocol of a mail (outbox.h): its replies
 * staged in outbox/tmp/, the mail recorded pending in the redelivery record
 * (seen.h), the one write (the game file, or the users file for an
 * account), the replies released; the hooks' turn before a board's
 * commit (hooks.h).
 */
#include "commands/pipeline/job.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/txn.h"
#include "base/msg.h"
#include "commands/pipeline/boardmail.h"
#include "commands/pipeline/hooks.h"
#include "commands/pipeline/replytoken.h"
#include "store/tokens.h"
#include "game/gamefile.h"
#include "store/active.h"
#include "store/audience.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/seen.h"

/*
 * Take accounts.lock for an account change and settle the confirmations a
 * crashed run left (outbox.h): released if their account was written,
 * deleted if not.  Held until the change is committed or refused.
 */
enum process_status job_lock_accounts(struct job *j)
{
	struct store_lock *lock = &j->accounts_lock;
	enum store_status ss;
	enum outbox_status os;
	enum process_status ps;
	bool dup;

	ss = store_lock_accounts(j->srv.st, true, lock);
	if (ss == STORE_TIMEOUT) {
		job_detail(j, "tempfail", "the accounts are locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the accounts");
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_recover_accounts(j->srv.ob, NULL);
	if (os != OUTBOX_OK)
		return job_outbox_failure(j, os, "cannot recover the outbox");
	/* under the lock: a copy of this mail committed meanwhile is seen here */
	return job_check_duplicate(j, &dup);
}

/*
 * The account change the mail asks for is already in the users file: a
 * copy of a mail whose run wrote it and died before recording it (seen.h).
 * Its confirmation, released by job_lock_accounts() if it was left behind, is
 * the one answer: the copy is dropped and the outbox flushed.
 */
enum process_status job_account_copy(struct job *j, const char *what)
{
	j->settle = true;
	job_detail(j, "dropped", "%s: already done by a copy of this mail", what);
	return PROCESS_DROPPED;
}

/* ---- committing through a transaction (txn.h) ---- */

/* The failure of transaction t, answered as the job answers its layer's. */
static enum process_status txn_failed(struct job *j, const struct txn *t)
{
	struct txn_failure f;

	txn_failure(t, &f);
	switch (f.layer) {
	case TXN_LAYER_STORE:
		return job_store_failure(j, f.store_status, f.what);
	case TXN_LAYER_OUTBOX:
		return job_outbox_failure(j, f.outbox_status, f.what);
	case TXN_LAYER_NONE:
	case TXN_LAYER_OTHER:
		break;
	}
	if (strcmp(f.what, "tempfail") == 0) {
		job_detail(j, "tempfail", "%s", f.message);
		return PROCESS_TEMPFAIL;
	}
	job_detail(j, "tempfail", "%s: %s", f.what, f.message);
	return PROCESS_TEMPFAIL;
}

struct account_write {
	struct job *j;
	const struct job_account_change *c;
	struct job_account_result *wrote;
};

/* An account change's install (txn_write_fn): the caller's write, its words kept for the reply. */
static enum store_status account_write(void *arg)
{
	struct account_write *aw = arg;
	struct job *j = aw->j;
	enum store_status ss;

	ss = aw->c->write(j, aw->c->token, aw->c->expect, aw->c->arg);
	/* what the write said, before the abort reads the users file again */
	snprintf(aw->wrote->err, sizeof aw->wrote->err, "%s", store_error(j->srv.st));
	aw->wrote->sys_errno = store_errno(j->srv.st);
	return ss;
}

/*
 * Commit an account change with its confirmations mails[0..n), as a move is
 * committed (txn.h): the confirmations staged, tagged with token, the
 * account token of the write (store/accounts.h); the mail recorded pending
 * it; the account written (write(j, token, expect, arg), the commit point);
 * the confirmations released, or deleted if the write did not happen.
 * accounts.lock held.
 */
enum process_status job_commit_account(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, struct job_account_result *wrote)
{
	struct account_write aw = { j, c, wrote };
	struct txn *t = NULL;
	struct txn_failure f;
	enum process_status ps;

	wrote->status = STORE_IO;
	wrote->err[0] = '\0';
	wrote->sys_errno = 0;
	if (txn_begin_account(&j->srv, c->userid, c->token, account_write, &aw, &t) != PROCESS_OK)
		return job_no_memory(j);
	txn_add_mails(t, mails, n);
	/* the mail recorded pending this write (seen.h): a copy is known by its Message-ID alone */
	txn_record_mail(t, j->in.message_key, j->in.from_addr, &j->seen_lock);
	ps = PROCESS_OK;
	if (txn_commit(t) == PROCESS_OK) {
		wrote->status = STORE_OK;
		j->queued = true;
		j->recorded = true;
		goto out;
	}
	txn_failure(t, &f);
	if (f.at_install) {
		/* the write itself failed: the caller answers it (the refusal recorded as any other) */
		wrote->status = f.store_status;
		j->recorded = false;
		goto out;
	}
	ps = txn_failed(j, t);
out:
	txn_free(t);
	return ps;
}

enum process_status job_commit_account_checked(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, const char *what, bool *ok)
{
	struct job_account_result wrote;
	enum process_status ps;

	*ok = false;
	ps = job_commit_account(j, c, mails, n, &wrote);
	if (ps != PROCESS_OK)
		return ps;
	if (wrote.status == STORE_CHANGED)
		wrote.status = STORE_TIMEOUT;	/* changed meanwhile: the next try checks again */
	if (wrote.status != STORE_OK)
		return job_account_failure(j, &wrote, what);
	*ok = true;
	return PROCESS_OK;
}

/* job_store_failure() with the message of the account write (commit_account), not a later call's. */
enum process_status job_account_failure(struct job *j, const struct job_account_result *wrote, const char *what)
{
	enum store_status ss = wrote->status;

	/* a file at its cap (store_write_capped): a clear reply, the mail handled */
	if (ss == STORE_TOO_BIG) {
		store_complain(j->srv.st, "%s: %s", what, wrote->err);
		return job_refuse(j, NULL, "%s: one of the server's files is full; try again later or ask the "
		    "server's admin", what);
	}
	j->sys_errno = wrote->sys_errno;
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, wrote->err);
	msg_warn("%s: %s", what, wrote->err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* ---- the redelivery record (seen.h) ---- */


enum process_status job_board_readers(struct job *j, const struct game *g, const char *except,
    job_reader_fn *fn, void *arg)
{
	struct audience_member *who = NULL;
	struct reply_player p;
	char token[TOKEN_TEXT_SIZE];
	enum store_status ss;
	enum process_status ps = PROCESS_OK;
	size_t n = 0, i;

	/* the players and the observers of every mail (audience.h), not the results-only ones */
	ss = audience_of_board(j->srv.st, g, false, &who, &n);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read who gets the board's mail");
	for (i = 0; i < n && ps == PROCESS_OK; i++) {
		if (except != NULL && strcmp(who[i].user.userid, except) == 0)
			continue;
		/* a chat to a player carries its token: a reply to it chats back (replytoken.h) */
		boardmail_player(j->srv.st, g, &who[i], &p, token);
		ps = fn(j, &p, arg);
	}
	free(who);
	return ps;
}

enum process_status job_game_mails(struct job *j, const struct game *g, const struct reply_event *ev,
    struct reply_mail **mails, int *n)
{
	struct reply_event e = *ev;
	char rline[RATINGS_LINE_MAX];

	/* both players' ratings, or on a game's end the change (ratings.h) */
	ratings_mail_line(j->srv.st, g, (int64_t)j->srv.now, rline, sizeof rline);
	e.ratings = rline;
	/* job_store_failure and job_reply_failure tell apart only what these statuses do */
	switch (boardmail_make(&j->srv, g, &e, NULL, mails, n)) {
	case PROCESS_OK:
		break;
	case PROCESS_TEMPFAIL:
		return job_store_failure(j, STORE_TEMPFAIL, "cannot read who gets the board's mail");
	case PROCESS_FULL:
		return job_store_failure(j, STORE_TOO_BIG, "cannot read who gets the board's mail");
	case PROCESS_IOERR:
		return job_store_failure(j, STORE_IO, "cannot read who gets the board's mail");
	case PROCESS_NOMEM:
		return job_reply_failure(j, MAIL_NOMEM);
	case PROCESS_CONFIG:
		return job_reply_failure(j, MAIL_TEMPLATE);
	default:	/* PROCESS_SOFTWARE */
		return job_reply_failure(j, MAIL_COMPOSE);
	}
	return PROCESS_OK;
}

/*
 * Is this mail a copy of one already handled?  Then it is dropped (logged,
 * not answered).  For a board command the answer is final only under that
 * board's lock, so do_play and do_challenge ask again there.
 */
enum process_status job_check_duplicate(struct job *j, bool *dup)
{
	enum store_status ss;
	char stamp[GAMEFILE_TIME_SIZE];
	time_t when;

	ss = seen_is_duplicate(j->srv.st, j->in.message_key, j->in.from_addr, dup, &when);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the redelivery record");
	if (*dup) {
		/* the first copy may have died before its replies were sent: flush them */
		j->settle = true;
		gamefile_time_str((int64_t)when, stamp);
		job_detail(j, "dropped", "a copy of the mail handled at %s (same Message-ID)", stamp);
		return PROCESS_DROPPED;
	}
	return PROCESS_OK;
}

/* Take seen.lock unless held. */
enum process_status job_need_seen_lock(struct job *j)
{
	enum store_status ss;

	if (j->seen_lock.fd >= 0)
		return PROCESS_OK;
	ss = seen_lock(j->srv.st, j->srv.cfg.lock_timeout_ms, &j->seen_lock);
	if (ss == STORE_TIMEOUT) {
		job_detail(j, "tempfail", "the redelivery record is locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the redelivery record");
	return PROCESS_OK;
}

/* Record a handled mail that changed no board, after its reply was queued. */
void job_record_handled(struct job *j)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	size_t n;

	if (j->recorded)
		return;
	ss = seen_lock(j->srv.st, j->srv.cfg.lock_timeout_ms, &lock);
	if (ss == STORE_OK) {
		ss = seen_record(j->srv.st, j->in.message_key, j->in.from_addr, j->srv.now, 0, NULL, 0);
		store_unlock(&lock);
	}
	if (ss != STORE_OK) {
		/* the reply is queued: the mail is handled, a redelivery is answered again */
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (not recorded: %s)", store_error(j->srv.st));
		msg_warn("cannot write the redelivery record: %s", store_error(j->srv.st));
		return;
	}
	j->recorded = true;
}

/* ---- a board ---- */

/*
 * Authentication, the step before every commit of a mail: a password check
 * still running beside the command (job_authenticate_async) is settled
 * here, in this one place.  PROCESS_OK with *right false after the refusal
 * (or a failure); nothing is staged before it is known.
 */
static enum process_status authenticated(struct job *j, bool *right)
{
	char who[IDENT_USERID_MAX + 1];
	char why[JOB_MESSAGE_MAX];
	enum pwcheck_verdict v;

	*right = false;
	v = job_password_settled(j, who, why);
	if (v == PWCHECK_FAILED)
		return job_hash_failure(j, who);
	if (v == PWCHECK_WRONG)
		return job_refuse(j, NULL, "%s", why);
	*right = true;
	return PROCESS_OK;
}

/* "also" steps of a mail's board commit (txn.h), before the install */
struct board_steps {
	const struct job_seats *seats;
	const struct game *g;
};

/* A new board: in both players' lists before its game file exists (players.h). */
static enum store_status index_new_board(struct server *srv, void *arg)
{
	const struct board_steps *bs = arg;
	const struct game *g = bs->g;

	return players_add(srv->st, srv->cfg.lock_timeout_ms, g->board,
	    strcmp(g->black, GAME_OPEN_SEAT) == 0 ? g->white : g->black,
	    strcmp(g->white, GAME_OPEN_SEAT) == 0 ? g->black : g->white);
}

/* An open challenge taken: in the new player's list too (players.h). */
static enum store_status index_seat_taken(struct server *srv, void *arg)
{
	const struct board_steps *bs = arg;

	return players_add(srv->st, srv->cfg.lock_timeout_ms, bs->g->board, bs->seats->taken, bs->seats->taken);
}

/* In the index of active boards once both seats are taken (active.h). */
static enum store_status index_active(struct server *srv, void *arg)
{
	const struct board_steps *bs = arg;

	return active_add(srv->st, bs->g->board, bs->g->black, bs->g->white);
}

/*
 * Commit g (its board lock held) with its mails through a transaction
 * (txn.h): the mail authenticated first, then the replies staged, the game
 * file written, the replies released.  PROCESS_OK with *done false: the
 * password was refused, nothing was committed and the refusal sent.
 */
static enum process_status commit_game(struct job *j, const struct game *g, bool remove,
    const struct job_seats *seats, const struct reply_mail *mails, int n, bool *done)
{
	static const struct job_seats none = { false, NULL };
	struct board_steps bs = { seats != NULL ? seats : &none, g };
	struct txn *t = NULL;
	enum process_status ps;
	enum process_status ts;
	bool right;

	*done = false;
	ps = authenticated(j, &right);
	if (ps != PROCESS_OK || !right)
		return ps;
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	ts = remove ? txn_begin_removal(&j->srv, g, &t) : txn_begin_board(&j->srv, g, &t);
	if (ts != PROCESS_OK) {
		job_detail(j, "tempfail", "out of memory writing board %ld", g->board);
		return PROCESS_TEMPFAIL;
	}
	txn_add_mails(t, mails, n);
	/* the mail is recorded pending this text, the seen lock held until it is written (seen.h) */
	txn_record_mail(t, j->in.message_key, j->in.from_addr, &j->seen_lock);
	if (bs.seats->new_board)
		txn_also(t, TXN_BEFORE_INSTALL, index_new_board, &bs);
	if (bs.seats->taken != NULL)
		txn_also(t, TXN_BEFORE_INSTALL, index_seat_taken, &bs);
	if ((bs.seats->new_board && !game_is_open(g)) || bs.seats->taken != NULL)
		txn_also(t, TXN_BEFORE_INSTALL, index_active, &bs);
	if (txn_commit(t) != PROCESS_OK) {
		j->recorded = txn_recorded(t);
		ps = txn_failed(j, t);
		goto out;
	}
	j->recorded = true;
	j->queued = true;
	*done = true;
	/* the hooks' (the web site's) after the replies have gone (process.c): they are what the players wait for */
	j->hook_board = g->board;
out:
	txn_free(t);
	return ps;
}

void job_turn_init(struct job_turn *t)
{
	memset(t, 0, sizeof *t);
}

void job_turn_free(struct job_turn *t)
{
	boardmail_free(t->mails, t->nmails);
	t->mails = NULL;
	t->nmails = 0;
	free(t->comment);
	t->comment = NULL;
}

enum process_status job_commit_game(struct job *j, struct job_turn *t, const struct job_seats *seats, bool *done)
{
	struct game *g = &j->game;
	enum process_status ps;

	*done = false;
	free(t->comment);	/* a command committing twice (accept's check) */
	t->comment = replytoken_comment(&j->cmd, j->in.body);
	if (t->comment == NULL)
		return job_no_memory(j);
	t->ev.comment = t->comment;
	hooks_turn(j->hooks, &j->srv, g);	/* the clocks and the next reminder count from this turn */
	boardmail_free(t->mails, t->nmails);	/* a command committing twice (accept's check) */
	t->mails = NULL;
	t->nmails = 0;
	ps = job_game_mails(j, g, &t->ev, &t->mails, &t->nmails);
	if (ps != PROCESS_OK)
		return ps;
	/* a hook answers at once (the robot to move next): the mover's one mail comes with its answer */
	ps = commit_game(j, g, false, seats, t->mails, hooks_answerer(j->hooks, &j->srv.cfg, g) != NULL ? 0 : t->nmails,
	    done);
	t->committed = ps == PROCESS_OK && *done;
	return ps;
}

enum process_status job_turn_answer(struct job *j, struct job_turn *t, enum process_status ps)
{
	const struct hook *h;

	if (ps == PROCESS_OK && t->committed && (h = hooks_answerer(j->hooks, &j->srv.cfg, &j->game)) != NULL)
		ps = h->answer(j, t);
	return ps;
}

enum process_status job_commit_quiet(struct job *j, const struct reply_mail *mails, int n, bool *done)
{
	*done = false;
	return commit_game(j, &j->game, false, NULL, mails, n, done);
}

enum process_status job_commit_board(struct job *j, const struct game *g, const struct reply_mail *mails, int n,
    bool last, bool *done)
{
	enum process_status ts;
	enum process_status ps;
	char err[300];

	*done = false;
	if (last)
		return commit_game(j, g, false, NULL, mails, n, done);
	assert(n == 0);
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	/* the game file alone, the mails recorded pending the old one settled first (boardcommit.h) */
	ts = boardcommit_write(&j->srv, g, NULL, 0, err, sizeof err);
	if (ts != PROCESS_OK) {
		job_detail(j, ts == PROCESS_TEMPFAIL ? "tempfail" : "error", "board %ld: %s", g->board, err);
		msg_warn("board %ld: %s", g->board, err);
		return ts == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	*done = true;
	return PROCESS_OK;
}

enum process_status job_commit_removal(struct job *j, const struct reply_mail *mails, int n, bool *done)
{
	enum process_status ps;

	*done = false;
	ps = commit_game(j, &j->game, true, NULL, mails, n, done);
	return ps;
}
