/* ratings_compute: the rating maths: players' ratings from the results, period by period (ratings.h). */
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
		qsort(r->results, n, sizeof *r->results, ratings_result_qcmp);
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
	for (at = r->nresults; at > 0 && ratings_result_cmp(&r->results[at - 1], res) > 0; at--)
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

