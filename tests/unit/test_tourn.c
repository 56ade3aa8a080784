/* test_tourn: the tournament core (game/tourn.h) and its file (store/tournfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/tourn.h"
#include "store/tournfile.h"
#include "t.h"

static struct tourn *make(enum tourn_format f, int n)
{
	struct tourn *t = tourn_new(1, f);
	char id[16];
	int i;

	snprintf(t->name, sizeof t->name, "test");
	snprintf(t->director, sizeof t->director, "dir");
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof id, "p%02d", i + 1);
		/* p01 the lowest rated: the seeding must reverse the join order */
		tourn_add_player(t, id, 1000 + 10 * i, 0);
	}
	return t;
}

/* Start every game without a board, boards from 101 on. */
static void start(struct tourn *t, long *next)
{
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].board == 0 && t->games[i].white >= 0 && t->games[i].result == TOURN_PENDING)
			t->games[i].board = (*next)++;
}

static int pid(const struct tourn *t, const char *u)
{
	return tourn_find(t, u);
}

static void test_berger_table(void)
{
	struct tourn *t = make(TOURN_ROUNDROBIN, 6);
	char why[TOURN_ERR_MAX], got[200] = "";
	size_t i, l = 0;

	ok(tourn_begin(t, 1, why), "a round robin of 6 begins");
	ok_int(t->rounds, 5, "5 rounds");
	/* the seeds: p06 is seed 1 */
	for (i = 0; i < t->ngames && t->games[i].round <= 2; i++)
		l += (size_t)snprintf(got + l, sizeof got - l, "%d-%d ", t->players[t->games[i].black].seed,
		    t->players[t->games[i].white].seed);
	ok_str(got, "1-6 2-5 3-4 6-4 1-2 5-3 ", "rounds 1 and 2 as FIDE's Berger table for 6");
	tourn_free(t);
}

static void check_rr(int m, bool twice)
{
	struct tourn *t = make(TOURN_ROUNDROBIN, m);
	char why[TOURN_ERR_MAX];
	int meet[12][12] = { { 0 } }, blacks[12] = { 0 }, inround[64][12] = { { 0 } }, byes[64] = { 0 };
	int lo = 99, hi = 0, i, j, bad = 0;
	size_t k;

	t->twice = twice;
	t->min_players = 2;
	ok(tourn_begin(t, 1, why), "a round robin of %d begins", m);
	for (k = 0; k < t->ngames; k++) {
		const struct tourn_game *g = &t->games[k];

		inround[g->round][g->black]++;
		if (g->white < 0) {
			byes[g->round]++;
			continue;
		}
		inround[g->round][g->white]++;
		meet[g->black][g->white]++;
		blacks[g->black]++;
	}
	for (i = 0; i < m; i++) {
		if (blacks[i] < lo)
			lo = blacks[i];
		if (blacks[i] > hi)
			hi = blacks[i];
		for (j = 0; j < m; j++)
			if (i != j && (twice ? meet[i][j] != 1 : meet[i][j] + meet[j][i] != 1))
				bad++;
		for (j = 1; j <= t->rounds; j++)
			if (inround[j][i] != 1)
				bad++;
	}
	for (j = 1; j <= t->rounds; j++)
		if (byes[j] != m % 2)
			bad++;
	ok(bad == 0, "%d players%s: every pair meets %s, one game or bye a round, a bye a round when odd", m,
	    twice ? " -double" : "", twice ? "twice, colours reversed" : "once");
	ok(hi - lo <= 1, "%d players%s: Blacks %d to %d", m, twice ? " -double" : "", lo, hi);
	tourn_free(t);
}

static void test_divisions(void)
{
	struct tourn *t = make(TOURN_ROUNDROBIN, 25);
	char why[TOURN_ERR_MAX];
	int size[4] = { 0 }, i;

	ok(tourn_begin(t, 1, why), "25 players begin");
	for (i = 0; i < 25; i++)
		size[t->players[i].division]++;
	ok(tourn_divisions(t) == 3 && size[1] == 9 && size[2] == 8 && size[3] == 8, "25 players: divisions of 9, 8, 8");
	ok(t->players[0].division == 1 && strcmp(t->players[0].userid, "p25") == 0 && t->players[24].division == 3,
	    "the highest rated in division 1, the lowest in 3");
	tourn_free(t);
}

/* The higher rated wins every game, but every fourth board is drawn. */
static void play_round(struct tourn *t, long *next, int64_t now, enum tourn_step *step)
{
	size_t i, n = t->ngames;
	const struct tourn_game *g;

	start(t, next);
	for (i = 0; i < n; i++) {
		g = &t->games[i];
		if (g->result != TOURN_PENDING || g->board == 0)
			continue;
		tourn_result_of(t, g->board, g->board % 4 == 0 ? TOURN_DRAW :
		    t->players[g->black].rating > t->players[g->white].rating ? TOURN_BLACK_WINS : TOURN_WHITE_WINS, now,
		    step);
	}
}

static void test_swiss(void)
{
	struct tourn *t = make(TOURN_SWISS, 7);
	char why[TOURN_ERR_MAX];
	enum tourn_step step = TOURN_STEP_NONE;
	long next = 101;
	int r, byes[7] = { 0 }, bad = 0;
	size_t i, j;

	t->rounds = 3;
	ok(tourn_begin(t, 1, why), "a Swiss of 7 begins");
	/* round 1 by rating: 1-4, 2-5, 3-6 (seeds), the bye to seed 7 */
	ok(t->games[0].white < 0 && t->players[t->games[0].black].seed == 7, "round 1: the bye to the lowest rated");
	ok(t->players[t->games[1].black].seed == 1 && t->players[t->games[1].white].seed == 4,
	    "round 1, table 1: seed 1 (Black) against seed 4");
	ok(t->players[t->games[2].white].seed == 2 && t->players[t->games[2].black].seed == 5,
	    "round 1, table 2: seed 5 (Black) against seed 2: colours alternate by table");
	for (r = 1; r <= 3; r++) {
		play_round(t, &next, 1, &step);
		ok_int(step, r < 3 ? TOURN_STEP_ROUND : TOURN_STEP_END, "round %d's last game: the next step", r);
	}
	ok_int(t->state, TOURN_FINISHED, "the Swiss ends after 3 rounds");
	for (i = 0; i < t->ngames; i++) {
		if (t->games[i].white < 0) {
			byes[t->games[i].black]++;
			continue;
		}
		for (j = i + 1; j < t->ngames; j++)
			if (t->games[j].white >= 0 && ((t->games[i].black == t->games[j].black &&
			    t->games[i].white == t->games[j].white) || (t->games[i].black == t->games[j].white &&
			    t->games[i].white == t->games[j].black)))
				bad++;
	}
	for (i = 0; i < 7; i++)
		if (byes[i] > 1)
			bad++;
	ok(bad == 0, "no pair twice, nobody two byes");
	{
		struct tourn_row rows[7];
		size_t n = tourn_standings(t, 1, rows);

		ok(n == 7 && rows[0].score2 >= rows[1].score2 && rows[1].score2 >= rows[2].score2, "standings by score");
		ok(rows[0].tb1 > 0, "a Buchholz computed");
	}
	tourn_free(t);
}

static void test_knockout(void)
{
	struct tourn *t = make(TOURN_KNOCKOUT, 6);
	char why[TOURN_ERR_MAX];
	enum tourn_step step = TOURN_STEP_NONE;
	struct tourn_row rows[6];
	long next = 101;
	int byes = 0;
	size_t i, n;

	ok(tourn_begin(t, 1, why), "a knockout of 6 begins");
	ok_int(t->rounds, 3, "3 rounds for 6 players");
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].white < 0) {
			byes++;
			ok(t->players[t->games[i].black].seed <= 2, "a bye to seed %d", t->players[t->games[i].black].seed);
		}
	ok_int(byes, 2, "two byes");
	start(t, &next);
	/* round 1: 3-6 and 4-5; a draw on the first is replayed with colours reversed */
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].board != 0)
			break;
	{
		int b = t->games[i].black, w = t->games[i].white;
		long board = t->games[i].board;
		size_t last;

		tourn_result_of(t, board, TOURN_DRAW, 1, &step);
		for (i = 0; i < t->ngames; i++)
			if (t->games[i].board != 0 && t->games[i].result == TOURN_PENDING && t->games[i].board != board)
				tourn_result_of(t, t->games[i].board, TOURN_BLACK_WINS, 1, &step);
		ok_int(step, TOURN_STEP_ROUND, "the drawn match is replayed");
		last = t->ngames - 1;
		ok(t->games[last].black == w && t->games[last].white == b && t->games[last].round == 1,
		    "the replay has colours reversed");
	}
	while (t->state == TOURN_RUNNING) {
		size_t before = t->ngames;

		play_round(t, &next, 1, &step);
		if (t->ngames == before && t->state == TOURN_RUNNING)
			break;
	}
	ok_int(t->state, TOURN_FINISHED, "the knockout ends");
	n = tourn_standings(t, 1, rows);
	ok(n == 6 && rows[0].rank == 1 && rows[1].rank == 2 && rows[2].rank == 3 && rows[3].rank == 3,
	    "winner, finalist, two semi-finalists level");
	ok_str(t->players[rows[0].player].userid, "p06", "the top seed wins (the higher rated always wins)");
	tourn_free(t);
}

static void test_ladder(void)
{
	struct tourn *t = make(TOURN_LADDER, 6);
	char why[TOURN_ERR_MAX];
	enum tourn_step step;
	struct tourn_game g = { 1, 1, 1, 0, 0, 201, TOURN_PENDING };
	int c;

	ok(tourn_begin(t, 1000, why), "a ladder begins");
	/* places by rating: p06 1st ... p01 6th */
	c = pid(t, "p01");
	ok_int(t->players[c].place, 6, "the lowest rated at the bottom");
	ok(!tourn_ladder_may(t, c, pid(t, "p02"), why) == false, "one place up: allowed");
	ok(!tourn_ladder_may(t, c, pid(t, "p04"), why) == false, "three places up: allowed (reach 3)");
	ok(!tourn_ladder_may(t, c, pid(t, "p05"), why), "four places up: refused");
	ok(strstr(why, "1 to 3 places up") != NULL, "the refusal says the reach: %s", why);
	ok(!tourn_ladder_may(t, pid(t, "p05"), c, why), "downwards: refused");
	g.black = c;
	g.white = pid(t, "p04");
	tourn_add_game(t, &g);
	ok(!tourn_ladder_may(t, c, pid(t, "p02"), why), "a second open ladder challenge: refused");
	tourn_result_of(t, 201, TOURN_BLACK_WINS, 2000, &step);
	ok(t->players[c].place == 3 && t->players[pid(t, "p04")].place == 4 && t->players[pid(t, "p02")].place == 6 &&
	    t->players[pid(t, "p03")].place == 5, "the climber takes place 3, those between move down one");
	/* idle: everyone but p01 and p04 played last at 1000 */
	t->idle_days = 1;
	ok_int(tourn_ladder_idle(t, 1000 + 86400 + 1), 4, "four idle players drop");
	ok(t->players[c].place == 1 && t->players[pid(t, "p04")].place == 2 && t->players[pid(t, "p06")].place == 3,
	    "to the bottom, in their order");
	tourn_free(t);
}

/* A 4-player round robin with given results, for the scores and tie-breaks. */
static void test_scores(void)
{
	struct tourn *t = make(TOURN_ROUNDROBIN, 4);
	char why[TOURN_ERR_MAX], *s;
	struct tourn_row rows[4];
	struct strbuf b = STRBUF_INIT;
	enum tourn_step step;
	long next = 101;
	size_t i;

	tourn_begin(t, 1, why);
	start(t, &next);
	/* every game a draw but p04 beats p03: p04 2, p02 1.5, p01 1.5, p03 1 */
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];
		enum tourn_result r = TOURN_DRAW;

		if (g->black == pid(t, "p04") && g->white == pid(t, "p03"))
			r = TOURN_BLACK_WINS;
		else if (g->white == pid(t, "p04") && g->black == pid(t, "p03"))
			r = TOURN_WHITE_WINS;
		tourn_result_of(t, g->board, r, 1, &step);
	}
	ok_int(step, TOURN_STEP_END, "the last game ends the round robin");
	tourn_standings(t, 1, rows);
	ok_str(t->players[rows[0].player].userid, "p04", "p04 first");
	ok_int(rows[0].score2, 4, "2 points");
	/* SB of p04: win over p03 (1) + half of p02 (1.5) + half of p01 (1.5) = 2.5 = 10 quarters */
	ok_int(rows[0].tb1, 10, "Sonneborn-Berger 2.5");
	/* p02 and p01 level on score and SB (0.5*2 + 0.5*1.5 + 0.5*1 = 2.25): their direct game drawn, rating decides */
	ok(rows[1].tb1 == rows[2].tb1 && rows[1].tb1 == 9, "p02 and p01 level on S-B 2.25");
	ok(rows[1].tb2 == 2 && rows[2].tb2 == 2, "their direct game drawn: 0.5 each");
	ok_str(t->players[rows[1].player].userid, "p02", "then the rating: p02 before p01");
	ok(rows[1].rank == 2 && rows[2].rank == 3, "ranks 2 and 3 (the rating split them)");
	tourn_text_standings(t, &b);
	s = strbuf_finish(&b);
	ok(s != NULL && strstr(s, " 1  p04") != NULL && strstr(s, "   *  =  =  1      2    2.5       0\n") != NULL,
	    "the crosstable's row of p04");
	if (s != NULL)
		printf("# %s\n", s);
	free(s);
	tourn_free(t);
}

static void test_leave(void)
{
	struct tourn *t = make(TOURN_ROUNDROBIN, 5);
	char why[TOURN_ERR_MAX];
	enum tourn_step step;
	long next = 101;
	int p = -1, played, total, left;
	size_t i;

	tourn_begin(t, 1, why);
	start(t, &next);
	left = pid(t, "p01");
	/* p01 plays one game of 4, then leaves: everything annulled */
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].white >= 0 && (t->games[i].black == left || t->games[i].white == left)) {
			tourn_result_of(t, t->games[i].board, t->games[i].black == left ? TOURN_BLACK_WINS : TOURN_WHITE_WINS,
			    1, &step);
			break;
		}
	tourn_player_games(t, left, &played, &total);
	ok(played == 1 && total == 4, "p01 played 1 of 4");
	tourn_leave(t, left, &step);
	ok(t->players[left].annulled, "before half: annulled");
	ok_int(tourn_score2(t, left), 0, "nothing counts");
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].white >= 0 && (t->games[i].black == left || t->games[i].white == left))
			p = t->games[i].result == TOURN_ANNULLED ? p : 99;
	ok(p == -1, "every game of p01 annulled");
	tourn_free(t);

	t = make(TOURN_ROUNDROBIN, 5);
	tourn_begin(t, 1, why);
	next = 101;
	start(t, &next);
	left = pid(t, "p02");
	played = 0;
	for (i = 0; i < t->ngames && played < 2; i++)
		if (t->games[i].white >= 0 && (t->games[i].black == left || t->games[i].white == left)) {
			tourn_result_of(t, t->games[i].board, TOURN_DRAW, 1, &step);
			played++;
		}
	tourn_leave(t, left, &step);
	ok(!t->players[left].annulled, "at half: not annulled");
	ok_int(tourn_score2(t, left), 2, "the two draws count");
	p = 0;
	for (i = 0; i < t->ngames; i++)
		if ((t->games[i].result == TOURN_BLACK_FORFEIT && t->games[i].white == left) ||
		    (t->games[i].result == TOURN_WHITE_FORFEIT && t->games[i].black == left))
			p++;
	ok_int(p, 2, "the two unplayed games lost by forfeit");
	tourn_free(t);
}

static void test_file(void)
{
	struct tourn *t = make(TOURN_SWISS, 5), *u = NULL;
	char why[TOURN_ERR_MAX], err[TOURNFILE_ERR_MAX], *a, *b;
	long next = 101;
	size_t la, lb;
	unsigned id;

	snprintf(t->options, sizeof t->options, "-size=9 -noswap");
	t->created = 1700000000;
	tourn_begin(t, 1700000000, why);
	start(t, &next);
	tourn_leave(t, 0, &(enum tourn_step){ 0 });
	/* an edition's links (-repeat): edition, previous, next read back */
	t->repeat = true;
	t->edition = 2;
	t->previous = 3;
	t->next = 7;
	a = tournfile_format(t, &la);
	ok(a != NULL && strstr(a, "\nedition: 2\nprevious: T3\nnext: T7\n") != NULL, "the edition's lines are written");
	ok(a != NULL && tournfile_parse("tournaments/1", a, la, &u, err), "the file reads back");
	b = u != NULL ? tournfile_format(u, &lb) : NULL;
	ok_str(b, a, "and writes the same text");
	free(b);
	tourn_free(u);
	u = NULL;
	{
		static const struct {
			const char *text, *want;
		} bad[] = {
			{ "tournament: T1\nname: x\nformat: chess\n", "tournaments/1:3: want roundrobin" },
			{ "tournament: T1\nname: x\nformat: swiss\ndirector: d\nstatus: open\n\nplayer: a 1500\n"
			  "game: 1 1 1 a b 101 1-0\n", "tournaments/1:8: 'b' is no player" },
			{ "tournament: T1\nname: x\nformat: swiss\ndirector: d\nstatus: open\nplayer: a 1500\n"
			  "player: b 1500\ngame: 1 1 1 a b 101 2-0\n", "tournaments/1:8: want the result" },
			{ "tournament: T1\nname: x\nformat: swiss\ndirector: d\nstatus: open\nplayer: a 1500\n"
			  "game: 1 1 1 a - 101 bye\n", "tournaments/1:7: a bye has" },
			{ "tournament: T1\ntournament: T2\n", "tournaments/1:2: 'tournament' given twice" },
			{ "tournament: T1\nname: x\n", "tournaments/1: wants the lines" },
			{ "tournament: T1\nbogus\n", "tournaments/1:2: want 'key: value'" },
			{ "tournament: T1\nname: x\nnext: 7\n", "tournaments/1:3: want 'next: T<number>'" },
			{ "tournament: T1\nprevious: T0\n", "tournaments/1:2: want 'previous: T<number>'" },
			{ "tournament: T1\nedition: 0\n", "tournaments/1:2: want 'edition: N'" },
		};
		size_t i;

		for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			bool got = tournfile_parse("tournaments/1", bad[i].text, strlen(bad[i].text), &u, err);

			ok(!got && strncmp(err, bad[i].want, strlen(bad[i].want)) == 0, "refused: %s", err);
			tourn_free(u);
			u = NULL;
		}
	}
	ok(tournfile_id_parse("t12", &id) && id == 12 && !tournfile_id_parse("T0", &id) && !tournfile_id_parse("T1x", &id),
	    "ids: t12 is T12; T0 and T1x are none");
	free(a);
	tourn_free(t);
}

int main(void)
{
	int m;

	test_berger_table();
	for (m = 2; m <= 10; m++) {
		check_rr(m, false);
		check_rr(m, true);
	}
	test_divisions();
	test_swiss();
	test_knockout();
	test_ladder();
	test_scores();
	test_leave();
	test_file();
	return t_done();
}
