/*
 * begin <id> <userid> <password>: the director starts a tournament that is
 * open (services/tournament.h: seeded, paired, its boards made and mailed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/tournament.h"
#include "store/tourns.h"

enum process_status begin_run(struct job *j)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char err[TOURNAMENT_ERR_MAX], title[TOURN_NAME_MAX + 40];
	enum process_status s;
	enum process_status ps;
	struct tourn *t = NULL;
	bool begun;

	ps = tournament_open(j, j->cmd.tournament, &lock, &t);
	if (ps != PROCESS_OK || t == NULL)
		goto out;
	if (strcmp(t->director, j->user.userid) != 0) {
		ps = job_refuse(j, NULL, "only the director of T%u, %s, may begin it", t->id, t->director);
		goto out;
	}
	if (t->state != TOURN_OPEN) {
		ps = job_refuse(j, NULL, "T%u has begun already: send \"tournament T%u\" to see it", t->id, t->id);
		goto out;
	}
	s = tournament_begin(&j->srv, t, &begun, err);
	if (!begun) {
		ps = job_refuse(j, NULL, "%s", err);
		goto out;
	}
	if (s != PROCESS_OK) {
		job_detail(j, s == PROCESS_TEMPFAIL ? "tempfail" : "failed", "T%u: %s", t->id, err);
		ps = s == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	tournament_title(t, title, sizeof title);
	{
		char subject[TOURN_NAME_MAX + 80], *text = tournament_text(t);

		snprintf(subject, sizeof subject, "Oust tournament %s has begun", title);
		ps = text != NULL ? tournament_reply(j, subject, text) : job_no_memory(j);
		free(text);
		if (ps != PROCESS_OK)
			goto out;
	}
	job_detail(j, "ok", "tournament T%u begun: %zu players, %zu games", t->id, t->nplayers, t->ngames);
	ps = PROCESS_OK;
out:
	tourn_free(t);
	store_unlock(&lock);
	return ps;
}
