/*
 * aiboard: the AI's playout board for Oust (Oust, by Mark Steere): the same
 * rules as the rules core (rules.h), cut down to what random playouts and
 * the tree search need, and fast.
 *
 * Cells lie on an array with a border two cells wide, so that every cell
 * within two steps of a point is an array cell (off-board cells say so).
 * Connections come from a table of neighbour offsets (nnbr of them), so the
 * same code serves any board the geometry describes.
 *
 * Groups never split in Oust (a placement merges, a capture removes whole
 * groups): a group is a circular list of its stones with a size, and it
 * caches the size of its largest enemy neighbour.  Merges happen only in
 * capturing placements, after which the new group touches no enemy, so the
 * cache changes only in a few places: a new singleton raises its enemy
 * neighbours' value to at least 1, and a removed group makes the value of
 * the groups around it unknown until asked again.
 *
 * A board is a plain value; aiboard_copy() copies the part in use.  No
 * allocation, no I/O.  test_aiboard checks every legal set and every capture
 * against the rules core on random games and the conformance games.
 */
#ifndef OUSTPBM_AIBOARD_H
#define OUSTPBM_AIBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "game/rules.h"

#define AIBOARD_BORDER 2
#define AIBOARD_MAX_STRIDE (RULES_MAX_SIZE + 2 * AIBOARD_BORDER)
#define AIBOARD_MAX_CELLS (AIBOARD_MAX_STRIDE * AIBOARD_MAX_STRIDE)
#define AIBOARD_MAX_NBR 6
#define AIBOARD_MAX_NEAR 18	/* cells within two steps: 12 on squares, 18 on hexes */
/* aigeom.nnear and aigeom.nfar on a board of nnbr neighbours, as constants for the hot loops. */
#define AIBOARD_NNEAR(nnbr) ((nnbr) == 4 ? 12 : 18)
#define AIBOARD_NFAR(nnbr) ((nnbr) == 4 ? 8 : 12)

/* What a placement would do. */
enum aiboard_verdict { AIBOARD_ILLEGAL = 0, AIBOARD_NONCAPTURE, AIBOARD_CAPTURE };

/* The shape of a board, shared by every copy of a position. */
struct aigeom {
	int size;		/* the rules board's size */
	int stride, ncells, npoints;
	int nnbr;
	int nbr[AIBOARD_MAX_NBR];	/* neighbour offsets */
	int nnear;
	int near[AIBOARD_MAX_NEAR];	/* offsets of the cells within two steps */
	int nfar;
	int far[AIBOARD_MAX_NEAR];	/* those of near[] that are not neighbours */
	uint16_t rpoint[AIBOARD_MAX_CELLS];	/* rules core point of a cell, 0 off the board */
	uint16_t cell[RULES_MAX_CELLS];		/* cell of a rules core point, 0 if none */
};

struct aiboard {
	const struct aigeom *geo;
	int nempty;
	int stones[3];		/* indexed by enum rules_color */
	uint8_t color[AIBOARD_MAX_CELLS];	/* enum rules_color */
	uint8_t gvalid[AIBOARD_MAX_CELLS];	/* gmax[g] is known */
	uint8_t nown[AIBOARD_MAX_CELLS];	/* black neighbours | white neighbours << 4 */
	uint16_t group[AIBOARD_MAX_CELLS];	/* group id (a cell of it), 0 if empty */
	uint16_t next[AIBOARD_MAX_CELLS];	/* next stone of the group (circular) */
	uint16_t gsize[AIBOARD_MAX_CELLS];	/* stones of group g */
	uint16_t gmax[AIBOARD_MAX_CELLS];	/* largest enemy group next to group g */
	uint16_t epos[AIBOARD_MAX_CELLS];	/* index of an empty cell in empty[] */
	uint16_t empty[RULES_MAX_POINTS];
};

/* The geometry of rules board b's shape. */
void aigeom_init(struct aigeom *geo, const struct rules_board *b);

/* The position of rules board b on geometry geo (made from a board of b's shape). */
void aiboard_from_rules(struct aiboard *b, const struct aigeom *geo, const struct rules_board *rb);

/* dst = src, copying only the cells in use. */
void aiboard_copy(struct aiboard *dst, const struct aiboard *src);

/* What placing colour c on the cell p would do (p must be an empty point). */
enum aiboard_verdict aiboard_check(struct aiboard *b, int c, int p);

/*
 * The verdict is also here inline (aiboard_check_n), for the AI's playout
 * loops, which call it several times a placement: they take the number of
 * neighbours as a constant (4 on squares, 6 on hexes), so that the compiler
 * unrolls the loops and drops the hex terms on squares, and read the
 * neighbour offsets from the stride (AIBOARD_NBR_OFFSETS, the order of
 * aigeom.nbr, which aigeom_init() asserts): a store to a uint8_t array may
 * alias anything, so offsets read from geo would be loaded again after
 * every such store.
 */
#define AIBOARD_HOT static inline __attribute__((always_inline))
#define AIBOARD_NBR_OFFSETS(st) { -1, 1, -(st), (st), -(st) - 1, (st) + 1 }
/* f(4, ...) on squares, f(6, ...) on hexes. */
#define AIBOARD_BY_NNBR(geo, f, ...) ((geo)->nnbr == 4 ? f(4, __VA_ARGS__) : f(6, __VA_ARGS__))

/* Largest enemy group next to group g, found by walking g (and cached); see aiboard_max_enemy(). */
int aiboard_max_enemy_walk(struct aiboard *b, int g);

/*
 * Place colour c on the empty point p, which aiboard_check() found legal
 * with verdict v; returns the stones captured.
 */
int aiboard_play(struct aiboard *b, int c, int p, enum aiboard_verdict v);

/* Stones a capture at p by c would remove (v == AIBOARD_CAPTURE). */
int aiboard_capture_size(struct aiboard *b, int c, int p);

/* Legal placements of c, written to out (room for RULES_MAX_POINTS); returns how many. */
int aiboard_legal(struct aiboard *b, int c, uint16_t *out);

/* splitmix64 step: any state, zero included, is a good one. */
static inline uint64_t aiboard_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), 0 < n <= 2^16 (multiply-shift; bias below 2^-16 of a percent). */
static inline int aiboard_below(uint64_t *s, int n)
{
	return (int)(((aiboard_rng(s) >> 32) * (uint64_t)n) >> 32);
}

/*
 * A uniformly random legal placement of c (each legal placement equally
 * likely, legality decided exactly), its verdict in *v; 0 if c has none.
 */
int aiboard_random_legal(struct aiboard *b, int c, uint64_t *rng, enum aiboard_verdict *v);

/*
 * Play the game on from b, c to move at the start of a turn, with uniformly
 * random legal placements, whole turns and passes as the rules say, for at
 * most maxlen placements.  Returns the winner (RULES_BLACK or RULES_WHITE),
 * RULES_EMPTY for a draw or a game cut at maxlen; *len gets the placements.
 */
int aiboard_random_game(struct aiboard *b, int c, uint64_t *rng, int maxlen, int *len);

/* Number of neighbours of cell p holding a stone of colour c (black or white). */
static inline int aiboard_count(const struct aiboard *b, int p, int c)
{
	return (b->nown[p] >> (c == RULES_BLACK ? 0 : 4)) & 15;
}

/* Largest enemy group next to group g (0: none, as for group 0), from the cache if known. */
static inline unsigned aiboard_max_enemy(struct aiboard *b, unsigned g)
{
	if (b->gvalid[g])
		return b->gmax[g];
	return (unsigned)aiboard_max_enemy_walk(b, (int)g);
}

/*
 * aiboard_check() for a board of nnbr neighbours, a constant.  The verdict
 * with few data-dependent branches, as the rules core's decide(): a
 * neighbour that is not an own stone stands for group 0, whose size is 0
 * (cell 0 is off the board and never a group); own groups are told apart
 * arithmetically.
 */
AIBOARD_HOT enum aiboard_verdict aiboard_check_n(const int nnbr, struct aiboard *b, int c, int p)
{
	const int s = b->geo->stride;
	const uint8_t *col = b->color;
	const uint16_t *grp = b->group, *gs = b->gsize;
	const unsigned uc = (unsigned)c, e = 3u - uc;
	unsigned c0, c1, c2, c3, c4 = 0, c5 = 0, g0, g1, g2, g3, g4 = 0, g5 = 0;
	unsigned o0, o1, o2, o3, o4 = 0, o5 = 0, size, maxe, m;

	if (aiboard_count(b, p, c) == 0)
		return AIBOARD_NONCAPTURE;
	c0 = col[p - 1], c1 = col[p + 1], c2 = col[p - s], c3 = col[p + s];
	g0 = grp[p - 1], g1 = grp[p + 1], g2 = grp[p - s], g3 = grp[p + s];
	if (nnbr == 6) {
		c4 = col[p - s - 1], c5 = col[p + s + 1];
		g4 = grp[p - s - 1], g5 = grp[p + s + 1];
	}
	/* Enemy neighbours: their sizes. */
	maxe = c0 == e ? gs[g0] : 0;
	m = c1 == e ? gs[g1] : 0, maxe = m > maxe ? m : maxe;
	m = c2 == e ? gs[g2] : 0, maxe = m > maxe ? m : maxe;
	m = c3 == e ? gs[g3] : 0, maxe = m > maxe ? m : maxe;
	if (nnbr == 6) {
		m = c4 == e ? gs[g4] : 0, maxe = m > maxe ? m : maxe;
		m = c5 == e ? gs[g5] : 0, maxe = m > maxe ? m : maxe;
	}
	/*
	 * Own neighbours: distinct groups, their sizes and largest enemies, with
	 * masks rather than branches (a random point's neighbours are not
	 * predictable).  Group 0 has size 0 and a known largest enemy of 0.
	 */
	o0 = g0 & -(unsigned)(c0 == uc);
	o1 = g1 & -(unsigned)((c1 == uc) & (g1 != o0));
	o2 = g2 & -(unsigned)((c2 == uc) & (g2 != o0) & (g2 != o1));
	o3 = g3 & -(unsigned)((c3 == uc) & (g3 != o0) & (g3 != o1) & (g3 != o2));
	if (nnbr == 6) {
		o4 = g4 & -(unsigned)((c4 == uc) & (g4 != o0) & (g4 != o1) & (g4 != o2) & (g4 != o3));
		o5 = g5 & -(unsigned)((c5 == uc) & (g5 != o0) & (g5 != o1) & (g5 != o2) & (g5 != o3) &
		    (g5 != o4));
	}
	size = 1u + gs[o0] + gs[o1] + gs[o2] + gs[o3];
	if (nnbr == 6)
		size += gs[o4] + gs[o5];
	m = aiboard_max_enemy(b, o0), maxe = m > maxe ? m : maxe;
	m = aiboard_max_enemy(b, o1), maxe = m > maxe ? m : maxe;
	m = aiboard_max_enemy(b, o2), maxe = m > maxe ? m : maxe;
	m = aiboard_max_enemy(b, o3), maxe = m > maxe ? m : maxe;
	if (nnbr == 6) {
		m = aiboard_max_enemy(b, o4), maxe = m > maxe ? m : maxe;
		m = aiboard_max_enemy(b, o5), maxe = m > maxe ? m : maxe;
	}
	/* Capturing placement: it touches an enemy group, and every one it touches is smaller. */
	return maxe > 0 && size > maxe ? AIBOARD_CAPTURE : AIBOARD_ILLEGAL;
}

#endif
