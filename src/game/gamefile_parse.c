/*
 * gamefile: the parsers' entry points and what they share: the reading of
 * lines and tokens, the names of the header's values (gamefile_int.h).
 * The header, the drawing and the history are read by gamefile_header.c,
 * gamefile_board.c and gamefile_history.c, checked against each other by
 * gamefile_check.c.
 */
#include "game/gamefile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "game/gamefile_int.h"
#include "game/gameclock.h"

const char *const gamefile_key_names[NKEYS] = {
	"board", "size", "swap", "black", "white", "status", "end", "to-move", "turn",
	"created", "last-move", "thread", "remind", "robot-level", "shape", "rated", "open-challenge", "observers", "notify",
	"remind-days", "timeout-days", "queue", "pending", "clock", "clock-black", "clock-white", "weekends", "warned", "tournament"
};

const char *const gamefile_status_names[4] = { "playing", "black-won", "white-won", "drawn" };
const char *const gamefile_end_names[NENDS] = { "", "capture", "resign", "timeout", "no-placements", "agreement" };

/* ---- errors ---- */

enum game_status gamefile_fail(struct gamefile_error *err, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	err->line = line;
	n = snprintf(err->msg, sizeof(err->msg), "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return GAME_BAD_FILE;
}

/* The culprit s[0..n) for a message: at most 48 bytes, anything unprintable as '?'. */
const char *gamefile_quote(char buf[QUOTE_SIZE], const char *s, size_t n)
{
	size_t i, m = n > 48 ? 45 : n;

	for (i = 0; i < m; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (m < n)
		memcpy(buf + m, "...", 3), m += 3;
	buf[m] = '\0';
	return buf;
}


/* Next line: 1, or 0 at the end of the text, or -1 with err set. */
int gamefile_next_line(struct reader *r, struct gamefile_error *err)
{
	const char *nl;

	if (r->p >= r->end)
		return 0;
	r->line++;
	nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
	r->s = r->p;
	r->n = (size_t)((nl != NULL ? nl : r->end) - r->p);
	r->p = nl != NULL ? nl + 1 : r->end;
	if (r->n > GAMEFILE_LINE_MAX) {
		gamefile_fail(err, r->line, "line longer than %d bytes", GAMEFILE_LINE_MAX);
		return -1;
	}
	if (memchr(r->s, '\0', r->n) != NULL) {
		gamefile_fail(err, r->line, "NUL byte in the line");
		return -1;
	}
	while (r->n > 0 && (r->s[r->n - 1] == ' ' || r->s[r->n - 1] == '\t' ||
	    r->s[r->n - 1] == '\r'))
		r->n--;
	return 1;
}

/* Next line that is not blank: 1, 0 at the end, -1 on error. */
int gamefile_next_nonblank(struct reader *r, struct gamefile_error *err)
{
	int k;

	while ((k = gamefile_next_line(r, err)) == 1 && r->n == 0)
		;
	return k;
}

/* Next blank-separated token of s[*i..n): true with *tok, *tn. */
bool gamefile_token(const char *s, size_t n, size_t *i, const char **tok, size_t *tn)
{
	size_t j;

	while (*i < n && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	if (*i >= n)
		return false;
	j = *i;
	while (*i < n && s[*i] != ' ' && s[*i] != '\t')
		(*i)++;
	*tok = s + j;
	*tn = *i - j;
	return true;
}

bool gamefile_eq(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* A decimal number without sign or leading zero, at most max; -1 otherwise. */
long gamefile_number(const char *s, size_t n, long max)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 9 || (s[0] == '0' && n > 1))
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= max ? v : -1;
}

/* A user id s[0..n) into name (folded); false if it is not one. */
bool gamefile_userid(const char *s, size_t n, char name[GAME_NAME_SIZE])
{
	if (n == 0 || n > IDENT_USERID_MAX)
		return false;
	memcpy(name, s, n);
	name[n] = '\0';
	if (!ident_userid_ok(name))
		return false;
	ident_userid_fold(name);
	return true;
}


/* Start a parse of the len bytes of text at its header: everything cleared, then the header read. */
static enum game_status start(const char *text, size_t len, struct reader *r, struct header *h,
    struct game *out, struct gamefile_error *err)
{
	*r = (struct reader){ text, text + len, 0, text, 0 };
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	memset(h, 0, sizeof(*h));
	return gamefile_header_parse(r, h, out, err);
}

enum game_status gamefile_parse(const char *text, size_t len, struct game *out,
    struct gamefile_error *err)
{
	struct gamefile_error dummy;
	struct reader r;
	struct header h;
	struct rules_board *b = NULL;
	enum game_status st;
	bool swapped = false;

	if (err == NULL)
		err = &dummy;
	b = malloc(sizeof(*b));
	if (b == NULL) {
		memset(err, 0, sizeof(*err));
		memset(out, 0, sizeof(*out));
		st = GAME_NO_MEMORY;
		goto out;
	}
	st = start(text, len, &r, &h, out, err);
	if (st == GAME_OK)
		st = gamefile_board_parse(&r, out, b, err);
	if (st == GAME_OK)
		st = gamefile_history_parse(&r, out, b, &swapped, err);
	if (st == GAME_OK)
		st = gamefile_check_settle(out, &h, b, swapped, err);
	if (st == GAME_OK)
		gameclock_mark(out);	/* how the clocks stand as read: a turn settles them (gameclock.h) */
out:
	free(b);
	if (st == GAME_NO_MEMORY)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (st != GAME_OK)
		game_release(out);
	return st;
}

enum game_status gamefile_parse_header(const char *text, size_t len, struct game *out,
    struct gamefile_error *err)
{
	struct gamefile_error dummy;
	struct reader r;
	struct header h;
	enum game_status st;

	if (err == NULL)
		err = &dummy;
	st = start(text, len, &r, &h, out, err);
	if (st != GAME_OK) {
		memset(out, 0, sizeof(*out));
		return st;
	}
	out->rg.result = h.result;
	out->rg.to_move = h.result == RULES_PLAYING ? h.to_move : RULES_EMPTY;
	out->rg.turn = h.turn;
	out->rg.swap_enabled = out->swap;
	gameclock_mark(out);
	return GAME_OK;
}

