/*
 * ai: the computer player.  See ai.h.
 */
#include "game/ai.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/aiboard.h"

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

enum ai_status ai_baseline_turn(const struct rules_game *g, enum ai_baseline kind, uint64_t seed,
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
		return AI_GAME_OVER;
	for (;;) {
		n = sorted_legal(&work, mv);
		if (n == 0) {
			if (out->n > 0)
				return AI_INTERNAL; /* the rules core ends such a turn itself */
			out->action = AI_PASS;
			return AI_OK;
		}
		p = kind == AI_RANDOM ? mv[rng_below(&rng, n)] : greedy_choice(&work, &rng);
		if (!rules_is_legal(rules_game_play(&work, p, &ev)) || out->n >= RULES_MAX_POINTS)
			return AI_INTERNAL;
		out->points[out->n++] = p;
		if (ev.turn_over || work.result != RULES_PLAYING)
			return AI_OK;
	}
}

/* ---- the tree search ---- */

/*
 * Monte Carlo tree search with RAVE (AMAF), in the manner of Pachi and
 * Fuego: priors from Oust knowledge (captures are good, a placement that
 * lets the opponent capture the new stone is bad) enter every new node as
 * virtual visits, and playouts follow a policy that takes the captures next
 * to the last placement and avoids placing next to enemy stones.  Nodes come
 * from one pool allocated before searching (the cap per level is in
 * levels[]); once it is full the tree stops growing and the search goes on.
 */

enum { TERM_NONE = 0, TERM_WIN, TERM_DRAW };

struct node {
	uint32_t child;		/* first child in the pool; 0: not expanded */
	uint16_t nchild;
	uint16_t move;		/* aiboard cell of the placement that led here */
	uint8_t color;		/* who made it */
	uint8_t term;		/* TERM_WIN: it won the game; TERM_DRAW: nobody can place after it */
	uint16_t spare;
	uint32_t visits;	/* playouts through this node */
	float n, w;		/* visits and wins for the mover, priors included */
	float an, aw;		/* AMAF visits and wins for the mover */
};

_Static_assert(sizeof(struct node) == 32, "a node is 32 bytes");

struct level {
	long playouts;		/* most playouts per placement */
	int time_pct;		/* share of the time to the deadline used per placement */
	bool knowledge;		/* priors and the playout policy */
	bool rave;
	uint32_t nodes;		/* node cap: 32 bytes a node, per thread */
	int threads;		/* searches at once, each on its own tree */
};

/* See ai_level_str(). */
static const struct level levels[AI_MAX_LEVEL + 1] = {
	[1] = { 200, 100, false, false, 1u << 16, 1 },
	[2] = { 2000, 100, true, false, 1u << 18, 1 },
	[3] = { 20000, 50, true, true, 1u << 20, 1 },
	[4] = { 200000, 70, true, true, 1u << 22, 1 },
	[5] = { 4000000, 100, true, true, 1u << 22, 2 },
};

#define PRIOR 12.0f		/* virtual visits of a prior */
#define RAVE_EQUIV 30.0f	/* visits at which AMAF and real values weigh alike */
#define UCB_C 0.9f		/* exploration without knowledge */
#define EXPAND_AT 2		/* visits before a node's children are made */
#define MAX_PATH 256
#define MAX_SEQ (4 * RULES_MAX_POINTS + MAX_PATH)

/* The search's limits for one placement. */
struct limits {
	long budget;		/* playouts */
	int64_t deadline;	/* CLOCK_MONOTONIC ns; 0: none */
};

struct ai {
	struct node *pool;
	uint32_t cap, used;
	uint32_t root;		/* 0: no tree */
	const struct level *lv;
	int level;
	uint64_t rng;
	struct aigeom geo;
	struct aiboard rootb;	/* the position at the root */
	int root_color, root_placed;
	/* one playout's scratch */
	struct aiboard b;
	int maxlen;
	uint32_t path[MAX_PATH];
	uint16_t seq[MAX_SEQ];
	uint8_t seqc[MAX_SEQ];
	uint32_t gen;
	uint32_t mark[3][AIBOARD_MAX_CELLS];
	uint16_t mv[RULES_MAX_POINTS];
	struct aiboard reuse[5];	/* tree reuse: positions down a path */
	/* the last search */
	long playouts;
	float value;
	/* level 5: the second thread's search, and its limits */
	struct ai *helper;
	struct limits limits;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct ai *ai_new(void)
{
	return calloc(1, sizeof(struct ai));
}

void ai_free(struct ai *a)
{
	if (a == NULL)
		return;
	ai_free(a->helper);
	free(a->pool);
	free(a);
}

static void reset_tree(struct ai *a)
{
	a->used = 1; /* index 0 means none */
	a->root = a->used++;
	memset(&a->pool[a->root], 0, sizeof(a->pool[0]));
}

/* Legal placements at a turn state, passes and dead ends applied; 0: nobody can place. */
static int moves_at(struct aiboard *b, int *c, int *placed, uint16_t *mv)
{
	int n, passes = 0;

	for (;;) {
		n = aiboard_legal(b, *c, mv);
		if (n > 0)
			return n;
		/* A dead end ends the turn; a pass at a turn's start, and two are a draw. */
		if (*placed == 0 && ++passes == 2)
			return 0;
		*placed = 0;
		*c = RULES_OTHER(*c);
	}
}

/* Whether c placing the singleton p lets the opponent capture it at once. */
static bool hands_capture(struct aiboard *b, int c, int p)
{
	const struct aigeom *geo = b->geo;
	int e = RULES_OTHER(c), k, j, q, r, h, nadj = 0, adj[AIBOARD_MAX_NBR];
	uint16_t saved[AIBOARD_MAX_NBR], savedv[AIBOARD_MAX_NBR];
	bool hit = false;

	/* Put the stone down by hand (a singleton), look, and take it back. */
	b->color[p] = (uint8_t)c;
	b->group[p] = (uint16_t)p;
	b->gsize[p] = 1;
	b->next[p] = (uint16_t)p;
	b->gvalid[p] = 0;
	for (k = 0; k < geo->nnbr; k++) {
		q = p + geo->nbr[k];
		if (b->color[q] != e)
			continue;
		h = b->group[q];
		for (j = 0; j < nadj && adj[j] != h; j++)
			;
		if (j < nadj)
			continue;
		saved[nadj] = b->gmax[h];
		savedv[nadj] = b->gvalid[h];
		adj[nadj++] = h;
		if (b->gmax[h] == 0)
			b->gmax[h] = 1;
	}
	for (k = 0; k < geo->nnear && !hit; k++) {
		q = p + geo->near[k];
		if (b->color[q] != RULES_EMPTY || aiboard_count(b, q, e) == 0)
			continue;
		/* The capture must take p: q next to p, or q joining a group next to p. */
		for (j = 0; j < geo->nnbr; j++)
			if (q + geo->nbr[j] == p)
				break;
		if (j == geo->nnbr) {
			for (j = 0; j < geo->nnbr; j++) {
				r = q + geo->nbr[j];
				if (b->color[r] == e) {
					for (h = 0; h < nadj && adj[h] != b->group[r]; h++)
						;
					if (h < nadj)
						break;
				}
			}
			if (j == geo->nnbr)
				continue;
		}
		hit = aiboard_check(b, e, q) == AIBOARD_CAPTURE;
	}
	for (j = 0; j < nadj; j++) {
		b->gmax[adj[j]] = saved[j];
		b->gvalid[adj[j]] = (uint8_t)savedv[j];
	}
	b->color[p] = RULES_EMPTY;
	b->group[p] = 0;
	return hit;
}

/* Make the children of node at the state (b, c, placed). */
static void expand(struct ai *a, struct node *node, struct aiboard *b, int c, int placed)
{
	int n = moves_at(b, &c, &placed, a->mv), i, k;
	struct node *ch;
	enum aiboard_verdict v;

	if (n == 0) {
		node->term = TERM_DRAW;
		return;
	}
	/* A capture that takes the last enemy stones wins: nothing else is worth looking at. */
	for (i = 0; i < n; i++) {
		if (aiboard_count(b, a->mv[i], c) == 0 ||
		    aiboard_check(b, c, a->mv[i]) != AIBOARD_CAPTURE)
			continue;
		if (aiboard_capture_size(b, c, a->mv[i]) == b->stones[RULES_OTHER(c)]) {
			a->mv[0] = a->mv[i];
			n = 1;
			break;
		}
	}
	if (a->used + (uint32_t)n > a->cap)
		return; /* the pool is full: this node stays a leaf */
	node->child = a->used;
	node->nchild = (uint16_t)n;
	a->used += (uint32_t)n;
	for (i = 0; i < n; i++) {
		ch = &a->pool[node->child + i];
		memset(ch, 0, sizeof(*ch));
		ch->move = a->mv[i];
		ch->color = (uint8_t)c;
		v = aiboard_check(b, c, a->mv[i]);
		if (v == AIBOARD_CAPTURE && n == 1 &&
		    aiboard_capture_size(b, c, a->mv[i]) == b->stones[RULES_OTHER(c)])
			ch->term = TERM_WIN;
		if (!a->lv->knowledge) {
			ch->n = 1.0f, ch->w = 0.5f;
		} else if (v == AIBOARD_CAPTURE) {
			k = aiboard_capture_size(b, c, a->mv[i]);
			ch->n = PRIOR, ch->w = PRIOR * (k >= 3 ? 0.9f : 0.8f);
		} else if (hands_capture(b, c, a->mv[i])) {
			ch->n = PRIOR, ch->w = PRIOR * 0.15f;
		} else {
			ch->n = PRIOR, ch->w = PRIOR * 0.5f;
		}
	}
}

static struct node *select_child(struct ai *a, struct node *node)
{
	struct node *ch = &a->pool[node->child], *best = ch;
	float bestv = -1e30f, v, beta, logn = logf((float)node->visits + 1.0f);
	int i;

	for (i = 0; i < node->nchild; i++, ch++) {
		if (ch->term == TERM_WIN)
			return ch;
		v = ch->w / ch->n;
		if (a->lv->rave && ch->an > 0.0f) {
			beta = ch->an / (ch->an + ch->n + ch->an * ch->n / RAVE_EQUIV);
			v = (1.0f - beta) * v + beta * ch->aw / ch->an;
		}
		if (!a->lv->knowledge)
			v += UCB_C * sqrtf(logn / ch->n);
		if (v > bestv)
			bestv = v, best = ch;
	}
	return best;
}

/* The playout policy's placement for c, 0 if c has none; *v its verdict. */
static int policy(struct ai *a, struct aiboard *b, int c, int last, enum aiboard_verdict *v)
{
	const struct aigeom *geo = b->geo;
	int k, t, q, start, fallback = 0, e = RULES_OTHER(c);

	if (!a->lv->knowledge)
		return aiboard_random_legal(b, c, &a->rng, v);
	/* Captures next to the last placement: of its stone, or going on after a capture. */
	if (last != 0) {
		start = aiboard_below(&a->rng, geo->nnear);
		for (k = 0; k < geo->nnear; k++) {
			q = last + geo->near[(start + k) % geo->nnear];
			if (b->color[q] == RULES_EMPTY && aiboard_count(b, q, c) > 0 &&
			    (*v = aiboard_check(b, c, q)) == AIBOARD_CAPTURE)
				return q;
		}
	}
	for (t = 0; t < 8 && b->nempty > 0; t++) {
		q = b->empty[aiboard_below(&a->rng, b->nempty)];
		if (aiboard_count(b, q, c) > 0) {
			if ((*v = aiboard_check(b, c, q)) == AIBOARD_CAPTURE)
				return q;
			continue;
		}
		*v = AIBOARD_NONCAPTURE;
		if (aiboard_count(b, q, e) == 0)
			return q;
		if (fallback == 0)
			fallback = q;
	}
	if (fallback != 0) {
		*v = AIBOARD_NONCAPTURE;
		return fallback;
	}
	return aiboard_random_legal(b, c, &a->rng, v);
}

/* Play on from the state to the end; returns the winner, RULES_EMPTY for a draw. */
static int playout(struct ai *a, struct aiboard *b, int c, int placed, int last, int *len)
{
	enum aiboard_verdict v;
	int n = *len, passes = 0, p;

	while (n < a->maxlen) {
		p = policy(a, b, c, last, &v);
		if (p == 0) {
			if (placed == 0 && ++passes == 2)
				break;
			placed = 0;
			c = RULES_OTHER(c);
			last = 0;
			continue;
		}
		passes = 0;
		a->seq[n] = (uint16_t)p;
		a->seqc[n++] = (uint8_t)c;
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

static void backup(struct ai *a, int depth, int len, int winner)
{
	struct node *node, *ch;
	float r[3];
	int d, i;

	r[RULES_EMPTY] = 0.5f;
	r[RULES_BLACK] = winner == RULES_EMPTY ? 0.5f : winner == RULES_BLACK;
	r[RULES_WHITE] = winner == RULES_EMPTY ? 0.5f : winner == RULES_WHITE;
	for (d = depth; d >= 0; d--) {
		node = &a->pool[a->path[d]];
		node->visits++;
		node->n += 1.0f;
		node->w += r[node->color];
	}
	if (!a->lv->rave)
		return;
	/* AMAF: a child counts if its mover placed on its point at any later step. */
	if (++a->gen == 0) {
		memset(a->mark, 0, sizeof(a->mark));
		a->gen = 1;
	}
	for (i = depth; i < len; i++)
		a->mark[a->seqc[i]][a->seq[i]] = a->gen;
	for (d = depth - 1; d >= 0; d--) {
		a->mark[a->seqc[d]][a->seq[d]] = a->gen;
		node = &a->pool[a->path[d]];
		ch = &a->pool[node->child];
		for (i = 0; i < node->nchild; i++, ch++)
			if (a->mark[ch->color][ch->move] == a->gen) {
				ch->an += 1.0f;
				ch->aw += r[ch->color];
			}
	}
}

/* One descent, expansion, playout and backup from the root. */
static void one_playout(struct ai *a)
{
	struct aiboard *b = &a->b;
	struct node *node = &a->pool[a->root], *ch;
	enum aiboard_verdict v;
	int c = a->root_color, placed = a->root_placed, depth = 0, len = 0, winner, last = 0;

	aiboard_copy(b, &a->rootb);
	a->path[0] = a->root;
	while (node->child != 0 && node->term == TERM_NONE && depth < MAX_PATH - 1) {
		ch = select_child(a, node);
		if (ch->color != c)
			c = ch->color, placed = 0; /* a pass or a dead end came first */
		v = aiboard_check(b, c, ch->move);
		aiboard_play(b, c, ch->move, v);
		a->seq[len] = ch->move;
		a->seqc[len++] = (uint8_t)c;
		last = ch->move;
		if (v == AIBOARD_CAPTURE)
			placed++;
		else
			c = RULES_OTHER(c), placed = 0;
		node = ch;
		a->path[++depth] = (uint32_t)(node - a->pool);
	}
	if (node->term == TERM_NONE && node->child == 0 && node->visits + 1 >= EXPAND_AT) {
		expand(a, node, b, c, placed);
	}
	if (node->term == TERM_WIN)
		winner = node->color;
	else if (node->term == TERM_DRAW)
		winner = RULES_EMPTY;
	else
		winner = playout(a, b, c, placed, last, &len);
	backup(a, depth, len, winner);
}

/*
 * Find the position (b, c, placed) below the current root, at most 4
 * placements down, following only placements whose stone is on b; returns
 * the node or 0.
 */
static uint32_t find_node(struct ai *a, uint32_t at, const struct aiboard *from, int c, int placed,
    const struct aiboard *b, int tc, int tplaced, int depth)
{
	const struct node *node = &a->pool[at], *ch;
	struct aiboard *nb = &a->reuse[depth];
	enum aiboard_verdict v;
	uint32_t found;
	int i, cc, cp;

	if (c == tc && (placed > 0) == (tplaced > 0) &&
	    memcmp(from->color, b->color, (size_t)b->geo->ncells) == 0)
		return at;
	if (depth == 4 || node->child == 0)
		return 0;
	for (i = 0; i < node->nchild; i++) {
		ch = &a->pool[node->child + i];
		if (b->color[ch->move] != ch->color)
			continue;
		cc = c, cp = placed;
		if (ch->color != cc)
			cc = ch->color, cp = 0;
		aiboard_copy(nb, from);
		v = aiboard_check(nb, cc, ch->move);
		if (v == AIBOARD_ILLEGAL)
			continue;
		aiboard_play(nb, cc, ch->move, v);
		if (v == AIBOARD_CAPTURE)
			cp++;
		else
			cc = RULES_OTHER(cc), cp = 0;
		found = find_node(a, node->child + (uint32_t)i, nb, cc, cp, b, tc, tplaced, depth + 1);
		if (found != 0)
			return found;
	}
	return 0;
}

static int clamp_level(int level)
{
	return level < AI_MIN_LEVEL ? AI_MIN_LEVEL : level > AI_MAX_LEVEL ? AI_MAX_LEVEL : level;
}

/* Set up the root for g: the old tree's node for it if there is one, else a new tree. */
static enum ai_status prepare(struct ai *a, const struct rules_game *g, const struct ai_options *o)
{
	struct aigeom geo;
	uint32_t at = 0;
	int level = clamp_level(o->level);

	a->lv = &levels[level];
	if (a->pool == NULL || a->cap != a->lv->nodes) {
		free(a->pool);
		a->cap = a->lv->nodes;
		a->pool = malloc(sizeof(a->pool[0]) * a->cap);
		a->root = 0;
		if (a->pool == NULL) {
			a->cap = 0;
			return AI_NO_MEMORY;
		}
	}
	aigeom_init(&geo, &g->board);
	if (memcmp(&geo, &a->geo, sizeof(geo)) != 0 || a->level != level) {
		a->geo = geo;
		a->root = 0;
	}
	a->level = level;
	aiboard_from_rules(&a->b, &a->geo, &g->board);
	if (a->root != 0 && a->used < a->cap / 4 * 3)
		at = find_node(a, a->root, &a->rootb, a->root_color, a->root_placed, &a->b,
		    g->to_move, g->placed, 0);
	aiboard_copy(&a->rootb, &a->b);
	a->root_color = g->to_move;
	a->root_placed = g->placed;
	if (at == 0) {
		reset_tree(a);
		a->pool[a->root].color = (uint8_t)RULES_OTHER(g->to_move);
	} else {
		a->root = at;
	}
	a->rng = o->seed ^ 0x6f75737470626dULL;
	a->maxlen = 4 * a->geo.npoints;
	return AI_OK;
}

/* Make the root's children if it has none; returns how many it has. */
static int root_children(struct ai *a)
{
	struct node *root = &a->pool[a->root];

	if (root->child == 0 && root->term == TERM_NONE) {
		aiboard_copy(&a->b, &a->rootb);
		expand(a, root, &a->b, a->root_color, a->root_placed);
	}
	return root->child == 0 ? 0 : root->nchild;
}

/* Playouts until the budget or the deadline. */
static void run(struct ai *a, const struct limits *l)
{
	long i;

	a->playouts = 0;
	for (i = 0; i < l->budget; i++) {
		if ((i & 31) == 0 && l->deadline != 0 && i > 0 && now_ns() >= l->deadline)
			break;
		one_playout(a);
		a->playouts++;
	}
}

static void *helper_main(void *arg)
{
	struct ai *h = arg;

	run(h, &h->limits);
	return NULL;
}

/*
 * The root's child to play: a winning one, else the most visited, counting
 * the helper's visits to the same placement (root parallelisation).
 */
static struct node *pick(struct ai *a, struct ai *h)
{
	struct node *root = &a->pool[a->root], *ch, *best = NULL, *hr = NULL, *hc;
	float bv = -1.0f, bw = 0.0f, bn = 1.0f, v, w, n;
	int i, j;

	if (h != NULL)
		hr = &h->pool[h->root];
	for (i = 0; i < root->nchild; i++) {
		ch = &a->pool[root->child + i];
		if (ch->term == TERM_WIN) {
			best = ch, bw = 1.0f, bn = 1.0f;
			break;
		}
		v = (float)ch->visits, w = ch->w, n = ch->n;
		for (j = 0; hr != NULL && j < hr->nchild; j++) {
			hc = &h->pool[hr->child + j];
			if (hc->move == ch->move && hc->color == ch->color) {
				v += (float)hc->visits, w += hc->w, n += hc->n;
				break;
			}
		}
		if (best == NULL || v > bv || (v == bv && w / n > bw / bn))
			best = ch, bv = v, bw = w, bn = n;
	}
	a->value = bw / bn;
	return best;
}

enum ai_status ai_genmove(struct ai *a, const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out)
{
	struct ai_options ho = *o;
	struct node *best;
	struct limits l;
	struct ai *h = NULL;
	pthread_t thread;
	enum ai_status st;
	int64_t t;
	bool two = false;

	memset(out, 0, sizeof(*out));
	out->action = AI_PLACE;
	if (g->result != RULES_PLAYING)
		return AI_GAME_OVER;
	st = prepare(a, g, o);
	if (st != AI_OK)
		return st;
	l.budget = o->playouts > 0 ? o->playouts : a->lv->playouts;
	l.deadline = 0;
	if (o->deadline_ns > 0) {
		t = now_ns();
		l.deadline = t + (o->deadline_ns - t) / 100 * a->lv->time_pct;
	}
	if (root_children(a) == 0) {
		/* No placement here: the side to move passes (the rules core does it by itself). */
		out->action = AI_PASS;
		return AI_OK;
	}
	a->playouts = 0;
	if (a->pool[a->root].nchild > 1) {
		/* A second search on its own tree and seed, on a second thread. */
		if (a->lv->threads > 1 && a->helper == NULL)
			a->helper = ai_new();
		if (a->lv->threads > 1 && a->helper != NULL) {
			h = a->helper;
			ho.seed = o->seed ^ 0x9e3779b97f4a7c15ULL;
			if (prepare(h, g, &ho) != AI_OK || root_children(h) == 0) {
				h = NULL;
			} else {
				h->limits = l;
				h->limits.budget = l.budget / 2;
				two = pthread_create(&thread, NULL, helper_main, h) == 0;
				if (!two)
					h = NULL;
			}
		}
		l.budget -= h != NULL ? l.budget / 2 : 0;
		run(a, &l);
		if (two)
			pthread_join(thread, NULL);
	}
	best = pick(a, h);
	if (h != NULL)
		a->playouts += h->playouts;
	if (best == NULL || best->color != g->to_move)
		return AI_INTERNAL;
	/* Pie rule: swap when the position left by Black's first turn favours Black. */
	if (rules_game_can_swap(g) && a->playouts >= 100 && a->value < 0.45f) {
		out->action = AI_SWAP;
		return AI_OK;
	}
	out->n = 1;
	out->points[0] = a->geo.rpoint[best->move];
	return AI_OK;
}

void ai_last_search(const struct ai *a, struct ai_search *out)
{
	out->playouts = a->playouts;
	out->nodes = a->used;
	out->node_cap = a->cap;
	out->node_bytes = sizeof(struct node);
	out->value = a->value;
}

enum ai_status ai_play_turn(const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out)
{
	struct ai *a = NULL;
	struct rules_game *work = NULL;
	struct rules_event ev;
	struct ai_options po = *o;
	struct ai_turn *one = NULL;
	enum ai_status st = AI_NO_MEMORY;
	int64_t t;

	memset(out, 0, sizeof(*out));
	out->action = AI_PLACE;
	if (g->result != RULES_PLAYING)
		return AI_GAME_OVER;
	a = ai_new();
	work = malloc(sizeof(*work));
	one = malloc(sizeof(*one));
	if (a == NULL || work == NULL || one == NULL)
		goto out;
	*work = *g;
	for (;;) {
		/* Half the time left for this placement: later ones reuse its tree. */
		if (o->deadline_ns > 0) {
			t = now_ns();
			po.deadline_ns = o->deadline_ns <= t ? t : t + (o->deadline_ns - t) / 2;
		}
		po.seed = o->seed + (uint64_t)out->n;
		st = ai_genmove(a, work, &po, one);
		if (st != AI_OK)
			goto out;
		if (one->action != AI_PLACE) {
			if (out->n > 0) {
				st = AI_INTERNAL;
				goto out;
			}
			out->action = one->action;
			goto out;
		}
		/* A lost game is resigned only when the search sees no chance at all. */
		if (out->n == 0 && clamp_level(o->level) >= 3 && a->playouts >= 5000 &&
		    a->value < 0.01f) {
			out->action = AI_RESIGN;
			goto out;
		}
		if (!rules_is_legal(rules_game_play(work, one->points[0], &ev)) ||
		    out->n >= RULES_MAX_POINTS) {
			st = AI_INTERNAL;
			goto out;
		}
		out->points[out->n++] = one->points[0];
		if (ev.turn_over || work->result != RULES_PLAYING)
			break;
	}
out:
	ai_free(a);
	free(work);
	free(one);
	return st;
}

const char *ai_level_str(int level)
{
	switch (clamp_level(level)) {
	case 1:
		return "level 1: tree search with uniformly random playouts and no Oust knowledge, "
		    "200 playouts a placement";
	case 2:
		return "level 2: tree search with Oust knowledge in its priors and playouts "
		    "(captures, no stone left for the opponent to capture), 2,000 playouts a placement";
	case 3:
		return "level 3: as level 2 with RAVE, up to 20,000 playouts a placement and half "
		    "the time it is given";
	case 4:
		return "level 4: as level 3, up to 200,000 playouts a placement and 70% of the time";
	default:
		return "level 5: as level 4, with two searches at once on two threads, up to "
		    "4,000,000 playouts a placement and all the time it is given";
	}
}

const char *ai_status_str(enum ai_status s)
{
	switch (s) {
	case AI_OK:
		return "ok";
	case AI_GAME_OVER:
		return "the game is over";
	case AI_NO_MEMORY:
		return "out of memory";
	case AI_INTERNAL:
		return "internal error in the computer player";
	}
	return "unknown status";
}
