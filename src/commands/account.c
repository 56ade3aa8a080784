/*
 * account: the mail commands that change an account, register and
 * password.  Both run under accounts.lock (MAILCMD_ACCOUNTS), one change at
 * a time, and commit with job_commit_account(): the confirmation goes out
 * if and only if the users file was written.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/job.h"
#include "commands/mailcmd.h"
#include "commands/robot.h"

static enum store_status write_new_account(struct job *j, const char *hash, const char *expect, const void *arg)
{
	struct store_register_caps caps;

	caps.per_hour = j->cfg.max_registrations_per_hour;
	caps.per_domain = j->cfg.max_registrations_per_domain;
	caps.now = (int64_t)j->now;
	return store_user_register_hashed(j->st, j->cmd.userid, j->in.from_addr, hash, j->cmd.fullname, &caps);
}

/* over expect, the hash the old password was checked against */
static enum store_status write_new_password(struct job *j, const char *hash, const char *expect, const void *arg)
{
	return store_user_set_hash(j->st, j->cmd.userid, hash, expect);
}

/* register: an account bound to the sender's address, under accounts.lock (MAILCMD_ACCOUNTS). */
enum process_status account_register(struct job *j)
{
	struct command *c = &j->cmd;
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
		return job_refuse(j, NULL, "your address %s %s, so the server cannot deliver the game's mail to it: "
		    "register from another address", j->in.from_addr, why);
	if (robot_is(c->userid))
		return job_refuse(j, NULL, "the user id %s is the server's robot player: choose another", c->userid);
	ss = store_user_find(j->st, c->userid, &u);
	if (ss == STORE_OK && strcasecmp(u.address, j->in.from_addr) == 0 && u.hash[0] == '$' &&
	    job_password_is(&u, c->password)) {
		ps = job_account_copy(j, "register");
		goto out;
	}
	if (ss == STORE_OK) {
		ps = job_refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
		goto out;
	}
	if (ss != STORE_NOT_FOUND) {
		ps = job_store_failure(j, ss, "cannot read the users file");
		goto out;
	}
	if (!store_password_ok(c->password)) {
		ps = job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	/* the account being made is bound to the sender's address: its name */
	rs = reply_registered(&j->rc, j->in.from_addr, c->fullname, c->userid, c->fullname,
	    j->in.from_addr, &m);
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ss = store_password_hash(j->st, c->password, hash);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	for (i = 0; c->userid[i] != '\0' && i < IDENT_USERID_MAX; i++)
		id[i] = (char)tolower((unsigned char)c->userid[i]);
	id[i] = '\0';
	/* the confirmation is queued if and only if the account is written */
	ps = job_commit_account(j, id, hash, NULL, &m, 1, write_new_account, NULL, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_USER_EXISTS)
		ps = job_refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
	else if (wrote == STORE_RESERVED)
		ps = job_refuse(j, NULL, "the user id %s belonged to an account that was closed, and is kept for its "
		    "games: choose another", c->userid);
	else if (wrote == STORE_LIMIT)
		ps = job_refuse(j, NULL, "no new account now: %s; try again in an hour", j->account_err);
	else if (wrote == STORE_TOO_BIG)
		ps = job_refuse(j, NULL, "the server takes no new accounts: its users file is full; "
		    "ask the server's admin");
	else if (wrote == STORE_BAD_NAME || wrote == STORE_BAD_ADDRESS)
		ps = job_refuse(j, NULL, "%s", j->account_err);
	else if (wrote != STORE_OK)
		ps = job_account_failure(j, wrote, "cannot add the user");
	else
		job_detail(j, "ok", "registered %s <%s>", c->userid, j->in.from_addr);
out:
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

enum process_status account_password(struct job *j)
{
	struct command *c = &j->cmd;
	char hash[STORE_HASH_MAX + 1];
	struct store_user u;
	struct reply_mail m;
	enum reply_status rs;
	enum store_status ss, wrote;
	enum process_status ps;
	bool ok, right;
	int tries = 0;

	memset(&m, 0, sizeof m);
again:
	ps = job_find_account(j, c->userid, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if (store_user_check_password(&u, c->password, &right) != STORE_OK) {
		ps = job_hash_failure(j, u.userid);
		goto out;
	}
	/*
	 * A copy of a mail that changed it is known by its Message-ID
	 * (job_lock_accounts), never by the new password being right now: that
	 * told a guesser, unthrottled, whether the second password was the
	 * account's.  Only the first password is checked, and counted.
	 */
	if (!job_password_verdict(j, &u, right)) {
		/* wrong, or the account's password locked out after too many wrong ones */
		ps = job_refuse(j, NULL, "%s", j->pwmsg);
		goto out;
	}
	if (!store_password_ok(c->new_password)) {
		ps = job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	reply_mail_release(&m);
	rs = reply_password(&j->rc, j->in.from_addr, job_sender_name(j, u.userid), u.userid, &m);
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ss = store_password_hash(j->st, c->new_password, hash);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	ps = job_commit_account(j, u.userid, hash, u.hash, &m, 1, write_new_password, NULL, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_CHANGED && ++tries < PASSWORD_TRIES)
		goto again;	/* the admin locked or reset it meanwhile: read it and check again */
	if (wrote == STORE_CHANGED)
		wrote = STORE_TIMEOUT;	/* changed on every try: a busy account, try later */
	if (wrote != STORE_OK)
		ps = job_account_failure(j, wrote, "cannot change the password");
	else
		job_detail(j, "ok", "password of %s changed", u.userid);
out:
	reply_mail_release(&m);
	return ps;
}
