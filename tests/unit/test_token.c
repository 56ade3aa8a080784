/* Unit tests for token: the reply tokens of board mails (mail/token.h). */
#include "mail/token.h"
#include "t.h"

#include <stdlib.h>
#include <string.h>

static const unsigned char secret[TOKEN_SECRET_BYTES] = "0123456789abcdef0123456789abcdef";

static void test_make(void)
{
	char a[TOKEN_TEXT_SIZE], b[TOKEN_TEXT_SIZE], c[TOKEN_TEXT_SIZE];
	size_t i;

	token_make(secret, sizeof secret, 101, "alice", "$y$j9T$salt$hash", 0, a);
	ok_int((int)strlen(a), TOKEN_CHARS + 2, "13 letters and two hyphens: %s", a);
	ok(a[4] == '-' && a[9] == '-', "grouped 4-4-5");
	for (i = 0; a[i] != '\0'; i++)
		if (a[i] != '-' && strchr("23456789ABCDEFGHJKMNPQRSTUVWXYZ", a[i]) == NULL)
			break;
	ok(a[i] == '\0', "no look-alike letter (0 O 1 I L): %s", a);
	token_make(secret, sizeof secret, 101, "alice", "$y$j9T$salt$hash", 0, b);
	ok_str(b, a, "the same inputs, the same token");
	token_make(secret, sizeof secret, 102, "alice", "$y$j9T$salt$hash", 0, b);
	ok(strcmp(a, b) != 0, "another board, another token");
	token_make(secret, sizeof secret, 101, "bob", "$y$j9T$salt$hash", 0, b);
	ok(strcmp(a, b) != 0, "another player, another token");
	token_make(secret, sizeof secret, 101, "alice", "$y$j9T$salt$other", 0, b);
	ok(strcmp(a, b) != 0, "a new password hash, another token");
	token_make(secret, sizeof secret, 101, "alice", "$y$j9T$salt$hash", 1, c);
	ok(strcmp(a, c) != 0, "a new generation (tokens ... new), another token");
	token_make((const unsigned char *)"another secret of thirty-two by", 32, 101, "alice", "$y$j9T$salt$hash", 0, b);
	ok(strcmp(a, b) != 0, "another home's secret, another token");
}

static void test_equal(void)
{
	ok(token_equal("K7M2-QX9P-HD3RT", "K7M2-QX9P-HD3RT"), "equal");
	ok(token_equal("K7M2-QX9P-HD3RT", "k7m2qx9phd3rt"), "any case, hyphens or not");
	ok(!token_equal("K7M2-QX9P-HD3RT", "K7M2-QX9P-HD3RS"), "the last letter differs");
	ok(!token_equal("K7M2-QX9P-HD3RT", "K7M2-QX9P-HD3R"), "one letter short");
	ok(!token_equal("K7M2-QX9P-HD3RT", "K7M2-QX9P-HD3RTT"), "one letter too many");
	ok(!token_equal("K7M2-QX9P-HD3R0", "K7M2-QX9P-HD3R0"), "no token's shape (0) is never equal");
	ok(!token_equal("", ""), "nothing is no token");
}

static void subject(const char *s, long board, int turn, int part, bool chat, const char *token)
{
	struct token_subject ts;
	bool found = token_from_subject(s, &ts);

	if (token == NULL) {
		ok(!found, "no token in '%s'", s);
		return;
	}
	ok(found && ts.board == board && ts.turn == turn && ts.part == part && ts.chat == chat &&
	    strcmp(ts.token, token) == 0, "'%s': board %ld, turn %d.%d, chat %d, %s (got %ld, %d.%d, %d, %s)", s, board,
	    turn, part, chat, token, ts.board, ts.turn, ts.part, ts.chat, ts.token);
}

static void test_subject(void)
{
	const char *t = "K7M2-QX9P-HD3RT";

	subject("Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("Re: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("RE: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("AW: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("SV: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("Antw: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("R\xc3\xa9" "f. : Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("[External] Re: Re: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("Re: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT] [External]", 101, 6, 0, false, t);
	subject("Re: Oust Board 101 bob\n #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, false, t);
	subject("Re: Oust Board 101 bob #6\t[k7m2-qx9p-hd3rt]", 101, 6, 0, false, t);
	subject("Re: New Oust Board 101 bob #1 [K7M2-QX9P-HD3RT]", 101, 1, 0, false, t);
	subject("Re: Oust Board 101 bob #6.2 [K7M2-QX9P-HD3RT]", 101, 6, 2, false, t);
	subject("Re: Oust Board 101 chat from alice #6 [K7M2-QX9P-HD3RT]", 101, 6, 0, true, t);
	subject("Re: Oust Board 101 error #7 [K7M2-QX9P-HD3RT]", 101, 7, 0, false, t);
	subject("Re: Oust Board 101 bob", 0, 0, 0, false, NULL);
	subject("Re: Oust Board 101 bob #6 [token]", 0, 0, 0, false, NULL);
	subject("Re: Oust Board 101 bob #6 [K7M2-QX9P-HD3R0]", 0, 0, 0, false, NULL);
	subject("Re: Joust Board 101 bob #6 [K7M2-QX9P-HD3RT]", 0, 0, 0, false, NULL);
	subject("", 0, 0, 0, false, NULL);
}

static void test_mask(void)
{
	char *m = token_mask("Subject: Re: Oust Board 101 bob #6 [K7M2-QX9P-HD3RT] and [not a token]");

	ok_str(m, "Subject: Re: Oust Board 101 bob #6 " TOKEN_MASK " and [not a token]", "masked");
	free(m);
	m = token_uri_encode("Oust Board 101 #6 [K7M2]");
	ok_str(m, "Oust%20Board%20101%20%236%20%5BK7M2%5D", "RFC 6068: percent-encoded");
	free(m);
	m = token_uri_encode("R\xc3\xa9" "f&x=y?");
	ok_str(m, "R%C3%A9f%26x%3Dy%3F", "UTF-8 bytes, & = ? encoded");
	free(m);
}

int main(void)
{
	test_make();
	test_equal();
	test_subject();
	test_mask();
	return t_done();
}
