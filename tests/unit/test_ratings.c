/*
 * Tests of the ratings file (src/store/ratings.h): board classes, rated names,
 * the file's parse errors with their line numbers, the format read back,
 * and ratings that depend on the results alone, not on their order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "store/ratings.h"
#include "t.h"

#define T0 INT64_C(1700000000)

static const char head[] = "# comment\nperiod-days: 14\n\n";

/* Parse head + body; returns the status, err filled. */
static enum store_status parse(const char *body, struct ratings *r, char *err)
{
	char text[4096];

	snprintf(text, sizeof text, "%s%s", head, body);
	return ratings_parse(text, strlen(text), false, r, err);
}

static void refused(const char *body, const char *want)
{
	struct ratings r;
	char err[RATINGS_ERR_MAX];
	enum store_status ss = parse(body, &r, err);

	ok(ss == STORE_CORRUPT && strcmp(err, want) == 0, "refused: %s", want);
	if (ss != STORE_CORRUPT || strcmp(err, want) != 0)
		printf("# got status %d: %s\n", ss, err);
	ratings_release(&r);
}

static void classes(void)
{
	struct game g;
	enum ratings_class c;
	static const struct { enum rules_shape shape; int size; const char *cls; } t[] = {
		{ RULES_SQUARE, 5, "small" }, { RULES_SQUARE, 9, "small" }, { RULES_SQUARE, 11, "standard" },
		{ RULES_SQUARE, 13, "standard" }, { RULES_SQUARE, 15, "large" }, { RULES_SQUARE, 25, "large" },
		{ RULES_HEX, 3, "hex-small" }, { RULES_HEX, 5, "hex-small" }, { RULES_HEX, 6, "hex-standard" },
		{ RULES_HEX, 8, "hex-standard" }, { RULES_HEX, 9, "hex-large" }, { RULES_HEX, 10, "hex-large" },
	};
	char name[RATINGS_NAME_SIZE];
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		game_init_shape(&g, 101, &(struct game_form){ t[i].shape, t[i].size, true }, "alice", "bob", T0);
		ok_str(ratings_class_name(ratings_class_of(&g)), t[i].cls, "%s %d is %s",
		    t[i].shape == RULES_HEX ? "hex side" : "square", t[i].size, t[i].cls);
		game_release(&g);
	}
	ok(ratings_class_parse("Hex-Standard", &c) && c == RATINGS_HEX_STANDARD, "class names in any case");
	ok(!ratings_class_parse("medium", &c), "no class 'medium'");

	game_init(&g, 101, 9, true, "alice", "robot", T0);
	ratings_name(&g, RULES_WHITE, name);
	ok_str(name, "robot:3", "the robot without robot-level is rated at level 3");
	g.robot_level = 5;
	ratings_name(&g, RULES_WHITE, name);
	ok_str(name, "robot:5", "the robot at level 5");
	ok(ratings_game_rated(&g), "a game against the robot is rated");
	g.unrated = true;
	ok(!ratings_game_rated(&g), "-unrated is not");
	game_release(&g);
	game_init(&g, 101, 9, true, "alice", "alice", T0);
	ok(!ratings_game_rated(&g), "a game against oneself is not");
	game_release(&g);
}

static void errors(void)
{
	refused("player: standard alice 1500.00 350.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\nbogus: 1\n",
	    "ratings:5: unknown line 'bogus:' (want player:, game: or period-days:)");
	refused("player: medium alice 1500.00 350.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:4: unknown class 'medium'");
	refused("player: standard Alice 1500.00 350.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:4: bad player name 'Alice'");
	refused("player: standard alice 15x0 350.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:4: bad rating '15x0'");
	refused("player: standard alice 1500.00 351.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:4: bad deviation '351.00' (0 to 350)");
	refused("player: standard alice 1500.00 350.00 0.060000 2 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:4: 2 games are not 1 won + 0 lost + 0 drawn");
	refused("player: standard alice 1500.00 350.00 0.060000 1 1 0 0\n",
	    "ratings:4: a player line has 10 fields (class name rating deviation volatility games won lost "
	    "drawn last-game), not 9");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice bob black-won\n"
	    "player: standard alice 1500.00 350.00 0.060000 1 1 0 0 2023-11-14T22:15:00Z\n",
	    "ratings:5: a player line after the game lines");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice alice black-won\n",
	    "ratings:4: alice cannot play against itself in a rated game");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice bob won\n",
	    "ratings:4: result must be black-won, white-won or drawn, not 'won'");
	refused("game: 102 standard 2023-11-14T22:15:00Z alice bob drawn\n"
	    "game: 101 standard 2023-11-14T22:15:00Z alice bob drawn\n",
	    "ratings:5: board 101 is out of order (games go by end, then board)");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice bob drawn\n"
	    "game: 101 standard 2023-11-15T22:15:00Z alice bob drawn\n",
	    "ratings: board 101 has two game lines");
	refused("game: 99 standard 2023-11-14T22:15:00Z alice bob drawn\n", "ratings:4: bad board '99'");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice bob\n",
	    "ratings:4: a game line has 6 fields (board class ended black white result), not 5");
	refused("game: 101 standard 2023-11-14T22:15:00Z alice bob drawn", "ratings:4: the last line has no line end "
	    "(a write cut short?)");
	refused("game: 101 standard\t2023-11-14T22:15:00Z alice bob drawn\n", "ratings:4: a control character at "
	    "column 19");
	{
		struct ratings r;
		char err[RATINGS_ERR_MAX];
		const char *t = "period-days: 7\n";

		ok(ratings_parse(t, strlen(t), false, &r, err) == STORE_CORRUPT &&
		    strcmp(err, "ratings:1: period-days must be 14 (the server's rating period)") == 0,
		    "another rating period is refused");
		ratings_release(&r);
	}
}

static struct ratings_result result(long board, int64_t ended, const char *cls, const char *black,
    const char *white, enum rules_result res)
{
	struct ratings_result r;

	memset(&r, 0, sizeof r);
	r.board = board;
	ratings_class_parse(cls, &r.cls);
	r.ended = ended;
	snprintf(r.black, sizeof r.black, "%s", black);
	snprintf(r.white, sizeof r.white, "%s", white);
	r.result = res;
	return r;
}

static char *made(const struct ratings_result *res, const int *order, size_t n)
{
	struct ratings r = { 0 };
	enum store_status ss;
	char *text = NULL;
	size_t i, len;

	for (i = 0; i < n; i++)
		ratings_set_result(&r, &res[order[i]], &ss);
	if (ratings_compute(&r) != STORE_OK || ratings_format(&r, &text, &len) != STORE_OK)
		abort();
	ratings_release(&r);
	return text;
}

static void compute(void)
{
	const struct ratings_result res[] = {
		result(101, T0, "standard", "alice", "bob", RULES_BLACK_WINS),
		result(102, T0 + 100, "standard", "bob", "carol", RULES_DRAW),
		result(103, T0 + 86400 * 30, "standard", "carol", "alice", RULES_WHITE_WINS),
		result(104, T0 + 200, "small", "alice", "robot:2", RULES_WHITE_WINS),
	};
	const int fwd[] = { 0, 1, 2, 3 }, back[] = { 3, 2, 1, 0 };
	char *a = made(res, fwd, 4), *b = made(res, back, 4), err[RATINGS_ERR_MAX], *again = NULL;
	struct ratings r;
	const struct ratings_player *p;
	enum store_status ss;
	size_t len;

	ok_str(a, b, "the same file whatever order the results came in");
	ok(ratings_parse(a, strlen(a), false, &r, err) == STORE_OK, "the file reads back: %s", err);
	ok_int(r.nresults, 4, "four games");
	ok_int(r.nplayers, 5, "five ratings: alice, bob, carol (standard), alice and robot:2 (small)");
	p = ratings_find(&r, RATINGS_STANDARD, "alice");
	ok(p != NULL && p->games == 2 && p->won == 2 && p->lost == 0, "alice: 2 standard games, both won");
	p = ratings_find(&r, RATINGS_STANDARD, "bob");
	ok(p != NULL && p->games == 2 && p->drawn == 1 && p->lost == 1, "bob: lost one, drew one");
	ok(ratings_find(&r, RATINGS_SMALL, "bob") == NULL, "bob has no small rating");
	ok(strstr(a, "player: standard alice ") < strstr(a, "player: standard carol ") ||
	    strstr(a, "player: standard carol ") == NULL, "players by rating, highest first");
	/* the result of a board is replaced, not added */
	{
		struct ratings_result x = res[0];

		x.result = RULES_WHITE_WINS;
		ok(ratings_set_result(&r, &x, &ss) && r.nresults == 4, "a board's result replaced, not added");
		ok(!ratings_set_result(&r, &x, &ss), "the same result again changes nothing");
		ok(ratings_drop_result(&r, 101) && r.nresults == 3, "a result taken out");
		ok(!ratings_drop_result(&r, 101), "a board without a result: nothing to take out");
	}
	ratings_release(&r);
	/* a players-only read stops at the games */
	ok(ratings_parse(a, strlen(a), true, &r, err) == STORE_OK && r.nresults == 0 && r.nplayers == 5,
	    "standings read the players only");
	ratings_release(&r);
	/* idle periods: a year later alice's deviation has grown and she is inactive */
	ok(ratings_parse(a, strlen(a), false, &r, err) == STORE_OK, "read again");
	p = ratings_find(&r, RATINGS_STANDARD, "alice");
	if (p != NULL) {
		struct glicko_rating now = ratings_now(p, p->last), later = ratings_now(p, p->last + 86400 * 365);

		ok(later.phi > now.phi, "a year without games: RD %.1f -> %.1f", glicko_rd(&now), glicko_rd(&later));
		ok(ratings_standing(p, p->last + 86400 * 365) == RATINGS_INACTIVE, "a year without games: inactive");
		ok(ratings_standing(p, p->last) != RATINGS_INACTIVE, "just played: not inactive");
	}
	ok(ratings_format(&r, &again, &len) == STORE_OK, "formatted again");
	ratings_release(&r);
	free(again);
	free(a);
	free(b);
}

/* A result of board b: black and white by number, in class c, ended at t. */
static struct ratings_result mkresult(long b, enum ratings_class c, int64_t t, int black, int white, int outcome)
{
	struct ratings_result x;

	memset(&x, 0, sizeof x);
	x.board = b;
	x.cls = c;
	x.ended = t;
	snprintf(x.black, sizeof x.black, "p%02d", black);
	snprintf(x.white, sizeof x.white, "p%02d", white);
	x.result = outcome == 0 ? RULES_BLACK_WINS : outcome == 1 ? RULES_WHITE_WINS : RULES_DRAW;
	return x;
}

/*
 * The incremental update (ratings_add_result) gives the very file
 * ratings_compute makes from all the results: 600 games among 25 players
 * in two classes over ten periods, added one at a time as they end; now and
 * then a late result (of an earlier period) or one replaced, which make
 * every rating again, and the increments go on from there.
 */
static void incremental(void)
{
	struct ratings inc = { 0 }, all = { 0 };
	struct ratings_result x;
	enum store_status ss;
	char *a = NULL, *b = NULL;
	size_t la, lb, i, fast = 0, slow = 0, same = 0;
	unsigned seed = 12345;
	bool incr, ok = true;
	int64_t t = INT64_C(1700000000);

	ok_int(ratings_compute(&inc), STORE_OK, "no results: computed");
	ok(inc.exact, "... and exact");
	for (i = 0; i < 600 && ok; i++) {
		int pb, pw;

		seed = seed * 1103515245u + 12345u;
		pb = (int)(seed >> 16) % 25;
		pw = (pb + 1 + (int)(seed >> 8) % 24) % 25;
		t += (int64_t)(seed % 50000);
		x = mkresult(1000 + (long)i, (seed >> 4) % 3 == 0 ? RATINGS_SMALL : RATINGS_STANDARD,
		    i % 97 == 50 ? t - 40 * 86400 : t, pb, pw, (int)((seed >> 12) % 5) % 3);
		if (i % 131 == 70)
			x.board = 1000 + (long)i - 3;	/* a result replaced */
		ratings_add_result(&inc, &x, &incr, &ss);
		if (ss == STORE_OK && !incr)
			ss = ratings_compute(&inc);
		fast += incr;
		slow += !incr;
		ratings_set_result(&all, &x, &ss);
		/* every 20 games, and at the end: the two files are the same */
		if (i % 20 == 19 || i == 599) {
			ratings_compute(&all);
			ratings_format(&inc, &a, &la);
			ratings_format(&all, &b, &lb);
			ok = la == lb && memcmp(a, b, la) == 0;
			same += ok;
			if (!ok)
				fprintf(stderr, "# after %zu results:\n%s\n# but all at once:\n%s\n", i + 1, a, b);
			free(a);
			free(b);
		}
	}
	ok(ok && same == 30, "the incremental file is the computed one, 30 times over (%zu)", same);
	ok(fast > 500 && slow >= 9, "most results were incremental (%zu), the late or replaced ones not (%zu)",
	    fast, slow);
	/* the state file's text: exact, and tied to the ratings file's */
	{
		struct ratings back;
		char *st, err[RATINGS_ERR_MAX];
		size_t sl;

		ratings_format(&inc, &a, &la);
		st = ratings_state_format(&inc, a, la, &sl);
		ok_int(ratings_parse(a, la, false, &back, err), STORE_OK, "the file parses");
		ok(!back.exact, "... its rounded numbers are not exact");
		ok(ratings_state_apply(&back, a, la, st, sl) && back.exact, "the state applies to it");
		ok(back.nplayers == inc.nplayers && back.nplayers > 0 &&
		    memcmp(&back.players[3].now, &inc.players[3].now, sizeof inc.players[3].now) == 0 &&
		    memcmp(&back.players[3].entered, &inc.players[3].entered, sizeof inc.players[3].entered) == 0,
		    "... bit for bit");
		/* as ratings_load keeps it: one more result changes one line of the text, the players' lines */
		back.from = malloc(la + 1);
		memcpy(back.from, a, la + 1);
		back.from_len = la;
		x = mkresult(4000, RATINGS_SMALL, t + 3600, 4, 7, 2);
		ratings_add_result(&back, &x, &incr, &ss);
		ratings_set_result(&all, &x, &ss);
		ratings_compute(&all);
		ratings_format(&back, &b, &lb);
		{
			char *c;
			size_t lc;

			ratings_format(&all, &c, &lc);
			ok(incr && lb == lc && memcmp(b, c, lb) == 0, "the text made from the old one and the new line is "
			    "the computed one");
			free(c);
		}
		free(b);
		ratings_release(&back);
		ratings_parse(a, la, false, &back, err);
		a[la - 2] ^= 1;
		ok(!ratings_state_apply(&back, a, la, st, sl) && !back.exact, "not to another file's text");
		ratings_release(&back);
		free(a);
		free(st);
	}
	x = mkresult(5000, RATINGS_STANDARD, t + 86400, 1, 2, 0);
	ratings_add_result(&inc, &x, &incr, &ss);
	ok(incr, "a new result of the latest period: incremental");
	ratings_add_result(&inc, &x, &incr, &ss);
	ok(!incr && ss == STORE_OK, "the same result again changes nothing");
	x.ended -= 300 * 86400;
	ratings_drop_result(&inc, 5000);
	ok(!inc.exact, "a dropped result: every rating is made again");
	ratings_release(&inc);
	ratings_release(&all);
}

int main(void)
{
	classes();
	errors();
	compute();
	incremental();
	return t_done();
}
