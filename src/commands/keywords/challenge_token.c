/* challenge_token: a return game by reply token (challenge_int.h). */
#include "commands/keywords/challenge_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "game/gamefile.h"

/*
 * The first board numbered after board between a and b (either colour),
 * or 0; *bad when the list of boards could not be read.  Headers read
 * without their locks: a game file is replaced whole.
 */
static long later_board(struct job *j, long board, const char *a, const char *b, enum store_status *bad)
{
	long *boards = NULL, found = 0;
	size_t n = 0, i, len;
	char *text;
	struct game g;

	*bad = store_list_boards(j->srv.st, &boards, &n);
	if (*bad != STORE_OK)
		return 0;
	for (i = 0; i < n && found == 0; i++) {
		if (boards[i] <= board || store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;	/* an older board, or removed meanwhile: not counted */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK) {
			if (game_color_of(&g, a) != RULES_EMPTY && game_color_of(&g, b) != RULES_EMPTY)
				found = g.board;
			game_release(&g);
		}
		free(text);
	}
	free(boards);
	return found;
}

enum process_status challenge_token_check(struct job *j, bool *ok)
{
	const struct game *g = &j->game;
	const struct command *c = &j->cmd;
	const char *me = j->user.userid;
	const char *opponent;
	enum store_status ss;
	long later;

	*ok = false;
	opponent = strcasecmp(g->black, me) == 0 ? g->white : g->black;
	if (!game_over(g))
		return job_refuse(j, g, "a challenge by reply is the return game of a finished board, and board %ld "
		    "is still being played: finish it first, or send the challenge with your password", g->board);
	if (strcasecmp(c->opponent, opponent) != 0)
		return job_refuse(j, g, "a challenge by reply to the mail of board %ld is its return game, against %s "
		    "only: to challenge %s, send challenge %s <password> %s with your options", g->board, opponent,
		    c->opponent, me, c->opponent);
	if (c->tournament != 0)
		return job_refuse(j, g, "a ladder challenge goes with your password: send challenge %s <password> %s "
		    "-ladder=T%u", me, c->opponent, c->tournament);
	later = later_board(j, g->board, me, opponent, &ss);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot list the boards");
	if (later != 0)
		return job_refuse(j, g, "board %ld between %s and %s was started after board %ld, so its return game "
		    "by reply is made already (one per board: a tap sent twice makes no second); for another game, "
		    "send challenge %s <password> %s with your options", later, me, opponent, g->board, me, opponent);
	/* the old board let go: the challenge makes its own, under its own lock (job_lock_new_board) */
	job_unlock(j);
	j->board = 0;
	*ok = true;
	return PROCESS_OK;
}
