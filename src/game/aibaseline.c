/*
 * aibaseline: the baseline players of ai.h (ai_baseline_turn), the uniformly random
 * and the greedy one-ply player that strength is measured against.  See ai.h.
 */
#include "game/ai.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* splitmix64: any state, zero included, is a good one. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for n <= 625). */
static int rng_below(uint64_t *s, int n)
{
	return (int)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* The legal placements of the side to move, sorted, so that a seed means the same game
 * whatever order the rules core keeps them in. */
static int sorted_legal(struct rules_game *g, uint16_t *mv)
{
	int n = rules_game_legal(g, mv), i, j;
	uint16_t t;

	for (i = 1; i < n; i++) {
		t = mv[i];
		for (j = i; j > 0 && mv[j - 1] > t; j--)
			mv[j] = mv[j - 1];
		mv[j] = t;
	}
	return n;
}

/* Capturing placements colour c has on b. */
static int capturing_placements(struct rules_board *b, enum rules_color c)
{
	uint16_t mv[RULES_MAX_POINTS];
	int n = rules_legal(b, c, mv), i, k = 0;

	for (i = 0; i < n; i++)
		k += rules_check(b, c, mv[i], NULL) == RULES_CAPTURE;
	return k;
}

/*
 * The greedy one-ply choice in g: the capture that removes the most stones,
 * else the placement after which the opponent has the fewest capturing
 * placements.  Ties are broken at random.
 */
static int greedy_choice(struct rules_game *g, uint64_t *rng)
{
	static const int worst = 1 << 30;
	uint16_t mv[RULES_MAX_POINTS];
	struct rules_board b;
	struct rules_check chk;
	enum rules_color c = g->to_move;
	int n = sorted_legal(g, mv), i, best = -1, nbest = 0, score, pick = mv[0];

	for (i = 0; i < n; i++) {
		if (rules_check(&g->board, c, mv[i], &chk) != RULES_CAPTURE)
			continue;
		score = chk.captured;
		if (score > best)
			best = score, nbest = 0;
		if (score == best && rng_below(rng, ++nbest) == 0)
			pick = mv[i];
	}
	if (best >= 0)
		return pick;
	best = worst;
	for (i = 0; i < n; i++) {
		b = g->board;
		rules_place(&b, c, mv[i], NULL);
		score = -capturing_placements(&b, RULES_OTHER(c));
		if (best == worst || score > best)
			best = score, nbest = 0;
		if (score == best && rng_below(rng, ++nbest) == 0)
			pick = mv[i];
	}
	return pick;
}

enum game_status ai_baseline_turn(const struct rules_game *g, enum ai_baseline kind, uint64_t seed,
		struct ai_turn *out)
{
	struct rules_game work = *g;
	struct rules_event ev;
	uint16_t mv[RULES_MAX_POINTS];
	uint64_t rng = seed;
	int n, p;

	memset(out, 0, sizeof(*out));
	out->action = AI_PLACE;
	if (g->result != RULES_PLAYING)
		return GAME_OVER;
	for (;;) {
		n = sorted_legal(&work, mv);
		if (n == 0) {
			if (out->n > 0)
				return GAME_INTERNAL; /* the rules core ends such a turn itself */
			out->action = AI_PASS;
			return GAME_OK;
		}
		p = kind == AI_RANDOM ? mv[rng_below(&rng, n)] : greedy_choice(&work, &rng);
		if (!rules_is_legal(rules_game_play(&work, p, &ev)) || out->n >= RULES_MAX_POINTS)
			return GAME_INTERNAL;
		out->points[out->n++] = p;
		if (ev.turn_over || work.result != RULES_PLAYING)
			return GAME_OK;
	}
}
