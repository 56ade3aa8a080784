/*
 * queuecmd: the commands that work on the outbox without a mail, for the
 * admin and cron:
 *   oustpbm [-d DIR] flush   send every queued mail that is due (outbox_flush,
 *                            under outbox/flush.lock); quiet unless a mail was
 *                            deferred or failed, then one summary line
 *   oustpbm [-d DIR] flush --all   the same, backoff or not (postqueue -f)
 *   oustpbm [-d DIR] queue   list the waiting mails: queue id, recipient,
 *                            subject, attempts, next attempt, last error
 *   oustpbm [-d DIR] requeue [ID...|all]
 *                            move replies from outbox/failed/ back into the
 *                            queue (all without ids), their retries reset
 * The home is -d DIR, else $OUSTPBM_HOME, else ~/oustpbm (config_default_home()).
 */
#ifndef OUSTPBM_QUEUECMD_H
#define OUSTPBM_QUEUECMD_H

#include <stdbool.h>
#include <stdio.h>

enum queuecmd_status {
	QUEUECMD_OK,
	QUEUECMD_TEMPFAIL,	/* lock timeout, disk full: try again later */
	QUEUECMD_USAGE,		/* bad command line */
	QUEUECMD_CONFIG,	/* bad configuration or home */
	QUEUECMD_IO,		/* any other system error */
	QUEUECMD_NOPERM,	/* the home belongs to another user (no --force-owner) */
	QUEUECMD_NOINPUT,	/* requeue: an id not in outbox/failed/, or damaged */
};

const char *queuecmd_status_str(enum queuecmd_status status);

/* True if argv asks for one of these commands ([-d DIR] flush|queue|requeue ...). */
bool queuecmd_wanted(int argc, char **argv);

/* Run the command; its output on out, errors on stderr. */
enum queuecmd_status queuecmd_main(int argc, char **argv, FILE *out);

#endif
