/*
 * move: the mail commands that make a turn on a board, move, swap and
 * resign.  The pipeline has checked the sender's account (its password
 * still being checked while the board loads), and read the board under its
 * lock; the turn is applied to j->game and committed with its mails.
 */
#include <stdio.h>
#include <string.h>

#include "commands/keywords/move_int.h"
#include "commands/lib/turnqueue.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"

#define MOVE_NOTE_SIZE 600	/* bytes of the words on a queue answered or dropped (turnqueue.h) */

/* Why a turn was refused, in plain words. */
static void turn_error(const struct game *g, const struct command *c, const struct rules_turn_report *rep,
    char *buf, size_t size)
{
	const char *name = c->placements[rep->index].name;

	switch (rep->verdict) {
	case RULES_TURN_ILLEGAL:
		switch (rep->check.verdict) {
		case RULES_OCCUPIED:
			snprintf(buf, size, "%s is occupied", name);
			break;
		case RULES_NO_ENEMY:
			snprintf(buf, size, "%s would join your stones into a group of %d that touches no enemy "
			    "stone: a placement next to your own stones must capture", name, rep->check.new_group);
			break;
		case RULES_NOT_LARGER:
			snprintf(buf, size, "%s would make a group of %d, not larger than the enemy group of %d "
			    "it touches: a capturing group must be larger than every enemy group it touches",
			    name, rep->check.new_group, rep->check.largest_enemy);
			break;
		case RULES_OFFBOARD_POINT:
			snprintf(buf, size, "%s is not on the %dx%d board", name, g->size, g->size);
			break;
		default:
			snprintf(buf, size, "%s: %s", name, rules_verdict_str(rep->check.verdict));
			break;
		}
		break;
	case RULES_TURN_TOO_SHORT:
		snprintf(buf, size, "after capturing at %s you must place again: a placement is still "
		    "available, so the turn is not over", name);
		break;
	case RULES_TURN_TOO_LONG:
		/* the turn was over: won by a capture, a capture with no placement left, or no capture */
		if (rep->result == RULES_BLACK_WINS || rep->result == RULES_WHITE_WINS)
			snprintf(buf, size, "%s comes after %s, which captured the last of %s's stones: that capture "
			    "wins you the game, so the turn ends there", name, c->placements[rep->index - 1].name,
			    game_player_of(g, RULES_OTHER(g->rg.to_move)));
		else if (rep->dead_end)
			snprintf(buf, size, "%s comes after your turn ended with %s: after that capture no placement "
			    "was left", name, c->placements[rep->index - 1].name);
		else
			snprintf(buf, size, "%s comes after your turn ended with %s: only a capture lets you place "
			    "again", name, c->placements[rep->index - 1].name);
		break;
	case RULES_TURN_EMPTY:
		snprintf(buf, size, "no placement given");
		break;
	case RULES_TURN_OK:
		snprintf(buf, size, "the turn is legal");
		break;
	}
}

/* The placements of c joined by commas ("" for none), into buf. */
static const char *placements_list(const struct command *c, char *buf, size_t size)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < c->nplacements && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? "," : "", c->placements[i].name);
	if (used >= size)
		buf[0] = '\0';	/* too long to offer: the placements as the player wrote them stand */
	return buf;
}

/*
 * "I5" on a square board: the columns skip I (rules.md, notation), so the
 * player meant H or J: the ones of them on the board, as the command to
 * send with that placement in its place.  False if the name is no I.
 */
static bool column_i(struct job *j, const struct game *g, const char *userid, size_t at, char *msg, size_t size)
{
	const struct command *c = &j->cmd;
	const char *name = c->placements[at].name;
	char alt[2][4], list[JOB_MESSAGE_MAX / 2], mine[4];
	size_t n = 0, i, used = 0;
	int k;

	if (g->rg.board.shape == RULES_HEX || name[0] != 'I')
		return false;
	for (k = 0; k < 2; k++) {
		snprintf(alt[n], sizeof alt[n], "%c%s", k == 0 ? 'H' : 'J', name + 1);
		if (rules_parse_point(&g->rg.board, alt[n], (int)strlen(alt[n])) != RULES_NO_POINT)
			n++;
	}
	if (n == 0)
		return false;
	list[0] = '\0';
	for (i = 0; i < c->nplacements && used < sizeof list; i++) {
		snprintf(mine, sizeof mine, "%s", i == at ? alt[0] : c->placements[i].name);
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? "," : "", mine);
	}
	if (used >= sizeof list)
		return false;
	snprintf(msg, size, "%s is not a point: the columns skip I (H is followed by J, as on a Go board): "
	    "did you mean %s%s%s? Send: move %ld#%d %s <password> %s", name, alt[0], n > 1 ? " or " : "",
	    n > 1 ? alt[1] : "", g->board, g->rg.turn, userid, list);
	return true;
}

/*
 * Refuse a turn on a board that is over, of a sender who does not play on
 * it, or with a #turn that is not the next one: true if refused (*ps says
 * how that went).
 */
static bool not_playable(struct job *j, const struct game *g, const char *userid, enum process_status *ps)
{
	char result[200];

	if (game_over(g)) {
		snprintf(result, sizeof result, "%s", g->rg.result == RULES_DRAW ? "drawn" : "won by ");
		if (g->rg.result != RULES_DRAW)
			snprintf(result + strlen(result), sizeof result - strlen(result), "%s",
			    g->rg.result == RULES_BLACK_WINS ? g->black : g->white);
		*ps = job_refuse(j, g, "board %ld is over (%s)", g->board, result);
		return true;
	}
	if (game_color_of(g, userid) == RULES_EMPTY) {
		*ps = job_refuse(j, g, "%s is not playing on board %ld", userid, g->board);
		return true;
	}
	if (game_is_open(g)) {
		*ps = job_refuse(j, g, "board %ld is an open challenge: nobody plays on it until someone accepts it "
		    "(accept %ld <userid> <password>)", g->board, g->board);
		return true;
	}
	if (j->by_token && j->cmd.turn != 0 && j->cmd.turn != g->rg.turn) {
		/* never played on an old position: the answer is the board now, its Subject for this turn */
		*ps = job_refuse(j, g, "you replied to the mail of turn %d, and board %ld is now at turn %d: the "
		    "position has changed, so nothing was played. Look at the board below; to play, reply to this "
		    "mail (its Subject is for turn %d)", j->cmd.turn, g->board, g->rg.turn, g->rg.turn);
		return true;
	}
	if (j->cmd.turn != 0 && j->cmd.turn != g->rg.turn) {
		const char *mover = game_player_to_move(g);
		char list[JOB_MESSAGE_MAX / 2];

		if (mover == NULL || strcmp(mover, userid) != 0) {
			*ps = job_refuse(j, g, "board %ld is at turn %d, not %d, and it is %s's turn", g->board,
			    g->rg.turn, j->cmd.turn, mover != NULL ? mover : "nobody");
			return true;
		}
		*ps = job_refuse(j, g, "board %ld is at turn %d, not %d: your command was written for an earlier "
		    "position (look at the board below before you send it again). Send: %s %ld#%d %s <password>%s%s",
		    g->board, g->rg.turn, j->cmd.turn, command_name(&j->cmd), g->board, g->rg.turn, userid,
		    j->cmd.nplacements > 0 ? " " : "", placements_list(&j->cmd, list, sizeof list));
		return true;
	}
	return false;
}

/*
 * move: the placements of a whole turn on j->game by j->user, in the
 * board's notation, into points (room for COMMAND_PLACEMENTS_MAX); *gs the
 * result, msg why if illegal.  True if it was refused (*ps the refusal's).
 */
static bool play_move(struct job *j, int *points, struct rules_turn_report *rep, enum game_status *gs, char *msg,
    size_t size, enum process_status *ps)
{
	struct command *c = &j->cmd;
	struct game *g = &j->game;
	const char *userid = j->user.userid;
	int i;

	if (strcmp(game_player_to_move(g), userid) != 0) {
		if (robot_to_move(g))
			*ps = job_refuse(j, g, "it is %s's turn, and %s plays its turns itself: its answer comes by "
			    "mail, you cannot move for it", GAME_ROBOT_USERID, GAME_ROBOT_USERID);
		else
			*ps = job_refuse(j, g, "%s", game_status_message(g, GAME_NOT_YOUR_TURN, userid, NULL,
			    NULL, msg, size));
		return true;
	}
	for (i = 0; i < (int)c->nplacements; i++) {
		struct command_placement *pl = &c->placements[i];

		points[i] = rules_parse_point(&g->rg.board, pl->name, (int)strlen(pl->name));
		if (points[i] == RULES_NO_POINT) {
			if (!column_i(j, g, userid, (size_t)i, msg, size))
				rules_offboard_why(&g->rg.board, pl->name, (int)strlen(pl->name), msg, size);
			*ps = job_refuse(j, g, "%s", msg);
			return true;
		}
		/* From here on, the name as the board writes it ("g13" on hex boards). */
		rules_point_name(&g->rg.board, points[i], pl->name);
	}
	*gs = game_move(g, userid, points, (int)c->nplacements, (int64_t)j->srv.now, rep);
	if (*gs == GAME_ILLEGAL_TURN)
		turn_error(g, c, rep, msg, size);
	return false;
}

/* swap: the pie rule, White's first turn; *gs the result, msg why if refused. */
static void play_swap(struct job *j, struct game *g, const char *userid, int turn, enum game_status *gs,
    char *msg, size_t size)
{
	*gs = game_swap(g, userid, (int64_t)j->srv.now);
	if ((*gs == GAME_SWAP_NOT_NOW || *gs == GAME_NOT_YOUR_TURN) && g->swap && game_user_is_robot(g->white) &&
	    game_color_of(g, userid) == RULES_BLACK) {
		/* the robot's opponent as Black: the pie rule is the robot's */
		snprintf(msg, size, "the swap is White's to make, and %s plays White: it decides the pie "
		    "rule itself, right after your first turn", GAME_ROBOT_USERID);
		*gs = GAME_SWAP_NOT_NOW;
	} else if (*gs == GAME_SWAP_NOT_NOW) {
		snprintf(msg, size, "swap is only allowed as White's first turn, right after "
		    "Black's first turn (this is turn %d)", turn);
	}
}

/* The log's result of a committed turn. */
static void played_detail(struct job *j, const struct game *g, const char *userid, int turn,
    const struct rules_turn_report *rep)
{
	const struct command *c = &j->cmd;
	char list[JOB_MESSAGE_MAX], *p = list;
	size_t left = sizeof list;
	int i;

	if (command_is(c, "move")) {
		list[0] = '\0';
		for (i = 0; i < (int)c->nplacements && left > 8; i++) {
			int w = snprintf(p, left, "%s%s", i > 0 ? "," : "", c->placements[i].name);

			p += w;
			left -= (size_t)w;
		}
		job_detail(j, "ok", "turn %d: %s played %s", turn, userid, list);
		if (rep->captured > 0)
			job_detail_add(j, ", capturing %d", rep->captured);
	} else {
		job_detail(j, "ok", "turn %d: %s %s", turn, userid, command_is(c, "swap") ? "swapped" : "resigned");
	}
	if (game_over(g))
		job_detail_add(j, "; the game is over: %s",
		    g->rg.result == RULES_DRAW ? "drawn" : g->rg.result == RULES_BLACK_WINS ? "black won" : "white won");
}

/* The turn of move_run into t; note (MOVE_NOTE_SIZE bytes, the caller's: t->ev points to it) the queue's words. */
static enum process_status play_turn(struct job *j, struct job_turn *t, char *note)
{
	const char *userid = j->user.userid;
	struct game *g = &j->game;
	struct rules_turn_report rep;
	struct reply_event queued;
	enum process_status ps = PROCESS_OK;
	enum game_status gs;
	char msg[JOB_MESSAGE_MAX];
	bool refused, ok, answered;
	int turn, points[COMMAND_PLACEMENTS_MAX];
	struct reply_stop stop = { points, 0, false };

	memset(&rep, 0, sizeof rep);
	if (not_playable(j, g, userid, &ps))
		return ps;
	turn = g->rg.turn;
	if (command_is(&j->cmd, "move") && j->cmd.offer != COMMAND_OFFER_NONE)
		return move_offer(j, t);
	if (command_is(&j->cmd, "move")) {
		if (j->by_token && strcmp(game_player_to_move(g), userid) == 0) {
			/* a turn in parts: the part sent before comes first (replytoken.h); the mover's alone */
			ps = move_token_continue(j, g, &refused);
			if (ps != PROCESS_OK || refused)
				return ps;
		}
		if (play_move(j, points, &rep, &gs, msg, sizeof msg, &ps))
			return ps;
		t->ev.what = REPLY_MOVE;
		t->ev.captured = rep.captured;
		t->ev.dead_end = rep.dead_end;
		if (gs == GAME_ILLEGAL_TURN && rep.verdict == RULES_TURN_TOO_SHORT && j->by_token)
			return move_token_keep_part(j, g);
	} else if (command_is(&j->cmd, "swap") && j->by_token && g->pending[0] != '\0' &&
	    strcmp(game_player_to_move(g), userid) == 0) {
		return job_refuse(j, g, "you began turn %d with %s: a swap is only possible before any placement "
		    "of the turn. Finish the turn by reply, or send the whole turn (or swap) with your password, "
		    "which replaces the part sent", g->rg.turn, g->pending);
	} else if (command_is(&j->cmd, "swap")) {
		play_swap(j, g, userid, turn, &gs, msg, sizeof msg);
		t->ev.what = REPLY_SWAP;
	} else {
		gs = game_resign(g, userid, (int64_t)j->srv.now);
		t->ev.what = REPLY_RESIGN;
	}
	if (gs == GAME_NO_MEMORY)
		return job_no_memory(j);
	if (gs == GAME_ILLEGAL_TURN) {
		/*
		 * Refused in its middle: the reply shows the position where it
		 * stopped, after the placements before and their captures.
		 */
		stop.k = rep.verdict == RULES_TURN_TOO_SHORT ? (int)j->cmd.nplacements : rep.index;
		stop.ended = rep.verdict == RULES_TURN_TOO_LONG;
		return job_refuse_at(j, g, stop.k > 0 ? &stop : NULL, "%s", msg);
	}
	if (gs != GAME_OK) {
		if (gs != GAME_SWAP_NOT_NOW)
			game_status_message(g, gs, userid, NULL, NULL, msg, sizeof msg);
		return job_refuse(j, g, "%s", msg);
	}
	t->ev.actor = userid;
	t->ev.first = turn;
	/* the other player's queue of conditional turns: answered or dropped, in the same commit */
	ps = turnqueue_after_turn(j, g, turn, &queued, note, MOVE_NOTE_SIZE, &answered);
	if (ps != PROCESS_OK)
		return ps;
	if (answered)
		t->ev.then = &queued;
	if (note[0] != '\0') {
		t->ev.note = note;
		t->ev.note_to = game_player_of(g, RULES_OTHER(game_color_of(g, userid)));
	}
	/* the robot to move next (MAILCMD_ROBOT): the mover's one mail comes with its answer */
	ps = job_commit_game(j, t, NULL, &ok);
	if (ps == PROCESS_OK && ok) {
		played_detail(j, g, userid, turn, &rep);
		if (answered)
			job_detail_add(j, "; turn %d: %s's queued answer played", queued.first, queued.actor);
		else if (note[0] != '\0')
			job_detail_add(j, "; the queue of %s dropped", t->ev.note_to);
	}
	t->ev.then = NULL;
	return ps;
}

/*
 * move, swap and resign: a turn on board j->game (MAILCMD_LOCK: read under
 * its lock) by j->user, one of its players (MAILCMD_LOGIN), and the robot's
 * answer to it (MAILCMD_ROBOT).
 */
enum process_status move_run(struct job *j)
{
	struct job_turn t;
	enum process_status ps;
	char note[MOVE_NOTE_SIZE];

	job_turn_init(&t);
	note[0] = '\0';
	ps = play_turn(j, &t, note);
	ps = job_turn_answer(j, &t, ps);
	job_turn_free(&t);
	return ps;
}
