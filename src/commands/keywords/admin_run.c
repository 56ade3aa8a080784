/*
 * admin_run: the admin commands that run a module of their own: cleanup,
 * robot, web, fsck and edit (cleanup.h, robot.h, web.h, fsck.h, edit.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/admincmd.h"
#include "commands/services/cleanup.h"
#include "commands/services/edit.h"
#include "commands/services/fsck.h"
#include "commands/services/review.h"
#include "commands/services/robot.h"
#include "commands/services/web.h"
#include "outbox/transport.h"
#include "store/ratings.h"

enum admin_status admin_web_run(struct admin *a)
{
	char err[WEB_ERR_MAX];
	const char *dir = a->nargs == 1 ? a->args[0] : a->srv.cfg.web_dir;
	enum web_status ws;
	struct web *w = NULL;

	if (a->nargs > 1)
		return admin_usage_error();
	if (dir[0] == '\0') {
		fprintf(stderr, "oustpbm: web: no directory given and no web_dir in %s\n", CONFIG_FILE);
		return ADMIN_USAGE;
	}
	ws = web_open(&a->srv.cfg, a->srv.st, dir, &w, err, sizeof err);
	if (ws == WEB_OK) {
		ws = web_build(w);
		if (ws != WEB_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		else
			printf("web: %zu pages written\n", web_pages_written(w));
		web_close(w);
	}
	if (ws != WEB_OK) {
		fprintf(stderr, "oustpbm: web: %s\n", err);
		switch (ws) {
		case WEB_TIMEOUT: return ADMIN_TEMPFAIL;
		case WEB_TEMPLATE: return ADMIN_CONFIG;
		case WEB_STORE: return ADMIN_DATAERR;
		default: return ADMIN_IOERR;
		}
	}
	store_log(a->srv.st, "admin web %s", dir);
	return admin_output_done();
}

/*
 * The board numbers of the arguments into *boards (the caller frees it;
 * NULL without arguments); a bad one is complained of, in the log too when
 * logged, and is a usage error.
 */
static enum admin_status board_args(struct admin *a, bool logged, long **boards)
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
				fprintf(stderr, "oustpbm: '%s' is not a board number (%d to %d)\n", a->args[i],
				    IDENT_BOARD_MIN, IDENT_BOARD_MAX);
			free(*boards);
			*boards = NULL;
			return ADMIN_USAGE;
		}
	}
	return ADMIN_OK;
}

enum admin_status admin_fsck_run(struct admin *a)
{
	enum fsck_status fs;
	enum admin_status as;
	unsigned problems = 0;
	long *boards = NULL;

	as = board_args(a, true, &boards);
	if (as != ADMIN_OK)
		return as;
	fs = fsck_run(a->srv.st, boards, (size_t)a->nargs, stdout, &problems);
	free(boards);
	/* the last line says how it went, also when all is well (silence reads as a hang) */
	if (fs != FSCK_OK)
		printf("fsck: %u problem%s found, then the check stopped (%s)\n", problems, problems == 1 ? "" : "s",
		    fs == FSCK_TEMPFAIL ? "a temporary failure: run it again" : "a system error");
	else if (problems > 0)
		printf("fsck: %u problem%s found\n", problems, problems == 1 ? "" : "s");
	else
		printf("fsck: no problems found\n");
	if (admin_output_done() != ADMIN_OK)
		return ADMIN_IOERR;
	if (problems > 0)
		store_complain(a->srv.st, "fsck: %u problem%s", problems, problems == 1 ? "" : "s");
	if (fs != FSCK_OK)
		return fs == FSCK_TEMPFAIL ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	return problems > 0 ? ADMIN_DATAERR : ADMIN_OK;
}

enum admin_status admin_edit_run(struct admin *a)
{
	long board;

	if (a->nargs != 1)
		return admin_usage_error();
	if (!ident_board_parse(a->args[0], strlen(a->args[0]), &board)) {
		store_complain(a->srv.st, "'%s' is not a board number (%d to %d)", a->args[0], IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	return edit_board(a->srv.st, board, a->srv.now, a->srv.stamp);
}

/* oustpbm robot [BOARD...]: the robot turns left over (robot.h), then the outbox flush. */
enum admin_status admin_robot_run(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct robot_stats stats;
	struct review_stats rvstats = { 0, 0 };
	struct outbox_stats fl;
	struct outbox *ob = NULL;
	enum robot_status rs;
	enum outbox_status os;
	enum admin_status as = ADMIN_OK;
	char err[OUTBOX_ERR_MAX];
	long *boards = NULL;

	as = board_args(a, false, &boards);
	if (as != ADMIN_OK)
		return as;
	rs = robot_run(&a->srv, boards, (size_t)a->nargs, &stats);
	free(boards);
	/* the reviews asked for by mail (commands/services/review.h): only a run over every board does them */
	if (a->nargs == 0 && !review_waiting(&a->srv, &rvstats) && rs == ROBOT_OK)
		rs = ROBOT_FAULT;
	memset(&fl, 0, sizeof fl);
	os = outbox_open(a->srv.st, &ob, err, sizeof err);
	if (os == OUTBOX_OK && ops != NULL)
		os = outbox_flush(ob, ops, &a->srv.cfg, &fl);
	if (os != OUTBOX_OK || ops == NULL) {
		fprintf(stderr, "oustpbm: robot: cannot flush the outbox: %s\n",
		    ops == NULL ? "unknown transport" : ob != NULL ? outbox_error(ob) : err);
		as = ops == NULL ? ADMIN_CONFIG : outbox_status_temporary(os) ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	}
	outbox_close(ob);
	store_log(a->srv.st, "%s robot done: %u boards, %u robot turns played, %u left for the next run; "
	    "mail: %u sent, %u deferred, %u failed", a->srv.stamp, stats.boards, stats.played, stats.failed,
	    fl.delivered, fl.deferred, fl.failed);
	if (rvstats.done > 0 || rvstats.failed > 0)
		store_log(a->srv.st, "%s robot reviews: %u mailed, %u failed", a->srv.stamp, rvstats.done, rvstats.failed);
	if (as != ADMIN_OK)
		return as;
	switch (rs) {
	case ROBOT_OK:
		return ADMIN_OK;
	case ROBOT_FAULT:
	case ROBOT_TEMPFAIL:
		return ADMIN_TEMPFAIL;	/* left for the next run */
	case ROBOT_CONFIG:
		return ADMIN_CONFIG;
	case ROBOT_ERROR:
		break;
	}
	return ADMIN_SOFTWARE;
}

enum admin_status admin_cleanup_run(struct admin *a)
{
	struct cleanup_stats stats;
	enum cleanup_status cs;

	if (a->nargs != 0)
		return admin_usage_error();
	/* a game's end a crash left out of the ratings (ratings.h) */
	ratings_after_commit(a->srv.st, a->srv.cfg.lock_timeout_ms);
	cs = cleanup_run(&a->srv, &stats);
	store_log(a->srv.st, "%s cleanup done: %u boards, %u robot turns, %u reminded, %u lost on time, %u failed; "
	    "mail: %u sent, %u deferred, %u failed", a->srv.stamp, stats.boards, stats.robot, stats.reminded,
	    stats.timed_out, stats.failed, stats.flush.delivered, stats.flush.deferred, stats.flush.failed);
	switch (cs) {
	case CLEANUP_OK:
		return ADMIN_OK;
	case CLEANUP_TEMPFAIL:
		return ADMIN_TEMPFAIL;
	case CLEANUP_DATAERR:
		return ADMIN_DATAERR;
	case CLEANUP_CONFIG:
		return ADMIN_CONFIG;
	case CLEANUP_SOFTWARE:
		break;
	}
	return ADMIN_SOFTWARE;
}


/*
 * oustpbm ratings: the marked boards settled, then the ratings file on
 * standard output.  --rebuild: the file made anew from the game files.
 */
enum admin_status admin_ratings_run(struct admin *a)
{
	struct ratings r;
	enum store_status ss;
	char err[RATINGS_ERR_MAX], *text = NULL;
	size_t len;
	bool rebuild;

	if (a->nargs > 1 || (a->nargs == 1 && strcmp(a->args[0], "--rebuild") != 0))
		return admin_usage_error();
	rebuild = a->nargs == 1;
	ss = rebuild ? ratings_rebuild(a->srv.st, a->srv.cfg.lock_timeout_ms, err) :
	    ratings_settle(a->srv.st, a->srv.cfg.lock_timeout_ms, err);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", err);
		return ss == STORE_CORRUPT ? ADMIN_DATAERR : admin_of_store(ss);
	}
	ss = ratings_load(a->srv.st, false, &r, err);
	if (ss == STORE_OK)
		ss = ratings_format(&r, &text, &len);
	else
		store_complain(a->srv.st, "%s", err);
	if (ss == STORE_OK && rebuild) {
		store_log(a->srv.st, "%s admin ratings --rebuild: %zu players, %zu games", a->srv.stamp, r.nplayers,
		    r.nresults);
		printf("oustpbm: ratings rebuilt: %zu player ratings from %zu rated games\n", r.nplayers, r.nresults);
	} else if (ss == STORE_OK) {
		fwrite(text, 1, len, stdout);
	}
	ratings_release(&r);
	free(text);
	if (ss != STORE_OK)
		return ss == STORE_CORRUPT ? ADMIN_DATAERR : admin_of_store(ss);
	return admin_output_done();
}
