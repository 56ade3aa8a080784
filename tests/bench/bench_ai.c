/*
 * bench_ai: the AI's speed.
 * - playout: uniformly random games on the AI's playout board (aiboard.h),
 *   each placement a uniformly random legal one with its legality decided
 *   exactly, whole turns and passes as the rules say: games per second on
 *   9x9, 11x11 and the hex-hex board of side 7.
 * - search: the tree search's own playouts per second (its policy, priors,
 *   tree and RAVE updates), at level 5 from the empty board and from a
 *   position 30 placements into a game, on 9x9 and 11x11: with a fixed
 *   budget (one thread), and _timed, by a 1 s deadline (two threads on one
 *   tree).
 * The _cpu_s figures count the process's CPU time instead of the clock's
 * (on a busy machine they stand for an idle one; the search's counts the
 * CPU time of both of level 5's threads, so it is per core).
 * One line per board and repetition; run-bench takes medians.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "game/ai.h"
#include "game/aiboard.h"
#include "bench.h"

static void playouts(const char *name, enum rules_shape shape, int size, double secs)
{
	static struct rules_board rb;
	static struct aigeom geo;
	static struct aiboard start, b;
	uint64_t rng = 42;
	long games = 0, placements = 0, decided = 0;
	double t0, t, c0;
	int len, k;

	rules_board_init_shape(&rb, shape, size);
	aigeom_init(&geo, &rb);
	aiboard_from_rules(&start, &geo, &rb);
	t0 = bench_now();
	c0 = bench_cpu();
	do {
		for (k = 0; k < 256; k++) {
			aiboard_copy(&b, &start);
			decided += aiboard_random_game(&b, RULES_BLACK, &rng, 100000, &len) != RULES_EMPTY;
			placements += len;
			games++;
		}
		t = bench_now() - t0;
	} while (t < secs);
	printf("ai_random_%s games_per_s=%.0f games_per_cpu_s=%.0f placements_per_game=%.1f\n", name,
	    games / t, games / (bench_cpu() - c0), (double)placements / games);
	if (decided == 0)
		printf("ai_random_%s failed=1\n", name);
}

static void search(const char *name, int size, int opening, bool timed)
{
	static struct rules_game g;
	struct ai_options o = { .level = 5, .seed = 1, .playouts = timed ? 0 : 20000 };
	struct ai_turn t;
	struct ai_search s;
	struct ai *a = ai_new();
	double t0, dt, c0;
	int i;

	rules_game_init(&g, size, false);
	for (i = 0; i < opening && g.result == RULES_PLAYING; i++) {
		ai_baseline_turn(&g, AI_RANDOM, (uint64_t)i, &t);
		rules_game_turn(&g, t.points, t.n, &(struct rules_turn_report){ 0 });
	}
	t0 = bench_now();
	c0 = bench_cpu();
	if (timed)
		o.deadline_ns = (int64_t)(bench_now() * 1e9) + 1000000000;
	if (a == NULL || ai_genmove(a, &g, &o, &t) != GAME_OK) {
		printf("ai_search_%s failed=1\n", name);
		ai_free(a);
		return;
	}
	dt = bench_now() - t0;
	ai_last_search(a, &s);
	printf("ai_search_%s%s playouts_per_s=%.0f playouts_per_cpu_s=%.0f nodes=%lu node_mb=%.1f\n",
	    name, timed ? "_timed" : "", s.playouts / dt, s.playouts / (bench_cpu() - c0), s.nodes,
	    s.nodes * (double)s.node_bytes / 1048576.0);
	ai_free(a);
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, rep, timed;
	double secs = argc > 2 ? atof(argv[2]) : 1.0;

	for (rep = 0; rep < reps; rep++) {
		playouts("9x9", RULES_SQUARE, 9, secs);
		playouts("11x11", RULES_SQUARE, 11, secs);
		playouts("hex7", RULES_HEX, 7, secs);
		for (timed = 0; timed < 2; timed++) {
			search("9x9", 9, 0, timed);
			search("11x11", 11, 0, timed);
			search("9x9_mid", 9, 30, timed);
			search("11x11_mid", 11, 30, timed);
		}
	}
	return 0;
}
