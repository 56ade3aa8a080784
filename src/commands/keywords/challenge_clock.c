/* challenge_clock: the clocks of a new board (challenge_int.h). */
#include <string.h>

#include "commands/keywords/challenge_int.h"
#include "commands/lib/settingstext.h"
#include "commands/pipeline/job.h"
#include "game/gameclock.h"
#include "store/settings.h"

/* Does userid's setting ask for weekends?  The robot and an open seat say nothing, so no. */
static enum process_status wants_weekends(struct job *j, const char *userid, bool *yes)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;
	enum store_status ss;

	*yes = false;
	if (strcmp(userid, GAME_OPEN_SEAT) == 0 || game_user_is_robot(userid))
		return PROCESS_OK;
	ss = settings_find(j->srv.st, userid, &s, err);
	if (ss != STORE_OK)
		return settingstext_failure(j, ss, err);
	*yes = s.weekends;
	return PROCESS_OK;
}

enum process_status challenge_clock(struct job *j, struct game *g, const struct command *c)
{
	enum process_status ps;
	bool b = false, w = false;

	if (c->clock_base == 0)
		return PROCESS_OK;
	g->clock_base = c->clock_base;
	g->clock_inc = c->clock_inc;
	g->clock_cap = c->clock_cap;
	g->clock_left[0] = g->clock_left[1] = c->clock_base;
	g->weekends = c->weekends;
	if (!g->weekends) {
		ps = wants_weekends(j, g->black, &b);
		if (ps == PROCESS_OK)
			ps = wants_weekends(j, g->white, &w);
		if (ps != PROCESS_OK)
			return ps;
		g->weekends = b && w;
	}
	gameclock_mark(g);
	return PROCESS_OK;
}
