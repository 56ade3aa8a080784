/* token: the reply tokens of board mails.  See token.h. */
#include "mail/token.h"

#include <ctype.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"

/* 31 letters that no font confuses: no 0 O, no 1 I L (tokens are read off phones and copied by hand) */
static const char alphabet[] = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
#define BASE ((sizeof alphabet) - 1)

void token_make(const unsigned char *secret, size_t secret_len, long board, const char *userid,
    const char *pwhash, unsigned long gen, char out[TOKEN_TEXT_SIZE])
{
	guint8 digest[32];
	gsize dlen = sizeof digest;
	GHmac *h = g_hmac_new(G_CHECKSUM_SHA256, secret, secret_len);
	char msg[64];
	unsigned long long v = 0;
	char letters[TOKEN_CHARS];
	int i, k = 0;

	/* the fields apart by NULs, so that no two inputs make the same message */
	snprintf(msg, sizeof msg, "oust reply token 1/%ld/%lu", board, gen);
	g_hmac_update(h, (const guchar *)msg, (gssize)strlen(msg) + 1);
	g_hmac_update(h, (const guchar *)userid, (gssize)strlen(userid) + 1);
	g_hmac_update(h, (const guchar *)pwhash, (gssize)strlen(pwhash) + 1);
	g_hmac_get_digest(h, digest, &dlen);
	g_hmac_unref(h);
	for (i = 0; i < 8; i++)
		v = v << 8 | digest[i];
	for (i = TOKEN_CHARS - 1; i >= 0; i--) {
		letters[i] = alphabet[v % BASE];
		v /= BASE;
	}
	for (i = 0; i < TOKEN_CHARS; i++) {
		if (i == 4 || i == 8)
			out[k++] = '-';
		out[k++] = letters[i];
	}
	out[k] = '\0';
}

/* The letters of a token's text s[0..len), upper case, into out; false if it is no token's shape. */
static bool letters_of(const char *s, size_t len, char out[TOKEN_CHARS + 1])
{
	size_t i, n = 0;
	char c;

	for (i = 0; i < len; i++) {
		c = (char)toupper((unsigned char)s[i]);
		if (c == '-' && (n == 4 || n == 8) && i + 1 < len && s[i + 1] != '-')
			continue;
		if (n == TOKEN_CHARS || c == '\0' || strchr(alphabet, c) == NULL)
			return false;
		out[n++] = c;
	}
	out[n] = '\0';
	return n == TOKEN_CHARS;
}

bool token_equal(const char *a, const char *b)
{
	char x[TOKEN_CHARS + 1], y[TOKEN_CHARS + 1];
	unsigned char diff = 0;
	bool okx = letters_of(a, strlen(a), x), oky = letters_of(b, strlen(b), y);
	int i;

	if (!okx || !oky)
		return false;
	/* every letter compared, whatever the first difference (no timing to learn a prefix from) */
	for (i = 0; i < TOKEN_CHARS; i++)
		diff |= (unsigned char)(x[i] ^ y[i]);
	return diff == 0;
}

/* The length of a "[XXXX-XXXX-XXXXX]" at s (its brackets included), 0 if none there. */
static size_t bracketed_token(const char *s, char out[TOKEN_TEXT_SIZE])
{
	char letters[TOKEN_CHARS + 1];
	const char *e;

	if (*s != '[')
		return 0;
	e = strchr(s + 1, ']');
	if (e == NULL || e - s - 1 > TOKEN_CHARS + 2 || !letters_of(s + 1, (size_t)(e - s - 1), letters))
		return 0;
	if (out != NULL)
		snprintf(out, TOKEN_TEXT_SIZE, "%.4s-%.4s-%.5s", letters, letters + 4, letters + 8);
	return (size_t)(e - s) + 1;
}

/* The word at s (case-insensitive) and a blank or the end after it. */
static bool word_at(const char *s, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(s, w, n) == 0 && (s[n] == '\0' || isspace((unsigned char)s[n]));
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

bool token_from_subject(const char *subject, struct token_subject *out)
{
	const char *p, *q;
	char *end;
	long board;

	memset(out, 0, sizeof *out);
	if (subject == NULL)
		return false;
	/* "Oust Board N" anywhere: clients put Re:, AW:, Réf. : and [tags] before it */
	for (p = subject; *p != '\0'; p++) {
		if (!word_at(p, "oust") || (p > subject && isalnum((unsigned char)p[-1])))
			continue;
		q = skip_blanks(p + 4);
		if (!word_at(q, "board"))
			continue;
		q = skip_blanks(q + 5);
		if (*q < '1' || *q > '9')
			continue;
		board = strtol(q, &end, 10);
		if (board <= 0 || (*end != '\0' && !isspace((unsigned char)*end)))
			continue;
		out->board = board;
		break;
	}
	if (out->board == 0)
		return false;
	for (q = end; *q != '\0'; q++) {
		/* "chat from": a user id "chat" in "alice vs chat" is no chat mail */
		if (word_at(q, "chat") && isspace((unsigned char)q[-1]) && word_at(skip_blanks(q + 4), "from"))
			out->chat = true;
		if (*q == '#' && out->turn == 0 && q[1] >= '1' && q[1] <= '9' && isspace((unsigned char)q[-1])) {
			long t = strtol(q + 1, &end, 10);

			if (t > 0 && t < 1000000) {
				out->turn = (int)t;
				if (*end == '.' && end[1] >= '1' && end[1] <= '9') {
					long k = strtol(end + 1, &end, 10);

					out->part = k < 1000 ? (int)k : 0;
				}
			}
		}
		if (*q == '[' && out->token[0] == '\0')
			(void)bracketed_token(q, out->token);
	}
	return out->token[0] != '\0';
}

char *token_mask(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	if (s == NULL)
		return NULL;
	while (*s != '\0') {
		n = bracketed_token(s, NULL);
		if (n > 0) {
			strbuf_add(&sb, TOKEN_MASK, strlen(TOKEN_MASK));
			s += n;
		} else {
			strbuf_add(&sb, s, 1);
			s++;
		}
	}
	if (sb.s == NULL && !sb.failed)
		return strdup("");
	return strbuf_finish(&sb);
}

char *token_uri_encode(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (isalnum(*p) || *p == '-' || *p == '.' || *p == '_' || *p == '~')
			strbuf_add(&sb, (const char *)p, 1);
		else
			strbuf_printf(&sb, "%%%02X", *p);
	}
	if (sb.s == NULL && !sb.failed)
		return strdup("");
	return strbuf_finish(&sb);
}
