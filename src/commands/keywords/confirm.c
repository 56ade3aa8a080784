/*
 * confirm: a one-time code mailed to an address, sent back from it.
 *
 *   confirm <userid> <code> <password>, or a reply holding "<code> <password>"
 *       Of a registration waiting for it (register.c): from the registered
 *       address only, the code checked under the password throttle
 *       (throttle.h), then the password: it must be the one the register
 *       gave.  The code proves the mailbox; the password proves that the
 *       registration is the mailbox owner's, not one forged From her
 *       address (pending.h).  The account is written under the
 *       registration caps (max_registrations_per_hour: confirmed accounts
 *       only) and the welcome mailed.  Another address's registration of
 *       the same user id confirmed first wins: this one is told to choose
 *       another.  Unconfirmed, the registration lapses PENDING_LIFE after
 *       the register and holds nothing meanwhile.
 *   confirm <code>, or confirm <userid> <code> of a registration
 *       Refused: the password is asked for; nothing is checked.
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
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"
#include "base/msg.h"
#include "commands/lib/codes.h"
#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/pending.h"
#include "store/throttle.h"

static enum store_status write_account(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct pending *p = arg;
	struct store_register_caps caps;

	/* only a confirmed account counts: forged registers cannot use the caps up */
	caps.per_hour = j->srv.cfg.max_registrations_per_hour;
	caps.per_domain = j->srv.cfg.max_registrations_per_domain;
	caps.now = (int64_t)j->srv.now;
	return store_user_register_hashed(j->srv.st, p->userid, p->address, p->pwhash, p->fullname, &caps);
}

/*
 * A registration of address replaced by a later register whose code is
 * code: *sent when the code of the registration that replaced it went
 * (the newest line of address).  false if none.
 */
static bool code_voided(struct job *j, const char *address, const char *code, int64_t *sent)
{
	struct pending *list = NULL;
	bool failed = false, hit = false;
	size_t n = 0, i;

	*sent = 0;
	if (pending_all(j->srv.st, (int64_t)j->srv.now, &list, &n) != STORE_OK)
		return false;
	for (i = 0; i < n; i++)
		if (strcasecmp(list[i].address, address) == 0) {
			if (list[i].voided && !hit && accounts_code_is(code, list[i].codehash, &failed))
				hit = true;
			*sent = list[i].sent;
		}
	free(list);
	return hit;
}

/* The refusal of a code voided by a later register from the same address (code_voided). */
static enum process_status refuse_voided(struct job *j, int64_t sent)
{
	char when[REPLY_TIME_SIZE];

	reply_time_str(sent, when);
	return job_refuse(j, NULL, "that code is void: a later register from %s replaced its registration, and a new "
	    "code was mailed here at %s. If you sent that register, confirm with its code and password; if you "
	    "did not, someone else did from your address: register again, and confirm with the new code and "
	    "your own password", j->in.from_addr, when);
}

/* The code given for p, under the throttle; false after a refusal (then *ps). */
static bool code_right(struct job *j, const struct pending *p, const char *code, enum process_status *ps)
{
	struct throttle_state ts;
	char until[REPLY_TIME_SIZE];
	enum store_status ss;
	int64_t sent;
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
		if (code_voided(j, p->address, code, &sent)) {
			/* the owner's own older code: not a guess */
			*ps = refuse_voided(j, sent);
			return false;
		}
		/* counted as a wrong password; nobody told: the address has not confirmed it wants mail */
		ss = throttle_fail(j->srv.st, &j->srv.cfg, p->userid, j->in.from_addr, j->srv.now, &ts);
		if (ss != STORE_OK)
			msg_warn("cannot record a wrong code: %s", store_error(j->srv.st));
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

/*
 * The password given for p (the code right): the one its register gave?
 * false after a refusal (then *ps).  A wrong one counts against the throttle.
 */
static bool password_right(struct job *j, const struct pending *p, const char *password, enum process_status *ps)
{
	struct throttle_state ts;
	struct store_user u;
	char when[REPLY_TIME_SIZE];
	enum store_status ss;
	bool right = false;

	memset(&u, 0, sizeof u);
	snprintf(u.hash, sizeof u.hash, "%s", p->pwhash);
	ss = store_user_check_password(&u, password, &right);
	explicit_bzero(&u, sizeof u);
	if (ss != STORE_OK) {
		*ps = job_hash_failure(j, p->userid);
		return false;
	}
	if (right)
		return true;
	ss = throttle_fail(j->srv.st, &j->srv.cfg, p->userid, j->in.from_addr, j->srv.now, &ts);
	if (ss != STORE_OK)
		msg_warn("cannot record a wrong password: %s", store_error(j->srv.st));
	reply_time_str(p->sent, when);
	*ps = job_refuse(j, NULL, "wrong password for the registration of %s: the code is right, but the password is "
	    "not the one its register (its code mailed at %s) gave. If you sent that register, send its password; "
	    "if you did not, someone else did from your address: register again with your own password, and "
	    "confirm with the new code", p->userid, when);
	return false;
}

/* A free user id like userid (userid2 ... userid9) into out, "" if none: the suggestion to a loser. */
static void suggest_id(struct job *j, const char *userid, char out[IDENT_USERID_MAX + 1])
{
	struct store_reserved r;
	struct store_user u;
	size_t len = strnlen(userid, IDENT_USERID_MAX - 1);
	char k;

	out[0] = '\0';
	for (k = '2'; k <= '9'; k++) {
		memcpy(out, userid, len);
		out[len] = k;
		out[len + 1] = '\0';
		if (store_user_find(j->srv.st, out, &u) == STORE_NOT_FOUND &&
		    store_reserved_find(j->srv.st, out, &r) == STORE_NOT_FOUND)
			return;
	}
	out[0] = '\0';
}

#define WELCOME_OPEN_MAX 3	/* open challenges the welcome offers */

/*
 * The open challenges a new player could take at once, the oldest first,
 * at most WELCOME_OPEN_MAX, each with the command that takes it; "" if
 * none (or the boards cannot be listed: the welcome goes all the same).
 * The caller frees it; NULL when out of memory.
 */
static char *open_challenges(struct job *j, const char *userid)
{
	struct strbuf sb = STRBUF_INIT;
	long *boards = NULL;
	size_t nb = 0, i, len, n = 0;
	char *text, dims[GAME_DIMENSIONS_SIZE];
	struct game g;

	if (store_list_boards(j->srv.st, &boards, &nb) != STORE_OK)
		nb = 0;
	for (i = 0; i < nb && n < WELCOME_OPEN_MAX; i++) {
		if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && g.board == boards[i] &&
		    game_is_open(&g)) {
			if (n++ == 0)
				strbuf_puts(&sb, "Or take an open challenge, waiting for whoever accepts it:\n\n");
			strbuf_printf(&sb, "Board %ld, %s%s, %s as %s:\n\n    accept %ld %s <password>\n\n", g.board,
			    game_dimensions(&g, false, dims), g.swap ? "" : ", no swap", game_open_challenger(&g),
			    strcmp(g.black, GAME_OPEN_SEAT) == 0 ? "White" : "Black", g.board, userid);
		}
		free(text);
	}
	free(boards);
	if (n == 0)
		strbuf_puts(&sb, "");
	return strbuf_finish(&sb);
}

/* The welcome of the account p: whom to play at once (the robot, open challenges: issue 40). */
static enum mail_status welcome(struct job *j, const struct pending *p, struct reply_mail *m)
{
	char subject[200], *open = open_challenges(j, p->userid);
	enum mail_status rs;

	if (open == NULL)
		return MAIL_NOMEM;
	snprintf(subject, sizeof subject, "Oust registration %s", p->userid);
	{
		struct reply_var vars[] = { { "userid", p->userid },
		    { "fullname", p->fullname[0] != '\0' ? p->fullname : "(none given)" },
		    { "registered_address", p->address }, { "open", open } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ p->address, p->fullname }, "registered", subject,
		    REPLY_VARS(vars), m);
	}
	free(open);
	return rs;
}

/* Confirm the registration p with code and password. */
static enum process_status confirm_pending(struct job *j, const struct pending *p, const char *code,
    const char *password)
{
	char other[IDENT_USERID_MAX + 1], lapse[REPLY_TIME_SIZE];
	struct reply_mail m;
	enum mail_status rs;
	struct job_account_result wrote;
	enum process_status ps;

	memset(&m, 0, sizeof m);
	if (!code_right(j, p, code, &ps) || !password_right(j, p, password, &ps))
		return ps;
	rs = welcome(j, p, &m);
	if (rs != MAIL_OK)
		return job_reply_failure(j, rs);
	ps = job_commit_account(j, &(struct job_account_change){ p->userid, p->pwhash, NULL, write_account, p },
	    &m, 1, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status == STORE_USER_EXISTS) {
		/* another address's registration of it was confirmed first (pending.h) */
		suggest_id(j, p->userid, other);
		ps = job_refuse(j, NULL, "the user id %s was taken meanwhile by another registration, confirmed first: "
		    "register another%s%s%s", p->userid, other[0] != '\0' ? " (" : "", other,
		    other[0] != '\0' ? " is free)" : "");
	} else if (wrote.status == STORE_RESERVED) {
		ps = job_refuse(j, NULL, "the user id %s is kept for a closed account: register another", p->userid);
	} else if (wrote.status == STORE_LIMIT) {
		reply_time_str(p->issued + PENDING_LIFE, lapse);
		ps = job_refuse(j, NULL, "no new account now: %s; send this confirm again in an hour (the registration "
		    "waits until %s)", wrote.err, lapse);
	} else if (wrote.status == STORE_TOO_BIG) {
		ps = job_refuse(j, NULL, "the server takes no new accounts: its users file is full; "
		    "ask the server's admin");
	} else if (wrote.status != STORE_OK) {
		ps = job_account_failure(j, &wrote, "cannot add the user");
	} else {
		job_detail(j, "ok", "registered %s <%s>", p->userid, p->address);
	}
	/* after the commit point: failing, the line stays open, the account telling it confirmed */
	if (wrote.status == STORE_OK && pending_done(j->srv.st, p->userid, p->codehash, (int64_t)j->srv.now) != STORE_OK)
		msg_warn("cannot mark the registration of %s done: %s", p->userid,
		    store_error(j->srv.st));
out:
	reply_mail_release(&m);
	return ps;
}

/*
 * The sender's registration p (of its address) was confirmed already: a
 * copy of the confirm mail that made the account (its welcome released by
 * recovery) when the account is p's and code is p's.
 */
static bool confirmed_copy(struct job *j, const struct pending *p, const struct store_user *u, const char *code)
{
	bool failed = false;

	return strcmp(u->hash, p->pwhash) == 0 && strcasecmp(u->address, p->address) == 0 &&
	    accounts_code_is(code, p->codehash, &failed);
}

/* The refusal of a confirm without the password: nothing checked, nothing counted. */
static enum process_status refuse_no_password(struct job *j, const struct pending *p)
{
	return job_refuse(j, NULL, "a registration is confirmed with its code and the password its register gave: "
	    "send \"confirm %s <code> <password>\" from %s, or reply to the code's mail with \"<code> <password>\" "
	    "as its first line", p->userid, p->address);
}

/*
 * The registration of the sender's address for userid (NULL: whichever):
 * *handled false when it has none and the command is another's (an
 * address change); else handled: made, refused, or a copy.  password NULL:
 * a confirm without one.
 */
static enum process_status confirm_registration(struct job *j, const char *userid, const char *code,
    const char *password, bool *handled)
{
	struct store_user u;
	struct pending p;
	enum store_status ss, us;
	int64_t sent;

	*handled = false;
	ss = pending_of_address(j->srv.st, j->in.from_addr, (int64_t)j->srv.now, &p);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND)
		return job_store_failure(j, ss, "cannot read the pending registrations");
	if (ss == STORE_NOT_FOUND || (userid != NULL && strcasecmp(p.userid, userid) != 0)) {
		if (password == NULL)
			return PROCESS_OK;
		*handled = true;
		if (code_voided(j, j->in.from_addr, code, &sent))
			return refuse_voided(j, sent);
		if (ss == STORE_OK)
			return job_refuse(j, NULL, "the registration from %s that waits for its confirm is of %s, not of "
			    "%s: send \"confirm %s <code> <password>\"", j->in.from_addr, p.userid, userid, p.userid);
		return job_refuse(j, NULL, "no registration of %s from %s waits for a confirm: register first with "
		    "register <userid> <password> [full name]", userid, j->in.from_addr);
	}
	us = store_user_find(j->srv.st, p.userid, &u);
	if (us != STORE_OK && us != STORE_NOT_FOUND)
		return job_store_failure(j, us, "cannot read the users file");
	if (us == STORE_OK && confirmed_copy(j, &p, &u, code)) {
		*handled = true;
		return job_account_copy(j, "confirm");
	}
	if (p.done) {
		if (password == NULL && userid != NULL)
			return PROCESS_OK;
		*handled = true;
		return job_refuse(j, NULL, "the account %s is made already: no registration from %s waits for a "
		    "confirm", p.userid, j->in.from_addr);
	}
	*handled = true;
	if (password == NULL)
		return refuse_no_password(j, &p);
	return confirm_pending(j, &p, code, password);
}

/* confirm <userid> <code> <password>: the registration of the sender's address. */
enum process_status confirm_register_run(struct job *j)
{
	bool handled;

	return confirm_registration(j, j->cmd.userid, j->cmd.password, j->cmd.new_password, &handled);
}

/* confirm <code>: the registration of the sender's address, refused without the password. */
enum process_status confirm_code_run(struct job *j)
{
	enum process_status ps;
	bool handled;

	ps = confirm_registration(j, NULL, j->cmd.password, NULL, &handled);
	if (ps != PROCESS_OK || handled)
		return ps;
	return job_refuse(j, NULL, "no registration from %s waits for a confirm: register first with "
	    "register <userid> <password> [full name]; an address change is confirmed with "
	    "confirm <userid> <code>", j->in.from_addr);
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
	enum mail_status rs;
	enum process_status ps;
	int i, v;
	bool ok;

	memset(mails, 0, sizeof mails);
	/* the confirm of a registration (register.c), without its password */
	ps = confirm_registration(j, c->userid, c->password, NULL, &ok);
	if (ps != PROCESS_OK || ok)
		return ps;
	snprintf(again, sizeof again, "send \"address %s <password> <new address>\" for a new one", c->userid);
	ps = codes_verify(j, ACCOUNTS_ADDRESS, c->userid, &u, &v, &rec, &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	if ((v == ACCOUNTS_USED || v == ACCOUNTS_STALE) && strcasecmp(u.address, rec.address) == 0 &&
	    strcasecmp(j->in.from_addr, rec.address) == 0) {
		/* the new address in place, by this code: a copy of the mail whose run did it */
		ps = job_account_copy(j, "confirm");
		goto out;
	}
	if (v != ACCOUNTS_RIGHT) {
		ps = codes_refuse(j, &u, v, again);
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
		rs = reply_account(&j->srv.rc, &(struct reply_to){ rec.address, u.fullname },
		    "confirmed", subject, REPLY_VARS(vars), &mails[0]);
		if (rs == MAIL_OK)
			rs = reply_account(&j->srv.rc, &(struct reply_to){ u.address, u.fullname },
			    "addressmoved", subject, REPLY_VARS(vars), &mails[1]);
	}
	if (rs != MAIL_OK) {
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
