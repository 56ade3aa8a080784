/*
 * solvebig: how far a proof search gets on the boards after the hex board
 * of side 3 (`make solve-big`, not part of check): the square 5x5 and the
 * hex board of side 4, within a cap of positions and of CPU seconds.
 *
 * The search is the proving one of src/game/solve.c (a depth-first search
 * that stops at a node's first winning placement, the captures tried
 * first, then the placements from the centre out), on 64-bit boards built
 * from the rules core's neighbours, with the board's symmetries folded (8
 * on a square, 12 on a hex board).  Its table holds MAX_POSITIONS results
 * and, once full, replaces the one of least work in a bucket of 4, so the
 * search goes on in bounded memory until the CPU cap (a result found
 * again is searched again).  For each first placement of Black, one of
 * each class of symmetric ones, the centre first (then White to move), it
 * reports who wins, a draw counting for Black (the default) or for White
 * (the last argument): "White wins" with draws for Black and "Black wins"
 * with draws for White are exact; the two runs together settle each
 * placement.  Or that the CPU cap stopped it.
 *
 * Usage: solvebig square|hex SIZE [MAX_POSITIONS [SECONDS [black|white]]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/rules.h"

#define MAXC 64
#define MAXSYM 12
#define WAYS 4		/* entries in a bucket */
#define MAX_DEPTH 2000	/* placements deep: deeper means a cycle */

static int ncells, cell[MAXC], order[MAXC], nsym;
static uint64_t nbr[MAXC], full;
static uint64_t perm[MAXSYM][8][256];
/* entry: key black; white | side << 56 | value << 57 | work << 58 (log2 of the positions searched under it) */
static uint64_t *slot;
static size_t nbuckets, used, searched, cap_positions;
static double cap_seconds;
static int stopped;	/* 1: the CPU cap, 2: too deep (a cycle?) */
static int draws_to = 0;	/* the side a draw counts as a win for: 0 Black, 1 White */

static double cpu(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static uint64_t permute(int k, uint64_t m)
{
	uint64_t r = 0;
	int j;

	for (j = 0; j < 8 && m != 0; j++, m >>= 8)
		r |= perm[k][j][m & 0xff];
	return r;
}

static uint64_t expand(uint64_t g)
{
	uint64_t r = 0;

	for (; g != 0; g &= g - 1)
		r |= nbr[__builtin_ctzll(g)];
	return r;
}

static uint64_t flood(uint64_t col, int start)
{
	uint64_t g = 1ull << start, ng;

	for (;;) {
		ng = g | (expand(g) & col);
		if (ng == g)
			return g;
		g = ng;
	}
}

static int try_place(uint64_t my, uint64_t op, int c, uint64_t *cap)
{
	uint64_t g, adj, eg;
	int size;

	*cap = 0;
	if ((nbr[c] & my) == 0)
		return 1;
	g = flood(my | 1ull << c, c);
	adj = expand(g) & op;
	if (adj == 0)
		return 0;
	size = __builtin_popcountll(g);
	while (adj != 0) {
		eg = flood(op, __builtin_ctzll(adj));
		if (__builtin_popcountll(eg) >= size)
			return 0;
		*cap |= eg;
		adj &= ~eg;
	}
	return 2;
}

/* The least of the position's images (black, white), for the table. */
static void canon(uint64_t black, uint64_t white, uint64_t *cb, uint64_t *cw)
{
	uint64_t b, w;
	int k;

	*cb = black;
	*cw = white;
	for (k = 1; k < nsym; k++) {
		b = permute(k, black);
		w = permute(k, white);
		if (b < *cb || (b == *cb && w < *cw)) {
			*cb = b;
			*cw = w;
		}
	}
}

static uint64_t *bucket(uint64_t black, uint64_t white, int side)
{
	uint64_t h = black * 0x9e3779b97f4a7c15ull ^ (white * 2 + (uint64_t)side) * 0xbf58476d1ce4e5b9ull;

	return &slot[((size_t)(h ^ h >> 29) & (nbuckets - 1)) * WAYS * 2];
}

/* 1 win, 0 loss for the side to move, -1 unknown */
static int lookup(uint64_t black, uint64_t white, int side)
{
	uint64_t *e = bucket(black, white, side);
	int k;

	for (k = 0; k < WAYS; k++)
		if (e[2 * k] == black && (e[2 * k + 1] & ((1ull << 57) - 1)) == (white | (uint64_t)side << 56) &&
		    e[2 * k + 1] != 0)
			return (int)(e[2 * k + 1] >> 57 & 1);
	return -1;
}

static void store(uint64_t black, uint64_t white, int side, int value, size_t work)
{
	uint64_t *e = bucket(black, white, side), lg = 0;
	int k, least = 0;

	while ((1ull << lg) < work && lg < 63)
		lg++;
	for (k = 0; k < WAYS; k++) {
		if (e[2 * k + 1] == 0) {
			least = k;
			used++;
			break;
		}
		if ((e[2 * k + 1] >> 58) < (e[2 * least + 1] >> 58))
			least = k;
	}
	e[2 * least] = black;
	e[2 * least + 1] = white | (uint64_t)side << 56 | (uint64_t)value << 57 | lg << 58;
}

/* 1: the side to move wins (a draw counting for draws_to), 0: it does not */
static int search(uint64_t my, uint64_t op, int side, int depth)
{
	uint64_t black = side ? op : my, white = side ? my : op, empty = ~(my | op) & full, cap, nmy, nop, cb, cw;
	size_t before = searched;
	int j, c, v, pass, any = 0, win = 0, r;

	if (stopped)
		return 0;
	if (depth > MAX_DEPTH) {
		stopped = 2;
		return 0;
	}
	canon(black, white, &cb, &cw);
	r = lookup(cb, cw, side);
	if (r >= 0)
		return r;
	if (++searched % 65536 == 0 && cpu() > cap_seconds) {
		stopped = 1;
		return 0;
	}
	for (pass = 2; pass >= 1 && !win; pass--)
		for (j = 0; j < ncells && !win; j++) {
			c = order[j];
			if (!(empty >> c & 1) || (v = try_place(my, op, c, &cap)) != pass)
				continue;
			any = 1;
			nmy = my | 1ull << c;
			nop = op & ~cap;
			if (v == 2 && nop == 0)
				win = 1;
			else if (v == 2)
				win = search(nmy, nop, side, depth + 1);
			else
				win = !search(nop, nmy, !side, depth + 1);
		}
	if (!any) {
		for (c = 0; c < ncells && !any; c++)
			any = (empty >> c & 1) && try_place(op, my, c, &cap) != 0;
		win = any ? !search(op, my, !side, depth + 1) : draws_to == side;
	}
	if (stopped)
		return 0;
	store(cb, cw, side, win, searched - before);
	return win;
}

/* The symmetries of the board as permutations of the bits, by coordinates; false if one is not. */
static void symmetries(const struct rules_board *b)
{
	int m[MAXSYM][MAXC], k, i, j, x, y, q, r, c3[3], t, n, part;
	bool ok;

	nsym = 0;
	for (k = 0; k < (b->shape == RULES_HEX ? 12 : 8); k++) {
		ok = true;
		for (i = 0; i < ncells && ok; i++) {
			x = rules_x(b, cell[i]);
			y = rules_y(b, cell[i]);
			if (b->shape == RULES_SQUARE) {
				n = b->size - 1;
				if (k & 4) {
					t = x;
					x = y;
					y = t;
				}
				for (j = 0; j < (k & 3); j++) {
					t = x;
					x = n - y;
					y = t;
				}
			} else {
				q = x - (b->size - 1);
				r = y - (b->size - 1);
				c3[0] = q;
				c3[1] = -r;
				c3[2] = r - q;
				if (k >= 6) {
					t = c3[0];
					c3[0] = c3[1];
					c3[1] = t;
				}
				for (j = 0; j < k % 6; j++) {
					t = c3[0];
					c3[0] = -c3[2];
					c3[2] = -c3[1];
					c3[1] = -t;
				}
				x = c3[0] + (b->size - 1);
				y = -c3[1] + (b->size - 1);
			}
			m[nsym][i] = -1;
			for (j = 0; j < ncells; j++)
				if (rules_x(b, cell[j]) == x && rules_y(b, cell[j]) == y)
					m[nsym][i] = j;
			ok = m[nsym][i] >= 0;
		}
		for (i = 0; i < ncells && ok; i++)
			for (j = 0; j < ncells && ok; j++)
				ok = (nbr[i] >> j & 1) == (nbr[m[nsym][i]] >> m[nsym][j] & 1);
		if (!ok)
			continue;
		for (part = 0; part < 8; part++)
			for (t = 0; t < 256; t++) {
				perm[nsym][part][t] = 0;
				for (j = 0; j < 8 && part * 8 + j < ncells; j++)
					if (t >> j & 1)
						perm[nsym][part][t] |= 1ull << m[nsym][part * 8 + j];
			}
		nsym++;
	}
}

int main(int argc, char **argv)
{
	static struct rules_board b;
	enum rules_shape shape;
	char name[4];
	int size, i, j, d, r, dist[MAXC], cx, cy;
	double t0;
	size_t before;
	uint64_t cb, cw, seen[MAXC];
	int nseen = 0, k, dup;

	if (argc < 3) {
		fprintf(stderr, "usage: solvebig square|hex SIZE [MAX_POSITIONS [SECONDS [black|white]]]\n");
		return 2;
	}
	shape = strcmp(argv[1], "hex") == 0 ? RULES_HEX : RULES_SQUARE;
	size = atoi(argv[2]);
	cap_positions = argc > 3 ? strtoull(argv[3], NULL, 10) : 10000000;
	cap_seconds = argc > 4 ? atof(argv[4]) : 300;
	draws_to = argc > 5 && strcmp(argv[5], "white") == 0;
	if (!rules_shape_ok(shape, size)) {
		fprintf(stderr, "solvebig: no such board\n");
		return 2;
	}
	rules_board_init_shape(&b, shape, size);
	ncells = b.npoints;
	if (ncells > MAXC) {
		fprintf(stderr, "solvebig: more than %d cells\n", MAXC);
		return 2;
	}
	for (i = 0; i < ncells; i++)
		cell[i] = b.empty[i];
	for (i = 0; i < ncells; i++)
		for (d = 0; d < b.nnbr; d++)
			for (j = 0; j < ncells; j++)
				if (cell[j] == cell[i] + b.nbr[d])
					nbr[i] |= 1ull << j;
	full = ncells == 64 ? ~0ull : (1ull << ncells) - 1;
	symmetries(&b);
	/* from the centre out */
	cx = cy = b.width - 1;
	for (i = 0; i < ncells; i++) {
		dist[i] = abs(2 * rules_x(&b, cell[i]) - cx) + abs(2 * rules_y(&b, cell[i]) - cy);
		order[i] = i;
	}
	for (i = 1; i < ncells; i++)
		for (j = i; j > 0 && dist[order[j]] < dist[order[j - 1]]; j--) {
			d = order[j];
			order[j] = order[j - 1];
			order[j - 1] = d;
		}
	for (nbuckets = 1; nbuckets * WAYS < cap_positions; nbuckets *= 2)
		;
	slot = calloc(nbuckets * WAYS * 2, sizeof *slot);
	if (slot == NULL) {
		fprintf(stderr, "solvebig: out of memory\n");
		return 2;
	}
	printf("%s board %d (%d cells, %d symmetries): a table of %zu positions (%zu MB), %.0f s of CPU; a draw "
	    "counts for %s\n", argv[1], size, ncells, nsym, nbuckets * WAYS, nbuckets * WAYS * 16 >> 20, cap_seconds,
	    draws_to ? "White" : "Black");
	for (j = 0; j < ncells && !stopped; j++) {
		i = order[j];
		canon(1ull << i, 0, &cb, &cw);
		for (k = 0, dup = 0; k < nseen; k++)
			dup = dup || seen[k] == cb;
		if (dup)
			continue;
		seen[nseen++] = cb;
		t0 = cpu();
		before = searched;
		r = search(0, 1ull << i, 1, 0);	/* black's first stone at i, white to move */
		printf("  %s: %s (%zu positions searched, %.1f s)\n", rules_point_name(&b, cell[i], name),
		    stopped == 1 ? "not proved: the CPU cap stopped the search" : stopped == 2 ? "too deep: a cycle?" :
		    r ? (draws_to ? "White wins or draws" : "White wins") :
		    (draws_to ? "Black wins" : "White does not win (Black wins or draws)"), searched - before, cpu() - t0);
		fflush(stdout);
	}
	printf("%zu positions searched, %zu in the table, %.1f s of CPU\n", searched, used, cpu());
	free(slot);
	return 0;
}
