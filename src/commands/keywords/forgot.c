/*
 * forgot: a forgotten password replaced by mail, its first step (reset.c
 * is the second).
 *
 *   forgot <userid>
 *       A one-time code (accounts.h) is mailed to the address the account
 *       is registered to, never to the sender; the sender gets the same
 *       answer whether or not the account exists, a code was made or the
 *       account had its ACCOUNTS_CODES_PER_DAY codes of the day already.
 *
 * It writes under accounts.lock with its mail in an account batch
 * (outbox.h): the code mail goes out if and only if the code was written.
 * The code's issue and check are shared with reset and address
 * (codes_issue, codes_verify: mailcmd.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/lib/codes.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/throttle.h"

/* The neutral answer to forgot, the same whatever became of it. */
static enum process_status forgot_answer(struct job *j, struct reply_mail *m)
{
	struct reply_var v[] = { { "userid", j->cmd.userid } };
	char subject[200];
	enum mail_status rs;

	snprintf(subject, sizeof subject, "Oust password reset for %s", j->cmd.userid);
	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
	    "forgot", subject, REPLY_VARS(v), m);
	return rs == MAIL_OK ? PROCESS_OK : job_reply_failure(j, rs);
}

enum process_status forgot_run(struct job *j)
{
	struct command *c = &j->cmd;
	char code[ACCOUNTS_CODE_LEN + 1], expires[GAMEFILE_TIME_SIZE], subject[200];
	struct reply_mail mails[2];
	struct accounts_code rec;
	struct store_user u;
	enum mail_status rs;
	enum store_status ss;
	struct job_account_result wrote;
	enum process_status ps;
	int n = 0, i;
	bool ok;

	memset(mails, 0, sizeof mails);
	memset(&rec, 0, sizeof rec);
	code[0] = '\0';
	ps = forgot_answer(j, &mails[n]);
	if (ps != PROCESS_OK)
		goto out;
	n++;
	ss = game_user_is_robot(c->userid) ? STORE_NOT_FOUND : store_user_find(j->srv.st, c->userid, &u);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
		ps = job_store_failure(j, ss, "cannot read the users file");
		goto out;
	}
	if (ss == STORE_NOT_FOUND || u.hash[0] != '$') {
		/* nobody to mail a code to (an admin's lock stands): the same answer */
		ps = job_reply(j, &mails[0]);
		if (ps == PROCESS_OK)
			job_detail(j, "ok", "no code: %s", ss == STORE_NOT_FOUND ? "no such account" :
			    "the account is locked");
		goto out;
	}
	ps = codes_issue(j, ACCOUNTS_RESET, &u, code, &rec, expires, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	{
		struct reply_var v[] = { { "userid", u.userid }, { "code", code }, { "sender", j->in.from_addr },
		    { "expires", expires } };

		snprintf(subject, sizeof subject, "Oust password reset code for %s", u.userid);
		rs = reply_account(&j->srv.rc, &(struct reply_to){ u.address, u.fullname },
		    "resetcode", subject, REPLY_VARS(v), &mails[n]);
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	n++;
	/* the owner writing from the registered address gets the code alone */
	if (strcasecmp(u.address, j->in.from_addr) == 0) {
		reply_mail_release(&mails[0]);
		mails[0] = mails[1];
		memset(&mails[1], 0, sizeof mails[1]);
		n = 1;
	}
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, rec.hash, NULL, codes_write, &rec },
	    mails, n, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status == STORE_LIMIT || wrote.status == STORE_TOO_BIG) {
		/* the day's codes were sent, or the codes file is full: the sender hears what anyone hears */
		if (wrote.status == STORE_TOO_BIG)
			store_complain(j->srv.st, "no reset code for %s: %s", u.userid, wrote.err);
		for (i = 0; i < 2; i++)
			reply_mail_release(&mails[i]);
		ps = forgot_answer(j, &mails[0]);
		if (ps == PROCESS_OK)
			ps = job_reply(j, &mails[0]);
		if (ps == PROCESS_OK)
			job_detail(j, "refused", "no code: %s", wrote.err);
	} else if (wrote.status != STORE_OK) {
		ps = job_account_failure(j, &wrote, "cannot record the code");
	} else {
		job_detail(j, "ok", "reset code for %s mailed to %s", u.userid, u.address);
	}
out:
	explicit_bzero(code, sizeof code);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}

