/* admin: the run of one admin command (main.c holds their table).  See admin.h. */
#include "commands/admin/admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "outbox/transport.h"
#include "store/lifecycle.h"

enum admin_status admin_usage_error(void)
{
	return ADMIN_USAGE;
}

enum admin_status admin_of_store(enum store_status ss)
{
	switch (ss) {
	case STORE_OK:
		return ADMIN_OK;
	case STORE_NOT_FOUND:
		return ADMIN_NOUSER;
	case STORE_USER_EXISTS:
	case STORE_RESERVED:
		return ADMIN_EXISTS;
	case STORE_BAD_ID:
	case STORE_BAD_ADDRESS:
	case STORE_BAD_PASSWORD:
	case STORE_BAD_NAME:
	case STORE_CORRUPT:
	case STORE_TOO_BIG:
		return ADMIN_DATAERR;
	default:
		return store_status_temporary(ss) ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	}
}

enum admin_status admin_load_board(struct admin *a, long board, struct game *g)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum admin_status as = ADMIN_OK;
	char *text = NULL;
	size_t len;

	memset(g, 0, sizeof *g);
	ss = store_board_read(a->srv.st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		store_complain(a->srv.st, "board %ld does not exist", board);
		return ADMIN_NOINPUT;
	}
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	if (gamefile_parse(text, len, g, &gerr) != GAME_OK) {
		store_complain(a->srv.st, "games/%ld.game %s", board, gerr.msg);
		as = ADMIN_DATAERR;
	}
	free(text);
	return as;
}

enum admin_status admin_output_done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		msg_warn("cannot write the output");
		return ADMIN_IOERR;
	}
	return ADMIN_OK;
}

/* The server of a command that runs on a home opened (CMD_HOME); else its failure told. */
static enum admin_status open_home(struct admin *a)
{
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX], prefix[STORE_LOG_PREFIX_MAX];

	switch (server_open(&a->srv, err, sizeof err)) {
	case SERVER_OK:
		break;
	case SERVER_CONFIG:
		/* logged too when the home is there (opened with the defaults) */
		msg_warn("%s", err);
		if (a->srv.st != NULL)
			store_log(a->srv.st, "%s admin %s failed: configuration error: %s", a->srv.stamp, a->cmd, err);
		return ADMIN_CONFIG;
	case SERVER_NOPERM:
		msg_warn("%s", err);
		return ADMIN_NOPERM;
	case SERVER_TEMPFAIL:
		msg_warn("%s", err);
		return ADMIN_TEMPFAIL;
	case SERVER_HOME:
		msg_warn("%s", err);
		return ADMIN_CONFIG;
	}
	snprintf(prefix, sizeof prefix, "%s admin %s", a->srv.stamp, a->cmd);
	store_set_log_prefix(a->srv.st, prefix);
	return ADMIN_OK;
}

enum admin_status admin_main(const struct admin_call *call)
{
	struct admin a;
	enum admin_status as;

	memset(&a, 0, sizeof a);
	a.cmd = call->name;
	a.args = call->args;
	a.nargs = call->nargs;
	server_init(&a.srv, call->home);
	if (call->home[0] == '\0')
		return ADMIN_USAGE;
	as = call->open_home ? open_home(&a) : ADMIN_OK;
	if (as == ADMIN_OK)
		as = call->run(&a);
	server_close(&a.srv);
	return as;
}

enum admin_status admin_board_args(struct admin *a, bool logged, long **boards)
{
	int i;

	*boards = NULL;
	if (a->nargs > 0) {
		*boards = calloc((size_t)a->nargs, sizeof **boards);
		if (*boards == NULL)
			return ADMIN_TEMPFAIL;
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
			return ADMIN_USAGE;
		}
	}
	return ADMIN_OK;
}

enum admin_status admin_retired_flush(struct admin *a, bool *retired)
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
		return ADMIN_OK;
	if (ss != STORE_OK && ss != STORE_CORRUPT) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	*retired = true;
	memset(&fl, 0, sizeof fl);
	if (ops == NULL) {
		store_complain(a->srv.st, "unknown transport '%s'", a->srv.cfg.transport);
		return ADMIN_CONFIG;
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
		return outbox_status_temporary(os) ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	return ADMIN_OK;
}
