/* solve: Oust solved on the hex board of side 3.  See solve.h. */
#include "game/solve.h"

#include <stdlib.h>
#include <string.h>

#define FULL ((1u << SOLVE_CELLS) - 1)
#define NSYM 12			/* 6 rotations, each with and without a reflection */
#define USED (1ull << 63)
#define KEY_MASK ((1ull << 39) - 1)
#define INPROG 3u		/* value of an entry whose search is under way */
#define MAX_LOAD 0.7

struct tables {
	bool ready;
	int cell[SOLVE_CELLS];		/* rules cell of bit i */
	uint32_t nbr[SOLVE_CELLS];	/* neighbour masks */
	uint32_t perm[NSYM][3][256];	/* bits 0-7, 8-15, 16-18 of a mask, moved by symmetry k */
	int order[SOLVE_CELLS];		/* the bits from the centre out: solve_best() tries them so */
};

static struct tables T;

struct solve {
	enum solve_mode mode;
	uint64_t *slot;
	size_t nslots, used;
	bool cycle, nomem;
};

/* Cube coordinates of bit i (rules' axial x, y about the centre). */
static void cube(const struct rules_board *b, int i, int c[3])
{
	int q = rules_x(b, T.cell[i]) - (SOLVE_SIDE - 1), r = rules_y(b, T.cell[i]) - (SOLVE_SIDE - 1);

	c[0] = q;
	c[1] = -r;
	c[2] = r - q;
}

static int bit_of(const struct rules_board *b, const int c[3])
{
	int i, d[3];

	for (i = 0; i < SOLVE_CELLS; i++) {
		cube(b, i, d);
		if (d[0] == c[0] && d[1] == c[1] && d[2] == c[2])
			return i;
	}
	return -1;
}

static void init_tables(void)
{
	static struct rules_board b;	/* large: not on the stack */
	int i, j, d, k, v, c[3], t[3], m[NSYM][SOLVE_CELLS], part;
	bool ok = true;

	if (T.ready)
		return;
	rules_board_init_shape(&b, RULES_HEX, SOLVE_SIDE);
	for (i = 0; i < SOLVE_CELLS; i++)
		T.cell[i] = b.empty[i];
	for (i = 0; i < SOLVE_CELLS; i++)
		for (d = 0; d < b.nnbr; d++)
			for (j = 0; j < SOLVE_CELLS; j++)
				if (T.cell[j] == T.cell[i] + b.nbr[d])
					T.nbr[i] |= 1u << j;
	/* symmetry k: k % 6 rotations by 60 degrees, (a, b, c) -> (-c, -a, -b), after a reflection if k >= 6 */
	for (k = 0; k < NSYM; k++)
		for (i = 0; i < SOLVE_CELLS; i++) {
			cube(&b, i, c);
			if (k >= 6) {
				v = c[0];
				c[0] = c[1];
				c[1] = v;
			}
			for (j = 0; j < k % 6; j++) {
				t[0] = -c[2];
				t[1] = -c[0];
				t[2] = -c[1];
				memcpy(c, t, sizeof c);
			}
			m[k][i] = bit_of(&b, c);
			ok = ok && m[k][i] >= 0;
		}
	/* each must keep the neighbours, or only the identity is used (never on a hex board) */
	for (k = 0; k < NSYM && ok; k++)
		for (i = 0; i < SOLVE_CELLS; i++)
			for (j = 0; j < SOLVE_CELLS; j++)
				ok = ok && ((T.nbr[i] >> j & 1) == (T.nbr[m[k][i]] >> m[k][j] & 1));
	for (k = 0; k < NSYM; k++)
		for (part = 0; part < 3; part++)
			for (v = 0; v < 256; v++) {
				T.perm[k][part][v] = 0;
				for (j = 0; j < 8 && part * 8 + j < SOLVE_CELLS; j++)
					if (v >> j & 1)
						T.perm[k][part][v] |= 1u << (ok ? m[k][part * 8 + j] : part * 8 + j);
			}
	/* the centre, then the inner ring, then the edge: the centre is where a first stone wins soonest */
	for (i = 0, k = 0; k <= 2 * (SOLVE_SIDE - 1); k++)
		for (j = 0; j < SOLVE_CELLS; j++) {
			cube(&b, j, c);
			if (abs(c[0]) + abs(c[1]) + abs(c[2]) == k)
				T.order[i++] = j;
		}
	T.ready = true;
}

int solve_cell(int i)
{
	init_tables();
	return i >= 0 && i < SOLVE_CELLS ? T.cell[i] : RULES_NO_POINT;
}

static inline uint32_t permute(int k, uint32_t m)
{
	return T.perm[k][0][m & 0xff] | T.perm[k][1][m >> 8 & 0xff] | T.perm[k][2][m >> 16 & 0xff];
}

/* The least key of the position's 12 images. */
static uint64_t canon(uint32_t black, uint32_t white, bool wtm)
{
	uint64_t best = ~0ull, key;
	int k;

	for (k = 0; k < NSYM; k++) {
		key = (uint64_t)permute(k, black) | (uint64_t)permute(k, white) << 19;
		if (key < best)
			best = key;
	}
	return best | (uint64_t)wtm << 38;
}

static inline uint32_t expand(uint32_t g)
{
	uint32_t r = 0;

	for (; g != 0; g &= g - 1)
		r |= T.nbr[__builtin_ctz(g)];
	return r;
}

static uint32_t flood(uint32_t col, int start)
{
	uint32_t g = 1u << start, ng;

	for (;;) {
		ng = g | (expand(g) & col);
		if (ng == g)
			return g;
		g = ng;
	}
}

/* Placing at c (empty): 0 illegal, 1 non-capturing, 2 capturing (*cap: the stones it removes). */
static int try_place(uint32_t my, uint32_t op, int c, uint32_t *cap)
{
	uint32_t g, adj, eg;
	int size;

	*cap = 0;
	if ((T.nbr[c] & my) == 0)
		return 1;
	g = flood(my | 1u << c, c);
	adj = expand(g) & op;
	if (adj == 0)
		return 0;
	size = __builtin_popcount(g);
	while (adj != 0) {
		eg = flood(op, __builtin_ctz(adj));
		if (__builtin_popcount(eg) >= size)
			return 0;
		*cap |= eg;
		adj &= ~eg;
	}
	return 2;
}

/* ---- the table ---- */

static inline size_t hash(uint64_t key, size_t n)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (size_t)key & (n - 1);
}

static uint64_t *find(struct solve *s, uint64_t key)
{
	size_t i = hash(key, s->nslots);

	while (s->slot[i] & USED) {
		if ((s->slot[i] & KEY_MASK) == key)
			return &s->slot[i];
		i = (i + 1) & (s->nslots - 1);
	}
	return &s->slot[i];
}

static bool grow(struct solve *s)
{
	uint64_t *old = s->slot, *e;
	size_t n = s->nslots, i;

	s->slot = calloc(n * 2, sizeof *s->slot);
	if (s->slot == NULL) {
		s->slot = old;
		return false;
	}
	s->nslots = n * 2;
	for (i = 0; i < n; i++)
		if (old[i] & USED) {
			e = find(s, old[i] & KEY_MASK);
			*e = old[i];
		}
	free(old);
	return true;
}

struct solve *solve_new(enum solve_mode mode)
{
	struct solve *s = calloc(1, sizeof *s);

	init_tables();
	if (s == NULL)
		return NULL;
	s->mode = mode;
	s->nslots = (size_t)1 << 16;
	s->slot = calloc(s->nslots, sizeof *s->slot);
	if (s->slot == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void solve_free(struct solve *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s);
}

void solve_stats(const struct solve *s, unsigned long *positions, size_t *bytes)
{
	*positions = (unsigned long)s->used;
	*bytes = s->nslots * sizeof *s->slot;
}

void solve_each(const struct solve *s, solve_each_fn *fn, void *arg)
{
	size_t i;
	uint64_t e;

	for (i = 0; i < s->nslots; i++) {
		e = s->slot[i];
		if (!(e & USED) || (e >> 40 & 3) == INPROG)
			continue;
		fn((uint32_t)(e & FULL), (uint32_t)(e >> 19 & FULL), (e >> 38 & 1) != 0, (enum solve_value)(e >> 40 & 3),
		    (int)(e >> 42 & 0xff), arg);
	}
}

/* ---- the search ---- */

/* A child's worth to the side choosing: wins sooner, losses later, are better. */
static int score(enum solve_value v, int turns)
{
	return v == SOLVE_WIN ? 1000 - turns : v == SOLVE_LOSS ? -1000 + turns : 0;
}

static enum solve_value search(struct solve *s, uint32_t my, uint32_t op, bool wtm, int *turns);

/*
 * The position after a placement by the side to move, for that side: nmy
 * and nop its stones and the other side's after it, v from try_place.
 */
static enum solve_value after(struct solve *s, uint32_t nmy, uint32_t nop, bool wtm, int v, int *turns)
{
	enum solve_value cv;
	int ct;

	if (v == 2 && nop == 0) {
		*turns = 1;	/* the last enemy stones removed: this turn wins */
		return SOLVE_WIN;
	}
	if (v == 2)
		return search(s, nmy, nop, wtm, turns);	/* the same side places again, in the same turn */
	cv = search(s, nop, nmy, !wtm, &ct);
	*turns = ct == SOLVE_NO_DEPTH ? SOLVE_NO_DEPTH : ct + 1;
	return cv == SOLVE_WIN ? SOLVE_LOSS : cv == SOLVE_LOSS ? SOLVE_WIN : SOLVE_DRAW;
}

static enum solve_value search(struct solve *s, uint32_t my, uint32_t op, bool wtm, int *turns)
{
	uint32_t black = wtm ? op : my, white = wtm ? my : op, empty = ~(my | op) & FULL, cap;
	uint64_t key = canon(black, white, wtm), *e;
	enum solve_value best = SOLVE_LOSS, cv;
	int i, v, ct, bt = 0, pass, any = 0, bs = -10000, sc;

	*turns = SOLVE_NO_DEPTH;
	if (s->cycle || s->nomem)
		return SOLVE_DRAW;
	e = find(s, key);
	if (*e & USED) {
		if ((*e >> 40 & 3) == INPROG) {
			s->cycle = true;
			return SOLVE_DRAW;
		}
		*turns = (int)(*e >> 42 & 0xff);
		return (enum solve_value)(*e >> 40 & 3);
	}
	if ((double)(s->used + 1) > MAX_LOAD * (double)s->nslots) {
		if (!grow(s)) {
			s->nomem = true;
			return SOLVE_DRAW;
		}
		e = find(s, key);
	}
	*e = USED | key | (uint64_t)INPROG << 40;
	s->used++;
	/* two passes: the captures first (in SOLVE_PROVE a win ends the search), then the others */
	for (pass = 2; pass >= 1 && !(s->mode == SOLVE_PROVE && best == SOLVE_WIN); pass--)
		for (i = 0; i < SOLVE_CELLS; i++) {
			if (!(empty >> i & 1) || (v = try_place(my, op, i, &cap)) != pass)
				continue;
			any = 1;
			cv = after(s, my | 1u << i, op & ~cap, wtm, v, &ct);
			sc = score(cv, ct == SOLVE_NO_DEPTH ? 0 : ct);
			if (sc > bs) {
				bs = sc;
				best = cv;
				bt = ct;
			}
			if (s->mode == SOLVE_PROVE && best == SOLVE_WIN)
				break;
		}
	if (!any) {
		/* no placement: a pass (or the end of a turn after a capture), else, for neither, a draw */
		for (i = 0; i < SOLVE_CELLS && !any; i++)
			any = (empty >> i & 1) && try_place(op, my, i, &cap) != 0;
		if (any) {
			cv = search(s, op, my, !wtm, &ct);
			best = cv == SOLVE_WIN ? SOLVE_LOSS : cv == SOLVE_LOSS ? SOLVE_WIN : SOLVE_DRAW;
			bt = ct == SOLVE_NO_DEPTH ? SOLVE_NO_DEPTH : ct + 1;
		} else {
			best = SOLVE_DRAW;
			bt = 0;
		}
	}
	if (s->mode == SOLVE_PROVE)
		bt = SOLVE_NO_DEPTH;
	if (bt > SOLVE_NO_DEPTH)
		bt = SOLVE_NO_DEPTH - 1;	/* never on this board: its games are far shorter */
	e = find(s, key);
	*e = USED | key | (uint64_t)best << 40 | (uint64_t)bt << 42;
	*turns = bt;
	return best;
}

enum game_status solve_position(struct solve *s, uint32_t black, uint32_t white, bool white_to_move,
    enum solve_value *value, int *turns)
{
	*value = search(s, white_to_move ? white : black, white_to_move ? black : white, white_to_move, turns);
	if (s->nomem)
		return GAME_NO_MEMORY;
	if (s->cycle)
		return GAME_CYCLE;
	return GAME_OK;
}

/* ---- the robot and review ---- */

static struct solve *shared;	/* SOLVE_PROVE, made when first needed, kept for the process */

bool solve_knows(enum rules_shape shape, int size)
{
	return shape == RULES_HEX && size == SOLVE_SIDE;
}

static bool masks(const struct rules_game *rg, uint32_t *black, uint32_t *white)
{
	int i;

	if (!solve_knows(rg->board.shape, rg->board.size))
		return false;
	init_tables();
	*black = *white = 0;
	for (i = 0; i < SOLVE_CELLS; i++) {
		if (rules_at(&rg->board, T.cell[i]) == RULES_BLACK)
			*black |= 1u << i;
		else if (rules_at(&rg->board, T.cell[i]) == RULES_WHITE)
			*white |= 1u << i;
	}
	if (shared == NULL)
		shared = solve_new(SOLVE_PROVE);
	return shared != NULL;
}

static enum rules_result of_value(enum solve_value v, enum rules_color to_move)
{
	if (v == SOLVE_DRAW)
		return RULES_DRAW;
	return (v == SOLVE_WIN) == (to_move == RULES_BLACK) ? RULES_BLACK_WINS : RULES_WHITE_WINS;
}

bool solve_result(const struct rules_game *rg, enum rules_result *out)
{
	uint32_t black, white;
	enum solve_value v;
	int turns;

	if (rg->result != RULES_PLAYING) {
		*out = rg->result;
		return solve_knows(rg->board.shape, rg->board.size);
	}
	if (!masks(rg, &black, &white) ||
	    solve_position(shared, black, white, rg->to_move == RULES_WHITE, &v, &turns) != GAME_OK)
		return false;
	*out = of_value(v, rg->to_move);
	return true;
}

bool solve_best(const struct rules_game *rg, int *p)
{
	uint32_t black, white, my, op, cap;
	enum solve_value v, bv = SOLVE_LOSS;
	bool wtm = rg->to_move == RULES_WHITE;
	int i, j, k, turns, bp = RULES_NO_POINT;

	if (rg->result != RULES_PLAYING || !masks(rg, &black, &white))
		return false;
	if (rules_game_can_swap(rg)) {
		/* the swapper takes Black: worth it when White to move here loses */
		if (solve_position(shared, black, white, true, &v, &turns) != GAME_OK)
			return false;
		if (v == SOLVE_LOSS) {
			*p = RULES_NO_POINT;
			return true;
		}
	}
	my = wtm ? white : black;
	op = wtm ? black : white;
	for (j = 0; j < SOLVE_CELLS; j++) {
		i = T.order[j];
		if (((my | op) >> i & 1) || (k = try_place(my, op, i, &cap)) == 0)
			continue;
		v = after(shared, my | 1u << i, op & ~cap, wtm, k, &turns);
		if (shared->cycle || shared->nomem)
			return false;
		if (bp == RULES_NO_POINT || v > bv) {
			bv = v;
			bp = T.cell[i];
		}
		if (bv == SOLVE_WIN)
			break;
	}
	*p = bp;
	return bp != RULES_NO_POINT;
}

bool solve_turn(const struct rules_game *rg, int *points, int max, int *n, bool *swap)
{
	static struct rules_game w;	/* large: not on the stack */
	struct rules_event ev;
	int p, start = rg->turn;

	*n = 0;
	*swap = false;
	w = *rg;
	while (w.result == RULES_PLAYING && w.turn == start && *n < max) {
		if (!solve_best(&w, &p))
			return false;
		if (p == RULES_NO_POINT) {
			*swap = true;
			return true;
		}
		if (!rules_is_legal(rules_game_play(&w, p, &ev)))
			return false;
		points[(*n)++] = p;
	}
	return *n > 0;
}
