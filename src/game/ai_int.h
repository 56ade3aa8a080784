/*
 * ai_int: what the parts of the computer player share (ai.c: the tree search, its
 * time control and the public functions; aiplayout.c: the playouts and their policy).
 * Private to src/game/ai*.c.
 */
#ifndef OUSTPBM_AI_INT_H
#define OUSTPBM_AI_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "game/ai.h"
#include "game/aiboard.h"

/* Playout policies, from none to the most knowledge (see policy_n()). */
enum { POLICY_UNIFORM = 0, POLICY_CAPTURES, POLICY_SAFE };

struct level {
	long playouts;		/* most playouts per placement */
	int time_pct;		/* share of the time to the deadline used per placement */
	bool knowledge;		/* priors */
	int policy;		/* POLICY_* */
	bool rave;
	uint32_t nodes;		/* node cap: 32 bytes a node */
	int threads;		/* threads searching the tree by time */
};

#define MAX_PATH 256
#define MAX_SEQ (4 * RULES_MAX_POINTS + MAX_PATH)

/* One thread's scratch for its playouts. */
struct worker {
	struct ai *a;
	uint64_t rng;
	long playouts;
	int64_t deadline;	/* CLOCK_MONOTONIC ns; 0: none */
	struct aiboard b;
	uint32_t path[MAX_PATH];
	uint16_t seq[MAX_SEQ];
	uint8_t seqc[MAX_SEQ];
	uint32_t gen;
	uint32_t mark[3][AIBOARD_MAX_CELLS];
	uint16_t mv[RULES_MAX_POINTS];
};

#define MAX_THREADS 2

struct ai {
	struct node *pool;
	uint32_t cap, used;	/* used: taken with atomic operations while searching */
	uint32_t root;		/* 0: no tree */
	const struct level *lv;
	int level;
	struct aigeom geo;
	struct aiboard rootb;	/* the position at the root */
	int root_color, root_placed;
	int maxlen;
	long budget, issued;	/* playouts allowed and started (atomic) in this search */
	int stop;		/* set (atomic) when the first thread is done: the other stops too */
	bool helper;		/* the helper thread is still to be joined */
	pthread_t thread;
	struct aiboard reuse[5];	/* tree reuse: positions down a path */
	/* the last search */
	long playouts;
	float value;
	struct worker w[MAX_THREADS];
};

/*
 * Play on from the state (b, c to place, placed stones so far in c's turn, last the
 * previous placement or 0) to the end with the level's policy, appending the
 * placements to wk->seq from *len on; returns the winner, RULES_EMPTY for a draw.
 */
int aiplayout_run(struct worker *wk, struct aiboard *b, int c, int placed, int last, int *len);

/* Whether c placing the singleton p on b lets the opponent capture it at once. */
bool aiplayout_hands_capture(struct aiboard *b, int c, int p);

#endif
