/*
 * test_fsck: fsck_game() on one game file text and its damaged variants,
 * checking the exact report (file, line, message), and fsck_run() on a
 * scratch home.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "commands/services/fsck.h"
#include "store/store.h"
#include "t.h"
#include "t_home.h"

/* Board 101, three turns; line numbers as in the comments. */
static const char GOOD[] =
    "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md\n" /* 1 */
    "board: 101\n"			/* 2 */
    "size: 5\n"
    "swap: on\n"
    "black: alice\n"			/* 5 */
    "white: bob\n"			/* 6 */
    "status: playing\n"			/* 7 */
    "to-move: white\n"			/* 8 */
    "turn: 4\n"				/* 9 */
    "created: 2023-11-14T22:13:20Z\n"
    "last-move: 2023-11-14T22:13:20Z\n"
    "remind: 2023-11-21T22:13:20Z\n"	/* 12 */
    "\n"
    "x: alice 1/2   o: bob 1/1\n"		/* 14 */
    "\n"
    "    A B C D E\n"
    " 5  . . . . X   5\n"		/* 17 */
    " 4  . . . . .   4\n"		/* 18 */
    " 3  . . x . .   3\n"
    " 2  . . . . .   2\n"
    " 1  o . . . .   1\n"		/* 21 */
    "    A B C D E\n"
    "\n"
    "history:\n"			/* 24 */
    "1 2023-11-14T22:13:20Z x alice C3\n"
    "2 2023-11-14T22:13:20Z o bob A1\n"	/* 26 */
    "3 2023-11-14T22:13:20Z x alice E5\n";	/* 27 */

/* GOOD with the first occurrence of from replaced by to; the caller frees it. */
static char *damage(const char *from, const char *to)
{
	const char *p = strstr(GOOD, from);
	char *s;

	if (p == NULL)
		abort();
	s = malloc(sizeof GOOD + strlen(to));
	sprintf(s, "%.*s%s%s", (int)(p - GOOD), GOOD, to, p + strlen(from));
	return s;
}

/* Run fsck_game on text as board's file; the report into *out (caller frees). */
static unsigned run(struct store *st, long board, const char *text, char **out)
{
	char file[32];
	unsigned problems = 0;
	size_t size;
	FILE *f = open_memstream(out, &size);

	snprintf(file, sizeof file, "games/%ld.game", board);
	ok_int(fsck_game(st, board, file, text, strlen(text), f, &problems), PROCESS_OK, "fsck_game runs");
	fclose(f);
	return problems;
}

static void one(const char *what, const char *from, const char *to, const char *want)
{
	char *text = damage(from, to), *out = NULL;
	unsigned n = run(NULL, 101, text, &out);

	ok_int(n, 1, "%s: one problem", what);
	ok_str(out, want, "%s: the report", what);
	free(out);
	free(text);
}

static void test_game(void)
{
	char *out = NULL;

	ok_int(run(NULL, 101, GOOD, &out), 0, "a sound file: no problem");
	ok_str(out, "", "... and no report");
	free(out);
	one("parse error", "status: playing", "status: plying", "games/101.game:7: unknown status 'plying'\n");
	one("bad history", "x alice E5", "x alice C3", "games/101.game:27: turn 3: C3: the point is occupied\n");
	one("edited position", " 4  . . . . .", " 4  x . . . .", "games/101.game:18: A4 is black, but empty after the history\n");
	one("status", "status: playing\nto-move: white\nturn: 4\ncreated: 2023-11-14T22:13:20Z\n"
	    "last-move: 2023-11-14T22:13:20Z\nremind: 2023-11-21T22:13:20Z\n", "status: black-won\nend: capture\n"
	    "turn: 4\ncreated: 2023-11-14T22:13:20Z\nlast-move: 2023-11-14T22:13:20Z\n",
	    "games/101.game:7: the result is B+, but unknown after the history\n");
	one("history player", "o bob A1", "o carol A1", "games/101.game:26: 'carol' is not a player of board 101\n");
	out = NULL;
	ok_int(run(NULL, 102, GOOD, &out), 1, "a file named for another board: one problem");
	ok_str(out, "games/102.game:2: board 101 in a file named for board 102\n", "... on the board: line");
	free(out);
}

static void test_store(void)
{
	struct config cfg;
	struct store *st;
	char err[STORE_ERR_MAX], *path = t_home_new(), *out = NULL;
	unsigned problems;
	size_t size;
	long boards[1] = { 101 };
	FILE *f;

	config_defaults(&cfg);
	cfg.password_cost = 1;	/* the cheapest: not about the cost */
	if (store_open(path, &cfg, &st, err, sizeof err) != STORE_OK ||
	    store_user_add(st, "alice", "alice@example.org", "secret", "") != STORE_OK ||
	    store_board_write(st, 101, GOOD, strlen(GOOD)) != STORE_OK ||
	    store_write_file(st, "games/next-board", "102\n", 4) != STORE_OK)
		abort();
	f = open_memstream(&out, &size);
	ok_int(fsck_run(st, NULL, 0, f, &problems), PROCESS_OK, "fsck_run on a home");
	fclose(f);
	ok_int(problems, 1, "... one problem");
	ok_str(out, "games/101.game:6: white bob has no account in the users file\n", "... bob has no account");
	free(out);
	if (store_user_add(st, "bob", "bob@example.com", "secret", "") != STORE_OK ||
	    store_write_file(st, "games/next-board", "101\n", 4) != STORE_OK)
		abort();
	f = open_memstream(&out, &size);
	fsck_run(st, NULL, 0, f, &problems);
	fclose(f);
	ok_str(out, "games/next-board:1: the counter 101 is not ahead of board 101 (games/101.game)\n",
	    "a counter behind the boards");
	free(out);
	f = open_memstream(&out, &size);
	fsck_run(st, boards, 1, f, &problems);
	fclose(f);
	ok(problems == 0 && strcmp(out, "") == 0, "the board given alone: no store checks, no problem");
	free(out);
	store_close(st);
	t_home_free(path);
}

int main(void)
{
	test_game();
	test_store();
	return t_done();
}
