/*
 * register: an account asked for; confirm.c makes it.
 *
 *   register <userid> <password> [full name]
 *       No account yet: a pending registration (store/pending.h), counted
 *       against the registration caps, and one one-time code mailed to the
 *       address the mail came from.  Nothing else ever goes to that
 *       address until it confirms, so a forged From cannot make the server
 *       mail anyone but the code.  A second register from an address whose
 *       registration still waits mails nothing within PENDING_RESEND of the
 *       last code (the reply says when it went); after that it mails a new
 *       code (the registration's user id, password and name those of the
 *       new mail).
 *
 * It commits with job_commit_account() under accounts.lock: the code mail
 * goes out if and only if the pending file has the code (token: its
 * hash).
 */
#include <ctype.h>
#include <stdio.h>
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
	struct store_register_caps caps;

	caps.per_hour = j->srv.cfg.max_registrations_per_hour;
	caps.per_domain = j->srv.cfg.max_registrations_per_domain;
	caps.now = (int64_t)j->srv.now;
	/* expect is non-NULL for a code sent again: counted once, at the first register */
	return pending_put(j->srv.st, arg, expect == NULL ? &caps : NULL);
}

static uint64_t mail_stamp(const struct job *j)
{
	const char *id = j->in.message_id != NULL ? j->in.message_id : "";

	return id[0] != '\0' ? store_text_hash(id, strlen(id)) : 0;
}

/* The refusal of a register while the address's registration waits: when its code went, when the next may. */
static enum process_status refuse_waiting(struct job *j, const struct pending *p)
{
	char sent[REPLY_TIME_SIZE], next[REPLY_TIME_SIZE];

	reply_time_str(p->sent, sent);
	reply_time_str(p->sent + PENDING_RESEND, next);
	return job_refuse(j, NULL, "a registration from %s waits for its confirm: the code for %s was mailed to "
	    "this address at %s; send \"confirm %s <code>\" from here, or reply to that mail with the code. "
	    "No other code is sent before %s", p->address, p->userid, sent, p->userid, next);
}

enum process_status register_run(struct job *j)
{
	struct command *c = &j->cmd;
	char code[ACCOUNTS_CODE_LEN + 1], expires[REPLY_TIME_SIZE], subject[200];
	struct pending rec, old;
	struct store_user u;
	struct reply_mail m;
	enum reply_status rs;
	enum store_status ss, wrote;
	enum process_status ps;
	bool again = false;
	const char *why;
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
	ss = pending_of_address(j->srv.st, j->in.from_addr, (int64_t)j->srv.now, &old);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
		ps = job_store_failure(j, ss, "cannot read the pending registrations");
		goto out;
	}
	if (ss == STORE_OK && old.stamp == rec.stamp && rec.stamp != 0) {
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
	if (pending_of_address(j->srv.st, j->in.from_addr, (int64_t)j->srv.now, &old) == STORE_OK && !old.done &&
	    store_user_find(j->srv.st, old.userid, &u) == STORE_NOT_FOUND) {
		/* a registration of this address waits: one code an hour at most */
		if ((int64_t)j->srv.now < old.sent + PENDING_RESEND) {
			ps = refuse_waiting(j, &old);
			goto out;
		}
		again = true;
		rec.issued = old.issued;
	} else {
		rec.issued = (int64_t)j->srv.now;
	}
	if (!store_password_ok(c->password)) {
		ps = job_refuse(j, NULL, "a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		goto out;
	}
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
		rs = reply_account(&j->srv.rc, rec.address, c->fullname, "registercode", subject, REPLY_VARS(v), &m);
	}
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	/* the code mail is queued if and only if the registration is written */
	ps = job_commit_account(j, &(struct job_account_change){ rec.userid, rec.codehash,
	    again ? old.codehash : NULL, write_pending, &rec }, &m, 1, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_USER_EXISTS)
		ps = job_refuse(j, NULL, "the user id %s is already taken: choose another", c->userid);
	else if (wrote == STORE_RESERVED)
		ps = job_refuse(j, NULL, "the user id %s belonged to an account that was closed, and is kept for its "
		    "games: choose another", c->userid);
	else if (wrote == STORE_LIMIT)
		ps = job_refuse(j, NULL, "no new account now: %s; try again in an hour", j->account_err);
	else if (wrote == STORE_TOO_BIG)
		ps = job_refuse(j, NULL, "the server takes no new accounts now: too many registrations wait for "
		    "their confirm; try again tomorrow");
	else if (wrote != STORE_OK)
		ps = job_account_failure(j, wrote, "cannot record the registration");
	else
		job_detail(j, "ok", "registration of %s pending, code mailed to <%s>", rec.userid, rec.address);
out:
	explicit_bzero(code, sizeof code);
	reply_mail_release(&m);
	return ps;
}
