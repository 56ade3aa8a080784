/* test_game: the game model: turns, swap, resign, timeout, passes, draw, replay. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/rules.h"
#include "t.h"

#define T0 INT64_C(1795286467)

/*
 * A 5x5 game in which Black, at turn 25, has no legal placement and passes
 * (found by random play); White's E1,D3,B3 then wins.
 */
static const char *const pass_game[] = {
	"E4", "D2", "B3", "C1", "E2", "D1,B2", "A4", "A5", "B5", "A3", "C4", "C5", "A2", "D4",
	"E2", "E5", "B1", "B4", "C2", "E3", "D5", "A1", "D3", "C3"
};
#define NPASS_GAME ((int)(sizeof(pass_game) / sizeof(pass_game[0])))

/* "D1,B2" into cells of g's board; returns how many. */
static int points(const struct game *g, const char *turn, int *pts)
{
	const char *s = turn, *e;
	int n = 0;

	for (;;) {
		e = strchr(s, ',');
		pts[n++] = rules_parse_point(&g->rg.board, s, e ? (int)(e - s) : (int)strlen(s));
		if (e == NULL)
			return n;
		s = e + 1;
	}
}

static enum game_status play_as(struct game *g, const char *player, const char *turn,
    int64_t now, struct rules_turn_report *rep)
{
	int pts[RULES_MAX_POINTS], n = points(g, turn, pts);

	return game_move(g, player, pts, n, now, rep);
}

/* Play turn as the side to move. */
static enum game_status play(struct game *g, const char *turn, int64_t now)
{
	return play_as(g, game_player_to_move(g), turn, now, NULL);
}

static int pt(const struct game *g, const char *s)
{
	return rules_parse_point(&g->rg.board, s, (int)strlen(s));
}

static bool same_board(const struct rules_board *a, const struct rules_board *b)
{
	int x, y;

	for (y = 0; y < a->size; y++)
		for (x = 0; x < a->size; x++)
			if (rules_at(a, rules_point(a, x, y)) != rules_at(b, rules_point(b, x, y)))
				return false;
	return a->size == b->size;
}

/* The status message for player on g. */
static const char *msg(const struct game *g, enum game_status s, const char *player)
{
	static char buf[200];

	return game_status_message(g, s, player, NULL, NULL, buf, sizeof(buf));
}

static void test_init(void)
{
	struct game g;

	game_init(&g, 101, 11, true, "Alice", "bob", T0);
	ok_str(g.black, "alice", "names are stored lower case");
	ok_int(game_color_of(&g, "alice"), RULES_BLACK, "alice plays black");
	ok_int(game_color_of(&g, "BOB"), RULES_WHITE, "BOB plays white (case folded)");
	ok_int(game_color_of(&g, "carol"), RULES_EMPTY, "carol does not play");
	ok_int(game_color_of(&g, NULL), RULES_EMPTY, "nobody does not play");
	ok_str(game_player_to_move(&g), "alice", "black moves first");
	ok_int(g.rg.turn, 1, "turn 1");
	ok_int(g.nturns, 0, "empty history");
	ok(!game_over(&g), "playing");
	ok(g.created == T0 && g.last_move == T0, "times");
	ok_str(g.thread, "", "no thread yet");
	game_release(&g);
	game_release(&g);
	ok(g.turns == NULL && g.nturns == 0, "release twice is safe");
}

static void test_wrong_player(void)
{
	struct game g;
	struct rules_turn_report rep;
	char buf[200];

	game_init(&g, 101, 11, true, "alice", "bob", T0);
	ok_int(play_as(&g, "bob", "E5", T0, &rep), GAME_NOT_YOUR_TURN, "bob may not move first");
	ok_str(msg(&g, GAME_NOT_YOUR_TURN, "bob"), "it is alice's turn", "message");
	ok_int(play_as(&g, "carol", "E5", T0, NULL), GAME_NOT_PLAYER, "carol may not move");
	ok_str(msg(&g, GAME_NOT_PLAYER, "carol"), "carol is not playing on board 101", "message");
	ok_int(g.nturns, 0, "nothing recorded");
	ok_int(g.rg.board.stones[RULES_BLACK], 0, "nothing placed");
	ok_int(play_as(&g, "ALICE", "E5", T0 + 5, NULL), GAME_OK, "ALICE (any case) moves");
	ok_int(g.last_move, T0 + 5, "last move time");
	ok_int(play_as(&g, "alice", "F5", T0, NULL), GAME_NOT_YOUR_TURN, "alice may not move twice");
	ok_str(msg(&g, GAME_NOT_YOUR_TURN, "alice"), "it is bob's turn", "message");
	ok_str(game_status_message(&g, GAME_NO_MEMORY, "alice", NULL, NULL, buf, sizeof(buf)),
	    "out of memory", "other statuses give the generic text");
	game_release(&g);
}

static void test_illegal(void)
{
	struct game g;
	struct rules_turn_report rep;
	char buf[200];
	int pts[4];

	game_init(&g, 101, 11, true, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	ok_int(play_as(&g, "bob", "E5", T0 + 2, &rep), GAME_ILLEGAL_TURN, "E5 is occupied");
	ok_int(rep.verdict, RULES_TURN_ILLEGAL, "rules say illegal");
	points(&g, "E5", pts);
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "bob", pts, &rep, buf, sizeof(buf)),
	    "E5: the point is occupied", "message names the point");
	ok_int(g.nturns, 1, "history unchanged");
	ok_int(g.last_move, T0 + 1, "last move unchanged");
	ok_str(game_player_to_move(&g), "bob", "still bob's turn");

	ok_int(play_as(&g, "bob", "F5,G6", T0 + 2, &rep), GAME_ILLEGAL_TURN, "F5,G6 is too long");
	points(&g, "F5,G6", pts);
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "bob", pts, &rep, buf, sizeof(buf)),
	    "G6: the turn ended with F5", "message");
	ok_int(g.rg.board.stones[RULES_WHITE], 0, "nothing of it placed");

	ok_int(game_move(&g, "bob", pts, 0, T0, &rep), GAME_ILLEGAL_TURN, "no placement");
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "bob", NULL, &rep, buf, sizeof(buf)),
	    "no placement given", "message");
	pts[0] = 9999;
	ok_int(game_move(&g, "bob", pts, 1, T0, &rep), GAME_ILLEGAL_TURN, "off the board");
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "bob", pts, &rep, buf, sizeof(buf)),
	    "placement 1: not a point of the board", "message");

	play(&g, "F5", T0 + 3);
	play(&g, "C3", T0 + 4);
	play(&g, "J9", T0 + 5);
	ok_int(play_as(&g, "alice", "E6", T0 + 6, &rep), GAME_ILLEGAL_TURN,
	    "E6 captures F5 but the turn must go on");
	points(&g, "E6", pts);
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "alice", pts, &rep, buf, sizeof(buf)),
	    "the turn stops after the capture at E6, but a placement remains: place again",
	    "message");
	ok_int(play_as(&g, "alice", "C4", T0 + 6, &rep), GAME_ILLEGAL_TURN, "C4 touches no enemy");
	points(&g, "C4", pts);
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "alice", pts, &rep, buf, sizeof(buf)),
	    "C4: the new group would touch no enemy group", "message");
	ok_str(game_status_message(&g, GAME_ILLEGAL_TURN, "alice", NULL, NULL, buf, sizeof(buf)),
	    "illegal turn on board 101", "message without details");
	ok_int(play_as(&g, "alice", "E6,C9", T0 + 6, &rep), GAME_OK, "E6,C9 is a whole turn");
	ok_int(rep.captured, 1, "one stone captured");
	ok_int(g.turns[4].npoints, 2, "both placements recorded");
	game_release(&g);
}

static void test_swap(void)
{
	struct game g;
	struct game_replay r;

	game_init(&g, 101, 11, false, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	ok_int(game_swap(&g, "bob", T0 + 2), GAME_SWAP_OFF, "swap off");
	ok_str(msg(&g, GAME_SWAP_OFF, "bob"), "swap is off on board 101", "message");
	game_release(&g);

	game_init(&g, 101, 11, true, "alice", "bob", T0);
	ok_int(game_swap(&g, "bob", T0 + 1), GAME_SWAP_NOT_NOW, "no swap before Black's turn");
	ok_str(msg(&g, GAME_SWAP_NOT_NOW, "bob"), "swap is only allowed as White's first turn",
	    "message");
	play(&g, "E5", T0 + 1);
	ok_int(game_swap(&g, "alice", T0 + 2), GAME_NOT_YOUR_TURN, "Black may not swap");
	ok_str(msg(&g, GAME_NOT_YOUR_TURN, "alice"), "it is bob's turn", "message");
	ok_int(game_swap(&g, "carol", T0 + 2), GAME_NOT_PLAYER, "carol may not swap");
	ok(rules_game_can_swap(&g.rg), "swap allowed now");
	ok_int(game_swap(&g, "bob", T0 + 2), GAME_OK, "White swaps");
	ok_str(g.black, "bob", "bob owns black now");
	ok_str(g.white, "alice", "alice owns white now");
	ok_int(g.nturns, 2, "the swap is a turn");
	ok_int(g.turns[1].action, GAME_SWAP, "recorded as swap");
	ok_int(g.turns[1].color, RULES_WHITE, "made as White");
	ok_str(g.turns[1].player, "bob", "by bob");
	ok_int(g.rg.turn, 3, "turn 3 next");
	ok_int(g.last_move, T0 + 2, "last move time");
	ok_str(game_player_to_move(&g), "alice", "then White moves: alice");
	ok_int(play_as(&g, "bob", "F5", T0 + 3, NULL), GAME_NOT_YOUR_TURN, "not bob");
	ok_str(msg(&g, GAME_NOT_YOUR_TURN, "bob"), "it is alice's turn", "message");
	ok_int(play_as(&g, "alice", "F5", T0 + 3, NULL), GAME_OK, "alice places as White");
	ok_int(rules_at(&g.rg.board, pt(&g, "F5")), RULES_WHITE, "a white stone");
	ok_int(game_swap(&g, "bob", T0 + 4), GAME_SWAP_NOT_NOW, "no second swap");
	ok_int(game_replay(&g, 1, &r), GAME_OK, "replay to turn 1");
	ok(strcmp(r.black, "alice") == 0 && strcmp(r.white, "bob") == 0,
	    "before the swap alice was black");
	ok_int(game_replay(&g, 2, &r), GAME_OK, "replay to turn 2");
	ok(strcmp(r.black, "bob") == 0 && strcmp(r.white, "alice") == 0, "after it bob is black");
	ok_int(game_verify(&g, &r), GAME_OK, "history consistent %s", r.why);
	game_release(&g);

	/* White's first turn was a placement: too late to swap. */
	game_init(&g, 101, 11, true, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	play(&g, "F5", T0 + 2);
	play(&g, "C3", T0 + 3);
	ok_int(game_swap(&g, "bob", T0 + 4), GAME_SWAP_NOT_NOW, "no swap at turn 4");
	game_release(&g);
}

static void test_resign_timeout(void)
{
	struct game g;
	struct game_replay r;

	game_init(&g, 101, 9, true, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	ok_int(game_resign(&g, "carol", T0 + 2), GAME_NOT_PLAYER, "carol cannot resign");
	ok_int(game_resign(&g, "alice", T0 + 2), GAME_OK, "alice resigns on bob's turn");
	ok_int(g.rg.result, RULES_WHITE_WINS, "white wins");
	ok_int(g.end, GAME_END_RESIGN, "by resignation");
	ok(game_over(&g) && game_player_to_move(&g) == NULL, "over, nobody to move");
	ok(g.turns[1].action == GAME_RESIGN && g.turns[1].color == RULES_BLACK &&
	    strcmp(g.turns[1].player, "alice") == 0, "history: alice resigned black");
	ok_int(g.rg.turn, g.nturns + 1, "turn count");
	ok_int(play_as(&g, "bob", "F5", T0 + 3, NULL), GAME_OVER, "no move after the end");
	ok_str(msg(&g, GAME_OVER, "bob"), "board 101 is over", "message");
	ok_int(game_swap(&g, "bob", T0 + 3), GAME_OVER, "no swap after the end");
	ok_int(game_resign(&g, "bob", T0 + 3), GAME_OVER, "no resign after the end");
	ok_int(game_timeout(&g, "bob", T0 + 3), GAME_OVER, "no timeout after the end");
	ok_str(msg(&g, GAME_NOT_YOUR_TURN, "bob"), "board 101 is over",
	    "not-your-turn on a finished game says it is over");
	ok_int(game_verify(&g, &r), GAME_OK, "history consistent %s", r.why);
	game_release(&g);

	game_init(&g, 101, 9, true, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	ok_int(game_timeout(&g, "alice", T0 + 2), GAME_NOT_YOUR_TURN, "only the side to move times out");
	ok_int(game_timeout(&g, "carol", T0 + 2), GAME_NOT_PLAYER, "carol does not play");
	ok_int(game_timeout(&g, "bob", T0 + 2), GAME_OK, "bob times out");
	ok_int(g.rg.result, RULES_BLACK_WINS, "black wins");
	ok_int(g.end, GAME_END_TIMEOUT, "on time");
	ok(g.turns[1].action == GAME_TIMEOUT && g.turns[1].color == RULES_WHITE, "history");
	ok_int(game_verify(&g, &r), GAME_OK, "history consistent %s", r.why);
	game_release(&g);

	/* Playing against oneself: the side to move resigns. */
	game_init(&g, 101, 9, true, "alice", "alice", T0);
	play(&g, "E5", T0 + 1);
	ok_int(game_resign(&g, "alice", T0 + 2), GAME_OK, "alice against alice resigns");
	ok_int(g.rg.result, RULES_BLACK_WINS, "as White, the side to move");
	game_release(&g);
}

static void test_passes(void)
{
	struct game g;
	struct rules_turn_report rep;
	struct game_replay r;
	const int *last;
	int i, bad = 0;

	game_init(&g, 101, 5, false, "alice", "bob", T0);
	for (i = 0; i < NPASS_GAME - 1; i++)
		bad += play(&g, pass_game[i], T0 + i) != GAME_OK;
	ok_int(bad, 0, "23 turns play");
	ok_int(play_as(&g, "bob", pass_game[NPASS_GAME - 1], T0 + 100, &rep), GAME_OK, "turn 24");
	ok_int(rep.npasses, 1, "the rules report a pass");
	ok_int(g.nturns, 25, "the pass is recorded");
	ok(g.turns[24].action == GAME_PASS && g.turns[24].color == RULES_BLACK &&
	    strcmp(g.turns[24].player, "alice") == 0 && g.turns[24].number == 25 &&
	    g.turns[24].time == T0 + 100, "turn 25: alice passes black");
	ok_int(g.rg.turn, 26, "turn 26 next");
	ok_str(game_player_to_move(&g), "bob", "bob moves again");
	ok_int(game_last_placements(&g, &last), 0, "after a pass, no upper-case marks");
	ok_int(game_turn_placements(&g, 24, &last), 1, "turn 24 placed one stone");
	ok_int(last[0], pt(&g, "C3"), "C3");
	ok_int(game_turn_placements(&g, 25, &last), 0, "turn 25 placed none");
	ok_int(game_turn_placements(&g, 99, &last), 0, "no turn 99");

	ok_int(game_replay(&g, 24, &r), GAME_OK, "replay to turn 24");
	ok(r.rg.to_move == RULES_BLACK && r.rg.turn == 25, "black, about to pass, after turn 24");
	ok_int(game_replay(&g, 25, &r), GAME_OK, "replay to turn 25");
	ok(r.rg.to_move == RULES_WHITE && r.rg.turn == 26, "white after the pass");

	ok_int(play(&g, "E1,D3,B3", T0 + 200), GAME_OK, "white's winning turn");
	ok_int(g.rg.result, RULES_WHITE_WINS, "white wins");
	ok_int(g.end, GAME_END_CAPTURE, "by capture");
	ok_int(game_last_placements(&g, &last), 3, "three placements marked");
	ok_int(game_verify(&g, &r), GAME_OK, "history consistent %s", r.why);
	game_release(&g);
}

static void test_draw(void)
{
	struct game g;
	struct game_replay r;
	int x, y, p, ib = 0, iw = 0, black[13], white[12];

	game_init(&g, 101, 5, false, "alice", "bob", T0);
	for (y = 0; y < 5; y++)
		for (x = 0; x < 5; x++) {
			p = rules_point(&g.rg.board, x, y);
			if ((x + y) % 2 == 0)
				black[ib++] = p;
			else
				white[iw++] = p;
		}
	for (x = 0; x < 13; x++) {
		game_move(&g, "alice", &black[x], 1, T0 + x, NULL);
		if (x < 12)
			game_move(&g, "bob", &white[x], 1, T0 + x, NULL);
	}
	ok_int(g.nturns, 25, "25 turns fill the board");
	ok_int(g.rg.result, RULES_DRAW, "nobody can place: a draw");
	ok_int(g.end, GAME_END_NO_PLACEMENTS, "end no-placements");
	ok(game_player_to_move(&g) == NULL, "nobody to move");
	ok_int(game_verify(&g, &r), GAME_OK, "history consistent %s", r.why);
	game_release(&g);
}

/* Replay to every turn of a random game gives the position stored then. */
static void test_replay(void)
{
	static struct rules_board snap[400];
	static struct rules_game w;
	struct game g;
	struct game_replay r;
	uint16_t legal[RULES_MAX_POINTS];
	struct rules_event ev;
	unsigned seed = 7;
	int pts[RULES_MAX_POINTS], n, k, bad = 0, i;

	game_init(&g, 101, 9, true, "alice", "bob", T0);
	snap[0] = g.rg.board;
	while (!game_over(&g) && g.nturns < 380) {
		w = g.rg;
		n = 0;
		do {
			seed = seed * 1103515245u + 12345u;
			k = rules_game_legal(&w, legal);
			pts[n] = legal[(seed >> 16) % (unsigned)k];
			rules_game_play(&w, pts[n++], &ev);
		} while (!ev.turn_over);
		i = g.nturns;
		if (game_move(&g, game_player_to_move(&g), pts, n, T0 + i, NULL) != GAME_OK)
			break;
		for (; i < g.nturns; i++)
			snap[i + 1] = g.rg.board;
	}
	ok(game_over(&g), "a random 9x9 game of %d turns", g.nturns);
	for (k = 0; k <= g.nturns; k++)
		bad += game_replay(&g, k, &r) != GAME_OK || !same_board(&r.rg.board, &snap[k]);
	ok_int(bad, 0, "replay to each turn equals the position after it");
	ok_int(game_replay(&g, g.nturns + 1, &r), GAME_BAD_TURN_NUMBER, "no turn after the last");
	ok_int(game_replay(&g, -1, &r), GAME_BAD_TURN_NUMBER, "no turn -1");
	ok_int(game_verify(&g, &r), GAME_OK, "verify %s", r.why);
	ok(same_board(&r.rg.board, &g.rg.board), "replay of all equals the stored position");
	game_release(&g);
}

/* Start the fixed 5-turn game used to corrupt histories. */
static void five(struct game *g, bool swap)
{
	game_init(g, 101, 11, swap, "alice", "bob", T0);
	play(g, "E5", T0 + 1);
	play(g, "F5", T0 + 2);
	play(g, "C3", T0 + 3);
	play(g, "J9", T0 + 4);
	play(g, "E6,C9", T0 + 5);
}

static void expect_bad(struct game *g, int turn, const char *why)
{
	struct game_replay r;

	ok_int(game_replay(g, g->nturns, &r), GAME_BAD_HISTORY, "bad history: %s", why);
	ok_int(r.bad_turn, turn, "at turn %d", turn);
	ok_str(r.why, why, "why");
	game_release(g);
}

static void test_replay_bad(void)
{
	struct game g;
	struct game_turn t;
	struct game_replay r;
	char buf[200];
	int i;

	five(&g, true);
	g.points[g.turns[2].first] = pt(&g, "E5");
	expect_bad(&g, 3, "turn 3: E5: the point is occupied");

	five(&g, true);
	strcpy(g.turns[0].player, "bob");
	expect_bad(&g, 1, "turn 1: bob played black, but alice owned black then");

	five(&g, true);
	g.turns[1].color = RULES_BLACK;
	expect_bad(&g, 2, "turn 2: bob played black, but alice owned black then");

	five(&g, true);
	g.turns[1].color = RULES_BLACK;
	strcpy(g.turns[1].player, "alice");
	expect_bad(&g, 2, "turn 2: black played, but it was white's turn");

	five(&g, true);
	g.turns[2].number = 7;
	expect_bad(&g, 3, "turn 3: numbered 7");

	five(&g, true);
	g.turns[1].action = GAME_PASS;
	expect_bad(&g, 2, "turn 2: white passed, but had a placement");

	five(&g, true);
	g.turns[4].npoints = 1;
	expect_bad(&g, 5, "turn 5: the turn stops after the capture at E6, but a placement "
	    "remains: place again");

	/* A swap on a board without the pie rule (the names exchanged as a swap does). */
	five(&g, false);
	g.turns[1].action = GAME_SWAP;
	strcpy(g.black, "bob");
	strcpy(g.white, "alice");
	expect_bad(&g, 2, "turn 2: swap is only allowed as White's first turn, and swap is off");

	five(&g, true);
	game_resign(&g, "bob", T0 + 6);
	memset(&t, 0, sizeof(t));
	t.number = 7;
	t.color = RULES_BLACK;
	strcpy(t.player, "alice");
	t.action = GAME_RESIGN;
	ok_int(game_history_add(&g, &t, NULL), GAME_OK, "entry added");
	expect_bad(&g, 7, "turn 7: comes after the end of the game");

	/* The pass game without its pass entry. */
	game_init(&g, 101, 5, false, "alice", "bob", T0);
	for (i = 0; i < NPASS_GAME; i++)
		play(&g, pass_game[i], T0 + i);
	g.nturns--;
	expect_bad(&g, 25, "turn 25: missing: black had no placement and passes");

	/* The pass game with the pass recorded as a placement. */
	game_init(&g, 101, 5, false, "alice", "bob", T0);
	for (i = 0; i < NPASS_GAME; i++)
		play(&g, pass_game[i], T0 + i);
	g.turns[24].action = GAME_RESIGN;
	expect_bad(&g, 25, "turn 25: black had no placement, so this turn must be a pass");

	five(&g, true);
	ok_str(game_status_message(&g, GAME_BAD_HISTORY, NULL, NULL, NULL, buf, sizeof(buf)),
	    "board 101: the history is not consistent", "message");
	game_release(&g);
	(void)r;
}

static void test_verify(void)
{
	struct game g;
	struct game_replay r;

	five(&g, true);
	rules_board_setup(&g.rg.board, pt(&g, "A1"), RULES_WHITE);
	ok_int(game_verify(&g, &r), GAME_POSITION_DIFFERS, "an added stone is noticed");
	ok_str(r.why, "A1 is white, but empty after the history", "why");
	game_release(&g);

	five(&g, true);
	g.end = GAME_END_RESIGN;
	g.rg.result = RULES_WHITE_WINS;
	ok_int(game_verify(&g, &r), GAME_POSITION_DIFFERS, "a result without its turn");
	ok_str(r.why, "the result is W+, but unknown after the history", "why");
	game_release(&g);

	five(&g, true);
	strcpy(g.white, "carol");
	ok_int(game_verify(&g, &r), GAME_BAD_HISTORY, "another player");
	ok_str(r.why, "turn 2: bob played white, but carol owned white then", "why");
	game_release(&g);

	five(&g, true);
	g.rg.to_move = RULES_BLACK;
	ok_int(game_verify(&g, &r), GAME_POSITION_DIFFERS, "the side to move");
	ok_str(r.why, "black is to move, but white after the history", "why");
	game_release(&g);

	five(&g, true);
	game_resign(&g, "alice", T0 + 9);
	g.end = GAME_END_TIMEOUT;
	ok_int(game_verify(&g, &r), GAME_POSITION_DIFFERS, "the end reason");
	ok_str(r.why, "the game ended by timeout, but by resign after the history", "why");
	game_release(&g);
}

/* Undo and draw by agreement: offers, answers, lapses, and the replay of a game with a turn taken back. */
static void test_undo_draw(void)
{
	struct game g;
	struct game_replay r;
	int i, bad = 0;

	five(&g, true);
	ok_int(game_undo_turn(&g, "bob"), 0, "bob's last turn was answered");
	ok_int(game_ask_undo(&g, "bob", T0 + 10), GAME_NOTHING_TO_UNDO, "bob: nothing to undo");
	ok_int(game_accept(&g, "bob", T0 + 10), GAME_NO_OFFER, "accept: nothing proposed");
	ok_int(game_reject(&g, "alice", T0 + 10), GAME_NO_OFFER, "reject: nothing proposed");
	ok_int(game_ask_undo(&g, "carol", T0 + 10), GAME_NOT_PLAYER, "carol does not play");
	ok_int(game_undo_turn(&g, "alice"), 5, "alice's turn 5 can be taken back");
	ok_int(game_ask_undo(&g, "alice", T0 + 10), GAME_OK, "alice asks");
	ok(game_open_offer(&g) != NULL && game_open_offer(&g)->kind == GAME_NOTE_UNDO, "the undo is open");
	ok_int(game_propose(&g, "bob", T0 + 11), GAME_OFFER_OPEN, "no draw while the undo waits");
	ok_int(game_accept(&g, "alice", T0 + 11), GAME_OWN_OFFER, "alice cannot accept her own");
	ok_int(game_accept(&g, "bob", T0 + 12), GAME_OK, "bob accepts");
	ok_int(g.nturns, 4, "turn 5 is gone");
	ok_int((int)g.npoints, 4, "its two placements too");
	ok_int(g.rg.turn, 5, "turn 5 is next");
	ok_str(game_player_to_move(&g), "alice", "alice plays it again");
	ok(rules_at(&g.rg.board, pt(&g, "E6")) == RULES_EMPTY && rules_at(&g.rg.board, pt(&g, "C9")) == RULES_EMPTY &&
	    rules_at(&g.rg.board, pt(&g, "F5")) == RULES_WHITE, "the captured stone is back");
	ok(g.last_move == T0 + 12, "alice's clock restarts");
	ok_int(g.nnotes, 2, "two notes");
	ok(g.notes[0].after == 4 && g.notes[1].after == 4 && g.notes[1].undo_from == 5, "the notes stand after turn 4");
	ok(game_open_offer(&g) == NULL, "nothing open");
	ok_int(game_verify(&g, &r), GAME_OK, "the history leads to the position %s", r.why);
	ok_int(play(&g, "E6,C9", T0 + 13), GAME_OK, "turn 5 again");
	ok_int(game_verify(&g, &r), GAME_OK, "and still %s", r.why);
	game_release(&g);

	/* a draw offered, lapsing with a turn, offered again, rejected, offered, accepted */
	five(&g, true);
	ok_int(game_propose(&g, "bob", T0 + 10), GAME_OK, "bob proposes");
	ok_int(play(&g, "J5", T0 + 11), GAME_OK, "bob plays: the offer lapses");
	ok(game_open_offer(&g) == NULL, "lapsed");
	ok_int(game_accept(&g, "alice", T0 + 12), GAME_NO_OFFER, "nothing to accept");
	ok_int(game_propose(&g, "alice", T0 + 12), GAME_OK, "alice proposes");
	ok_int(game_reject(&g, "bob", T0 + 13), GAME_OK, "bob rejects");
	ok_int(game_accept(&g, "bob", T0 + 13), GAME_NO_OFFER, "nothing left to accept");
	ok_int(game_propose(&g, "alice", T0 + 14), GAME_OK, "alice proposes again");
	ok_int(game_accept(&g, "bob", T0 + 15), GAME_OK, "bob accepts");
	ok(g.rg.result == RULES_DRAW && g.end == GAME_END_AGREEMENT, "drawn by agreement");
	ok_int(game_verify(&g, &r), GAME_OK, "the history leads to the draw %s", r.why);
	ok_int(game_propose(&g, "alice", T0 + 16), GAME_OVER, "over");
	game_release(&g);

	/* undo of a turn the rules' pass followed: the pass goes with it */
	game_init(&g, 101, 5, false, "alice", "bob", T0);
	for (i = 0; i < NPASS_GAME; i++)
		bad += play(&g, pass_game[i], T0 + i) != GAME_OK;
	ok_int(bad, 0, "the pass game plays");
	ok_int(g.nturns, 25, "alice passed at turn 25");
	ok_int(game_undo_turn(&g, "bob"), 24, "bob may take back turn 24, the pass with it");
	ok_int(game_ask_undo(&g, "bob", T0 + 50), GAME_OK, "bob asks");
	ok_int(game_accept(&g, "alice", T0 + 51), GAME_OK, "alice accepts");
	ok_int(g.nturns, 23, "turns 24 and 25 gone");
	ok_str(game_player_to_move(&g), "bob", "bob plays turn 24 again");
	game_replay(&g, 23, &r);
	ok(same_board(&g.rg.board, &r.rg.board), "the position after turn 23");
	ok_int(game_verify(&g, &r), GAME_OK, "verified %s", r.why);
	game_release(&g);

	/* undo of a swap: the names go back */
	game_init(&g, 101, 11, true, "alice", "bob", T0);
	play(&g, "E5", T0 + 1);
	ok_int(game_swap(&g, "bob", T0 + 2), GAME_OK, "bob swaps");
	ok_str(g.black, "bob", "bob owns black");
	ok_int(game_ask_undo(&g, "bob", T0 + 3), GAME_OK, "bob asks to take the swap back");
	ok_int(game_accept(&g, "alice", T0 + 4), GAME_OK, "accepted");
	ok(strcmp(g.black, "alice") == 0 && strcmp(g.white, "bob") == 0, "the names are back");
	ok(rules_game_can_swap(&g.rg), "bob may swap again");
	game_release(&g);

	/* an edited position: taking back would lose the edit */
	five(&g, true);
	rules_board_setup(&g.rg.board, pt(&g, "A1"), RULES_WHITE);
	ok_int(game_ask_undo(&g, "alice", T0 + 10), GAME_EDITED, "edited: no undo");
	ok_int(g.nnotes, 0, "nothing noted");
	game_release(&g);
}

/* chat: a note that is no turn and no offer (game.h) */
static void test_chat(void)
{
	struct game g;
	struct game_replay r;
	int64_t last;
	int turn, i, bad = 0;

	five(&g, true);
	last = g.last_move;
	turn = g.rg.turn;
	ok_int(game_chat(&g, "carol", T0 + 10), GAME_NOT_PLAYER, "carol does not play: no chat");
	ok_int(g.nnotes, 0, "nothing noted");
	ok_int(game_chat(&g, "Bob", T0 + 10), GAME_OK, "bob chats");
	ok(g.nnotes == 1 && g.notes[0].kind == GAME_NOTE_CHAT && g.notes[0].after == 5 &&
	    g.notes[0].color == RULES_WHITE && strcmp(g.notes[0].player, "bob") == 0 && g.notes[0].time == T0 + 10,
	    "noted after turn 5: bob, white, the time, the name folded");
	ok(g.nturns == 5 && g.rg.turn == turn && g.last_move == last, "no turn: the count and the clock stay");
	ok_str(game_player_to_move(&g), "bob", "bob is still to move");
	ok(game_open_offer(&g) == NULL && game_last_offer_note(&g) == NULL, "a chat is no offer");
	ok_int(game_accept(&g, "alice", T0 + 11), GAME_NO_OFFER, "nothing to accept after a chat");
	ok_int(game_verify(&g, &r), GAME_OK, "the replay reaches the position %s", r.why);

	/* an undo stays open across chats of both, and is accepted after them */
	ok_int(game_ask_undo(&g, "alice", T0 + 12), GAME_OK, "alice asks to take back turn 5");
	ok_int(game_chat(&g, "bob", T0 + 13), GAME_OK, "bob chats");
	ok_int(game_chat(&g, "alice", T0 + 14), GAME_OK, "alice chats");
	ok(game_open_offer(&g) != NULL && game_open_offer(&g)->kind == GAME_NOTE_UNDO, "the undo is still open");
	ok_int(game_propose(&g, "bob", T0 + 15), GAME_OFFER_OPEN, "no draw while it waits");
	ok_int(game_accept(&g, "alice", T0 + 15), GAME_OWN_OFFER, "alice cannot accept her own");
	ok_int(game_accept(&g, "bob", T0 + 16), GAME_OK, "bob accepts it");
	ok(g.nturns == 4 && g.nnotes == 5, "turn 5 taken back, five notes");
	ok(g.notes[0].after == 4 && g.notes[3].kind == GAME_NOTE_CHAT && g.notes[4].undo_from == 5,
	    "the notes of turn 5 stand after turn 4");
	ok_int(game_verify(&g, &r), GAME_OK, "the replay reaches the position %s", r.why);
	game_release(&g);

	/* a draw offer stays open across a chat; a chat follows the agreed draw */
	five(&g, true);
	ok_int(game_propose(&g, "alice", T0 + 10), GAME_OK, "alice proposes");
	ok_int(game_chat(&g, "bob", T0 + 11), GAME_OK, "bob chats");
	ok_int(game_reject(&g, "alice", T0 + 12), GAME_OWN_OFFER, "still alice's own offer");
	ok_int(game_accept(&g, "bob", T0 + 12), GAME_OK, "bob accepts it");
	ok(g.rg.result == RULES_DRAW && g.end == GAME_END_AGREEMENT, "drawn by agreement");
	ok_int(game_chat(&g, "alice", T0 + 13), GAME_OK, "alice chats after the end");
	ok(game_last_offer_note(&g) != NULL && game_last_offer_note(&g)->kind == GAME_NOTE_ACCEPT,
	    "the last offer note is still the accept");
	ok_int(game_verify(&g, &r), GAME_OK, "verified %s", r.why);
	game_release(&g);

	/* the cap: GAME_CHATS_MAX chats, then no more; the other notes are not counted */
	five(&g, true);
	ok_int(game_propose(&g, "bob", T0 + 9), GAME_OK, "bob proposes");
	for (i = 0; i < GAME_CHATS_MAX; i++)
		bad += game_chat(&g, i % 2 ? "alice" : "bob", T0 + 10 + i) != GAME_OK;
	ok_int(bad, 0, "%d chats noted", GAME_CHATS_MAX);
	ok_int(game_chat(&g, "alice", T0 + 5000), GAME_CHATS_FULL, "one more is refused");
	ok_int(g.nnotes, GAME_CHATS_MAX + 1, "and not noted");
	ok_int(game_accept(&g, "alice", T0 + 5001), GAME_OK, "the offer is still open under them");
	ok_int(game_chat(&g, "bob", T0 + 5002), GAME_CHATS_FULL, "still full after the game");
	game_release(&g);

	/* a turn after a chat lets an offer lapse as ever */
	five(&g, true);
	ok_int(game_propose(&g, "bob", T0 + 10), GAME_OK, "bob proposes");
	ok_int(game_chat(&g, "alice", T0 + 11), GAME_OK, "alice chats");
	ok_int(play(&g, "J5", T0 + 12), GAME_OK, "bob plays");
	ok(game_open_offer(&g) == NULL, "the offer lapsed");
	ok_int(g.rg.turn, 7, "turn 7 next: the chat counted no turn");
	game_release(&g);
}

static void test_names(void)
{
	int s, t, bad = 0, same = 0;

	/* the game layer's one status (game_status.h): every value its own words */
	for (s = GAME_OK; s <= GAME_INTERNAL; s++) {
		bad += strcmp(game_status_str((enum game_status)s), "unknown game status") == 0;
		for (t = GAME_OK; t < s; t++)
			same += strcmp(game_status_str((enum game_status)s), game_status_str((enum game_status)t)) == 0;
	}
	ok_int(bad, 0, "every status has a text");
	ok_int(same, 0, "no two statuses share a text");
	ok_str(game_status_str((enum game_status)(GAME_INTERNAL + 1)), "unknown game status", "past the last: unknown");
	ok_str(game_status_str(GAME_NO_MEMORY), "out of memory", "out of memory");
	ok_str(game_status_str(GAME_INTERNAL), "internal error in the computer player", "the AI's failure");
	ok_str(game_status_str(GAME_NOT_YOUR_TURN), "not your turn", "not your turn");
	ok_str(game_action_str(GAME_SWAP), "swap", "swap");
	ok_str(game_action_str(GAME_TIMEOUT), "timeout", "timeout");
	ok_str(game_end_str(GAME_END_NO_PLACEMENTS), "no-placements", "no-placements");
	ok_str(game_end_str(GAME_END_CAPTURE), "capture", "capture");
}

/* The time limit: last move plus the days, none without days or once over, never past GAME_TIME_MAX. */
static void test_time_limit(void)
{
	struct game g;

	ok(game_time_add(T0, 3600) == T0 + 3600, "a time plus an hour");
	ok(game_time_add(GAME_TIME_MAX - 10, 3600) == GAME_TIME_MAX, "a time past 9999 stops at GAME_TIME_MAX");
	ok(game_time_add(GAME_TIME_MAX, 0) == GAME_TIME_MAX, "GAME_TIME_MAX plus nothing");
	game_init(&g, 101, 11, true, "alice", "bob", T0);
	g.last_move = T0;
	ok(game_timeout_at(&g, 0) == 0, "no limit without days");
	ok(game_timeout_at(&g, 14) == T0 + 14 * (int64_t)GAME_DAY, "the default days after the last move");
	g.timeout_days = 3;
	ok(game_timeout_at(&g, 14) == T0 + 3 * (int64_t)GAME_DAY, "the board's own days first");
	g.last_move = GAME_TIME_MAX - GAME_DAY;
	ok(game_timeout_at(&g, 14) == GAME_TIME_MAX, "a deadline past 9999 is GAME_TIME_MAX");
	ok_int(game_resign(&g, "alice", T0 + 60), GAME_OK, "alice resigns");
	ok(game_timeout_at(&g, 14) == 0, "no limit once the game is over");
	game_release(&g);
}

int main(void)
{
	test_init();
	test_wrong_player();
	test_illegal();
	test_swap();
	test_resign_timeout();
	test_passes();
	test_draw();
	test_replay();
	test_replay_bad();
	test_verify();
	test_undo_draw();
	test_chat();
	test_names();
	test_time_limit();
	return t_done();
}
