/*
 * alert: the admin told by mail when a mail cannot be answered.  A failure
 * that prevents every answer (a configuration error, an unusable home,
 * missing templates, a full disk, an internal error) makes oustpbm exit 75
 * (EX_TEMPFAIL), so the mail system keeps the mail and delivers it again
 * later; nobody would know but for this mail, sent to admin_address through
 * the configured transport, at most once an hour for each cause.
 *
 * The hourly limit is keyed on the cause (enum alert_cause), one key a
 * cause, so that the admin told of a full disk is still told of a
 * permission failure; never on text a mail could choose (a Subject), so
 * that a stranger's mails cannot make one mail each.  A system error is
 * put in its cause by the store's status value (alert_cause_of_store: a
 * full disk, an I/O error) or else its errno value (alert_cause_of_errno),
 * never by searching its message.  A configuration error alone has a key a text
 * each ("config-<hash>"): that text is the admin's oustpbm.conf, never a
 * mail's, and two typos are two causes.
 *
 * The hour is kept in a small stamp file, <home>/alerts (one line a cause:
 * "<epoch seconds> <key>"), or /tmp/oustpbm-alerts.<uid> when the home
 * cannot be written.  Without admin_address, or when the mail cannot be
 * sent, standard error is all there is (the mail system logs it, and shows
 * it in its bounce if it gives up).
 */
#ifndef OUSTPBM_ALERT_H
#define OUSTPBM_ALERT_H

#include <stdbool.h>

#include "base/config.h"
#include "commands/pipeline/status.h"
#include "store/store.h"

#define ALERT_FILE "alerts"
#define ALERT_INTERVAL 3600	/* seconds between two mails about one cause */
#define ALERT_KEY_MAX 64	/* characters of a cause's key */

/* What went wrong: each cause has its own hourly limit. */
enum alert_cause {
	ALERT_CONFIG = 0,	/* oustpbm.conf cannot be loaded */
	ALERT_HOME,		/* the home cannot be opened */
	ALERT_TEMPLATES,	/* a template is missing or malformed */
	ALERT_DISK,		/* a full disk or quota, a file over its size limit */
	ALERT_PERMISSION,	/* a file of the home that may not be read or written */
	ALERT_IO,		/* an input/output error, a read-only file system */
	ALERT_OUTBOX,		/* the outbox cannot be used for another reason */
	ALERT_INTERNAL,		/* an internal error */
	ALERT_ROBOT_HOST,	/* the robot host: the server refused a reply of the robot */
	ALERT_MAILBOX,		/* fetch cannot read the hosted mailbox (imap_url): a setting to fix */
	ALERT_MAILBOX_FAILED,	/* fetch moved a message that can never be handled to imap_failed_folder */
	ALERT_BOUNCE_ROBOT,	/* a delivery report says mail to robot_address failed */
	ALERT_BOUNCE_ADMIN	/* a delivery report says mail to admin_address failed */
};

/* The cause's key in the stamp file and the log: "disk", "permission"... */
const char *alert_cause_key(enum alert_cause c);

/*
 * The cause of a failed system call by its errno value: true with *out
 * for EACCES, EPERM (permission), EROFS (I/O); false for any other (a
 * passing failure: nobody is told).  A full disk and an I/O error are
 * told by the store's status value instead (alert_cause_of_store).
 */
bool alert_cause_of_errno(int e, enum alert_cause *out);

/*
 * The cause of a failure by the store's status value: true with *out for
 * STORE_NO_SPACE (disk) and STORE_DISK_ERROR (I/O); false for any other
 * (then its errno tells, alert_cause_of_errno).
 */
bool alert_cause_of_store(enum store_status ss, enum alert_cause *out);

/*
 * Tell the admin that mail to home cannot be answered because of c, text
 * saying what (one line).  The same cause within ALERT_INTERVAL seconds is
 * not told again (ALERT_CONFIG: the same text).  cfg: the configuration, or NULL when it could not be loaded
 * (then what can be read of it is used: config_salvage).  st may be NULL
 * (the home could not be opened: only the smtp transport can send then).
 * Writes one line to standard error and, with st, one to the log.
 * PROCESS_OK: the admin was mailed, or already told of this cause within
 * the hour; PROCESS_CONFIG: no admin_address (standard error only);
 * PROCESS_TEMPFAIL: the mail could not be sent (standard error only).
 */
enum process_status alert_admin(const struct config *cfg, struct store *st, const char *home, enum alert_cause c,
    const char *text);

#endif
