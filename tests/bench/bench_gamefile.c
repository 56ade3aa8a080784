/*
 * bench_gamefile: the time to load and to save a game file of 300 turns.
 *
 * The game is built by random play on 11 x 11 through game_move (Black's
 * first turn answered by a swap, automatic passes recorded as they come),
 * preferring capturing placements 30% of the time as the conformance games
 * do, so that the game lasts: seeds are tried in order until one reaches
 * exactly 300 turns still playing, so every run uses the same file.
 *
 * Per repetition (argv[1], default 5) one line:
 *   gamefile load_us=... save_us=... save_write_us=... turns=300 bytes=...
 * load_us: gamefile_parse of the text (what loading a board costs once the
 * file is read); save_us: gamefile_format alone; save_write_us: format and
 * the store's durable replace (temp file, fsync, rename, fsync of the
 * directory) in a scratch home.  Each figure is a mean over repeated calls
 * for at least argv[2] seconds (default 0.2).  run-bench takes medians.
 */
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/config.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "bench.h"
#include "game/rules.h"
#include "store/store.h"

#define TURNS 300
#define SIZE 11
#define T0 INT64_C(1795286467) /* 2026-11-21T18:41:07Z */

/* One random turn for the side to move, into pts; returns the number of placements. */
static int random_turn(const struct game *g, int *pts)
{
	static struct rules_game w;
	uint16_t legal[RULES_MAX_POINTS];
	int cap[RULES_MAX_POINTS], non[RULES_MAX_POINTS];
	struct rules_event ev;
	int n = 0, k, i, nc, nn;

	w = g->rg;
	do {
		k = rules_game_legal(&w, legal);
		if (k == 0)
			break;
		for (i = nc = nn = 0; i < k; i++) {
			if (rules_check(&w.board, w.to_move, legal[i], NULL) == RULES_CAPTURE)
				cap[nc++] = legal[i];
			else
				non[nn++] = legal[i];
		}
		if (nc > 0 && (nn == 0 || bench_random() % 10 < 3))
			pts[n] = cap[bench_random() % (uint32_t)nc];
		else
			pts[n] = non[bench_random() % (uint32_t)nn];
		rules_game_play(&w, pts[n++], &ev);
	} while (!ev.turn_over);
	return n;
}

/* A game of exactly TURNS turns, still playing; false if seed does not give one. */
static bool build_game(struct game *g, uint64_t seed)
{
	int pts[RULES_MAX_POINTS], n;
	int64_t t = T0;

	bench_rng = seed;
	game_init(g, 101, SIZE, true, "alice", "bob", T0);
	while (!game_over(g) && g->nturns < TURNS) {
		t += 60 + bench_random() % 86400;
		if (g->nturns == 1) {
			if (game_swap(g, "bob", t) != GAME_OK)
				return false;
			continue;
		}
		n = random_turn(g, pts);
		if (game_move(g, game_player_to_move(g), pts, n, t, NULL) != GAME_OK)
			return false;
	}
	return g->nturns == TURNS && !game_over(g);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	struct game g, h;
	struct config cfg;
	struct store *st = NULL;
	struct gamefile_error err;
	char *text = NULL, *s, home[] = "/tmp/oustpbm-bench.XXXXXX", msg[STORE_ERR_MAX];
	size_t len, slen;
	uint64_t seed;
	int reps = argc > 1 ? atoi(argv[1]) : 5, rep, status = 1;
	bool made = false;
	double secs = argc > 2 ? atof(argv[2]) : 0.2, t0, t, load, save, save_write;
	long n;

	for (seed = 1;; seed++) {
		if (build_game(&g, seed))
			break;
		game_release(&g);
		if (seed == 10000) {
			fprintf(stderr, "bench_gamefile: no %d-turn game found\n", TURNS);
			return 1;
		}
	}
	if (gamefile_format(&g, &text, &len) != GAME_OK) {
		fprintf(stderr, "bench_gamefile: format failed\n");
		goto out;
	}
	if (mkdtemp(home) == NULL) {
		perror("bench_gamefile: mkdtemp");
		goto out;
	}
	made = true;
	config_defaults(&cfg);
	if (store_open(home, &cfg, &st, msg, sizeof(msg)) != STORE_OK) {
		fprintf(stderr, "bench_gamefile: %s\n", msg);
		goto out;
	}
	for (rep = 0; rep < reps; rep++) {
		n = 0, t0 = bench_now();
		do {
			if (gamefile_parse(text, len, &h, &err) != GAME_OK) {
				fprintf(stderr, "bench_gamefile: %s\n", err.msg);
				goto out;
			}
			game_release(&h);
			n++;
		} while ((t = bench_now() - t0) < secs);
		load = t / (double)n * 1e6;
		n = 0, t0 = bench_now();
		do {
			if (gamefile_format(&g, &s, &slen) != GAME_OK) {
				fprintf(stderr, "bench_gamefile: format failed\n");
				goto out;
			}
			free(s);
			n++;
		} while ((t = bench_now() - t0) < secs);
		save = t / (double)n * 1e6;
		n = 0, t0 = bench_now();
		do {
			if (gamefile_format(&g, &s, &slen) != GAME_OK ||
			    store_write_file(st, "games/101.game", s, slen) != STORE_OK) {
				fprintf(stderr, "bench_gamefile: write failed: %s\n", store_error(st));
				free(s);
				goto out;
			}
			free(s);
			n++;
		} while ((t = bench_now() - t0) < secs);
		save_write = t / (double)n * 1e6;
		printf("gamefile load_us=%.1f save_us=%.1f save_write_us=%.1f turns=%d bytes=%zu\n",
		    load, save, save_write, g.nturns, len);
		fflush(stdout);
	}
	status = 0;
out:
	if (st != NULL)
		store_close(st);
	if (made)
		nftw(home, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(text);
	game_release(&g);
	return status;
}
