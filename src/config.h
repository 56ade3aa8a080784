/*
 * config: the settings of one oustpbm home, read from <home>/oustpbm.conf,
 * plus the test settings taken from the environment.
 *
 * oustpbm.conf is optional.  Syntax: one "key = value" per line; blank lines
 * and lines whose first non-blank character is '#' are ignored; spaces around
 * key and value are dropped; the value is the rest of the line (no quoting, no
 * trailing comments, so a value may contain '#').  A key may appear once.
 * An unknown key or a bad value is an error naming the line and quoting the
 * culprit:  oustpbm.conf line 4: max_message_bytes 'ten' is not a number
 *
 * Keys (default):
 *   from_address       (oust@localhost)  address of the server, From: of replies
 *   server_name        (oustpbm)         name the server signs with
 *   max_message_bytes  (262144)          largest mail read, 1024..104857600
 *   lock_timeout_ms    (10000)           longest wait for a lock, 0..600000
 *   transport          (maildir)         how replies leave the outbox
 *   password_cost      (1)               yescrypt cost for new password hashes,
 *                                         0 = the libxcrypt default, else 1..11.
 *                                         1 takes about 1 ms per check; the
 *                                         libxcrypt default (5) takes 20-45 ms,
 *                                         beyond the 5 ms budget of one mail.
 *                                         An admin may raise it: existing hashes
 *                                         keep their cost until changed.
 *   templates          (see below)       directory of the reply templates; a
 *                                         relative path is taken from the home
 *   max_mails_per_hour (30)              mails of one sender answered in an
 *                                         hour, 1..100000, 0 = no limit; more
 *                                         are logged and dropped (seen.h)
 * Without `templates`, the reply templates are looked for in <home>/templates,
 * then OUSTPBM_DATADIR/templates (where `make install` puts them), then
 * templates/ beside the executable (a source checkout).
 * The log is always <home>/log.
 *
 * Environment (tests): OUSTPBM_TEST_TIME, epoch seconds, fixes "now" so Date
 * headers and times are reproducible; see config_now().  OUSTPBM_TEST_CRASH=n
 * kills the process before its n-th durable step (store.h).
 */
#ifndef OUSTPBM_CONFIG_H
#define OUSTPBM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "mailaddr.h"

#define CONFIG_FILE "oustpbm.conf"
#define CONFIG_FILE_MAX 65536	/* bytes in oustpbm.conf */
#define CONFIG_LINE_MAX 1024	/* characters in one line */
#define CONFIG_NAME_MAX 64	/* server_name */
#define CONFIG_TRANSPORT_MAX 16
#define CONFIG_PATH_MAX 1000	/* templates */
#define CONFIG_ERR_MAX 1400	/* enough for any message, culprit included */

enum config_status {
	CONFIG_OK,
	CONFIG_IO,	/* oustpbm.conf exists but cannot be read */
	CONFIG_INVALID,	/* a line or a test setting is wrong */
};

struct config {
	char from_address[MAILADDR_MAX + 1];
	char server_name[CONFIG_NAME_MAX + 1];
	unsigned long max_message_bytes;
	unsigned long lock_timeout_ms;
	char transport[CONFIG_TRANSPORT_MAX + 1];
	unsigned long password_cost;
	char templates[CONFIG_PATH_MAX + 1];	/* "" when not set */
	unsigned long max_mails_per_hour;	/* per sender; 0 = no limit */
	bool test_time_set;	/* OUSTPBM_TEST_TIME given */
	time_t test_time;
};

const char *config_status_str(enum config_status status);

/* Fill cfg with the defaults (no file, no environment). */
void config_defaults(struct config *cfg);

/*
 * Defaults, then <home>/oustpbm.conf if it exists, then the environment.
 * On failure cfg holds what was read so far and err (errlen bytes, at least
 * CONFIG_ERR_MAX is enough) the message.
 */
enum config_status config_load(struct config *cfg, const char *home, char *err, size_t errlen);

/*
 * Parse the text of a configuration file (len bytes) over the values already
 * in cfg.  name is the file name used in messages.
 */
enum config_status config_parse(struct config *cfg, const char *name, const char *text, size_t len,
    char *err, size_t errlen);

/* The current time: OUSTPBM_TEST_TIME when set, else time(NULL). */
time_t config_now(const struct config *cfg);

#endif
