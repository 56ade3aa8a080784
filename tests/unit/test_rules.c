/*
 * Rules core tests, written as ASCII positions (top row first, X black, O
 * white, '.' empty; spaces and '/' are ignored), from oust-rules.md: the
 * figures of seed 003, the edge cases, and the conformance games.
 */
#include <stdlib.h>

#include "rules.h"
#include "t.h"

static struct rules_board B;
static struct rules_game G;

/* Set up B from rows written top row first. */
static void setup(int size, const char *rows)
{
	int x = 0, y = size - 1;
	const char *s;

	rules_board_init(&B, size);
	for (s = rows; *s != '\0'; s++) {
		if (*s == ' ' || *s == '/')
			continue;
		if (*s == 'X' || *s == '#')
			rules_board_setup(&B, rules_point(&B, x, y), RULES_BLACK);
		else if (*s == 'O')
			rules_board_setup(&B, rules_point(&B, x, y), RULES_WHITE);
		if (++x == size) {
			x = 0;
			y--;
		}
	}
	if (y != -1 || x != 0) {
		fprintf(stderr, "bad test position: %s\n", rows);
		abort();
	}
}

static int P(const char *v)
{
	int p = rules_parse_point(&B, v, (int)strlen(v));

	if (p == RULES_NO_POINT) {
		fprintf(stderr, "bad vertex %s\n", v);
		abort();
	}
	return p;
}

static int cmp_u16(const void *a, const void *b)
{
	return *(const uint16_t *)a - *(const uint16_t *)b;
}

/* The legal placements of c on B as sorted names "A1 C1 ...", by row then column. */
static const char *legal_names(enum rules_color c)
{
	static char buf[4096];
	uint16_t mv[RULES_MAX_POINTS];
	char name[4];
	int n = rules_legal(&B, c, mv), i;

	qsort(mv, (size_t)n, sizeof(mv[0]), cmp_u16);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, rules_point_name(&B, mv[i], name));
	}
	return buf;
}

/* The board B as rows, top first, for comparing with an expected position. */
static const char *rows_of(void)
{
	static char buf[1024];
	int x, y, n = 0;

	for (y = B.size - 1; y >= 0; y--) {
		for (x = 0; x < B.size; x++)
			buf[n++] = ".XO"[rules_at(&B, rules_point(&B, x, y))];
		if (y)
			buf[n++] = '/';
	}
	buf[n] = '\0';
	return buf;
}

static void test_notation(void)
{
	char name[4];

	rules_board_init(&B, 25);
	ok_int(rules_parse_point(&B, "A1", 2), rules_point(&B, 0, 0), "A1 is the bottom left corner");
	ok_int(rules_parse_point(&B, "j10", 3), rules_point(&B, 8, 9), "j10: lower case, I skipped");
	ok_int(rules_parse_point(&B, "I5", 2), RULES_NO_POINT, "I is not a column");
	ok_int(rules_parse_point(&B, "Z25", 3), rules_point(&B, 24, 24), "Z25 on 25x25");
	ok_int(rules_parse_point(&B, "A0", 2), RULES_NO_POINT, "row 0 does not exist");
	ok_int(rules_parse_point(&B, "A05", 3), RULES_NO_POINT, "leading zero refused");
	ok_int(rules_parse_point(&B, "A26", 3), RULES_NO_POINT, "row 26 off a 25x25 board");
	ok_int(rules_parse_point(&B, "5E", 2), RULES_NO_POINT, "digit first refused");
	ok_int(rules_parse_point(&B, "E", 1), RULES_NO_POINT, "letter alone refused");
	ok_str(rules_point_name(&B, rules_point(&B, 24, 24), name), "Z25", "name of the top right corner");
	rules_board_init(&B, 5);
	ok_int(rules_parse_point(&B, "F1", 2), RULES_NO_POINT, "F1 is off a 5x5 board");
	ok_str(rules_point_name(&B, rules_point(&B, 2, 2), name), "C3", "name of the 5x5 centre");
	ok(!rules_size_ok(4) && !rules_size_ok(12) && !rules_size_ok(27) && !rules_size_ok(3) &&
	    rules_size_ok(5) && rules_size_ok(25), "sizes: odd, 5 to 25");
}

static void test_figures(void)
{
	struct rules_check ck;
	int cap;

	/* Figure 1: only non-capturing placements are available to Black. */
	setup(5, "X..O. / .X..O / X.... / ..O.. / .O..X");
	ok_str(legal_names(RULES_BLACK), "A1 C1 B2 D2 C3 D3 E3 D4 C5 E5", "figure 1: Black's placements");

	/* Figure 2: B3 captures three singletons. */
	setup(5, "...OO / .O... / X.O.. / .O... / .....");
	ok_int(rules_check(&B, RULES_BLACK, P("B3"), &ck), RULES_CAPTURE, "figure 2: B3 captures");
	ok_int(ck.enemy_groups, 3, "figure 2: three groups touched");
	rules_place(&B, RULES_BLACK, P("B3"), &cap);
	ok_int(cap, 3, "figure 2: three stones removed");
	ok_str(rows_of(), "...OO/...../XX.../...../.....", "figure 2: position after");

	/* Figure 3: D3 forms a group of eight and captures four singletons. */
	setup(5, ".O.O. / OX.X. / .XX.X / O...X / XX.OX");
	ok_int(rules_check(&B, RULES_BLACK, P("D3"), &ck), RULES_CAPTURE, "figure 3: D3 captures");
	ok_int(ck.new_group, 8, "figure 3: group of eight");
	ok_int(ck.captured, 4, "figure 3: four stones");

	/* Figure 4: D4 forms a group of seven and captures a group of six. */
	setup(5, "OOOOO / O.... / X..X. / O..XX / ..XXX");
	ok_int(rules_check(&B, RULES_BLACK, P("D4"), &ck), RULES_CAPTURE, "figure 4: D4 captures");
	ok_int(ck.new_group, 7, "figure 4: group of seven");
	ok_int(ck.largest_enemy, 6, "figure 4: against a group of six");
	rules_place(&B, RULES_BLACK, P("D4"), &cap);
	ok_int(cap, 6, "figure 4: six stones removed");
	ok_str(rows_of(), "...../...X./X..X./O..XX/..XXX", "figure 4: position after");

	/* Figure 5: Black has no legal placement and passes. */
	setup(5, "OOOOO / OOOO. / .O..X / X.XXX / XXX.X");
	ok_str(legal_names(RULES_BLACK), "", "figure 5: Black has no placement");
	ok(!rules_has_legal(&B, RULES_BLACK), "figure 5: rules_has_legal agrees");
	ok(rules_has_legal(&B, RULES_WHITE), "figure 5: White can place");
	rules_game_start(&G, &B, RULES_BLACK, 20, false, NULL);
	ok(G.to_move == RULES_WHITE && G.turn == 21, "figure 5: Black passes, White's turn 21");

	/* Figure 6: C3 captures everything and wins. */
	setup(5, "O...O / OOXOO / O...O / O.X.. / .XXXO");
	rules_game_start(&G, &B, RULES_BLACK, 30, false, NULL);
	ok_int(rules_game_play(&G, P("C3"), NULL), RULES_CAPTURE, "figure 6: C3 captures");
	ok_int(G.result, RULES_BLACK_WINS, "figure 6: Black wins");
	ok_int(G.board.stones[RULES_WHITE], 0, "figure 6: no white stone left");
	ok_int(rules_game_legal(&G, (uint16_t[RULES_MAX_POINTS]){ 0 }), 0, "figure 6: no legal moves once over");
}

static void test_edge_cases(void)
{
	struct rules_check ck;
	struct rules_event ev;
	struct rules_turn_report rep;
	int turn[3];

	/* 1: a group of 3 touching groups of 2 and 1: legal, and it wins. */
	setup(5, "..... / OO... / X.X.. / O.... / .....");
	ok_int(rules_check(&B, RULES_BLACK, P("B3"), &ck), RULES_CAPTURE, "edge 1: B3 legal");
	rules_game_start(&G, &B, RULES_BLACK, 5, false, NULL);
	rules_game_play(&G, P("B3"), &ev);
	ok(ev.captured == 3 && G.result == RULES_BLACK_WINS, "edge 1: B3 removes all white, Black wins");
	setup(5, "..... / OOO.. / X.X.. / O.... / .....");
	ok_int(rules_check(&B, RULES_BLACK, P("B3"), &ck), RULES_NOT_LARGER, "edge 1: 3 against 3 illegal");
	ok(ck.new_group == 3 && ck.largest_enemy == 3, "edge 1: sizes reported");

	/* 2: capture, then place again. */
	setup(5, "..... / ..... / X.XO. / ..... / OO...");
	rules_game_start(&G, &B, RULES_BLACK, 5, false, NULL);
	turn[0] = P("B3"), turn[1] = P("E5");
	ok_int(rules_game_turn(&G, turn, 2, &rep), RULES_TURN_OK, "edge 2: B3,E5 is a complete turn");
	ok(rep.captured == 1 && G.to_move == RULES_WHITE && G.turn == 6, "edge 2: White to move, turn 6");
	setup(5, "..... / ..... / X.XO. / ..... / OO...");
	rules_game_start(&G, &B, RULES_BLACK, 5, false, NULL);
	turn[1] = P("D3");
	ok_int(rules_game_turn(&G, turn, 2, &rep), RULES_TURN_ILLEGAL, "edge 2: B3,D3 illegal");
	ok(rep.index == 1 && rep.check.verdict == RULES_NO_ENEMY, "edge 2: D3 touches no enemy");
	ok(G.to_move == RULES_BLACK && G.turn == 5 && rules_at(&G.board, P("D3")) == RULES_WHITE,
	    "edge 2: refused turn changes nothing");
	ok_int(rules_game_turn(&G, turn, 1, &rep), RULES_TURN_TOO_SHORT, "edge 2: B3 alone is too short");
	turn[1] = P("A2");
	ok_int(rules_game_turn(&G, turn, 2, &rep), RULES_TURN_OK, "edge 2: B3,A2 legal");
	ok_int(G.result, RULES_BLACK_WINS, "edge 2: B3,A2 wins");
	setup(5, "..... / ..... / X.XO. / ..... / OO...");
	rules_game_start(&G, &B, RULES_BLACK, 5, false, NULL);
	turn[1] = P("A2"), turn[2] = P("E5");
	ok_int(rules_game_turn(&G, turn, 3, &rep), RULES_TURN_TOO_LONG, "edge 2: a placement after the win");
	ok_int(rep.index, 2, "edge 2: the third placement is the one too many");

	/* 3: the new group touches a group of 3 through A4. */
	setup(5, "OOO.. / X.... / .O... / ..... / .....");
	ok_int(rules_check(&B, RULES_BLACK, P("A3"), &ck), RULES_NOT_LARGER, "edge 3: A3 illegal");
	ok(ck.new_group == 2 && ck.largest_enemy == 3 && ck.enemy_groups == 2, "edge 3: details");

	/* 4: B3 captures both groups of 2 and wins. */
	setup(5, "..... / OO... / X.X.. / .OO.. / .....");
	rules_game_start(&G, &B, RULES_BLACK, 5, false, NULL);
	rules_game_play(&G, P("B3"), &ev);
	ok(ev.captured == 4 && G.result == RULES_BLACK_WINS, "edge 4: B3 captures both, Black wins");

	/* 5: mid-turn dead end on 7x7. */
	setup(7, "O.O.O.O / .OO..XX / .O.O.X. / O.O...O / ..OOO.. / ..OOOOO / O.X..O.");
	rules_game_start(&G, &B, RULES_WHITE, 9, false, NULL);
	rules_game_play(&G, P("E1"), &ev);
	ok(ev.verdict == RULES_CAPTURE && ev.captured == 1, "edge 5: White E1 captures C1");
	ok(ev.dead_end && ev.turn_over, "edge 5: no placement left, the turn ends");
	ok(G.to_move == RULES_BLACK && G.turn == 10, "edge 5: Black moves next");

	/* 6: neither side can place: a draw. */
	rules_game_init(&G, 5, false);
	{
		int x, y, k = 0, blacks[13], whites[12], nb = 0, nw = 0;

		for (y = 0; y < 5; y++)
			for (x = 0; x < 5; x++) {
				if ((x + y) % 2 == 0)
					blacks[nb++] = rules_point(&G.board, x, y);
				else
					whites[nw++] = rules_point(&G.board, x, y);
			}
		for (k = 0; k < 12; k++) {
			rules_game_play(&G, blacks[k], &ev);
			rules_game_play(&G, whites[k], &ev);
		}
		ok(G.result == RULES_PLAYING && G.to_move == RULES_BLACK, "edge 6: still playing, Black to move");
		rules_game_play(&G, blacks[12], &ev);
		ok(ev.verdict == RULES_NONCAPTURE && ev.npasses == 0, "edge 6: last placement, no pass");
		ok_int(G.result, RULES_DRAW, "edge 6: full board, nobody can place: draw");
		ok_str(rules_result_str(G.result), "0", "edge 6: GTP result 0");
	}
}

static void test_swap_resign_pass(void)
{
	struct rules_event ev;
	struct rules_turn_report rep;
	int t;

	rules_game_init(&G, 11, true);
	ok(!rules_game_can_swap(&G), "no swap before Black's first turn");
	rules_game_play(&G, rules_point(&G.board, 5, 5), &ev);
	ok(rules_game_can_swap(&G), "swap allowed as White's first turn");
	ok(rules_game_swap(&G), "swap made");
	ok(G.turn == 3 && G.to_move == RULES_WHITE, "after swap: turn 3, White to move");
	ok(!rules_game_can_swap(&G), "no second swap");
	ok(!rules_game_swap(&G), "second swap refused");
	rules_game_init(&G, 11, false);
	rules_game_play(&G, rules_point(&G.board, 5, 5), &ev);
	ok(!rules_game_can_swap(&G), "swap off: refused");
	rules_game_resign(&G, RULES_WHITE);
	ok_int(G.result, RULES_BLACK_WINS, "White resigns: Black wins");
	ok_int(rules_game_play(&G, rules_point(&G.board, 0, 0), &ev), RULES_GAME_OVER, "no play after the end");
	t = rules_point(&G.board, 0, 0);
	ok_int(rules_game_turn(&G, &t, 1, &rep), RULES_TURN_ILLEGAL, "no turn after the end");
	ok_int(rep.check.verdict, RULES_GAME_OVER, "reason: game over");

	/* An automatic pass: after Black's placement White has none. */
	setup(5, "OOOOO / OOOO. / .O..X / X.XXX / XXX.X");
	rules_game_start(&G, &B, RULES_WHITE, 20, false, NULL);
	ok(G.to_move == RULES_WHITE, "white to move in figure 5");
	ok_int(rules_game_play_color(&G, RULES_BLACK, P("D3"), &ev), RULES_NOT_YOUR_TURN,
	    "play by the wrong colour refused");
	ok_int(rules_check(&G.board, RULES_WHITE, P("D1"), NULL), RULES_NONCAPTURE, "white D1 non-capturing");
	rules_game_play(&G, P("D1"), &ev);
	ok(ev.turn_over && ev.npasses == 1 && ev.passed[0] == RULES_BLACK, "Black passes automatically");
	ok(G.to_move == RULES_WHITE && G.turn == 22, "White again, turn 22");
}

/* Incremental groups stay right: compare with a flood fill after random play. */
static int flood(const struct rules_board *b, int p, uint8_t *seen)
{
	int stack[RULES_MAX_POINTS], n = 0, size = 0, q, k;
	const int d[4] = { -1, 1, -b->stride, b->stride };

	stack[n++] = p;
	seen[p] = 1;
	while (n) {
		q = stack[--n];
		size++;
		for (k = 0; k < 4; k++)
			if (b->color[q + d[k]] == b->color[p] && !seen[q + d[k]]) {
				seen[q + d[k]] = 1;
				stack[n++] = q + d[k];
			}
	}
	return size;
}

static void test_random_consistency(void)
{
	uint16_t mv[RULES_MAX_POINTS];
	uint8_t seen[RULES_MAX_CELLS];
	unsigned long r = 12345;
	int game, n, p, bad = 0, games = 0, k, nleg;
	struct rules_check ck;

	for (game = 0; game < 200; game++) {
		rules_game_init(&G, 5 + 2 * (game % 4), false);
		while (G.result == RULES_PLAYING) {
			n = rules_game_legal(&G, mv);
			/* Every generated placement is legal by rules_check, and every other empty point is not. */
			nleg = 0;
			for (k = 0; k < G.board.nempty; k++) {
				p = G.board.empty[k];
				if (rules_is_legal(rules_check(&G.board, G.to_move, p, &ck)))
					nleg++;
			}
			if (nleg != n)
				bad++;
			r = r * 6364136223846793005UL + 1442695040888963407UL;
			rules_game_play(&G, mv[(r >> 33) % (unsigned long)n], NULL);
			memset(seen, 0, sizeof(seen));
			for (p = 0; p < G.board.ncells; p++) {
				int c = G.board.color[p];
				if ((c == RULES_BLACK || c == RULES_WHITE) && !seen[p] &&
				    flood(&G.board, p, seen) != G.board.gsize[G.board.group[p]])
					bad++;
			}
		}
		games++;
	}
	ok_int(bad, 0, "%d random games: legal sets and group sizes agree with a flood fill", games);
}

/* Replays tests/data/public.trace.gz (see ../shared/conformance/README.md). */
static void test_conformance(void)
{
	FILE *f = popen("gzip -dc tests/data/public.trace.gz", "r");
	char line[8192], want[8192], got[8192];
	enum rules_color side;
	int games = 0, placements = 0, sets = 0, bad = 0, ends = 0, n, i, x, y;
	uint16_t mv[RULES_MAX_POINTS];
	char *tok;
	long lineno = 0;

	ok(f != NULL, "conformance trace opened");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "game size=", 10) == 0) {
			rules_game_init(&G, atoi(line + 10), false);
			games++;
		} else if (line[0] == 'L') {
			side = line[2] == 'b' ? RULES_BLACK : RULES_WHITE;
			if (strcmp(line + 4, "-") == 0) {
				/* The turn is over: our side to move has already moved on. */
				if (G.result == RULES_PLAYING && G.to_move == side) {
					if (bad++ < 5)
						printf("# line %ld: %s to move, trace says it has no placement\n",
						    lineno, rules_color_name((enum rules_color)side));
				}
				continue;
			}
			sets++;
			if (G.to_move != side) {
				if (bad++ < 5)
					printf("# line %ld: side to move differs\n", lineno);
				continue;
			}
			/* Our set, in the trace's order: by column, then row. */
			n = rules_game_legal(&G, mv);
			for (i = 0; i < n; i++)
				mv[i] = (uint16_t)(rules_x(&G.board, mv[i]) * 64 + rules_y(&G.board, mv[i]));
			qsort(mv, (size_t)n, sizeof(mv[0]), cmp_u16);
			got[0] = '\0';
			for (i = 0; i < n; i++)
				sprintf(got + strlen(got), "%s%d.%d", i ? "," : "", mv[i] / 64 + 1, mv[i] % 64 + 1);
			snprintf(want, sizeof(want), "%s", line + 4);
			if (strcmp(got, want) != 0 && bad++ < 5)
				printf("# line %ld: legal set differs\n# got  %s\n# want %s\n", lineno, got, want);
		} else if (line[0] == 'P' && line[1] == ' ') {
			tok = line + 4;
			x = atoi(tok);
			y = atoi(strchr(tok, '.') + 1);
			placements++;
			if (!rules_is_legal(rules_game_play_color(&G, line[2] == 'b' ? RULES_BLACK : RULES_WHITE,
			    rules_point(&G.board, x - 1, y - 1), NULL)) && bad++ < 5)
				printf("# line %ld: placement refused\n", lineno);
		} else if (strncmp(line, "END ", 4) == 0) {
			enum rules_result r = line[4] == 'b' ? RULES_BLACK_WINS :
			    line[4] == 'w' ? RULES_WHITE_WINS : RULES_DRAW;
			ends++;
			if (G.result != r && bad++ < 5)
				printf("# line %ld: result %s, trace says %s\n", lineno, rules_result_str(G.result), line + 4);
		}
	}
	pclose(f);
	ok(games == 300 && ends == 300, "conformance: %d games, %d results", games, ends);
	ok_int(bad, 0, "conformance: %d legal sets and %d placements agree", sets, placements);
}

int main(void)
{
	test_notation();
	test_figures();
	test_edge_cases();
	test_swap_resign_pass();
	test_random_consistency();
	test_conformance();
	return t_done();
}
