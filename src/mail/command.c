/* command: parse the command line of a mail (pbmserv shapes); mailfind finds the line. */
#include "base/utf8.h"
#include "mail/command_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct command_syntax *command_grammar_row(const struct command_grammar *g, size_t i)
{
	return (const struct command_syntax *)(const void *)((const char *)g->rows + i * g->stride);
}

const struct command_syntax *command_grammar_find(const struct command_grammar *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (strcasecmp(command_grammar_row(g, i)->name, name) == 0)
			return command_grammar_row(g, i);
	return NULL;
}

const char *command_name(const struct command *cmd)
{
	return cmd->syntax != NULL ? cmd->syntax->name : "";
}

bool command_is(const struct command *cmd, const char *name)
{
	return cmd->syntax != NULL && strcmp(cmd->syntax->name, name) == 0;
}

/* The tail slot of k ('L', 'O', 'N', 'T', 'C', 'W', 'B', '*'), or 0. */
char command_tail_of(const struct keyword *k)
{
	size_t n = strlen(k->slots);

	return n > 0 && ((k->slots[n - 1] >= 'A' && k->slots[n - 1] <= 'Z') || k->slots[n - 1] == '*') ?
	    k->slots[n - 1] : 0;
}

/* Is argument i of k a password? */
bool command_password_slot(const struct keyword *k, size_t i)
{
	return i < strlen(k->slots) && k->slots[i] == 'p';
}

bool command_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Split line into at most max words at spaces and tabs; returns how many. */
size_t command_split(const char *line, struct word *w, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (command_blank(*line))
			line++;
		if (*line == '\0' || n == max)
			return n;
		w[n].s = line;
		while (*line != '\0' && !command_blank(*line))
			line++;
		w[n].len = (size_t)(line - w[n].s);
		n++;
	}
}

bool command_word_is(const struct word *w, const char *s)
{
	return w->len == strlen(s) && strncasecmp(w->s, s, w->len) == 0;
}

const struct keyword *command_keyword_find(const struct command_grammar *g, const struct word *w)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (command_word_is(w, command_grammar_row(g, i)->name))
			return command_grammar_row(g, i);
	return NULL;
}

/* Index of the keyword: 1 after a leading "oust" that is followed by a word, else 0. */
size_t command_keyword_index(const struct word *w, size_t n)
{
	return n >= 2 && command_word_is(&w[0], "oust") ? 1 : 0;
}

enum command_result command_fail(struct command *out, enum command_result st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->error, sizeof out->error, fmt, ap);
	va_end(ap);
	out->syntax = NULL;
	return st;
}

/* A culprit for an error message: at most QUOTE_MAX bytes, cut at a character, "..." if cut. */
const char *command_quote(const char *s, size_t len, char buf[QUOTE_MAX + 4])
{
	size_t n;

	if (len <= QUOTE_MAX) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		return buf;
	}
	n = QUOTE_MAX;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	memcpy(buf, s, n);
	memcpy(buf + n, "...", 4);
	return buf;
}

/*
 * The byte length of a Unicode space or zero-width character at s, and
 * whether it is a space (else it is dropped): U+00A0 (no-break, sent by
 * phones and Outlook), U+2000 to U+200A, U+202F (narrow), U+205F, U+3000
 * (ideographic) are word separators; U+200B and U+FEFF are invisible.
 */
static size_t unicode_blank(const char *s, bool *space)
{
	const unsigned char *u = (const unsigned char *)s;

	*space = true;
	if (u[0] == 0xc2 && u[1] == 0xa0)
		return 2;
	if (u[0] == 0xe2 && u[1] == 0x80 && ((u[2] >= 0x80 && u[2] <= 0x8a) || u[2] == 0xaf))
		return 3;
	if (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f)
		return 3;
	if (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80)
		return 3;
	*space = false;
	if ((u[0] == 0xe2 && u[1] == 0x80 && u[2] == 0x8b) || (u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf))
		return 3;
	return 0;
}

/* Unicode spaces in s made ASCII spaces, zero-width characters dropped, in place. */
void command_unicode_blanks(char *s)
{
	char *d = s;
	size_t n;
	bool space;

	while (*s != '\0') {
		n = unicode_blank(s, &space);
		if (n == 0) {
			*d++ = *s++;
			continue;
		}
		if (space)
			*d++ = ' ';
		s += n;
	}
	*d = '\0';
}

/* Copy a command line into out->line, cleaned; false if too long. */
static bool set_line(struct command *out, const char *s, size_t len)
{
	char *c;
	size_t clen;

	c = utf8_clean(s, len, UTF8_LINE, 0, &clen);
	if (c == NULL || clen > COMMAND_LINE_MAX) {
		free(c);
		return false;
	}
	memcpy(out->line, c, clen + 1);
	free(c);
	command_unicode_blanks(out->line);
	return true;
}

/*
 * Refuse a command line holding a control character (TAB is a blank):
 * removed, it would join the words around it.  The position counts
 * characters from 1; the text before it is quoted so it can be found.
 */
static enum command_result check_controls(struct command *out, const char *s, size_t n)
{
	size_t i = 0, len, chars = 0;
	char q[QUOTE_MAX + 4];
	const char *from;
	uint32_t cp;

	while (n > 0 && s[n - 1] == '\r')
		n--;	/* the rest of a CRLF line end */
	while (i < n) {
		len = utf8_decode(s + i, n - i, &cp);
		if (len == 0) {
			len = 1;
			cp = 0xfffd;
		}
		chars++;
		if ((utf8_is_control(cp) && cp != '\t') || cp == UTF8_NUL_MARK) {
			/* the words before it, at most QUOTE_MAX bytes of them */
			from = i > QUOTE_MAX ? s + i - QUOTE_MAX : s;
			while (from > s && from < s + i && ((unsigned char)*from & 0xc0) == 0x80)
				from++;
			if (i == 0)
				return command_fail(out, COMMAND_CONTROL,
				    "the command line starts with a control character "
				    "(U+%04X): type the command again without it",
				    (unsigned)(cp == UTF8_NUL_MARK ? 0 : cp));
			q[0] = '\0';
			snprintf(q, sizeof q, "%s%.*s", from > s ? "..." : "", (int)(s + i - from), from);
			return command_fail(out, COMMAND_CONTROL,
			    "the command line has a control character (U+%04X) at "
			    "character %zu, after '%s': type the command again without it",
			    (unsigned)(cp == UTF8_NUL_MARK ? 0 : cp), chars, q);
		}
		i += len;
	}
	return COMMAND_OK;
}

/*
 * A command line refused for a control character: the board it names
 * (read from the line as cleaned, the character dropped), for the
 * Subject of the error: every error about a known board carries its
 * number.  The command is not carried out whatever this finds.
 */
static void control_board(struct command *out, const struct command_grammar *g)
{
	struct word w[3];
	const struct keyword *k;
	size_t n, kw, blen;
	long board;

	n = command_split(out->line, w, 3);
	kw = command_keyword_index(w, n);
	if (kw + 1 >= n || (k = command_keyword_find(g, &w[kw])) == NULL || (k->slots[0] != 'b' && k->slots[0] != 't'))
		return;
	blen = w[kw + 1].len;
	if (memchr(w[kw + 1].s, '#', blen) != NULL)
		blen = (size_t)((const char *)memchr(w[kw + 1].s, '#', blen) - w[kw + 1].s);
	if (ident_board_parse(w[kw + 1].s, blen, &board))
		out->board = board;
}

/* Parse the command line s[0..len) found in source into out, by the keywords of g. */
static enum command_result parse_line(struct command *out, const struct command_grammar *g,
    enum command_source source, const char *s, size_t len)
{
	struct word w[MAX_WORDS];
	size_t n;

	out->grammar = g;
	out->source = source;
	if (!set_line(out, s, len))
		return command_fail(out, COMMAND_TOO_LONG, "the command line is longer than %d characters",
		    COMMAND_LINE_MAX);
	if (check_controls(out, s, len) != COMMAND_OK) {
		control_board(out, g);
		return COMMAND_CONTROL;
	}
	n = command_split(out->line, w, MAX_WORDS);
	if (n == 0)	/* only control characters */
		return command_fail(out, COMMAND_EMPTY,
		    "no command found: write it in the Subject or on the first line of the mail");
	return command_slots_parse(out, g, w, n, command_keyword_index(w, n));
}

/* The sender's user ids into out (after the memset of a parse). */
static void set_senders(struct command *out, const char *const *senders, size_t n)
{
	size_t i;

	for (i = 0; i < n && out->nsenders < COMMAND_SENDERS_MAX; i++) {
		if (strlen(senders[i]) > IDENT_USERID_MAX)
			continue;
		snprintf(out->senders[out->nsenders], sizeof out->senders[0], "%s", senders[i]);
		ident_userid_fold(out->senders[out->nsenders++]);
	}
}

/*
 * The placements of a line sent alone: the board of the Subject ("Oust
 * Board N <player>", out->subject_board) in the command to send.
 */
static void placements_board(struct command *out)
{
	char list[COMMAND_LINE_MAX + 1];

	if (out->subject_board <= 0)
		return;
	out->board = out->subject_board;
	command_fail(out, COMMAND_PLACEMENTS_ONLY, "'%s' alone is not a command. Send: "
	    "move %ld <userid> <password> %s", command_placements_text(out, list, sizeof list), out->board, list);
}

/* One parse of the line s[0..len) into out, with the hints h (may be NULL). */
static enum command_result parse_hinted(struct command *out, const struct command_grammar *g,
    enum command_source source, const char *s, size_t len, const struct command_hints *h)
{
	enum command_result st;

	memset(out, 0, sizeof *out);
	if (h != NULL) {
		set_senders(out, h->senders, h->nsenders);
		out->subject_board = h->subject_board;
	}
	st = parse_line(out, g, source, s, len);
	if (st == COMMAND_PLACEMENTS_ONLY)
		placements_board(out);
	return st;
}

/* The length of s[0..len) without trailing blanks and one or more '.' or '!' after its last word. */
static size_t without_full_stop(const char *s, size_t len)
{
	size_t n = len;

	while (n > 0 && (command_blank(s[n - 1]) || s[n - 1] == '\r'))
		n--;
	if (n == 0 || (s[n - 1] != '.' && s[n - 1] != '!'))
		return len;
	while (n > 0 && (s[n - 1] == '.' || s[n - 1] == '!'))
		n--;
	return n;
}

/*
 * The line s[0..*len) without the marks a person or a mail program puts
 * around a command: "*move ...*" (bold made plain text), "`...`", '"...."',
 * "“...”", "_..._", a leading "- " or "* " of a list item.
 */
static void unwrapped(const char **s, size_t *len)
{
	static const char *const pairs[][2] = { { "*", "*" }, { "`", "`" }, { "\"", "\"" }, { "'", "'" }, { "_", "_" },
		{ "\xe2\x80\x9c", "\xe2\x80\x9d" }, { "\xe2\x80\x98", "\xe2\x80\x99" }, { "\xc2\xab", "\xc2\xbb" } };
	const char *p = *s;
	size_t n = *len, i, a, b;

	while (n > 0 && (command_blank(*p) || *p == '\r'))
		p++, n--;
	while (n > 0 && (command_blank(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	if (n >= 2 && (p[0] == '-' || p[0] == '*') && command_blank(p[1]))
		p += 2, n -= 2;	/* a list item */
	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		a = strlen(pairs[i][0]);
		b = strlen(pairs[i][1]);
		if (n > a + b && memcmp(p, pairs[i][0], a) == 0 && memcmp(p + n - b, pairs[i][1], b) == 0) {
			p += a;
			n -= a + b;
			break;
		}
		/* the full stop after the closing mark: "*move ...*." */
		if (n > a + b + 1 && memcmp(p, pairs[i][0], a) == 0 && (p[n - 1] == '.' || p[n - 1] == '!') &&
		    memcmp(p + n - 1 - b, pairs[i][1], b) == 0) {
			p += a;
			n -= a + b + 1;
			break;
		}
	}
	*s = p;
	*len = n;
}

enum command_result command_parse_line(const struct command_grammar *g, enum command_source source,
    const char *s, size_t len, const struct command_hints *h, struct command *out)
{
	const char *start = s;
	enum command_result st, st2;
	struct command *again;
	size_t cut;

	st = parse_hinted(out, g, source, s, len, h);
	if (st == COMMAND_OK || st == COMMAND_CONTROL || st == COMMAND_TOO_LONG)
		return st;
	unwrapped(&s, &len);
	cut = without_full_stop(s, len);
	if (cut == 0 || (cut == len && s == start))
		return st;
	/* "move 101 alice pw C3." or "*move ...*" as written is refused: without the marks, is it a command? */
	again = malloc(sizeof *again);
	if (again == NULL)
		return st;
	st2 = parse_hinted(again, g, source, s, cut, h);
	if (st2 == COMMAND_OK || (st2 == COMMAND_PLACEMENTS_ONLY && st != COMMAND_PLACEMENTS_ONLY)) {
		*out = *again;	/* "D4." is placements alone too */
		st = st2;
	}
	free(again);
	return st;
}

bool command_weak(const struct command *cmd)
{
	struct word w[3];
	size_t n, kw, i;

	if (cmd->syntax == NULL)
		return false;
	for (i = 0; cmd->syntax->slots[i] != '\0'; i++)
		if (!((cmd->syntax->slots[i] >= 'A' && cmd->syntax->slots[i] <= 'Z') || cmd->syntax->slots[i] == '*'))
			return false;	/* a fixed slot: a board, a user id... */
	n = command_split(cmd->line, w, 3);
	kw = command_keyword_index(w, n);
	return n > kw + 1;
}

bool command_same(const struct command *a, const struct command *b)
{
	struct word *wa, *wb;
	size_t na, nb, i;
	bool same = false;

	wa = malloc(2 * MAX_WORDS * sizeof *wa);
	if (wa == NULL)
		return false;
	wb = wa + MAX_WORDS;
	na = command_split(a->line, wa, MAX_WORDS);
	nb = command_split(b->line, wb, MAX_WORDS);
	for (i = command_keyword_index(wa, na), same = na - i == nb - command_keyword_index(wb, nb); same &&
	    i < na; i++) {
		const struct word *x = &wa[i],
		    *y = &wb[i - command_keyword_index(wa, na) + command_keyword_index(wb, nb)];

		same = x->len == y->len && strncasecmp(x->s, y->s, x->len) == 0;
	}
	free(wa);
	return same;
}
