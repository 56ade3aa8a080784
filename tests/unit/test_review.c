/*
 * test_review: the game layer of `review` (game/review.h): a finished 5x5
 * game reviewed with a fixed playout budget (the same twice), its kept
 * text read back and every malformed one refused, the thresholds, the
 * costliest turns in order, the SGF with its variations read back by
 * sgf_parse, the hex board of side 3 reviewed by the solver, a kept
 * file with chances outside 0..1 repaired, the refutations kept, the
 * table's one line for a decided game, and 20 random games reviewed with
 * every chance in 0..1.
 */
#include <stdlib.h>
#include <string.h>

#include "game/review.h"
#include "game/sgf.h"
#include "t.h"

static struct game G;

/* play "C3;A5;E1;..." (turns separated by ';', placements by ','), alternating alice and bob */
static void play(const char *turns)
{
	char buf[400], *save = NULL, *t, *save2 = NULL, *p;
	int pts[16], n, k = 0;

	snprintf(buf, sizeof buf, "%s", turns);
	for (t = strtok_r(buf, ";", &save); t != NULL; t = strtok_r(NULL, ";", &save), k++) {
		n = 0;
		for (p = strtok_r(t, ",", &save2); p != NULL; p = strtok_r(NULL, ",", &save2))
			pts[n++] = rules_parse_point(&G.rg.board, p, (int)strlen(p));
		if (game_move(&G, game_player_to_move(&G), pts, n, 1700000000 + k, NULL) != GAME_OK) {
			fprintf(stderr, "bad test game at turn %d\n", k + 1);
			abort();
		}
	}
}

static enum game_status parse(const char *text, struct review *r)
{
	char why[200];

	return review_parse(text, strlen(text), &G, r, why, sizeof why);
}

/* A review of G's turns with Black's chances after each turn from after[]: the table's decided line. */
static void decided(void)
{
	static const double after[] = { 0.5, 0.7, 0.3, 0.04, 0.02, 0.01, 0.03, 0.0 };
	struct review r;
	char *table;
	int i;

	game_init(&G, 101, 5, false, "alice", "bob", 1700000000);
	play("C3;A5;E1;D3;C2,A1;B4;C4,B5;D5");
	memset(&r, 0, sizeof r);
	r.board = 101;
	r.nturns = 8;
	r.turns = calloc(8, sizeof *r.turns);
	if (r.turns == NULL)
		abort();
	for (i = 0; i < 8; i++) {
		r.turns[i].number = i + 1;
		r.turns[i].color = i % 2 == 0 ? RULES_BLACK : RULES_WHITE;
		r.turns[i].before = i > 0 ? after[i - 1] : 0.5;
		r.turns[i].after = after[i];
	}
	ok_int(review_decided(&r), 4, "Black under 5%% from turn 4 on: decided after it");
	table = review_table(&G, &r);
	ok(table != NULL && strstr(table, "   4  bob") != NULL && strstr(table, "   5  alice") == NULL &&
	    strstr(table, "   5-8  decided: Black's chance stayed under 5% to the end\n") != NULL,
	    "the table lists turns 1 to 4 and says the rest in one line");
	free(table);
	r.turns[6].after = 0.2;
	ok_int(review_decided(&r), 8, "a chance back over 5%%: decided only at the end");
	table = review_table(&G, &r);
	ok(table != NULL && strstr(table, "decided") == NULL && strstr(table, "   8  bob") != NULL,
	    "... every turn listed");
	free(table);
	r.exact = true;
	ok_int(review_decided(&r), 0, "a solved board's review is never cut");
	review_release(&r);
	game_release(&G);
}

/* 20 random 5x5 games (at most 40 turns each) reviewed cheaply: every chance in 0..1, kept and read back. */
static void random_games(void)
{
	struct review_options o = { .playouts = 16, .seconds = 0, .seed = 7 };
	static struct rules_game w;
	struct review r, back;
	uint16_t legal[RULES_MAX_POINTS];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char why[200], *text;
	size_t len;
	int k, i, n, pts[64], np, bad = 0, total = 0, start;

	for (k = 0; k < 20; k++) {
		game_init(&G, 200 + k, 5, false, "alice", "bob", 1700000000);
		for (i = 0; i < 40 && !game_over(&G); i++) {
			w = G.rg;
			start = w.turn;
			np = 0;
			while (w.result == RULES_PLAYING && w.turn == start && np < 64) {
				n = rules_game_legal(&w, legal);
				if (n <= 0)
					break;
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				pts[np] = legal[x % (uint64_t)n];
				if (!rules_is_legal(rules_game_play(&w, pts[np], NULL)))
					break;
				np++;
			}
			if (np == 0 || game_move(&G, game_player_to_move(&G), pts, np, 1700000000 + i, NULL) != GAME_OK)
				break;
		}
		if (review_compute(&G, &o, &r) != GAME_OK) {
			bad++;
			review_release(&r);
			game_release(&G);
			continue;
		}
		for (i = 0; i < r.nturns; i++, total++)
			if (!(r.turns[i].before >= 0 && r.turns[i].before <= 1 && r.turns[i].after >= 0 &&
			    r.turns[i].after <= 1))
				bad++;
		text = NULL;
		if (review_format(&r, &G, &text, &len) != GAME_OK ||
		    review_parse(text, len, &G, &back, why, sizeof why) != GAME_OK || back.nturns != r.nturns)
			bad++;
		review_release(&back);
		free(text);
		review_release(&r);
		game_release(&G);
	}
	ok(bad == 0 && total > 20 * 5, "20 random games reviewed: all %d chances in 0..1, each kept file reads", total);
}

int main(void)
{
	struct review_options o = { .playouts = 200, .seconds = 0, .seed = 1 };
	struct review r, r2, back;
	struct review_turn t;
	struct game g2;
	struct sgf_error err;
	char *text = NULL, *text2 = NULL, *sgf, *bad;
	size_t len, len2, slen;
	int idx[REVIEW_WORST_MAX], n, i;

	game_init(&G, 101, 5, true, "alice", "bob", 1700000000);
	play("C3;A5;E1;D3;C2,A1;B4;C4,B5;D5;C5");
	ok(game_over(&G) && G.rg.result == RULES_BLACK_WINS, "the test game is over: black won");

	ok_int(review_compute(&G, &o, &r), GAME_OK, "a finished game is reviewed");
	ok_int(r.nturns, 9, "... a line a turn");
	ok(!r.exact && r.playouts > 0, "... by the search, not the solver");
	ok(r.turns[8].after == 1.0, "... the last turn's after is the result: black won");
	for (i = 1; i < r.nturns; i++)
		if (r.turns[i].before != r.turns[i - 1].after)
			break;
	ok_int(i, r.nturns, "... each turn's before is the turn before's after");
	ok_int(review_compute(&G, &o, &r2), GAME_OK, "reviewed again");
	ok(review_format(&r, &G, &text, &len) == GAME_OK && review_format(&r2, &G, &text2, &len2) == GAME_OK &&
	    len == len2 && memcmp(text, text2, len) == 0, "... the same review: a fixed budget is deterministic");

	ok_int(review_parse(text, len, &G, &back, err.msg, sizeof err.msg), GAME_OK, "the kept text reads back");
	ok(back.nturns == r.nturns && back.playouts == r.playouts, "... the same turns and playouts");
	for (i = 0; i < r.nturns; i++)
		if (back.turns[i].nbetter != r.turns[i].nbetter || back.turns[i].better_swap != r.turns[i].better_swap ||
		    (r.turns[i].nbetter > 0 && back.turns[i].better[0] != r.turns[i].better[0]))
			break;
	ok_int(i, r.nturns, "... the same better turns");
	review_release(&back);

	/* malformed kept files */
	ok_int(parse("oustpbm review 2\n", &back), GAME_BAD_REVIEW, "another version: refused");
	ok_int(parse("oustpbm review 1\nboard 102\nturns 0\nexact no\nplayouts 0\n", &back), GAME_BAD_REVIEW,
	    "another board's: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 10\nexact no\nplayouts 0\n", &back), GAME_BAD_REVIEW,
	    "more turns than the game: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\n", &back), GAME_BAD_REVIEW,
	    "a turn line missing: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 1.5\n", &back),
	    GAME_OK, "a chance over 1: repaired, not refused");
	ok(back.turns[0].before == 0.5 && back.turns[0].after == 1.0, "... to 1");
	review_release(&back);
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 1.0000 -0.0123\n", &back),
	    GAME_OK, "a chance under 0 (issue 40's file): repaired");
	ok(back.turns[0].before == 1.0 && back.turns[0].after == 0.0, "... to 0");
	review_release(&back);
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x nan 0.5\n", &back),
	    GAME_BAD_REVIEW, "a chance that is no number: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5x 0.5\n", &back),
	    GAME_BAD_REVIEW, "a chance with trailing junk: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 better C3,D3 "
	    "captures 1 answer B2,E5 captures 2\n", &back), GAME_OK, "a turn line with a better turn and an answer reads");
	ok(back.turns[0].nbetter == 2 && back.turns[0].nanswer == 2 && back.turns[0].answer_captured == 2 &&
	    !back.turns[0].answer_swap, "... both kept");
	review_release(&back);
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 answer swap\n",
	    &back), GAME_OK, "an answer that swaps reads");
	ok(back.turns[0].answer_swap && back.turns[0].nanswer == 0, "... as a swap");
	review_release(&back);
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 answer B2 "
	    "captures\n", &back), GAME_BAD_REVIEW, "an answer without its count: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 answer B2 "
	    "captures 0 more\n", &back), GAME_BAD_REVIEW, "a word after the answer: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 better C3 "
	    "captures 0 answer B2 captures 0 x x x x\n", &back), GAME_BAD_REVIEW, "too many words: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.5 better Z9 "
	    "captures 0\n", &back), GAME_BAD_REVIEW, "a better turn off the board: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 2 x 0.5 0.5\n", &back),
	    GAME_BAD_REVIEW, "turn lines out of order: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact maybe\nplayouts 0\nturn 1 x 0.5 0.5\n", &back),
	    GAME_BAD_REVIEW, "exact neither yes nor no: refused");
	ok_int(parse("oustpbm review 1\nboard 101\nturns 1\nexact no\nplayouts 0\nturn 1 x 0.5 0.4 better C3,D3 "
	    "captures 1\n", &back), GAME_OK, "a good one-turn review reads");
	ok(back.turns[0].nbetter == 2 && back.turns[0].better_captured == 1, "... with its better turn");
	review_release(&back);
	bad = calloc(1, REVIEW_FILE_MAX + 2);
	ok(bad != NULL && review_parse(bad, REVIEW_FILE_MAX + 1, &G, &back, err.msg, sizeof err.msg) == GAME_BAD_REVIEW,
	    "too long: refused");
	free(bad);

	/* the refutations: every costliest turn not ending the game has the opponent's answer kept */
	n = review_worst(&r, idx);
	for (i = 0; i < n; i++)
		if (r.turns[idx[i]].nanswer == 0 && !r.turns[idx[i]].answer_swap)
			break;
	ok(n > 0 && i == n, "each costliest turn has the opponent's best answer (%d)", n);
	ok_int(review_parse(text, len, &G, &back, err.msg, sizeof err.msg), GAME_OK, "... kept and read back");
	for (i = 0; i < r.nturns; i++)
		if (back.turns[i].nanswer != r.turns[i].nanswer ||
		    (r.turns[i].nanswer > 0 && back.turns[i].answer[0] != r.turns[i].answer[0]))
			break;
	ok_int(i, r.nturns, "... the same answers");
	review_release(&back);
	bad = review_worst_text(&G, &r);
	ok(bad != NULL && strstr(bad, "'s best answer: ") != NULL && strstr(bad, "The better turn, ") != NULL,
	    "the costliest turns show the answer and the better turn");
	free(bad);
	bad = review_worst_html(&G, &r);
	ok(bad != NULL && strstr(bad, "best answer") != NULL && strstr(bad, "<table") != NULL,
	    "... in HTML with boards as tables");
	free(bad);

	/* the thresholds */
	memset(&t, 0, sizeof t);
	t.color = RULES_BLACK;
	t.before = 0.60;
	t.after = 0.46;
	ok_int(review_kind_of(&r, &t), REVIEW_FINE, "black loses 14 points: fine");
	t.after = 0.45;
	ok_int(review_kind_of(&r, &t), REVIEW_MISTAKE, "... 15: a mistake");
	t.after = 0.30;
	ok_int(review_kind_of(&r, &t), REVIEW_BLUNDER, "... 30: a blunder");
	t.color = RULES_WHITE;
	ok_int(review_kind_of(&r, &t), REVIEW_FINE, "the same for white is a gain");

	n = review_worst(&r, idx);
	for (i = 1; i < n; i++)
		if (review_drop(&r.turns[idx[i]]) > review_drop(&r.turns[idx[i - 1]]))
			break;
	ok(n > 0 && i == n, "the costliest turns, the costliest first (%d)", n);

	/* the SGF: the main line is the game, the better turns are variations */
	sgf = review_sgf(&G, &r, &slen);
	ok(sgf != NULL && strstr(sgf, "Black's chance to win: ") != NULL, "the SGF has the figures in its comments");
	for (i = 0, n = 0; i < r.nturns; i++)
		n += r.turns[i].nbetter > 0;
	ok(n > 0 && sgf != NULL && strstr(sgf, "The robot's turn") != NULL, "... and %d variations", n);
	memset(&g2, 0, sizeof g2);
	ok(sgf != NULL && sgf_parse(sgf, slen, &g2, &err) == GAME_OK && g2.nturns == G.nturns, "sgf_parse reads its main line");
	game_release(&g2);
	free(sgf);

	free(text);
	free(text2);
	review_release(&r);
	review_release(&r2);
	game_release(&G);

	/* a 25x25 game's costliest turns: the HTML boards stop at the cap, the text keeps every board */
	game_init(&G, 103, 25, true, "alice", "bob", 1700000000);
	play("A1;Y25;A3;Y23;A5;Y21;A7;Y19;A9;Y17");
	{
		char kept[2000];
		size_t kl = (size_t)snprintf(kept, sizeof kept, "oustpbm review 1\nboard 103\nturns 10\nexact no\n"
		    "playouts 0\n");
		char *html, *txt;
		const char *q;
		int boards = 0;

		for (i = 1; i <= 10; i++)
			kl += (size_t)snprintf(kept + kl, sizeof kept - kl, "turn %d %c %s %s better M13 captures 0 "
			    "answer P10 captures 0\n", i, i % 2 ? 'x' : 'o', i == 1 ? "0.5" : i % 2 ? "0.9" : "0.1",
			    i % 2 ? "0.1" : "0.9");
		ok_int(parse(kept, &back), GAME_OK, "a 25x25 review of ten blunders reads");
		html = review_worst_html(&G, &back);
		txt = review_worst_text(&G, &back);
		ok(html != NULL && strlen(html) <= REVIEW_WORST_HTML_MAX, "... its HTML boards stay under the cap (%zu)",
		    html != NULL ? strlen(html) : 0);
		ok(html != NULL && strstr(html, "<table") != NULL && strstr(html, "in the text part") != NULL,
		    "... some drawn, the others left to the text part");
		for (q = txt; q != NULL && (q = strstr(q, "The better turn, ")) != NULL; q++)
			boards++;
		ok_int(boards, review_worst(&back, idx), "... the text draws every better turn");
		free(html);
		free(txt);
		review_release(&back);
	}
	game_release(&G);

	/* the solved board: proved values, the turn that lost the game */
	game_init_shape(&G, 102, &(struct game_form){ RULES_HEX, 3, false }, "alice", "bob", 1700000000);
	play("a1;c4;c2;c3,b2");
	ok(game_over(&G) && G.rg.result == RULES_WHITE_WINS, "a hex-3 game white won");
	ok_int(review_compute(&G, &o, &r), GAME_OK, "reviewed");
	ok(r.exact && r.turns[0].before == 1.0 && r.turns[0].after == 0.0, "... exact: a1 lost black's won game");
	ok_int(review_kind_of(&r, &r.turns[0]), REVIEW_BLUNDER, "... a blunder");
	ok(r.turns[0].nbetter == 1, "... with a winning placement instead");
	for (i = 1; i < r.nturns; i++)
		if (review_kind_of(&r, &r.turns[i]) != REVIEW_FINE)
			break;
	ok_int(i, r.nturns, "... the only one");
	review_release(&r);
	game_release(&G);

	decided();
	random_games();
	return t_done();
}
