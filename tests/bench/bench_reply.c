/*
 * bench_reply: what the text/html alternative costs a move mail: the time
 * to compose the two replies of a move (reply_game for each player:
 * templates filled in, GMime composing the message) with html_mail on and
 * off, on an 11 x 11 board after 100 turns and a 25 x 25 board after 250,
 * and the size of the mail with its HTML part (up to 100 and 250 turns: as
 * many quiet placements as the board takes).
 *
 * The games are random quiet placements (no capture, so each turn is one
 * placement), the same on every run.  Per repetition (argv[1], default 5)
 * one line:
 *   reply html11_us=... plain11_us=... extra11_us=... html25_us=...
 *         plain25_us=... extra25_us=... bytes25=...
 * each a mean per mail over repeated composing for at least argv[2]
 * seconds (default 0.2), on and off interleaved.  run-bench takes medians.
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

/* A game of size x size with turns quiet placements. */
static bool build(struct game *g, int size, int turns)
{
	uint16_t legal[RULES_MAX_POINTS];
	struct rules_check c;
	int t, n, k, p, tries;

	game_init(g, 101, size, false, "alice", "bob", T0);
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
	t0 = bench_now();
	do {
		reply_init(&rc, cfg, tdir, T0, "in.1@example.org", "", "alice@example.org");
		for (i = 0; i < 2; i++) {
			if (reply_game(&rc, g, &ev, &p[i], &m) != REPLY_OK) {
				fprintf(stderr, "bench_reply: %s\n", rc.err);
				exit(1);
			}
			*bytes = m.len;
			reply_mail_release(&m);
			n++;
		}
		reply_release(&rc);
		t = bench_now() - t0;
	} while (t < secs);
	return t / (double)n * 1e6;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, r;
	double secs = argc > 2 ? atof(argv[2]) : 0.2, h11, p11, h25, p25;
	const char *top = getenv("OUSTPBM_TOP");
	char cwd[900];
	struct game g11, g25;
	struct config cfg;
	size_t bytes = 0;

	config_defaults(&cfg);
	snprintf(cfg.from_address, sizeof cfg.from_address, "oust@example.net");
	/* run-bench runs from the top of the checkout */
	if (top == NULL)
		top = getcwd(cwd, sizeof cwd) != NULL ? cwd : ".";
	snprintf(cfg.templates, sizeof cfg.templates, "%s/templates", top);
	cfg.test_time_set = true;
	if (!build(&g11, 11, 100) || !build(&g25, 25, 250)) {
		fprintf(stderr, "bench_reply: cannot build the games\n");
		return 1;
	}
	for (r = 0; r < reps; r++) {
		h11 = compose(&cfg, "/nonexistent", &g11, true, secs, &bytes);
		p11 = compose(&cfg, "/nonexistent", &g11, false, secs, &bytes);
		p25 = compose(&cfg, "/nonexistent", &g25, false, secs, &bytes);
		h25 = compose(&cfg, "/nonexistent", &g25, true, secs, &bytes);
		printf("reply html11_us=%.1f plain11_us=%.1f extra11_us=%.1f html25_us=%.1f plain25_us=%.1f "
		    "extra25_us=%.1f bytes25=%zu\n", h11, p11, h11 - p11, h25, p25, h25 - p25, bytes);
		fflush(stdout);
	}
	game_release(&g11);
	game_release(&g25);
	mailout_shutdown();
	return 0;
}
