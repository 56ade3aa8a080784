/*
 * address: an account moved to a new mail address; confirm.c moves it.
 *
 *   address <userid> <password> <new address>
 *       The new address must be one every transport can deliver to
 *       (mailaddr_deliverable).  A one-time code (accounts.h) is mailed to
 *       it; the sender is told.  Nothing else changes yet.
 *
 * It writes under accounts.lock with its mails in an account batch
 * (outbox.h): the code mail goes out if and only if the code was written.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/lib/codes.h"
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
	enum mail_status rs;
	struct job_account_result wrote;
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
	ps = codes_issue(j, ACCOUNTS_ADDRESS, &u, code, &rec, expires, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	snprintf(rec.address, sizeof rec.address, "%s", c->new_address);
	{
		struct reply_var v[] = { { "userid", u.userid }, { "code", code }, { "new_address", rec.address },
		    { "old_address", u.address }, { "expires", expires } };

		snprintf(subject, sizeof subject, "Oust address code for %s", u.userid);
		rs = reply_account(&j->srv.rc, &(struct reply_to){ rec.address, u.fullname },
		    "addresscode", subject, REPLY_VARS(v), &mails[0]);
		snprintf(subject, sizeof subject, "Oust address of %s", u.userid);
		if (rs == MAIL_OK)
			rs = reply_account(&j->srv.rc,
			    &(struct reply_to){ j->in.from_addr, job_sender_name(j, u.userid) },
			    "address", subject, &v[2], sizeof v / sizeof v[0] - 2,
			    &mails[1]);
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, rec.hash, NULL, codes_write, &rec },
	    mails, 2, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status == STORE_LIMIT)
		ps = job_refuse(j, NULL, "%s had %d address codes within a day already: try again tomorrow", u.userid,
		    ACCOUNTS_CODES_PER_DAY);
	else if (wrote.status != STORE_OK)
		ps = job_account_failure(j, &wrote, "cannot record the code");
	else
		job_detail(j, "ok", "address code for %s mailed to %s", u.userid, rec.address);
out:
	explicit_bzero(code, sizeof code);
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}
