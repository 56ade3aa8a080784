/*
 * bench_reply: what the text/html alternative costs a move mail: the time
 * to compose the two replies of a move (reply_game for each player:
 * templates filled in, GMime composing the message) with html_mail on and
 * off, on boards of each size played for as many turns as they take quiet
 * placements (up to 0.4 turns a point): 5x5, 11x11, 19x19, 25x25 and the
 * hex-hex boards of side 7 and 10.  The target is at most 500 us added.
 *
 * The games are random quiet placements (no capture, so each turn is one
 * placement), the same on every run.  Per repetition (argv[1], default 5)
 * one line:
 *   reply extra5_us=... extra11_us=... extra19_us=... extra25_us=...
 *         extrahex7_us=... extrahex10_us=... plain25_us=... bytes25=...
 *         byteshex10=...
 * each extra the mean time per mail with html_mail on less the mean with
 * it off, each mean over repeated composing for at least argv[2] seconds
 * of CPU time (default 0.2; the process's own time, which a busy machine
 * disturbs less than the wall clock), on and off interleaved.  run-bench
 * takes medians.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "base/config.h"
#include "game/game.h"
#include "game/rules.h"
#include "mail/mailout.h"
#include "mail/reply.h"

#define T0 INT64_C(1795286467)

/* A game on a board of shape and size with up to turns quiet placements. */
static bool build(struct game *g, enum rules_shape shape, int size, int turns)
{
	uint16_t legal[RULES_MAX_POINTS];
	struct rules_check c;
	int t, n, k, p, tries;

	game_init_shape(g, 101, &(struct game_form){ shape, size, false }, "alice", "bob", T0);
	for (t = 0; t < turns; t++) {
		n = rules_legal(&g->rg.board, g->rg.to_move, legal);
		if (n == 0)
			break;
		for (tries = 0; tries < 200; tries++) {
			k = (int)(bench_random() % (uint32_t)n);
			p = legal[k];
			if (rules_check(&g->rg.board, g->rg.to_move, p, &c) != RULES_CAPTURE)
				break;
		}
		if (tries == 200)
			break;	/* no quiet placement left: the board is as full as it gets */
		if (game_move(g, game_player_to_move(g), &p, 1, T0 + t, NULL) != GAME_OK)
			return false;
	}
	return g->nturns >= 10;
}

/* Mean microseconds per mail composing the two replies of g's last move. */
static double compose(struct config *cfg, const char *tdir, const struct game *g, bool html, double secs,
    size_t *bytes)
{
	struct reply_player p[2] = { { "alice", "alice@example.org", "Alice" }, { "bob", "bob@example.org", "" } };
	struct reply_event ev = { .what = REPLY_MOVE, .first = g->nturns, .comment = "" };
	struct reply_mail m;
	struct reply_ctx rc;
	double t0, t;
	long n = 0;
	int i;

	snprintf(cfg->html_mail, sizeof cfg->html_mail, "%s", html ? "on" : "off");
	ev.actor = g->turns[g->nturns - 1].player;
	t0 = bench_cpu();
	do {
		reply_init(&rc, cfg, tdir, T0, "in.1@example.org", "", "alice@example.org");
		for (i = 0; i < 2; i++) {
			if (reply_game(&rc, g, &ev, &p[i], &m) != MAIL_OK) {
				fprintf(stderr, "bench_reply: %s\n", rc.err);
				exit(1);
			}
			if (bytes != NULL)
				*bytes = m.len;
			reply_mail_release(&m);
			n++;
		}
		reply_release(&rc);
		t = bench_cpu() - t0;
	} while (t < secs);
	return t / (double)n * 1e6;
}

static const struct {
	const char *name;
	enum rules_shape shape;
	int size;
} boards[] = {
	{ "5", RULES_SQUARE, 5 }, { "11", RULES_SQUARE, 11 }, { "19", RULES_SQUARE, 19 },
	{ "25", RULES_SQUARE, 25 }, { "hex7", RULES_HEX, 7 }, { "hex10", RULES_HEX, 10 },
};
#define NBOARDS (sizeof boards / sizeof boards[0])

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, r;
	double secs = argc > 2 ? atof(argv[2]) : 0.2, on, off;
	const char *top = getenv("OUSTPBM_TOP");
	char cwd[900];
	struct game g[NBOARDS];
	struct config cfg;
	size_t bytes = 0, i;
	struct rules_board rb;

	config_defaults(&cfg);
	snprintf(cfg.from_address, sizeof cfg.from_address, "oust@example.net");
	/* run-bench runs from the top of the checkout */
	if (top == NULL)
		top = getcwd(cwd, sizeof cwd) != NULL ? cwd : ".";
	snprintf(cfg.templates, sizeof cfg.templates, "%s/templates", top);
	cfg.test_time_set = true;
	for (i = 0; i < NBOARDS; i++) {
		rules_board_init_shape(&rb, boards[i].shape, boards[i].size);
		if (!build(&g[i], boards[i].shape, boards[i].size, rb.npoints * 2 / 5)) {
			fprintf(stderr, "bench_reply: cannot build the game on %s\n", boards[i].name);
			return 1;
		}
	}
	for (r = 0; r < reps; r++) {
		printf("reply");
		for (i = 0; i < NBOARDS; i++) {
			/* on and off in turns, the order swapped each repetition */
			if (r % 2 == 0) {
				on = compose(&cfg, "/nonexistent", &g[i], true, secs, &bytes);
				off = compose(&cfg, "/nonexistent", &g[i], false, secs, NULL);
			} else {
				off = compose(&cfg, "/nonexistent", &g[i], false, secs, NULL);
				on = compose(&cfg, "/nonexistent", &g[i], true, secs, &bytes);
			}
			printf(" extra%s_us=%.1f", boards[i].name, on - off);
			if (strcmp(boards[i].name, "25") == 0)
				printf(" plain25_us=%.1f bytes25=%zu", off, bytes);
			if (strcmp(boards[i].name, "hex10") == 0)
				printf(" byteshex10=%zu", bytes);
		}
		printf("\n");
		fflush(stdout);
	}
	for (i = 0; i < NBOARDS; i++)
		game_release(&g[i]);
	mailout_shutdown();
	return 0;
}
