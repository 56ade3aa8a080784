/* clockstops: when a clock stands still (clockstops.h). */
#include "store/clockstops.h"

#include <stdio.h>
#include <string.h>

#include "store/settings.h"
#include "store/vacations.h"

enum store_status clockstops_of(struct store *st, const struct game *g, const char *userid, struct clockstops *out)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;
	struct vacation v;
	enum store_status ss;
	size_t i;

	memset(out, 0, sizeof *out);
	snprintf(out->zone, sizeof out->zone, "%s", TZONE_DEFAULT);
	out->weekends = g->weekends;
	if (userid == NULL || userid[0] == '\0' || strcmp(userid, GAME_OPEN_SEAT) == 0 || game_user_is_robot(userid))
		return STORE_OK;
	ss = vacations_find(st, userid, &v);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND)
		return ss;
	/* every absence, ended or booked: a clock started before one counts it out */
	for (i = 0; i < v.n && out->n < GAMECLOCK_STOPS_MAX; i++) {
		out->stops[out->n].start = v.away[i].from;
		out->stops[out->n++].end = v.away[i].to;
	}
	ss = settings_find(st, userid, &s, err);
	if (ss != STORE_OK)
		return ss;
	snprintf(out->zone, sizeof out->zone, "%s", s.timezone);
	return STORE_OK;
}

int64_t clockstops_running(const struct clockstops *c, int64_t from, int64_t to)
{
	return gameclock_running(from, to, c->stops, c->n, c->weekends ? c->zone : NULL);
}

int64_t clockstops_runs_out(const struct clockstops *c, int64_t now, int64_t left)
{
	return gameclock_runs_out(now, left, c->stops, c->n, c->weekends ? c->zone : NULL);
}

enum store_status clockstops_ran(struct store *st, const struct game *g, int64_t now, struct clockstops *c,
    int64_t *ran)
{
	enum store_status ss;

	*ran = 0;
	memset(c, 0, sizeof *c);
	snprintf(c->zone, sizeof c->zone, "%s", TZONE_DEFAULT);
	if (g->clock_base == 0 || game_over(g) || game_is_open(g))
		return STORE_OK;
	ss = clockstops_of(st, g, game_player_to_move(g), c);
	if (ss != STORE_OK)
		return ss;
	*ran = clockstops_running(c, g->last_move, now);
	return STORE_OK;
}
