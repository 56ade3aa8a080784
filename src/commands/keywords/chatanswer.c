/*
 * chatanswer: the answer to a reply to a chat mail that holds no command
 * (COMMAND_CHAT_ANSWER, mailfind.h): a player pressed Reply on "Oust
 * Board 101 chat from bob" and wrote "Sure, next week".  Nothing is sent
 * on; the reply gives the chat command to send, the player's text below
 * it, ready to copy.  Not a row of the table: the parser finds no keyword.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

/*
 * The user id to put in the command: the reader the chat mail was sent to
 * (its Message-ID), else the player of g bound to the sender's address,
 * else the sender's one account, else "<userid>".
 */
static const char *answer_userid(struct job *j, const struct game *g, char *buf, size_t size)
{
	const char *players[2] = { g->black, g->white };
	char ids[2][IDENT_USERID_MAX + 1];
	struct store_user u;
	size_t n = 0;
	int i;

	if (j->found.answered.kind == MAILFIND_CHAT && j->found.answered.board == g->board)
		return j->found.answered.userid;
	for (i = 0; i < 2; i++)
		if (players[i][0] != '\0' && store_user_find(j->srv.st, players[i], &u) == STORE_OK &&
		    strcasecmp(u.address, j->in.from_addr) == 0)
			return players[i];
	if (store_user_ids_of(j->srv.st, j->in.from_addr, ids, 2, &n) == STORE_OK && n == 1) {
		snprintf(buf, size, "%s", ids[0]);
		return buf;
	}
	return "<userid>";
}

enum process_status chatanswer_run(struct job *j)
{
	char idbuf[IDENT_USERID_MAX + 1];
	const char *userid;
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char *text;
	bool found;

	j->board = j->cmd.board;
	ps = job_load_readonly(j, j->cmd.board, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	userid = answer_userid(j, &j->game, idbuf, sizeof idbuf);
	if (userid[0] != '<' && strcmp(userid, j->game.black) != 0 && strcmp(userid, j->game.white) != 0)
		/* an observer answering: the chat command would be refused */
		return job_refuse(j, &j->game, "your answer to the chat on board %ld was not sent: it holds no command, "
		    "and only the players of board %ld chat on it", j->game.board, j->game.board);
	/* the sender's own text: quoted mail, signature and lines holding a password cut */
	text = command_comment(&j->cmd, j->in.body);
	if (text == NULL)
		return job_no_memory(j);
	rs = reply_chat_answer(&j->srv.rc,
	    &(struct reply_to){ j->in.from_addr, job_sender_name(j, userid[0] != '<' ? userid : "") },
	    &j->game, userid, text, &m);
	free(text);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "refused", "an answer to a chat holds no command: told to send chat %ld %s <password>",
		    j->game.board, userid);
	return ps;
}
