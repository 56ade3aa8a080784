/*
 * robot_answer: the robot's answer to a mail's turn, as the pipeline's
 * hook (pipeline/hooks.h): due when the robot is to move on the board the
 * mail committed, played and committed with the mover's mail before the
 * board's lock is let go.
 */
#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/boardmail.h"
#include "commands/pipeline/hooks.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/robotremote.h"
#include "commands/services/robot.h"

bool robot_answer_due(const struct config *cfg, const struct game *g)
{
	/* a robot on another host answers by mail (pipeline/robotremote.h) */
	return robot_to_move(g) && !robotremote_on(cfg);
}

/*
 * The robot's answer, right after the mail's change to g was committed,
 * the board lock still held (robot.h): its turn is played and committed
 * with the one mail to its opponent, which tells both ev, the mail's
 * change, and the answer.  mails[0..n) are the mails of ev alone, made but
 * not queued: when the robot cannot play now (a fault of the AI, a failure
 * of the store) they go out instead, the log says why, and the turn is left
 * for `oustpbm robot` or `oustpbm cleanup`.  The mail was handled either
 * way.
 */
enum process_status robot_answer_hook(struct job *j, struct job_turn *t)
{
	struct game *g = &j->game;
	struct reply_event *ev = &t->ev;
	const struct reply_mail *mails = t->mails;
	int n = t->nmails;
	static struct robot_turn rt[ROBOT_TURNS_MAX];
	struct reply_mail *both = NULL;
	struct store_lock slot = STORE_LOCK_INIT;
	bool busy;
	enum process_status rs, cs = PROCESS_OK;
	enum process_status ps = PROCESS_OK;
	char why[ROBOT_ERR_MAX], cwhy[ROBOT_ERR_MAX], detail[JOB_DETAIL_MAX];
	const char *outcome = j->outcome;
	int turn, nb = 0, nt, i;
	size_t dn;

	snprintf(detail, sizeof detail, "%s", j->detail);
	/* beyond robot_max_thinking thinks at once the turn is left for oustpbm robot (cron) */
	busy = !robot_slot_take(&j->srv, 0, &slot, why, sizeof why);
	/* the robot plays again after a pass of the human's; a fault after the first stands alone */
	if (busy) {
		rs = PROCESS_TEMPFAIL;
		nt = 0;
	} else {
		rs = robot_play_turns(g, &j->srv.cfg, (int64_t)j->srv.now, rt, &nt, why, sizeof why);
		store_unlock(&slot);
	}
	turn = g->rg.turn;
	if (nt > 0) {
		ev->then = &rt[0].ev;
		if (job_game_mails(j, g, ev, &both, &nb) == PROCESS_OK) {
			cs = robot_commit(&j->srv, g, both, nb, cwhy, sizeof cwhy);
		} else {
			cs = PROCESS_SOFTWARE;
			snprintf(cwhy, sizeof cwhy, "%s", j->detail);
		}
		ev->then = NULL;
	}
	/* the log line stays the mail's, with the robot's answer after it */
	j->outcome = outcome;
	snprintf(j->detail, sizeof j->detail, "%s", detail);
	for (i = 0; i < nt && cs == PROCESS_OK; i++) {
		dn = strlen(j->detail);
		snprintf(j->detail + dn, sizeof j->detail - dn, "; %s", rt[i].detail);
	}
	if (nt > 0 && cs != PROCESS_OK) {
		/* nothing of the robot's was committed: the human's mails alone */
		rs = cs;
		turn = rt[0].ev.first;
		snprintf(why, sizeof why, "%s", cwhy);
	}
	dn = strlen(j->detail);
	if (rs != PROCESS_OK) {
		snprintf(j->detail + dn, sizeof j->detail - dn, "; turn %d: the robot could not play (%s): left for "
		    "oustpbm robot", turn, why);
		if (!busy)	/* a busy host is no fault */
			msg_warn("board %ld: turn %d: the robot could not play: %s", g->board, turn, why);
		for (i = 0; i < n && ps == PROCESS_OK && (nt == 0 || cs != PROCESS_OK); i++)
			ps = job_reply(j, &mails[i]);
	}
	j->queued = true;
	boardmail_free(both, nb);
	return ps;
}
