/*
 * test_engine: the GTP engine driven through memory streams: every command
 * and error, a capture turn placed with two plays, the edge cases of
 * doc/rules.md from small game files (tests/data/engine/), and Figure 7
 * loaded from its game file and shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/version.h"
#include "game/engine.h"
#include "t.h"
#include "t_home.h"

/* Run the engine on len bytes of input; returns its output (the caller frees it). */
static char *run_n(const char *input, size_t len, enum game_status *st)
{
	FILE *in = fmemopen((void *)input, len, "r");
	char *out = NULL;
	size_t olen = 0;
	FILE *o = open_memstream(&out, &olen);
	enum game_status s;

	if (len == 0) { /* fmemopen wants a size; an empty file does the same */
		fclose(in);
		in = fopen("/dev/null", "r");
	}
	s = engine_run(in, o);
	if (st != NULL)
		*st = s;
	fclose(in);
	fclose(o);
	return out;
}

static char *run(const char *input)
{
	return run_n(input, strlen(input), NULL);
}

/* Check the whole output of a script. */
#define ok_run(input, want, ...) do { \
	char *t_o_ = run(input); \
	ok_str(t_o_, want, __VA_ARGS__); \
	free(t_o_); \
} while (0)

/* The script "loadgame tests/data/engine/<name>\n" followed by more. */
static char *with_game(const char *name, const char *more)
{
	char *s = NULL;
	char file[256];

	snprintf(file, sizeof(file), "engine/%s", name);
	if (asprintf(&s, "loadgame %s\n%s", t_data(file), more) < 0)
		abort();
	return s;
}

#define ok_game(name, more, want, ...) do { \
	char *t_i_ = with_game(name, more); \
	ok_run(t_i_, want, __VA_ARGS__); \
	free(t_i_); \
} while (0)

static void test_basics(void)
{
	enum game_status st;
	char *o;

	ok_run("protocol_version\n", "= 2\n\n", "protocol_version");
	ok_run("name\n", "= oustpbm\n\n", "name");
	ok_run("version\n", "= " OUSTPBM_VERSION "\n\n", "version");
	ok_run("12 name\n", "=12 oustpbm\n\n", "an id comes back");
	ok_run("  7   version  \n", "=7 " OUSTPBM_VERSION "\n\n", "spaces around the id and words");
	ok_run("known_command play\nknown_command gogui-rules_board\nknown_command foo\n",
	    "= true\n\n= true\n\n= false\n\n", "known_command");
	ok_run("42 known_command\n", "?42 syntax error: usage: known_command <command>\n\n",
	    "known_command without its argument");
	ok_run("list_commands\n",
	    "= protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nboardsize\n"
	    "oustpbm-board\nclear_board\nplay\ngenmove\noustpbm-search\ntime_settings\ntime_left\nshowboard\nloadgame\ngogui-analyze_commands\n"
	    "gogui-rules_game_id\ngogui-rules_board_size\ngogui-rules_side_to_move\n"
	    "gogui-rules_legal_moves\ngogui-rules_board\ngogui-rules_final_result\n\n",
	    "list_commands");
	o = run("list_commands\n");
	{
		/* every listed command is known */
		char *line, *save = NULL, *copy = strdup(o + 2);
		int all = 1, n = 0;
		char q[128];

		for (line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
			char *r;

			snprintf(q, sizeof(q), "known_command %s\n", line);
			r = run(q);
			all &= strcmp(r, "= true\n\n") == 0;
			free(r);
			n++;
		}
		ok(all && n == 23, "all %d listed commands are known", n);
		free(copy);
	}
	free(o);
	ok_run("quit\nname\n", "= \n\n", "quit answers and stops reading");
	ok_run("5 quit\n", "=5 \n\n", "quit with an id");
	ok_run("quit now\n", "? syntax error: usage: quit\n\n", "quit with an argument is refused");
	ok_run("name extra\n", "? syntax error: usage: name\n\n", "an extra argument is refused");
	ok_run("play b a1 a2 a3 a4 a5 a6 a7 a8 a9 a10\n",
	    "? syntax error: usage: play <color> <vertex>\n\n", "many arguments are refused");
	ok_run("frobnicate\n", "? unknown command 'frobnicate'\n\n", "unknown command");
	ok_run("Name\n", "? unknown command 'Name'\n\n", "commands are case-sensitive");
	ok_run("frobnicate_the_board_until_it_is_very_much_frobnicated\n",
	    "? unknown command 'frobnicate_the_board_until_it_is_very_mu...'\n\n",
	    "a long culprit is cut");
	ok_run("9\n", "?9 no command after the id\n\n", "an id alone");
	ok_run("9 # just a comment\n", "?9 no command after the id\n\n", "an id and a comment");

	/* preprocessing, GTP 2 section 3.1 */
	ok_run("\n\n   \n# a comment\nname # trailing comment\n", "= oustpbm\n\n",
	    "empty, blank and comment lines are ignored");
	ok_run("name\r\n", "= oustpbm\n\n", "CR is removed");
	ok_run("\tknown_command\tname\t\n", "= true\n\n", "tabs are spaces");
	ok_run("na\x01me\x7f\n", "= oustpbm\n\n", "control characters are removed");
	{
		static const char in[] = "na\0me\n";

		o = run_n(in, sizeof(in) - 1, &st);
		ok_str(o, "= oustpbm\n\n", "a NUL byte is removed");
		free(o);
	}
	ok_run("name", "= oustpbm\n\n", "a last line without a newline is read");
	o = run_n("", 0, &st);
	ok(o != NULL && o[0] == '\0' && st == GAME_OK, "empty input: no output, GAME_OK");
	free(o);

	/* bounded lines */
	{
		size_t n = ENGINE_LINE_MAX + 100, i;
		char *in = malloc(n + 64), want[128];

		memcpy(in, "8 name ", 7);
		for (i = 7; i < n; i++)
			in[i] = 'x';
		memcpy(in + n, "\nname\n", 7);
		snprintf(want, sizeof(want), "?8 line longer than %d bytes\n\n= oustpbm\n\n",
		    ENGINE_LINE_MAX);
		o = run(in);
		ok_str(o, want, "a long line is refused with its id, and the next one read");
		free(o);
		for (i = 0; i < n; i++)
			in[i] = '9';
		memcpy(in + n, "\nname\n", 7);
		snprintf(want, sizeof(want), "? line longer than %d bytes\n\n= oustpbm\n\n",
		    ENGINE_LINE_MAX);
		o = run(in);
		ok_str(o, want, "a long line of digits: no id");
		free(o);
		/* exactly the cap is fine; a long comment does not count */
		memset(in, ' ', ENGINE_LINE_MAX);
		memcpy(in + ENGINE_LINE_MAX - 4, "name", 4);
		memcpy(in + ENGINE_LINE_MAX, "\n", 2);
		o = run(in);
		ok_str(o, "= oustpbm\n\n", "a line of exactly %d bytes", ENGINE_LINE_MAX);
		free(o);
		memcpy(in, "name #", 6);
		memset(in + 6, 'c', n - 6);
		memcpy(in + n, "\n", 2);
		o = run(in);
		ok_str(o, "= oustpbm\n\n", "a long comment is dropped, not counted");
		free(o);
		free(in);
	}

	/* I/O errors */
	{
		FILE *in = fmemopen("name\n", 5, "r"), *out = fopen("/dev/full", "w");

		ok(in != NULL && out != NULL && engine_run(in, out) == GAME_IO,
		    "a failing write gives GAME_IO");
		if (in != NULL)
			fclose(in);
		if (out != NULL)
			fclose(out);
		in = fopen(t_data("engine"), "r"); /* a directory: reading fails */
		o = NULL;
		{
			size_t olen;
			FILE *mo = open_memstream(&o, &olen);

			ok(in != NULL && engine_run(in, mo) == GAME_IO,
			    "a failing read gives GAME_IO");
			fclose(mo);
		}
		if (in != NULL)
			fclose(in);
		free(o);
	}
}

static void test_board_setup(void)
{
	ok_run("gogui-rules_game_id\n", "= Oust\n\n", "game id");
	ok_run("gogui-rules_board_size\n", "= 11\n\n", "the default size is 11");
	ok_run("boardsize 5\ngogui-rules_board_size\n", "= \n\n= 5\n\n", "boardsize 5");
	ok_run("boardsize 25\ngogui-rules_board_size\n", "= \n\n= 25\n\n", "boardsize 25");
	ok_run("boardsize 4\nboardsize 6\nboardsize 27\nboardsize 3\nboardsize 0\n"
	    "boardsize 99999999999999999999\ngogui-rules_board_size\n",
	    "? unacceptable size\n\n? unacceptable size\n\n? unacceptable size\n\n"
	    "? unacceptable size\n\n? unacceptable size\n\n? unacceptable size\n\n= 11\n\n",
	    "even, small and large sizes are refused and change nothing");
	ok_run("boardsize five\nboardsize -5\nboardsize\n",
	    "? syntax error: board size 'five' is not a number\n\n"
	    "? syntax error: board size '-5' is not a number\n\n"
	    "? syntax error: usage: boardsize <size>\n\n", "boardsize syntax errors");
	ok_run("boardsize 5\nplay b c3\nboardsize 7\ngogui-rules_board\n",
	    "= \n\n= \n\n= \n\n= \n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n"
	    ". . . . . . .\n. . . . . . .\n. . . . . . .\n\n", "boardsize clears the board");
	ok_run("boardsize 5\nplay b c3\nplay w d3\nclear_board\ngogui-rules_board\n"
	    "gogui-rules_side_to_move\ngogui-rules_board_size\n",
	    "= \n\n= \n\n= \n\n= \n\n= \n. . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n\n"
	    "= black\n\n= 5\n\n", "clear_board keeps the size, Black to move");
	ok_run("boardsize 5\nplay b a5\nplay w e1\nplay b b4\ngogui-rules_board\n",
	    "= \n\n= \n\n= \n\n= \n\n= \nX . . . .\n. X . . .\n. . . . .\n. . . . .\n. . . . O\n\n",
	    "gogui-rules_board: top row first, X O .");
	ok_run("boardsize 5\nplay b c3\nshowboard\n",
	    "= \n\n= \n\n= \nx: black 1/1   o: white 0/0\n    A B C D E\n"
	    " 5  . . . . .   5\n 4  . . . . .   4\n 3  . . X . .   3\n 2  . . . . .   2\n"
	    " 1  . . . . .   1\n    A B C D E\n\n", "showboard: the last turn upper case");
	ok_run("boardsize 5\nplay b c3\nplay w b2\nplay b d4\nshowboard\n",
	    "= \n\n= \n\n= \n\n= \n\n= \nx: black 1/2   o: white 1/1\n    A B C D E\n"
	    " 5  . . . . .   5\n 4  . . . X .   4\n 3  . . x . .   3\n 2  . o . . .   2\n"
	    " 1  . . . . .   1\n    A B C D E\n\n", "showboard: only the last turn upper case");
	ok_run("gogui-analyze_commands\n",
	    "= string/Game Id/gogui-rules_game_id\nstring/Board Size/gogui-rules_board_size\n"
	    "string/Side to Move/gogui-rules_side_to_move\n"
	    "plist/Legal Moves/gogui-rules_legal_moves\nstring/Rules Board/gogui-rules_board\n"
	    "string/Final Result/gogui-rules_final_result\nstring/Show Board/showboard\n\n",
	    "gogui-analyze_commands");
}

static void test_play(void)
{
	char *o;

	ok_run("boardsize 5\ngogui-rules_legal_moves\n",
	    "= \n\n= A1 A2 A3 A4 A5 B1 B2 B3 B4 B5 C1 C2 C3 C4 C5 D1 D2 D3 D4 D5 E1 E2 E3 E4 E5\n\n",
	    "legal moves on an empty board, sorted by column then row");
	o = run("gogui-rules_legal_moves\n");
	ok(strncmp(o, "= A1 A2 A3 A4 A5 A6 A7 A8 A9 A10 A11 B1 B2 ", 43) == 0 &&
	    strlen(o) == 2 + 11 * (9 * 2 + 2 * 3) + 120 + 2, "11x11: rows sort as numbers, 121 vertices");
	free(o);
	o = run("boardsize 25\nplay b z25\nplay w a1\ngogui-rules_legal_moves\n");
	ok(strncmp(o, "= \n\n= \n\n= \n\n= A2 A3 ", 20) == 0 &&
	    strcmp(o + strlen(o) - 10, " Z22 Z23\n\n") == 0,
	    "25x25: A1 and Z25 taken, Z24 would join Z25 with no enemy");
	free(o);
	ok_run("boardsize 5\nplay B c3\nplay White D3\nplay black e5\nplay W A1\nplay bLaCk b2\n"
	    "gogui-rules_board\n",
	    "= \n\n= \n\n= \n\n= \n\n= \n\n= \n\n= \n. . . . X\n. . . . .\n. . X O .\n. X . . .\n"
	    "O . . . .\n\n", "colours b, B, black, White, W, bLaCk; vertices in either case");
	ok_run("play red c3\nplay bl c3\ngenmove x\n",
	    "? invalid color 'red' (b, black, w or white)\n\n"
	    "? invalid color 'bl' (b, black, w or white)\n\n"
	    "? invalid color 'x' (b, black, w or white)\n\n", "invalid colours");
	ok_run("boardsize 5\nplay b i3\nplay b 3c\nplay b c0\nplay b c03\nplay b cc\nplay b c\n"
	    "play b c3333\n",
	    "= \n\n? invalid vertex 'i3'\n\n? invalid vertex '3c'\n\n? invalid vertex 'c0'\n\n"
	    "? invalid vertex 'c03'\n\n? invalid vertex 'cc'\n\n? invalid vertex 'c'\n\n"
	    "? invalid vertex 'c3333'\n\n", "invalid vertices");
	ok_run("boardsize 5\nplay b f3\nplay b c6\nplay b z25\nplay b Z99\n",
	    "= \n\n? illegal move: F3 is not on the 5x5 board\n\n"
	    "? illegal move: C6 is not on the 5x5 board\n\n"
	    "? illegal move: Z25 is not on the 5x5 board\n\n"
	    "? illegal move: Z99 is not on the 5x5 board\n\n", "vertices off the board");
	ok_run("play b pass\nplay w PASS\n",
	    "? illegal move: passes are automatic\n\n? illegal move: passes are automatic\n\n",
	    "passes are refused");
	ok_run("boardsize 5\nplay b c3\nplay w c3\nplay w d3\nplay w d4\ngogui-rules_board\n",
	    "= \n\n= \n\n? illegal move: C3 is occupied\n\n= \n\n"
	    "? illegal move: it is black's turn\n\n"
	    "= \n. . . . .\n. . . . .\n. . X O .\n. . . . .\n. . . . .\n\n",
	    "occupied and not-your-turn placements change nothing");
	ok_run("boardsize 5\nplay w c3\n", "= \n\n? illegal move: it is black's turn\n\n",
	    "White cannot open");
	ok_run("boardsize 5\nplay b c3\nplay w a1\nplay b c4\nshowboard\n",
	    "= \n\n= \n\n= \n\n? illegal move: C4 would form a group of 2 that touches no enemy "
	    "group\n\n= \nx: black 1/1   o: white 1/1\n    A B C D E\n"
	    " 5  . . . . .   5\n 4  . . . . .   4\n 3  . . x . .   3\n 2  . . . . .   2\n"
	    " 1  O . . . .   1\n    A B C D E\n\n",
	    "a group touching no enemy is illegal, and changes nothing");
}

/* The edge cases of doc/rules.md, from game files. */
static void test_edge_cases(void)
{
	ok_game("edge1.game", "play b b3\ngogui-rules_final_result\ngogui-rules_legal_moves\n"
	    "genmove b\ngenmove w\nplay w a1\nplay b a1\ngogui-rules_board\n",
	    "= \n\n= \n\n= B+\n\n= \n\n? game is over\n\n? game is over\n\n"
	    "? illegal move: the game is over\n\n? illegal move: the game is over\n\n"
	    "= \n. . . . .\n. . . . .\nX X X . .\n. . . . .\n. . . . .\n\n",
	    "edge case 1: B3 joins 3 against 2 and 1, removes every white stone and wins");
	ok_game("edge1-equal.game", "play b b3\ngogui-rules_side_to_move\n",
	    "= \n\n? illegal move: B3 would form a group of 3, not larger than the enemy group of "
	    "3 it touches\n\n= black\n\n", "edge case 1: 3 against 3 is illegal");
	ok_game("edge2.game", "play b b3\ngogui-rules_side_to_move\ngogui-rules_legal_moves\n"
	    "play w e5\nplay b d3\nplay b e5\ngogui-rules_side_to_move\nshowboard\n"
	    "gogui-rules_final_result\n",
	    "= \n\n= \n\n= black\n\n"
	    "= A2 A5 B2 B5 C1 C5 D1 D2 D4 D5 E1 E2 E3 E4 E5\n\n"
	    "? illegal move: it is black's turn (black places again after a capture)\n\n"
	    "? illegal move: D3 would form a group of 4 that touches no enemy group\n\n"
	    "= \n\n= white\n\n"
	    "= \nx: alice 3/4   o: bob 2/2\n    A B C D E\n 5  . . . . X   5\n"
	    " 4  . . . . .   4\n 3  x X x . .   3\n 2  . . . . .   2\n 1  o o . . .   1\n"
	    "    A B C D E\n\n= unknown\n\n",
	    "edge case 2: B3 captures D3 and Black places again; B3,E5 is one turn");
	ok_game("edge2.game", "play b b3\nplay b a2\ngogui-rules_final_result\n",
	    "= \n\n= \n\n= \n\n= B+\n\n", "edge case 2: B3,A2 wins");
	ok_game("edge3.game", "play b a3\ngogui-rules_legal_moves\n",
	    "= \n\n? illegal move: A3 would form a group of 2, not larger than the enemy group of "
	    "3 it touches\n\n= A1 A2 B1 B2 C1 C2 C3 C4 D1 D2 D3 D4 D5 E1 E2 E3 E4 E5\n\n",
	    "edge case 3: A3 touches the group of 3 through A4");
	ok_game("edge4.game", "play b b3\ngogui-rules_final_result\ngogui-rules_board\n",
	    "= \n\n= \n\n= B+\n\n= \n. . . . .\n. . . . .\nX X X . .\n. . . . .\n. . . . .\n\n",
	    "edge case 4: B3 captures both groups of 2 and wins");
	ok_game("edge5.game", "gogui-rules_side_to_move\nplay w e1\ngogui-rules_side_to_move\n"
	    "play w b1\ngogui-rules_final_result\ngogui-rules_board\n",
	    "= \n\n= white\n\n= \n\n= black\n\n? illegal move: it is black's turn\n\n"
	    "= unknown\n\n= \nO . O . O . O\n. O O . . X X\n. O . O . X .\nO . O . . . O\n"
	    ". . O O O . .\n. . O O O O O\nO . . . O O .\n\n",
	    "edge case 5: E1 captures C1, White has no placement left, Black moves");
	ok_game("pass.game", "play w e1\ngogui-rules_side_to_move\nshowboard\n",
	    "= \n\n= \n\n= white\n\n= \nx: alice 3/9   o: bob 8/11\n    A B C D E\n"
	    " 5  o o . x o   5\n 4  o o x . x   4\n 3  x o o . x   3\n 2  o o . o x   2\n"
	    " 1  x . x x o   1\n    A B C D E\n\n",
	    "Black has no placement after E1 and passes by itself: White again, nothing upper case");
	ok_game("over.game", "gogui-rules_final_result\ngogui-rules_legal_moves\ngenmove w\n",
	    "= \n\n= B+\n\n= \n\n? game is over\n\n", "a finished game's file: over");

	/* Edge case 6: a 5 x 5 checkerboard, every placement non-capturing; a draw. */
	{
		char script[2048], *o;
		size_t n = 0;
		int b[13][2], w[12][2], nb = 0, nw = 0, x, y, i;
		static const char cols[] = "ABCDE";

		for (y = 1; y <= 5; y++)
			for (x = 1; x <= 5; x++) {
				if ((x + y) % 2 == 0)
					b[nb][0] = x, b[nb++][1] = y;
				else
					w[nw][0] = x, w[nw++][1] = y;
			}
		n += (size_t)snprintf(script + n, sizeof(script) - n, "boardsize 5\n");
		for (i = 0; i < 13; i++) {
			n += (size_t)snprintf(script + n, sizeof(script) - n, "play b %c%d\n",
			    cols[b[i][0] - 1], b[i][1]);
			if (i < 12)
				n += (size_t)snprintf(script + n, sizeof(script) - n, "play w %c%d\n",
				    cols[w[i][0] - 1], w[i][1]);
		}
		snprintf(script + n, sizeof(script) - n, "gogui-rules_final_result\n"
		    "gogui-rules_legal_moves\ngenmove b\nplay w a2\n");
		o = run(script);
		{
			char want[1024];
			size_t k = 0;

			for (i = 0; i < 26; i++)
				k += (size_t)snprintf(want + k, sizeof(want) - k, "= \n\n");
			snprintf(want + k, sizeof(want) - k, "= 0\n\n= \n\n? game is over\n\n"
			    "? illegal move: the game is over\n\n");
			ok_str(o, want, "edge case 6: the full checkerboard is a draw");
		}
		free(o);
	}
}

static char *run_opts(const char *input, const struct engine_options *o);

static void test_genmove(void)
{
	struct engine_options opt;
	char *a, *b, *o;
	const char *script = "boardsize 7\ngenmove b\ngogui-rules_side_to_move\nshowboard\n";

	/* the seed and a playout budget, not the clock, decide: the same placement on a loaded machine too */
	setenv("OUSTPBM_ENGINE_SEED", "17", 1);
	engine_options_init(&opt);
	opt.playouts = 300;
	a = run_opts(script, &opt);
	b = run_opts(script, &opt);
	ok_str(a, b, "the same seed gives the same placement");
	ok(strncmp(a, "= \n\n= ", 6) == 0 && strstr(a, "= white\n\n") != NULL,
	    "genmove b answers a vertex and White moves");
	{
		/* playing the answered vertex gives the same board */
		char v[8] = "", q[64], *r;

		sscanf(a + 6, "%7s", v);
		snprintf(q, sizeof(q), "boardsize 7\nplay b %s\nshowboard\n", v);
		r = run(q);
		ok(strstr(a, "x: black") != NULL && strstr(r, "x: black") != NULL &&
		    strcmp(strstr(a, "x: black"), strstr(r, "x: black")) == 0,
		    "the answered vertex %s is the one placed", v);
		free(r);
	}
	free(a);
	{
		/* oustpbm-search: nothing searched yet, then the fixed budget's playouts */
		unsigned long nodes = 0, cap = 0;
		long po = 0;
		double cpu = -1;

		ok_run("oustpbm-search\n", "= playouts 0 nodes 0 cap 0 value 0.000 cpu 0.000\n\n",
		    "oustpbm-search before any genmove");
		o = run_opts("boardsize 7\ngenmove b\noustpbm-search\n", &opt);
		ok(strstr(o, "= playouts ") != NULL &&
		    sscanf(strstr(o, "= playouts "), "= playouts %ld nodes %lu cap %lu value %*f cpu %lf",
		    &po, &nodes, &cap, &cpu) == 4 && po == 300 && nodes > 1 && nodes <= cap && cpu >= 0,
		    "oustpbm-search after genmove: its 300 playouts, the nodes in use within the cap");
		free(o);
	}
	free(b);
	setenv("OUSTPBM_ENGINE_SEED", "another seed", 1);
	o = run("boardsize 5\ngenmove w\ngenmove white\ngenmove\n");
	ok_str(o, "= \n\n? it is black's turn\n\n? it is black's turn\n\n"
	    "? syntax error: usage: genmove <color>\n\n", "genmove for the side not to move");
	free(o);
	unsetenv("OUSTPBM_ENGINE_SEED");
	o = run("boardsize 5\ngenmove B\ngogui-rules_side_to_move\n");
	ok(o != NULL && strncmp(o, "= \n\n= ", 6) == 0 && strstr(o, "= white\n\n") != NULL,
	    "genmove without a seed in the environment");
	free(o);
	/* genmove in the middle of a capture turn: the same colour places again */
	setenv("OUSTPBM_ENGINE_SEED", "1", 1);
	{
		char *i = with_game("edge2.game", "play b b3\ngenmove b\ngogui-rules_side_to_move\n");

		o = run(i);
		ok(o != NULL && strncmp(o, "= \n\n= \n\n= ", 10) == 0 && o[10] >= 'A' &&
		    o[10] <= 'E', "genmove after a capture: Black places again");
		free(o);
		free(i);
	}
	unsetenv("OUSTPBM_ENGINE_SEED");
}

/* Remove the first blank line of s, in place (showboard leaves it out). */
static void drop_blank_line(char *s)
{
	char *p = strstr(s, "\n\n");

	if (p != NULL)
		memmove(p, p + 1, strlen(p + 1) + 1);
}

static void test_loadgame(void)
{
	char *want = t_slurp(t_data("figure7.txt"), NULL), *exp = NULL, *in = NULL, *o;
	char dir[] = "/tmp/oustpbm-engine.XXXXXX", path[4200], *file, *bad;
	FILE *f;

	/* Figure 7: load and show, byte for byte (less the blank line) */
	if (want != NULL) {
		drop_blank_line(want);
		if (asprintf(&exp, "= \n\n= \n%s\n", want) < 0)
			abort();
	}
	if (asprintf(&in, "loadgame %s\nshowboard\n", t_data("figure7.game")) < 0)
		abort();
	o = run(in);
	ok_str(o, exp, "figure7.game loaded shows figure7.txt");
	free(o);
	free(in);
	free(exp);
	free(want);
	if (asprintf(&in, "loadgame %s\ngogui-rules_side_to_move\ngogui-rules_board_size\n"
	    "gogui-rules_final_result\n", t_data("figure7.game")) < 0)
		abort();
	ok_run(in, "= \n\n= white\n\n= 13\n\n= unknown\n\n", "figure7.game: White to move on 13x13");
	free(in);

	/* errors name the file, the line and what is wrong */
	if (mkdtemp(dir) == NULL)
		abort();
	file = t_slurp(t_data("engine/edge1.game"), NULL);
	bad = strstr(file, "status: playing");
	snprintf(path, sizeof(path), "%s/101.game", dir);
	f = fopen(path, "w");
	fwrite(file, 1, (size_t)(bad - file), f);
	fprintf(f, "status: plying%s", bad + strlen("status: playing"));
	fclose(f);
	{
		/* the status line's number in the file */
		int line = 1;
		char *p, msg[4400];

		for (p = file; p < bad; p++)
			line += *p == '\n';
		if (asprintf(&in, "boardsize 7\nloadgame %s\ngogui-rules_board_size\n", path) < 0)
			abort();
		snprintf(msg, sizeof(msg), "= \n\n? %s line %d: unknown status 'plying'\n\n= 7\n\n",
		    path, line);
		ok_run(in, msg, "a parse error names file, line and culprit; nothing changes");
		free(in);
	}
	free(file);
	if (asprintf(&in, "loadgame %s/none.game\nloadgame %s\nloadgame\nloadgame a b\n", dir,
	    dir) < 0)
		abort();
	{
		char msg[9000];

		snprintf(msg, sizeof(msg), "? %s/none.game: cannot read: no such file or directory\n\n"
		    "? %s: cannot read: is a directory\n\n? syntax error: usage: loadgame <file>\n\n"
		    "? syntax error: usage: loadgame <file>\n\n", dir, dir);
		ok_run(in, msg, "missing file, directory, no or two names");
	}
	free(in);
	/* an empty file: the parser's error without a line */
	snprintf(path, sizeof(path), "%s/empty.game", dir);
	f = fopen(path, "w");
	fclose(f);
	if (asprintf(&in, "loadgame %s\n", path) < 0)
		abort();
	o = run(in);
	ok(o != NULL && strncmp(o, "? ", 2) == 0 && strstr(o, path) != NULL &&
	    strstr(o, "line") != NULL, "an empty file is refused: %s", o ? o : "");
	free(o);
	free(in);
	/* too big: one byte over the cap */
	snprintf(path, sizeof(path), "%s/big.game", dir);
	f = fopen(path, "w");
	{
		static char block[65536];
		long left = ENGINE_FILE_MAX + 1;

		memset(block, '#', sizeof(block));
		while (left > 0) {
			size_t k = left > (long)sizeof(block) ? sizeof(block) : (size_t)left;

			fwrite(block, 1, k, f);
			left -= (long)k;
		}
	}
	fclose(f);
	if (asprintf(&in, "loadgame %s\n", path) < 0)
		abort();
	{
		char msg[4400];

		snprintf(msg, sizeof(msg), "? %s: larger than %ld bytes\n\n", path, ENGINE_FILE_MAX);
		ok_run(in, msg, "a file over the cap is refused");
	}
	free(in);
	/* exactly the cap: read whole, then refused by the parser (not a game) */
	ok(truncate(path, ENGINE_FILE_MAX) == 0, "cut the big file to the cap");
	if (asprintf(&in, "loadgame %s\n", path) < 0)
		abort();
	o = run(in);
	ok(o != NULL && strstr(o, "larger than") == NULL && strncmp(o, "? ", 2) == 0,
	    "a file of exactly the cap is read: %.80s", o ? o : "");
	free(o);
	free(in);
	/* unreadable */
	snprintf(path, sizeof(path), "%s/101.game", dir);
	chmod(path, 0);
	if (geteuid() != 0) {
		if (asprintf(&in, "loadgame %s\n", path) < 0)
			abort();
		{
			char msg[4400];

			snprintf(msg, sizeof(msg), "? %s: cannot read: permission denied\n\n", path);
			ok_run(in, msg, "an unreadable file");
		}
		free(in);
	}
	snprintf(path, sizeof(path), "%s/101.game", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/empty.game", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/big.game", dir);
	unlink(path);
	rmdir(dir);

	/* loading replaces everything: size, names, side to move; clear_board restores names */
	if (asprintf(&in, "boardsize 7\nplay b a1\nloadgame %s\ngogui-rules_board_size\n"
	    "clear_board\nshowboard\n", t_data("engine/edge2.game")) < 0)
		abort();
	ok_run(in, "= \n\n= \n\n= \n\n= 5\n\n= \n\n= \nx: black 0/0   o: white 0/0\n    A B C D E\n"
	    " 5  . . . . .   5\n 4  . . . . .   4\n 3  . . , . .   3\n 2  . . . . .   2\n"
	    " 1  . . . . .   1\n    A B C D E\n\n", "loadgame replaces the game; clear_board empties it");
	free(in);
}

/* Hex-hex boards: oustpbm-board, hex vertices, legal lists by row then number, errors naming the range. */
static void test_hex(void)
{
	char *in = NULL;

	ok_run("oustpbm-board hex 3\ngogui-rules_board_size\ngogui-rules_legal_moves\n",
	    "= \n\n= 3\n\n= a1 a2 a3 b1 b2 b3 b4 c1 c2 c3 c4 c5 d1 d2 d3 d4 e1 e2 e3\n\n",
	    "oustpbm-board hex 3: 19 cells, listed by row then number");
	ok_run("oustpbm-board HEX 3\nplay b A1\nplay w c3\ngogui-rules_legal_moves\nshowboard\ngogui-rules_board\n",
	    "= \n\n= \n\n= \n\n= a3 b2 b3 b4 c1 c2 c4 c5 d1 d2 d3 d4 e1 e2 e3\n\n"
	    "= \nx: black 1/1   o: white 1/1\n      1 2 3\n  e  . . . 4  e\n d  . . . . 5  d\n"
	    "c  . . O . .  c\n b  . . . . 5  b\n  a  x . . 4  a\n      1 2 3\n\n"
	    "= \n  . . .\n . . . .\n. . O . .\n . . . .\n  X . .\n\n",
	    "hex play, legal moves, showboard and gogui-rules_board (rows offset by half a cell)");
	ok_run("oustpbm-board hex 3\nplay b a1\nplay w b1\nplay b b2\ngogui-rules_side_to_move\n"
	    "gogui-rules_final_result\n",
	    "= \n\n= \n\n= \n\n= \n\n= black\n\n= B+\n\n",
	    "hex: b2 joins a1 and takes b1, the last white stone: black wins");
	ok_run("oustpbm-board hex 3\nplay b a1\nplay w e1\nplay b a2\n",
	    "= \n\n= \n\n= \n\n? illegal move: a2 would form a group of 2 that touches no enemy group\n\n",
	    "hex: joining with no enemy refused");
	ok_run("oustpbm-board hex 7\nplay b m8\nplay b n1\nplay b G14\nplay b i0\nplay b g13\n",
	    "= \n\n? illegal move: m8 is not on the hex board of side 7: row m has cells m1 to m7\n\n"
	    "? illegal move: n1 is not on the hex board of side 7: its rows run from a to m\n\n"
	    "? illegal move: g14 is not on the hex board of side 7: row g has cells g1 to g13\n\n"
	    "? invalid vertex 'i0'\n\n= \n\n",
	    "hex: off-board cells name the valid range; g13 is the middle row's end");
	ok_run("oustpbm-board hex 2\noustpbm-board hex 11\noustpbm-board square 4\noustpbm-board circle 5\n"
	    "oustpbm-board hex x\noustpbm-board hex\n",
	    "? unacceptable size: a hex side is from 3 to 10\n\n"
	    "? unacceptable size: a hex side is from 3 to 10\n\n"
	    "? unacceptable size: a square size is odd, from 5 to 25\n\n"
	    "? syntax error: unknown shape 'circle' (square or hex)\n\n"
	    "? syntax error: size 'x' is not a number\n\n"
	    "? syntax error: usage: oustpbm-board square|hex <size>\n\n",
	    "oustpbm-board errors");
	ok_run("oustpbm-board hex 3\nplay b a1\nclear_board\ngogui-rules_board_size\ngogui-rules_board\n"
	    "boardsize 5\nplay b i1\noustpbm-board square 7\ngogui-rules_board_size\nplay b G7\n",
	    "= \n\n= \n\n= \n\n= 3\n\n= \n  . . .\n . . . .\n. . . . .\n . . . .\n  . . .\n\n"
	    "= \n\n? invalid vertex 'i1'\n\n= \n\n= 7\n\n= \n\n",
	    "clear_board keeps the hex board; boardsize and oustpbm-board square go back to squares");
	if (asprintf(&in, "loadgame %s\ngogui-rules_side_to_move\ngogui-rules_board_size\n"
	    "gogui-rules_legal_moves\nplay w g3\ngogui-rules_side_to_move\n", t_data("hex4.game")) < 0)
		abort();
	ok_run(in, "= \n\n= white\n\n= 4\n\n= a1 a2 a3 a4 b1 b3 b5 c1 c3 c4 c6 d1 d2 d3 d4 d5 d6 d7 e1 e2 "
	    "e3 e4 e5 f1 f2 f3 f5 g1 g2 g3\n\n= \n\n= white\n\n",
	    "loadgame of a hex game file; g3 captures f4 and White places again");
	free(in);
}

/* Run the engine with options; returns its output (the caller frees it). */
static char *run_opts(const char *input, const struct engine_options *o)
{
	FILE *in = fmemopen((void *)input, strlen(input), "r");
	char *out = NULL;
	size_t olen = 0;
	FILE *f = open_memstream(&out, &olen);

	engine_run_opts(in, f, o);
	fclose(in);
	fclose(f);
	return out;
}

static bool parse(const char *line, struct engine_options *o, char *err)
{
	char buf[256], *argv[16];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w != NULL && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	engine_options_init(o);
	return engine_parse_options(argc, argv, o, err, 200);
}

static void test_options(void)
{
	struct engine_options o;
	char err[200];

	ok(parse("", &o, err) && o.player == ENGINE_AI && o.level == 3 && o.seconds == 10.0 &&
	    !o.seeded && o.playouts == 0, "no options: the AI at level 3, 10 s");
	ok(parse("--level 5 --seconds 0.5 --seed 77 --playouts 900 --player greedy", &o, err) &&
	    o.level == 5 && o.seconds == 0.5 && o.seeded && o.seed == 77 && o.playouts == 900 &&
	    o.player == ENGINE_GREEDY, "every option, with a space");
	ok(parse("--level=1 --seconds=2 --seed=0 --player=random", &o, err) && o.level == 1 &&
	    o.seconds == 2 && o.seeded && o.seed == 0 && o.player == ENGINE_RANDOM,
	    "every option, with '='");
	ok(!parse("--level 9", &o, err), "--level 9 refused");
	ok_str(err, "engine: --level '9': a level from 1 to 5", "the message names the level");
	ok(!parse("--level 0", &o, err) && !parse("--level 3x", &o, err) &&
	    !parse("--level", &o, err), "--level 0, 3x and a missing level refused");
	ok_str(err, "engine: --level needs a value", "a missing value is named");
	ok(!parse("--seconds 0", &o, err) && !parse("--seconds -1", &o, err) &&
	    !parse("--seconds nan", &o, err) && !parse("--seconds 1e9", &o, err),
	    "--seconds 0, -1, nan and 1e9 refused");
	ok(!parse("--seed -3", &o, err) && !parse("--seed 99999999999999999999999", &o, err),
	    "--seed -3 and an overflowing seed refused");
	ok(!parse("--player alphago", &o, err), "--player alphago refused");
	ok_str(err, "engine: --player 'alphago': ai, random or greedy", "the player is named");
	ok(parse("--resign", &o, err) && o.resign, "--resign");
	ok(parse("", &o, err) && !o.resign, "no resigning unless asked");
	ok(!parse("--resign=yes", &o, err), "--resign takes no value");
	ok(!parse("--frobnicate", &o, err), "an unknown option refused");
	ok_str(err, "engine: unknown option '--frobnicate'", "the option is named");
}

/* Milliseconds of the monotonic clock. */
static double ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_ai_genmove(void)
{
	struct engine_options o;
	char *a, *b, err[200];
	double t0, dt;
	const char *script = "boardsize 9\ngenmove b\ngenmove w\ngenmove b\n";

	/* A seed and a playout budget: the same game. */
	parse("--level 4 --playouts 400 --seed 5", &o, err);
	a = run_opts(script, &o);
	b = run_opts(script, &o);
	ok(a != NULL && strncmp(a, "= \n\n= ", 6) == 0, "the AI answers genmove");
	ok_str(a, b, "same seed and budget, same placements");
	free(a);
	free(b);
	/* The greedy test player takes the capture that wins (edge case 1). */
	parse("--player greedy --seed 1", &o, err);
	{
		char *in = with_game("edge1.game", "genmove b\ngogui-rules_final_result\n");

		a = run_opts(in, &o);
		ok_str(a, "= \n\n= B3\n\n= B+\n\n", "the greedy player wins edge case 1 with B3");
		free(a);
		parse("--level 2 --playouts 100 --seed 1", &o, err);
		a = run_opts(in, &o);
		ok_str(a, "= \n\n= B3\n\n= B+\n\n", "the AI wins edge case 1 with B3");
		free(a);
		free(in);
	}
	/*
	 * --resign: White to move, every placement loses (the search gives it
	 * under 1%), top row first:  x . x o x / . . x . . / x x x x x / o . . . . / x o x . x
	 */
	{
		const char *lost = "boardsize 5\nplay b A3\nplay w D3\nplay b C3\nplay w B1\n"
		    "play b E1\nplay w E2\nplay b B3\nplay b E5\nplay w B4\nplay b C5\n"
		    "play w C2\nplay b C4\nplay b E3\nplay w A2\nplay b D3\nplay b A5\n"
		    "play w A2\nplay b A1\nplay w D5\nplay b C1\n"
		    "genmove w\ngogui-rules_final_result\n";
		const char *end;

		parse("--level 3 --playouts 2000 --seed 1 --resign", &o, err);
		a = run_opts(lost, &o);
		end = a != NULL && strlen(a) > 16 ? a + strlen(a) - 16 : "";
		ok_str(end, "= resign\n\n= B+\n\n", "--resign: a lost game is resigned");
		free(a);
		parse("--level 3 --playouts 2000 --seed 1", &o, err);
		a = run_opts(lost, &o);
		end = a != NULL ? strstr(a, "= resign") : NULL;
		ok(a != NULL && end == NULL && strstr(a, "= unknown") != NULL,
		    "without --resign the same game goes on");
		free(a);
	}
	/* The think time: level 5 on 11x11 with 0.3 s answers within 0.3 s + 10% + 50 ms. */
	parse("--level 5 --seconds 0.3", &o, err);
	t0 = ms_now();
	a = run_opts("boardsize 11\ngenmove b\n", &o);
	dt = ms_now() - t0;
	/* A wide margin for a loaded machine: a search that ignored the deadline takes minutes. */
	ok(a != NULL && strncmp(a, "= ", 2) == 0 && dt < 1500, "genmove with --seconds 0.3 took %.0f ms",
	    dt);
	free(a);
	/* time_left: 2 s of main time for 121 points leaves 0.1 s or so a placement. */
	parse("--level 5 --seconds 30", &o, err);
	t0 = ms_now();
	a = run_opts("boardsize 11\ntime_settings 2 0 0\ntime_left b 2 0\ngenmove b\n", &o);
	dt = ms_now() - t0;
	ok(a != NULL && strncmp(a, "= \n\n= \n\n= \n\n= ", 14) == 0 && dt < 1500,
	    "time_left 2 s: genmove took %.0f ms", dt);
	free(a);
	/* Byo-yomi: 1 s for 5 stones is 0.2 s a placement. */
	t0 = ms_now();
	a = run_opts("boardsize 9\ntime_settings 0 1 5\ntime_left b 1 5\ngenmove b\n", &o);
	dt = ms_now() - t0;
	ok(a != NULL && strncmp(a, "= \n\n= \n\n= \n\n= ", 14) == 0 && dt < 1500,
	    "byo-yomi 1 s for 5 stones: genmove took %.0f ms", dt);
	free(a);
	a = run_opts("time_settings x 0 0\ntime_settings 1 -1 0\ntime_settings 1 1 z\n"
	    "time_left red 1 0\ntime_left b x 0\ntime_left b 1 -2\ntime_left b 1\n", &o);
	ok_str(a, "? syntax error: main time 'x' is not a number of seconds\n\n"
	    "? syntax error: byo-yomi time '-1' is not a number of seconds\n\n"
	    "? syntax error: byo-yomi stones 'z' is not a count\n\n"
	    "? invalid color 'red' (b, black, w or white)\n\n"
	    "? syntax error: time 'x' is not a number of seconds\n\n"
	    "? syntax error: stones '-2' is not a count\n\n"
	    "? syntax error: usage: time_left <color> <time> <stones>\n\n",
	    "time_settings and time_left errors");
	free(a);
}

int main(void)
{
	test_options();
	test_ai_genmove();
	test_basics();
	test_board_setup();
	test_play();
	test_edge_cases();
	test_genmove();
	test_loadgame();
	test_hex();
	return t_done();
}
