/*
 * job_password: the sender's account and password (job.h): found,
 * checked against its hash while the wrong-password throttle
 * (throttle.h) is counted, and a lockout told to the account's owner.  A
 * board command's check runs on a second thread (pwcheck.h) beside the
 * loading of its board, and its verdict is taken at the commit or at a
 * refusal (job_password_settled).
 */
#include "commands/pipeline/job.h"

#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"
#include "store/pending.h"
#include "store/throttle.h"

/* "until 2023-11-15T00:13:20Z, after 5 wrong passwords within an hour" for a refusal. */
static void lockout_words(struct job *j, const struct throttle_state *ts, char *buf, size_t size)
{
	char stamp[REPLY_TIME_SIZE];

	reply_time_str((int64_t)ts->until, stamp);
	snprintf(buf, size, "until %s, after %lu wrong password%s within an hour", stamp,
	    j->srv.cfg.max_password_failures, j->srv.cfg.max_password_failures == 1 ? "" : "s");
}

/* The refusal of a locked-out account into why. */
static void locked_out(struct job *j, const char *userid, const struct throttle_state *ts, char why[JOB_MESSAGE_MAX])
{
	char words[200];

	lockout_words(j, ts, words, sizeof words);
	snprintf(why, JOB_MESSAGE_MAX, "password attempts for %s are refused %s: try again then", userid,
	    words);
}

/* The refusal while the record of wrong passwords is full (throttle.h: fail closed) into why. */
/* cause: the store's error when a write was refused, else NULL (the check found the file full) */
static void throttle_full(struct job *j, const char *userid, const char *cause, char why[JOB_MESSAGE_MAX])
{
	snprintf(why, JOB_MESSAGE_MAX, "password checks for %s are paused: the server's record of wrong "
	    "passwords is full; try again in an hour", userid);
	store_complain(j->srv.st, "%s", cause != NULL && cause[0] != '\0' ? cause :
	    "the throttle file is full: password checks are paused");
}

/* Tell user's owner, once, that a lockout started (throttle.h); failing, only a note. */
static void tell_owner(struct job *j, const struct store_user *user, const struct throttle_state *ts)
{
	char stamp[REPLY_TIME_SIZE];
	struct reply_mail m;

	reply_time_str((int64_t)ts->until, stamp);
	if (reply_lockout(&j->srv.rc, &(struct reply_to){ user->address, user->fullname },
	    user->userid, j->srv.cfg.max_password_failures,
	    j->in.from_addr, stamp, &m) != MAIL_OK) {
		msg_warn("cannot make the lockout notice for %s: %s", user->userid, j->srv.rc.err);
		return;
	}
	if (job_reply(j, &m) != PROCESS_OK)
		msg_warn("cannot queue the lockout notice for %s", user->userid);
	reply_mail_release(&m);
}

/*
 * Take the verdict right of a password check for user (throttle.h).  A
 * wrong password is recorded, and when it starts a lockout the owner is
 * told; a right one counts only if no lockout came into force while it was
 * checked (guesses sent at once are checked at once), and then marks an
 * outdated hash to be made again (rehash_password).  False: refuse the
 * command with why.
 */
bool job_secret_verdict(struct job *j, const struct store_user *user, bool right, const char *what,
    char why[JOB_MESSAGE_MAX])
{
	struct throttle_state ts;
	enum store_status ss;
	char words[200];

	if (right) {
		ss = throttle_check(j->srv.st, &j->srv.cfg, user->userid, j->srv.now, &ts);
		if (ss == STORE_OK && ts.until != 0) {
			locked_out(j, user->userid, &ts, why);
			return false;
		}
		if (ss == STORE_OK && ts.full) {
			/* store_error() may hold an older, unrelated message here */
			throttle_full(j, user->userid, NULL, why);
			return false;
		}
		if (ss != STORE_OK)
			msg_warn("cannot read the password throttle: %s", store_error(j->srv.st));
		if (!store_hash_current(j->srv.st, user->hash)) {
			snprintf(j->rehash.userid, sizeof j->rehash.userid, "%s", user->userid);
			snprintf(j->rehash.hash, sizeof j->rehash.hash, "%s", user->hash);
		}
		return true;
	}
	ss = throttle_fail(j->srv.st, &j->srv.cfg, user->userid, j->in.from_addr, j->srv.now, &ts);
	if (ss == STORE_TOO_BIG) {
		throttle_full(j, user->userid, store_error(j->srv.st), why);	/* a guess that cannot be counted is not answered */
		return false;
	}
	if (ss != STORE_OK) {
		msg_warn("cannot record a wrong password: %s", store_error(j->srv.st));
		ts.until = 0;
	}
	if (ts.until != 0 && !ts.started) {
		locked_out(j, user->userid, &ts, why);	/* another attempt locked it meanwhile */
	} else if (ts.started) {
		lockout_words(j, &ts, words, sizeof words);
		snprintf(why, JOB_MESSAGE_MAX, "wrong %s for %s; password attempts for %s are now "
		    "refused %s", what, user->userid, user->userid, words);
		tell_owner(j, user, &ts);
	} else if (strcmp(what, "password") == 0) {
		/* a forgotten password is the common cause: the way out, in the refusal itself */
		snprintf(why, JOB_MESSAGE_MAX, "wrong password for %s. To play without it, reply to "
		    "your latest board mail (or tap a point of its board): its Subject stands for your password. "
		    "If you have forgotten it, send \"forgot %s\": a one-time code comes to the address the "
		    "account is registered to, with how to set a new password", user->userid, user->userid);
	} else {
		snprintf(why, JOB_MESSAGE_MAX, "wrong %s for %s", what, user->userid);
	}
	return false;
}

bool job_password_verdict(struct job *j, const struct store_user *user, bool right, char why[JOB_MESSAGE_MAX])
{
	return job_secret_verdict(j, user, right, "password", why);
}

/*
 * Settle a password check still running (do_play): PWCHECK_RIGHT when none
 * is pending or the password was taken; PWCHECK_WRONG when it was refused
 * (password_verdict), and then why says why; PWCHECK_FAILED when the
 * hash could not be computed.  who names the user.  Afterwards no check is
 * pending.
 */
enum pwcheck_verdict job_password_settled(struct job *j, char who[IDENT_USERID_MAX + 1], char why[JOB_MESSAGE_MAX])
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
	return job_password_verdict(j, &user, v == PWCHECK_RIGHT, why) ? PWCHECK_RIGHT : PWCHECK_WRONG;
}

/*
 * Find userid's account, refusing an unknown user or a locked account:
 * PROCESS_OK with *found true and *user filled; or *found false after a
 * refusal was sent; or a failure.
 */
enum process_status job_find_account(struct job *j, const char *userid, struct store_user *user, bool *found)
{
	struct store_reserved gone;
	struct throttle_state ts;
	struct pending wait;
	enum store_status ss;
	char why[JOB_MESSAGE_MAX];

	*found = false;
	ss = store_user_find(j->srv.st, userid, user);
	if (ss == STORE_NOT_FOUND && store_reserved_find(j->srv.st, userid, &gone) == STORE_OK &&
	    gone.until > (int64_t)j->srv.now) {
		char since[GAMEFILE_TIME_SIZE], until[GAMEFILE_TIME_SIZE];

		gamefile_time_str(gone.since, since);
		gamefile_time_str(gone.until, until);
		return job_refuse(j, NULL, "the account %s was closed on %s: its user id is kept for its games "
		    "until %s", userid, since, until);
	}
	if (ss == STORE_NOT_FOUND && pending_find(j->srv.st, userid, (int64_t)j->srv.now, &wait) == STORE_OK &&
	    !wait.done) {
		char lapse[REPLY_TIME_SIZE];

		reply_time_str(wait.issued + PENDING_LIFE, lapse);
		return job_refuse(j, NULL, "the account %s is not confirmed yet: it works once \"confirm %s <code> "
		    "<password>\" comes from the address that registered it, with the code mailed there; unconfirmed, "
		    "the registration lapses at %s", wait.userid, wait.userid, lapse);
	}
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no user %s: register first with "
		    "register <userid> <password> [full name]", userid);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the users file");
	if (user->hash[0] != '$')
		return job_refuse(j, NULL, "the account %s is locked: ask the server's admin", user->userid);
	/* locked out for guessing (throttle.h): the password is not even checked */
	ss = throttle_check(j->srv.st, &j->srv.cfg, user->userid, j->srv.now, &ts);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the password throttle");
	if (ts.until != 0 || ts.full) {
		pwcheck_release(&j->pw);
		if (ts.full)
			throttle_full(j, user->userid, NULL, why);
		else
			locked_out(j, user->userid, &ts, why);
		return job_refuse(j, NULL, "%s", why);
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
	char why[JOB_MESSAGE_MAX];
	bool right;

	if (ps != PROCESS_OK || !*authorised)
		return ps;
	if (store_user_check_password(user, password, &right) != STORE_OK) {
		*authorised = false;
		return job_hash_failure(j, user->userid);
	}
	if (!job_password_verdict(j, user, right, why)) {
		*authorised = false;
		return job_refuse(j, NULL, "%s", why);
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
	if (store_user_find(j->srv.st, c->userid, &u) == STORE_OK && u.hash[0] == '$')
		pwcheck_start(&j->pw, &u, c->password);
}

/* Is password the account's?  False also when it cannot be told (then the check is not taken as a copy). */
bool job_password_is(const struct store_user *u, const char *password)
{
	bool right = false;

	return store_password_ok(password) && store_user_check_password(u, password, &right) == STORE_OK && right;
}
