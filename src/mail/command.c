/* command: find and parse the command of a mail (pbmserv shapes). */
#include "base/utf8.h"
#include "mail/command.h"

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
	case COMMAND_PLACEMENTS_ONLY: return "placements without a command";
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

/* The tail slot of k ('L', 'O', 'N', 'T', '*'), or 0. */
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

/* "101" or "101#7" (#turn only where allow_turn). */
static enum command_status parse_board(struct command *out, const struct word *w, bool allow_turn)
{
	const char *hash = allow_turn ? memchr(w->s, '#', w->len) : NULL;
	size_t blen = hash != NULL ? (size_t)(hash - w->s) : w->len;
	size_t i, tlen;
	char q[QUOTE_MAX + 4];
	long turn = 0;

	if (!ident_board_parse(w->s, blen, &out->board))
		return fail(out, COMMAND_BAD_BOARD, "'%s' is not a board number", quote(w->s, blen, q));
	if (hash == NULL)
		return COMMAND_OK;
	tlen = w->len - blen - 1;
	if (tlen == 0 || tlen > 6 || hash[1] == '0')
		goto bad;
	for (i = 1; i <= tlen; i++) {
		if (hash[i] < '0' || hash[i] > '9')
			goto bad;
		turn = turn * 10 + (hash[i] - '0');
	}
	out->turn = (int)turn;
	return COMMAND_OK;
bad:
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
 * Is text made only of placements, mistyped ones, commas and blanks?  Only
 * such text is quoted in an error: when words before are missing, the
 * placement text may hold the password.
 */
static bool placements_shape(const char *text)
{
	struct command_placement pl;
	const char *p = text, *e;

	for (;;) {
		while (blank(*p) || *p == ',')
			p++;
		if (*p == '\0')
			return true;
		for (e = p; *e != '\0' && !blank(*e) && *e != ','; e++)
			;
		if (!parse_vertex(p, (size_t)(e - p), &pl) && !near_placement(p, (size_t)(e - p)))
			return false;
		p = e;
	}
}

/* The placements: text runs to the end of the line; vertices joined by commas. */
static enum command_status parse_placements(struct command *out, const char *text)
{
	const char *p = text, *comma, *a, *b;
	char q[QUOTE_MAX + 4];
	size_t len;

	out->nplacements = 0;
	for (;;) {
		comma = strchr(p, ',');
		a = p;
		b = comma != NULL ? comma : p + strlen(p);
		while (a < b && blank(*a))
			a++;
		while (b > a && blank(b[-1]))
			b--;
		len = (size_t)(b - a);
		if (len == 0)
			return placements_shape(text) ? fail(out, COMMAND_BAD_PLACEMENT,
			    "'%s': a placement is missing between commas", quote(text, strlen(text), q)) :
			    fail(out, COMMAND_BAD_PLACEMENT, "a placement is missing between commas");
		if (out->nplacements == COMMAND_PLACEMENTS_MAX)
			return fail(out, COMMAND_BAD_PLACEMENT, "more than %d placements",
			    COMMAND_PLACEMENTS_MAX);
		if (!parse_vertex(a, len, &out->placements[out->nplacements])) {
			for (p = a; p < b && !blank(*p); p++)
				;
			/*
			 * The culprit is quoted only when it looks like a mistyped
			 * placement: words before may be missing, and then this is
			 * the password.
			 */
			if (p < b && placements_shape(text))
				return fail(out, COMMAND_BAD_PLACEMENT,
				    "'%s': placements are joined by commas, as in E5,F5", quote(a, len, q));
			if (p < b)
				return fail(out, COMMAND_BAD_PLACEMENT,
				    "placements are joined by commas, as in E5,F5, not by spaces");
			if (len > 3 && !near_placement(a, len))
				return fail(out, COMMAND_BAD_PLACEMENT,
				    "a placement is not a column letter and a row, as in E5");
			return fail(out, COMMAND_BAD_PLACEMENT, "'%s' is not a placement", quote(a, len, q));
		}
		out->nplacements++;
		if (comma == NULL)
			return COMMAND_OK;
		p = comma + 1;
	}
}

/*
 * The challenge options.  Each may be given once (two colours, or the same
 * option twice, is a mistake worth a question rather than a guess), and a
 * size is written without leading zeros, as a board number is.
 */
static enum command_status parse_options(struct command *out, const struct word *w, size_t n)
{
	char q[QUOTE_MAX + 4], q2[QUOTE_MAX + 4];
	const struct word *color = NULL, *shape = NULL, *noswap = NULL, *unrated = NULL;
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
			    "unknown option '%s' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N "
			    "or -unrated)",
			    quote(w[i].s, w[i].len, q));
		if (color != NULL && c != out->color)
			return fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose one colour",
			    quote(w[i].s, w[i].len, q), quote(color->s, color->len, q2));
		if (color != NULL)
			goto repeated;
		color = &w[i];
		out->color = c;
	}
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

/* ---- the layout of a command's words, parsed or not ---- */

/*
 * Where the argument words a[0..na) of keyword k go, for command_mask() and
 * for naming what is missing.  With enough words the positions are the
 * parser's.  With too few, the shapes decide what can be decided: a first
 * word that is no board number is taken for a missing board, and trailing
 * placements (move) or options (challenge) for the tail; the middle slots
 * (user id, password, opponent) cannot be told apart, so a middle word may
 * stand in any slot from its own index to its index plus the number of
 * words missing.  With too many words (no tail to take them) a middle word
 * may stand in any slot from its index minus the surplus to its index.
 */
struct layout {
	bool board;		/* a[0] takes the board slot */
	bool board_missing;
	char mid[4];		/* the middle slots' letters (u p o a) */
	size_t m;		/* how many middle slots */
	size_t mid0, k;		/* the middle words: a[mid0 .. mid0 + k) */
	char tail;		/* 'L', 'O', 'N', 'T', '*' or 0 */
	size_t tail0;		/* the tail words: a[tail0 .. na) */
	bool tail_missing;	/* the placements of a move */
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

static void layout(const struct keyword *k, const struct word *a, size_t na, struct layout *l)
{
	const char *s = k->slots;
	size_t fixed = 0, required, i = 0, t;

	memset(l, 0, sizeof *l);
	for (; *s != '\0'; s++) {
		if ((*s >= 'A' && *s <= 'Z') || *s == '*')
			l->tail = *s;
		else if (*s != 'b' && *s != 't')
			l->mid[l->m++] = *s;
		fixed++;
	}
	if (l->tail != 0)
		fixed--;
	required = fixed + (l->tail == 'L' || l->tail == 'T');
	if (k->slots[0] == 'b' || k->slots[0] == 't') {
		if (na > 0 && (na >= required || board_word(&a[0]))) {
			l->board = true;
			i = 1;
		} else {
			l->board_missing = true;
		}
	}
	t = na;
	if (l->tail == 'N' || l->tail == 'T') {
		t = i + l->m < na ? i + l->m : na;
	} else if (l->tail == 'L' || l->tail == 'O') {
		while (t > i && (l->tail == 'L' ? placement_word(&a[t - 1], true) : a[t - 1].s[0] == '-'))
			t--;
		l->tail_missing = l->tail == 'L' && t == na;
	}
	l->mid0 = i;
	l->k = t - i;
	l->tail0 = t;
}

/* May middle word j stand in a password slot, or be a word too many? */
static bool maybe_password(const struct layout *l, size_t j)
{
	size_t lo = l->k > l->m ? l->k - l->m : 0, hi = l->m > l->k ? l->m - l->k : 0, s;

	if (j < lo || j + hi >= l->m)
		return true;	/* a word too many: it could be anything */
	for (s = j - lo; s <= j + hi; s++)
		if (l->mid[s] == 'p')
			return true;
	return false;
}

/* The n-th "<...>" of k's usage, as in "<password>", into buf. */
static const char *slot_name(const struct keyword *k, size_t n, char *buf, size_t size)
{
	const char *p = k->synopsis, *e;

	for (;;) {
		p = strchr(p, '<');
		if (p == NULL || (e = strchr(p, '>')) == NULL) {
			snprintf(buf, size, "a word");
			return buf;
		}
		if (n-- == 0) {
			snprintf(buf, size, "%.*s", (int)(e - p + 1), p);
			return buf;
		}
		p = e;
	}
}

/*
 * "move needs: ...; missing: <userid> or <password>": the usage, naming
 * what is missing (or how many words are too many) as far as the shapes
 * of the words tell.
 */
static enum command_status usage(struct command *out, const struct keyword *k, const struct word *a, size_t na)
{
	static const char *const counts[] = { "", "one", "two", "three" };
	char what[COMMAND_ERROR_MAX], name[40];
	struct layout l;
	size_t used = 0, s, first, missing;

	layout(k, a, na, &l);
	what[0] = '\0';
#define ADD(...) (used += (size_t)snprintf(what + used, sizeof what - used, __VA_ARGS__), \
	    used = used < sizeof what ? used : sizeof what - 1)
	first = l.board || l.board_missing ? 1 : 0;
	if (l.board_missing)
		ADD("%s", slot_name(k, 0, name, sizeof name));
	if (l.k < l.m) {
		missing = l.m - l.k;
		if (used > 0)
			ADD(" ");
		if (l.k == 0) {
			for (s = 0; s < l.m; s++)
				ADD("%s%s", s > 0 ? " " : "", slot_name(k, first + s, name, sizeof name));
		} else {
			if (l.m > 2)
				ADD("%s of ", counts[missing]);
			for (s = 0; s < l.m; s++)
				ADD("%s%s", s == 0 ? "" : l.m > 2 ? " " : " or ",
				    slot_name(k, first + s, name, sizeof name));
		}
	}
	if (l.tail_missing)
		ADD("%s%s", used > 0 ? " " : "", slot_name(k, first + l.m, name, sizeof name));
#undef ADD
	if (used > 0)
		return fail(out, COMMAND_USAGE, "%s needs: %s; missing: %s", k->name, k->synopsis, what);
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
	if (parse_placements(out, text) != COMMAND_OK)
		return false;
	fail(out, COMMAND_PLACEMENTS_ONLY, "'%s' alone is not a command: to play it, send: move <board>[#turn] "
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

/* One fixed slot of k's (struct command_syntax) from word w; passwords counts the 'p' slots so far. */
static enum command_status parse_slot(struct command *out, char slot, const struct word *w, int *passwords)
{
	switch (slot) {
	case 'b':
	case 't':
		return parse_board(out, w, slot == 't');
	case 'u':
		return parse_userid(out, w, out->userid);
	case 'o':
		return parse_userid(out, w, out->opponent);
	case 'p':
		return parse_password(out, w, (*passwords)++ == 0 ? out->password : out->new_password);
	case 'a':
		return parse_address(out, w);
	default:
		return fail(out, COMMAND_USAGE, "the grammar of %s has no slot '%c'", out->line, slot);
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

/* Parse the words of out->line by the slots of its keyword; kw is the keyword's index in w. */
static enum command_status parse_words(struct command *out, const struct command_grammar *g,
    const struct word *w, size_t n, size_t kw)
{
	const struct keyword *k = keyword_find(g, &w[kw]);
	const struct word *a = &w[kw + 1];	/* the arguments */
	size_t na = n - kw - 1, fixed, i;
	enum command_status st = COMMAND_OK;
	char tail;
	int passwords = 0;

	if (k == NULL && placements_only(out, w, n))
		return COMMAND_PLACEMENTS_ONLY;
	if (k == NULL)
		return unknown(out, g, &w[kw]);
	tail = tail_of(k);
	fixed = strlen(k->slots) - (tail != 0);
	/* the number of words: exact without a tail; placements and a text need one more word */
	if (tail == 0 ? na != fixed : tail == 'L' || tail == 'T' ? na < fixed + 1 : na < fixed)
		return usage(out, k, a, na);
	for (i = 0; i < fixed && st == COMMAND_OK; i++)
		st = parse_slot(out, k->slots[i], &a[i], &passwords);
	if (st != COMMAND_OK)
		return st;
	switch (tail) {
	case 'L':
		/* pbmserv's words in place of the placements: move <board> <userid> <password> undo */
		if (na == fixed + 1 && (out->offer = offer_word(&a[fixed])) != COMMAND_OFFER_NONE)
			break;
		st = parse_placements(out, a[fixed].s);
		break;
	case 'O':
		st = parse_options(out, &a[fixed], na - fixed);
		break;
	case 'N':
		st = parse_fullname(out, &a[fixed], na - fixed);
		break;
	case 'T':
		/* the rest of the line as written (the line is at most COMMAND_LINE_MAX bytes) */
		snprintf(out->text, sizeof out->text, "%s", a[fixed].s);
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

/* ---- finding the command ---- */

/*
 * The subject without reply and forward prefixes and [tags], repeated:
 * "Re: [oust] Fwd: AW: move ..." -> "move ...".  Re[2]: and Re(2): count too.
 */
static const char *strip_subject(const char *s)
{
	static const char *const prefixes[] = { "re", "fwd", "fw", "aw" };
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
 * The first line of body that is neither blank, quoted nor the attribution
 * line of a quote (a bottom-posted reply), before a signature and before
 * the quoted mail of a top-posted reply (an Outlook header block, say);
 * NULL if none.
 */
static const char *body_command_line(const char *body, size_t *len)
{
	const char *s = body;
	enum quote_start q;
	size_t n;

	while (s != NULL && *s != '\0') {
		n = line_len(s);
		if (signature_line(s, n) || (q = quote_start(s, n)) == QUOTE_ALL)
			return NULL;
		if (q == QUOTE_LINES_2)
			s = next_line(s);
		else if (q == QUOTE_NONE && !blank_line(s, n) && !quoted_line(s, n) && !attribution_line(s, n)) {
			*len = n;
			return s;
		}
		s = next_line(s);
	}
	return NULL;
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
 * The board of a reply to a board mail, whose Subject (its prefixes
 * stripped) is pbmserv's "Oust Board N <player>", for placements sent alone.
 */
static enum command_status placements_board(struct command *out, const char *subj)
{
	char list[COMMAND_LINE_MAX + 1];
	struct word w[3];
	size_t n = split(subj, w, 3);

	if (n == 3 && word_is(&w[0], "oust") && word_is(&w[1], "board") && ident_board_parse(w[2].s, w[2].len, &out->board))
		snprintf(out->error, sizeof out->error, "'%s' alone is not a command: to play it, send: "
		    "move %ld <userid> <password> %s", placements_text(out, list, sizeof list), out->board, list);
	return COMMAND_PLACEMENTS_ONLY;
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
	if (check_controls(out, s, len) != COMMAND_OK)
		return COMMAND_CONTROL;
	n = split(out->line, w, MAX_WORDS);
	if (n == 0)	/* only control characters */
		return fail(out, COMMAND_EMPTY,
		    "no command found: write it in the Subject or on the first line of the mail");
	return parse_words(out, g, w, n, keyword_index(w, n));
}

enum command_status command_parse(const struct command_grammar *g, const char *subject, const char *body,
    struct command *out)
{
	struct command alt;
	const char *subj, *line;
	size_t len = 0, rest = 0, elen;
	enum command_status st;

	memset(out, 0, sizeof *out);
	subj = strip_subject(subject != NULL ? subject : "");
	line = body != NULL ? body_command_line(body, &len) : NULL;
	if (line != NULL) {
		rest = (size_t)(line - body) + len;
		if (body[rest] == '\n')
			rest++;
	}
	if (!starts_with_command(g, subj) && line != NULL) {
		out->body_rest = rest;
		st = parse_line(out, g, COMMAND_FROM_BODY, line, len);
		return st == COMMAND_PLACEMENTS_ONLY ? placements_board(out, subj) : st;
	}
	out->grammar = g;
	if (*subj == '\0')
		return fail(out, COMMAND_EMPTY,
		    "no command found: write it in the Subject or on the first line of the mail");
	st = parse_line(out, g, COMMAND_FROM_SUBJECT, subj, strlen(subj));
	if (st != COMMAND_USAGE || line == NULL)
		return st == COMMAND_PLACEMENTS_ONLY ? placements_board(out, subj) : st;
	/*
	 * "Subject: Oust move" above the whole command: an incomplete command
	 * in the Subject gives way to a complete one on the body's first line.
	 */
	memset(&alt, 0, sizeof alt);
	if (parse_line(&alt, g, COMMAND_FROM_BODY, line, len) == COMMAND_OK) {
		alt.body_rest = rest;
		*out = alt;
		return COMMAND_OK;
	}
	/* say which was read: the player may think the text was */
	elen = strlen(out->error);
	snprintf(out->error + elen, sizeof out->error - elen,
	    " (read from the Subject; the text of the mail was not read as a command)");
	return st;
}

/* ---- masking ---- */

/*
 * Is argument word i of an unparsed command (or a word after "help") kept
 * in the clear?  The brief's rule, read the safer way: a word is masked if
 * it may stand where the password goes (every slot the layout leaves
 * possible for it, a word too many included), and every word not
 * recognisable as a keyword, a board, a user id or a placement is masked
 * too; trailing placements of a move and known options of a challenge are
 * kept, a full name is not.  So "move 101#2 bob D3" is logged as
 * "move 101#2 **** D3": bob may be the password when the user id is the
 * word missing.
 */
static bool unparsed_keep(const struct command_grammar *g, const struct keyword *k, const struct layout *l,
    const struct word *a, size_t i)
{
	if (l->board && i == 0) {
		/* "101#x": a bad turn after a good board is no password either */
		const char *hash = memchr(a[0].s, '#', a[0].len);
		long b;

		return recognisable(g, &a[0]) ||
		    (hash != NULL && ident_board_parse(a[0].s, (size_t)(hash - a[0].s), &b));
	}
	if (i >= l->tail0)
		return (l->tail == 'L' && placement_word(&a[i], true)) || (l->tail == 'O' && option_word(&a[i]));
	if (l->tail == '*' || maybe_password(l, i - l->mid0))
		return false;
	return recognisable(g, &a[i]);
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
	if (k != NULL)
		layout(k, &w[kw + 1], n - kw - 1, &l);
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
			keep = unparsed_keep(cmd->grammar, k, &l, &w[kw + 1], i - kw - 1);
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
	enum quote_start q;

	if (body == NULL)
		body = "";
	blen = strlen(body);
	s = body + (cmd->source == COMMAND_FROM_BODY && cmd->body_rest <= blen ? cmd->body_rest : 0);
	keep = malloc(blen + 2);
	if (keep == NULL)
		return NULL;
	/* the lines kept, each without trailing blanks */
	while (s != NULL && *s != '\0') {
		n = line_len(s);
		if (signature_line(s, n) || (q = quote_start(s, n)) == QUOTE_ALL)
			break;
		if (q == QUOTE_LINES_2)
			s = next_line(s);
		else if (q == QUOTE_NONE && !quoted_line(s, n) && !attribution_line(s, n) && !private_line(cmd, s, n)) {
			while (n > 0 && (blank(s[n - 1]) || s[n - 1] == '\r'))
				n--;
			memcpy(keep + used, s, n);
			used += n;
			keep[used++] = '\n';
		}
		s = next_line(s);
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
