/* clock: the clocks of boards, settled with each turn and looked at by cleanup (clock.h). */
#include "commands/services/clock.h"

#include <stdio.h>

#include "base/msg.h"
#include "commands/pipeline/hooks.h"
#include "store/settings.h"

void clock_hook_turn(struct server *srv, struct game *g)
{
	struct clockstops c;
	enum store_status ss;
	int64_t ran = 0;

	if (g->clock_base == 0)
		return;
	if (g->clock_mover[0] != '\0' && g->last_move > g->clock_at) {
		ss = clockstops_of(srv->st, g, g->clock_mover, &c);
		if (ss == STORE_OK) {
			ran = clockstops_running(&c, g->clock_at, g->last_move);
		} else {
			/* the stops unknown: the whole time counts, as on a clock without them */
			msg_warn("board %ld: cannot read the stops of %s's clock: %s", g->board,
			    g->clock_mover, store_error(srv->st));
			ran = g->last_move - g->clock_at;
		}
	}
	gameclock_settle(g, ran);
}

enum store_status clock_due(struct server *srv, const struct game *g, int64_t now, enum clock_due *due,
    int64_t *left, int *mark, struct clockstops *c)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;
	enum store_status ss;
	int64_t ran;
	int i;

	*due = CLOCK_NOTHING;
	*left = 0;
	*mark = 0;
	ss = clockstops_ran(srv->st, g, now, c, &ran);
	if (ss != STORE_OK || g->clock_base == 0 || game_over(g) || game_is_open(g))
		return ss;
	*left = gameclock_left(g, (int)g->rg.to_move, ran);
	if (*left <= 0) {
		*due = CLOCK_TIMEOUT;
		return STORE_OK;
	}
	if (game_user_is_robot(game_player_to_move(g)))
		return STORE_OK;
	ss = settings_find(srv->st, game_player_to_move(g), &s, err);
	if (ss != STORE_OK)
		return ss;
	/* the smallest mark passed and not yet warned of: one mail, never twice for a mark */
	for (i = 0; i < s.nwarn; i++) {
		if (*left <= (int64_t)s.warn_hours[i] * 3600 && (g->clock_warned == 0 || s.warn_hours[i] < g->clock_warned))
			*mark = s.warn_hours[i];
	}
	if (*mark != 0)
		*due = CLOCK_WARN;
	return STORE_OK;
}
