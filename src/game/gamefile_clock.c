/* gamefile: the clock keys of the header (doc/game-file.md, game/gameclock.h). */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/gameclock.h"
#include "game/gamefile.h"
#include "game/gamefile_int.h"

enum game_status gamefile_clock_value(struct reader *r, enum key k, const char *v, size_t n, struct game *g,
    struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	long x;

	switch (k) {
	case K_CLOCK:
		if (!gameclock_parse(v, n, &g->clock_base, &g->clock_inc, &g->clock_cap))
			return gamefile_fail(err, r->line, "clock must be D+I/C in days (0 < D <= C <= %d, as 3+1.5/5), "
			    "not '%s'", GAMECLOCK_DAYS_MAX, gamefile_quote(q, v, n));
		break;
	case K_CLOCK_BLACK:
	case K_CLOCK_WHITE:
		x = gamefile_number(v, n, (long)GAMECLOCK_DAYS_MAX * GAME_DAY);
		if (x < 0)
			return gamefile_fail(err, r->line, "%s must be the seconds left, 0 to %ld, not '%s'",
			    gamefile_key_names[k], (long)GAMECLOCK_DAYS_MAX * GAME_DAY, gamefile_quote(q, v, n));
		g->clock_left[k == K_CLOCK_WHITE ? 1 : 0] = x;
		break;
	case K_WEEKENDS:
		if (!gamefile_eq(v, n, "on"))
			return gamefile_fail(err, r->line, "weekends must be on (off is not written), not '%s'",
			    gamefile_quote(q, v, n));
		g->weekends = true;
		break;
	case K_WARNED:
		x = gamefile_number(v, n, 366 * 24);
		if (x < 1)
			return gamefile_fail(err, r->line, "warned must be the hours of a warn mark, 1 to %d, not '%s'",
			    366 * 24, gamefile_quote(q, v, n));
		g->clock_warned = (int)x;
		break;
	default:
		break;
	}
	return GAME_OK;
}

enum game_status gamefile_clock_check(const struct header *h, struct game *g, struct gamefile_error *err)
{
	static const enum key needs_clock[] = { K_CLOCK_BLACK, K_CLOCK_WHITE, K_WEEKENDS, K_WARNED };
	size_t i;

	if (h->line[K_CLOCK] == 0) {
		for (i = 0; i < sizeof needs_clock / sizeof needs_clock[0]; i++)
			if (h->line[needs_clock[i]] != 0)
				return gamefile_fail(err, h->line[needs_clock[i]], "%s given, but the board has no clock: line",
				    gamefile_key_names[needs_clock[i]]);
		return GAME_OK;
	}
	if (h->line[K_TIMEOUT_DAYS] != 0 || h->line[K_REMIND_DAYS] != 0)
		return gamefile_fail(err, h->line[h->line[K_TIMEOUT_DAYS] != 0 ? K_TIMEOUT_DAYS : K_REMIND_DAYS],
		    "%s given with clock: a board has one or the other",
		    gamefile_key_names[h->line[K_TIMEOUT_DAYS] != 0 ? K_TIMEOUT_DAYS : K_REMIND_DAYS]);
	if (h->line[K_CLOCK_BLACK] == 0 || h->line[K_CLOCK_WHITE] == 0)
		return gamefile_fail(err, h->line[K_CLOCK], "clock needs clock-black: and clock-white: lines");
	for (i = 0; i < 2; i++)
		if (g->clock_left[i] > g->clock_cap)
			return gamefile_fail(err, h->line[i == 0 ? K_CLOCK_BLACK : K_CLOCK_WHITE],
			    "%s is past the clock's cap (%lld seconds)", gamefile_key_names[i == 0 ? K_CLOCK_BLACK :
			    K_CLOCK_WHITE], (long long)g->clock_cap);
	if (h->line[K_WARNED] != 0 && h->result != RULES_PLAYING)
		return gamefile_fail(err, h->line[K_WARNED], "warned given, but the game is over");
	return GAME_OK;
}

void gamefile_clock_write(const struct game *g, struct strbuf *b)
{
	char spec[GAMECLOCK_SPEC_SIZE];

	if (g->clock_base == 0)
		return;
	gameclock_spec(g->clock_base, g->clock_inc, g->clock_cap, spec, sizeof spec);
	strbuf_printf(b, "clock: %s\nclock-black: %lld\nclock-white: %lld\n", spec, (long long)g->clock_left[0],
	    (long long)g->clock_left[1]);
	if (g->weekends)
		strbuf_printf(b, "weekends: on\n");
	if (g->clock_warned != 0 && g->rg.result == RULES_PLAYING)
		strbuf_printf(b, "warned: %d\n", g->clock_warned);
}
