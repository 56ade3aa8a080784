/*
 * aiplayout: the computer player's playouts (ai_int.h): from a leaf of the tree to the
 * end of the game, placements chosen by the level's policy.  See ai.c for the search.
 */
#include "game/ai_int.h"

#include <stdbool.h>
#include <stdint.h>

#include "game/aiboard.h"
#include "game/rules.h"

/*
 * Whether c placing the singleton p lets the opponent capture it at once:
 * whether an enemy placement within two steps of p (aigeom.near) captures
 * and takes p, being next to p or joining an enemy group next to p.  For a
 * board of nnbr neighbours, a constant (see aiboard_check_n()).
 */
AIBOARD_HOT bool hands_capture_n(const int nnbr, struct aiboard *b, int c, int p)
{
	const int st = b->geo->stride, d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(st);
	const int *far = b->geo->far, nfar = AIBOARD_NFAR(nnbr);
	const unsigned e = 3u - (unsigned)c;
	const uint8_t enemy = c == RULES_BLACK ? 0xf0 : 0x0f; /* e's count in aiboard.nown */
	const uint8_t *nown = b->nown;
	uint8_t *col = b->color, *gv = b->gvalid;
	uint16_t *grp = b->group, *gmax = b->gmax;
	uint16_t saved[AIBOARD_MAX_NBR];
	uint8_t savedv[AIBOARD_MAX_NBR];
	unsigned open = 0, cand = 0, any = 0, adj[AIBOARD_MAX_NBR], g, m, mj;
	int k, j, q, r;
	bool hit = false;

	/*
	 * The empty neighbours where an enemy stone would join an enemy group
	 * (they take p if they capture), marked without branches: a random
	 * point's surroundings are not predictable.
	 */
	for (k = 0; k < nnbr; k++) {
		q = p + d[k];
		open |= (unsigned)((col[q] == RULES_EMPTY) & ((nown[q] & enemy) != 0)) << k;
	}
	/*
	 * With no enemy stone beside p, only an enemy placement beside p that
	 * joins an enemy group can take it: many points are safe at a glance.
	 */
	if ((nown[p] & enemy) == 0 && open == 0)
		return false;
	/* Put the stone down by hand (a singleton), look, and take it back. */
	col[p] = (uint8_t)c;
	grp[p] = (uint16_t)p;
	b->gsize[p] = 1;
	b->next[p] = (uint16_t)p;
	gv[p] = 0;
	/*
	 * The enemy groups beside p, each once, and 0 for the other neighbours
	 * (as in aiboard_check_n(): group 0 has no enemy, known).  They now
	 * touch a group of at least 1: saved, raised, and restored at the end.
	 */
	for (k = 0; k < nnbr; k++) {
		q = p + d[k];
		g = grp[q];
		m = col[q] == e;
		for (j = 0; j < k; j++)
			m &= g != adj[j];
		adj[k] = g & -m;
		any |= adj[k];
	}
	for (k = 0; k < nnbr; k++) {
		saved[k] = gmax[adj[k]];
		savedv[k] = gv[adj[k]];
	}
	/* From the saved values: no load waits for the store before it (group 0 is written 0). */
	for (k = 0; k < nnbr; k++)
		gmax[adj[k]] = (uint16_t)(saved[k] + ((saved[k] == 0) & (adj[k] != 0)));
	/*
	 * Any capture found will do, so the likeliest come first: beside p,
	 * then two steps away, joining an enemy group beside p (the only way
	 * from there to take p).
	 */
	for (m = open; m != 0 && !hit; m &= m - 1)
		hit = aiboard_check_n(nnbr, b, (int)e, p + d[__builtin_ctz(m)]) == AIBOARD_CAPTURE;
	if (any != 0 && !hit) {
		for (k = 0; k < nfar; k++) {
			q = p + far[k];
			cand |= (unsigned)((col[q] == RULES_EMPTY) & ((nown[q] & enemy) != 0)) << k;
		}
		for (; cand != 0 && !hit; cand &= cand - 1) {
			q = p + far[__builtin_ctz(cand)];
			m = 0;
			for (j = 0; j < nnbr; j++) {
				r = q + d[j];
				g = grp[r] & -(unsigned)(col[r] == e);
				mj = 0;
				for (k = 0; k < nnbr; k++)
					mj |= g == adj[k];
				m |= mj & (g != 0);
			}
			if (m != 0)
				hit = aiboard_check_n(nnbr, b, (int)e, q) == AIBOARD_CAPTURE;
		}
	}
	for (k = 0; k < nnbr; k++) {
		gmax[adj[k]] = saved[k];
		gv[adj[k]] = savedv[k];
	}
	col[p] = RULES_EMPTY;
	grp[p] = 0;
	return hit;
}

bool aiplayout_hands_capture(struct aiboard *b, int c, int p)
{
	return AIBOARD_BY_NNBR(b->geo, hands_capture_n, b, c, p);
}

/*
 * The playout policy's placement for c, 0 if c has none; *v its verdict:
 * a capture next to the last placement, else of up to 8 random empty points
 * the first capture or safe placement away from enemy stones, else a safe
 * one beside them, else one the opponent can capture, else any legal one.
 * POLICY_CAPTURES does not ask whether a placement is safe.  For a board of
 * nnbr neighbours, a constant.
 */
AIBOARD_HOT int policy_n(const int nnbr, struct worker *wk, int pol, struct aiboard *b, int c,
    int last, enum aiboard_verdict *v)
{
	const struct aigeom *geo = b->geo;
	const int nnear = AIBOARD_NNEAR(nnbr);
	const uint8_t own = c == RULES_BLACK ? 0x0f : 0xf0; /* c's count in aiboard.nown */
	int k, t, q, start, fallback = 0, unsafe = 0, e = RULES_OTHER(c);
	uint32_t cand;

	/*
	 * Captures next to the last placement: of its stone, or going on after
	 * a capture.  The points within two steps are tried from a random one
	 * on, in the order of aigeom.near; the few that can capture (empty,
	 * beside an own stone) are marked first without branches, which a
	 * random position would mispredict, and then visited in that order.
	 */
	if (last != 0) {
		start = aiboard_below(&wk->rng, nnear);
		cand = 0;
		for (k = 0; k < nnear; k++) {
			q = last + geo->near[k];
			cand |= (uint32_t)((b->color[q] == RULES_EMPTY) & ((b->nown[q] & own) != 0)) << k;
		}
		/* Rotated: bit i stands for near[start + i], wrapping round. */
		cand = ((cand >> start) | (cand << (nnear - start))) & ((1u << nnear) - 1);
		for (; cand != 0; cand &= cand - 1) {
			k = start + __builtin_ctz(cand);
			q = last + geo->near[k < nnear ? k : k - nnear];
			if ((*v = aiboard_check_n(nnbr, b, c, q)) == AIBOARD_CAPTURE)
				return q;
		}
	}
	for (t = 0; t < 8 && b->nempty > 0; t++) {
		q = b->empty[aiboard_below(&wk->rng, b->nempty)];
		if (aiboard_count(b, q, c) > 0) {
			if ((*v = aiboard_check_n(nnbr, b, c, q)) == AIBOARD_CAPTURE)
				return q;
			continue;
		}
		*v = AIBOARD_NONCAPTURE;
		/*
		 * A placement beside enemy stones, once there is a fallback, is
		 * passed over whether or not it is safe: no need to ask.
		 */
		if (fallback != 0 && aiboard_count(b, q, e) > 0)
			continue;
		/* A stone the opponent can capture at once is the last resort. */
		if (pol == POLICY_SAFE && hands_capture_n(nnbr, b, c, q)) {
			if (unsafe == 0)
				unsafe = q;
			continue;
		}
		if (aiboard_count(b, q, e) == 0)
			return q;
		if (fallback == 0)
			fallback = q;
	}
	if (fallback == 0)
		fallback = unsafe;
	if (fallback != 0) {
		*v = AIBOARD_NONCAPTURE;
		return fallback;
	}
	return aiboard_random_legal(b, c, &wk->rng, v);
}

/*
 * Play on from the state to the end; returns the winner, RULES_EMPTY for a
 * draw.  For a board of nnbr neighbours, a constant.
 */
AIBOARD_HOT int playout_n(const int nnbr, struct worker *wk, struct aiboard *b, int c, int placed,
    int last, int *len)
{
	const int pol = wk->a->lv->policy, maxlen = wk->a->maxlen;
	enum aiboard_verdict v;
	int n = *len, passes = 0, p;

	while (n < maxlen) {
		if (pol == POLICY_UNIFORM)
			p = aiboard_random_legal(b, c, &wk->rng, &v);
		else
			p = policy_n(nnbr, wk, pol, b, c, last, &v);
		if (p == 0) {
			if (placed == 0 && ++passes == 2)
				break;
			placed = 0;
			c = RULES_OTHER(c);
			last = 0;
			continue;
		}
		passes = 0;
		wk->seq[n] = (uint16_t)p;
		wk->seqc[n++] = (uint8_t)c;
		aiboard_play(b, c, p, v);
		last = p;
		if (v == AIBOARD_NONCAPTURE) {
			placed = 0;
			c = RULES_OTHER(c);
		} else if (b->stones[RULES_OTHER(c)] == 0) {
			*len = n;
			return c;
		} else {
			placed++;
		}
	}
	*len = n;
	return RULES_EMPTY;
}

int aiplayout_run(struct worker *wk, struct aiboard *b, int c, int placed, int last, int *len)
{
	return AIBOARD_BY_NNBR(b->geo, playout_n, wk, b, c, placed, last, len);
}
