/* codes: one-time codes of accounts.  See codes.h. */
#include "commands/lib/codes.h"

#include <stdio.h>
#include <string.h>

#include "commands/pipeline/job.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/throttle.h"

enum store_status codes_write(struct job *j, const char *token, const char *expect, const void *arg)
{
	return accounts_code_add(j->srv.st, arg);
}

enum process_status codes_issue(struct job *j, int kind, const struct store_user *u, char *code,
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

/*
 * Refuse a code that is not right (accounts_code_verify): a wrong one, or
 * one of another account, counts as a wrong password does.
 */
enum process_status codes_refuse(struct job *j, const struct store_user *u, int verdict, const char *again)
{
	char why[JOB_MESSAGE_MAX];

	switch ((enum accounts_verdict)verdict) {
	case ACCOUNTS_EXPIRED:
		return job_refuse(j, NULL, "the code for %s has expired: a code is good for an hour; %s", u->userid, again);
	/* a used or stale code is a wrong one for the throttle: every code checked is counted */
	case ACCOUNTS_USED:
		job_secret_verdict(j, u, false, "code", why);
		if (strstr(why, "refused") != NULL || strstr(why, "paused") != NULL)
			return job_refuse(j, NULL, "%s", why);
		return job_refuse(j, NULL, "the code for %s was used already: a code is good once; %s", u->userid, again);
	case ACCOUNTS_STALE:
		job_secret_verdict(j, u, false, "code", why);
		if (strstr(why, "refused") != NULL || strstr(why, "paused") != NULL)
			return job_refuse(j, NULL, "%s", why);
		return job_refuse(j, NULL, "the code for %s no longer holds: the account's password or address changed "
		    "after it was sent; %s", u->userid, again);
	case ACCOUNTS_OTHER:
		job_secret_verdict(j, u, false, "code", why);
		if (strstr(why, "refused") != NULL || strstr(why, "paused") != NULL)
			return job_refuse(j, NULL, "%s", why);	/* locked out, by this failure or before */
		return job_refuse(j, NULL, "that code was not sent for %s but for another account", u->userid);
	default:
		job_secret_verdict(j, u, false, "code", why);
		return job_refuse(j, NULL, "%s", why);
	}
}

enum process_status codes_verify(struct job *j, int kind, const char *userid, struct store_user *u,
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
