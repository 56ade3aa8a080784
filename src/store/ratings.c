/*
 * ratings: the classes of boards, which games count (the farming rules),
 * a player's standing, and the ratings lines of a board mail (ratings.h).
 * The file's text is ratings_codec.c, the maths ratings_compute.c, the
 * file in the store and its commit protocol ratings_store.c.
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

static const char *const class_names[RATINGS_NCLASSES] = {
	"small", "standard", "large", "hex-small", "hex-standard", "hex-large"
};
static const char *const class_sizes[RATINGS_NCLASSES] = {
	"5x5 to 9x9", "11x11 to 13x13", "15x15 to 25x25", "hex sides 3 to 5", "hex sides 6 to 8",
	"hex sides 9 and 10"
};

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

