/*
 * rating: the mail command `rating <userid>`, a player's ratings and
 * latest rated games; the text is services/standings.h's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands/lib/ratingtext.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/standings.h"
#include "store/ratings.h"

/* rating <userid>: a player's ratings and latest rated games (the robot: each level). */
enum process_status rating_run(struct job *j)
{
	struct store_user u;
	struct ratings r = { 0 };
	enum store_status ss;
	enum process_status ps;
	char err[RATINGS_ERR_MAX], subject[80];
	char *text = NULL;
	bool found;

	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ss = ratings_load(j->srv.st, false, &r, err);
	if (ss != STORE_OK) {
		ps = ratingtext_failure(j, ss, err);
		goto out;
	}
	text = standings_rating_text(&r, u.userid, (int64_t)j->srv.now);
	if (text == NULL) {
		ps = job_no_memory(j);
		goto out;
	}
	snprintf(subject, sizeof subject, "Oust rating %s", u.userid);
	ps = ratingtext_reply(j, NULL, "rating", subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "rating of %s", u.userid);
out:
	free(text);
	ratings_release(&r);
	return ps;
}
