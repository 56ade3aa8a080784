/*
 * aiboard: the AI's playout board.  See aiboard.h.
 */
#include "game/aiboard.h"

#include <assert.h>
#include <string.h>

#define NOWN_ONE(c) ((uint8_t)((c) == RULES_BLACK ? 1 : 16))

void aigeom_init(struct aigeom *geo, const struct rules_board *b)
{
	int x, y, i, j, k, off, dx, dy, w = b->width;

	memset(geo, 0, sizeof(*geo));
	geo->size = b->size;
	geo->stride = w + 2 * AIBOARD_BORDER;
	geo->ncells = geo->stride * geo->stride;
	/* The rules core's connections, dx + dy * stride there, on this wider array. */
	geo->nnbr = b->nnbr;
	for (k = 0; k < b->nnbr; k++) {
		off = b->nbr[k];
		dy = (off + (off > 0 ? 1 : -1)) / b->stride;
		dx = off - dy * b->stride;
		geo->nbr[k] = dx + dy * geo->stride;
	}
	{
		const int d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(geo->stride);

		for (k = 0; k < geo->nnbr; k++)
			assert(geo->nbr[k] == d[k]); /* the hot loops rely on it */
	}
	/* Cells within two steps: the neighbours and their neighbours, without the cell. */
	for (i = 0; i < geo->nnbr; i++) {
		for (j = -1; j < geo->nnbr; j++) {
			off = geo->nbr[i] + (j < 0 ? 0 : geo->nbr[j]);
			if (off == 0)
				continue;
			for (k = 0; k < geo->nnear && geo->near[k] != off; k++)
				;
			if (k == geo->nnear) {
				assert(geo->nnear < AIBOARD_MAX_NEAR);
				geo->near[geo->nnear++] = off;
			}
		}
	}
	/* Those that are not neighbours (on hexes, some two-step sums are). */
	for (k = 0; k < geo->nnear; k++) {
		for (j = 0; j < geo->nnbr && geo->nbr[j] != geo->near[k]; j++)
			;
		if (j == geo->nnbr)
			geo->far[geo->nfar++] = geo->near[k];
	}
	assert(geo->nnear == AIBOARD_NNEAR(geo->nnbr) && geo->nfar == AIBOARD_NFAR(geo->nnbr));
	for (y = 0; y < w; y++) {
		for (x = 0; x < w; x++) {
			int c = (y + AIBOARD_BORDER) * geo->stride + x + AIBOARD_BORDER;
			int p = rules_point(b, x, y);

			if (b->color[p] == RULES_OFFBOARD)
				continue;
			geo->rpoint[c] = (uint16_t)p;
			geo->cell[p] = (uint16_t)c;
			geo->npoints++;
		}
	}
	assert(geo->npoints == b->npoints);
}

void aiboard_from_rules(struct aiboard *b, const struct aigeom *geo, const struct rules_board *rb)
{
	int c;

	b->geo = geo;
	b->nempty = 0;
	b->stones[0] = b->stones[1] = b->stones[2] = 0;
	memset(b->color, RULES_OFFBOARD, (size_t)geo->ncells);
	memset(b->group, 0, (size_t)geo->ncells * sizeof(b->group[0]));
	memset(b->gvalid, 0, (size_t)geo->ncells);
	memset(b->nown, 0, (size_t)geo->ncells);
	for (c = 0; c < geo->ncells; c++) {
		if (geo->rpoint[c] == 0)
			continue;
		b->color[c] = (uint8_t)rules_at(rb, geo->rpoint[c]);
		if (b->color[c] == RULES_EMPTY) {
			b->epos[c] = (uint16_t)b->nempty;
			b->empty[b->nempty++] = (uint16_t)c;
		} else {
			b->stones[b->color[c]]++;
		}
	}
	for (c = 0; c < geo->ncells; c++) {
		if (b->color[c] == RULES_BLACK || b->color[c] == RULES_WHITE) {
			int k;

			for (k = 0; k < geo->nnbr; k++)
				b->nown[c + geo->nbr[k]] += NOWN_ONE(b->color[c]);
		}
	}
	/* Groups: the rules core's group ids mapped to cells. */
	for (c = 0; c < geo->ncells; c++) {
		if (b->color[c] != RULES_BLACK && b->color[c] != RULES_WHITE)
			continue;
		b->group[c] = geo->cell[rb->group[geo->rpoint[c]]];
		b->next[c] = geo->cell[rb->next[geo->rpoint[c]]];
	}
	for (c = 0; c < geo->ncells; c++)
		if (b->group[c] == c)
			b->gsize[c] = 0;
	for (c = 0; c < geo->ncells; c++)
		if (b->group[c] != 0)
			b->gsize[b->group[c]]++;
	/* "No group", for neighbours that are not own stones in aiboard_check(): size 0, no enemy. */
	b->gsize[0] = 0;
	b->gmax[0] = 0;
	b->gvalid[0] = 1;
}

void aiboard_copy(struct aiboard *dst, const struct aiboard *src)
{
	size_t n = (size_t)src->geo->ncells;

	dst->geo = src->geo;
	dst->nempty = src->nempty;
	memcpy(dst->stones, src->stones, sizeof(dst->stones));
	memcpy(dst->color, src->color, n);
	memcpy(dst->gvalid, src->gvalid, n);
	memcpy(dst->nown, src->nown, n);
	memcpy(dst->group, src->group, n * 2);
	memcpy(dst->next, src->next, n * 2);
	memcpy(dst->gsize, src->gsize, n * 2);
	memcpy(dst->gmax, src->gmax, n * 2);
	memcpy(dst->epos, src->epos, n * 2);
	memcpy(dst->empty, src->empty, (size_t)src->nempty * 2);
}

/*
 * The hot functions take the number of neighbours as a constant, as
 * aiboard_check_n() does (see aiboard.h); the public ones pick the
 * instance for the board.
 */

/* Largest enemy group next to group g, by walking g; cached. */
static int max_enemy_walk(struct aiboard *b, int g, const int nnbr)
{
	const int st = b->geo->stride, d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(st);
	const uint8_t *col = b->color;
	const uint16_t *grp = b->group, *gs = b->gsize, *nx = b->next;
	unsigned e = (unsigned)RULES_OTHER(col[g]), m = 0, z;
	int s = g, k, q;

	do {
		for (k = 0; k < nnbr; k++) {
			q = s + d[k];
			z = col[q] == e ? gs[grp[q]] : 0;
			m = z > m ? z : m;
		}
		s = nx[s];
	} while (s != g);
	b->gmax[g] = (uint16_t)m;
	b->gvalid[g] = 1;
	return (int)m;
}

int aiboard_max_enemy_walk(struct aiboard *b, int g)
{
	return b->geo->nnbr == 4 ? max_enemy_walk(b, g, 4) : max_enemy_walk(b, g, 6);
}

enum aiboard_verdict aiboard_check(struct aiboard *b, int c, int p)
{
	return AIBOARD_BY_NNBR(b->geo, aiboard_check_n, b, c, p);
}

int aiboard_capture_size(struct aiboard *b, int c, int p)
{
	const struct aigeom *geo = b->geo;
	int seen[RULES_MAX_POINTS], nseen = 0, own[AIBOARD_MAX_NBR], nown = 0;
	int e = RULES_OTHER(c), i, k, j, q, g, s, n = 0;

	/* The enemy groups next to p or next to the own groups p joins. */
	for (k = 0; k < geo->nnbr; k++) {
		q = p + geo->nbr[k];
		if (b->color[q] == c) {
			g = b->group[q];
			for (j = 0; j < nown && own[j] != g; j++)
				;
			if (j == nown)
				own[nown++] = g;
		}
	}
	for (j = -1; j < nown; j++) {
		s = j < 0 ? p : own[j];
		do {
			for (k = 0; k < geo->nnbr; k++) {
				q = s + geo->nbr[k];
				if (b->color[q] != e)
					continue;
				g = b->group[q];
				for (i = 0; i < nseen && seen[i] != g; i++)
					;
				if (i == nseen) {
					seen[nseen++] = g;
					n += b->gsize[g];
				}
			}
			s = j < 0 ? p : b->next[s];
		} while (s != (j < 0 ? p : own[j]));
	}
	return n;
}

AIBOARD_HOT void put_stone(const int nnbr, struct aiboard *b, int c, int p)
{
	const int st = b->geo->stride, d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(st);
	const uint8_t one = NOWN_ONE(c);
	uint8_t *nown = b->nown;
	int i = b->epos[p], last = b->empty[--b->nempty], k;

	b->empty[i] = (uint16_t)last;
	b->epos[last] = (uint16_t)i;
	b->color[p] = (uint8_t)c;
	b->stones[c]++;
	b->group[p] = (uint16_t)p;
	b->next[p] = (uint16_t)p;
	b->gsize[p] = 1;
	for (k = 0; k < nnbr; k++)
		nown[p + d[k]] += one;
}

/* Merge group `from` into group `into`: relabel from's stones, splice the lists. */
static void merge(struct aiboard *b, int into, int from)
{
	uint16_t *grp = b->group, *nx = b->next, t;
	int s = from;

	do {
		grp[s] = (uint16_t)into;
		s = nx[s];
	} while (s != from);
	t = nx[into];
	nx[into] = nx[from];
	nx[from] = t;
	b->gsize[into] = (uint16_t)(b->gsize[into] + b->gsize[from]);
}

/*
 * Remove group r (colour e), returning its size; the capturer's other
 * groups around it forget their largest enemy.
 */
AIBOARD_HOT int remove_group(const int nnbr, struct aiboard *b, int r, int keep)
{
	const int st = b->geo->stride, d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(st);
	uint8_t *col = b->color, *gv = b->gvalid, *nown = b->nown;
	uint16_t *grp = b->group, *nx = b->next, *epos = b->epos, *empty = b->empty;
	const unsigned e = col[r], c = 3u - e;
	const uint8_t one = NOWN_ONE(e);
	int s = r, n, k, q, ne = b->nempty, size = b->gsize[r];

	do {
		n = nx[s];
		/* Without branches: a neighbour that is not such a group clears group 0's flag. */
		for (k = 0; k < nnbr; k++) {
			q = s + d[k];
			gv[grp[q] & -(unsigned)((col[q] == c) & (grp[q] != keep))] = 0;
		}
		for (k = 0; k < nnbr; k++)
			nown[s + d[k]] -= one;
		col[s] = RULES_EMPTY;
		grp[s] = 0;
		epos[s] = (uint16_t)ne;
		empty[ne++] = (uint16_t)s;
		s = n;
	} while (s != r);
	gv[0] = 1; /* group 0 stays "no enemy, known" */
	b->nempty = ne;
	b->stones[e] -= size;
	return size;
}

AIBOARD_HOT int play_n(const int nnbr, struct aiboard *b, int c, int p, enum aiboard_verdict v)
{
	const int st = b->geo->stride, d[AIBOARD_MAX_NBR] = AIBOARD_NBR_OFFSETS(st);
	const unsigned e = 3u - (unsigned)c;
	const uint8_t *col = b->color;
	uint16_t *grp = b->group, *gs = b->gsize, *gm = b->gmax, *nx = b->next;
	uint8_t *gv = b->gvalid;
	int k, j, q, r, g, h, s, m = 0, n = 0;

	put_stone(nnbr, b, c, p);
	if (v == AIBOARD_NONCAPTURE) {
		/* A new singleton: its enemies now touch a group of at least 1. */
		for (k = 0; k < nnbr; k++) {
			q = p + d[k];
			h = (int)(grp[q] & -(unsigned)(col[q] == e)); /* 0 if not an enemy */
			m = gs[h] > m ? gs[h] : m;
			gm[h] += gm[h] == 0; /* 0 becomes 1: right whether or not it was known */
		}
		gm[0] = 0; /* group 0 stays "no enemy" */
		gm[p] = (uint16_t)m;
		gv[p] = 1;
		return 0;
	}
	/*
	 * Every enemy group next to the new group is smaller: remove them all.
	 * They touch p or one of the own groups p joins; an own group known to
	 * touch no enemy (a cached largest enemy of 0) need not be walked.
	 */
	for (k = 0; k < nnbr; k++) {
		q = p + d[k];
		if (col[q] == e)
			n += remove_group(nnbr, b, grp[q], p);
	}
	for (k = 0; k < nnbr; k++) {
		q = p + d[k];
		if (col[q] != (unsigned)c || (h = grp[q]) == p || (gv[h] && gm[h] == 0))
			continue;
		s = h;
		do {
			for (j = 0; j < nnbr; j++) {
				r = s + d[j];
				if (col[r] == e)
					n += remove_group(nnbr, b, grp[r], h);
			}
			s = nx[s];
		} while (s != h);
		gm[h] = 0; /* walked: the next neighbour of this group skips it */
		gv[h] = 1;
	}
	g = p;
	for (k = 0; k < nnbr; k++) {
		q = p + d[k];
		if (col[q] != (unsigned)c || (h = grp[q]) == g)
			continue;
		if (gs[h] > gs[g])
			merge(b, h, g), g = h;
		else
			merge(b, g, h);
	}
	gm[g] = 0;
	gv[g] = 1;
	return n;
}

int aiboard_play(struct aiboard *b, int c, int p, enum aiboard_verdict v)
{
	return AIBOARD_BY_NNBR(b->geo, play_n, b, c, p, v);
}

AIBOARD_HOT int legal_n(const int nnbr, struct aiboard *b, int c, uint16_t *out)
{
	int i, n = 0;

	for (i = 0; i < b->nempty; i++)
		if (aiboard_check_n(nnbr, b, c, b->empty[i]) != AIBOARD_ILLEGAL)
			out[n++] = b->empty[i];
	return n;
}

int aiboard_legal(struct aiboard *b, int c, uint16_t *out)
{
	return AIBOARD_BY_NNBR(b->geo, legal_n, b, c, out);
}

AIBOARD_HOT int random_legal_n(const int nnbr, struct aiboard *b, int c, uint64_t *rng,
    enum aiboard_verdict *v)
{
	uint16_t mv[RULES_MAX_POINTS];
	int t, p, n;

	if (b->nempty == 0)
		return 0;
	/* Rejection sampling: a uniform empty point, kept if legal, is a uniform legal one. */
	for (t = 0; t < 8; t++) {
		p = b->empty[aiboard_below(rng, b->nempty)];
		if ((*v = aiboard_check_n(nnbr, b, c, p)) != AIBOARD_ILLEGAL)
			return p;
	}
	/* Most points are illegal: draw from the whole set. */
	n = legal_n(nnbr, b, c, mv);
	if (n == 0)
		return 0;
	p = mv[aiboard_below(rng, n)];
	*v = aiboard_check_n(nnbr, b, c, p);
	return p;
}

int aiboard_random_legal(struct aiboard *b, int c, uint64_t *rng, enum aiboard_verdict *v)
{
	return AIBOARD_BY_NNBR(b->geo, random_legal_n, b, c, rng, v);
}

AIBOARD_HOT int random_game_n(const int nnbr, struct aiboard *b, int c, uint64_t *rng, int maxlen,
    int *len)
{
	enum aiboard_verdict v;
	int n = 0, passes = 0, placed = 0, p, winner = RULES_EMPTY;

	while (n < maxlen) {
		p = random_legal_n(nnbr, b, c, rng, &v);
		if (p == 0) {
			/* Mid-turn dead end: the turn ends; at a turn's start: a pass, two a draw. */
			if (placed == 0 && ++passes == 2)
				break;
			placed = 0;
			c = RULES_OTHER(c);
			continue;
		}
		n++;
		passes = 0;
		play_n(nnbr, b, c, p, v);
		if (v == AIBOARD_NONCAPTURE) {
			placed = 0;
			c = RULES_OTHER(c);
		} else if (b->stones[RULES_OTHER(c)] == 0) {
			winner = c;
			break;
		} else {
			placed++;
		}
	}
	*len = n;
	return winner;
}

int aiboard_random_game(struct aiboard *b, int c, uint64_t *rng, int maxlen, int *len)
{
	return AIBOARD_BY_NNBR(b->geo, random_game_n, b, c, rng, maxlen, len);
}
