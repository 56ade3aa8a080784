/*
 * status: how a run of the program ends, for the modules that return it
 * without needing the rest of their caller's header: a mail handled
 * (enum process_status: process.h, job.h, mailcmd.h, the handlers) and an
 * admin command (enum admin_status: admin.h, admincmd.h).  main.c turns
 * each into the exit status.
 */
#ifndef OUSTPBM_STATUS_H
#define OUSTPBM_STATUS_H

enum process_status {
	PROCESS_OK = 0,		/* handled (also a refused command: the sender got an error reply) */
	PROCESS_DROPPED,	/* automatic mail or abuse: logged, not answered */
	PROCESS_TEMPFAIL,	/* nothing changed; deliver it again later */
	PROCESS_DATAERR,	/* the message cannot be parsed at all */
	PROCESS_USAGE,		/* bad command line */
	PROCESS_CONFIG,		/* bad configuration */
	PROCESS_SOFTWARE,	/* internal error */
	PROCESS_RETIRED		/* the server is retired (oustpbm retire): the mail system bounces the mail */
};

const char *process_status_str(enum process_status s);

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
	ADMIN_NOPERM,		/* the home belongs to another user (and we are not root) */
	ADMIN_CANTCREAT,	/* init: the home cannot be made */
	ADMIN_STATUS_WARNING,	/* status: warnings (exit 1, as a Nagios plugin's WARNING) */
	ADMIN_STATUS_FAILING,	/* status: failing (exit 2, CRITICAL) */
	ADMIN_RETIRED		/* robot-mail on a retired home (oustpbm retire): exit 69, the mail bounces */
};

#endif
