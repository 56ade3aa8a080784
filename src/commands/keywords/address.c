/*
 * address, confirm: an account moved to a new mail address.
 *
 *   address <userid> <password> <new address>
 *       The new address must be one every transport can deliver to
 *       (mailaddr_deliverable).  A one-time code (accounts.h) is mailed to
 *       it; the sender is told.  Nothing else changes yet.
 *   confirm <userid> <code>   (the code in cmd.password)
 *       (of a registration waiting for it: register.c)
 *       Sent from the new address (any other sender is refused), within the
 *       hour: the account's address becomes the new one, so the mail of
 *       every board of the player goes there from then on; the new address
 *       is told, and so is the old one.
 *
 * Both write under accounts.lock with their mails in an account batch
 * (outbox.h): the code mail goes out if and only if the code was written,
 * the confirmations if and only if the new address was.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"
#include "store/accounts.h"

enum process_status address_run(struct job *j)
{
	struct command *c = &j->cmd;
	char code[ACCOUNTS_CODE_LEN + 1], expires[GAMEFILE_TIME_SIZE], subject[200];
	struct reply_mail mails[2];
	struct accounts_code rec;
	struct store_user u;
	enum reply_status rs;
	enum store_status wrote;
	enum process_status ps;
	const char *why;
	int i;
	bool ok;

	memset(mails, 0, sizeof mails);
	memset(&rec, 0, sizeof rec);
	code[0] = '\0';
	if (!mailaddr_deliverable(c->new_address, &why))
		return job_refuse(j, NULL, "the address '%s' %s, so the server cannot deliver mail to it: give another",
		    c->new_address, why);
	ps = job_authenticate(j, c->userid, c->password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if (strcasecmp(u.address, c->new_address) == 0) {
		ps = job_refuse(j, NULL, "the account %s is registered to %s already", u.userid, u.address);
		goto out;
	}
	ps = forgot_issue_code(j, ACCOUNTS_ADDRESS, &u, code, &rec, expires, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	snprintf(rec.address, sizeof rec.address, "%s", c->new_address);
	{
		struct reply_var v[] = { { "userid", u.userid }, { "code", code }, { "new_address", rec.address },
		    { "old_address", u.address }, { "expires", expires } };

		snprintf(subject, sizeof subject, "Oust address code for %s", u.userid);
		rs = reply_account(&j->srv.rc, rec.address, u.fullname, "addresscode", subject, REPLY_VARS(v), &mails[0]);
		snprintf(subject, sizeof subject, "Oust address of %s", u.userid);
		if (rs == REPLY_OK)
			rs = reply_account(&j->srv.rc, j->in.from_addr, job_sender_name(j, u.userid), "address", subject, &v[2], sizeof v / sizeof v[0] - 2,
			    &mails[1]);
	}
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, rec.hash, NULL, forgot_write_code, &rec },
	    mails, 2, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_LIMIT)
		ps = job_refuse(j, NULL, "%s had %d address codes within a day already: try again tomorrow", u.userid,
		    ACCOUNTS_CODES_PER_DAY);
	else if (wrote != STORE_OK)
		ps = job_account_failure(j, wrote, "cannot record the code");
	else
		job_detail(j, "ok", "address code for %s mailed to %s", u.userid, rec.address);
out:
	explicit_bzero(code, sizeof code);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}

static enum store_status write_address(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct accounts_code *rec = arg;

	return store_user_set_address(j->srv.st, rec->userid, rec->address, expect);
}

enum process_status address_confirm_run(struct job *j)
{
	struct command *c = &j->cmd;
	char token[ACCOUNTS_TOKEN_MAX + 1], subject[200], again[200];
	struct reply_mail mails[2];
	struct accounts_code rec;
	struct store_user u;
	enum reply_status rs;
	enum process_status ps;
	int i, v;
	bool ok;

	memset(mails, 0, sizeof mails);
	/* the confirm of a registration (register.c) */
	ps = register_confirm_pending(j, &ok);
	if (ps != PROCESS_OK || ok)
		return ps;
	snprintf(again, sizeof again, "send \"address %s <password> <new address>\" for a new one", c->userid);
	ps = forgot_verify_code(j, ACCOUNTS_ADDRESS, c->userid, &u, &v, &rec, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if ((v == ACCOUNTS_USED || v == ACCOUNTS_STALE) && strcasecmp(u.address, rec.address) == 0 &&
	    strcasecmp(j->in.from_addr, rec.address) == 0) {
		/* the new address in place, by this code: a copy of the mail whose run did it */
		ps = job_account_copy(j, "confirm");
		goto out;
	}
	if (v != ACCOUNTS_RIGHT) {
		ps = forgot_refuse_code(j, &u, v, again);
		goto out;
	}
	if (strcasecmp(j->in.from_addr, rec.address) != 0) {
		/* the code proves the new mailbox only when it comes back from there */
		ps = job_refuse(j, NULL, "confirm %s must come from the new address the code was mailed to, not from %s",
		    u.userid, j->in.from_addr);
		goto out;
	}
	{
		struct reply_var vars[] = { { "userid", u.userid }, { "new_address", rec.address },
		    { "old_address", u.address } };

		snprintf(subject, sizeof subject, "Oust address of %s changed", u.userid);
		rs = reply_account(&j->srv.rc, rec.address, u.fullname, "confirmed", subject, REPLY_VARS(vars), &mails[0]);
		if (rs == REPLY_OK)
			rs = reply_account(&j->srv.rc, u.address, u.fullname, "addressmoved", subject, REPLY_VARS(vars), &mails[1]);
	}
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	accounts_token_address(rec.address, token);
	ps = job_commit_account_checked(j, &(struct job_account_change){ u.userid, token, u.address, write_address, &rec },
	    mails, 2, "cannot change the address", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	job_detail(j, "ok", "address of %s changed from %s to %s", u.userid, u.address, rec.address);
	accounts_code_spend(j->srv.st, &rec);
out:
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}
