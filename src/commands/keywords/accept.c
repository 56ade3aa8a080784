/*
 * accept: the mail command that takes the open seat of an open challenge
 * (challenge <userid> <password> *), within the limits of a challenge.
 */
#include <stdio.h>
#include <string.h>

#include "commands/lib/openboards.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

/*
 * accept <board> <userid> <password>: j->user takes the open seat of board
 * j->game (MAILCMD_LOCK: under its lock), after the same checks as a
 * challenge's (openboards_may_start), under the lock of challenges; both
 * players (and the observers) get the board's mail.
 */
enum process_status accept_run(struct job *j)
{
	struct store_lock limits = STORE_LOCK_INIT;
	struct game *g = &j->game;
	const char *userid = j->user.userid, *challenger;
	struct job_turn t;
	enum process_status ps;
	bool ok;

	job_turn_init(&t);
	if (!game_is_open(g)) {
		if (game_color_of(g, userid) != RULES_EMPTY)
			return job_refuse(j, g, "board %ld is not an open challenge: you play on it already", g->board);
		if (g->opened)
			return job_refuse(j, g, "board %ld was an open challenge, and it is taken already: %s plays %s "
			    "on it; send challenges for the open ones", g->board, g->black, g->white);
		return job_refuse(j, g, "board %ld is not an open challenge: %s plays %s on it (an open challenge is "
		    "made with: challenge <userid> <password> *)", g->board, g->black, g->white);
	}
	challenger = game_open_challenger(g);
	if (strcmp(challenger, userid) == 0)
		return job_refuse(j, g, "board %ld is your own open challenge: another player must accept it (to "
		    "withdraw it: decline %ld %s <password>)", g->board, g->board, userid);
	ps = job_lock_path(j, OPENBOARDS_LOCK_FILE, "challenges", &limits);
	if (ps != PROCESS_OK)
		return ps;
	ps = openboards_may_start(j, userid, "finish or resign one before accepting a challenge", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	game_take_seat(g, userid);
	if (game_observer_find(g, userid) >= 0)
		game_observer_remove(g, game_observer_find(g, userid));	/* a player now: the player's mail only */
	g->created = (int64_t)j->srv.now;	/* the game starts now: the time limits count from here */
	g->last_move = (int64_t)j->srv.now;
	t.ev.what = REPLY_ACCEPT;
	t.ev.actor = userid;
	ps = job_commit_game(j, &t, &(struct job_seats){ false, userid }, &ok);
	if (ps == PROCESS_OK && ok)
		job_detail(j, "ok", "board %ld: %s accepted the open challenge of %s: %s (x) - %s (o)", g->board, userid,
		    challenger, g->black, g->white);
out:
	job_turn_free(&t);
	store_unlock(&limits);
	return ps;
}
