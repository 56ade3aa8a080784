/*
 * mailbench: the helper of tests/bench/bench_mail.sh (built by that script,
 * not by the Makefile, so tests/bench/run-bench does not take it for a
 * benchmark of its own).
 *
 *   mailbench game N FILE     write FILE, an 11x11 game (board 101, alice
 *                             against bob) with N turns played and still
 *                             going, and print a legal next turn as
 *                             "PLAYER TURN PLACEMENTS" (e.g. "bob 2 E5")
 *   mailbench copies FILE DIR FIRST COUNT
 *                             write COUNT copies of the game file FILE as
 *                             DIR/<b>.game for b = FIRST.., each with its
 *                             own board number
 *   mailbench time MAIL PROG ARGS...
 *                             run PROG ARGS with MAIL on standard input and
 *                             print the whole-process time in ms (fork to
 *                             exit); fails unless PROG exits 0
 *
 * The games are random but reproducible: the same N gives the same file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"

#define T0 INT64_C(1700000000)

static unsigned long seed;

static unsigned rnd(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(seed >> 33);
}

/*
 * A random legal turn for the side to move that does not end the game; 0 if
 * none was found.  Captures are taken a third of the time, so the board
 * neither fills up nor empties, and a game lasts.
 */
static int random_turn(const struct game *g, int *pts)
{
	static struct rules_game w;
	uint16_t legal[RULES_MAX_POINTS], quiet[RULES_MAX_POINTS], take[RULES_MAX_POINTS];
	struct rules_check c;
	struct rules_event ev;
	int n, k, i, nq, nt, tries;

	for (tries = 0; tries < 50; tries++) {
		w = g->rg;
		n = 0;
		do {
			k = rules_game_legal(&w, legal);
			nq = nt = 0;
			for (i = 0; i < k; i++) {
				rules_check(&w.board, w.to_move, legal[i], &c);
				if (c.verdict == RULES_NONCAPTURE)
					quiet[nq++] = legal[i];
				else if (c.captured < w.board.stones[RULES_OTHER(w.to_move)])
					take[nt++] = legal[i];	/* a capture that does not win */
			}
			if (nq + nt == 0)
				break;
			if (nt > 0 && (nq == 0 || rnd() % 3 == 0))
				pts[n] = take[rnd() % (unsigned)nt];
			else
				pts[n] = quiet[rnd() % (unsigned)nq];
			rules_game_play(&w, pts[n++], &ev);
		} while (!ev.turn_over && w.result == RULES_PLAYING);
		if (nq + nt > 0 && w.result == RULES_PLAYING)
			return n;
	}
	return 0;
}

/* An 11x11 game with exactly n turns played, still going, and its next turn. */
static int make_game(int n, struct game *g, int *next, int *nnext)
{
	int pts[RULES_MAX_POINTS], k, attempt;

	for (attempt = 0; attempt < 1000; attempt++) {
		seed = 12345 + (unsigned long)attempt * 7919 + (unsigned long)n;
		game_init(g, 101, 11, true, "alice", "bob", T0);
		while (g->nturns < n) {
			k = random_turn(g, pts);
			if (k == 0)
				break;
			game_move(g, game_player_to_move(g), pts, k, T0 + 60 * (g->nturns + 1), NULL);
		}
		if (g->nturns == n && !game_over(g) && (*nnext = random_turn(g, next)) > 0)
			return 0;
		game_release(g);
	}
	return -1;
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "mailbench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmd_game(int n, const char *path)
{
	struct game g;
	char *text, name[4];
	size_t len;
	int next[RULES_MAX_POINTS], nnext = 0, i;

	if (make_game(n, &g, next, &nnext) != 0) {
		fprintf(stderr, "mailbench: no %d-turn game found\n", n);
		return 1;
	}
	if (gamefile_format(&g, &text, &len) != GAME_OK || write_file(path, text, len) != 0)
		return 1;
	printf("%s %d ", game_player_to_move(&g), g.rg.turn);
	for (i = 0; i < nnext; i++)
		printf("%s%s", i > 0 ? "," : "", rules_point_name(&g.rg.board, next[i], name));
	printf("\n");
	free(text);
	game_release(&g);
	return 0;
}

static int cmd_copies(const char *src, const char *dir, long first, long count)
{
	struct game g;
	char *in, *text, path[4096];
	size_t len;
	long b;
	FILE *f = fopen(src, "r");

	in = malloc(1 << 22);
	if (f == NULL || in == NULL) {
		fprintf(stderr, "mailbench: %s: %s\n", src, strerror(errno));
		return 1;
	}
	len = fread(in, 1, (1 << 22) - 1, f);
	fclose(f);
	if (gamefile_parse(in, len, &g, NULL) != GAME_OK) {
		fprintf(stderr, "mailbench: %s is no game file\n", src);
		return 1;
	}
	for (b = first; b < first + count; b++) {
		g.board = b;
		if (gamefile_format(&g, &text, &len) != GAME_OK)
			return 1;
		snprintf(path, sizeof path, "%s/%ld.game", dir, b);
		if (write_file(path, text, len) != 0)
			return 1;
		free(text);
	}
	game_release(&g);
	free(in);
	return 0;
}

static int cmd_time(const char *mail, char **argv)
{
	struct timespec a, b;
	int fd, status;
	pid_t pid;

	fd = open(mail, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "mailbench: %s: %s\n", mail, strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "mailbench: %s exited %d\n", argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return 1;
	}
	printf("%.3f\n", (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "game") == 0)
		return cmd_game(atoi(argv[2]), argv[3]);
	if (argc == 6 && strcmp(argv[1], "copies") == 0)
		return cmd_copies(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
	if (argc >= 4 && strcmp(argv[1], "time") == 0)
		return cmd_time(argv[2], argv + 3);
	fprintf(stderr, "usage: mailbench game N FILE | copies FILE DIR FIRST COUNT | time MAIL PROG ARGS...\n");
	return 2;
}
