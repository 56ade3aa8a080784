/* admin: the run of one admin command (main.c holds their table).  See admin.h. */
#include "commands/admin/admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "outbox/transport.h"
#include "store/lifecycle.h"

enum process_status admin_usage_error(void)
{
	return PROCESS_USAGE;
}

enum process_status admin_of_store(enum store_status ss)
{
	switch (ss) {
	case STORE_OK:
		return PROCESS_OK;
	case STORE_NOT_FOUND:
		return PROCESS_NOUSER;
	case STORE_USER_EXISTS:
	case STORE_RESERVED:
		return PROCESS_EXISTS;
	case STORE_BAD_ID:
	case STORE_BAD_ADDRESS:
	case STORE_BAD_PASSWORD:
	case STORE_BAD_NAME:
	case STORE_CORRUPT:
	case STORE_TOO_BIG:
		return PROCESS_DATAERR;
	default:
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
}

enum process_status admin_load_board(struct admin *a, long board, struct game *g)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum process_status as = PROCESS_OK;
	char *text = NULL;
	size_t len;

	memset(g, 0, sizeof *g);
	ss = store_board_read(a->srv.st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		store_complain(a->srv.st, "board %ld does not exist", board);
		return PROCESS_NOINPUT;
	}
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	if (gamefile_parse(text, len, g, &gerr) != GAME_OK) {
		store_complain(a->srv.st, "games/%ld.game %s", board, gerr.msg);
		as = PROCESS_DATAERR;
	}
	free(text);
	return as;
}

enum process_status admin_output_done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		msg_warn("cannot write the output");
		return PROCESS_IOERR;
	}
	return PROCESS_OK;
}

/* The server of a command that runs on a home opened (CMD_HOME); else its failure told. */
static enum process_status open_home(struct admin *a)
{
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX], prefix[STORE_LOG_PREFIX_MAX];
	enum process_status ss;

	ss = server_open(&a->srv, err, sizeof err);
	if (ss != PROCESS_OK) {
		msg_warn("%s", err);
		/* logged too when the home is there (opened with the defaults) */
		if (ss == PROCESS_CONFIG && a->srv.st != NULL)
			store_log(a->srv.st, "%s admin %s failed: configuration error: %s", a->srv.stamp, a->cmd, err);
		return ss;	/* CONFIG, NOHOME (both exit 78), NOPERM or TEMPFAIL */
	}
	snprintf(prefix, sizeof prefix, "%s admin %s", a->srv.stamp, a->cmd);
	store_set_log_prefix(a->srv.st, prefix);
	return PROCESS_OK;
}

enum process_status admin_main(const struct admin_call *call)
{
	struct admin a;
	enum process_status as;

	memset(&a, 0, sizeof a);
	a.cmd = call->name;
	a.args = call->args;
	a.nargs = call->nargs;
	server_init(&a.srv, call->home);
	if (call->home[0] == '\0')
		return PROCESS_USAGE;
	as = call->open_home ? open_home(&a) : PROCESS_OK;
	if (as == PROCESS_OK)
		as = call->run(&a);
	server_close(&a.srv);
	return as;
}

enum process_status admin_board_args(struct admin *a, bool logged, long **boards)
{
	int i;

	*boards = NULL;
	if (a->nargs > 0) {
		*boards = calloc((size_t)a->nargs, sizeof **boards);
		if (*boards == NULL)
			return PROCESS_TEMPFAIL;
	}
	for (i = 0; i < a->nargs; i++) {
		if (!ident_board_parse(a->args[i], strlen(a->args[i]), &(*boards)[i])) {
			if (logged)
				store_complain(a->srv.st, "'%s' is not a board number (%d to %d)", a->args[i],
				    IDENT_BOARD_MIN, IDENT_BOARD_MAX);
			else
				msg_warn("'%s' is not a board number (%d to %d)", a->args[i],
				    IDENT_BOARD_MIN, IDENT_BOARD_MAX);
			free(*boards);
			*boards = NULL;
			return PROCESS_USAGE;
		}
	}
	return PROCESS_OK;
}

enum process_status admin_retired_flush(struct admin *a, bool *retired)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct outbox_stats fl;
	enum outbox_status os = OUTBOX_OK;
	char err[OUTBOX_ERR_MAX];
	enum store_status ss;
	int64_t since;

	*retired = false;
	ss = lifecycle_read(a->srv.st, LIFECYCLE_RETIRED_FILE, &since);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;
	if (ss != STORE_OK && ss != STORE_CORRUPT) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	*retired = true;
	memset(&fl, 0, sizeof fl);
	if (ops == NULL) {
		store_complain(a->srv.st, "unknown transport '%s'", a->srv.cfg.transport);
		return PROCESS_CONFIG;
	}
	os = server_outbox(&a->srv, err, sizeof err);
	if (os == OUTBOX_OK)
		os = outbox_flush(a->srv.ob, ops, &a->srv.cfg, &fl);
	else
		store_complain(a->srv.st, "cannot open the outbox: %s", err);
	/* the "done" line status reads: cron is alive, it has nothing else to do */
	store_log(a->srv.st, "%s %s done: retired (oustpbm retire): no game work; mail: %u sent, %u deferred, %u failed",
	    a->srv.stamp, a->cmd, fl.delivered, fl.deferred, fl.failed);
	if (os != OUTBOX_OK)
		return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	return PROCESS_OK;
}
