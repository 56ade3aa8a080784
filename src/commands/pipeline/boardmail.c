/* boardmail: the mails of one change of a board.  See boardmail.h. */
#include "commands/pipeline/boardmail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "commands/pipeline/replytoken.h"
#include "commands/pipeline/robotremote.h"
#include "store/tokens.h"
#include "store/vacations.h"

enum reply_role boardmail_role(enum audience_via via)
{
	switch (via) {
	case AUDIENCE_OBSERVER:
		return REPLY_ROLE_OBSERVER;
	case AUDIENCE_NOTIFY:
		return REPLY_ROLE_NOTIFY;
	case AUDIENCE_WATCH_ALL:
		return REPLY_ROLE_WATCH_ALL;
	case AUDIENCE_WATCH_RESULTS:
		return REPLY_ROLE_WATCH_RESULTS;
	case AUDIENCE_PLAYER:
		break;
	}
	return REPLY_ROLE_PLAYER;
}

enum store_status boardmail_set_away(struct server *srv, const struct game *g)
{
	struct reply_ctx *rc = &srv->rc;
	const char *who = game_over(g) || game_is_open(g) ? NULL : game_player_to_move(g);
	struct vacation v;
	struct reply_away a = { .stopped = 0 };
	enum store_status ss;

	reply_set_away(rc, NULL);
	if (who == NULL)
		return STORE_OK;
	ss = vacations_find(srv->st, who, &v);
	if (ss == STORE_OK) {
		snprintf(a.userid, sizeof a.userid, "%s", v.userid);
		a.start = v.start;
		a.end = v.end;
		a.now = vacation_away(&v, (int64_t)rc->now);
		a.stopped = vacation_stopped(&v, g->last_move, (int64_t)rc->now);
		reply_set_away(rc, &a);
	}
	return ss == STORE_NOT_FOUND ? STORE_OK : ss;
}

void boardmail_player(struct store *st, const struct game *g, const struct audience_member *m, struct reply_player *p,
    char token[TOKEN_TEXT_SIZE])
{
	char err[TOKENS_ERR_MAX];

	p->userid = m->user.userid;
	p->address = m->user.address;
	p->fullname = m->user.fullname;
	p->role = boardmail_role(m->via);
	p->token = NULL;
	/* the game's end too: its Subject stays the game's (reply_board.c) */
	if (p->role == REPLY_ROLE_PLAYER && !game_is_open(g)) {
		/* without its token (a file that cannot be read), the mail still goes: a password plays */
		if (replytoken_of(st, g->board, &m->user, token, err) != STORE_OK)
			msg_warn("no reply token for %s: %s", p->userid, err);
		p->token = token;
	}
}

enum boardmail_status boardmail_make(struct server *srv, const struct game *g, const struct reply_event *ev,
    const char *except, struct reply_mail **mails, int *n, enum store_status *ss, enum reply_status *rs)
{
	struct store *st = srv->st;
	struct reply_ctx *rc = &srv->rc;
	struct audience_member *who = NULL;
	enum boardmail_status result = BOARDMAIL_OK;
	struct reply_player p;
	char token[TOKEN_TEXT_SIZE];
	size_t count = 0, i;
	bool robot = robotremote_wants(rc->cfg, g, ev);

	*mails = NULL;
	*n = 0;
	*ss = boardmail_set_away(srv, g);
	if (*ss != STORE_OK)
		return BOARDMAIL_STORE;
	*ss = audience_of_board(st, g, game_over(g), &who, &count);
	if (*ss != STORE_OK)
		return BOARDMAIL_STORE;
	*rs = REPLY_OK;
	if (count + robot > 0) {
		*mails = calloc(count + robot, sizeof **mails);
		if (*mails == NULL) {
			*rs = REPLY_NOMEM;
			result = BOARDMAIL_REPLY;
			goto out;
		}
	}
	for (i = 0; i < count; i++) {
		if (except != NULL && strcasecmp(who[i].user.userid, except) == 0)
			continue;
		boardmail_player(st, g, &who[i], &p, token);
		*rs = reply_game(rc, g, ev, &p, &(*mails)[*n]);
		if (*rs != REPLY_OK) {
			result = BOARDMAIL_REPLY;
			break;
		}
		(*n)++;
	}
	/* the robot on another host: its board mail with the game record (robotremote.h) */
	if (result == BOARDMAIL_OK && robot) {
		*rs = robotremote_mail(st, rc, g, &(*mails)[*n]);
		if (*rs != REPLY_OK)
			result = BOARDMAIL_REPLY;
		else
			(*n)++;
	}
out:
	if (result != BOARDMAIL_OK) {
		boardmail_free(*mails, *n);
		*mails = NULL;
		*n = 0;
	}
	explicit_bzero(token, sizeof token);
	free(who);
	return result;
}

void boardmail_free(struct reply_mail *mails, int n)
{
	int i;

	for (i = 0; i < n; i++)
		reply_mail_release(&mails[i]);
	free(mails);
}
