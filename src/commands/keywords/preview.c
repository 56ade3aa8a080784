/*
 * preview: the mail command that tries placements without playing them,
 * a turn on a board or on an empty study board.  No password: nothing
 * changes; the board is read without its lock (game files are replaced
 * whole, never rewritten in place).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/lib/outcome.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/preview.h"

/* Try the command's placements on start, by who; reply. */
static enum process_status preview_reply(struct job *j, const struct game *g, const struct rules_game *start,
    int turn, const char *black, const char *white)
{
	const struct command *c = &j->cmd;
	char (*names)[4] = malloc(COMMAND_PLACEMENTS_MAX * sizeof *names);
	int *points = malloc(COMMAND_PLACEMENTS_MAX * sizeof *points);
	enum rules_color me = start->to_move;
	struct reply_preview pv;
	struct preview p;
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	int i, n = (int)c->nplacements;

	memset(&p, 0, sizeof p);
	if (names == NULL || points == NULL) {
		ps = job_no_memory(j);
		goto out;
	}
	for (i = 0; i < n; i++) {
		points[i] = rules_parse_point(&start->board, c->placements[i].name, (int)strlen(c->placements[i].name));
		/* the name as the board writes it ("g13" on hex boards); an off-board one as given */
		if (points[i] != RULES_NO_POINT)
			rules_point_name(&start->board, points[i], names[i]);
		else
			snprintf(names[i], sizeof names[i], "%s", c->placements[i].name);
	}
	if (preview_turn(start, points, n, black, white, &p) != GAME_OK) {
		ps = job_no_memory(j);
		goto out;
	}
	memset(&pv, 0, sizeof pv);
	pv.g = g;
	pv.turn = turn;
	pv.past = g != NULL && turn != g->rg.turn;
	pv.who = g != NULL ? (me == RULES_BLACK ? black : white) : "Black";
	pv.next_who = g != NULL ? (me == RULES_BLACK ? white : black) : "White";
	pv.board = &start->board;
	pv.names = (const char (*)[4])names;
	pv.n = n;
	pv.p = &p;
	rs = reply_preview(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) }, &pv, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "preview of %d placement%s: %s", n, n == 1 ? "" : "s",
		    p.outcome == PREVIEW_COMPLETE ? "complete" : p.outcome == PREVIEW_ILLEGAL ? "illegal" : "unfinished");
out:
	preview_release(&p);
	free(names);
	free(points);
	return ps;
}

/* preview new <size> <placements>: an empty board of that shape, Black to place. */
static enum process_status preview_study(struct job *j)
{
	struct rules_game *rg = malloc(sizeof *rg);
	enum process_status ps;

	if (rg == NULL)
		return job_no_memory(j);
	rules_game_init_shape(rg, j->cmd.hex ? RULES_HEX : RULES_SQUARE, j->cmd.size, false);
	ps = preview_reply(j, NULL, rg, 1, "Black", "White");
	free(rg);
	return ps;
}

enum process_status preview_run(struct job *j)
{
	struct game *g = &j->game;
	struct game_replay *r = NULL;
	enum process_status ps;
	enum game_status gs;
	char result[80];
	bool found;
	int turn, last;

	if (j->cmd.study)
		return preview_study(j);
	j->board = j->cmd.board;
	ps = job_load_readonly(j, j->cmd.board, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	turn = j->cmd.turn;
	if (turn == 0 && game_over(g)) {
		outcome_words(g, result, sizeof result);
		return job_refuse(j, g, "board %ld is over (%s): there is no next turn to preview; \"preview "
		    "%ld#N <placements>\" tries turn N of its history instead", g->board, result, g->board);
	}
	/* the turns that can be tried: those played, and the next one while the game goes on */
	last = game_over(g) ? g->nturns : g->rg.turn;
	if (turn > last && game_over(g))
		return job_refuse(j, g, "board %ld has no turn #%d to preview: it ended after turn %d", g->board,
		    turn, g->nturns);
	if (turn > last)
		return job_refuse(j, g, "board %ld has no turn #%d to preview yet: the next turn is #%d", g->board,
		    turn, last);
	if (turn == 0 || turn == g->rg.turn)
		return preview_reply(j, g, &g->rg, g->rg.turn, g->black, g->white);
	r = malloc(sizeof *r);
	if (r == NULL)
		return job_no_memory(j);
	gs = game_replay(g, turn - 1, r);
	if (gs != GAME_OK)
		ps = job_refuse(j, g, "the history of board %ld cannot be replayed (%s)", g->board,
		    gs == GAME_BAD_HISTORY ? r->why : game_status_str(gs));
	else if (r->rg.result != RULES_PLAYING)
		ps = job_refuse(j, g, "board %ld was over before turn #%d", g->board, turn);
	else
		ps = preview_reply(j, g, &r->rg, turn, r->black, r->white);
	free(r);
	return ps;
}
