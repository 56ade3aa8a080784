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
 * (forgot_issue_code, forgot_verify_code: mailcmd.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

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
	enum reply_status rs;

	snprintf(subject, sizeof subject, "Oust password reset for %s", j->cmd.userid);
	rs = reply_account(&j->srv.rc, j->in.from_addr, job_sender_name(j, NULL), "forgot", subject, REPLY_VARS(v), m);
	return rs == REPLY_OK ? PROCESS_OK : job_reply_failure(j, rs);
}

enum store_status forgot_write_code(struct job *j, const char *token, const char *expect, const void *arg)
{
	return accounts_code_add(j->srv.st, arg);
}

enum process_status forgot_issue_code(struct job *j, int kind, const struct store_user *u, char *code,
    struct accounts_code *rec, char *expires, bool *ok)
{
	enum store_status ss;

	ss = accounts_code_issue(j->srv.st, (enum accounts_kind)kind, u, (int64_t)j->srv.now, code, rec);
	*ok = ss == STORE_OK;
	if (!*ok)
		return job_store_failure(j, ss, "cannot make a code");
	gamefile_time_str(rec->issued + ACCOUNTS_CODE_LIFE, expires);
	return PROCESS_OK;
}

enum process_status forgot_run(struct job *j)
{
	struct command *c = &j->cmd;
	char code[ACCOUNTS_CODE_LEN + 1], expires[GAMEFILE_TIME_SIZE], subject[200];
	struct reply_mail mails[2];
	struct accounts_code rec;
	struct store_user u;
	enum reply_status rs;
	enum store_status ss, wrote;
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
	ps = forgot_issue_code(j, ACCOUNTS_RESET, &u, code, &rec, expires, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	{
		struct reply_var v[] = { { "userid", u.userid }, { "code", code }, { "sender", j->in.from_addr },
		    { "expires", expires } };

		snprintf(subject, sizeof subject, "Oust password reset code for %s", u.userid);
		rs = reply_account(&j->srv.rc, u.address, u.fullname, "resetcode", subject, REPLY_VARS(v), &mails[n]);
	}
	if (rs != REPLY_OK) {
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
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, rec.hash, NULL, forgot_write_code, &rec },
	    mails, n, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_LIMIT || wrote == STORE_TOO_BIG) {
		/* the day's codes were sent, or the codes file is full: the sender hears what anyone hears */
		if (wrote == STORE_TOO_BIG)
			store_complain(j->srv.st, "no reset code for %s: %s", u.userid, j->account_err);
		for (i = 0; i < 2; i++)
			reply_mail_release(&mails[i]);
		ps = forgot_answer(j, &mails[0]);
		if (ps == PROCESS_OK)
			ps = job_reply(j, &mails[0]);
		if (ps == PROCESS_OK)
			job_detail(j, "refused", "no code: %s", j->account_err);
	} else if (wrote != STORE_OK) {
		ps = job_account_failure(j, wrote, "cannot record the code");
	} else {
		job_detail(j, "ok", "reset code for %s mailed to %s", u.userid, u.address);
	}
out:
	explicit_bzero(code, sizeof code);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}

/*
 * Refuse a code that is not right (accounts_code_check): a wrong one, or
 * one of another account, counts as a wrong password does.
 */
enum process_status forgot_refuse_code(struct job *j, const struct store_user *u, int verdict, const char *again)
{
	switch ((enum accounts_verdict)verdict) {
	case ACCOUNTS_EXPIRED:
		return job_refuse(j, NULL, "the code for %s has expired: a code is good for an hour; %s", u->userid, again);
	/* a used or stale code is a wrong one for the throttle: every code checked is counted */
	case ACCOUNTS_USED:
		job_secret_verdict(j, u, false, "code");
		if (strstr(j->pwmsg, "refused") != NULL || strstr(j->pwmsg, "paused") != NULL)
			return job_refuse(j, NULL, "%s", j->pwmsg);
		return job_refuse(j, NULL, "the code for %s was used already: a code is good once; %s", u->userid, again);
	case ACCOUNTS_STALE:
		job_secret_verdict(j, u, false, "code");
		if (strstr(j->pwmsg, "refused") != NULL || strstr(j->pwmsg, "paused") != NULL)
			return job_refuse(j, NULL, "%s", j->pwmsg);
		return job_refuse(j, NULL, "the code for %s no longer holds: the account's password or address changed "
		    "after it was sent; %s", u->userid, again);
	case ACCOUNTS_OTHER:
		job_secret_verdict(j, u, false, "code");
		if (strstr(j->pwmsg, "refused") != NULL || strstr(j->pwmsg, "paused") != NULL)
			return job_refuse(j, NULL, "%s", j->pwmsg);	/* locked out, by this failure or before */
		return job_refuse(j, NULL, "that code was not sent for %s but for another account", u->userid);
	default:
		job_secret_verdict(j, u, false, "code");
		return job_refuse(j, NULL, "%s", j->pwmsg);
	}
}

enum process_status forgot_verify_code(struct job *j, int kind, const char *userid, struct store_user *u,
    int *verdict, struct accounts_code *rec, bool *ok)
{
	enum accounts_verdict v;
	enum store_status ss;
	enum process_status ps;

	ps = job_find_account(j, userid, u, ok);
	if (ps != PROCESS_OK || !*ok)
		return ps;
	ss = accounts_code_verify(j->srv.st, (enum accounts_kind)kind, u, j->cmd.password, (int64_t)j->srv.now, &v, rec);
	if (ss != STORE_OK) {
		*ok = false;
		return ss == STORE_TEMPFAIL ? job_hash_failure(j, u->userid) : job_store_failure(j, ss, "cannot read the codes");
	}
	*verdict = (int)v;
	return PROCESS_OK;
}
