/* msgid: the RFC 5322 3.6.4 msg-id grammar (see msgid.h). */
#include "base/msgid.h"

#include <string.h>

#include "base/mailaddr.h"

/* RFC 5322 3.2.3 dot-atom-text: atext runs joined by single dots. */
static bool dot_atom_text(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || s[0] == '.' || s[len - 1] == '.')
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] == '.') {
			if (s[i + 1] == '.')
				return false;
		} else if (!mailaddr_atext((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}

/* RFC 5322 3.6.4 no-fold-literal: "[" *dtext "]", dtext %d33-90 / %d94-126. */
static bool no_fold_literal(const char *s, size_t len)
{
	size_t i;

	if (len < 2 || s[0] != '[' || s[len - 1] != ']')
		return false;
	for (i = 1; i + 1 < len; i++)
		if (s[i] < 33 || s[i] > 126 || (s[i] >= 91 && s[i] <= 93))
			return false;
	return true;
}

bool msgid_ok(const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);

	if (at == NULL)
		return false;
	return dot_atom_text(s, (size_t)(at - s)) &&
	    (dot_atom_text(at + 1, len - (size_t)(at + 1 - s)) || no_fold_literal(at + 1, len - (size_t)(at + 1 - s)));
}

bool msgid_bracketed_ok(const char *s, size_t len)
{
	return len >= 2 && s[0] == '<' && s[len - 1] == '>' && msgid_ok(s + 1, len - 2);
}
