/*
 * Tests of the account files beyond the users line: one-time codes
 * (src/store/accounts.h), reserved user ids, address changes and removals
 * (src/store/store.h), the tokens of account changes, and what fsck says of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "commands/services/fsck.h"
#include "store/accounts.h"
#include "store/store.h"
#include "t.h"
#include "t_home.h"

#define T0 1700000000L

static struct config cfg;

static int spew(const char *home, const char *name, const char *text)
{
	return t_spew(t_path(home, name), text, strlen(text));
}

/* A code for userid of kind issued at t, added; its text into code. */
static enum store_status issue(struct store *st, const char *userid, enum accounts_kind kind, const char *address,
    int64_t t, char code[ACCOUNTS_CODE_LEN + 1], char hash[STORE_HASH_MAX + 1])
{
	struct accounts_code c;
	struct store_user u;
	enum store_status ss;

	memset(&c, 0, sizeof c);
	if (accounts_code_new(st, code, hash) != STORE_OK)
		return STORE_IO;
	ss = store_user_find(st, userid, &u);
	if (ss != STORE_OK)
		return ss;
	snprintf(c.userid, sizeof c.userid, "%s", userid);
	c.kind = kind;
	c.issued = t;
	c.tag = accounts_tag(&u);
	snprintf(c.hash, sizeof c.hash, "%s", hash);
	if (address != NULL)
		snprintf(c.address, sizeof c.address, "%s", address);
	return accounts_code_add(st, &c);
}

static enum accounts_verdict verdict(struct store *st, enum accounts_kind kind, const char *userid,
    const char *code, int64_t now)
{
	struct accounts_code rec;
	struct store_user u;
	enum accounts_verdict v;

	if (store_user_find(st, userid, &u) != STORE_OK)
		return (enum accounts_verdict)-1;
	if (accounts_code_verify(st, kind, &u, code, now, &v, &rec) != STORE_OK)
		return (enum accounts_verdict)-1;
	return v;
}

static void test_code_shape(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char code[ACCOUNTS_CODE_LEN + 1], code2[ACCOUNTS_CODE_LEN + 1], hash[STORE_HASH_MAX + 1];
	char lower[ACCOUNTS_CODE_LEN + 1];
	size_t i;

	ok(accounts_code_new(st, code, hash) == STORE_OK, "a code is made");
	ok(strlen(code) == ACCOUNTS_CODE_LEN && accounts_code_ok(code), "it has %d letters of the alphabet",
	    ACCOUNTS_CODE_LEN);
	ok(strncmp(hash, "$y$", 3) == 0 && strstr(hash, code) == NULL, "its hash is a yescrypt hash, not the code");
	ok(accounts_code_new(st, code2, hash) == STORE_OK && strcmp(code, code2) != 0, "two codes differ");
	for (i = 0; i <= ACCOUNTS_CODE_LEN; i++)
		lower[i] = (char)(code[i] >= 'A' && code[i] <= 'Z' ? code[i] - 'A' + 'a' : code[i]);
	ok(accounts_code_ok(lower), "a code is read without case");
	ok(!accounts_code_ok("ABCDEFGHJ") && !accounts_code_ok("ABCDEFGHJKL"), "too short or too long is no code");
	ok(!accounts_code_ok("ABCDEFGH0K") && !accounts_code_ok("ABCDEFGHIK") && !accounts_code_ok("ABCD-FGHJK"),
	    "0, I and '-' are not in the alphabet");
	store_close(st);
	t_home_free(home);
}

static void test_codes(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char code[4][ACCOUNTS_CODE_LEN + 1], hash[4][STORE_HASH_MAX + 1], bcode[ACCOUNTS_CODE_LEN + 1];
	char bhash[STORE_HASH_MAX + 1], lower[ACCOUNTS_CODE_LEN + 1], *text;
	struct accounts_code rec;
	struct store_user u;
	enum accounts_verdict v;
	size_t i;

	ok(store_user_add(st, "alice", "alice@example.com", "secret", "Alice") == STORE_OK, "alice registered");
	ok(store_user_add(st, "bob", "bob@example.com", "hunter2", "") == STORE_OK, "bob registered");
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0, code[0], hash[0]) == STORE_OK, "a reset code for alice");
	text = t_slurp(t_path(home, ACCOUNTS_FILE), NULL);
	ok(text != NULL && strncmp(text, "# oustpbm one-time codes", 24) == 0, "the codes file opens with its comment");
	ok(text != NULL && strstr(text, code[0]) == NULL && strstr(text, hash[0]) != NULL,
	    "it holds the code's hash, never the code");
	ok(text != NULL && strstr(text, "\nalice reset 1700000000 open ") != NULL, "one line: userid kind issued state");
	free(text);
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[0], T0 + 10), ACCOUNTS_RIGHT, "the code is right");
	for (i = 0; i <= ACCOUNTS_CODE_LEN; i++)
		lower[i] = (char)(code[0][i] >= 'A' && code[0][i] <= 'Z' ? code[0][i] - 'A' + 'a' : code[0][i]);
	ok_int(verdict(st, ACCOUNTS_RESET, "ALICE", lower, T0 + 10), ACCOUNTS_RIGHT, "in lower case, for ALICE");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", "ABCDEFGHJK", T0 + 10), ACCOUNTS_WRONG, "another code is wrong");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", "not a code", T0 + 10), ACCOUNTS_WRONG, "no code is wrong");
	ok_int(verdict(st, ACCOUNTS_ADDRESS, "alice", code[0], T0 + 10), ACCOUNTS_WRONG,
	    "a reset code does not confirm an address");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[0], T0 + ACCOUNTS_CODE_LIFE - 1), ACCOUNTS_RIGHT,
	    "right a second before the hour is up");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[0], T0 + ACCOUNTS_CODE_LIFE), ACCOUNTS_EXPIRED,
	    "expired when the hour is up");
	ok_int(verdict(st, ACCOUNTS_RESET, "bob", code[0], T0 + 10), ACCOUNTS_OTHER, "alice's code given for bob");
	ok_int(verdict(st, ACCOUNTS_RESET, "bob", code[0], T0 + ACCOUNTS_CODE_LIFE), ACCOUNTS_WRONG,
	    "an expired code of another account is only wrong");

	/* single use */
	ok(store_user_find(st, "alice", &u) == STORE_OK &&
	    accounts_code_verify(st, ACCOUNTS_RESET, &u, code[0], T0 + 10, &v, &rec) == STORE_OK &&
	    strcmp(rec.hash, hash[0]) == 0, "the record matched is the code's");
	ok(accounts_code_use(st, hash[0]) == STORE_OK, "the code is used");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[0], T0 + 20), ACCOUNTS_USED, "used once, it is used");
	ok(accounts_code_use(st, "$y$nosuch") == STORE_NOT_FOUND, "a code not in the file cannot be used");

	/* bound to the account as it was */
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0 + 100, code[1], hash[1]) == STORE_OK, "a second code");
	ok(store_user_set_password(st, "alice", "changed", NULL) == STORE_OK, "alice's password changes");
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[1], T0 + 200), ACCOUNTS_STALE,
	    "a code made before the change is stale");

	/* at most three a day */
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0 + 300, code[2], hash[2]) == STORE_OK, "a third code in a day");
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0 + 400, code[3], hash[3]) == STORE_LIMIT,
	    "a fourth in a day is refused");
	ok(strstr(store_error(st), "3 reset codes in the last day") != NULL, "saying why: %s", store_error(st));
	ok_int(verdict(st, ACCOUNTS_RESET, "alice", code[3], T0 + 410), ACCOUNTS_WRONG, "the refused code was not kept");
	ok(issue(st, "bob", ACCOUNTS_RESET, NULL, T0 + 400, bcode, bhash) == STORE_OK, "bob's count is his own");
	ok(issue(st, "alice", ACCOUNTS_ADDRESS, "alice@new.example", T0 + 400, code[3], hash[3]) == STORE_OK,
	    "address codes are counted apart");
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0 + ACCOUNTS_CODE_KEEP + 1, code[3], hash[3]) == STORE_OK,
	    "a day after the first, a new one");
	text = t_slurp(t_path(home, ACCOUNTS_FILE), NULL);
	ok(text != NULL && strstr(text, hash[0]) == NULL && strstr(text, hash[2]) != NULL,
	    "codes older than a day are dropped");
	free(text);

	/* dropped with the account */
	ok(accounts_codes_drop(st, "alice") == STORE_OK, "alice's codes dropped");
	text = t_slurp(t_path(home, ACCOUNTS_FILE), NULL);
	ok(text != NULL && strstr(text, "\nalice ") == NULL && strstr(text, "\nbob reset ") != NULL,
	    "bob's code stays");
	free(text);
	store_close(st);
	t_home_free(home);
}

static void test_codes_damaged(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	static const char bad[] = "# comment\n\nalice reset 1700000000 open 0123456789abcdef $y$j9T$abc$def\n"
	    "bob reset 1700000000 maybe 0123456789abcdef $y$j9T$abc$def\n";
	static const char noaddr[] = "alice address 1700000000 open 0123456789abcdef $y$j9T$abc$def\n";
	char code[ACCOUNTS_CODE_LEN + 1], hash[STORE_HASH_MAX + 1];
	struct accounts_code *list = NULL;
	unsigned *lines = NULL;
	size_t n = 0;
	FILE *out;
	char *report = NULL;
	size_t rlen = 0;
	unsigned problems = 0;

	ok(store_user_add(st, "alice", "alice@example.com", "secret", "") == STORE_OK, "alice registered");
	ok(t_spew(t_path(home, ACCOUNTS_FILE), bad, sizeof bad - 1) == 0, "a damaged codes file");
	ok(accounts_code_all(st, &list, &lines, &n) == STORE_CORRUPT, "it does not parse");
	ok(strstr(store_error(st), "codes line 4 has a state that is neither 'open' nor 'used'") != NULL,
	    "the message names the line: %s", store_error(st));
	ok(issue(st, "alice", ACCOUNTS_RESET, NULL, T0, code, hash) == STORE_CORRUPT, "no code is added to it");
	out = open_memstream(&report, &rlen);
	fsck_run(st, NULL, 0, out, &problems);
	fclose(out);
	ok(report != NULL && strstr(report, "codes: ") != NULL && strstr(report, "line 4") != NULL,
	    "fsck reports it");
	free(report);
	ok(t_spew(t_path(home, ACCOUNTS_FILE), noaddr, sizeof noaddr - 1) == 0 &&
	    accounts_code_all(st, &list, &lines, &n) == STORE_CORRUPT &&
	    strstr(store_error(st), "line 1 is an address code without its address") != NULL,
	    "an address code needs its address: %s", store_error(st));
	store_close(st);
	t_home_free(home);
}

static void test_reserved(void)
{
	char ahash[STORE_HASH_MAX + 1];
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_reserved r;
	struct store_user u;
	char *text;

	ok(store_user_add(st, "alice", "alice@example.com", "secret", "Alice") == STORE_OK, "alice registered");
	ok(store_user_add(st, "bob", "bob@example.com", "hunter2", "Bob") == STORE_OK, "bob registered");
	ok(store_user_find(st, "alice", &u) == STORE_OK, "alice found");
	ok(store_user_remove(st, "alice", "$y$other", T0, T0 + 365 * 86400L) == STORE_CHANGED,
	    "not removed over another hash");
	ok(store_user_find(st, "alice", &u) == STORE_OK, "alice is still there");
	snprintf(ahash, sizeof ahash, "%s", u.hash);
	ok(store_user_remove(st, "alice", u.hash, T0, T0 + 365 * 86400L) == STORE_OK, "alice removed");
	ok(store_user_find(st, "alice", &u) == STORE_NOT_FOUND, "alice is gone");
	ok(store_user_find(st, "bob", &u) == STORE_OK && strcmp(u.fullname, "Bob") == 0, "bob stays");
	text = t_slurp(t_path(home, "users"), NULL);
	ok(text != NULL && strncmp(text, "# oustpbm users", 15) == 0 && strstr(text, "alice") == NULL,
	    "the users file keeps its comment and loses alice's line");
	free(text);
	text = t_slurp(t_path(home, "reserved"), NULL);
	ok(text != NULL && strncmp(text, "# oustpbm reserved user ids", 27) == 0 &&
	    strstr(text, "\nalice 1731536000 1700000000 $y$") != NULL, "the reserved file: 'alice until since hash'");
	free(text);
	ok(store_reserved_find(st, "ALICE", &r) == STORE_OK && r.until == T0 + 365 * 86400L && r.since == T0,
	    "alice's id is reserved for a year");
	ok(strcmp(r.hash, ahash) == 0, "with her last password hash, to know a copy of her signoff mail");
	ok(store_user_remove(st, "alice", NULL, T0, T0 + 1) == STORE_NOT_FOUND, "removing her again: not found");

	cfg.test_time_set = true;
	cfg.test_time = T0 + 100;
	store_close(st);
	st = t_store_open(home, &cfg);
	ok(store_user_add(st, "Alice", "mallory@example.com", "x", "") == STORE_RESERVED, "nobody takes alice's id");
	ok(strstr(store_error(st), "reserved until 2024-11-13T22:13:20Z") != NULL, "saying until when: %s",
	    store_error(st));
	cfg.test_time = T0 + 365 * 86400L;
	store_close(st);
	st = t_store_open(home, &cfg);
	ok(store_user_add(st, "alice", "new@example.com", "x", "") == STORE_OK, "a year on, it is free");
	ok(store_user_find(st, "alice", &u) == STORE_OK && store_user_remove(st, "alice", NULL, T0 + 400 * 86400L,
	    T0 + 400 * 86400L) == STORE_OK, "removed with no reservation (reserve days 0)");
	ok(store_reserved_find(st, "alice", &r) == STORE_OK && r.until == r.since, "the line says when it went");
	cfg.test_time_set = false;

	ok(spew(home, "reserved", "# x\nbob 12 x\n") == 0, "a damaged reserved file");
	ok(store_reserved_find(st, "bob", &r) == STORE_CORRUPT &&
	    strstr(store_error(st), "reserved line 2 has no time 'since'") != NULL, "names the line: %s",
	    store_error(st));
	ok(store_user_find(st, "bob", &u) == STORE_OK && store_user_remove(st, "bob", NULL, T0, T0 + 1) == STORE_CORRUPT,
	    "a damaged reserved file is not rewritten");
	ok(store_user_find(st, "bob", &u) == STORE_OK, "and bob is not removed");
	store_close(st);
	t_home_free(home);
}

static void test_address(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_user u;
	char *text;

	ok(store_user_add(st, "alice", "alice@example.com", "secret", "Alice: the first") == STORE_OK,
	    "alice registered");
	ok(store_user_add(st, "bob", "bob@example.com", "hunter2", "") == STORE_OK, "bob registered");
	ok(store_user_set_address(st, "alice", "a/b@example.com", NULL) == STORE_BAD_ADDRESS,
	    "an address the maildir transport cannot take is refused");
	ok(store_user_set_address(st, "alice", "alice@new.example", "other@example.com") == STORE_CHANGED,
	    "not over another address");
	ok(store_user_set_address(st, "alice", "alice@new.example", "ALICE@example.com") == STORE_OK,
	    "changed over the old one (compared without case)");
	ok(store_user_find(st, "alice", &u) == STORE_OK && strcmp(u.address, "alice@new.example") == 0 &&
	    strcmp(u.fullname, "Alice: the first") == 0, "the new address, the full name kept");
	text = t_slurp(t_path(home, "users"), NULL);
	ok(text != NULL && strstr(text, "\nbob:bob@example.com:$y$") != NULL, "bob's line untouched");
	free(text);
	ok(store_user_set_address(st, "carol", "c@example.com", NULL) == STORE_NOT_FOUND, "no carol");
	store_close(st);
	t_home_free(home);
}

static void test_tokens(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char code[ACCOUNTS_CODE_LEN + 1], hash[STORE_HASH_MAX + 1], tok[ACCOUNTS_TOKEN_MAX + 1];
	struct store_user u;
	bool same;

#define HOLDS(id, t) (accounts_holds(st, (id), strlen(t), store_text_hash((t), strlen(t)), &same) == STORE_OK && same)
	ok(store_user_add(st, "alice", "Alice@Example.com", "secret", "") == STORE_OK, "alice registered");
	ok(store_user_find(st, "alice", &u) == STORE_OK && HOLDS("alice", u.hash), "she holds her password hash");
	ok(!HOLDS("alice", "$y$j9T$other$hash"), "not another hash");
	accounts_token_address("alice@example.com", tok);
	ok(HOLDS("alice", tok), "she holds her address (without case)");
	accounts_token_address("alice@new.example", tok);
	ok(!HOLDS("alice", tok), "not a new one");
	ok(issue(st, "alice", ACCOUNTS_ADDRESS, "alice@new.example", T0, code, hash) == STORE_OK && HOLDS("alice", hash),
	    "she holds the hash of her code");
	ok(!HOLDS("bob", hash), "bob (no account) holds nothing");
	ok(store_user_set_address(st, "alice", "alice@new.example", NULL) == STORE_OK && HOLDS("alice", tok),
	    "the new address, once written");
	ok(store_user_remove(st, "alice", NULL, T0 + 5, T0 + 10) == STORE_OK, "alice signs off");
	accounts_token_signoff(T0 + 5, tok);
	ok(HOLDS("alice", tok), "her id holds the signoff of that time");
	accounts_token_signoff(T0 + 6, tok);
	ok(!HOLDS("alice", tok), "not of another time");
#undef HOLDS
	store_close(st);
	t_home_free(home);
}

static void test_fsck(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_user u;
	char *report = NULL;
	size_t rlen = 0;
	unsigned problems = 0;
	FILE *out;

	ok(store_user_add(st, "alice", "alice@example.com", "secret", "") == STORE_OK, "alice registered");
	ok(store_user_add(st, "bob", "bob@example.com", "secret", "") == STORE_OK, "bob registered");
	ok(spew(home, "reserved", "bob 1800000000 1700000000\n") == 0, "bob reserved but still there");
	ok(spew(home, ACCOUNTS_FILE, "carol reset 1700000000 open 0123456789abcdef $y$j9T$a$b\n") == 0,
	    "a code of carol, who has no account");
	out = open_memstream(&report, &rlen);
	fsck_run(st, NULL, 0, out, &problems);
	fclose(out);
	ok(report != NULL && strstr(report, "reserved:1: user id bob is reserved and still has an account") != NULL,
	    "fsck: the cut-short signoff, by line");
	ok(report != NULL && strstr(report, "codes:1: a reset code of carol, who has no account") != NULL,
	    "fsck: the code of no account, by line");
	free(report);
	ok(store_user_find(st, "bob", &u) == STORE_OK, "fsck changed nothing");
	store_close(st);
	t_home_free(home);
}

int main(void)
{
	config_defaults(&cfg);
	cfg.password_cost = 1;
	test_code_shape();
	test_codes();
	test_codes_damaged();
	test_reserved();
	test_address();
	test_tokens();
	test_fsck();
	return t_done();
}
