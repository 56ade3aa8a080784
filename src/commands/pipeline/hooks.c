/* hooks: the table of hooks.h, one row per action after a commit, and its runs. */
#include "commands/pipeline/hooks.h"

const struct hook hooks_table[] = {
	{ "reminder", remind_hook_turn, NULL, NULL, NULL },
	{ "robot", NULL, robot_answer_due, robot_answer_hook, NULL },
	{ "tournament", NULL, NULL, NULL, tournament_hook_flushed },
	{ "web", NULL, NULL, NULL, web_hook_flushed },
};

const size_t hooks_count = sizeof hooks_table / sizeof hooks_table[0];

void hooks_turn(const struct config *cfg, struct game *g)
{
	size_t i;

	for (i = 0; i < hooks_count; i++)
		if (hooks_table[i].turn != NULL)
			hooks_table[i].turn(cfg, g);
}

const struct hook *hooks_answerer(const struct config *cfg, const struct game *g)
{
	size_t i;

	for (i = 0; i < hooks_count; i++)
		if (hooks_table[i].answers != NULL && hooks_table[i].answers(cfg, g))
			return &hooks_table[i];
	return NULL;
}

void hooks_flushed(struct server *srv, long board)
{
	size_t i;

	if (board == 0)
		return;
	for (i = 0; i < hooks_count; i++)
		if (hooks_table[i].flushed != NULL)
			hooks_table[i].flushed(srv, board);
}
