/* test_config: oustpbm.conf parsing, defaults, errors with line numbers, test time. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	ok_int(cfg.password_cost, 1, "default password_cost 1 (about 1 ms per check)");
	ok_str(cfg.templates, "", "no templates directory set by default");
	ok_int(cfg.max_mails_per_hour, 30, "default max_mails_per_hour 30");
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
	ok_int(parse(&cfg, "max_mails_per_hour = 100000\n"), CONFIG_OK, "max_mails_per_hour 100000 allowed");
	ok_int(cfg.max_mails_per_hour, 100000, "max_mails_per_hour read");
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
	bad("transport = smtp\n", "oustpbm.conf line 1: transport 'smtp' is not a known transport (known: maildir)");
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

int main(void)
{
	test_defaults();
	test_good();
	test_errors();
	test_load();
	return t_done();
}
