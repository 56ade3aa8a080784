/* alert: the admin told by mail when a mail cannot be answered (alert.h). */
#include "commands/pipeline/alert.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/msg.h"
#include "game/gamefile.h"
#include "outbox/transport.h"

#define ALERT_STAMP_MAX 8192	/* bytes of the stamp file read */
#define ALERT_CAUSE_MAX 1000	/* bytes of the cause put in the mail */

const char *alert_cause_key(enum alert_cause c)
{
	switch (c) {
	case ALERT_CONFIG:
		return "config";
	case ALERT_HOME:
		return "home";
	case ALERT_TEMPLATES:
		return "templates";
	case ALERT_DISK:
		return "disk";
	case ALERT_PERMISSION:
		return "permission";
	case ALERT_IO:
		return "io";
	case ALERT_OUTBOX:
		return "outbox";
	case ALERT_INTERNAL:
		return "internal";
	case ALERT_ROBOT_HOST:
		return "robot-host";
	case ALERT_MAILBOX:
		return "imap";
	case ALERT_MAILBOX_FAILED:
		return "imap-failed";
	case ALERT_BOUNCE_ROBOT:
		return "bounce-robot-address";
	case ALERT_BOUNCE_ADMIN:
		return "bounce-admin-address";
	}
	return "internal";
}

bool alert_cause_of_errno(int e, enum alert_cause *out)
{
	switch (e) {
	case EACCES:
	case EPERM:
		*out = ALERT_PERMISSION;
		return true;
	case EROFS:
		*out = ALERT_IO;
		return true;
	default:
		return false;
	}
}

bool alert_cause_of_store(enum store_status ss, enum alert_cause *out)
{
	switch (ss) {
	case STORE_NO_SPACE:
		*out = ALERT_DISK;
		return true;
	case STORE_DISK_ERROR:
		*out = ALERT_IO;
		return true;
	default:
		return false;
	}
}

/* The stamp file's key of c: its name, and for a configuration error a hash of the admin's text. */
static void cause_key(enum alert_cause c, const char *text, char key[ALERT_KEY_MAX + 1])
{
	/*
	 * FNV-1a: a name for the text, not a secret; from the basis alerts
	 * have always used (a digit short of FNV's), so stamped keys stay.
	 */
	uint64_t h = hash_fnv1a64_str(UINT64_C(1469598103934665603), text);

	if (c == ALERT_CONFIG)
		snprintf(key, ALERT_KEY_MAX + 1, "config-%016llx", (unsigned long long)h);
	else
		snprintf(key, ALERT_KEY_MAX + 1, "%s", alert_cause_key(c));
}

/*
 * The stamp file, locked: <home>/alerts, else /tmp/oustpbm-alerts.<uid>
 * (never a link, never another user's).  -1 if neither can be used.
 */
static int stamp_open(const char *home)
{
	char path[CONFIG_PATH_MAX + 64];
	struct stat sb;
	int fd, i;

	for (i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(path, sizeof path, "%s/%s", home, ALERT_FILE);
		else
			snprintf(path, sizeof path, "/tmp/oustpbm-alerts.%lu", (unsigned long)geteuid());
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			continue;
		if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() || flock(fd, LOCK_EX) != 0) {
			close(fd);
			continue;
		}
		return fd;
	}
	return -1;
}

/* The stamp file's text (at most ALERT_STAMP_MAX bytes) into buf. */
static size_t stamp_read(int fd, char *buf, size_t size)
{
	ssize_t r;
	size_t have = 0;

	while (have + 1 < size && (r = pread(fd, buf + have, size - 1 - have, (off_t)have)) > 0)
		have += (size_t)r;
	buf[have] = '\0';
	return have;
}

/* True if key was told after since, by the stamp text. */
static bool stamp_told(const char *text, const char *key, time_t since)
{
	const char *line = text;
	long long t;
	int pos;

	while (*line != '\0') {
		if (sscanf(line, "%lld %n", &t, &pos) == 1 && t > (long long)since &&
		    strncmp(line + pos, key, strlen(key)) == 0 &&
		    (line[pos + (int)strlen(key)] == '\n' || line[pos + (int)strlen(key)] == '\0'))
			return true;
		line = strchr(line, '\n');
		if (line == NULL)
			break;
		line++;
	}
	return false;
}

/* The stamp text again: key told at now, the causes of the last day kept, the others dropped. */
static void stamp_write(int fd, const char *text, const char *key, time_t now)
{
	char out[ALERT_STAMP_MAX + 128];
	const char *line = text, *nl;
	size_t n = 0;
	long long t;
	int pos, w;

	while (*line != '\0') {
		nl = strchr(line, '\n');
		if (sscanf(line, "%lld %n", &t, &pos) == 1 && t > (long long)now - 24 * ALERT_INTERVAL &&
		    !(strncmp(line + pos, key, strlen(key)) == 0 &&
			(line[pos + (int)strlen(key)] == '\n' || line[pos + (int)strlen(key)] == '\0'))) {
			size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);

			if (n + len + 1 + ALERT_KEY_MAX + 24 < ALERT_STAMP_MAX) {
				memcpy(out + n, line, len);
				n += len;
				out[n++] = '\n';
			}
		}
		if (nl == NULL)
			break;
		line = nl + 1;
	}
	w = snprintf(out + n, sizeof out - n, "%lld %s\n", (long long)now, key);
	if (w > 0)
		n += (size_t)w;
	if (ftruncate(fd, 0) == 0 && pwrite(fd, out, n, 0) == (ssize_t)n)
		(void)fsync(fd);
}

/*
 * Whether c keeps mail unanswered in the mail system's queue (exit 75);
 * the others are notices: a mailbox, a bounce, a robot host's refusal.
 */
static bool kept_by_mta(enum alert_cause c)
{
	switch (c) {
	case ALERT_ROBOT_HOST:
	case ALERT_MAILBOX:
	case ALERT_MAILBOX_FAILED:
	case ALERT_BOUNCE_ROBOT:
	case ALERT_BOUNCE_ADMIN:
		return false;
	default:
		return true;
	}
}

/* The alert mail (RFC 5322), NUL-terminated; NULL when out of memory.  Caller frees. */
static char *compose(const struct config *cfg, const char *home, enum alert_cause c, const char *cause, time_t now,
    size_t *len)
{
	/* RFC 5322 3.3, in English whatever the locale */
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
		"Oct", "Nov", "Dec" };
	char date[64], *text = NULL;
	const char *at = strrchr(cfg->from_address, '@');
	struct tm tm;
	FILE *f;

	if (gmtime_r(&now, &tm) == NULL)
		return NULL;
	snprintf(date, sizeof date, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
	    months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	f = open_memstream(&text, len);
	if (f == NULL)
		return NULL;
	/* no MAC in its Message-ID (idmac.h): if it ever comes back, its From, the server's own, drops it as a loop */
	fprintf(f, "From: %s <%s>\r\nTo: %s\r\nSubject: %s: %s: %.200s\r\nDate: %s\r\n"
	    "Message-ID: <oust.%lld.%lx.alert@%s>\r\nAuto-Submitted: auto-generated\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n",
	    cfg->server_name, cfg->from_address, cfg->admin_address, cfg->server_name,
	    kept_by_mta(c) ? "mail kept unanswered" : "to look at", cause, date,
	    (long long)now, (unsigned long)getpid(), at != NULL ? at + 1 : "localhost");
	if (!kept_by_mta(c))
		fprintf(f, "The oustpbm server of %s asks you to look at this:\r\n\r\n    %.*s\r\n\r\n"
		    "The log, %s/log, says more.\r\n\r\n"
		    "This is said at most once an hour for each cause.\r\n",
		    home, ALERT_CAUSE_MAX, cause, home);
	else
		fprintf(f, "The oustpbm server of %s cannot answer mail:\r\n\r\n    %.*s\r\n\r\n"
		    "No mail is lost: oustpbm exits 75 (EX_TEMPFAIL), so the mail system keeps\r\n"
		    "each mail in its queue and delivers it again later.  Once the cause is\r\n"
		    "fixed, the mails are answered at the mail system's next try (on Postfix,\r\n"
		    "`postqueue -f` as root tries at once).  The log, %s/log, says more.\r\n\r\n"
		    "This is said at most once an hour for each cause.\r\n",
		    home, ALERT_CAUSE_MAX, cause, home);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Send the mail through the configured transport; false with why. */
static bool send_mail(const struct config *cfg, struct store *st, const char *msg, size_t len, time_t now,
    char *why, size_t whylen)
{
	const struct transport_ops *ops = transport_find(cfg->transport);
	struct transport_envelope env;
	enum transport_result r;
	char id[80];
	void *ctx = NULL;

	if (ops == NULL) {
		snprintf(why, whylen, "no transport '%s'", cfg->transport);
		return false;
	}
	if (st == NULL && strcmp(ops->name, "smtp") != 0) {
		snprintf(why, whylen, "the %s transport needs the home", ops->name);
		return false;
	}
	if (st == NULL && cfg->smtp_password_file[0] != '\0') {
		snprintf(why, whylen, "smtp_password_file is read from the home");
		return false;
	}
	snprintf(id, sizeof id, "%lld.alert.P%lu", (long long)now, (unsigned long)getpid());
	env.id = id;
	env.from = cfg->envelope_from[0] != '\0' ? cfg->envelope_from : cfg->from_address;
	env.rcpt = cfg->admin_address;
	r = ops->open(st, cfg, &ctx, why, whylen);
	if (r != TRANSPORT_OK)
		return false;
	r = ops->deliver(ctx, &env, msg, len, why, whylen);
	if (r == TRANSPORT_OK && ops->finish != NULL)
		r = ops->finish(ctx, why, whylen);
	ops->close(ctx);
	return r == TRANSPORT_OK;
}

enum process_status alert_admin(const struct config *cfg, struct store *st, const char *home, enum alert_cause c,
    const char *cause)
{
	static struct config salvaged;	/* large: not on the stack */
	char stamp[ALERT_STAMP_MAX], why[TRANSPORT_WHY_MAX], key[ALERT_KEY_MAX + 1], *msg = NULL, *nl;
	enum process_status as;
	const char *said = "";	/* the log's words for what became of the alert */
	bool told = false;
	size_t len = 0;
	time_t now;
	int fd = -1;

	if (cfg == NULL) {
		(void)config_salvage(&salvaged, home);
		cfg = &salvaged;
	}
	now = config_now(cfg);
	cause_key(c, cause, key);
	if (cfg->admin_address[0] == '\0') {
		as = PROCESS_CONFIG;
		said = "no admin_address to tell";
		if (kept_by_mta(c))
			msg_warn("the mail is kept by the mail system (exit 75); set admin_address in %s "
			    "to be told by mail", CONFIG_FILE);
		else
			msg_warn("set admin_address in %s to be told by mail", CONFIG_FILE);
		goto out;
	}
	fd = stamp_open(home);
	stamp[0] = '\0';
	if (fd >= 0)
		(void)stamp_read(fd, stamp, sizeof stamp);
	if (fd >= 0 && stamp_told(stamp, key, now - ALERT_INTERVAL)) {
		as = PROCESS_OK;
		said = "admin already told within the hour";
		told = true;
		goto out;
	}
	msg = compose(cfg, home, c, cause, now, &len);
	if (msg == NULL) {
		snprintf(why, sizeof why, "out of memory");
		as = PROCESS_TEMPFAIL;
	} else if (!send_mail(cfg, st, msg, len, now, why, sizeof why)) {
		as = PROCESS_TEMPFAIL;
	} else {
		as = PROCESS_OK;
		said = "admin told by mail";
		told = true;
		if (fd >= 0)
			stamp_write(fd, stamp, key, now);
	}
	if (as == PROCESS_TEMPFAIL) {
		said = "the mail to the admin could not be sent";
		nl = strchr(why, '\n');
		if (nl != NULL)
			*nl = '\0';
		msg_warn("cannot tell %s: %s", cfg->admin_address, why);
	}
out:
	if (st != NULL) {
		char t[GAMEFILE_TIME_SIZE];

		gamefile_time_str((int64_t)now, t);
		store_log(st, "%s alert %s: %s%s%s", t, key, said, told ? " " : "", told ? cfg->admin_address : "");
	}
	if (fd >= 0)
		close(fd);
	free(msg);
	return as;
}
