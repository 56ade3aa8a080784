/* mailfind: which line of a mail is its command (mailfind.h). */
#include "mail/mailfind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mail/idmac.h"
#include "mail/mailtext.h"

#define QUOTED_LINE_MAX 90	/* bytes of a masked line quoted in an error */

/* How likely a line that did not parse was meant for the command: the error is the likeliest's. */
enum rank {
	RANK_NONE = 0,
	RANK_TEXT,		/* prose: a greeting, a sentence */
	RANK_PLACEMENTS,	/* placements alone ("D4") */
	RANK_KEYWORD		/* a keyword (or one edit from one) first: a command mistyped */
};

/* What reading the text found. */
struct scan {
	struct command *line;	/* the line being parsed */
	struct command *complete;	/* the first complete, not weak command */
	struct command *weak;	/* the first weak one (command_weak) */
	struct command *tried;	/* the likeliest line that did not parse */
	struct command *after_colon;	/* "Here is my move: move 101 ...": the first such complete command */
	struct command *subj;	/* the Subject's command, as parsed */
	enum command_result subj_st;
	bool has_complete, has_weak, has_after_colon;
	enum command_result tried_st;
	enum rank tried_rank;
	size_t lines;
};

static enum rank rank_of(const struct command_grammar *g, enum command_result st, const struct command *c,
    const char *s, size_t n)
{
	if (st == COMMAND_PLACEMENTS_ONLY)
		return RANK_PLACEMENTS;
	if (command_line_keyword(g, s, n))
		return RANK_KEYWORD;
	/* "show<NUL> 101": the line as read, the control character dropped, starts with a keyword */
	if ((st == COMMAND_CONTROL || st == COMMAND_TOO_LONG) && command_line_keyword(g, c->line, strlen(c->line)))
		return RANK_KEYWORD;
	/*
	 * "mvoe 101 ...": unknown, but one edit from a keyword, and a number
	 * (a board) after it; "Hello Bob," is one edit from help, and prose
	 */
	if (st == COMMAND_UNKNOWN && strstr(c->error, "(did you mean ") != NULL && strpbrk(c->line, "0123456789") != NULL)
		return RANK_KEYWORD;
	return RANK_TEXT;
}

/*
 * "Here is my move: move 101 alice pw C3": the words after a colon of a
 * prose line, if they start with a keyword and are a complete command (not
 * a weak one); the prose before them is never echoed.  "My move: D4":
 * placements alone, the line the error is about if no likelier one is.
 */
static void after_colon(const struct command_grammar *g, const char *s, size_t n, size_t rest,
    const struct command_hints *h, struct scan *sc)
{
	const char *colon = memchr(s, ':', n), *t;
	size_t m;

	if (colon == NULL || colon == s)
		return;
	t = colon + 1;
	while (t < s + n && (*t == ' ' || *t == '\t'))
		t++;
	m = n - (size_t)(t - s);
	if (command_line_keyword(g, s, n))
		return;
	if (!command_line_keyword(g, t, m)) {
		/* "My move: D4": placements alone, answered with the command to send */
		if (sc->tried_rank < RANK_PLACEMENTS &&
		    command_parse_line(g, COMMAND_FROM_BODY, t, m, h, sc->after_colon) == COMMAND_PLACEMENTS_ONLY) {
			*sc->tried = *sc->after_colon;
			sc->tried->body_rest = rest;
			sc->tried_st = COMMAND_PLACEMENTS_ONLY;
			sc->tried_rank = RANK_PLACEMENTS;
		}
		return;
	}
	if (command_parse_line(g, COMMAND_FROM_BODY, t, m, h, sc->after_colon) == COMMAND_OK &&
	    !command_weak(sc->after_colon)) {
		sc->after_colon->body_rest = rest;
		sc->has_after_colon = true;
	}
}

/*
 * "move 101 bob pw" and "D4,E5" on the next line: a command a mail program
 * wrapped without format=flowed.  If the next line is placements alone and
 * the two joined parse as a complete command, it is the command (true),
 * the comment after both.
 */
static bool joined(const struct command_grammar *g, const char *s, size_t n, const char *body,
    const struct command_hints *h, struct scan *sc)
{
	char line[COMMAND_LINE_MAX + 1];
	const char *next = mailtext_next(s);
	size_t m;

	if (next == NULL || !command_line_keyword(g, s, n))
		return false;
	m = mailtext_line_len(next);
	if (mailtext_kind(next, m) != MAILTEXT_TEXT || n + 1 + m > COMMAND_LINE_MAX)
		return false;
	/* only placements run on: "chat 101 bob" and "Hello there" is no password "Hello" */
	if (command_parse_line(g, COMMAND_FROM_BODY, next, m, h, sc->complete) != COMMAND_PLACEMENTS_ONLY)
		return false;	/* (sc->complete is free until has_complete: sc->line is the caller's) */
	memcpy(line, s, n);
	line[n] = ' ';
	memcpy(line + n + 1, next, m);
	line[n + 1 + m] = '\0';
	if (command_parse_line(g, COMMAND_FROM_BODY, line, n + 1 + m, h, sc->complete) != COMMAND_OK ||
	    command_weak(sc->complete))
		return false;
	sc->complete->body_rest = (size_t)(next - body) + m + (next[m] == '\n');
	sc->has_complete = true;
	return true;
}

/* Does s[0..n) end with a comma (blanks aside)? */
static bool ends_with_comma(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return n > 0 && s[n - 1] == ',';
}

/* Read the lines of the sender's own text, the first complete command ending the search. */
static void scan_text(const struct command_grammar *g, const char *body, const struct command_hints *h,
    struct scan *sc)
{
	const char *s = body;
	enum command_result st;
	enum mailtext_kind kind;
	enum rank r;
	size_t n, rest;

	while (s != NULL && *s != '\0' && sc->lines < MAILFIND_LINES_MAX) {
		n = mailtext_line_len(s);
		kind = mailtext_kind(s, n);
		if (kind == MAILTEXT_END)
			break;
		if (kind != MAILTEXT_TEXT) {
			s = mailtext_after(s, kind);
			continue;
		}
		sc->lines++;
		rest = (size_t)(s - body) + n + (s[n] == '\n');
		st = command_parse_line(g, COMMAND_FROM_BODY, s, n, h, sc->line);
		sc->line->body_rest = rest;
		if (st == COMMAND_OK && ends_with_comma(s, n) && joined(g, s, n, body, h, sc))
			return;	/* "move 101 bob pw A1,B2," and "C3" below */
		if (st == COMMAND_OK && !command_weak(sc->line)) {
			*sc->complete = *sc->line;
			sc->has_complete = true;
			return;
		}
		if (st == COMMAND_OK && !sc->has_weak) {
			*sc->weak = *sc->line;
			sc->has_weak = true;
		} else if (st != COMMAND_OK && (r = rank_of(g, st, sc->line, s, n)) > sc->tried_rank) {
			*sc->tried = *sc->line;
			sc->tried_st = st;
			sc->tried_rank = r;
		}
		if (st == COMMAND_USAGE && joined(g, s, n, body, h, sc))
			return;
		if (st != COMMAND_OK && !sc->has_after_colon)
			after_colon(g, s, n, rest, h, sc);
		s = mailtext_next(s);
	}
}

/* The masked line of c, cut to QUOTED_LINE_MAX bytes at a character, into buf. */
static const char *masked(const struct command *c, char *buf, size_t size)
{
	char *m = command_mask(c);
	size_t n;

	if (m == NULL) {
		snprintf(buf, size, "(out of memory)");
		return buf;
	}
	n = strlen(m);
	if (n > QUOTED_LINE_MAX) {
		n = QUOTED_LINE_MAX;
		while (n > 0 && ((unsigned char)m[n] & 0xc0) == 0x80)
			n--;
		snprintf(buf, size, "%.*s...", (int)n, m);
	} else {
		snprintf(buf, size, "%s", m);
	}
	free(m);
	return buf;
}

/* ". Send: move 101 <userid> <password> <placements>": the example for the Subject's board. */
static void add_example(struct command *out, long board)
{
	size_t used = strlen(out->error);

	if (board <= 0)
		return;
	out->board = board;
	snprintf(out->error + used, sizeof out->error - used, ". Send: move %ld %s <password> <placements>", board,
	    out->nsenders == 1 ? out->senders[0] : "<userid>");
}

/*
 * No line of the text is a command: the first one named, masked, and
 * where a command must stand.
 */
static enum command_result no_command(struct command *out, long board)
{
	char line[QUOTED_LINE_MAX + 4];

	masked(out, line, sizeof line);
	snprintf(out->error, sizeof out->error, "no command found: the first line of your text, '%s', is not a "
	    "command. A command must stand on a line of its own, at the start of the mail or in the Subject", line);
	add_example(out, board);
	return COMMAND_UNKNOWN;
}

static enum command_result empty(struct command *out, const struct command_grammar *g, long board)
{
	out->grammar = g;
	snprintf(out->error, sizeof out->error, "no command found: a command must stand on a line of its own, at "
	    "the start of the mail or in the Subject");
	add_example(out, board);
	return COMMAND_EMPTY;
}

/* The Subject and the text hold different commands: neither runs. */
static enum command_result conflict(struct command *out, const struct command *subj, const struct command *text)
{
	char a[QUOTED_LINE_MAX + 4], b[QUOTED_LINE_MAX + 4];

	*out = *text;
	masked(subj, a, sizeof a);
	masked(text, b, sizeof b);
	snprintf(out->error, sizeof out->error, "the Subject and the text of your mail hold two different commands: "
	    "the Subject '%s', the text '%s'. Send one of them, in the Subject or on the first line of the text",
	    a, b);
	return COMMAND_CONFLICT;
}

/* The Subject's failed command, saying that it was read (the player may think the text was). */
static enum command_result subject_error(struct command *out, const struct command *subj, enum command_result st,
    bool text)
{
	char tail[COMMAND_ERROR_MAX];
	const char *send;
	size_t elen;

	*out = *subj;
	if (!text)
		return st;
	send = strstr(out->error, ". Send: ");
	elen = send != NULL ? (size_t)(send - out->error) : strlen(out->error);
	snprintf(tail, sizeof tail, "%s", out->error + elen);
	snprintf(out->error + elen, sizeof out->error - elen,
	    " (read from the Subject; the text of the mail was not read as a command)%s", tail);
	return st;
}

/* Does the line hold a word after its keyword (and an optional "oust" before it)? */
static bool more_than_keyword(const char *line)
{
	size_t words = 0;
	bool oust;
	const char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	oust = strncasecmp(p, "oust", 4) == 0 && (p[4] == ' ' || p[4] == '\t');
	for (; *p != '\0'; p++)
		if (*p != ' ' && *p != '\t' && (p == line || p[-1] == ' ' || p[-1] == '\t'))
			words++;
	return words > (oust ? 2u : 1u);
}

/* The command of the mail from what was read: the Subject (sc->subj, sc->subj_st) and the text (sc). */
static enum command_result choose(const struct command_grammar *g, const struct mailfind_source *src,
    const struct mailfind_result *res, const char *stripped, const struct scan *sc, struct command *out)
{
	struct command *subj = sc->subj;
	enum command_result subj_st = sc->subj_st;
	bool subj_cmd = res->subject_board == 0 && command_line_keyword(g, stripped, strlen(stripped));
	bool subj_ok = subj_cmd && subj_st == COMMAND_OK, chat;

	if (subj_ok && !command_weak(subj)) {
		if (sc->has_complete && !command_same(subj, sc->complete))
			return conflict(out, subj, sc->complete);
		if (sc->has_complete) {
			*out = *sc->complete;	/* the same command: the text's, its comment after it */
			return COMMAND_OK;
		}
		*out = *subj;	/* the whole text is the comment */
		return COMMAND_OK;
	}
	if (sc->has_complete && subj_cmd && subj_st != COMMAND_OK && subj_st != COMMAND_USAGE &&
	    more_than_keyword(subj->line))
		/* "move 101 bob pw E55" above "move 101 bob pw D3": which one was meant? */
		return conflict(out, subj, sc->complete);
	if (sc->has_complete) {
		*out = *sc->complete;
		return COMMAND_OK;
	}
	if (subj_ok && sc->tried_rank <= RANK_TEXT) {
		/* a weak Subject ("Help with my move"), unless the text holds a mistyped command or placements */
		*out = *subj;
		return COMMAND_OK;
	}
	if (sc->has_after_colon && !subj_cmd) {
		*out = *sc->after_colon;
		return COMMAND_OK;
	}
	if (sc->has_weak && sc->tried_rank <= RANK_TEXT) {
		/* "help me please", unless a mistyped command or placements say what was meant */
		*out = *sc->weak;
		return COMMAND_OK;
	}
	if (subj_cmd && !subj_ok && sc->tried_rank != RANK_KEYWORD)
		return subject_error(out, subj, subj_st, sc->lines > 0);
	/*
	 * an answer to a chat mail, written as one writes an answer ("Sure!",
	 * "Show me what you have"): the chat command to send; a line starting
	 * with a keyword and naming a board is a command mistyped
	 */
	chat = (res->subject_chat || res->answered.kind == MAILFIND_CHAT) && sc->lines > 0 &&
	    (sc->tried_rank == RANK_TEXT ||
	    (sc->tried_rank == RANK_KEYWORD && strpbrk(sc->tried->line, "0123456789") == NULL));
	if (sc->tried_rank >= RANK_PLACEMENTS && !chat) {
		*out = *sc->tried;
		return sc->tried_st;
	}
	if (chat) {
		memset(out, 0, sizeof *out);
		out->grammar = g;
		out->source = COMMAND_FROM_BODY;
		out->board = res->answered.kind == MAILFIND_CHAT ? res->answered.board : res->subject_board;
		snprintf(out->error, sizeof out->error, "an answer to a chat mail holds no command");
		return COMMAND_CHAT_ANSWER;
	}
	if (sc->tried_rank == RANK_TEXT) {
		*out = *sc->tried;
		return no_command(out, res->subject_board);
	}
	if (stripped[0] != '\0' && res->subject_board == 0) {
		/* no text: the Subject ("D4", "Hello") is the line read */
		struct command_hints h = { src->senders, src->nsenders, 0 };
		enum command_result st = command_parse_line(g, COMMAND_FROM_SUBJECT, stripped, strlen(stripped), &h,
		    out);

		return st;
	}
	memset(out, 0, sizeof *out);
	if (src->nsenders > 0) {
		struct command_hints h = { src->senders, src->nsenders, 0 };

		(void)command_parse_line(g, COMMAND_FROM_NONE, "", 0, &h, out);
	}
	return empty(out, g, res->subject_board);
}

/* One to nine digits: their value into *v. */
static bool digits(const char *s, size_t n, long *v)
{
	size_t i;

	*v = 0;
	if (n == 0 || n > 9)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* A time: digits only, at least one. */
static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

bool mailfind_answered_id(const char *id, const char *own_domain, struct mailfind_answered *a)
{
	const char *at, *p[6];
	size_t np = 0, len[6], tl, k, left;
	long turns, part = 0;

	memset(a, 0, sizeof *a);
	if (id == NULL || own_domain == NULL || (at = strrchr(id, '@')) == NULL || strcasecmp(at + 1, own_domain) != 0)
		return false;
	/* the stem: the mac of a sent id (idmac.h) left out; threading is a hint, so it is not checked */
	(void)idmac_strip(id, &left);
	at = id + left;
	/* the dot-separated parts of the left side: board, turns, userid, [kind,] time */
	for (p[0] = id; np < 6;) {
		const char *dot = memchr(p[np], '.', (size_t)(at - p[np]));

		len[np] = (size_t)((dot != NULL ? dot : at) - p[np]);
		np++;
		if (dot == NULL)
			break;
		if (np == 6)
			return false;
		p[np] = dot + 1;
	}
	if (np != 4 && np != 5)
		return false;
	/* "5p2": 5 turns played and 2 placements of the next pending (a part's mail) */
	tl = len[1];
	for (k = 0; k < len[1]; k++)
		if (p[1][k] == 'p')
			tl = k;
	if (!ident_board_parse(p[0], len[0], &a->board) || !digits(p[1], tl, &turns) ||
	    (tl < len[1] && !digits(p[1] + tl + 1, len[1] - tl - 1, &part)) ||
	    !all_digits(p[np - 1], len[np - 1]) || len[2] > IDENT_USERID_MAX || part > 999)
		return false;
	a->turns = (int)turns;
	a->part = (int)part;
	memcpy(a->userid, p[2], len[2]);
	a->userid[len[2]] = '\0';
	if (!ident_userid_ok(a->userid))
		return false;
	a->kind = MAILFIND_BOARD;
	if (np == 5 && len[3] >= 4 && strncmp(p[3], "chat", 4) == 0)
		a->kind = MAILFIND_CHAT;
	else if (np == 5 && !(len[3] == 8 && strncmp(p[3], "reminder", 8) == 0))
		return false;
	return true;
}

/* What the mail answers: In-Reply-To if it is ours, else the last id of ours in References. */
static void answered(const struct mailfind_source *src, struct mailfind_answered *a)
{
	char id[256];
	const char *r, *end;
	size_t n;

	memset(a, 0, sizeof *a);
	if (mailfind_answered_id(src->in_reply_to, src->own_domain, a) || src->references == NULL)
		return;
	end = src->references + strlen(src->references);
	while (end > src->references) {
		while (end > src->references && end[-1] == ' ')
			end--;
		for (r = end; r > src->references && r[-1] != ' '; r--)
			;
		n = (size_t)(end - r);
		if (n > 0 && n < sizeof id) {
			memcpy(id, r, n);
			id[n] = '\0';
			if (mailfind_answered_id(id, src->own_domain, a))
				return;
		}
		end = r;
	}
	memset(a, 0, sizeof *a);
}

/*
 * No id of ours answered (a client that drops In-Reply-To): the quoted
 * board mail's own line "move 101#3 alice <password> <placements>" says
 * the turn it asked for, when its board is the Subject's.
 */
static void answered_by_quote(const char *body, long board, struct mailfind_answered *a)
{
	const char *s = body, *m;
	size_t n, lines = 0, u;
	long b, t;
	int used;

	for (; s != NULL && *s != '\0' && lines < MAILFIND_QUOTE_LINES_MAX; s = mailtext_next(s), lines++) {
		n = mailtext_line_len(s);
		if (memmem(s, n, "<password>", 10) == NULL || (m = memmem(s, n, "move ", 5)) == NULL)
			continue;
		used = 0;
		if (sscanf(m + 5, "%ld#%ld %n", &b, &t, &used) != 2 || used == 0 || b != board || t < 1 || t > 999999)
			continue;
		m += 5 + used;
		for (u = 0; u < IDENT_USERID_MAX && m + u < s + n && m[u] != ' '; u++)
			a->userid[u] = m[u];
		a->userid[u] = '\0';
		if (!ident_userid_ok(a->userid)) {
			a->userid[0] = '\0';
			continue;
		}
		a->kind = MAILFIND_BOARD;
		a->board = b;
		a->turns = (int)t - 1;
		return;
	}
}

/*
 * "move 101 alice <password> A5", copied from a board mail as it stands:
 * the placeholder is no password to try (it would count as a wrong one).
 */
static enum command_result placeholder(struct command *out, enum command_result st)
{
	if (st != COMMAND_OK || (strcasecmp(out->password, "<password>") != 0 &&
	    strcasecmp(out->new_password, "<password>") != 0))
		return st;
	snprintf(out->error, sizeof out->error, "<password> stands for your password: write your password in its "
	    "place");
	return COMMAND_BAD_PASSWORD;
}

enum command_result mailfind_find(const struct command_grammar *g, const struct mailfind_source *src,
    struct command *out, struct mailfind_result *res)
{
	struct mailfind_result local;
	struct command *buf;
	struct command_hints h = { src->senders, src->nsenders, 0 };
	struct scan sc;
	enum command_result st = COMMAND_EMPTY, subj_st = COMMAND_EMPTY;
	const char *stripped = command_subject_strip(src->subject != NULL ? src->subject : "");

	if (res == NULL)
		res = &local;
	memset(res, 0, sizeof *res);
	memset(&sc, 0, sizeof sc);
	res->subject_board = command_subject_board(stripped);
	res->subject_chat = command_subject_chat(stripped);
	answered(src, &res->answered);
	if (res->answered.kind == MAILFIND_NONE && res->subject_board > 0 && src->body != NULL)
		answered_by_quote(src->body, res->subject_board, &res->answered);
	h.subject_board = res->subject_board;
	buf = calloc(6, sizeof *buf);	/* large (625 placements each): not on the stack */
	if (buf == NULL) {
		memset(out, 0, sizeof *out);
		out->grammar = g;
		snprintf(out->error, sizeof out->error, "out of memory reading the command");
		return COMMAND_TOO_LONG;
	}
	sc.line = &buf[0];
	sc.complete = &buf[1];
	sc.weak = &buf[2];
	sc.tried = &buf[3];
	sc.after_colon = &buf[5];
	if (res->subject_board == 0 && command_line_keyword(g, stripped, strlen(stripped)))
		subj_st = command_parse_line(g, COMMAND_FROM_SUBJECT, stripped, strlen(stripped), &h, &buf[4]);
	if (src->body != NULL)
		scan_text(g, src->body, &h, &sc);
	res->text_lines = sc.lines;
	sc.subj = &buf[4];
	sc.subj_st = subj_st;
	st = placeholder(out, choose(g, src, res, stripped, &sc, out));
	free(buf);
	return st;
}

enum command_result mailfind_parse(const struct command_grammar *g, const char *subject, const char *body,
    struct command *out)
{
	struct mailfind_source src = { .subject = subject, .body = body };

	return mailfind_find(g, &src, out, NULL);
}

enum command_result mailfind_parse_as(const struct command_grammar *g, const char *subject, const char *body,
    const char *const *senders, size_t nsenders, struct command *out)
{
	struct mailfind_source src = { .subject = subject, .body = body, .senders = senders, .nsenders = nsenders };

	return mailfind_find(g, &src, out, NULL);
}
