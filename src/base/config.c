/* config: oustpbm.conf and the test settings from the environment. */
#include "base/config.h"
#include "base/errbuf.h"
#include "base/imapurl.h"
#include "base/testhook.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* the system's file: the Makefile gives SYSCONFDIR (/etc for PREFIX=/usr, else PREFIX/etc) */
#ifndef OUSTPBM_SYSCONFDIR
#define OUSTPBM_SYSCONFDIR "/usr/local/etc"
#endif
#define CONFIG_SYSTEM_FILE OUSTPBM_SYSCONFDIR "/oustpbm/" CONFIG_FILE

enum key_type { KEY_STRING, KEY_NUMBER };

/* One known key: where its value goes and what it may be. */
struct key {
	const char *name;
	enum key_type type;
	size_t offset;		/* in struct config */
	size_t size;		/* KEY_STRING: size of the char array */
	unsigned long min, max;	/* KEY_NUMBER: inclusive range */
	bool zero_ok;		/* KEY_NUMBER: 0 allowed below min */
	const char *(*check)(const char *value);	/* KEY_STRING: NULL or why not */
	bool secret;		/* never quote the value in a message */
};

static const char *check_address(const char *v)
{
	const char *why = NULL;

	return mailaddr_ok(v, &why) ? NULL : why;
}

static const char *check_name(const char *v)
{
	const unsigned char *p;

	if (v[0] == '\0')
		return "is empty";
	for (p = (const unsigned char *)v; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return "contains a control character";
	return NULL;
}

static const char *check_path(const char *v)
{
	return check_name(v);
}

/*
 * The transport key's values: a value like any other here, at the bottom;
 * outbox/transport.c has one transport of each name (test_config checks).
 */
static const char *const transports[] = { "maildir", "smtp" };

bool config_transport_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof transports / sizeof transports[0]; i++)
		if (strcmp(transports[i], name) == 0)
			return true;
	return false;
}

static const char *check_transport(const char *v)
{
	return config_transport_known(v) ? NULL : "is not a known transport (known: maildir, smtp)";
}

static const char *check_sync(const char *v)
{
	return strcmp(v, "file") == 0 || strcmp(v, "filesystem") == 0 ? NULL : "is not 'file' or 'filesystem'";
}

static const char *check_smtp_url(const char *v)
{
	char host[CONFIG_URL_MAX + 1];
	const char *why = NULL;
	unsigned port;
	bool tls;

	return config_smtp_url_parse(v, &tls, host, sizeof host, &port, &why) ? NULL : why;
}

static const char *check_imap_url(const char *v)
{
	struct imapurl u;
	const char *why = NULL;

	return imapurl_parse(v, &u, &why) ? NULL : why;
}

static const char *check_folder(const char *v)
{
	return imapurl_folder_ok(v) ? NULL : "is not a folder name (printable ASCII without '\"', '\\', '%' or '*')";
}

static const char *check_on_off(const char *v)
{
	return strcmp(v, "on") == 0 || strcmp(v, "off") == 0 ? NULL : "is not 'on' or 'off'";
}

/* web_url: the address the web site is served at, http:// or https://, no spaces. */
static const char *check_web_url(const char *v)
{
	const char *why = check_name(v);

	if (why != NULL)
		return why;
	if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
		return "does not start with http:// or https://";
	if (strpbrk(v, " \"<>") != NULL)
		return "contains a space, '\"', '<' or '>'";
	return NULL;
}

static const char *check_starttls(const char *v)
{
	return strcmp(v, "required") == 0 || strcmp(v, "off") == 0 ? NULL : "is not 'required' or 'off'";
}

/* A host name: it becomes the path of the SMTP URL, which libcurl sends in EHLO. */
static bool host_name_ok(const char *v, size_t n)
{
	size_t i;

	if (n == 0 || v[0] == '.' || v[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
			(v[i] >= '0' && v[i] <= '9') || v[i] == '.' || v[i] == '-'))
			return false;
	return true;
}

static const char *check_helo(const char *v)
{
	return host_name_ok(v, strlen(v)) ? NULL : "is not a host name (letters, digits, '.', '-')";
}

/*
 * An authserv-id (RFC 8601 2.2) as mail servers write it: a host name.
 * Empty turns the check of Authentication-Results off, as unset does.
 */
static const char *check_authserv_id(const char *v)
{
	return v[0] == '\0' || host_name_ok(v, strlen(v)) ? NULL : "is not a host name (letters, digits, '.', '-')";
}

/* A secret (a password of the relay) has a name's rules; its keys never quote it. */
static const char *check_secret(const char *v)
{
	return check_name(v);
}

#define STR_KEY(field, chk) \
	{ #field, KEY_STRING, offsetof(struct config, field), sizeof(((struct config *)0)->field), 0, 0, false, chk, false }
#define NUM_KEY(field, lo, hi, zero) \
	{ #field, KEY_NUMBER, offsetof(struct config, field), 0, lo, hi, zero, NULL, false }
#define SECRET_KEY(field) \
	{ #field, KEY_STRING, offsetof(struct config, field), sizeof(((struct config *)0)->field), 0, 0, false, \
	    check_secret, true }

/* A value never quoted in an error, checked by chk. */
#define UNQUOTED_KEY(field, chk) \
	{ #field, KEY_STRING, offsetof(struct config, field), sizeof(((struct config *)0)->field), 0, 0, false, chk, \
	    true }

static const struct key keys[] = {
	STR_KEY(from_address, check_address),
	STR_KEY(server_name, check_name),
	NUM_KEY(max_message_bytes, 1024, 104857600, false),
	NUM_KEY(lock_timeout_ms, 0, 600000, false),
	STR_KEY(transport, check_transport),
	STR_KEY(sync, check_sync),
	NUM_KEY(password_cost, 1, 11, true),
	STR_KEY(templates, check_path),
	NUM_KEY(remind_days, 0, 365, false),
	NUM_KEY(timeout_days, 0, 3650, false),
	NUM_KEY(challenge_expiry_days, 0, 3650, false),
	NUM_KEY(vacation_days_per_year, 0, 366, false),
	NUM_KEY(vacation_accrual_days, 0, 3650, false),
	NUM_KEY(vacation_max_days, 0, 366, false),
	STR_KEY(smtp_url, check_smtp_url),
	STR_KEY(smtp_starttls, check_starttls),
	STR_KEY(smtp_cafile, check_path),
	STR_KEY(smtp_user, check_secret),
	SECRET_KEY(smtp_password),
	STR_KEY(smtp_password_file, check_path),
	STR_KEY(helo_name, check_helo),
	STR_KEY(envelope_from, check_address),
	NUM_KEY(smtp_connect_timeout, 1, 600, false),
	NUM_KEY(smtp_timeout, 1, 3600, false),
	NUM_KEY(retry_days, 1, 365, false),
	NUM_KEY(sent_keep_days, 0, 3650, false),
	NUM_KEY(flush_backlog_seconds, 0, 600, false),
	NUM_KEY(flush_backlog_max, 0, 100000, false),
	NUM_KEY(bounce_limit, 1, 1000, true),
	NUM_KEY(max_mails_per_hour, 1, 100000, true),
	NUM_KEY(max_board_replies_per_hour, 1, 100000, true),
	NUM_KEY(max_password_failures, 1, 1000, true),
	NUM_KEY(password_lockout_minutes, 1, 10080, false),
	NUM_KEY(max_open_boards, 1, 100000, true),
	NUM_KEY(max_open_challenges, 1, 1000, true),
	NUM_KEY(max_challenges_per_hour, 1, 10000, true),
	NUM_KEY(max_tournaments_per_director, 1, 1000, true),
	NUM_KEY(max_chat_audience, 1, 1000, true),
	NUM_KEY(max_chats_per_hour, 1, 1000, true),
	NUM_KEY(max_mails_per_mail, 1, 10000, true),
	STR_KEY(web_dir, check_path),
	STR_KEY(web_url, check_web_url),
	STR_KEY(admin_address, check_address),
	STR_KEY(html_mail, check_on_off),
	NUM_KEY(max_registrations_per_hour, 1, 100000, true),
	NUM_KEY(max_registrations_per_domain, 1, 100000, true),
	NUM_KEY(max_pending_per_domain_per_hour, 1, 100000, true),
	NUM_KEY(robot_seconds, 1, 600, false),
	NUM_KEY(robot_max_thinking, 1, 1024, true),
	STR_KEY(robot_address, check_address),
	STR_KEY(robot_server, check_address),
	STR_KEY(robot_secret_file, check_path),
	NUM_KEY(review_seconds, 1, 3600, false),
	NUM_KEY(max_reviews_per_day, 1, 1000, true),
	NUM_KEY(userid_reserve_days, 0, 3650, false),
	STR_KEY(trusted_authserv_id, check_authserv_id),
	/* not quoted in an error: a password written into the URL by mistake stays unseen */
	UNQUOTED_KEY(imap_url, check_imap_url),
	STR_KEY(imap_password_file, check_path),
	STR_KEY(imap_cafile, check_path),
	STR_KEY(imap_done_folder, check_folder),
	STR_KEY(imap_failed_folder, check_folder),
	NUM_KEY(imap_max_per_run, 1, 100000, false),
	NUM_KEY(imap_poll_seconds, 1, 3600, false),
	NUM_KEY(imap_timeout, 1, 3600, false),
};
#define NKEYS (sizeof keys / sizeof keys[0])

const char *config_status_str(enum config_status status)
{
	switch (status) {
	case CONFIG_OK:
		return "ok";
	case CONFIG_IO:
		return "cannot read configuration";
	case CONFIG_INVALID:
		return "invalid configuration";
	}
	return "unknown status";
}

void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	snprintf(cfg->from_address, sizeof cfg->from_address, "%s", "oust@localhost");
	snprintf(cfg->server_name, sizeof cfg->server_name, "%s", "oustpbm");
	cfg->max_message_bytes = 262144;
	cfg->lock_timeout_ms = 10000;
	snprintf(cfg->transport, sizeof cfg->transport, "%s", "maildir");
	/* per-file fsync: a busy neighbour on the filesystem does not stall a mail (make bench, bench_sync) */
	snprintf(cfg->sync, sizeof cfg->sync, "%s", "file");
	/* libxcrypt's default yescrypt cost: tens of ms per check, nothing for a mail */
	cfg->password_cost = 0;
	cfg->remind_days = 7;
	cfg->timeout_days = 0;
	cfg->challenge_expiry_days = 14;
	cfg->vacation_days_per_year = 30;
	cfg->vacation_accrual_days = 12;
	cfg->vacation_max_days = 30;
	cfg->max_mails_per_hour = 30;
	cfg->max_board_replies_per_hour = 150;
	cfg->max_password_failures = 5;
	cfg->password_lockout_minutes = 60;
	cfg->max_open_boards = 50;
	cfg->max_open_challenges = 3;
	cfg->max_challenges_per_hour = 10;
	cfg->max_tournaments_per_director = 3;
	/* a chat reaches the opponent and at most 20 observers: a club's table, not a mailing list */
	cfg->max_chat_audience = 20;
	/* 10 an hour is a lively conversation by mail; 40 forged-sender chats made 880 mails (issue 31) */
	cfg->max_chats_per_hour = 10;
	/* the chat to its audience and the copy to its sender: 22; a little room above */
	cfg->max_mails_per_mail = 30;
	/* forged registrations must not fill the users file (STORE_USERS_FILE_MAX) */
	cfg->max_registrations_per_hour = 100;
	cfg->max_registrations_per_domain = 20;
	cfg->max_pending_per_domain_per_hour = 10;
	cfg->robot_seconds = 5;
	cfg->robot_max_thinking = 0;	/* the number of processors (robot.h) */
	cfg->review_seconds = 120;
	cfg->max_reviews_per_day = 3;
	cfg->userid_reserve_days = 365;
	cfg->test_time_set = false;
	cfg->test_time = 0;
	cfg->smtp_connect_timeout = 10;
	cfg->smtp_timeout = 60;
	cfg->retry_days = 5;
	cfg->sent_keep_days = 7;
	/* a mail's process sends the backlog for 3 s, 50 mails at most: cron's flush does the rest */
	cfg->flush_backlog_seconds = 3;
	cfg->flush_backlog_max = 50;
	cfg->bounce_limit = 3;
	snprintf(cfg->html_mail, sizeof cfg->html_mail, "%s", "on");
	snprintf(cfg->imap_done_folder, sizeof cfg->imap_done_folder, "%s", "oustpbm-done");
	snprintf(cfg->imap_failed_folder, sizeof cfg->imap_failed_folder, "%s", "oustpbm-failed");
	/* a minute's mail of a busy club; the rest waits for the next run (cron: a minute) */
	cfg->imap_max_per_run = 100;
	cfg->imap_poll_seconds = 60;
	cfg->imap_timeout = 60;
}

#define errf errbuf_set

/* Copy s[0..n) into out (size outlen) with control characters shown as '?'. */
static void quote(char *out, size_t outlen, const char *s, size_t n)
{
	size_t i;

	if (outlen == 0)
		return;
	for (i = 0; i < n && i + 1 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];

		out[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	out[i] = '\0';
}

/* Decimal digits only, no sign; false on anything else or overflow. */
static bool parse_number(const char *s, unsigned long *out)
{
	unsigned long v = 0;

	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (ULONG_MAX - (unsigned long)(*s - '0')) / 10)
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*out = v;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Set one key from a value; on error write "KEY 'VALUE' why" into msg. */
static bool set_key(struct config *cfg, const struct key *k, const char *value, char *msg, size_t msglen)
{
	char q[CONFIG_LINE_MAX + 1];
	const char *why;
	unsigned long n;

	quote(q, sizeof q, value, strlen(value));
	if (k->secret)
		snprintf(q, sizeof q, "(not shown)");
	if (k->type == KEY_STRING) {
		char *dst = (char *)cfg + k->offset;

		if (strlen(value) >= k->size) {
			snprintf(msg, msglen, "%s %s%s%s is longer than %zu characters", k->name, k->secret ? "" : "'",
			    q, k->secret ? "" : "'", k->size - 1);
			return false;
		}
		why = k->check != NULL ? k->check(value) : NULL;
		if (why != NULL) {
			snprintf(msg, msglen, "%s %s%s%s %s", k->name, k->secret ? "" : "'", q, k->secret ? "" : "'",
			    why);
			return false;
		}
		memcpy(dst, value, strlen(value) + 1);
		return true;
	}
	if (!parse_number(value, &n)) {
		snprintf(msg, msglen, "%s '%s' is not a number", k->name, q);
		return false;
	}
	if ((n < k->min || n > k->max) && !(k->zero_ok && n == 0)) {
		snprintf(msg, msglen, "%s '%s' is out of range (%s%lu..%lu)", k->name, q,
		    k->zero_ok ? "0 or " : "", k->min, k->max);
		return false;
	}
	*(unsigned long *)(void *)((char *)cfg + k->offset) = n;
	return true;
}

/* The line key was set on in this file, 0 if it was not. */
static unsigned line_of(const unsigned *first_line, const char *key)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, key) == 0)
			return first_line[i];
	assert(!"unknown key");
	return 0;
}

static unsigned max_line(unsigned a, unsigned b)
{
	return a > b ? a : b;
}

/* The SMTP keys that only make sense together; smtp_url selects the smtp transport. */
static enum config_status check_smtp(struct config *cfg, const char *name, const unsigned *first_line,
    char *err, size_t errlen)
{
	unsigned url = line_of(first_line, "smtp_url"), tr = line_of(first_line, "transport");
	unsigned pw = line_of(first_line, "smtp_password"), pwf = line_of(first_line, "smtp_password_file");
	unsigned user = line_of(first_line, "smtp_user");
	bool has_pw;

	/* a home's password (or file) replaces the system file's other one, not adds to it */
	if (pw != 0 && pwf == 0)
		cfg->smtp_password_file[0] = '\0';
	if (pwf != 0 && pw == 0)
		explicit_bzero(cfg->smtp_password, sizeof cfg->smtp_password);
	has_pw = cfg->smtp_password[0] != '\0' || cfg->smtp_password_file[0] != '\0';

	if (pw != 0 && pwf != 0) {
		errf(err, errlen, "%s line %u: smtp_password and smtp_password_file (line %u) both set: use one",
		    name, max_line(pw, pwf), pw < pwf ? pw : pwf);
		return CONFIG_INVALID;
	}
	if (user != 0 && !has_pw) {
		errf(err, errlen, "%s line %u: smtp_user '%s' needs smtp_password or smtp_password_file", name,
		    user, cfg->smtp_user);
		return CONFIG_INVALID;
	}
	if ((pw != 0 || pwf != 0) && cfg->smtp_user[0] == '\0') {
		errf(err, errlen, "%s line %u: %s needs smtp_user", name, pw != 0 ? pw : pwf,
		    pw != 0 ? "smtp_password" : "smtp_password_file");
		return CONFIG_INVALID;
	}
	if (url != 0 && tr != 0 && strcmp(cfg->transport, "smtp") != 0) {
		errf(err, errlen, "%s line %u: transport '%s' contradicts smtp_url (line %u)", name, tr,
		    cfg->transport, url);
		return CONFIG_INVALID;
	}
	if (url != 0 && tr == 0)
		snprintf(cfg->transport, sizeof cfg->transport, "smtp");
	if (strcmp(cfg->transport, "smtp") == 0 && cfg->smtp_url[0] == '\0') {
		errf(err, errlen, "%s line %u: transport 'smtp' needs smtp_url", name, tr);
		return CONFIG_INVALID;
	}
	return CONFIG_OK;
}

/* The robot on another host: its board mails are authenticated by a MAC under a shared secret (robotmac.h). */
static enum config_status check_robot(const struct config *cfg, const char *name, const unsigned *first_line,
    char *err, size_t errlen)
{
	unsigned addr = line_of(first_line, "robot_address"), server = line_of(first_line, "robot_server");

	if ((addr != 0 || server != 0) && cfg->robot_secret_file[0] == '\0') {
		errf(err, errlen, "%s line %u: %s needs robot_secret_file, the secret shared with %s (the board mails "
		    "are authenticated by a MAC under it, not by their From)", name, addr != 0 ? addr : server,
		    addr != 0 ? "robot_address" : "robot_server", addr != 0 ? "the robot host" : "the server");
		return CONFIG_INVALID;
	}
	return CONFIG_OK;
}

bool config_smtp_url_parse(const char *url, bool *tls, char *host, size_t hostlen, unsigned *port,
    const char **why)
{
	const char *p, *h, *end;
	unsigned long v = 0;
	size_t n;

	if (strncmp(url, "smtp://", 7) == 0) {
		*tls = false;
		p = url + 7;
	} else if (strncmp(url, "smtps://", 8) == 0) {
		*tls = true;
		p = url + 8;
	} else {
		*why = "does not start with smtp:// or smtps://";
		return false;
	}
	if (*p == '[') {
		struct in6_addr a6;
		char buf[INET6_ADDRSTRLEN + 1];

		h = p + 1;
		end = strchr(h, ']');
		n = end != NULL ? (size_t)(end - h) : 0;
		if (end == NULL || n == 0 || n >= sizeof buf) {
			*why = "has a bad IPv6 address";
			return false;
		}
		memcpy(buf, h, n);
		buf[n] = '\0';
		if (inet_pton(AF_INET6, buf, &a6) != 1) {
			*why = "has a bad IPv6 address";
			return false;
		}
		p = end + 1;
	} else {
		h = p;
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '.' || *p == '-')
			p++;
		n = (size_t)(p - h);
		if (!host_name_ok(h, n)) {
			*why = "has no host name";
			return false;
		}
	}
	if (n >= hostlen) {
		*why = "has a host name too long";
		return false;
	}
	if (*p == ':') {
		for (p++; *p >= '0' && *p <= '9' && v <= 65535; p++)
			v = v * 10 + (unsigned long)(*p - '0');
		if (v == 0 || v > 65535 || !(*p == '\0' || *p == '/')) {
			*why = "has a bad port (1..65535)";
			return false;
		}
	}
	if (*p == '/')
		p++;
	if (*p != '\0') {
		*why = "has something after host and port (the EHLO name is helo_name)";
		return false;
	}
	memcpy(host, h, n);
	host[n] = '\0';
	*port = v != 0 ? (unsigned)v : *tls ? 465 : 25;
	return true;
}

bool config_smtp_starttls_required(const struct config *cfg)
{
	char host[CONFIG_URL_MAX + 1];
	const char *why;
	struct in_addr a4;
	unsigned port;
	bool tls;

	if (cfg->smtp_starttls[0] != '\0')
		return strcmp(cfg->smtp_starttls, "required") == 0;
	if (!config_smtp_url_parse(cfg->smtp_url, &tls, host, sizeof host, &port, &why))
		return true;
	/* loopback: no one to listen in between (RFC 3207 is about the path) */
	if (strcasecmp(host, "localhost") == 0 || strcmp(host, "::1") == 0)
		return false;
	if (inet_pton(AF_INET, host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127)
		return false;
	return true;
}

/*
 * The lines of text over cfg.  lenient: a bad line is skipped, not the end
 * (config_salvage); err then holds the first error.
 */
static enum config_status parse_lines(struct config *cfg, const char *name, const char *text, size_t len,
    bool lenient, char *err, size_t errlen)
{
	enum config_status status = CONFIG_OK;
	unsigned first_line[NKEYS] = { 0 };
	char line[CONFIG_LINE_MAX + 1], q[CONFIG_LINE_MAX + 1], msg[CONFIG_ERR_MAX];
	size_t pos = 0, i;
	unsigned lineno = 0;

	/* a UTF-8 byte order mark, as Windows editors write it, is not part of line 1 */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t eol = nl != NULL ? (size_t)(nl - text) : len;
		size_t n = eol - pos;
		char *key, *value, *eq, *end;
		const struct key *k = NULL;
		size_t start = pos;

		lineno++;
		pos = eol + 1;
		if (memchr(text + start, '\0', n) != NULL) {
			errf(err, errlen, "%s line %u: contains a NUL byte", name, lineno);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
		if (n > 0 && text[start + n - 1] == '\r')
			n--;	/* a file written on Windows */
		if (n > CONFIG_LINE_MAX) {
			errf(err, errlen, "%s line %u: longer than %d characters", name, lineno, CONFIG_LINE_MAX);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
		memcpy(line, text + start, n);
		line[n] = '\0';

		for (key = line; is_blank(*key); key++)
			;
		if (*key == '\0' || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL) {
			quote(q, sizeof q, key, strlen(key));
			errf(err, errlen, "%s line %u: expected 'key = value', got '%s'", name, lineno, q);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
		for (end = eq; end > key && is_blank(end[-1]); end--)
			;
		*end = '\0';
		for (value = eq + 1; is_blank(*value); value++)
			;
		for (end = value + strlen(value); end > value && is_blank(end[-1]); end--)
			;
		*end = '\0';

		for (i = 0; i < NKEYS; i++)
			if (strcmp(keys[i].name, key) == 0)
				k = &keys[i];
		if (k == NULL) {
			quote(q, sizeof q, key, strlen(key));
			errf(err, errlen, "%s line %u: unknown key '%s'", name, lineno, q);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
		i = (size_t)(k - keys);
		if (first_line[i] != 0) {
			errf(err, errlen, "%s line %u: %s set again (first set on line %u)", name, lineno,
			    k->name, first_line[i]);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
		first_line[i] = lineno;
		if (!set_key(cfg, k, value, msg, sizeof msg)) {
			errf(err, errlen, "%s line %u: %s", name, lineno, msg);
			if (!lenient)
				return CONFIG_INVALID;
			status = CONFIG_INVALID;
			continue;
		}
	}
	if (status != CONFIG_OK) {
		/* what was read: smtp_url still selects the smtp transport */
		(void)check_smtp(cfg, name, first_line, msg, sizeof msg);
		return status;
	}
	status = check_smtp(cfg, name, first_line, err, errlen);
	if (status == CONFIG_OK)
		status = check_robot(cfg, name, first_line, err, errlen);
	return status;
}

enum config_status config_parse(struct config *cfg, const char *name, const char *text, size_t len,
    char *err, size_t errlen)
{
	return parse_lines(cfg, name, text, len, false, err, errlen);
}

/* Read <home>/oustpbm.conf; *text NULL when there is none.  Caller frees. */
static enum config_status read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
	enum config_status status = CONFIG_IO;
	char *buf = NULL;
	size_t have = 0;
	int fd;

	*text = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return CONFIG_OK;
		errf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return CONFIG_IO;
	}
	buf = malloc(CONFIG_FILE_MAX + 1);
	if (buf == NULL) {
		errf(err, errlen, "cannot read %s: %s", path, strerror(ENOMEM));
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, CONFIG_FILE_MAX + 1 - have);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			errf(err, errlen, "cannot read %s: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		have += (size_t)r;
		if (have > CONFIG_FILE_MAX) {
			errf(err, errlen, "%s is larger than %d bytes", path, CONFIG_FILE_MAX);
			status = CONFIG_INVALID;
			goto out;
		}
	}
	buf[have] = '\0';
	*text = buf;
	*len = have;
	buf = NULL;
	status = CONFIG_OK;
out:
	free(buf);
	close(fd);
	return status;
}

static enum config_status load_env(struct config *cfg, char *err, size_t errlen)
{
	const char *t = testhook_env("OUSTPBM_TEST_TIME");
	char q[64];
	unsigned long v;

	if (t == NULL || t[0] == '\0')
		return CONFIG_OK;
	/* time_t is 64-bit here; keep far from its limit for gmtime and sums */
	if (!parse_number(t, &v) || v > 253402300799UL) {
		quote(q, sizeof q, t, strlen(t));
		errf(err, errlen, "OUSTPBM_TEST_TIME '%s' is not a time in epoch seconds", q);
		return CONFIG_INVALID;
	}
	cfg->test_time_set = true;
	cfg->test_time = (time_t)v;
	return CONFIG_OK;
}

const char *config_system_file(void)
{
	/* the test build never reads the machine's file: a package installed beside the tests changes none of them */
	if (testhook_enabled()) {
		const char *t = testhook_env("OUSTPBM_TEST_SYSCONF");

		return t != NULL && t[0] != '\0' ? t : NULL;
	}
	return CONFIG_SYSTEM_FILE;
}

/*
 * The system file (config_system_file) over the defaults, then
 * <home>/oustpbm.conf over that: a key the home's file sets wins, the others
 * keep the system file's values.  lenient (config_salvage): a bad line is
 * skipped and a system file that cannot be read is passed over, so that
 * the status is the home file's read.
 */
static enum config_status load_files(struct config *cfg, const char *home, bool lenient, char *err,
    size_t errlen)
{
	enum config_status status;
	const char *sys = config_system_file();
	char *path = NULL, *text = NULL;
	size_t len;

	if (sys != NULL) {
		status = read_file(sys, &text, &len, err, errlen);
		if (status != CONFIG_OK && !lenient)
			goto out;
		/* named by its whole path: "oustpbm.conf line 4" would send the admin to the home's */
		if (text != NULL) {
			status = parse_lines(cfg, sys, text, len, lenient, err, errlen);
			if (status != CONFIG_OK && !lenient)
				goto out;
		}
		free(text);
		text = NULL;
	}
	if (asprintf(&path, "%s/%s", home, CONFIG_FILE) < 0) {
		path = NULL;
		errf(err, errlen, "cannot read %s/%s: %s", home, CONFIG_FILE, strerror(ENOMEM));
		status = CONFIG_IO;
		goto out;
	}
	status = read_file(path, &text, &len, err, errlen);
	if (status != CONFIG_OK) {
		if (lenient)
			status = CONFIG_IO;	/* config_salvage: the home's file cannot be read at all */
		goto out;
	}
	if (text != NULL)
		status = parse_lines(cfg, CONFIG_FILE, text, len, lenient, err, errlen);
out:
	free(text);
	free(path);
	return status;
}

enum config_status config_load(struct config *cfg, const char *home, char *err, size_t errlen)
{
	enum config_status status;

	config_defaults(cfg);
	status = load_files(cfg, home, false, err, errlen);
	if (status != CONFIG_OK)
		return status;
	status = load_env(cfg, err, errlen);
	if (status == CONFIG_OK && (config_now(cfg) < 0 || (int64_t)config_now(cfg) > CONFIG_NOW_MAX)) {
		/* every time written (a deadline timeout_days on) must fit a game file */
		errf(err, errlen, "the time is %lld seconds after 1970, past 9989-12-31: game files hold times "
		    "up to 9999-12-31 and the deadlines ahead must fit; set the clock right",
		    (long long)config_now(cfg));
		status = CONFIG_INVALID;
	}
	return status;
}

bool config_salvage(struct config *cfg, const char *home)
{
	char err[CONFIG_ERR_MAX];
	bool ok;

	config_defaults(cfg);
	/* the lenient read returns CONFIG_INVALID for bad lines only once the home's file was read */
	ok = load_files(cfg, home, true, err, sizeof err) != CONFIG_IO;
	(void)load_env(cfg, err, sizeof err);
	return ok;
}

time_t config_now(const struct config *cfg)
{
	return cfg->test_time_set ? cfg->test_time : time(NULL);
}

const char *config_default_home(void)
{
	static char buf[CONFIG_PATH_MAX + 1];
	const char *env = getenv("OUSTPBM_HOME");
	const char *dir = getenv("HOME");
	struct passwd *pw;

	if (env != NULL && env[0] != '\0')
		return env;
	if (dir == NULL || dir[0] != '/') {
		pw = getpwuid(geteuid());
		dir = pw != NULL && pw->pw_dir != NULL && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	if (dir == NULL)
		return "oustpbm";	/* nothing better: relative to the current directory */
	snprintf(buf, sizeof buf, "%s%s" CONFIG_HOME_NAME, dir, dir[strlen(dir) - 1] == '/' ? "" : "/");
	return buf;
}

/* What config_write_sample() says of each key (the README's table says more). */
static const struct {
	const char *name;
	const char *help;
} key_help[] = {
	{ "from_address", "the server's address: From: of every reply" },
	{ "server_name", "the name the server signs its replies with" },
	{ "max_message_bytes", "the largest mail read, 1024..104857600" },
	{ "lock_timeout_ms", "the longest wait for a lock (then exit 75, nothing changed), 0..600000" },
	{ "transport", "how replies leave the outbox: smtp (to smtp_url) or maildir (kept under mail/ of the home: "
	  "for tests and the demo; nobody receives them)" },
	{ "password_cost", "yescrypt cost of new password hashes, 1..11, 0 = libxcrypt's default" },
	{ "templates", "the directory of the reply templates (relative: from the home)" },
	{ "remind_days", "cleanup reminds a player to move after this many idle days, 0 = never, ..365" },
	{ "timeout_days", "cleanup ends a game as a loss on time after this many idle days, 0 = never, ..3650" },
	{ "challenge_expiry_days", "cleanup withdraws a challenge not accepted after this many days, 0 = never, ..3650" },
	{ "vacation_days_per_year", "the old cap of the vacation bank: the bank holds at most the smaller of it and "
	  "vacation_max_days, ..366" },
	{ "vacation_accrual_days", "a player's vacation bank gains a day for every this many days as a member, "
	  "0 = none, ..3650" },
	{ "vacation_max_days", "the most days a vacation bank holds, 0 = no vacation, ..366" },
	{ "smtp_url", "smtp://host[:port] or smtps://host[:port]: send the replies by SMTP" },
	{ "smtp_starttls", "required|off: STARTTLS on smtp:// (default: off for a loopback host)" },
	{ "smtp_cafile", "PEM file of the CAs the SMTP server's certificate is checked against" },
	{ "smtp_user", "AUTH user name; needs smtp_password or smtp_password_file" },
	{ "smtp_password", "AUTH password, never logged or shown" },
	{ "smtp_password_file", "a file whose first line is the AUTH password (relative: from the home)" },
	{ "helo_name", "the name given in EHLO (default: the host name)" },
	{ "envelope_from", "the SMTP MAIL FROM of the replies (default: from_address)" },
	{ "smtp_connect_timeout", "seconds to connect, 1..600" },
	{ "smtp_timeout", "seconds for one whole SMTP transaction, 1..3600" },
	{ "retry_days", "days a reply is retried before it moves to outbox/failed/, 1..365" },
	{ "sent_keep_days", "days a copy of a sent reply stays in outbox/sent/, 0..3650" },
	{ "flush_backlog_seconds", "seconds a mail's process sends older replies after its own, 0 = none, ..600" },
	{ "flush_backlog_max", "older replies a mail's process sends at most after its own, 0 = none, ..100000" },
	{ "bounce_limit", "bounces after which an address gets no mail until it writes, 0 = never stop, ..1000" },
	{ "sync", "file|filesystem: fsync each file and its directory, or one syncfs of the home's filesystem" },
	{ "max_mails_per_hour", "mails of one sender answered in an hour (more are dropped), 0 = no limit" },
	{ "max_board_replies_per_hour", "replies by token to one running board's mails answered in an hour, 0 = no limit" },
	{ "robot_seconds", "seconds the robot player thinks per turn (the board stays locked), 1..600" },
	{ "robot_max_thinking", "robot turns thought at once on this host (more wait for oustpbm robot), 0 = the processors" },
	{ "robot_address", "the robot player's address on a robot host: its turns come by mail, none thought here" },
	{ "robot_server", "on a robot host: the server address whose board mails robot-mail answers" },
	{ "robot_secret_file", "the secret the server and its robot host share, for the MAC of board mails (relative: from the home)" },
	{ "review_seconds", "seconds of search for one game review (review), shared out over its turns, 1..3600" },
	{ "max_reviews_per_day", "reviews one account may ask for in a day, 0 = no limit" },
	{ "max_registrations_per_hour", "accounts confirmed after a register in an hour, server-wide, 0 = no limit" },
	{ "max_registrations_per_domain", "of those, accounts whose address is in one domain, 0 = no limit" },
	{ "max_pending_per_domain_per_hour", "registration code mails to one domain in an hour, 0 = no limit" },
	{ "max_password_failures", "wrong passwords for one account in an hour that lock its password out, 0 = never" },
	{ "password_lockout_minutes", "how long such a lockout lasts, 1..10080" },
	{ "max_open_boards", "boards still playing either player may be in for a new challenge, 0 = no limit" },
	{ "max_open_challenges", "boards a challenger may have open against one opponent yet to play, 0 = no limit" },
	{ "max_challenges_per_hour", "challenges one account may make in an hour, 0 = no limit" },
	{ "max_tournaments_per_director", "tournaments open or running one account directs, 0 = no limit" },
	{ "max_chat_audience", "observers a chat reaches (the opponent besides), 0 = no limit" },
	{ "max_chats_per_hour", "chats one account may send in an hour, and a board may carry, 0 = no limit" },
	{ "max_mails_per_mail", "mails one incoming mail may cause besides the board mails of its readers, 0 = no limit" },
	{ "html_mail", "on|off: mails that show a board also carry it as HTML, after the text" },
	{ "web_dir", "the directory of the web site of the boards (relative: from the home); unset = none" },
	{ "web_url", "the address the web site is served at (http:// or https://): board mails link their page" },
	{ "admin_address", "the admin's address: told by mail (once an hour a cause) when mail cannot be answered" },
	{ "imap_url", "imap://USER@HOST/MAILBOX or imaps://...: the mailbox oustpbm fetch reads (USER's '@' as %40)" },
	{ "imap_password_file", "a file whose first line is the mailbox's password (relative: from the home)" },
	{ "imap_cafile", "PEM file of the CAs the IMAP server's certificate is checked against" },
	{ "imap_done_folder", "the folder fetch moves a handled mail to (made if missing)" },
	{ "imap_failed_folder", "the folder fetch moves a mail that can never be handled to (the admin told)" },
	{ "imap_max_per_run", "mails one fetch handles at most, 1..100000; the rest wait for the next run" },
	{ "imap_poll_seconds", "fetch --idle on a server without IDLE: seconds between two looks, 1..3600" },
	{ "imap_timeout", "seconds an IMAP server's answer may take, 1..3600" },
	{ "userid_reserve_days", "days the user id of a closed account (signoff, deluser) cannot be registered, 0..3650" },
	{ "trusted_authserv_id", "the receiving mail server whose Authentication-Results header is trusted (its AuthservID)" },
};

const char *config_key_help(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof key_help / sizeof key_help[0]; i++)
		if (strcmp(key_help[i].name, name) == 0)
			return key_help[i].help;
	return NULL;
}

size_t config_key_count(void)
{
	return NKEYS;
}

const char *config_key_name(size_t i)
{
	return i < NKEYS ? keys[i].name : NULL;
}

int config_write_sample(FILE *f, const char *from_address)
{
	struct config def;
	size_t i;

	config_defaults(&def);
	if (fprintf(f, "# oustpbm.conf: the settings of this oustpbm home (oustpbm(1) says more).\n"
	    "# One \"key = value\" a line; a line starting with '#' is a comment.  Every\n"
	    "# key is listed with its default, commented out: remove the '#' to set it.\n"
	    "# Set here: from_address, and the replies handed to the local MTA by SMTP\n"
	    "# (transport = smtp, smtp_url = %s) so that they leave this\n"
	    "# machine; transport = maildir (smtp_url commented out) keeps them in the\n"
	    "# home, for tests and the demo.\n", CONFIG_LOCAL_MTA_URL) < 0)
		return -1;
	for (i = 0; i < NKEYS; i++) {
		const struct key *k = &keys[i];
		const char *help = config_key_help(k->name);
		const char *p = (const char *)&def + k->offset;
		int r;

		if (fprintf(f, "\n# %s\n", help != NULL ? help : "see oustpbm(1)") < 0)
			return -1;
		if (strcmp(k->name, "from_address") == 0 && from_address != NULL)
			r = fprintf(f, "from_address = %s\n", from_address);
		else if (strcmp(k->name, "transport") == 0)
			r = fprintf(f, "transport = smtp\n");
		else if (strcmp(k->name, "smtp_url") == 0)
			r = fprintf(f, "smtp_url = %s\n", CONFIG_LOCAL_MTA_URL);
		else if (k->type == KEY_NUMBER)
			r = fprintf(f, "#%s = %lu\n", k->name, *(const unsigned long *)(const void *)p);
		else if (p[0] != '\0')
			r = fprintf(f, "#%s = %s\n", k->name, p);
		else
			r = fprintf(f, "#%s =\n", k->name);
		if (r < 0)
			return -1;
	}
	return 0;
}

