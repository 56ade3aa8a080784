/*
 * rules: the Oust rules core, placement and capture.  See rules.h and
 * doc/rules.md.  The shapes and the notation of points are in
 * rules_geometry.c, the turn state of a game in rules_game.c.
 */
#include "game/rules.h"

#include <assert.h>
#include <string.h>

/* Shift of colour c's count in rules_board.nown (at most 6 neighbours: 4 bits). */
#define NOWN_SHIFT(c) ((c) == RULES_BLACK ? 0 : 4)
#define NOWN_ONE(c) ((uint8_t)(1u << NOWN_SHIFT(c)))

/*
 * The neighbour offsets of a board of stride st, as in rules_board.nbr: the
 * square board's four first, then hex's two diagonals.  The hot loops below
 * are written for nn = 4 or 6 neighbours and inlined once for each (see
 * SHAPE_CALL), so nn is a constant there and the offsets derive from the
 * stride as plain arithmetic.
 */
#define NBR_OFFSETS(st) { -1, 1, -(st), (st), -(st) - 1, (st) + 1 }
#define INLINE static inline __attribute__((always_inline))
/* Call f(..., nn) with the board's neighbour count as a constant. */
#define SHAPE_CALL(b, f, ...) ((b)->nnbr == 4 ? f(__VA_ARGS__, 4) : f(__VA_ARGS__, 6))


/*
 * Group 0 (cell 0 is always off-board, so never a group) stands for "no
 * group" in decide(): size 0, a largest enemy of 0, known.
 */
static void no_group(struct rules_board *b)
{
	b->gsize[0] = 0;
	b->gmax[0] = 0;
	b->gvalid[0] = 1;
}

void rules_board_init(struct rules_board *b, int size)
{
	rules_board_init_shape(b, RULES_SQUARE, size);
}

void rules_board_init_shape(struct rules_board *b, enum rules_shape shape, int size)
{
	int x, y, p, c, n, k;
	const int hex = shape == RULES_HEX;

	assert(rules_shape_ok(shape, size));
	b->shape = shape;
	b->size = size;
	b->width = hex ? 2 * size - 1 : size;
	b->stride = b->width + 2;
	b->ncells = b->stride * b->stride;
	b->npoints = hex ? 3 * size * (size - 1) + 1 : size * size;
	b->nnbr = hex ? 6 : 4;
	{
		const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);

		for (k = 0; k < RULES_MAX_NBR; k++)
			b->nbr[k] = k < b->nnbr ? d[k] : 0;
	}
	n = b->ncells;
	b->nempty = 0;
	b->stones[0] = b->stones[1] = b->stones[2] = 0;
	b->wgen = 0;
	/* Only the cells of this size are ever read: clear just those. */
	memset(b->color, RULES_OFFBOARD, (size_t)n);
	memset(b->nown, 0, (size_t)n);
	memset(b->group, 0, (size_t)n * sizeof(b->group[0]));
	memset(b->gsize, 0, (size_t)n * sizeof(b->gsize[0]));
	memset(b->gvalid, 0, (size_t)n);
	memset(b->wmark, 0, (size_t)n * sizeof(b->wmark[0]));
	no_group(b);
	for (y = 0; y < b->width; y++) {
		for (x = rules_row_first(b, y); x < rules_row_first(b, y) + rules_row_len(b, y); x++) {
			p = rules_point(b, x, y);
			b->color[p] = RULES_EMPTY;
			b->epos[p] = (uint16_t)b->nempty;
			b->empty[b->nempty++] = (uint16_t)p;
		}
	}
	/* On an empty board every point is a non-capturing placement for both. */
	for (c = RULES_BLACK; c <= RULES_WHITE; c++) {
		memset(b->lpos[c], 0xff, (size_t)n * sizeof(b->lpos[c][0]));
		memset(b->isdirty[c], 0, (size_t)n);
		memcpy(b->legal[c], b->empty, (size_t)b->nempty * sizeof(b->empty[0]));
		for (x = 0; x < b->nempty; x++)
			b->lpos[c][b->empty[x]] = (uint16_t)x;
		b->nlegal[c] = b->nempty;
		b->ndirty[c] = 0;
		b->full[c] = false;
	}
	assert(b->nempty == b->npoints);
}

static bool on_board(const struct rules_board *b, int p)
{
	return p > 0 && p < b->ncells && b->color[p] != RULES_OFFBOARD;
}

int rules_largest_group(const struct rules_board *b, enum rules_color c)
{
	int p, best = 0;

	for (p = b->stride; p < b->ncells - b->stride; p++)
		if (b->color[p] == c && b->group[p] == p && b->gsize[p] > best)
			best = b->gsize[p];
	return best;
}

/* Mark the empty point p to be decided again for colour c. */
static inline void mark(struct rules_board *b, int c, int p)
{
	/* Branch-free: the slot past the end is written either way, and kept only if new. */
	b->dirty[c][b->ndirty[c]] = (uint16_t)p;
	b->ndirty[c] += !b->isdirty[c][p];
	b->isdirty[c][p] = 1;
}

static void list_add(struct rules_board *b, int c, int p)
{
	b->lpos[c][p] = (uint16_t)b->nlegal[c];
	b->legal[c][b->nlegal[c]++] = (uint16_t)p;
}

static void list_remove(struct rules_board *b, int c, int p)
{
	int i = b->lpos[c][p], last = b->legal[c][--b->nlegal[c]];

	b->legal[c][i] = (uint16_t)last;
	b->lpos[c][last] = (uint16_t)i;
	b->lpos[c][p] = RULES_NOT_LISTED;
}

/*
 * Mark the empty points next to group g, unless g was already walked in
 * this generation: for the colours in `all` (bit c for colour c) every
 * such point, for the colours in `touch` only the points that also touch a
 * stone of that colour (elsewhere that colour's placement is non-capturing
 * whatever changed).
 */
INLINE void mark_group(struct rules_board *b, int g, int all, int touch, const int nn)
{
	int s = g, st = b->stride, k, q, c;
	unsigned emp, m;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(st);
	const uint8_t *col = b->color, *nown = b->nown;
	const uint16_t *next = b->next;
	/* Counters in locals: stores to the uint8_t flags would make gcc reload them. */
	int n[3] = { 0, b->ndirty[RULES_BLACK], b->ndirty[RULES_WHITE] };

	if (b->wmark[g] == b->wgen)
		return;
	b->wmark[g] = b->wgen;
	/*
	 * Without branches on the neighbours (they are not predictable): a
	 * point that is not to be marked writes the slot past the list's end
	 * and leaves its flag as it was, as mark() does.
	 */
	do {
		for (k = 0; k < nn; k++) {
			q = s + d[k];
			emp = col[q] == RULES_EMPTY;
			/* all and touch are constants at every call: this loop folds away. */
			for (c = RULES_BLACK; c <= RULES_WHITE; c++) {
				m = (all & (1 << c)) ? emp :
				    (touch & (1 << c)) ? emp & (((nown[q] >> NOWN_SHIFT(c)) & 15) != 0) : 0;
				if (!(all & (1 << c)) && !(touch & (1 << c)))
					continue;
				b->dirty[c][n[c]] = (uint16_t)q;
				n[c] += m & !b->isdirty[c][q];
				b->isdirty[c][q] |= (uint8_t)m;
			}
		}
		s = next[s];
	} while (s != g);
	b->ndirty[RULES_BLACK] = n[RULES_BLACK];
	b->ndirty[RULES_WHITE] = n[RULES_WHITE];
}

/*
 * A stone of colour c came or went at p: mark p's empty neighbours for c
 * always, and for the other colour only where they touch its stones
 * (elsewhere its placement is non-capturing whatever changed).
 */
INLINE void mark_around(struct rules_board *b, int p, enum rules_color c, const int nn)
{
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);
	int k, q;

	const enum rules_color o = RULES_OTHER(c);
	int n[3] = { 0, b->ndirty[RULES_BLACK], b->ndirty[RULES_WHITE] };
	unsigned emp, m;

	/* As mark_group(): no branches on the neighbours. */
	for (k = 0; k < nn; k++) {
		q = p + d[k];
		emp = b->color[q] == RULES_EMPTY;
		b->dirty[c][n[c]] = (uint16_t)q;
		n[c] += emp & !b->isdirty[c][q];
		b->isdirty[c][q] |= (uint8_t)emp;
		m = emp & (((b->nown[q] >> NOWN_SHIFT(o)) & 15) != 0);
		b->dirty[o][n[o]] = (uint16_t)q;
		n[o] += m & !b->isdirty[o][q];
		b->isdirty[o][q] |= (uint8_t)m;
	}
	b->ndirty[RULES_BLACK] = n[RULES_BLACK];
	b->ndirty[RULES_WHITE] = n[RULES_WHITE];
}

/* Start a new generation of group-walk marks. */
static void new_walk(struct rules_board *b)
{
	if (++b->wgen == 0) {
		memset(b->wmark, 0, sizeof(b->wmark));
		b->wgen = 1;
	}
}

/* Put a stone on an empty point: colour, empty list, neighbour counts, new singleton group. */
INLINE void put_stone(struct rules_board *b, int p, enum rules_color c, const int nn)
{
	int i = b->epos[p], last = b->empty[--b->nempty], k;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);

	if (b->lpos[RULES_BLACK][p] != RULES_NOT_LISTED)
		list_remove(b, RULES_BLACK, p);
	if (b->lpos[RULES_WHITE][p] != RULES_NOT_LISTED)
		list_remove(b, RULES_WHITE, p);

	b->empty[i] = (uint16_t)last;
	b->epos[last] = (uint16_t)i;
	b->color[p] = (uint8_t)c;
	b->stones[c]++;
	for (k = 0; k < nn; k++)
		b->nown[p + d[k]] += NOWN_ONE(c);
	b->group[p] = (uint16_t)p;
	b->next[p] = (uint16_t)p;
	b->gsize[p] = 1;
	b->gvalid[p] = 0;
}

/* Merge group `from` into group `into` (both of one colour): relabel the stones of `from`. */
static void merge_groups(struct rules_board *b, int into, int from)
{
	int s = from;
	uint16_t t;

	do {
		b->group[s] = (uint16_t)into;
		s = b->next[s];
	} while (s != from);
	/* Splice the two circular lists. */
	t = b->next[into];
	b->next[into] = b->next[from];
	b->next[from] = t;
	b->gsize[into] = (uint16_t)(b->gsize[into] + b->gsize[from]);
	b->gvalid[into] = 0;
}

/* Join the new stone at p with the groups of its colour around it; returns the group id. */
INLINE int join_neighbours(struct rules_board *b, int p, const int nn)
{
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);
	int c = b->color[p], g = p, i, q, h;

	/* Relabel into the largest group so a merge costs the smaller sizes only. */
	for (i = 0; i < nn; i++) {
		q = p + d[i];
		if (b->color[q] != c)
			continue;
		h = b->group[q];
		if (h == g)
			continue;
		if (b->gsize[h] > b->gsize[g])
			merge_groups(b, h, g), g = h;
		else
			merge_groups(b, g, h);
	}
	return g;
}

/*
 * Remove every stone of group g.  The points it frees and the empty points
 * around them change for both colours; the other colour's groups around it
 * lose a neighbour, so their largest enemy may shrink.
 */
INLINE void remove_group(struct rules_board *b, int g, const int nn)
{
	int s = g, n, c = b->color[g], k, q, h;
	int st = b->stride;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(st);

	do {
		for (k = 0; k < nn; k++) {
			q = s + d[k];
			if (b->color[q] != RULES_OTHER(c))
				continue;
			/* Its largest enemy can shrink only if this group could be it. */
			h = b->group[q];
			if (b->gvalid[h] && b->gsize[g] < b->gmax[h])
				continue;
			b->gvalid[h] = 0;
			mark_group(b, h, 1 << RULES_OTHER(c), 0, nn);
		}
		s = b->next[s];
	} while (s != g);
	do {
		n = b->next[s];
		b->color[s] = RULES_EMPTY;
		b->group[s] = 0;
		b->epos[s] = (uint16_t)b->nempty;
		b->empty[b->nempty++] = (uint16_t)s;
		for (k = 0; k < nn; k++)
			b->nown[s + d[k]] -= NOWN_ONE(c);
		b->stones[c]--;
		mark(b, RULES_BLACK, s);
		mark(b, RULES_WHITE, s);
		/*
		 * Its empty neighbours lost a stone of colour c: for c always; for
		 * the capturer only where they touch the capturer's stones.
		 */
		mark_around(b, s, c, nn);
		s = n;
	} while (s != g);
}

bool rules_board_setup(struct rules_board *b, int p, enum rules_color c)
{
	if (!on_board(b, p) || b->color[p] != RULES_EMPTY ||
	    (c != RULES_BLACK && c != RULES_WHITE))
		return false;
	SHAPE_CALL(b, put_stone, b, p, c);
	SHAPE_CALL(b, join_neighbours, b, p);
	/* Set-up is not play: decide every point and group again when next asked. */
	b->full[RULES_BLACK] = b->full[RULES_WHITE] = true;
	memset(b->gvalid, 0, (size_t)b->ncells);
	no_group(b);
	return true;
}

/* Largest enemy group next to any stone of group g (0 if none). */
INLINE int max_enemy_body(const struct rules_board *b, int g, const int nn)
{
	int e = RULES_OTHER(b->color[g]), s = g, st = b->stride, m = 0, q, k;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(st);

	do {
		for (k = 0; k < nn; k++) {
			q = s + d[k];
			if (b->color[q] == e && b->gsize[b->group[q]] > m)
				m = b->gsize[b->group[q]];
		}
		s = b->next[s];
	} while (s != g);
	return m;
}

static int group_max_enemy4(const struct rules_board *b, int g)
{
	return max_enemy_body(b, g, 4);
}

static int group_max_enemy6(const struct rules_board *b, int g)
{
	return max_enemy_body(b, g, 6);
}

#define group_max_enemy(b, g, nn) ((nn) == 4 ? group_max_enemy4(b, g) : group_max_enemy6(b, g))

/*
 * The capture test for colour c at the empty point p, which touches at
 * least one stone of colour c.
 */
static enum rules_verdict eval_join(const struct rules_board *b, enum rules_color c, int p)
{
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);
	int seen[RULES_MAX_NBR], nseen = 0, size = 1, maxe = 0, k, j, q, g, m;
	enum rules_color e = RULES_OTHER(c);

	for (k = 0; k < b->nnbr; k++) {
		q = p + d[k];
		if (b->color[q] == e) {
			if (b->gsize[b->group[q]] > maxe)
				maxe = b->gsize[b->group[q]];
			continue;
		}
		if (b->color[q] != c)
			continue;
		g = b->group[q];
		for (j = 0; j < nseen && seen[j] != g; j++)
			;
		if (j < nseen)
			continue;
		seen[nseen++] = g;
		size += b->gsize[g];
		m = SHAPE_CALL(b, group_max_enemy, b, g);
		if (m > maxe)
			maxe = m;
	}
	if (maxe == 0)
		return RULES_NO_ENEMY;
	if (size <= maxe)
		return RULES_NOT_LARGER;
	return RULES_CAPTURE;
}

/* Fast verdict for one placement, without the details of rules_check(). */
static enum rules_verdict verdict_of(const struct rules_board *b, enum rules_color c, int p)
{
	if (!on_board(b, p))
		return RULES_OFFBOARD_POINT;
	if (b->color[p] != RULES_EMPTY)
		return RULES_OCCUPIED;
	if (((b->nown[p] >> NOWN_SHIFT(c)) & 15) == 0)
		return RULES_NONCAPTURE;
	return eval_join(b, c, p);
}

static void add_unique(uint16_t *list, int *n, int v)
{
	int i;

	for (i = 0; i < *n; i++)
		if (list[i] == v)
			return;
	list[(*n)++] = (uint16_t)v;
}

enum rules_verdict rules_check(const struct rules_board *b, enum rules_color c, int p,
    struct rules_check *out)
{
	struct rules_check r = { 0 };
	uint16_t own[RULES_MAX_NBR], enemy[RULES_MAX_POINTS];
	int nown = 0, nenemy = 0, i, k, q, s;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);
	enum rules_color e = RULES_OTHER(c);

	assert(c == RULES_BLACK || c == RULES_WHITE);
	r.verdict = verdict_of(b, c, p);
	if (r.verdict == RULES_OFFBOARD_POINT || r.verdict == RULES_OCCUPIED)
		goto out;
	r.new_group = 1;
	for (k = 0; k < b->nnbr; k++) {
		q = p + d[k];
		if (b->color[q] == c)
			add_unique(own, &nown, b->group[q]);
		else if (b->color[q] == e)
			add_unique(enemy, &nenemy, b->group[q]);
	}
	for (i = 0; i < nown; i++) {
		r.new_group += b->gsize[own[i]];
		s = own[i];
		do {
			for (k = 0; k < b->nnbr; k++) {
				q = s + d[k];
				if (b->color[q] == e)
					add_unique(enemy, &nenemy, b->group[q]);
			}
			s = b->next[s];
		} while (s != own[i]);
	}
	if (nown == 0)
		goto out; /* a non-capturing placement touches enemies but joins nothing */
	r.enemy_groups = nenemy;
	for (i = 0; i < nenemy; i++)
		if (b->gsize[enemy[i]] > r.largest_enemy)
			r.largest_enemy = b->gsize[enemy[i]];
	if (r.verdict == RULES_CAPTURE)
		for (i = 0; i < nenemy; i++)
			r.captured += b->gsize[enemy[i]];
out:
	if (out != NULL)
		*out = r;
	return r.verdict;
}

/* Group g's largest enemy neighbour, computed again only when it may have changed. */
INLINE int cached_max_enemy(struct rules_board *b, int g, const int nn)
{
	if (!b->gvalid[g]) {
		b->gvalid[g] = 1;
		b->gmax[g] = (uint16_t)group_max_enemy(b, g, nn);
	}
	return b->gmax[g];
}

/*
 * Decide the empty point p for colour c (true: legal), with few
 * data-dependent branches.  A neighbour that is not an own stone stands for
 * group 0, whose size and largest enemy are 0 (cell 0 is off-board and never
 * holds a stone); own groups are deduplicated arithmetically.  Same verdicts
 * as eval_join(): test_rules compares the sets with rules_check() on every
 * position of random games, square and hex.
 */
INLINE bool decide(struct rules_board *b, enum rules_color c, int p, const int nn)
{
	const unsigned e = (unsigned)RULES_OTHER(c);
	const uint8_t *col = b->color;
	const uint16_t *grp = b->group, *gs = b->gsize;
	const int s = b->stride;
	unsigned c0, c1, c2, c3, c4 = 0, c5 = 0, g0, g1, g2, g3, g4 = 0, g5 = 0;
	unsigned o0, o1, o2, o3, o4 = 0, o5 = 0, size, maxe, m;

	if (((b->nown[p] >> NOWN_SHIFT(c)) & 15) == 0)
		return true; /* non-capturing placement */
	c0 = col[p - 1], c1 = col[p + 1], c2 = col[p - s], c3 = col[p + s];
	g0 = grp[p - 1], g1 = grp[p + 1], g2 = grp[p - s], g3 = grp[p + s];
	if (nn == 6) {
		c4 = col[p - s - 1], c5 = col[p + s + 1];
		g4 = grp[p - s - 1], g5 = grp[p + s + 1];
	}
	/*
	 * Masks rather than branches (a point's neighbours are not
	 * predictable): a neighbour that is not a stone of the colour asked
	 * stands for group 0 (see no_group()).  Enemy neighbours: their sizes.
	 */
	maxe = gs[g0 & -(unsigned)(c0 == e)];
	m = gs[g1 & -(unsigned)(c1 == e)], maxe = m > maxe ? m : maxe;
	m = gs[g2 & -(unsigned)(c2 == e)], maxe = m > maxe ? m : maxe;
	m = gs[g3 & -(unsigned)(c3 == e)], maxe = m > maxe ? m : maxe;
	if (nn == 6) {
		m = gs[g4 & -(unsigned)(c4 == e)], maxe = m > maxe ? m : maxe;
		m = gs[g5 & -(unsigned)(c5 == e)], maxe = m > maxe ? m : maxe;
	}
	/* Own neighbours: distinct groups, their sizes and largest enemies. */
	o0 = g0 & -(unsigned)(c0 == (unsigned)c);
	o1 = g1 & -(unsigned)((c1 == (unsigned)c) & (g1 != o0));
	o2 = g2 & -(unsigned)((c2 == (unsigned)c) & (g2 != o0) & (g2 != o1));
	o3 = g3 & -(unsigned)((c3 == (unsigned)c) & (g3 != o0) & (g3 != o1) & (g3 != o2));
	if (nn == 6) {
		o4 = g4 & -(unsigned)((c4 == (unsigned)c) & (g4 != o0) & (g4 != o1) & (g4 != o2) &
		    (g4 != o3));
		o5 = g5 & -(unsigned)((c5 == (unsigned)c) & (g5 != o0) & (g5 != o1) & (g5 != o2) &
		    (g5 != o3) & (g5 != o4));
	}
	size = 1u + gs[o0] + gs[o1] + gs[o2] + gs[o3];
	if (nn == 6)
		size += gs[o4] + gs[o5];
	m = (unsigned)cached_max_enemy(b, (int)o0, nn), maxe = m > maxe ? m : maxe;
	m = (unsigned)cached_max_enemy(b, (int)o1, nn), maxe = m > maxe ? m : maxe;
	m = (unsigned)cached_max_enemy(b, (int)o2, nn), maxe = m > maxe ? m : maxe;
	m = (unsigned)cached_max_enemy(b, (int)o3, nn), maxe = m > maxe ? m : maxe;
	if (nn == 6) {
		m = (unsigned)cached_max_enemy(b, (int)o4, nn), maxe = m > maxe ? m : maxe;
		m = (unsigned)cached_max_enemy(b, (int)o5, nn), maxe = m > maxe ? m : maxe;
	}
	return maxe > 0 && size > maxe;
}

INLINE enum rules_verdict place(struct rules_board *b, enum rules_color c, int p, int *captured,
    const int nn)
{
	enum rules_verdict v;
	int g, s, k, q, h, n = 0;
	const int d[RULES_MAX_NBR] = NBR_OFFSETS(b->stride);

	assert(c == RULES_BLACK || c == RULES_WHITE);
	if (on_board(b, p) && b->color[p] == RULES_EMPTY &&
	    ((b->nown[p] >> NOWN_SHIFT(c)) & 15) != 0 && decide(b, c, p, nn))
		v = RULES_CAPTURE; /* decided with the cached group values */
	else
		v = verdict_of(b, c, p);
	if (!rules_is_legal(v))
		goto out;
	put_stone(b, p, c, nn);
	g = join_neighbours(b, p, nn);
	new_walk(b);
	if (v == RULES_NONCAPTURE) {
		/*
		 * The new singleton's empty neighbours: for colour c they now touch
		 * an own stone; for the other colour they touch an enemy of size 1,
		 * which matters only where they also touch the other colour's stones.
		 */
		mark_around(b, p, c, nn);
		/*
		 * Enemy groups touching the new singleton have a new neighbour of
		 * size 1: their largest enemy changes only if they had none.
		 */
		for (k = 0; k < nn; k++) {
			q = p + d[k];
			if (b->color[q] != RULES_OTHER(c))
				continue;
			h = b->group[q];
			if (b->gvalid[h] && b->gmax[h] > 0)
				continue;
			if (b->gvalid[h])
				b->gmax[h] = 1; /* it was 0 */
			mark_group(b, h, 1 << RULES_OTHER(c), 0, nn);
		}
		goto out;
	}
	/*
	 * The group's size and largest enemy changed: its empty neighbours for
	 * colour c; for the other colour only where they touch its stones.
	 */
	mark_group(b, g, 1 << c, 1 << RULES_OTHER(c), nn);
	/* A capture: every enemy group next to the new group is smaller; remove them all. */
	s = g;
	do {
		for (k = 0; k < nn; k++) {
			q = s + d[k];
			if (b->color[q] == RULES_OTHER(c)) {
				n += b->gsize[b->group[q]];
				remove_group(b, b->group[q], nn);
			}
		}
		s = b->next[s];
	} while (s != g);
	/* Everything the new group touched is gone: it has no enemy neighbour. */
	b->gvalid[g] = 1;
	b->gmax[g] = 0;
out:
	if (captured != NULL)
		*captured = n;
	return v;
}

enum rules_verdict rules_place(struct rules_board *b, enum rules_color c, int p, int *captured)
{
	return SHAPE_CALL(b, place, b, c, p, captured);
}

/* Bring colour c's legal set up to date: decide the dirty points again, or all of them. */
INLINE void update_legal_nn(struct rules_board *b, enum rules_color c, const int nn)
{
	/* Locals: stores to the uint8_t flags would make gcc reload fields of b. */
	uint8_t *isdirty = b->isdirty[c];
	const uint16_t *dirty = b->dirty[c];
	const int ndirty = b->ndirty[c];
	int i, p;
	bool in, now;

	if (b->full[c]) {
		for (i = 0; i < ndirty; i++)
			isdirty[dirty[i]] = 0;
		for (i = 0; i < b->nlegal[c]; i++)
			b->lpos[c][b->legal[c][i]] = RULES_NOT_LISTED;
		b->nlegal[c] = 0;
		for (i = 0; i < b->nempty; i++)
			if (decide(b, c, b->empty[i], nn))
				list_add(b, c, b->empty[i]);
		b->full[c] = false;
		b->ndirty[c] = 0;
		return;
	}
	for (i = 0; i < ndirty; i++) {
		p = dirty[i];
		isdirty[p] = 0;
		if (b->color[p] != RULES_EMPTY)
			continue;
		in = b->lpos[c][p] != RULES_NOT_LISTED;
		now = decide(b, c, p, nn);
		if (now && !in)
			list_add(b, c, p);
		else if (!now && in)
			list_remove(b, c, p);
	}
	b->ndirty[c] = 0;
}

static void update_legal(struct rules_board *b, enum rules_color c)
{
	SHAPE_CALL(b, update_legal_nn, b, c);
}

int rules_legal(struct rules_board *b, enum rules_color c, uint16_t *out)
{
	assert(c == RULES_BLACK || c == RULES_WHITE);
	update_legal(b, c);
	memcpy(out, b->legal[c], (size_t)b->nlegal[c] * sizeof(out[0]));
	return b->nlegal[c];
}

bool rules_has_legal(struct rules_board *b, enum rules_color c)
{
	assert(c == RULES_BLACK || c == RULES_WHITE);
	update_legal(b, c);
	return b->nlegal[c] > 0;
}

/* ---- names ---- */

const char *rules_verdict_str(enum rules_verdict v)
{
	switch (v) {
	case RULES_NONCAPTURE:
		return "non-capturing placement";
	case RULES_CAPTURE:
		return "capturing placement";
	case RULES_OFFBOARD_POINT:
		return "not a point of the board";
	case RULES_OCCUPIED:
		return "the point is occupied";
	case RULES_NO_ENEMY:
		return "the new group would touch no enemy group";
	case RULES_NOT_LARGER:
		return "the new group would not be larger than every enemy group it touches";
	case RULES_GAME_OVER:
		return "the game is over";
	case RULES_NOT_YOUR_TURN:
		return "it is the other side's turn";
	}
	return "unknown verdict";
}

const char *rules_turn_verdict_str(enum rules_turn_verdict s)
{
	switch (s) {
	case RULES_TURN_OK:
		return "ok";
	case RULES_TURN_ILLEGAL:
		return "illegal placement";
	case RULES_TURN_TOO_SHORT:
		return "the turn stops after a capture while a placement is still available";
	case RULES_TURN_TOO_LONG:
		return "placements given after the turn ended";
	case RULES_TURN_EMPTY:
		return "no placement given";
	}
	return "unknown turn status";
}

const char *rules_color_name(enum rules_color c)
{
	switch (c) {
	case RULES_BLACK:
		return "black";
	case RULES_WHITE:
		return "white";
	case RULES_EMPTY:
		return "empty";
	case RULES_OFFBOARD:
		return "off-board";
	}
	return "unknown";
}

const char *rules_result_str(enum rules_result r)
{
	switch (r) {
	case RULES_PLAYING:
		return "unknown";
	case RULES_BLACK_WINS:
		return "B+";
	case RULES_WHITE_WINS:
		return "W+";
	case RULES_DRAW:
		return "0";
	}
	return "unknown";
}
