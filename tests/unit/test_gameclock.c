/* test_gameclock: the arithmetic of clocks (game/gameclock.h): specs, stops, weekends in zones. */
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/gameclock.h"
#include "t.h"

#define H INT64_C(3600)
#define DAY INT64_C(86400)
#define T0 INT64_C(1700000000)	/* Tue 2023-11-14 22:13:20 UTC */
#define SAT INT64_C(1700265600)	/* Sat 2023-11-18 00:00 UTC */

static void specs(void)
{
	int64_t b, i, c;
	char s[GAMECLOCK_SPEC_SIZE];

	ok(gameclock_parse("3+1.5/5", 7, &b, &i, &c) && b == 3 * DAY && i == 36 * H && c == 5 * DAY, "3+1.5/5");
	ok(gameclock_parse("0.5+0/0.5", 9, &b, &i, &c) && b == 12 * H && i == 0 && c == 12 * H, "0.5+0/0.5");
	ok(!gameclock_parse("3+1/2", 5, &b, &i, &c), "a cap below the start is refused");
	ok(!gameclock_parse("0+1/2", 5, &b, &i, &c), "a start of 0 is refused");
	ok(!gameclock_parse("1.23456+0/2", 11, &b, &i, &c), "5 decimals are refused");
	ok(!gameclock_parse("3651+0/3651", 11, &b, &i, &c), "past 3650 days is refused");
	ok(!gameclock_parse("1+1", 3, &b, &i, &c) && !gameclock_parse("1/2+1", 5, &b, &i, &c), "the shape is D+I/C");
	gameclock_parse("0.3333+1.25/2", 13, &b, &i, &c);
	gameclock_spec(b, i, c, s, sizeof s);
	ok_str(s, "0.3333+1.25/2", "written back as read");
}

static void stops(void)
{
	struct gameclock_stop v[2] = { { T0 + DAY, T0 + 2 * DAY }, { T0 + DAY + 12 * H, T0 + 3 * DAY } };

	ok(gameclock_running(T0, T0 + 4 * DAY, NULL, 0, NULL) == 4 * DAY, "no stop: all of it runs");
	ok(gameclock_running(T0, T0 + 4 * DAY, v, 1, NULL) == 3 * DAY, "a day away: 3 days of 4");
	ok(gameclock_running(T0, T0 + 4 * DAY, v, 2, NULL) == 2 * DAY, "overlapping stops count once");
	ok(gameclock_runs_out(T0, DAY + H, v, 2, NULL) == T0 + 3 * DAY + H, "runs out after the stops");
	ok(gameclock_runs_out(T0, 12 * H, v, 2, NULL) == T0 + 12 * H, "before them: as if none");
}

static void weekends(void)
{
	/* from Tue 22:13 UTC to Mon 00:00 UTC: the weekend of UTC counted out */
	ok(gameclock_running(T0, SAT + 2 * DAY, NULL, 0, "UTC") == SAT - T0, "a UTC weekend stops the clock");
	ok(gameclock_running(SAT + H, SAT + 2 * H, NULL, 0, "UTC") == 0, "within it nothing runs");
	/* Auckland is UTC+13: its Saturday begins Fri 11:00 UTC and its Monday Sun 11:00 UTC */
	ok(gameclock_running(T0, SAT, NULL, 0, "Pacific/Auckland") == SAT - T0 - 13 * H, "Auckland's weekend starts 13 h earlier");
	ok(gameclock_running(SAT + DAY + 12 * H, SAT + 2 * DAY, NULL, 0, "Pacific/Auckland") == 12 * H,
	    "and is over on Sunday noon UTC");
	ok(gameclock_runs_out(T0, 3 * DAY, NULL, 0, "UTC") == T0 + 3 * DAY, "3 days from Tuesday: Friday, before it");
	ok(gameclock_runs_out(T0, 3 * DAY, NULL, 0, "Pacific/Auckland") == T0 + 5 * DAY,
	    "in Auckland: Sunday, its 48 hours later");
	/* America/New_York's clocks went back on Sun 2023-11-05: that weekend is 49 hours */
	ok(gameclock_running(INT64_C(1699070400), INT64_C(1699329600), NULL, 0, "America/New_York") ==
	    INT64_C(1699329600) - INT64_C(1699070400) - 49 * H, "a weekend with a change of time: 49 hours");
}

static void settle(void)
{
	struct game g;

	memset(&g, 0, sizeof g);
	game_init(&g, 101, 5, true, "alice", "bob", T0);
	g.clock_base = DAY;
	g.clock_inc = 6 * H;
	g.clock_cap = DAY + 6 * H;
	gameclock_settle(&g, 0);
	ok(g.clock_left[0] == DAY && g.clock_left[1] == DAY, "both start with D");
	ok(gameclock_left(&g, RULES_BLACK, 5 * H) == 19 * H && gameclock_left(&g, RULES_WHITE, 5 * H) == DAY,
	    "only the clock of the player to move runs");
	game_release(&g);
}

int main(void)
{
	specs();
	stops();
	weekends();
	settle();
	return t_done();
}
