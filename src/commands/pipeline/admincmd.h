/*
 * admincmd: what the handlers of the admin commands share (admin.h; their
 * rows are in main.c's table).  A handler gets the run prepared as its row
 * asks (CMD_HOME: oustpbm.conf loaded and the home opened in a->srv, the
 * log lines prefixed with the time and the command) and returns the
 * status main.c turns into the exit status.
 */
#ifndef OUSTPBM_ADMINCMD_H
#define OUSTPBM_ADMINCMD_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/gamefile.h"
#include "store/store.h"

/* One run of a command. */
struct admin {
	const char *cmd;	/* the command word */
	char **args;		/* after the command word */
	int nargs;
	struct server srv;	/* st NULL unless the row has CMD_HOME; the outbox opened on first use */
};

/* A bad command line: ADMIN_USAGE, for which main.c prints the row's usage line. */
enum admin_status admin_usage_error(void);

/* A store status as an admin status. */
enum admin_status admin_of_store(enum store_status ss);

/*
 * Board's game file read and parsed into g: ADMIN_OK; else the complaint
 * made (store_complain) and ADMIN_NOINPUT (no such board), ADMIN_DATAERR
 * (it does not parse) or the store's failure.  Either way g may be
 * released (game_release), and must be once ADMIN_OK.
 */
enum admin_status admin_load_board(struct admin *a, long board, struct game *g);

/* Standard output written and flushed: ADMIN_OK, else ADMIN_IOERR. */
enum admin_status admin_output_done(void);

/*
 * The board numbers of the arguments into *boards (the caller frees it;
 * NULL without arguments); a bad one is complained of, in the log too when
 * logged, and is a usage error.
 */
enum admin_status admin_board_args(struct admin *a, bool logged, long **boards);

/*
 * A retired home (oustpbm retire, store/lifecycle.h): *retired set, and
 * cron's runs (cleanup, robot) do no game work there (no reminder, no loss
 * on time for players whose mail now bounces), only the outbox flush of
 * the replies that are due, logged as their "done" line.  Not retired:
 * ADMIN_OK and nothing done.
 */
enum admin_status admin_retired_flush(struct admin *a, bool *retired);

/* A password line of standard input (--stdin), CR LF included. */
#define ADMIN_PASSWORD_LINE (STORE_PASSWORD_MAX + 3)

/*
 * The password of adduser and passwd (admin_passwd.c): read from the first
 * line of standard input with --stdin, else made at random (*shown: to be
 * printed).  A bad one is complained of.
 */
enum admin_status admin_password_get(bool from_stdin, char pw[ADMIN_PASSWORD_LINE], bool *shown);

/* The handlers, one per row of main.c's table, each in keywords/admin_<name>.c. */
enum admin_status admin_adduser_run(struct admin *a);
enum admin_status admin_passwd_run(struct admin *a);
enum admin_status admin_deluser_run(struct admin *a);
enum admin_status admin_list_run(struct admin *a);
enum admin_status admin_show_run(struct admin *a);
enum admin_status admin_cleanup_run(struct admin *a);
enum admin_status admin_robot_run(struct admin *a);
enum admin_status admin_robot_mail_run(struct admin *a);
enum admin_status admin_web_run(struct admin *a);
enum admin_status admin_fsck_run(struct admin *a);
enum admin_status admin_edit_run(struct admin *a);
enum admin_status admin_ratings_run(struct admin *a);
enum admin_status admin_status_run(struct admin *a);
enum admin_status admin_init_run(struct admin *a);
enum admin_status admin_retire_run(struct admin *a);
enum admin_status admin_delboard_run(struct admin *a);
enum admin_status admin_export_run(struct admin *a);
enum admin_status admin_import_run(struct admin *a);
enum admin_status admin_fetch_run(struct admin *a);
/* keywords/admin_outbox.c: flush, outbox [retry], and requeue, the old name of outbox retry */
enum admin_status admin_flush_run(struct admin *a);
enum admin_status admin_outbox_run(struct admin *a);
enum admin_status admin_requeue_run(struct admin *a);

#endif
