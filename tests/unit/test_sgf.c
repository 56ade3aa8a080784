/*
 * test_sgf: game records as SGF: the record of a game file written as an
 * ASCII board, its positions node by node, the round trip of every
 * conformance game (square and hex, with swaps, resignations and timeouts
 * added), and every error of the reader with its line and column.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "game/sgf.h"
#include "t.h"

#define T0 INT64_C(1700000000)

/* A 5x5 game: C3, bob swaps, White D3, Black C4 captures D3 and places A1 again, Black resigns. */
static const char GAME[] =
    "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md\n"
    "board: 101\n"
    "size: 5\n"
    "swap: on\n"
    "black: bob\n"
    "white: alice\n"
    "status: white-won\n"
    "end: resign\n"
    "turn: 9\n"
    "created: 2023-11-14T22:13:20Z\n"
    "last-move: 2023-11-14T22:21:20Z\n"
    "thread: <board-101@oust.example.net>\n"
    "\n"
    "x: bob 2/4   o: alice 1/2\n"
    "\n"
    "    A B C D E\n"
    " 5  o . . . x   5\n"
    " 4  . . x . .   4\n"
    " 3  . . x . .   3\n"
    " 2  . . . . .   2\n"
    " 1  x . . . o   1\n"
    "    A B C D E\n"
    "\n"
    "history:\n"
    "1 2023-11-14T22:14:20Z x alice C3\n"
    "2 2023-11-14T22:15:20Z o bob swap\n"
    "3 2023-11-14T22:16:20Z o alice D3\n"
    "4 2023-11-14T22:17:20Z x bob E5\n"
    "5 2023-11-14T22:18:20Z o alice A5\n"
    "6 2023-11-14T22:19:20Z x bob C4,A1 captured:D3,-\n"
    "7 2023-11-14T22:20:20Z o alice E1\n"
    "8 2023-11-14T22:21:20Z x bob resign\n";

static const char GAME_SGF[] =
    "(;FF[4]GM[1]CA[UTF-8]AP[oustpbm:" OUSTPBM_VERSION "]SZ[5]\n"
    "GN[Oust board 101]PB[alice]PW[bob]DT[2023-11-14]RE[W+R]\n"
    "C[Oust, by Mark Steere: board 101, 5x5, swap on. Each node shows what one placement changed: "
    "the stone placed (AB, AW) and the stones it removed (AE).]\n"
    "OUSTBOARD[101]OUSTSWAP[on]OUSTCREATED[2023-11-14T22:13:20Z]OUSTLASTMOVE[2023-11-14T22:21:20Z]"
    "OUSTTHREAD[<board-101@oust.example.net>]\n"
    ";OUSTTURN[1 2023-11-14T22:14:20Z x alice]AB[cc]C[Turn 1: alice (Black) C3.]\n"
    ";OUSTTURN[2 2023-11-14T22:15:20Z o bob swap]C[Turn 2: bob (White) swaps: bob now plays Black, "
    "alice White.]\n"
    ";OUSTTURN[3 2023-11-14T22:16:20Z o alice]AW[dc]C[Turn 3: alice (White) D3.]\n"
    ";OUSTTURN[4 2023-11-14T22:17:20Z x bob]AB[ea]C[Turn 4: bob (Black) E5.]\n"
    ";OUSTTURN[5 2023-11-14T22:18:20Z o alice]AW[aa]C[Turn 5: alice (White) A5.]\n"
    ";OUSTTURN[6 2023-11-14T22:19:20Z x bob]AB[cb]AE[dc]C[Turn 6: bob (Black) C4,A1.\n"
    "C4 removes 1 white stone; places again: bob.]\n"
    ";AB[ae]\n"
    ";OUSTTURN[7 2023-11-14T22:20:20Z o alice]AW[ee]C[Turn 7: alice (White) E1.]\n"
    ";OUSTTURN[8 2023-11-14T22:21:20Z x bob resign]C[Turn 8: bob (Black) resigns.\n"
    "alice (White) wins.]\n"
    ")\n";

static char *format_file(const struct game *g)
{
	char *text = NULL;
	size_t len;

	if (gamefile_format(g, &text, &len) != GAME_OK)
		return NULL;
	return text;
}

/* The stones of g as rows "x.o..", top row first, '/' between rows. */
static const char *rows(const struct game *g)
{
	static char buf[1024];
	const struct rules_board *b = &g->rg.board;
	size_t k = 0;
	int x, y;

	for (y = b->width - 1; y >= 0; y--) {
		for (x = rules_row_first(b, y); x < rules_row_first(b, y) + rules_row_len(b, y); x++) {
			int c = rules_at(b, rules_point(b, x, y));

			buf[k++] = c == RULES_BLACK ? 'x' : c == RULES_WHITE ? 'o' : '.';
		}
		buf[k++] = y ? '/' : '\0';
	}
	return buf;
}

static void test_export(void)
{
	struct game g, back;
	struct gamefile_error gerr;
	struct sgf_error err;
	char *sgf = NULL, *text;
	size_t len;

	ok(gamefile_parse(GAME, strlen(GAME), &g, &gerr) == GAME_OK, "the 5x5 game file parses (%s)", gerr.msg);
	ok(sgf_format(&g, &sgf, &len, &err) == GAME_OK, "its SGF is written (%s)", err.msg);
	ok_str(sgf, GAME_SGF, "the SGF: players at turn 1, the result, one node per placement, AE for the capture, "
	    "comments for the swap, the capture and the resignation");
	ok_int(len, strlen(GAME_SGF), "... its length");
	ok(sgf_parse(sgf, len, &back, &err) == GAME_OK, "read back (%s)", err.msg);
	ok_str(rows(&back), "o...x/..x../..x../...../x...o", "... the position as an ASCII board");
	text = format_file(&back);
	ok_str(text, GAME, "... the same game file");
	free(text);
	game_release(&back);
	free(sgf);
	game_release(&g);
}

/* A game still playing on a hex board of side 3, with a remind time and a robot level. */
static void test_hex(void)
{
	struct game g, back;
	struct sgf_error err;
	char *sgf = NULL, *a, *b;
	size_t len;
	int p[2];

	game_init_shape(&g, 102, &(struct game_form){ RULES_HEX, 3, false }, "carol", "robot", T0);
	g.robot_level = 4;
	p[0] = rules_parse_point(&g.rg.board, "c3", 2);
	ok(game_move(&g, "carol", p, 1, T0 + 60, NULL) == GAME_OK, "hex: carol c3");
	p[0] = rules_parse_point(&g.rg.board, "a1", 2);
	ok(game_move(&g, "robot", p, 1, T0 + 120, NULL) == GAME_OK, "hex: robot a1");
	g.remind = T0 + 86400;
	ok(sgf_format(&g, &sgf, &len, &err) == GAME_OK, "hex: the SGF is written");
	ok(strstr(sgf, "GM[11]") != NULL && strstr(sgf, "SZ[5]") != NULL, "hex: a Hex board (GM[11]) of 2S-1");
	ok(strstr(sgf, "DD[aa][ba][ab][ed][de][ee]") != NULL, "hex: the corners outside the hexagon dimmed");
	ok(strstr(sgf, "AB[cc]") != NULL && strstr(sgf, "AW[ae]") != NULL,
	    "hex: c3 is the middle of the grid, a1 its bottom left (axial coordinates)");
	ok(strstr(sgf, "RE[") == NULL, "hex: no result while playing");
	ok(sgf_parse(sgf, len, &back, &err) == GAME_OK, "hex: read back (%s)", err.msg);
	ok_str(rows(&back), ".../..../..x../..../o..", "hex: the position as an ASCII board");
	a = format_file(&g);
	b = format_file(&back);
	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "hex: the same game file (remind, robot level)");
	free(a);
	free(b);
	game_release(&back);
	free(sgf);
	game_release(&g);
}

/* An edited drawing: the history does not lead to it, so no record is written. */
static void test_edited(void)
{
	struct game g;
	struct sgf_error err;
	char *sgf = NULL, *text = strdup(GAME);
	size_t len;

	*strstr(text, " 2  . . . . .") = '\0';
	{
		char buf[2048];

		snprintf(buf, sizeof(buf), "%s 2  . . . x .%s", text, strstr(GAME, " 2  . . . . .") + 13);
		ok(gamefile_parse(buf, strlen(buf), &g, NULL) == GAME_OK, "an edited drawing loads");
	}
	ok(sgf_format(&g, &sgf, &len, &err) == GAME_BAD_SGF && sgf == NULL, "... but its record is refused");
	ok(strstr(err.msg, "board 101: its history does not lead to its position (D2 is black, but empty after "
	    "the history)") != NULL, "... saying where: %s", err.msg);
	game_release(&g);
	free(text);
}

/* Every way a record can be wrong: the reader's message, with line and column. */
static void test_errors(void)
{
	static const struct {
		const char *from, *to;	/* GAME_SGF with from replaced by to */
		const char *want;
	} cases[] = {
		{ "(;FF[4]", "x(;FF[4]", "line 1, column 1: expected '(' to start an SGF game tree, not 'x'" },
		{ ")\n", "", "line 1, column 1: the game tree opened here is not closed with ')'" },
		{ "SZ[5]", "SZ 5]", "line 1, column 42: expected '[' after the property name, not '5'" },
		{ "]\n)\n", "\n)\n", "line 14, column 48: the property value opened here is not closed with ']'" },
		{ "GM[1]", "GM[1][1]", "line 1, column 8: GM has 2 values, expected one" },
		{ "GM[1]", "GM[2]", "line 1, column 8: GM[2]: a square board is written as GM[1]" },
		{ "FF[4]", "FF[3]", "line 1, column 3: FF[3]: only SGF FF[4] is read" },
		{ "SZ[5]", "SZ[6]", "line 1, column 39: SZ[6]: not an odd board size from 5 to 25" },
		{ "SZ[5]", "SZ[5:7]", "line 1, column 39: SZ[5:7]: not an odd board size from 5 to 25" },
		{ "OUSTBOARD[101]", "", "line 1, column 2: the root node has no OUSTBOARD[]: not a record written by oustpbm export" },
		{ "OUSTBOARD[101]", "OUSTBOARD[12x]", "line 4, column 1: OUSTBOARD[12x]: not a board number" },
		{ "OUSTSWAP[on]", "OUSTSWAP[yes]", "line 4, column 15: OUSTSWAP[yes]: not on or off" },
		{ "PB[alice]", "PB[al ice]", "line 2, column 19: PB[al ice]: not a user id" },
		{ "OUSTCREATED[2023-11-14T22:13:20Z]", "OUSTCREATED[yesterday]",
		  "line 4, column 27: OUSTCREATED[yesterday]: not a time like 2026-11-21T18:41:07Z" },
		{ "OUSTTHREAD[<board-101@oust.example.net>]", "OUSTTHREAD[a b]",
		  "OUSTTHREAD: not 1 to 250 printable characters without spaces" },
		{ "GN[", "GN[GN]GN[", "line 2, column 7: property GN twice in one node" },
		{ "OUSTTURN[3 ", "OUSTTURN[4 ", "line 7, column 2: OUSTTURN[4 2023-11-14T22:16:20Z o alice]: "
		  "turn 4, expected 3" },
		{ "OUSTTURN[3 2023-11-14T22:16:20Z o", "OUSTTURN[3 2023-11-14T22:16:20Z z",
		  "colour 'z' is not x or o" },
		{ "o bob swap]", "o bob skip]", "line 6, column 2: OUSTTURN[2 2023-11-14T22:15:20Z o bob skip]: "
		  "'skip' is not pass, swap, resign or timeout" },
		{ "o bob swap]", "o bob swap]AB[aa]", "line 6, column 45: turn 2 is a swap: AB[] has no place in it" },
		{ "AW[dc]", "AW[dc]AB[aa]", "node 3: both AB[] and AW[]: a node is one placement" },
		{ "AW[dc]", "AB[dc]", "line 7, column 42: AB[] in turn 3, which is white's" },
		{ "AW[dc]", "AW[dc][dd]", "line 7, column 42: AW[]: one point per node, the placement" },
		{ "AW[dc]", "AW[zz]", "AW[zz]: not a point of the 5x5 grid" },
		{ ";AB[ae]", ";AE[ae]", "line 12, column 1: node 7: AE[] without the placement (AB or AW)" },
		{ ";OUSTTURN[5", ";AB[bb];OUSTTURN[5", "line 8, column 1: turn 4: B4: the turn ended with E5" },
		{ "AW[dc]", "AW[dd]", "line 10, column 1: turn 6: C4: the new group would touch no enemy group" },
		{ "AE[dc]", "", "line 10, column 1: AE[] removes nothing, but the placement C4 removes D3" },
		{ "AE[dc]", "AE[dc][aa]", "line 10, column 1: AE[] removes D3 A5, but the placement C4 removes D3" },
		{ "AE[dc]", "AE[dc][dc]", "AE lists a point twice" },
		{ "RE[W+R]", "RE[B+R]", "line 2, column 49: RE[B+R], but the history gives W+R" },
		{ "RE[W+R]", "", "RE[], but the history gives W+R" },
		{ "OUSTTHREAD", "OUSTREMIND[2023-11-15T00:00:00Z]OUSTTHREAD",
		  "OUSTREMIND[] on a finished game" },
	};
	char buf[4096];
	struct game g;
	struct sgf_error err;
	const char *at;
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		at = strstr(GAME_SGF, cases[i].from);
		if (at == NULL) {
			ok(0, "error case %zu: '%s' not in the record", i, cases[i].from);
			continue;
		}
		k = (size_t)(at - GAME_SGF);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)k, GAME_SGF, cases[i].to, at + strlen(cases[i].from));
		if (cases[i].from[0] == ')' && cases[i].to[0] == '\0')
			buf[strlen(buf)] = '\0';
		ok(sgf_parse(buf, strlen(buf), &g, &err) == GAME_BAD_SGF && strstr(err.msg, cases[i].want) != NULL,
		    "record edited (case %zu): %s", i, err.msg);
		game_release(&g);
	}
	ok(sgf_parse("", 0, &g, &err) == GAME_BAD_SGF && strcmp(err.msg, "line 1, column 1: expected '(' to start an "
	    "SGF game tree, but the file ends") == 0, "an empty file: %s", err.msg);
	ok(sgf_parse("(;FF[4]\001)", 9, &g, &err) == GAME_BAD_SGF && strstr(err.msg, "not byte 0x01") != NULL,
	    "a control byte is named by its value: %s", err.msg);
	{
		static char big[SGF_MAX_BYTES + 2];

		memset(big, ' ', sizeof(big));
		ok(sgf_parse(big, sizeof(big), &g, &err) == GAME_BAD_SGF && strstr(err.msg, "an SGF game record is at most")
		    != NULL, "over SGF_MAX_BYTES: refused before reading: %s", err.msg);
		memset(big, '(', sizeof(big));
		ok(sgf_parse(big, SGF_MAX_DEPTH + 10, &g, &err) == GAME_BAD_SGF &&
		    strstr(err.msg, "expected ';' to start a node") != NULL, "'((': %s", err.msg);
		for (k = 0; k < SGF_MAX_DEPTH + 2; k++)
			memcpy(big + 3 * k, "(;)", 3);
		for (k = 0; k < SGF_MAX_DEPTH + 2; k++)
			memcpy(big + 2 * k, "(;", 2);
		ok(sgf_parse(big, 2 * (SGF_MAX_DEPTH + 2), &g, &err) == GAME_BAD_SGF &&
		    strstr(err.msg, "variations nested more than 1000 deep") != NULL, "deep variations: %s", err.msg);
		memset(big, 'a', SGF_VALUE_MAX + 20);
		memcpy(big, "(;GN[", 5);
		memcpy(big + SGF_VALUE_MAX + 10, "])", 2);
		ok(sgf_parse(big, SGF_VALUE_MAX + 12, &g, &err) == GAME_BAD_SGF &&
		    strstr(err.msg, "a property value of more than 4096 bytes") != NULL, "a long value: %s", err.msg);
	}
}

/* What a viewer may do to a record and it still reads: variations, soft line breaks, FF[3] names, extra nodes. */
static void test_tolerated(void)
{
	char buf[4096];
	struct game g;
	struct sgf_error err;
	char *text;
	const char *at;

	/* the game from turn 5 on as the first variation, two others beside it */
	at = strstr(GAME_SGF, ";OUSTTURN[5");
	snprintf(buf, sizeof(buf), "%.*s(%.*s)(;AB[bb]C[a variation])(;W[aa];B[bb]))\n", (int)(at - GAME_SGF),
	    GAME_SGF, (int)(strlen(at) - 2), at);
	ok(sgf_parse(buf, strlen(buf), &g, &err) == GAME_OK, "variations: the main line is read (%s)", err.msg);
	text = format_file(&g);
	ok_str(text, GAME, "... the same game file");
	free(text);
	game_release(&g);

	/* FF[3]'s long names (the lower-case letters dropped) and a soft line break in a value */
	at = strstr(GAME_SGF, "PB[alice]");
	snprintf(buf, sizeof(buf), "%.*sPlayerBlack[alice]%s", (int)(at - GAME_SGF), GAME_SGF, at + 9);
	text = strstr(buf, "oust.example.net>");
	memmove(text + 7, text + 5, strlen(text + 5) + 1);
	memcpy(text + 5, "\\\n", 2);
	ok(strstr(buf, "PlayerBlack[alice]") != NULL && strstr(buf, "<board-101@oust.\\\nexample.net>") != NULL,
	    "a record with FF[3] names and a soft line break");
	ok(sgf_parse(buf, strlen(buf), &g, &err) == GAME_OK, "... reads (%s)", err.msg);
	text = format_file(&g);
	ok_str(text, GAME, "... the same game file");
	free(text);
	game_release(&g);
	ok(sgf_parse("(;GN[x\\", 8, &g, &err) == GAME_BAD_SGF && strcmp(err.msg, "line 1, column 5: the property value "
	    "opened here is not closed with ']'") == 0, "a value ending in a backslash: %s", err.msg);
	snprintf(buf, sizeof(buf), "%s", GAME_SGF);
	strcpy(strstr(buf, ")\n"), ";C[the end]\n;\n)\n");
	ok(sgf_parse(buf, strlen(buf), &g, &err) == GAME_OK, "nodes without setup a viewer added are skipped (%s)",
	    err.msg);
	game_release(&g);
}

static int trace_cell(const struct rules_board *b, const char *tok)
{
	int x, y;

	if (b->shape == RULES_HEX)
		return rules_parse_point(b, tok, (int)strlen(tok));
	x = atoi(tok);
	y = atoi(strchr(tok, '.') + 1);
	return rules_point(b, x - 1, y - 1);
}

/* The game so far into SGF and back: the same game file?  Returns 0 if so. */
static int round_trip(const struct game *g, int k)
{
	struct game back;
	struct sgf_error err;
	char *sgf = NULL, *a = NULL, *b = NULL;
	size_t len;
	int bad = 1;

	if (sgf_format(g, &sgf, &len, &err) != GAME_OK) {
		printf("# game %d: %s\n", k, err.msg);
		goto out;
	}
	if (sgf_parse(sgf, len, &back, &err) != GAME_OK) {
		printf("# game %d: %s\n", k, err.msg);
		goto out;
	}
	a = format_file(g);
	b = format_file(&back);
	game_release(&back);
	bad = a == NULL || b == NULL || strcmp(a, b) != 0;
	if (bad)
		printf("# game %d: the game files differ\n", k);
out:
	free(sgf);
	free(a);
	free(b);
	return bad;
}

/*
 * A conformance game's end: a chat after it in every third game, the
 * replay checked, the SGF round trip.  Returns 0 if all is well.
 */
static int end_game(struct game *g, int k, struct game_replay *r, int *chats)
{
	if (k % 3 == 0)
		*chats += game_chat(g, "bob", g->last_move + 60) == GAME_OK;
	if (r == NULL || game_verify(g, r) != GAME_OK) {
		printf("# game %d: the history does not replay: %s\n", k, r != NULL ? r->why : "out of memory");
		return 1;
	}
	return round_trip(g, k);
}

/*
 * Every conformance game, played turn by turn into a struct game (a swap
 * after turn 1 in every fifth game, a resignation halfway in every seventh,
 * a timeout in every eleventh; in every third, chats before the first turn,
 * after the third and after the end), exported and imported; the history
 * with its chats replays to the position played.
 */
static void test_conformance(const char *path, int want)
{
	char cmd[256], line[8192];
	struct game g;
	FILE *f;
	int games = 0, bad = 0, pts[RULES_MAX_POINTS], n = 0, turns = 0, swaps = 0, resigns = 0, timeouts = 0;
	int chats = 0;
	struct game_replay *r = malloc(sizeof(*r));
	enum rules_color side = RULES_EMPTY;
	bool open = false, stop = false;
	int64_t now = T0;

	snprintf(cmd, sizeof(cmd), "gzip -dc %s", path);
	f = popen(cmd, "r");
	ok(f != NULL, "conformance trace %s opened", path);
	if (f == NULL)
		return;
	memset(&g, 0, sizeof(g));
#define FLUSH() do { \
	if (n > 0 && !stop) { \
		if (game_move(&g, game_player_to_move(&g), pts, n, now += 60, NULL) != GAME_OK) \
			stop = true, bad++, printf("# game %d: turn refused\n", games); \
		turns++; \
		if (turns == 1 && games % 5 == 0) \
			swaps += game_swap(&g, "bob", now += 60) == GAME_OK; \
		if (turns == 3 && games % 3 == 0) \
			chats += game_chat(&g, "bob", now += 1) == GAME_OK; \
	} \
	n = 0; \
} while (0)
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "game ", 5) == 0) {
			if (open)
				bad += end_game(&g, games, r, &chats);
			game_release(&g);
			games++;
			if (strncmp(line, "game shape=hex side=", 20) == 0)
				game_init_shape(&g, 100 + games, &(struct game_form){ RULES_HEX, atoi(line + 20), games % 5 == 0 },
				    "alice", "bob", T0);
			else
				game_init(&g, 100 + games, atoi(line + 10), games % 5 == 0, "alice", "bob", T0);
			snprintf(g.thread, sizeof(g.thread), "<board-%d@oust.example.net>", 100 + games);
			if (games % 3 == 0)
				chats += game_chat(&g, "alice", T0) == GAME_OK;
			open = true;
			stop = false;
			n = 0;
			turns = 0;
			side = RULES_BLACK;
		} else if (line[0] == 'P' && line[1] == ' ') {
			enum rules_color c = line[2] == 'b' ? RULES_BLACK : RULES_WHITE;

			if (c != side)
				FLUSH();
			side = c;
			if (!stop && turns == 6 && games % 7 == 0) {
				resigns += game_resign(&g, games % 2 ? "alice" : "bob", now += 60) == GAME_OK;
				stop = true;
			} else if (!stop && turns == 5 && games % 11 == 0) {
				timeouts += game_timeout(&g, game_player_to_move(&g), now += 60) == GAME_OK;
				stop = true;
			}
			pts[n++] = trace_cell(&g.rg.board, line + 4);
		} else if (line[0] == 'P' && line[1] == 'A') {
			FLUSH();
		} else if (strncmp(line, "END ", 4) == 0) {
			FLUSH();
			if (!stop && !game_over(&g))
				bad++, printf("# game %d: not over at END\n", games);
		}
	}
	if (open)
		bad += end_game(&g, games, r, &chats);
	game_release(&g);
	free(r);
	pclose(f);
#undef FLUSH
	ok_int(games, want, "conformance %s: %d games", path, games);
	ok(swaps > 0 && resigns > 0 && timeouts > 0, "... %d with a swap, %d resigned, %d lost on time", swaps,
	    resigns, timeouts);
	ok(chats >= want / 3 * 3, "... %d chats noted", chats);
	ok_int(bad, 0, "... each exported as SGF and imported gives the same game file");
}

/* Undo and draw by agreement: the notes as nodes of their own, read back; an agreed draw is RE[0]. */
static void test_notes(void)
{
	struct game g, c, back;
	struct gamefile_error gerr;
	struct sgf_error err;
	char *sgf = NULL, *a, *b;
	size_t len;
	int pts[1];

	game_init(&g, 101, 5, true, "alice", "bob", T0);
	pts[0] = rules_parse_point(&g.rg.board, "C3", 2);
	game_move(&g, "alice", pts, 1, T0 + 10, NULL);
	pts[0] = rules_parse_point(&g.rg.board, "A5", 2);
	game_move(&g, "bob", pts, 1, T0 + 20, NULL);
	ok_int(game_ask_undo(&g, "bob", T0 + 30), GAME_OK, "bob asks to take A5 back");
	ok_int(game_accept(&g, "alice", T0 + 40), GAME_OK, "alice agrees");
	pts[0] = rules_parse_point(&g.rg.board, "E1", 2);
	game_move(&g, "bob", pts, 1, T0 + 50, NULL);
	ok_int(game_propose(&g, "alice", T0 + 60), GAME_OK, "alice offers a draw");
	ok_int(game_accept(&g, "bob", T0 + 70), GAME_OK, "bob accepts");
	ok(sgf_format(&g, &sgf, &len, &err) == GAME_OK, "the SGF is written (%s)", err.msg);
	ok(strstr(sgf, "RE[0]") != NULL, "RE[0]");
	ok(strstr(sgf, "AB[cc]C[Turn 1: alice (Black) C3.]\n;OUSTNOTE[- 2023-11-14T22:13:50Z o bob undo]"
	    "C[bob asks to take back their last turn.]\n;OUSTNOTE[- 2023-11-14T22:14:00Z x alice accept undo:2]"
	    "C[alice agrees: the turns from turn 2 on are taken back.]\n;OUSTTURN[2 ") != NULL,
	    "the undo and its acceptance between turns 1 and 2");
	ok(strstr(sgf, "C[bob accepts: the game is drawn by agreement.]\n)\n") != NULL, "the draw at the end");
	ok(sgf_parse(sgf, len, &back, &err) == GAME_OK, "read back (%s)", err.msg);
	ok(back.end == GAME_END_AGREEMENT && back.rg.result == RULES_DRAW, "drawn by agreement");
	a = format_file(&g);
	b = format_file(&back);
	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "the same game file");
	free(a);
	free(b);
	game_release(&back);
	free(sgf);
	sgf = NULL;

	/* chats: before the first turn, between an offer and its answer, after the end; none of them kept as text */
	game_init(&c, 102, 5, true, "alice", "bob", T0);
	ok_int(game_chat(&c, "bob", T0 + 5), GAME_OK, "bob chats before the first turn");
	pts[0] = rules_parse_point(&c.rg.board, "C3", 2);
	game_move(&c, "alice", pts, 1, T0 + 10, NULL);
	ok_int(game_propose(&c, "alice", T0 + 20), GAME_OK, "alice offers a draw");
	ok_int(game_chat(&c, "bob", T0 + 30), GAME_OK, "bob chats");
	ok_int(game_reject(&c, "bob", T0 + 40), GAME_OK, "bob rejects after his chat");
	ok_int(game_resign(&c, "bob", T0 + 50), GAME_OK, "bob resigns");
	ok_int(game_chat(&c, "alice", T0 + 60), GAME_OK, "alice chats after the end");
	ok(sgf_format(&c, &sgf, &len, &err) == GAME_OK, "the SGF is written (%s)", err.msg);
	ok(strstr(sgf, ";OUSTNOTE[- 2023-11-14T22:13:25Z o bob chat]C[bob chats.]\n;OUSTTURN[1 ") != NULL,
	    "the chat before turn 1");
	ok(strstr(sgf, ";OUSTNOTE[- 2023-11-14T22:14:20Z x alice chat]C[alice chats.]\n)\n") != NULL,
	    "the chat after the end");
	ok(sgf_parse(sgf, len, &back, &err) == GAME_OK, "read back (%s)", err.msg);
	ok(back.nnotes == 5 && back.end == GAME_END_RESIGN && back.rg.result == RULES_BLACK_WINS, "resigned, five notes");
	a = format_file(&c);
	b = format_file(&back);
	ok(a != NULL && b != NULL && strcmp(a, b) == 0, "the same game file");
	free(a);
	free(b);
	game_release(&back);
	game_release(&c);
	free(sgf);
	sgf = NULL;

	/* a bad note is refused with its place */
	ok(gamefile_parse_note("- 2023-11-14T22:14:00Z x alice shrug", 36, 3, &g, &gerr) == GAME_BAD_FILE,
	    "a bad note");
	ok_str(gerr.msg, "line 3: a note after the accepted draw", "its message");
	game_release(&g);
}

int main(void)
{
	test_export();
	test_notes();
	test_hex();
	test_edited();
	test_errors();
	test_tolerated();
	test_conformance("tests/data/public.trace.gz", 300);
	test_conformance("tests/data/public-hex.trace.gz", 212);
	return t_done();
}
