/*
 * show: the mail command that shows a board (now, or after a turn) and
 * changes nothing.  The pipeline has read the board (MAILCMD_BOARD) into
 * j->game, without its lock: game files are replaced whole, never
 * rewritten in place.
 */
#include <stdio.h>
#include <strings.h>

#include "commands/pipeline/boardmail.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/pipeline/replytoken.h"
#include "game/board.h"
#include "store/tokens.h"

/*
 * The token of the player to move of g into token when the mail comes
 * from that player's registered address: a show of the position now is
 * then as tappable as a board mail (issue 40).  Anyone else, or a
 * token that cannot be made, leaves token "": the board without links.
 */
static void mover_token(struct job *j, const struct game *g, char token[TOKEN_TEXT_SIZE])
{
	struct store_user u;
	char err[TOKENS_ERR_MAX];

	token[0] = '\0';
	if (game_over(g) || game_is_open(g))
		return;
	if (store_user_find(j->srv.st, game_player_to_move(g), &u) != STORE_OK ||
	    strcasecmp(u.address, j->in.from_addr) != 0)
		return;
	if (replytoken_of(j->srv.st, g->board, &u, token, err) != STORE_OK)
		token[0] = '\0';
}

enum process_status show_run(struct job *j)
{
	const struct game *g = &j->game;
	int upto = j->cmd.turn;
	char drawing[BOARD_TEXT_MAX], token[TOKEN_TEXT_SIZE];
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	enum game_status gs;
	struct game_replay r;
	enum store_status ss;

	if (upto > g->nturns)
		return job_refuse(j, g, "board %ld has no turn #%d yet: %d turn%s played so far", g->board, upto,
		    g->nturns, g->nturns == 1 ? "" : "s");
	if (upto > 0) {
		gs = board_render_turn(g, upto, drawing);
		if (gs != GAME_OK) {
			game_replay(g, upto, &r);
			return job_refuse(j, g, "the history of board %ld cannot be replayed (%s)", g->board,
			    gs == GAME_BAD_HISTORY ? r.why : game_status_str(gs));
		}
	}
	ss = boardmail_set_away(&j->srv, g);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the vacations");
	/* the clocks' times in the zone of the sender's account, if the address has one */
	{
		char ids[2][IDENT_USERID_MAX + 1];
		size_t n = 0;

		if (store_user_ids_of(j->srv.st, j->in.from_addr, ids, 2, &n) == STORE_OK && n == 1)
			snprintf(j->srv.rc.clock.viewer, sizeof j->srv.rc.clock.viewer, "%s", ids[0]);
	}
	if (upto == 0) {
		mover_token(j, g, token);
		j->srv.rc.tap_token = token;
	}
	rs = reply_show(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
	    g, upto, upto > 0 ? drawing : NULL, &m);
	j->srv.rc.tap_token = NULL;
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK && upto > 0)
		job_detail(j, "ok", "shown after turn %d", upto);
	else if (ps == PROCESS_OK)
		job_detail(j, "ok", "shown");
	return ps;
}
