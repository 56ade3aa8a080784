/*
 * admin: the commands an admin runs on the server's own machine (not by
 * mail), each on the home of -d DIR, else $OUSTPBM_HOME, else ~/oustpbm
 * (config_default_home()).  Their rows are in main.c's one table of
 * commands, commands[], which reads the command line and calls
 * admin_main(): the command words, their arguments and what each does are
 * listed there alone (`oustpbm --help` prints them; doc/oustpbm.1 and
 * tests/sh/man.sh keep the man page to it), and each row's handler is
 * admincmd.h's admin_<name>_run, in keywords/admin_<name>.c.
 *
 * adduser and passwd print a new random password on standard output, or
 * with --stdin read it from the first line of standard input (a script's
 * way to set a chosen one).  The account rules are the mail register's:
 * ident_userid_ok(), mailaddr_ok(), store_password_ok(), yescrypt hashing
 * with password_cost.  Every change is logged.  Output goes to standard
 * output, complaints to standard error; main turns the status into the
 * exit status.
 */
#ifndef OUSTPBM_ADMIN_H
#define OUSTPBM_ADMIN_H

#include <stdbool.h>
#include <stddef.h>
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

/* A bad command line: PROCESS_USAGE, for which main.c prints the row's usage line. */
enum process_status admin_usage_error(void);

/* A store status as an admin status. */
enum process_status admin_of_store(enum store_status ss);

/*
 * Board's game file read and parsed into g: PROCESS_OK; else the complaint
 * made (store_complain) and PROCESS_NOINPUT (no such board), PROCESS_DATAERR
 * (it does not parse) or the store's failure.  Either way g may be
 * released (game_release), and must be once PROCESS_OK.
 */
enum process_status admin_load_board(struct admin *a, long board, struct game *g);

/* Standard output written and flushed: PROCESS_OK, else PROCESS_IOERR. */
enum process_status admin_output_done(void);

/*
 * The board numbers of the arguments into *boards (the caller frees it;
 * NULL without arguments); a bad one is complained of, in the log too when
 * logged, and is a usage error.
 */
enum process_status admin_board_args(struct admin *a, bool logged, long **boards);

/*
 * A retired home (oustpbm retire, store/lifecycle.h): *retired set, and
 * cron's runs (cleanup, robot) do no game work there (no reminder, no loss
 * on time for players whose mail now bounces), only the outbox flush of
 * the replies that are due, logged as their "done" line.  Not retired:
 * PROCESS_OK and nothing done.
 */
enum process_status admin_retired_flush(struct admin *a, bool *retired);

/* A password line of standard input (--stdin), CR LF included. */
#define ADMIN_PASSWORD_LINE (STORE_PASSWORD_MAX + 3)

/*
 * The password of adduser and passwd (admin_passwd.c): read from the first
 * line of standard input with --stdin, else made at random (*shown: to be
 * printed).  A bad one is complained of.
 */
enum process_status admin_password_get(bool from_stdin, char pw[ADMIN_PASSWORD_LINE], bool *shown);


/* A command's handler (admincmd.h declares them): the status main.c turns into the exit status. */
typedef enum process_status admin_fn(struct admin *a);

/* One command to run, as main.c read it. */
struct admin_call {
	admin_fn *run;
	bool open_home;		/* oustpbm.conf loaded and the home opened before run (the row's CMD_HOME) */
	const char *name;	/* the command word, for the log */
	const char *home;	/* -d DIR, else config_default_home() */
	char **args;		/* the words after the command word */
	int nargs;
};

/*
 * Run call: its home opened first when call->open_home asks (a failure
 * told on stderr and, when the home is there, in the log), the log lines
 * prefixed with the time and "admin NAME".  PROCESS_USAGE: the caller prints
 * the usage line.
 */
enum process_status admin_main(const struct admin_call *call);

#endif
