/* gameclock: clocks with increment and cap (gameclock.h). */
#include "game/gameclock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tzone.h"
#include "game/game.h"

#define WEEKENDS_MAX 1200	/* weekends looked at in one span: 23 years */

/* Days with at most 4 decimals into seconds; -1 if not that. */
static int64_t days_value(const char *s, size_t n)
{
	int64_t whole = 0, frac = 0, scale = 1;
	size_t i = 0, digits = 0;

	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++)
		if ((whole = whole * 10 + (s[i] - '0')) > GAMECLOCK_DAYS_MAX)
			return -1;
	if (digits == 0)
		return -1;
	if (i < n && s[i] == '.') {
		for (i++, digits = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
			frac = frac * 10 + (s[i] - '0');
			scale *= 10;
		}
		if (digits == 0 || digits > 4)
			return -1;
	}
	if (i != n)
		return -1;
	return whole * GAME_DAY + (frac * GAME_DAY + scale / 2) / scale;
}

bool gameclock_parse(const char *s, size_t n, int64_t *base, int64_t *inc, int64_t *cap)
{
	const char *plus = memchr(s, '+', n), *slash = memchr(s, '/', n);

	if (plus == NULL || slash == NULL || slash < plus)
		return false;
	*base = days_value(s, (size_t)(plus - s));
	*inc = days_value(plus + 1, (size_t)(slash - plus - 1));
	*cap = days_value(slash + 1, n - (size_t)(slash - s) - 1);
	return *base > 0 && *inc >= 0 && *cap >= *base && *cap <= (int64_t)GAMECLOCK_DAYS_MAX * GAME_DAY;
}

/* secs as days, "3", "1.5", "0.3333" (4 decimals at most, trailing zeros dropped). */
static void days_str(int64_t secs, char *out, size_t size)
{
	int64_t frac = ((secs % GAME_DAY) * 10000 + GAME_DAY / 2) / GAME_DAY, whole = secs / GAME_DAY;
	int len;

	if (frac == 10000) {
		whole++;
		frac = 0;
	}
	if (frac == 0) {
		snprintf(out, size, "%lld", (long long)whole);
		return;
	}
	len = snprintf(out, size, "%lld.%04lld", (long long)whole, (long long)frac);
	while (len > 0 && (size_t)len < size && out[len - 1] == '0')
		out[--len] = '\0';
}

void gameclock_spec(int64_t base, int64_t inc, int64_t cap, char *out, size_t size)
{
	char b[24], i[24], c[24];

	days_str(base, b, sizeof b);
	days_str(inc, i, sizeof i);
	days_str(cap, c, sizeof c);
	snprintf(out, size, "%s+%s/%s", b, i, c);
}

static int stop_cmp(const void *a, const void *b)
{
	const struct gameclock_stop *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The stops within [from, to) (the caller's, clipped, and the weekends of
 * zone), sorted and merged, into v (alloc'ed; the caller frees); *m of them.
 */
static struct gameclock_stop *spans(int64_t from, int64_t to, const struct gameclock_stop *stops, size_t n,
    const char *zone, size_t *m)
{
	struct gameclock_stop *v;
	size_t cap = n + (zone != NULL ? WEEKENDS_MAX : 0) + 1, k = 0, i, w;
	struct tm tm;
	int64_t sat, mon;

	*m = 0;
	v = malloc(cap * sizeof *v);
	if (v == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (stops[i].end <= from || stops[i].start >= to || stops[i].end <= stops[i].start)
			continue;
		v[k].start = stops[i].start < from ? from : stops[i].start;
		v[k++].end = stops[i].end > to ? to : stops[i].end;
	}
	if (zone != NULL) {
		/* the Saturday 00:00 of the week of from (local), then one week at a time */
		tzone_local(from, zone, &tm);
		tm.tm_mday -= (tm.tm_wday + 1) % 7;	/* Saturday: 0 days back, Sunday 1, Monday 2 ... */
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_isdst = -1;
		for (w = 0; w < WEEKENDS_MAX; w++) {
			struct tm a = tm, b = tm;

			a.tm_mday += (int)(7 * w);
			b.tm_mday += (int)(7 * w) + 2;
			sat = tzone_mktime(&a, zone);
			mon = tzone_mktime(&b, zone);
			if (sat >= to)
				break;
			if (mon <= from)
				continue;
			v[k].start = sat < from ? from : sat;
			v[k++].end = mon > to ? to : mon;
		}
	}
	qsort(v, k, sizeof *v, stop_cmp);
	/* merged: overlapping stops (a vacation over a weekend) count once */
	for (i = 0; i < k; i++) {
		if (*m > 0 && v[i].start <= v[*m - 1].end) {
			if (v[i].end > v[*m - 1].end)
				v[*m - 1].end = v[i].end;
		} else {
			v[(*m)++] = v[i];
		}
	}
	return v;
}

int64_t gameclock_running(int64_t from, int64_t to, const struct gameclock_stop *stops, size_t n,
    const char *weekend_zone)
{
	struct gameclock_stop *v;
	int64_t run;
	size_t m, i;

	if (to <= from)
		return 0;
	run = to - from;
	v = spans(from, to, stops, n, weekend_zone, &m);
	if (v == NULL)
		return run;	/* out of memory: the stops are not counted out; the caller's next look counts them */
	for (i = 0; i < m; i++)
		run -= v[i].end - v[i].start;
	free(v);
	return run < 0 ? 0 : run;
}

int64_t gameclock_runs_out(int64_t now, int64_t left, const struct gameclock_stop *stops, size_t n,
    const char *weekend_zone)
{
	/* the stops over the span the clock could last: left, plus every stop, plus the weekends among them */
	int64_t horizon = game_time_add(now, left + left / 5 * 2 + 4 * GAME_DAY), t = now, out;
	struct gameclock_stop *v;
	size_t m, i;

	for (i = 0; i < n; i++)
		if (stops[i].end > now && stops[i].end > stops[i].start)
			horizon = game_time_add(horizon, stops[i].end - stops[i].start);
	if (left <= 0)
		return now;
	v = spans(now, horizon, stops, n, weekend_zone, &m);
	if (v == NULL)
		return game_time_add(now, left);
	for (i = 0; i < m; i++) {
		if (t + left <= v[i].start)
			break;
		left -= v[i].start - t;
		t = v[i].end;
	}
	free(v);
	out = game_time_add(t, left);
	return out;
}

/* The index of name among g's clock_names, -1 if none. */
static int clock_of(const struct game *g, const char *name)
{
	int i;

	for (i = 0; i < 2; i++)
		if (strcmp(g->clock_names[i], name) == 0)
			return i;
	return -1;
}

void gameclock_settle(struct game *g, int64_t ran)
{
	int64_t old[2];
	int i, k;

	if (g->clock_base == 0)
		return;
	if (g->nturns == 0 || g->clock_at == 0 || game_is_open(g)) {
		/* the start (a challenge, an open seat taken): both clocks full */
		g->clock_left[0] = g->clock_left[1] = g->clock_base;
	} else if (g->last_move != g->clock_at || g->nturns != g->clock_turns) {
		old[0] = g->clock_left[0];
		old[1] = g->clock_left[1];
		k = clock_of(g, g->clock_mover);
		if (k >= 0)
			old[k] = old[k] > ran ? old[k] - ran : 0;
		/*
		 * Each turn completed since (a queued answer makes two in one
		 * change) adds the increment to its player's clock, up to the cap;
		 * a turn taken back (an accepted undo) adds nothing.
		 */
		for (i = g->clock_turns; i < g->nturns; i++) {
			k = clock_of(g, g->turns[i].player);
			if (k < 0)
				continue;
			old[k] += g->clock_inc;
			if (old[k] > g->clock_cap)
				old[k] = g->clock_cap;
		}
		if (g->nturns != g->clock_turns)
			g->clock_warned = 0;	/* a new turn: its marks are warned of afresh */
		/* the clocks follow their players: after a swap, black's clock is the old white's */
		for (i = 0; i < 2; i++) {
			k = clock_of(g, i == 0 ? g->black : g->white);
			g->clock_left[i] = k >= 0 ? old[k] : g->clock_base;
		}
	}
	gameclock_mark(g);
}

void gameclock_mark(struct game *g)
{
	const char *mover = game_over(g) || game_is_open(g) ? NULL : game_player_to_move(g);

	g->clock_at = g->last_move;
	snprintf(g->clock_names[0], sizeof g->clock_names[0], "%s", g->black);
	snprintf(g->clock_names[1], sizeof g->clock_names[1], "%s", g->white);
	snprintf(g->clock_mover, sizeof g->clock_mover, "%s", mover != NULL ? mover : "");
	g->clock_turns = g->nturns;
}

int64_t gameclock_left(const struct game *g, int color, int64_t ran)
{
	int64_t left = g->clock_left[color == RULES_WHITE ? 1 : 0];

	if (!game_over(g) && (int)g->rg.to_move == color)
		left -= ran;
	return left < 0 ? 0 : left;
}
