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

#include "commands/pipeline/status.h"

struct admin;

/* A command's handler (admincmd.h): the status main.c turns into the exit status. */
typedef enum admin_status admin_fn(struct admin *a);

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
 * prefixed with the time and "admin NAME".  ADMIN_USAGE: the caller prints
 * the usage line.
 */
enum admin_status admin_main(const struct admin_call *call);

#endif
