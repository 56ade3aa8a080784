/* reply_account: the mails of the account commands and help (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>

enum mail_status reply_help(struct reply_ctx *rc, const struct reply_to *to,
    const char *commands, struct reply_mail *out)
{
	struct reply_parts rp = { .tmpl = "help", .subject = "Oust help", .to_addr = to->addr,
	    .to_name = to->name };

	var(&rp.vs, "commands", commands);
	return reply_finish(rc, MAIL_OK, &rp, out);
}

enum mail_status reply_lockout(struct reply_ctx *rc, const struct reply_to *to,
    const char *userid, unsigned long failures, const char *sender, const char *until, struct reply_mail *out)
{
	char subject[200], count[24];
	struct reply_parts rp = { .tmpl = "lockout", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name };

	snprintf(subject, sizeof subject, "Oust password attempts for %s refused", userid);
	snprintf(count, sizeof count, "%lu", failures);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "failures", count);
	var(&rp.vs, "sender", sender);
	var(&rp.vs, "until", until);
	return reply_finish(rc, MAIL_OK, &rp, out);
}

enum mail_status reply_password(struct reply_ctx *rc, const struct reply_to *to,
    const char *userid, struct reply_mail *out)
{
	char subject[200];
	struct reply_parts rp = { .tmpl = "password", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name };

	snprintf(subject, sizeof subject, "Oust password %s", userid);
	var(&rp.vs, "userid", userid);
	return reply_finish(rc, MAIL_OK, &rp, out);
}

enum mail_status reply_account(struct reply_ctx *rc, const struct reply_to *to, const char *tmpl,
    const char *subject, const struct reply_var *vars, size_t n, struct reply_mail *out)
{
	struct reply_parts rp = { .tmpl = tmpl, .subject = subject, .to_addr = to->addr, .to_name = to->name };
	size_t i;

	for (i = 0; i < n; i++)
		var(&rp.vs, vars[i].name, vars[i].value);
	return reply_finish(rc, MAIL_OK, &rp, out);
}
