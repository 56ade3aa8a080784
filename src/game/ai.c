/*
 * ai: the computer player.  See ai.h.
 */
#include "game/ai.h"
#include "game/ai_int.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/aiboard.h"

/* ---- the tree search ---- */

/*
 * Monte Carlo tree search with RAVE (AMAF), in the manner of Pachi and
 * Fuego: priors from Oust knowledge (captures are good, a placement that
 * lets the opponent capture the new stone is bad) enter every new node as
 * virtual visits, and playouts follow a policy that takes the captures next
 * to the last placement, avoids stones the opponent can capture at once and
 * placing next to enemy stones.  Nodes come from one pool allocated before
 * searching (the cap per level is in levels[]); as it fills the tree grows
 * more slowly, and once it is full the tree stops growing and the search
 * goes on.  A tree kept from the last search is compacted (compact()) when
 * the pool is over half full, so that a long think is not slowed by the
 * branches of earlier ones.
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

/*
 * The levels: 1, tree search with uniformly random playouts and no Oust
 * knowledge, 200 playouts a placement; 2, Oust knowledge in its priors
 * (captures, no stone left for the opponent to capture) and playouts that
 * take captures, 500 playouts; 3, as 2 with RAVE, up to 2,000 playouts and
 * half the time it is given; 4, as 3 with playouts that leave no stone for
 * the opponent to capture, up to 4,000 playouts; 5, as 4 with two threads
 * searching one tree for 95% of the time it is given (up to 4,000,000
 * playouts).  Each level searches at least twice as many playouts
 * as the one below at 1 s a placement and adds knowledge to it (level 2
 * Oust knowledge, level 3 RAVE, level 4 the safe playouts), or searches
 * eight times as many (level 5), so that it wins most games against it.
 * Level 5, the strongest, searches 95% of the think time on two threads
 * (over 50,000 playouts a second on 9x9 and 30,000 on 11x11 on an idle
 * machine, against level 4's 4,000).  Level 4 searched 8,000 before: it
 * won 57 of 60 9x9 games against level 3, level 5 (at a fixed 32,000) only
 * 44 of 60 against it (73%, [61%, 83%]).  At 4,000 it still wins 55 of 60
 * against level 3, and level 5 wins 51 of 60 against it (85%, [74%, 92%]):
 * an even ladder.
 */
static const struct level levels[AI_MAX_LEVEL + 1] = {
	[1] = { 200, 100, false, POLICY_UNIFORM, false, 1u << 16, 1 },
	[2] = { 500, 100, true, POLICY_CAPTURES, false, 1u << 18, 1 },
	[3] = { 2000, 50, true, POLICY_CAPTURES, true, 1u << 20, 1 },
	[4] = { 4000, 50, true, POLICY_SAFE, true, 1u << 22, 1 },
	[5] = { 4000000, 95, true, POLICY_SAFE, true, 1u << 23, 2 },
};

/*
 * The search's constants, each measured against its neighbours: level 5
 * with a variant against level 5 as it is, 60 games of 9x9 at 8,000
 * playouts a placement, alternating colours (wins of the variant):
 * RAVE_EQUIV 10: 33, 80: 14, 200: 8; PRIOR 24: 34, 48: 21; UCB_K 0.15: 24,
 * 0.5: 14; HANDS_CAPTURE 0.05 against 0.15 (as it was): 39, its
 * interval [52%, 76%].
 */
#ifndef PRIOR
#define PRIOR 12.0f		/* virtual visits of a prior */
#endif
#define HANDS_CAPTURE 0.05f	/* prior value of a stone the opponent can capture at once */
#ifndef RAVE_EQUIV
#define RAVE_EQUIV 30.0f	/* visits at which AMAF and real values weigh alike */
#endif
#define UCB_C 0.9f		/* exploration without knowledge */
#ifndef UCB_K
#define UCB_K 0.3f		/* exploration with knowledge: without it, more playouts
				 * hardly change the root's choice */
#endif
#ifndef EXPAND_AT
#define EXPAND_AT 2		/* visits before a node's children are made, pool empty */
#endif
#define EXPAND_SLOPE 32		/* visits more when the pool is full (from half full) */
#define DEADLINE_RESERVE_NS 10000000	/* 10 ms of the think time kept back */

/*
 * The threads of level 5 share one tree without locks, as Pachi and Fuego
 * do: the statistics are read and written with relaxed atomic operations
 * (a lost update now and then costs nothing), a descent counts its visit
 * at once, as a loss until the playout's result is backed up (the "virtual
 * loss" that sends the other thread down another path), a node is expanded
 * by the one thread that claims it, and its children are published with a
 * release store of node->child.
 */
static inline float ldf(const float *p)
{
	float v;

	__atomic_load(p, &v, __ATOMIC_RELAXED);
	return v;
}

static inline void addf(float *p, float d)
{
	float v = ldf(p) + d;

	__atomic_store(p, &v, __ATOMIC_RELAXED);
}

static inline uint32_t children_of(const struct node *node)
{
	return __atomic_load_n(&node->child, __ATOMIC_ACQUIRE);
}

static inline int term_of(const struct node *node)
{
	return __atomic_load_n(&node->term, __ATOMIC_RELAXED);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct ai *ai_new(void)
{
	struct ai *a = calloc(1, sizeof(struct ai));
	int i;

	if (a != NULL)
		for (i = 0; i < MAX_THREADS; i++)
			a->w[i].a = a;
	return a;
}

/*
 * Wait for the helper thread of the last search, which was told to stop
 * when the answer was chosen: the tree is not touched before it is gone.
 */
static void join_helper(struct ai *a)
{
	if (!a->helper)
		return;
	pthread_join(a->thread, NULL);
	a->helper = false;
}

void ai_free(struct ai *a)
{
	if (a == NULL)
		return;
	join_helper(a);
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


/*
 * Make the children of node at the state (b, c, placed), unless another
 * thread has claimed it (node->spare is the claim) or the pool is full (the
 * node then stays a leaf).
 */
static void expand(struct worker *wk, struct node *node, struct aiboard *b, int c, int placed)
{
	struct ai *a = wk->a;
	uint16_t *mv = wk->mv;
	int n, i, k;
	uint32_t first;
	struct node *ch;
	enum aiboard_verdict v;

	if (__atomic_exchange_n(&node->spare, 1, __ATOMIC_RELAXED) != 0)
		return;
	n = moves_at(b, &c, &placed, mv);
	if (n == 0) {
		__atomic_store_n(&node->term, TERM_DRAW, __ATOMIC_RELAXED);
		return;
	}
	/* A capture that takes the last enemy stones wins: nothing else is worth looking at. */
	for (i = 0; i < n; i++) {
		if (aiboard_count(b, mv[i], c) == 0 || aiboard_check(b, c, mv[i]) != AIBOARD_CAPTURE)
			continue;
		if (aiboard_capture_size(b, c, mv[i]) == b->stones[RULES_OTHER(c)]) {
			mv[0] = mv[i];
			n = 1;
			break;
		}
	}
	first = __atomic_load_n(&a->used, __ATOMIC_RELAXED);
	do {
		if (first + (uint32_t)n > a->cap)
			return; /* the pool is full: this node stays a leaf */
	} while (!__atomic_compare_exchange_n(&a->used, &first, first + (uint32_t)n, true,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	for (i = 0; i < n; i++) {
		ch = &a->pool[first + (uint32_t)i];
		memset(ch, 0, sizeof(*ch));
		ch->move = mv[i];
		ch->color = (uint8_t)c;
		v = aiboard_check(b, c, mv[i]);
		if (v == AIBOARD_CAPTURE && n == 1 &&
		    aiboard_capture_size(b, c, mv[i]) == b->stones[RULES_OTHER(c)])
			ch->term = TERM_WIN;
		if (!a->lv->knowledge) {
			ch->n = 1.0f, ch->w = 0.5f;
		} else if (v == AIBOARD_CAPTURE) {
			k = aiboard_capture_size(b, c, mv[i]);
			ch->n = PRIOR, ch->w = PRIOR * (k >= 3 ? 0.9f : 0.8f);
		} else if (aiplayout_hands_capture(b, c, mv[i])) {
			ch->n = PRIOR, ch->w = PRIOR * HANDS_CAPTURE;
		} else {
			ch->n = PRIOR, ch->w = PRIOR * 0.5f;
		}
	}
	node->nchild = (uint16_t)n;
	__atomic_store_n(&node->child, first, __ATOMIC_RELEASE);
}

/*
 * The child to descend to: a winning one, else the first of those whose
 * value (the RAVE blend plus the exploration term) is highest.  The
 * children are valued SELECT_BATCH at a time, their statistics read first
 * and the arithmetic done in loops of their own, which the compiler
 * vectorises (ai.o is built with -fno-math-errno, so that sqrtf is an
 * instruction): the same operations on each child as one at a time, the
 * same values to the bit.
 */
#define SELECT_BATCH 8

static struct node *select_child(struct worker *wk, struct node *node, uint32_t child)
{
	const struct level *lv = wk->a->lv;
	struct node *first = &wk->a->pool[child], *ch, *best = first;
	float bestv = -1e30f, f, c = lv->knowledge ? UCB_K : UCB_C;
	float logn = logf((float)__atomic_load_n(&node->visits, __ATOMIC_RELAXED) + 1.0f);
	float n[SELECT_BATCH], w[SELECT_BATCH], an[SELECT_BATCH], aw[SELECT_BATCH], v[SELECT_BATCH];
	int i, j, k, nchild = node->nchild;

	for (i = 0; i < nchild; i += SELECT_BATCH) {
		k = nchild - i < SELECT_BATCH ? nchild - i : SELECT_BATCH;
		for (j = 0; j < k; j++) {
			ch = first + i + j;
			if (term_of(ch) == TERM_WIN)
				return ch;
			n[j] = ldf(&ch->n);
			w[j] = ldf(&ch->w);
			an[j] = ldf(&ch->an);
			aw[j] = ldf(&ch->aw);
		}
		for (; j < SELECT_BATCH; j++)
			n[j] = 1.0f, w[j] = an[j] = aw[j] = 0.0f; /* past the last child: ignored */
		if (lv->rave) {
			/*
			 * (1 - beta) w/n + beta aw/an with beta = an / (an + n + an n / K)
			 * is (w (1 + an / K) + aw) / (an + n + an n / K): one division, and
			 * w/n where there is no AMAF value yet (an = 0).
			 */
			for (j = 0; j < SELECT_BATCH; j++) {
				f = 1.0f + an[j] * (1.0f / RAVE_EQUIV);
				v[j] = (w[j] * f + aw[j]) / (n[j] * f + an[j]);
			}
		} else {
			for (j = 0; j < SELECT_BATCH; j++)
				v[j] = w[j] / n[j];
		}
		if (c > 0.0f)
			for (j = 0; j < SELECT_BATCH; j++)
				v[j] += c * sqrtf(logn / n[j]);
		for (j = 0; j < k; j++)
			if (v[j] > bestv)
				bestv = v[j], best = first + i + j;
	}
	return best;
}


/* Back the playout's result up the path (whose visits the descent counted) and into AMAF. */
static void backup(struct worker *wk, int depth, int len, int winner)
{
	struct node *pool = wk->a->pool, *node, *ch;
	const uint32_t *mark;
	uint32_t child, gen;
	float r[3], rc;
	int d, i, nchild;

	r[RULES_EMPTY] = 0.5f;
	r[RULES_BLACK] = winner == RULES_EMPTY ? 0.5f : winner == RULES_BLACK;
	r[RULES_WHITE] = winner == RULES_EMPTY ? 0.5f : winner == RULES_WHITE;
	for (d = depth; d >= 0; d--) {
		node = &pool[wk->path[d]];
		__atomic_fetch_add(&node->visits, 1, __ATOMIC_RELAXED);
		addf(&node->w, r[node->color]);
	}
	if (!wk->a->lv->rave)
		return;
	/* AMAF: a child counts if its mover placed on its point at any later step. */
	if (++wk->gen == 0) {
		memset(wk->mark, 0, sizeof(wk->mark));
		wk->gen = 1;
	}
	for (i = depth; i < len; i++)
		wk->mark[wk->seqc[i]][wk->seq[i]] = wk->gen;
	/*
	 * The nodes above the leaf have children (the descent went through
	 * them), and a node's children are placements of one colour (expand()).
	 */
	gen = wk->gen;
	for (d = depth - 1; d >= 0; d--) {
		wk->mark[wk->seqc[d]][wk->seq[d]] = gen;
		node = &pool[wk->path[d]];
		child = children_of(node);
		nchild = node->nchild;
		ch = &pool[child];
		mark = wk->mark[ch->color];
		rc = r[ch->color];
		for (i = 0; i < nchild; i++, ch++)
			if (mark[ch->move] == gen) {
				addf(&ch->an, 1.0f);
				addf(&ch->aw, rc);
			}
	}
}

/*
 * Visits before a leaf is expanded: EXPAND_AT up to half the pool, then
 * more as it fills, so that a long search (or a tree kept over several
 * placements) slows its growth rather than stopping it dead at the cap.
 */
static uint32_t expand_at(struct ai *a)
{
	uint32_t used = __atomic_load_n(&a->used, __ATOMIC_RELAXED), half = a->cap / 2;

	return EXPAND_AT + (used <= half ? 0 : (uint32_t)((uint64_t)(used - half) * EXPAND_SLOPE / half));
}

/* One descent, expansion, playout and backup from the root. */
static void one_playout(struct worker *wk)
{
	struct ai *a = wk->a;
	struct aiboard *b = &wk->b;
	struct node *node = &a->pool[a->root], *ch;
	enum aiboard_verdict v;
	uint32_t child;
	int c = a->root_color, placed = a->root_placed, depth = 0, len = 0, winner, last = 0;

	aiboard_copy(b, &a->rootb);
	wk->path[0] = a->root;
	addf(&node->n, 1.0f);
	while ((child = children_of(node)) != 0 && term_of(node) == TERM_NONE &&
	    depth < MAX_PATH - 1) {
		ch = select_child(wk, node, child);
		addf(&ch->n, 1.0f); /* the visit, a loss until backed up */
		if (ch->color != c)
			c = ch->color, placed = 0; /* a pass or a dead end came first */
		v = aiboard_check(b, c, ch->move);
		aiboard_play(b, c, ch->move, v);
		wk->seq[len] = ch->move;
		wk->seqc[len++] = (uint8_t)c;
		last = ch->move;
		if (v == AIBOARD_CAPTURE)
			placed++;
		else
			c = RULES_OTHER(c), placed = 0;
		node = ch;
		wk->path[++depth] = (uint32_t)(node - a->pool);
	}
	if (term_of(node) == TERM_NONE && children_of(node) == 0 &&
	    __atomic_load_n(&node->visits, __ATOMIC_RELAXED) + 1 >= expand_at(a))
		expand(wk, node, b, c, placed);
	if (term_of(node) == TERM_WIN)
		winner = node->color;
	else if (term_of(node) == TERM_DRAW)
		winner = RULES_EMPTY;
	else
		winner = aiplayout_run(wk, b, c, placed, last, &len);
	backup(wk, depth, len, winner);
}

/*
 * Find the position (b, c, placed) below the current root, at most 4
 * placements down, following only placements whose stone is on b; returns
 * the node or 0.
 */
/* The position find_node() looks for: its board, side to move and placements made in the turn. */
struct target {
	const struct aiboard *b;
	int c, placed;
};

static uint32_t find_node(struct ai *a, uint32_t at, const struct aiboard *from, int c, int placed,
    const struct target *t, int depth)
{
	const struct aiboard *b = t->b;
	const struct node *node = &a->pool[at], *ch;
	struct aiboard *nb = &a->reuse[depth];
	enum aiboard_verdict v;
	uint32_t found;
	int i, cc, cp;

	if (c == t->c && (placed > 0) == (t->placed > 0) &&
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
		found = find_node(a, node->child + (uint32_t)i, nb, cc, cp, t, depth + 1);
		if (found != 0)
			return found;
	}
	return 0;
}

/* Mark the nodes of the subtree at `at` in live[] (non-zero), the node itself included. */
static void mark_live(const struct ai *a, uint32_t at, uint32_t *live)
{
	const struct node *node = &a->pool[at];
	uint32_t i;

	live[at] = 1;
	if (node->child != 0)
		for (i = 0; i < node->nchild; i++)
			mark_live(a, node->child + i, live);
}

/*
 * Keep only the subtree at `at`, slid down to the start of the pool (index 1
 * its root), its statistics and children's order as they were: the other
 * branches of the old tree are garbage that would otherwise fill the pool over a
 * long think.  A node always has a higher index than its parent and its
 * children are one block, so the live nodes move down in index order (as a
 * sliding mark-compact collector does), each block staying a block.  Leaves
 * claimed while the pool was full may be expanded again.  False (the tree as it
 * was) when out of memory for the forwarding table.
 */
static bool compact(struct ai *a, uint32_t at)
{
	uint32_t *fwd = calloc(a->used, sizeof(*fwd)), i, next = 1;
	struct node n;

	if (fwd == NULL)
		return false;
	mark_live(a, at, fwd);
	for (i = at; i < a->used; i++)
		if (fwd[i] != 0)
			fwd[i] = next++;
	for (i = at; i < a->used; i++) {
		if (fwd[i] == 0)
			continue;
		n = a->pool[i];
		if (n.child != 0)
			n.child = fwd[n.child];
		else if (n.term == TERM_NONE)
			n.spare = 0;
		a->pool[fwd[i]] = n;
	}
	free(fwd);
	a->used = next;
	return true;
}

static int clamp_level(int level)
{
	return level < AI_MIN_LEVEL ? AI_MIN_LEVEL : level > AI_MAX_LEVEL ? AI_MAX_LEVEL : level;
}

/* Set up the root for g: the old tree's node for it if there is one, else a new tree. */
static enum game_status prepare(struct ai *a, const struct rules_game *g, const struct ai_options *o)
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
			return GAME_NO_MEMORY;
		}
	}
	aigeom_init(&geo, &g->board);
	if (memcmp(&geo, &a->geo, sizeof(geo)) != 0 || a->level != level) {
		a->geo = geo;
		a->root = 0;
	}
	a->level = level;
	aiboard_from_rules(&a->w[0].b, &a->geo, &g->board);
	if (a->root != 0) {
		struct target t = { &a->w[0].b, g->to_move, g->placed };

		at = find_node(a, a->root, &a->rootb, a->root_color, a->root_placed, &t, 0);
	}
	aiboard_copy(&a->rootb, &a->w[0].b);
	a->root_color = g->to_move;
	a->root_placed = g->placed;
	/* Over half full, the tree grows more slowly (expand_at()): the old tree's other
	 * branches are dropped first; a tree that cannot be compacted is kept while it
	 * leaves a quarter of the pool. */
	if (at != 0 && a->used > a->cap / 2) {
		if (compact(a, at))
			at = 1;
		else if (a->used >= a->cap / 4 * 3)
			at = 0;
	}
	if (at == 0) {
		reset_tree(a);
		a->pool[a->root].color = (uint8_t)RULES_OTHER(g->to_move);
	} else {
		a->root = at;
	}
	a->w[0].rng = o->seed ^ 0x6f75737470626dULL;
	a->w[1].rng = o->seed ^ 0x6f75737470626dULL ^ 0x9e3779b97f4a7c15ULL;
	a->maxlen = 4 * a->geo.npoints;
	return GAME_OK;
}

/* Make the root's children if it has none; returns how many it has. */
static int root_children(struct ai *a)
{
	struct node *root = &a->pool[a->root];

	if (root->child == 0 && root->term == TERM_NONE) {
		aiboard_copy(&a->w[0].b, &a->rootb);
		root->spare = 0;
		expand(&a->w[0], root, &a->w[0].b, a->root_color, a->root_placed);
	}
	return root->child == 0 ? 0 : root->nchild;
}

/* Playouts until the search's budget is spent or the deadline comes. */
static void run(struct worker *wk)
{
	struct ai *a = wk->a;
	int64_t t, last = 0, gap = 0;
	long i;

	__atomic_store_n(&wk->playouts, 0, __ATOMIC_RELAXED);
	for (i = 0; __atomic_fetch_add(&a->issued, 1, __ATOMIC_RELAXED) < a->budget &&
	    !__atomic_load_n(&a->stop, __ATOMIC_RELAXED); i++) {
		/*
		 * The clock at every playout (a vDSO call, well under 0.1% of a
		 * playout).  On a loaded machine the thread may lose the processor
		 * for a while between two reads: it stops when the longest
		 * such pause seen in this search would reach the deadline, so that
		 * the answer still comes in time.
		 */
		if (wk->deadline != 0) {
			t = now_ns();
			if (i > 0 && t - last > gap)
				gap = t - last;
			last = t;
			if (i > 0 && t + gap >= wk->deadline)
				break;
		}
		one_playout(wk);
		__atomic_store_n(&wk->playouts, wk->playouts + 1, __ATOMIC_RELAXED);
	}
}

#ifdef AI_TEST_HOOKS
int64_t ai_test_helper_stall_ns;
#endif

static void *helper_main(void *arg)
{
	run(arg);
#ifdef AI_TEST_HOOKS
	if (ai_test_helper_stall_ns > 0) {
		struct timespec ts = { (time_t)(ai_test_helper_stall_ns / 1000000000),
		    (long)(ai_test_helper_stall_ns % 1000000000) };

		nanosleep(&ts, NULL);
	}
#endif
	return NULL;
}

/*
 * The root's child to play: a winning one, else the most visited.  When
 * balanced (Black's first placement and the opponent may swap after it),
 * the placement whose value is nearest an even game among those searched
 * well (at least 64 visits and a quarter of the most visited one's): the
 * pie rule gives a strong first placement to the opponent.
 */
static struct node *pick(struct ai *a, bool balanced)
{
	struct node *root = &a->pool[a->root], *ch, *best = NULL;
	float bv = -1.0f, bw = 0.0f, bn = 1.0f, v, w, n, most = 0.0f;
	int i;

	for (i = 0; i < root->nchild; i++) {
		ch = &a->pool[root->child + i];
		if (term_of(ch) == TERM_WIN) {
			a->value = 1.0f;
			return ch;
		}
		v = (float)__atomic_load_n(&ch->visits, __ATOMIC_RELAXED);
		w = ldf(&ch->w), n = ldf(&ch->n);
		if (best == NULL || v > bv || (v == bv && w / n > bw / bn))
			best = ch, bv = v, bw = w, bn = n;
	}
	if (balanced && best != NULL) {
		most = bv;
		for (i = 0; i < root->nchild; i++) {
			ch = &a->pool[root->child + i];
			v = (float)__atomic_load_n(&ch->visits, __ATOMIC_RELAXED);
			/* Few visits leave a value near the prior's even one: not a measure. */
			if (v * 4.0f < most || v < 64.0f)
				continue;
			w = ldf(&ch->w), n = ldf(&ch->n);
			if (fabsf(w / n - 0.5f) < fabsf(bw / bn - 0.5f))
				best = ch, bw = w, bn = n;
		}
	}
	a->value = bw / bn;
	return best;
}

enum game_status ai_genmove(struct ai *a, const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out)
{
	struct node *best;
	enum game_status st;
	int64_t t, deadline = 0;

	memset(out, 0, sizeof(*out));
	out->action = AI_PLACE;
	if (g->result != RULES_PLAYING)
		return GAME_OVER;
	join_helper(a);
	st = prepare(a, g, o);
	if (st != GAME_OK)
		return st;
	a->budget = o->playouts > 0 ? o->playouts : a->lv->playouts;
	a->issued = 0;
	a->stop = 0;
	if (o->deadline_ns > 0) {
		/* Keep back a little for joining the helper and answering on a loaded machine. */
		t = now_ns();
		deadline = t + (o->deadline_ns - t) / 100 * a->lv->time_pct - DEADLINE_RESERVE_NS;
		if (deadline <= t)
			deadline = t + 1; /* one playout, then the answer */
	}
	a->w[0].deadline = a->w[1].deadline = deadline;
	a->w[0].playouts = a->w[1].playouts = 0;
	if (root_children(a) == 0) {
		/* No placement here: the side to move passes (the rules core does it by itself). */
		out->action = AI_PASS;
		return GAME_OK;
	}
	if (a->pool[a->root].nchild > 1) {
		/*
		 * A second thread on the same tree when searching by time; a fixed
		 * budget is searched on one thread, so that the same seed and budget
		 * give the same placement.
		 */
		if (a->lv->threads > 1 && o->playouts <= 0 && deadline != 0)
			a->helper = pthread_create(&a->thread, NULL, helper_main, &a->w[1]) == 0;
		run(&a->w[0]);
		/*
		 * The helper stops at its next playout, but on a loaded machine it
		 * may not get the processor for a while: the answer does not wait
		 * for it.  It is joined before the tree is touched again (the next
		 * search, ai_free()); until then both read the tree atomically.
		 */
		__atomic_store_n(&a->stop, 1, __ATOMIC_RELAXED);
	}
	a->playouts = a->w[0].playouts + __atomic_load_n(&a->w[1].playouts, __ATOMIC_RELAXED);
	/* Pie rule (doc/rules.md): Black's first placement may be taken over by a swap. */
	best = pick(a, g->swap_enabled && g->turn == 1 && g->placed == 0 &&
	    g->to_move == RULES_BLACK);
	if (best == NULL || best->color != g->to_move)
		return GAME_INTERNAL;
	/* Pie rule: swap when the position left by Black's first turn favours Black. */
	if (rules_game_can_swap(g) && a->playouts >= 100 && a->value < 0.45f) {
		out->action = AI_SWAP;
		return GAME_OK;
	}
	out->n = 1;
	out->points[0] = a->geo.rpoint[best->move];
	return GAME_OK;
}

void ai_last_search(const struct ai *a, struct ai_search *out)
{
	out->playouts = a->playouts;
	out->nodes = __atomic_load_n(&a->used, __ATOMIC_RELAXED);
	out->node_cap = a->cap;
	out->node_bytes = sizeof(struct node);
	out->value = a->value;
}

enum game_status ai_play_turn(const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out)
{
	struct ai *a = NULL;
	struct rules_game *work = NULL;
	struct rules_event ev;
	struct ai_options po = *o;
	struct ai_turn *one = NULL;
	enum game_status st = GAME_NO_MEMORY;
	int64_t t;

	memset(out, 0, sizeof(*out));
	out->action = AI_PLACE;
	if (g->result != RULES_PLAYING)
		return GAME_OVER;
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
		if (st != GAME_OK)
			goto out;
		if (one->action != AI_PLACE) {
			if (out->n > 0) {
				st = GAME_INTERNAL;
				goto out;
			}
			out->action = one->action;
			goto out;
		}
		/* A lost game is resigned only when the search sees no chance at all. */
		if (out->n == 0 && clamp_level(o->level) >= 3 && a->playouts >= 2000 &&
		    a->value < 0.01f) {
			out->action = AI_RESIGN;
			goto out;
		}
		if (!rules_is_legal(rules_game_play(work, one->points[0], &ev)) ||
		    out->n >= RULES_MAX_POINTS) {
			st = GAME_INTERNAL;
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

