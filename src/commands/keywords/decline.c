/*
 * decline: the mail command that removes a board before its decliner's
 * first turn (a challenge declined or withdrawn, an open challenge
 * withdrawn), the other player told.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/lib/openboards.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

/*
 * A decline's {comment}: for the other player, "\n<userid> writes:\n\n"
 * and the decliner's comment, each line indented by two spaces, as a game
 * mail passes a comment on; for the decliner, that it was passed on; ""
 * without a comment or another player.  NULL when out of memory.
 */
static char *decline_comment(const char *comment, const char *decliner, const char *other, bool to_other)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = comment, *nl;

	if (comment[0] == '\0' || other[0] == '\0' || game_user_is_robot(other))
		return strdup("");
	if (!to_other) {
		strbuf_printf(&sb, "\nYour comment was passed on to %s.\n", other);
		return strbuf_finish(&sb);
	}
	strbuf_printf(&sb, "\n%s writes:\n\n", decliner);
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (nl > p)
			strbuf_puts(&sb, "  ");
		strbuf_add(&sb, p, (size_t)(nl - p));
		strbuf_puts(&sb, "\n");
		p = *nl != '\0' ? nl + 1 : nl;
	}
	return strbuf_finish(&sb);
}

/*
 * decline <board> <userid> <password>: a player removes a board before
 * their own first turn on it (the challenged player declines; the
 * challenger, not having moved either, withdraws), the other player told;
 * or the challenger withdraws an open challenge nobody took.  After the
 * decliner's first turn it is refused: resign is for that.
 */
enum process_status decline_run(struct job *j)
{
	struct game *g = &j->game;
	const char *userid = j->user.userid, *other;
	char subject[120], news[400], how[200], dims[GAME_DIMENSIONS_SIZE];
	char *comment = NULL, *mine = NULL, *theirs = NULL;
	struct reply_mail m[2];
	struct store_user u;
	enum store_status ss;
	enum process_status ps;
	enum mail_status rs = MAIL_OK;
	bool ok, open = game_is_open(g);
	int n = 0, i;

	memset(m, 0, sizeof m);
	if (game_color_of(g, userid) == RULES_EMPTY)
		return job_refuse(j, g, "%s is not playing on board %ld: only its challenged player can decline it",
		    userid, g->board);
	if (game_over(g))
		return job_refuse(j, g, "board %ld is over: there is nothing left to decline", g->board);
	other = open ? "" : strcmp(g->black, userid) == 0 ? g->white : g->black;
	if (!open && strcmp(other, userid) == 0)
		other = "";	/* a board against oneself: nobody else to tell */
	if (!open && !openboards_unanswered(g, userid))
		return job_refuse(j, g, "board %ld cannot be declined: %s has played on it already (turn %d is next); "
		    "to end it, send: resign %ld %s <password>", g->board, userid, g->rg.turn, g->board, userid);
	snprintf(subject, sizeof subject, "Oust Board %ld %s", g->board, open ? "withdrawn" : "declined");
	if (open) {
		snprintf(news, sizeof news, "%s withdrew the open challenge of board %ld: the board is removed.", userid,
		    g->board);
	} else {
		/* "hex side 7" is a name: never broken (reply.h) */
		for (i = 0, game_dimensions(g, false, dims); dims[i] != '\0'; i++)
			if (dims[i] == ' ')
				dims[i] = REPLY_GLUE;
		snprintf(news, sizeof news, "%s declined the challenge of %s on board %ld (%s, swap %s): the board is "
		    "removed.", userid, other, g->board, dims, g->swap ? "on" : "off");
	}
	snprintf(how, sizeof how, "To start another game, send:\n\n    challenge <userid> <password> <opponent> "
	    "[options]\n\nor, to anyone: challenge <userid> <password> *");
	/* the decliner's words go to the other player, as a turn's comment does */
	comment = command_comment(&j->cmd, j->in.body);
	if (comment != NULL) {
		mine = decline_comment(comment, userid, other, false);
		theirs = decline_comment(comment, userid, other, true);
	}
	if (comment == NULL || mine == NULL || theirs == NULL) {
		ps = job_no_memory(j);
		goto out;
	}
	{
		struct reply_var vars[] = { { "userid", userid }, { "news", news }, { "comment", mine }, { "how", how } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, userid) },
		    "decline", subject, REPLY_VARS(vars),
		    &m[n]);
		if (rs == MAIL_OK)
			n++;
		if (rs == MAIL_OK && other[0] != '\0' && !game_user_is_robot(other)) {
			ss = store_user_find(j->srv.st, other, &u);
			if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
				ps = job_store_failure(j, ss, "cannot read the users file");
				goto out;
			}
			if (ss == STORE_OK) {
				struct reply_var ovars[] = { { "userid", u.userid }, { "news", news }, { "comment", theirs },
				    { "how", how } };

				rs = reply_account(&j->srv.rc, &(struct reply_to){ u.address, u.fullname },
				    "decline", subject, REPLY_VARS(ovars), &m[n]);
				if (rs == MAIL_OK)
					n++;
			}
		}
	}
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ps = job_commit_removal(j, m, n, &ok);
	if (ps == PROCESS_OK && ok)
		job_detail(j, "ok", open ? "board %ld: %s withdrew the open challenge; the board is removed" :
		    "board %ld: %s declined the challenge; the board is removed", g->board, userid);
out:
	for (i = 0; i < 2; i++)
		reply_mail_release(&m[i]);
	free(comment);
	free(mine);
	free(theirs);
	return ps;
}
