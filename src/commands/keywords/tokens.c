/*
 * tokens: the mail command `tokens <userid> <password> new|off` over the
 * reply tokens of the sender's board mails (replytoken.h).  new ends every
 * token given so far and turns them on again (the next board mails carry
 * new ones); off turns them off: a reply without the password does
 * nothing until the next new.  A new password, or a reset, ends them too.
 */
#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/tokens.h"

enum process_status tokens_run(struct job *j)
{
	const char *id = j->user.userid;
	bool off = strcmp(j->cmd.word, "off") == 0;
	char err[TOKENS_ERR_MAX], text[600], subject[80];
	struct reply_var v = { "text", text };
	struct reply_mail m;
	enum mail_status rs;
	enum store_status ss;
	enum process_status ps;
	unsigned long gen;

	ss = tokens_set(j->srv.st, j->srv.cfg.lock_timeout_ms, id, off, &gen, err);
	if (ss != STORE_OK) {
		msg_warn("%s", err);
		job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	if (off)
		snprintf(text, sizeof text, "The reply tokens of %s are off: a reply to a board mail without\n"
		    "the password does nothing now, and board mails come without\ntokens and without tappable "
		    "boards. Send \"tokens %s <password> new\"\nto turn them on again.\n", id, id);
	else
		snprintf(text, sizeof text, "Every reply token of %s given so far has ended: a reply to an\n"
		    "older board mail without the password does nothing now. Your\nnext board mails carry new "
		    "tokens.\n", id);
	snprintf(subject, sizeof subject, "Oust tokens %s", id);
	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, id) },
	    "notice", subject, &v, 1, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "reply tokens of %s %s (generation %lu)", id, off ? "off" : "renewed", gen);
	return ps;
}
