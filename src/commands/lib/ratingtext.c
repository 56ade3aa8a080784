/* ratingtext: the replies of the ratings' texts.  See ratingtext.h. */
#include "commands/lib/ratingtext.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "mail/reply.h"
#include "store/ratings.h"

enum process_status ratingtext_reply(struct job *j, const char *userid, const char *tmpl, const char *subject,
    const char *text)
{
	struct reply_var v = { "text", text };
	struct reply_mail m;
	enum mail_status rs;

	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, userid) },
	    tmpl, subject, &v, 1, &m);
	return job_send(j, rs, &m);
}

enum process_status ratingtext_failure(struct job *j, enum store_status ss, const char *err)
{
	msg_warn("%s", err);
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}
