/*
 * password: the mail command password (register is register.c).  It runs
 * under accounts.lock (MAILCMD_ACCOUNTS), one change at a time, and commits
 * with job_commit_account(): the confirmation goes out if and only if the
 * users file was written.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"

/* over expect, the hash the old password was checked against */
static enum store_status write_new_password(struct job *j, const char *hash, const char *expect, const void *arg)
{
	return store_user_set_hash(j->srv.st, j->cmd.userid, hash, expect);
}

/*
 * Mail changes to accounts are made one at a time, under accounts.lock, so
 * a second change sees the first (its old password no longer right).  The
 * new hash is still written only over the hash the old password was checked
 * against (store_user_set_hash): an admin's lock or reset made meanwhile
 * stands, the account is read and the old password checked again.
 */
#define PASSWORD_TRIES 5

enum process_status password_run(struct job *j)
{
	struct command *c = &j->cmd;
	char hash[STORE_HASH_MAX + 1];
	struct store_user u;
	struct reply_mail m;
	enum mail_status rs;
	enum store_status ss;
	struct job_account_result wrote;
	enum process_status ps;
	char why[JOB_MESSAGE_MAX];
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
	if (!job_password_verdict(j, &u, right, why)) {
		/* wrong, or the account's password locked out after too many wrong ones */
		ps = job_refuse(j, NULL, "%s", why);
		goto out;
	}
	if (!store_password_ok(c->new_password)) {
		ps = job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	reply_mail_release(&m);
	rs = reply_password(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u.userid) },
	    u.userid, &m);
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ss = store_password_hash(j->srv.st, c->new_password, hash);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, hash, u.hash, write_new_password, NULL },
	    &m, 1, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status == STORE_CHANGED && ++tries < PASSWORD_TRIES)
		goto again;	/* the admin locked or reset it meanwhile: read it and check again */
	if (wrote.status == STORE_CHANGED)
		wrote.status = STORE_TIMEOUT;	/* changed on every try: a busy account, try later */
	if (wrote.status != STORE_OK)
		ps = job_account_failure(j, &wrote, "cannot change the password");
	else
		job_detail(j, "ok", "password of %s changed", u.userid);
out:
	reply_mail_release(&m);
	return ps;
}
