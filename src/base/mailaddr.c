/* mailaddr: conservative addr-spec check (RFC 5322 dot-atom @ host name). */
#include "base/mailaddr.h"

#include <string.h>

bool mailaddr_atext(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL);
}

static bool let_dig(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool fail(const char **why, const char *reason)
{
	if (why != NULL)
		*why = reason;
	return false;
}

bool mailaddr_ok(const char *s, const char **why)
{
	const char *at, *p, *label;
	size_t len, i;

	if (s == NULL || s[0] == '\0')
		return fail(why, "is empty");
	len = strnlen(s, MAILADDR_MAX + 1);
	if (len > MAILADDR_MAX)
		return fail(why, "is longer than 254 characters");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return fail(why, "contains a control character");
		if (c == ' ')
			return fail(why, "contains a space");
		if (c >= 0x80)
			return fail(why, "contains a non-ASCII character");
	}
	at = strchr(s, '@');
	if (at == NULL)
		return fail(why, "has no '@'");
	if (strchr(at + 1, '@') != NULL)
		return fail(why, "has more than one '@'");
	if (at == s)
		return fail(why, "has an empty local part");
	if ((size_t)(at - s) > MAILADDR_LOCAL_MAX)
		return fail(why, "has a local part longer than 64 characters");
	if (s[0] == '.' || at[-1] == '.')
		return fail(why, "has a local part starting or ending with '.'");
	for (p = s; p < at; p++) {
		if (*p == '.') {
			if (p[1] == '.')
				return fail(why, "has '..' in the local part");
		} else if (!mailaddr_atext((unsigned char)*p)) {
			return fail(why, "has a character not allowed in the local part");
		}
	}
	p = at + 1;
	if (*p == '\0')
		return fail(why, "has an empty domain");
	if (strlen(p) > MAILADDR_DOMAIN_MAX)
		return fail(why, "has a domain longer than 253 characters");
	for (;;) {
		label = p;
		while (let_dig((unsigned char)*p) || *p == '-')
			p++;
		if (p == label)
			return fail(why, "has an empty or invalid domain label");
		if (p - label > 63)
			return fail(why, "has a domain label longer than 63 characters");
		if (*label == '-' || p[-1] == '-')
			return fail(why, "has a domain label starting or ending with '-'");
		if (*p == '\0')
			break;
		if (*p != '.')
			return fail(why, "has a character not allowed in the domain");
		p++;
	}
	return true;
}

bool mailaddr_deliverable(const char *s, const char **why)
{
	if (!mailaddr_ok(s, why))
		return false;
	/* dot-atom allows '/', a directory name cannot have it */
	if (strchr(s, '/') != NULL)
		return fail(why, "contains '/'");
	return true;
}

void mailaddr_fold(const char *s, char out[MAILADDR_MAX + 1])
{
	const char *at = strrchr(s, '@'), *plus = strchr(s, '+');
	size_t o = 0;

	/* a '+' starting the local part, or in the domain, is no tag */
	if (plus == s || at == NULL || (plus != NULL && plus > at))
		plus = NULL;
	while (*s != '\0' && o < MAILADDR_MAX) {
		if (s == plus) {
			s = at;
			continue;
		}
		out[o++] = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		s++;
	}
	out[o] = '\0';
}
