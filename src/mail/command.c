/* command: parse the command line of a mail (pbmserv shapes); mailfind finds the line. */
#include "base/utf8.h"
#include "mail/command.h"
#include "mail/mailtext.h"
#include "store/ratings.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS (COMMAND_LINE_MAX / 2 + 1)
#define QUOTE_MAX 40		/* bytes of a culprit quoted in an error */

/* A command's row, as the parser reads it. */
#define keyword command_syntax

const char *command_status_str(enum command_status st)
{
	switch (st) {
	case COMMAND_OK: return "ok";
	case COMMAND_EMPTY: return "no command";
	case COMMAND_TOO_LONG: return "command line too long";
	case COMMAND_CONTROL: return "control character";
	case COMMAND_UNKNOWN: return "unknown command";
	case COMMAND_USAGE: return "wrong arguments";
	case COMMAND_BAD_USERID: return "bad user id";
	case COMMAND_BAD_PASSWORD: return "bad password";
	case COMMAND_BAD_NAME: return "bad full name";
	case COMMAND_BAD_BOARD: return "bad board number";
	case COMMAND_BAD_TURN: return "bad turn number";
	case COMMAND_BAD_OPTION: return "bad option";
	case COMMAND_BAD_PLACEMENT: return "bad placement";
	case COMMAND_BAD_CLASS: return "bad board class";
	case COMMAND_BAD_NUMBER: return "bad number of games";
	case COMMAND_PLACEMENTS_ONLY: return "placements without a command";
	case COMMAND_CONFLICT: return "the Subject and the text disagree";
	case COMMAND_CHAT_ANSWER: return "an answer to a chat without a command";
	}
	return "unknown command status";
}

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
static char tail_of(const struct keyword *k)
{
	size_t n = strlen(k->slots);

	return n > 0 && ((k->slots[n - 1] >= 'A' && k->slots[n - 1] <= 'Z') || k->slots[n - 1] == '*') ?
	    k->slots[n - 1] : 0;
}

/* Is argument i of k a password? */
static bool password_slot(const struct keyword *k, size_t i)
{
	return i < strlen(k->slots) && k->slots[i] == 'p';
}

/* ---- words ---- */

struct word {
	const char *s;
	size_t len;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Split line into at most max words at spaces and tabs; returns how many. */
static size_t split(const char *line, struct word *w, size_t max)
{
	size_t n = 0;

	for (;;) {
		while (blank(*line))
			line++;
		if (*line == '\0' || n == max)
			return n;
		w[n].s = line;
		while (*line != '\0' && !blank(*line))
			line++;
		w[n].len = (size_t)(line - w[n].s);
		n++;
	}
}

static bool word_is(const struct word *w, const char *s)
{
	return w->len == strlen(s) && strncasecmp(w->s, s, w->len) == 0;
}

static const struct keyword *keyword_find(const struct command_grammar *g, const struct word *w)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (word_is(w, command_grammar_row(g, i)->name))
			return command_grammar_row(g, i);
	return NULL;
}

/* Index of the keyword: 1 after a leading "oust" that is followed by a word, else 0. */
static size_t keyword_index(const struct word *w, size_t n)
{
	return n >= 2 && word_is(&w[0], "oust") ? 1 : 0;
}

/* ---- errors ---- */

static enum command_status fail(struct command *out, enum command_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum command_status fail(struct command *out, enum command_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out->error, sizeof out->error, fmt, ap);
	va_end(ap);
	out->syntax = NULL;
	return st;
}

/* A culprit for an error message: at most QUOTE_MAX bytes, cut at a character, "..." if cut. */
static const char *quote(const char *s, size_t len, char buf[QUOTE_MAX + 4])
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

/* ---- arguments ---- */

static enum command_status parse_userid(struct command *out, const struct word *w, char *dst)
{
	char q[QUOTE_MAX + 4];

	if (w->len > IDENT_USERID_MAX)
		goto bad;
	memcpy(dst, w->s, w->len);
	dst[w->len] = '\0';
	if (!ident_userid_ok(dst))
		goto bad;
	ident_userid_fold(dst);
	return COMMAND_OK;
bad:
	dst[0] = '\0';
	return fail(out, COMMAND_BAD_USERID,
	    "'%s' is not a user id (1 to %d letters, digits, '_' or '-')", quote(w->s, w->len, q),
	    IDENT_USERID_MAX);
}

/* Passwords are never quoted back: the reply may be read by others. */
static enum command_status parse_password(struct command *out, const struct word *w, char *dst)
{
	if (w->len > COMMAND_PASSWORD_MAX)
		return fail(out, COMMAND_BAD_PASSWORD, "the password is longer than %d characters",
		    COMMAND_PASSWORD_MAX);
	memcpy(dst, w->s, w->len);
	dst[w->len] = '\0';
	return COMMAND_OK;
}

/* The digits d[0..n) of a #turn: 1 to COMMAND_TURN_MAX without a leading zero, into *turn. */
static bool turn_digits(const char *d, size_t n, int *turn)
{
	size_t i;
	int t = 0;

	if (n == 0 || n > 6 || d[0] == '0')
		return false;
	for (i = 0; i < n; i++) {
		if (d[i] < '0' || d[i] > '9')
			return false;
		t = t * 10 + (d[i] - '0');
	}
	*turn = t;
	return true;
}

/* "101" or "101#7" (#turn only where allow_turn). */
static enum command_status parse_board(struct command *out, const struct word *w, bool allow_turn)
{
	const char *hash = allow_turn ? memchr(w->s, '#', w->len) : NULL;
	size_t blen = hash != NULL ? (size_t)(hash - w->s) : w->len;
	size_t tlen;
	char q[QUOTE_MAX + 4];

	if (!ident_board_parse(w->s, blen, &out->board))
		return fail(out, COMMAND_BAD_BOARD, "'%s' is not a board number", quote(w->s, blen, q));
	if (hash == NULL)
		return COMMAND_OK;
	tlen = w->len - blen - 1;
	if (turn_digits(hash + 1, tlen, &out->turn))
		return COMMAND_OK;
	return fail(out, COMMAND_BAD_TURN, "'%s' is not a turn number (#1 to #%d)",
	    quote(hash, tlen + 1, q), COMMAND_TURN_MAX);
}

/*
 * A vertex: a letter A..Z, then a number 1..25 without a leading zero.  I
 * is no column of a square board but a row of a hex one: the board decides.
 */
static bool parse_vertex(const char *s, size_t len, struct command_placement *p)
{
	char c;
	int row;

	if (len < 2 || len > 3)
		return false;
	c = s[0] >= 'a' && s[0] <= 'z' ? (char)(s[0] - 'a' + 'A') : s[0];
	if (c < 'A' || c > 'Z' || s[1] < '1' || s[1] > '9')
		return false;
	row = s[1] - '0';
	if (len == 3) {
		if (s[2] < '0' || s[2] > '9')
			return false;
		row = row * 10 + (s[2] - '0');
	}
	if (row > COMMAND_SIZE_MAX)
		return false;
	p->x = c == 'I' ? -1 : c - 'A' - (c > 'I' ? 1 : 0);
	p->y = row - 1;
	snprintf(p->name, sizeof p->name, "%c%d", c, row);
	return true;
}

/* A letter and one to three digits ("I5", "E55", "Z100"): a mistyped placement, safe to quote. */
static bool near_placement(const char *s, size_t len)
{
	size_t i;

	if (len < 2 || len > 4 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')))
		return false;
	for (i = 1; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * A placement mistyped in a way that has one reading: "5E" (the row
 * first) or "E5F5" (the comma left out).  The reading, upper case and
 * joined by commas, goes into fix; false if there is none.
 */
static bool placement_fix(const char *s, size_t len, char *fix, size_t size)
{
	struct command_placement p;
	size_t i = 0, j, used = 0, n = 0;
	char v[4];

	fix[0] = '\0';
	/* the row first: "5E", "13c" */
	for (j = 0; j < len && s[j] >= '0' && s[j] <= '9'; j++)
		;
	if (j > 0 && j <= 2 && j + 1 == len) {
		v[0] = s[j];
		memcpy(v + 1, s, j);
		if (parse_vertex(v, j + 1, &p)) {
			snprintf(fix, size, "%s", p.name);
			return true;
		}
		return false;
	}
	/* vertices run together: "E5F5", "a1b12" */
	while (i < len) {
		for (j = i + 1; j < len && j < i + 3 && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (!parse_vertex(s + i, j - i, &p) || used + 5 > size)
			return false;
		used += (size_t)snprintf(fix + used, size - used, "%s%s", n++ > 0 ? "," : "", p.name);
		i = j;
	}
	return n >= 2;
}

/* A word of one letter ("b" of "b 3") or of one to three digits ("3"). */
static bool lone_letter(const char *s, size_t len)
{
	return len == 1 && ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'));
}

static bool lone_number(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		;
	return len > 0 && len <= 3 && i == len;
}

/* "D4#5": a vertex with pbmserv's #turn attached; the turn into *turn. */
static bool vertex_turn(const char *s, size_t len, struct command_placement *p, int *turn)
{
	const char *hash = memchr(s, '#', len);

	return hash != NULL && parse_vertex(s, (size_t)(hash - s), p) &&
	    turn_digits(hash + 1, len - (size_t)(hash - s) - 1, turn);
}

/*
 * Is text made only of placements, mistyped ones, commas and blanks?  Only
 * such text is quoted in an error: when words before are missing, the
 * placement text may hold the password.
 */
static bool placements_shape(const char *text)
{
	struct command_placement pl;
	const char *p = text, *e;
	char fix[16];
	int t;

	for (;;) {
		while (blank(*p) || *p == ',')
			p++;
		if (*p == '\0')
			return true;
		for (e = p; *e != '\0' && !blank(*e) && *e != ','; e++)
			;
		if (!parse_vertex(p, (size_t)(e - p), &pl) && !near_placement(p, (size_t)(e - p)) &&
		    !placement_fix(p, (size_t)(e - p), fix, sizeof fix) && !lone_letter(p, (size_t)(e - p)) &&
		    !lone_number(p, (size_t)(e - p)) && !vertex_turn(p, (size_t)(e - p), &pl, &t))
			return false;
		p = e;
	}
}

/*
 * The placements: text runs to the end of the line, vertices joined by
 * commas or blanks (they are the last words of the command, so a blank
 * cannot be anything else), a trailing comma allowed, pbmserv's #turn
 * on the last one read as the board's ("D4#5").  A mistyping with one
 * reading ("5E", "E5F5", "b 3") is refused with the whole list as it
 * was meant in fix, for the command to send; fix is "" otherwise.
 */
static enum command_status parse_placements(struct command *out, const char *text, char *fix, size_t fixsize)
{
	const char *p = text, *e, *bad = NULL, *n2, *n2e;
	char q[QUOTE_MAX + 4], one[COMMAND_LINE_MAX + 1], meant[COMMAND_LINE_MAX + 1], badfix[COMMAND_LINE_MAX + 1] = "";
	struct command_placement pl;
	size_t len, badlen = 0, used = 0;
	bool token_since_comma = false, fixable = true;
	enum { TYPO_NONE, TYPO_REVERSED, TYPO_JOINED, TYPO_SPLIT } typo = TYPO_NONE;
	int turn = 0;

	fix[0] = '\0';
	meant[0] = '\0';
	out->nplacements = 0;
	for (;;) {
		while (blank(*p))
			p++;
		if (*p == ',') {
			if (!token_since_comma)
				return placements_shape(text) ? fail(out, COMMAND_BAD_PLACEMENT,
				    "'%s': a placement is missing between commas", quote(text, strlen(text), q)) :
				    fail(out, COMMAND_BAD_PLACEMENT, "a placement is missing between commas");
			token_since_comma = false;
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && !blank(*e) && *e != ','; e++)
			;
		len = (size_t)(e - p);
		token_since_comma = true;
		if (out->nplacements == COMMAND_PLACEMENTS_MAX)
			return fail(out, COMMAND_BAD_PLACEMENT, "more than %d placements", COMMAND_PLACEMENTS_MAX);
		if (parse_vertex(p, len, &out->placements[out->nplacements])) {
			snprintf(one, sizeof one, "%s", out->placements[out->nplacements].name);
			out->nplacements++;
		} else if (memchr(p, '#', len) != NULL && e[strspn(e, " \t,")] == '\0' &&
		    vertex_turn(p, len, &out->placements[out->nplacements], &turn)) {
			/* pbmserv's habit: the turn number on the last placement */
			snprintf(one, sizeof one, "%s", out->placements[out->nplacements].name);
			out->nplacements++;
		} else {
			n2 = e + strspn(e, " \t");
			n2e = n2 + strcspn(n2, " \t,");
			if (bad == NULL) {
				bad = p;
				badlen = len;
			}
			if (lone_letter(p, len) && lone_number(n2, (size_t)(n2e - n2)) &&
			    (size_t)(n2e - n2) + 1 < sizeof one) {
				/* "b 3": one placement cut in two */
				one[0] = p[0];
				memcpy(one + 1, n2, (size_t)(n2e - n2));
				one[1 + n2e - n2] = '\0';
				if (!parse_vertex(one, (size_t)(n2e - n2) + 1, &pl))
					fixable = false;
				else
					snprintf(one, sizeof one, "%s", pl.name);
				if (bad == p) {
					badlen = (size_t)(n2e - p);
					typo = TYPO_SPLIT;
				}
				e = n2e;
			} else if (placement_fix(p, len, one, sizeof one)) {
				if (bad == p)
					typo = p[0] >= '0' && p[0] <= '9' ? TYPO_REVERSED : TYPO_JOINED;
			} else {
				fixable = false;
				one[0] = '\0';
			}
		}
		if (bad == p)
			snprintf(badfix, sizeof badfix, "%s", one);
		if (used < sizeof meant)
			used += (size_t)snprintf(meant + used, sizeof meant - used, "%s%s", used > 0 ? "," : "", one);
		p = e;
	}
	if (out->nplacements == 0 && bad == NULL)
		return fail(out, COMMAND_BAD_PLACEMENT, "no placement given");
	if (bad == NULL) {
		if (turn != 0 && out->turn != 0 && turn != out->turn)
			return fail(out, COMMAND_BAD_TURN, "two turn numbers: #%d after the board and #%d after the "
			    "placements", out->turn, turn);
		if (turn != 0)
			out->turn = turn;
		return COMMAND_OK;
	}
	out->nplacements = 0;
	if (fixable && typo != TYPO_NONE && used < sizeof meant && used < fixsize) {
		memcpy(fix, meant, used + 1);
		if (typo == TYPO_SPLIT)
			return fail(out, COMMAND_BAD_PLACEMENT, "'%s' is one placement cut in two: did you mean %s?",
			    quote(bad, badlen, q), badfix);
		if (typo == TYPO_REVERSED)
			return fail(out, COMMAND_BAD_PLACEMENT, "'%s': the column letter comes first: did you mean %s?",
			    quote(bad, badlen, q), badfix);
		return fail(out, COMMAND_BAD_PLACEMENT, "'%s': placements are joined by commas: did you mean %s?",
		    quote(bad, badlen, q), badfix);
	}
	/*
	 * The culprit is quoted only when the whole text looks like
	 * placements: words before may be missing, and then this is the
	 * password.
	 */
	if (!placements_shape(text) && (text[strcspn(text, " \t")] != '\0' || (badlen > 3 && !near_placement(bad, badlen))))
		return fail(out, COMMAND_BAD_PLACEMENT, "a placement is not a column letter and a row, as in E5");
	return fail(out, COMMAND_BAD_PLACEMENT, "'%s' is not a placement", quote(bad, badlen, q));
}

/*
 * The challenge options.  Each may be given once (two colours, or the same
 * option twice, is a mistake worth a question rather than a guess), and a
 * size is written without leading zeros, as a board number is.
 */
static enum command_status parse_options(struct command *out, const struct word *w, size_t n)
{
	char q[QUOTE_MAX + 4], q2[QUOTE_MAX + 4];
	const struct word *color = NULL, *shape = NULL, *noswap = NULL, *unrated = NULL, *remind = NULL, *timeout = NULL;
	enum command_color c;
	size_t i, j;
	int size;

	out->size = COMMAND_SIZE_DEFAULT;
	out->color = COMMAND_COLOR_BLACK;
	for (i = 0; i < n; i++) {
		if (w[i].len > 6 && strncasecmp(w[i].s, "-size=", 6) == 0) {
			if (shape != NULL && strncasecmp(shape->s, "-size", 5) == 0)
				goto repeated;
			if (shape != NULL)
				goto contradicts;
			if (w[i].s[6] == '0')
				return fail(out, COMMAND_BAD_OPTION, "%s: write the size without leading zeros, "
				    "as in -size=9", quote(w[i].s, w[i].len, q));
			size = 0;
			for (j = 6; j < w[i].len && j < 9; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				size = size * 10 + (w[i].s[j] - '0');
			}
			if (j != w[i].len || size < COMMAND_SIZE_MIN || size > COMMAND_SIZE_MAX || size % 2 == 0)
				goto bad_size;
			shape = &w[i];
			out->size = size;
			continue;
		}
		if (word_is(&w[i], "-size"))
			goto bad_size;
		if (word_is(&w[i], "-hex") || (w[i].len > 5 && strncasecmp(w[i].s, "-hex=", 5) == 0)) {
			if (shape != NULL && strncasecmp(shape->s, "-hex", 4) == 0)
				goto repeated;
			if (shape != NULL)
				goto contradicts;
			if (w[i].len > 5 && w[i].s[5] == '0')
				return fail(out, COMMAND_BAD_OPTION, "%s: write the side without leading zeros, "
				    "as in -hex=7", quote(w[i].s, w[i].len, q));
			size = w[i].len > 4 ? 0 : COMMAND_HEX_DEFAULT;
			for (j = 5; j < w[i].len && j < 7; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				size = size * 10 + (w[i].s[j] - '0');
			}
			if ((w[i].len > 4 && j != w[i].len) || size < COMMAND_HEX_MIN || size > COMMAND_HEX_MAX)
				return fail(out, COMMAND_BAD_OPTION, "%s: the hex side must be from %d to %d",
				    quote(w[i].s, w[i].len, q), COMMAND_HEX_MIN, COMMAND_HEX_MAX);
			shape = &w[i];
			out->hex = true;
			out->size = size;
			continue;
		}
		if (w[i].len >= 6 && strncasecmp(w[i].s, "-level", 6) == 0 &&
		    (w[i].len == 6 || w[i].s[6] == '=')) {
			/* the robot's level: -level=N, one digit */
			if (w[i].len != 8 || w[i].s[7] < '0' + COMMAND_LEVEL_MIN || w[i].s[7] > '0' + COMMAND_LEVEL_MAX)
				return fail(out, COMMAND_BAD_OPTION, "%s: the level must be from %d to %d",
				    quote(w[i].s, w[i].len, q), COMMAND_LEVEL_MIN, COMMAND_LEVEL_MAX);
			out->level = w[i].s[7] - '0';
			continue;
		}
		if ((w[i].len >= 7 && strncasecmp(w[i].s, "-remind", 7) == 0 && (w[i].len == 7 || w[i].s[7] == '=')) ||
		    (w[i].len >= 8 && strncasecmp(w[i].s, "-timeout", 8) == 0 && (w[i].len == 8 || w[i].s[8] == '='))) {
			/* the board's own time limits: -remind=DAYS, -timeout=DAYS, no leading zero */
			bool is_remind = w[i].s[1] == 'r' || w[i].s[1] == 'R';
			size_t at = is_remind ? 8 : 9;
			int max = is_remind ? COMMAND_REMIND_MAX : COMMAND_TIMEOUT_MAX, days = 0;

			if ((is_remind ? remind : timeout) != NULL)
				goto repeated;
			for (j = at; j < w[i].len && j < at + 5; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				days = days * 10 + (w[i].s[j] - '0');
			}
			if (w[i].len <= at || j != w[i].len || w[i].s[at] == '0' || days < 1 || days > max)
				return fail(out, COMMAND_BAD_OPTION, "%s: %s is a number of days, from 1 to %d, as in %s=%d",
				    quote(w[i].s, w[i].len, q), is_remind ? "the time before a reminder" :
				    "the time to move before losing on time", max, is_remind ? "-remind" : "-timeout",
				    is_remind ? 3 : 14);
			if (is_remind) {
				out->remind_days = days;
				remind = &w[i];
			} else {
				out->timeout_days = days;
				timeout = &w[i];
			}
			continue;
		}
		if (word_is(&w[i], "-noswap")) {
			if (noswap != NULL)
				goto repeated;
			out->noswap = true;
			noswap = &w[i];
			continue;
		}
		if (word_is(&w[i], "-unrated")) {
			if (unrated != NULL)
				goto repeated;
			out->unrated = true;
			unrated = &w[i];
			continue;
		}
		if (word_is(&w[i], "-black"))
			c = COMMAND_COLOR_BLACK;
		else if (word_is(&w[i], "-white"))
			c = COMMAND_COLOR_WHITE;
		else if (word_is(&w[i], "-random"))
			c = COMMAND_COLOR_RANDOM;
		else
			return fail(out, COMMAND_BAD_OPTION,
			    "unknown option '%s' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N, "
			    "-unrated, -remind=DAYS or -timeout=DAYS)",
			    quote(w[i].s, w[i].len, q));
		if (color != NULL && c != out->color)
			return fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose one colour",
			    quote(w[i].s, w[i].len, q), quote(color->s, color->len, q2));
		if (color != NULL)
			goto repeated;
		color = &w[i];
		out->color = c;
	}
	if (remind != NULL && timeout != NULL && out->remind_days >= out->timeout_days)
		return fail(out, COMMAND_BAD_OPTION, "%s is not shorter than %s: the reminder must come before the "
		    "loss on time", quote(remind->s, remind->len, q), quote(timeout->s, timeout->len, q2));
	return COMMAND_OK;
contradicts:
	return fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose a square or a hex board",
	    quote(w[i].s, w[i].len, q), quote(shape->s, shape->len, q2));
repeated:
	return fail(out, COMMAND_BAD_OPTION, "'%s' is given twice: give each option once",
	    quote(w[i].s, w[i].len, q));
bad_size:
	return fail(out, COMMAND_BAD_OPTION, "%s: the size must be odd, from %d to %d",
	    quote(w[i].s, w[i].len, q), COMMAND_SIZE_MIN, COMMAND_SIZE_MAX);
}

/* Is w one of the words of k's last "[a|b|c]" (a 'W' tail)? */
static bool alternative(const struct keyword *k, const struct word *w)
{
	const char *p = strrchr(k->synopsis, '['), *e;

	if (p == NULL)
		return false;
	for (p++; *p != '\0' && *p != ']'; p = *e == '|' ? e + 1 : e) {
		e = p + strcspn(p, "|]");
		if ((size_t)(e - p) == w->len && strncasecmp(p, w->s, w->len) == 0)
			return true;
	}
	return false;
}

/* ---- the layout of a command's words, parsed or not ---- */

/*
 * Where the argument words a[0..na) of keyword k go, for command_mask(),
 * for naming what is missing and for the command to send.  With a word for
 * every slot the positions are the parser's (positional).  With too few,
 * the shapes decide what can be decided: a first word that is no board
 * number is taken for a missing board, and trailing placements (move) or
 * options (challenge) for the tail.  The middle slots (user id, password,
 * opponent, address) are told apart by the readings left: every way of
 * putting the k middle words, in order, into the m slots, less the ones
 * the words' shapes rule out (a user id slot takes a user id; with the
 * sender's accounts known, the sender's own user id and nothing else).
 * With too many words (no tail to take them) a middle word may stand in
 * any slot from its index minus the surplus to its index.
 */
#define READINGS_MAX 16		/* 2^4: m <= 4 middle slots */

struct layout {
	bool board;		/* a[0] takes the board slot */
	bool board_missing;
	char mid[4];		/* the middle slots' letters (u p o a n) */
	size_t m;		/* how many middle slots */
	size_t mid0, k;		/* the middle words: a[mid0 .. mid0 + k) */
	char tail;		/* 'L', 'O', 'N', 'T', 'W', 'B', '*' or 0 */
	size_t tail0;		/* the tail words: a[tail0 .. na) */
	bool tail_missing;	/* the placements of a move */
	bool positional;	/* k == m: word j in slot j */
	unsigned char at[READINGS_MAX][4];	/* k < m: reading r puts middle word j in slot at[r][j] */
	size_t nreadings;
};

/*
 * "E5", "E5,F5", "E5,", ",F5", ",": the shapes of a placement list cut at
 * spaces; with near, mistyped placements ("E55") count too.
 */
static bool placement_word(const struct word *w, bool near)
{
	struct command_placement p;
	size_t i = 0, j;

	while (i < w->len) {
		for (j = i; j < w->len && w->s[j] != ','; j++)
			;
		if (j > i && !parse_vertex(w->s + i, j - i, &p) && !(near && near_placement(w->s + i, j - i)))
			return false;
		i = j + 1;
	}
	return w->len > 0;
}

static bool option_word(const struct word *w)
{
	size_t j;

	if (word_is(w, "-noswap") || word_is(w, "-unrated") || word_is(w, "-black") || word_is(w, "-white") || word_is(w, "-random") ||
	    word_is(w, "-hex"))
		return true;
	if (w->len == 8 && strncasecmp(w->s, "-level=", 7) == 0 && w->s[7] >= '0' && w->s[7] <= '9')
		return true;
	if (w->len > 8 && w->len <= 12 && strncasecmp(w->s, "-remind=", 8) == 0)
		j = 8;
	else if (w->len > 9 && w->len <= 13 && strncasecmp(w->s, "-timeout=", 9) == 0)
		j = 9;
	else
		j = 0;
	if (j > 0) {
		for (; j < w->len; j++)
			if (w->s[j] < '0' || w->s[j] > '9')
				return false;
		return true;
	}
	if (w->len > 5 && w->len <= 7 && strncasecmp(w->s, "-hex=", 5) == 0)
		j = 5;
	else if (w->len > 6 && w->len <= 8 && strncasecmp(w->s, "-size=", 6) == 0)
		j = 6;
	else
		return false;
	for (; j < w->len; j++)
		if (w->s[j] < '0' || w->s[j] > '9')
			return false;
	return true;
}

static bool board_word(const struct word *w)
{
	const char *hash = memchr(w->s, '#', w->len);
	size_t blen = hash != NULL ? (size_t)(hash - w->s) : w->len, i;
	long b;

	if (!ident_board_parse(w->s, blen, &b))
		return false;
	for (i = blen + 1; hash != NULL && i < w->len; i++)
		if (w->s[i] < '0' || w->s[i] > '9')
			return false;
	return hash == NULL || blen + 1 < w->len;
}

static bool userid_word(const struct word *w)
{
	char id[IDENT_USERID_MAX + 1];

	if (w->len > IDENT_USERID_MAX)
		return false;
	memcpy(id, w->s, w->len);
	id[w->len] = '\0';
	return ident_userid_ok(id);
}

/* A keyword, a board, a user id or a placement (the brief's list). */
static bool recognisable(const struct command_grammar *g, const struct word *w)
{
	return keyword_find(g, w) != NULL || word_is(w, "oust") || board_word(w) || userid_word(w) ||
	    placement_word(w, false);
}

/* Is w one of the sender's user ids (command_parse_as)? */
static bool sender_word(const struct command *out, const struct word *w)
{
	size_t i;

	for (i = 0; i < out->nsenders; i++)
		if (word_is(w, out->senders[i]))
			return true;
	return false;
}

/* Could w stand in a middle slot of this letter? */
static bool slot_fits(const struct command *out, char slot, const struct word *w)
{
	switch (slot) {
	case 'u':
		return userid_word(w) && (out->nsenders == 0 || sender_word(out, w));
	case 'o':
		return userid_word(w) && !sender_word(out, w);
	case 'a':
		return memchr(w->s, '@', w->len) != NULL;
	default:
		/* a password: anything but the sender's user id */
		return !sender_word(out, w);
	}
}

/* The readings of k middle words a[0..k) in the m slots of l, those the shapes allow if any do. */
static void readings(const struct command *out, const struct word *a, struct layout *l)
{
	unsigned set, n;
	size_t j, s, pass;
	bool fits;

	l->nreadings = 0;
	for (pass = 0; pass < 2 && l->nreadings == 0; pass++) {
		for (set = 0; set < (1u << l->m); set++) {
			for (n = 0, s = 0; s < l->m; s++)
				n += (set >> s) & 1;
			if (n != l->k)
				continue;
			fits = true;
			for (j = 0, s = 0; s < l->m; s++) {
				if (!((set >> s) & 1))
					continue;
				l->at[l->nreadings][j] = (unsigned char)s;
				fits = fits && (pass == 1 || slot_fits(out, l->mid[s], &a[j]));
				j++;
			}
			if (fits)
				l->nreadings++;
		}
	}
}

/* Two words, a letter and a number ("b 3"), end at a[t - 1]. */
static bool split_placement_end(const struct word *a, size_t t, size_t i)
{
	return t >= i + 2 && lone_number(a[t - 1].s, a[t - 1].len) && lone_letter(a[t - 2].s, a[t - 2].len);
}

static void layout(const struct command *out, const struct keyword *k, const struct word *a, size_t na,
    struct layout *l)
{
	const char *s = k->slots;
	size_t fixed = 0, required, i = 0, t;

	memset(l, 0, sizeof *l);
	for (; *s != '\0'; s++) {
		if ((*s >= 'A' && *s <= 'Z') || *s == '*')
			l->tail = *s;
		else if (((*s != 'b' && *s != 't' && *s != 'v') || s != k->slots) && l->m < sizeof l->mid)
			l->mid[l->m++] = *s;
		fixed++;
	}
	if (l->tail != 0)
		fixed--;
	required = fixed + (l->tail == 'L' || l->tail == 'T');
	if (k->slots[0] == 'b' || k->slots[0] == 't' || k->slots[0] == 'v') {
		if (na > 0 && (na >= required || board_word(&a[0]))) {
			l->board = true;
			i = 1;
		} else {
			l->board_missing = true;
		}
	}
	t = na;
	if ((l->tail == 'L' || l->tail == 'N' || l->tail == 'T') && na >= i + l->m + (l->tail != 'N')) {
		t = i + l->m;	/* a word for every slot: the parser's positions */
	} else if (l->tail == 'N' || l->tail == 'T' || l->tail == 'C' || l->tail == 'W' || l->tail == 'B') {
		t = i + l->m < na ? i + l->m : na;
	} else if (l->tail == 'L') {
		for (;;) {
			if (t > i && placement_word(&a[t - 1], true))
				t--;
			else if (split_placement_end(a, t, i))
				t -= 2;
			else
				break;
		}
		l->tail_missing = t == na;
	} else if (l->tail == 'O') {
		while (t > i && a[t - 1].s[0] == '-')
			t--;
	}
	l->mid0 = i;
	l->k = t - i;
	l->tail0 = t;
	l->positional = l->k == l->m;
	if (l->k < l->m)
		readings(out, &a[i], l);
}

/* May middle word j stand in a password slot, or be a word too many? */
static bool maybe_password(const struct layout *l, size_t j)
{
	size_t lo, s, r;

	if (l->positional)
		return l->mid[j] == 'p';
	if (l->k > l->m) {
		lo = l->k - l->m;
		if (j < lo || j >= l->m)
			return true;	/* a word too many: it could be anything */
		for (s = j - lo; s <= j; s++)
			if (l->mid[s] == 'p')
				return true;
		return false;
	}
	for (r = 0; r < l->nreadings; r++)
		if (l->mid[l->at[r][j]] == 'p')
			return true;
	return false;
}

/* Middle slot s of l: the word every reading puts there (its index in *j), else false. */
static bool slot_word(const struct layout *l, size_t s, size_t *j)
{
	size_t r, w, found = SIZE_MAX;

	if (l->positional) {
		*j = s;
		return true;
	}
	if (l->k > l->m || l->nreadings == 0)
		return false;
	for (r = 0; r < l->nreadings; r++) {
		for (w = 0; w < l->k && l->at[r][w] != s; w++)
			;
		if (w == l->k || (found != SIZE_MAX && found != w))
			return false;
		found = w;
	}
	*j = found;
	return true;
}

/* Is middle slot s empty in every reading? */
static bool slot_empty(const struct layout *l, size_t s)
{
	size_t r, w;

	if (l->positional || l->k > l->m)
		return false;
	for (r = 0; r < l->nreadings; r++)
		for (w = 0; w < l->k; w++)
			if (l->at[r][w] == s)
				return false;
	return true;
}

/*
 * The name of argument n of k's usage, into buf: its "<...>" ("<password>",
 * "<board>" of "<board>[#turn]"), or the word itself for a word the
 * command takes as it is ("all", "on|off").  An argument runs to the next
 * space outside "<...>" and "[...]".
 */
static const char *slot_name(const struct keyword *k, size_t n, char *buf, size_t size)
{
	const char *p = k->synopsis + strcspn(k->synopsis, " "), *e, *lt, *gt;
	int depth;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0') {
			snprintf(buf, size, "a word");
			return buf;
		}
		for (e = p, depth = 0; *e != '\0' && (depth > 0 || *e != ' '); e++)
			depth += (*e == '<' || *e == '[') - (*e == '>' || *e == ']');
		if (n-- == 0)
			break;
		p = e;
	}
	lt = memchr(p, '<', (size_t)(e - p));
	gt = lt != NULL ? memchr(lt, '>', (size_t)(e - lt)) : NULL;
	if (gt != NULL)
		snprintf(buf, size, "%.*s", (int)(gt - lt + 1), lt);
	else
		snprintf(buf, size, "%.*s", (int)(e - p), p);
	return buf;
}

/* A missing slot in words: "your password", "your user id", else its "<name>". */
static const char *missing_name(const struct keyword *k, size_t n, char *buf, size_t size)
{
	slot_name(k, n, buf, size);
	if (strcmp(buf, "<password>") == 0)
		snprintf(buf, size, "your password");
	else if (strcmp(buf, "<userid>") == 0)
		snprintf(buf, size, "your user id");
	return buf;
}

/*
 * Is tail word w of l kept in the clear?  Placements, mistyped ones too,
 * and known options; a full name or a text is not (it may be the
 * password, shifted there by a missing word).
 */
static bool class_word(const struct word *w, enum ratings_class *c);

static bool tail_keep(const struct layout *l, const struct word *w)
{
	char fix[COMMAND_LINE_MAX + 1];

	if (l->tail == 'C')
		return class_word(w, &(enum ratings_class){ 0 });
	if (l->tail == 'B')
		return board_word(w);
	if (l->tail == 'L')
		return w->len <= COMMAND_LINE_MAX && placement_word(w, true) ? true :
		    (memcpy(fix, w->s, w->len), fix[w->len] = '\0', placements_shape(fix));
	return l->tail == 'O' && option_word(w);
}

/*
 * The command to send, from the words a[0..na) of keyword k laid out in l:
 * each word in its slot, the password's slot as its "<name>", a missing
 * slot as its "<name>" (a user id the sender's one, when the sender has
 * one account), the tail as tail (NULL: the tail words kept by tail_keep).
 * Into buf; false if it does not fit.
 */
static bool send_line(const struct command *out, const struct keyword *k, const struct layout *l, const struct word *a,
    size_t na, const char *tail, char *buf, size_t size)
{
	char name[40];
	size_t used = 0, s, j, first;
	bool tail_words = false;

#define PUT(...) (used += (size_t)snprintf(buf + used, used < size ? size - used : 0, __VA_ARGS__))
	PUT("%s", k->name);
	first = l->board || l->board_missing ? 1 : 0;
	if (l->board)
		PUT(" %.*s", (int)a[0].len, a[0].s);
	else if (l->board_missing && out->subject_board > 0)
		PUT(" %ld", out->subject_board);	/* the board the Subject names (Re: Oust Board 101 ...) */
	else if (l->board_missing)
		PUT(" %s", slot_name(k, 0, name, sizeof name));
	for (s = 0; s < l->m; s++) {
		if (l->mid[s] != 'p' && slot_word(l, s, &j))
			PUT(" %.*s", (int)a[l->mid0 + j].len, a[l->mid0 + j].s);
		else if (l->mid[s] == 'u' && out->nsenders == 1)
			PUT(" %s", out->senders[0]);
		else
			PUT(" %s", slot_name(k, first + s, name, sizeof name));
	}
	if (tail != NULL) {
		PUT(" %s", tail);
	} else {
		for (j = l->tail0; j < na; j++) {
			if (!tail_keep(l, &a[j]))
				continue;
			PUT(" %.*s", (int)a[j].len, a[j].s);
			tail_words = true;
		}
		if (!tail_words && (l->tail == 'L' || l->tail == 'T'))
			PUT(" %s", slot_name(k, first + l->m, name, sizeof name));
	}
#undef PUT
	return used < size;
}

/* Add ". Send: <the command>" to out->error (after a '?', " Send: ..."), if it fits. */
static void add_send(struct command *out, const char *line)
{
	size_t used = strlen(out->error);
	int w = snprintf(out->error + used, sizeof out->error - used, "%s Send: %s",
	    used > 0 && out->error[used - 1] == '?' ? "" : ".", line);

	if (w < 0 || (size_t)w >= sizeof out->error - used)
		out->error[used] = '\0';
}

/*
 * "move needs: ...; missing: your password. Send: move 101#2 bob
 * <password> D3": the usage, naming what is missing (or how many words
 * are too many) as far as the readings of the words tell, and the command
 * to send with the words given in their places.
 */
static enum command_status usage(struct command *out, const struct keyword *k, const struct word *a, size_t na)
{
	static const char *const counts[] = { "", "one", "two", "three" };
	char what[COMMAND_ERROR_MAX], name[40], line[COMMAND_ERROR_MAX];
	struct layout l;
	size_t used = 0, s, first, missing, unsure = 0, listed = 0, j;
	long board;

	layout(out, k, a, na, &l);
	if (l.board) {
		/* the board, for the Subject of the error (the turn does not matter here) */
		const char *hash = memchr(a[0].s, '#', a[0].len);

		if (ident_board_parse(a[0].s, hash != NULL ? (size_t)(hash - a[0].s) : a[0].len, &board))
			out->board = board;
	} else if (l.board_missing && out->subject_board > 0) {
		out->board = out->subject_board;
	}
	what[0] = '\0';
#define ADD(...) (used += (size_t)snprintf(what + used, sizeof what - used, __VA_ARGS__), \
	    used = used < sizeof what ? used : sizeof what - 1)
	first = l.board || l.board_missing ? 1 : 0;
	if (l.board_missing)
		ADD("%s", slot_name(k, 0, name, sizeof name));
	if (l.k < l.m) {
		missing = l.m - l.k;
		for (s = 0; s < l.m; s++)
			unsure += !slot_empty(&l, s) && !slot_word(&l, s, &j);
		if (used > 0)
			ADD(", ");
		if (unsure == 0) {
			/* every reading leaves the same slots empty: "your user id, your password and <placements>" */
			for (s = 0; s < l.m; s++)
				if (slot_empty(&l, s))
					ADD("%s%s", listed++ == 0 ? "" : listed == missing + !!l.tail_missing ? " and " : ", ",
					    missing_name(k, first + s, name, sizeof name));
		} else {
			/* the slots some reading leaves empty */
			for (s = 0, unsure = 0; s < l.m; s++)
				unsure += !slot_word(&l, s, &j);
			if (unsure > 2)
				ADD("%s of ", counts[missing < 4 ? missing : 0]);
			for (s = 0; s < l.m; s++)
				if (!slot_word(&l, s, &j))
					ADD("%s%s", listed++ == 0 ? "" : unsure > 2 ? " " : " or ",
					    slot_name(k, first + s, name, sizeof name));
		}
	}
	if (l.tail_missing)
		ADD("%s%s", used == 0 ? "" : listed > 0 ? " and " : " ", slot_name(k, first + l.m, name, sizeof name));
#undef ADD
	if (used > 0) {
		fail(out, COMMAND_USAGE, "%s needs: %s; missing: %s", k->name, k->synopsis, what);
		if (send_line(out, k, &l, a, na, NULL, line, sizeof line))
			add_send(out, line);
		return COMMAND_USAGE;
	}
	if ((l.tail == 'C' || l.tail == 'W') && na > l.tail0 + 1)
		return fail(out, COMMAND_USAGE, "%s needs: %s; %zu word%s too many", k->name, k->synopsis,
		    na - l.tail0 - 1, na - l.tail0 - 1 == 1 ? "" : "s");
	if (l.tail == 0 && l.k > l.m)
		return fail(out, COMMAND_USAGE, "%s needs: %s; %zu word%s too many", k->name, k->synopsis,
		    l.k - l.m, l.k - l.m == 1 ? "" : "s");
	return fail(out, COMMAND_USAGE, "%s needs: %s", k->name, k->synopsis);
}

/* The placements of out, joined by commas, into buf. */
static const char *placements_text(const struct command *out, char *buf, size_t size)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < out->nplacements && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? "," : "", out->placements[i].name);
	return buf;
}

/*
 * A line of placements alone ("C3", "c3 d4", "C3,D4"): a reply to a board
 * mail that forgot the command.  The placements are parsed into out and
 * the error says what to send; command_parse() adds the board of the
 * Subject.
 */
static bool placements_only(struct command *out, const struct word *w, size_t n)
{
	char text[COMMAND_LINE_MAX + 1], list[COMMAND_LINE_MAX + 1];
	size_t i, used = 0;

	for (i = 0; i < n; i++)
		if (!placement_word(&w[i], false))
			return false;
	for (i = 0; i < n; i++) {
		if (i > 0 && text[used - 1] != ',' && w[i].s[0] != ',')
			text[used++] = ',';
		memcpy(text + used, w[i].s, w[i].len);
		used += w[i].len;
	}
	text[used] = '\0';
	if (parse_placements(out, text, list, sizeof list) != COMMAND_OK)
		return false;
	fail(out, COMMAND_PLACEMENTS_ONLY, "'%s' alone is not a command. Send: move <board>[#turn] "
	    "<userid> <password> %s", placements_text(out, list, sizeof list), list);
	return true;
}

/*
 * "unknown command 'mvoe' (did you mean move?); the commands are
 * register, ... and help": the keywords of g, and the nearest one when a
 * word is one edit from it (two for a word of five letters or more).
 */
static enum command_status unknown(struct command *out, const struct command_grammar *g, const struct word *w)
{
	char q[QUOTE_MAX + 4], near[80] = "", list[COMMAND_ERROR_MAX];
	size_t i, d, best = SIZE_MAX, used = 0, n = g->n;
	const char *name;

	list[0] = '\0';
	for (i = 0; i < n; i++) {
		name = command_grammar_row(g, i)->name;
		if (command_grammar_find(g, name) != command_grammar_row(g, i))
			continue;	/* a keyword's second row */
		d = ident_keyword_distance(w->s, w->len, name);
		if (d < best && ident_keyword_near(w->s, w->len, name)) {
			best = d;
			snprintf(near, sizeof near, " (did you mean %s?)", name);
		}
		if (used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" :
			    i + 1 == n ? " and " : ", ", name);
	}
	return fail(out, COMMAND_UNKNOWN, "unknown command '%s'%s; the commands are %s", quote(w->s, w->len, q),
	    near, list);
}

/* The full name: the words a[0..na) joined by single spaces. */
static enum command_status parse_fullname(struct command *out, const struct word *a, size_t na)
{
	size_t i, len = 0;
	const char *why;

	for (i = 0; i < na; i++) {
		if (len + (len != 0) + a[i].len > COMMAND_FULLNAME_MAX)
			return fail(out, COMMAND_BAD_NAME, "the full name is longer than %d characters",
			    IDENT_FULLNAME_MAX);
		if (len != 0)
			out->fullname[len++] = ' ';
		memcpy(out->fullname + len, a[i].s, a[i].len);
		len += a[i].len;
	}
	out->fullname[len] = '\0';
	if (!ident_fullname_ok(out->fullname, &why))
		return fail(out, COMMAND_BAD_NAME, "the full name %s", why);
	return COMMAND_OK;
}

/* A mail address: its checks are the command's (mailaddr_deliverable, quoting it); here only its length. */
static enum command_status parse_address(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];

	if (w->len > MAILADDR_MAX)
		return fail(out, COMMAND_USAGE, "the address '%s' is longer than %d characters",
		    quote(w->s, w->len, q), MAILADDR_MAX);
	memcpy(out->new_address, w->s, w->len);
	out->new_address[w->len] = '\0';
	return COMMAND_OK;
}

/* A number of games, 0 to COMMAND_GAMES_MAX, without sign or leading zero. */
static enum command_status parse_games(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];
	size_t i;
	int n = 0;

	/* two digits at most are read: a longer word is refused without overflowing n */
	for (i = 0; i < w->len && i < 3 && w->s[i] >= '0' && w->s[i] <= '9'; i++)
		n = n * 10 + (w->s[i] - '0');
	if (w->len == 0 || w->len > 2 || i < w->len || (w->len == 2 && w->s[0] == '0') || n > COMMAND_GAMES_MAX)
		return fail(out, COMMAND_BAD_NUMBER, "'%s' is not a number of games (0 to %d)",
		    quote(w->s, w->len, q), COMMAND_GAMES_MAX);
	out->games = n;
	return COMMAND_OK;
}

/* Is w the name of a board class (store/ratings.h)?  Its class into *c. */
static bool class_word(const struct word *w, enum ratings_class *c)
{
	char name[24];

	if (w->len >= sizeof name)
		return false;
	memcpy(name, w->s, w->len);
	name[w->len] = '\0';
	return ratings_class_parse(name, c);
}

/* An optional board class: a[0..na), na 0 or 1 (the caller checked). */
static enum command_status parse_class(struct command *out, const struct word *a, size_t na)
{
	char q[QUOTE_MAX + 4];
	enum ratings_class c;
	int i;

	out->rating_class = -1;
	if (na == 0)
		return COMMAND_OK;
	if (!class_word(&a[0], &c)) {
		size_t used;

		fail(out, COMMAND_BAD_CLASS, "there is no board class '%s': the classes are ", quote(a[0].s, a[0].len, q));
		used = strlen(out->error);
		for (i = 0; i < RATINGS_NCLASSES && used < sizeof out->error; i++)
			used += (size_t)snprintf(out->error + used, sizeof out->error - used, "%s%s (%s)",
			    i == 0 ? "" : i + 1 == RATINGS_NCLASSES ? " and " : ", ",
			    ratings_class_name((enum ratings_class)i), ratings_class_sizes((enum ratings_class)i));
		return COMMAND_BAD_CLASS;
	}
	out->rating_class = (int)c;
	return COMMAND_OK;
}

/*
 * A 'w' slot: word w must be one of the words the synopsis of k gives as
 * its argument i ("on|off", "all"); cmd.word gets it in lower case.
 */
static enum command_status parse_literal(struct command *out, const struct keyword *k, size_t i,
    const struct word *w)
{
	const char *p = k->synopsis + strcspn(k->synopsis, " "), *alt, *end;
	char q[QUOTE_MAX + 4];
	size_t n, len;

	for (n = 0; n <= i; n++) {
		p += strspn(p, " ");
		if (n < i)
			p += strcspn(p, " ");
	}
	len = strcspn(p, " ");
	for (alt = p; alt < p + len; alt = end + 1) {
		end = alt + strcspn(alt, "| ");
		if ((size_t)(end - alt) == w->len && strncasecmp(alt, w->s, w->len) == 0 && w->len < sizeof out->word) {
			for (n = 0; n < w->len; n++)
				out->word[n] = (char)tolower((unsigned char)w->s[n]);
			out->word[w->len] = '\0';
			return COMMAND_OK;
		}
		if (*end != '|')
			break;
	}
	return fail(out, COMMAND_USAGE, "%s needs: %s; '%s' is not %.*s", k->name, k->synopsis,
	    quote(w->s, w->len, q), (int)len, p);
}

/* One fixed slot of k's (struct command_syntax) from word w; passwords counts the 'p' slots so far. */
static enum command_status parse_slot(struct command *out, const struct keyword *k, size_t i, const struct word *w,
    int *passwords)
{
	switch (k->slots[i]) {
	case 'b':
	case 't':
	case 'v':
		return parse_board(out, w, k->slots[i] != 'b');
	case 'u':
		return parse_userid(out, w, out->userid);
	case 'o':
		/* "*": an open challenge, to anyone who accepts it */
		if (w->len == 1 && w->s[0] == '*') {
			snprintf(out->opponent, sizeof out->opponent, "*");
			return COMMAND_OK;
		}
		return parse_userid(out, w, out->opponent);
	case 'p':
		return parse_password(out, w, (*passwords)++ == 0 ? out->password : out->new_password);
	case 'a':
		return parse_address(out, w);
	case 'n':
		return parse_games(out, w);
	case 'w':
		return parse_literal(out, k, i, w);
	default:
		return fail(out, COMMAND_USAGE, "the grammar of %s has no slot '%c'", out->line, k->slots[i]);
	}
}

/* undo, propose, accept or reject (any case), or COMMAND_OFFER_NONE. */
static enum command_offer offer_word(const struct word *w)
{
	static const char *const words[] = { "undo", "propose", "accept", "reject" };
	size_t i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (w->len == strlen(words[i]) && strncasecmp(w->s, words[i], w->len) == 0)
			return (enum command_offer)(COMMAND_OFFER_UNDO + i);
	return COMMAND_OFFER_NONE;
}

/*
 * The size of a study board (preview new <size> ...): N, -size=N, -hex or
 * -hex=S, as challenge takes them.
 */
static enum command_status parse_study_size(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];
	size_t j;
	int size = 0;

	if (w->len > 0 && w->s[0] != '-') {
		for (j = 0; j < w->len && j < 3; j++) {
			if (w->s[j] < '0' || w->s[j] > '9')
				break;
			size = size * 10 + (w->s[j] - '0');
		}
		if (j != w->len || w->s[0] == '0' || size < COMMAND_SIZE_MIN || size > COMMAND_SIZE_MAX ||
		    size % 2 == 0)
			return fail(out, COMMAND_BAD_OPTION, "'%s' is not a board size: the size must be odd, from %d "
			    "to %d (or -hex, -hex=S for a hex board of side %d to %d)", quote(w->s, w->len, q),
			    COMMAND_SIZE_MIN, COMMAND_SIZE_MAX, COMMAND_HEX_MIN, COMMAND_HEX_MAX);
		out->size = size;
		out->hex = false;
		return COMMAND_OK;
	}
	if (!(w->len > 6 && strncasecmp(w->s, "-size=", 6) == 0) && !word_is(w, "-hex") &&
	    !(w->len > 5 && strncasecmp(w->s, "-hex=", 5) == 0))
		return fail(out, COMMAND_BAD_OPTION, "'%s' is not a board size: give N (odd, %d to %d), "
		    "-size=N, -hex or -hex=S", quote(w->s, w->len, q), COMMAND_SIZE_MIN, COMMAND_SIZE_MAX);
	return parse_options(out, w, 1);
}

/* "preview new <size> <placements>": a study board (out->study), no board number. */
static enum command_status parse_study(struct command *out, const struct keyword *k, const struct word *a,
    size_t na)
{
	char fix[COMMAND_LINE_MAX + 1];
	enum command_status st;

	if (na < 3)
		return fail(out, COMMAND_USAGE, "%s new needs: %s new <size> <placements>; missing: %s", k->name,
		    k->name, na < 2 ? "<size> <placements>" : "<placements>");
	st = parse_study_size(out, &a[1]);
	if (st != COMMAND_OK)
		return st;
	st = parse_placements(out, a[2].s, fix, sizeof fix);
	if (st != COMMAND_OK)
		return st;
	out->board = 0;
	out->turn = 0;
	out->study = true;
	out->syntax = k;
	return COMMAND_OK;
}

/*
 * pbmserv's habit "move 103 bob pw swap": a command word where the
 * placements go, of a command with the same slots as the placements'
 * command has before them.  Only the swap is read as meant (harmless: it
 * is refused but as White's first turn); another (a resignation) is
 * refused with the command to send.
 */
#define PBMSERV_MOVE_ALIAS "swap"

/* The tail of placements a[fixed..na) of k, its fixed slots parsed. */
static enum command_status parse_tail_placements(struct command *out, const struct command_grammar *g,
    const struct keyword *k, const struct word *a, size_t na, size_t fixed)
{
	const struct keyword *k2 = na == fixed + 1 ? keyword_find(g, &a[fixed]) : NULL;
	char fix[COMMAND_LINE_MAX + 1], line[COMMAND_ERROR_MAX], q[QUOTE_MAX + 4];
	struct layout l;
	enum command_status st;

	if (k2 != NULL && strlen(k2->slots) == fixed && strncmp(k2->slots, k->slots, fixed) == 0) {
		if (strcmp(k2->name, PBMSERV_MOVE_ALIAS) == 0) {
			out->syntax = k2;
			return COMMAND_OK;
		}
		layout(out, k2, a, fixed, &l);
		fail(out, COMMAND_BAD_PLACEMENT, "'%s' is a command of its own, not a placement",
		    quote(a[fixed].s, a[fixed].len, q));
		if (send_line(out, k2, &l, a, fixed, NULL, line, sizeof line))
			add_send(out, line);
		return COMMAND_BAD_PLACEMENT;
	}
	st = parse_placements(out, a[fixed].s, fix, sizeof fix);
	if (st == COMMAND_BAD_PLACEMENT && fix[0] != '\0') {
		layout(out, k, a, na, &l);
		if (send_line(out, k, &l, a, na, fix, line, sizeof line))
			add_send(out, line);
	}
	return st;
}

/* A 'B' tail: the boards a[0..n), each once; out->board the first. */
static enum command_status parse_boards(struct command *out, const struct keyword *k, const struct word *a, size_t n)
{
	enum command_status st;
	size_t i, j;

	if (n > COMMAND_BOARDS_MAX)
		return fail(out, COMMAND_USAGE, "%s takes at most %d boards, not %zu", k->name, COMMAND_BOARDS_MAX, n);
	for (i = 0; i < n; i++) {
		st = parse_board(out, &a[i], false);
		if (st != COMMAND_OK)
			return st;
		for (j = 0; j < i; j++)
			if (out->boards[j] == out->board)
				return fail(out, COMMAND_BAD_BOARD, "board %ld is given twice", out->board);
		out->boards[out->nboards++] = out->board;
	}
	out->board = n > 0 ? out->boards[0] : 0;
	return COMMAND_OK;
}

/* Parse the arguments a[0..na) by the slots of row k of g. */
static enum command_status parse_row(struct command *out, const struct command_grammar *g, const struct keyword *k,
    const struct word *a, size_t na)
{
	size_t fixed, i;
	enum command_status st = COMMAND_OK;
	char tail;
	int passwords = 0;

	tail = tail_of(k);
	fixed = strlen(k->slots) - (tail != 0);
	/* the number of words: exact without a tail; placements and a text need one more word */
	if (k->slots[0] == 'v' && na > 0 && word_is(&a[0], "new"))
		return parse_study(out, k, a, na);
	if (tail == 0 ? na != fixed : tail == 'L' || tail == 'T' ? na < fixed + 1 :
	    tail == 'C' || tail == 'W' ? na < fixed || na > fixed + 1 : na < fixed)
		return usage(out, k, a, na);
	for (i = 0; i < fixed && st == COMMAND_OK; i++)
		st = parse_slot(out, k, i, &a[i], &passwords);
	if (st != COMMAND_OK)
		return st;
	switch (tail) {
	case 'L':
		/* pbmserv's words in place of the placements: move <board> <userid> <password> undo */
		if (na == fixed + 1 && (out->offer = offer_word(&a[fixed])) != COMMAND_OFFER_NONE)
			break;
		st = parse_tail_placements(out, g, k, a, na, fixed);
		if (st == COMMAND_OK && out->syntax != NULL)
			return COMMAND_OK;	/* pbmserv's "move ... swap": the swap */
		break;
	case 'O':
		st = parse_options(out, &a[fixed], na - fixed);
		break;
	case 'N':
		st = parse_fullname(out, &a[fixed], na - fixed);
		break;
	case 'C':
		st = parse_class(out, &a[fixed], na - fixed);
		break;
	case 'T':
		/* the rest of the line as written (the line is at most COMMAND_LINE_MAX bytes) */
		snprintf(out->text, sizeof out->text, "%s", a[fixed].s);
		break;
	case 'B':
		st = parse_boards(out, k, &a[fixed], na - fixed);
		break;
	case 'W':
		/* one optional word of the synopsis's last [a|b|c]; another word may be a password: not quoted */
		if (na > fixed && !alternative(k, &a[fixed]))
			return fail(out, COMMAND_USAGE, "%s needs: %s; the last word may only be %.*s", k->name,
			    k->synopsis, (int)strcspn(strrchr(k->synopsis, '[') + 1, "]"), strrchr(k->synopsis, '[') + 1);
		if (na > fixed)
			snprintf(out->text, sizeof out->text, "%.*s", (int)a[fixed].len, a[fixed].s);
		break;
	default:
		/* '*': words after the fixed ones ("help oust") are kept in text for the command, never quoted */
		if (na > fixed)
			snprintf(out->text, sizeof out->text, "%s", a[fixed].s);
		break;
	}
	if (st != COMMAND_OK)
		return st;
	if (strchr(k->slots, 'o') != NULL && strcmp(out->userid, out->opponent) == 0)
		return fail(out, COMMAND_BAD_USERID, "%s cannot %s %s: choose another opponent",
		    out->userid, k->name, out->opponent);
	out->syntax = k;
	return COMMAND_OK;
}

/* Does row k take na arguments (a tail taking any number)? */
static bool row_fits(const struct keyword *k, size_t na)
{
	char tail = tail_of(k);
	size_t fixed = strlen(k->slots) - (tail != 0);

	return tail == 0 ? na == fixed : na >= fixed;
}

/*
 * Parse the words of out->line by the slots of its keyword; kw is the
 * keyword's index in w.  A keyword may have several rows ("subscribe
 * <board> ..." and "subscribe <userid> <password> all"): they are tried in
 * order, the first that parses wins; when none does, the error is that of
 * the first row taking as many words, else of the first row.
 */
static enum command_status parse_words(struct command *out, const struct command_grammar *g,
    const struct word *w, size_t n, size_t kw)
{
	const struct keyword *k = keyword_find(g, &w[kw]), *r, *best = NULL;
	const struct word *a = &w[kw + 1];	/* the arguments */
	size_t na = n - kw - 1, i, rows;
	enum command_status st;
	struct command *save;

	if (k == NULL && placements_only(out, w, n))
		return COMMAND_PLACEMENTS_ONLY;
	if (k == NULL)
		return unknown(out, g, &w[kw]);
	for (i = 0, rows = 0; i < g->n; i++)
		rows += strcmp(command_grammar_row(g, i)->name, k->name) == 0;
	if (rows == 1)
		return parse_row(out, g, k, a, na);
	save = malloc(sizeof *save);
	if (save == NULL)
		return fail(out, COMMAND_USAGE, "out of memory parsing the command");
	*save = *out;
	for (i = 0; i < g->n; i++) {
		r = command_grammar_row(g, i);
		if (strcmp(r->name, k->name) != 0)
			continue;
		*out = *save;
		if (parse_row(out, g, r, a, na) == COMMAND_OK) {
			free(save);
			return COMMAND_OK;
		}
		if (best == NULL || (!row_fits(best, na) && row_fits(r, na)))
			best = r;
	}
	/* again by the row whose error is told, so out holds what it parsed (the board, for the reply) */
	*out = *save;
	free(save);
	st = parse_row(out, g, best, a, na);
	return st;
}

/* ---- finding the command ---- */

/*
 * The subject without reply and forward prefixes and [tags], repeated:
 * "Re: [oust] Fwd: AW: move ..." -> "move ...".  Re[2]: and Re(2): count too.
 */
const char *command_subject_strip(const char *s)
{
	/*
	 * English, German (AW, WG), Dutch (Antw), Nordic (SV), French (TR),
	 * Italian (R, RIF), Polish (Odp); and "Oust:" before a command
	 */
	static const char *const prefixes[] = { "antw", "oust", "fwd", "rif", "odp", "enc", "re", "fw", "aw", "wg", "sv",
		"tr", "vs", "r" };
	const char *p = s, *e;
	size_t i, n;

	for (;;) {
		while (blank(*s))
			s++;
		if (*s == '[') {
			e = strchr(s, ']');
			if (e == NULL)
				return s;
			s = e + 1;
			continue;
		}
		for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
			n = strlen(prefixes[i]);
			if (strncasecmp(s, prefixes[i], n) != 0)
				continue;
			p = s + n;
			if (*p == '[' || *p == '(') {
				e = p + 1;
				while (*e >= '0' && *e <= '9')
					e++;
				if (e > p + 1 && *e == (*p == '[' ? ']' : ')'))
					p = e + 1;
			}
			while (blank(*p))
				p++;
			if (*p == ':')
				break;
		}
		if (i == sizeof prefixes / sizeof prefixes[0])
			return s;
		s = p + 1;
	}
}

/* Whether text starts with a command keyword, after an optional "oust". */
static bool starts_with_command(const struct command_grammar *g, const char *text)
{
	struct word w[2];
	size_t n = split(text, w, 2);

	return n > 0 && keyword_find(g, &w[keyword_index(w, n)]) != NULL;
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
static void unicode_blanks(char *s)
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
	unicode_blanks(out->line);
	return true;
}

/*
 * Refuse a command line holding a control character (TAB is a blank):
 * removed, it would join the words around it.  The position counts
 * characters from 1; the text before it is quoted so it can be found.
 */
static enum command_status check_controls(struct command *out, const char *s, size_t n)
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
				return fail(out, COMMAND_CONTROL, "the command line starts with a control character "
				    "(U+%04X): type the command again without it", (unsigned)(cp == UTF8_NUL_MARK ? 0 : cp));
			q[0] = '\0';
			snprintf(q, sizeof q, "%s%.*s", from > s ? "..." : "", (int)(s + i - from), from);
			return fail(out, COMMAND_CONTROL, "the command line has a control character (U+%04X) at "
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

	n = split(out->line, w, 3);
	kw = keyword_index(w, n);
	if (kw + 1 >= n || (k = keyword_find(g, &w[kw])) == NULL || (k->slots[0] != 'b' && k->slots[0] != 't'))
		return;
	blen = w[kw + 1].len;
	if (memchr(w[kw + 1].s, '#', blen) != NULL)
		blen = (size_t)((const char *)memchr(w[kw + 1].s, '#', blen) - w[kw + 1].s);
	if (ident_board_parse(w[kw + 1].s, blen, &board))
		out->board = board;
}

/* Parse the command line s[0..len) found in source into out, by the keywords of g. */
static enum command_status parse_line(struct command *out, const struct command_grammar *g,
    enum command_source source, const char *s, size_t len)
{
	struct word w[MAX_WORDS];
	size_t n;

	out->grammar = g;
	out->source = source;
	if (!set_line(out, s, len))
		return fail(out, COMMAND_TOO_LONG, "the command line is longer than %d characters",
		    COMMAND_LINE_MAX);
	if (check_controls(out, s, len) != COMMAND_OK) {
		control_board(out, g);
		return COMMAND_CONTROL;
	}
	n = split(out->line, w, MAX_WORDS);
	if (n == 0)	/* only control characters */
		return fail(out, COMMAND_EMPTY,
		    "no command found: write it in the Subject or on the first line of the mail");
	return parse_words(out, g, w, n, keyword_index(w, n));
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
	snprintf(out->error, sizeof out->error, "'%s' alone is not a command. Send: "
	    "move %ld <userid> <password> %s", placements_text(out, list, sizeof list), out->board, list);
}

/* One parse of the line s[0..len) into out, with the hints h (may be NULL). */
static enum command_status parse_hinted(struct command *out, const struct command_grammar *g,
    enum command_source source, const char *s, size_t len, const struct command_hints *h)
{
	enum command_status st;

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

	while (n > 0 && (blank(s[n - 1]) || s[n - 1] == '\r'))
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

	while (n > 0 && (blank(*p) || *p == '\r'))
		p++, n--;
	while (n > 0 && (blank(p[n - 1]) || p[n - 1] == '\r'))
		n--;
	if (n >= 2 && (p[0] == '-' || p[0] == '*') && blank(p[1]))
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

enum command_status command_parse_line(const struct command_grammar *g, enum command_source source,
    const char *s, size_t len, const struct command_hints *h, struct command *out)
{
	const char *start = s;
	enum command_status st, st2;
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

long command_subject_board(const char *stripped)
{
	char line[COMMAND_LINE_MAX + 1];
	struct word w[4];
	size_t n, i = 0;
	long board;

	snprintf(line, sizeof line, "%s", stripped);
	unicode_blanks(line);
	n = split(line, w, 4);

	if (n > 0 && word_is(&w[0], "new"))
		i = 1;	/* the Subject of a new board's mail */
	if (n >= i + 3 && word_is(&w[i], "oust") && word_is(&w[i + 1], "board") &&
	    ident_board_parse(w[i + 2].s, w[i + 2].len, &board))
		return board;
	return 0;
}

bool command_subject_chat(const char *stripped)
{
	char line[COMMAND_LINE_MAX + 1];
	struct word w[5];
	size_t n;

	snprintf(line, sizeof line, "%s", stripped);
	unicode_blanks(line);
	n = split(line, w, 5);

	return command_subject_board(stripped) > 0 && n == 5 && word_is(&w[3], "chat") && word_is(&w[4], "from");
}

bool command_line_keyword(const struct command_grammar *g, const char *s, size_t len)
{
	char line[COMMAND_LINE_MAX + 1];

	if (len > COMMAND_LINE_MAX)
		len = COMMAND_LINE_MAX;
	memcpy(line, s, len);
	line[len] = '\0';
	unicode_blanks(line);
	return starts_with_command(g, line);
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
	n = split(cmd->line, w, 3);
	kw = keyword_index(w, n);
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
	na = split(a->line, wa, MAX_WORDS);
	nb = split(b->line, wb, MAX_WORDS);
	for (i = keyword_index(wa, na), same = na - i == nb - keyword_index(wb, nb); same && i < na; i++) {
		const struct word *x = &wa[i], *y = &wb[i - keyword_index(wa, na) + keyword_index(wb, nb)];

		same = x->len == y->len && strncasecmp(x->s, y->s, x->len) == 0;
	}
	free(wa);
	return same;
}

/* ---- masking ---- */

/*
 * Is argument word i of an unparsed command (or a word after "help") kept
 * in the clear?  The brief's rule: the word in the password's position is
 * masked, and so is every word not recognisable as a keyword, a board, a
 * user id or a placement; every other word is echoed.  Where the
 * position is not certain (words are missing), a word is masked if any
 * reading left puts it where the password goes (a word too many
 * included).  The sender's accounts make most readings certain:
 * "move 101#2 bob D3" from bob's address is "bob" in the user id's place
 * and the password missing, so it is echoed whole; from an address
 * without an account, bob may be the password and is masked.  Placements
 * (mistyped ones too) and known options of the tail are kept, a full name
 * is not.
 */
static bool unparsed_keep(const struct command_grammar *g, const struct keyword *k, const struct layout *l,
    const struct word *a, size_t i)
{
	size_t j;

	if (k->slots[0] == 'v' && word_is(&a[0], "new")) {
		/* preview new <size> <placements>: the size is digits or a shape option, no password */
		if (i == 0)
			return true;
		if (i >= 2)
			return placement_word(&a[i], true);
		for (j = 0; j < a[i].len && j < 3 && a[i].s[j] >= '0' && a[i].s[j] <= '9'; j++)
			;
		return (j == a[i].len && j > 0) || option_word(&a[i]);
	}
	if (l->board && i == 0) {
		/* "101#x": a bad turn after a good board is no password either */
		const char *hash = memchr(a[0].s, '#', a[0].len);
		long b;

		return recognisable(g, &a[0]) ||
		    (hash != NULL && ident_board_parse(a[0].s, (size_t)(hash - a[0].s), &b));
	}
	if (i >= l->tail0)
		return tail_keep(l, &a[i]) || keyword_find(g, &a[i]) != NULL ||
		    (l->tail == 'C' && recognisable(g, &a[i])) || (l->tail == 'W' && i == l->tail0 && alternative(k, &a[i]));
	if (l->tail == '*' || maybe_password(l, i - l->mid0))
		return false;
	return recognisable(g, &a[i]);
}

/*
 * unparsed_keep() by every row of k's keyword: a word is kept only if no
 * row could take it for a password ("subscribe <board> <userid>
 * <password>" and "subscribe <userid> <password> all").
 */
static bool unparsed_keep_any(const struct command *cmd, const struct command_grammar *g, const struct keyword *k,
    const struct word *a, size_t na, size_t j)
{
	const struct keyword *r;
	struct layout l;
	size_t i;

	for (i = 0; i < g->n; i++) {
		r = command_grammar_row(g, i);
		if (strcmp(r->name, k->name) != 0)
			continue;
		layout(cmd, r, a, na, &l);
		if (!unparsed_keep(g, r, &l, a, j))
			return false;
	}
	return true;
}

char *command_mask(const struct command *cmd)
{
	struct word w[MAX_WORDS];
	const struct keyword *k;
	struct layout l;
	size_t n, kw, i, used = 0;
	bool keep, parsed, only_placements;
	char *res;

	n = split(cmd->line, w, MAX_WORDS);
	res = malloc(strlen(cmd->line) + 4 * n + 6);
	if (res == NULL)
		return NULL;
	res[0] = '\0';
	if (n == 0)
		return res;
	kw = keyword_index(w, n);
	k = keyword_find(cmd->grammar, &w[kw]);
	/* placements sent alone (COMMAND_PLACEMENTS_ONLY) are shown whole */
	only_placements = k == NULL;
	for (i = 0; i < n && only_placements; i++)
		only_placements = placement_word(&w[i], false);
	/*
	 * Parsed: exactly the password words are masked (help's ignored words
	 * too).  Unknown first word: only it is kept, the rest is one "****".
	 * Known keyword, not parsed: unparsed_keep() decides word by word.
	 */
	parsed = cmd->syntax != NULL;
	if (parsed)
		k = cmd->syntax;	/* the row that parsed, of a keyword's several */
	if (k != NULL)
		layout(cmd, k, &w[kw + 1], n - kw - 1, &l);
	for (i = 0; i < n; i++) {
		if (k == NULL && i > kw && !only_placements) {
			memcpy(res + used, " ****", 5);
			used += 5;
			break;
		}
		if (i <= kw || only_placements)
			keep = true;
		else if (parsed)
			/* a '*' tail (help's words, a queue's turns) is masked too */
			keep = !password_slot(k, i - kw - 1) && !(tail_of(k) == '*' && i - kw - 1 >= strlen(k->slots) - 1);
		else
			keep = unparsed_keep_any(cmd, cmd->grammar, k, &w[kw + 1], n - kw - 1, i - kw - 1);
		if (i != 0)
			res[used++] = ' ';
		if (keep) {
			memcpy(res + used, w[i].s, w[i].len);
			used += w[i].len;
		} else {
			memcpy(res + used, "****", 4);
			used += 4;
		}
	}
	res[used] = '\0';
	return res;
}

/* ---- the comment ---- */

/* Does s[0..len) hold pw (not empty)? */
static bool holds(const char *s, size_t len, const char *pw)
{
	size_t n = strlen(pw), i;

	for (i = 0; n > 0 && i + n <= len; i++)
		if (memcmp(s + i, pw, n) == 0)
			return true;
	return false;
}

/*
 * A line the comment must not pass on: one holding the sender's password
 * (anywhere, in any word), or one repeating the command: its keyword, after
 * an optional "oust", then the same board or user id.  A player who writes
 * the command in the Subject and again in the body would otherwise send the
 * password to the opponent.
 */
static bool private_line(const struct command *cmd, const char *s, size_t len)
{
	struct word w[3];
	char line[COMMAND_LINE_MAX + 1];
	size_t n, kw;
	long board;

	if (holds(s, len, cmd->password) || holds(s, len, cmd->new_password))
		return true;
	if (len > COMMAND_LINE_MAX)
		len = COMMAND_LINE_MAX;
	memcpy(line, s, len);
	line[len] = '\0';
	n = split(line, w, 3);
	kw = keyword_index(w, n);
	if (kw + 1 >= n || cmd->syntax == NULL || !word_is(&w[kw], cmd->syntax->name))
		return false;
	if (cmd->board != 0) {
		const char *hash = memchr(w[kw + 1].s, '#', w[kw + 1].len);

		return ident_board_parse(w[kw + 1].s, hash != NULL ? (size_t)(hash - w[kw + 1].s) : w[kw + 1].len,
		    &board) && board == cmd->board;
	}
	return w[kw + 1].len == strlen(cmd->userid) && strncasecmp(w[kw + 1].s, cmd->userid, w[kw + 1].len) == 0;
}

char *command_comment(const struct command *cmd, const char *body)
{
	const char *s;
	char *keep = NULL, *res = NULL;
	size_t blen, n, used = 0, start, end, cut;
	enum mailtext_kind kind;

	if (body == NULL)
		body = "";
	blen = strlen(body);
	s = body + (cmd->source == COMMAND_FROM_BODY && cmd->body_rest <= blen ? cmd->body_rest : 0);
	keep = malloc(blen + 2);
	if (keep == NULL)
		return NULL;
	/* the lines kept, each without trailing blanks */
	while (s != NULL && *s != '\0') {
		n = mailtext_line_len(s);
		kind = mailtext_kind(s, n);
		if (kind == MAILTEXT_END)
			break;
		if (kind == MAILTEXT_QUOTED2)
			s = mailtext_next(s);
		else if ((kind == MAILTEXT_TEXT || kind == MAILTEXT_BLANK) && !private_line(cmd, s, n)) {
			while (n > 0 && (blank(s[n - 1]) || s[n - 1] == '\r'))
				n--;
			memcpy(keep + used, s, n);
			used += n;
			keep[used++] = '\n';
		}
		s = mailtext_next(s);
	}
	/* without leading and trailing blank lines */
	start = 0;
	while (start < used && keep[start] == '\n')
		start++;
	end = used;
	while (end > start && keep[end - 1] == '\n')
		end--;
	res = utf8_clean(keep + start, end - start, UTF8_TEXT, 0, &n);
	if (res == NULL)
		goto out;
	cut = utf8_prefix(res, COMMAND_COMMENT_MAX);
	res[cut] = '\0';
out:
	free(keep);
	return res;
}
