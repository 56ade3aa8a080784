/*
 * tourn_pair: the pairings (tourn.h): Berger tables for a round robin
 * (FIDE handbook C.05, Annex 1), score groups for a Swiss (after the Dutch
 * system of C.04.3, simplified: the top half of a score group meets its
 * bottom half, the rest float down, no pair twice), a seeded bracket for a
 * knockout.
 */
#include "game/tourn.h"

#include <stdlib.h>
#include <string.h>

int tourn_winner(const struct tourn_game *g)
{
	switch (g->result) {
	case TOURN_BLACK_WINS:
	case TOURN_BLACK_FORFEIT:
	case TOURN_BYE:
		return g->black;
	case TOURN_WHITE_WINS:
	case TOURN_WHITE_FORFEIT:
		return g->white;
	default:
		return -1;
	}
}

bool tourn_played(const struct tourn *t, int a, int b)
{
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if ((t->games[i].black == a && t->games[i].white == b) || (t->games[i].black == b && t->games[i].white == a))
			return true;
	return false;
}

int tourn_blacks(const struct tourn *t, int p, int *last)
{
	int bal = 0;
	size_t i;

	*last = 0;
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		if (g->white < 0)
			continue;
		if (g->black == p) {
			bal++;
			*last = 1;
		} else if (g->white == p) {
			bal--;
			*last = -1;
		}
	}
	return bal;
}

static bool add(struct tourn *t, int round, int division, int slot, int black, int white)
{
	struct tourn_game g = { round, division, slot, black, white, 0, white < 0 ? TOURN_BYE : TOURN_PENDING };

	return tourn_add_game(t, &g) >= 0;
}

/*
 * One division's Berger table: m players (seeds 1..m at idx[0..m-1]),
 * made even with a dummy n; in round r the dummy's (or n's) opponent is
 * the a with 2a = r+1 (mod n-1), the others pair as a+b = r+1 (mod n-1),
 * Black the a whose b-a (mod n-1) is odd, n Black in the even rounds.
 * This is the FIDE table (for 6: 1-6 2-5 3-4 / 6-4 5-3 1-2 / ...).
 */
static bool berger(struct tourn *t, int division, const int *idx, int m, int *rounds)
{
	int n = m % 2 == 0 ? m : m + 1, mod = n - 1, r, a, b, slot, cycle, cycles = t->twice ? 2 : 1;
	int x, y, tmp;

	*rounds = (n - 1) * cycles;
	for (cycle = 0; cycle < cycles; cycle++) {
		for (r = 1; r < n; r++) {
			slot = 1;
			for (a = 1; a < n; a++) {
				if (mod != 1 && (2 * a - (r + 1)) % mod != 0)
					continue;
				x = r % 2 == 1 ? a : n;
				y = r % 2 == 1 ? n : a;
				if (cycle == 1) {
					tmp = x;
					x = y;
					y = tmp;
				}
				/* the dummy is no player: its opponent has the bye */
				if (n != m && (x == n || y == n)) {
					if (!add(t, r + cycle * (n - 1), division, slot++, idx[(x == n ? y : x) - 1], -1))
						return false;
				} else if (!add(t, r + cycle * (n - 1), division, slot++, idx[x - 1], idx[y - 1])) {
					return false;
				}
				break;
			}
			for (a = 1; a < n; a++) {
				for (b = a + 1; b < n; b++) {
					if ((a + b - (r + 1)) % mod != 0)
						continue;
					x = (b - a) % mod % 2 == 1 ? a : b;
					y = x == a ? b : a;
					if (cycle == 1) {
						tmp = x;
						x = y;
						y = tmp;
					}
					if (!add(t, r + cycle * (n - 1), division, slot++, idx[x - 1], idx[y - 1]))
						return false;
				}
			}
		}
	}
	return true;
}

bool tourn_pair_roundrobin(struct tourn *t)
{
	int d, nd = tourn_divisions(t), *idx, m, rounds, most = 0;
	size_t i;
	bool ok = true;

	idx = malloc((t->nplayers + 1) * sizeof *idx);
	if (idx == NULL)
		return false;
	for (d = 1; d <= nd && ok; d++) {
		m = 0;
		for (i = 0; i < t->nplayers; i++)
			if (t->players[i].division == d)
				idx[m++] = (int)i;	/* the players are in seed order since tourn_begin */
		ok = berger(t, d, idx, m, &rounds);
		if (rounds > most)
			most = rounds;
	}
	free(idx);
	t->rounds = most;
	return ok;
}

/* Swiss: the order of the players for the pairing: score, then rating. */
struct rank {
	int p, score2, rating;
	const char *userid;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;

	if (x->score2 != y->score2)
		return x->score2 > y->score2 ? -1 : 1;
	if (x->rating != y->rating)
		return x->rating > y->rating ? -1 : 1;
	return strcmp(x->userid, y->userid);
}

struct swiss {
	struct tourn *t;
	struct rank *r;		/* in order */
	int n;
	int *mate;		/* by position in r: the partner's position, -1 unpaired */
	long budget;		/* steps of the search left */
	bool repeats;		/* a pair may meet again (when no pairing without exists) */
};

/* Pair the unpaired of s->r from the first on; false when it cannot. */
static bool swiss_search(struct swiss *s)
{
	int first = -1, i, k = 0, half, *cand, nc = 0, j;
	bool ok = false;

	for (i = 0; i < s->n; i++)
		if (s->mate[i] < 0) {
			first = i;
			break;
		}
	if (first < 0)
		return true;
	if (--s->budget < 0)
		return false;
	cand = malloc((size_t)s->n * sizeof *cand);
	if (cand == NULL)
		return false;
	/* the first's score group (the unpaired of its score): its bottom half first, then the rest upwards */
	int group[TOURN_PLAYERS_MAX];

	for (i = first; i < s->n; i++)
		if (s->mate[i] < 0 && s->r[i].score2 == s->r[first].score2)
			group[k++] = i;
	half = k / 2;
	for (j = half; j < k; j++)
		if (group[j] != first)
			cand[nc++] = group[j];
	for (j = half - 1; j >= 1; j--)
		cand[nc++] = group[j];
	for (i = first + 1; i < s->n; i++)
		if (s->mate[i] < 0 && s->r[i].score2 != s->r[first].score2)
			cand[nc++] = i;
	for (j = 0; j < nc && !ok; j++) {
		i = cand[j];
		if (!s->repeats && tourn_played(s->t, s->r[first].p, s->r[i].p))
			continue;
		s->mate[first] = i;
		s->mate[i] = first;
		ok = swiss_search(s);
		if (!ok) {
			s->mate[first] = -1;
			s->mate[i] = -1;
		}
	}
	free(cand);
	return ok;
}

static bool had_bye(const struct tourn *t, int p)
{
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].black == p && t->games[i].white < 0)
			return true;
	return false;
}

/*
 * Colours: the one with fewer Blacks so far has Black; even, the one
 * whose last game was White; still even, the higher ranked on odd tables.
 */
static void colours(const struct tourn *t, int hi, int lo, int table, int *black, int *white)
{
	int lh, ll, bh = tourn_blacks(t, hi, &lh), bl = tourn_blacks(t, lo, &ll);
	bool hi_black;

	if (bh != bl)
		hi_black = bh < bl;
	else if (lh != ll)
		hi_black = lh < ll;
	else
		hi_black = table % 2 == 1;
	*black = hi_black ? hi : lo;
	*white = hi_black ? lo : hi;
}

bool tourn_pair_swiss(struct tourn *t, int round)
{
	struct swiss s = { t, NULL, 0, NULL, 0, false };
	int i, bye = -1, table = 1, b, w;
	bool ok = false;

	s.r = calloc(t->nplayers + 1, sizeof *s.r);
	s.mate = calloc(t->nplayers + 1, sizeof *s.mate);
	if (s.r == NULL || s.mate == NULL)
		goto out;
	for (i = 0; i < (int)t->nplayers; i++) {
		if (t->players[i].left)
			continue;
		s.r[s.n].p = i;
		s.r[s.n].score2 = round == 1 ? 0 : tourn_score2(t, i);
		s.r[s.n].rating = t->players[i].rating;
		s.r[s.n].userid = t->players[i].userid;
		s.n++;
	}
	qsort(s.r, (size_t)s.n, sizeof *s.r, rank_cmp);
	if (s.n % 2 == 1) {
		/* the bye: the lowest ranked who has had none */
		for (i = s.n - 1; i >= 0 && bye < 0; i--)
			if (!had_bye(t, s.r[i].p))
				bye = i;
		if (bye < 0)
			bye = s.n - 1;
		if (!add(t, round, 1, 0, s.r[bye].p, -1))
			goto out;
		memmove(&s.r[bye], &s.r[bye + 1], (size_t)(s.n - bye - 1) * sizeof *s.r);
		s.n--;
	}
	for (i = 0; i < s.n; i++)
		s.mate[i] = -1;
	s.budget = 200000;
	if (!swiss_search(&s)) {
		for (i = 0; i < s.n; i++)
			s.mate[i] = -1;
		s.repeats = true;
		s.budget = 200000;
		if (!swiss_search(&s))
			goto out;
	}
	for (i = 0; i < s.n; i++) {
		if (s.mate[i] < i)
			continue;
		colours(t, s.r[i].p, s.r[s.mate[i]].p, table, &b, &w);
		if (!add(t, round, 1, table++, b, w))
			goto out;
	}
	/* the bye sorts first in the file; number it after the tables */
	for (i = (int)t->ngames - 1; i >= 0 && t->games[i].round == round; i--)
		if (t->games[i].white < 0)
			t->games[i].slot = table;
	ok = true;
out:
	free(s.r);
	free(s.mate);
	return ok;
}

/* The bracket's seeds in order: 1 P 4 5 2 P-1 3 P-2 ... (seeds 1 and 2 meet in the final only). */
static void bracket(int *order, int size)
{
	int m, i;

	order[0] = 1;
	order[1] = 2;
	for (m = 2; m < size; m *= 2) {
		for (i = m - 1; i >= 0; i--) {
			order[2 * i] = order[i];
			order[2 * i + 1] = 2 * m + 1 - order[i];
		}
	}
}

/* The winner of a knockout match (its last game), or -1. */
static int slot_winner(const struct tourn *t, int round, int slot)
{
	int w = -1;
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].round == round && t->games[i].slot == slot)
			w = tourn_winner(&t->games[i]);
	return w;
}

/* A knockout game: a player who has left loses it by forfeit, unplayed. */
static bool ko_game(struct tourn *t, int round, int slot, int a, int b)
{
	int black, white, la, lb;
	struct tourn_game g = { round, 1, slot, 0, 0, 0, TOURN_PENDING };

	if (a < 0 && b < 0)
		return true;	/* nobody came through either match (both left) */
	if (a < 0 || b < 0)
		return add(t, round, 1, slot, a < 0 ? b : a, -1);
	if (tourn_blacks(t, a, &la) != tourn_blacks(t, b, &lb))
		black = tourn_blacks(t, a, &la) < tourn_blacks(t, b, &lb) ? a : b;
	else
		black = t->players[a].seed <= t->players[b].seed ? a : b;
	white = black == a ? b : a;
	g.black = black;
	g.white = white;
	if (t->players[white].left)
		g.result = TOURN_BLACK_FORFEIT;
	else if (t->players[black].left)
		g.result = TOURN_WHITE_FORFEIT;
	return tourn_add_game(t, &g) >= 0;
}

bool tourn_pair_knockout(struct tourn *t, int round)
{
	int size = 2, n = (int)t->nplayers, *order, k, a, b;
	bool ok = true;

	while (size < n)
		size *= 2;
	if (round == 1) {
		t->rounds = 0;
		for (k = size; k > 1; k /= 2)
			t->rounds++;
		order = malloc((size_t)size * sizeof *order);
		if (order == NULL)
			return false;
		bracket(order, size);
		/* the players are in seed order since tourn_begin: seed s is index s-1; byes to the top seeds */
		for (k = 0; k < size / 2 && ok; k++) {
			a = order[2 * k] <= n ? order[2 * k] - 1 : -1;
			b = order[2 * k + 1] <= n ? order[2 * k + 1] - 1 : -1;
			ok = ko_game(t, 1, k + 1, a, b);
		}
		free(order);
		return ok;
	}
	for (k = 0; k < (size >> round) && ok; k++)
		ok = ko_game(t, round, k + 1, slot_winner(t, round - 1, 2 * k + 1), slot_winner(t, round - 1, 2 * k + 2));
	return ok;
}
