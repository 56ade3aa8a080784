/* robotreply: the robot host's replies read (robotremote.h's incoming half).  See robotreply.h. */
#include "commands/pipeline/robotreply.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/robotremote.h"
#include "store/tokens.h"

bool robotreply_sender(const struct job *j)
{
	return robotremote_on(&j->srv.cfg) && j->in.from_addr != NULL &&
	    strcasecmp(j->in.from_addr, j->srv.cfg.robot_address) == 0;
}

bool robotreply_authentic(const struct job *j)
{
	struct token_subject ts;
	char token[TOKEN_TEXT_SIZE], err[TOKENS_ERR_MAX];
	bool right;

	if (!robotreply_sender(j) || j->srv.st == NULL || !token_from_subject(j->in.subject, &ts) || ts.token[0] == '\0')
		return false;
	if (robotremote_token(j->srv.st, &j->srv.cfg, ts.board, token, err) != STORE_OK)
		return false;
	right = token_equal(token, ts.token);
	explicit_bzero(token, sizeof token);
	explicit_bzero(&ts, sizeof ts);
	return right;
}

enum process_status robotreply_login(struct job *j, bool *ready)
{
	const struct game *g = &j->game;
	char token[TOKEN_TEXT_SIZE], err[TOKENS_ERR_MAX];
	enum store_status ss;
	bool right;

	*ready = false;
	/* never answered: the robot host's replies are right; anything else from its address is forged */
	if (!game_user_is_robot(g->black) && !game_user_is_robot(g->white)) {
		job_detail(j, "dropped", "a reply from the robot's address (robot_address) with a token of board %ld, "
		    "which the robot does not play: not answered", g->board);
		return PROCESS_DROPPED;
	}
	ss = robotremote_token(j->srv.st, &j->srv.cfg, g->board, token, err);
	if (ss != STORE_OK) {
		job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s", err);
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	right = token_equal(token, j->token.token);
	if (!right) {
		explicit_bzero(token, sizeof token);
		/*
		 * Logged, never answered: a forger would have the server mail
		 * the robot host once a mail.  Not counted by the throttle
		 * either: a forged sender must not lock the robot out.
		 */
		job_detail(j, "dropped", "a reply from the robot's address (robot_address) whose token is not %s's "
		    "token for board %ld: not answered", GAME_ROBOT_USERID, g->board);
		return PROCESS_DROPPED;
	}
	memcpy(j->token_now, token, sizeof j->token_now);
	explicit_bzero(token, sizeof token);
	memset(&j->user, 0, sizeof j->user);
	snprintf(j->user.userid, sizeof j->user.userid, "%s", GAME_ROBOT_USERID);
	snprintf(j->user.address, sizeof j->user.address, "%s", j->srv.cfg.robot_address);
	snprintf(j->cmd.userid, sizeof j->cmd.userid, "%s", GAME_ROBOT_USERID);
	*ready = true;
	return PROCESS_OK;
}
