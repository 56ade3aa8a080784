/*
 * tourn_score: scores, tie-breaks and standings (tourn.h).  A win 1, a
 * draw 1/2, a loss 0; a forfeit as a win and a loss; an annulled game
 * nothing.  Tie-breaks after the FIDE handbook (C.02, 13.16): a round
 * robin's Sonneborn-Berger (the scores of the opponents beaten plus half
 * those drawn with), then the direct game (the points among the players
 * still tied), then the rating; a Swiss's Buchholz (the sum of the
 * opponents' scores), then Sonneborn-Berger.  A Swiss bye scores 1 and
 * adds nothing to either tie-break; a round robin's bye scores nothing.
 */
#include "game/tourn.h"

#include <string.h>

/* Half points of p in g (a game with an opponent and a result), else 0. */
static int points2(const struct tourn_game *g, int p)
{
	switch (g->result) {
	case TOURN_BLACK_WINS:
	case TOURN_BLACK_FORFEIT:
		return g->black == p ? 2 : 0;
	case TOURN_WHITE_WINS:
	case TOURN_WHITE_FORFEIT:
		return g->white == p ? 2 : 0;
	case TOURN_DRAW:
		return 1;
	default:
		return 0;
	}
}

static bool counts(const struct tourn_game *g)
{
	return g->white >= 0 && g->result != TOURN_PENDING && g->result != TOURN_ANNULLED;
}

int tourn_score2(const struct tourn *t, int p)
{
	int s = 0;
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		if (g->black != p && g->white != p)
			continue;
		if (g->white < 0) {
			if (t->format == TOURN_SWISS && g->result == TOURN_BYE)
				s += 2;
		} else if (counts(g)) {
			s += points2(g, p);
		}
	}
	return s;
}

/* p's tie-breaks and games (the scores of all players in score2). */
static void breaks(const struct tourn *t, int p, const int *score2, struct tourn_row *row)
{
	long sb = 0, buch = 0;
	int o;
	size_t i;

	row->games = 0;
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		if ((g->black != p && g->white != p) || !counts(g))
			continue;
		o = g->black == p ? g->white : g->black;
		row->games++;
		sb += (long)points2(g, p) * score2[o];
		buch += 2L * score2[o];
	}
	if (t->format == TOURN_SWISS) {
		row->tb1 = buch;
		row->tb2 = sb;
	} else {
		row->tb1 = sb;
		row->tb2 = 0;
	}
}

/* Half points p scored against the players of rows[from..to) (the direct games), in quarter points. */
static long direct(const struct tourn *t, int p, const struct tourn_row *rows, size_t from, size_t to)
{
	long s = 0;
	size_t i, k;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];
		int o;

		if ((g->black != p && g->white != p) || !counts(g))
			continue;
		o = g->black == p ? g->white : g->black;
		for (k = from; k < to; k++)
			if (rows[k].player == o)
				s += 2L * points2(g, p);
	}
	return s;
}

/* The knockout round p reached: one more than the last round p won a match of (the champion: rounds + 1). */
static int reached(const struct tourn *t, int p)
{
	int r = 1;
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		if ((g->black == p || g->white == p) && tourn_winner(g) == p && g->round + 1 > r)
			r = g->round + 1;
	}
	return r;
}

/* Is a before b?  Each format's order, the leavers whose results were annulled last. */
static int before(const struct tourn *t, const struct tourn_row *a, const struct tourn_row *b)
{
	const struct tourn_player *x = &t->players[a->player], *y = &t->players[b->player];

	if (x->annulled != y->annulled)
		return y->annulled;
	if (t->format == TOURN_LADDER) {
		if ((x->place == 0) != (y->place == 0))
			return y->place == 0;
		if (x->place != y->place)
			return x->place < y->place;
	} else if (t->format == TOURN_KNOCKOUT) {
		if (a->tb1 != b->tb1)
			return a->tb1 > b->tb1;
		if (x->seed != y->seed)
			return x->seed < y->seed;
	} else {
		if (a->score2 != b->score2)
			return a->score2 > b->score2;
		if (a->tb1 != b->tb1)
			return a->tb1 > b->tb1;
		if (a->tb2 != b->tb2)
			return a->tb2 > b->tb2;
	}
	if (x->rating != y->rating)
		return x->rating > y->rating;
	return strcmp(x->userid, y->userid) < 0;
}

static void sort_rows(const struct tourn *t, struct tourn_row *rows, size_t n)
{
	struct tourn_row tmp;
	size_t i, j;

	/* insertion sort: at most TOURN_PLAYERS_MAX rows, and a comparison that needs t */
	for (i = 1; i < n; i++) {
		tmp = rows[i];
		for (j = i; j > 0 && before(t, &tmp, &rows[j - 1]); j--)
			rows[j] = rows[j - 1];
		rows[j] = tmp;
	}
}

static bool same(const struct tourn *t, const struct tourn_row *a, const struct tourn_row *b)
{
	const struct tourn_player *x = &t->players[a->player], *y = &t->players[b->player];

	if (x->annulled || y->annulled)
		return false;
	if (t->format == TOURN_LADDER)
		return false;
	if (t->format == TOURN_KNOCKOUT)
		return a->tb1 == b->tb1;	/* out in the same round */
	return a->score2 == b->score2 && a->tb1 == b->tb1 && a->tb2 == b->tb2 && x->rating == y->rating;
}

size_t tourn_standings(const struct tourn *t, int division, struct tourn_row *rows)
{
	int score2[TOURN_PLAYERS_MAX];
	size_t i, n = 0, from, to;

	for (i = 0; i < t->nplayers && i < TOURN_PLAYERS_MAX; i++)
		score2[i] = tourn_score2(t, (int)i);
	for (i = 0; i < t->nplayers && i < TOURN_PLAYERS_MAX; i++) {
		if (t->players[i].division != division)
			continue;
		rows[n].player = (int)i;
		rows[n].score2 = score2[i];
		breaks(t, (int)i, score2, &rows[n]);
		if (t->format == TOURN_KNOCKOUT)
			rows[n].tb1 = reached(t, (int)i);
		n++;
	}
	sort_rows(t, rows, n);
	if (t->format == TOURN_ROUNDROBIN) {
		/* the direct game: among the players still level on score and Sonneborn-Berger */
		for (from = 0; from < n; from = to) {
			for (to = from + 1; to < n && rows[to].score2 == rows[from].score2 && rows[to].tb1 == rows[from].tb1 &&
			    !t->players[rows[to].player].annulled; to++)
				;
			if (to - from > 1)
				for (i = from; i < to; i++)
					rows[i].tb2 = direct(t, rows[i].player, rows, from, to);
		}
		sort_rows(t, rows, n);
	}
	for (i = 0; i < n; i++) {
		if (t->players[rows[i].player].annulled)
			rows[i].rank = 0;
		else if (i > 0 && same(t, &rows[i], &rows[i - 1]))
			rows[i].rank = rows[i - 1].rank;
		else
			rows[i].rank = (int)i + 1;
	}
	return n;
}
