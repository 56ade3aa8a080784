/* Tests of mail/unsubtoken: the List-Unsubscribe tokens. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "t.h"
#include "t_home.h"
#include "mail/unsubtoken.h"

static void test_round_trip(void)
{
	char *home = t_home_new();
	char tok[UNSUBTOKEN_MAX + 1], tok2[UNSUBTOKEN_MAX + 1], all[UNSUBTOKEN_MAX + 1], path[512], user[33];
	char bad[UNSUBTOKEN_MAX + 8];
	struct stat sb;
	long board = -1;

	ok_int(unsubtoken_make(home, "carol", 101, tok), MAIL_OK, "a board's token");
	ok(strncmp(tok, "carol.101.", 10) == 0 && strlen(tok) == 10 + UNSUBTOKEN_MAC_HEX, "shape: %s", tok);
	snprintf(path, sizeof path, "%s/secret", home);
	ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600, "the secret made 0600");
	ok_int(unsubtoken_make(home, "carol", 101, tok2), MAIL_OK, "again");
	ok_str(tok2, tok, "the same secret, the same token");
	ok_int(unsubtoken_make(home, "carol", 0, all), MAIL_OK, "the token of every board");
	ok(strncmp(all, "carol.all.", 10) == 0, "shape: %s", all);
	ok_int(unsubtoken_check(home, tok, user, sizeof user, &board), MAIL_OK, "checks");
	ok(strcmp(user, "carol") == 0 && board == 101, "names carol and 101");
	ok_int(unsubtoken_check(home, all, user, sizeof user, &board), MAIL_OK, "all checks");
	ok_int((int)board, 0, "all is board 0");
	/* the mac is bound to the user and the scope */
	snprintf(bad, sizeof bad, "carol.102.%s", tok + 10);
	ok_int(unsubtoken_check(home, bad, user, sizeof user, &board), MAIL_BAD_TOKEN, "another board: bad");
	snprintf(bad, sizeof bad, "alice.101.%s", tok + 10);
	ok_int(unsubtoken_check(home, bad, user, sizeof user, &board), MAIL_BAD_TOKEN, "another user: bad");
	snprintf(bad, sizeof bad, "carol.all.%s", tok + 10);
	ok_int(unsubtoken_check(home, bad, user, sizeof user, &board), MAIL_BAD_TOKEN, "another scope: bad");
	ok_int(unsubtoken_check(home, "carol.101", user, sizeof user, &board), MAIL_BAD_TOKEN, "no mac: bad");
	ok_int(unsubtoken_check(home, "carol.0101.x", user, sizeof user, &board), MAIL_BAD_TOKEN, "a short mac: bad");
	snprintf(bad, sizeof bad, "carol.-1.%s", tok + 10);
	ok_int(unsubtoken_check(home, bad, user, sizeof user, &board), MAIL_BAD_TOKEN, "a negative board: bad");
	snprintf(bad, sizeof bad, "Ca rol.101.%s", tok + 10);
	ok_int(unsubtoken_check(home, bad, user, sizeof user, &board), MAIL_BAD_TOKEN, "not a user id: bad");
	t_home_free(home);
	/* another home, another secret */
	home = t_home_new();
	ok_int(unsubtoken_make(home, "carol", 101, tok2), MAIL_OK, "another home's token");
	ok(strcmp(tok, tok2) != 0, "differs: %s", tok2);
	ok_int(unsubtoken_check(home, tok, user, sizeof user, &board), MAIL_BAD_TOKEN, "the first home's is bad here");
	t_home_free(home);
}

static void test_header(void)
{
	char h[UNSUBTOKEN_URI_MAX + 1];
	char big[UNSUBTOKEN_URI_MAX + 2];

	ok(unsubtoken_header("oust@example.net", "carol.101.abc", h), "a header");
	ok_str(h, "<mailto:oust@example.net?subject=unsubscribe%20carol.101.abc>", "RFC 6068: the space encoded");
	ok(unsubtoken_header("o+st%x@example.net", "carol.all.abc", h), "an address to encode");
	ok_str(h, "<mailto:o%2Bst%25x@example.net?subject=unsubscribe%20carol.all.abc>", "'+' and '%%' encoded");
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ok(!unsubtoken_header(big, "t", h), "too long: false");
}

static void test_no_home(void)
{
	char tok[UNSUBTOKEN_MAX + 1];

	ok_int(unsubtoken_make("/nonexistent/home", "carol", 101, tok), MAIL_NO_SECRET, "no home: IO");
}

int main(void)
{
	test_round_trip();
	test_header();
	test_no_home();
	return t_done();
}
