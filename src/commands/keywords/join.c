/*
 * join <id> <userid> <password> [-robot=N]: a player enters an open
 * tournament (or a running ladder, at its bottom); the director may enter
 * the robot at level N.  The tournament begins by itself when its last
 * place is taken (services/tournament.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/tournament.h"
#include "store/tourns.h"

/* The robot's level of "-robot=N" in text: 1 to 5; 0 for no -robot; -1 for anything else. */
static int robot_option(const char *text)
{
	if (text[0] == '\0')
		return 0;
	if (strncasecmp(text, "-robot=", 7) == 0 && text[7] >= '1' && text[7] <= '5' && text[8] == '\0')
		return text[7] - '0';
	return -1;
}

enum process_status join_run(struct job *j)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char err[TOURNAMENT_ERR_MAX], title[TOURN_NAME_MAX + 40], subject[TOURN_NAME_MAX + 120], text[800];
	const char *who = j->user.userid;
	enum process_status s;
	enum process_status ps;
	enum store_status ss;
	struct tourn *t = NULL;
	int robot = robot_option(j->cmd.text), p;
	bool begun = false;

	if (robot < 0)
		return job_refuse(j, NULL, "join takes no '%.40s': only -robot=N (N 1 to 5), from the director", j->cmd.text);
	ps = tournament_open(j, j->cmd.tournament, &lock, &t);
	if (ps != PROCESS_OK || t == NULL)
		goto out;
	if (robot > 0) {
		if (strcmp(t->director, j->user.userid) != 0) {
			ps = job_refuse(j, NULL, "only the director of T%u, %s, may enter the robot", t->id, t->director);
			goto out;
		}
		who = GAME_ROBOT_USERID;
	}
	if (t->state == TOURN_FINISHED || (t->state == TOURN_RUNNING && t->format != TOURN_LADDER)) {
		ps = job_refuse(j, NULL, "T%u has %s: players join a tournament before it begins (send "
		    "\"tournaments\" for the open ones)", t->id, t->state == TOURN_FINISHED ? "ended" : "begun");
		goto out;
	}
	p = tourn_find(t, who);
	if (p >= 0) {
		ps = job_refuse(j, NULL, "%s %s T%u already", who, t->players[p].left ? "has left" : "is in", t->id);
		goto out;
	}
	if ((int)t->nplayers >= t->max_players) {
		ps = job_refuse(j, NULL, "T%u is full: it has its %d players", t->id, t->max_players);
		goto out;
	}
	p = tourn_add_player(t, who, tournament_rating(&j->srv, t, who), robot);
	if (p < 0) {
		ps = job_no_memory(j);
		goto out;
	}
	t->players[p].last = (int64_t)j->srv.now;
	ss = tourns_save(j->srv.st, t, err);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, err);
		goto out;
	}
	if (t->state == TOURN_OPEN && (int)t->nplayers == t->max_players) {
		s = tournament_begin(&j->srv, t, &begun, err);
		if (s != PROCESS_OK) {
			job_detail(j, s == PROCESS_TEMPFAIL ? "tempfail" : "failed", "T%u: %s", t->id, err);
			ps = s == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
			goto out;
		}
	}
	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s: %s joined", title, who);
	snprintf(text, sizeof text, "%s is in %s, rated %d for its seeding: %zu player%s.\n%s\n"
	    "To leave it: withdraw T%u %s <password>\nTo see it:   tournament T%u\n", who, title, t->players[p].rating,
	    t->nplayers, t->nplayers == 1 ? "" : "s", begun ? "It is full, and has begun: the pairings come in a mail "
	    "of their own." : t->format == TOURN_LADDER && t->state == TOURN_RUNNING ? "At the bottom of the ladder." :
	    "It begins when the director says so, or when it is full.", t->id, j->user.userid, t->id);
	ps = tournament_reply(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "tournament T%u: %s joined%s", t->id, who, begun ? "; begun" : "");
out:
	tourn_free(t);
	store_unlock(&lock);
	return ps;
}
