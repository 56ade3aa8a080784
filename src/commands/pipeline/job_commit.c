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
 * mails[0..n) into b, a batch just made with status os; on a failure b is
 * aborted and freed, and the mail tried again later.
 */
static enum process_status fill_batch(struct job *j, enum outbox_status os, struct outbox_batch *b,
    const struct reply_mail *mails, int n)
{
	bool committed;
	int i;

	for (i = 0; os == OUTBOX_OK && i < n; i++)
		os = outbox_batch_add(b, j->srv.cfg.from_address, mails[i].rcpt, mails[i].msg, mails[i].len);
	if (os != OUTBOX_OK) {
		if (b != NULL)
			outbox_batch_abort(b, &committed);
		outbox_batch_free(b);
		return job_outbox_failure(j, os, n == 1 ? "cannot queue the reply" : "cannot queue the replies");
	}
	return PROCESS_OK;
}

/*
 * Stage mails[0..n) in a new outbox batch tagged with board and the game
 * text about to be written (board 0 and no text for an account change), as
 * outbox.h's protocol says.  On failure nothing is left staged and *out is
 * NULL; otherwise the caller commits or aborts *out and frees it.
 */
static enum process_status stage_batch(struct job *j, long board, const char *text, size_t len,
    const struct reply_mail *mails, int n, struct outbox_batch **out)
{
	struct outbox_batch *b = NULL;
	enum outbox_status os;
	enum process_status ps;

	*out = NULL;
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_batch_new(j->srv.ob, board, text, len, &b);
	ps = fill_batch(j, os, b, mails, n);
	if (ps != PROCESS_OK)
		return ps;
	*out = b;
	return PROCESS_OK;
}

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

/*
 * Commit an account change with its confirmations mails[0..n), as a move is
 * committed (outbox.h): the confirmations staged, tagged with token, the
 * account token of the write (store/accounts.h); the account written
 * (write(j, token, expect, arg), the commit point); the confirmations
 * released, or deleted if the write did not happen.  accounts.lock held.
 */
static enum process_status seen_failure(struct job *j, enum store_status ss, const char *what);

enum process_status job_commit_account(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, enum store_status *wrote)
{
	const char *userid = c->userid, *token = c->token;
	struct outbox_batch *b = NULL;
	enum outbox_status os;
	enum process_status ps;
	enum store_status ss;
	bool committed = false;

	*wrote = STORE_IO;
	os = outbox_batch_new_account(j->srv.ob, userid, token, &b);
	ps = fill_batch(j, os, b, mails, n);
	if (ps != PROCESS_OK)
		return ps;
	/* the mail recorded pending this write (seen.h): a copy is known by its Message-ID alone */
	ps = job_need_seen_lock(j);
	ss = ps == PROCESS_OK ? seen_record_account(j->srv.st, j->in.message_key, j->in.from_addr, j->srv.now, userid, token) :
	    STORE_OK;
	if (ps != PROCESS_OK || ss != STORE_OK) {
		outbox_batch_abort(b, &committed);
		outbox_batch_free(b);
		return ps != PROCESS_OK ? ps : seen_failure(j, ss, "cannot write the redelivery record");
	}
	j->recorded = true;
	*wrote = c->write(j, token, c->expect, c->arg);
	/* what the write said, before the abort below reads the users file again */
	snprintf(j->account_err, sizeof j->account_err, "%s", store_error(j->srv.st));
	j->account_errno = store_errno(j->srv.st);
	if (*wrote != STORE_OK) {
		/* a write that reached its rename stands: then so does its confirmation */
		if (outbox_batch_abort(b, &committed) == OUTBOX_OK && committed)
			*wrote = STORE_OK;
	} else if (outbox_batch_commit(b) != OUTBOX_OK) {
		/* the account stands; its confirmation waits in tmp/ for the next recovery */
		fprintf(stderr, "oustpbm: cannot queue the confirmation: %s\n", outbox_error(j->srv.ob));
	}
	if (*wrote == STORE_OK)
		j->queued = true;
	else
		j->recorded = false;	/* voided below: the refusal is recorded as any other */
	if (seen_settle_account(j->srv.st, j->in.message_key, j->in.from_addr, j->srv.now, *wrote == STORE_OK) != STORE_OK)
		fprintf(stderr, "oustpbm: cannot settle the redelivery record: %s\n", store_error(j->srv.st));
	store_unlock(&j->seen_lock);
	outbox_batch_free(b);
	return PROCESS_OK;
}

enum process_status job_commit_account_checked(struct job *j, const struct job_account_change *c,
    const struct reply_mail *mails, int n, const char *what, bool *ok)
{
	enum store_status wrote;
	enum process_status ps;

	*ok = false;
	ps = job_commit_account(j, c, mails, n, &wrote);
	if (ps != PROCESS_OK)
		return ps;
	if (wrote == STORE_CHANGED)
		wrote = STORE_TIMEOUT;	/* changed meanwhile: the next try checks again */
	if (wrote != STORE_OK)
		return job_account_failure(j, wrote, what);
	*ok = true;
	return PROCESS_OK;
}

/* job_store_failure() with the message of the account write (commit_account), not a later call's. */
enum process_status job_account_failure(struct job *j, enum store_status ss, const char *what)
{
	/* a file at its cap (store_write_capped): a clear reply, the mail handled */
	if (ss == STORE_TOO_BIG) {
		store_complain(j->srv.st, "%s: %s", what, j->account_err);
		return job_refuse(j, NULL, "%s: one of the server's files is full; try again later or ask the "
		    "server's admin", what);
	}
	j->sys_errno = j->account_errno;
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, j->account_err);
	fprintf(stderr, "oustpbm: %s: %s\n", what, j->account_err);
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
	enum store_status ss;
	enum reply_status rs;
	char rline[RATINGS_LINE_MAX];

	/* both players' ratings, or on a game's end the change (ratings.h) */
	ratings_mail_line(j->srv.st, g, (int64_t)j->srv.now, rline, sizeof rline);
	e.ratings = rline;
	switch (boardmail_make(&j->srv, g, &e, NULL, mails, n, &ss, &rs)) {
	case BOARDMAIL_OK:
		break;
	case BOARDMAIL_STORE:
		return job_store_failure(j, ss, "cannot read who gets the board's mail");
	case BOARDMAIL_REPLY:
		return job_reply_failure(j, rs);
	}
	return PROCESS_OK;
}

static enum process_status seen_failure(struct job *j, enum store_status ss, const char *what)
{
	store_unlock(&j->seen_lock);
	return job_store_failure(j, ss, what);
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

/* Record the mail pending the write of text to board (its lock held); seen.lock stays held. */
static enum process_status record_pending(struct job *j, long board, const char *text, size_t len)
{
	enum process_status ps;
	enum store_status ss;

	ps = job_need_seen_lock(j);
	if (ps != PROCESS_OK)
		return ps;
	ss = seen_record(j->srv.st, j->in.message_key, j->in.from_addr, j->srv.now, board, text, len);
	if (ss != STORE_OK)
		return seen_failure(j, ss, "cannot write the redelivery record");
	j->recorded = true;
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
		fprintf(stderr, "oustpbm: cannot write the redelivery record: %s\n", store_error(j->srv.st));
		return;
	}
	j->recorded = true;
}

/* ---- a board ---- */

/*
 * Commit g (its board lock held) with its mails, as outbox.h's protocol
 * says: replies into outbox/tmp/, the game file written, the replies
 * released.  PROCESS_OK with *done false: a password check still running
 * (authenticate_async) failed, nothing was committed and the refusal sent.
 */
static enum process_status commit_game(struct job *j, const struct game *g, bool remove,
    const struct reply_mail *mails, int n, bool *done)
{
	struct outbox_batch *b = NULL;
	struct store_staged sf = { .live = false };
	enum store_status ss;
	enum process_status ps;
	char *text = NULL, who[IDENT_USERID_MAX + 1], rerr[RATINGS_ERR_MAX];
	enum pwcheck_verdict v;
	size_t len;
	bool committed = false;

	*done = false;
	if (remove) {
		/* a removal is the write of the empty text (store_board_holds) */
		text = strdup("");
		len = 0;
		if (text == NULL)
			return job_no_memory(j);
	} else if (gamefile_format(g, &text, &len) != GAMEFILE_OK) {
		job_detail(j, "tempfail", "out of memory writing board %ld", g->board);
		return PROCESS_TEMPFAIL;
	}
	/* the fsyncs of the replies, the record and the game are made together (store.h) */
	store_defer_begin(j->srv.st);
	ps = stage_batch(j, g->board, text, len, mails, n, &b);
	if (ps != PROCESS_OK)
		goto out;
	ss = remove ? STORE_OK : store_board_stage(j->srv.st, g->board, text, len, &sf);
	if (ss == STORE_OK) {
		/* the mail is recorded pending this text, the seen lock held until it is written (seen.h) */
		ps = record_pending(j, g->board, text, len);
		if (ps != PROCESS_OK) {
			outbox_batch_abort(b, &committed);
			goto out;
		}
		/* a game's end is marked for the ratings before it is committed (ratings.h) */
		if (!remove && ratings_before_commit(j->srv.st, g, rerr) != STORE_OK) {
			outbox_batch_abort(b, &committed);
			job_detail(j, "tempfail", "%s", rerr);
			ps = PROCESS_TEMPFAIL;
			goto out;
		}
		/* what the commit needs on disk, written while the password check may still run */
		ss = store_sync(j->srv.st);
		/* a new board: in both players' lists before its game file exists (players.h) */
		if (ss == STORE_OK && j->new_board)
			ss = players_add(j->srv.st, j->srv.cfg.lock_timeout_ms, g->board,
			    strcmp(g->black, GAME_OPEN_SEAT) == 0 ? g->white : g->black,
			    strcmp(g->white, GAME_OPEN_SEAT) == 0 ? g->black : g->white);
		/* an open challenge taken: in the new player's list too (players.h) */
		if (ss == STORE_OK && j->seat_taken[0] != '\0')
			ss = players_add(j->srv.st, j->srv.cfg.lock_timeout_ms, g->board, j->seat_taken, j->seat_taken);
		/* and in the index of active boards once both seats are taken (active.h) */
		if (ss == STORE_OK && ((j->new_board && !game_is_open(g)) || j->seat_taken[0] != '\0'))
			ss = active_add(j->srv.st, g->board, g->black, g->white);
	}
	if (ss == STORE_OK && (v = job_password_settled(j, who)) != PWCHECK_RIGHT) {
		/* everything was only staged: drop it, void the record, and refuse (or try later) */
		store_discard(j->srv.st, &sf);
		outbox_batch_abort(b, &committed);
		if (seen_void(j->srv.st, j->in.message_key, j->in.from_addr, j->srv.now, g->board) != STORE_OK)
			fprintf(stderr, "oustpbm: cannot write the redelivery record: %s\n", store_error(j->srv.st));
		j->recorded = false;	/* the refusal is recorded as any other */
		ps = v == PWCHECK_FAILED ? job_hash_failure(j, who) : job_refuse(j, NULL, "%s", j->pwmsg);
		goto out;
	}
	if (ss == STORE_OK) {
		ss = remove ? store_board_remove(j->srv.st, g->board) : store_install(j->srv.st, &sf);
		/* the commit is durable before its replies are released */
		if (ss == STORE_OK)
			ss = store_defer_end(j->srv.st);
	}
	if (ss != STORE_OK) {
		/* the write may have reached its rename: then the move stands */
		if (outbox_batch_abort(b, &committed) != OUTBOX_OK || !committed) {
			ps = job_store_failure(j, ss, "cannot write the game file");
			goto out;
		}
	} else if (outbox_batch_commit(b) != OUTBOX_OK) {
		/* the game stands; its replies wait in tmp/ for the next recovery */
		fprintf(stderr, "oustpbm: board %ld: cannot queue the replies: %s\n", g->board, outbox_error(j->srv.ob));
	}
	j->queued = true;
	*done = true;
	ps = PROCESS_OK;
	if (game_over(g))
		active_remove(j->srv.st, g->board, g->black, g->white);
	ratings_after_commit(j->srv.st, j->srv.cfg.lock_timeout_ms);
	/* the hooks' (the web site's) after the replies have gone (process.c): they are what the players wait for */
	j->hook_board = g->board;
out:
	if (!*done && !remove)
		ratings_cancel(j->srv.st, g);	/* nothing was committed: no mark either */
	store_discard(j->srv.st, &sf);
	store_defer_end(j->srv.st);	/* nothing owed is kept: harmless if already ended */
	store_unlock(&j->seen_lock);
	outbox_batch_free(b);
	free(text);
	return ps;
}

enum process_status job_commit_game(struct job *j, bool *done)
{
	struct game *g = &j->game;
	enum process_status ps;

	*done = false;
	j->comment = replytoken_comment(&j->cmd, j->in.body);
	if (j->comment == NULL)
		return job_no_memory(j);
	j->ev.comment = j->comment;
	hooks_turn(&j->srv, g);	/* the clocks and the next reminder count from this turn */
	boardmail_free(j->mails, j->nmails);	/* a command committing twice (accept's check) */
	j->mails = NULL;
	j->nmails = 0;
	ps = job_game_mails(j, g, &j->ev, &j->mails, &j->nmails);
	if (ps != PROCESS_OK)
		return ps;
	/* a hook answers at once (the robot to move next): the mover's one mail comes with its answer */
	ps = commit_game(j, g, false, j->mails, hooks_answerer(&j->srv.cfg, g) != NULL ? 0 : j->nmails, done);
	j->committed = ps == PROCESS_OK && *done;
	return ps;
}

enum process_status job_commit_quiet(struct job *j, const struct reply_mail *mails, int n, bool *done)
{
	enum process_status ps;

	*done = false;
	ps = commit_game(j, &j->game, false, mails, n, done);
	j->committed = ps == PROCESS_OK && *done;
	return ps;
}

enum process_status job_commit_board(struct job *j, const struct game *g, const struct reply_mail *mails, int n,
    bool last, bool *done)
{
	enum boardcommit_status bs;
	enum process_status ps;
	char err[300];

	*done = false;
	if (last)
		return commit_game(j, g, false, mails, n, done);
	assert(n == 0);
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	/* the game file alone, the mails recorded pending the old one settled first (boardcommit.h) */
	bs = boardcommit_write(&j->srv, g, NULL, 0, err, sizeof err);
	if (bs != BOARDCOMMIT_OK) {
		job_detail(j, bs == BOARDCOMMIT_TEMPFAIL ? "tempfail" : "error", "board %ld: %s", g->board, err);
		fprintf(stderr, "oustpbm: board %ld: %s\n", g->board, err);
		return bs == BOARDCOMMIT_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	*done = true;
	return PROCESS_OK;
}

enum process_status job_commit_removal(struct job *j, const struct reply_mail *mails, int n, bool *done)
{
	enum process_status ps;

	*done = false;
	j->comment = replytoken_comment(&j->cmd, j->in.body);
	if (j->comment == NULL)
		return job_no_memory(j);
	ps = commit_game(j, &j->game, true, mails, n, done);
	j->committed = ps == PROCESS_OK && *done;
	return ps;
}

