/*
 * mailin_text: a text part's bytes made UTF-8 text: its charset converted
 * (iconv, GMime's charset names), an HTML part made plain text,
 * format=flowed undone.  mailin.c takes the part out of the mail.
 */
#include "base/utf8.h"
#include "mail/mailin_int.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

/* ---- charset conversion ---- */

/* Make room for need more bytes (and a NUL) after used; false when out of memory. */
static bool grow(char **out, size_t *size, size_t used, size_t need)
{
	char *n;
	size_t nsize = *size;

	while (nsize - used < need + 1) {
		if (nsize > SIZE_MAX / 2)
			return false;
		nsize *= 2;
	}
	if (nsize == *size)
		return true;
	n = realloc(*out, nsize);
	if (n == NULL)
		return false;
	*out = n;
	*size = nsize;
	return true;
}

/*
 * Convert with cd to UTF-8.  A byte iconv cannot convert becomes U+FFFD and
 * conversion goes on after it, so any input yields text.
 */
static char *iconv_all(iconv_t cd, const char *in, size_t n, size_t *outlen)
{
	char *out, *ip = (char *)in, *op;
	size_t size = n + 64, used = 0, ileft = n, oleft, r;

	out = malloc(size);
	if (out == NULL)
		return NULL;
	while (ileft > 0) {
		if (!grow(&out, &size, used, 8))
			goto fail;
		op = out + used;
		oleft = size - used - 1;
		r = iconv(cd, &ip, &ileft, &op, &oleft);
		used = (size_t)(op - out);
		if (r != (size_t)-1)
			break;
		if (errno == E2BIG) {
			if (!grow(&out, &size, used, size))
				goto fail;
			continue;
		}
		/* EILSEQ, or EINVAL for a sequence cut short at the end */
		if (!grow(&out, &size, used, 3))
			goto fail;
		memcpy(out + used, "\xef\xbf\xbd", 3);
		used += 3;
		ip++;
		ileft--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	out[used] = '\0';
	*outlen = used;
	return out;
fail:
	free(out);
	return NULL;
}

static char *copy_bytes(const char *in, size_t n, size_t *outlen)
{
	char *out = malloc(n + 1);

	if (out == NULL)
		return NULL;
	if (n > 0)	/* an empty GByteArray may have no data at all */
		memcpy(out, in, n);
	out[n] = '\0';
	*outlen = n;
	return out;
}

/*
 * The part's bytes as UTF-8 (not yet cleaned).  ISO-8859-1 and US-ASCII
 * labels are read as windows-1252, as browsers do (WHATWG Encoding): mail
 * labelled latin1 is often cp1252.  No label, US-ASCII or an unknown
 * charset: valid UTF-8 is taken as it is, anything else as windows-1252.
 */
char *mailin_text_to_utf8(const char *in, size_t n, const char *charset, size_t *outlen)
{
	const char *canon = NULL, *from = NULL;
	iconv_t cd = (iconv_t)-1;
	char *out;

	if (charset != NULL && *charset != '\0')
		canon = g_mime_charset_canon_name(charset);
	if (canon != NULL && strcasecmp(canon, "utf-8") == 0)
		return copy_bytes(in, n, outlen);	/* utf8_clean replaces what is invalid */
	if (canon != NULL && strcasecmp(canon, "us-ascii") == 0)
		canon = NULL;
	if (canon != NULL && strcasecmp(canon, "iso-8859-1") == 0)
		from = "WINDOWS-1252";
	else if (canon != NULL)
		from = g_mime_charset_iconv_name(canon);
	if (from != NULL)
		cd = iconv_open("UTF-8", from);
	if (cd == (iconv_t)-1) {
		/* no label, US-ASCII, or a charset iconv does not know */
		if (utf8_valid(in, n))
			return copy_bytes(in, n, outlen);
		cd = iconv_open("UTF-8", "WINDOWS-1252");
		if (cd == (iconv_t)-1)
			return copy_bytes(in, n, outlen);	/* utf8_clean makes it safe */
	}
	out = iconv_all(cd, in, n, outlen);
	iconv_close(cd);
	return out;
}


/* The character entity at s (after '&', n bytes left) as UTF-8 into out; its length, 0 if none. */
static size_t html_entity(const char *s, size_t n, char out[8], size_t *used)
{
	static const struct {
		const char *name;
		const char *text;
	} named[] = { { "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" }, { "apos;", "'" },
		{ "nbsp;", " " }, { "#39;", "'" } };
	unsigned long cp = 0;
	size_t i, k;

	for (k = 0; k < sizeof named / sizeof named[0]; k++) {
		size_t len = strlen(named[k].name);

		if (n >= len && strncasecmp(s, named[k].name, len) == 0) {
			*used = len;
			return (size_t)snprintf(out, 8, "%s", named[k].text);
		}
	}
	if (n < 3 || s[0] != '#')
		return 0;
	i = 1;
	if (s[1] == 'x' || s[1] == 'X') {
		for (i = 2; i < n && i < 10 && isxdigit((unsigned char)s[i]); i++)
			cp = cp * 16 + (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
		if (i == 2)
			return 0;
	} else {
		for (; i < n && i < 9 && isdigit((unsigned char)s[i]); i++)
			cp = cp * 10 + (unsigned long)(s[i] - '0');
		if (i == 1)
			return 0;
	}
	if (i >= n || s[i] != ';' || cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*used = i + 1;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* True if the tag at s (after '<', n bytes) is name (or /name), followed by a space, '/' or '>'. */
static bool html_tag_is(const char *s, size_t n, const char *name)
{
	size_t len = strlen(name);

	if (n > 0 && s[0] == '/')
		s++, n--;
	return n > len && strncasecmp(s, name, len) == 0 &&
	    (s[len] == '>' || s[len] == '/' || isspace((unsigned char)s[len]));
}

/*
 * An HTML body as the text a reader sees, well enough to find a command in
 * it: tags dropped (those that break a line or a block become a newline),
 * the content of <head>, <script> and <style> dropped, comments dropped,
 * character entities decoded.  Runs of blanks the HTML layout made are
 * collapsed.  The lines inside a <blockquote> (the quoted mail of Apple
 * Mail's, Gmail's and Thunderbird's HTML replies) start with "> ", as a
 * plain text reply quotes, so that no command is taken from them
 * (mailtext.h).  Never longer than the input plus one byte: a line break
 * and its "> " (3 bytes) stand for a tag of 4 bytes or more.  NULL when out
 * of memory; the caller owns the result.
 */
char *mailin_text_from_html(const char *h, size_t n, size_t *outlen)
{
	static const char *const breaks[] = { "br", "p", "div", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6",
		"hr", "blockquote", "pre", "table", "ul", "ol", "dd", "dt" };
	static const char *const hidden[] = { "head", "script", "style", "title" };
	char *out = malloc(n + 1), ent[8];
	size_t i = 0, o = 0, k, used;
	const char *skip_to = NULL;	/* inside a hidden element: its end tag */
	bool space = false;
	unsigned quote = 0;	/* <blockquote> depth */

	if (out == NULL)
		return NULL;
	while (i < n) {
		if (h[i] == '<') {
			const char *end;

			if (n - i >= 4 && strncmp(h + i, "<!--", 4) == 0) {
				end = memmem(h + i + 4, n - i - 4, "-->", 3);
				i = end != NULL ? (size_t)(end - h) + 3 : n;
				continue;
			}
			end = memchr(h + i, '>', n - i);
			if (end == NULL)
				break;
			if (skip_to != NULL) {
				if (h[i + 1] == '/' && html_tag_is(h + i + 1, (size_t)(end - h - i), skip_to))
					skip_to = NULL;
			} else {
				for (k = 0; k < sizeof hidden / sizeof hidden[0]; k++)
					if (h[i + 1] != '/' &&
					    html_tag_is(h + i + 1, (size_t)(end - h - i), hidden[k]) && end[-1] != '/')
						skip_to = hidden[k];
				for (k = 0; k < sizeof breaks / sizeof breaks[0] && skip_to == NULL; k++)
					if (html_tag_is(h + i + 1, (size_t)(end - h - i), breaks[k])) {
						while (o > 0 && out[o - 1] == ' ')
							o--;
						out[o++] = '\n';
						space = false;
						if (strcmp(breaks[k], "blockquote") == 0 && h[i + 1] == '/')
							quote -= quote > 0;
						else if (strcmp(breaks[k], "blockquote") == 0)
							quote++;
						break;
					}
			}
			i = (size_t)(end - h) + 1;
			continue;
		}
		if (skip_to != NULL) {
			i++;
			continue;
		}
		if (h[i] == '\r' || h[i] == '\n' || h[i] == '\t' || h[i] == ' ') {
			/* HTML layout, not text: one space, none at the start of a line */
			if (!space && o > 0 && out[o - 1] != '\n')
				out[o++] = ' ';
			space = true;
			i++;
			continue;
		}
		space = false;
		if (quote > 0 && (o == 0 || out[o - 1] == '\n')) {
			out[o++] = '>';
			out[o++] = ' ';
		}
		if (h[i] == '&' && (k = html_entity(h + i + 1, n - i - 1, ent, &used)) > 0 && k <= used + 1) {
			memcpy(out + o, ent, k);
			o += k;
			i += used + 1;
			continue;
		}
		out[o++] = h[i++];
	}
	out[o] = '\0';
	*outlen = o;
	return out;
}

/* End a flowed paragraph that no line continues: its soft break's space dropped. */
static char *end_paragraph(char *start, char *o, bool delsp)
{
	if (!delsp && o > start && o[-1] == ' ')
		o--;
	*o++ = '\n';
	return o;
}

/*
 * The text of a format=flowed part with its soft line breaks undone (RFC
 * 3676, 4.2): a line ending in a space runs on into the next line of the
 * same quote depth, which a phone's mail client relies on to wrap a long
 * command line; with delsp=yes that space goes too (4.3).  Space-stuffing
 * is removed (4.4), the "-- " signature line stays a line of its own, and
 * quoted lines keep their '>' marks, written ">> " before the text.
 * Returns a malloc'd string (NULL when out of memory), its length in *outlen.
 */
char *mailin_text_unflow(const char *s, size_t n, bool delsp, size_t *outlen)
{
	char *out = malloc(3 * n + 4), *o;	/* a line ">" grows to "\n> \n" */
	const char *end = s + n, *e, *t;
	size_t depth, len;
	bool open = false;	/* the previous line was flowed into this one */
	size_t open_depth = 0;

	if (out == NULL)
		return NULL;
	o = out;
	while (s < end) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (e == NULL)
			e = end;
		len = (size_t)(e - s);
		if (len > 0 && s[len - 1] == '\r')
			len--;
		for (depth = 0; depth < len && s[depth] == '>'; depth++)
			;
		t = s + depth;
		len -= depth;
		if (len > 0 && *t == ' ')
			t++, len--;	/* space-stuffed (4.4), or the space after the quote marks */
		if (open && depth != open_depth) {
			/* a flowed line followed by a change of depth: fixed (4.5) */
			o = end_paragraph(out, o, delsp);
			open = false;
		}
		if (!open && depth > 0) {
			memset(o, '>', depth);
			o += depth;
			*o++ = ' ';
		}
		if (len > 0 && t[len - 1] == ' ' && !(len == 3 && memcmp(t, "-- ", 3) == 0)) {
			memcpy(o, t, len - (delsp ? 1 : 0));
			o += len - (delsp ? 1 : 0);
			open = true;
			open_depth = depth;
		} else {
			memcpy(o, t, len);
			o += len;
			*o++ = '\n';
			open = false;
		}
		s = e < end ? e + 1 : end;
	}
	if (open)
		o = end_paragraph(out, o, delsp);
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}
