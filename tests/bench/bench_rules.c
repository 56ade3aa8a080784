/*
 * bench_rules: random self-play games per second, computing the full legal
 * placement set before every placement (rules_game_legal), on 5x5, 11x11 and
 * 19x19 and on the hex-hex board of side 7 (127 cells, the usual hex
 * size).  Prints one line per board and repetition; run-bench takes medians.
 * games_per_cpu_s counts the process's CPU time instead of the clock's: on
 * a busy machine it stands for what an idle one would do, where the clock
 * also counts the time other processes had the processor.
 * Also checks that memory stays flat: the core allocates nothing, so the
 * resident size after the run is compared with the one before.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "game/rules.h"

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmRSS:", 6) == 0)
			v = atol(line + 6);
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	static struct rules_game g;
	uint16_t mv[RULES_MAX_POINTS];
	const struct {
		enum rules_shape shape;
		int size;
	} boards[] = { { RULES_SQUARE, 5 }, { RULES_SQUARE, 11 }, { RULES_SQUARE, 19 }, { RULES_HEX, 7 } };
	int s, rep, n, reps = argc > 1 ? atoi(argv[1]) : 5;
	char name[32];
	double secs = argc > 2 ? atof(argv[2]) : 1.0, t0, t, c0;
	long games, placements, rss0 = rss_kib();

	for (s = 0; s < (int)(sizeof(boards) / sizeof(boards[0])); s++) {
		if (boards[s].shape == RULES_HEX)
			snprintf(name, sizeof(name), "hex%d", boards[s].size);
		else
			snprintf(name, sizeof(name), "%dx%d", boards[s].size, boards[s].size);
		for (rep = 0; rep < reps; rep++) {
			games = placements = 0;
			t0 = bench_now();
			c0 = bench_cpu();
			do {
				for (int k = 0; k < 64; k++) {
					rules_game_init_shape(&g, boards[s].shape, boards[s].size, false);
					while (g.result == RULES_PLAYING) {
						n = rules_game_legal(&g, mv);
						rules_game_play(&g, mv[bench_random() % (uint32_t)n], NULL);
						placements++;
					}
					games++;
				}
				t = bench_now() - t0;
			} while (t < secs);
			printf("selfplay_%s games_per_sec=%.0f games_per_cpu_s=%.0f placements_per_game=%.1f\n",
			    name, (double)games / t, (double)games / (bench_cpu() - c0),
			    (double)placements / (double)games);
		}
	}
	printf("selfplay_memory rss_kib_before=%ld rss_kib_after=%ld\n", rss0, rss_kib());
	return 0;
}
