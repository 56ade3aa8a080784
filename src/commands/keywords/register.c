/*
 * register: an account asked for; confirm.c makes it.
 *
 *   register <userid> <password> [full name]
 *       No account yet: a pending registration (store/pending.h) and one
 *       one-time code mailed to the address the mail came from.  Nothing
 *       else ever goes to that address until it confirms, so a forged From
 *       cannot make the server mail anyone but the code.  The account is
 *       made by "confirm <userid> <code> <password>" from that address:
 *       the code proves the mailbox, the password that the registration is
 *       the mailbox owner's (a forged register carries its forger's).  A
 *       later register from the same address replaces the earlier one,
 *       whose code is void from then on, and mails a new code: at most
 *       PENDING_CODES_PER_HOUR an hour to one address and
 *       max_pending_per_domain_per_hour to one domain.  Another address's
 *       registration of the same user id holds nothing (the first
 *       confirmed wins), and only confirmed accounts count against
 *       max_registrations_per_hour (confirm.c).
 *
 * It commits with job_commit_account() under accounts.lock: the code mail
 * goes out if and only if the pending file has the code (token: its
 * hash).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"
#include "store/accounts.h"
#include "store/pending.h"
#include "store/throttle.h"

static enum store_status write_pending(struct job *j, const char *token, const char *expect, const void *arg)
{
	return pending_put(j->srv.st, arg, j->srv.cfg.max_pending_per_domain_per_hour);
}

static uint64_t mail_stamp(const struct job *j)
{
	const char *id = j->in.message_id != NULL ? j->in.message_id : "";

	return id[0] != '\0' ? store_text_hash(id, strlen(id)) : 0;
}

/* Did a register from address with this stamp write a line (open, done or void)?  A copy of that mail. */
static enum store_status seen_before(struct job *j, const char *address, uint64_t stamp, bool *seen)
{
	struct pending *list = NULL;
	enum store_status ss;
	size_t n = 0, i;

	*seen = false;
	if (stamp == 0)
		return STORE_OK;
	ss = pending_all(j->srv.st, (int64_t)j->srv.now, &list, &n);
	for (i = 0; ss == STORE_OK && i < n; i++)
		if (list[i].stamp == stamp && strcasecmp(list[i].address, address) == 0)
			*seen = true;
	free(list);
	return ss;
}

enum process_status register_run(struct job *j)
{
	struct command *c = &j->cmd;
	char code[ACCOUNTS_CODE_LEN + 1], expires[REPLY_TIME_SIZE], subject[200];
	struct pending rec;
	struct store_user u;
	struct reply_mail m;
	enum mail_status rs;
	enum store_status ss;
	struct job_account_result wrote;
	enum process_status ps;
	const char *why;
	bool seen;
	size_t i;

	memset(&m, 0, sizeof m);
	memset(&rec, 0, sizeof rec);
	code[0] = '\0';
	if (!mailaddr_deliverable(j->in.from_addr, &why))
		return job_refuse(j, NULL, "your address %s %s, so the server cannot deliver the game's mail to it: "
		    "register from another address", j->in.from_addr, why);
	if (game_user_is_robot(c->userid))
		return job_refuse(j, NULL, "the user id %s is the server's robot player: choose another", c->userid);
	for (i = 0; c->userid[i] != '\0' && i < IDENT_USERID_MAX; i++)
		rec.userid[i] = (char)tolower((unsigned char)c->userid[i]);
	rec.userid[i] = '\0';
	rec.stamp = mail_stamp(j);
	ss = seen_before(j, j->in.from_addr, rec.stamp, &seen);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot read the pending registrations");
		goto out;
	}
	if (seen) {
		/* the code of this very mail was recorded: a copy of it, its reply released by recovery */
		ps = job_account_copy(j, "register");
		goto out;
	}
	ss = store_user_find(j->srv.st, c->userid, &u);
	if (ss == STORE_OK) {
		ps = job_refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
		goto out;
	}
	if (ss != STORE_NOT_FOUND) {
		ps = job_store_failure(j, ss, "cannot read the users file");
		goto out;
	}
	if (!store_password_ok(c->password)) {
		ps = job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
	rec.issued = (int64_t)j->srv.now;
	rec.sent = (int64_t)j->srv.now;
	snprintf(rec.address, sizeof rec.address, "%s", j->in.from_addr);
	snprintf(rec.fullname, sizeof rec.fullname, "%s", c->fullname);
	ss = store_password_hash(j->srv.st, c->password, rec.pwhash);
	if (ss == STORE_OK)
		ss = accounts_code_new(j->srv.st, code, rec.codehash);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot make the code");
		goto out;
	}
	reply_time_str(rec.issued + PENDING_LIFE, expires);
	{
		struct reply_var v[] = { { "userid", rec.userid }, { "code", code },
		    { "registered_address", rec.address }, { "expires", expires } };

		snprintf(subject, sizeof subject, "Oust registration code for %s", rec.userid);
		rs = reply_account(&j->srv.rc, &(struct reply_to){ rec.address, c->fullname },
		    "registercode", subject, REPLY_VARS(v), &m);
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	/* the code mail is queued if and only if the registration is written */
	ps = job_commit_account(j, &(struct job_account_change){ rec.userid, rec.codehash, NULL, write_pending, &rec },
	    &m, 1, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status == STORE_USER_EXISTS)
		ps = job_refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
	else if (wrote.status == STORE_RESERVED)
		ps = job_refuse(j, NULL, "the user id %s belonged to an account that was closed, and is kept for its "
		    "games: choose another", c->userid);
	else if (wrote.status == STORE_LIMIT)
		ps = job_refuse(j, NULL, "no registration code now: %s", wrote.err);
	else if (wrote.status == STORE_TOO_BIG)
		ps = job_refuse(j, NULL, "the server takes no new accounts now: too many registrations wait for "
		    "their confirm; try again tomorrow");
	else if (wrote.status != STORE_OK)
		ps = job_account_failure(j, &wrote, "cannot record the registration");
	else
		job_detail(j, "ok", "registration of %s pending, code mailed to <%s>", rec.userid, rec.address);
out:
	explicit_bzero(code, sizeof code);
	reply_mail_release(&m);
	return ps;
}
