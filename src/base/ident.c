/* ident: user id and board id checks. */
#include "base/ident.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define IDENT_FULLNAME_MAX_STR XSTR(IDENT_FULLNAME_MAX)

static bool userid_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '_' || c == '-';
}

bool ident_userid_ok(const char *s)
{
	size_t n;

	if (s == NULL || !isalnum((unsigned char)s[0]))
		return false;
	for (n = 0; s[n] != '\0'; n++)
		if (n >= IDENT_USERID_MAX || !userid_char((unsigned char)s[n]))
			return false;
	return true;
}

void ident_userid_fold(char *s)
{
	for (; *s != '\0'; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

bool ident_board_parse(const char *s, size_t len, long *out)
{
	long v = 0;
	size_t i;

	if (len == 0 || len > 8 || s[0] == '0')
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < IDENT_BOARD_MIN || v > IDENT_BOARD_MAX)
		return false;
	*out = v;
	return true;
}

bool ident_fullname_ok(const char *s, const char **why)
{
	const char *reason = NULL;
	size_t i = 0, n = strlen(s), len, chars = 0;
	uint32_t cp;

	while (i < n && reason == NULL) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0)
			reason = "is not valid UTF-8";
		else if (utf8_is_control(cp) || cp == UTF8_NUL_MARK)
			reason = "contains a control character";
		else if (utf8_is_bidi_control(cp))
			reason = "contains a bidirectional formatting character (U+202A to U+202E, U+2066 to U+2069)";
		else if (++chars > IDENT_FULLNAME_MAX)
			reason = "is longer than " IDENT_FULLNAME_MAX_STR " characters";
		i += len != 0 ? len : 1;
	}
	if (reason != NULL && why != NULL)
		*why = reason;
	return reason == NULL;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Optimal string alignment distance, on at most 16 bytes a side. */
size_t ident_keyword_distance(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b), d[17][17], i, k, best;

	if (na > 16 || nb > 16)
		return SIZE_MAX;
	for (i = 0; i <= na; i++)
		d[i][0] = i;
	for (k = 0; k <= nb; k++)
		d[0][k] = k;
	for (i = 1; i <= na; i++) {
		for (k = 1; k <= nb; k++) {
			size_t cost = lower(a[i - 1]) != b[k - 1];

			best = d[i - 1][k] + 1;
			if (d[i][k - 1] + 1 < best)
				best = d[i][k - 1] + 1;
			if (d[i - 1][k - 1] + cost < best)
				best = d[i - 1][k - 1] + cost;
			if (i > 1 && k > 1 && lower(a[i - 1]) == b[k - 2] && lower(a[i - 2]) == b[k - 1] &&
			    d[i - 2][k - 2] + 1 < best)
				best = d[i - 2][k - 2] + 1;
			d[i][k] = best;
		}
	}
	return d[na][nb];
}

/* One edit from a short keyword, two from one of five letters or more. */
bool ident_keyword_near(const char *s, size_t len, const char *kw)
{
	return ident_keyword_distance(s, len, kw) <= (len >= 5 ? 2 : 1);
}
