/*
 * preview tests, written as ASCII positions (top row first, X black, O
 * white, '.' empty; spaces and '/' ignored), from doc/rules.md's edge
 * cases: a turn tried placement by placement, where it stops and why, the
 * legal placements there, and the position given left as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "game/preview.h"
#include "t.h"
#include "t_board.h"

static struct rules_game G, Copy;

/* G: the position of rows (top row first) on a size x size board, to_move to place. */
static void setup(int size, const char *rows, enum rules_color to_move)
{
	struct rules_board b;

	t_board_rows(&b, size, rows);
	rules_game_start(&G, &b, to_move, 5, false, NULL);
	Copy = G;
}

/* Try "B3,E5" (names joined by commas) on G. */
static enum game_status try(const char *names, struct preview *p)
{
	int points[32], n = 0;
	const char *s = names, *e;

	while (*s != '\0') {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		points[n++] = rules_parse_point(&G.board, s, (int)(e - s));
		s = *e == ',' ? e + 1 : e;
	}
	return preview_turn(&G, points, n, "alice", "bob", p);
}

static bool unchanged(void)
{
	return memcmp(G.board.color, Copy.board.color, (size_t)G.board.ncells) == 0 && G.to_move == Copy.to_move &&
	    G.placed == Copy.placed && G.result == Copy.result;
}

/* Does the legal list hold the placement called name, capturing captured? */
static bool lists(const struct preview_option *o, int n, const char *name, int captured)
{
	int p = rules_parse_point(&G.board, name, (int)strlen(name)), i;

	for (i = 0; i < n; i++)
		if (o[i].point == p)
			return o[i].captured == captured;
	return false;
}

/* Edge case 2: ..... / ..... / X.XO. / ..... / OO... */
static void test_edge_case_2(void)
{
	struct preview p;
	struct preview_option *o;
	int n, i;

	setup(5, "..... / ..... / X.XO. / ..... / OO...", RULES_BLACK);
	ok_int(try("B3,E5", &p), GAME_OK, "B3,E5 tried");
	ok_int(p.outcome, PREVIEW_COMPLETE, "B3,E5: complete");
	ok_int(p.nsteps, 2, "... two placements");
	ok(p.steps[0].captured == 1 && p.steps[0].ntaken == 1 && p.steps[0].drawing[0] != '\0',
	    "... B3 captures D3, drawn after it");
	ok(p.steps[1].captured == 0 && p.steps[1].drawing[0] != '\0', "... E5 does not, the end drawn");
	ok(strstr(p.steps[1].drawing, " 5  . . . . X   5") != NULL, "... E5 upper case, placed this turn");
	ok_int(p.legal_color, RULES_WHITE, "... the legal placements after it are White's");
	ok(p.nlegal > 0 && lists(p.legal, p.nlegal, "C2", 0), "... C2 among them");
	ok(unchanged(), "... the position given unchanged");
	preview_release(&p);

	ok_int(try("B3,D3", &p), GAME_OK, "B3,D3 tried");
	ok_int(p.outcome, PREVIEW_ILLEGAL, "B3,D3: illegal");
	ok(p.nsteps == 2 && p.why == PREVIEW_RULES && p.steps[1].check.verdict == RULES_NO_ENEMY,
	    "... at D3: the new group touches no enemy");
	ok_int(p.legal_color, RULES_BLACK, "... the legal placements where it stops are Black's");
	ok(lists(p.legal, p.nlegal, "A2", 2) && lists(p.legal, p.nlegal, "E5", 0) && !lists(p.legal, p.nlegal, "D3", 0),
	    "... A2 takes 2, E5 is there, D3 is not");
	preview_release(&p);

	ok_int(try("B3", &p), GAME_OK, "B3 tried");
	ok_int(p.outcome, PREVIEW_UNFINISHED, "B3 alone: unfinished (a capture, placements left)");
	ok(p.steps[0].drawing[0] != '\0', "... the board after it drawn");
	preview_release(&p);

	ok_int(try("B3,A2", &p), GAME_OK, "B3,A2 tried");
	ok(p.outcome == PREVIEW_COMPLETE && p.last.result == RULES_BLACK_WINS && p.captured == 3,
	    "B3,A2: complete, Black wins, 3 stones taken");
	ok_int(p.nlegal, 0, "... nobody places after a win");
	preview_release(&p);

	ok_int(try("E5,E4", &p), GAME_OK, "E5,E4 tried");
	ok(p.outcome == PREVIEW_ILLEGAL && p.why == PREVIEW_AFTER_END && p.nsteps == 2,
	    "E5,E4: E4 comes after the turn ended");
	preview_release(&p);

	ok_int(try("B3,F5", &p), GAME_OK, "B3,F5 tried");
	ok(p.outcome == PREVIEW_ILLEGAL && p.why == PREVIEW_OFF_BOARD && p.steps[1].point == RULES_NO_POINT,
	    "B3,F5: F5 is off the 5x5 board");
	preview_release(&p);

	ok_int(preview_options(&G, &o, &n), GAME_OK, "the options of the position");
	ok(lists(o, n, "B3", 1) && lists(o, n, "E1", 0) && !lists(o, n, "A2", 0) && !lists(o, n, "A2", 2),
	    "B3 takes 1; E1 does not; A2 (2 against 2) is not legal");
	for (i = 1; i < n; i++)
		if (rules_x(&G.board, o[i].point) < rules_x(&G.board, o[i - 1].point))
			break;
	ok(i == n, "... by column");
	ok(unchanged(), "... the position unchanged");
	free(o);
}

/* Edge case 1 (second form): B3 would make 3 against a group of 3: illegal, not larger. */
static void test_not_larger(void)
{
	struct preview p;

	setup(5, "..... / OOO.. / X.X.. / O.... / .....", RULES_BLACK);
	ok_int(try("B3", &p), GAME_OK, "B3 tried");
	ok(p.outcome == PREVIEW_ILLEGAL && p.steps[0].check.verdict == RULES_NOT_LARGER &&
	    p.steps[0].check.new_group == 3 && p.steps[0].check.largest_enemy == 3, "B3: 3 is not larger than 3");
	preview_release(&p);
}

/* Edge case 5, mid-turn dead end: E1 captures C1 and White has nothing left: complete. */
static void test_dead_end(void)
{
	struct preview p;

	setup(7, "O.O.O.O / .OO..XX / .O.O.X. / O.O...O / ..OOO.. / ..OOOOO / O.X..O.", RULES_WHITE);
	ok_int(try("E1", &p), GAME_OK, "E1 tried");
	ok(p.outcome == PREVIEW_COMPLETE && p.last.dead_end && p.captured == 1, "E1: a dead end, complete");
	ok_int(p.legal_color, RULES_BLACK, "... Black places next");
	preview_release(&p);
}

int main(void)
{
	test_edge_case_2();
	test_not_larger();
	test_dead_end();
	return t_done();
}
