/*
 * gamefile: the game file codec, text <-> struct game.  See gamefile.h and
 * doc/game-file.md for the format.
 */
#include "game/gamefile.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "base/msgid.h"
#include "game/board.h"

#define HEADER_COMMENT "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md"
#define TIME_MAX GAMEFILE_TIME_MAX
#define QUOTE_SIZE 56
#define CAPTURED "captured:"	/* the optional sixth field of a history line */
#define CAPTURED_LEN 9

/* ---- times ---- */

/*
 * Days since 1970-01-01 of a proleptic Gregorian date, and back (the
 * algorithms of H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
 * Plain arithmetic rather than timegm()/gmtime_r(): a game file holds a
 * time per turn and loading must stay fast; the tests check it against them.
 */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* Write v as exactly n digits at s. */
static void put_digits(char *s, int v, int n)
{
	while (n-- > 0) {
		s[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

int64_t gamefile_time_add(int64_t t, int64_t secs)
{
	return t > TIME_MAX - secs ? TIME_MAX : t + secs;
}

char *gamefile_time_str(int64_t t, char buf[GAMEFILE_TIME_SIZE])
{
	int64_t secs = t % 86400;
	int y, m, d;

	assert(t >= 0 && t <= TIME_MAX);
	civil_from_days(t / 86400, &y, &m, &d);
	memcpy(buf, "0000-00-00T00:00:00Z", GAMEFILE_TIME_SIZE);
	put_digits(buf, y, 4);
	put_digits(buf + 5, m, 2);
	put_digits(buf + 8, d, 2);
	put_digits(buf + 11, (int)(secs / 3600), 2);
	put_digits(buf + 14, (int)(secs / 60 % 60), 2);
	put_digits(buf + 17, (int)(secs % 60), 2);
	return buf;
}

/* The n digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

bool gamefile_time_parse(const char *s, size_t len, int64_t *out)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, mon, day, hour, min, sec;
	bool leap;

	if (len != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != 'Z')
		return false;
	year = digits(s, 4), mon = digits(s + 5, 2), day = digits(s + 8, 2);
	hour = digits(s + 11, 2), min = digits(s + 14, 2), sec = digits(s + 17, 2);
	if (year < 1970 || mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1] ||
	    hour < 0 || hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 59)
		return false;
	leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	if (mon == 2 && day == 29 && !leap)
		return false;
	*out = days_from_civil(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
	return true;
}

/* ---- errors ---- */

static enum gamefile_status fail(struct gamefile_error *err, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum gamefile_status fail(struct gamefile_error *err, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	err->line = line;
	n = snprintf(err->msg, sizeof(err->msg), "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return GAMEFILE_BAD;
}

/* The culprit s[0..n) for a message: at most 48 bytes, anything unprintable as '?'. */
static const char *quote(char buf[QUOTE_SIZE], const char *s, size_t n)
{
	size_t i, m = n > 48 ? 45 : n;

	for (i = 0; i < m; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (m < n)
		memcpy(buf + m, "...", 3), m += 3;
	buf[m] = '\0';
	return buf;
}

/* ---- lines and tokens ---- */

struct reader {
	const char *p, *end;
	int line;		/* number of the current line, from 1 */
	const char *s;		/* the current line, without its newline and trailing blanks */
	size_t n;
};

/* Next line: 1, or 0 at the end of the text, or -1 with err set. */
static int next_line(struct reader *r, struct gamefile_error *err)
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
		fail(err, r->line, "line longer than %d bytes", GAMEFILE_LINE_MAX);
		return -1;
	}
	if (memchr(r->s, '\0', r->n) != NULL) {
		fail(err, r->line, "NUL byte in the line");
		return -1;
	}
	while (r->n > 0 && (r->s[r->n - 1] == ' ' || r->s[r->n - 1] == '\t' ||
	    r->s[r->n - 1] == '\r'))
		r->n--;
	return 1;
}

/* Next line that is not blank: 1, 0 at the end, -1 on error. */
static int next_nonblank(struct reader *r, struct gamefile_error *err)
{
	int k;

	while ((k = next_line(r, err)) == 1 && r->n == 0)
		;
	return k;
}

/* Next blank-separated token of s[*i..n): true with *tok, *tn. */
static bool token(const char *s, size_t n, size_t *i, const char **tok, size_t *tn)
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

static bool eq(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

/* A decimal number without sign or leading zero, at most max; -1 otherwise. */
static long number(const char *s, size_t n, long max)
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
static bool userid(const char *s, size_t n, char name[GAME_NAME_SIZE])
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

/* ---- the header ---- */

enum key {
	K_BOARD, K_SIZE, K_SWAP, K_BLACK, K_WHITE, K_STATUS, K_END, K_TO_MOVE, K_TURN,
	K_CREATED, K_LAST_MOVE, K_THREAD, K_REMIND, K_ROBOT_LEVEL, K_SHAPE, K_RATED, K_OPENED, K_OBSERVERS, K_NOTIFY,
	K_REMIND_DAYS, K_TIMEOUT_DAYS, K_QUEUE, K_PENDING, NKEYS
};

static const char *const key_names[NKEYS] = {
	"board", "size", "swap", "black", "white", "status", "end", "to-move", "turn",
	"created", "last-move", "thread", "remind", "robot-level", "shape", "rated", "open-challenge", "observers", "notify",
	"remind-days", "timeout-days", "queue", "pending"
};

struct header {
	int line[NKEYS];	/* where each key is, 0 if absent */
	enum rules_result result;
	enum rules_color to_move;
	int turn;
};

static const char *const status_names[] = { "playing", "black-won", "white-won", "drawn" };
static const char *const end_names[] = { "", "capture", "resign", "timeout", "no-placements", "agreement" };
#define NENDS 6

/* "observers: carol dave" or "notify: erin": user ids separated by spaces, each once. */
static enum gamefile_status observers_value(struct reader *r, const char *v, size_t n, bool results,
    struct game *g, struct gamefile_error *err)
{
	char q[QUOTE_SIZE], name[GAME_NAME_SIZE];
	size_t w;

	for (;;) {
		while (n > 0 && (*v == ' ' || *v == '\t'))
			v++, n--;
		if (n == 0)
			return GAMEFILE_OK;
		for (w = 0; w < n && v[w] != ' ' && v[w] != '\t'; w++)
			;
		if (!userid(v, w, name))
			return fail(err, r->line, "bad user id '%s'", quote(q, v, w));
		if (game_observer_find(g, name) >= 0)
			return fail(err, r->line, "%s observes the board twice", name);
		if (!game_observer_add(g, name, results))
			return fail(err, r->line, "more than %d observers", GAME_OBSERVERS_MAX);
		v += w;
		n -= w;
	}
}

static enum gamefile_status header_value(struct reader *r, enum key k, const char *v, size_t n,
    struct header *h, struct game *g, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	long x;
	int j;

	switch (k) {
	case K_BOARD:
		if (!ident_board_parse(v, n, &g->board))
			return fail(err, r->line, "bad board id '%s'", quote(q, v, n));
		break;
	case K_SIZE:
		/* Its range depends on the shape, which may come later: see parse_header(). */
		x = number(v, n, 999);
		if (x < 0)
			return fail(err, r->line, "bad size '%s'", quote(q, v, n));
		g->size = (int)x;
		break;
	case K_SHAPE:
		if (eq(v, n, "hex"))
			g->shape = RULES_HEX;
		else if (eq(v, n, "square"))
			g->shape = RULES_SQUARE;
		else
			return fail(err, r->line, "shape must be square or hex, not '%s'", quote(q, v, n));
		break;
	case K_RATED:
		/* only "no" is ever written: a file without the key is a rated game */
		if (eq(v, n, "no"))
			g->unrated = true;
		else if (eq(v, n, "yes"))
			g->unrated = false;
		else
			return fail(err, r->line, "rated must be yes or no, not '%s'", quote(q, v, n));
		break;
	case K_SWAP:
		if (eq(v, n, "on"))
			g->swap = true;
		else if (eq(v, n, "off"))
			g->swap = false;
		else
			return fail(err, r->line, "swap must be on or off, not '%s'", quote(q, v, n));
		break;
	case K_BLACK:
	case K_WHITE:
		/* "*": the open seat of an open challenge (game.h) */
		if (eq(v, n, GAME_OPEN_SEAT))
			snprintf(k == K_BLACK ? g->black : g->white, GAME_NAME_SIZE, "%s", GAME_OPEN_SEAT);
		else if (!userid(v, n, k == K_BLACK ? g->black : g->white))
			return fail(err, r->line, "bad user id '%s'", quote(q, v, n));
		break;
	case K_STATUS:
		for (j = 0; j < 4 && !eq(v, n, status_names[j]); j++)
			;
		if (j == 4)
			return fail(err, r->line, "unknown status '%s'", quote(q, v, n));
		h->result = (enum rules_result)j; /* same order as enum rules_result */
		break;
	case K_END:
		for (j = 1; j < NENDS && !eq(v, n, end_names[j]); j++)
			;
		if (j == NENDS)
			return fail(err, r->line, "unknown end '%s'", quote(q, v, n));
		g->end = (enum game_end)j;
		break;
	case K_TO_MOVE:
		if (eq(v, n, "black"))
			h->to_move = RULES_BLACK;
		else if (eq(v, n, "white"))
			h->to_move = RULES_WHITE;
		else
			return fail(err, r->line, "to-move must be black or white, not '%s'",
			    quote(q, v, n));
		break;
	case K_TURN:
		x = number(v, n, GAME_MAX_TURNS + 1);
		if (x < 1)
			return fail(err, r->line, "bad turn '%s'", quote(q, v, n));
		h->turn = (int)x;
		break;
	case K_CREATED:
	case K_LAST_MOVE:
		if (!gamefile_time_parse(v, n, k == K_CREATED ? &g->created : &g->last_move))
			return fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
			    quote(q, v, n));
		break;
	case K_REMIND:
		if (!gamefile_time_parse(v, n, &g->remind))
			return fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
			    quote(q, v, n));
		break;
	case K_ROBOT_LEVEL:
		/* the robot player's level: robot.h, ai.h's AI_MIN_LEVEL..AI_MAX_LEVEL */
		x = number(v, n, 9);
		if (x < GAME_ROBOT_LEVEL_MIN || x > GAME_ROBOT_LEVEL_MAX)
			return fail(err, r->line, "robot-level must be %d to %d, not '%s'", GAME_ROBOT_LEVEL_MIN,
			    GAME_ROBOT_LEVEL_MAX, quote(q, v, n));
		g->robot_level = (int)x;
		break;
	case K_REMIND_DAYS:
	case K_TIMEOUT_DAYS:
		/* the board's own time limits (challenge -remind=, -timeout=): game.h's ranges */
		x = number(v, n, 99999);
		if (x < 1 || x > (k == K_REMIND_DAYS ? GAME_REMIND_DAYS_MAX : GAME_TIMEOUT_DAYS_MAX))
			return fail(err, r->line, "%s must be 1 to %d, not '%s'", key_names[k],
			    k == K_REMIND_DAYS ? GAME_REMIND_DAYS_MAX : GAME_TIMEOUT_DAYS_MAX, quote(q, v, n));
		if (k == K_REMIND_DAYS)
			g->remind_days = (int)x;
		else
			g->timeout_days = (int)x;
		break;
	case K_QUEUE:
		/* "alice E5=>F6;swap=>C3": the owner, then the lines, read against the board in settle() */
		for (x = 0; x < (long)n && v[x] != ' '; x++)
			;
		if (!userid(v, (size_t)x, g->queue_owner))
			return fail(err, r->line, "queue: bad user id '%s'", quote(q, v, (size_t)x));
		while (x < (long)n && v[x] == ' ')
			x++;
		if (n - (size_t)x == 0 || n - (size_t)x > GAME_QUEUE_MAX)
			return fail(err, r->line, "queue: the lines after the owner are missing or longer than %d bytes",
			    GAME_QUEUE_MAX);
		memcpy(g->queue, v + x, n - (size_t)x);
		g->queue[n - (size_t)x] = '\0';
		break;
	case K_PENDING:
		/* "D4,E5": the part of the turn in progress sent by reply token, read against the board in settle() */
		if (n == 0 || n > GAME_PENDING_MAX || strspn(v, "ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789,") < n)
			return fail(err, r->line, "pending: want placements joined by commas, at most %d bytes, not "
			    "'%s'", GAME_PENDING_MAX, quote(q, v, n));
		memcpy(g->pending, v, n);
		g->pending[n] = '\0';
		break;
	case K_THREAD:
		/* a Message-ID with its brackets, in msgid.h's grammar, or nothing */
		if (n > GAME_THREAD_MAX || (n > 0 && !msgid_bracketed_ok(v, n)))
			return fail(err, r->line, "bad thread '%s' (want a Message-ID, <id-left@id-right>, "
			    "RFC 5322)", quote(q, v, n));
		memcpy(g->thread, v, n);
		g->thread[n] = '\0';
		break;
	case K_OPENED:
		/* only "yes" is ever written: an open challenge someone took */
		if (eq(v, n, "yes"))
			g->opened = true;
		else if (eq(v, n, "no"))
			g->opened = false;
		else
			return fail(err, r->line, "open-challenge must be yes or no, not '%s'", quote(q, v, n));
		break;
	case K_OBSERVERS:
	case K_NOTIFY:
		return observers_value(r, v, n, k == K_NOTIFY, g, err);
	case NKEYS:
		break;
	}
	return GAMEFILE_OK;
}

static enum gamefile_status parse_header(struct reader *r, struct header *h, struct game *g,
    struct gamefile_error *err)
{
	static const enum key required[] = {
		K_BOARD, K_SIZE, K_SWAP, K_BLACK, K_WHITE, K_STATUS, K_TURN, K_CREATED, K_LAST_MOVE
	};
	enum gamefile_status st;
	const char *colon, *v;
	char q[QUOTE_SIZE];
	size_t i, n;
	int k;
	bool started = false;

	for (;;) {
		k = next_line(r, err);
		if (k < 0)
			return GAMEFILE_BAD;
		if (k == 0)
			return fail(err, r->line > 0 ? r->line : 1,
			    "unexpected end of file in the header");
		if (r->n == 0) {
			if (started)
				break;
			continue;
		}
		started = true;
		if (r->s[0] == '#')
			continue;
		colon = memchr(r->s, ':', r->n);
		if (colon == NULL)
			return fail(err, r->line, "expected 'key: value', found '%s'",
			    quote(q, r->s, r->n));
		n = (size_t)(colon - r->s);
		for (k = 0; k < NKEYS && !eq(r->s, n, key_names[k]); k++)
			;
		if (k == NKEYS)
			return fail(err, r->line, "unknown key '%s'", quote(q, r->s, n));
		if (h->line[k] != 0)
			return fail(err, r->line, "duplicate key '%s' (first on line %d)",
			    key_names[k], h->line[k]);
		h->line[k] = r->line;
		v = colon + 1;
		n = r->n - n - 1;
		while (n > 0 && (*v == ' ' || *v == '\t'))
			v++, n--;
		st = header_value(r, (enum key)k, v, n, h, g, err);
		if (st != GAMEFILE_OK)
			return st;
	}
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (h->line[required[i]] == 0)
			return fail(err, r->line, "the header has no '%s:' line",
			    key_names[required[i]]);
	if (g->shape == RULES_HEX && !rules_shape_ok(RULES_HEX, g->size))
		return fail(err, h->line[K_SIZE], "hex side %d is not in %d..%d", g->size,
		    RULES_HEX_MIN_SIDE, RULES_HEX_MAX_SIDE);
	if (g->shape == RULES_SQUARE && (g->size < RULES_MIN_SIZE || g->size > RULES_MAX_SIZE))
		return fail(err, h->line[K_SIZE], "size %d is not in %d..%d", g->size, RULES_MIN_SIZE,
		    RULES_MAX_SIZE);
	if (g->shape == RULES_SQUARE && g->size % 2 == 0)
		return fail(err, h->line[K_SIZE], "size %d is not odd", g->size);
	if (strcmp(g->black, GAME_OPEN_SEAT) == 0 && strcmp(g->white, GAME_OPEN_SEAT) == 0)
		return fail(err, h->line[K_WHITE], "both seats are open ('*'): an open challenge has its challenger");
	if (game_is_open(g) && (h->result != RULES_PLAYING || h->turn != 1))
		return fail(err, h->line[strcmp(g->black, GAME_OPEN_SEAT) == 0 ? K_BLACK : K_WHITE],
		    "an open seat ('*') on a board with turns: nobody can have played before it was taken");
	if (h->result == RULES_PLAYING) {
		if (h->line[K_END] != 0)
			return fail(err, h->line[K_END], "end given, but the status is playing");
		if (h->line[K_TO_MOVE] == 0)
			return fail(err, h->line[K_STATUS], "a playing game needs a 'to-move:' line");
	} else {
		if (h->line[K_END] == 0)
			return fail(err, h->line[K_STATUS], "status %s needs an 'end:' line",
			    status_names[h->result]);
		if (h->line[K_TO_MOVE] != 0)
			return fail(err, h->line[K_TO_MOVE], "to-move given, but the game is over");
		if (h->line[K_REMIND] != 0)
			return fail(err, h->line[K_REMIND], "remind given, but the game is over");
		if (h->line[K_QUEUE] != 0)
			return fail(err, h->line[K_QUEUE], "queue given, but the game is over");
		if (h->line[K_PENDING] != 0)
			return fail(err, h->line[K_PENDING], "pending given, but the game is over");
		if ((h->result == RULES_DRAW) != (g->end == GAME_END_NO_PLACEMENTS || g->end == GAME_END_AGREEMENT))
			return fail(err, h->line[K_END], "end %s does not fit status %s",
			    end_names[g->end], status_names[h->result]);
	}
	return GAMEFILE_OK;
}

/* ---- the board drawing ---- */

/* The current line must be the column letters "    A B C ..." of a size-n board. */
static enum gamefile_status parse_columns(const struct reader *r, int size,
    struct gamefile_error *err)
{
	const char *tok;
	char q[QUOTE_SIZE];
	size_t i = 0, tn;
	int x = 0;
	bool good = true;

	while (good && token(r->s, r->n, &i, &tok, &tn))
		good = x < size && tn == 1 && (tok[0] & ~0x20) == rules_column_letter(x++);
	if (!good || x != size)
		return fail(err, r->line, "column letters '%s' do not match size %d",
		    quote(q, r->s, r->n), size);
	return GAMEFILE_OK;
}

static enum gamefile_status parse_players(struct reader *r, const struct game *g,
    struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0, j;
	int n = 0, s;
	char q[QUOTE_SIZE], q2[QUOTE_SIZE];
	bool good;

	s = next_nonblank(r, err);
	if (s < 0)
		return GAMEFILE_BAD;
	if (s == 0)
		return fail(err, r->line, "unexpected end of file, expected the board");
	while (n < 7 && token(r->s, r->n, &i, &t[n], &tn[n]))
		n++;
	good = n == 6 && eq(t[0], tn[0], "x:") && eq(t[3], tn[3], "o:");
	for (j = 2; good && j < 6; j += 3) {
		const char *slash = memchr(t[j], '/', tn[j]);

		good = slash != NULL && number(t[j], (size_t)(slash - t[j]), 99999) >= 0 &&
		    number(slash + 1, tn[j] - (size_t)(slash - t[j]) - 1, 99999) >= 0;
	}
	if (!good)
		return fail(err, r->line, "expected the players line 'x: NAME LARGEST/TOTAL   "
		    "o: NAME LARGEST/TOTAL', found '%s'", quote(q, r->s, r->n));
	if (tn[1] != strlen(g->black) || strncasecmp(t[1], g->black, tn[1]) != 0 ||
	    tn[4] != strlen(g->white) || strncasecmp(t[4], g->white, tn[4]) != 0)
		return fail(err, r->line, "the players line names '%s' and '%s', the header "
		    "black %s and white %s", quote(q, t[1], tn[1]), quote(q2, t[4], tn[4]),
		    g->black, g->white);
	return GAMEFILE_OK;
}

/* The symbol of one point of the drawing: a colour, or RULES_OFFBOARD if it is none. */
static enum rules_color point_symbol(const char *tok, size_t tn)
{
	if (tn != 1)
		return RULES_OFFBOARD;
	switch (tok[0]) {
	case 'x': case 'X':
		return RULES_BLACK;
	case 'o': case 'O':
		return RULES_WHITE;
	case '.': case ',':
		return RULES_EMPTY;
	}
	return RULES_OFFBOARD;
}

/* The current line must be the cell numbers "1 2 3 ... S" above or below a hex board. */
static enum gamefile_status parse_hex_numbers(const struct reader *r, int side,
    struct gamefile_error *err)
{
	const char *tok;
	char q[QUOTE_SIZE];
	size_t i = 0, tn;
	int k = 0;
	bool good = true;

	while (good && token(r->s, r->n, &i, &tok, &tn))
		good = k < side && number(tok, tn, 99) == ++k;
	if (!good || k != side)
		return fail(err, r->line, "cell numbers '%s' do not match a hex board of side %d",
		    quote(q, r->s, r->n), side);
	return GAMEFILE_OK;
}

/*
 * One row "f  . x . . O 6  f" of a hex drawing, y from 0 at the bottom:
 * its letter, its cells, the number of the edge's line of cells (every row
 * but the middle one) and its letter again; stones onto b.
 */
static enum gamefile_status parse_hex_row(struct reader *r, int y, struct rules_board *b,
    struct gamefile_error *err)
{
	const char *tok[2 * RULES_HEX_MAX_SIDE + 3];
	size_t tn[2 * RULES_HEX_MAX_SIDE + 3], i = 0;
	const int len = rules_row_len(b, y), edge = y != b->size - 1;
	const char row = rules_row_letter(y);
	char q[QUOTE_SIZE];
	enum rules_color c;
	int ntok = 0, k;

	while (ntok < 2 * RULES_HEX_MAX_SIDE + 3 && token(r->s, r->n, &i, &tok[ntok], &tn[ntok]))
		ntok++;
	if (ntok == 0 || tn[0] != 1 || (tok[0][0] | 0x20) != row)
		return fail(err, r->line, "expected row %c, found '%s'", row, quote(q, r->s, r->n));
	if (ntok != len + 2 + edge) {
		ntok -= 2 + edge;
		return fail(err, r->line, "row %c has %d cells, expected %d", row, ntok < 0 ? 0 : ntok, len);
	}
	if (tn[ntok - 1] != 1 || (tok[ntok - 1][0] | 0x20) != row)
		return fail(err, r->line, "row %c ends with '%s', expected %c", row,
		    quote(q, tok[ntok - 1], tn[ntok - 1]), row);
	if (edge && number(tok[len + 1], tn[len + 1], 99) != len + 1)
		return fail(err, r->line, "row %c: '%s' after the last cell, expected the number %d", row,
		    quote(q, tok[len + 1], tn[len + 1]), len + 1);
	for (k = 0; k < len; k++) {
		c = point_symbol(tok[k + 1], tn[k + 1]);
		if (c == RULES_OFFBOARD)
			return fail(err, r->line, "row %c: unknown cell '%s' at %c%d (use x, o or .)", row,
			    quote(q, tok[k + 1], tn[k + 1]), row, k + 1);
		if (c != RULES_EMPTY)
			rules_board_setup(b, rules_point(b, rules_row_first(b, y) + k, y), c);
	}
	return GAMEFILE_OK;
}

/* One row "13  o . . X ,  13" of the drawing, y from 0 at the bottom, stones onto b. */
static enum gamefile_status parse_row(struct reader *r, int y, struct rules_board *b,
    struct gamefile_error *err)
{
	const char *tok, *first = NULL, *last = NULL;
	size_t i = 0, tn, firstn = 0, lastn = 0;
	char q[QUOTE_SIZE];
	enum rules_color c;
	int ntok = 0, x;

	while (token(r->s, r->n, &i, &tok, &tn)) {
		if (ntok++ == 0)
			first = tok, firstn = tn;
		last = tok, lastn = tn;
	}
	if (ntok == 0 || number(first, firstn, 99) != y + 1)
		return fail(err, r->line, "expected row %d, found '%s'", y + 1,
		    quote(q, r->s, r->n));
	if (ntok - 2 != b->size)
		return fail(err, r->line, "row %d has %d points, expected %d", y + 1,
		    ntok < 2 ? 0 : ntok - 2, b->size);
	if (number(last, lastn, 99) != y + 1)
		return fail(err, r->line, "row %d ends with '%s', expected %d", y + 1,
		    quote(q, last, lastn), y + 1);
	i = 0;
	token(r->s, r->n, &i, &tok, &tn); /* the row number */
	for (x = 0; x < b->size; x++) {
		token(r->s, r->n, &i, &tok, &tn);
		c = point_symbol(tok, tn);
		if (c == RULES_OFFBOARD)
			return fail(err, r->line, "row %d: unknown point '%s' in column %c (use x, "
			    "o, . or ,)", y + 1, quote(q, tok, tn), rules_column_letter(x));
		if (c != RULES_EMPTY)
			rules_board_setup(b, rules_point(b, x, y), c);
	}
	return GAMEFILE_OK;
}

static enum gamefile_status parse_board(struct reader *r, const struct game *g,
    struct rules_board *b, struct gamefile_error *err)
{
	enum gamefile_status st;
	const bool hex = g->shape == RULES_HEX;
	const char *edge = hex ? "the cell numbers" : "the column letters";
	int y, k;

	rules_board_init_shape(b, g->shape, g->size);
	st = parse_players(r, g, err);
	if (st != GAMEFILE_OK)
		return st;
	k = next_nonblank(r, err);
	if (k < 0)
		return GAMEFILE_BAD;
	if (k == 0)
		return fail(err, r->line, "unexpected end of file, expected %s", edge);
	st = hex ? parse_hex_numbers(r, g->size, err) : parse_columns(r, g->size, err);
	for (y = b->width - 1; st == GAMEFILE_OK && y >= 0; y--) {
		k = next_line(r, err);
		if (k < 0)
			return GAMEFILE_BAD;
		if (k == 0 && hex)
			return fail(err, r->line, "unexpected end of file, expected row %c",
			    rules_row_letter(y));
		if (k == 0)
			return fail(err, r->line, "unexpected end of file, expected row %d", y + 1);
		st = hex ? parse_hex_row(r, y, b, err) : parse_row(r, y, b, err);
	}
	if (st != GAMEFILE_OK)
		return st;
	k = next_line(r, err);
	if (k < 0)
		return GAMEFILE_BAD;
	if (k == 0)
		return fail(err, r->line, "unexpected end of file, expected %s", edge);
	return hex ? parse_hex_numbers(r, g->size, err) : parse_columns(r, g->size, err);
}

/* ---- the history ---- */

/* Whose turn number k is: colours alternate, but the swap (turn 2) is White's and so is turn 3. */
static enum rules_color turn_color(int k, bool swapped)
{
	if (k >= 3 && swapped)
		k++;
	return k % 2 == 1 ? RULES_BLACK : RULES_WHITE;
}

/* Who owned colour c at turn k: before a swap the names were the other way round. */
static const char *owner(const struct game *g, enum rules_color c, int k, bool swapped)
{
	if (swapped && k <= 2)
		c = RULES_OTHER(c);
	return game_player_of(g, c);
}

static enum gamefile_status check_player(const struct game *g, const struct game_turn *t,
    int line, bool swapped, struct gamefile_error *err)
{
	const char *o = owner(g, t->color, t->number, swapped);

	if (strcmp(t->player, o) != 0)
		return fail(err, line, "turn %d: %s was played by %s, not %s", t->number,
		    rules_color_name(t->color), o, t->player);
	return GAMEFILE_OK;
}

/* Placements "E5,F5,G6" into pts; returns how many, or -1 with err set. */
static int parse_points(int line, const char *s, size_t n, const struct rules_board *b,
    int *pts, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	size_t i = 0, j;
	int np = 0, p;

	for (;;) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		if (j == i) {
			fail(err, line, "empty placement in '%s'", quote(q, s, n));
			return -1;
		}
		p = rules_parse_point(b, s + i, (int)(j - i));
		if (p == RULES_NO_POINT && b->shape == RULES_HEX) {
			fail(err, line, "'%s' is not a cell of a hex board of side %d", quote(q, s + i, j - i),
			    b->size);
			return -1;
		}
		if (p == RULES_NO_POINT) {
			fail(err, line, "'%s' is not a point on %s %dx%d board", quote(q, s + i, j - i),
			    b->size == 11 ? "an" : "a", b->size, b->size);
			return -1;
		}
		if (np == RULES_MAX_POINTS) {
			fail(err, line, "more than %d placements in one turn", RULES_MAX_POINTS);
			return -1;
		}
		pts[np++] = p;
		if (j == n)
			return np;
		i = j + 1;
	}
}

/*
 * The captures of a history line after "captured:", "A1+B2,-": one item
 * per placement, each '-' or points of b joined by '+'.
 */
static enum gamefile_status parse_captured(int line, const char *s, size_t n, const struct rules_board *b,
    int npoints, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	size_t i = 0, j;
	int items = 0;

	for (;;) {
		items++;
		if (i < n && s[i] == '-') {
			j = i + 1;
		} else {
			for (;;) {
				for (j = i; j < n && s[j] != ',' && s[j] != '+'; j++)
					;
				if (rules_parse_point(b, s + i, (int)(j - i)) == RULES_NO_POINT)
					return fail(err, line, "captured: '%s' is not a point of the board",
					    quote(q, s + i, j - i));
				if (j == n || s[j] != '+')
					break;
				i = j + 1;
			}
		}
		if (j == n)
			break;
		if (s[j] != ',')
			return fail(err, line, "captured: '%s': items are joined by commas", quote(q, s, n));
		i = j + 1;
	}
	if (items != npoints)
		return fail(err, line, "captured: %d item%s for %d placement%s", items, items == 1 ? "" : "s",
		    npoints, npoints == 1 ? "" : "s");
	return GAMEFILE_OK;
}

/*
 * A note of the history, "- 2026-11-21T19:02:11Z o bob accept undo:7": an
 * offer (undo, propose) or its answer (accept or reject, of an undo or a
 * draw), between the turns; the answer follows its offer, by the other player
 * (chats between them passed over).  Or a chat, "- 2026-11-21T19:05:00Z x
 * alice chat": anywhere, the end of the game included.
 */
static enum gamefile_status parse_note(int line, struct game *g, const char *const *t, const size_t *tn, int n,
    struct gamefile_error *err)
{
	const struct game_note *prev = game_last_offer_note(g);
	struct game_note e;
	char q[QUOTE_SIZE];
	bool chat = eq(t[4], tn[4], "chat");
	long k;

	memset(&e, 0, sizeof(e));
	e.after = g->nturns;
	if (!chat && prev != NULL && prev->kind == GAME_NOTE_ACCEPT && !prev->undo)
		return fail(err, line, "a note after the accepted draw");
	if (!chat && g->nturns > 0 && (g->turns[g->nturns - 1].action == GAME_RESIGN ||
	    g->turns[g->nturns - 1].action == GAME_TIMEOUT))
		return fail(err, line, "a note after the end of the game at turn %d", g->nturns);
	if (!gamefile_time_parse(t[1], tn[1], &e.time))
		return fail(err, line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)", quote(q, t[1], tn[1]));
	if (eq(t[2], tn[2], "x"))
		e.color = RULES_BLACK;
	else if (eq(t[2], tn[2], "o"))
		e.color = RULES_WHITE;
	else
		return fail(err, line, "unknown colour '%s' (x or o)", quote(q, t[2], tn[2]));
	if (!userid(t[3], tn[3], e.player))
		return fail(err, line, "bad user id '%s'", quote(q, t[3], tn[3]));
	if (game_color_of(g, e.player) == RULES_EMPTY)
		return fail(err, line, "'%s' is not a player of board %ld", e.player, g->board);
	if (chat) {
		e.kind = GAME_NOTE_CHAT;
		if (n != 5)
			return fail(err, line, "'%s' after chat: a chat note has no argument (its text is not kept)",
			    quote(q, t[5], tn[5]));
	} else if (eq(t[4], tn[4], "undo") || eq(t[4], tn[4], "propose")) {
		e.kind = eq(t[4], tn[4], "undo") ? GAME_NOTE_UNDO : GAME_NOTE_PROPOSE;
		e.undo = e.kind == GAME_NOTE_UNDO;
		if (n != 5)
			return fail(err, line, "'%s' after %s: an offer has no argument", quote(q, t[5], tn[5]),
			    game_note_str(e.kind));
	} else if (eq(t[4], tn[4], "accept") || eq(t[4], tn[4], "reject")) {
		e.kind = eq(t[4], tn[4], "accept") ? GAME_NOTE_ACCEPT : GAME_NOTE_REJECT;
		if (n != 6)
			return fail(err, line, "%s needs what it answers: undo or draw", game_note_str(e.kind));
		if (eq(t[5], tn[5], "draw")) {
			e.undo = false;
		} else if (e.kind == GAME_NOTE_ACCEPT && tn[5] > 5 && memcmp(t[5], "undo:", 5) == 0) {
			/* the turns from K on were taken back: the history goes on with turn K again */
			e.undo = true;
			k = number(t[5] + 5, tn[5] - 5, GAME_MAX_TURNS);
			if (k != g->nturns + 1)
				return fail(err, line, "'%s': the turns taken back start at turn %d, the next one",
				    quote(q, t[5], tn[5]), g->nturns + 1);
			e.undo_from = (int)k;
		} else if (e.kind == GAME_NOTE_REJECT && eq(t[5], tn[5], "undo")) {
			e.undo = true;
		} else {
			return fail(err, line, "'%s': %s answers %s", quote(q, t[5], tn[5]), game_note_str(e.kind),
			    e.kind == GAME_NOTE_ACCEPT ? "undo:TURN or draw" : "undo or draw");
		}
		if (prev == NULL || prev->after != e.after || (prev->kind != GAME_NOTE_UNDO &&
		    prev->kind != GAME_NOTE_PROPOSE) || prev->undo != e.undo)
			return fail(err, line, "%s %s, but no %s was offered just before", game_note_str(e.kind),
			    e.undo ? "undo" : "draw", e.undo ? "undo" : "draw");
		if (strcmp(prev->player, e.player) == 0)
			return fail(err, line, "%s answers their own offer", e.player);
	} else {
		return fail(err, line, "unknown note '%s' (undo, propose, accept, reject or chat)",
		    quote(q, t[4], tn[4]));
	}
	if (game_note_add(g, &e) != GAME_OK)
		return GAMEFILE_NO_MEMORY;
	return GAMEFILE_OK;
}

enum gamefile_status gamefile_parse_note(const char *s, size_t len, int line, struct game *g,
    struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0;
	char q[QUOTE_SIZE];
	int n = 0;

	memset(err, 0, sizeof(*err));
	while (n < 7 && token(s, len, &i, &t[n], &tn[n]))
		n++;
	if (n < 5 || n > 6 || !eq(t[0], tn[0], "-"))
		return fail(err, line, "expected '- TIME x|o PLAYER undo|propose|accept|reject|chat [undo:TURN|undo|draw]', "
		    "found '%s'", quote(q, s, len));
	return parse_note(line, g, t, tn, n, err);
}

static enum gamefile_status parse_entry(struct reader *r, struct game *g,
    const struct rules_board *b, bool *swapped, int *line1, struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0;
	int n = 0, np, pts[RULES_MAX_POINTS];
	struct game_turn e;
	char q[QUOTE_SIZE];
	long num;
	enum gamefile_status st;

	while (n < 7 && token(r->s, r->n, &i, &t[n], &tn[n]))
		n++;
	if ((n == 5 || n == 6) && eq(t[0], tn[0], "-"))
		return parse_note(r->line, g, t, tn, n, err);
	if (n != 5 && !(n == 6 && tn[5] > CAPTURED_LEN && memcmp(t[5], CAPTURED, CAPTURED_LEN) == 0))
		return fail(err, r->line, "expected 'NUMBER TIME x|o PLAYER ACTION [captured:...]', found '%s'",
		    quote(q, r->s, r->n));
	memset(&e, 0, sizeof(e));
	num = number(t[0], tn[0], GAME_MAX_TURNS);
	if (num < 0)
		return fail(err, r->line, "bad turn number '%s'", quote(q, t[0], tn[0]));
	if (num != g->nturns + 1)
		return fail(err, r->line, "turn %ld out of order, expected %d", num, g->nturns + 1);
	if (game_last_offer_note(g) != NULL && game_last_offer_note(g)->kind == GAME_NOTE_ACCEPT &&
	    !game_last_offer_note(g)->undo)
		return fail(err, r->line, "turn %ld follows the draw agreed before it", num);
	e.number = (int)num;
	if (g->nturns > 0 && (g->turns[g->nturns - 1].action == GAME_RESIGN ||
	    g->turns[g->nturns - 1].action == GAME_TIMEOUT))
		return fail(err, r->line, "turn %d follows the end of the game at turn %d",
		    e.number, g->nturns);
	if (!gamefile_time_parse(t[1], tn[1], &e.time))
		return fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
		    quote(q, t[1], tn[1]));
	if (eq(t[2], tn[2], "x"))
		e.color = RULES_BLACK;
	else if (eq(t[2], tn[2], "o"))
		e.color = RULES_WHITE;
	else
		return fail(err, r->line, "unknown colour '%s' (x or o)", quote(q, t[2], tn[2]));
	if (!userid(t[3], tn[3], e.player))
		return fail(err, r->line, "bad user id '%s'", quote(q, t[3], tn[3]));
	if (game_color_of(g, e.player) == RULES_EMPTY)
		return fail(err, r->line, "'%s' is not a player of board %ld", e.player, g->board);
	if (eq(t[4], tn[4], "pass")) {
		e.action = GAME_PASS;
	} else if (eq(t[4], tn[4], "swap")) {
		e.action = GAME_SWAP;
		if (e.number != 2)
			return fail(err, r->line, "swap at turn %d: only turn 2 may be a swap",
			    e.number);
		if (!g->swap)
			return fail(err, r->line, "swap at turn 2, but swap is off");
		*swapped = true;
	} else if (eq(t[4], tn[4], "resign")) {
		e.action = GAME_RESIGN;
	} else if (eq(t[4], tn[4], "timeout")) {
		e.action = GAME_TIMEOUT;
	} else {
		e.action = GAME_PLACE;
		np = parse_points(r->line, t[4], tn[4], b, pts, err);
		if (np < 0)
			return GAMEFILE_BAD;
		e.npoints = np;
	}
	/*
	 * What the placements captured: read for its form only (replaying the
	 * whole history on every load would cost more than the file is worth);
	 * every write makes it again from the placements.
	 */
	if (n == 6 && e.action != GAME_PLACE)
		return fail(err, r->line, "'%s' after %s: only placements capture", quote(q, t[5], tn[5]),
		    game_action_str(e.action));
	if (n == 6 && (st = parse_captured(r->line, t[5] + CAPTURED_LEN, tn[5] - CAPTURED_LEN, b, e.npoints,
	    err)) != GAMEFILE_OK)
		return st;
	/* A resignation may come on either side's turn; everything else alternates. */
	if (e.action != GAME_RESIGN && e.color != turn_color(e.number, *swapped))
		return fail(err, r->line, "turn %d is %s's turn, not %s's", e.number,
		    rules_color_name(turn_color(e.number, *swapped)), rules_color_name(e.color));
	/* Turn 1's player is known once turn 2 tells whether there was a swap. */
	if (e.number == 1) {
		*line1 = r->line;
	} else {
		if (e.number == 2 && (st = check_player(g, &g->turns[0], *line1, *swapped,
		    err)) != GAMEFILE_OK)
			return st;
		if ((st = check_player(g, &e, r->line, *swapped, err)) != GAMEFILE_OK)
			return st;
	}
	if (game_history_add(g, &e, pts) != GAME_OK)
		return GAMEFILE_NO_MEMORY;
	return GAMEFILE_OK;
}

static enum gamefile_status parse_history(struct reader *r, struct game *g,
    const struct rules_board *b, bool *swapped, struct gamefile_error *err)
{
	enum gamefile_status st;
	char q[QUOTE_SIZE];
	int k, line1 = 0;

	k = next_nonblank(r, err);
	if (k < 0)
		return GAMEFILE_BAD;
	if (k == 0)
		return fail(err, r->line, "unexpected end of file, expected 'history:'");
	if (!eq(r->s, r->n, "history:"))
		return fail(err, r->line, "expected 'history:', found '%s'", quote(q, r->s, r->n));
	while ((k = next_nonblank(r, err)) == 1) {
		st = parse_entry(r, g, b, swapped, &line1, err);
		if (st != GAMEFILE_OK)
			return st;
	}
	if (k < 0)
		return GAMEFILE_BAD;
	if (g->nturns == 1)
		return check_player(g, &g->turns[0], line1, false, err);
	return GAMEFILE_OK;
}

/* Stones turn e captured, by gc. */
static int turn_captured(const struct game_turn *e, const struct game_captures *gc)
{
	int i, n = 0;

	for (i = 0; gc != NULL && e->action == GAME_PLACE && i < e->npoints; i++)
		n += gc->n[e->first + (size_t)i];
	return n;
}

/*
 * "captured:A1+B2,-": for each placement of turn e, the stones it took
 * joined by '+', or '-', into s (room for CAPTURED_LEN + 2 per placement
 * + 5 per stone taken + 1); "" when the turn took nothing.  Returns the
 * length.
 */
static size_t captured_field(const struct game *g, const struct game_turn *e, const struct game_captures *gc,
    char *s)
{
	char name[4];
	size_t n = 0, idx, k;
	int i, j;

	s[0] = '\0';
	if (turn_captured(e, gc) == 0)
		return 0;
	memcpy(s, CAPTURED, CAPTURED_LEN), n += CAPTURED_LEN;
	for (i = 0; i < e->npoints; i++) {
		idx = e->first + (size_t)i;
		if (i > 0)
			s[n++] = ',';
		if (gc->n[idx] == 0)
			s[n++] = '-';
		for (j = 0; j < gc->n[idx]; j++) {
			if (j > 0)
				s[n++] = '+';
			rules_point_name(&g->rg.board, gc->stones[gc->first[idx] + (size_t)j], name);
			k = strlen(name);
			memcpy(s + n, name, k), n += k;
		}
	}
	s[n] = '\0';
	return n;
}

/* ---- the whole file ---- */

/* The queue of conditional turns: its owner plays here and is not to move; its lines parse. */
static enum gamefile_status settle_queue(struct game *g, const struct header *h, struct gamefile_error *err)
{
	struct game_queue *q;
	char why[200];
	bool good;

	if (g->queue_owner[0] == '\0')
		return GAMEFILE_OK;
	if (game_color_of(g, g->queue_owner) == RULES_EMPTY)
		return fail(err, h->line[K_QUEUE], "queue: '%s' is not a player of board %ld", g->queue_owner, g->board);
	if (strcmp(game_player_to_move(g), g->queue_owner) == 0)
		return fail(err, h->line[K_QUEUE], "queue: %s is to move: a queue answers the opponent's turn",
		    g->queue_owner);
	q = malloc(sizeof(*q));
	if (q == NULL)
		return GAMEFILE_NO_MEMORY;
	good = game_queue_parse(g, g->queue, q, why, sizeof(why));
	free(q);
	if (!good)
		return fail(err, h->line[K_QUEUE], "queue: %s", why);
	return GAMEFILE_OK;
}

/* The header, the drawing and the history agree; then start the turn state. */
static enum gamefile_status settle(struct game *g, const struct header *h,
    const struct rules_board *b, bool swapped, struct gamefile_error *err)
{
	const struct game_turn *last = g->nturns > 0 ? &g->turns[g->nturns - 1] : NULL;
	enum rules_color winner = h->result == RULES_BLACK_WINS ? RULES_BLACK : RULES_WHITE;
	enum rules_color next = turn_color(h->turn, swapped);
	const struct game_note *note = game_last_offer_note(g);
	bool agreed = note != NULL && note->kind == GAME_NOTE_ACCEPT && !note->undo;
	struct rules_event ev;

	if (g->nturns != h->turn - 1)
		return fail(err, h->line[K_TURN], "turn %d, but the history has %d turns", h->turn,
		    g->nturns);
	if (h->result == RULES_PLAYING) {
		if (last != NULL && (last->action == GAME_RESIGN || last->action == GAME_TIMEOUT))
			return fail(err, h->line[K_STATUS], "status playing, but the game ended at "
			    "turn %d (%s)", last->number, game_action_str(last->action));
		if (agreed)
			return fail(err, h->line[K_STATUS], "status playing, but the history ends with a draw agreed");
		if (h->to_move != next)
			return fail(err, h->line[K_TO_MOVE], "to-move %s, but turn %d is %s's",
			    rules_color_name(h->to_move), h->turn, rules_color_name(next));
		rules_game_start(&g->rg, b, h->to_move, h->turn, g->swap, &ev);
		if (ev.result == RULES_DRAW)
			return fail(err, h->line[K_TO_MOVE], "neither side has a legal placement: "
			    "the game is drawn (status drawn, end no-placements)");
		if (ev.npasses > 0)
			return fail(err, h->line[K_TO_MOVE], "%s is to move but has no legal "
			    "placement (the history must record its pass)",
			    rules_color_name(h->to_move));
		if (g->pending[0] != '\0') {
			/* the part of the turn in progress plays from the position, and leaves the turn open */
			int *pts = malloc(RULES_MAX_POINTS * sizeof *pts), np;
			char why[200];
			bool good = pts != NULL && game_pending_points(g, pts, &np, NULL, why, sizeof why);

			free(pts);
			if (pts == NULL)
				return GAMEFILE_NO_MEMORY;
			if (!good)
				return fail(err, h->line[K_PENDING], "pending: %s", why);
		}
		return settle_queue(g, h, err);
	}
	if (agreed != (g->end == GAME_END_AGREEMENT))
		return fail(err, h->line[K_END], agreed ? "the history ends with a draw agreed, but end is %s" :
		    "end %s, but the history does not end with a draw agreed", end_names[g->end]);
	switch (g->end) {
	case GAME_END_AGREEMENT:
		break;
	case GAME_END_RESIGN:
	case GAME_END_TIMEOUT:
		if (last == NULL || last->color == winner || last->action !=
		    (g->end == GAME_END_RESIGN ? GAME_RESIGN : GAME_TIMEOUT))
			return fail(err, h->line[K_END], "end %s, but the last turn is not %s's %s",
			    end_names[g->end], rules_color_name(RULES_OTHER(winner)),
			    g->end == GAME_END_RESIGN ? "resignation" : "timeout");
		break;
	case GAME_END_CAPTURE:
		if (last == NULL || last->action != GAME_PLACE || last->color != winner)
			return fail(err, h->line[K_END], "end capture, but the last turn is not a "
			    "placement by %s", rules_color_name(winner));
		break;
	default:
		if (last == NULL || last->action != GAME_PLACE)
			return fail(err, h->line[K_END], "end no-placements, but the last turn is "
			    "not a placement");
		break;
	}
	/* A finished game: nobody moves; the result is the file's, not the position's. */
	rules_game_start(&g->rg, b, next, h->turn, g->swap, NULL);
	g->rg.to_move = next;
	g->rg.result = h->result;
	g->rg.turn = h->turn;
	g->rg.placed = 0;
	return GAMEFILE_OK;
}

enum gamefile_status gamefile_parse(const char *text, size_t len, struct game *out,
    struct gamefile_error *err)
{
	struct gamefile_error dummy;
	struct reader r = { text, text + len, 0, text, 0 };
	struct header h;
	struct rules_board *b = NULL;
	enum gamefile_status st;
	bool swapped = false;

	if (err == NULL)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	memset(&h, 0, sizeof(h));
	b = malloc(sizeof(*b));
	if (b == NULL) {
		st = GAMEFILE_NO_MEMORY;
		goto out;
	}
	st = parse_header(&r, &h, out, err);
	if (st == GAMEFILE_OK)
		st = parse_board(&r, out, b, err);
	if (st == GAMEFILE_OK)
		st = parse_history(&r, out, b, &swapped, err);
	if (st == GAMEFILE_OK)
		st = settle(out, &h, b, swapped, err);
out:
	free(b);
	if (st == GAMEFILE_NO_MEMORY)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	if (st != GAMEFILE_OK)
		game_release(out);
	return st;
}

bool gamefile_named_for(const struct game *g, long board, struct gamefile_error *err)
{
	if (g->board == board)
		return true;
	err->line = 0;
	snprintf(err->msg, sizeof err->msg, "says board %ld in its header, not %ld", g->board, board);
	return false;
}

enum gamefile_status gamefile_parse_header(const char *text, size_t len, struct game *out,
    struct gamefile_error *err)
{
	struct gamefile_error dummy;
	struct reader r = { text, text + len, 0, text, 0 };
	struct header h;
	enum gamefile_status st;

	if (err == NULL)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	memset(&h, 0, sizeof(h));
	st = parse_header(&r, &h, out, err);
	if (st != GAMEFILE_OK) {
		memset(out, 0, sizeof(*out));
		return st;
	}
	out->rg.result = h.result;
	out->rg.to_move = h.result == RULES_PLAYING ? h.to_move : RULES_EMPTY;
	out->rg.turn = h.turn;
	out->rg.swap_enabled = out->swap;
	return GAMEFILE_OK;
}

/* ---- formatting ---- */

struct buf {
	char *s;
	size_t len, cap;
	bool failed;
};

/* Room for n more bytes and a NUL. */
static bool bgrow(struct buf *b, size_t n)
{
	size_t cap;
	char *s;

	if (b->failed)
		return false;
	if (b->len + n < b->cap)
		return true;
	cap = b->cap * 2 + n;
	s = realloc(b->s, cap);
	if (s == NULL) {
		b->failed = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void bappend(struct buf *b, const char *s, size_t n)
{
	if (!bgrow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void bput(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(struct buf *b, const char *fmt, ...)
{
	char s[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s, sizeof(s), fmt, ap);
	va_end(ap);
	assert(n >= 0 && (size_t)n < sizeof(s));
	bappend(b, s, (size_t)n);
}

char *gamefile_note_text(const struct game_note *e, char buf[GAMEFILE_NOTE_SIZE])
{
	char t[GAMEFILE_TIME_SIZE];
	int n;

	n = snprintf(buf, GAMEFILE_NOTE_SIZE, "- %s %c %s %s", gamefile_time_str(e->time, t),
	    e->color == RULES_BLACK ? 'x' : 'o', e->player, game_note_str(e->kind));
	if (e->kind == GAME_NOTE_ACCEPT && e->undo)
		snprintf(buf + n, GAMEFILE_NOTE_SIZE - (size_t)n, " undo:%d", e->undo_from);
	else if (e->kind == GAME_NOTE_ACCEPT || e->kind == GAME_NOTE_REJECT)
		snprintf(buf + n, GAMEFILE_NOTE_SIZE - (size_t)n, " %s", e->undo ? "undo" : "draw");
	return buf;
}

/* The note line "- 2026-11-21T19:02:11Z o bob accept undo:7" onto b. */
static void note_line(struct buf *b, const struct game_note *e)
{
	char s[GAMEFILE_NOTE_SIZE];

	bput(b, "%s\n", gamefile_note_text(e, s));
}

/*
 * One history line "12 2026-11-21T18:45:00Z x alice E5,F5" into s, with
 * what the placements captured when gc is given and they took any;
 * returns its length.
 */
static size_t entry_line(const struct game *g, const struct game_turn *e, const struct game_captures *gc,
    char *s)
{
	const int *pts = game_turn_points(g, e);
	char num[12], name[4];
	size_t n = 0, k;
	int i, v = e->number;

	k = sizeof(num);
	do {
		num[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	memcpy(s, num + k, sizeof(num) - k), n += sizeof(num) - k;
	s[n++] = ' ';
	gamefile_time_str(e->time, s + n), n += GAMEFILE_TIME_SIZE - 1;
	s[n++] = ' ';
	s[n++] = e->color == RULES_BLACK ? 'x' : 'o';
	s[n++] = ' ';
	k = strlen(e->player);
	memcpy(s + n, e->player, k), n += k;
	s[n++] = ' ';
	if (e->action != GAME_PLACE) {
		k = strlen(game_action_str(e->action));
		memcpy(s + n, game_action_str(e->action), k), n += k;
	}
	for (i = 0; e->action == GAME_PLACE && pts != NULL && i < e->npoints; i++) {
		if (i > 0)
			s[n++] = ',';
		rules_point_name(&g->rg.board, pts[i], name);
		k = strlen(name);
		memcpy(s + n, name, k), n += k;
	}
	if (turn_captured(e, gc) > 0) {
		s[n++] = ' ';
		n += captured_field(g, e, gc, s + n);
	}
	s[n++] = '\n';
	return n;
}

/* "observers: carol dave\n" (results false) or "notify: erin\n"; nothing when there are none. */
static void observers_line(struct buf *b, const struct game *g, bool results)
{
	const char *key = results ? "notify:" : "observers:";
	int i;

	for (i = 0; i < g->nobservers; i++) {
		if (g->observers[i].results != results)
			continue;
		bput(b, "%s %s", key, g->observers[i].userid);
		key = "";
	}
	if (key[0] == '\0')
		bput(b, "\n");
}

enum gamefile_status gamefile_format(const struct game *g, char **out, size_t *len)
{
	struct buf b = { NULL, 0, 0, false };
	char t[GAMEFILE_TIME_SIZE], board[BOARD_TEXT_MAX];
	const struct game_turn *e;
	struct game_captures gc;
	bool have_gc;
	size_t n;
	int i, k = 0;

	assert((g->rg.result == RULES_PLAYING) == (g->end == GAME_END_NONE));
	*out = NULL;
	*len = 0;
	b.cap = 4096 + (size_t)g->nturns * 64 + g->npoints * 4;
	b.s = malloc(b.cap);
	if (b.s == NULL)
		return GAMEFILE_NO_MEMORY;
	bput(&b, "%s\n", HEADER_COMMENT);
	bput(&b, "board: %ld\n", g->board);
	/* A square board says nothing of its shape: files from before hex boards stay as they were. */
	if (g->shape == RULES_HEX)
		bput(&b, "shape: hex\n");
	bput(&b, "size: %d\nswap: %s\n", g->size, g->swap ? "on" : "off");
	bput(&b, "black: %s\nwhite: %s\n", g->black, g->white);
	bput(&b, "status: %s\n", status_names[g->rg.result]);
	if (g->rg.result == RULES_PLAYING)
		bput(&b, "to-move: %s\n", rules_color_name(g->rg.to_move));
	else
		bput(&b, "end: %s\n", end_names[g->end]);
	bput(&b, "turn: %d\n", g->nturns + 1);
	bput(&b, "created: %s\n", gamefile_time_str(g->created, t));
	bput(&b, "last-move: %s\n", gamefile_time_str(g->last_move, t));
	if (g->remind != 0 && g->rg.result == RULES_PLAYING)
		bput(&b, "remind: %s\n", gamefile_time_str(g->remind, t));
	if (g->thread[0] != '\0')
		bput(&b, "thread: %s\n", g->thread);
	if (g->robot_level != 0)
		bput(&b, "robot-level: %d\n", g->robot_level);
	if (g->unrated)
		bput(&b, "rated: no\n");
	if (g->opened)
		bput(&b, "open-challenge: yes\n");
	observers_line(&b, g, false);
	observers_line(&b, g, true);
	if (g->remind_days != 0)
		bput(&b, "remind-days: %d\n", g->remind_days);
	if (g->timeout_days != 0)
		bput(&b, "timeout-days: %d\n", g->timeout_days);
	if (g->pending[0] != '\0' && g->rg.result == RULES_PLAYING) {
		bput(&b, "pending: ");
		bappend(&b, g->pending, strlen(g->pending));
		bappend(&b, "\n", 1);
	}
	if (g->queue_owner[0] != '\0' && g->rg.result == RULES_PLAYING) {
		bput(&b, "queue: %s ", g->queue_owner);
		bappend(&b, g->queue, strlen(g->queue));
		bappend(&b, "\n", 1);
	}
	n = board_render_game(g, board);
	bappend(&b, "\n", 1);
	bappend(&b, board, n);
	bappend(&b, "\nhistory:\n", 10);
	/* a history that does not replay (an admin's edit) is written without its captures */
	have_gc = game_captures(g, &gc) == GAME_OK;
	for (i = 0; i < g->nturns; i++) {
		/* the notes stand between the turns: after turn `after` */
		for (; k < g->nnotes && g->notes[k].after <= i; k++)
			note_line(&b, &g->notes[k]);
		e = &g->turns[i];
		assert(e->action != GAME_PLACE || (e->npoints > 0 && e->npoints <= RULES_MAX_POINTS));
		/* 7 digits, time, colour, 32-character name, action: under 96 bytes; then the captures */
		if (bgrow(&b, 96 + 4 * (size_t)e->npoints + (have_gc ? CAPTURED_LEN + 2 * (size_t)e->npoints +
		    5 * (size_t)turn_captured(e, &gc) + 1 : 0)))
			b.len += entry_line(g, e, have_gc ? &gc : NULL, b.s + b.len);
	}
	for (; k < g->nnotes; k++)
		note_line(&b, &g->notes[k]);
	if (have_gc)
		game_captures_release(&gc);
	if (b.failed) {
		free(b.s);
		return GAMEFILE_NO_MEMORY;
	}
	b.s[b.len] = '\0';
	*out = b.s;
	*len = b.len;
	return GAMEFILE_OK;
}

const char *gamefile_status_str(enum gamefile_status s)
{
	switch (s) {
	case GAMEFILE_OK:
		return "ok";
	case GAMEFILE_BAD:
		return "not a valid game file";
	case GAMEFILE_NO_MEMORY:
		return "out of memory";
	}
	return "unknown gamefile status";
}
