/*
 * admin_retire: oustpbm retire [--undo], a server taken down without
 * losing a mail.  The order is what matters: removing the wiring first
 * (the old documented way) let the account's MTA file mail in
 * /var/mail/<account>, where nobody looked.  So:
 *
 *   1. the retired stamp (store/lifecycle.h): from then on every mail
 *      handed to the server exits 69 (EX_UNAVAILABLE, process.c) and the
 *      MTA bounces it to its sender with the reason;
 *   2. the outbox flushed, every reply now (flush --all);
 *   3. only when nothing is left queued, the admin is told to remove the
 *      wiring, and how: the address itself (its alias, or the account),
 *      so that the MTA keeps refusing it, never only ~/.forward.
 *
 * A reply that cannot be sent yet (its host down) keeps the command at
 * exit 75 with the count: it is run again (cron's flush goes on too)
 * until it exits 0.  --undo removes the stamp: mail is taken again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/admin/admincmd.h"
#include "outbox/queuecmd.h"
#include "store/lifecycle.h"

static enum process_status undo(struct admin *a)
{
	enum store_status ss = lifecycle_clear(a->srv.st, LIFECYCLE_RETIRED_FILE);

	if (ss == STORE_NOT_FOUND) {
		printf("oustpbm: %s is not retired: it takes mail\n", a->srv.home);
		return admin_output_done();
	}
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "cannot remove the retired stamp: %s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	store_log(a->srv.st, "%s admin retire --undo: mail is taken again", a->srv.stamp);
	printf("oustpbm: %s takes mail again; put the wiring back if you removed it (.forward or the alias, "
	    "the crontab or the timers)\n", a->srv.home);
	return admin_output_done();
}

/* The replies still queued after the flush, or -1 if the outbox cannot be listed. */
static long queued(struct admin *a)
{
	struct outbox_entry *e = NULL;
	size_t n = 0;

	if (outbox_list(a->srv.ob, &e, &n) != OUTBOX_OK) {
		store_complain(a->srv.st, "cannot list the outbox: %s", outbox_error(a->srv.ob));
		return -1;
	}
	free(e);
	return (long)n;
}

enum process_status admin_retire_run(struct admin *a)
{
	char err[OUTBOX_ERR_MAX], when[GAMEFILE_TIME_SIZE];
	enum outbox_status qs;
	enum store_status ss;
	int64_t since = 0;
	long left;

	if (a->nargs == 1 && strcmp(a->args[0], "--undo") == 0)
		return undo(a);
	if (a->nargs != 0)
		return admin_usage_error();
	/* 1: mail bounces from now on; a second run keeps the first time */
	ss = lifecycle_read(a->srv.st, LIFECYCLE_RETIRED_FILE, &since);
	if (ss == STORE_NOT_FOUND || ss == STORE_CORRUPT) {
		since = (int64_t)a->srv.now;
		ss = lifecycle_mark(a->srv.st, LIFECYCLE_RETIRED_FILE, a->srv.now);
		if (ss != STORE_OK) {
			store_complain(a->srv.st, "cannot write the retired stamp: %s", store_error(a->srv.st));
			return admin_of_store(ss);
		}
		store_log(a->srv.st, "%s admin retire: new mail bounces (exit 69) from now on", a->srv.stamp);
	} else if (ss != STORE_OK) {
		store_complain(a->srv.st, "cannot read the retired stamp: %s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	printf("oustpbm: %s is retired since %s: every new mail is returned to its sender (exit 69)\n",
	    a->srv.home, gamefile_time_str(since, when));
	/* 2: the replies already made go out, backoff or not */
	if (server_outbox(&a->srv, err, sizeof err) != OUTBOX_OK) {
		store_complain(a->srv.st, "cannot open the outbox: %s", err);
		return PROCESS_TEMPFAIL;
	}
	qs = queuecmd_flush(a->srv.ob, &a->srv.cfg, true, stdout);
	if (qs == OUTBOX_CONFIG)
		return PROCESS_CONFIG;
	left = queued(a);
	if (left < 0)
		return PROCESS_TEMPFAIL;
	if (qs != OUTBOX_OK || left > 0) {
		printf("oustpbm: %ld repl%s still queued (oustpbm outbox says why): keep the wiring and run "
		    "oustpbm retire again until none is left\n", left, left == 1 ? "y is" : "ies are");
		store_log(a->srv.st, "%s admin retire: %ld replies still queued", a->srv.stamp, left);
		(void)admin_output_done();
		return PROCESS_TEMPFAIL;
	}
	store_log(a->srv.st, "%s admin retire: the outbox is empty", a->srv.stamp);
	/* 3: only now the wiring, the address first, so the MTA keeps refusing it */
	printf("oustpbm: the outbox is empty: nothing is lost.  Now, in this order:\n"
	    "  1. remove the server's address, so the MTA refuses its mail: the alias line (/etc/aliases, then\n"
	    "     newaliases) or the account (deluser); never only ~/.forward, whose removal files the mail\n"
	    "     in /var/mail unread (until then mail bounces here, with the reason);\n"
	    "  2. the crontab (crontab -r) or the timers (systemctl disable --now oustpbm-flush.timer\n"
	    "     oustpbm-robot.timer oustpbm-cleanup.timer);\n"
	    "  3. keep a copy of %s (games, users, log); oustpbm retire --undo reopens it.\n", a->srv.home);
	return admin_output_done();
}
