/*
 * token: the reply tokens of board mails (the phone's way to play: reply,
 * or tap a cell of the HTML board, without typing a password).
 *
 * A token stands for one player on one board: the first 64 bits of
 * HMAC-SHA256 (RFC 2104, GLib's GHmac) under the home's secret
 * (store/tokens.h) of the board number, the user id, the account's
 * password hash and its token generation, written as TOKEN_CHARS
 * characters of a 31-letter alphabet without look-alikes (no 0 O 1 I L),
 * grouped 4-4-5 by hyphens: "K7M2-QX9P-HD3RT".  A new password (so a
 * `reset` too) or a new generation (`tokens ... new`) makes every older
 * token wrong.  Tokens are compared in constant time.
 *
 * The Subject of a board mail to a player carries the token, the same
 * for the whole game: "Oust Board 101 alice vs bob [K7M2-QX9P-HD3RT]"; a
 * refusal's (and an older board mail's) also the turn it was written for
 * ("Oust Board 101 error #6 [...]", "#6.2" after two placements of a turn
 * sent in parts); token_from_subject() finds them again in a reply's Subject, whatever
 * clients put around it (Re:, AW:, SV:, Antw:, Réf. :, [External], folded
 * lines).  This module does no I/O.
 */
#ifndef OUSTPBM_TOKEN_H
#define OUSTPBM_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

#define TOKEN_CHARS 13			/* letters: 31^13 > 2^64 */
#define TOKEN_TEXT_SIZE (TOKEN_CHARS + 3)	/* "XXXX-XXXX-XXXXX" and its NUL */
#define TOKEN_SECRET_BYTES 32		/* the home's secret (store/tokens.h) */
#define TOKEN_MASK "[token]"		/* what a token becomes in logs and echoes */

/*
 * The token of userid on board under secret, bound to the account's
 * password hash pwhash and token generation gen, into out
 * ("K7M2-QX9P-HD3RT").
 */
void token_make(const unsigned char *secret, size_t secret_len, long board, const char *userid,
    const char *pwhash, unsigned long gen, char out[TOKEN_TEXT_SIZE]);

/*
 * a and b (each a token's text, any case, hyphens or not) name the same
 * token.  The letters are compared in constant time.
 */
bool token_equal(const char *a, const char *b);

/* What a reply's Subject says of the mail it answers. */
struct token_subject {
	long board;		/* "Board 101" */
	int turn;		/* "#6", 0 if none */
	int part;		/* "#6.2": placements of the turn already pending, 0 if none */
	bool chat;		/* "chat from": a reply to a chat mail */
	char token[TOKEN_TEXT_SIZE];	/* "" if none */
};

/*
 * Find board, turn and token in a Subject as clients rewrite it; false if
 * it holds no "Oust Board N ... [token]".
 */
bool token_from_subject(const char *subject, struct token_subject *out);

/*
 * s with every token-shaped "[XXXX-XXXX-XXXXX]" replaced by TOKEN_MASK
 * (a forwarded Subject, an echo, a log line).  The caller frees it; NULL
 * when out of memory.
 */
char *token_mask(const char *s);

/*
 * RFC 6068 (and RFC 3986): s percent-encoded for a mailto: URI's subject
 * or body, every byte but the unreserved ones encoded.  The caller frees
 * it; NULL when out of memory.
 */
char *token_uri_encode(const char *s);

#endif
