/*
 * reset: a forgotten password replaced by mail, its second step (forgot.c
 * mails the code).
 *
 *   reset <userid> <code> <new password>   (the code in cmd.password)
 *       The code, checked through the password throttle (throttle.h), sets
 *       the new password; the code is then used.  The confirmation goes to
 *       the sender and to the registered address.
 *
 * It writes under accounts.lock with its mails in an account batch
 * (outbox.h): the confirmation goes out if and only if the new password
 * was written.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "commands/lib/codes.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/accounts.h"
#include "store/throttle.h"

static enum store_status write_reset(struct job *j, const char *token, const char *expect, const void *arg)
{
	return store_user_set_hash(j->srv.st, j->cmd.userid, token, expect);
}

/* reset <userid> <code> <new password>. */
enum process_status reset_run(struct job *j)
{
	struct command *c = &j->cmd;
	char hash[STORE_HASH_MAX + 1], subject[200], again[100];
	struct reply_mail mails[2];
	struct accounts_code rec;
	struct store_user u;
	enum mail_status rs;
	enum store_status ss;
	enum process_status ps;
	int n = 0, i, v;
	bool ok;

	memset(mails, 0, sizeof mails);
	snprintf(again, sizeof again, "send \"forgot %s\" for a new one", c->userid);
	if (!store_password_ok(c->new_password))
		return job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
	ps = codes_verify(j, ACCOUNTS_RESET, c->userid, &u, &v, &rec, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	/* a copy of the mail that used the code is known by its Message-ID (job_lock_accounts), never by the password */
	if (v != ACCOUNTS_RIGHT) {
		ps = codes_refuse(j, &u, v, again);
		goto out;
	}
	snprintf(subject, sizeof subject, "Oust password %s reset", u.userid);
	{
		struct reply_var vars[] = { { "userid", u.userid }, { "sender", j->in.from_addr } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
		    "reset", subject, REPLY_VARS(vars),
		    &mails[n]);
		if (rs == MAIL_OK && strcasecmp(u.address, j->in.from_addr) != 0)
			rs = reply_account(&j->srv.rc, &(struct reply_to){ u.address, u.fullname },
			    "reset", subject, REPLY_VARS(vars), &mails[++n]);
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	n++;
	ss = store_password_hash(j->srv.st, c->new_password, hash);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot hash the password");
		goto out;
	}
	/* an admin's change meanwhile makes the code stale: try later */
	ps = job_commit_account_checked(j, &(struct job_account_change){ u.userid, hash, u.hash, write_reset, NULL },
	    mails, n, "cannot set the password", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	job_detail(j, "ok", "password of %s reset by code", u.userid);
	/* the code is stale now (the hash changed); marking it used makes the message say so */
	accounts_code_spend(j->srv.st, &rec);
	/* the owner proved to hold the registered mailbox: earlier guesses no longer count */
	if (throttle_clear(j->srv.st, &j->srv.cfg, u.userid, j->srv.now) != STORE_OK)
		msg_warn("cannot clear the throttle of %s: %s", u.userid, store_error(j->srv.st));
out:
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}
