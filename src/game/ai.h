/*
 * ai: the computer player for Oust (Oust, by Mark Steere), for the GTP
 * engine and the robot players by mail.
 *
 * Pure in the way the rules core is: no I/O, no clock reads other than
 * comparing CLOCK_MONOTONIC with the deadline passed in, no allocation
 * while searching (a search context allocates its node pool once).  The same
 * position, options, seed and playout budget give the same answer: a fixed
 * budget is searched on one thread, while level 5 searching by time runs
 * two threads on one tree.
 *
 * It plans whole turns: after a capture it goes on placing until the turn
 * ends (a non-capturing placement, the win, or a capture that leaves no
 * placement), and it decides the pie rule (swap) where it may.
 *
 * Levels (AI_MIN_LEVEL..AI_MAX_LEVEL) are described in ai.c, above its
 * table of levels.
 */
#ifndef OUSTPBM_AI_H
#define OUSTPBM_AI_H

#include <stdint.h>

#include "game/game_status.h"
#include "game/rules.h"

#define AI_MIN_LEVEL 1
#define AI_MAX_LEVEL 5
#define AI_DEFAULT_LEVEL 3

struct ai_options {
	int level;		/* AI_MIN_LEVEL..AI_MAX_LEVEL */
	int64_t deadline_ns;	/* CLOCK_MONOTONIC time (ns) by which the whole turn is chosen; 0: none */
	uint64_t seed;		/* same seed, same playout budget: same turn */
	long playouts;		/* > 0: a fixed playout budget (tests, strength matches); 0: by level and deadline */
};

enum ai_action { AI_PLACE = 0, AI_SWAP, AI_PASS, AI_RESIGN };

struct ai_turn {
	enum ai_action action;
	int n;				/* AI_PLACE: placements of the whole turn, in order */
	int points[RULES_MAX_POINTS];	/* rules core points */
};

/*
 * Plans the whole turn of the side to move in g (captures, then the placement that ends the
 * turn, or the placement that ends the game); g is not changed.  AI_SWAP only where
 * rules_game_can_swap(g); AI_PASS only where the side to move has no legal placement.
 * A level outside AI_MIN_LEVEL..AI_MAX_LEVEL is taken as the nearest level.
 * GAME_OK; GAME_OVER (g has ended), GAME_NO_MEMORY, or GAME_INTERNAL (a bug:
 * the search found no turn the rules accept).
 */
enum game_status ai_play_turn(const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out);

/*
 * A search context that keeps its tree between calls, so that the search
 * for the next placement (in the same turn, or after the opponent's turn)
 * starts from what it found: the GTP engine keeps one per game.  ai_new()
 * returns NULL when out of memory; the caller owns it and frees it with
 * ai_free().  The node pool is allocated at the first search (its cap
 * depends on the level, 32 bytes a node: at most 128 MB at level 4, and 256 MB
 * at level 5, whose two threads share one tree).
 */
struct ai;
struct ai *ai_new(void);
void ai_free(struct ai *a);

/*
 * One placement for the side to move in g (out->n == 1), or AI_SWAP or
 * AI_PASS as ai_play_turn() says; o->deadline_ns and o->playouts bound this
 * placement's search.  Never AI_RESIGN.  The statuses of ai_play_turn().
 */
enum game_status ai_genmove(struct ai *a, const struct rules_game *g, const struct ai_options *o,
		struct ai_turn *out);

#ifdef AI_TEST_HOOKS
/*
 * Tests only (the ThreadSanitizer build defines AI_TEST_HOOKS): the helper
 * thread of level 5 sleeps this long after its search, as a helper held off
 * a busy machine's processor would, so that a test can show that
 * ai_genmove() answers without waiting for it.
 */
extern int64_t ai_test_helper_stall_ns;
#endif

/* What the last search of a did. */
struct ai_search {
	long playouts;
	unsigned long nodes, node_cap;	/* nodes in use, the pool's cap */
	unsigned long node_bytes;	/* bytes a node */
	double value;		/* the chosen placement's win rate for the side to move */
};
void ai_last_search(const struct ai *a, struct ai_search *out);

/*
 * The baseline players that strength is measured against: AI_RANDOM places
 * uniformly at random among the legal placements; AI_GREEDY captures the
 * most stones it can, else makes the placement that leaves the opponent the
 * fewest capturing placements (ties broken at random).  Both play whole
 * turns and never swap.  GAME_OK, GAME_OVER, or GAME_INTERNAL (a bug).
 */
enum ai_baseline { AI_RANDOM = 0, AI_GREEDY };
enum game_status ai_baseline_turn(const struct rules_game *g, enum ai_baseline kind, uint64_t seed,
		struct ai_turn *out);

#endif
