/* test_pwcheck: the password check on a second thread gives the same verdicts as the direct one. */
#include <crypt.h>
#include <stdio.h>
#include <string.h>

#include "store/pwcheck.h"
#include "t.h"

static void make_user(struct store_user *u, const char *password)
{
	struct crypt_data cd;
	const char *setting = crypt_gensalt("$y$", 1, NULL, 0);

	memset(u, 0, sizeof *u);
	snprintf(u->userid, sizeof u->userid, "alice");
	memset(&cd, 0, sizeof cd);
	snprintf(u->hash, sizeof u->hash, "%s", crypt_r(password, setting, &cd));
}

int main(void)
{
	struct pwcheck pc = PWCHECK_INIT;
	struct store_user u, bad;
	char longpw[200];

	make_user(&u, "s3cret!");
	memset(&bad, 0, sizeof bad);
	ok(!pwcheck_pending(&pc), "a fresh check is not pending");
	ok(pwcheck_result(&pc) == PWCHECK_WRONG, "a check never started is no match");

	pwcheck_start(&pc, &u, "s3cret!");
	ok(pwcheck_pending(&pc), "started: pending");
	ok(pwcheck_result(&pc) == PWCHECK_RIGHT, "the right password matches");
	ok(pwcheck_result(&pc) == PWCHECK_RIGHT, "asking twice gives the same verdict");
	pwcheck_release(&pc);
	ok(!pwcheck_pending(&pc), "released: not pending");
	ok(pwcheck_result(&pc) == PWCHECK_WRONG, "released: no verdict left");
	pwcheck_release(&pc);
	ok(!pwcheck_pending(&pc), "releasing twice is harmless");

	snprintf(bad.userid, sizeof bad.userid, "alice");
	snprintf(bad.hash, sizeof bad.hash, "$y$jRT$0QrLOiWQNCJ.uwyPTYBPT.$YmjZZC1JlW2uM.2tSDzmZh6t06cWK21g2kfwiWBPNIC");
	pwcheck_start(&pc, &bad, "s3cret!");
	ok(pwcheck_result(&pc) == PWCHECK_FAILED, "a hash that cannot be computed: no verdict, try later");
	pwcheck_release(&pc);

	pwcheck_start(&pc, &u, "s3cret?");
	ok(pwcheck_result(&pc) == PWCHECK_WRONG, "a wrong password does not match");
	pwcheck_release(&pc);

	pwcheck_start(&pc, &u, "s3cret!");
	pwcheck_release(&pc);	/* without asking: joins the thread */
	ok(!pwcheck_pending(&pc), "released without asking");

	memset(longpw, 'a', sizeof longpw - 1);
	longpw[sizeof longpw - 1] = '\0';
	pwcheck_start(&pc, &u, longpw);
	ok(pwcheck_result(&pc) == PWCHECK_WRONG, "a password longer than any accepted never matches");
	pwcheck_release(&pc);

	snprintf(u.hash, sizeof u.hash, "*");
	pwcheck_start(&pc, &u, "s3cret!");
	ok(pwcheck_result(&pc) == PWCHECK_WRONG, "a locked account's hash never matches");
	pwcheck_release(&pc);
	return t_done();
}
