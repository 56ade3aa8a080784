/* test_board: the ASCII board, golden against seed 003 Figure 7. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/board.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "t.h"
#include "t_home.h"

static void test_figure7(void)
{
	struct gamefile_error err;
	struct game g;
	char out[BOARD_TEXT_MAX];
	char *file, *want;
	size_t flen = 0, wlen = 0, n;

	file = t_slurp(t_data("figure7.game"), &flen);
	want = t_slurp(t_data("figure7.txt"), &wlen);
	ok(file != NULL && want != NULL, "figure 7 data files read");
	if (file == NULL || want == NULL)
		goto out;
	ok_int(gamefile_parse(file, flen, &g, &err), GAME_OK, "figure7.game parses: %s",
	    err.msg);
	n = board_render_game(&g, out);
	ok_int(n, strlen(out), "render returns the length");
	ok_str(out, want, "figure 7 rendered byte for byte");
	ok_int(g.rg.board.stones[RULES_BLACK], 46, "46 black stones");
	ok_int(rules_largest_group(&g.rg.board, RULES_WHITE), 20, "white's largest group 20");
	game_release(&g);
out:
	free(file);
	free(want);
}

static int count_stars(int size)
{
	int x, y, n = 0;

	for (y = 0; y < size; y++)
		for (x = 0; x < size; x++)
			n += board_is_star(size, x, y);
	return n;
}

static void test_stars(void)
{
	ok_int(count_stars(5), 1, "5x5: one star point");
	ok(board_is_star(5, 2, 2), "5x5: the centre C3");
	ok_int(count_stars(7), 5, "7x7: five star points");
	ok(board_is_star(7, 2, 2) && board_is_star(7, 4, 4) && board_is_star(7, 3, 3) &&
	    board_is_star(7, 2, 4) && board_is_star(7, 4, 2), "7x7: C3 E3 C5 E5 D4");
	ok_int(count_stars(9), 5, "9x9: five star points");
	ok(board_is_star(9, 2, 6) && board_is_star(9, 6, 2) && board_is_star(9, 4, 4),
	    "9x9: C7 G3 E5");
	ok_int(count_stars(11), 5, "11x11: five star points");
	ok(board_is_star(11, 2, 8) && board_is_star(11, 8, 8) && board_is_star(11, 5, 5) &&
	    !board_is_star(11, 5, 2), "11x11: C9 J9 F6, not F3");
	ok_int(count_stars(13), 9, "13x13: nine star points");
	ok(board_is_star(13, 3, 3) && board_is_star(13, 6, 3) && board_is_star(13, 9, 9) &&
	    board_is_star(13, 3, 6) && !board_is_star(13, 2, 2), "13x13: D4 G4 K10 D7, not C3");
	ok_int(count_stars(19), 9, "19x19: nine star points");
	ok(board_is_star(19, 3, 9) && board_is_star(19, 15, 15) && board_is_star(19, 9, 15),
	    "19x19: D10 Q16 K16");
	ok_int(count_stars(25), 9, "25x25: nine star points");
	ok(board_is_star(25, 21, 12) && board_is_star(25, 12, 21), "25x25: W13 N22");
}

static void test_small(void)
{
	struct rules_board b;
	char out[BOARD_TEXT_MAX];
	int last[2];

	rules_board_init(&b, 5);
	board_render(&b, "alice", "bob", NULL, 0, out);
	ok_str(out,
	    "x: alice 0/0   o: bob 0/0\n"
	    "\n"
	    "    A B C D E\n"
	    " 5  . . . . .   5\n"
	    " 4  . . . . .   4\n"
	    " 3  . . , . .   3\n"
	    " 2  . . . . .   2\n"
	    " 1  . . . . .   1\n"
	    "    A B C D E\n", "empty 5x5 board");

	rules_board_setup(&b, rules_parse_point(&b, "A1", 2), RULES_BLACK);
	rules_board_setup(&b, rules_parse_point(&b, "B1", 2), RULES_BLACK);
	rules_board_setup(&b, rules_parse_point(&b, "C3", 2), RULES_WHITE);
	rules_board_setup(&b, rules_parse_point(&b, "E5", 2), RULES_WHITE);
	last[0] = rules_parse_point(&b, "E5", 2);
	last[1] = rules_parse_point(&b, "B1", 2);
	board_render(&b, "alice", "bob", last, 2, out);
	ok_str(out,
	    "x: alice 2/2   o: bob 1/2\n"
	    "\n"
	    "    A B C D E\n"
	    " 5  . . . . O   5\n"
	    " 4  . . . . .   4\n"
	    " 3  . . o . .   3\n"
	    " 2  . . . . .   2\n"
	    " 1  x X . . .   1\n"
	    "    A B C D E\n", "stones, counts and upper-case marks of both colours");
}

static void test_biggest(void)
{
	struct rules_board b;
	char out[BOARD_TEXT_MAX];
	char name1[IDENT_USERID_MAX + 1], name2[IDENT_USERID_MAX + 1];
	int x, y, trailing = 0;
	size_t n;
	const char *s;

	memset(name1, 'a', IDENT_USERID_MAX);
	memset(name2, 'b', IDENT_USERID_MAX);
	name1[IDENT_USERID_MAX] = name2[IDENT_USERID_MAX] = '\0';
	rules_board_init(&b, 25);
	for (y = 0; y < 25; y++)
		for (x = 0; x < 25; x++)
			rules_board_setup(&b, rules_point(&b, x, y),
			    (x + y) % 2 ? RULES_WHITE : RULES_BLACK);
	n = board_render(&b, name1, name2, NULL, 0, out);
	ok(n < BOARD_TEXT_MAX, "a full 25x25 board with the longest names fits (%zu bytes)", n);
	ok(strstr(out, "x: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1/313   o: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb 1/312\n")
	    == out, "25x25 players line");
	ok(strstr(out, "\n    A B C D E F G H J K L M N O P Q R S T U V W X Y Z\n") != NULL,
	    "25x25 column letters skip I and end with Z");
	ok(strstr(out, "\n25  x o x o") != NULL && strstr(out, "x o x  25\n") != NULL,
	    "row 25 drawn with its number on both sides");
	for (s = out; *s != '\0'; s++)
		trailing += s[0] == ' ' && s[1] == '\n';
	ok_int(trailing, 0, "no trailing spaces");
}

/* "show 101#N": the position after a turn, with the names of that time. */
static void test_turn(void)
{
	struct game g;
	char out[BOARD_TEXT_MAX];
	int p;

	game_init(&g, 101, 5, true, "alice", "bob", 0);
	p = rules_parse_point(&g.rg.board, "B2", 2);
	game_move(&g, "alice", &p, 1, 1, NULL);
	game_swap(&g, "bob", 2);
	p = rules_parse_point(&g.rg.board, "D4", 2);
	game_move(&g, "alice", &p, 1, 3, NULL);
	ok_int(board_render_turn(&g, 1, out), GAME_OK, "turn 1");
	ok_str(out,
	    "x: alice 1/1   o: bob 0/0\n"
	    "\n"
	    "    A B C D E\n"
	    " 5  . . . . .   5\n"
	    " 4  . . . . .   4\n"
	    " 3  . . , . .   3\n"
	    " 2  . X . . .   2\n"
	    " 1  . . . . .   1\n"
	    "    A B C D E\n", "after turn 1: alice was black, B2 marked");
	ok_int(board_render_turn(&g, 2, out), GAME_OK, "turn 2");
	ok(strncmp(out, "x: bob 1/1   o: alice 0/0\n", 26) == 0 && strchr(out, 'X') == NULL,
	    "after the swap bob is black, nothing marked");
	ok_int(board_render_turn(&g, 3, out), GAME_OK, "turn 3");
	ok(strstr(out, " 4  . . . O .   4\n") != NULL, "after turn 3: D4 marked");
	board_render_game(&g, out);
	ok(strstr(out, " 4  . . . O .   4\n") != NULL, "the current board is the same");
	ok_int(board_render_turn(&g, 4, out), GAME_BAD_TURN_NUMBER, "no turn 4");
	ok_str(out, "", "nothing drawn");
	game_release(&g);
}

int main(void)
{
	test_figure7();
	test_turn();
	test_stars();
	test_small();
	test_biggest();
	return t_done();
}
