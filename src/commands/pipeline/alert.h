/*
 * alert: the admin told by mail when a mail cannot be answered.  A failure
 * that prevents every answer (a configuration error, an unusable home,
 * missing templates, a full disk, an internal error) makes oustpbm exit 75
 * (EX_TEMPFAIL), so the mail system keeps the mail and delivers it again
 * later; nobody would know but for this mail, sent to admin_address through
 * the configured transport, at most once an hour for each cause.
 *
 * The hour is kept in a small stamp file, <home>/alerts (one line a cause:
 * "<epoch seconds> <key>"), or /tmp/oustpbm-alerts.<uid> when the home
 * cannot be written.  Without admin_address, or when the mail cannot be
 * sent, standard error is all there is (the mail system logs it, and shows
 * it in its bounce if it gives up).
 */
#ifndef OUSTPBM_ALERT_H
#define OUSTPBM_ALERT_H

#include "base/config.h"
#include "store/store.h"

#define ALERT_FILE "alerts"
#define ALERT_INTERVAL 3600	/* seconds between two mails about one cause */
#define ALERT_KEY_MAX 64	/* characters of a cause's key */

enum alert_status {
	ALERT_SENT,		/* the admin was mailed */
	ALERT_QUIET,		/* already told of this cause within the hour */
	ALERT_NO_ADDRESS,	/* no admin_address: standard error only */
	ALERT_FAILED,		/* the mail could not be sent: standard error only */
};

const char *alert_status_str(enum alert_status s);

/*
 * Tell the admin that mail to home cannot be answered because of cause
 * (one line).  key names the cause for the hourly limit ([a-z0-9-], at
 * most ALERT_KEY_MAX): the same key within ALERT_INTERVAL seconds is not
 * told again.  cfg: the configuration, or NULL when it could not be loaded
 * (then what can be read of it is used: config_salvage).  st may be NULL
 * (the home could not be opened: only the smtp transport can send then).
 * Writes one line to standard error and, with st, one to the log.
 */
enum alert_status alert_admin(const struct config *cfg, struct store *st, const char *home, const char *key,
    const char *cause);

/* A key for cause: prefix, '-', and a hash of the text (a cause that changes is a new one). */
void alert_key(const char *prefix, const char *text, char key[ALERT_KEY_MAX + 1]);

#endif
