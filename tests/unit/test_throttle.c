/* Tests of the wrong-password throttle (src/store/throttle.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "store/store.h"
#include "store/throttle.h"
#include "t.h"
#include "t_home.h"

#define T0 1700000000L

static struct config cfg;

static struct throttle_state fail_at(struct store *st, const char *userid, time_t t)
{
	struct throttle_state s;

	if (throttle_fail(st, &cfg, userid, "m@example.com", t, &s) != STORE_OK)
		memset(&s, 0xff, sizeof s);
	return s;
}

static struct throttle_state state_at(struct store *st, const char *userid, time_t t)
{
	struct throttle_state s;

	if (throttle_check(st, &cfg, userid, t, &s) != STORE_OK)
		memset(&s, 0xff, sizeof s);
	return s;
}

static void test_lockout(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct throttle_state s;
	char *text;
	int i;

	s = state_at(st, "bob", T0);
	ok(s.failures == 0 && s.until == 0, "no record: not locked");
	for (i = 1; i <= 4; i++) {
		s = fail_at(st, "bob", T0 + i * 60);
		ok(s.failures == (unsigned long)i && s.until == 0 && !s.started, "failure %d counted, not locked", i);
	}
	s = fail_at(st, "alice", T0 + 300);
	ok(s.failures == 1 && s.until == 0, "another account is counted apart");
	s = fail_at(st, "bob", T0 + 600);
	ok(s.failures == 5 && s.started && s.until == T0 + 600 + 3600, "the 5th failure starts a lockout of an hour");
	s = state_at(st, "bob", T0 + 601);
	ok(s.until == T0 + 4200 && !s.started, "locked when checked");
	s = fail_at(st, "bob", T0 + 700);
	ok(s.until == T0 + 4200 && !s.started && s.failures == 5, "a failure while locked is neither counted nor a new start");
	s = state_at(st, "alice", T0 + 700);
	ok(s.until == 0 && s.failures == 1, "alice is not locked");
	s = state_at(st, "bob", T0 + 4200);
	ok(s.until == 0 && s.failures == 0, "the lockout over, the failures before it no longer count");
	s = fail_at(st, "bob", T0 + 4300);
	ok(s.failures == 1 && s.until == 0, "a new failure counts from one");
	s = state_at(st, "alice", T0 + 300 + THROTTLE_WINDOW);
	ok(s.failures == 0, "a failure an hour old no longer counts");
	text = t_slurp(t_path(home, THROTTLE_FILE), NULL);
	ok(text != NULL && strstr(text, " bob L 1700004200\n") != NULL, "the lockout is recorded");
	free(text);

	/* the record is kept small: only what may still count */
	s = fail_at(st, "carol", T0 + 4200 + 2 * THROTTLE_WINDOW);
	text = t_slurp(t_path(home, THROTTLE_FILE), NULL);
	ok(text != NULL && strstr(text, "bob") == NULL && strstr(text, "alice") == NULL && strstr(text, "carol F") != NULL,
	    "old lines are dropped when the record is rewritten");
	free(text);

	/* the admin's new password ends a lockout */
	for (i = 0; i < 5; i++)
		s = fail_at(st, "dave", T0 + 20000 + i);
	ok(s.started, "dave locked out");
	ok_int(throttle_clear(st, &cfg, "dave", T0 + 20010), STORE_OK, "throttle_clear");
	s = state_at(st, "dave", T0 + 20011);
	ok(s.until == 0 && s.failures == 0, "... not locked, nothing counted");

	/* damaged lines are skipped */
	t_spew(t_path(home, THROTTLE_FILE), "garbage\n1700030000 Eve! F x\n1700030000 eve F x\n170003", 53);
	s = state_at(st, "eve", T0 + 30001);
	ok(s.failures == 1, "damaged lines and a cut last line are skipped");

	cfg.max_password_failures = 0;
	for (i = 0; i < 10; i++)
		s = fail_at(st, "frank", T0 + 40000 + i);
	ok(s.failures == 0 && s.until == 0, "max_password_failures 0: no throttle");
	cfg.max_password_failures = 2;
	cfg.password_lockout_minutes = 1;
	fail_at(st, "gina", T0 + 50000);
	s = fail_at(st, "gina", T0 + 50001);
	ok(s.started && s.until == T0 + 50061, "max_password_failures 2, password_lockout_minutes 1");
	cfg.max_password_failures = 5;
	cfg.password_lockout_minutes = 60;

	/* the challenges of the last hour */
	unsigned long count = 99;
	ok(throttle_challenges(st, "hal", T0 + 60000, &count) == STORE_OK && count == 0, "no challenges made");
	ok_int(throttle_challenge_made(st, &cfg, "hal", 101, T0 + 60000), STORE_OK, "a challenge recorded");
	ok_int(throttle_challenge_made(st, &cfg, "hal", 102, T0 + 61000), STORE_OK, "another");
	ok_int(throttle_challenge_made(st, &cfg, "ida", 103, T0 + 61000), STORE_OK, "one of another account");
	ok(throttle_challenges(st, "hal", T0 + 61000, &count) == STORE_OK && count == 2, "hal's two counted");
	ok(throttle_challenges(st, "hal", T0 + 60000 + THROTTLE_WINDOW, &count) == STORE_OK && count == 1,
	    "an hour later the first no longer counts");
	s = state_at(st, "hal", T0 + 61000);
	ok(s.failures == 0 && s.until == 0, "challenges are no wrong passwords");
	store_close(st);
	t_home_free(home);
}

int main(void)
{
	config_defaults(&cfg);
	cfg.lock_timeout_ms = 200;
	test_lockout();
	return t_done();
}
