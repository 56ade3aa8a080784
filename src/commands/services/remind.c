/* remind: the time of a board's next reminder (remind.h), and the turn hook that stores it. */
#include "commands/services/remind.h"

#include "commands/pipeline/hooks.h"
#include "game/gamefile.h"

int64_t remind_at(const struct config *cfg, const struct game *g)
{
	unsigned long days = game_remind_days(g, cfg->remind_days);

	/* an open challenge waits for a player: nobody is to move yet; a clock warns instead (clock.h) */
	if (game_over(g) || game_is_open(g) || days == 0 || g->clock_base != 0)
		return 0;
	return gamefile_time_add(g->last_move, (int64_t)days * REMIND_DAY);
}

void remind_hook_turn(struct server *srv, struct game *g)
{
	g->remind = remind_at(&srv->cfg, g);	/* the next reminder counts from this turn */
}
