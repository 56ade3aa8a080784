/* utf8: UTF-8 validation and cleaning (RFC 3629). */
#include "base/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	size_t len, i;

	if (n == 0)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		c = u[0] & 0x1f;
		min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		c = u[0] & 0x0f;
		min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		c = u[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;	/* continuation byte, 0xc0/0xc1 overlong lead, or 0xf5.. */
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

bool utf8_is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

bool utf8_is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

bool utf8_is_invisible(uint32_t cp)
{
	return utf8_is_bidi_control(cp) || (cp >= 0x200b && cp <= 0x200f) || cp == 0xfeff;
}

char *utf8_visible(const char *s, size_t n, size_t *outlen)
{
	size_t i = 0, len, o = 0;
	uint32_t cp;
	char *buf;

	/* each invisible character is 3 bytes, its mark UTF8_VISIBLE_MARK_LEN */
	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	buf = malloc(n * 3 + 1);
	if (buf == NULL)
		return NULL;
	while (i < n) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0) {
			buf[o++] = s[i++];
			continue;
		}
		if (utf8_is_invisible(cp)) {
			if (!(i == 0 && cp == 0xfeff))
				o += (size_t)sprintf(buf + o, "<U+%04X>", (unsigned)cp);
		} else {
			memcpy(buf + o, s + i, len);
			o += len;
		}
		i += len;
	}
	buf[o] = '\0';
	if (outlen != NULL)
		*outlen = o;
	return buf;
}

/* Append the UTF-8 form of cp (a valid scalar value) to p; returns the new end. */
static char *put(char *p, uint32_t cp)
{
	if (cp < 0x80) {
		*p++ = (char)cp;
	} else if (cp < 0x800) {
		*p++ = (char)(0xc0 | (cp >> 6));
		*p++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*p++ = (char)(0xe0 | (cp >> 12));
		*p++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*p++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*p++ = (char)(0xf0 | (cp >> 18));
		*p++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*p++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*p++ = (char)(0x80 | (cp & 0x3f));
	}
	return p;
}

static size_t put_len(uint32_t cp)
{
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

char *utf8_clean(const char *s, size_t n, enum utf8_mode mode, size_t max, size_t *outlen)
{
	size_t i = 0, len, room;
	uint32_t cp;
	char *buf, *p;
	bool keep = mode == UTF8_TEXT_KEEP || mode == UTF8_LINE_KEEP;
	bool line = mode == UTF8_LINE || mode == UTF8_LINE_KEEP;

	/* Each input byte yields at most 3 output bytes (U+FFFD for one bad byte). */
	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	room = n * 3;
	if (max != 0 && max < room)
		room = max;
	buf = malloc(room + 1);
	if (buf == NULL)
		return NULL;
	p = buf;
	while (i < n) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0) {
			cp = 0xfffd;
			len = 1;
		}
		i += len;
		if (cp == '\r') {
			/* CRLF and lone CR are one line break */
			if (i < n && s[i] == '\n')
				i++;
			cp = '\n';
		}
		if (cp == '\n' || cp == '\t') {
			if (line)
				cp = ' ';
		} else if (keep) {
			if (cp == 0)
				cp = UTF8_NUL_MARK;
		} else if (utf8_is_control(cp) || cp == UTF8_NUL_MARK) {
			continue;
		}
		if ((size_t)(p - buf) + put_len(cp) > room)
			break;
		p = put(p, cp);
	}
	*p = '\0';
	if (outlen != NULL)
		*outlen = (size_t)(p - buf);
	return buf;
}

bool utf8_valid(const char *s, size_t n)
{
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0)
			return false;
		i += len;
	}
	return true;
}

bool utf8_text_ok(const char *s, size_t n, size_t *bad)
{
	size_t i = 0, len;
	uint32_t cp;

	while (i < n) {
		/* printable ASCII, the bulk of every mail, without decoding */
		if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f) {
			i++;
			continue;
		}
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0 || (utf8_is_control(cp) && cp != '\n' && cp != '\t')) {
			if (bad != NULL)
				*bad = i;
			return false;
		}
		i += len;
	}
	return true;
}

size_t utf8_prefix(const char *s, size_t max)
{
	size_t i = 0, chars = 0;

	while (s[i] != '\0' && chars < max) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	return i;
}
