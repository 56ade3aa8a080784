/* test_gamefile: the game file codec: canonical form, round trips, every parse error. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "t.h"

/* A canonical file, written by hand: five turns, Black's E6 captured F5 and placed again. */
static const char CANON[] =
    "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md\n"
    "board: 101\n"
    "size: 11\n"
    "swap: on\n"
    "black: alice\n"
    "white: bob\n"
    "status: playing\n"
    "to-move: white\n"
    "turn: 6\n"
    "created: 2026-11-21T18:41:07Z\n"
    "last-move: 2026-11-21T18:57:47Z\n"
    "thread: <board-101@oust.example.org>\n"
    "\n"
    "x: alice 2/4   o: bob 1/1\n"
    "\n"
    "    A B C D E F G H J K L\n"
    "11  . . . . . . . . . . .  11\n"
    "10  . . . . . . . . . . .  10\n"
    " 9  . . X . . . . . o . .   9\n"
    " 8  . . . . . . . . . . .   8\n"
    " 7  . . . . . . . . . . .   7\n"
    " 6  . . . . X , . . . . .   6\n"
    " 5  . . . . x . . . . . .   5\n"
    " 4  . . . . . . . . . . .   4\n"
    " 3  . . x . . . . . , . .   3\n"
    " 2  . . . . . . . . . . .   2\n"
    " 1  . . . . . . . . . . .   1\n"
    "    A B C D E F G H J K L\n"
    "\n"
    "history:\n"
    "1 2026-11-21T18:45:00Z x alice E5\n"
    "2 2026-11-21T18:50:00Z o bob F5\n"
    "3 2026-11-21T18:52:47Z x alice C3\n"
    "4 2026-11-21T18:55:00Z o bob J9\n"
    "5 2026-11-21T18:57:47Z x alice E6,C9 captured:F5,-\n";

#define T0 INT64_C(1795286467) /* 2026-11-21T18:41:07Z */
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* The header's last line in CANON: new keys go after it. */
#define THREAD "thread: <board-101@oust.example.org>\n"

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/* A random legal turn for the side to move; returns the number of placements. */
static int random_turn(const struct game *g, unsigned *seed, int *pts)
{
	static struct rules_game w;
	uint16_t legal[RULES_MAX_POINTS];
	struct rules_event ev;
	int n = 0, k;

	w = g->rg;
	do {
		k = rules_game_legal(&w, legal);
		if (k == 0)
			break;
		pts[n] = legal[rnd(seed) % (unsigned)k];
		rules_game_play(&w, pts[n++], &ev);
	} while (!ev.turn_over);
	return n;
}

static int random_move(struct game *g, unsigned *seed, int64_t now)
{
	int pts[RULES_MAX_POINTS], n = random_turn(g, seed, pts);

	return game_move(g, game_player_to_move(g), pts, n, now, NULL);
}

static int pt(const struct game *g, const char *s)
{
	return rules_parse_point(&g->rg.board, s, (int)strlen(s));
}

/* Malloc'd copy of s with the first `from` replaced by `to` (NULL: no change). */
static char *replaced(const char *s, const char *from, const char *to)
{
	const char *at = from ? strstr(s, from) : NULL;
	size_t n = strlen(s), a, b;
	char *r;

	if (at == NULL) {
		if (from != NULL)
			printf("# test bug: '%s' not found\n", from);
		return strdup(s);
	}
	a = strlen(from), b = strlen(to);
	r = malloc(n - a + b + 1);
	memcpy(r, s, (size_t)(at - s));
	memcpy(r + (at - s), to, b);
	memcpy(r + (at - s) + b, at + a, n - (size_t)(at - s) - a + 1);
	return r;
}

/*
 * CANON with from replaced by to, loaded into g (checked: "<what> <the
 * error, if any>"); returns the text, which the caller frees.
 */
static char *load_edited(const char *from, const char *to, struct game *g, const char *what)
{
	struct gamefile_error err;
	char *text = replaced(CANON, from, to);

	ok_int(gamefile_parse(text, strlen(text), g, &err), GAME_OK, "%s %s", what, err.msg);
	return text;
}

/* Format, parse, format: the same bytes, and the same game. */
static void round_trip(const struct game *g, const char *what)
{
	struct gamefile_error err;
	struct game h;
	char *a = NULL, *b = NULL;
	size_t alen, blen;
	int x, y, same = 1;

	ok_int(gamefile_format(g, &a, &alen), GAME_OK, "%s: formats", what);
	ok_int(alen, strlen(a), "%s: length", what);
	ok_int(gamefile_parse(a, alen, &h, &err), GAME_OK, "%s: parses back %s", what,
	    err.msg);
	ok_int(gamefile_format(&h, &b, &blen), GAME_OK, "%s: formats again", what);
	ok(alen == blen && memcmp(a, b, alen) == 0, "%s: the same bytes", what);
	ok_int(h.nturns, g->nturns, "%s: history length", what);
	ok_int(h.npoints, g->npoints, "%s: placements", what);
	ok(h.nturns == g->nturns && (g->nturns == 0 || memcmp(h.turns, g->turns,
	    sizeof(*h.turns) * (size_t)g->nturns) == 0), "%s: same history entries", what);
	for (y = 0; y < g->rg.board.width; y++)
		for (x = 0; x < g->rg.board.width; x++)
			same &= rules_at(&h.rg.board, rules_point(&h.rg.board, x, y)) ==
			    rules_at(&g->rg.board, rules_point(&g->rg.board, x, y));
	ok(same && h.shape == g->shape && h.size == g->size, "%s: same position", what);
	ok(h.rg.result == g->rg.result && h.end == g->end && h.rg.turn == g->rg.turn &&
	    (game_over(g) || h.rg.to_move == g->rg.to_move), "%s: same turn state", what);
	ok(h.nnotes == g->nnotes && (g->nnotes == 0 || memcmp(h.notes, g->notes, sizeof(*h.notes) *
	    (size_t)g->nnotes) == 0), "%s: same notes", what);
	ok(strcmp(h.black, g->black) == 0 && strcmp(h.white, g->white) == 0 &&
	    h.swap == g->swap && h.created == g->created && h.last_move == g->last_move &&
	    strcmp(h.thread, g->thread) == 0, "%s: same header", what);
	free(a);
	free(b);
	game_release(&h);
}

static void test_canonical(void)
{
	struct gamefile_error err;
	struct game g, m;
	struct game_replay r;
	char *out = NULL, *crlf, *lower;
	size_t len, i, j;
	int p[2];

	ok_int(gamefile_parse(CANON, strlen(CANON), &g, &err), GAME_OK,
	    "canonical file parses %s", err.msg);
	ok_int(g.board, 101, "board id");
	ok_int(g.size, 11, "size");
	ok(g.swap, "swap on");
	ok_str(g.black, "alice", "black");
	ok_str(g.white, "bob", "white");
	ok_int(g.rg.to_move, RULES_WHITE, "white to move");
	ok_int(g.rg.turn, 6, "turn 6 in progress");
	ok_int(g.nturns, 5, "five history entries");
	ok_str(g.thread, "<board-101@oust.example.org>", "thread");
	ok_int(g.created, T0, "created");
	ok_int(g.turns[4].npoints, 2, "turn 5 has two placements");
	ok_int(game_turn_points(&g, &g.turns[4])[1], pt(&g, "C9"), "turn 5's second is C9");
	ok_int(rules_at(&g.rg.board, pt(&g, "F5")), RULES_EMPTY, "F5 was captured");
	ok_int(game_verify(&g, &r), GAME_OK, "the history replays to the position %s", r.why);
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, CANON, "parse then format gives the canonical bytes back");
	free(out);

	/* The same game played through the game model formats to the same text. */
	game_init(&m, 101, 11, true, "alice", "bob", T0);
	snprintf(m.thread, sizeof(m.thread), "<board-101@oust.example.org>");
	p[0] = pt(&m, "E5");
	game_move(&m, "alice", p, 1, T0 + 233, NULL);
	p[0] = pt(&m, "F5");
	game_move(&m, "bob", p, 1, T0 + 533, NULL);
	p[0] = pt(&m, "C3");
	game_move(&m, "alice", p, 1, T0 + 700, NULL);
	p[0] = pt(&m, "J9");
	game_move(&m, "bob", p, 1, T0 + 833, NULL);
	p[0] = pt(&m, "E6");
	p[1] = pt(&m, "C9");
	ok_int(game_move(&m, "alice", p, 2, T0 + 1000, NULL), GAME_OK, "capture and place again");
	ok_int(gamefile_format(&m, &out, &len), GAME_OK, "played game formats");
	ok_str(out, CANON, "the played game formats to the canonical file");
	free(out);
	round_trip(&m, "played game");
	game_release(&m);
	game_release(&g);

	/* CRLF line ends, trailing blanks and lower case marks are accepted. */
	crlf = malloc(2 * sizeof(CANON));
	for (i = j = 0; CANON[i] != '\0'; i++) {
		if (CANON[i] == '\n')
			crlf[j++] = ' ', crlf[j++] = '\r';
		crlf[j++] = CANON[i];
	}
	crlf[j] = '\0';
	lower = replaced(crlf, " 6  . . . . X ,", " 6  . . . . x ,");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK,
	    "CRLF, trailing blanks, lower case parse %s", err.msg);
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, CANON, "and format back to the canonical file");
	free(out);
	free(lower);
	free(crlf);
	game_release(&g);

	/* The captures of a history line: optional (files from before load), and checked. */
	lower = replaced(CANON, " captured:F5,-\n", "\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "a file without captures loads %s",
	    err.msg);
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, CANON, "and is written with its captures");
	free(out);
	free(lower);
	game_release(&g);
	lower = replaced(CANON, " captured:F5,-\n", " captured:f5,-\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "captures in lower case %s", err.msg);
	free(lower);
	game_release(&g);
	lower = replaced(CANON, " captured:F5,-\n", " captured:E5,-\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "captures are read for their form");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, CANON, "... and written again from the placements");
	free(out);
	free(lower);
	game_release(&g);
	lower = replaced(CANON, " captured:F5,-\n", " captured:F5\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "one item for two placements");
	ok_str(err.msg, "line 35: captured: 1 item for 2 placements", "... refused");
	free(lower);
	lower = replaced(CANON, " captured:F5,-\n", " captured:F5+Z9,-\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "a point not on the board");
	ok_str(err.msg, "line 35: captured: 'Z9' is not a point of the board", "... refused");
	free(lower);
	lower = replaced(CANON, " captured:F5,-\n", " captured:F5,-x\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "a stray character");
	ok_str(err.msg, "line 35: captured: 'F5,-x': items are joined by commas", "... refused");
	free(lower);
	lower = replaced(CANON, "4 2026-11-21T18:55:00Z o bob J9\n", "4 2026-11-21T18:55:00Z o bob resign captured:E5\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "captures after a resignation");
	ok_str(err.msg, "line 34: 'captured:E5' after resign: only placements capture", "... refused");
	free(lower);
	lower = replaced(CANON, " captured:F5,-\n", " taken:F5\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "an unknown sixth field");
	free(lower);
	lower = replaced(CANON, " captured:F5,-\n", " captured:F5,- more\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_BAD_FILE, "a seventh field");
	free(lower);

	/* A domain literal on the right of a thread id is a msg-id too. */
	lower = replaced(CANON, "thread: <board-101@oust.example.org>", "thread: <x.1@[192.0.2.1]>");
	ok_int(gamefile_parse(lower, strlen(lower), &g, NULL), GAME_OK, "thread with a domain literal");
	ok_str(g.thread, "<x.1@[192.0.2.1]>", "thread with a domain literal read");
	game_release(&g);
	free(lower);

	/* No thread line: the thread is empty. */
	lower = replaced(CANON, "thread: <board-101@oust.example.org>\n", "");
	ok_int(gamefile_parse(lower, strlen(lower), &g, NULL), GAME_OK, "no thread line");
	ok_str(g.thread, "", "empty thread");
	ok_int(g.robot_level, 0, "no robot-level line: 0");
	game_release(&g);
	free(lower);

	/* The robot player's level (robot.h): read, and written back after the thread. */
	lower = replaced(CANON, THREAD, THREAD "robot-level: 4\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "robot-level: 4 parses %s", err.msg);
	ok_int(g.robot_level, 4, "robot-level 4");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats with robot-level");
	ok_str(out, lower, "and back to the same text");
	free(out);
	game_release(&g);
	free(lower);

	/* A board's own time limits (challenge -remind=, -timeout=): read, written back; absent, 0. */
	ok_int(gamefile_parse(CANON, strlen(CANON), &g, &err), GAME_OK, "a file without time limits");
	ok(g.remind_days == 0 && g.timeout_days == 0, "... 0: the configuration's");
	ok(game_timeout_days(&g, 21) == 21 && game_remind_days(&g, 7) == 7, "... the defaults apply");
	game_release(&g);
	lower = replaced(CANON, THREAD, THREAD "remind-days: 2\ntimeout-days: 5\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "remind-days, timeout-days parse %s", err.msg);
	ok(g.remind_days == 2 && g.timeout_days == 5, "... 2 and 5 days");
	ok(game_timeout_days(&g, 21) == 5 && game_remind_days(&g, 7) == 2, "... over the defaults");
	ok(game_timeout_at(&g, 21) == g.last_move + 5 * GAME_DAY, "... lost on time 5 days after the last turn");
	game_release(&g);
	ok_int(gamefile_parse_header(lower, strlen(lower), &g, &err), GAME_OK, "... in the header alone too");
	ok(g.remind_days == 2 && g.timeout_days == 5, "... read there");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "read again");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats with them");
	ok_str(out, lower, "and back to the same text");
	free(out);
	game_release(&g);
	free(lower);

	/* A board with clocks (challenge -clock=D+I/C): read, written back; no loss by timeout-days */
	lower = replaced(CANON, THREAD, THREAD "clock: 3+1.5/5\nclock-black: 259200\nclock-white: 100000\n"
	    "weekends: on\nwarned: 24\n");
	ok_int(gamefile_parse(lower, strlen(lower), &g, &err), GAME_OK, "clock keys parse %s", err.msg);
	ok(g.clock_base == 3 * GAME_DAY && g.clock_inc == 3 * GAME_DAY / 2 && g.clock_cap == 5 * GAME_DAY,
	    "... 3+1.5/5 in seconds");
	ok(g.clock_left[0] == 259200 && g.clock_left[1] == 100000 && g.weekends && g.clock_warned == 24, "... the clocks");
	ok(game_timeout_at(&g, 21) == 0, "... timeout_days does not apply");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats with them");
	ok_str(out, lower, "and back to the same text");
	free(out);
	game_release(&g);
	free(lower);
}

/* An administrator fixes a position by editing the drawing. */
static void test_edit(void)
{
	struct game g;
	struct game_replay r;
	char *text;

	text = load_edited(" 3  . . x . .", " 3  . . . . o", &g, "edited drawing loads");
	ok_int(rules_at(&g.rg.board, pt(&g, "C3")), RULES_EMPTY, "C3 removed by the edit");
	ok_int(rules_at(&g.rg.board, pt(&g, "E3")), RULES_WHITE, "E3 added by the edit");
	ok_int(g.rg.board.stones[RULES_BLACK], 3, "black has three stones");
	ok_int(game_verify(&g, &r), GAME_POSITION_DIFFERS, "verify notices the edit");
	ok_str(r.why, "C3 is empty, but black after the history", "and names the point");
	game_release(&g);
	free(text);
}

struct perr {
	const char *from, *to;	/* replace in CANON */
	const char *from2, *to2;	/* a second replacement, or NULL */
	const char *msg;	/* the error, with its line number */
	int line;
};

static const struct perr perrs[] = {
	{ "size: 11", "size 11", NULL, NULL, "line 3: expected 'key: value', found 'size 11'", 3 },
	{ "swap: on", "colour: on", NULL, NULL, "line 4: unknown key 'colour'", 4 },
	{ "swap: on\n", "swap: on\nsize: 11\n", NULL, NULL,
	    "line 5: duplicate key 'size' (first on line 3)", 5 },
	{ "board: 101", "board: 0101", NULL, NULL, "line 2: bad board id '0101'", 2 },
	{ THREAD, THREAD "observers: carol c@rol\n", NULL, NULL, "line 13: bad user id 'c@rol'", 13 },
	{ THREAD, THREAD "observers: carol\nnotify: Carol\n", NULL, NULL, "line 14: carol observes the board twice",
	    14 },
	{ THREAD, THREAD "open-challenge: maybe\n", NULL, NULL,
	    "line 13: open-challenge must be yes or no, not 'maybe'", 13 },
	{ "white: bob", "white: *", NULL, NULL,
	    "line 6: an open seat ('*') on a board with turns: nobody can have played before it was taken", 6 },
	{ "black: alice", "black: *", "white: bob", "white: *",
	    "line 6: both seats are open ('*'): an open challenge has its challenger", 6 },
	{ "size: 11", "size: eleven", NULL, NULL, "line 3: bad size 'eleven'", 3 },
	{ "size: 11", "size: 27", NULL, NULL, "line 3: size 27 is not in 5..25", 3 },
	{ "size: 11", "size: 12", NULL, NULL, "line 3: size 12 is not odd", 3 },
	{ "swap: on", "swap: yes", NULL, NULL, "line 4: swap must be on or off, not 'yes'", 4 },
	{ "black: alice", "black: al ice", NULL, NULL, "line 5: bad user id 'al ice'", 5 },
	{ "status: playing", "status: plying", NULL, NULL, "line 7: unknown status 'plying'", 7 },
	{ "to-move: white", "end: caught", NULL, NULL, "line 8: unknown end 'caught'", 8 },
	{ "to-move: white", "to-move: red", NULL, NULL,
	    "line 8: to-move must be black or white, not 'red'", 8 },
	{ "turn: 6", "turn: six", NULL, NULL, "line 9: bad turn 'six'", 9 },
	{ "created: 2026-11-21T18:41:07Z", "created: 2026-02-30T18:41:07Z", NULL, NULL,
	    "line 10: bad time '2026-02-30T18:41:07Z' (want e.g. 2026-11-21T18:41:07Z)", 10 },
	{ "thread: <board-101@oust.example.org>", "thread: <board 101>", NULL, NULL,
	    "line 12: bad thread '<board 101>' (want a Message-ID, <id-left@id-right>, RFC 5322)", 12 },
	/* printable, but no msg-id: the composer could not use them (msgid.h) */
	{ "thread: <board-101@oust.example.org>", "thread: <a\"b@c>", NULL, NULL,
	    "line 12: bad thread '<a\"b@c>' (want a Message-ID, <id-left@id-right>, RFC 5322)", 12 },
	{ "thread: <board-101@oust.example.org>", "thread: <a<b@c>", NULL, NULL,
	    "line 12: bad thread '<a<b@c>' (want a Message-ID, <id-left@id-right>, RFC 5322)", 12 },
	{ "thread: <board-101@oust.example.org>", "thread: <a@b>x", NULL, NULL,
	    "line 12: bad thread '<a@b>x' (want a Message-ID, <id-left@id-right>, RFC 5322)", 12 },
	{ "thread: <board-101@oust.example.org>", "thread: <a..b@c>", NULL, NULL,
	    "line 12: bad thread '<a..b@c>' (want a Message-ID, <id-left@id-right>, RFC 5322)", 12 },
	{ "thread: <board-101@oust.example.org>", "thread: board-101@oust.example.org", NULL, NULL,
	    "line 12: bad thread 'board-101@oust.example.org' (want a Message-ID, <id-left@id-right>, RFC 5322)",
	    12 },
	{ THREAD, THREAD "robot-level: 9\n", NULL, NULL, "line 13: robot-level must be 1 to 5, not '9'", 13 },
	{ THREAD, THREAD "robot-level: 0\n", NULL, NULL, "line 13: robot-level must be 1 to 5, not '0'", 13 },
	{ THREAD, THREAD "robot-level: three\n", NULL, NULL, "line 13: robot-level must be 1 to 5, not 'three'", 13 },
	{ THREAD, THREAD "timeout-days: 0\n", NULL, NULL, "line 13: timeout-days must be 1 to 3650, not '0'", 13 },
	{ THREAD, THREAD "remind-days: 366\n", NULL, NULL, "line 13: remind-days must be 1 to 365, not '366'", 13 },
	{ THREAD, THREAD "timeout-days: x\n", NULL, NULL, "line 13: timeout-days must be 1 to 3650, not 'x'", 13 },
	/* the clocks (gameclock.h): fsck reads them so too */
	{ THREAD, THREAD "clock: 3+1/2\nclock-black: 1\nclock-white: 1\n", NULL, NULL,
	    "line 13: clock must be D+I/C in days (0 < D <= C <= 3650, as 3+1.5/5), not '3+1/2'", 13 },
	{ THREAD, THREAD "clock: 3+1/5\nclock-black: 1\n", NULL, NULL,
	    "line 13: clock needs clock-black: and clock-white: lines", 13 },
	{ THREAD, THREAD "clock-black: 1\n", NULL, NULL,
	    "line 13: clock-black given, but the board has no clock: line", 13 },
	{ THREAD, THREAD "clock: 3+1/5\nclock-black: 432001\nclock-white: 1\n", NULL, NULL,
	    "line 14: clock-black is past the clock's cap (432000 seconds)", 14 },
	{ THREAD, THREAD "clock: 3+1/5\nclock-black: -1\nclock-white: 1\n", NULL, NULL,
	    "line 14: clock-black must be the seconds left, 0 to 315360000, not '-1'", 14 },
	{ THREAD, THREAD "timeout-days: 5\nclock: 3+1/5\nclock-black: 1\nclock-white: 1\n", NULL, NULL,
	    "line 13: timeout-days given with clock: a board has one or the other", 13 },
	{ THREAD, THREAD "clock: 3+1/5\nclock-black: 1\nclock-white: 1\nweekends: off\n", NULL, NULL,
	    "line 16: weekends must be on (off is not written), not 'off'", 16 },
	{ THREAD, THREAD "clock: 3+1/5\nclock-black: 1\nclock-white: 1\nwarned: 0\n", NULL, NULL,
	    "line 16: warned must be the hours of a warn mark, 1 to 8784, not '0'", 16 },
	{ "swap: on\n", "", NULL, NULL, "line 12: the header has no 'swap:' line", 12 },
	{ "to-move: white\n", "to-move: white\nend: capture\n", NULL, NULL,
	    "line 9: end given, but the status is playing", 9 },
	{ "to-move: white\n", "", NULL, NULL, "line 7: a playing game needs a 'to-move:' line", 7 },
	{ "status: playing", "status: black-won", NULL, NULL,
	    "line 7: status black-won needs an 'end:' line", 7 },
	{ "status: playing\nto-move: white", "status: black-won\nend: capture\nto-move: white",
	    NULL, NULL, "line 9: to-move given, but the game is over", 9 },
	{ "status: playing\nto-move: white", "status: drawn\nend: capture", NULL, NULL,
	    "line 8: end capture does not fit status drawn", 8 },
	{ "status: playing\nto-move: white", "status: black-won\nend: no-placements", NULL, NULL,
	    "line 8: end no-placements does not fit status black-won", 8 },
	{ "x: alice 2/4   o: bob 1/1", "x: alice   o: bob", NULL, NULL,
	    "line 14: expected the players line 'x: NAME LARGEST/TOTAL   o: NAME LARGEST/TOTAL', "
	    "found 'x: alice   o: bob'", 14 },
	{ "x: alice 2/4   o: bob 1/1", "x: alice 2/4   o: carol 1/1", NULL, NULL,
	    "line 14: the players line names 'alice' and 'carol', the header black alice and "
	    "white bob", 14 },
	{ "    A B C D E F G H J K L\n11", "    A B C D E F G H I K L\n11", NULL, NULL,
	    "line 16: column letters '    A B C D E F G H I K L' do not match size 11", 16 },
	{ "L\n\nhistory", "\n\nhistory", NULL, NULL,
	    "line 28: column letters '    A B C D E F G H J K' do not match size 11", 28 },
	{ "10  . . . . . . . . . . .  10", "12  . . . . . . . . . . .  12", NULL, NULL,
	    "line 18: expected row 10, found '12  . . . . . . . . . . .  12'", 18 },
	{ " 8  . . . . . . . . . . .   8", " 8  . . . . . . . . . . . .   8", NULL, NULL,
	    "line 20: row 8 has 12 points, expected 11", 20 },
	{ " 7  . . . . . . . . . . .   7", " 7  . . . . z . . . . . .   7", NULL, NULL,
	    "line 21: row 7: unknown point 'z' in column E (use x, o, . or ,)", 21 },
	{ " 4  . . . . . . . . . . .   4", " 4  . . . . . . . . . . .   3", NULL, NULL,
	    "line 24: row 4 ends with '3', expected 4", 24 },
	{ "\nhistory:\n", "\nhist:\n", NULL, NULL, "line 30: expected 'history:', found 'hist:'",
	    30 },
	{ "4 2026-11-21T18:55:00Z o bob J9", "4 2026-11-21T18:55:00Z o bob", NULL, NULL,
	    "line 34: expected 'NUMBER TIME x|o PLAYER ACTION [captured:...]', found "
	    "'4 2026-11-21T18:55:00Z o bob'", 34 },
	{ "4 2026-11-21T18:55:00Z o bob J9", "four 2026-11-21T18:55:00Z o bob J9", NULL, NULL,
	    "line 34: bad turn number 'four'", 34 },
	{ "4 2026-11-21T18:55:00Z o bob J9", "5 2026-11-21T18:55:00Z o bob J9", NULL, NULL,
	    "line 34: turn 5 out of order, expected 4", 34 },
	{ "4 2026-11-21T18:55:00Z o bob J9", "4 2026-11-21 o bob J9", NULL, NULL,
	    "line 34: bad time '2026-11-21' (want e.g. 2026-11-21T18:41:07Z)", 34 },
	{ "o bob J9", "z bob J9", NULL, NULL, "line 34: unknown colour 'z' (x or o)", 34 },
	{ "o bob J9", "o b.b J9", NULL, NULL, "line 34: bad user id 'b.b'", 34 },
	{ "o bob J9", "o carol J9", NULL, NULL, "line 34: 'carol' is not a player of board 101",
	    34 },
	{ "o bob J9", "o bob Z9", NULL, NULL, "line 34: 'Z9' is not a point on an 11x11 board",
	    34 },
	{ "o bob J9", "o bob J9,,K9", NULL, NULL, "line 34: empty placement in 'J9,,K9'", 34 },
	{ "o bob J9", "o bob resign", NULL, NULL,
	    "line 35: turn 5 follows the end of the game at turn 4", 35 },
	{ "o bob J9", "x alice J9", NULL, NULL, "line 34: turn 4 is white's turn, not black's", 34 },
	{ "o bob J9", "o alice J9", NULL, NULL, "line 34: turn 4: white was played by bob, not alice",
	    34 },
	/* With a swap at turn 2, Black's turn 1 was played by the current White. */
	{ "o bob F5", "o alice swap", NULL, NULL,
	    "line 31: turn 1: black was played by bob, not alice", 31 },
	{ "x alice C3", "x alice swap", NULL, NULL,
	    "line 33: swap at turn 3: only turn 2 may be a swap", 33 },
	{ "swap: on", "swap: off", "o bob F5", "o bob swap",
	    "line 32: swap at turn 2, but swap is off", 32 },
	{ "turn: 6", "turn: 7", NULL, NULL, "line 9: turn 7, but the history has 5 turns", 9 },
	{ "x alice E6,C9 captured:F5,-", "x alice resign", NULL, NULL,
	    "line 7: status playing, but the game ended at turn 5 (resign)", 7 },
	{ "to-move: white", "to-move: black", NULL, NULL,
	    "line 8: to-move black, but turn 6 is white's", 8 },
	{ "status: playing\nto-move: white", "status: black-won\nend: resign", NULL, NULL,
	    "line 8: end resign, but the last turn is not white's resignation", 8 },
	{ "status: playing\nto-move: white", "status: white-won\nend: timeout", NULL, NULL,
	    "line 8: end timeout, but the last turn is not black's timeout", 8 },
	{ "status: playing\nto-move: white", "status: white-won\nend: capture", NULL, NULL,
	    "line 8: end capture, but the last turn is not a placement by white", 8 },
	{ "status: playing\nto-move: white", "status: drawn\nend: no-placements",
	    "x alice E6,C9 captured:F5,-", "x alice pass",
	    "line 8: end no-placements, but the last turn is not a placement", 8 },
	{ "\nx: alice", "", "", "", "line 13: unexpected end of file, expected the board", 13 },
	{ "\n    A B C D E F G H J K L\n11", "", "", "",
	    "line 15: unexpected end of file, expected the column letters", 15 },
	{ "\n 2  .", "", "", "", "line 25: unexpected end of file, expected row 2", 25 },
	{ "\n    A B C D E F G H J K L\n\n", "", "", "",
	    "line 27: unexpected end of file, expected the column letters", 27 },
	{ "\nhistory:\n", "", "", "", "line 29: unexpected end of file, expected 'history:'", 29 },
	{ "\nsize: 11", "", "", "", "line 2: unexpected end of file in the header", 2 },
};

/* Check one parse error. */
static void expect_error(const char *text, const char *msg, int line)
{
	struct gamefile_error err;
	struct game g;

	memset(&g, 0x5a, sizeof(g));
	ok_int(gamefile_parse(text, strlen(text), &g, &err), GAME_BAD_FILE, "refused: %s", msg);
	ok_str(err.msg, msg, "the message for line %d", line);
	ok_int(err.line, line, "line number %d", line);
	ok(g.turns == NULL && g.points == NULL && g.nturns == 0, "nothing left allocated");
	game_release(&g);
}

/*
 * Each edit e[0..n) of base refused with its message and line.  from2 ==
 * "" means: cut the text where `to` was put (so "from" marks where the
 * file ends).
 */
static void expect_errors(const char *base, const struct perr *e, size_t n)
{
	char *a, *b, *cut;

	for (; n > 0; e++, n--) {
		if (e->from2 != NULL && e->from2[0] == '\0') {
			/* Truncation: the file ends just before `from`, keeping its newline. */
			a = strdup(base);
			cut = strstr(a, e->from);
			if (cut == NULL)
				printf("# test bug: '%s' not found\n", e->from);
			else
				cut[1] = '\0';
			expect_error(a, e->msg, e->line);
			free(a);
			continue;
		}
		a = replaced(base, e->from, e->to);
		b = replaced(a, e->from2, e->to2);
		expect_error(b, e->msg, e->line);
		free(a);
		free(b);
	}
}

static void test_errors(void)
{
	expect_errors(CANON, perrs, NELEM(perrs));
}

/* Errors that need their own text. */
static void test_errors_special(void)
{
	/* Seed 003 Figure 5: Black has no placement, so Black cannot be the side to move. */
	static const char fig5[] =
	    "board: 102\nsize: 5\nswap: off\nblack: alice\nwhite: bob\nstatus: playing\n"
	    "to-move: black\nturn: 1\ncreated: 2026-11-21T18:41:07Z\n"
	    "last-move: 2026-11-21T18:41:07Z\n\n"
	    "x: alice 0/0   o: bob 0/0\n\n"
	    "    A B C D E\n"
	    " 5  o o o o o   5\n"
	    " 4  o o o o .   4\n"
	    " 3  . o . . x   3\n"
	    " 2  x . x x x   2\n"
	    " 1  x x x . x   1\n"
	    "    A B C D E\n\nhistory:\n";
	/* Seed 003 edge case 6: the full checkerboard, where nobody can place. */
	static const char full[] =
	    "board: 102\nsize: 5\nswap: off\nblack: alice\nwhite: bob\nstatus: playing\n"
	    "to-move: black\nturn: 1\ncreated: 2026-11-21T18:41:07Z\n"
	    "last-move: 2026-11-21T18:41:07Z\n\n"
	    "x: alice 0/0   o: bob 0/0\n\n"
	    "    A B C D E\n"
	    " 5  x o x o x   5\n"
	    " 4  o x o x o   4\n"
	    " 3  x o x o x   3\n"
	    " 2  o x o x o   2\n"
	    " 1  x o x o x   1\n"
	    "    A B C D E\n\nhistory:\n";
	struct gamefile_error err;
	struct game g;
	char *a, *b, *long_line;
	size_t n, i;

	expect_error(fig5, "line 7: black is to move but has no legal placement (the history "
	    "must record its pass)", 7);
	expect_error(full, "line 7: neither side has a legal placement: the game is drawn "
	    "(status drawn, end no-placements)", 7);
	/* Figure 5 with White to move loads: a position set up by hand. */
	a = replaced(fig5, "to-move: black\nturn: 1", "to-move: white\nturn: 2");
	b = replaced(a, "history:\n", "history:\n1 2026-11-21T18:41:07Z x alice pass\n");
	ok_int(gamefile_parse(b, strlen(b), &g, &err), GAME_OK, "figure 5, white to move %s",
	    err.msg);
	game_release(&g);
	free(a);
	free(b);

	/* A line too long, and a NUL byte. */
	long_line = malloc(GAMEFILE_LINE_MAX + 64);
	memset(long_line, 'a', GAMEFILE_LINE_MAX + 1);
	memcpy(long_line, "thread: <", 9);
	long_line[GAMEFILE_LINE_MAX + 1] = '\0';
	a = replaced(CANON, "thread: <board-101@oust.example.org>", long_line);
	expect_error(a, "line 12: line longer than 4096 bytes", 12);
	free(a);
	free(long_line);

	a = strdup(CANON);
	n = strlen(a);
	*strstr(a, "white: bob") = '\0';
	ok_int(gamefile_parse(a, n, &g, &err), GAME_BAD_FILE, "NUL byte refused");
	ok_str(err.msg, "line 6: NUL byte in the line", "NUL byte message");
	free(a);

	/* More placements than a board has points. */
	long_line = malloc(8 + 3 * (RULES_MAX_POINTS + 1) + 1);
	strcpy(long_line, "o bob ");
	for (i = 0; i <= RULES_MAX_POINTS; i++)
		strcat(long_line, i ? ",A1" : "A1");
	a = replaced(CANON, "o bob J9", long_line);
	expect_error(a, "line 34: more than 625 placements in one turn", 34);
	free(a);
	free(long_line);

	/* err may be NULL. */
	ok_int(gamefile_parse("", 0, &g, NULL), GAME_BAD_FILE, "empty text refused, err NULL");
	ok_int(gamefile_parse("", 0, &g, &err), GAME_BAD_FILE, "empty text refused");
	ok_str(err.msg, "line 1: unexpected end of file in the header", "empty text message");
}

static void test_times(void)
{
	char buf[GAMEFILE_TIME_SIZE];
	int64_t t = -1;

	ok_str(gamefile_time_str(T0, buf), "2026-11-21T18:41:07Z", "time format");
	ok_str(gamefile_time_str(0, buf), "1970-01-01T00:00:00Z", "the epoch");
	ok(gamefile_time_parse("2026-11-21T18:41:07Z", 20, &t) && t == T0, "time parse");
	ok(gamefile_time_parse("2028-02-29T23:59:59Z", 20, &t), "leap day");
	ok(!gamefile_time_parse("2026-02-29T00:00:00Z", 20, &t), "no 29 February in 2026");
	ok(!gamefile_time_parse("2026-11-21T24:00:00Z", 20, &t), "no hour 24");
	ok(!gamefile_time_parse("1969-12-31T23:59:59Z", 20, &t), "nothing before 1970");
	ok(!gamefile_time_parse("2026-11-21 18:41:07Z", 20, &t), "T required");
	ok(!gamefile_time_parse("2026-11-21T18:41:07", 19, &t), "Z required");
	ok(!gamefile_time_parse("2026-11-21T18:41:0xZ", 20, &t), "digits required");
	ok(!gamefile_time_parse("+026-11-21T18:41:07Z", 20, &t), "no sign");
	ok(!gamefile_time_parse("2026-13-01T00:00:00Z", 20, &t), "no month 13");
	ok(!gamefile_time_parse("2026-04-31T00:00:00Z", 20, &t), "no 31 April");
	ok(!gamefile_time_parse("2100-02-29T00:00:00Z", 20, &t), "no 29 February in 2100");
	ok(gamefile_time_parse("2000-02-29T00:00:00Z", 20, &t), "29 February 2000");
	ok(gamefile_time_parse("9999-12-31T23:59:59Z", 20, &t) && t == INT64_C(253402300799),
	    "the last second of 9999");
	ok_str(gamefile_time_str(INT64_C(253402300799), buf), "9999-12-31T23:59:59Z",
	    "and back");
}

/* The date arithmetic agrees with gmtime_r() and timegm() from 1970 to 9999. */
static void test_times_libc(void)
{
	char buf[GAMEFILE_TIME_SIZE], want[64];
	int64_t t, back;
	time_t tt;
	struct tm tm;
	int bad = 0, n = 0;

	for (t = 0; t <= INT64_C(253402300799); t += INT64_C(86400) * 997 + 3607, n++) {
		tt = (time_t)t;
		gmtime_r(&tt, &tm);
		strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
		gamefile_time_str(t, buf);
		if (strcmp(buf, want) != 0 || !gamefile_time_parse(buf, 20, &back) || back != t ||
		    (int64_t)timegm(&tm) != t) {
			if (bad++ == 0)
				printf("# %lld: got %s, want %s\n", (long long)t, buf, want);
		}
	}
	ok_int(bad, 0, "%d times from 1970 to 9999 agree with gmtime_r and timegm", n);
}

/*
 * A 5x5 game in which Black, at turn 25, has no legal placement and passes
 * (found by random play); White's E1,D3,B3 would then win.
 */
static const char *const pass_game[] = {
	"E4", "D2", "B3", "C1", "E2", "D1,B2", "A4", "A5", "B5", "A3", "C4", "C5", "A2", "D4",
	"E2", "E5", "B1", "B4", "C2", "E3", "D5", "A1", "D3", "C3"
};

/* Play "D1,B2" as the side to move. */
static int play(struct game *g, const char *turn, int64_t now)
{
	int pts[RULES_MAX_POINTS], n = 0;
	const char *s = turn, *e;

	for (;;) {
		e = strchr(s, ',');
		pts[n++] = rules_parse_point(&g->rg.board, s, e ? (int)(e - s) : (int)strlen(s));
		if (e == NULL)
			break;
		s = e + 1;
	}
	return game_move(g, game_player_to_move(g), pts, n, now, NULL);
}

/* Swap, an automatic pass and a resignation in one game. */
static void test_swap_pass_resign(void)
{
	struct game g;
	struct game_replay r;
	int64_t now = T0;
	size_t i;
	int bad = 0;

	game_init(&g, 4242, 5, true, "alice", "bob", now);
	bad += play(&g, pass_game[0], now += 60) != GAME_OK;
	bad += game_swap(&g, "bob", now += 60) != GAME_OK;
	for (i = 1; i < sizeof(pass_game) / sizeof(pass_game[0]); i++)
		bad += play(&g, pass_game[i], now += 60) != GAME_OK;
	ok_int(bad, 0, "the pass game with a swap plays");
	ok_int(g.nturns, 26, "24 placement turns, the swap and the pass");
	ok_int(g.turns[25].action, GAME_PASS, "turn 26 is a pass");
	ok_str(g.turns[25].player, "bob", "by bob, who owns black after the swap");
	ok_int(game_resign(&g, "bob", now += 60), GAME_OK, "bob resigns on alice's turn");
	ok_int(g.rg.result, RULES_WHITE_WINS, "white (alice) wins");
	ok_int(game_verify(&g, &r), GAME_OK, "the history replays %s", r.why);
	round_trip(&g, "swap, pass, resign");
	game_release(&g);
}

/* A draw: Black fills the 13 points whose column+row is even, White the 12 others. */
static void test_draw(void)
{
	struct game g;
	int x, y, p, ib = 0, iw = 0, black[13], white[12];

	game_init(&g, 4343, 5, false, "alice", "bob", T0);
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
	ok_int(g.rg.result, RULES_DRAW, "the full checkerboard is a draw");
	round_trip(&g, "draw");
	game_release(&g);
}

/* Black wins by capture, and a loss on time. */
static void test_ends(void)
{
	struct game g;
	int p;

	game_init(&g, 4444, 5, true, "alice", "bob", T0);
	p = pt(&g, "C3");
	game_move(&g, "alice", &p, 1, T0 + 1, NULL);
	p = pt(&g, "B3");
	game_move(&g, "bob", &p, 1, T0 + 2, NULL);
	p = pt(&g, "D3");
	ok_int(game_move(&g, "alice", &p, 1, T0 + 3, NULL), GAME_OK, "D3 captures B3");
	ok_int(g.rg.result, RULES_BLACK_WINS, "black wins");
	round_trip(&g, "capture");
	game_release(&g);

	game_init(&g, 4545, 7, false, "alice", "bob", T0);
	p = pt(&g, "C3");
	game_move(&g, "alice", &p, 1, T0 + 1, NULL);
	ok_int(game_timeout(&g, "bob", T0 + 999999), GAME_OK, "bob times out");
	round_trip(&g, "timeout");
	game_release(&g);

	game_init(&g, 4646, 25, true, "alice", "bob", T0);
	round_trip(&g, "new 25x25 game");
	game_release(&g);
}

/* A 300-turn game: round trip and load time. */
static void test_long(void)
{
	struct gamefile_error err;
	struct game g, h;
	struct game_replay r;
	struct timespec t1, t2;
	unsigned seed, s;
	char *text = NULL;
	size_t len;
	double us, best = 0;
	int i, round, runs = 20;
	bool found = false;

	for (seed = 1; seed < 50 && !found; seed++) {
		s = seed;
		game_init(&g, 4747, 25, false, "alice", "bob", T0);
		while (!game_over(&g) && g.nturns < 300)
			random_move(&g, &s, T0 + 60 * g.nturns);
		found = g.nturns >= 300;
		if (!found)
			game_release(&g);
	}
	ok(found, "a game of %d turns", found ? g.nturns : 0);
	if (!found)
		return;
	ok_int(game_verify(&g, &r), GAME_OK, "300 turns replay %s", r.why);
	round_trip(&g, "300 turns");
	gamefile_format(&g, &text, &len);
	/* The best of ten rounds in CPU time, so that a busy machine does not fail the test. */
	for (round = 0; round < 10; round++) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		for (i = 0; i < runs; i++) {
			if (gamefile_parse(text, len, &h, &err) != GAME_OK)
				break;
			game_release(&h);
		}
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t2);
		us = ((double)(t2.tv_sec - t1.tv_sec) * 1e6 +
		    (double)(t2.tv_nsec - t1.tv_nsec) / 1e3) / runs;
		if (round == 0 || us < best)
			best = us;
	}
	us = best;
	ok_int(i, runs, "parsed %d times", runs);
	printf("# a 300-turn file (%zu bytes) loads in %.1f us\n", len, us);
#ifdef __SANITIZE_ADDRESS__
	/* the sanitizer build is several times slower, and a loaded machine slower still: a wide bound */
	ok(us < 5000, "a 300-turn file loads in under 5 ms with AddressSanitizer (%.1f us)", us);
#else
	ok(us < 1000, "a 300-turn file loads in under a millisecond (%.1f us)", us);
#endif
	free(text);
	game_release(&g);
}

/* The header alone, for listings: fields set, board and history not read. */
static void test_header_only(void)
{
	struct gamefile_error err;
	struct game g;
	char *bad;
	const char *over = "# c\nboard: 7777\nsize: 5\nswap: off\nblack: carol\nwhite: dave\n"
	    "status: white-won\nend: resign\nturn: 3\ncreated: 2026-11-21T18:41:07Z\n"
	    "last-move: 2026-11-21T18:41:07Z\n\nnot a board at all\n";

	ok_int(gamefile_parse_header(CANON, strlen(CANON), &g, &err), GAME_OK, "header of CANON");
	ok_int(g.board, 101, "header: board");
	ok_int(g.size, 11, "header: size");
	ok(g.swap, "header: swap on");
	ok_str(g.black, "alice", "header: black");
	ok_str(g.white, "bob", "header: white");
	ok_int(g.rg.result, RULES_PLAYING, "header: playing");
	ok_int(g.rg.to_move, RULES_WHITE, "header: white to move");
	ok_int(g.rg.turn, 6, "header: turn 6");
	ok_int(g.nturns, 0, "header: the history is not read");
	ok_int(g.rg.board.stones[RULES_BLACK], 0, "header: the board is not read");
	ok_str(g.thread, "<board-101@oust.example.org>", "header: thread");
	game_release(&g);

	ok_int(gamefile_parse_header(over, strlen(over), &g, &err), GAME_OK,
	    "header of a finished game, whatever follows it");
	ok_int(g.rg.result, RULES_WHITE_WINS, "header: white won");
	ok_int(g.end, GAME_END_RESIGN, "header: by resignation");
	ok_int(g.rg.to_move, RULES_EMPTY, "header: nobody to move once over");

	bad = replaced(CANON, "status: playing", "status: plying");
	ok_int(gamefile_parse_header(bad, strlen(bad), &g, &err), GAME_BAD_FILE, "header errors are found");
	ok_str(err.msg, "line 7: unknown status 'plying'", "header error message");
	ok_int(g.board, 0, "on failure the game is empty");
	free(bad);
}

/* A hex-hex game of side 3 in canonical form. */
static const char HEXCANON[] =
    "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md\n"
    "board: 101\n"
    "shape: hex\n"
    "size: 3\n"
    "swap: on\n"
    "black: alice\n"
    "white: bob\n"
    "status: playing\n"
    "to-move: black\n"
    "turn: 5\n"
    "created: 2026-11-21T18:41:07Z\n"
    "last-move: 2026-11-21T18:57:47Z\n"
    "\n"
    "x: alice 1/2   o: bob 1/2\n"
    "\n"
    "      1 2 3\n"
    "  e  . . . 4  e\n"
    " d  . . o . 5  d\n"
    "c  . . . . .  c\n"
    " b  . . . x 5  b\n"
    "  a  . x O 4  a\n"
    "      1 2 3\n"
    "\n"
    "history:\n"
    "1 2026-11-21T18:45:00Z x alice a2\n"
    "2 2026-11-21T18:50:00Z o bob d3\n"
    "3 2026-11-21T18:52:47Z x alice b4\n"
    "4 2026-11-21T18:57:47Z o bob a3\n";

/* Hex-hex game files: shape: hex, the hex drawing, hex cells in the history. */
static void test_hex(void)
{
	static const struct perr herrs[] = {
		{ "shape: hex", "shape: round", NULL, NULL, "line 3: shape must be square or hex, not 'round'", 3 },
		{ "size: 3", "size: 11", NULL, NULL, "line 4: hex side 11 is not in 3..10", 4 },
		{ "size: 3", "size: 2", NULL, NULL, "line 4: hex side 2 is not in 3..10", 4 },
		{ "      1 2 3\n  e", "      1 2 4\n  e", NULL, NULL,
		    "line 16: cell numbers '      1 2 4' do not match a hex board of side 3", 16 },
		{ "      1 2 3\n\nhistory", "      1 2\n\nhistory", NULL, NULL,
		    "line 22: cell numbers '      1 2' do not match a hex board of side 3", 22 },
		{ "  e  . . . 4  e", "  f  . . . 4  f", NULL, NULL,
		    "line 17: expected row e, found '  f  . . . 4  f'", 17 },
		{ " d  . . o . 5  d", " d  . . o . . 5  d", NULL, NULL, "line 18: row d has 5 cells, expected 4", 18 },
		{ "c  . . . . .  c", "c  . . . .  c", NULL, NULL, "line 19: row c has 4 cells, expected 5", 19 },
		{ " b  . . . x 5  b", " b  . . . x 5  a", NULL, NULL, "line 20: row b ends with 'a', expected b", 20 },
		{ " b  . . . x 5  b", " b  . . . x 6  b", NULL, NULL,
		    "line 20: row b: '6' after the last cell, expected the number 5", 20 },
		{ "c  . . . . .  c", "c  . . z . .  c", NULL, NULL,
		    "line 19: row c: unknown cell 'z' at c3 (use x, o or .)", 19 },
		{ "o bob a3", "o bob a4", NULL, NULL, "line 28: 'a4' is not a cell of a hex board of side 3", 28 },
		{ "x alice b4", "x alice B4,f1", NULL, NULL, "line 27: 'f1' is not a cell of a hex board of side 3", 27 },
	};
	struct gamefile_error err;
	struct game g;
	char *a, *b;
	size_t i;
	unsigned seed;
	int side, games = 0;

	ok_int(gamefile_parse(HEXCANON, strlen(HEXCANON), &g, &err), GAME_OK, "hex file parses %s", err.msg);
	ok(g.shape == RULES_HEX && g.size == 3 && g.rg.board.shape == RULES_HEX && g.rg.board.npoints == 19,
	    "hex: shape and side");
	ok_int(rules_at(&g.rg.board, pt(&g, "a3")), RULES_WHITE, "hex: a3 is white");
	ok_int(rules_at(&g.rg.board, pt(&g, "b4")), RULES_BLACK, "hex: b4 is black");
	ok_int(g.rg.to_move, RULES_BLACK, "hex: black to move");
	round_trip(&g, "hex side 3");
	a = NULL;
	gamefile_format(&g, &a, &i);
	ok_str(a, HEXCANON, "hex: formatted byte for byte as read");
	free(a);
	game_release(&g);

	/* The header keys in any order, shape after size; shape: square is the default. */
	a = replaced(HEXCANON, "shape: hex\nsize: 3\n", "size: 3\nshape: hex\n");
	ok_int(gamefile_parse(a, strlen(a), &g, &err), GAME_OK, "hex: shape after size %s", err.msg);
	game_release(&g);
	free(a);
	a = replaced(CANON, "board: 101\n", "board: 101\nshape: square\n");
	ok_int(gamefile_parse(a, strlen(a), &g, &err), GAME_OK, "shape: square accepted %s", err.msg);
	ok(g.shape == RULES_SQUARE && g.size == 11, "shape: square, size 11");
	game_release(&g);
	free(a);
	/* A hex side is not a square size: its own range, and a hex file needs a hex drawing. */
	a = replaced(CANON, "board: 101\n", "board: 101\nshape: hex\n");
	expect_error(a, "line 4: hex side 11 is not in 3..10", 4);
	b = replaced(a, "size: 11", "size: 6");
	expect_error(b, "line 17: cell numbers '    A B C D E F G H J K L' do not match a hex board of side 6", 17);
	free(a);
	free(b);

	expect_errors(HEXCANON, herrs, NELEM(herrs));
	/* The drawing is what counts on load, as for square boards. */
	a = replaced(HEXCANON, " d  . . o . 5  d", " d  . . . . 5  d");
	ok_int(gamefile_parse(a, strlen(a), &g, &err), GAME_OK, "hex: an edited position loads %s", err.msg);
	ok_int(rules_at(&g.rg.board, pt(&g, "d3")), RULES_EMPTY, "hex: the drawing's d3 is empty");
	game_release(&g);
	free(a);
	a = strdup(HEXCANON);
	*strstr(a, "  a  . x O") = '\0';
	expect_error(a, "line 20: unexpected end of file, expected row a", 20);
	free(a);

	/* Random hex games of every side round-trip. */
	for (side = RULES_HEX_MIN_SIDE; side <= RULES_HEX_MAX_SIDE; side++) {
		char what[32];

		seed = (unsigned)side;
		game_init_shape(&g, 4000 + side, &(struct game_form){ RULES_HEX, side, side % 2 == 0 }, "alice", "bob", T0);
		while (!game_over(&g) && g.nturns < 12 * side)
			random_move(&g, &seed, T0 + 60 * g.nturns);
		snprintf(what, sizeof(what), "hex side %d, %d turns", side, g.nturns);
		round_trip(&g, what);
		games++;
		game_release(&g);
	}
	ok_int(games, 8, "hex games of sides 3 to 10 round-trip");
}

/* Observers, notified users and an open seat: written, read back, and the same file again. */
static void test_observers_open(void)
{
	struct gamefile_error err;
	struct game g, h;
	char *text = NULL, *again = NULL, *open = NULL;
	size_t len, len2;

	ok_int(gamefile_parse(CANON, strlen(CANON), &g, &err), GAME_OK, "the canonical file: no observers");
	ok_int(g.nobservers, 0, "... none read (a file from before observers)");
	ok(game_observer_add(&g, "carol", false) && game_observer_add(&g, "dave", true) &&
	    game_observer_add(&g, "erin", false), "three observers added");
	ok_int(gamefile_format(&g, &text, &len), GAME_OK, "written");
	ok(text != NULL && strstr(text, "\nthread: <board-101@oust.example.org>\nobservers: carol erin\nnotify: dave\n"
	    "\n") != NULL, "observers: and notify: after the other keys, in their order");
	ok_int(gamefile_parse(text, len, &h, &err), GAME_OK, "read back");
	ok(h.nobservers == 3 && game_observer_find(&h, "dave") >= 0 && h.observers[game_observer_find(&h, "dave")].results &&
	    !h.observers[game_observer_find(&h, "carol")].results, "... the same observers, dave for the result only");
	ok_int(gamefile_format(&h, &again, &len2), GAME_OK, "written again");
	ok(again != NULL && len2 == len && memcmp(text, again, len) == 0, "... byte for byte the same");
	game_observer_remove(&h, game_observer_find(&h, "carol"));
	/* read back: the observers: line first, then notify: */
	ok(h.nobservers == 2 && strcmp(h.observers[0].userid, "erin") == 0 && strcmp(h.observers[1].userid, "dave") == 0,
	    "removing one keeps the others' order");
	game_release(&h);
	free(again);
	again = NULL;
	while (g.nobservers < GAME_OBSERVERS_MAX) {
		char name[16];

		snprintf(name, sizeof name, "u%d", g.nobservers);
		game_observer_add(&g, name, false);
	}
	ok(!game_observer_add(&g, "onemore", false), "no more than GAME_OBSERVERS_MAX observers");
	game_release(&g);
	free(text);
	text = NULL;

	/* an open challenge: the white seat open, then taken */
	game_init(&g, 102, 5, true, "alice", GAME_OPEN_SEAT, T0);
	ok(game_is_open(&g) && strcmp(game_open_challenger(&g), "alice") == 0, "an open challenge of alice's");
	ok_int(gamefile_format(&g, &open, &len), GAME_OK, "written");
	ok(open != NULL && strstr(open, "\nblack: alice\nwhite: *\n") != NULL, "the open seat is written '*'");
	ok_int(gamefile_parse(open, len, &h, &err), GAME_OK, "read back");
	ok(game_is_open(&h) && !h.opened, "... open, not yet taken");
	game_take_seat(&h, "Bob");
	ok(!game_is_open(&h) && strcmp(h.white, "bob") == 0 && h.opened, "bob takes the seat (folded)");
	game_release(&h);
	game_take_seat(&g, "bob");
	ok_int(gamefile_format(&g, &text, &len), GAME_OK, "the taken board written");
	ok(text != NULL && strstr(text, "\nopen-challenge: yes\n") != NULL && strstr(text, "white: bob\n") != NULL,
	    "... with open-challenge: yes");
	ok_int(gamefile_parse(text, len, &h, &err), GAME_OK, "read back");
	ok(h.opened && !game_is_open(&h), "... taken");
	game_release(&h);
	game_release(&g);
	free(text);
	free(open);
}

/* The notes of undo and draw by agreement: written between the turns, read back, checked. */
static void test_notes(void)
{
	static const char notes[] =
	    "4 2026-11-21T18:55:00Z o bob J9\n"
	    "- 2026-11-21T18:56:00Z o bob propose\n"
	    "- 2026-11-21T18:56:30Z x alice reject draw\n"
	    "5 2026-11-21T18:57:47Z x alice E6,C9 captured:F5,-\n"
	    "- 2026-11-21T18:58:00Z x alice propose\n";
	/* notes that do not fit the history, or a status that does not fit the notes */
	static const struct perr errs[] = {
		{ "5 2026", "- 2026-11-21T18:56:00Z o bob accept draw\n5 2026", NULL, NULL,
		    "line 35: accept draw, but no draw was offered just before", 35 },
		{ "5 2026", "- 2026-11-21T18:56:00Z o bob propose\n- 2026-11-21T18:56:00Z o bob accept draw\n5 2026",
		    NULL, NULL, "line 36: bob answers their own offer", 36 },
		{ "5 2026", "- 2026-11-21T18:56:00Z o bob undo\n- 2026-11-21T18:56:00Z x alice accept undo:3\n5 2026",
		    NULL, NULL, "line 36: 'undo:3': the turns taken back start at turn 5, the next one", 36 },
		{ "5 2026", "- 2026-11-21T18:56:00Z o bob shrug\n5 2026", NULL, NULL,
		    "line 35: unknown note 'shrug' (undo, propose, accept, reject or chat)", 35 },
		{ "5 2026", "- 2026-11-21T18:56:00Z o carol propose\n5 2026", NULL, NULL,
		    "line 35: 'carol' is not a player of board 101", 35 },
		{ "status: playing\nto-move: white\n", "status: drawn\nend: agreement\n", NULL, NULL,
		    "line 8: end agreement, but the history does not end with a draw agreed", 8 },
		{ "captured:F5,-\n", "captured:F5,-\n- 2026-11-21T18:58:00Z x alice propose\n"
		    "- 2026-11-21T18:59:00Z o bob accept draw\n", NULL, NULL,
		    "line 7: status playing, but the history ends with a draw agreed", 7 },
	};
	struct gamefile_error err;
	struct game g, h;
	char *text, *out;
	size_t len;

	text = load_edited("4 2026-11-21T18:55:00Z o bob J9\n5 2026-11-21T18:57:47Z x alice E6,C9 captured:F5,-\n",
	    notes, &g, "notes load");
	ok_int(g.nnotes, 3, "three notes");
	ok(g.notes[0].after == 4 && g.notes[0].kind == GAME_NOTE_PROPOSE && g.notes[1].kind == GAME_NOTE_REJECT &&
	    !g.notes[1].undo && g.notes[2].after == 5, "in place");
	ok(game_open_offer(&g) != NULL, "alice's offer is open");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, text, "the same text");
	free(out);
	round_trip(&g, "open offer");
	ok_int(game_accept(&g, "bob", T0 + 2000), GAME_OK, "bob accepts the draw");
	round_trip(&g, "drawn by agreement");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok(strstr(out, "status: drawn\nend: agreement\n") != NULL, "status drawn, end agreement");
	ok(strstr(out, "- 2026-11-21T19:14:27Z o bob accept draw\n") != NULL, "the acceptance noted");
	free(out);
	game_release(&g);

	/* an undo accepted: the turn is gone, the notes stay */
	ok_int(gamefile_parse(CANON, strlen(CANON), &g, &err), GAME_OK, "canon");
	ok_int(game_ask_undo(&g, "alice", T0 + 2000), GAME_OK, "alice asks");
	ok_int(game_accept(&g, "bob", T0 + 2001), GAME_OK, "bob accepts");
	round_trip(&g, "undo accepted");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok(strstr(out, "4 2026-11-21T18:55:00Z o bob J9\n- 2026-11-21T19:14:27Z x alice undo\n"
	    "- 2026-11-21T19:14:28Z o bob accept undo:5\n") != NULL, "the turn gone, the notes after turn 4");
	ok(strstr(out, "turn: 5\n") != NULL && strstr(out, "to-move: black\n") != NULL, "alice plays turn 5");
	ok_int(gamefile_parse(out, len, &h, &err), GAME_OK, "loads %s", err.msg);
	game_release(&h);
	free(out);
	game_release(&g);
	free(text);

	expect_errors(CANON, errs, NELEM(errs));
}

/* The notes of chat: who and when, anywhere in the history; no offer, no turn (game.h). */
static void test_chat_notes(void)
{
	static const char chats[] =
	    "2 2026-11-21T18:50:00Z o bob F5\n"
	    "- 2026-11-21T18:51:00Z x alice chat\n"
	    "3 2026-11-21T18:52:47Z x alice C3\n"
	    "4 2026-11-21T18:55:00Z o bob J9\n"
	    "- 2026-11-21T18:56:00Z o bob propose\n"
	    "- 2026-11-21T18:56:10Z x alice chat\n"
	    "- 2026-11-21T18:56:20Z o bob chat\n"
	    "- 2026-11-21T18:56:30Z x alice reject draw\n"
	    "5 2026-11-21T18:57:47Z x alice E6,C9 captured:F5,-\n"
	    "- 2026-11-21T18:58:00Z x alice propose\n"
	    "- 2026-11-21T18:59:00Z x alice chat\n";
	struct gamefile_error err;
	struct game g;
	struct game_note e;
	char *text, *out, line[GAMEFILE_NOTE_SIZE];
	size_t len;

	/* print */
	memset(&e, 0, sizeof e);
	e.after = 5;
	e.kind = GAME_NOTE_CHAT;
	e.color = RULES_WHITE;
	snprintf(e.player, sizeof e.player, "bob");
	e.time = T0 + 60;
	ok_str(gamefile_note_text(&e, line), "- 2026-11-21T18:42:07Z o bob chat", "a chat note's line");

	/* parse, between the turns and between an offer and its answer */
	text = replaced(CANON, "2 2026-11-21T18:50:00Z o bob F5\n3 2026-11-21T18:52:47Z x alice C3\n"
	    "4 2026-11-21T18:55:00Z o bob J9\n5 2026-11-21T18:57:47Z x alice E6,C9 captured:F5,-\n", chats);
	ok_int(gamefile_parse(text, strlen(text), &g, &err), GAME_OK, "chats load %s", err.msg);
	ok_int(g.nturns, 5, "five turns: a chat is none");
	ok_int(g.rg.turn, 6, "turn 6 next");
	ok_int(g.nnotes, 7, "seven notes");
	ok(g.notes[0].kind == GAME_NOTE_CHAT && g.notes[0].after == 2 && g.notes[0].color == RULES_BLACK &&
	    strcmp(g.notes[0].player, "alice") == 0 && g.notes[0].time == T0 + 593, "alice's chat after turn 2");
	ok(g.notes[2].kind == GAME_NOTE_CHAT && g.notes[3].kind == GAME_NOTE_CHAT && g.notes[3].color == RULES_WHITE &&
	    g.notes[4].kind == GAME_NOTE_REJECT, "the reject after two chats answers the propose");
	ok(game_open_offer(&g) != NULL && game_open_offer(&g)->kind == GAME_NOTE_PROPOSE &&
	    strcmp(game_open_offer(&g)->player, "alice") == 0, "alice's offer is open across her chat");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok_str(out, text, "the same text");
	free(out);
	round_trip(&g, "chats");
	ok_int(game_accept(&g, "bob", T0 + 2000), GAME_OK, "bob accepts the draw after the chat");
	ok_int(game_chat(&g, "alice", T0 + 2001), GAME_OK, "alice chats after the end");
	round_trip(&g, "a chat after the agreed draw");
	ok_int(gamefile_format(&g, &out, &len), GAME_OK, "formats");
	ok(strstr(out, "status: drawn\nend: agreement\n") != NULL && strstr(out, "- 2026-11-21T18:59:00Z x alice "
	    "chat\n- 2026-11-21T19:14:27Z o bob accept draw\n- 2026-11-21T19:14:28Z x alice chat\n") != NULL,
	    "drawn, the accept and the chat after it");
	free(out);
	game_release(&g);

	/* one line by itself (the SGF's OUSTNOTE[]) */
	ok_int(gamefile_parse(CANON, strlen(CANON), &g, &err), GAME_OK, "canon");
	ok_int(gamefile_parse_note("- 2026-11-21T18:58:00Z o bob chat", 33, 0, &g, &err), GAME_OK, "a chat line");
	ok(g.nnotes == 1 && g.notes[0].kind == GAME_NOTE_CHAT && g.notes[0].after == 5, "... after turn 5");
	ok_int(gamefile_parse_note("- 2026-11-21T18:58:00Z o bob chat hi", 36, 0, &g, &err), GAME_BAD_FILE,
	    "a chat with an argument");
	ok_str(err.msg, "line 0: 'hi' after chat: a chat note has no argument (its text is not kept)", "... says why");
	ok_int(gamefile_parse_note("- 2026-11-21T18:58:00Z x alice accept draw", 42, 0, &g, &err), GAME_BAD_FILE,
	    "an accept after a chat alone");
	ok_str(err.msg, "line 0: accept draw, but no draw was offered just before", "... answers nothing");
	ok_int(game_resign(&g, "bob", T0 + 2000), GAME_OK, "bob resigns");
	ok_int(game_chat(&g, "alice", T0 + 2001), GAME_OK, "alice chats after the resignation");
	round_trip(&g, "a chat after the resignation");
	game_release(&g);

	free(text);
	text = replaced(CANON, "5 2026", "- 2026-11-21T18:56:00Z o bob chat hello\n5 2026");
	expect_error(text, "line 35: 'hello' after chat: a chat note has no argument (its text is not kept)", 35);
	free(text);
	text = replaced(CANON, "5 2026", "- 2026-11-21T18:56:00Z o carol chat\n5 2026");
	expect_error(text, "line 35: 'carol' is not a player of board 101", 35);
	free(text);
	text = replaced(CANON, "5 2026", "- 2026-11-21T18:56:00Z o bob chat\n- 2026-11-21T18:56:10Z x alice reject draw\n"
	    "5 2026");
	expect_error(text, "line 36: reject draw, but no draw was offered just before", 36);
	free(text);
	text = replaced(CANON, "5 2026", "- 2026-11-21T18:56:00Z o bob propose\n- 2026-11-21T18:56:10Z o bob chat\n"
	    "- 2026-11-21T18:56:20Z o bob accept draw\n5 2026");
	expect_error(text, "line 37: bob answers their own offer", 37);
	free(text);
	/* a draw agreed, then a chat: the game is over still, no turn nor offer may follow */
	text = replaced(CANON, "captured:F5,-\n", "captured:F5,-\n- 2026-11-21T18:58:00Z x alice propose\n"
	    "- 2026-11-21T18:59:00Z o bob accept draw\n- 2026-11-21T19:00:00Z x alice chat\n");
	expect_error(text, "line 7: status playing, but the history ends with a draw agreed", 7);
	free(text);
	text = replaced(CANON, "captured:F5,-\n", "captured:F5,-\n- 2026-11-21T18:58:00Z x alice propose\n"
	    "- 2026-11-21T18:59:00Z o bob accept draw\n- 2026-11-21T19:00:00Z x alice chat\n"
	    "- 2026-11-21T19:01:00Z x alice propose\n");
	expect_error(text, "line 39: a note after the accepted draw", 39);
	free(text);
}

/* The queue of conditional turns in the header: read back, checked against the board and the side to move. */
static void test_queue(void)
{
	/* a queue its owner may not hold, or that names no point of the board */
	static const struct perr errs[] = {
		{ THREAD, THREAD "queue: bob J5=>A1\n", NULL, NULL,
		    "line 13: queue: bob is to move: a queue answers the opponent's turn", 13 },
		{ THREAD, THREAD "queue: alice J5=>Z1\n", NULL, NULL,
		    "line 13: queue: line 1: 'Z1' is not a point of the 11x11 board", 13 },
	};
	struct game g;
	struct game_queue q;
	char *text, why[200] = "";	/* game_queue_parse() writes it only on a refusal */

	/* CANON: white (bob) to move, so alice may hold a queue */
	text = load_edited(THREAD, THREAD "queue: alice J5=>A1;swap=>K11,B2\n", &g, "a queue loads");
	ok_str(g.queue_owner, "alice", "its owner");
	ok(game_queue_parse(&g, g.queue, &q, why, sizeof why) && q.n == 2 && q.line[1].swap && q.line[1].nmine == 2,
	    "two lines, the second after a swap");
	round_trip(&g, "a queue");
	game_queue_clear(&g);
	ok(game_queue_parse(&g, " e5 , f6 => a1 ; swap=>b2;", &q, why, sizeof why) && q.n == 2 &&
	    q.line[0].ntheir == 2, "blanks and a last ';' are fine %s", why);
	ok(!game_queue_parse(&g, "E5 => A1; D4 B5", &q, why, sizeof why), "a line without '=>'");
	ok_str(why, "line 2: '=>' is missing between their turn and yours", "... named");
	ok(!game_queue_parse(&g, "E5 => ", &q, why, sizeof why), "no answer");
	ok_str(why, "line 1: your answer is missing after '=>'", "... named");
	ok(!game_queue_parse(&g, "E5 => A1 => B2", &q, why, sizeof why), "two arrows");
	ok_str(why, "line 1: two '=>' (lines are separated by ';')", "... named");
	game_release(&g);
	free(text);

	expect_errors(CANON, errs, NELEM(errs));
}

int main(void)
{
	test_notes();
	test_chat_notes();
	test_queue();
	test_canonical();
	test_edit();
	test_errors();
	test_errors_special();
	test_times();
	test_times_libc();
	test_swap_pass_resign();
	test_draw();
	test_ends();
	test_long();
	test_header_only();
	test_hex();
	test_observers_open();
	return t_done();
}
