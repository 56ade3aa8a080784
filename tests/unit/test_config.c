/* test_config: oustpbm.conf parsing, defaults, errors with line numbers, test time. */
#include "base/config.h"
#include "base/imapurl.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "outbox/smtp.h"
#include "outbox/transport.h"
#include "t.h"
#include "t_home.h"

static char err[CONFIG_ERR_MAX];

/* Parse text over the defaults; the status, err filled. */
static enum config_status parse(struct config *cfg, const char *text)
{
	config_defaults(cfg);
	err[0] = '\0';
	return config_parse(cfg, "oustpbm.conf", text, strlen(text), err, sizeof err);
}

/* Check that text fails with exactly the message want. */
static void bad(const char *text, const char *want)
{
	struct config cfg;

	ok_int(parse(&cfg, text), CONFIG_INVALID, "refused: %s", want);
	ok_str(err, want, "the message quotes the line");
}

static void test_defaults(void)
{
	struct config cfg;

	config_defaults(&cfg);
	ok_str(cfg.from_address, "oust@localhost", "default from_address");
	ok_str(cfg.server_name, "oustpbm", "default server_name");
	ok_int(cfg.max_message_bytes, 262144, "default max_message_bytes");
	ok_int(cfg.lock_timeout_ms, 10000, "default lock_timeout_ms");
	ok_str(cfg.transport, "maildir", "default transport");
	ok_int(cfg.password_cost, 0, "default password_cost 0 (libxcrypt's default)");
	ok_int(cfg.max_password_failures, 5, "default max_password_failures 5");
	ok_int(cfg.password_lockout_minutes, 60, "default password_lockout_minutes 60");
	ok_int(cfg.max_open_challenges, 3, "default max_open_challenges 3");
	ok_int(cfg.max_challenges_per_hour, 10, "default max_challenges_per_hour 10");
	ok_int(cfg.max_open_boards, 50, "default max_open_boards 50");
	ok_str(cfg.templates, "", "no templates directory set by default");
	ok_int(cfg.max_mails_per_hour, 30, "default max_mails_per_hour 30");
	ok_int(cfg.max_registrations_per_hour, 100, "default max_registrations_per_hour 100");
	ok_int(cfg.max_registrations_per_domain, 20, "default max_registrations_per_domain 20");
	ok(!cfg.test_time_set, "no test time by default");
}

static void test_good(void)
{
	struct config cfg;
	const char *text =
	    "# oustpbm settings\n"
	    "\n"
	    "from_address = games@example.org\n"
	    "   server_name=Oust # server\t \n"
	    "\t# indented comment\n"
	    "max_message_bytes = 100000\r\n"
	    "lock_timeout_ms = 0\n"
	    "transport = maildir\n"
	    "password_cost = 3";	/* no final newline */

	ok_int(parse(&cfg, text), CONFIG_OK, "good file parses");
	ok_str(err, "", "no message for a good file");
	ok_str(cfg.from_address, "games@example.org", "from_address read");
	ok_str(cfg.server_name, "Oust # server", "value is the rest of the line, '#' kept, blanks trimmed");
	ok_int(cfg.max_message_bytes, 100000, "max_message_bytes read (CRLF line)");
	ok_int(cfg.lock_timeout_ms, 0, "lock_timeout_ms 0 allowed");
	ok_str(cfg.transport, "maildir", "transport read");
	ok_int(cfg.password_cost, 3, "password_cost read from a last line without newline");

	ok_int(parse(&cfg, ""), CONFIG_OK, "empty file parses");
	ok_str(cfg.from_address, "oust@localhost", "empty file keeps defaults");
	ok_int(parse(&cfg, "password_cost = 0\n"), CONFIG_OK, "password_cost 0 allowed");
	ok_int(parse(&cfg, "templates = /usr/share/oust templates\n"), CONFIG_OK, "templates read");
	ok_str(cfg.templates, "/usr/share/oust templates", "templates: the rest of the line");
	ok_int(parse(&cfg, "max_mails_per_hour = 0\n"), CONFIG_OK, "max_mails_per_hour 0 (no limit) allowed");
	ok_int(cfg.max_mails_per_hour, 0, "max_mails_per_hour 0 read");
	ok_int(parse(&cfg, "max_registrations_per_hour = 0\nmax_registrations_per_domain = 7\n"), CONFIG_OK,
	    "registration caps read");
	ok_int(cfg.max_registrations_per_hour, 0, "max_registrations_per_hour 0 (no limit)");
	ok_int(cfg.max_registrations_per_domain, 7, "max_registrations_per_domain 7");
	ok_int(parse(&cfg, "max_registrations_per_domain = 100001\n"), CONFIG_INVALID,
	    "max_registrations_per_domain over 100000 refused");
	ok_int(parse(&cfg, "max_mails_per_hour = 100000\n"), CONFIG_OK, "max_mails_per_hour 100000 allowed");
	ok_int(cfg.max_mails_per_hour, 100000, "max_mails_per_hour read");
	ok_int(parse(&cfg, "\xef\xbb\xbf" "server_name = BOM\n"), CONFIG_OK,
	    "a UTF-8 byte order mark (as Windows editors write) is accepted");
	ok_str(cfg.server_name, "BOM", "... and the first key after it is read");
	ok_int(parse(&cfg, "\xef\xbb\xbf"), CONFIG_OK, "a file of only a byte order mark parses");
	ok_int(parse(&cfg, "server_name = x\n\xef\xbb\xbfhelo_name = y\n"), CONFIG_INVALID,
	    "a byte order mark other than at the start is an error");
}

static void test_errors(void)
{
	char big[2000];

	bad("# a\n\n\nmax_message_bytes = ten\n", "oustpbm.conf line 4: max_message_bytes 'ten' is not a number");
	bad("colour = red\n", "oustpbm.conf line 1: unknown key 'colour'");
	bad("\nfrom_address\n", "oustpbm.conf line 2: expected 'key = value', got 'from_address'");
	bad("max_message_bytes = 100\n", "oustpbm.conf line 1: max_message_bytes '100' is out of range (1024..104857600)");
	bad("max_message_bytes = -5\n", "oustpbm.conf line 1: max_message_bytes '-5' is not a number");
	bad("max_message_bytes = 99999999999999999999999\n",
	    "oustpbm.conf line 1: max_message_bytes '99999999999999999999999' is not a number");
	bad("lock_timeout_ms =\n", "oustpbm.conf line 1: lock_timeout_ms '' is not a number");
	bad("lock_timeout_ms = 600001\n", "oustpbm.conf line 1: lock_timeout_ms '600001' is out of range (0..600000)");
	bad("max_mails_per_hour = 100001\n",
	    "oustpbm.conf line 1: max_mails_per_hour '100001' is out of range (0 or 1..100000)");
	bad("max_mails_per_hour = many\n", "oustpbm.conf line 1: max_mails_per_hour 'many' is not a number");
	bad("max_mails_per_hour = -1\n", "oustpbm.conf line 1: max_mails_per_hour '-1' is not a number");
	bad("password_cost = 12\n", "oustpbm.conf line 1: password_cost '12' is out of range (0 or 1..11)");
	bad("server_name = a\n#\nserver_name = b\n",
	    "oustpbm.conf line 3: server_name set again (first set on line 1)");
	bad("from_address = nobody\n", "oustpbm.conf line 1: from_address 'nobody' has no '@'");
	bad("from_address = a b@example.org\n", "oustpbm.conf line 1: from_address 'a b@example.org' contains a space");
	bad("server_name = \n", "oustpbm.conf line 1: server_name '' is empty");
	bad("server_name = a\x01z\n", "oustpbm.conf line 1: server_name 'a?z' contains a control character");
	bad("templates =\n", "oustpbm.conf line 1: templates '' is empty");
	bad("templates = a\x7f" "b\n", "oustpbm.conf line 1: templates 'a?b' contains a control character");
	bad("transport = sendmail\n",
	    "oustpbm.conf line 1: transport 'sendmail' is not a known transport (known: maildir, smtp)");
	bad("transport = maildir-and-more-than-sixteen\n",
	    "oustpbm.conf line 1: transport 'maildir-and-more-than-sixteen' is longer than 16 characters");

	memset(big, 'x', sizeof big);
	memcpy(big, "server_name = ", 14);
	big[sizeof big - 1] = '\0';
	bad(big, "oustpbm.conf line 1: longer than 1024 characters");

	{
		struct config cfg;
		static const char nul[] = "server_name = a\n\nfrom_address = x\0y@z\n";

		config_defaults(&cfg);
		ok_int(config_parse(&cfg, "oustpbm.conf", nul, sizeof nul - 1, err, sizeof err), CONFIG_INVALID,
		    "NUL byte refused");
		ok_str(err, "oustpbm.conf line 3: contains a NUL byte", "NUL byte message");
	}
}

static void test_smtp_keys(void)
{
	struct config cfg;
	char host[CONFIG_URL_MAX + 1];
	const char *why = NULL;
	unsigned port;
	bool tls;

	config_defaults(&cfg);
	ok(cfg.smtp_url[0] == '\0' && cfg.smtp_starttls[0] == '\0' && cfg.smtp_connect_timeout == 10 &&
	    cfg.smtp_timeout == 60 && cfg.retry_days == 5 && cfg.sent_keep_days == 7, "smtp and outbox defaults");

	ok_int(parse(&cfg, "smtp_url = smtp://mail.example.org:2525\nsmtp_user = oust\nsmtp_password = p#ss word\n"
	    "smtp_cafile = /etc/ssl/ca.pem\nhelo_name = games.example.org\nenvelope_from = bounces@example.org\n"
	    "smtp_connect_timeout = 3\nsmtp_timeout = 30\nretry_days = 2\nsent_keep_days = 0\n"), CONFIG_OK,
	    "smtp settings parse: %s", err);
	ok_str(cfg.transport, "smtp", "smtp_url selects the smtp transport");
	ok(strcmp(cfg.smtp_password, "p#ss word") == 0 && strcmp(cfg.helo_name, "games.example.org") == 0 &&
	    strcmp(cfg.envelope_from, "bounces@example.org") == 0 && cfg.smtp_connect_timeout == 3 &&
	    cfg.smtp_timeout == 30 && cfg.retry_days == 2 && cfg.sent_keep_days == 0, "values kept");
	ok(config_smtp_starttls_required(&cfg), "STARTTLS required by default for a remote host");
	ok_int(parse(&cfg, ""), CONFIG_OK, "empty file");
	ok_str(cfg.sync, "file", "sync = file by default");
	ok_int(parse(&cfg, "sync = filesystem\n"), CONFIG_OK, "sync = filesystem");
	ok_str(cfg.sync, "filesystem", "... kept");
	ok_int(parse(&cfg, "sync = fast\n"), CONFIG_INVALID, "sync = fast refused");
	ok_int(parse(&cfg, "transport = smtp\nsmtp_url = smtp://127.0.0.1:25/\n"), CONFIG_OK,
	    "transport = smtp with smtp_url");
	ok(!config_smtp_starttls_required(&cfg), "not required by default on 127.0.0.1");
	ok_int(parse(&cfg, "smtp_url = smtp://127.1.2.3\nsmtp_starttls = required\n"), CONFIG_OK, "required set");
	ok(config_smtp_starttls_required(&cfg), "smtp_starttls = required wins on loopback");
	ok_int(parse(&cfg, "smtp_url = smtp://mail.example.org\nsmtp_starttls = off\n"), CONFIG_OK, "off set");
	ok(!config_smtp_starttls_required(&cfg), "smtp_starttls = off");
	parse(&cfg, "smtp_url = smtp://localhost:25\n");
	ok(!config_smtp_starttls_required(&cfg), "localhost is loopback");
	parse(&cfg, "smtp_url = smtp://[::1]:25\n");
	ok(!config_smtp_starttls_required(&cfg), "::1 is loopback");
	parse(&cfg, "smtp_url = smtp://128.0.0.1\n");
	ok(config_smtp_starttls_required(&cfg), "128.0.0.1 is not");

	ok(config_smtp_url_parse("smtps://mail.example.org", &tls, host, sizeof host, &port, &why) && tls &&
	    port == 465 && strcmp(host, "mail.example.org") == 0, "smtps:// defaults to port 465");
	ok(config_smtp_url_parse("smtp://[::1]:587", &tls, host, sizeof host, &port, &why) && !tls &&
	    port == 587 && strcmp(host, "::1") == 0, "IPv6 literal with port");
	ok(config_smtp_url_parse("smtp://h", &tls, host, sizeof host, &port, &why) && port == 25, "port 25 default");

	bad("smtp_url = http://example.org\n",
	    "oustpbm.conf line 1: smtp_url 'http://example.org' does not start with smtp:// or smtps://");
	bad("smtp_url = smtp://\n", "oustpbm.conf line 1: smtp_url 'smtp://' has no host name");
	bad("smtp_url = smtp://user@host\n",
	    "oustpbm.conf line 1: smtp_url 'smtp://user@host' has something after host and port (the EHLO name is "
	    "helo_name)");
	bad("smtp_url = smtp://h:0\n", "oustpbm.conf line 1: smtp_url 'smtp://h:0' has a bad port (1..65535)");
	bad("smtp_url = smtp://h:65536\n", "oustpbm.conf line 1: smtp_url 'smtp://h:65536' has a bad port (1..65535)");
	bad("smtp_url = smtp://h:25x\n", "oustpbm.conf line 1: smtp_url 'smtp://h:25x' has a bad port (1..65535)");
	bad("smtp_url = smtp://h/helo\n",
	    "oustpbm.conf line 1: smtp_url 'smtp://h/helo' has something after host and port (the EHLO name is "
	    "helo_name)");
	bad("smtp_url = smtp://[::g]\n", "oustpbm.conf line 1: smtp_url 'smtp://[::g]' has a bad IPv6 address");
	bad("smtp_url = smtp://[::1\n", "oustpbm.conf line 1: smtp_url 'smtp://[::1' has a bad IPv6 address");
	bad("smtp_starttls = maybe\n", "oustpbm.conf line 1: smtp_starttls 'maybe' is not 'required' or 'off'");
	bad("helo_name = a/b\n", "oustpbm.conf line 1: helo_name 'a/b' is not a host name (letters, digits, '.', '-')");
	bad("envelope_from = nobody\n", "oustpbm.conf line 1: envelope_from 'nobody' has no '@'");
	bad("smtp_timeout = 0\n", "oustpbm.conf line 1: smtp_timeout '0' is out of range (1..3600)");
	bad("smtp_connect_timeout = 601\n", "oustpbm.conf line 1: smtp_connect_timeout '601' is out of range (1..600)");
	bad("retry_days = 0\n", "oustpbm.conf line 1: retry_days '0' is out of range (1..365)");
	bad("sent_keep_days = 3651\n", "oustpbm.conf line 1: sent_keep_days '3651' is out of range (0..3650)");
	bad("smtp_user = a\x01" "b\n", "oustpbm.conf line 1: smtp_user 'a?b' contains a control character");
	bad("smtp_cafile =\n", "oustpbm.conf line 1: smtp_cafile '' is empty");

	/* the password is never quoted */
	bad("smtp_user = u\nsmtp_password = hunter2\x01x\n",
	    "oustpbm.conf line 2: smtp_password (not shown) contains a control character");
	ok(strstr(err, "hunter2") == NULL, "no password in the message");
	{
		char line[400];

		memset(line, 'S', sizeof line);
		memcpy(line, "smtp_password = ", 16);
		line[sizeof line - 2] = '\n';
		line[sizeof line - 1] = '\0';
		bad(line, "oustpbm.conf line 1: smtp_password (not shown) is longer than 200 characters");
		ok(strstr(err, "SSSS") == NULL, "no password in the message");
	}
	bad("smtp_user = u\nsmtp_password = a\nsmtp_password_file = pw\n",
	    "oustpbm.conf line 3: smtp_password and smtp_password_file (line 2) both set: use one");
	bad("smtp_user = u\n", "oustpbm.conf line 1: smtp_user 'u' needs smtp_password or smtp_password_file");
	bad("smtp_password = secret\n", "oustpbm.conf line 1: smtp_password needs smtp_user");
	bad("smtp_password_file = pw\n", "oustpbm.conf line 1: smtp_password_file needs smtp_user");
	ok(strstr(err, "secret") == NULL, "no password in the message");
	bad("transport = smtp\n", "oustpbm.conf line 1: transport 'smtp' needs smtp_url");
	bad("smtp_url = smtp://h\ntransport = maildir\n",
	    "oustpbm.conf line 2: transport 'maildir' contradicts smtp_url (line 1)");
}

/* trusted_authserv_id (mail/authres.h): a host name, or empty for off */
static void test_authserv_id(void)
{
	struct config cfg;

	config_defaults(&cfg);
	ok_str(cfg.trusted_authserv_id, "", "trusted_authserv_id: unset by default");
	ok_int(parse(&cfg, "trusted_authserv_id = mx.example.org\n"), CONFIG_OK, "a host name");
	ok_str(cfg.trusted_authserv_id, "mx.example.org", "... kept");
	ok_int(parse(&cfg, "trusted_authserv_id =\n"), CONFIG_OK, "empty: off");
	ok_str(cfg.trusted_authserv_id, "", "... empty");
	bad("trusted_authserv_id = mx.example.org; dmarc=pass\n", "oustpbm.conf line 1: trusted_authserv_id "
	    "'mx.example.org; dmarc=pass' is not a host name (letters, digits, '.', '-')");
	bad("trusted_authserv_id = -mx\n",
	    "oustpbm.conf line 1: trusted_authserv_id '-mx' is not a host name (letters, digits, '.', '-')");
}

static void test_load(void)
{
	char *home = t_home_new();
	struct config cfg;
	char big[CONFIG_FILE_MAX + 10];

	unsetenv("OUSTPBM_TEST_TIME");
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_OK, "no oustpbm.conf is fine");
	ok_str(cfg.server_name, "oustpbm", "no file: defaults");
	ok(!cfg.test_time_set, "no test time without OUSTPBM_TEST_TIME");
	{
		time_t before = time(NULL), now = config_now(&cfg), after = time(NULL);

		ok(now >= before && now <= after, "config_now is the clock without a test time");
	}

	t_spew(t_path(home, "oustpbm.conf"), "server_name = Oust\nlock_timeout_ms = 250\n", strlen("server_name = Oust\nlock_timeout_ms = 250\n"));
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_OK, "oustpbm.conf loaded");
	ok_str(cfg.server_name, "Oust", "server_name from the file");
	ok_int(cfg.lock_timeout_ms, 250, "lock_timeout_ms from the file");

	t_spew(t_path(home, "oustpbm.conf"), "server_name = Oust\nbogus = 1\n", strlen("server_name = Oust\nbogus = 1\n"));
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_INVALID, "bad file refused by config_load");
	ok_str(err, "oustpbm.conf line 2: unknown key 'bogus'", "config_load message names file and line");

	memset(big, '#', sizeof big);
	t_spew(t_path(home, "oustpbm.conf"), big, sizeof big);
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_INVALID, "oversized file refused");
	ok(strstr(err, "is larger than 65536 bytes") != NULL, "oversized file message: %s", err);

	remove(t_path(home, "oustpbm.conf"));
	mkdir(t_path(home, "oustpbm.conf"), 0700);
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_IO, "unreadable oustpbm.conf is an I/O error");
	ok(strstr(err, "cannot read") != NULL && strstr(err, "oustpbm.conf") != NULL, "I/O message: %s", err);
	rmdir(t_path(home, "oustpbm.conf"));

	setenv("OUSTPBM_TEST_TIME", "1700000000", 1);
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_OK, "OUSTPBM_TEST_TIME accepted");
	ok(cfg.test_time_set, "test time set");
	ok_int(config_now(&cfg), 1700000000L, "config_now returns the test time");

	setenv("OUSTPBM_TEST_TIME", "soon", 1);
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_INVALID, "bad OUSTPBM_TEST_TIME refused");
	ok_str(err, "OUSTPBM_TEST_TIME 'soon' is not a time in epoch seconds", "bad test time message");

	setenv("OUSTPBM_TEST_TIME", "", 1);
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_OK, "empty OUSTPBM_TEST_TIME means unset");
	ok(!cfg.test_time_set, "empty test time not set");
	unsetenv("OUSTPBM_TEST_TIME");

	ok(strcmp(config_status_str(CONFIG_OK), "ok") == 0 &&
	    strcmp(config_status_str(CONFIG_IO), config_status_str(CONFIG_INVALID)) != 0,
	    "status strings");
	t_home_free(home);
}

/* oustpbm init's oustpbm.conf: every key, explained, and it reads back as the defaults */
static void test_sample(void)
{
	struct config def, cfg;
	char *text = NULL, line[200];
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	ok(f != NULL && config_write_sample(f, "oust@example.net") == 0 && fclose(f) == 0, "sample written");
	for (i = 0; i < config_key_count(); i++) {
		const char *k = config_key_name(i);

		if (config_key_help(k) == NULL)
			ok(0, "key %s has a help line for oustpbm init", k);
		snprintf(line, sizeof line, "\n#%s =", k);
		if (strcmp(k, "from_address") != 0 && strcmp(k, "transport") != 0 && strcmp(k, "smtp_url") != 0 &&
		    strstr(text, line) == NULL)
			ok(0, "key %s is in the sample, commented out", k);
	}
	ok(config_key_name(config_key_count()) == NULL, "the keys end");
	ok(strstr(text, "\nfrom_address = oust@example.net\n") != NULL, "from_address set");
	ok(strstr(text, "\ntransport = smtp\n") != NULL && strstr(text, "\nsmtp_url = smtp://localhost:25\n") != NULL,
	    "the replies go to the local MTA");
	config_defaults(&def);
	config_defaults(&cfg);
	ok_int(config_parse(&cfg, "oustpbm.conf", text, len, err, sizeof err), CONFIG_OK, "the sample parses: %s", err);
	snprintf(def.from_address, sizeof def.from_address, "oust@example.net");
	snprintf(def.transport, sizeof def.transport, "smtp");
	snprintf(def.smtp_url, sizeof def.smtp_url, "smtp://localhost:25");
	ok(memcmp(&def, &cfg, sizeof def) == 0, "... to the defaults but for from_address, transport and smtp_url");
	free(text);
}

/* The transport key's values (config.c) are the transports there are (transport.c). */
static void test_transports(void)
{
	const struct transport_ops *const all[] = { &transport_maildir, &transport_smtp };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++) {
		ok(config_transport_known(all[i]->name), "transport %s is a value of the transport key", all[i]->name);
		ok(transport_find(all[i]->name) == all[i], "transport_find finds %s", all[i]->name);
	}
	ok(!config_transport_known("sendmail"), "sendmail is no value of the transport key");
	ok(transport_find("sendmail") == NULL, "transport_find: no sendmail");
}

/* config_salvage: what the admin's alert can read of a broken file (alert.h). */
static void test_salvage(void)
{
	static const char text[] = "admin_address = admin@example.org\nremind_day = 3\nsmtp_url = smtp://127.0.0.1:2525\n"
	    "max_message_bytes = ten\nweb_url = https://oust.example.org/\nserver_name = Oust\nserver_name = Again\n";
	char *home = t_home_new();
	struct config cfg;

	t_spew(t_path(home, "oustpbm.conf"), text, strlen(text));
	ok_int(config_load(&cfg, home, err, sizeof err), CONFIG_INVALID, "a file with bad lines: config_load refuses it");
	ok(config_salvage(&cfg, home), "config_salvage reads what it can");
	ok_str(cfg.admin_address, "admin@example.org", "... the good lines before a bad one");
	ok_str(cfg.smtp_url, "smtp://127.0.0.1:2525", "... and after it");
	ok_str(cfg.transport, "smtp", "... smtp_url selects the smtp transport as in config_load");
	ok_int(cfg.max_message_bytes, 262144, "... a bad value: the default");
	ok_str(cfg.server_name, "Oust", "... a key set twice: the first");
	ok_str(cfg.web_url, "https://oust.example.org/", "web_url read");
	remove(t_path(home, "oustpbm.conf"));
	ok(config_salvage(&cfg, home), "no file: the defaults");
	ok_str(cfg.admin_address, "", "... no admin_address");
	ok(!config_salvage(&cfg, "/nonexistent/home") || cfg.admin_address[0] == '\0', "no home: nothing read");
	t_home_free(home);
}

static void test_imap_keys(void)
{
	struct config cfg;
	struct imapurl u;
	const char *why = NULL;

	config_defaults(&cfg);
	ok(cfg.imap_url[0] == '\0' && strcmp(cfg.imap_done_folder, "oustpbm-done") == 0 &&
	    strcmp(cfg.imap_failed_folder, "oustpbm-failed") == 0 && cfg.imap_max_per_run == 100 &&
	    cfg.imap_poll_seconds == 60 && cfg.imap_timeout == 60, "imap defaults");
	ok_int(parse(&cfg, "imap_url = imaps://club%40gmail.com@imap.gmail.com/INBOX\nimap_password_file = imap.pw\n"
	    "imap_cafile = /etc/ssl/ca.pem\nimap_done_folder = Oust/Done\nimap_failed_folder = [Oust] failed\n"
	    "imap_max_per_run = 5\nimap_poll_seconds = 1\nimap_timeout = 3600\n"), CONFIG_OK, "imap settings parse: %s",
	    err);
	ok(strcmp(cfg.imap_done_folder, "Oust/Done") == 0 && cfg.imap_max_per_run == 5 && cfg.imap_poll_seconds == 1,
	    "... kept");
	ok_str(cfg.transport, "maildir", "imap_url selects no transport");

	ok(imapurl_parse("imaps://club%40gmail.com@imap.gmail.com/INBOX", &u, &why) && u.tls && u.port == 993 &&
	    strcmp(u.user, "club@gmail.com") == 0 && strcmp(u.host, "imap.gmail.com") == 0 &&
	    strcmp(u.mailbox, "INBOX") == 0 && !imapurl_loopback(&u), "imaps://: user decoded, port 993");
	ok(imapurl_parse("imap://a@b@127.0.0.1:1143", &u, &why) && !u.tls && u.port == 1143 &&
	    strcmp(u.user, "a@b") == 0 && strcmp(u.mailbox, "INBOX") == 0 && imapurl_loopback(&u),
	    "imap://: the last @ ends the user, INBOX by default, loopback");
	ok(imapurl_parse("imap://u@[::1]/Club%20mail", &u, &why) && u.ipv6 && strcmp(u.host, "::1") == 0 &&
	    u.port == 143 && strcmp(u.mailbox, "Club mail") == 0 && imapurl_loopback(&u), "IPv6, a mailbox decoded");
	ok(imapurl_parse("imap://u@localhost/", &u, &why) && imapurl_loopback(&u), "localhost is loopback");
	ok(imapurl_folder_ok("oustpbm-done") && !imapurl_folder_ok("") && !imapurl_folder_ok("a*") &&
	    !imapurl_folder_ok("a%") && !imapurl_folder_ok("a\"b") && !imapurl_folder_ok("a\\b") &&
	    !imapurl_folder_ok("caf\xc3\xa9"), "folder names: printable ASCII, no quote, backslash or wildcard");

	bad("imap_url = http://u@h/\n",
	    "oustpbm.conf line 1: imap_url (not shown) does not start with imap:// or imaps://");
	bad("imap_url = imap://h/INBOX\n",
	    "oustpbm.conf line 1: imap_url (not shown) has no user name (imap://USER@HOST/MAILBOX)");
	bad("imap_url = imap://u:secret@h/INBOX\n",
	    "oustpbm.conf line 1: imap_url (not shown) holds a password: put it in imap_password_file");
	bad("imap_url = imap://u%4@h/\n", "oustpbm.conf line 1: imap_url (not shown) has a bad user name (a control "
	    "character, a bad %-escape, or too long)");
	bad("imap_url = imap://u@/INBOX\n", "oustpbm.conf line 1: imap_url (not shown) has no host name");
	bad("imap_url = imap://u@h_h/INBOX\n", "oustpbm.conf line 1: imap_url (not shown) has no host name");
	bad("imap_url = imap://u@[::g]/\n", "oustpbm.conf line 1: imap_url (not shown) has a bad IPv6 address");
	bad("imap_url = imap://u@h:0/\n", "oustpbm.conf line 1: imap_url (not shown) has a bad port (1..65535)");
	bad("imap_url = imap://u@h:70000/\n", "oustpbm.conf line 1: imap_url (not shown) has a bad port (1..65535)");
	bad("imap_url = imap://u@h/IN*\n", "oustpbm.conf line 1: imap_url (not shown) has a bad mailbox name "
	    "(printable ASCII without '\"', '\\', '%', '*', ';' or '?')");
	bad("imap_url = imap://u@h/INBOX;UID=3\n", "oustpbm.conf line 1: imap_url (not shown) has a bad mailbox name "
	    "(printable ASCII without '\"', '\\', '%', '*', ';' or '?')");
	bad("imap_done_folder = a\"b\n", "oustpbm.conf line 1: imap_done_folder 'a\"b' is not a folder name "
	    "(printable ASCII without '\"', '\\', '%' or '*')");
	bad("imap_failed_folder = x*\n", "oustpbm.conf line 1: imap_failed_folder 'x*' is not a folder name "
	    "(printable ASCII without '\"', '\\', '%' or '*')");
	bad("imap_max_per_run = 0\n", "oustpbm.conf line 1: imap_max_per_run '0' is out of range (1..100000)");
	bad("imap_poll_seconds = 3601\n", "oustpbm.conf line 1: imap_poll_seconds '3601' is out of range (1..3600)");
	bad("imap_timeout = 0\n", "oustpbm.conf line 1: imap_timeout '0' is out of range (1..3600)");
}

int main(void)
{
	test_sample();
	test_defaults();
	test_good();
	test_errors();
	test_smtp_keys();
	test_imap_keys();
	test_authserv_id();
	test_load();
	test_transports();
	test_salvage();
	return t_done();
}
