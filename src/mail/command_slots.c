/* command_slots: the slot parser, a command's words by the slots of its row (command.h). */
#include "mail/command_int.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- arguments ---- */

static enum command_result parse_userid(struct command *out, const struct word *w, char *dst)
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
	return command_fail(out, COMMAND_BAD_USERID,
	    "'%s' is not a user id (1 to %d letters, digits, '_' or '-')", command_quote(w->s, w->len, q),
	    IDENT_USERID_MAX);
}

/* Passwords are never quoted back: the reply may be read by others. */
static enum command_result parse_password(struct command *out, const struct word *w, char *dst)
{
	if (w->len > COMMAND_PASSWORD_MAX)
		return command_fail(out, COMMAND_BAD_PASSWORD, "the password is longer than %d characters",
		    COMMAND_PASSWORD_MAX);
	memcpy(dst, w->s, w->len);
	dst[w->len] = '\0';
	return COMMAND_OK;
}

/* "101" or "101#7" (#turn only where allow_turn). */
static enum command_result parse_board(struct command *out, const struct word *w, bool allow_turn)
{
	const char *hash = allow_turn ? memchr(w->s, '#', w->len) : NULL;
	size_t blen = hash != NULL ? (size_t)(hash - w->s) : w->len;
	size_t tlen;
	char q[QUOTE_MAX + 4];

	if (!ident_board_parse(w->s, blen, &out->board))
		return command_fail(out, COMMAND_BAD_BOARD, "'%s' is not a board number", command_quote(w->s, blen, q));
	if (hash == NULL)
		return COMMAND_OK;
	tlen = w->len - blen - 1;
	if (command_placements_turn(hash + 1, tlen, &out->turn))
		return COMMAND_OK;
	return command_fail(out, COMMAND_BAD_TURN, "'%s' is not a turn number (#1 to #%d)",
	    command_quote(hash, tlen + 1, q), COMMAND_TURN_MAX);
}

/* Is w one of the words of k's last "[a|b|c]" (a 'W' tail)? */
bool command_slots_alternative(const struct keyword *k, const struct word *w)
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

bool command_slots_board_word(const struct word *w)
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

bool command_slots_userid_word(const struct word *w)
{
	char id[IDENT_USERID_MAX + 1];

	if (w->len > IDENT_USERID_MAX)
		return false;
	memcpy(id, w->s, w->len);
	id[w->len] = '\0';
	return ident_userid_ok(id);
}

/* The full name: the words a[0..na) joined by single spaces. */
static enum command_result parse_fullname(struct command *out, const struct word *a, size_t na)
{
	size_t i, len = 0;
	const char *why;

	for (i = 0; i < na; i++) {
		if (len + (len != 0) + a[i].len > COMMAND_FULLNAME_MAX)
			return command_fail(out, COMMAND_BAD_NAME, "the full name is longer than %d characters",
			    IDENT_FULLNAME_MAX);
		if (len != 0)
			out->fullname[len++] = ' ';
		memcpy(out->fullname + len, a[i].s, a[i].len);
		len += a[i].len;
	}
	out->fullname[len] = '\0';
	if (!ident_fullname_ok(out->fullname, &why))
		return command_fail(out, COMMAND_BAD_NAME, "the full name %s", why);
	return COMMAND_OK;
}

/* A mail address: its checks are the command's (mailaddr_deliverable, quoting it); here only its length. */
static enum command_result parse_address(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];

	if (w->len > MAILADDR_MAX)
		return command_fail(out, COMMAND_USAGE, "the address '%s' is longer than %d characters",
		    command_quote(w->s, w->len, q), MAILADDR_MAX);
	memcpy(out->new_address, w->s, w->len);
	out->new_address[w->len] = '\0';
	return COMMAND_OK;
}

/* A number of games, 0 to COMMAND_GAMES_MAX, without sign or leading zero. */
static enum command_result parse_games(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];
	size_t i;
	int n = 0;

	/* two digits at most are read: a longer word is refused without overflowing n */
	for (i = 0; i < w->len && i < 3 && w->s[i] >= '0' && w->s[i] <= '9'; i++)
		n = n * 10 + (w->s[i] - '0');
	if (w->len == 0 || w->len > 2 || i < w->len || (w->len == 2 && w->s[0] == '0') || n > COMMAND_GAMES_MAX)
		return command_fail(out, COMMAND_BAD_NUMBER, "'%s' is not a number of games (0 to %d)",
		    command_quote(w->s, w->len, q), COMMAND_GAMES_MAX);
	out->games = n;
	return COMMAND_OK;
}

/* Is w the name of a board class of g (struct command_classes)?  Its class into *c. */
bool command_slots_class_word(const struct command_grammar *g, const struct word *w, int *c)
{
	int i;

	for (i = 0; g->classes != NULL && i < g->classes->n; i++) {
		if (command_word_is(w, g->classes->name(i))) {
			*c = i;
			return true;
		}
	}
	return false;
}

/* An optional board class: a[0..na), na 0 or 1 (the caller checked). */
static enum command_result parse_class(struct command *out, const struct command_grammar *g, const struct word *a,
    size_t na)
{
	const struct command_classes *cl = g->classes;
	char q[QUOTE_MAX + 4];
	int c, i, n = cl != NULL ? cl->n : 0;
	size_t used;

	out->rating_class = -1;
	if (na == 0)
		return COMMAND_OK;
	if (command_slots_class_word(g, &a[0], &c)) {
		out->rating_class = c;
		return COMMAND_OK;
	}
	command_fail(out, COMMAND_BAD_CLASS, "there is no board class '%s': the classes are ",
	    command_quote(a[0].s, a[0].len, q));
	used = strlen(out->error);
	for (i = 0; i < n && used < sizeof out->error; i++)
		used += (size_t)snprintf(out->error + used, sizeof out->error - used, "%s%s (%s)",
		    i == 0 ? "" : i + 1 == n ? " and " : ", ", cl->name(i), cl->sizes(i));
	return COMMAND_BAD_CLASS;
}

/*
 * A 'w' slot: word w must be one of the words the synopsis of k gives as
 * its argument i ("on|off", "all"); cmd.word gets it in lower case.
 */
static enum command_result parse_literal(struct command *out, const struct keyword *k, size_t i,
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
	return command_fail(out, COMMAND_USAGE, "%s needs: %s; '%s' is not %.*s", k->name, k->synopsis,
	    command_quote(w->s, w->len, q), (int)len, p);
}

/* A tournament id: T1 to T999999, the T in either case. */
static enum command_result parse_tournament(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];
	unsigned long v = 0;
	size_t i;

	if (w->len < 2 || w->len > 7 || (w->s[0] != 'T' && w->s[0] != 't') || w->s[1] == '0')
		goto bad;
	for (i = 1; i < w->len; i++) {
		if (w->s[i] < '0' || w->s[i] > '9')
			goto bad;
		v = v * 10 + (unsigned long)(w->s[i] - '0');
	}
	out->tournament = (unsigned)v;
	return COMMAND_OK;
bad:
	return command_fail(out, COMMAND_USAGE, "'%s' is not a tournament: tournaments are T1, T2, ... "
	    "(send \"tournaments\" for the list)", command_quote(w->s, w->len, q));
}

/* One fixed slot of k's (struct command_syntax) from word w; passwords counts the 'p' slots so far. */
static enum command_result parse_slot(struct command *out, const struct keyword *k, size_t i, const struct word *w,
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
	case 'i':
		return parse_tournament(out, w);
	default:
		return command_fail(out, COMMAND_USAGE, "the grammar of %s has no slot '%c'", out->line, k->slots[i]);
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
static enum command_result parse_study_size(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4];
	int size = 0;

	if (w->len > 0 && w->s[0] != '-') {
		if (!command_options_digits(w->s, w->len, &size) || w->s[0] == '0' || size < RULES_MIN_SIZE ||
		    size > RULES_MAX_SIZE || size % 2 == 0)
			return command_fail(out, COMMAND_BAD_OPTION,
			    "'%s' is not a board size: the size must be odd, from %d "
			    "to %d (or -hex, -hex=S for a hex board of side %d to %d)", command_quote(w->s, w->len, q),
			    RULES_MIN_SIZE, RULES_MAX_SIZE, RULES_HEX_MIN_SIDE, RULES_HEX_MAX_SIDE);
		out->size = size;
		out->hex = false;
		return COMMAND_OK;
	}
	if (!command_options_shape(w))
		return command_fail(out, COMMAND_BAD_OPTION, "'%s' is not a board size: give N (odd, %d to %d), "
		    "-size=N, -hex or -hex=S", command_quote(w->s, w->len, q), RULES_MIN_SIZE, RULES_MAX_SIZE);
	return command_options_parse(out, w, 1);
}

/* "preview new <size> <placements>": a study board (out->study), no board number. */
static enum command_result parse_study(struct command *out, const struct keyword *k, const struct word *a,
    size_t na)
{
	char fix[COMMAND_LINE_MAX + 1];
	enum command_result st;

	if (na < 3)
		return command_fail(out, COMMAND_USAGE, "%s new needs: %s new <size> <placements>; missing: %s",
		    k->name, k->name, na < 2 ? "<size> <placements>" : "<placements>");
	st = parse_study_size(out, &a[1]);
	if (st != COMMAND_OK)
		return st;
	st = command_placements_parse(out, a[2].s, fix, sizeof fix);
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
static enum command_result parse_tail_placements(struct command *out, const struct command_grammar *g,
    const struct keyword *k, const struct word *a, size_t na, size_t fixed)
{
	const struct keyword *k2 = na == fixed + 1 ? command_keyword_find(g, &a[fixed]) : NULL;
	char fix[COMMAND_LINE_MAX + 1], q[QUOTE_MAX + 4];
	struct layout l;
	enum command_result st;

	if (k2 != NULL && strlen(k2->slots) == fixed && strncmp(k2->slots, k->slots, fixed) == 0) {
		if (strcmp(k2->name, PBMSERV_MOVE_ALIAS) == 0) {
			out->syntax = k2;
			return COMMAND_OK;
		}
		command_usage_layout(out, k2, a, fixed, &l);
		command_fail(out, COMMAND_BAD_PLACEMENT, "'%s' is a command of its own, not a placement",
		    command_quote(a[fixed].s, a[fixed].len, q));
		command_usage_send(out, k2, &l, a, fixed, NULL);
		return COMMAND_BAD_PLACEMENT;
	}
	st = command_placements_parse(out, a[fixed].s, fix, sizeof fix);
	if (st == COMMAND_BAD_PLACEMENT && fix[0] != '\0') {
		command_usage_layout(out, k, a, na, &l);
		command_usage_send(out, k, &l, a, na, fix);
	}
	return st;
}

/* A 'B' tail: the boards a[0..n), each once; out->board the first. */
static enum command_result parse_boards(struct command *out, const struct keyword *k, const struct word *a, size_t n)
{
	enum command_result st;
	size_t i, j;

	if (n > COMMAND_BOARDS_MAX)
		return command_fail(out, COMMAND_USAGE, "%s takes at most %d boards, not %zu", k->name,
		    COMMAND_BOARDS_MAX, n);
	for (i = 0; i < n; i++) {
		st = parse_board(out, &a[i], false);
		if (st != COMMAND_OK)
			return st;
		for (j = 0; j < i; j++)
			if (out->boards[j] == out->board)
				return command_fail(out, COMMAND_BAD_BOARD, "board %ld is given twice", out->board);
		out->boards[out->nboards++] = out->board;
	}
	out->board = n > 0 ? out->boards[0] : 0;
	return COMMAND_OK;
}

/* Parse the arguments a[0..na) by the slots of row k of g. */
static enum command_result parse_row(struct command *out, const struct command_grammar *g, const struct keyword *k,
    const struct word *a, size_t na)
{
	size_t fixed, i;
	enum command_result st = COMMAND_OK;
	char tail;
	int passwords = 0;

	tail = command_tail_of(k);
	fixed = strlen(k->slots) - (tail != 0);
	/* the number of words: exact without a tail; placements and a text need one more word */
	if (k->slots[0] == 'v' && na > 0 && command_word_is(&a[0], "new"))
		return parse_study(out, k, a, na);
	if (tail == 0 ? na != fixed : tail == 'L' || tail == 'T' ? na < fixed + 1 :
	    tail == 'C' || tail == 'W' ? na < fixed || na > fixed + 1 : na < fixed)
		return command_usage_error(out, k, a, na);
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
		st = command_options_parse(out, &a[fixed], na - fixed);
		break;
	case 'N':
		st = parse_fullname(out, &a[fixed], na - fixed);
		break;
	case 'C':
		st = parse_class(out, g, &a[fixed], na - fixed);
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
		if (na > fixed && !command_slots_alternative(k, &a[fixed]))
			return command_fail(out, COMMAND_USAGE, "%s needs: %s; the last word may only be %.*s", k->name,
			    k->synopsis, (int)strcspn(strrchr(k->synopsis, '[') + 1, "]"),
			    strrchr(k->synopsis, '[') + 1);
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
		return command_fail(out, COMMAND_BAD_USERID, "%s cannot %s %s: choose another opponent",
		    out->userid, k->name, out->opponent);
	out->syntax = k;
	return COMMAND_OK;
}

/* Does row k take na arguments (a tail taking any number)? */
static bool row_fits(const struct keyword *k, size_t na)
{
	char tail = command_tail_of(k);
	size_t fixed = strlen(k->slots) - (tail != 0);

	return tail == 0 ? na == fixed : na >= fixed;
}

/*
 * A keyword mistyped one edit from a known one ("mvoe 101 alice pw C3"):
 * when the words parse with that one, the error is that keyword and the
 * command to send ("unknown command 'mvoe' (did you mean move?) Send:
 * move 101 alice <password> C3"), every secret word (the
 * password slots, and any word that is the password parsed) as its
 * "<password>": a ready command, never one holding a secret.
 */
static void unknown_send(struct command *out, const struct command_grammar *g, const struct word *w, size_t n,
    size_t kw)
{
	const struct keyword *near = NULL, *r;
	struct word *w2 = NULL;
	struct command *try = NULL;
	char line[COMMAND_ERROR_MAX];
	size_t i, d, best = SIZE_MAX, used, len;
	bool secret;

	for (i = 0; i < g->n; i++) {
		r = command_grammar_row(g, i);
		d = ident_keyword_distance(w[kw].s, w[kw].len, r->name);
		if (d < best && ident_keyword_near(w[kw].s, w[kw].len, r->name)) {
			best = d;
			near = r;
		}
	}
	if (near == NULL || kw != 0)
		return;
	w2 = malloc(n * sizeof *w2);
	try = malloc(sizeof *try);
	if (w2 == NULL || try == NULL)
		goto out;
	memcpy(w2, w, n * sizeof *w2);
	w2[kw].s = near->name;
	w2[kw].len = strlen(near->name);
	*try = *out;
	if (command_slots_parse(try, g, w2, n, kw) != COMMAND_OK || try->syntax == NULL)
		goto out;
	used = (size_t)snprintf(line, sizeof line, "%s", near->name);
	for (i = kw + 1; i < n && used < sizeof line; i++) {
		len = w[i].len;
		secret = command_password_slot(try->syntax, i - kw - 1) ||
		    (try->password[0] != '\0' && len == strlen(try->password) && memcmp(w[i].s, try->password, len) == 0) ||
		    (try->new_password[0] != '\0' && len == strlen(try->new_password) &&
		    memcmp(w[i].s, try->new_password, len) == 0);
		used += (size_t)snprintf(line + used, sizeof line - used, " %.*s", secret ? 10 : (int)len,
		    secret ? "<password>" : w[i].s);
	}
	if (used < sizeof line) {
		/* the list of every keyword is no help to one who meant this one */
		char q[QUOTE_MAX + 4];

		command_fail(out, COMMAND_UNKNOWN, "unknown command '%s' (did you mean %s?)",
		    command_quote(w[kw].s, w[kw].len, q), near->name);
		command_usage_add_send(out, line);
	}
out:
	free(w2);
	free(try);
}

/*
 * Parse the words of out->line by the slots of its keyword; kw is the
 * keyword's index in w.  A keyword may have several rows ("subscribe
 * <board> ..." and "subscribe <userid> <password> all"): they are tried in
 * order, the first that parses wins; when none does, the error is that of
 * the first row taking as many words, else of the first row.
 */
enum command_result command_slots_parse(struct command *out, const struct command_grammar *g,
    const struct word *w, size_t n, size_t kw)
{
	const struct keyword *k = command_keyword_find(g, &w[kw]), *r, *best = NULL;
	const struct word *a = &w[kw + 1];	/* the arguments */
	size_t na = n - kw - 1, i, rows;
	enum command_result st;
	struct command *save;

	if (k == NULL && command_usage_placements_only(out, w, n))
		return COMMAND_PLACEMENTS_ONLY;
	if (k == NULL) {
		st = command_usage_unknown(out, g, &w[kw]);
		unknown_send(out, g, w, n, kw);
		return st;
	}
	for (i = 0, rows = 0; i < g->n; i++)
		rows += strcmp(command_grammar_row(g, i)->name, k->name) == 0;
	if (rows == 1)
		return parse_row(out, g, k, a, na);
	save = malloc(sizeof *save);
	if (save == NULL)
		return command_fail(out, COMMAND_USAGE, "out of memory parsing the command");
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
