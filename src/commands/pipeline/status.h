/*
 * status: the commands layer's one status type.  Every module of
 * src/commands (the pipeline, the services, the admin commands, the mail
 * keywords) returns an enum process_status when it can fail, and main.c
 * turns it into the exit status (sysexits.h) in one table: a mail handled
 * and an admin command alike.  A lower layer's status (store.h, reply.h,
 * outbox.h...) is turned into one of these where a command meets it.
 * process_status_str() gives each its name for the log and the messages.
 */
#ifndef OUSTPBM_STATUS_H
#define OUSTPBM_STATUS_H

enum process_status {
	PROCESS_OK = 0,		/* done (also a refused mail command: the sender got an error reply) */
	PROCESS_DROPPED,	/* automatic mail or abuse: logged, not answered */
	PROCESS_TEMPFAIL,	/* a lock, the disk, a timeout: nothing changed (or the next run does it); try again */
	PROCESS_DATAERR,	/* bad input: a mail that cannot be parsed, a user id, a damaged game file; fsck problems */
	PROCESS_USAGE,		/* bad command line */
	PROCESS_CONFIG,		/* bad configuration: oustpbm.conf, a template missing or malformed */
	PROCESS_SOFTWARE,	/* internal error, anything else */
	PROCESS_RETIRED,	/* the server is retired (oustpbm retire): a mail bounces */
	PROCESS_NOINPUT,	/* no such board (an outbox id not failed) */
	PROCESS_NOUSER,		/* no such user */
	PROCESS_EXISTS,		/* adduser: the user id is taken */
	PROCESS_IOERR,		/* a file could not be read or written (the output, the store, the web site) */
	PROCESS_NOPERM,		/* the home belongs to another user (and we are not root) */
	PROCESS_CANTCREAT,	/* init: the home cannot be made */
	PROCESS_WARNING,	/* status: warnings (a Nagios plugin's WARNING) */
	PROCESS_FAILING,	/* status: failing (CRITICAL) */
	PROCESS_NOHOME,		/* the home cannot be opened (none, damaged, not a home) */
	PROCESS_NOMEM,		/* out of memory: try again */
	PROCESS_FULL,		/* a file over its cap (STORE_TOO_BIG) */
	PROCESS_FAULT		/* the robot's AI failed: the game is unchanged, the next run retries */
};

#define PROCESS_STATUS_COUNT (PROCESS_FAULT + 1)

/* The status's name ("temporary failure"), for the log and the messages; never NULL. */
const char *process_status_str(enum process_status s);

#endif
