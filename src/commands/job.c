/*
 * job: what a mail command's handler may do with the mail it handles
 * (job.h), and the one commit protocol of outbox.h behind it.
 *
 * Every refusal is an error reply to the sender and changes nothing in the
 * store: all checks come before the first write.  A change is committed by
 * one write (the game file, the users file) made after its replies are safe
 * in outbox/tmp/, as outbox.h's protocol says; a register or password
 * confirmation uses an account batch the same way (tagged with the new
 * password hash, under accounts.lock), so it goes out if and only if the
 * account was written, also when the process dies in between: a copy of
 * the mail then finds the change made, and is dropped while the
 * confirmation left behind is released.  A temporary failure before that write
 * (lock timeout, disk full) leaves the store as it was and exits
 * EX_TEMPFAIL, so the MTA delivers the mail again; after it the mail is
 * handled (exit 0), and a redelivery is refused by the #turn guard or
 * found already done (an account).
 */
#include "commands/job.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/cleanup.h"
#include "commands/mailcmd.h"
#include "commands/robot.h"
#include "commands/web.h"
#include "game/gamefile.h"
#include "store/players.h"
#include "store/seen.h"
#include "store/throttle.h"

/* "until 2023-11-15T00:13:20Z, after 5 wrong passwords within an hour" for j->pwmsg. */
static void lockout_words(struct job *j, const struct throttle_state *ts, char *buf, size_t size)
{
	char stamp[GAMEFILE_TIME_SIZE];

	gamefile_time_str((int64_t)ts->until, stamp);
	snprintf(buf, size, "until %s, after %lu wrong password%s within an hour", stamp,
	    j->cfg.max_password_failures, j->cfg.max_password_failures == 1 ? "" : "s");
}

/* Set j->pwmsg to the refusal of a locked-out account. */
static void locked_out(struct job *j, const char *userid, const struct throttle_state *ts)
{
	char words[200];

	lockout_words(j, ts, words, sizeof words);
	snprintf(j->pwmsg, sizeof j->pwmsg, "password attempts for %s are refused %s: try again then", userid,
	    words);
}

/* Tell user's owner, once, that a lockout started (throttle.h); failing, only a note. */
static void tell_owner(struct job *j, const struct store_user *user, const struct throttle_state *ts)
{
	char stamp[GAMEFILE_TIME_SIZE];
	struct reply_mail m;

	gamefile_time_str((int64_t)ts->until, stamp);
	if (reply_lockout(&j->rc, user->address, user->fullname, user->userid, j->cfg.max_password_failures,
	    j->in.from_addr, stamp, &m) != REPLY_OK) {
		fprintf(stderr, "oustpbm: cannot make the lockout notice for %s: %s\n", user->userid, j->rc.err);
		return;
	}
	if (job_reply(j, &m) != PROCESS_OK)
		fprintf(stderr, "oustpbm: cannot queue the lockout notice for %s\n", user->userid);
	reply_mail_release(&m);
}

/*
 * Take the verdict right of a password check for user (throttle.h).  A
 * wrong password is recorded, and when it starts a lockout the owner is
 * told; a right one counts only if no lockout came into force while it was
 * checked (guesses sent at once are checked at once), and then marks an
 * outdated hash to be made again (rehash_password).  False: refuse the
 * command with j->pwmsg.
 */
bool job_password_verdict(struct job *j, const struct store_user *user, bool right)
{
	struct throttle_state ts;
	enum store_status ss;
	char words[200];

	if (right) {
		ss = throttle_check(j->st, &j->cfg, user->userid, j->now, &ts);
		if (ss == STORE_OK && ts.until != 0) {
			locked_out(j, user->userid, &ts);
			return false;
		}
		if (ss != STORE_OK)
			fprintf(stderr, "oustpbm: cannot read the password throttle: %s\n", store_error(j->st));
		if (!store_hash_current(j->st, user->hash)) {
			j->rehash = *user;
			j->rehash_due = true;
		}
		return true;
	}
	ss = throttle_fail(j->st, &j->cfg, user->userid, j->in.from_addr, j->now, &ts);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: cannot record a wrong password: %s\n", store_error(j->st));
		ts.until = 0;
	}
	if (ts.until != 0 && !ts.started) {
		locked_out(j, user->userid, &ts);	/* another attempt locked it meanwhile */
	} else if (ts.started) {
		lockout_words(j, &ts, words, sizeof words);
		snprintf(j->pwmsg, sizeof j->pwmsg, "wrong password for %s; password attempts for %s are now "
		    "refused %s", user->userid, user->userid, words);
		tell_owner(j, user, &ts);
	} else {
		snprintf(j->pwmsg, sizeof j->pwmsg, "wrong password for %s", user->userid);
	}
	return false;
}

/*
 * Settle a password check still running (do_play): PWCHECK_RIGHT when none
 * is pending or the password was taken; PWCHECK_WRONG when it was refused
 * (password_verdict), and then j->pwmsg says why; PWCHECK_FAILED when the
 * hash could not be computed.  who names the user.  Afterwards no check is
 * pending.
 */
static enum pwcheck_verdict password_settled(struct job *j, char who[IDENT_USERID_MAX + 1])
{
	enum pwcheck_verdict v;
	struct store_user user;

	if (!pwcheck_pending(&j->pw))
		return PWCHECK_RIGHT;
	v = pwcheck_result(&j->pw);
	user = j->pw.user;
	snprintf(who, IDENT_USERID_MAX + 1, "%s", user.userid);
	pwcheck_release(&j->pw);
	if (v == PWCHECK_FAILED)
		return v;
	return job_password_verdict(j, &user, v == PWCHECK_RIGHT) ? PWCHECK_RIGHT : PWCHECK_WRONG;
}

void job_detail(struct job *j, const char *outcome, const char *fmt, ...)
{
	va_list ap;

	j->outcome = outcome;
	va_start(ap, fmt);
	vsnprintf(j->detail, sizeof j->detail, fmt, ap);
	va_end(ap);
}

/* ---- failures of the machinery (not of the player) ---- */

enum process_status job_store_failure(struct job *j, enum store_status ss, const char *what)
{
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, store_error(j->st));
	fprintf(stderr, "oustpbm: %s: %s\n", what, store_error(j->st));
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status outbox_failure(struct job *j, enum outbox_status os, const char *what)
{
	const char *why = j->ob != NULL ? outbox_error(j->ob) : outbox_status_str(os);

	job_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "%s: %s", what, why);
	fprintf(stderr, "oustpbm: %s: %s\n", what, why);
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* A password hash that could not be computed: neither right nor wrong, so nothing is decided (75). */
enum process_status job_hash_failure(struct job *j, const char *userid)
{
	job_detail(j, "tempfail", "cannot check the password of %s: its hash could not be computed "
	    "(out of memory?)", userid);
	fprintf(stderr, "oustpbm: cannot check the password of %s: its hash could not be computed\n", userid);
	return PROCESS_TEMPFAIL;
}

enum process_status job_reply_failure(struct job *j, enum reply_status rs)
{
	job_detail(j, rs == REPLY_NOMEM ? "tempfail" : "error", "cannot make the reply: %s", j->rc.err);
	fprintf(stderr, "oustpbm: cannot make the reply: %s\n", j->rc.err);
	switch (rs) {
	case REPLY_NOMEM:
		return PROCESS_TEMPFAIL;
	case REPLY_TEMPLATE:
		return PROCESS_CONFIG;
	default:
		return PROCESS_SOFTWARE;
	}
}

enum process_status job_need_outbox(struct job *j)
{
	char err[OUTBOX_ERR_MAX];
	enum outbox_status os;

	if (j->ob != NULL)
		return PROCESS_OK;
	os = outbox_open(j->st, &j->ob, err, sizeof err);
	if (os != OUTBOX_OK) {
		job_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "cannot open the outbox: %s", err);
		fprintf(stderr, "oustpbm: cannot open the outbox: %s\n", err);
		return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

/* Queue one reply that changes nothing (board 0). */
enum process_status job_reply(struct job *j, const struct reply_mail *m)
{
	enum process_status ps;
	enum outbox_status os;

	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_enqueue(j->ob, j->cfg.from_address, m->rcpt, m->msg, m->len);
	if (os != OUTBOX_OK)
		return outbox_failure(j, os, "cannot queue the reply");
	j->queued = true;
	return PROCESS_OK;
}

/* ---- refusals: an error reply to the sender ---- */

const char *job_sender_name(struct job *j, const char *userid)
{
	store_user_display_name(j->st, j->in.from_addr, userid != NULL && userid[0] != '\0' ? userid : NULL,
	    j->to_name);
	return j->to_name;
}

/*
 * Refuse the command with message (plain words, quoting the culprit); g,
 * when not NULL, is the board it was about, shown in the reply; else the
 * board j->board is shown if it exists and can be read.
 */
enum process_status job_refuse(struct job *j, const struct game *g, const char *fmt, ...)
{
	char msg[JOB_MESSAGE_MAX];
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	va_list ap;

	struct game peek;
	bool peeked = false;
	char *text = NULL;
	size_t len;

	char who[IDENT_USERID_MAX + 1];
	enum pwcheck_verdict v;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	v = password_settled(j, who);
	if (v == PWCHECK_FAILED)
		return job_hash_failure(j, who);
	if (v == PWCHECK_WRONG) {
		/* a wrong password is the answer, whatever else is wrong with the command */
		snprintf(msg, sizeof msg, "%s", j->pwmsg);
		g = NULL;
	}
	if (g == NULL && j->board > 0 && store_board_read(j->st, j->board, &text, &len) == STORE_OK) {
		/* show the board the command was about, if it can be read */
		peeked = gamefile_parse(text, len, &peek, NULL) == GAMEFILE_OK;
		if (peeked && peek.board != j->board) {
			game_release(&peek);	/* another board's header: not shown as this one */
			peeked = false;
		}
		if (peeked)
			g = &peek;
	}
	free(text);
	rs = reply_error(&j->rc, j->in.from_addr, job_sender_name(j, j->cmd.userid), j->board, g,
	    j->masked != NULL ? j->masked : j->unread != NULL ? j->unread : "", msg, &m);
	if (peeked)
		game_release(&peek);
	if (rs != REPLY_OK)
		return job_reply_failure(j, rs);
	ps = job_reply(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		job_detail(j, "refused", "%s", msg);
	return ps;
}

/* ---- accounts ---- */

/*
 * Find userid's account, refusing an unknown user or a locked account:
 * PROCESS_OK with *found true and *user filled; or *found false after a
 * refusal was sent; or a failure.
 */
enum process_status job_find_account(struct job *j, const char *userid, struct store_user *user, bool *found)
{
	struct throttle_state ts;
	enum store_status ss;

	*found = false;
	ss = store_user_find(j->st, userid, user);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no user %s: register first with "
		    "register <userid> <password> [full name]", userid);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the users file");
	if (user->hash[0] != '$')
		return job_refuse(j, NULL, "the account %s is locked: ask the server's admin", user->userid);
	/* locked out for guessing (throttle.h): the password is not even checked */
	ss = throttle_check(j->st, &j->cfg, user->userid, j->now, &ts);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the password throttle");
	if (ts.until != 0) {
		pwcheck_release(&j->pw);
		locked_out(j, user->userid, &ts);
		return job_refuse(j, NULL, "%s", j->pwmsg);
	}
	*found = true;
	return PROCESS_OK;
}

/*
 * Check userid's password.  PROCESS_OK with *authorised true and *user
 * filled; or *authorised false after a refusal was sent; or a failure.
 */
enum process_status job_authenticate(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised)
{
	enum process_status ps = job_find_account(j, userid, user, authorised);
	bool right;

	if (ps != PROCESS_OK || !*authorised)
		return ps;
	if (store_user_check_password(user, password, &right) != STORE_OK) {
		*authorised = false;
		return job_hash_failure(j, user->userid);
	}
	if (!job_password_verdict(j, user, right)) {
		*authorised = false;
		return job_refuse(j, NULL, "%s", j->pwmsg);
	}
	return PROCESS_OK;
}

/*
 * job_authenticate(), but the password check runs on in j->pw while the caller
 * reads the board and prepares the change: *authorised true means only that
 * the user exists and is not locked.  The verdict is taken by job_refuse() and
 * by commit_game(), so a wrong password is still all the sender hears and
 * nothing is committed for it.
 */
enum process_status job_authenticate_async(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised)
{
	enum process_status ps = job_find_account(j, userid, user, authorised);

	if (ps != PROCESS_OK || !*authorised)
		return ps;
	/* started early (start_password) against this very hash: let it run */
	if (pwcheck_pending(&j->pw) && strcmp(j->pw.user.userid, user->userid) == 0 &&
	    strcmp(j->pw.user.hash, user->hash) == 0)
		return ps;
	pwcheck_release(&j->pw);
	pwcheck_start(&j->pw, user, password);
	return ps;
}

/*
 * The password check is the longest step of a move (pwcheck.h).  For a
 * board command it starts here, as soon as the mail is parsed, so that it
 * runs while the redelivery record is read as well as the board.  Nothing
 * is decided here: job_authenticate_async() reads the account again and keeps
 * this check only if it was made against the same hash.  A mail dropped
 * after all only waits for it at the end.
 */
void job_start_password(struct job *j)
{
	const struct command *c = &j->cmd;
	struct store_user u;

	if (j->cmd_status != COMMAND_OK || j->mc == NULL ||
	    (j->mc->needs & (MAILCMD_LOGIN | MAILCMD_LOCK)) != (MAILCMD_LOGIN | MAILCMD_LOCK))
		return;
	if (store_user_find(j->st, c->userid, &u) == STORE_OK && u.hash[0] == '$')
		pwcheck_start(&j->pw, &u, c->password);
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
	bool committed;
	int i;

	*out = NULL;
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_batch_new(j->ob, board, text, len, &b);
	for (i = 0; os == OUTBOX_OK && i < n; i++)
		os = outbox_batch_add(b, j->cfg.from_address, mails[i].rcpt, mails[i].msg, mails[i].len);
	if (os != OUTBOX_OK) {
		if (b != NULL)
			outbox_batch_abort(b, &committed);
		outbox_batch_free(b);
		return outbox_failure(j, os, n == 1 ? "cannot queue the reply" : "cannot queue the replies");
	}
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

	ss = store_lock_accounts(j->st, true, lock);
	if (ss == STORE_TIMEOUT) {
		job_detail(j, "tempfail", "the accounts are locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the accounts");
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_recover_accounts(j->ob, NULL);
	if (os != OUTBOX_OK)
		return outbox_failure(j, os, "cannot recover the outbox");
	return PROCESS_OK;
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
 * Commit an account change with its confirmation m, as a move is committed
 * (outbox.h): the confirmation staged, tagged with the new password hash;
 * the users file written (write(j, hash, expect), the commit point); the confirmation
 * released, or deleted if the write did not happen.  accounts.lock held.
 */
enum process_status job_commit_account(struct job *j, const char *userid, const char *hash,
    const char *expect, const struct reply_mail *m,
    enum store_status (*write)(struct job *, const char *, const char *), enum store_status *wrote)
{
	struct outbox_batch *b = NULL;
	enum outbox_status os;
	bool committed = false;

	*wrote = STORE_IO;
	os = outbox_batch_new_account(j->ob, userid, hash, &b);
	if (os == OUTBOX_OK)
		os = outbox_batch_add(b, j->cfg.from_address, m->rcpt, m->msg, m->len);
	if (os != OUTBOX_OK) {
		if (b != NULL)
			outbox_batch_abort(b, &committed);
		outbox_batch_free(b);
		return outbox_failure(j, os, "cannot queue the reply");
	}
	*wrote = write(j, hash, expect);
	/* what the write said, before the abort below reads the users file again */
	snprintf(j->account_err, sizeof j->account_err, "%s", store_error(j->st));
	if (*wrote != STORE_OK) {
		/* a write that reached its rename stands: then so does its confirmation */
		if (outbox_batch_abort(b, &committed) == OUTBOX_OK && committed)
			*wrote = STORE_OK;
	} else if (outbox_batch_commit(b) != OUTBOX_OK) {
		/* the account stands; its confirmation waits in tmp/ for the next recovery */
		fprintf(stderr, "oustpbm: cannot queue the confirmation: %s\n", outbox_error(j->ob));
	}
	if (*wrote == STORE_OK)
		j->queued = true;
	outbox_batch_free(b);
	return PROCESS_OK;
}

/* job_store_failure() with the message of the account write (commit_account), not a later call's. */
enum process_status job_account_failure(struct job *j, enum store_status ss, const char *what)
{
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, j->account_err);
	fprintf(stderr, "oustpbm: %s: %s\n", what, j->account_err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* Is password the account's?  False also when it cannot be told (then the check is not taken as a copy). */
bool job_password_is(const struct store_user *u, const char *password)
{
	bool right = false;

	return store_password_ok(password) && store_user_check_password(u, password, &right) == STORE_OK && right;
}

/* The mails to both players of g after ev; *n of them (a player missing from users gets none). */
static enum process_status game_mails(struct job *j, const struct game *g, const struct reply_event *ev,
    struct reply_mail mails[2], int *n)
{
	const char *names[2] = { g->black, g->white };
	struct reply_player p;
	struct store_user u;
	enum store_status ss;
	enum reply_status rs;
	int i;

	*n = 0;
	for (i = 0; i < 2; i++) {
		if (robot_is(names[i]))
			continue;	/* the robot player reads no mail (robot.h) */
		ss = store_user_find(j->st, names[i], &u);
		if (ss == STORE_NOT_FOUND)
			continue;	/* removed by the admin: nobody to tell */
		if (ss != STORE_OK)
			return job_store_failure(j, ss, "cannot read the users file");
		p.userid = u.userid;
		p.address = u.address;
		p.fullname = u.fullname;
		rs = reply_game(&j->rc, g, ev, &p, &mails[*n]);
		if (rs != REPLY_OK)
			return job_reply_failure(j, rs);
		(*n)++;
	}
	return PROCESS_OK;
}

/* ---- the redelivery record (seen.h) ---- */

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

	ss = seen_is_duplicate(j->st, j->in.message_key, j->in.from_addr, dup, &when);
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
static enum process_status need_seen_lock(struct job *j)
{
	enum store_status ss;

	if (j->seen_lock.fd >= 0)
		return PROCESS_OK;
	ss = seen_lock(j->st, j->cfg.lock_timeout_ms, &j->seen_lock);
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

	ps = need_seen_lock(j);
	if (ps != PROCESS_OK)
		return ps;
	ss = seen_record(j->st, j->in.message_key, j->in.from_addr, j->now, board, text, len);
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
	ss = seen_lock(j->st, j->cfg.lock_timeout_ms, &lock);
	if (ss == STORE_OK) {
		ss = seen_record(j->st, j->in.message_key, j->in.from_addr, j->now, 0, NULL, 0);
		store_unlock(&lock);
	}
	if (ss != STORE_OK) {
		/* the reply is queued: the mail is handled, a redelivery is answered again */
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (not recorded: %s)", store_error(j->st));
		fprintf(stderr, "oustpbm: cannot write the redelivery record: %s\n", store_error(j->st));
		return;
	}
	j->recorded = true;
}

/*
 * Commit g (its board lock held) with its mails, as outbox.h's protocol
 * says: replies into outbox/tmp/, the game file written, the replies
 * released.  PROCESS_OK with *done false: a password check still running
 * (authenticate_async) failed, nothing was committed and the refusal sent.
 */
static enum process_status commit_game(struct job *j, const struct game *g, const struct reply_mail *mails,
    int n, bool *done)
{
	struct outbox_batch *b = NULL;
	struct store_staged sf = { .live = false };
	enum store_status ss;
	enum process_status ps;
	char *text = NULL, who[IDENT_USERID_MAX + 1];
	enum pwcheck_verdict v;
	size_t len;
	bool committed = false;

	*done = false;
	if (gamefile_format(g, &text, &len) != GAMEFILE_OK) {
		job_detail(j, "tempfail", "out of memory writing board %ld", g->board);
		return PROCESS_TEMPFAIL;
	}
	/* the fsyncs of the replies, the record and the game are made together (store.h) */
	store_defer_begin(j->st);
	ps = stage_batch(j, g->board, text, len, mails, n, &b);
	if (ps != PROCESS_OK)
		goto out;
	ss = store_board_stage(j->st, g->board, text, len, &sf);
	if (ss == STORE_OK) {
		/* the mail is recorded pending this text, the seen lock held until it is written (seen.h) */
		ps = record_pending(j, g->board, text, len);
		if (ps != PROCESS_OK) {
			outbox_batch_abort(b, &committed);
			goto out;
		}
		/* what the commit needs on disk, written while the password check may still run */
		ss = store_sync(j->st);
		/* a new board: in both players' lists before its game file exists (players.h) */
		if (ss == STORE_OK && j->new_board)
			ss = players_add(j->st, j->cfg.lock_timeout_ms, g->board, g->black, g->white);
	}
	if (ss == STORE_OK && (v = password_settled(j, who)) != PWCHECK_RIGHT) {
		/* everything was only staged: drop it, void the record, and refuse (or try later) */
		store_discard(j->st, &sf);
		outbox_batch_abort(b, &committed);
		if (seen_void(j->st, j->in.message_key, j->in.from_addr, j->now, g->board) != STORE_OK)
			fprintf(stderr, "oustpbm: cannot write the redelivery record: %s\n", store_error(j->st));
		j->recorded = false;	/* the refusal is recorded as any other */
		ps = v == PWCHECK_FAILED ? job_hash_failure(j, who) : job_refuse(j, NULL, "%s", j->pwmsg);
		goto out;
	}
	if (ss == STORE_OK) {
		ss = store_install(j->st, &sf);
		/* the commit is durable before its replies are released */
		if (ss == STORE_OK)
			ss = store_defer_end(j->st);
	}
	if (ss != STORE_OK) {
		/* the write may have reached its rename: then the move stands */
		if (outbox_batch_abort(b, &committed) != OUTBOX_OK || !committed) {
			ps = job_store_failure(j, ss, "cannot write the game file");
			goto out;
		}
	} else if (outbox_batch_commit(b) != OUTBOX_OK) {
		/* the game stands; its replies wait in tmp/ for the next recovery */
		fprintf(stderr, "oustpbm: board %ld: cannot queue the replies: %s\n", g->board, outbox_error(j->ob));
	}
	j->queued = true;
	*done = true;
	ps = PROCESS_OK;
	web_after_commit(&j->cfg, j->st, g);
out:
	store_discard(j->st, &sf);
	store_defer_end(j->st);	/* nothing owed is kept: harmless if already ended */
	store_unlock(&j->seen_lock);
	outbox_batch_free(b);
	free(text);
	return ps;
}

/* "is a FIFO, not a regular file": store_error() after STORE_NOT_REGULAR, without the home's path. */
static const char *not_regular_why(const struct job *j)
{
	const char *is = strstr(store_error(j->st), " is ");

	return is != NULL ? is + 1 : "is not a regular file";
}

/*
 * A game file that cannot be used: the player is told it needs the admin
 * (why is what follows "games/<board>.game"), the log and stderr say why.
 */
static enum process_status unusable_board(struct job *j, long board, const char *why)
{
	enum process_status ps;

	fprintf(stderr, "oustpbm: games/%ld.game %s\n", board, why);
	ps = job_refuse(j, NULL, "board %ld cannot be read (games/%ld.game %s): the server's admin must repair it",
	    board, board, why);
	if (ps == PROCESS_OK)
		j->outcome = "error";
	return ps;
}

/*
 * Load board g for reading only, without its lock (game files are replaced
 * whole, never rewritten in place); *found false after a refusal was sent.
 */
enum process_status job_load_readonly(struct job *j, long board, bool *found)
{
	struct game *g = &j->game;
	struct gamefile_error gerr;
	enum store_status ss;
	char *text = NULL;
	size_t len;

	*found = false;
	ss = store_board_read(j->st, board, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "board %ld does not exist", board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the board");
	if (gamefile_parse(text, len, g, &gerr) != GAMEFILE_OK) {
		free(text);
		return unusable_board(j, board, gerr.msg);
	}
	free(text);
	/* another board's file under this name is never written back (gamefile.h) */
	if (!gamefile_named_for(g, board, &gerr)) {
		game_release(g);
		return unusable_board(j, board, gerr.msg);
	}
	j->game_loaded = true;
	*found = true;
	return PROCESS_OK;
}

/* Settle the outbox leftovers of a crashed run for board, its lock held (outbox.h). */
static enum process_status recover_board(struct job *j, long board)
{
	enum outbox_status os;
	enum process_status ps;

	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_recover(j->ob, board, NULL);
	if (os != OUTBOX_OK)
		return outbox_failure(j, os, "cannot recover the outbox");
	return PROCESS_OK;
}

/* Load board into j->game with its lock held; *found false after a refusal was sent. */
enum process_status job_load_locked(struct job *j, long board, bool *found)
{
	struct store_lock *lock = &j->board_lock;
	enum store_status ss;
	enum process_status ps;

	*found = false;
	ss = store_board_exists(j->st, board);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "board %ld does not exist", board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the board");
	ss = store_lock_board(j->st, board, lock);
	if (ss == STORE_TIMEOUT) {
		char who[IDENT_USERID_MAX + 1];
		enum pwcheck_verdict v = password_settled(j, who);

		if (v == PWCHECK_FAILED)
			return job_hash_failure(j, who);
		if (v == PWCHECK_WRONG)
			return job_refuse(j, NULL, "%s", j->pwmsg);
		job_detail(j, "tempfail", "board %ld is locked by another process: try again later", board);
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the board");
	/* settle what a crashed run left for this board before reading it */
	ps = recover_board(j, board);
	if (ps != PROCESS_OK)
		return ps;
	return job_load_readonly(j, board, found);
}

/*
 * The robot's answer, right after the mail's change to g was committed,
 * the board lock still held (robot.h): its turn is played and committed
 * with the one mail to its opponent, which tells both ev, the mail's
 * change, and the answer.  mails[0..n) are the mails of ev alone, made but
 * not queued: when the robot cannot play now (a fault of the AI, a failure
 * of the store) they go out instead, the log says why, and the turn is left
 * for `oustpbm robot` or `oustpbm cleanup`.  The mail was handled either
 * way.
 */
enum process_status job_robot_answer(struct job *j)
{
	struct game *g = &j->game;
	struct reply_event *ev = &j->ev;
	const struct reply_mail *mails = j->mails;
	int n = j->nmails;
	static struct robot_turn rt[ROBOT_TURNS_MAX];
	struct reply_mail both[2];
	enum robot_status rs, cs = ROBOT_OK;
	enum process_status ps = PROCESS_OK;
	char why[ROBOT_ERR_MAX], cwhy[ROBOT_ERR_MAX], detail[JOB_DETAIL_MAX];
	const char *outcome = j->outcome;
	int turn, nb = 0, nt, i;
	size_t dn;

	memset(both, 0, sizeof both);
	snprintf(detail, sizeof detail, "%s", j->detail);
	/* the robot plays again after a pass of the human's; a fault after the first stands alone */
	rs = robot_play_turns(g, &j->cfg, (int64_t)j->now, rt, ROBOT_TURNS_MAX, &nt, why, sizeof why);
	turn = g->rg.turn;
	if (nt > 0) {
		ev->then = &rt[0].ev;
		if (game_mails(j, g, ev, both, &nb) == PROCESS_OK) {
			cs = robot_commit(j->st, j->ob, &j->cfg, g, both, nb, cwhy, sizeof cwhy);
		} else {
			cs = ROBOT_ERROR;
			snprintf(cwhy, sizeof cwhy, "%s", j->detail);
		}
		ev->then = NULL;
	}
	/* the log line stays the mail's, with the robot's answer after it */
	j->outcome = outcome;
	snprintf(j->detail, sizeof j->detail, "%s", detail);
	for (i = 0; i < nt && cs == ROBOT_OK; i++) {
		dn = strlen(j->detail);
		snprintf(j->detail + dn, sizeof j->detail - dn, "; %s", rt[i].detail);
	}
	if (nt > 0 && cs != ROBOT_OK) {
		/* nothing of the robot's was committed: the human's mails alone */
		rs = cs;
		turn = rt[0].ev.first;
		snprintf(why, sizeof why, "%s", cwhy);
	}
	dn = strlen(j->detail);
	if (rs != ROBOT_OK) {
		snprintf(j->detail + dn, sizeof j->detail - dn, "; turn %d: the robot could not play (%s): left for "
		    "oustpbm robot", turn, why);
		fprintf(stderr, "oustpbm: board %ld: turn %d: the robot could not play: %s\n", g->board, turn, why);
		for (i = 0; i < n && ps == PROCESS_OK && (nt == 0 || cs != ROBOT_OK); i++)
			ps = job_reply(j, &mails[i]);
	}
	j->queued = true;
	for (i = 0; i < nb; i++)
		reply_mail_release(&both[i]);
	return ps;
}

void job_detail_add(struct job *j, const char *fmt, ...)
{
	size_t n = strlen(j->detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->detail + n, sizeof j->detail - n, fmt, ap);
	va_end(ap);
}

enum process_status job_no_memory(struct job *j)
{
	job_detail(j, "tempfail", "out of memory");
	return PROCESS_TEMPFAIL;
}

enum process_status job_find_user(struct job *j, const char *userid, struct store_user *user, bool *found)
{
	enum store_status ss;

	memset(user, 0, sizeof *user);
	*found = false;
	if (robot_is(userid)) {
		snprintf(user->userid, sizeof user->userid, "%s", ROBOT_USERID);	/* built in: no account line */
		*found = true;
		return PROCESS_OK;
	}
	ss = store_user_find(j->st, userid, user);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no user %s", userid);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the users file");
	*found = true;
	return PROCESS_OK;
}

enum process_status job_boards_of(struct job *j, const char *userid, struct game **games, size_t *n)
{
	struct game *ng;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, alloc = 0, i, len;
	char *text;

	*games = NULL;
	*n = 0;
	/* the player's boards from the index (players.h), not every board's header */
	ss = players_boards(j->st, j->cfg.lock_timeout_ms, userid, &boards, &nboards);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nboards; i++) {
		struct game g;

		if (store_board_read(j->st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, &g, NULL) == GAMEFILE_OK && g.board == boards[i] &&
		    (strcmp(g.black, userid) == 0 || strcmp(g.white, userid) == 0)) {
			if (*n == alloc) {
				alloc = alloc != 0 ? alloc * 2 : 16;
				ng = realloc(*games, alloc * sizeof **games);
				if (ng == NULL) {
					free(text);
					free(boards);
					free(*games);
					*games = NULL;
					*n = 0;
					return job_no_memory(j);
				}
				*games = ng;
			}
			(*games)[(*n)++] = g;
		}
		free(text);
	}
	free(boards);
	return PROCESS_OK;
}

enum process_status job_commit_game(struct job *j, bool *done)
{
	struct game *g = &j->game;
	enum process_status ps;

	*done = false;
	j->comment = command_comment(&j->cmd, j->in.body);
	if (j->comment == NULL)
		return job_no_memory(j);
	j->ev.comment = j->comment;
	g->remind = cleanup_remind_at(&j->cfg, g);	/* the next reminder counts from this turn */
	ps = game_mails(j, g, &j->ev, j->mails, &j->nmails);
	if (ps != PROCESS_OK)
		return ps;
	/* the robot to move next: the mover's one mail comes with its answer (job_robot_answer) */
	ps = commit_game(j, g, j->mails, robot_to_move(g) ? 0 : j->nmails, done);
	j->committed = ps == PROCESS_OK && *done;
	return ps;
}

enum process_status job_lock_new_board(struct job *j, long board)
{
	enum store_status ss;
	enum process_status ps;
	bool dup;

	ss = store_lock_board(j->st, board, &j->board_lock);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the new board");
	ps = recover_board(j, board);
	if (ps != PROCESS_OK)
		return ps;
	/* a copy of this mail being handled at the same time makes no second board */
	ps = need_seen_lock(j);
	if (ps != PROCESS_OK)
		return ps;
	return job_check_duplicate(j, &dup);
}

enum process_status job_lock_path(struct job *j, const char *path, const char *what, struct store_lock *lock)
{
	enum store_status ss;
	char msg[100];

	ss = store_lock_path(j->st, path, j->cfg.lock_timeout_ms, lock);
	if (ss == STORE_TIMEOUT) {
		job_detail(j, "tempfail", "the %s are locked by another process: try again later", what);
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK) {
		snprintf(msg, sizeof msg, "cannot lock the %s", what);
		return job_store_failure(j, ss, msg);
	}
	return PROCESS_OK;
}

void job_unlock(struct job *j)
{
	int i;

	store_unlock(&j->seen_lock);
	store_unlock(&j->board_lock);
	store_unlock(&j->accounts_lock);
	for (i = 0; i < 2; i++)
		reply_mail_release(&j->mails[i]);
	j->nmails = 0;
	free(j->comment);
	j->comment = NULL;
	game_release(&j->game);	/* also after a failed load: harmless on a zeroed game */
	j->game_loaded = false;
}
