/*
 * withdraw <id> <userid> <password> [player]: a player leaves a
 * tournament, or its director removes one (a player who lost on time and
 * never came back).  Before the start the entry is just dropped; after it
 * the rule of the players' guide applies (game/tourn.h: tourn_leave):
 * before half of their games every result of theirs is annulled, after
 * it their unplayed games are lost by forfeit; their boards being played
 * are resigned for them, the director and the remaining players told.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/tournament.h"
#include "store/tourns.h"

/* Tell the director and the players still in of p's departure (what the rule made of it). */
static enum process_status tell(struct server *srv, const struct tourn *t, int p, const char *by, char *err)
{
	enum process_status s = PROCESS_OK;
	char title[TOURN_NAME_MAX + 40], subject[TOURN_NAME_MAX + 100], text[800];
	const char *who = t->players[p].userid;
	size_t i;

	tournament_title(t, title, sizeof title);
	snprintf(subject, sizeof subject, "Oust tournament %s: %s left", title, who);
	snprintf(text, sizeof text, "%s %s %s.\n\n%s\n\nThe tournament now: tournament T%u\n", who,
	    strcmp(by, who) == 0 ? "withdrew from" : "was removed by the director from", title,
	    t->players[p].annulled ? "They had played fewer than half of their games: none of their results counts "
	    "(the crosstable marks them x)." : "They had played half of their games or more: their results stand, "
	    "and their unplayed games are lost by forfeit (+ and - in the crosstable).", t->id);
	if (strcmp(t->director, by) != 0)
		s = tournament_notice(srv, t->director, subject, text, err);
	for (i = 0; i < t->nplayers && s == PROCESS_OK; i++)
		if (!t->players[i].left && strcmp(t->players[i].userid, t->director) != 0)
			s = tournament_notice(srv, t->players[i].userid, subject, text, err);
	return s;
}

enum process_status withdraw_run(struct job *j)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char err[TOURNAMENT_ERR_MAX], who[IDENT_USERID_MAX + 1], note[300], title[TOURN_NAME_MAX + 40];
	char subject[TOURN_NAME_MAX + 100], text[400];
	enum process_status s = PROCESS_OK;
	enum process_status ps;
	enum tourn_step step;
	enum store_status ss;
	struct tourn *t = NULL;
	long *boards = NULL;
	size_t nb = 0, i;
	int p;

	snprintf(who, sizeof who, "%.32s", j->cmd.text[0] != 0 ? j->cmd.text : j->user.userid);
	for (i = 0; who[i] != '\0'; i++)
		if (who[i] >= 'A' && who[i] <= 'Z')
			who[i] = (char)(who[i] - 'A' + 'a');
	if (!ident_userid_ok(who) || strlen(j->cmd.text) > IDENT_USERID_MAX)
		return job_refuse(j, NULL, "'%.40s' is no user id", j->cmd.text);
	ps = tournament_open(j, j->cmd.tournament, &lock, &t);
	if (ps != PROCESS_OK || t == NULL)
		goto out;
	if (strcmp(who, j->user.userid) != 0 && strcmp(t->director, j->user.userid) != 0) {
		ps = job_refuse(j, NULL, "only the director of T%u, %s, may remove another player", t->id, t->director);
		goto out;
	}
	p = tourn_find(t, who);
	if (p < 0) {
		ps = job_refuse(j, NULL, "%s is not in T%u", who, t->id);
		goto out;
	}
	if (t->players[p].left) {
		ps = job_refuse(j, NULL, "%s has left T%u already", who, t->id);
		goto out;
	}
	if (t->state == TOURN_FINISHED) {
		ps = job_refuse(j, NULL, "T%u has ended: its results stand", t->id);
		goto out;
	}
	tournament_title(t, title, sizeof title);
	if (t->state == TOURN_OPEN) {
		tourn_remove_player(t, p);
		ss = tourns_save(j->srv.st, t, err);
		if (ss != STORE_OK) {
			ps = job_store_failure(j, ss, err);
			goto out;
		}
	} else {
		boards = malloc((t->ngames + 1) * sizeof *boards);
		if (boards == NULL) {
			ps = job_no_memory(j);
			goto out;
		}
		for (i = 0; i < t->ngames; i++)
			if (t->games[i].result == TOURN_PENDING && t->games[i].board != 0 &&
			    (t->games[i].black == p || t->games[i].white == p))
				boards[nb++] = t->games[i].board;
		tourn_leave(t, p, &step);
		ss = tourns_save(j->srv.st, t, err);
		if (ss != STORE_OK) {
			ps = job_store_failure(j, ss, err);
			goto out;
		}
		/* the file says they left: a crash now leaves boards the next settle does not wait for */
		snprintf(note, sizeof note, "%s left the tournament %s: this board is resigned for them.", who, title);
		for (i = 0; i < nb && s == PROCESS_OK; i++)
			s = tournament_resign(&j->srv, boards[i], who, note, err);
		if (s == PROCESS_OK)
			s = tournament_settle(&j->srv, t, err);
		if (s == PROCESS_OK)
			s = tell(&j->srv, t, p, j->user.userid, err);
		if (s != PROCESS_OK) {
			job_detail(j, s == PROCESS_TEMPFAIL ? "tempfail" : "failed", "T%u: %s", t->id, err);
			ps = s == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
			goto out;
		}
	}
	snprintf(subject, sizeof subject, "Oust tournament %s: %s left", title, who);
	snprintf(text, sizeof text, "%s is out of %s.%s\n", who, title, t->state == TOURN_OPEN ? "" :
	    t->players[p].annulled ? " Fewer than half of their games were played: none of their results counts." :
	    " Half of their games or more were played: their unplayed games are lost by forfeit.");
	ps = tournament_reply(j, subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "tournament T%u: %s left%s", t->id, who, t->state == TOURN_OPEN ? "" :
		    t->players[p].annulled ? ", results annulled" : ", unplayed games forfeited");
out:
	free(boards);
	tourn_free(t);
	store_unlock(&lock);
	return ps;
}
