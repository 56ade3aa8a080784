/* Tests of mail/idmac: our Message-IDs bound to their recipient. */
#include <stdio.h>
#include <string.h>

#include "t.h"
#include "mail/idmac.h"
#include "mail/mailfind.h"

/* The golden cases' token.secret (tests/sh/golden.sh), as bytes. */
static const unsigned char golden[32] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
};

static void test_sign_and_check(void)
{
	unsigned char key[IDMAC_KEY_BYTES], other[IDMAC_KEY_BYTES], secret2[32];
	char id[256], bad[256], tiny[20];
	size_t left;

	idmac_key(golden, sizeof golden, key);
	ok(idmac_sign(key, "oust.1700003600.242bbe40.1@example.net", "alice@example.org", id, sizeof id), "signed");
	/* the same as tests/tools/idmac.py, which makes the golden cases' reports */
	ok_str(id, "oust.1700003600.242bbe40.1.e8dd60af64a4bca3@example.net", "the id sent to alice");
	ok(idmac_ours(key, id, "alice@example.org", "example.net"), "ours, sent to alice");
	ok(idmac_ours(key, id, "Alice@EXAMPLE.org", "EXAMPLE.NET"), "addresses and domains in any case");
	ok(!idmac_ours(key, id, "bob@example.com", "example.net"), "not for bob: a mac is per recipient");
	ok(!idmac_ours(key, id, "alice@example.org", "example.com"), "not at another domain");
	ok(!idmac_ours(key, id, "", "example.net"), "no recipient: not ours");
	ok(!idmac_ours(key, NULL, "alice@example.org", "example.net"), "no id: not ours");
	/* one digit changed, the stem changed, the mac gone */
	snprintf(bad, sizeof bad, "%s", id);
	bad[strlen("oust.1700003600.242bbe40.1.")] = bad[strlen("oust.1700003600.242bbe40.1.")] == '0' ? '1' : '0';
	ok(!idmac_ours(key, bad, "alice@example.org", "example.net"), "a mac changed: not ours");
	ok(!idmac_ours(key, "oust.1700003600.242bbe40.2.e8dd60af64a4bca3@example.net", "alice@example.org", "example.net"),
	    "another stem under the same mac: not ours");
	ok(!idmac_ours(key, "oust.1700003600.242bbe40.1@example.net", "alice@example.org", "example.net"),
	    "an id of the old shape, without a mac: not ours");
	ok(!idmac_ours(key, "1700003600.5f3e2a1b.3c9d@example.net", "carol@example.net", "example.net"),
	    "a player's id shaped like ours: not ours");
	ok(idmac_ours(key, "oust.1700003600.242bbe40.1.E8DD60AF64A4BCA3@example.net", "alice@example.org", "example.net"),
	    "the mac in upper case: ours");
	/* another secret, another key */
	memcpy(secret2, golden, sizeof secret2);
	secret2[0] ^= 1;
	idmac_key(secret2, sizeof secret2, other);
	ok(!idmac_ours(other, id, "alice@example.org", "example.net"), "under another secret: not ours");
	ok(!idmac_sign(key, "no-at-sign", "alice@example.org", bad, sizeof bad), "a stem without '@': refused");
	ok(!idmac_sign(key, "oust.1@example.net", "alice@example.org", tiny, sizeof tiny), "no room: refused");
	ok(idmac_strip(id, &left) && left == strlen("oust.1700003600.242bbe40.1"), "strip: the stem's left part");
	ok(!idmac_strip("101.7.bob.1700003600@example.net", &left) && left == strlen("101.7.bob.1700003600"),
	    "strip: no mac, the whole left part");
}

/* What a reply answers is read from the stem: the mac does not hide the board mail it answers. */
static void test_threading(void)
{
	unsigned char key[IDMAC_KEY_BYTES];
	struct mailfind_answered a;
	char id[256];

	idmac_key(golden, sizeof golden, key);
	ok(idmac_sign(key, "101.7.bob.1700003600@example.net", "bob@example.com", id, sizeof id), "a board mail's id");
	ok(mailfind_answered_id(id, "example.net", &a), "read as a board mail");
	ok(a.board == 101 && a.turns == 7 && strcmp(a.userid, "bob") == 0, "board 101, turn 7, bob");
	ok(mailfind_answered_id("101.7.bob.1700003600@example.net", "example.net", &a) && a.board == 101,
	    "an id sent before the mac: read the same");
}

int main(void)
{
	test_sign_and_check();
	test_threading();
	return t_done();
}
