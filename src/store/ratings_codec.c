/* ratings_codec: the ratings file's text, parsed and written (ratings.h). */
#include "store/ratings.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "game/gamefile.h"
#include "store/ratings_int.h"

#define QUOTE_MAX 40

static const char *const result_names[] = { "playing", "black-won", "white-won", "drawn" };

static enum store_status fail(char *err, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static enum store_status fail(char *err, int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = line > 0 ? snprintf(err, RATINGS_ERR_MAX, "%s:%d: ", RATINGS_FILE, line) :
	    snprintf(err, RATINGS_ERR_MAX, "%s: ", RATINGS_FILE);
	va_start(ap, fmt);
	vsnprintf(err + n, RATINGS_ERR_MAX - (size_t)n, fmt, ap);
	va_end(ap);
	return STORE_CORRUPT;
}

/* The token as printable text for an error, cut to QUOTE_MAX characters. */
static const char *quote(char q[QUOTE_MAX + 4], const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k < QUOTE_MAX; i++)
		q[k++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (i < n) {
		memcpy(q + k, "...", 3);
		k += 3;
	}
	q[k] = '\0';
	return q;
}

#define MAX_TOKENS 12
struct tokens {
	const char *s[MAX_TOKENS];
	size_t n[MAX_TOKENS];
	int count;		/* MAX_TOKENS + 1: too many */
};

static void split(const char *s, size_t len, struct tokens *t)
{
	size_t i = 0, b;

	t->count = 0;
	while (i < len) {
		while (i < len && s[i] == ' ')
			i++;
		if (i == len)
			break;
		b = i;
		while (i < len && s[i] != ' ')
			i++;
		if (t->count == MAX_TOKENS) {
			t->count++;
			return;
		}
		t->s[t->count] = s + b;
		t->n[t->count] = i - b;
		t->count++;
	}
}

static bool tok_is(const struct tokens *t, int k, const char *w)
{
	return t->n[k] == strlen(w) && memcmp(t->s[k], w, t->n[k]) == 0;
}

static bool tok_copy(const struct tokens *t, int k, char *buf, size_t size)
{
	if (t->n[k] >= size)
		return false;
	memcpy(buf, t->s[k], t->n[k]);
	buf[t->n[k]] = '\0';
	return true;
}

/* A rated name: a lower-case user id, or robot:L. */
static bool name_ok(const char *s)
{
	const char *p;

	if (strncmp(s, RATINGS_ROBOT ":", sizeof RATINGS_ROBOT) == 0)
		return s[sizeof RATINGS_ROBOT] >= '0' + GAME_ROBOT_LEVEL_MIN &&
		    s[sizeof RATINGS_ROBOT] <= '0' + GAME_ROBOT_LEVEL_MAX && s[sizeof RATINGS_ROBOT + 1] == '\0';
	for (p = s; *p != '\0'; p++)
		if (isupper((unsigned char)*p))
			return false;
	return ident_userid_ok(s);
}

static bool tok_name(const struct tokens *t, int k, char out[RATINGS_NAME_SIZE])
{
	return tok_copy(t, k, out, RATINGS_NAME_SIZE) && name_ok(out);
}

static bool tok_class(const struct tokens *t, int k, enum ratings_class *c)
{
	char buf[16];

	return tok_copy(t, k, buf, sizeof buf) && ratings_class_parse(buf, c) && strcmp(buf, ratings_class_name(*c)) == 0;
}

/* A decimal number in [lo, hi], as ratings_format writes them. */
static bool tok_double(const struct tokens *t, int k, double lo, double hi, double *out)
{
	char buf[32], *end;
	size_t i;

	if (!tok_copy(t, k, buf, sizeof buf))
		return false;
	for (i = 0; buf[i] != '\0'; i++)
		if (!isdigit((unsigned char)buf[i]) && buf[i] != '.' && !(i == 0 && buf[i] == '-'))
			return false;
	errno = 0;
	*out = strtod(buf, &end);
	return errno == 0 && *end == '\0' && end != buf && isfinite(*out) && *out >= lo && *out <= hi;
}

static bool tok_count(const struct tokens *t, int k, unsigned long *out)
{
	unsigned long v = 0;
	size_t i;

	if (t->n[k] == 0 || t->n[k] > 9 || (t->n[k] > 1 && t->s[k][0] == '0'))
		return false;
	for (i = 0; i < t->n[k]; i++) {
		if (!isdigit((unsigned char)t->s[k][i]))
			return false;
		v = v * 10 + (unsigned long)(t->s[k][i] - '0');
	}
	*out = v;
	return true;
}

static bool grow(void **p, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc != 0 ? *alloc : 64;
	void *q;

	if (need <= *alloc)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (q == NULL)
		return false;
	*p = q;
	*alloc = n;
	return true;
}

static enum store_status parse_player(const struct tokens *t, int line, struct ratings_player *p, char *err)
{
	char q[QUOTE_MAX + 4];
	double r, rd, sigma;

	if (t->count != 11)
		return fail(err, line, "a player line has 10 fields (class name rating deviation volatility games "
		    "won lost drawn last-game), not %d", t->count > MAX_TOKENS ? t->count : t->count - 1);
	memset(p, 0, sizeof *p);
	if (!tok_class(t, 1, &p->cls))
		return fail(err, line, "unknown class '%s'", quote(q, t->s[1], t->n[1]));
	if (!tok_name(t, 2, p->name))
		return fail(err, line, "bad player name '%s'", quote(q, t->s[2], t->n[2]));
	if (!tok_double(t, 3, -100000, 100000, &r))
		return fail(err, line, "bad rating '%s'", quote(q, t->s[3], t->n[3]));
	if (!tok_double(t, 4, 0, GLICKO_RD0, &rd))
		return fail(err, line, "bad deviation '%s' (0 to %.0f)", quote(q, t->s[4], t->n[4]), GLICKO_RD0);
	if (!tok_double(t, 5, 0, 10, &sigma))
		return fail(err, line, "bad volatility '%s'", quote(q, t->s[5], t->n[5]));
	p->r = glicko_from(r, rd, sigma);
	if (!tok_count(t, 6, &p->games) || !tok_count(t, 7, &p->won) || !tok_count(t, 8, &p->lost) ||
	    !tok_count(t, 9, &p->drawn))
		return fail(err, line, "bad count of games");
	if (p->games == 0 || p->won + p->lost + p->drawn != p->games)
		return fail(err, line, "%lu games are not %lu won + %lu lost + %lu drawn", p->games, p->won, p->lost,
		    p->drawn);
	if (!gamefile_time_parse(t->s[10], t->n[10], &p->last))
		return fail(err, line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)", quote(q, t->s[10], t->n[10]));
	return STORE_OK;
}

static enum store_status parse_result(const struct tokens *t, int line, struct ratings_result *g, char *err)
{
	char q[QUOTE_MAX + 4];
	int k;

	if (t->count != 7)
		return fail(err, line, "a game line has 6 fields (board class ended black white result), not %d",
		    t->count > MAX_TOKENS ? t->count : t->count - 1);
	memset(g, 0, sizeof *g);
	if (!ident_board_parse(t->s[1], t->n[1], &g->board))
		return fail(err, line, "bad board '%s'", quote(q, t->s[1], t->n[1]));
	if (!tok_class(t, 2, &g->cls))
		return fail(err, line, "unknown class '%s'", quote(q, t->s[2], t->n[2]));
	if (!gamefile_time_parse(t->s[3], t->n[3], &g->ended))
		return fail(err, line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)", quote(q, t->s[3], t->n[3]));
	if (!tok_name(t, 4, g->black))
		return fail(err, line, "bad player name '%s'", quote(q, t->s[4], t->n[4]));
	if (!tok_name(t, 5, g->white))
		return fail(err, line, "bad player name '%s'", quote(q, t->s[5], t->n[5]));
	if (strcmp(g->black, g->white) == 0)
		return fail(err, line, "%s cannot play against itself in a rated game", g->black);
	for (k = RULES_BLACK_WINS; k <= RULES_DRAW; k++)
		if (tok_is(t, 6, result_names[k]))
			g->result = (enum rules_result)k;
	if (g->result == RULES_PLAYING)
		return fail(err, line, "result must be black-won, white-won or drawn, not '%s'",
		    quote(q, t->s[6], t->n[6]));
	return STORE_OK;
}

/* Results in the file's order: by end, then board. */
int ratings_result_cmp(const struct ratings_result *a, const struct ratings_result *b)
{
	if (a->ended != b->ended)
		return a->ended < b->ended ? -1 : 1;
	return a->board < b->board ? -1 : a->board > b->board;
}

int ratings_result_qcmp(const void *a, const void *b)
{
	return ratings_result_cmp(a, b);
}

static int long_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* One line per board: a second one would count its game twice. */
static enum store_status no_repeats(const struct ratings *r, char *err)
{
	long *b;
	size_t k;
	enum store_status ss = STORE_OK;

	if (r->nresults < 2)
		return STORE_OK;
	b = malloc(r->nresults * sizeof *b);
	if (b == NULL)
		return STORE_TEMPFAIL;
	for (k = 0; k < r->nresults; k++)
		b[k] = r->results[k].board;
	qsort(b, r->nresults, sizeof *b, long_cmp);
	for (k = 1; k < r->nresults && ss == STORE_OK; k++)
		if (b[k] == b[k - 1])
			ss = fail(err, 0, "board %ld has two game lines", b[k]);
	free(b);
	return ss;
}

enum store_status ratings_parse(const char *text, size_t len, bool players_only, struct ratings *out, char *err)
{
	size_t i = 0, e, alloc_p = 0, alloc_r = 0;
	struct tokens t;
	enum store_status ss;
	char q[QUOTE_MAX + 4];
	int line = 0;
	bool period = false, games = false;

	memset(out, 0, sizeof *out);
	err[0] = '\0';
	while (i < len) {
		line++;
		for (e = i; e < len && text[e] != '\n'; e++)
			if (text[e] == '\0' || text[e] == '\r' || text[e] == '\t')
				return fail(err, line, "a control character at column %zu", e - i + 1);
		if (e == len)
			return fail(err, line, "the last line has no line end (a write cut short?)");
		if (e == i || text[i] == '#') {
			i = e + 1;
			continue;
		}
		split(text + i, e - i, &t);
		if (t.count > MAX_TOKENS)
			return fail(err, line, "too many fields");
		if (tok_is(&t, 0, "player:")) {
			if (games)
				return fail(err, line, "a player line after the game lines");
			if (!grow((void **)&out->players, &alloc_p, out->nplayers + 1, sizeof *out->players))
				return STORE_TEMPFAIL;
			ss = parse_player(&t, line, &out->players[out->nplayers], err);
			if (ss != STORE_OK)
				return ss;
			out->nplayers++;
		} else if (tok_is(&t, 0, "game:")) {
			if (players_only)
				break;
			games = true;
			if (!grow((void **)&out->results, &alloc_r, out->nresults + 1, sizeof *out->results))
				return STORE_TEMPFAIL;
			ss = parse_result(&t, line, &out->results[out->nresults], err);
			if (ss != STORE_OK)
				return ss;
			if (out->nresults > 0 && ratings_result_cmp(&out->results[out->nresults - 1],
			    &out->results[out->nresults]) >= 0)
				return fail(err, line, "board %ld is out of order (games go by end, then board)",
				    out->results[out->nresults].board);
			out->nresults++;
		} else if (tok_is(&t, 0, "period-days:")) {
			if (t.count != 2 || !tok_is(&t, 1, "14"))
				return fail(err, line, "period-days must be %d (the server's rating period)",
				    RATINGS_PERIOD_DAYS);
			if (period)
				return fail(err, line, "period-days is given twice");
			period = true;
		} else {
			return fail(err, line, "unknown line '%s' (want player:, game: or period-days:)",
			    quote(q, t.s[0], t.n[0]));
		}
		i = e + 1;
	}
	return no_repeats(out, err);
}

#define GAMES_HEAD "\n# game: board class ended black white result\n"

static size_t format_head(const struct ratings *r, char *s, size_t cap);
static size_t format_player(char *s, size_t cap, const struct ratings_player *p);

/* Is the player line at line (of the old text) one of the added result x's two players? */
static bool line_of(const char *line, const struct ratings_result *x)
{
	const char *c = ratings_class_name(x->cls);
	size_t n = strlen(c), k;
	const char *names[2] = { x->black, x->white };
	int i;

	if (strncmp(line, "player: ", 8) != 0 || strncmp(line + 8, c, n) != 0 || line[8 + n] != ' ')
		return false;
	for (i = 0; i < 2; i++) {
		k = strlen(names[i]);
		if (strncmp(line + 9 + n, names[i], k) == 0 && line[9 + n + k] == ' ')
			return true;
	}
	return false;
}

/* One game line into s (cap bytes free, at least 160). */
static size_t format_game(char *s, size_t cap, const struct ratings_result *g)
{
	char t[GAMEFILE_TIME_SIZE];

	return (size_t)snprintf(s, cap, "game: %ld %s %s %s %s %s\n", g->board, ratings_class_name(g->cls),
	    gamefile_time_str(g->ended, t), g->black, g->white, result_names[g->result]);
}

/*
 * The file's text when the only change since r->from was read is the one
 * result r->added (ratings_add_result): the players' lines made anew, the
 * game lines of r->from kept, the new one put in its place (the lines are
 * in the results' order).  NULL when r->from does not have the shape
 * expected: the caller makes the text whole.
 */
static char *format_splice(const struct ratings *r, size_t *len)
{
	const char *games, *end, *at;
	size_t i, k, cap, n;
	char *s;

	if (r->from == NULL || r->adds != 1 || r->nresults == 0)
		return NULL;
	games = memmem(r->from, r->from_len, GAMES_HEAD, strlen(GAMES_HEAD));
	if (games == NULL)
		return NULL;
	games += strlen(GAMES_HEAD);
	end = r->from + r->from_len;
	for (i = 0; i < r->nresults && r->results[i].board != r->added; i++)
		;
	if (i == r->nresults)
		return NULL;
	/* the new line goes before the last k old lines */
	at = end;
	for (k = r->nresults - 1 - i; k > 0; k--) {
		if (at == games)
			return NULL;
		for (at--; at > games && at[-1] != '\n'; at--)
			;
	}
	cap = 1024 + r->nplayers * 160 + (size_t)(end - games) + 160;
	s = malloc(cap);
	if (s == NULL)
		return NULL;
	/*
	 * The players' lines: only the result's two players changed (and moved,
	 * by their new ratings); the others keep their lines and their order.
	 */
	{
		const char *old = memmem(r->from, r->from_len, "\nplayer: ", 9), *stop = games - strlen(GAMES_HEAD);
		const char *nl;
		size_t p;

		if (old == NULL) {
			free(s);
			return NULL;
		}
		old++;
		n = (size_t)(old - r->from);
		memcpy(s, r->from, n);	/* the header, as format_head() writes it */
		for (p = 0; p < r->nplayers; p++) {
			const struct ratings_player *pl = &r->players[p];

			if (pl->cls == r->results[i].cls && (strcmp(pl->name, r->results[i].black) == 0 ||
			    strcmp(pl->name, r->results[i].white) == 0)) {
				n += format_player(s + n, cap - n, pl);
				continue;
			}
			/* the next old line not of the two */
			while (old < stop && line_of(old, &r->results[i]))
				old = (const char *)memchr(old, '\n', (size_t)(stop - old)) + 1;
			if (old >= stop || (nl = memchr(old, '\n', (size_t)(stop - old))) == NULL) {
				free(s);
				return NULL;
			}
			memcpy(s + n, old, (size_t)(nl + 1 - old));
			n += (size_t)(nl + 1 - old);
			old = nl + 1;
		}
		while (old < stop && line_of(old, &r->results[i]))
			old = (const char *)memchr(old, '\n', (size_t)(stop - old)) + 1;
		if (old != stop) {
			free(s);
			return NULL;	/* lines left over: not the text r was read from */
		}
		n += (size_t)snprintf(s + n, cap - n, GAMES_HEAD);
	}
	memcpy(s + n, games, (size_t)(at - games));
	n += (size_t)(at - games);
	n += format_game(s + n, cap - n, &r->results[i]);
	memcpy(s + n, at, (size_t)(end - at));
	n += (size_t)(end - at);
	s[n] = '\0';
	*len = n;
	return s;
}

/* The header, the players' lines and the game lines' heading into s (cap bytes); its length. */
static size_t format_head(const struct ratings *r, char *s, size_t cap)
{
	size_t n = 0, i;

	n += (size_t)snprintf(s + n, cap - n,
	    "# oustpbm ratings: Glicko-2, one rating per board class. Format: games/README.md\n"
	    "# Made from the game lines below; `oustpbm ratings --rebuild` makes it again from games/.\n"
	    "# Counted: " RATINGS_RULE_SHORT ";\n# " RATINGS_RULE_REPEAT ".\n"
	    "period-days: %d\n\n"
	    "# player: class name rating deviation volatility games won lost drawn last-game\n",
	    RATINGS_PERIOD_DAYS);
	for (i = 0; i < r->nplayers; i++)
		n += format_player(s + n, cap - n, &r->players[i]);
	n += (size_t)snprintf(s + n, cap - n, GAMES_HEAD);
	return n;
}

/* One player line into s (cap bytes free, at least 160: a 32-character name and bounded numbers). */
static size_t format_player(char *s, size_t cap, const struct ratings_player *p)
{
	char t[GAMEFILE_TIME_SIZE];

	return (size_t)snprintf(s, cap, "player: %s %s %.2f %.2f %.6f %lu %lu %lu %lu %s\n", ratings_class_name(p->cls),
	    p->name, glicko_r(&p->r), glicko_rd(&p->r), p->r.sigma, p->games, p->won, p->lost, p->drawn,
	    gamefile_time_str(p->last, t));
}

enum store_status ratings_format(const struct ratings *r, char **text, size_t *len)
{
	size_t cap = 1024 + r->nplayers * 160 + r->nresults * 160, n = 0, i;
	char *s;

	*text = format_splice(r, len);
	if (*text != NULL)
		return STORE_OK;
	*len = 0;
	s = malloc(cap);
	if (s == NULL)
		return STORE_TEMPFAIL;
	n = format_head(r, s, cap);
	for (i = 0; i < r->nresults; i++)
		n += format_game(s + n, cap - n, &r->results[i]);
	assert(n < cap);
	*text = s;
	*len = n;
	return STORE_OK;
}

