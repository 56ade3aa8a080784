/*
 * process: the mail turn processor.  One run handles one mail:
 *
 *   config_load, store_open, mailin_read + mailin_parse  (no reply possible yet)
 *   automatic mail: logged and dropped (exit 0); unparsable or no sender: EX_DATAERR
 *   a mail loop, a copy of a mail already handled (seen.h) or a sender over
 *   max_mails_per_hour: logged and dropped (exit 0)
 *   command_parse, then one handler per command (a password checked
 *   against the throttle of throttle.h; a challenge within its limits)
 *   the replies queued in the outbox, then flushed to the transport
 *   one log line: time, Message-ID, sender, masked command, board, result
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
 * found already done (an account).  A challenge whose new board cannot be
 * written gives its board number back if no later one was handed out
 * meanwhile.
 */
#include "commands/process.h"

#include <ctype.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/config.h"
#include "commands/cleanup.h"
#include "commands/robot.h"
#include "commands/web.h"
#include "game/board.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "mail/command.h"
#include "mail/mailin.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/players.h"
#include "store/pwcheck.h"
#include "store/seen.h"
#include "store/store.h"
#include "store/throttle.h"

#define DETAIL_MAX 700		/* bytes of the result in the log line */
#define MESSAGE_MAX 400		/* bytes of an error message to a player */

/* One incoming mail being handled. */
struct job {
	const char *home;
	struct config cfg;
	struct store *st;	/* owned */
	struct outbox *ob;	/* owned, opened when first needed */
	struct mailin_message in;
	struct command cmd;
	enum command_status cmd_status;	/* of command_parse() into cmd, made once */
	struct reply_ctx rc;
	char *masked;		/* the command line with passwords masked, owned */
	const char *unread;	/* quoted instead of a command when the mail was not read */
	time_t now;
	long board;		/* the board concerned, for the log; 0 if none */
	const char *outcome;	/* first word of the log result: ok, refused, dropped... */
	char detail[DETAIL_MAX];
	bool queued;		/* replies wait in outbox/new/ */
	struct pwcheck pw;	/* a move's password check, running beside it */
	bool recorded;		/* in the redelivery record (seen.h) */
	bool settle;		/* a duplicate: flush what its first copy left */
	bool rate_notice;	/* the sender's first mail over max_mails_per_hour: told so, once */
	struct store_lock seen_lock;	/* seen.lock, while held */
	char account_err[STORE_ERR_MAX];	/* why an account write failed (commit_account) */
	bool new_board;		/* commit_game commits a new board (a challenge) */
	char pwmsg[MESSAGE_MAX];	/* why a password was refused (password_verdict) */
	struct store_user rehash;	/* an account whose hash is to be made at password_cost */
	bool rehash_due;
	char to_name[STORE_FULLNAME_MAX + 1];	/* sender_name()'s answer */
};

static enum process_status enqueue(struct job *j, const struct reply_mail *m);

/* "until 2023-11-15T00:13:20Z, after 5 wrong passwords within an hour" for j->pwmsg. */
static void lockout_words(struct job *j, const struct throttle_state *ts, char *buf, size_t size)
{
	char stamp[REPLY_TIME_SIZE];

	reply_time_str((int64_t)ts->until, stamp);
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
	char stamp[REPLY_TIME_SIZE];
	struct reply_mail m;

	reply_time_str((int64_t)ts->until, stamp);
	if (reply_lockout(&j->rc, user->address, user->fullname, user->userid, j->cfg.max_password_failures,
	    j->in.from_addr, stamp, &m) != REPLY_OK) {
		fprintf(stderr, "oustpbm: cannot make the lockout notice for %s: %s\n", user->userid, j->rc.err);
		return;
	}
	if (enqueue(j, &m) != PROCESS_OK)
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
static bool password_verdict(struct job *j, const struct store_user *user, bool right)
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
	return password_verdict(j, &user, v == PWCHECK_RIGHT) ? PWCHECK_RIGHT : PWCHECK_WRONG;
}

static void set_detail(struct job *j, const char *outcome, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_detail(struct job *j, const char *outcome, const char *fmt, ...)
{
	va_list ap;

	j->outcome = outcome;
	va_start(ap, fmt);
	vsnprintf(j->detail, sizeof j->detail, fmt, ap);
	va_end(ap);
}

/* ---- failures of the machinery (not of the player) ---- */

static enum process_status store_failure(struct job *j, enum store_status ss, const char *what)
{
	set_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, store_error(j->st));
	fprintf(stderr, "oustpbm: %s: %s\n", what, store_error(j->st));
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status outbox_failure(struct job *j, enum outbox_status os, const char *what)
{
	const char *why = j->ob != NULL ? outbox_error(j->ob) : outbox_status_str(os);

	set_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "%s: %s", what, why);
	fprintf(stderr, "oustpbm: %s: %s\n", what, why);
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* A password hash that could not be computed: neither right nor wrong, so nothing is decided (75). */
static enum process_status hash_failure(struct job *j, const char *userid)
{
	set_detail(j, "tempfail", "cannot check the password of %s: its hash could not be computed "
	    "(out of memory?)", userid);
	fprintf(stderr, "oustpbm: cannot check the password of %s: its hash could not be computed\n", userid);
	return PROCESS_TEMPFAIL;
}

static enum process_status reply_failure(struct job *j, enum reply_status rs)
{
	set_detail(j, rs == REPLY_NOMEM ? "tempfail" : "error", "cannot make the reply: %s", j->rc.err);
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

static enum process_status need_outbox(struct job *j)
{
	char err[OUTBOX_ERR_MAX];
	enum outbox_status os;

	if (j->ob != NULL)
		return PROCESS_OK;
	os = outbox_open(j->st, &j->ob, err, sizeof err);
	if (os != OUTBOX_OK) {
		set_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "cannot open the outbox: %s", err);
		fprintf(stderr, "oustpbm: cannot open the outbox: %s\n", err);
		return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

/* Queue one reply that changes nothing (board 0). */
static enum process_status enqueue(struct job *j, const struct reply_mail *m)
{
	enum process_status ps;
	enum outbox_status os;

	ps = need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_enqueue(j->ob, j->cfg.from_address, m->rcpt, m->msg, m->len);
	if (os != OUTBOX_OK)
		return outbox_failure(j, os, "cannot queue the reply");
	j->queued = true;
	return PROCESS_OK;
}

/* ---- refusals: an error reply to the sender ---- */

/*
 * The display name of a reply to the sender: the registered full name of
 * userid's account (NULL or "": none named) if it is the sender's, else of
 * the accounts at the sender's address; "" for an unknown sender.  The
 * name in the incoming From: is never used (store_user_display_name).
 */
static const char *sender_name(struct job *j, const char *userid)
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
static enum process_status refuse(struct job *j, const struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum process_status refuse(struct job *j, const struct game *g, const char *fmt, ...)
{
	char msg[MESSAGE_MAX];
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
		return hash_failure(j, who);
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
	rs = reply_error(&j->rc, j->in.from_addr, sender_name(j, j->cmd.userid), j->board, g,
	    j->masked != NULL ? j->masked : j->unread != NULL ? j->unread : "", msg, &m);
	if (peeked)
		game_release(&peek);
	if (rs != REPLY_OK)
		return reply_failure(j, rs);
	ps = enqueue(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		set_detail(j, "refused", "%s", msg);
	return ps;
}

/* ---- accounts ---- */

/*
 * Find userid's account, refusing an unknown user or a locked account:
 * PROCESS_OK with *found true and *user filled; or *found false after a
 * refusal was sent; or a failure.
 */
static enum process_status find_account(struct job *j, const char *userid, struct store_user *user, bool *found)
{
	struct throttle_state ts;
	enum store_status ss;

	*found = false;
	ss = store_user_find(j->st, userid, user);
	if (ss == STORE_NOT_FOUND)
		return refuse(j, NULL, "there is no user %s: register first with "
		    "register <userid> <password> [full name]", userid);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the users file");
	if (user->hash[0] != '$')
		return refuse(j, NULL, "the account %s is locked: ask the server's admin", user->userid);
	/* locked out for guessing (throttle.h): the password is not even checked */
	ss = throttle_check(j->st, &j->cfg, user->userid, j->now, &ts);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the password throttle");
	if (ts.until != 0) {
		pwcheck_release(&j->pw);
		locked_out(j, user->userid, &ts);
		return refuse(j, NULL, "%s", j->pwmsg);
	}
	*found = true;
	return PROCESS_OK;
}

/*
 * Check userid's password.  PROCESS_OK with *authorised true and *user
 * filled; or *authorised false after a refusal was sent; or a failure.
 */
static enum process_status authenticate(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised)
{
	enum process_status ps = find_account(j, userid, user, authorised);
	bool right;

	if (ps != PROCESS_OK || !*authorised)
		return ps;
	if (store_user_check_password(user, password, &right) != STORE_OK) {
		*authorised = false;
		return hash_failure(j, user->userid);
	}
	if (!password_verdict(j, user, right)) {
		*authorised = false;
		return refuse(j, NULL, "%s", j->pwmsg);
	}
	return PROCESS_OK;
}

/*
 * authenticate(), but the password check runs on in j->pw while the caller
 * reads the board and prepares the change: *authorised true means only that
 * the user exists and is not locked.  The verdict is taken by refuse() and
 * by commit_game(), so a wrong password is still all the sender hears and
 * nothing is committed for it.
 */
static enum process_status authenticate_async(struct job *j, const char *userid, const char *password,
    struct store_user *user, bool *authorised)
{
	enum process_status ps = find_account(j, userid, user, authorised);

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
 * is decided here: authenticate_async() reads the account again and keeps
 * this check only if it was made against the same hash.  A mail dropped
 * after all only waits for it at the end.
 */
static void start_password(struct job *j)
{
	const struct command *c = &j->cmd;
	struct store_user u;

	if (j->cmd_status != COMMAND_OK ||
	    (c->kind != COMMAND_MOVE && c->kind != COMMAND_SWAP && c->kind != COMMAND_RESIGN))
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
	ps = need_outbox(j);
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
static enum process_status lock_accounts(struct job *j, struct store_lock *lock)
{
	enum store_status ss;
	enum outbox_status os;
	enum process_status ps;

	ss = store_lock_accounts(j->st, true, lock);
	if (ss == STORE_TIMEOUT) {
		set_detail(j, "tempfail", "the accounts are locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot lock the accounts");
	ps = need_outbox(j);
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
 * Its confirmation, released by lock_accounts() if it was left behind, is
 * the one answer: the copy is dropped and the outbox flushed.
 */
static enum process_status account_copy(struct job *j, const char *what)
{
	j->settle = true;
	set_detail(j, "dropped", "%s: already done by a copy of this mail", what);
	return PROCESS_DROPPED;
}

/*
 * Commit an account change with its confirmation m, as a move is committed
 * (outbox.h): the confirmation staged, tagged with the new password hash;
 * the users file written (write(j, hash, expect), the commit point); the confirmation
 * released, or deleted if the write did not happen.  accounts.lock held.
 */
static enum process_status commit_account(struct job *j, const char *userid, const char *hash,
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

/* store_failure() with the message of the account write (commit_account), not a later call's. */
static enum process_status account_failure(struct job *j, enum store_status ss, const char *what)
{
	set_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, j->account_err);
	fprintf(stderr, "oustpbm: %s: %s\n", what, j->account_err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum store_status write_new_account(struct job *j, const char *hash, const char *expect)
{
	struct store_register_caps caps;

	caps.per_hour = j->cfg.max_registrations_per_hour;
	caps.per_domain = j->cfg.max_registrations_per_domain;
	caps.now = (int64_t)j->now;
	return store_user_register_hashed(j->st, j->cmd.userid, j->in.from_addr, hash, j->cmd.fullname, &caps);
}

/* over expect, the hash the old password was checked against */
static enum store_status write_new_password(struct job *j, const char *hash, const char *expect)
{
	return store_user_set_hash(j->st, j->cmd.userid, hash, expect);
}

/* Is password the account's?  False also when it cannot be told (then the check is not taken as a copy). */
static bool password_is(const struct store_user *u, const char *password)
{
	bool right = false;

	return store_password_ok(password) && store_user_check_password(u, password, &right) == STORE_OK && right;
}

static enum process_status do_register(struct job *j)
{
	struct command *c = &j->cmd;
	struct store_lock lock = STORE_LOCK_INIT;
	char hash[STORE_HASH_MAX + 1], id[IDENT_USERID_MAX + 1];
	struct store_user u;
	struct reply_mail m;
	enum reply_status rs;
	enum store_status ss, wrote;
	enum process_status ps;
	size_t i;
	const char *why;

	memset(&m, 0, sizeof m);
	if (!mailaddr_deliverable(j->in.from_addr, &why))
		return refuse(j, NULL, "your address %s %s, so the server cannot deliver the game's mail to it: "
		    "register from another address", j->in.from_addr, why);
	if (robot_is(c->userid))
		return refuse(j, NULL, "the user id %s is the server's robot player: choose another", c->userid);
	ps = lock_accounts(j, &lock);
	if (ps != PROCESS_OK)
		goto out;
	ss = store_user_find(j->st, c->userid, &u);
	if (ss == STORE_OK && strcasecmp(u.address, j->in.from_addr) == 0 && u.hash[0] == '$' &&
	    password_is(&u, c->password)) {
		ps = account_copy(j, "register");
		goto out;
	}
	if (ss == STORE_OK) {
		ps = refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
		goto out;
	}
	if (ss != STORE_NOT_FOUND) {
		ps = store_failure(j, ss, "cannot read the users file");
		goto out;
	}
	if (!store_password_ok(c->password)) {
		ps = refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	/* the account being made is bound to the sender's address: its name */
	rs = reply_registered(&j->rc, j->in.from_addr, c->fullname, c->userid, c->fullname,
	    j->in.from_addr, &m);
	if (rs != REPLY_OK) {
		ps = reply_failure(j, rs);
		goto out;
	}
	ss = store_password_hash(j->st, c->password, hash);
	if (ss != STORE_OK) {
		ps = store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	for (i = 0; c->userid[i] != '\0' && i < IDENT_USERID_MAX; i++)
		id[i] = (char)tolower((unsigned char)c->userid[i]);
	id[i] = '\0';
	/* the confirmation is queued if and only if the account is written */
	ps = commit_account(j, id, hash, NULL, &m, write_new_account, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_USER_EXISTS)
		ps = refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
	else if (wrote == STORE_LIMIT)
		ps = refuse(j, NULL, "no new account now: %s; try again in an hour", j->account_err);
	else if (wrote == STORE_TOO_BIG)
		ps = refuse(j, NULL, "the server takes no new accounts: its users file is full; "
		    "ask the server's admin");
	else if (wrote == STORE_BAD_NAME || wrote == STORE_BAD_ADDRESS)
		ps = refuse(j, NULL, "%s", j->account_err);
	else if (wrote != STORE_OK)
		ps = account_failure(j, wrote, "cannot add the user");
	else
		set_detail(j, "ok", "registered %s <%s>", c->userid, j->in.from_addr);
out:
	store_unlock(&lock);
	reply_mail_release(&m);
	return ps;
}

/*
 * Mail changes to accounts are made one at a time, under accounts.lock, so
 * a second change sees the first (its old password no longer right).  The
 * new hash is still written only over the hash the old password was checked
 * against (store_user_set_hash): an admin's lock or reset made meanwhile
 * stands, the account is read and the old password checked again.
 */
#define PASSWORD_TRIES 5

static enum process_status do_password(struct job *j)
{
	struct command *c = &j->cmd;
	struct store_lock lock = STORE_LOCK_INIT;
	char hash[STORE_HASH_MAX + 1];
	struct store_user u;
	struct reply_mail m;
	enum reply_status rs;
	enum store_status ss, wrote;
	enum process_status ps;
	bool ok, right;
	int tries = 0;

	memset(&m, 0, sizeof m);
	ps = lock_accounts(j, &lock);
	if (ps != PROCESS_OK)
		goto out;
again:
	ps = find_account(j, c->userid, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if (store_user_check_password(&u, c->password, &right) != STORE_OK) {
		ps = hash_failure(j, u.userid);
		goto out;
	}
	if (!right && password_is(&u, c->new_password)) {
		/* the new password already in place: this change was made by a copy of the mail */
		ps = account_copy(j, "password");
		goto out;
	}
	if (!password_verdict(j, &u, right)) {
		/* wrong, or the account's password locked out after too many wrong ones */
		ps = refuse(j, NULL, "%s", j->pwmsg);
		goto out;
	}
	if (!store_password_ok(c->new_password)) {
		ps = refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	reply_mail_release(&m);
	rs = reply_password(&j->rc, j->in.from_addr, sender_name(j, u.userid), u.userid, &m);
	if (rs != REPLY_OK) {
		ps = reply_failure(j, rs);
		goto out;
	}
	ss = store_password_hash(j->st, c->new_password, hash);
	if (ss != STORE_OK) {
		ps = store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	ps = commit_account(j, u.userid, hash, u.hash, &m, write_new_password, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_CHANGED && ++tries < PASSWORD_TRIES)
		goto again;	/* the admin locked or reset it meanwhile: read it and check again */
	if (wrote == STORE_CHANGED)
		wrote = STORE_TIMEOUT;	/* changed on every try: a busy account, try later */
	if (wrote != STORE_OK)
		ps = account_failure(j, wrote, "cannot change the password");
	else
		set_detail(j, "ok", "password of %s changed", u.userid);
out:
	store_unlock(&lock);
	reply_mail_release(&m);
	return ps;
}

/* ---- games ---- */

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
			return store_failure(j, ss, "cannot read the users file");
		p.userid = u.userid;
		p.address = u.address;
		p.fullname = u.fullname;
		rs = reply_game(&j->rc, g, ev, &p, &mails[*n]);
		if (rs != REPLY_OK)
			return reply_failure(j, rs);
		(*n)++;
	}
	return PROCESS_OK;
}

/* ---- the redelivery record (seen.h) ---- */

static enum process_status seen_failure(struct job *j, enum store_status ss, const char *what)
{
	store_unlock(&j->seen_lock);
	return store_failure(j, ss, what);
}

/*
 * Is this mail a copy of one already handled?  Then it is dropped (logged,
 * not answered).  For a board command the answer is final only under that
 * board's lock, so do_play and do_challenge ask again there.
 */
static enum process_status check_duplicate(struct job *j, bool *dup)
{
	enum store_status ss;
	char stamp[GAMEFILE_TIME_SIZE];
	time_t when;

	ss = seen_is_duplicate(j->st, j->in.message_key, j->in.from_addr, dup, &when);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the redelivery record");
	if (*dup) {
		/* the first copy may have died before its replies were sent: flush them */
		j->settle = true;
		gamefile_time_str((int64_t)when, stamp);
		set_detail(j, "dropped", "a copy of the mail handled at %s (same Message-ID)", stamp);
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
		set_detail(j, "tempfail", "the redelivery record is locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot lock the redelivery record");
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
static void record_handled(struct job *j)
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
 * Is id one the server made (reply.h, mailout.h)?  They end in the domain of
 * from_address and start "oust.<digits>." or "<digits>.<digits>.".
 */
static bool own_message_id(const char *id, const char *from_address)
{
	const char *at = strrchr(id, '@'), *our = strrchr(from_address, '@');
	const char *p = id;

	if (at == NULL || our == NULL || strcasecmp(at + 1, our + 1) != 0)
		return false;
	if (strncmp(p, "oust.", 5) == 0)
		p += 5;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isxdigit((unsigned char)*p))
		return false;
	while (isxdigit((unsigned char)*p))
		p++;
	return *p == '.' && p < at;
}

/*
 * A mail loop: our own replies come back (from our address, or carrying a
 * Message-ID we made) without the Auto-Submitted header mailin drops them
 * by.  Answering would start the loop again.
 */
/*
 * True if addr is the account the server runs as: its login name at
 * localhost, at this host's name or at the domain of from_address (the
 * From: of mail the account's own programs send, cron's or a vacation
 * program's, which must never be taken for a command).
 */
static bool own_account(const char *addr, const struct config *cfg)
{
	const char *at = strrchr(addr, '@'), *dom, *cfg_at = strrchr(cfg->from_address, '@');
	struct passwd *pw = getpwuid(geteuid());
	char host[256];
	size_t n;

	if (pw == NULL || pw->pw_name == NULL || at == NULL)
		return false;
	n = strlen(pw->pw_name);
	if ((size_t)(at - addr) != n || strncasecmp(addr, pw->pw_name, n) != 0)
		return false;
	dom = at + 1;
	if (strcasecmp(dom, "localhost") == 0 || (cfg_at != NULL && strcasecmp(dom, cfg_at + 1) == 0))
		return true;
	if (gethostname(host, sizeof host) != 0)
		return false;
	host[sizeof host - 1] = '\0';
	n = strcspn(host, ".");
	/* the host's name, short or fully qualified */
	return strcasecmp(dom, host) == 0 || (strncasecmp(dom, host, n) == 0 && (dom[n] == '.' || dom[n] == '\0'));
}

static enum process_status check_loop(struct job *j)
{
	if (strcasecmp(j->in.from_addr, j->cfg.from_address) == 0 ||
	    (j->cfg.envelope_from[0] != '\0' && strcasecmp(j->in.from_addr, j->cfg.envelope_from) == 0)) {
		set_detail(j, "dropped", "a mail loop: the sender is the server's own address");
		return PROCESS_DROPPED;
	}
	if (own_account(j->in.from_addr, &j->cfg)) {
		set_detail(j, "dropped", "automatic mail (the sender %s is the account the server runs as)",
		    j->in.from_addr);
		return PROCESS_DROPPED;
	}
	if (own_message_id(j->in.message_id, j->cfg.from_address)) {
		set_detail(j, "dropped", "a mail loop: the Message-ID is one of the server's own");
		return PROCESS_DROPPED;
	}
	return PROCESS_OK;
}

/*
 * Drop the mail if its sender had max_mails_per_hour mails answered in the
 * last hour, so the server cannot be used to flood an address.
 */
static enum process_status check_rate(struct job *j)
{
	enum store_status ss;
	unsigned long count;

	if (j->cfg.max_mails_per_hour == 0)
		return PROCESS_OK;
	ss = seen_count_sender(j->st, j->in.from_addr, j->now, &count);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the redelivery record");
	if (count > j->cfg.max_mails_per_hour) {
		set_detail(j, "dropped", "%s sent %lu mails in the last hour (max_mails_per_hour = %lu)",
		    j->in.from_addr, count, j->cfg.max_mails_per_hour);
		return PROCESS_DROPPED;
	}
	/*
	 * The first mail over the limit gets one reply saying so instead of
	 * its answer; recorded like an answered mail, it takes the count past
	 * the limit, so the later ones are dropped without a word.
	 */
	if (count == j->cfg.max_mails_per_hour)
		j->rate_notice = true;
	return PROCESS_OK;
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
		set_detail(j, "tempfail", "out of memory writing board %ld", g->board);
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
		ps = v == PWCHECK_FAILED ? hash_failure(j, who) : refuse(j, NULL, "%s", j->pwmsg);
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
			ps = store_failure(j, ss, "cannot write the game file");
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
	ps = refuse(j, NULL, "board %ld cannot be read (games/%ld.game %s): the server's admin must repair it",
	    board, board, why);
	if (ps == PROCESS_OK)
		j->outcome = "error";
	return ps;
}

/*
 * Load board g for reading only, without its lock (game files are replaced
 * whole, never rewritten in place); *found false after a refusal was sent.
 */
static enum process_status load_readonly(struct job *j, long board, struct game *g, bool *found)
{
	struct gamefile_error gerr;
	enum store_status ss;
	char *text = NULL;
	size_t len;

	*found = false;
	ss = store_board_read(j->st, board, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return refuse(j, NULL, "board %ld does not exist", board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the board");
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
	*found = true;
	return PROCESS_OK;
}

/* Load board g with its lock held; *found false after a refusal was sent. */
static enum process_status load_locked(struct job *j, long board, struct store_lock *lock, struct game *g,
    bool *found)
{
	enum store_status ss;
	enum outbox_status os;
	enum process_status ps;

	*found = false;
	ss = store_board_exists(j->st, board);
	if (ss == STORE_NOT_FOUND)
		return refuse(j, NULL, "board %ld does not exist", board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot read the board");
	ss = store_lock_board(j->st, board, lock);
	if (ss == STORE_TIMEOUT) {
		char who[IDENT_USERID_MAX + 1];
		enum pwcheck_verdict v = password_settled(j, who);

		if (v == PWCHECK_FAILED)
			return hash_failure(j, who);
		if (v == PWCHECK_WRONG)
			return refuse(j, NULL, "%s", j->pwmsg);
		set_detail(j, "tempfail", "board %ld is locked by another process: try again later", board);
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot lock the board");
	ps = need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	/* settle what a crashed run left for this board before reading it */
	os = outbox_recover(j->ob, board, NULL);
	if (os != OUTBOX_OK)
		return outbox_failure(j, os, "cannot recover the outbox");
	return load_readonly(j, board, g, found);
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
static enum process_status robot_answer(struct job *j, struct game *g, struct reply_event *ev,
    const struct reply_mail *mails, int n)
{
	static struct robot_turn rt[ROBOT_TURNS_MAX];
	struct reply_mail both[2];
	enum robot_status rs, cs = ROBOT_OK;
	enum process_status ps = PROCESS_OK;
	char why[ROBOT_ERR_MAX], cwhy[ROBOT_ERR_MAX], detail[DETAIL_MAX];
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
			ps = enqueue(j, &mails[i]);
	}
	j->queued = true;
	for (i = 0; i < nb; i++)
		reply_mail_release(&both[i]);
	return ps;
}

static unsigned mix(unsigned long long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (unsigned)x;
}

#define CHALLENGE_LOCK_FILE "challenge.lock"

/*
 * Has the opponent of a board not played on it yet?  Before the second
 * turn the header's colours are the first ones (a swap is the second
 * turn at the earliest), and passes cannot come that early.
 */
static bool unanswered(const struct game *g, const char *opponent)
{
	return g->rg.turn == 1 || (g->rg.turn == 2 && strcmp(g->white, opponent) == 0);
}

/*
 * The limits on challenges (issue: anyone can send one, and each mails the
 * opponent and makes a board): max_challenges_per_hour of the challenger's
 * account; max_open_boards of either player; max_open_challenges, boards
 * still playing between the two on which the opponent has not played.
 * Called under CHALLENGE_LOCK_FILE, held until the new board is committed
 * and recorded, so two challenges at once are counted one after the other.
 * *ok false after a refusal was sent.
 */
static enum process_status challenge_limits(struct job *j, const char *userid, const char *opponent, bool *ok)
{
	bool robot = robot_is(opponent);	/* plays every board it is given, and answers at once */
	const struct config *cfg = &j->cfg;
	unsigned long made, open_u = 0, open_o = 0, pending = 0;
	char list[120];
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, i, len, used = 0;
	char *text;

	*ok = false;
	list[0] = '\0';
	if (cfg->max_challenges_per_hour != 0) {
		ss = throttle_challenges(j->st, userid, j->now, &made);
		if (ss != STORE_OK)
			return store_failure(j, ss, "cannot read the record of challenges");
		if (made >= cfg->max_challenges_per_hour)
			return refuse(j, NULL, "%s made %lu challenges in the last hour (max_challenges_per_hour = %lu): "
			    "challenge again later", userid, made, cfg->max_challenges_per_hour);
	}
	if (cfg->max_open_boards == 0 && cfg->max_open_challenges == 0) {
		*ok = true;
		return PROCESS_OK;
	}
	ss = store_list_boards(j->st, &boards, &nboards);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nboards; i++) {
		struct game g;
		bool has_u, has_o;

		if (store_board_read(j->st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not counted */
		if (gamefile_parse_header(text, len, &g, NULL) == GAMEFILE_OK && !game_over(&g)) {
			has_u = strcmp(g.black, userid) == 0 || strcmp(g.white, userid) == 0;
			has_o = strcmp(g.black, opponent) == 0 || strcmp(g.white, opponent) == 0;
			open_u += has_u;
			open_o += has_o;
			if (has_u && has_o && unanswered(&g, opponent)) {
				pending++;
				if (used + 16 < sizeof list)
					used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld",
					    used > 0 ? ", " : "", g.board);
			}
		}
		free(text);
	}
	free(boards);
	if (cfg->max_open_challenges != 0 && pending >= cfg->max_open_challenges)
		return refuse(j, NULL, "%s has not played yet on %lu board%s with %s (%s; max_open_challenges = %lu): "
		    "no new challenge until %s plays on one", opponent, pending, pending == 1 ? "" : "s", userid,
		    list, cfg->max_open_challenges, opponent);
	if (cfg->max_open_boards != 0 && open_u >= cfg->max_open_boards)
		return refuse(j, NULL, "%s is playing on %lu boards already (max_open_boards = %lu): finish or "
		    "resign one before a new challenge", userid, open_u, cfg->max_open_boards);
	if (cfg->max_open_boards != 0 && open_o >= cfg->max_open_boards && !robot)
		return refuse(j, NULL, "%s is playing on %lu boards already (max_open_boards = %lu): challenge %s "
		    "when one is over", opponent, open_o, cfg->max_open_boards, opponent);
	*ok = true;
	return PROCESS_OK;
}

static enum process_status do_challenge(struct job *j)
{
	struct command *c = &j->cmd;
	struct store_lock lock = STORE_LOCK_INIT, limits = STORE_LOCK_INIT;
	struct reply_mail mails[2];
	struct reply_event ev;
	struct store_user u, opp;
	enum store_status ss;
	enum outbox_status os;
	enum process_status ps;
	struct game g;
	const char *black, *white, *at;
	char *comment = NULL, dims[GAME_DIMENSIONS_SIZE];
	bool ok, challenger_black, made = false;
	long board = 0;
	int n = 0, i;

	memset(mails, 0, sizeof mails);
	memset(&g, 0, sizeof g);
	ps = authenticate(j, c->userid, c->password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	if (robot_is(c->opponent)) {
		/* a hex side (3 to 10: 271 cells at most) is always within the robot's reach */
		if (!c->hex && (c->size < ROBOT_SIZE_MIN || c->size > ROBOT_SIZE_MAX))
			return refuse(j, NULL, "%s plays boards from %dx%d to %dx%d, not %dx%d: choose another -size",
			    ROBOT_USERID, ROBOT_SIZE_MIN, ROBOT_SIZE_MIN, ROBOT_SIZE_MAX, ROBOT_SIZE_MAX, c->size,
			    c->size);
		memset(&opp, 0, sizeof opp);
		snprintf(opp.userid, sizeof opp.userid, "%s", ROBOT_USERID);
	} else if (c->level != 0) {
		return refuse(j, NULL, "-level=%d is for a challenge to %s, the robot player; %s is a person",
		    c->level, ROBOT_USERID, c->opponent);
	} else {
		ss = store_user_find(j->st, c->opponent, &opp);
		if (ss == STORE_NOT_FOUND)
			return refuse(j, NULL, "there is no user %s: %s must register before playing", c->opponent,
			    c->opponent);
		if (ss != STORE_OK)
			return store_failure(j, ss, "cannot read the users file");
	}
	ss = store_lock_path(j->st, CHALLENGE_LOCK_FILE, j->cfg.lock_timeout_ms, &limits);
	if (ss == STORE_TIMEOUT) {
		set_detail(j, "tempfail", "the challenges are locked by another process: try again later");
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot lock the challenges");
	ps = challenge_limits(j, u.userid, opp.userid, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	ss = store_next_board_id(j->st, &board);
	if (ss == STORE_FULL) {
		ps = refuse(j, NULL, "no board number is left: ask the server's admin");
		goto out;
	}
	if (ss != STORE_OK) {
		ps = store_failure(j, ss, "cannot number the new board");
		goto out;
	}
	j->board = board;
	switch (c->color) {
	case COMMAND_COLOR_WHITE:
		challenger_black = false;
		break;
	case COMMAND_COLOR_RANDOM:
		/* deterministic for a given board and time, so tests can repeat it */
		challenger_black = (mix((unsigned long long)board << 32 ^ (unsigned long long)j->now) & 1) == 0;
		break;
	default:
		challenger_black = true;
		break;
	}
	black = challenger_black ? u.userid : opp.userid;
	white = challenger_black ? opp.userid : u.userid;
	ss = store_lock_board(j->st, board, &lock);
	if (ss != STORE_OK) {
		ps = store_failure(j, ss, "cannot lock the new board");
		goto out;
	}
	ps = need_outbox(j);
	if (ps != PROCESS_OK)
		goto out;
	os = outbox_recover(j->ob, board, NULL);
	if (os != OUTBOX_OK) {
		ps = outbox_failure(j, os, "cannot recover the outbox");
		goto out;
	}
	/* a copy of this challenge being handled at the same time makes no second board */
	ps = need_seen_lock(j);
	if (ps != PROCESS_OK)
		goto out;
	ps = check_duplicate(j, &ok);
	if (ps != PROCESS_OK)
		goto out;
	game_init_shape(&g, board, c->hex ? RULES_HEX : RULES_SQUARE, c->size, !c->noswap, black, white,
	    (int64_t)j->now);
	if (robot_is(opp.userid))
		g.robot_level = c->level != 0 ? c->level : robot_level(&g);	/* kept for the whole game */
	at = strrchr(j->cfg.from_address, '@');
	snprintf(g.thread, sizeof g.thread, "<board-%ld.%lld@%s>", board, (long long)j->now,
	    at != NULL ? at + 1 : "localhost");
	comment = command_comment(c, j->in.body);
	if (comment == NULL) {
		set_detail(j, "tempfail", "out of memory");
		ps = PROCESS_TEMPFAIL;
		goto out;
	}
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_CHALLENGE;
	ev.actor = u.userid;
	ev.random = c->color == COMMAND_COLOR_RANDOM;
	ev.comment = comment;
	g.remind = cleanup_remind_at(&j->cfg, &g);
	j->new_board = true;	/* commit_game indexes it (players.h) */
	ps = game_mails(j, &g, &ev, mails, &n);
	if (ps != PROCESS_OK)
		goto out;
	/* the robot as Black answers at once: the challenger's one mail tells both (robot_answer) */
	ps = commit_game(j, &g, mails, robot_to_move(&g) ? 0 : n, &ok);
	if (ps == PROCESS_OK && ok) {
		made = true;
		set_detail(j, "ok", "new board %ld: %s (x) - %s (o), %s, swap %s", board, g.black, g.white,
		    game_dimensions(&g, false, dims), g.swap ? "on" : "off");
		if (g.robot_level != 0) {
			size_t dn = strlen(j->detail);

			snprintf(j->detail + dn, sizeof j->detail - dn, ", robot level %d", g.robot_level);
		}
		/* counted for max_challenges_per_hour; failing, only this one is not */
		if (throttle_challenge_made(j->st, &j->cfg, u.userid, board, j->now) != STORE_OK)
			fprintf(stderr, "oustpbm: cannot record the challenge of board %ld: %s\n", board,
			    store_error(j->st));
		store_unlock(&limits);	/* counted: other challenges need not wait for the robot's think */
		if (robot_to_move(&g))
			ps = robot_answer(j, &g, &ev, mails, n);
	}
out:
	store_unlock(&j->seen_lock);
	store_unlock(&lock);
	if (!made && board != 0)
		store_release_board_id(j->st, board);	/* the next challenge gets it */
	store_unlock(&limits);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	free(comment);
	game_release(&g);
	return ps;
}

/* Why a turn was refused, in plain words. */
static void turn_error(const struct game *g, const struct command *c, const struct rules_turn_report *rep,
    char *buf, size_t size)
{
	const char *name = c->placements[rep->index].name;

	switch (rep->status) {
	case RULES_TURN_ILLEGAL:
		switch (rep->check.verdict) {
		case RULES_OCCUPIED:
			snprintf(buf, size, "%s is occupied", name);
			break;
		case RULES_NO_ENEMY:
			snprintf(buf, size, "%s would join your stones into a group of %d that touches no enemy "
			    "stone: a placement next to your own stones must capture", name, rep->check.new_group);
			break;
		case RULES_NOT_LARGER:
			snprintf(buf, size, "%s would make a group of %d, not larger than the enemy group of %d "
			    "it touches: a capturing group must be larger than every enemy group it touches",
			    name, rep->check.new_group, rep->check.largest_enemy);
			break;
		case RULES_OFFBOARD_POINT:
			snprintf(buf, size, "%s is not on the %dx%d board", name, g->size, g->size);
			break;
		default:
			snprintf(buf, size, "%s: %s", name, rules_verdict_str(rep->check.verdict));
			break;
		}
		break;
	case RULES_TURN_TOO_SHORT:
		snprintf(buf, size, "after capturing at %s you must place again: a placement is still "
		    "available, so the turn is not over", name);
		break;
	case RULES_TURN_TOO_LONG:
		snprintf(buf, size, "%s comes after your turn ended with %s: only a capture lets you place again",
		    name, c->placements[rep->index - 1].name);
		break;
	case RULES_TURN_EMPTY:
		snprintf(buf, size, "no placement given");
		break;
	case RULES_TURN_OK:
		snprintf(buf, size, "the turn is legal");
		break;
	}
}

/* move, swap and resign: a change to an existing board by one of its players. */
static enum process_status do_play(struct job *j)
{
	struct command *c = &j->cmd;
	struct store_lock lock = STORE_LOCK_INIT;
	struct rules_turn_report rep;
	struct reply_mail mails[2];
	struct reply_event ev;
	struct store_user u;
	enum process_status ps;
	enum game_status gs;
	struct game g;
	char msg[MESSAGE_MAX], *comment = NULL;
	int points[COMMAND_PLACEMENTS_MAX], n = 0, i, turn;
	bool ok;

	memset(mails, 0, sizeof mails);
	memset(&g, 0, sizeof g);
	memset(&ev, 0, sizeof ev);
	memset(&rep, 0, sizeof rep);
	j->board = c->board;
	ps = authenticate_async(j, c->userid, c->password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	ps = load_locked(j, c->board, &lock, &g, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	/* under the board lock: a copy handled meanwhile is seen here */
	ps = check_duplicate(j, &ok);
	if (ps != PROCESS_OK)
		goto out;
	if (game_over(&g)) {
		char result[200];

		snprintf(result, sizeof result, "%s", g.rg.result == RULES_DRAW ? "drawn" : "won by ");
		if (g.rg.result != RULES_DRAW)
			snprintf(result + strlen(result), sizeof result - strlen(result), "%s",
			    g.rg.result == RULES_BLACK_WINS ? g.black : g.white);
		ps = refuse(j, &g, "board %ld is over (%s)", g.board, result);
		goto out;
	}
	if (game_color_of(&g, u.userid) == RULES_EMPTY) {
		ps = refuse(j, &g, "%s is not playing on board %ld", u.userid, g.board);
		goto out;
	}
	turn = g.rg.turn;
	if (c->turn != 0 && c->turn != turn) {
		ps = refuse(j, &g, "turn #%d was expected, #%d received", turn, c->turn);
		goto out;
	}
	switch (c->kind) {
	case COMMAND_MOVE:
		if (strcmp(game_player_to_move(&g), u.userid) != 0) {
			if (robot_to_move(&g))
				ps = refuse(j, &g, "it is %s's turn, and %s plays its turns itself: its answer comes by "
				    "mail, you cannot move for it", ROBOT_USERID, ROBOT_USERID);
			else
				ps = refuse(j, &g, "%s", game_status_message(&g, GAME_NOT_YOUR_TURN, u.userid, NULL,
				    NULL, msg, sizeof msg));
			goto out;
		}
		for (i = 0; i < (int)c->nplacements; i++) {
			struct command_placement *pl = &c->placements[i];

			points[i] = rules_parse_point(&g.rg.board, pl->name, (int)strlen(pl->name));
			if (points[i] == RULES_NO_POINT) {
				rules_offboard_why(&g.rg.board, pl->name, (int)strlen(pl->name), msg, sizeof msg);
				ps = refuse(j, &g, "%s", msg);
				goto out;
			}
			/* From here on, the name as the board writes it ("g13" on hex boards). */
			rules_point_name(&g.rg.board, points[i], pl->name);
		}
		gs = game_move(&g, u.userid, points, (int)c->nplacements, (int64_t)j->now, &rep);
		if (gs == GAME_ILLEGAL_TURN)
			turn_error(&g, c, &rep, msg, sizeof msg);
		ev.what = REPLY_MOVE;
		ev.captured = rep.captured;
		ev.dead_end = rep.dead_end;
		break;
	case COMMAND_SWAP:
		gs = game_swap(&g, u.userid, (int64_t)j->now);
		if ((gs == GAME_SWAP_NOT_NOW || gs == GAME_NOT_YOUR_TURN) && g.swap && robot_is(g.white) &&
		    game_color_of(&g, u.userid) == RULES_BLACK) {
			/* the robot's opponent as Black: the pie rule is the robot's */
			snprintf(msg, sizeof msg, "the swap is White's to make, and %s plays White: it decides the pie "
			    "rule itself, right after your first turn", ROBOT_USERID);
			gs = GAME_SWAP_NOT_NOW;
		} else if (gs == GAME_SWAP_NOT_NOW) {
			snprintf(msg, sizeof msg, "swap is only allowed as White's first turn, right after "
			    "Black's first turn (this is turn %d)", turn);
		}
		ev.what = REPLY_SWAP;
		break;
	default:
		gs = game_resign(&g, u.userid, (int64_t)j->now);
		ev.what = REPLY_RESIGN;
		break;
	}
	if (gs != GAME_OK) {
		if (gs == GAME_NO_MEMORY) {
			set_detail(j, "tempfail", "out of memory");
			ps = PROCESS_TEMPFAIL;
			goto out;
		}
		if (gs != GAME_ILLEGAL_TURN && gs != GAME_SWAP_NOT_NOW)
			game_status_message(&g, gs, u.userid, NULL, NULL, msg, sizeof msg);
		ps = refuse(j, &g, "%s", msg);
		goto out;
	}
	comment = command_comment(c, j->in.body);
	if (comment == NULL) {
		set_detail(j, "tempfail", "out of memory");
		ps = PROCESS_TEMPFAIL;
		goto out;
	}
	ev.actor = u.userid;
	ev.first = turn;
	ev.comment = comment;
	g.remind = cleanup_remind_at(&j->cfg, &g);	/* the next reminder counts from this turn */
	ps = game_mails(j, &g, &ev, mails, &n);
	if (ps != PROCESS_OK)
		goto out;
	/* the robot to move next: the mover's one mail comes with its answer (robot_answer) */
	ps = commit_game(j, &g, mails, robot_to_move(&g) ? 0 : n, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if (c->kind == COMMAND_MOVE) {
		char *p = msg;
		size_t left = sizeof msg;

		for (i = 0; i < (int)c->nplacements && left > 8; i++) {
			int w = snprintf(p, left, "%s%s", i > 0 ? "," : "", c->placements[i].name);

			p += w;
			left -= (size_t)w;
		}
		set_detail(j, "ok", "turn %d: %s played %s", turn, u.userid, msg);
		if (rep.captured > 0) {
			size_t dn = strlen(j->detail);

			snprintf(j->detail + dn, sizeof j->detail - dn, ", capturing %d", rep.captured);
		}
	} else {
		set_detail(j, "ok", "turn %d: %s %s", turn, u.userid, c->kind == COMMAND_SWAP ? "swapped" : "resigned");
	}
	if (game_over(&g)) {
		char *d = j->detail + strlen(j->detail);

		snprintf(d, sizeof j->detail - (size_t)(d - j->detail), "; the game is over: %s",
		    g.rg.result == RULES_DRAW ? "drawn" : g.rg.result == RULES_BLACK_WINS ? "black won" : "white won");
	}
	if (robot_to_move(&g))
		ps = robot_answer(j, &g, &ev, mails, n);
out:
	store_unlock(&lock);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	free(comment);
	game_release(&g);
	return ps;
}

static enum process_status do_show(struct job *j)
{
	char drawing[BOARD_TEXT_MAX];
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	enum game_status gs;
	struct game g;
	struct game_replay r;
	bool found;

	memset(&g, 0, sizeof g);
	j->board = j->cmd.board;
	ps = load_readonly(j, j->cmd.board, &g, &found);
	if (ps != PROCESS_OK || !found)
		goto out;
	if (j->cmd.turn > g.nturns) {
		ps = refuse(j, &g, "board %ld has no turn #%d yet: %d turn%s played so far", g.board, j->cmd.turn,
		    g.nturns, g.nturns == 1 ? "" : "s");
		goto out;
	}
	if (j->cmd.turn > 0) {
		gs = board_render_turn(&g, j->cmd.turn, drawing);
		if (gs != GAME_OK) {
			game_replay(&g, j->cmd.turn, &r);
			ps = refuse(j, &g, "the history of board %ld cannot be replayed (%s)", g.board,
			    gs == GAME_BAD_HISTORY ? r.why : game_status_str(gs));
			goto out;
		}
	}
	rs = reply_show(&j->rc, j->in.from_addr, sender_name(j, NULL), &g, j->cmd.turn,
	    j->cmd.turn > 0 ? drawing : NULL, &m);
	if (rs != REPLY_OK) {
		ps = reply_failure(j, rs);
		goto out;
	}
	ps = enqueue(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK && j->cmd.turn > 0)
		set_detail(j, "ok", "shown after turn %d", j->cmd.turn);
	else if (ps == PROCESS_OK)
		set_detail(j, "ok", "shown");
out:
	game_release(&g);
	return ps;
}

static enum process_status do_history(struct job *j)
{
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	struct game g;
	bool found;

	memset(&g, 0, sizeof g);
	j->board = j->cmd.board;
	ps = load_readonly(j, j->cmd.board, &g, &found);
	if (ps != PROCESS_OK || !found)
		goto out;
	rs = reply_history(&j->rc, j->in.from_addr, sender_name(j, NULL), &g, &m);
	if (rs != REPLY_OK) {
		ps = reply_failure(j, rs);
		goto out;
	}
	ps = enqueue(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		set_detail(j, "ok", "history of %d turns", g.nturns);
out:
	game_release(&g);
	return ps;
}

static enum process_status do_games(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct game *games = NULL, *ng;
	enum store_status ss;
	enum reply_status rs;
	enum process_status ps;
	long *boards = NULL;
	size_t nboards = 0, n = 0, alloc = 0, i, len;
	char *text;

	memset(&u, 0, sizeof u);
	ss = STORE_OK;
	if (robot_is(j->cmd.userid))
		snprintf(u.userid, sizeof u.userid, "%s", ROBOT_USERID);	/* built in: no account line */
	else
		ss = store_user_find(j->st, j->cmd.userid, &u);
	if (!robot_is(j->cmd.userid) && ss == STORE_NOT_FOUND)
		return refuse(j, NULL, "there is no user %s", j->cmd.userid);
	if (!robot_is(j->cmd.userid) && ss != STORE_OK)
		return store_failure(j, ss, "cannot read the users file");
	/* the player's boards from the index (players.h), not every board's header */
	ss = players_boards(j->st, j->cfg.lock_timeout_ms, u.userid, &boards, &nboards);
	if (ss != STORE_OK)
		return store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nboards; i++) {
		struct game g;

		if (store_board_read(j->st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, &g, NULL) == GAMEFILE_OK && g.board == boards[i] &&
		    (strcmp(g.black, u.userid) == 0 || strcmp(g.white, u.userid) == 0)) {
			if (n == alloc) {
				alloc = alloc != 0 ? alloc * 2 : 16;
				ng = realloc(games, alloc * sizeof *games);
				if (ng == NULL) {
					free(text);
					set_detail(j, "tempfail", "out of memory");
					ps = PROCESS_TEMPFAIL;
					goto out;
				}
				games = ng;
			}
			games[n++] = g;
		}
		free(text);
	}
	rs = reply_games(&j->rc, j->in.from_addr, sender_name(j, u.userid), u.userid,
	    u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0, games, n, &m);
	if (rs != REPLY_OK) {
		ps = reply_failure(j, rs);
		goto out;
	}
	ps = enqueue(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		set_detail(j, "ok", "%zu board%s of %s", n, n == 1 ? "" : "s", u.userid);
out:
	free(games);
	free(boards);
	return ps;
}

static enum process_status do_help(struct job *j)
{
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;

	rs = reply_help(&j->rc, j->in.from_addr, sender_name(j, NULL), &m);
	if (rs != REPLY_OK)
		return reply_failure(j, rs);
	ps = enqueue(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		set_detail(j, "ok", "help sent");
	return ps;
}

/* The player of g whose account is bound to the sender's address, NULL if none. */
static const char *sender_player(struct job *j, const struct game *g)
{
	const char *players[2] = { g->black, g->white };
	struct store_user u;
	int i;

	for (i = 0; i < 2; i++)
		if (store_user_find(j->st, players[i], &u) == STORE_OK && strcasecmp(u.address, j->in.from_addr) == 0)
			return players[i];
	return NULL;
}

/*
 * Placements sent alone under a board mail ("C3"): the exact command to
 * send for that board and its turn now, rather than "unknown command".
 */
static enum process_status placements_alone(struct job *j)
{
	char list[COMMAND_LINE_MAX + 1];
	const char *mover, *sender;
	enum process_status ps;
	struct game g;
	bool found;
	size_t i, used = 0;

	memset(&g, 0, sizeof g);
	j->board = j->cmd.board;
	for (i = 0; i < j->cmd.nplacements; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? "," : "",
		    j->cmd.placements[i].name);
	ps = load_readonly(j, j->cmd.board, &g, &found);
	if (ps != PROCESS_OK || !found)
		goto out;
	mover = game_player_to_move(&g);
	sender = sender_player(j, &g);
	if (mover == NULL)
		ps = refuse(j, &g, "'%s' alone is not a command, and board %ld is over: no more turns are played "
		    "on it", list, g.board);
	else if (sender != NULL && strcmp(sender, mover) == 0)
		ps = refuse(j, &g, "'%s' alone is not a command: to play it on board %ld now, send: "
		    "move %ld#%d %s <password> %s", list, g.board, g.board, g.rg.turn, mover, list);
	else if (sender != NULL)
		ps = refuse(j, &g, "'%s' alone is not a command, and board %ld waits for %s (turn %d), not for you: "
		    "on your turn, send: move %ld %s <password> %s", list, g.board, mover, g.rg.turn, g.board,
		    sender, list);
	else
		ps = refuse(j, &g, "'%s' alone is not a command; board %ld is at turn %d, %s to move, who plays "
		    "it with: move %ld#%d %s <password> %s", list, g.board, g.rg.turn, mover, g.board, g.rg.turn,
		    mover, list);
out:
	game_release(&g);
	return ps;
}

static enum process_status dispatch(struct job *j)
{
	enum command_status cs = j->cmd_status;	/* parsed by the run, before the checks */

	j->masked = command_mask(&j->cmd);
	if (j->masked == NULL) {
		set_detail(j, "tempfail", "out of memory");
		return PROCESS_TEMPFAIL;
	}
	if (cs == COMMAND_PLACEMENTS_ONLY && j->cmd.board > 0)
		return placements_alone(j);
	if (cs != COMMAND_OK) {
		/* the board, if the words got that far, for the subject */
		j->board = j->cmd.board;
		return refuse(j, NULL, "%s", j->cmd.error);
	}
	if (robot_is(j->cmd.userid) && (j->cmd.kind == COMMAND_PASSWORD || j->cmd.kind == COMMAND_CHALLENGE ||
	    j->cmd.kind == COMMAND_MOVE || j->cmd.kind == COMMAND_SWAP || j->cmd.kind == COMMAND_RESIGN)) {
		j->board = j->cmd.board;
		return refuse(j, NULL, "%s is the server's robot player: nobody can log in as %s, it plays its own "
		    "turns", ROBOT_USERID, ROBOT_USERID);
	}
	switch (j->cmd.kind) {
	case COMMAND_REGISTER:
		return do_register(j);
	case COMMAND_PASSWORD:
		return do_password(j);
	case COMMAND_CHALLENGE:
		return do_challenge(j);
	case COMMAND_MOVE:
	case COMMAND_SWAP:
	case COMMAND_RESIGN:
		return do_play(j);
	case COMMAND_SHOW:
		return do_show(j);
	case COMMAND_HISTORY:
		return do_history(j);
	case COMMAND_GAMES:
		return do_games(j);
	case COMMAND_HELP:
		return do_help(j);
	case COMMAND_NONE:
		break;
	}
	set_detail(j, "error", "no handler for the command");
	return PROCESS_SOFTWARE;
}

/* ---- the run ---- */

/*
 * The command for the log's cmd="..." field: '"' and '\\' escaped with a
 * backslash, so no Subject can end the field and forge the ones after it
 * (control characters become '?' in store_log).  The caller frees it.
 */
static char *log_quoted(const char *s)
{
	char *q = malloc(2 * strlen(s) + 1), *p = q;

	if (q == NULL)
		return NULL;
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return q;
}

static void write_log(struct job *j)
{
	char stamp[GAMEFILE_TIME_SIZE], board[24];
	const char *id = j->in.message_id != NULL ? j->in.message_id : "";
	const char *from = j->in.from_addr != NULL ? j->in.from_addr : "";
	char *cmd = log_quoted(j->masked != NULL ? j->masked : "");

	gamefile_time_str((int64_t)j->now, stamp);
	if (j->board > 0)
		snprintf(board, sizeof board, "%ld", j->board);
	else
		snprintf(board, sizeof board, "-");
	store_log(j->st, "%s mail %s%s%s from=%s board=%s cmd=\"%s\" %s: %s", stamp, id[0] != '\0' ? "<" : "",
	    id[0] != '\0' ? id : "-", id[0] != '\0' ? ">" : "", from[0] != '\0' ? from : "-", board,
	    cmd != NULL ? cmd : "(out of memory)", j->outcome != NULL ? j->outcome : "error", j->detail);
	free(cmd);
}

/*
 * The owner gave the right password for a hash of another cost or method
 * than password_cost: make it again, now that the password is known (the
 * mail is handled whatever comes of it).
 */
static void rehash_password(struct job *j)
{
	enum store_status ss;
	size_t n;

	ss = store_user_rehash(j->st, j->rehash.userid, j->rehash.hash, j->cmd.password);
	if (ss != STORE_OK) {
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (password hash not renewed: %s)", store_error(j->st));
		fprintf(stderr, "oustpbm: cannot renew the password hash of %s: %s\n", j->rehash.userid,
		    store_error(j->st));
	}
}

static void flush(struct job *j)
{
	const struct transport_ops *ops = transport_find(j->cfg.transport);
	struct outbox_stats stats;
	enum outbox_status os;
	size_t n;

	if (j->settle && need_outbox(j) == PROCESS_OK)
		j->queued = true;
	if (!j->queued || j->ob == NULL || ops == NULL)
		return;
	/* this mail's replies, then a bounded part of the backlog (outbox.h) */
	os = outbox_flush_opts(j->ob, ops, &j->cfg, OUTBOX_FLUSH_MINE, &stats);
	if (os != OUTBOX_OK || stats.deferred > 0 || stats.failed > 0 || stats.left > 0) {
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (replies: %u sent, %u deferred, %u failed",
		    stats.delivered, stats.deferred, stats.failed);
		n = strlen(j->detail);
		if (stats.left > 0)
			snprintf(j->detail + n, sizeof j->detail - n, ", %u left for flush", stats.left);
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, "%s%s)", os != OUTBOX_OK ? "; " : "",
		    os != OUTBOX_OK ? outbox_error(j->ob) : "");
	}
}

static enum process_status usage(void)
{
	fputs("usage: oustpbm [-d DIR] < message\n", stderr);
	return PROCESS_USAGE;
}

/* The home: -d DIR, else config_default_home(). */
static bool parse_args(int argc, char **argv, const char **home)
{
	*home = config_default_home();
	if (argc == 1)
		return true;
	if (argc == 3 && strcmp(argv[1], "-d") == 0 && argv[2][0] != '\0') {
		*home = argv[2];
		return true;
	}
	if (argc == 2 && strncmp(argv[1], "-d", 2) == 0 && argv[1][2] != '\0') {
		*home = argv[1] + 2;
		return true;
	}
	return false;
}

enum process_status process_main(int argc, char **argv)
{
	static struct job job;	/* large (the command holds 625 placements): not on the stack */
	struct job *j = &job;
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX];
	enum process_status ps;
	enum mailin_status rs, ms;
	enum store_status ss;
	char *buf = NULL;
	size_t len = 0;
	bool dup;

	memset(j, 0, sizeof *j);
	j->seen_lock.fd = -1;
	if (!parse_args(argc, argv, &j->home))
		return usage();
	if (config_load(&j->cfg, j->home, err, sizeof err) != CONFIG_OK) {
		/* logged in the home when there is one, with the defaults' settings */
		fprintf(stderr, "oustpbm: %s\n", err);
		config_defaults(&j->cfg);
		j->now = config_now(&j->cfg);
		if (store_open(j->home, &j->cfg, &j->st, err + strlen(err) + 1,
		    sizeof err - strlen(err) - 1) == STORE_OK) {
			/* the sender and Message-ID, so the admin knows which mail to replay */
			if (mailin_read(STDIN_FILENO, j->cfg.max_message_bytes, &buf, &len) != MAILIN_READ_ERROR &&
			    buf != NULL)
				(void)mailin_parse(buf, len, &j->in);
			set_detail(j, "error", "configuration error: %s", err);
		}
		ps = PROCESS_CONFIG;
		goto out;
	}
	j->now = config_now(&j->cfg);
	ss = store_open(j->home, &j->cfg, &j->st, err, sizeof err);
	if (ss != STORE_OK) {
		/* no home, or not ours: nothing can be logged there */
		fprintf(stderr, "oustpbm: %s\n", err);
		return store_status_temporary(ss) || ss == STORE_NOT_OWNER ? PROCESS_TEMPFAIL : PROCESS_CONFIG;
	}

	rs = mailin_read(STDIN_FILENO, j->cfg.max_message_bytes, &buf, &len);
	if (rs == MAILIN_READ_ERROR || rs == MAILIN_NOMEM) {
		set_detail(j, "tempfail", "%s", mailin_status_str(rs));
		ps = PROCESS_TEMPFAIL;
		goto out;
	}
	ms = mailin_parse(buf, len, &j->in);
	if (ms == MAILIN_NOMEM) {
		set_detail(j, "tempfail", "%s", mailin_status_str(ms));
		ps = PROCESS_TEMPFAIL;
		goto out;
	}
	if (ms == MAILIN_UNPARSABLE) {
		set_detail(j, "unparsable", "%s", mailin_status_str(ms));
		ps = PROCESS_DATAERR;
		goto out;
	}
	if (j->in.automatic) {
		/* RFC 3834: never answer a bounce or an automatic mail */
		set_detail(j, "dropped", "automatic mail (%s)", j->in.automatic_reason);
		ps = PROCESS_DROPPED;
		goto out;
	}
	if (ms == MAILIN_NO_FROM || ms == MAILIN_TWO_FROM || ms == MAILIN_BAD_FROM || ms == MAILIN_UTF8_FROM) {
		set_detail(j, "unparsable", "%s: nobody to answer", mailin_status_str(ms));
		/* exit 65: the mail system bounces the mail with this text, the one answer possible */
		fprintf(stderr, "oustpbm: %s\n", mailin_status_str(ms));
		ps = PROCESS_DATAERR;
		goto out;
	}
	if (rs != MAILIN_TOO_BIG && ms != MAILIN_TOO_DEEP) {
		j->cmd_status = command_parse(j->in.subject, j->in.body, &j->cmd);
		start_password(j);
	}
	/* a redelivered copy, then the per-sender limit: dropped without a reply */
	ps = check_loop(j);
	if (ps == PROCESS_OK)
		ps = check_duplicate(j, &dup);
	if (ps == PROCESS_OK)
		ps = check_rate(j);
	if (ps != PROCESS_OK) {
		if (j->settle)
			flush(j);
		goto out;
	}
	/* a mail without a Message-ID is still answered: in_id "" */
	reply_init(&j->rc, &j->cfg, j->home, j->now, j->in.message_id != NULL ? j->in.message_id : "",
	    j->in.references, j->in.from_addr);
	j->unread = "(not read)";
	if (rs == MAILIN_TOO_BIG) {
		/* only the header was kept: the Subject may be cut short, so it is not acted on */
		ps = refuse(j, NULL, "your mail is larger than %lu bytes, so it was not read: send the command "
		    "alone, without attachments", j->cfg.max_message_bytes);
	} else if (j->rate_notice) {
		ps = refuse(j, NULL, "you have sent %lu mails in the last hour, the most this server answers in "
		    "an hour, so this one was not read; your next mails within the hour are dropped without an "
		    "answer. This is the only notice.", j->cfg.max_mails_per_hour);
	} else if (ms == MAILIN_TOO_DEEP) {
		ps = refuse(j, NULL, "the parts of your mail are nested too deeply to find its text: send the "
		    "command as plain text");
	} else {
		j->unread = NULL;
		ps = dispatch(j);
	}
	if (ps == PROCESS_OK)
		record_handled(j);
	if (ps == PROCESS_OK && j->rehash_due)
		rehash_password(j);
	if (ps == PROCESS_OK || (ps == PROCESS_DROPPED && j->settle))
		flush(j);
out:
	if (ps != PROCESS_OK && ps != PROCESS_DROPPED && j->outcome == NULL)
		set_detail(j, "error", "%s", process_status_str(ps));
	pwcheck_release(&j->pw);
	if (j->st != NULL)
		write_log(j);
	free(buf);
	free(j->masked);
	reply_release(&j->rc);
	mailin_message_release(&j->in);
	outbox_close(j->ob);
	store_close(j->st);
	return ps;
}

const char *process_status_str(enum process_status s)
{
	switch (s) {
	case PROCESS_OK:
		return "handled";
	case PROCESS_DROPPED:
		return "dropped";
	case PROCESS_TEMPFAIL:
		return "temporary failure";
	case PROCESS_DATAERR:
		return "unparsable message";
	case PROCESS_USAGE:
		return "usage";
	case PROCESS_CONFIG:
		return "configuration error";
	case PROCESS_SOFTWARE:
		return "internal error";
	}
	return "unknown";
}
