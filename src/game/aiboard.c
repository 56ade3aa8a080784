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

/* Largest enemy group next to group g, from the cache or by walking g. */
static int max_enemy(struct aiboard *b, int g)
{
	const struct aigeom *geo = b->geo;
	int e = RULES_OTHER(b->color[g]), s = g, m = 0, k, q, z;

	if (b->gvalid[g])
		return b->gmax[g];
	do {
		for (k = 0; k < geo->nnbr; k++) {
			q = s + geo->nbr[k];
			if (b->color[q] == e && (z = b->gsize[b->group[q]]) > m)
				m = z;
		}
		s = b->next[s];
	} while (s != g);
	b->gmax[g] = (uint16_t)m;
	b->gvalid[g] = 1;
	return m;
}

enum aiboard_verdict aiboard_check(struct aiboard *b, int c, int p)
{
	const struct aigeom *geo = b->geo;
	int own[AIBOARD_MAX_NBR], nown = 0, size = 1, maxe = 0, e = RULES_OTHER(c), k, j, q, g, m;

	if (aiboard_count(b, p, c) == 0)
		return AIBOARD_NONCAPTURE;
	for (k = 0; k < geo->nnbr; k++) {
		q = p + geo->nbr[k];
		if (b->color[q] == e) {
			m = b->gsize[b->group[q]];
			if (m > maxe)
				maxe = m;
		} else if (b->color[q] == c) {
			g = b->group[q];
			for (j = 0; j < nown && own[j] != g; j++)
				;
			if (j == nown)
				own[nown++] = g;
		}
	}
	if (nown == 0)
		return AIBOARD_NONCAPTURE;
	for (j = 0; j < nown; j++) {
		size += b->gsize[own[j]];
		m = max_enemy(b, own[j]);
		if (m > maxe)
			maxe = m;
	}
	/* Capturing placement: it touches an enemy group, and every one it touches is smaller. */
	return maxe > 0 && size > maxe ? AIBOARD_CAPTURE : AIBOARD_ILLEGAL;
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

static inline void put_stone(struct aiboard *b, int c, int p)
{
	int i = b->epos[p], last = b->empty[--b->nempty];

	b->empty[i] = (uint16_t)last;
	b->epos[last] = (uint16_t)i;
	b->color[p] = (uint8_t)c;
	b->stones[c]++;
	b->group[p] = (uint16_t)p;
	b->next[p] = (uint16_t)p;
	b->gsize[p] = 1;
	for (i = 0; i < b->geo->nnbr; i++)
		b->nown[p + b->geo->nbr[i]] += NOWN_ONE(c);
}

/* Merge group `from` into group `into`: relabel from's stones, splice the lists. */
static void merge(struct aiboard *b, int into, int from)
{
	int s = from;
	uint16_t t;

	do {
		b->group[s] = (uint16_t)into;
		s = b->next[s];
	} while (s != from);
	t = b->next[into];
	b->next[into] = b->next[from];
	b->next[from] = t;
	b->gsize[into] = (uint16_t)(b->gsize[into] + b->gsize[from]);
}

/* Remove group r (colour e); the capturer's other groups around it forget their largest enemy. */
static void remove_group(struct aiboard *b, int r, int keep)
{
	const struct aigeom *geo = b->geo;
	int e = b->color[r], c = RULES_OTHER(e), s = r, n, k, q;

	do {
		n = b->next[s];
		for (k = 0; k < geo->nnbr; k++) {
			q = s + geo->nbr[k];
			if (b->color[q] == c && b->group[q] != keep)
				b->gvalid[b->group[q]] = 0;
		}
		for (k = 0; k < geo->nnbr; k++)
			b->nown[s + geo->nbr[k]] -= NOWN_ONE(e);
		b->color[s] = RULES_EMPTY;
		b->group[s] = 0;
		b->epos[s] = (uint16_t)b->nempty;
		b->empty[b->nempty++] = (uint16_t)s;
		b->stones[e]--;
		s = n;
	} while (s != r);
}

int aiboard_play(struct aiboard *b, int c, int p, enum aiboard_verdict v)
{
	const struct aigeom *geo = b->geo;
	int e = RULES_OTHER(c), k, q, g, h, s, m = 0, n = 0;

	put_stone(b, c, p);
	if (v == AIBOARD_NONCAPTURE) {
		/* A new singleton: its enemies now touch a group of at least 1. */
		for (k = 0; k < geo->nnbr; k++) {
			q = p + geo->nbr[k];
			if (b->color[q] != e)
				continue;
			h = b->group[q];
			if (b->gsize[h] > m)
				m = b->gsize[h];
			if (b->gmax[h] == 0)
				b->gmax[h] = 1; /* right whether or not it was known */
		}
		b->gmax[p] = (uint16_t)m;
		b->gvalid[p] = 1;
		return 0;
	}
	g = p;
	for (k = 0; k < geo->nnbr; k++) {
		q = p + geo->nbr[k];
		if (b->color[q] != c || (h = b->group[q]) == g)
			continue;
		if (b->gsize[h] > b->gsize[g])
			merge(b, h, g), g = h;
		else
			merge(b, g, h);
	}
	/* Every enemy group next to the new group is smaller: remove them all. */
	s = g;
	do {
		for (k = 0; k < geo->nnbr; k++) {
			q = s + geo->nbr[k];
			if (b->color[q] == e) {
				n += b->gsize[b->group[q]];
				remove_group(b, b->group[q], g);
			}
		}
		s = b->next[s];
	} while (s != g);
	b->gmax[g] = 0;
	b->gvalid[g] = 1;
	return n;
}

int aiboard_legal(struct aiboard *b, int c, uint16_t *out)
{
	int i, n = 0;

	for (i = 0; i < b->nempty; i++)
		if (aiboard_check(b, c, b->empty[i]) != AIBOARD_ILLEGAL)
			out[n++] = b->empty[i];
	return n;
}

bool aiboard_has_legal(struct aiboard *b, int c)
{
	int i;

	for (i = 0; i < b->nempty; i++)
		if (aiboard_check(b, c, b->empty[i]) != AIBOARD_ILLEGAL)
			return true;
	return false;
}

int aiboard_random_legal(struct aiboard *b, int c, uint64_t *rng, enum aiboard_verdict *v)
{
	uint16_t mv[RULES_MAX_POINTS];
	int t, p, n;

	if (b->nempty == 0)
		return 0;
	/* Rejection sampling: a uniform empty point, kept if legal, is a uniform legal one. */
	for (t = 0; t < 8; t++) {
		p = b->empty[aiboard_below(rng, b->nempty)];
		if ((*v = aiboard_check(b, c, p)) != AIBOARD_ILLEGAL)
			return p;
	}
	/* Most points are illegal: draw from the whole set. */
	n = aiboard_legal(b, c, mv);
	if (n == 0)
		return 0;
	p = mv[aiboard_below(rng, n)];
	*v = aiboard_check(b, c, p);
	return p;
}

int aiboard_random_game(struct aiboard *b, int c, uint64_t *rng, int maxlen, int *len)
{
	enum aiboard_verdict v;
	int n = 0, passes = 0, placed = 0, p, winner = RULES_EMPTY;

	while (n < maxlen) {
		p = aiboard_random_legal(b, c, rng, &v);
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
		aiboard_play(b, c, p, v);
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
