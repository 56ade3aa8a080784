/*
 * ratings: the ratings file and its commit protocol (ratings.h).
 */
#include "store/ratings.h"

#include <assert.h>
#include <inttypes.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "game/ai.h"
#include "game/gamefile.h"

#define QUOTE_MAX 40

static const char *const class_names[RATINGS_NCLASSES] = {
	"small", "standard", "large", "hex-small", "hex-standard", "hex-large"
};
static const char *const class_sizes[RATINGS_NCLASSES] = {
	"5x5 to 9x9", "11x11 to 13x13", "15x15 to 25x25", "hex sides 3 to 5", "hex sides 6 to 8",
	"hex sides 9 and 10"
};
static const char *const result_names[] = { "playing", "black-won", "white-won", "drawn" };

const char *ratings_class_name(enum ratings_class c)
{
	return c < RATINGS_NCLASSES ? class_names[c] : "unknown";
}

const char *ratings_class_sizes(enum ratings_class c)
{
	return c < RATINGS_NCLASSES ? class_sizes[c] : "";
}

bool ratings_class_parse(const char *s, enum ratings_class *out)
{
	int c;

	for (c = 0; c < RATINGS_NCLASSES; c++) {
		if (strcasecmp(s, class_names[c]) == 0) {
			*out = (enum ratings_class)c;
			return true;
		}
	}
	return false;
}

enum ratings_class ratings_class_of(const struct game *g)
{
	if (g->shape == RULES_HEX)
		return g->size <= 5 ? RATINGS_HEX_SMALL : g->size <= 8 ? RATINGS_HEX_STANDARD : RATINGS_HEX_LARGE;
	return g->size <= 9 ? RATINGS_SMALL : g->size <= 13 ? RATINGS_STANDARD : RATINGS_LARGE;
}

const char *ratings_standing_str(enum ratings_standing s)
{
	switch (s) {
	case RATINGS_ESTABLISHED:
		return "established";
	case RATINGS_PROVISIONAL:
		return "provisional";
	case RATINGS_INACTIVE:
		return "inactive";
	}
	return "unknown";
}

void ratings_name(const struct game *g, enum rules_color c, char out[RATINGS_NAME_SIZE])
{
	const char *who = game_player_of(g, c);

	if (strcasecmp(who, RATINGS_ROBOT) == 0)
		snprintf(out, RATINGS_NAME_SIZE, "%s:%d", RATINGS_ROBOT,
		    g->robot_level != 0 ? g->robot_level : AI_DEFAULT_LEVEL);
	else
		snprintf(out, RATINGS_NAME_SIZE, "%s", who);
}

/*
 * The turns with placements each player made (a swap, a pass, a
 * resignation is none), by who made them: after a swap the first stone
 * is the swapper's colour, not his turn.
 */
static void placement_turns(const struct game *g, int *black, int *white)
{
	int i;

	*black = *white = 0;
	for (i = 0; i < g->nturns; i++)
		if (g->turns[i].action == GAME_PLACE) {
			if (strcasecmp(g->turns[i].player, g->black) == 0)
				(*black)++;
			else if (strcasecmp(g->turns[i].player, g->white) == 0)
				(*white)++;
		}
}

bool ratings_game_rated(const struct game *g)
{
	return !g->unrated && strcasecmp(g->black, g->white) != 0;
}

bool ratings_game_counts(const struct game *g)
{
	int black, white, winner;

	if (!ratings_game_rated(g))
		return false;
	/* a game resigned, or agreed drawn, at once is no evidence of strength: farmed (issue 31) */
	placement_turns(g, &black, &white);
	if (black >= RATINGS_MIN_TURNS && white >= RATINGS_MIN_TURNS)
		return true;
	/* a loss on time counts once the winner had played: the loser let the clock run */
	winner = g->rg.result == RULES_BLACK_WINS ? black : g->rg.result == RULES_WHITE_WINS ? white : 0;
	return g->end == GAME_END_TIMEOUT && winner >= 1;
}

void ratings_result_of(const struct game *g, struct ratings_result *out)
{
	assert(game_over(g));
	memset(out, 0, sizeof *out);
	out->board = g->board;
	out->cls = ratings_class_of(g);
	out->ended = g->last_move;
	ratings_name(g, RULES_BLACK, out->black);
	ratings_name(g, RULES_WHITE, out->white);
	out->result = g->rg.result;
}

int64_t ratings_period(int64_t t)
{
	/* floor division: times before 1970 do not occur (gamefile.h), but stay correct */
	return t >= 0 ? t / RATINGS_PERIOD_SECONDS : -((-t + RATINGS_PERIOD_SECONDS - 1) / RATINGS_PERIOD_SECONDS);
}

static struct glicko_player as_glicko(const struct ratings_player *p)
{
	struct glicko_player g;

	g.r = p->r;
	g.games = p->games;
	g.last_period = ratings_period(p->last);
	return g;
}

struct glicko_rating ratings_now(const struct ratings_player *p, int64_t now)
{
	struct glicko_player g = as_glicko(p);

	return glicko_at(&g, ratings_period(now) > g.last_period ? ratings_period(now) : g.last_period);
}

enum ratings_standing ratings_standing(const struct ratings_player *p, int64_t now)
{
	struct glicko_rating r;

	if (ratings_period(now) - ratings_period(p->last) > RATINGS_INACTIVE_PERIODS)
		return RATINGS_INACTIVE;
	r = ratings_now(p, now);
	return glicko_rd(&r) > RATINGS_PROVISIONAL_RD ? RATINGS_PROVISIONAL : RATINGS_ESTABLISHED;
}

void ratings_release(struct ratings *r)
{
	free(r->players);
	free(r->results);
	free(r->from);
	memset(r, 0, sizeof *r);
}

/* ---- the codec ---- */

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

	return tok_copy(t, k, buf, sizeof buf) && ratings_class_parse(buf, c) && strcmp(buf, class_names[*c]) == 0;
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
static int result_cmp(const struct ratings_result *a, const struct ratings_result *b)
{
	if (a->ended != b->ended)
		return a->ended < b->ended ? -1 : 1;
	return a->board < b->board ? -1 : a->board > b->board;
}

static int result_qcmp(const void *a, const void *b)
{
	return result_cmp(a, b);
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
			if (out->nresults > 0 && result_cmp(&out->results[out->nresults - 1],
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

/* ---- making the ratings ---- */

struct key {
	enum ratings_class cls;
	const char *name;
};

static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Standings order: class, rating (highest first), name. */
static int player_cmp(const void *a, const void *b)
{
	const struct ratings_player *x = a, *y = b;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->r.mu != y->r.mu)
		return x->r.mu > y->r.mu ? -1 : 1;
	return strcmp(x->name, y->name);
}

static size_t key_index(const struct key *keys, size_t n, enum ratings_class cls, const char *name)
{
	struct key k = { cls, name };
	const struct key *hit = bsearch(&k, keys, n, sizeof *keys, key_cmp);

	assert(hit != NULL);
	return (size_t)(hit - keys);
}

/*
 * A game file read for the ratings: the header, and the history too when
 * the header says a rated game is over (ratings_game_counts counts its
 * turns).  The caller releases *g.
 */
static enum gamefile_status parse_for_ratings(const char *text, size_t len, struct game *g,
    struct gamefile_error *ge)
{
	enum gamefile_status gs = gamefile_parse_header(text, len, g, ge);

	if (gs != GAMEFILE_OK || !game_over(g) || !ratings_game_rated(g))
		return gs;
	game_release(g);
	memset(g, 0, sizeof *g);
	return gamefile_parse(text, len, g, ge);
}

/*
 * Is result i (of r's, sorted by end then board) a repeat: an earlier
 * result of its rating period and class has the same two players?  Only
 * the first game of a pair in a period counts (ratings.h): Glicko-2 rates
 * a period's games as independent results against the opponents' ratings
 * at its start, and a pair's games in a row are not (a player and his
 * second account farm that way).
 */
static bool is_repeat(const struct ratings *r, size_t i)
{
	const struct ratings_result *x = &r->results[i], *y;
	int64_t period = ratings_period(x->ended);
	size_t k;

	for (k = i; k-- > 0;) {
		y = &r->results[k];
		if (ratings_period(y->ended) != period)
			break;
		if (y->cls == x->cls && ((strcmp(y->black, x->black) == 0 && strcmp(y->white, x->white) == 0) ||
		    (strcmp(y->black, x->white) == 0 && strcmp(y->white, x->black) == 0)))
			return true;
	}
	return false;
}

bool ratings_result_repeat(const struct ratings *r, size_t i)
{
	assert(i < r->nresults);
	return is_repeat(r, i);
}

enum store_status ratings_compute(struct ratings *r)
{
	struct key *keys = NULL;
	struct glicko_game *games = NULL;
	struct glicko_player *gp = NULL, *entered = NULL;
	struct glicko_side *work = NULL;
	struct glicko_outcome *outs = NULL;
	struct ratings_player *players = NULL;
	enum store_status ss = STORE_TEMPFAIL;
	size_t n = r->nresults, nk = 0, i, k, a, b, cut, ng = 0;
	int64_t last = 0;

	if (n > 0)
		qsort(r->results, n, sizeof *r->results, result_qcmp);
	keys = malloc((2 * n + 1) * sizeof *keys);
	games = malloc((n + 1) * sizeof *games);
	work = malloc((2 * n + 1) * sizeof *work);
	outs = malloc((2 * n + 1) * sizeof *outs);
	if (keys == NULL || games == NULL || work == NULL || outs == NULL)
		goto out;
	for (i = 0; i < n; i++) {
		keys[2 * i] = (struct key){ r->results[i].cls, r->results[i].black };
		keys[2 * i + 1] = (struct key){ r->results[i].cls, r->results[i].white };
	}
	qsort(keys, 2 * n, sizeof *keys, key_cmp);
	for (i = 0; i < 2 * n; i++)
		if (nk == 0 || key_cmp(&keys[nk - 1], &keys[i]) != 0)
			keys[nk++] = keys[i];
	gp = calloc(nk + 1, sizeof *gp);
	entered = calloc(nk + 1, sizeof *entered);
	players = calloc(nk + 1, sizeof *players);
	if (gp == NULL || entered == NULL || players == NULL)
		goto out;
	for (k = 0; k < nk; k++) {
		players[k].cls = keys[k].cls;
		snprintf(players[k].name, sizeof players[k].name, "%s", keys[k].name);
	}
	for (i = 0; i < n; i++) {
		const struct ratings_result *res = &r->results[i];

		a = key_index(keys, nk, res->cls, res->black);
		b = key_index(keys, nk, res->cls, res->white);
		players[a].last = players[b].last = res->ended;	/* the results go by end */
		if (is_repeat(r, i))
			continue;	/* weight 0: listed, not counted */
		games[ng].period = ratings_period(res->ended);
		games[ng].a = a;
		games[ng].b = b;
		games[ng].score_a = res->result == RULES_BLACK_WINS ? 1.0 : res->result == RULES_WHITE_WINS ? 0.0 : 0.5;
		ng++;
		players[a].won += res->result == RULES_BLACK_WINS;
		players[a].lost += res->result == RULES_WHITE_WINS;
		players[b].won += res->result == RULES_WHITE_WINS;
		players[b].lost += res->result == RULES_BLACK_WINS;
		players[a].drawn += res->result == RULES_DRAW;
		players[b].drawn += res->result == RULES_DRAW;
	}
	/* the periods before the latest, then the latest: the players as they entered it kept (exact) */
	last = ng > 0 ? games[ng - 1].period : 0;
	for (cut = ng; cut > 0 && games[cut - 1].period == last; cut--)
		;
	glicko_run(gp, nk, games, cut, GLICKO_TAU, work, outs);
	memcpy(entered, gp, nk * sizeof *gp);
	glicko_continue(gp, nk, games + cut, ng - cut, GLICKO_TAU, work, outs);
	for (k = 0; k < nk; k++) {
		players[k].r = gp[k].r;
		players[k].games = gp[k].games;
		players[k].now = gp[k];
		players[k].entered = entered[k];
	}
	qsort(players, nk, sizeof *players, player_cmp);
	free(r->players);
	r->players = players;
	r->nplayers = nk;
	r->exact = true;
	r->period = last;
	free(r->from);		/* every line may change: the text is made whole */
	r->from = NULL;
	r->adds = 0;
	players = NULL;
	ss = STORE_OK;
out:
	/* keys point into r->results: they go first */
	free(keys);
	free(games);
	free(gp);
	free(entered);
	free(work);
	free(outs);
	free(players);
	return ss;
}

bool ratings_set_result(struct ratings *r, const struct ratings_result *res, enum store_status *ss)
{
	struct ratings_result *p;
	size_t i;

	*ss = STORE_OK;
	for (i = 0; i < r->nresults; i++) {
		if (r->results[i].board == res->board) {
			if (memcmp(&r->results[i], res, sizeof *res) == 0)
				return false;
			r->results[i] = *res;
			r->exact = false;	/* ratings_compute() makes every rating again */
			return true;
		}
	}
	p = realloc(r->results, (r->nresults + 1) * sizeof *p);
	if (p == NULL) {
		*ss = STORE_TEMPFAIL;
		return false;
	}
	r->results = p;
	r->results[r->nresults++] = *res;
	r->exact = false;
	return true;
}

/* The index of player name in class cls, added (a new player) if absent; (size_t)-1 out of memory. */
static size_t player_index(struct ratings *r, enum ratings_class cls, const char *name)
{
	struct ratings_player *p;
	size_t i;

	for (i = 0; i < r->nplayers; i++)
		if (r->players[i].cls == cls && strcmp(r->players[i].name, name) == 0)
			return i;
	p = realloc(r->players, (r->nplayers + 1) * sizeof *p);
	if (p == NULL)
		return (size_t)-1;
	r->players = p;
	p = &r->players[r->nplayers];
	memset(p, 0, sizeof *p);
	p->cls = cls;
	snprintf(p->name, sizeof p->name, "%s", name);
	p->r = glicko_from(GLICKO_R0, GLICKO_RD0, GLICKO_SIGMA0);
	p->now.r = p->r;
	p->entered = p->now;
	return r->nplayers++;
}

/*
 * Player k's rating after the latest period, r->period, from its games of
 * that period (the results' tail, in their order: glicko_run's) against
 * the opponents as they entered it: glicko_continue()'s arithmetic.
 */
static enum store_status update_player(struct ratings *r, size_t k)
{
	struct ratings_player *pl = &r->players[k];
	struct glicko_outcome *outs = NULL;
	struct glicko_rating self;
	size_t first, i, n = 0, o;
	bool black;

	for (first = r->nresults; first > 0 && ratings_period(r->results[first - 1].ended) == r->period; first--)
		;
	outs = malloc((r->nresults - first + 1) * sizeof *outs);
	if (outs == NULL)
		return STORE_TEMPFAIL;
	for (i = first; i < r->nresults; i++) {
		const struct ratings_result *x = &r->results[i];

		if (x->cls != pl->cls || (strcmp(x->black, pl->name) != 0 && strcmp(x->white, pl->name) != 0))
			continue;
		if (is_repeat(r, i))
			continue;	/* weight 0, as ratings_compute() */
		black = strcmp(x->black, pl->name) == 0;
		o = player_index(r, x->cls, black ? x->white : x->black);
		assert(o != (size_t)-1 && o < r->nplayers);	/* every player of the period is in r */
		pl = &r->players[k];
		outs[n].opp = glicko_at(&r->players[o].entered, r->period - 1);
		outs[n].score = x->result == RULES_DRAW ? 0.5 : (x->result == RULES_BLACK_WINS) == black ? 1.0 : 0.0;
		n++;
	}
	self = glicko_at(&pl->entered, r->period - 1);
	pl->now.r = glicko_update(&self, outs, n, GLICKO_TAU);
	pl->now.last_period = r->period;
	pl->now.games = pl->entered.games + n;
	pl->r = pl->now.r;
	pl->games = pl->now.games;
	free(outs);
	return STORE_OK;
}

bool ratings_add_result(struct ratings *r, const struct ratings_result *res, bool *incremental,
    enum store_status *ss)
{
	int64_t period = ratings_period(res->ended);
	struct ratings_result *p;
	size_t i, at, k[2];
	int side;

	*incremental = false;
	*ss = STORE_OK;
	for (i = 0; i < r->nresults; i++)
		if (r->results[i].board == res->board)
			return ratings_set_result(r, res, ss);	/* changed or the same: not a new game */
	if (!r->exact || (r->nresults > 0 && period < r->period) || res->result == RULES_PLAYING ||
	    strcmp(res->black, res->white) == 0)
		return ratings_set_result(r, res, ss);
	/* both players in r (a new one as a new player) before anything changes */
	k[0] = player_index(r, res->cls, res->black);
	k[1] = k[0] == (size_t)-1 ? k[0] : player_index(r, res->cls, res->white);
	p = k[1] == (size_t)-1 ? NULL : realloc(r->results, (r->nresults + 1) * sizeof *p);
	if (p == NULL) {
		*ss = STORE_TEMPFAIL;
		r->exact = false;	/* a player may have been added: made again from the results */
		return false;
	}
	r->results = p;
	/* in the results' order (end, then board): at the tail, the latest period's */
	for (at = r->nresults; at > 0 && result_cmp(&r->results[at - 1], res) > 0; at--)
		;
	if (at != r->nresults)
		return ratings_set_result(r, res, ss);	/* before a later one: which of a pair's is first may change */
	memmove(&r->results[at + 1], &r->results[at], (r->nresults - at) * sizeof *p);
	r->results[at] = *res;
	r->nresults++;
	r->period = period;
	for (side = 0; side < 2; side++) {
		struct ratings_player *pl = &r->players[k[side]];

		/* entering the period with this game: as it stood after its earlier periods */
		if (pl->now.games == 0 || pl->now.last_period != period)
			pl->entered = pl->now;
		if (!is_repeat(r, at)) {
			pl->won += res->result == (side == 0 ? RULES_BLACK_WINS : RULES_WHITE_WINS);
			pl->lost += res->result == (side == 0 ? RULES_WHITE_WINS : RULES_BLACK_WINS);
			pl->drawn += res->result == RULES_DRAW;
		}
		if (res->ended > pl->last || pl->now.games == 0)
			pl->last = res->ended;
	}
	for (side = 0; side < 2 && *ss == STORE_OK; side++)
		*ss = update_player(r, k[side]);
	if (*ss != STORE_OK) {
		r->exact = false;	/* made again from the results by ratings_compute() */
		return true;
	}
	qsort(r->players, r->nplayers, sizeof *r->players, player_cmp);
	*incremental = true;
	r->adds++;
	r->added = res->board;
	return true;
}

bool ratings_drop_result(struct ratings *r, long board)
{
	size_t i;

	for (i = 0; i < r->nresults; i++) {
		if (r->results[i].board == board) {
			memmove(&r->results[i], &r->results[i + 1], (r->nresults - i - 1) * sizeof *r->results);
			r->nresults--;
			r->exact = false;
			return true;
		}
	}
	return false;
}

const struct ratings_player *ratings_find(const struct ratings *r, enum ratings_class cls, const char *name)
{
	size_t i;

	for (i = 0; i < r->nplayers; i++)
		if (r->players[i].cls == cls && strcmp(r->players[i].name, name) == 0)
			return &r->players[i];
	return NULL;
}

#define GAMES_HEAD "\n# game: board class ended black white result\n"

static size_t format_head(const struct ratings *r, char *s, size_t cap);
static size_t format_player(char *s, size_t cap, const struct ratings_player *p);

/* Is the player line at line (of the old text) one of the added result x's two players? */
static bool line_of(const char *line, const struct ratings_result *x)
{
	const char *c = class_names[x->cls];
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

	return (size_t)snprintf(s, cap, "game: %ld %s %s %s %s %s\n", g->board, class_names[g->cls],
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

	return (size_t)snprintf(s, cap, "player: %s %s %.2f %.2f %.6f %lu %lu %lu %lu %s\n", class_names[p->cls],
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

/* ---- the store ---- */

static enum store_status store_fail(struct store *st, enum store_status ss, char *err, const char *what)
{
	snprintf(err, RATINGS_ERR_MAX, "%s: %s", what, store_error(st));
	return ss;
}

/* A double's 64 bits, as 16 hex digits: exact, and quick to read back. */
static size_t put_bits(char *s, double d)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof u);
	for (i = 15; i >= 0; i--, u >>= 4)
		s[i] = hex[u & 15];
	s[16] = ' ';
	return 17;
}

static bool get_bits(const char **p, double *d)
{
	uint64_t u = 0;
	int i, c;

	for (i = 0; i < 16; i++) {
		c = (unsigned char)(*p)[i];
		if (c >= '0' && c <= '9')
			u = u << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			u = u << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	if ((*p)[16] != ' ')
		return false;
	memcpy(d, &u, sizeof *d);
	*p += 17;
	return true;
}

/* A decimal number, then a space or the line's end. */
static bool get_num(const char **p, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(*p, &end, 10);
	if (end == *p || errno != 0 || (*end != ' ' && *end != '\n'))
		return false;
	*p = end + 1;
	return true;
}

char *ratings_state_format(const struct ratings *r, const char *text, size_t len, size_t *slen)
{
	size_t cap = 256 + r->nplayers * (RATINGS_NAME_SIZE + 200), n = 0, i;
	char *s = malloc(cap);

	if (s == NULL)
		return NULL;
	n += (size_t)snprintf(s + n, cap - n, "# oustpbm: the exact ratings beside the ratings file "
	    "(src/store/ratings.h); made again from it when it does not match\nhash: %016" PRIx64 "\nperiod: %" PRId64
	    "\n", store_text_hash(text, len), r->period);
	/* per player, in the file's order: class, name, then now and entered: mu phi sigma (bits) games period */
	for (i = 0; i < r->nplayers; i++) {
		const struct ratings_player *p = &r->players[i];
		const struct glicko_player *g[2] = { &p->now, &p->entered };
		int k;

		n += (size_t)snprintf(s + n, cap - n, "%d %s ", (int)p->cls, p->name);
		for (k = 0; k < 2; k++) {
			n += put_bits(s + n, g[k]->r.mu);
			n += put_bits(s + n, g[k]->r.phi);
			n += put_bits(s + n, g[k]->r.sigma);
			n += (size_t)snprintf(s + n, cap - n, "%lu %" PRId64 "%c", g[k]->games, g[k]->last_period,
			    k == 0 ? ' ' : '\n');
		}
	}
	assert(n < cap);
	s[n] = '\0';
	*slen = n;
	return s;
}

/* One state line into p's exact values, if it names p; false otherwise.  *next: past the line. */
static bool state_line(const char *line, struct ratings_player *p, const char **next)
{
	struct glicko_player g[2];
	const char *q = line;
	long long cls, v;
	size_t n;
	int k;

	if (!get_num(&q, &cls) || cls != (long long)p->cls)
		return false;
	n = strlen(p->name);
	if (strncmp(q, p->name, n) != 0 || q[n] != ' ')
		return false;
	q += n + 1;
	for (k = 0; k < 2; k++) {
		if (!get_bits(&q, &g[k].r.mu) || !get_bits(&q, &g[k].r.phi) || !get_bits(&q, &g[k].r.sigma))
			return false;
		if (!get_num(&q, &v) || v < 0)
			return false;
		g[k].games = (unsigned long)v;
		if (!get_num(&q, &v))
			return false;
		g[k].last_period = v;
	}
	if (q[-1] != '\n' || g[0].games != p->games)
		return false;
	p->now = g[0];
	p->entered = g[1];
	p->r = g[0].r;
	*next = q;
	return true;
}

bool ratings_state_apply(struct ratings *r, const char *text, size_t len, const char *s, size_t slen)
{
	const char *line;
	char want[40];
	struct ratings_player *saved = NULL;
	long long period = 0;
	size_t i = 0;
	bool ok = false;

	r->exact = false;
	if (slen == 0 || s[slen] != '\0' || memchr(s, '\0', slen) != NULL)
		return false;
	saved = malloc((r->nplayers + 1) * sizeof *saved);
	if (saved == NULL)
		goto out;
	memcpy(saved, r->players, r->nplayers * sizeof *saved);
	snprintf(want, sizeof want, "hash: %016" PRIx64 "\nperiod: ", store_text_hash(text, len));
	line = strchr(s, '\n');
	if (line == NULL || strncmp(line + 1, want, strlen(want)) != 0)
		goto out;
	line += 1 + strlen(want);
	if (!get_num(&line, &period) || line[-1] != '\n')
		goto out;
	for (; *line != '\0' && i < r->nplayers; i++)
		if (!state_line(line, &r->players[i], &line))
			goto out;
	ok = i == r->nplayers && *line == '\0';
out:
	if (ok) {
		r->exact = true;
		r->period = period;
	} else if (saved != NULL) {
		memcpy(r->players, saved, r->nplayers * sizeof *saved);	/* as the ratings file says */
	}
	free(saved);
	return ok;
}

/* The state file into r (parsed from the ratings file's text[0..len)), if it is there and matches. */
static void state_load(struct store *st, struct ratings *r, const char *text, size_t len)
{
	char *s = NULL;
	size_t slen;

	r->exact = false;
	if (store_read_file(st, RATINGS_STATE_FILE, RATINGS_FILE_MAX, &s, &slen) == STORE_OK)
		ratings_state_apply(r, text, len, s, slen);
	free(s);
}

/*
 * Write r's text, durably, and the state file beside it (a failure of the
 * latter costs only time); state_only: r's text is the file's already.
 */
static enum store_status ratings_write(struct store *st, const struct ratings *r, bool state_only, char *err)
{
	char *text = NULL, *s = NULL;
	enum store_status ss;
	size_t len, slen;

	ss = ratings_format(r, &text, &len);
	if (ss != STORE_OK) {
		snprintf(err, RATINGS_ERR_MAX, "out of memory writing the ratings file");
		return ss;
	}
	ss = state_only ? STORE_OK : store_write_capped(st, RATINGS_FILE, text, len, RATINGS_FILE_MAX);
	if (ss != STORE_OK) {
		store_fail(st, ss, err, "cannot write the ratings file");
		free(text);
		return ss;
	}
	/* the state after the file it matches: a crash between leaves a state no file matches */
	if (r->exact && (s = ratings_state_format(r, text, len, &slen)) != NULL &&
	    store_write_file(st, RATINGS_STATE_FILE, s, slen) != STORE_OK)
		store_complain(st, "ratings: cannot write %s (the next game's end computes every rating): %s",
		    RATINGS_STATE_FILE, store_error(st));
	free(s);
	free(text);
	return STORE_OK;
}


enum store_status ratings_load(struct store *st, bool players_only, struct ratings *out, char *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	memset(out, 0, sizeof *out);
	ss = store_read_file(st, RATINGS_FILE, RATINGS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;	/* no rated game yet */
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot read the ratings file");
	ss = ratings_parse(text, len, players_only, out, err);
	if (ss == STORE_TEMPFAIL)
		snprintf(err, RATINGS_ERR_MAX, "out of memory reading the ratings file");
	/* the exact values, for a result added incrementally */
	if (ss == STORE_OK && !players_only)
		state_load(st, out, text, len);
	if (ss == STORE_OK && out->exact) {
		/* kept: one incremental result changes only a line of it (ratings_format) */
		out->from = text;
		out->from_len = len;
		text = NULL;
	}
	free(text);
	return ss;
}

enum store_status ratings_mark(struct store *st, long board, char *err)
{
	enum store_status ss;
	char path[64];

	ss = store_mkdir(st, RATINGS_PENDING_DIR);
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot make " RATINGS_PENDING_DIR);
	snprintf(path, sizeof path, "%s/%ld", RATINGS_PENDING_DIR, board);
	ss = store_create_file(st, path, "", 0);
	if (ss == STORE_OK)
		ss = store_sync_dir(st, RATINGS_PENDING_DIR);
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot mark the board for the ratings");
	return STORE_OK;
}

/*
 * Bring the result of board into r from its game file.  *done: its mark
 * may go (the file says what the ratings say).  A game not over whose
 * board's lock is held elsewhere is being committed: its mark stays.
 */
static enum store_status settle_board(struct store *st, struct ratings *r, long board, bool *changed, bool *full,
    bool *done, char *err)
{
	bool incremental;

	struct store_lock lock = STORE_LOCK_INIT;
	struct gamefile_error ge;
	struct ratings_result res;
	struct game g;
	enum store_status ss;
	char *text = NULL;
	size_t len;
	bool over, counts;

	*done = false;
	memset(&g, 0, sizeof g);
	ss = store_board_read(st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		/* no game file (removed by the admin): no result, as --rebuild would find */
		if (ratings_drop_result(r, board))
			*changed = *full = true;
		*done = true;
		return STORE_OK;
	}
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot read a marked game");
	if (parse_for_ratings(text, len, &g, &ge) != GAMEFILE_OK) {
		/* fsck's business: the mark stays until the admin mends it */
		snprintf(err, RATINGS_ERR_MAX, "games/%ld.game: %s", board, ge.msg);
		free(text);
		return STORE_CORRUPT;
	}
	free(text);
	over = game_over(&g);
	counts = over && ratings_game_counts(&g);
	if (counts)
		ratings_result_of(&g, &res);
	game_release(&g);
	if (counts) {
		if (ratings_add_result(r, &res, &incremental, &ss)) {
			*changed = true;
			*full |= !incremental;
		}
		*done = ss == STORE_OK;
	} else if (over || store_trylock_board(st, board, &lock) == STORE_OK) {
		/* unrated, or not over and nobody committing it (a crash before its commit, an edit) */
		if (ratings_drop_result(r, board))
			*changed = *full = true;
		*done = true;
	}
	store_unlock(&lock);
	game_release(&g);
	if (ss != STORE_OK)
		snprintf(err, RATINGS_ERR_MAX, "out of memory settling the ratings");
	return ss;
}

/* Settle the marks with ratings.lock held; r is the file's content, written if changed. */
static enum store_status settle_locked(struct store *st, struct ratings *r, bool changed, char *err)
{
	char **names = NULL, path[64];
	enum store_status ss, first = STORE_OK;
	size_t count = 0, i;
	bool *done = NULL, full = changed;
	long board;

	ss = store_list_dir(st, RATINGS_PENDING_DIR, &names, &count);
	if (ss == STORE_NOT_FOUND)
		count = 0;
	else if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot list " RATINGS_PENDING_DIR);
	done = calloc(count + 1, sizeof *done);
	if (done == NULL) {
		store_free_names(names, count);
		snprintf(err, RATINGS_ERR_MAX, "out of memory settling the ratings");
		return STORE_TEMPFAIL;
	}
	for (i = 0; i < count; i++) {
		if (!ident_board_parse(names[i], strlen(names[i]), &board))
			continue;	/* not a mark: left for the admin */
		ss = settle_board(st, r, board, &changed, &full, &done[i], err);
		if (ss != STORE_OK && first == STORE_OK)
			first = ss;	/* the others are settled all the same */
	}
	ss = STORE_OK;
	if (changed) {
		/* every rating made again, unless each new result updated its two players (ratings.h) */
		ss = full || !r->exact ? ratings_compute(r) : STORE_OK;
		if (ss != STORE_OK)
			snprintf(err, RATINGS_ERR_MAX, "out of memory computing the ratings");
		else
			ss = ratings_write(st, r, false, err);
	} else if (count > 0 && !r->exact && r->nresults > 0) {
		/* nothing new, but no state matches the file (a crash between the two writes): made again */
		if (ratings_compute(r) == STORE_OK)
			ratings_write(st, r, true, err);
		err[0] = '\0';
	}
	/* the marks go only once the ratings file that counts them is durable */
	for (i = 0; i < count && ss == STORE_OK; i++) {
		if (!done[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", RATINGS_PENDING_DIR, names[i]);
		if (store_unlink(st, path) != STORE_OK)
			break;	/* settled again next time: harmless */
	}
	free(done);
	store_free_names(names, count);
	return ss != STORE_OK ? ss : first;
}

static enum store_status lock_ratings(struct store *st, unsigned long timeout_ms, struct store_lock *lock,
    char *err)
{
	enum store_status ss = store_lock_path(st, RATINGS_LOCK_FILE, timeout_ms, lock);

	if (ss == STORE_TIMEOUT)
		snprintf(err, RATINGS_ERR_MAX, "the ratings file is locked by another process: try again later");
	else if (ss != STORE_OK)
		store_fail(st, ss, err, "cannot lock the ratings file");
	return ss;
}

enum store_status ratings_settle(struct store *st, unsigned long timeout_ms, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct ratings r;
	enum store_status ss;
	char **names = NULL;
	size_t count = 0;

	err[0] = '\0';
	/* nothing marked: nothing to lock or read (most mails) */
	ss = store_list_dir(st, RATINGS_PENDING_DIR, &names, &count);
	store_free_names(names, count);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && count == 0))
		return STORE_OK;
	ss = lock_ratings(st, timeout_ms, &lock, err);
	if (ss != STORE_OK)
		return ss;
	ss = ratings_load(st, false, &r, err);
	if (ss == STORE_OK)
		ss = settle_locked(st, &r, false, err);
	ratings_release(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status ratings_rebuild(struct store *st, unsigned long timeout_ms, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct ratings r = { 0 };
	struct ratings_result res;
	struct gamefile_error ge;
	struct game g;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, i, len;
	char *text;
	bool counts;

	err[0] = '\0';
	ss = lock_ratings(st, timeout_ms, &lock, err);
	if (ss != STORE_OK)
		return ss;
	ss = store_list_boards(st, &boards, &nboards);
	if (ss != STORE_OK) {
		store_fail(st, ss, err, "cannot list the games");
		goto out;
	}
	for (i = 0; i < nboards; i++) {
		ss = store_board_read(st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;	/* removed meanwhile */
		if (ss != STORE_OK) {
			store_fail(st, ss, err, "cannot read a game");
			goto out;
		}
		memset(&g, 0, sizeof g);
		if (parse_for_ratings(text, len, &g, &ge) != GAMEFILE_OK) {
			free(text);
			snprintf(err, RATINGS_ERR_MAX, "games/%ld.game: %s (oustpbm fsck)", boards[i], ge.msg);
			ss = STORE_CORRUPT;
			goto out;
		}
		free(text);
		counts = game_over(&g) && ratings_game_counts(&g);
		if (counts)
			ratings_result_of(&g, &res);
		game_release(&g);
		if (counts) {
			ratings_set_result(&r, &res, &ss);
			if (ss != STORE_OK) {
				snprintf(err, RATINGS_ERR_MAX, "out of memory rebuilding the ratings");
				goto out;
			}
		}
	}
	/* written even when nothing changed: --rebuild makes the file whole */
	ss = settle_locked(st, &r, true, err);
out:
	free(boards);
	ratings_release(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status ratings_before_commit(struct store *st, const struct game *g, char *err)
{
	if (!game_over(g) || !ratings_game_counts(g))
		return STORE_OK;
	return ratings_mark(st, g->board, err);
}

void ratings_cancel(struct store *st, const struct game *g)
{
	char path[64];

	if (!game_over(g) || !ratings_game_counts(g))
		return;
	snprintf(path, sizeof path, "%s/%ld", RATINGS_PENDING_DIR, g->board);
	/* a mark left (the unlink failing) is dropped by the next settle: the game is not over there */
	(void)store_unlink(st, path);
}

void ratings_after_commit(struct store *st, unsigned long timeout_ms)
{
	char err[RATINGS_ERR_MAX];

	if (ratings_settle(st, timeout_ms, err) != STORE_OK)
		store_complain(st, "ratings: %s (settled again by the next game's end or oustpbm cleanup)", err);
}

/* The player's rating now, or a new player's; *games 0 for a new one. */
static struct glicko_rating rating_of(const struct ratings *r, enum ratings_class cls, const char *name,
    int64_t now, unsigned long *games)
{
	const struct ratings_player *p = ratings_find(r, cls, name);

	*games = p != NULL ? p->games : 0;
	return p != NULL ? ratings_now(p, now) : glicko_from(GLICKO_R0, GLICKO_RD0, GLICKO_SIGMA0);
}

enum store_status ratings_mail_text(const struct ratings *r, const struct game *g, int64_t now, char *buf,
    size_t size)
{
	char names[2][RATINGS_NAME_SIZE];
	struct ratings copy = { 0 };
	struct ratings_result res;
	struct glicko_rating before[2], after[2];
	enum ratings_class cls = ratings_class_of(g);
	enum store_status ss = STORE_OK;
	unsigned long games;
	bool incremental;
	int i;

	if (!ratings_game_rated(g)) {
		snprintf(buf, size, "This game is not rated.\n");
		return STORE_OK;
	}
	if (game_over(g) && !ratings_game_counts(g)) {
		snprintf(buf, size, "This game is not rated: %s.\n", RATINGS_RULE_SHORT);
		return STORE_OK;
	}
	ratings_name(g, RULES_BLACK, names[0]);
	ratings_name(g, RULES_WHITE, names[1]);
	if (!game_over(g)) {
		int n = snprintf(buf, size, "Ratings (%s):", class_names[cls]);

		for (i = 0; i < 2 && n > 0 && (size_t)n < size; i++) {
			before[i] = rating_of(r, cls, names[i], now, &games);
			if (games == 0)
				n += snprintf(buf + n, size - (size_t)n, "%s %s 1500 (new)", i ? "," : "", names[i]);
			else
				n += snprintf(buf + n, size - (size_t)n, "%s %s %ld (deviation %ld)", i ? "," : "",
				    names[i], lround(glicko_r(&before[i])), lround(glicko_rd(&before[i])));
		}
		if (n > 0 && (size_t)n < size)
			snprintf(buf + n, size - (size_t)n, ".\n");
		return STORE_OK;
	}
	/* the ratings without this game and with it: what its result changed */
	copy.results = malloc((r->nresults + 1) * sizeof *copy.results);
	copy.players = malloc((r->nplayers + 1) * sizeof *copy.players);
	if (copy.results == NULL || copy.players == NULL) {
		ratings_release(&copy);
		return STORE_TEMPFAIL;
	}
	if (r->nresults > 0)
		memcpy(copy.results, r->results, r->nresults * sizeof *copy.results);
	if (r->nplayers > 0)
		memcpy(copy.players, r->players, r->nplayers * sizeof *copy.players);
	copy.nresults = r->nresults;
	copy.nplayers = r->nplayers;
	copy.exact = r->exact;
	copy.period = r->period;
	/* exact and without this game: the ratings as they are, and the game's two players updated */
	ratings_drop_result(&copy, g->board);	/* (a copy of the mail after the game was counted) */
	if (!copy.exact)
		ss = ratings_compute(&copy);
	for (i = 0; i < 2 && ss == STORE_OK; i++)
		before[i] = rating_of(&copy, cls, names[i], g->last_move, &games);
	ratings_result_of(g, &res);
	if (ss == STORE_OK && ratings_add_result(&copy, &res, &incremental, &ss) && ss == STORE_OK && !incremental)
		ss = ratings_compute(&copy);
	for (i = 0; i < 2 && ss == STORE_OK; i++)
		after[i] = rating_of(&copy, cls, names[i], g->last_move, &games);
	if (ss == STORE_OK) {
		/* whole points, as shown: the change is the difference of the numbers printed */
		long b0 = lround(glicko_r(&before[0])), a0 = lround(glicko_r(&after[0]));
		long b1 = lround(glicko_r(&before[1])), a1 = lround(glicko_r(&after[1]));

		snprintf(buf, size, "Ratings (%s): %s %ld -> %ld (%+ld), %s %ld -> %ld (%+ld).\n", class_names[cls],
		    names[0], b0, a0, a0 - b0, names[1], b1, a1, a1 - b1);
	}
	ratings_release(&copy);
	return ss;
}

void ratings_mail_line(struct store *st, const struct game *g, int64_t now, char *buf, size_t size)
{
	struct ratings r;
	char err[RATINGS_ERR_MAX];
	enum store_status ss;

	buf[0] = '\0';
	if (game_is_open(g))
		return;		/* an open seat has no rating: the line comes once the seat is taken */
	if (!ratings_game_rated(g)) {
		snprintf(buf, size, "This game is not rated.\n");
		return;
	}
	if (game_over(g) && !ratings_game_counts(g)) {
		snprintf(buf, size, "This game is not rated: %s.\n", RATINGS_RULE_SHORT);
		return;
	}
	ss = ratings_load(st, !game_over(g), &r, err);
	if (ss == STORE_OK)
		ss = ratings_mail_text(&r, g, now, buf, size);
	else
		store_complain(st, "ratings: %s", err);
	if (ss != STORE_OK)
		buf[0] = '\0';
	ratings_release(&r);
}
