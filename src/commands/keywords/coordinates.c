/*
 * coordinates: the answer to placements sent alone ("C3" in reply to a
 * board mail, COMMAND_PLACEMENTS_ONLY): the exact command to send for that
 * board and its turn, rather than "unknown command".  Not a row of the
 * table: the parser finds no keyword, and the pipeline hands the mail here
 * when the Subject named the board.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

/* The player of g whose account is bound to the sender's address, NULL if none. */
static const char *sender_player(struct job *j, const struct game *g)
{
	const char *players[2] = { g->black, g->white };
	struct store_user u;
	int i;

	for (i = 0; i < 2; i++)
		if (store_user_find(j->srv.st, players[i], &u) == STORE_OK && strcasecmp(u.address, j->in.from_addr) == 0)
			return players[i];
	return NULL;
}

enum process_status coordinates_run(struct job *j)
{
	char list[COMMAND_LINE_MAX + 1];
	const char *mover, *sender;
	const struct game *g = &j->game;
	enum process_status ps;
	bool found;
	size_t i, used = 0;

	j->board = j->cmd.board;
	list[0] = '\0';
	for (i = 0; i < j->cmd.nplacements && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? "," : "",
		    j->cmd.placements[i].name);
	ps = job_load_readonly(j, j->cmd.board, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	mover = game_player_to_move(g);
	sender = sender_player(j, g);
	if (mover == NULL)
		return job_refuse(j, g, "'%s' alone is not a command, and board %ld is over: no more turns are "
		    "played on it", list, g->board);
	if (sender != NULL && strcmp(sender, mover) == 0)
		return job_refuse(j, g, "'%s' alone is not a command. Send: move %ld#%d %s <password> %s", list,
		    g->board, g->rg.turn, mover, list);
	if (sender != NULL)
		return job_refuse(j, g, "'%s' alone is not a command, and board %ld waits for %s (turn %d), not "
		    "for you: play it on your turn. Send: move %ld %s <password> %s", list, g->board, mover,
		    g->rg.turn, g->board, sender, list);
	return job_refuse(j, g, "'%s' alone is not a command; board %ld is at turn %d, %s to move, who plays "
	    "it with: move %ld#%d %s <password> %s", list, g->board, g->rg.turn, mover, g->board, g->rg.turn,
	    mover, list);
}
