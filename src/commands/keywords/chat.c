/*
 * chat: the mail command that passes a player's text to the other readers
 * of a board, in the board's mail thread.  Who reads it is decided where
 * every board mail's readers are (job_board_readers), so whoever gets the
 * board's mails gets its chat.
 *
 * A chat is committed as any change of a board is (outbox.h), under the
 * board's lock (MAILCMD_LOCK): its note in the history (game.h: who and
 * when, not the text) is the change, and its mails are released if and
 * only if the game file holding the note was written.  So a crash anywhere
 * and a copy of the mail delivered again, or at the same instant, pass the
 * text on once, and a wrong password found late passes on nothing.
 *
 * Bounded (issue 31: a player's words are the one thing an attacker wants
 * to fan out): the opponent and at most max_chat_audience observers get
 * it (the others only the board mails they asked for); an account sends at
 * most max_chats_per_hour chats (throttle.h) and a board carries as many
 * (its history's notes); and no chat causes more than max_mails_per_mail
 * mails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/pipeline/replytoken.h"
#include "commands/services/robot.h"
#include "store/throttle.h"

/* What chat_to() needs besides the job. */
struct chat {
	const char *text;
	struct reply_mail *mails;	/* to each reader, then the sender's copy; owned */
	int n, alloc;
	unsigned long observers, left_out;	/* observers reached, and past max_chat_audience */
	unsigned long audience;	/* max_chat_audience, 0 for none */
	char names[JOB_MESSAGE_MAX];	/* who gets it, for the sender and the log */
};

/* Room for one more mail in c (the readers are not counted in advance). */
static bool chat_room(struct chat *c)
{
	struct reply_mail *p;
	int cap;

	if (c->n < c->alloc)
		return true;
	cap = c->alloc > 0 ? 2 * c->alloc : 4;
	p = realloc(c->mails, (size_t)cap * sizeof *p);
	if (p == NULL)
		return false;
	c->mails = p;
	c->alloc = cap;
	return true;
}

/* Make the chat's mail to reader p (not queued: the commit stages it with the note). */
static enum process_status chat_to(struct job *j, const struct reply_player *p, void *arg)
{
	struct chat *c = arg;
	enum mail_status rs;
	size_t used = strlen(c->names);

	if (p->role != REPLY_ROLE_PLAYER) {
		if (c->audience > 0 && c->observers >= c->audience) {
			c->left_out++;
			return PROCESS_OK;
		}
		c->observers++;
	}
	if (!chat_room(c))
		return job_no_memory(j);
	rs = reply_chat(&j->srv.rc, &j->game, j->user.userid, c->text, p, &c->mails[c->n]);
	if (rs != MAIL_OK)
		return job_reply_failure(j, rs);
	snprintf(c->names + used, sizeof c->names - used, "%s%s", c->n > 0 ? ", " : "", p->userid);
	c->n++;
	return PROCESS_OK;
}

/* max_chats_per_hour: refused (j->outcome set) past it, by the account or on the board. */
static enum process_status chat_rate(struct job *j, const struct game *g, const char *userid)
{
	unsigned long cap = j->srv.cfg.max_chats_per_hour, mine = 0, here = 0;
	enum store_status ss;
	int i;

	if (cap == 0)
		return PROCESS_OK;
	for (i = 0; i < g->nnotes; i++)
		if (g->notes[i].kind == GAME_NOTE_CHAT && g->notes[i].time > (int64_t)j->srv.now - THROTTLE_WINDOW)
			here++;
	if (here >= cap)
		return job_refuse(j, g, "board %ld has carried %lu chats in the last hour, the most it carries "
		    "(max_chats_per_hour = %lu): write again later", g->board, here, cap);
	ss = throttle_chats(j->srv.st, userid, j->srv.now, &mine);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the count of chats");
	if (mine >= cap)
		return job_refuse(j, g, "%s has sent %lu chats in the last hour, the most an account sends "
		    "(max_chats_per_hour = %lu): write again later", userid, mine, cap);
	return PROCESS_OK;
}

enum process_status chat_run(struct job *j)
{
	struct game *g = &j->game;
	const char *userid = j->user.userid;
	struct chat c = { .text = NULL };
	enum mail_status rs;
	enum process_status ps;
	char *text;
	bool done = false;
	int i;

	if (game_color_of(g, userid) == RULES_EMPTY)
		return job_refuse(j, g, "%s is not playing on board %ld: only its players chat on it", userid,
		    g->board);
	if (game_is_open(g))
		return job_refuse(j, g, "board %ld is an open challenge nobody has accepted yet: there is nobody to "
		    "chat with", g->board);
	if (game_user_is_robot(strcmp(g->black, userid) == 0 ? g->white : g->black))
		return job_refuse(j, g, "your opponent on board %ld is %s, which reads no mail: there is nobody "
		    "to chat with", g->board, GAME_ROBOT_USERID);
	/* the mail's own words, cut as a move's comment is (command.h) */
	text = replytoken_comment(&j->cmd, j->in.body);
	if (text == NULL)
		return job_no_memory(j);
	if (text[0] == '\0') {
		ps = job_refuse(j, g, "there is no text to pass on: write it below the command line (quoted "
		    "mail and the signature are left out)");
		goto out;
	}
	ps = chat_rate(j, g, userid);
	if (ps != PROCESS_OK || j->outcome != NULL)
		goto out;
	c.text = text;
	c.audience = j->srv.cfg.max_chat_audience;
	ps = job_board_readers(j, g, userid, chat_to, &c);
	if (ps != PROCESS_OK)
		goto out;
	if (c.n == 0) {
		ps = job_refuse(j, g, "nobody else reads the mail of board %ld (its other player has no account any more)",
		    g->board);
		goto out;
	}
	if (j->srv.cfg.max_mails_per_mail > 0 && (unsigned long)c.n + 1 > j->srv.cfg.max_mails_per_mail) {
		ps = job_refuse(j, g, "a chat on board %ld would make %d mails, more than one mail may cause "
		    "(max_mails_per_mail = %lu)", g->board, c.n + 1, j->srv.cfg.max_mails_per_mail);
		goto out;
	}
	/* the sender's copy: what went, and to whom */
	if (!chat_room(&c)) {
		ps = job_no_memory(j);
		goto out;
	}
	rs = reply_chat_sent(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, userid) },
	    g, c.names, text,
	    &c.mails[c.n]);
	if (rs != MAIL_OK) {
		ps = job_reply_failure(j, rs);
		goto out;
	}
	c.n++;
	/* the note in the history is the change the mails are committed with (a player, checked above) */
	switch (game_chat(g, userid, (int64_t)j->srv.now)) {
	case GAME_OK:
		break;
	case GAME_CHATS_FULL:
		ps = job_refuse(j, g, "board %ld has had %d chats, as many as its history keeps: no more can be "
		    "passed on", g->board, GAME_CHATS_MAX);
		goto out;
	default:
		ps = job_no_memory(j);
		goto out;
	}
	ps = job_commit_quiet(j, c.mails, c.n, &done);
	if (ps == PROCESS_OK && done) {
		job_detail(j, "ok", "chat of %zu bytes to %s", strlen(text), c.names);
		if (c.left_out > 0)
			job_detail_add(j, "; %lu observer%s past max_chat_audience left out", c.left_out,
			    c.left_out == 1 ? "" : "s");
		/* after the commit: a failure here loses one count, never the chat */
		if (j->srv.cfg.max_chats_per_hour > 0 &&
		    throttle_chat_made(j->srv.st, &j->srv.cfg, userid, g->board, j->srv.now) != STORE_OK)
			msg_warn("cannot record the chat of %s: %s", userid, store_error(j->srv.st));
	}
out:
	for (i = 0; i < c.n; i++)
		reply_mail_release(&c.mails[i]);
	free(c.mails);
	free(text);
	return ps;
}
