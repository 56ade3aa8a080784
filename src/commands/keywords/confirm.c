/*
 * confirm: a one-time code mailed to an address, sent back from it.
 *
 *   confirm <userid> <code>, confirm <code>, or the code alone in a reply
 *       Of a registration waiting for it (register.c): from the registered
 *       address only, the code checked under the password throttle
 *       (throttle.h), the account written, the welcome mailed.
 *       Unconfirmed, the registration lapses PENDING_LIFE after the
 *       register and its user id is free again.
 *   confirm <userid> <code>   (the code in cmd.password), else
 *       Of an address change (address.c): sent from the new address (any
 *       other sender is refused), within the hour: the account's address
 *       becomes the new one, so the mail of every board of the player goes
 *       there from then on; the new address is told, and so is the old one.
 *
 * Both commit with job_commit_account() under accounts.lock: the welcome
 * goes out if and only if the users file has the account (token: the
 * password hash), the confirmations if and only if the new address was
 * written.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/pending.h"
#include "store/throttle.h"

static enum store_status write_account(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct pending *p = arg;

	/* counted against the caps at the register already */
	return store_user_register_hashed(j->srv.st, p->userid, p->address, p->pwhash, p->fullname, NULL);
}

/* The code given for p, under the throttle; false after a refusal (then *ps). */
static bool code_right(struct job *j, const struct pending *p, const char *code, enum process_status *ps)
{
	struct throttle_state ts;
	char until[REPLY_TIME_SIZE];
	enum store_status ss;
	bool failed = false, right;

	ss = throttle_check(j->srv.st, &j->srv.cfg, p->userid, j->srv.now, &ts);
	if (ss != STORE_OK) {
		*ps = job_store_failure(j, ss, "cannot read the password throttle");
		return false;
	}
	if (ts.until == 0) {
		right = accounts_code_is(code, p->codehash, &failed);
		if (failed) {
			*ps = job_hash_failure(j, p->userid);
			return false;
		}
		if (right)
			return true;
		/* counted as a wrong password; nobody told: the address has not confirmed it wants mail */
		ss = throttle_fail(j->srv.st, &j->srv.cfg, p->userid, j->in.from_addr, j->srv.now, &ts);
		if (ss != STORE_OK)
			fprintf(stderr, "oustpbm: cannot record a wrong code: %s\n", store_error(j->srv.st));
		if (ss != STORE_OK || ts.until == 0) {
			*ps = job_refuse(j, NULL, "wrong code for %s: send the code mailed for it", p->userid);
			return false;
		}
	}
	reply_time_str((int64_t)ts.until, until);
	*ps = job_refuse(j, NULL, "codes for %s are refused until %s, after %lu wrong ones within an hour: try "
	    "again then", p->userid, until, j->srv.cfg.max_password_failures);
	return false;
}

/* Confirm the registration p with code. */
static enum process_status confirm_pending(struct job *j, const struct pending *p, const char *code)
{
	struct reply_mail m;
	enum reply_status rs;
	enum store_status wrote;
	enum process_status ps;

	memset(&m, 0, sizeof m);
	if (strcasecmp(j->in.from_addr, p->address) != 0)
		/* the code proves the mailbox only when it comes back from there */
		return job_refuse(j, NULL, "confirm %s must come from the address that registered it, not from %s",
		    p->userid, j->in.from_addr);
	if (!code_right(j, p, code, &ps))
		return ps;
	rs = reply_registered(&j->srv.rc, p->address, p->fullname, p->userid, p->fullname, p->address, &m);
	if (rs != REPLY_OK)
		return job_reply_failure(j, rs);
	ps = job_commit_account(j, &(struct job_account_change){ p->userid, p->pwhash, NULL, write_account, p },
	    &m, 1, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote == STORE_USER_EXISTS)
		ps = job_refuse(j, NULL, "the user id %s was taken meanwhile: register another", p->userid);
	else if (wrote == STORE_RESERVED)
		ps = job_refuse(j, NULL, "the user id %s is kept for a closed account: register another", p->userid);
	else if (wrote == STORE_TOO_BIG)
		ps = job_refuse(j, NULL, "the server takes no new accounts: its users file is full; "
		    "ask the server's admin");
	else if (wrote != STORE_OK)
		ps = job_account_failure(j, wrote, "cannot add the user");
	else
		job_detail(j, "ok", "registered %s <%s>", p->userid, p->address);
	/* after the commit point: failing, the line stays open, the account telling it confirmed */
	if (wrote == STORE_OK && pending_done(j->srv.st, p->userid, p->codehash, (int64_t)j->srv.now) != STORE_OK)
		fprintf(stderr, "oustpbm: cannot mark the registration of %s done: %s\n", p->userid,
		    store_error(j->srv.st));
out:
	reply_mail_release(&m);
	return ps;
}

enum process_status confirm_registration(struct job *j, bool *handled)
{
	struct command *c = &j->cmd;
	struct store_user u;
	struct pending p;
	enum store_status ss, us;
	bool failed = false;

	*handled = false;
	ss = pending_find(j->srv.st, c->userid, (int64_t)j->srv.now, &p);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the pending registrations");
	us = store_user_find(j->srv.st, p.userid, &u);
	if (us == STORE_OK) {
		/* confirmed already: by a copy of this mail (its welcome released by recovery), or an account of its own */
		if (strcmp(u.hash, p.pwhash) != 0 || strcasecmp(u.address, p.address) != 0 ||
		    strcasecmp(j->in.from_addr, p.address) != 0 || !accounts_code_is(c->password, p.codehash, &failed))
			return PROCESS_OK;
		*handled = true;
		return job_account_copy(j, "confirm");
	}
	if (us != STORE_NOT_FOUND)
		return job_store_failure(j, us, "cannot read the users file");
	if (p.done)
		return PROCESS_OK;	/* confirmed, and the account gone since */
	*handled = true;
	return confirm_pending(j, &p, c->password);
}

/* confirm <code>: the registration of the sender's address. */
enum process_status confirm_code_run(struct job *j)
{
	struct store_user u;
	struct pending p;
	enum store_status ss;
	bool handled;

	ss = pending_of_address(j->srv.st, j->in.from_addr, (int64_t)j->srv.now, &p);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "no registration from %s waits for a confirm: register first with "
		    "register <userid> <password> [full name]; an address change is confirmed with "
		    "confirm <userid> <code>", j->in.from_addr);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the pending registrations");
	snprintf(j->cmd.userid, sizeof j->cmd.userid, "%s", p.userid);
	if (p.done || store_user_find(j->srv.st, p.userid, &u) == STORE_OK) {
		enum process_status ps = confirm_registration(j, &handled);

		if (ps != PROCESS_OK || handled)
			return ps;
		return job_refuse(j, NULL, "the account %s is made already: no registration from %s waits for a "
		    "confirm", p.userid, j->in.from_addr);
	}
	return confirm_pending(j, &p, j->cmd.password);
}

static enum store_status write_address(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct accounts_code *rec = arg;

	return store_user_set_address(j->srv.st, rec->userid, rec->address, expect);
}

enum process_status confirm_run(struct job *j)
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
	ps = confirm_registration(j, &ok);
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
