/*
 * config: the settings of one oustpbm home, read from <home>/oustpbm.conf
 * over the system's file (SYSCONFDIR/oustpbm/oustpbm.conf, SYSCONFDIR of
 * the Makefile: /etc/oustpbm/oustpbm.conf in the Debian package), plus the
 * test settings taken from the environment.
 *
 * Precedence: a key set in <home>/oustpbm.conf wins; a key it does not set
 * takes the system file's value; a key neither sets has its default.  Both
 * files are optional and have the same syntax; each may set a key once, and
 * a relative path in either is taken from the home.  A home's smtp_password
 * or smtp_password_file replaces the system file's other one.  An error in
 * the system file names it by its whole path.
 *
 * oustpbm.conf is optional.  Syntax (UTF-8, a leading byte order mark
 * ignored): one "key = value" per line; blank lines
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
 *   transport          (maildir)         how replies leave the outbox: smtp, or
 *                                         maildir (kept in the home: tests, the
 *                                         demo); oustpbm init writes smtp with
 *                                         smtp_url = CONFIG_LOCAL_MTA_URL
 *   sync               (file)            how writes are made durable: "file",
 *                                         fsync of each file and its directory;
 *                                         "filesystem", one syncfs(2) for a
 *                                         mail's writes (store.h): for a home
 *                                         on a filesystem of its own
 *   password_cost      (0)               yescrypt cost for new password hashes,
 *                                         0 = the libxcrypt default (5: about
 *                                         30 ms a check, nothing for a mail, and
 *                                         a leaked users file resists a laptop),
 *                                         else 1..11.  A hash of another cost or
 *                                         method is made again when its owner
 *                                         next gives the right password by mail.
 *   templates          (see below)       directory of the reply templates; a
 *                                         relative path is taken from the home
 *   remind_days        (7)               oustpbm cleanup reminds the player to
 *                                         move after this many days without a
 *                                         turn, then again every as many days;
 *                                         0 = no reminders, else up to 365
 *   timeout_days       (0 = off)         oustpbm cleanup ends the game as a loss
 *                                         on time for the player to move after
 *                                         this many days without a turn, 0..3650
 *   challenge_expiry_days (14)           oustpbm cleanup withdraws a board one of
 *                                         whose players has not played on it yet
 *                                         this many days after it was made (a
 *                                         challenge not accepted), both told;
 *                                         0 = never, else up to 3650
 *   vacation_accrual_days (12)           a player's vacation bank (the mail
 *                                         command vacation: their clocks stop)
 *                                         gains a day for every this many days
 *                                         as a member; 0 = none, ..3650
 *   vacation_max_days (30)               the most days the bank holds (days
 *                                         accrued past it are lost), 0..366
 *   vacation_days_per_year (30)          the key of the yearly allowance the
 *                                         bank replaced: still read, it caps the
 *                                         bank too (the smaller cap holds)
 *   smtp_url           (unset)           smtp://host[:port] or smtps://host[:port]
 *                                         (port 25 / 465 by default); setting it
 *                                         selects the smtp transport (smtp.h)
 *   smtp_starttls      (required)        required|off: STARTTLS on smtp://; the
 *                                         default is off for a loopback host
 *                                         (127.0.0.0/8, ::1, localhost)
 *   smtp_cafile        (system CAs)      PEM file of the CAs the server's
 *                                         certificate is checked against
 *   smtp_user          (unset)           AUTH user name; needs a password
 *   smtp_password      (unset)           AUTH password, never logged or shown
 *   smtp_password_file (unset)           file whose first line is the password
 *                                         (relative: from the home); not with
 *                                         smtp_password
 *   helo_name          (host name)       name given in EHLO
 *   envelope_from      (from_address)    SMTP MAIL FROM of the replies
 *   smtp_connect_timeout (10)            seconds to connect, 1..600
 *   smtp_timeout       (60)              seconds for one whole SMTP transaction,
 *                                         connection included, 1..3600
 *   retry_days         (5)               days a mail is retried before it moves
 *                                         to outbox/failed/, 1..365
 *   sent_keep_days     (7)               days a copy of a sent mail stays in
 *                                         outbox/sent/, 0 (keep none)..3650
 *   flush_backlog_seconds (3)            after a mail's own replies, its process
 *                                         sends the older replies that are due
 *                                         for this long at most, 0..600 (outbox.h)
 *   flush_backlog_max  (50)              and this many at most, 0 (none)..100000
 *   bounce_limit       (3)               bounces (a delivery report, a 5xx to
 *                                         RCPT) after which an address gets no
 *                                         mail until it writes again, 1..1000,
 *                                         0 = never stop (store/bounces.h)
 * The transport key and smtp_url agree: with smtp_url set, transport is smtp
 * unless set otherwise (then it is an error); transport = smtp needs smtp_url.
 *   max_mails_per_hour (30)              mails of one sender answered in an
 *                                         hour, 1..100000, 0 = no limit; more
 *                                         are logged and dropped (seen.h);
 *                                         senders are counted folded
 *                                         (mailaddr_fold: case, +tag);
 *                                         replies by token on the sender's
 *                                         own running boards are not counted
 *   max_board_replies_per_hour (150)     replies by token of one sender to
 *                                         one running board's mails answered
 *                                         in an hour, 1..100000, 0 = no limit
 *                                         (store/throttle.h)
 *   max_password_failures (5)            wrong passwords for one account in an
 *                                         hour that lock it out, 1..1000,
 *                                         0 = no throttle (throttle.h)
 *   password_lockout_minutes (60)        how long, 1..10080
 *   max_open_boards    (50)              boards still playing either player of
 *                                         a new challenge may be in already,
 *                                         1..100000, 0 = no limit
 *   max_open_challenges (3)              boards still playing between the
 *                                         challenger and the opponent on which
 *                                         the opponent has not played yet,
 *                                         1..1000, 0 = no limit
 *   max_challenges_per_hour (10)         challenges one account may make in an
 *                                         hour, 1..10000, 0 = no limit
 *   max_tournaments_per_director (3)     tournaments open or running one
 *                                         account directs, 1..1000, 0 = no limit
 *   max_chat_audience  (20)              observers a chat reaches (besides the
 *                                         opponent), 1..1000, 0 = no limit
 *   max_chats_per_hour (10)              chats one account may send in an hour,
 *                                         and one board may carry, 1..1000, 0 = no limit
 *   max_mails_per_mail (30)              mails one incoming mail may cause
 *                                         besides the board mails of the board's
 *                                         players and subscribed observers
 *                                         (a chat's), 1..10000, 0 = no limit
 *   html_mail          (on)              on|off: a mail that shows a board also
 *                                         carries it as HTML (a text/html
 *                                         alternative after the text/plain part)
 *   web_dir            (unset)           directory of the web site (web.h),
 *                                         relative to the home if not absolute;
 *                                         when set, the pages a change touched
 *                                         are written after every commit
 *   web_url            (unset)           the address web_dir is served at
 *                                         (http:// or https://): every mail
 *                                         that shows a board links its page
 *   admin_address      (unset)           where a failure that keeps mail from
 *                                         being answered is told (alert.h),
 *                                         at most once an hour a cause
 *   max_registrations_per_hour (100)     accounts made by mail in an hour,
 *                                         1..100000, 0 = no limit; more are
 *                                         refused with a reply
 *   max_registrations_per_domain (20)    of them with addresses in one
 *                                         domain, 1..100000, 0 = no limit
 *                                         (both count confirmed accounts only)
 *   max_pending_per_domain_per_hour (10) registration code mails to the
 *                                         addresses of one domain in an hour,
 *                                         1..100000, 0 = no limit; more
 *                                         registers are refused with a reply
 *   robot_seconds      (5)               seconds the robot player thinks per
 *                                         turn, 1..600 (robot.h); keep it well
 *                                         under lock_timeout_ms, as the board
 *                                         stays locked while it thinks
 *   robot_max_thinking (0)               robot turns thought at once on the
 *                                         host, 1..1024, 0 = the number of
 *                                         processors; a turn past the cap is
 *                                         left to `oustpbm robot` (robot.h)
 *   robot_address      (unset)           the robot player is on another host
 *                                         (commands/pipeline/robotremote.h): its board mails go
 *                                         to this address and its turns come
 *                                         back by reply; no local think
 *   robot_server       (unset)           this home is a robot host
 *                                         (commands/admin/admin_robot_mail.c): `oustpbm robot-mail`
 *                                         answers the board mails of this
 *                                         server address only
 *   robot_secret_file  (unset)           a file (relative: from the home,
 *                                         mode 0600) whose first line is the
 *                                         secret the server and its robot
 *                                         host share, 32 characters or more;
 *                                         needed with robot_address and
 *                                         robot_server (mail/robotmac.h)
 *   review_seconds     (120)             seconds of search for one game
 *                                         review, 1..3600, shared out over its
 *                                         turns (game/review.h)
 *   max_reviews_per_day (3)              reviews one account may ask for in
 *                                         24 hours, 1..1000, 0 = no limit
 *   imap_url           (unset)           imap://USER@HOST[:PORT]/MAILBOX or
 *                                         imaps://...: the mailbox `oustpbm
 *                                         fetch` reads (base/imapurl.h)
 *   imap_password_file (unset)           file whose first line is its password
 *                                         (relative: from the home)
 *   imap_cafile        (system CAs)      PEM file of the CAs the IMAP server's
 *                                         certificate is checked against
 *   imap_done_folder   (oustpbm-done)    where a handled mail is moved
 *   imap_failed_folder (oustpbm-failed)  where a mail that can never be
 *                                         handled is moved (the admin told)
 *   imap_max_per_run   (100)             mails one fetch handles, 1..100000
 *   imap_poll_seconds  (60)              fetch --idle without IDLE: seconds
 *                                         between two looks, 1..3600
 *   imap_timeout       (60)              seconds an IMAP answer may take, 1..3600
 *   userid_reserve_days (365)            days the user id of a closed account
 *                                         (signoff, oustpbm deluser) cannot be
 *                                         registered by anyone, 0..3650, so old
 *                                         games never name a stranger
 *   trusted_authserv_id (unset)          the authserv-id of the receiving mail
 *                                         server whose Authentication-Results
 *                                         header (RFC 8601) is trusted
 *                                         (mail/authres.h): a mail it finds
 *                                         failing DMARC is dropped unanswered;
 *                                         register, forgot and address need
 *                                         its dmarc=pass or an aligned
 *                                         dkim=pass
 * Without `templates`, the reply templates are looked for in <home>/templates,
 * then OUSTPBM_DATADIR/templates (where `make install` puts them), then
 * templates/ beside the executable (a source checkout).
 * The log is always <home>/log.
 *
 * Environment (tests): OUSTPBM_TEST_TIME, epoch seconds, fixes "now" so Date
 * headers and times are reproducible; see config_now().  OUSTPBM_TEST_LIBCURL
 * names the library the smtp transport loads instead of libcurl.so.4.
 * OUSTPBM_TEST_CRASH=n kills the process before its n-th durable step (store.h).
 * OUSTPBM_TEST_CODE fixes the one-time codes of forgot and address (accounts.h).
 * OUSTPBM_TEST_SYSCONF names the system file (config_system_file).
 * OUSTPBM_TEST_ROBOT_PLAYOUTS=n gives the robot a fixed playout budget instead
 * of a deadline, and OUSTPBM_TEST_ROBOT a test player or a fault (robot.h).
 */
#ifndef OUSTPBM_CONFIG_H
#define OUSTPBM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#include "base/mailaddr.h"

#define CONFIG_FILE "oustpbm.conf"
#define CONFIG_FILE_MAX 65536	/* bytes in oustpbm.conf */
#define CONFIG_LINE_MAX 1024	/* characters in one line */
#define CONFIG_NAME_MAX 64	/* server_name */
#define CONFIG_TRANSPORT_MAX 16
#define CONFIG_PATH_MAX 1000	/* templates */
#define CONFIG_URL_MAX 300	/* smtp_url */
#define CONFIG_SECRET_MAX 200	/* smtp_user, smtp_password */
#define CONFIG_HOST_MAX 253	/* trusted_authserv_id: a host name */
#define CONFIG_FOLDER_MAX 200	/* imap_done_folder, imap_failed_folder (IMAPURL_MAILBOX_MAX) */
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
	char sync[CONFIG_TRANSPORT_MAX + 1];	/* "file" or "filesystem" */
	unsigned long password_cost;
	char templates[CONFIG_PATH_MAX + 1];	/* "" when not set */
	unsigned long remind_days;	/* 0: no reminders */
	unsigned long timeout_days;	/* 0: no loss on time */
	unsigned long challenge_expiry_days;	/* 0: challenges never expire */
	unsigned long vacation_days_per_year;	/* the old cap: the bank holds min(it, vacation_max_days) */
	unsigned long vacation_accrual_days;	/* a day in the bank for every this many days as a member */
	unsigned long vacation_max_days;	/* the most days in the bank */
	char smtp_url[CONFIG_URL_MAX + 1];	/* "" when not set */
	char smtp_starttls[CONFIG_TRANSPORT_MAX + 1];	/* "required", "off" or "" (by host) */
	char smtp_cafile[CONFIG_PATH_MAX + 1];
	char smtp_user[CONFIG_SECRET_MAX + 1];
	char smtp_password[CONFIG_SECRET_MAX + 1];
	char smtp_password_file[CONFIG_PATH_MAX + 1];
	char helo_name[CONFIG_NAME_MAX + 1];
	char envelope_from[MAILADDR_MAX + 1];
	unsigned long smtp_connect_timeout;	/* seconds */
	unsigned long smtp_timeout;		/* seconds */
	unsigned long retry_days;
	unsigned long sent_keep_days;
	unsigned long flush_backlog_seconds;	/* after a mail's own replies (outbox.h) */
	unsigned long flush_backlog_max;	/* 0: no backlog after a mail's own replies */
	unsigned long bounce_limit;	/* bounces that stop mail to an address (bounces.h); 0 = never */
	unsigned long max_mails_per_hour;	/* per sender; 0 = no limit */
	unsigned long max_board_replies_per_hour;	/* replies by token per sender and board; 0 = no limit */
	unsigned long max_password_failures;	/* per account an hour; 0 = no throttle */
	unsigned long password_lockout_minutes;
	unsigned long max_open_boards;	/* per player; 0 = no limit */
	unsigned long max_open_challenges;	/* unanswered, per pair of players; 0 = no limit */
	unsigned long max_challenges_per_hour;	/* per challenger account; 0 = no limit */
	unsigned long max_tournaments_per_director;	/* open or running; 0 = no limit */
	unsigned long max_chat_audience;	/* observers a chat reaches; 0 = no limit */
	unsigned long max_chats_per_hour;	/* per account and per board; 0 = no limit */
	unsigned long max_mails_per_mail;	/* besides the board mails of its readers; 0 = no limit */
	char web_dir[CONFIG_PATH_MAX + 1];	/* "" when not set */
	char web_url[CONFIG_URL_MAX + 1];	/* "" when not set */
	char admin_address[MAILADDR_MAX + 1];	/* "" when not set */
	char html_mail[8];	/* "on" or "off" */
	unsigned long max_registrations_per_hour;	/* 0 = no limit */
	unsigned long max_registrations_per_domain;	/* per hour; 0 = no limit */
	unsigned long max_pending_per_domain_per_hour;	/* 0 = no limit (store/pending.h) */
	unsigned long robot_seconds;	/* the robot's think per turn (robot.h) */
	unsigned long robot_max_thinking;	/* thinks at once on the host; 0 = the processors (robot.h) */
	char robot_address[MAILADDR_MAX + 1];	/* "" : the robot thinks here (commands/pipeline/robotremote.h) */
	char robot_server[MAILADDR_MAX + 1];	/* "" : no robot host (commands/admin/admin_robot_mail.c) */
	char robot_secret_file[CONFIG_PATH_MAX + 1];	/* the MAC's shared secret (mail/robotmac.h) */
	unsigned long review_seconds;	/* the search time of one review (game/review.h) */
	unsigned long max_reviews_per_day;	/* per account; 0 = no limit */
	unsigned long userid_reserve_days;	/* a closed account's id kept (store.h, reserved) */
	char trusted_authserv_id[CONFIG_HOST_MAX + 1];	/* "" : no Authentication-Results read (mail/authres.h) */
	char imap_url[CONFIG_URL_MAX + 1];	/* "" : no mailbox to fetch (base/imapurl.h) */
	char imap_password_file[CONFIG_PATH_MAX + 1];
	char imap_cafile[CONFIG_PATH_MAX + 1];
	char imap_done_folder[CONFIG_FOLDER_MAX + 1];
	char imap_failed_folder[CONFIG_FOLDER_MAX + 1];
	unsigned long imap_max_per_run;	/* mails one fetch handles */
	unsigned long imap_poll_seconds;	/* fetch --idle without IDLE */
	unsigned long imap_timeout;	/* seconds */
	bool test_time_set;	/* OUSTPBM_TEST_TIME given */
	time_t test_time;
};

/*
 * The latest "now" config_load() accepts, 9989-12-31T00:00:00Z: a deadline
 * up to 3650 days (timeout_days) on must still be a time a game file holds
 * (gamefile.h, up to 9999-12-31).
 */
#define CONFIG_NOW_MAX INT64_C(253086681600)

const char *config_status_str(enum config_status status);

/* Fill cfg with the defaults (no file, no environment). */
void config_defaults(struct config *cfg);

/*
 * The system file read under every home: SYSCONFDIR/oustpbm/oustpbm.conf of
 * the build (config.c, OUSTPBM_SYSCONFDIR); in the test
 * build (testhook.h) $OUSTPBM_TEST_SYSCONF instead, and none when it is
 * unset, so that a package installed on the test machine changes no test.
 * NULL: none.  Not to be freed.
 */
const char *config_system_file(void);

/*
 * Defaults, then the system file if it exists, then <home>/oustpbm.conf if
 * it exists, then the environment.
 * On failure cfg holds what was read so far and err (errlen bytes, at least
 * CONFIG_ERR_MAX is enough) the message.
 */
/* True if name is a value the transport key takes (maildir, smtp). */
bool config_transport_known(const char *name);

enum config_status config_load(struct config *cfg, const char *home, char *err, size_t errlen);

/*
 * What can be read of <home>/oustpbm.conf when config_load() failed: the
 * defaults, then every good line (the bad ones skipped), then the
 * environment; enough to tell the admin (admin_address, the transport).
 * False if the file cannot be read at all (cfg then holds the defaults).
 */
bool config_salvage(struct config *cfg, const char *home);

/*
 * Parse the text of a configuration file (len bytes) over the values already
 * in cfg.  name is the file name used in messages.
 */
enum config_status config_parse(struct config *cfg, const char *name, const char *text, size_t len,
    char *err, size_t errlen);

/*
 * Split an smtp_url into its parts: tls true for smtps://, host (at most
 * hostlen-1 characters, without the [] of an IPv6 literal), *port (25 or 465
 * when not given).  False with *why if the URL is not acceptable.
 */
bool config_smtp_url_parse(const char *url, bool *tls, char *host, size_t hostlen, unsigned *port,
    const char **why);

/* True if STARTTLS is required: smtp_starttls, or by default unless the host is loopback. */
bool config_smtp_starttls_required(const struct config *cfg);

/*
 * The home when no -d DIR is given: $OUSTPBM_HOME, else ~/oustpbm of the
 * user running oustpbm ($HOME, else the password database).  The man page,
 * scripts/procmailrc, scripts/crontab and the README say the same.  The
 * string is static or from the environment: not to be freed.
 */
#define CONFIG_HOME_NAME "oustpbm"
const char *config_default_home(void);

/*
 * The local MTA a new home hands its replies to (oustpbm init's
 * oustpbm.conf): SMTP on the loopback rather than the sendmail program,
 * so the one smtp transport (outbox/smtp.h) with its tested retries,
 * backoff and permanent/temporary replies (RFC 5321 4.2.1) serves both
 * the local Postfix or Exim (Debian's MTAs listen on localhost:25) and a
 * provider's submission port; no set-gid program is run from the server.
 */
#define CONFIG_LOCAL_MTA_URL "smtp://localhost:25"

/*
 * oustpbm init's oustpbm.conf: every key, each with a comment saying what
 * it is and its default, commented out; set: from_address when not NULL,
 * and transport = smtp with smtp_url = CONFIG_LOCAL_MTA_URL, so a new home's
 * replies leave the machine.  0, or -1 on a write error.
 */
int config_write_sample(FILE *f, const char *from_address);

/* The keys: config_key_count() of them, config_key_name(i), and each one's help or NULL. */
size_t config_key_count(void);
const char *config_key_name(size_t i);
const char *config_key_help(const char *name);

/* The current time: OUSTPBM_TEST_TIME when set, else time(NULL). */
time_t config_now(const struct config *cfg);

#endif
