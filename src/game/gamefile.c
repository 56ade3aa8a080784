/*
 * gamefile: the game file codec, text <-> struct game.  See gamefile.h and
 * doc/game-file.md for the format.  This part: the times a file holds.
 * The parsers are gamefile_parse.c and the parts it names; the writer is
 * gamefile_write.c.
 */
#include "game/gamefile.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "base/tzone.h"

/* ---- times ---- */

/*
 * Back from days since 1970-01-01 to the date (H. Hinnant's algorithms, as
 * tzone_days_from_civil).  Plain arithmetic rather than timegm()/gmtime_r():
 * a game file holds a time per turn and loading must stay fast; the tests
 * check it against them.
 */
static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

/* Write v as exactly n digits at s. */
static void put_digits(char *s, int v, int n)
{
	while (n-- > 0) {
		s[n] = (char)('0' + v % 10);
		v /= 10;
	}
}

int64_t gamefile_time_add(int64_t t, int64_t secs)
{
	return game_time_add(t, secs);
}

char *gamefile_time_str(int64_t t, char buf[GAMEFILE_TIME_SIZE])
{
	int64_t secs = t % 86400;
	int y, m, d;

	assert(t >= 0 && t <= GAMEFILE_TIME_MAX);
	civil_from_days(t / 86400, &y, &m, &d);
	memcpy(buf, "0000-00-00T00:00:00Z", GAMEFILE_TIME_SIZE);
	put_digits(buf, y, 4);
	put_digits(buf + 5, m, 2);
	put_digits(buf + 8, d, 2);
	put_digits(buf + 11, (int)(secs / 3600), 2);
	put_digits(buf + 14, (int)(secs / 60 % 60), 2);
	put_digits(buf + 17, (int)(secs % 60), 2);
	return buf;
}

/* The n digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

bool gamefile_time_parse(const char *s, size_t len, int64_t *out)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, mon, day, hour, min, sec;
	bool leap;

	if (len != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
	    s[16] != ':' || s[19] != 'Z')
		return false;
	year = digits(s, 4), mon = digits(s + 5, 2), day = digits(s + 8, 2);
	hour = digits(s + 11, 2), min = digits(s + 14, 2), sec = digits(s + 17, 2);
	if (year < 1970 || mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1] ||
	    hour < 0 || hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 59)
		return false;
	leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
	if (mon == 2 && day == 29 && !leap)
		return false;
	*out = tzone_days_from_civil(year, mon, day) * 86400 + hour * 3600 + min * 60 + sec;
	return true;
}

bool gamefile_named_for(const struct game *g, long board, struct gamefile_error *err)
{
	if (g->board == board)
		return true;
	err->line = 0;
	snprintf(err->msg, sizeof err->msg, "says board %ld in its header, not %ld", g->board, board);
	return false;
}
