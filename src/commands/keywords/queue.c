/*
 * queue: conditional turns (game.h's queue).  "queue <board> <userid>
 * <password> <their turn> => <my turn>; ..." gives the answers to the
 * opponent's next turn, while it is the opponent's turn; "queue <board>
 * <userid> <password>" lists them, "... clear" drops them.  Each line is
 * checked at once: their turn must be legal now, and the answer legal
 * after it.  When the opponent plays (move.c), the first line whose turn
 * is exactly the one played (the same placements in the same order, or
 * the swap) is answered in the same delivery and the same commit; the rest
 * of the queue is dropped.  A turn no line answers drops the whole queue,
 * and an answer that has become illegal (a line can only be illegal if the
 * position changed meanwhile, an undo say) is dropped; the owner is told
 * either way, the opponent never learns what was queued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "commands/lib/turnqueue.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"

/*
 * Check every line of q on g for owner: their turn legal now, the answer
 * legal after it.  False with why.
 */
static bool check_lines(const struct game *g, const char *owner, const struct game_queue *q, char *why, size_t size)
{
	const char *opponent = game_player_to_move(g);
	struct rules_game *rg = malloc(sizeof(*rg));
	struct rules_turn_report rep;
	enum rules_color mine = game_color_of(g, owner);
	char a[400], b[300], c[300];
	bool good = rg != NULL;
	int k;

	if (rg == NULL)
		snprintf(why, size, "out of memory");
	for (k = 0; good && k < q->n; k++) {
		const struct game_queue_line *l = &q->line[k];

		*rg = g->rg;
		if (l->swap) {
			if (!g->swap || !rules_game_can_swap(rg) || !rules_game_swap(rg)) {
				snprintf(why, size, "line %d: %s cannot swap now", k + 1, opponent);
				good = false;
				break;
			}
			mine = RULES_OTHER(game_color_of(g, owner));
		} else {
			mine = game_color_of(g, owner);
			if (rules_game_turn(rg, l->their, l->ntheir, &rep) != RULES_TURN_OK) {
				snprintf(why, size, "line %d: %s cannot play %s: %s", k + 1, opponent,
				    turnqueue_their_text(g, l, b, sizeof b), game_status_message(g, GAME_ILLEGAL_TURN, opponent,
				    l->their, &rep, a, sizeof a));
				good = false;
				break;
			}
		}
		if (rg->result != RULES_PLAYING) {
			snprintf(why, size, "line %d: %s would end the game", k + 1, turnqueue_their_text(g, l, b, sizeof b));
			good = false;
		} else if (rg->to_move != mine) {
			snprintf(why, size, "line %d: after %s you have no placement (you pass)", k + 1,
			    turnqueue_their_text(g, l, b, sizeof b));
			good = false;
		} else if (rules_game_turn(rg, l->mine, l->nmine, &rep) != RULES_TURN_OK) {
			snprintf(why, size, "line %d: your answer %s would be illegal after %s: %s", k + 1,
			    turnqueue_points_text(g, l->mine, l->nmine, c, sizeof c), turnqueue_their_text(g, l, b, sizeof b),
			    game_status_message(g, GAME_ILLEGAL_TURN, owner, l->mine, &rep, a, sizeof a));
			good = false;
		}
	}
	free(rg);
	return good;
}

/* The queue of g, one line each "    1. if bob plays E5, you play F6", into sb. */
static void list_text(struct strbuf *sb, const struct game *g, const struct game_queue *q, const char *opponent)
{
	char a[300], b[300];
	int k;

	for (k = 0; k < q->n; k++)
		strbuf_printf(sb, "    %d. if %s %s%s, you play %s\n", k + 1, opponent, q->line[k].swap ? "swaps" :
		    "plays ", q->line[k].swap ? "" : turnqueue_their_text(g, &q->line[k], a, sizeof a),
		    turnqueue_points_text(g, q->line[k].mine, q->line[k].nmine, b, sizeof b));
}

/* The reply to the sender: what is queued now on g (state says how it came to be). */
static enum process_status queue_reply(struct job *j, const struct game *g, const char *state, bool commit,
    bool *committed)
{
	const char *userid = j->user.userid;
	const char *opponent = game_player_of(g, RULES_OTHER(game_color_of(g, userid)));
	struct strbuf sb = STRBUF_INIT;
	struct game_queue *q = NULL;
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char board[24], subject[120], why[200], *list = NULL;
	bool done;

	*committed = false;
	memset(&m, 0, sizeof m);
	q = malloc(sizeof(*q));
	if (q == NULL)
		return job_no_memory(j);
	if (strcmp(g->queue_owner, userid) == 0 && game_queue_parse(g, g->queue, q, why, sizeof why))
		list_text(&sb, g, q, opponent);
	else
		strbuf_puts(&sb, "    (nothing queued)\n");
	free(q);
	list = strbuf_finish(&sb);
	if (list == NULL)
		return job_no_memory(j);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld queue", g->board);
	{
		struct reply_var vars[] = { { "board", board }, { "userid", userid }, { "opponent", opponent },
		    { "state", state }, { "list", list } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, userid) },
		    "queue", subject, REPLY_VARS(vars), &m);
	}
	free(list);
	if (rs != MAIL_OK)
		return job_reply_failure(j, rs);
	if (commit) {
		ps = job_commit_quiet(j, &m, 1, &done);
		*committed = ps == PROCESS_OK && done;
		if (ps == PROCESS_OK && !done)
			ps = PROCESS_OK;	/* a late wrong password: refused, nothing written */
	} else {
		ps = job_reply(j, &m);
	}
	reply_mail_release(&m);
	return ps;
}

enum process_status queue_run(struct job *j)
{
	const char *userid = j->user.userid, *text = j->cmd.text, *to_move;
	struct game *g = &j->game;
	struct game_queue *q = NULL;
	enum process_status ps;
	char why[JOB_MESSAGE_MAX], canon[GAME_QUEUE_MAX + 1], state[200];
	bool committed;

	while (*text == ' ' || *text == '\t')
		text++;
	if (game_over(g))
		return job_refuse(j, g, "board %ld is over: nothing to queue", g->board);
	if (game_color_of(g, userid) == RULES_EMPTY)
		return job_refuse(j, g, "%s is not playing on board %ld", userid, g->board);
	if (game_user_is_robot(g->black) || game_user_is_robot(g->white))
		return job_refuse(j, g, "%s answers at once on board %ld: there is no turn to queue an answer to",
		    GAME_ROBOT_USERID, g->board);
	to_move = game_player_to_move(g);
	if (*text == '\0') {
		snprintf(state, sizeof state, strcmp(g->queue_owner, userid) == 0 ? "your queue answers %s's turn %d:" :
		    "you have nothing queued (it is %s's turn %d):", to_move, g->rg.turn);
		ps = queue_reply(j, g, state, false, &committed);
		/* refused instead when the password check, settled by job_reply, said no */
		if (ps == PROCESS_OK && (j->outcome == NULL || strcmp(j->outcome, "refused") != 0))
			job_detail(j, "ok", "queue of %s on board %ld shown", userid, g->board);
		return ps;
	}
	if (strcasecmp(text, "clear") == 0) {
		if (strcmp(g->queue_owner, userid) != 0)
			return job_refuse(j, g, "you have nothing queued on board %ld", g->board);
		game_queue_clear(g);
		snprintf(state, sizeof state, "your queue is cleared: %s's turn %d will be answered by you, by mail.",
		    to_move, g->rg.turn);
		ps = queue_reply(j, g, state, true, &committed);
		if (ps == PROCESS_OK && committed)
			job_detail(j, "ok", "queue of %s on board %ld cleared", userid, g->board);
		return ps;
	}
	if (strcmp(to_move, userid) == 0)
		return job_refuse(j, g, "it is your turn on board %ld: a queue answers %s's next turn; play yours with "
		    "move", g->board, game_player_of(g, RULES_OTHER(game_color_of(g, userid))));
	q = malloc(sizeof(*q));
	if (q == NULL)
		return job_no_memory(j);
	if (!game_queue_parse(g, text, q, why, sizeof why) || !check_lines(g, userid, q, why, sizeof why) ||
	    !game_queue_format(g, q, canon, sizeof canon)) {
		if (why[0] == '\0' || strlen(canon) >= GAME_QUEUE_MAX)
			snprintf(why, sizeof why, "the queue is longer than %d characters", GAME_QUEUE_MAX);
		free(q);
		return job_refuse(j, g, "queue: %s", why);
	}
	snprintf(g->queue_owner, sizeof g->queue_owner, "%s", userid);
	snprintf(g->queue, sizeof g->queue, "%s", canon);
	snprintf(state, sizeof state, "your queue answers %s's turn %d (%d line%s; a new queue replaces it):",
	    to_move, g->rg.turn, q->n, q->n == 1 ? "" : "s");
	ps = queue_reply(j, g, state, true, &committed);
	if (ps == PROCESS_OK && committed)
		job_detail(j, "ok", "queue of %s on board %ld: %d line%s", userid, g->board, q->n, q->n == 1 ? "" : "s");
	free(q);
	return ps;
}

