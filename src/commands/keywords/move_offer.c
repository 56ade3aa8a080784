/*
 * move_offer: undo and draw by agreement, pbmserv's "move <board> <userid>
 * <password> undo|propose|accept|reject".  An offer (undo: take back the
 * sender's last turn; propose: a draw) waits for the opponent's accept or
 * reject, and lapses when either side plays a turn (game.h).  Offers and
 * answers are notes in the history; an accepted undo takes the turns back,
 * an accepted draw ends the game drawn (rated as a draw, ratings.h).
 */
#include "commands/keywords/move_int.h"

#include <stdio.h>
#include <string.h>

#include "commands/pipeline/job.h"
#include "commands/services/robot.h"

/* "bob's draw offer", "your undo": what an offer is, for the messages. */
static void offer_name(const struct game_note *n, const char *userid, char *buf, size_t size)
{
	if (strcmp(n->player, userid) == 0)
		snprintf(buf, size, "your %s", n->kind == GAME_NOTE_UNDO ? "undo" : "draw offer");
	else
		snprintf(buf, size, "%s's %s", n->player, n->kind == GAME_NOTE_UNDO ? "undo" : "draw offer");
}

/* Why there is nothing to accept or reject: none made, or one that lapsed. */
static enum process_status refuse_no_offer(struct job *j, const struct game *g, const char *verb)
{
	const struct game_note *n = game_last_offer_note(g);	/* a chat is no offer (game.h) */

	if (n != NULL && (n->kind == GAME_NOTE_UNDO || n->kind == GAME_NOTE_PROPOSE))
		return job_refuse(j, g, "nothing to %s on board %ld: %s's %s lapsed when turn %d was played", verb,
		    g->board, n->player, n->kind == GAME_NOTE_UNDO ? "undo" : "draw offer", n->after + 1);
	return job_refuse(j, g, "nothing to %s on board %ld: neither an undo nor a draw is proposed", verb,
	    g->board);
}

/* Why undo found nothing to take back. */
static enum process_status refuse_nothing_to_undo(struct job *j, const struct game *g, const char *userid)
{
	int i;

	for (i = g->nturns - 1; i >= 0 && strcmp(g->turns[i].player, userid) != 0; i--)
		;
	if (i < 0)
		return job_refuse(j, g, "nothing to undo on board %ld: you have not played a turn yet", g->board);
	return job_refuse(j, g, "nothing to undo on board %ld: your last turn, %d, was answered by %s's turn %d; "
	    "only the last turn played can be taken back", g->board, g->turns[i].number,
	    g->turns[g->nturns - 1].player, g->turns[g->nturns - 1].number);
}

/* The refusal for status gs of the sender's word on g. */
static enum process_status refuse(struct job *j, const struct game *g, const char *userid, enum game_status gs)
{
	const struct game_note *n = game_open_offer(g);
	const char *verb = j->cmd.offer == COMMAND_OFFER_ACCEPT ? "accept" : "reject";
	char what[GAME_NAME_SIZE + 40], msg[JOB_MESSAGE_MAX];

	if (n != NULL)
		offer_name(n, userid, what, sizeof what);
	switch (gs) {
	case GAME_NOTHING_TO_UNDO:
		return refuse_nothing_to_undo(j, g, userid);
	case GAME_NO_OFFER:
		return refuse_no_offer(j, g, verb);
	case GAME_OWN_OFFER:
		return job_refuse(j, g, "you cannot %s your own %s on board %ld: %s answers it", verb,
		    n->kind == GAME_NOTE_UNDO ? "undo" : "draw offer", g->board,
		    game_player_of(g, RULES_OTHER(game_color_of(g, userid))));
	case GAME_OFFER_OPEN:
		if (strcmp(n->player, userid) == 0)
			return job_refuse(j, g, "%s on board %ld already waits for %s's answer", what, g->board,
			    game_player_of(g, RULES_OTHER(game_color_of(g, userid))));
		return job_refuse(j, g, "%s on board %ld waits for your answer: accept or reject it first", what,
		    g->board);
	case GAME_EDITED:
		return job_refuse(j, g, "the position of board %ld was edited by hand and its history does not "
		    "lead to it, so no turn can be taken back", g->board);
	default:
		return job_refuse(j, g, "%s", game_status_message(g, gs, userid, NULL, NULL, msg, sizeof msg));
	}
}

enum process_status move_offer(struct job *j, struct job_turn *t)
{
	const char *userid = j->user.userid, *words[] = { "", "undo", "propose", "accept", "reject" };
	struct game *g = &j->game;
	const struct game_note *open = game_open_offer(g);
	char offerer[GAME_NAME_SIZE] = "";
	enum process_status ps;
	enum game_status gs;
	bool undo = open != NULL && open->kind == GAME_NOTE_UNDO, ok;
	int k = 0;

	if (game_user_is_robot(g->black) || game_user_is_robot(g->white))
		return job_refuse(j, g, "%s neither takes back turns nor agrees draws: play on, or resign",
		    GAME_ROBOT_USERID);
	if (open != NULL)
		snprintf(offerer, sizeof offerer, "%s", open->player);
	switch (j->cmd.offer) {
	case COMMAND_OFFER_UNDO:
		k = game_undo_turn(g, userid);
		gs = game_ask_undo(g, userid, (int64_t)j->srv.now);
		t->ev.what = REPLY_UNDO_ASKED;
		break;
	case COMMAND_OFFER_PROPOSE:
		gs = game_propose(g, userid, (int64_t)j->srv.now);
		t->ev.what = REPLY_DRAW_PROPOSED;
		break;
	case COMMAND_OFFER_ACCEPT:
		if (undo)
			k = game_undo_turn(g, offerer);
		gs = game_accept(g, userid, (int64_t)j->srv.now);
		t->ev.what = undo ? REPLY_UNDO_ACCEPTED : REPLY_DRAW_ACCEPTED;
		break;
	default:
		gs = game_reject(g, userid, (int64_t)j->srv.now);
		t->ev.what = undo ? REPLY_UNDO_REJECTED : REPLY_DRAW_REJECTED;
		break;
	}
	if (gs == GAME_NO_MEMORY)
		return job_no_memory(j);
	if (gs != GAME_OK)
		return refuse(j, g, userid, gs);
	t->ev.actor = userid;
	t->ev.first = k;
	t->ev.offerer = offerer;
	ps = job_commit_game(j, t, NULL, &ok);
	if (ps == PROCESS_OK && ok) {
		job_detail(j, "ok", "board %ld: %s %s", g->board, userid, words[j->cmd.offer]);
		if (j->cmd.offer == COMMAND_OFFER_ACCEPT && undo)
			job_detail_add(j, "; turns from %d on taken back", k);
		if (game_over(g))
			job_detail_add(j, "; the game is over: drawn by agreement");
	}
	return ps;
}
