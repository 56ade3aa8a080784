/* command_placements: the placements of a move, mistyped ones and their one reading (command.h). */
#include "mail/command_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The digits d[0..n) of a #turn: 1 to COMMAND_TURN_MAX without a leading zero, into *turn. */
bool command_placements_turn(const char *d, size_t n, int *turn)
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

/*
 * A vertex: a letter A..Z, then a number 1..25 without a leading zero.  I
 * is no column of a square board but a row of a hex one: the board decides.
 */
static bool command_placements_vertex(const char *s, size_t len, struct command_placement *p)
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
	if (row > RULES_MAX_SIZE)
		return false;
	p->x = c == 'I' ? -1 : c - 'A' - (c > 'I' ? 1 : 0);
	p->y = row - 1;
	snprintf(p->name, sizeof p->name, "%c%d", c, row);
	return true;
}

/* A letter and one to three digits ("I5", "E55", "Z100"): a mistyped placement, safe to quote. */
static bool command_placements_near(const char *s, size_t len)
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
static bool command_placements_fix(const char *s, size_t len, char *fix, size_t size)
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
		if (command_placements_vertex(v, j + 1, &p)) {
			snprintf(fix, size, "%s", p.name);
			return true;
		}
		return false;
	}
	/* vertices run together: "E5F5", "a1b12" */
	while (i < len) {
		for (j = i + 1; j < len && j < i + 3 && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (!command_placements_vertex(s + i, j - i, &p) || used + 5 > size)
			return false;
		used += (size_t)snprintf(fix + used, size - used, "%s%s", n++ > 0 ? "," : "", p.name);
		i = j;
	}
	return n >= 2;
}

/* A word of one letter ("b" of "b 3") or of one to three digits ("3"). */
bool command_placements_lone_letter(const char *s, size_t len)
{
	return len == 1 && ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'));
}

bool command_placements_lone_number(const char *s, size_t len)
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

	return hash != NULL && command_placements_vertex(s, (size_t)(hash - s), p) &&
	    command_placements_turn(hash + 1, len - (size_t)(hash - s) - 1, turn);
}

/*
 * Is text made only of placements, mistyped ones, commas and blanks?  Only
 * such text is quoted in an error: when words before are missing, the
 * placement text may hold the password.
 */
bool command_placements_shape(const char *text)
{
	struct command_placement pl;
	const char *p = text, *e;
	char fix[16];
	int t;

	for (;;) {
		while (command_blank(*p) || *p == ',')
			p++;
		if (*p == '\0')
			return true;
		for (e = p; *e != '\0' && !command_blank(*e) && *e != ','; e++)
			;
		if (!command_placements_vertex(p, (size_t)(e - p), &pl) &&
		    !command_placements_near(p, (size_t)(e - p)) &&
		    !command_placements_fix(p, (size_t)(e - p), fix, sizeof fix) &&
		    !command_placements_lone_letter(p, (size_t)(e - p)) &&
		    !command_placements_lone_number(p, (size_t)(e - p)) && !vertex_turn(p, (size_t)(e - p), &pl, &t))
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
enum command_result command_placements_parse(struct command *out, const char *text, char *fix, size_t fixsize)
{
	const char *p = text, *e, *bad = NULL, *n2, *n2e;
	char q[QUOTE_MAX + 4], one[COMMAND_LINE_MAX + 1], meant[COMMAND_LINE_MAX + 1],
	    badfix[COMMAND_LINE_MAX + 1] = "";
	struct command_placement pl;
	size_t len, badlen = 0, used = 0;
	bool token_since_comma = false, fixable = true;
	enum { TYPO_NONE, TYPO_REVERSED, TYPO_JOINED, TYPO_SPLIT } typo = TYPO_NONE;
	int turn = 0;

	fix[0] = '\0';
	meant[0] = '\0';
	out->nplacements = 0;
	for (;;) {
		while (command_blank(*p))
			p++;
		if (*p == ',') {
			if (!token_since_comma)
				return command_placements_shape(text) ? command_fail(out, COMMAND_BAD_PLACEMENT,
				    "'%s': a placement is missing between commas",
				    command_quote(text, strlen(text), q)) :
				    command_fail(out, COMMAND_BAD_PLACEMENT, "a placement is missing between commas");
			token_since_comma = false;
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && !command_blank(*e) && *e != ','; e++)
			;
		len = (size_t)(e - p);
		token_since_comma = true;
		if (out->nplacements == COMMAND_PLACEMENTS_MAX)
			return command_fail(out, COMMAND_BAD_PLACEMENT, "more than %d placements",
			    COMMAND_PLACEMENTS_MAX);
		if (command_placements_vertex(p, len, &out->placements[out->nplacements])) {
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
			if (command_placements_lone_letter(p, len) &&
			    command_placements_lone_number(n2, (size_t)(n2e - n2)) &&
			    (size_t)(n2e - n2) + 1 < sizeof one) {
				/* "b 3": one placement cut in two */
				one[0] = p[0];
				memcpy(one + 1, n2, (size_t)(n2e - n2));
				one[1 + n2e - n2] = '\0';
				if (!command_placements_vertex(one, (size_t)(n2e - n2) + 1, &pl))
					fixable = false;
				else
					snprintf(one, sizeof one, "%s", pl.name);
				if (bad == p) {
					badlen = (size_t)(n2e - p);
					typo = TYPO_SPLIT;
				}
				e = n2e;
			} else if (command_placements_fix(p, len, one, sizeof one)) {
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
		return command_fail(out, COMMAND_BAD_PLACEMENT, "no placement given");
	if (bad == NULL) {
		if (turn != 0 && out->turn != 0 && turn != out->turn)
			return command_fail(out, COMMAND_BAD_TURN,
			    "two turn numbers: #%d after the board and #%d after the " "placements", out->turn, turn);
		if (turn != 0)
			out->turn = turn;
		return COMMAND_OK;
	}
	out->nplacements = 0;
	if (fixable && typo != TYPO_NONE && used < sizeof meant && used < fixsize) {
		memcpy(fix, meant, used + 1);
		if (typo == TYPO_SPLIT)
			return command_fail(out, COMMAND_BAD_PLACEMENT,
			    "'%s' is one placement cut in two: did you mean %s?",
			    command_quote(bad, badlen, q), badfix);
		if (typo == TYPO_REVERSED)
			return command_fail(out, COMMAND_BAD_PLACEMENT,
			    "'%s': the column letter comes first: did you mean %s?",
			    command_quote(bad, badlen, q), badfix);
		return command_fail(out, COMMAND_BAD_PLACEMENT,
		    "'%s': placements are joined by commas: did you mean %s?", command_quote(bad, badlen, q), badfix);
	}
	/*
	 * The culprit is quoted only when the whole text looks like
	 * placements: words before may be missing, and then this is the
	 * password.
	 */
	if (!command_placements_shape(text) &&
	    (text[strcspn(text, " \t")] != '\0' || (badlen > 3 && !command_placements_near(bad, badlen))))
		return command_fail(out, COMMAND_BAD_PLACEMENT,
		    "a placement is not a column letter and a row, as in E5");
	return command_fail(out, COMMAND_BAD_PLACEMENT, "'%s' is not a placement", command_quote(bad, badlen, q));
}

/*
 * "E5", "E5,F5", "E5,", ",F5", ",": the shapes of a placement list cut at
 * spaces; with near, mistyped placements ("E55") count too.
 */
bool command_placements_word(const struct word *w, bool near)
{
	struct command_placement p;
	size_t i = 0, j;

	while (i < w->len) {
		for (j = i; j < w->len && w->s[j] != ','; j++)
			;
		if (j > i && !command_placements_vertex(w->s + i, j - i, &p) &&
		    !(near && command_placements_near(w->s + i, j - i)))
			return false;
		i = j + 1;
	}
	return w->len > 0;
}

/* The placements of out, joined by commas, into buf. */
const char *command_placements_text(const struct command *out, char *buf, size_t size)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < out->nplacements && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? "," : "", out->placements[i].name);
	return buf;
}
