/*
 * AI tests, written as ASCII positions (top row first, X black, O white,
 * '.' empty; spaces and '/' are ignored): whole turns are legal and
 * complete, captures are found, the same seed gives the same turn, and
 * whole games against the baselines run to their end.
 */
#include <stdlib.h>
#include <time.h>

#include "game/ai.h"
#include "t.h"
#include "t_board.h"

static struct rules_game G;

/* Start G at the position in rows (top row first) with colour c to move. */
static void setup(int size, const char *rows, enum rules_color c)
{
	struct rules_board b;

	t_board_rows(&b, size, rows);
	rules_game_start(&G, &b, c, 5, false, NULL);
}

static int P(const char *v)
{
	int p = rules_parse_point(&G.board, v, (int)strlen(v));

	if (p == RULES_NO_POINT) {
		fprintf(stderr, "bad vertex %s\n", v);
		abort();
	}
	return p;
}

/* The turn as text, "B3,A2". */
static const char *turn_text(const struct ai_turn *t)
{
	static char buf[4096];
	char name[4];
	int i;

	buf[0] = '\0';
	if (t->action == AI_SWAP)
		return "swap";
	if (t->action == AI_PASS)
		return "pass";
	if (t->action == AI_RESIGN)
		return "resign";
	for (i = 0; i < t->n && strlen(buf) < sizeof(buf) - 8; i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, rules_point_name(&G.board, t->points[i], name));
	}
	return buf;
}

/* Apply t to G as the server would; true if the rules core takes it as a whole turn. */
static bool apply(const struct ai_turn *t)
{
	struct rules_turn_report rep;

	if (t->action == AI_SWAP)
		return rules_game_swap(&G);
	if (t->action != AI_PLACE)
		return false;
	return rules_game_turn(&G, t->points, t->n, &rep) == RULES_TURN_OK;
}

/* Whether the side to move in g can win in this turn (a chain of captures taking every stone). */
static bool wins_now_from(const struct rules_game *g, int depth)
{
	uint16_t mv[RULES_MAX_POINTS];
	struct rules_game next;
	struct rules_event ev;
	int n = rules_game_legal((struct rules_game *)g, mv), i;

	for (i = 0; i < n && depth < 40; i++) {
		if (rules_check(&g->board, g->to_move, mv[i], NULL) != RULES_CAPTURE)
			continue;
		next = *g;
		if (!rules_is_legal(rules_game_play(&next, mv[i], &ev)))
			continue;
		if (next.result != RULES_PLAYING || (!ev.turn_over && wins_now_from(&next, depth + 1)))
			return true;
	}
	return false;
}

static bool wins_now(const struct rules_game *g)
{
	return g->result == RULES_PLAYING && wins_now_from(g, 0);
}

static struct ai_options opts(int level, uint64_t seed, long playouts)
{
	struct ai_options o = { .level = level, .seed = seed, .playouts = playouts };

	return o;
}

static void test_positions(void)
{
	struct ai_options o = opts(AI_DEFAULT_LEVEL, 1, 2000);
	struct ai_turn t;
	int level;

	/* Edge case 1: B3 joins three stones against groups of 2 and 1 and wins at once. */
	for (level = AI_MIN_LEVEL; level <= AI_MAX_LEVEL; level++) {
		setup(5, "..... / OO... / X.X.. / O.... / .....", RULES_BLACK);
		o.level = level;
		ok_int(ai_play_turn(&G, &o, &t), GAME_OK, "level %d: edge case 1 planned", level);
		ok_str(turn_text(&t), "B3", "level %d: edge case 1: B3 wins", level);
		ok(apply(&t) && G.result == RULES_BLACK_WINS, "level %d: edge case 1 is a win", level);
	}
	/* Edge case 2: B3 captures D3, then B2 or A2 captures the last two stones. */
	setup(5, "..... / ..... / X.XO. / ..... / OO...", RULES_BLACK);
	o.level = AI_MAX_LEVEL;
	ok_int(ai_play_turn(&G, &o, &t), GAME_OK, "edge case 2 planned");
	ok(t.n == 2 && (t.points[0] == P("B3") || t.points[0] == P("C2") || t.points[0] == P("C4")),
	    "edge case 2: %s captures twice and wins", turn_text(&t));
	ok(apply(&t) && G.result == RULES_BLACK_WINS, "edge case 2 is a win");

	/*
	 * Black's G1 is lost (White G2 joins F3,G3 against it, and Black's own
	 * G2 would not be larger), and White goes on placing after that
	 * capture: a Black stone White can reach then loses the game at once.
	 * Knowledge in the priors and playouts keeps it out of reach.
	 */
	{
		struct rules_game keep, over = G;
		uint64_t s;
		int lost = 0, lv;

		for (lv = 2; lv <= AI_MAX_LEVEL; lv += 3) {
			for (s = 0; s < 6; s++) {
				setup(7, ". . . . . . . / . O . O . . . / . . . . . . . / "
				    ". O . O . . . / . . . . . O O / . . . . . . . / . . . . . . X",
				    RULES_BLACK);
				keep = G;
				o = opts(lv, s, 3000);
				if (ai_play_turn(&G, &o, &t) != GAME_OK || !apply(&t) || wins_now(&G)) {
					if (lost++ == 0)
						printf("# level %d seed %d: after %s white wins\n", lv,
						    (int)s, turn_text(&t));
				}
				G = keep;
			}
		}
		ok_int(lost, 0, "levels 2 and 5 leave the opponent no win in one turn");
		G = over;
	}

	/* Over: nothing to plan. */
	ok_int(ai_play_turn(&G, &o, &t), GAME_OVER, "a finished game has no turn");
	ok_int(ai_baseline_turn(&G, AI_GREEDY, 1, &t), GAME_OVER, "greedy: no turn either");
}

static void test_greedy(void)
{
	struct ai_turn t;
	uint64_t s;
	bool all = true;

	/* The largest capture: B4 or A3 take the group of 2 (C1, C3, B2 the singleton only). */
	setup(5, "X O O . . / X . . . . / . . . . . / . . X O . / . . . . .", RULES_BLACK);
	for (s = 0; s < 20; s++) {
		ai_baseline_turn(&G, AI_GREEDY, s, &t);
		all = all && t.action == AI_PLACE && t.n >= 1 &&
		    (t.points[0] == P("B4") || t.points[0] == P("A3"));
	}
	ok(all, "greedy captures the group of 2, not the singleton (%s)", turn_text(&t));
	/*
	 * No capture: Black must not place next to White's singleton at E1 in a
	 * way that lets White join it against a smaller group.
	 */
	setup(5, ". . . . . / . . . . . / . . . . . / . . . . . / O . . . X", RULES_WHITE);
	all = true;
	for (s = 0; s < 20; s++) {
		struct rules_game keep = G;

		ai_baseline_turn(&G, AI_GREEDY, s, &t);
		all = all && apply(&t);
		all = all && rules_check(&G.board, RULES_BLACK, P("D1"), NULL) != RULES_CAPTURE &&
		    rules_check(&G.board, RULES_BLACK, P("E2"), NULL) != RULES_CAPTURE;
		G = keep;
	}
	ok(all, "greedy leaves the opponent no capture where it can");
}

/* Play whole games with players a and b (level 0: random, -1: greedy, else the AI). */
static void play_games(int size, int a, int b, int games, long playouts)
{
	struct ai_options o;
	struct ai_turn t;
	int i, turns, bad = 0, over = 0, who;
	enum game_status st;

	for (i = 0; i < games; i++) {
		rules_game_init(&G, size, true);
		for (turns = 0; G.result == RULES_PLAYING && turns < 4 * size * size; turns++) {
			who = G.to_move == RULES_BLACK ? a : b;
			if (i % 2)
				who = G.to_move == RULES_BLACK ? b : a;
			o = opts(who, (uint64_t)(i * 1000 + turns), playouts);
			st = who == 0 ? ai_baseline_turn(&G, AI_RANDOM, o.seed, &t) :
			    who < 0 ? ai_baseline_turn(&G, AI_GREEDY, o.seed, &t) :
			    ai_play_turn(&G, &o, &t);
			if (st != GAME_OK || !apply(&t)) {
				if (bad++ < 3)
					printf("# game %d turn %d: %s, turn %s refused\n", i, turns,
					    game_status_str(st), turn_text(&t));
				break;
			}
		}
		over += G.result != RULES_PLAYING;
	}
	ok_int(bad, 0, "%dx%d: %d games %d against %d: every turn legal and whole", size, size,
	    games, a, b);
	ok_int(over, games, "%dx%d: every game ended", size, size);
}

static void test_determinism(void)
{
	struct ai_options o = opts(AI_DEFAULT_LEVEL, 42, 500);
	struct ai_turn t1, t2;
	struct ai_turn *p1 = &t1, *p2 = &t2;
	int i;
	bool same = true;

	rules_game_init(&G, 9, false);
	for (i = 0; i < 6; i++) {
		ai_baseline_turn(&G, AI_RANDOM, (uint64_t)i, p1);
		apply(p1);
	}
	for (i = 0; i < 4; i++) {
		o.seed = (uint64_t)i;
		o.level = i % 2 ? AI_MAX_LEVEL : AI_DEFAULT_LEVEL; /* level 5: two threads */
		ai_play_turn(&G, &o, p1);
		ai_play_turn(&G, &o, p2);
		same = same && p1->action == p2->action && p1->n == p2->n &&
		    memcmp(p1->points, p2->points, sizeof(p1->points[0]) * (size_t)p1->n) == 0;
	}
	ok(same, "same seed and budget: the same turn, at level 3 and at level 5");
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Level 5 by time: two threads on one tree, kept from placement to
 * placement, against the greedy player: every placement legal, each chosen
 * by its deadline, the pool within its cap.  The deadline is wall-clock
 * time, which a loaded machine stretches at will: the bound is a second
 * (the search honours its deadline, not a benchmark of how closely; make
 * bench measures that).
 */
static void test_threads(void)
{
	struct ai_options o = opts(AI_MAX_LEVEL, 3, 0);
	struct ai *a = ai_new();
	struct ai_search s = { 0 };
	struct ai_turn t;
	struct rules_event ev;
	int64_t t0, late = 0;
	int placements = 0, bad = 0;
	long playouts = 0;

	rules_game_init(&G, 9, false);
	while (a != NULL && G.result == RULES_PLAYING && placements < 40) {
		if (G.to_move == RULES_WHITE) {
			bad += ai_baseline_turn(&G, AI_GREEDY, (uint64_t)placements, &t) != GAME_OK ||
			    !apply(&t);
			placements++;
			continue;
		}
		t0 = mono_ns();
		o.deadline_ns = t0 + 60000000;
		o.seed++;
		if (ai_genmove(a, &G, &o, &t) != GAME_OK || t.action != AI_PLACE || t.n != 1 ||
		    !rules_is_legal(rules_game_play(&G, t.points[0], &ev))) {
			bad++;
			break;
		}
		if (mono_ns() - o.deadline_ns > late)
			late = mono_ns() - o.deadline_ns;
		ai_last_search(a, &s);
		playouts += s.playouts;
		bad += s.nodes > s.node_cap;
		placements++;
	}
	ok(a != NULL && bad == 0, "level 5 by time: %d placements legal, the pool within its cap",
	    placements);
	ok(late <= 1000000000, "level 5 by time: every placement by its deadline (%.1f ms late at most)",
	    late / 1e6);
	ok(playouts > 0, "level 5 by time: %ld playouts", playouts);
	ai_free(a);
}

#ifdef AI_TEST_HOOKS
/*
 * Level 5 answers without waiting for its helper thread: with the helper
 * held back 3 s after its search (as on a machine that keeps it off the
 * processor), the placement still comes long before the helper is free;
 * the next search and ai_free() wait for the helper before touching the
 * tree.  The margins are seconds, so that a loaded machine cannot fail it.
 */
static void test_helper_stall(void)
{
	struct ai_options o = opts(AI_MAX_LEVEL, 7, 0);
	struct ai *a = ai_new();
	struct ai_turn t[2];
	int64_t took[3], t0;
	int i;
	bool ran = a != NULL;

	ai_test_helper_stall_ns = 3000000000;
	rules_game_init(&G, 9, false);
	for (i = 0; i < 2 && ran; i++) {
		t0 = mono_ns();
		o.deadline_ns = t0 + 60000000;
		ran = ai_genmove(a, &G, &o, &t[i]) == GAME_OK && t[i].action == AI_PLACE && t[i].n == 1;
		took[i] = mono_ns() - t0;
	}
	t0 = mono_ns();
	ai_free(a);
	took[2] = mono_ns() - t0;
	ai_test_helper_stall_ns = 0;
	ok(ran, "level 5, helper held back: two searches of the same position");
	ok(ran && took[0] <= 1500000000, "level 5, helper held back 3 s: the placement without "
	    "waiting for it (%.1f ms)", took[0] / 1e6);
	ok(ran && took[1] >= 2000000000, "level 5, helper held back: the next search waits for it "
	    "(%.0f ms)", took[1] / 1e6);
	ok(ran && took[2] >= 2000000000, "level 5, helper held back: ai_free() waits for it (%.0f ms)",
	    took[2] / 1e6);
}
#endif

/*
 * Pie rule: Black's first placement, when White may swap after it, is the
 * one nearest an even game among those searched well, not the strongest.
 */
static void test_pie(void)
{
	struct ai_options o = opts(AI_DEFAULT_LEVEL, 1, 5000);
	struct ai_search s[2];
	struct ai_turn t[2];
	struct ai *a;
	float off[2];
	int swap;
	bool ran = true;

	for (swap = 0; swap < 2; swap++) {
		rules_game_init(&G, 9, swap == 1);
		a = ai_new();
		ran = ran && a != NULL && ai_genmove(a, &G, &o, &t[swap]) == GAME_OK &&
		    t[swap].action == AI_PLACE && t[swap].n == 1;
		if (a != NULL)
			ai_last_search(a, &s[swap]);
		ai_free(a);
		off[swap] = s[swap].value > 0.5 ? s[swap].value - 0.5f : 0.5f - (float)s[swap].value;
	}
	ok(ran, "black's first placement chosen with and without the pie rule");
	ok(off[1] <= off[0] && off[1] < 0.05f,
	    "with the pie rule black's first placement is nearer an even game (%.3f, not %.3f)",
	    s[1].value, s[0].value);
}

int main(void)
{
	test_positions();
	test_greedy();
	test_determinism();
	test_threads();
#ifdef AI_TEST_HOOKS
	test_helper_stall();
#endif
	test_pie();
	play_games(5, -1, 0, 20, 200);
	play_games(7, AI_DEFAULT_LEVEL, 0, 6, 300);
	play_games(9, AI_MIN_LEVEL, -1, 4, 300);
	return t_done();
}
