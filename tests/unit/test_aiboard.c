/*
 * The AI's playout board against the rules core: on random games and on the
 * conformance games, every legal set, every verdict, every capture and every
 * position after a placement agree.
 */
#include <stdlib.h>

#include "game/aiboard.h"
#include "t.h"

static struct aigeom GEO;
static int bad;

static void complain(const char *what, int game, int step)
{
	if (bad++ < 5)
		printf("# game %d step %d: %s\n", game, step, what);
}

/* Compare the legal sets and verdicts of colour c, and the stones. */
static void compare(struct rules_board *rb, struct aiboard *ab, int c, int game, int step)
{
	uint16_t rl[RULES_MAX_POINTS], al[RULES_MAX_POINTS];
	uint8_t in[RULES_MAX_CELLS];
	struct rules_check chk;
	int nr = rules_legal(rb, (enum rules_color)c, rl), na = aiboard_legal(ab, c, al), i, p;
	enum aiboard_verdict v;

	if (nr != na) {
		complain("legal set sizes differ", game, step);
		return;
	}
	memset(in, 0, sizeof(in));
	for (i = 0; i < nr; i++)
		in[rl[i]] = 1;
	for (i = 0; i < na; i++) {
		p = GEO.rpoint[al[i]];
		if (!in[p])
			complain("legal sets differ", game, step);
		v = aiboard_check(ab, c, al[i]);
		if (rules_check(rb, (enum rules_color)c, p, &chk) != (v == AIBOARD_CAPTURE ?
		    RULES_CAPTURE : RULES_NONCAPTURE))
			complain("verdicts differ", game, step);
		if (v == AIBOARD_CAPTURE && aiboard_capture_size(ab, c, al[i]) != chk.captured)
			complain("capture sizes differ", game, step);
	}
	for (i = 0; i < GEO.ncells; i++) {
		int k, nb = 0, nw = 0;

		if (GEO.rpoint[i] == 0)
			continue;
		if (ab->color[i] != rules_at(rb, GEO.rpoint[i]))
			complain("stones differ", game, step);
		for (k = 0; k < GEO.nnbr; k++) {
			nb += ab->color[i + GEO.nbr[k]] == RULES_BLACK;
			nw += ab->color[i + GEO.nbr[k]] == RULES_WHITE;
		}
		if (aiboard_count(ab, i, RULES_BLACK) != nb || aiboard_count(ab, i, RULES_WHITE) != nw)
			complain("neighbour counts differ", game, step);
	}
	if (ab->nempty != rb->nempty || ab->stones[1] != rb->stones[1] ||
	    ab->stones[2] != rb->stones[2])
		complain("counts differ", game, step);
}

static void test_random_games(void)
{
	/* Square sizes, then hex sides (negative). */
	static const int sizes[] = { 5, 7, 9, 11, 13, 25, -3, -5, -7, -10 };
	struct rules_game g;
	struct aiboard ab, cp;
	uint16_t mv[RULES_MAX_POINTS];
	uint64_t r = 12345;
	int i, game, step, n, p, got, games = 0, placements = 0, captures = 0;
	struct rules_event ev;

	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		for (game = 0; game < (sizes[i] > 13 ? 3 : 30); game++, games++) {
			if (sizes[i] > 0)
				rules_game_init(&g, sizes[i], false);
			else
				rules_game_init_shape(&g, RULES_HEX, -sizes[i], false);
			aigeom_init(&GEO, &g.board);
			aiboard_from_rules(&ab, &GEO, &g.board);
			for (step = 0; g.result == RULES_PLAYING && step < 3000; step++) {
				compare(&g.board, &ab, g.to_move, game, step);
				compare(&g.board, &ab, RULES_OTHER(g.to_move), game, step);
				n = rules_game_legal(&g, mv);
				r = r * 6364136223846793005ULL + 1442695040888963407ULL;
				p = mv[(r >> 33) % (uint64_t)n];
				enum aiboard_verdict v = aiboard_check(&ab, g.to_move, GEO.cell[p]);
				int c = g.to_move;

				rules_game_play(&g, p, &ev);
				got = aiboard_play(&ab, c, GEO.cell[p], v);
				if (got != ev.captured)
					complain("captured counts differ", game, step);
				captures += got > 0;
				placements++;
				/* Now and then a copy goes on instead: copies are whole. */
				if (step % 7 == 0) {
					aiboard_copy(&cp, &ab);
					ab = cp;
				}
				/* Now and then the position is taken afresh from the rules core. */
				if (step % 13 == 0)
					aiboard_from_rules(&ab, &GEO, &g.board);
			}
		}
	}
	ok_int(bad, 0, "%d random games, %d placements (%d captures): the boards agree", games,
	    placements, captures);
}

/* Replay a conformance trace (hex: cells named as the rules core parses them). */
static void test_conformance(const char *trace, bool hex)
{
	FILE *f = popen(trace, "r");
	char line[8192];
	struct rules_game g;
	struct aiboard ab;
	int games = 0, moves = 0, x, y, p, c;
	enum aiboard_verdict v;

	bad = 0;
	ok(f != NULL, "conformance trace opened");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "game ", 5) == 0) {
			if (hex)
				rules_game_init_shape(&g, RULES_HEX, atoi(strstr(line, "side=") + 5), false);
			else
				rules_game_init(&g, atoi(line + 10), false);
			aigeom_init(&GEO, &g.board);
			aiboard_from_rules(&ab, &GEO, &g.board);
			games++;
		} else if (line[0] == 'P' && line[1] == ' ') {
			c = line[2] == 'b' ? RULES_BLACK : RULES_WHITE;
			if (hex) {
				p = rules_parse_point(&g.board, line + 4, (int)strcspn(line + 4, "\n"));
			} else {
				x = atoi(line + 4);
				y = atoi(strchr(line + 4, '.') + 1);
				p = rules_point(&g.board, x - 1, y - 1);
			}
			compare(&g.board, &ab, c, games, moves);
			v = aiboard_check(&ab, c, GEO.cell[p]);
			if (v == AIBOARD_ILLEGAL)
				complain("conformance placement refused", games, moves);
			else
				aiboard_play(&ab, c, GEO.cell[p], v);
			rules_game_play_color(&g, (enum rules_color)c, p, NULL);
			moves++;
		}
	}
	pclose(f);
	ok(games >= (hex ? 200 : 300), "%s: %d games", trace, games);
	ok_int(bad, 0, "%s: %d placements, every legal set agrees", trace, moves);
}

int main(void)
{
	test_random_games();
	test_conformance("gzip -dc tests/data/public.trace.gz", false);
	test_conformance("gzip -dc tests/data/public-hex.trace.gz", true);
	return t_done();
}
