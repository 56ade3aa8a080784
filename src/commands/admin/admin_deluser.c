/* admin_deluser: oustpbm deluser [--dry-run] USERID, an account closed (services/signoff.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/services/signoff.h"
#include "commands/services/web.h"
#include "store/accounts.h"



/*
 * deluser --dry-run USERID: what deluser would do, from the game files as
 * they are (read without locks: a move meanwhile may change it), nothing
 * changed.
 */
static enum process_status deluser_dry_run(struct admin *a, const char *userid)
{
	char list[SIGNOFF_LIST_MAX] = "", until[GAMEFILE_TIME_SIZE];
	struct store_user u;
	enum store_status ss;
	unsigned n = 0;
	long *boards = NULL;
	size_t count = 0, i, len;
	struct game g;

	ss = store_user_find(a->srv.st, userid, &u);
	if (ss != STORE_OK) {
		if (ss == STORE_NOT_FOUND)
			store_complain(a->srv.st, "there is no user %s", userid);
		else
			store_complain(a->srv.st, "deluser %s: %s", userid, store_error(a->srv.st));
		return ss == STORE_NOT_FOUND ? PROCESS_NOUSER : admin_of_store(ss);
	}
	ss = store_list_boards(a->srv.st, &boards, &count);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "deluser %s: %s", userid, store_error(a->srv.st));
		return admin_of_store(ss);
	}
	for (i = 0; i < count; i++) {
		if (admin_load_board(a, boards[i], &g) == PROCESS_OK && !game_over(&g) &&
		    (strcmp(g.black, u.userid) == 0 || strcmp(g.white, u.userid) == 0)) {
			len = strlen(list);
			snprintf(list + len, sizeof list - len, "%s%ld", n > 0 ? ", " : "", boards[i]);
			n++;
		}
		game_release(&g);
	}
	free(boards);
	gamefile_time_str(signoff_reserved_until(&a->srv.cfg, (int64_t)a->srv.now), until);
	printf("deluser --dry-run: would close %s <%s>: %u board%s resigned%s%s%s, each opponent told; %s told "
	    "by mail; the user id reserved until %s; nothing changed\n", u.userid, u.address, n, n == 1 ? "" : "s",
	    n > 0 ? " (" : "", list, n > 0 ? ")" : "", u.address, until);
	return admin_output_done();
}

/* The closed account's owner told, the mail queued in ob; false (said why) if it could not be. */
static bool deluser_tell(struct admin *a, const struct store_user *u, const struct signoff_result *res,
    const char *until)
{
	struct outbox *ob = a->srv.ob;
	struct reply_ctx *rc = &a->srv.rc;
	char count[16], subject[120];
	struct reply_mail m;
	enum outbox_status os;

	snprintf(count, sizeof count, "%u", res->resigned);
	snprintf(subject, sizeof subject, "Oust account %s closed", u->userid);
	{
		struct reply_var vars[] = { { "userid", u->userid }, { "count", count },
			{ "boards", res->list[0] != '\0' ? res->list : "none" }, { "until", until } };

		if (reply_account(rc, &(struct reply_to){ u->address, u->fullname },
		    "closed", subject, vars, sizeof vars / sizeof vars[0],
		    &m) != MAIL_OK) {
			msg_warn("deluser %s: closed, but its owner cannot be told: %s", u->userid,
			    rc->err);
			return false;
		}
	}
	os = outbox_enqueue(ob, a->srv.cfg.from_address, m.rcpt, m.msg, m.len);
	reply_mail_release(&m);
	if (os != OUTBOX_OK) {
		msg_warn("deluser %s: closed, but its owner's mail cannot be queued: %s", u->userid,
		    outbox_error(ob));
		return false;
	}
	return true;
}

/*
 * deluser [--dry-run] USERID: close the account as the mail command signoff
 * does (signoff.h): its boards resigned, the opponents told, its id
 * reserved, its codes dropped, its owner told by mail (templates/closed.txt);
 * the mails are flushed.  Under accounts.lock, after the confirmations a
 * crashed mail left are settled.
 */
enum process_status admin_deluser_run(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct store_lock lock = STORE_LOCK_INIT;
	char err[SIGNOFF_ERR_MAX > OUTBOX_ERR_MAX ? SIGNOFF_ERR_MAX : OUTBOX_ERR_MAX], until[GAMEFILE_TIME_SIZE];
	struct signoff_result res;
	struct outbox_stats fl;
	struct store_user u;
	enum process_status sos;
	enum outbox_status os;
	enum store_status ss;
	enum process_status as = PROCESS_OK;
	int64_t until_t;

	bool told = false;

	if (a->nargs == 2 && strcmp(a->args[0], "--dry-run") == 0) {
		if (game_user_is_robot(a->args[1])) {
			store_complain(a->srv.st, "deluser: %s is the built-in robot player: it has no account", GAME_ROBOT_USERID);
			return PROCESS_DATAERR;
		}
		return deluser_dry_run(a, a->args[1]);
	}
	if (a->nargs != 1)
		return admin_usage_error();
	if (game_user_is_robot(a->args[0])) {
		store_complain(a->srv.st, "deluser: %s is the built-in robot player: it has no account", GAME_ROBOT_USERID);
		return PROCESS_DATAERR;
	}
	server_reply_init(&a->srv, NULL);
	ss = store_lock_accounts(a->srv.st, true, &lock);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "deluser %s: %s", a->args[0], store_error(a->srv.st));
		as = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	os = server_outbox(&a->srv, err, sizeof err);
	if (os == OUTBOX_OK)
		os = outbox_recover_accounts(a->srv.ob, NULL);
	if (os != OUTBOX_OK) {
		store_complain(a->srv.st, "deluser %s: cannot open the outbox: %s", a->args[0], a->srv.ob != NULL ?
		    outbox_error(a->srv.ob) : err);
		as = outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	ss = store_user_find(a->srv.st, a->args[0], &u);
	if (ss != STORE_OK) {
		if (ss == STORE_NOT_FOUND)
			store_complain(a->srv.st, "there is no user %s", a->args[0]);
		else
			store_complain(a->srv.st, "deluser %s: %s", a->args[0], store_error(a->srv.st));
		as = ss == STORE_NOT_FOUND ? PROCESS_NOUSER : store_status_temporary(ss) ? PROCESS_TEMPFAIL :
		    PROCESS_DATAERR;
		goto out;
	}
	sos = signoff_resign_all(&a->srv, u.userid, &res, err, sizeof err);
	if (sos != PROCESS_OK) {
		store_complain(a->srv.st, "deluser %s: %s (%u board%s resigned before; the account stays: run it again)",
		    u.userid, err, res.resigned, res.resigned == 1 ? "" : "s");
		as = sos == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : sos == PROCESS_DATAERR ? PROCESS_DATAERR :
		    sos == PROCESS_CONFIG ? PROCESS_CONFIG : PROCESS_SOFTWARE;
		goto flush;
	}
	until_t = signoff_reserved_until(&a->srv.cfg, (int64_t)a->srv.now);
	gamefile_time_str(until_t, until);
	ss = signoff_remove(&a->srv, u.userid, NULL, (int64_t)a->srv.now, until_t);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "deluser %s: %s", u.userid, store_error(a->srv.st));
		as = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_DATAERR;
		goto flush;
	}
	if (accounts_codes_drop(a->srv.st, u.userid) != STORE_OK)
		msg_warn("deluser %s: cannot drop its codes: %s", u.userid, store_error(a->srv.st));
	web_standings_after(&a->srv);	/* the account leaves the standings page too */
	told = deluser_tell(a, &u, &res, until);
	store_log(a->srv.st, "%s admin deluser %s <%s>: %u board%s resigned%s%s, user id reserved until %s", a->srv.stamp,
	    u.userid, u.address, res.resigned, res.resigned == 1 ? "" : "s", res.resigned > 0 ? ": " : "", res.list,
	    until);
	printf("%s closed: %u board%s resigned%s%s; the user id is reserved until %s; %s%s by mail\n", u.userid,
	    res.resigned, res.resigned == 1 ? "" : "s", res.resigned > 0 ? ": " : "", res.list, until,
	    told ? "told " : "not told (see above) ", u.address);
flush:
	store_unlock(&lock);
	if (res.resigned > 0 || told) {
		os = ops != NULL ? outbox_flush(a->srv.ob, ops, &a->srv.cfg, &fl) : OUTBOX_IO;
		if (os != OUTBOX_OK) {
			msg_warn("deluser: cannot flush the outbox: %s",
			    ops == NULL ? "unknown transport" : outbox_error(a->srv.ob));
			if (as == PROCESS_OK)
				as = ops == NULL ? PROCESS_CONFIG : outbox_status_temporary(os) ? PROCESS_TEMPFAIL :
				    PROCESS_SOFTWARE;
		}
	}
	if (as == PROCESS_OK)
		as = admin_output_done();
out:
	store_unlock(&lock);
	return as;
}
