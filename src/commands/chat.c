/*
 * chat: the mail command that passes a player's text to the opponent on a
 * board, in the board's mail thread.  The board is read, not changed
 * (MAILCMD_BOARD without its lock: game files are replaced whole); who
 * reads it is decided where every board mail's readers are
 * (job_board_readers), so whoever gets the board's mails gets its chat.
 */
#include <stdlib.h>
#include <string.h>

#include "commands/job.h"
#include "commands/mailcmd.h"
#include "commands/robot.h"

/* What chat_to() needs besides the job. */
struct chat {
	const char *text;
	int sent;
	char names[JOB_MESSAGE_MAX];	/* who got it, for the sender and the log */
};

static enum process_status chat_to(struct job *j, const struct reply_player *p, void *arg)
{
	struct chat *c = arg;
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	size_t used = strlen(c->names);

	rs = reply_chat(&j->rc, &j->game, j->user.userid, c->text, p, &m);
	if (rs != REPLY_OK)
		return job_reply_failure(j, rs);
	ps = job_reply(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK) {
		snprintf(c->names + used, sizeof c->names - used, "%s%s", c->sent > 0 ? ", " : "", p->userid);
		c->sent++;
	}
	return ps;
}

enum process_status chat_run(struct job *j)
{
	const struct game *g = &j->game;
	const char *userid = j->user.userid;
	struct chat c = { NULL, 0, "" };
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	char *text;

	if (game_color_of(g, userid) == RULES_EMPTY)
		return job_refuse(j, g, "%s is not playing on board %ld: only its players chat on it", userid,
		    g->board);
	if (robot_is(strcmp(g->black, userid) == 0 ? g->white : g->black))
		return job_refuse(j, g, "your opponent on board %ld is %s, which reads no mail: there is nobody "
		    "to chat with", g->board, ROBOT_USERID);
	/* the mail's own words, cut as a move's comment is (command.h) */
	text = command_comment(&j->cmd, j->in.body);
	if (text == NULL)
		return job_no_memory(j);
	if (text[0] == '\0') {
		free(text);
		return job_refuse(j, g, "there is no text to pass on: write it below the command line (quoted "
		    "mail and the signature are left out)");
	}
	c.text = text;
	ps = job_board_readers(j, g, userid, chat_to, &c);
	if (ps != PROCESS_OK)
		goto out;
	if (c.sent == 0) {
		ps = job_refuse(j, g, "nobody else reads the mail of board %ld (its other player has no account)",
		    g->board);
		goto out;
	}
	/* the sender's copy: what went, and to whom */
	rs = reply_chat_sent(&j->rc, j->in.from_addr, job_sender_name(j, userid), g, c.names, text, &m);
	if (rs != REPLY_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	ps = job_reply(j, &m);
	reply_mail_release(&m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "chat of %zu bytes to %s", strlen(text), c.names);
out:
	free(text);
	return ps;
}
