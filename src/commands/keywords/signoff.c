/*
 * signoff: the mail command signoff, an account closed by its owner (the
 * boards resigned, the id reserved: services/signoff.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/signoff.h"
#include "commands/services/web.h"
#include "game/gamefile.h"
#include "store/accounts.h"
struct removal {
	int64_t since, until;
};


static enum store_status write_removal(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct removal *r = arg;

	return signoff_remove(&j->srv, j->cmd.userid, expect, r->since, r->until);
}

enum process_status signoff_run(struct job *j)
{
	struct command *c = &j->cmd;
	char token[ACCOUNTS_TOKEN_MAX + 1], subject[200], until[GAMEFILE_TIME_SIZE], err[SIGNOFF_ERR_MAX];
	char count[24];
	struct signoff_result res;
	struct reply_mail mails[2];
	struct removal rm;
	struct store_user u;
	enum process_status sos;
	enum mail_status rs;
	enum process_status ps;
	int n = 0, i;
	bool ok;

	memset(mails, 0, sizeof mails);
	/*
	 * The robot was refused before (MAILCMD_LOGIN: nobody logs in as it).  A
	 * copy of the mail that closed the account is known by its Message-ID
	 * (job_lock_accounts); a closed account's password is never checked,
	 * so it cannot be guessed by signoff (issue 31).
	 */
	ps = job_authenticate(j, c->userid, c->password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	j->rehash.userid[0] = '\0';	/* the account is going: no new hash for it */
	sos = signoff_resign_all(&j->srv, u.userid, &res, err, sizeof err);
	if (sos == PROCESS_DATAERR) {
		ps = job_refuse(j, NULL, "%s: the account stays open; ask the server's admin", err);
		goto out;
	}
	if (sos != PROCESS_OK) {
		job_detail(j, sos == PROCESS_TEMPFAIL ? "tempfail" : "error", "signoff of %s: %s (%u boards resigned)",
		    u.userid, err, res.resigned);
		msg_warn("signoff of %s: %s", u.userid, err);
		ps = sos == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : sos == PROCESS_CONFIG ? PROCESS_CONFIG :
		    PROCESS_SOFTWARE;
		j->queued = true;	/* the opponents' mails of the boards resigned */
		goto out;
	}
	if (res.resigned > 0)
		j->queued = true;
	rm.since = (int64_t)j->srv.now;
	rm.until = signoff_reserved_until(&j->srv.cfg, rm.since);
	gamefile_time_str(rm.until, until);
	snprintf(count, sizeof count, "%u", res.resigned);
	{
		struct reply_var vars[] = { { "userid", u.userid }, { "count", count },
		    { "boards", res.list[0] != '\0' ? res.list : "none" }, { "until", until } };

		snprintf(subject, sizeof subject, "Oust account %s closed", u.userid);
		rs = reply_account(&j->srv.rc, &(struct reply_to){ u.address, u.fullname },
		    "signoff", subject, REPLY_VARS(vars), &mails[n]);
		if (rs == MAIL_OK && strcasecmp(u.address, j->in.from_addr) != 0)
			rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
			    "signoff", subject, REPLY_VARS(vars),
			    &mails[++n]);
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	n++;
	accounts_token_signoff(rm.since, token);
	ps = job_commit_account_checked(j, &(struct job_account_change){ u.userid, token, u.hash, write_removal, &rm },
	    mails, n, "cannot close the account", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	job_detail(j, "ok", "account %s closed, %u board%s resigned%s%s, user id reserved until %s", u.userid,
	    res.resigned, res.resigned == 1 ? "" : "s", res.resigned > 0 ? ": " : "", res.list, until);
	if (accounts_codes_drop(j->srv.st, u.userid) != STORE_OK)
		msg_warn("cannot drop the codes of %s: %s", u.userid, store_error(j->srv.st));
	web_standings_after(&j->srv);	/* the account leaves the standings page too */
out:
	for (i = 0; i < 2; i++)
		reply_mail_release(&mails[i]);
	return ps;
}
