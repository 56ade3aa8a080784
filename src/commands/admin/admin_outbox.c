/*
 * admin_outbox: oustpbm flush [--all], oustpbm outbox [retry [ID...|all]]
 * and requeue, the old name of outbox retry: the outbox of the home opened
 * (server_outbox), then what outbox/queuecmd.h does with it.
 */
#include "commands/admin/admincmd.h"

#include <string.h>

#include "outbox/queuecmd.h"

static enum process_status of_queuecmd(enum outbox_status qs)
{
	if (qs == OUTBOX_OK)
		return PROCESS_OK;
	if (outbox_status_temporary(qs))
		return PROCESS_TEMPFAIL;
	if (qs == OUTBOX_CONFIG)
		return PROCESS_CONFIG;
	if (qs == OUTBOX_NO_SUCH_ID)
		return PROCESS_NOINPUT;
	return PROCESS_IOERR;
}

/* The outbox of the home, or the complaint made. */
static enum process_status need_outbox(struct admin *a)
{
	char err[OUTBOX_ERR_MAX];
	enum outbox_status os = server_outbox(&a->srv, err, sizeof err);

	if (os == OUTBOX_OK)
		return PROCESS_OK;
	store_complain(a->srv.st, "cannot open the outbox: %s", err);
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_IOERR;
}

enum process_status admin_flush_run(struct admin *a)
{
	enum process_status as;
	bool all = a->nargs == 1 && strcmp(a->args[0], "--all") == 0;

	if (a->nargs > 1 || (a->nargs == 1 && !all))
		return admin_usage_error();
	as = need_outbox(a);
	if (as != PROCESS_OK)
		return as;
	return of_queuecmd(queuecmd_flush(a->srv.ob, &a->srv.cfg, all, stdout));
}

enum process_status admin_requeue_run(struct admin *a)
{
	enum process_status as = need_outbox(a);

	if (as != PROCESS_OK)
		return as;
	return of_queuecmd(queuecmd_requeue(a->srv.ob, &a->srv.cfg, a->args, a->nargs, stdout));
}

enum process_status admin_outbox_run(struct admin *a)
{
	enum process_status as;

	if (a->nargs >= 1 && strcmp(a->args[0], "retry") == 0) {
		a->args++;
		a->nargs--;
		return admin_requeue_run(a);
	}
	if (a->nargs > 0)
		return admin_usage_error();
	as = need_outbox(a);
	if (as != PROCESS_OK)
		return as;
	return of_queuecmd(queuecmd_list(a->srv.ob, &a->srv.cfg, stdout));
}
