/*
 * games: the mail command that lists a player's boards and whose turn it
 * is on each, filtered; the vacation line it shares with whoami.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/lib/away.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/pipeline/replytoken.h"
#include "game/gamefile.h"
#include "store/tokens.h"
#include "store/vacations.h"

/*
 * games <userid> next from u's registered address (issue 40): the first
 * board listed where u is to move, read whole into *g (the caller
 * releases it), and u's reply token for it, so the reply is as tappable
 * as its board mail.  False (nothing to release) when there is none, or
 * it or its token cannot be had: the list goes without the board.
 */
static bool first_to_play(struct job *j, const struct store_user *u, const struct game *games, size_t n,
    struct game *g, char token[TOKEN_TEXT_SIZE])
{
	char err[TOKENS_ERR_MAX], *text = NULL;
	size_t i, len;
	bool ok = false;

	token[0] = '\0';
	for (i = 0; i < n; i++)
		if (!game_over(&games[i]) && !game_is_open(&games[i]) && games[i].pending[0] == '\0' &&
		    strcmp(game_player_to_move(&games[i]), u->userid) == 0)
			break;
	if (i == n || store_board_read(j->srv.st, games[i].board, &text, &len) != STORE_OK)
		return false;
	/* read without the lock: a game file is replaced whole */
	if (gamefile_parse(text, len, g, NULL) == GAME_OK) {
		ok = g->board == games[i].board && replytoken_of(j->srv.st, g->board, u, token, err) == STORE_OK &&
		    token[0] != '\0';
		if (!ok)
			game_release(g);
	}
	free(text);
	return ok;
}

enum process_status games_run(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct reply_games_list list;
	struct game *games = NULL;
	enum reply_games_filter filter = REPLY_GAMES_ALL;
	enum mail_status rs;
	enum process_status ps;
	size_t n = 0;
	bool found;
	char away[200], token[TOKEN_TEXT_SIZE];
	struct game tap;

	if (j->cmd.text[0] != '\0' && !reply_games_filter_parse(j->cmd.text, &filter))
		return job_refuse(j, NULL, "'%s' is not a filter of games: use active, next, finished or all "
		    "(or none: all)", j->cmd.text);
	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ps = job_boards_of(j, u.userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	ps = away_line(j, u.userid, away, sizeof away);
	if (ps != PROCESS_OK)
		goto out;
	list = (struct reply_games_list){ u.userid, u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0,
	    filter, games, n, away, NULL, NULL };
	if (filter == REPLY_GAMES_NEXT && list.own && first_to_play(j, &u, games, n, &tap, token)) {
		list.tap = &tap;
		list.tap_token = token;
	}
	rs = reply_games(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u.userid) }, &list, &m);
	explicit_bzero(token, sizeof token);
	if (list.tap != NULL)
		game_release(&tap);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu board%s of %s%s%s", n, n == 1 ? "" : "s", u.userid,
		    filter != REPLY_GAMES_ALL ? ", listed: " : "", filter != REPLY_GAMES_ALL ?
		    reply_games_filter_str(filter) : "");
out:
	free(games);
	return ps;
}
