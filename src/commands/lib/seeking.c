/* seeking: a player's own numbers of games.  See seeking.h. */
#include "commands/lib/seeking.h"

#include <stdio.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "store/seeks.h"

enum process_status seeking_notice(struct job *j, const char *subject, const char *text)
{
	struct reply_var v = { "text", text };
	struct reply_mail m;
	enum mail_status rs;

	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, j->user.userid) },
	    "notice", subject, &v, 1, &m);
	return job_send(j, rs, &m);
}

enum process_status seeking_set(struct job *j, enum seeks_kind kind, unsigned n)
{
	char err[SEEKS_ERR_MAX];
	enum store_status ss;

	ss = seeks_set(j->srv.st, j->srv.cfg.lock_timeout_ms, kind, j->user.userid, n, err);
	if (ss == STORE_OK)
		return PROCESS_OK;
	msg_warn("%s", err);
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}
