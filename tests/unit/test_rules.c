/*
 * Rules core tests, written as ASCII positions (top row first, X black, O
 * white, '.' empty; spaces and '/' are ignored), from doc/rules.md: the
 * figures of seed 003, the edge cases, and the conformance games; and the
 * same for hex-hex boards, whose rows are written top row first too, each
 * as many cells long as the row is wide (S, S+1, ..., 2S-1, ..., S).
 */
#include <stdlib.h>

#include "game/rules.h"
#include "t.h"
#include "t_board.h"

static struct rules_board B;
static struct rules_game G;

/* Set up B from rows written top row first. */
static void setup(int size, const char *rows)
{
	t_board_rows(&B, size, rows);
}

/* Set up B as a hex board of side `side` from rows written top row first. */
static void setup_hex(int side, const char *rows)
{
	int k = 0, y;
	const char *s;

	rules_board_init_shape(&B, RULES_HEX, side);
	y = B.width - 1;
	for (s = rows; *s != '\0'; s++) {
		if (*s == ' ' || *s == '/')
			continue;
		if (y < 0) {
			k = -1;
			break;
		}
		if (*s == 'X' || *s == 'x')
			rules_board_setup(&B, rules_point(&B, rules_row_first(&B, y) + k, y), RULES_BLACK);
		else if (*s == 'O' || *s == 'o')
			rules_board_setup(&B, rules_point(&B, rules_row_first(&B, y) + k, y), RULES_WHITE);
		if (++k == rules_row_len(&B, y)) {
			k = 0;
			y--;
		}
	}
	if (y != -1 || k != 0) {
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

	for (y = B.width - 1; y >= 0; y--) {
		for (x = rules_row_first(&B, y); x < rules_row_first(&B, y) + rules_row_len(&B, y); x++)
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
	ok_int(rep.result, RULES_BLACK_WINS, "edge 2: ... and the report says the turn ended with a win");
	ok_int(G.result, RULES_PLAYING, "edge 2: ... the game itself unchanged");

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

/*
 * Replays a conformance trace (see ../shared/conformance/README.md):
 * tests/data/public.trace.gz (square, cells x.y) or public-hex.trace.gz
 * (hex, cells in hex-hex notation, sets by row then number).
 */
static void test_conformance(const char *path, int want_games)
{
	char cmd[256], line[8192], want[8192], got[8192], name[4];
	FILE *f;
	enum rules_color side;
	int games = 0, placements = 0, sets = 0, bad = 0, ends = 0, n, i, x, y, p;
	uint16_t mv[RULES_MAX_POINTS];
	char *tok;
	long lineno = 0;

	snprintf(cmd, sizeof(cmd), "gzip -dc %s", path);
	f = popen(cmd, "r");
	ok(f != NULL, "conformance trace %s opened", path);
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "game size=", 10) == 0) {
			rules_game_init(&G, atoi(line + 10), false);
			games++;
		} else if (strncmp(line, "game shape=hex side=", 20) == 0) {
			rules_game_init_shape(&G, RULES_HEX, atoi(line + 20), false);
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
			n = rules_game_legal(&G, mv);
			if (G.board.shape == RULES_HEX) {
				/* By row, then number: the order of the cell indexes. */
				qsort(mv, (size_t)n, sizeof(mv[0]), cmp_u16);
				got[0] = '\0';
				for (i = 0; i < n; i++)
					sprintf(got + strlen(got), "%s%s", i ? "," : "",
					    rules_point_name(&G.board, mv[i], name));
				goto compare;
			}
			/* Our set, in the trace's order: by column, then row. */
			for (i = 0; i < n; i++)
				mv[i] = (uint16_t)(rules_x(&G.board, mv[i]) * 64 + rules_y(&G.board, mv[i]));
			qsort(mv, (size_t)n, sizeof(mv[0]), cmp_u16);
			got[0] = '\0';
			for (i = 0; i < n; i++)
				sprintf(got + strlen(got), "%s%d.%d", i ? "," : "", mv[i] / 64 + 1, mv[i] % 64 + 1);
compare:
			snprintf(want, sizeof(want), "%s", line + 4);
			if (strcmp(got, want) != 0 && bad++ < 5)
				printf("# line %ld: legal set differs\n# got  %s\n# want %s\n", lineno, got, want);
		} else if (line[0] == 'P' && line[1] == ' ') {
			tok = line + 4;
			if (G.board.shape == RULES_HEX) {
				p = rules_parse_point(&G.board, tok, (int)strlen(tok));
			} else {
				x = atoi(tok);
				y = atoi(strchr(tok, '.') + 1);
				p = rules_point(&G.board, x - 1, y - 1);
			}
			placements++;
			if (!rules_is_legal(rules_game_play_color(&G, line[2] == 'b' ? RULES_BLACK : RULES_WHITE,
			    p, NULL)) && bad++ < 5)
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
	ok(games == want_games && ends == want_games, "conformance: %d games, %d results", games, ends);
	ok_int(bad, 0, "conformance: %d legal sets and %d placements agree", sets, placements);
}

/* The names of p's neighbours on B, sorted, as the stones' neighbour counts see them. */
static const char *nbr_names(const char *v)
{
	static char buf[64];
	uint16_t mv[RULES_MAX_NBR];
	char name[4];
	int p = P(v), n = 0, k, q;

	for (k = 0; k < B.nnbr; k++) {
		q = p + B.nbr[k];
		if (rules_at(&B, q) != RULES_OFFBOARD)
			mv[n++] = (uint16_t)q;
	}
	qsort(mv, (size_t)n, sizeof(mv[0]), cmp_u16);
	buf[0] = '\0';
	for (k = 0; k < n; k++) {
		if (k)
			strcat(buf, " ");
		strcat(buf, rules_point_name(&B, mv[k], name));
	}
	return buf;
}

static void test_hex_geometry(void)
{
	char name[4];
	int s, y, n;

	ok(!rules_shape_ok(RULES_HEX, 2) && rules_shape_ok(RULES_HEX, 3) && rules_shape_ok(RULES_HEX, 4) &&
	    rules_shape_ok(RULES_HEX, 10) && !rules_shape_ok(RULES_HEX, 11) &&
	    rules_shape_ok(RULES_SQUARE, 5) && !rules_shape_ok(RULES_SQUARE, 4), "hex sides 3 to 10, any parity");
	for (s = RULES_HEX_MIN_SIDE; s <= RULES_HEX_MAX_SIDE; s++) {
		rules_board_init_shape(&B, RULES_HEX, s);
		for (y = n = 0; y < B.width; y++)
			n += rules_row_len(&B, y);
		ok(B.npoints == 3 * s * (s - 1) + 1 && B.nempty == B.npoints && n == B.npoints &&
		    B.width == 2 * s - 1 && B.nnbr == 6, "hex side %d: %d cells in %d rows", s, B.npoints,
		    B.width);
	}
	rules_board_init(&B, 11);
	ok(B.shape == RULES_SQUARE && B.nnbr == 4 && B.nbr[0] == -1 && B.nbr[1] == 1 &&
	    B.nbr[2] == -B.stride && B.nbr[3] == B.stride, "square: four neighbours -1 +1 -stride +stride");

	rules_board_init_shape(&B, RULES_HEX, 7);
	ok_int(B.npoints, 127, "side 7: 127 cells");
	ok(B.nbr[4] == -B.stride - 1 && B.nbr[5] == B.stride + 1, "hex: the two diagonals");
	/* doc/rules.md: the neighbours below, on and above the middle row. */
	ok_str(nbr_names("g7"), "f6 f7 g6 g8 h6 h7", "middle row: k-1 and k of both rows beside it");
	ok_str(nbr_names("b2"), "a1 a2 b1 b3 c2 c3", "below the middle: k, k+1 above; k-1, k below");
	ok_str(nbr_names("j3"), "i3 i4 j2 j4 k2 k3", "above the middle: k-1, k above; k, k+1 below");
	ok_str(nbr_names("a1"), "a2 b1 b2", "corner a1: three neighbours");
	ok_str(nbr_names("a7"), "a6 b7 b8", "corner a7: three neighbours");
	ok_str(nbr_names("g1"), "f1 g2 h1", "corner g1: three neighbours");
	ok_str(nbr_names("g13"), "f12 g12 h12", "corner g13: three neighbours");
	ok_str(nbr_names("m1"), "l1 l2 m2", "corner m1: three neighbours");
	ok_str(nbr_names("m7"), "l7 l8 m6", "corner m7: three neighbours");
	ok_str(nbr_names("d1"), "c1 d2 e1 e2", "edge d1: four neighbours");
	ok_str(nbr_names("m4"), "l4 l5 m3 m5", "top edge m4: four neighbours");

	/* Notation: rows a.. from the bottom (i included), cells from 1 at the left of each row. */
	ok_int(rules_parse_point(&B, "a1", 2), rules_point(&B, 0, 0), "a1 is the bottom row's left end");
	ok_int(rules_parse_point(&B, "A1", 2), rules_point(&B, 0, 0), "A1: upper case accepted");
	ok_int(rules_parse_point(&B, "g13", 3), rules_point(&B, 12, 6), "g13: right end of the middle row");
	ok_int(rules_parse_point(&B, "m1", 2), rules_point(&B, 6, 12), "m1: left end of the top row");
	ok_int(rules_parse_point(&B, "I5", 2), rules_point(&B, 6, 8), "i is a row (I5)");
	ok_int(rules_parse_point(&B, "m8", 2), RULES_NO_POINT, "m8 is off the board (row m has 7 cells)");
	ok_int(rules_parse_point(&B, "g14", 3), RULES_NO_POINT, "g14 is off the board");
	ok_int(rules_parse_point(&B, "n1", 2), RULES_NO_POINT, "row n does not exist on side 7");
	ok_int(rules_parse_point(&B, "a0", 2), RULES_NO_POINT, "cell 0 does not exist");
	ok_int(rules_parse_point(&B, "a01", 3), RULES_NO_POINT, "leading zero refused");
	ok_int(rules_parse_point(&B, "1a", 2), RULES_NO_POINT, "digit first refused");
	ok_str(rules_point_name(&B, rules_point(&B, 12, 6), name), "g13", "name of g13");
	ok_str(rules_point_name(&B, rules_point(&B, 12, 12), name), "m7", "name of the top right corner");
	rules_board_init_shape(&B, RULES_HEX, 10);
	ok_str(rules_point_name(&B, rules_point(&B, 18, 18), name), "s10", "side 10: top right s10");
	ok_int(rules_parse_point(&B, "j19", 3), rules_point(&B, 18, 9), "side 10: j19 ends the middle row");
	/* Every cell's name parses back to it. */
	for (s = RULES_HEX_MIN_SIDE, n = 0; s <= RULES_HEX_MAX_SIDE; s++) {
		rules_board_init_shape(&B, RULES_HEX, s);
		for (y = 0; y < B.nempty; y++) {
			rules_point_name(&B, B.empty[y], name);
			n += rules_parse_point(&B, name, (int)strlen(name)) != B.empty[y];
		}
	}
	ok_int(n, 0, "every hex cell's name parses back to it");
}

static void test_hex_rules(void)
{
	struct rules_check ck;
	struct rules_event ev;
	int cap;

	/* Non-capturing placements beside enemy stones; joining with no enemy is illegal. */
	setup_hex(3, "... / .... / ..... / .X.. / ...");
	ok_int(rules_check(&B, RULES_BLACK, P("b3"), &ck), RULES_NO_ENEMY, "hex: b2+b3 touches no enemy");
	ok_int(rules_check(&B, RULES_WHITE, P("b3"), &ck), RULES_NONCAPTURE, "hex: white beside black");
	ok_str(legal_names(RULES_BLACK), "a3 b4 c1 c4 c5 d1 d2 d3 d4 e1 e2 e3",
	    "hex: black may not join b2 with no enemy around");

	/* One placement captures two groups at once, and the player places again. */
	setup_hex(3, "..O / .... / .O.O. / .X.. / ...");
	ok_int(rules_check(&B, RULES_BLACK, P("c3"), &ck), RULES_CAPTURE, "hex: c3 captures");
	ok(ck.new_group == 2 && ck.enemy_groups == 2 && ck.captured == 2, "hex: c3 takes c2 and c4");
	rules_game_start(&G, &B, RULES_BLACK, 7, false, NULL);
	rules_game_play(&G, P("c3"), &ev);
	ok(ev.captured == 2 && !ev.turn_over && G.to_move == RULES_BLACK, "hex: black places again");
	B = G.board;
	ok_str(rows_of(), "..O/..../..X../.X../...", "hex: position after c3");
	ok_int(rules_check(&B, RULES_BLACK, P("d3"), &ck), RULES_CAPTURE, "hex: d3 reaches e3");
	rules_game_play(&G, P("d3"), &ev);
	ok(ev.captured == 1 && G.result == RULES_BLACK_WINS, "hex: d3 takes the last stone and wins");

	/* A corner: a1 has three neighbours; 2 against 2 is illegal, 3 against 2 captures. */
	setup_hex(3, "... / .... / ..... / OO.. / .X.");
	ok_int(rules_check(&B, RULES_BLACK, P("a1"), &ck), RULES_NOT_LARGER, "hex corner: a1+a2 not larger");
	ok(ck.new_group == 2 && ck.largest_enemy == 2, "hex corner: 2 against 2");
	setup_hex(3, "... / .... / O.... / OO.. / .XX");
	ok_int(rules_check(&B, RULES_BLACK, P("a1"), &ck), RULES_NOT_LARGER,
	    "hex corner: a1 makes 3, against c1+b1+b2, also 3");
	ok(ck.new_group == 3 && ck.largest_enemy == 3 && ck.enemy_groups == 1, "hex corner: 3 against 3");
	setup_hex(3, "... / .... / ..... / OO.. / .XX");
	ok_int(rules_check(&B, RULES_BLACK, P("a1"), &ck), RULES_CAPTURE, "hex corner: 3 against 2");
	rules_place(&B, RULES_BLACK, P("a1"), &cap);
	ok_int(cap, 2, "hex corner: a1 captures b1 and b2");
	ok_str(rows_of(), ".../..../...../..../XXX", "hex corner: position after a1");

	/* The top edge: d3 joins e3+d4 through its diagonal neighbours and takes e2. */
	setup_hex(3, ".XO / ...O / ..... / .... / ...");
	ok_int(rules_check(&B, RULES_WHITE, P("d3"), &ck), RULES_CAPTURE, "hex top edge: d3 captures");
	ok(ck.new_group == 3 && ck.captured == 1 && ck.largest_enemy == 1, "hex top edge: 3 against 1");

	/* Mid-turn dead end: c1 joins b1+c2+d1+e1 into 5 and takes c3; then Black has no placement. */
	setup_hex(3, "X.. / X..X / .XO.O / X..O / .X.");
	rules_game_start(&G, &B, RULES_BLACK, 11, false, NULL);
	rules_game_play(&G, P("c1"), &ev);
	ok(ev.verdict == RULES_CAPTURE && ev.captured == 1, "hex dead end: c1 captures c3");
	ok(ev.dead_end && ev.turn_over && G.to_move == RULES_WHITE && G.turn == 12 && G.result == RULES_PLAYING,
	    "hex dead end: no placement left, the turn ends, White moves");

	/* doc/rules.md: Black to move has no placement on this side-3 board and passes. */
	setup_hex(3, "OXO / X..X / O.O.. / X.OO / OX.");
	ok_str(legal_names(RULES_BLACK), "", "hex pass position: black has no placement");
	ok(rules_has_legal(&B, RULES_WHITE), "hex pass position: white has");
	rules_game_start(&G, &B, RULES_BLACK, 30, false, &ev);
	ok(ev.npasses == 1 && ev.passed[0] == RULES_BLACK && G.to_move == RULES_WHITE && G.turn == 31,
	    "hex pass position: black passes, white's turn 31");
}

/*
 * A reference hex board for random games, written from the rules text alone:
 * cells by (row, number), neighbours as doc/rules.md lists them, groups by
 * flood fill, every placement tried by brute force.
 */
struct ref {
	int side, rows, len[2 * RULES_HEX_MAX_SIDE - 1];
	char at[2 * RULES_HEX_MAX_SIDE - 1][2 * RULES_HEX_MAX_SIDE]; /* [row][number], 1-based numbers */
};

static void ref_init(struct ref *r, int side)
{
	int y;

	memset(r, 0, sizeof(*r));
	r->side = side;
	r->rows = 2 * side - 1;
	for (y = 0; y < r->rows; y++)
		r->len[y] = y < side ? side + y : 3 * side - 2 - y;
}

/* The neighbours of (y, k): beside it in its row, two in each adjacent row. */
static int ref_nbrs(const struct ref *r, int y, int k, int ny[6], int nk[6])
{
	int n = 0, dy, a, b, j, yy;

	for (j = -1; j <= 1; j += 2)
		if (k + j >= 1 && k + j <= r->len[y])
			ny[n] = y, nk[n++] = k + j;
	for (dy = -1; dy <= 1; dy += 2) {
		yy = y + dy;
		if (yy < 0 || yy >= r->rows)
			continue;
		/* Toward a wider row: k and k+1; toward a narrower one: k-1 and k. */
		a = r->len[yy] > r->len[y] ? k : k - 1;
		for (b = a; b <= a + 1; b++)
			if (b >= 1 && b <= r->len[yy])
				ny[n] = yy, nk[n++] = b;
	}
	return n;
}

/* Flood the group of (y, k) into mark (value m); returns its size. */
static int ref_flood(const struct ref *r, int y, int k, char mark[][2 * RULES_HEX_MAX_SIDE], char m)
{
	int sy[RULES_MAX_POINTS], sk[RULES_MAX_POINTS], n = 0, size = 0, ny[6], nk[6], i, c, cy, ck;

	c = r->at[y][k];
	sy[n] = y, sk[n++] = k;
	mark[y][k] = m;
	while (n) {
		n--;
		cy = sy[n], ck = sk[n];
		size++;
		for (i = ref_nbrs(r, cy, ck, ny, nk); i-- > 0;)
			if (r->at[ny[i]][nk[i]] == c && mark[ny[i]][nk[i]] != m) {
				mark[ny[i]][nk[i]] = m;
				sy[n] = ny[i], sk[n++] = nk[i];
			}
	}
	return size;
}

/*
 * Try colour c at the empty (y, k): 0 illegal, 1 non-capturing, 2 capture.
 * With apply, the placement is made and its captures removed.
 */
static int ref_try(struct ref *r, int c, int y, int k, bool apply)
{
	char mine[2 * RULES_HEX_MAX_SIDE - 1][2 * RULES_HEX_MAX_SIDE] = { { 0 } };
	char theirs[2 * RULES_HEX_MAX_SIDE - 1][2 * RULES_HEX_MAX_SIDE] = { { 0 } };
	int ny[6], nk[6], i, yy, kk, size, own = 0, maxe = 0, e;

	for (i = ref_nbrs(r, y, k, ny, nk); i-- > 0;)
		own += r->at[ny[i]][nk[i]] == c;
	if (own == 0) {
		if (apply)
			r->at[y][k] = (char)c;
		return 1;
	}
	r->at[y][k] = (char)c;
	size = ref_flood(r, y, k, mine, 1);
	/* Every enemy group touching the new group: the largest, and (to remove) all of them. */
	for (yy = 0; yy < r->rows; yy++)
		for (kk = 1; kk <= r->len[yy]; kk++) {
			if (!mine[yy][kk])
				continue;
			for (i = ref_nbrs(r, yy, kk, ny, nk); i-- > 0;)
				if (r->at[ny[i]][nk[i]] == 3 - c && !theirs[ny[i]][nk[i]]) {
					e = ref_flood(r, ny[i], nk[i], theirs, 1);
					maxe = e > maxe ? e : maxe;
				}
		}
	if (maxe == 0 || size <= maxe) {
		r->at[y][k] = 0;
		return 0;
	}
	if (!apply) {
		r->at[y][k] = 0;
		return 2;
	}
	for (yy = 0; yy < r->rows; yy++)
		for (kk = 1; kk <= r->len[yy]; kk++)
			if (theirs[yy][kk])
				r->at[yy][kk] = 0;
	return 2;
}

/* The legal cells of colour c on the reference board, "a1 a3 ..." by row then number. */
static void ref_legal(struct ref *r, int c, char *buf)
{
	int y, k, n = 0;

	buf[0] = '\0';
	for (y = 0; y < r->rows; y++)
		for (k = 1; k <= r->len[y]; k++)
			if (r->at[y][k] == 0 && ref_try(r, c, y, k, false))
				n += sprintf(buf + n, "%s%c%d", n ? " " : "", 'a' + y, k);
}

/* 200 random hex games, sides 3 to 10: every legal set, capture and position against the reference. */
static void test_hex_random(void)
{
	static struct ref r;
	static char want[4096], got[4096];
	uint16_t mv[RULES_MAX_POINTS];
	unsigned long rnd = 777;
	int game, n, p, y, k, badset = 0, badboard = 0, sets = 0, captures = 0, multi = 0, passes = 0;
	int games = 0, kind;
	struct rules_event ev;
	char name[4];

	for (game = 0; game < 200; game++) {
		int side = RULES_HEX_MIN_SIDE + game % (RULES_HEX_MAX_SIDE - RULES_HEX_MIN_SIDE + 1);

		rules_game_init_shape(&G, RULES_HEX, side, false);
		ref_init(&r, side);
		while (G.result == RULES_PLAYING) {
			B = G.board;
			strcpy(got, legal_names(G.to_move));
			ref_legal(&r, G.to_move, want);
			sets++;
			if (strcmp(got, want) != 0 && badset++ < 3)
				printf("# game %d side %d: legal set differs\n# got  %s\n# want %s\n", game, side,
				    got, want);
			n = rules_game_legal(&G, mv);
			rnd = rnd * 6364136223846793005UL + 1442695040888963407UL;
			p = mv[(rnd >> 33) % (unsigned long)n];
			rules_point_name(&G.board, p, name);
			y = name[0] - 'a', k = atoi(name + 1);
			kind = ref_try(&r, G.to_move, y, k, true);
			rules_game_play(&G, p, &ev);
			captures += ev.captured > 0;
			passes += ev.npasses;
			multi += ev.verdict == RULES_CAPTURE && kind == 2 && ev.captured > 1;
			if (kind != (ev.verdict == RULES_CAPTURE ? 2 : 1) && badboard++ < 3)
				printf("# game %d: %s is a %s, the reference says %d\n", game, name,
				    rules_verdict_str(ev.verdict), kind);
			for (y = 0; y < r.rows; y++)
				for (k = 1; k <= r.len[y]; k++) {
					p = rules_point(&G.board, rules_row_first(&G.board, y) + k - 1, y);
					if ((int)rules_at(&G.board, p) != r.at[y][k] && badboard++ < 3)
						printf("# game %d: %c%d differs after %s\n", game, 'a' + y, k, name);
				}
		}
		games++;
	}
	ok_int(badset, 0, "%d random hex games: %d legal sets agree with the brute-force reference", games, sets);
	ok_int(badboard, 0, "random hex games: every placement and position agree with the reference");
	ok(captures > 1000 && multi > 100, "random hex games: %d captures, %d of several stones", captures, multi);
	printf("# %d automatic passes\n", passes);
}

int main(void)
{
	test_notation();
	test_figures();
	test_edge_cases();
	test_swap_resign_pass();
	test_random_consistency();
	test_conformance("tests/data/public.trace.gz", 300);
	test_conformance("tests/data/public-hex.trace.gz", 212);
	test_hex_geometry();
	test_hex_rules();
	test_hex_random();
	return t_done();
}
