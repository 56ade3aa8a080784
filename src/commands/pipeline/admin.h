/*
 * admin: the commands an admin runs on the server's own machine (not by
 * mail), each on the home of -d DIR, else $OUSTPBM_HOME, else ~/oustpbm
 * (config_default_home()):
 *
 *   oustpbm [-d DIR] cleanup                        reminders, losses on time, flush (cleanup.h)
 *   oustpbm [-d DIR] adduser [--stdin] USERID ADDRESS [NAME...]
 *   oustpbm [-d DIR] passwd [--stdin] USERID
 *   oustpbm [-d DIR] list [active|finished]
 *   oustpbm [-d DIR] show BOARD[#TURN]
 *   oustpbm [-d DIR] fsck [BOARD...]                (fsck.h)
 *   oustpbm [-d DIR] edit BOARD                     (edit.h)
 *   oustpbm [-d DIR] export BOARD                   the game record as SGF (game/sgf.h)
 *   oustpbm [-d DIR] import FILE [BOARD]            a new game file from such a record
 *   oustpbm [-d DIR] ratings [--rebuild]            (ratings.h)
 *   oustpbm init [DIR]                              the one way to make a home
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

enum admin_status {
	ADMIN_OK = 0,
	ADMIN_USAGE,		/* bad command line */
	ADMIN_DATAERR,		/* bad input (a user id, an address...), or fsck found problems */
	ADMIN_NOINPUT,		/* no such board */
	ADMIN_NOUSER,		/* no such user */
	ADMIN_EXISTS,		/* adduser: the user id is taken */
	ADMIN_TEMPFAIL,		/* a lock timeout, a full disk: try again */
	ADMIN_IOERR,		/* the output could not be written */
	ADMIN_CONFIG,		/* oustpbm.conf or the templates */
	ADMIN_SOFTWARE,		/* anything else */
	ADMIN_NOPERM,		/* the home belongs to another user (no --force-owner) */
	ADMIN_CANTCREAT,	/* init: the home cannot be made */
	ADMIN_STATUS_WARNING,	/* status: warnings (exit 1, as a Nagios plugin's WARNING) */
	ADMIN_STATUS_FAILING	/* status: failing (exit 2, CRITICAL) */
};

const char *admin_status_str(enum admin_status s);

/* True if argv ([-d DIR] WORD ...) names one of the commands above. */
bool admin_is_command(int argc, char **argv);

/*
 * "oustpbm: unknown command 'lsit' (did you mean list?); the commands are
 * ...", on stderr: the admin commands' names, then more[0..nmore) (the
 * commands main.c runs itself).
 */
void admin_unknown(const char *word, const char *const *more, size_t nmore);

/* Run the command of argv (admin_is_command() is true). */
enum admin_status admin_main(int argc, char **argv);

/* The usage lines of the commands, for oustpbm --help (made from the table, admincmd.h). */
void admin_usage_print(FILE *f);

#endif
