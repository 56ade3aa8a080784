/* mailtext: the sender's own lines of a mail's text (mailtext.h). */
#include "mail/mailtext.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Bytes of the line at s, without its LF. */
static size_t line_len(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl != NULL ? (size_t)(nl - s) : strlen(s);
}

/* A "-- " signature separator (also "--", as some clients strip the space). */
static bool signature_line(const char *s, size_t len)
{
	while (len > 0 && (blank(s[len - 1]) || s[len - 1] == '\r'))
		len--;
	return len == 2 && s[0] == '-' && s[1] == '-';
}

static bool blank_line(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!blank(s[i]) && s[i] != '\r')
			return false;
	return true;
}

static bool quoted_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && blank(s[i]))
		i++;
	return i < len && s[i] == '>';
}

/* "On Monday, Alice wrote:" and the like, when quoted lines follow. */
static bool attribution_line(const char *s, size_t len)
{
	const char *next = s + len;
	size_t n;

	while (len > 0 && (blank(s[len - 1]) || s[len - 1] == '\r'))
		len--;
	if (!((len >= 6 && memcmp(s + len - 6, "wrote:", 6) == 0) ||
	    (len >= 7 && memcmp(s + len - 7, "writes:", 7) == 0)))
		return false;
	while (*next == '\n') {
		next++;
		n = line_len(next);
		if (!blank_line(next, n))
			return quoted_line(next, n);
		next += n;
	}
	return false;
}

/* ---- where quoted text begins ---- */

/* s[0..len) without trailing blanks and CR. */
static size_t trimmed(const char *s, size_t len)
{
	while (len > 0 && (blank(s[len - 1]) || s[len - 1] == '\r'))
		len--;
	return len;
}

static bool ends_with(const char *s, size_t len, const char *end)
{
	size_t n = strlen(end);

	return len >= n && memcmp(s + len - n, end, n) == 0;
}

/* The line after the one at s (past its LF), or NULL at the end. */
static const char *next_line(const char *s)
{
	s += line_len(s);
	return *s == '\n' ? s + 1 : NULL;
}

/*
 * "From:", "*From:*" (a bold header made plain text by Gmail or Outlook):
 * does the line start with one of names, a colon after it?
 */
static bool header_named(const char *s, size_t len, const char *const *names)
{
	size_t i = 0, n;

	while (i < len && blank(s[i]))
		i++;
	if (i < len && s[i] == '*')
		i++;
	for (; *names != NULL; names++) {
		n = strlen(*names);
		if (i + n < len && strncasecmp(s + i, *names, n) == 0 &&
		    (s[i + n] == ':' || (s[i + n] == '*' && i + n + 1 < len && s[i + n + 1] == ':') ||
		    (s[i + n] == ' ' && i + n + 1 < len && s[i + n + 1] == ':')))
			return true;
	}
	return false;
}

/*
 * The header block a client writes above the mail it quotes (Outlook,
 * Outlook on the web, Yahoo, AOL, Zimbra, in English, German or French):
 * a From: line, then within the next four lines a Sent:/Date: line and a
 * To:/Subject: line.
 */
static bool header_block(const char *s)
{
	static const char *const from[] = { "From", "Von", "De", NULL };
	static const char *const sent[] = { "Sent", "Date", "Gesendet", "Datum", "Envoy\xc3\xa9", NULL };
	static const char *const to[] = { "To", "Subject", "An", "Betreff", "\xc3\x80", "Objet", "Cc", NULL };
	bool has_sent = false, has_to = false;
	int i;

	if (!header_named(s, line_len(s), from))
		return false;
	for (i = 0; i < 4 && (s = next_line(s)) != NULL; i++) {
		has_sent = has_sent || header_named(s, line_len(s), sent);
		has_to = has_to || header_named(s, line_len(s), to);
	}
	return has_sent && has_to;
}

/*
 * "-----Original Message-----" (Outlook, AOL), "----- Original Message -----"
 * (Yahoo, Zimbra), "---------- Forwarded message ---------" (Gmail),
 * "Begin forwarded message:" (Apple Mail), and the German forms: a line of
 * dashes around the words, or the words alone.
 */
static bool separator_line(const char *s, size_t len)
{
	static const char *const words[] = { "original message", "forwarded message", "begin forwarded message:",
		"urspr\xc3\xbcngliche nachricht", "weitergeleitete nachricht", "message d'origine", NULL };
	const char *const *w;
	size_t i = 0, n;

	len = trimmed(s, len);
	while (i < len && (blank(s[i]) || s[i] == '-'))
		i++;
	while (len > i && (blank(s[len - 1]) || s[len - 1] == '-'))
		len--;
	for (w = words; *w != NULL; w++) {
		n = strlen(*w);
		if (len - i == n && strncasecmp(s + i, *w, n) == 0)
			return true;
	}
	return false;
}

/* A rule of underscores (Outlook on the web) above a header block. */
static bool underscore_rule(const char *s, size_t len)
{
	size_t i, n = trimmed(s, len);

	if (n < 10)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] != '_')
			return false;
	/* within three lines */
	for (i = 0; i < 3 && (s = next_line(s)) != NULL && blank_line(s, line_len(s)); i++)
		;
	return s != NULL && header_block(s);
}

static bool attribution_opening(const char *s, size_t n)
{
	return n > 3 && (strncmp(s, "On ", 3) == 0 || strncmp(s, "Am ", 3) == 0 || strncmp(s, "Le ", 3) == 0);
}

/* The end of an attribution: a[0..na) its last line, whole[0..nw) all of it. */
static bool attribution_closing(const char *a, size_t na, const char *whole, size_t nw)
{
	return ends_with(a, na, "wrote:") || ends_with(a, na, "writes:") || ends_with(a, na, "a \xc3\xa9" "crit :") ||
	    ends_with(a, na, "a \xc3\xa9" "crit:") || (ends_with(a, na, ":") && memmem(whole, nw, " schrieb ", 9) != NULL);
}

/*
 * The attribution line of a reply: "On <date>, <name> wrote:" (Gmail,
 * Apple Mail, Thunderbird), which Gmail wraps before the address when it
 * is long, "Am <date> schrieb <name>:" and "Le <date>, <name> a \u00e9crit :".
 * Returns how many lines it takes (1 or 2), 0 if s starts none.
 */
static int on_wrote(const char *s, size_t len)
{
	const char *next;
	size_t n = trimmed(s, len), m;

	if (!attribution_opening(s, n) || n > 300)
		return 0;
	if (attribution_closing(s, n, s, n))
		return 1;
	if ((next = next_line(s)) == NULL || (m = trimmed(next, line_len(next))) > 300)
		return 0;
	return attribution_closing(next, m, s, (size_t)(next - s) + m) ? 2 : 0;
}

/* Is the first line from s on that is not blank (within three) a quoted ('>') line? */
static bool quote_follows(const char *s)
{
	int i;

	for (i = 0; i < 3 && s != NULL && *s != '\0' && blank_line(s, line_len(s)); i++)
		s = next_line(s);
	return s != NULL && quoted_line(s, line_len(s));
}

/*
 * Where the quoted mail of a reply begins, for the line s of length len:
 * QUOTE_NONE, QUOTE_ALL (everything from s on is quoted: a separator, an
 * Outlook header block, or an attribution above an unmarked quote), or
 * QUOTE_LINES_1 or _2: an attribution of one or two lines above '>' lines,
 * which are skipped where they are, as a reply may answer between them.
 */
enum quote_start { QUOTE_NONE, QUOTE_ALL, QUOTE_LINES_1, QUOTE_LINES_2 };

static enum quote_start quote_start(const char *s, size_t len)
{
	const char *after;
	int k;

	if (separator_line(s, len) || underscore_rule(s, len) || header_block(s))
		return QUOTE_ALL;
	if ((k = on_wrote(s, len)) == 0)
		return QUOTE_NONE;
	after = next_line(s);
	if (k == 2 && after != NULL)
		after = next_line(after);
	if (!quote_follows(after))
		return QUOTE_ALL;
	return k == 1 ? QUOTE_LINES_1 : QUOTE_LINES_2;
}

/*
 * The sign-offs mail programs add under the text (the word after them
 * names a device or a program): "Sent from my iPhone", "Sent from Mail for
 * Windows", "Get Outlook for iOS", "Von meinem iPhone gesendet",
 * "Gesendet von meinem Samsung Galaxy", "Envoyé de mon iPhone",
 * "Enviado desde mi iPhone", "Inviato da iPhone", "Verstuurd vanaf mijn
 * iPhone", "Skickat från min iPhone".
 */
/*
 * A sign-off is a few words with no sentence in it ("Sent from my phone,
 * so short. Good luck" is a comment): at most SIGNOFF_WORDS words, no
 * '.', '!' or '?' before a blank.
 */
#define SIGNOFF_WORDS 8

static bool few_words(const char *s, size_t len)
{
	size_t i, words = 0;

	for (i = 0; i < len; i++) {
		/* a sentence ends inside ("... short. Good luck"); "aka.ms/x" in a link does not */
		if ((s[i] == '.' || s[i] == '!' || s[i] == '?') && i + 1 < len && blank(s[i + 1]))
			return false;
		if (!blank(s[i]) && (i == 0 || blank(s[i - 1])))
			words++;
	}
	return words <= SIGNOFF_WORDS;
}

static bool sent_from(const char *s, size_t len)
{
	static const char *const openings[] = { "sent from ", "sent via ", "sent with ", "sent using ",
		"get outlook for ", "von meinem ", "gesendet von ", "gesendet mit ", "envoy\xc3\xa9 de ",
		"envoy\xc3\xa9 depuis ", "enviado desde ", "enviado do ", "enviado de ", "inviato da ",
		"verstuurd vanaf ", "verzonden vanaf ", "skickat fr\xc3\xa5n ", "sendt fra ", "wys\xc5\x82\x61no z ",
		NULL };
	const char *const *o;
	size_t i = 0, n;

	while (i < len && blank(s[i]))
		i++;
	len = trimmed(s, len);
	if (len <= i || len - i > MAILTEXT_SIGNATURE_MAX)
		return false;
	for (o = openings; *o != NULL; o++) {
		n = strlen(*o);
		if (len - i > n && strncasecmp(s + i, *o, n) == 0)
			return few_words(s + i, len - i);
	}
	return false;
}

bool mailtext_signature(const char *s, size_t len)
{
	return signature_line(s, len) || sent_from(s, len);
}

size_t mailtext_line_len(const char *s)
{
	return line_len(s);
}

const char *mailtext_next(const char *s)
{
	return next_line(s);
}

const char *mailtext_after(const char *s, enum mailtext_kind kind)
{
	s = mailtext_next(s);
	if (kind == MAILTEXT_QUOTED2 && s != NULL)
		s = mailtext_next(s);
	return s;
}

enum mailtext_kind mailtext_kind(const char *s, size_t len)
{
	enum quote_start q;

	if (mailtext_signature(s, len) || (q = quote_start(s, len)) == QUOTE_ALL)
		return MAILTEXT_END;
	if (q == QUOTE_LINES_2)
		return MAILTEXT_QUOTED2;
	if (q == QUOTE_LINES_1 || quoted_line(s, len) || attribution_line(s, len))
		return MAILTEXT_QUOTED;
	return blank_line(s, len) ? MAILTEXT_BLANK : MAILTEXT_TEXT;
}

/* A header value made one clean line (mailtext.h). */
char *mailtext_clean_line(const char *s, size_t max, enum utf8_mode mode)
{
	size_t len, start = 0;
	char *c;

	if (s == NULL)
		s = "";
	c = utf8_clean(s, strlen(s), mode, max, &len);
	if (c == NULL)
		return NULL;
	while (len > 0 && c[len - 1] == ' ')
		c[--len] = '\0';
	while (c[start] == ' ')
		start++;
	memmove(c, c + start, len - start + 1);
	return c;
}
