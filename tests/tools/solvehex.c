/*
 * solvehex: Oust solved on the hex board of side 3 (`make solve-hex3`, not
 * part of check).
 *
 * 1. src/game/solve.c, SOLVE_EXACT, from the empty board: every position
 *    play can reach (symmetric ones once), each with its value for the side
 *    to move and in how many turns the game ends with perfect play (the
 *    winner hurrying, the loser holding out).  Prints the result without
 *    and with the pie rule, each first placement's, the longest game, and
 *    the CPU time and memory.
 * 2. The check, by the rules core (rules.c, an independent implementation
 *    of the rules, without the symmetries): every entry of the table, or
 *    every k-th with `solvehex K`, is rebuilt as a rules_game; its legal
 *    placements and what each does are the rules core's, their positions
 *    are looked up in the table, and the entry must be their minimax
 *    (value and turns).  A table that is its own minimax everywhere, with
 *    the turns going down along every winning line, is the game's value.
 *    Exits 1 on any disagreement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "game/rules.h"
#include "game/solve.h"

static struct solve *S;
static unsigned long checked, bad, every = 1, seen;

static double cpu(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static void masks_of(const struct rules_board *b, uint32_t *black, uint32_t *white)
{
	int i;

	*black = *white = 0;
	for (i = 0; i < SOLVE_CELLS; i++) {
		if (rules_at(b, solve_cell(i)) == RULES_BLACK)
			*black |= 1u << i;
		else if (rules_at(b, solve_cell(i)) == RULES_WHITE)
			*white |= 1u << i;
	}
}

/* The value of rg (the rules core's state) for its side to move, from the table. */
static enum solve_value look(const struct rules_game *rg, enum rules_color me, int *turns)
{
	uint32_t black, white;
	enum solve_value v;

	if (rg->result != RULES_PLAYING) {
		*turns = 0;
		if (rg->result == RULES_DRAW)
			return SOLVE_DRAW;
		return (rg->result == RULES_BLACK_WINS) == (me == RULES_BLACK) ? SOLVE_WIN : SOLVE_LOSS;
	}
	masks_of(&rg->board, &black, &white);
	solve_position(S, black, white, rg->to_move == RULES_WHITE, &v, turns);
	if (rg->to_move != me)
		v = v == SOLVE_WIN ? SOLVE_LOSS : v == SOLVE_LOSS ? SOLVE_WIN : SOLVE_DRAW;
	return v;
}

static int score(enum solve_value v, int turns)
{
	return v == SOLVE_WIN ? 1000 - turns : v == SOLVE_LOSS ? -1000 + turns : 0;
}

/* One entry against the rules core. */
static void check(uint32_t black, uint32_t white, bool wtm, enum solve_value v, int turns, void *arg)
{
	static struct rules_board b;
	static struct rules_game g, w;
	static uint16_t legal[RULES_MAX_POINTS];
	enum rules_color me = wtm ? RULES_WHITE : RULES_BLACK;
	struct rules_event ev;
	enum solve_value cv, bv = SOLVE_LOSS;
	int i, n, ct, bs = -10000, bt = 0, add;

	(void)arg;
	if (seen++ % every != 0)
		return;
	checked++;
	rules_board_init_shape(&b, RULES_HEX, SOLVE_SIDE);
	for (i = 0; i < SOLVE_CELLS; i++)
		if ((black | white) >> i & 1)
			rules_board_setup(&b, solve_cell(i), (black >> i & 1) ? RULES_BLACK : RULES_WHITE);
	/* turn 3: no swap; rules_game_start passes for a side without placement, as play does */
	rules_game_start(&g, &b, me, 3, false, &ev);
	if (g.result != RULES_PLAYING || g.to_move != me) {
		/* no placement for me: the other side moves from the same position (a pass), or a draw */
		cv = look(&g, me, &ct);
		bv = cv;
		bt = g.result == RULES_PLAYING ? ct + 1 : 0;
	} else {
		n = rules_game_legal(&g, legal);
		for (i = 0; i < n; i++) {
			w = g;
			rules_game_play(&w, legal[i], &ev);
			/* the turn ends with this placement unless the same side places again */
			add = w.result != RULES_PLAYING ? 1 : w.to_move == me && !ev.turn_over ? 0 : 1;
			if (w.result == RULES_PLAYING && ev.turn_over && w.to_move == me) {
				/* a dead end or the opponent's pass: my next turn; both count */
				add = 1 + ev.npasses;
			}
			cv = look(&w, me, &ct);
			ct += w.result != RULES_PLAYING ? 1 : add;
			if (w.result != RULES_PLAYING)
				ct = 1;
			if (score(cv, ct) > bs) {
				bs = score(cv, ct);
				bv = cv;
				bt = ct;
			}
		}
	}
	if (bv != v || bt != turns) {
		if (bad++ < 5)
			printf("disagreement: black %05x white %05x %s to move: table %d in %d, rules core %d in %d\n", black,
			    white, wtm ? "white" : "black", v, turns, bv, bt);
	}
}

static const char *word(enum solve_value v)
{
	return v == SOLVE_WIN ? "wins" : v == SOLVE_LOSS ? "loses" : "draws";
}

int main(int argc, char **argv)
{
	static struct rules_board b;
	struct rusage ru;
	enum solve_value v, fv[SOLVE_CELLS];
	enum game_status st;
	unsigned long npos, after;
	size_t bytes;
	char name[4];
	int turns, ft[SOLVE_CELLS], i, longest = 0, wins = 0;
	double t0 = cpu(), t1;

	if (argc > 1)
		every = strtoul(argv[1], NULL, 10) > 0 ? strtoul(argv[1], NULL, 10) : 1;
	S = solve_new(SOLVE_EXACT);
	if (S == NULL)
		return 2;
	st = solve_position(S, 0, 0, false, &v, &turns);
	if (st != GAME_OK) {
		printf("solvehex: %s\n", game_status_str(st));
		return 2;
	}
	t1 = cpu();
	solve_stats(S, &npos, &bytes);
	rules_board_init_shape(&b, RULES_HEX, SOLVE_SIDE);
	printf("hex side 3, without the swap: Black (the first player) %s, in at most %d turns with perfect play\n",
	    word(v), turns);
	printf("first placements (then White to move; B: Black wins, W: White wins, turns of the whole game):\n");
	for (i = 0; i < SOLVE_CELLS; i++) {
		solve_position(S, 1u << i, 0, true, &fv[i], &ft[i]);
		ft[i] += 1;
		wins += fv[i] == SOLVE_LOSS;
		if (fv[i] == SOLVE_LOSS && ft[i] > longest)
			longest = ft[i];
		printf("  %s: %s in %d\n", rules_point_name(&b, solve_cell(i), name), fv[i] == SOLVE_LOSS ? "B" : "W",
		    ft[i]);
	}
	printf("%d of the 19 first placements win for Black\n", wins);
	printf("with the swap: the second player wins: after a winning first placement White swaps and takes "
	    "Black's side, after a losing one plays on (no position is a draw)\n");
	printf("positions solved: %lu (each class of the 12 symmetric ones once); table %zu MB; %.1f s of CPU\n",
	    npos, bytes >> 20, t1 - t0);
	solve_each(S, check, NULL);
	solve_stats(S, &after, &bytes);
	if (after != npos) {
		/* the rules core reached a position the solver never did */
		printf("the rules core reached %lu positions the solver did not\n", after - npos);
		bad++;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("check by the rules core: %lu of %lu positions (every %lu-th), %lu disagreements; %.1f s of CPU in all, "
	    "%ld MB at most\n", checked, seen, every, bad, cpu() - t0, ru.ru_maxrss / 1024);
	solve_free(S);
	return bad != 0;
}
