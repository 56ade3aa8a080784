/* replytoken: the reply tokens of board mails (their outgoing half).  See replytoken.h. */
#include "commands/pipeline/replytoken.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/command.h"
#include "store/tokens.h"

_Static_assert(TOKEN_SECRET_BYTES == TOKENS_SECRET_BYTES, "token.h's HMAC key is the home's secret");

enum store_status replytoken_of(struct store *st, long board, const struct store_user *u, char out[TOKEN_TEXT_SIZE],
    char *err)
{
	unsigned char secret[TOKENS_SECRET_BYTES];
	enum store_status ss;
	unsigned long gen;
	bool off;

	out[0] = '\0';
	if (u->hash[0] != '$')
		return STORE_OK;	/* a locked account: nothing to authorise */
	ss = tokens_state(st, u->userid, &off, &gen, err);
	if (ss != STORE_OK || off)
		return ss;
	ss = tokens_secret(st, REPLYTOKEN_LOCK_MS, secret, err);
	if (ss == STORE_OK)
		token_make(secret, sizeof secret, board, u->userid, u->hash, gen, out);
	explicit_bzero(secret, sizeof secret);
	return ss;
}

char *replytoken_comment(const struct command *cmd, const char *body)
{
	char *c = command_comment(cmd, body), *m;

	if (c == NULL)
		return NULL;
	m = token_mask(c);
	free(c);
	return m;
}
