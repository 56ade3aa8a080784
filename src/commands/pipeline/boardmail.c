/* boardmail: the mails of one change of a board.  See boardmail.h. */
#include "commands/pipeline/boardmail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "commands/pipeline/boardquiet.h"
#include "commands/pipeline/replytoken.h"
#include "commands/pipeline/robotremote.h"
#include "store/clockstops.h"
#include "store/settings.h"
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

/* A reader's time zone (reply.h's zone_of): their setting, UTC if it cannot be read. */
static void zone_of(void *ctx, const char *userid, char *zone, size_t size)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;

	if (settings_find(ctx, userid, &s, err) == STORE_OK)
		snprintf(zone, size, "%s", s.timezone);
}

/* The clocks of g as the mails show them (reply_set_clock): as of now, the stops counted out. */
static enum store_status set_clock(struct server *srv, const struct game *g)
{
	struct reply_clock c = { .on = g->clock_base != 0, .zone_of = zone_of, .zone_ctx = srv->st };
	struct clockstops stops;
	enum store_status ss;
	int64_t ran = 0, now = (int64_t)srv->rc.now;

	reply_set_clock(&srv->rc, NULL);
	if (!c.on)
		return STORE_OK;
	ss = clockstops_ran(srv->st, g, now, &stops, &ran);
	if (ss != STORE_OK)
		return ss;
	c.left[0] = gameclock_left(g, RULES_BLACK, ran);
	c.left[1] = gameclock_left(g, RULES_WHITE, ran);
	if (!game_over(g) && !game_is_open(g))
		c.runs_out = clockstops_runs_out(&stops, now, c.left[g->rg.to_move == RULES_WHITE ? 1 : 0]);
	reply_set_clock(&srv->rc, &c);
	return STORE_OK;
}

enum store_status boardmail_set_away(struct server *srv, const struct game *g)
{
	struct reply_ctx *rc = &srv->rc;
	const char *who = game_over(g) || game_is_open(g) ? NULL : game_player_to_move(g);
	struct vacation v;
	struct reply_away a = { .stopped = 0 };
	enum store_status ss;

	reply_set_away(rc, NULL);
	ss = set_clock(srv, g);
	if (ss != STORE_OK)
		return ss;
	if (who == NULL)
		return STORE_OK;
	ss = vacations_find(srv->st, who, &v);
	if (ss == STORE_OK) {
		snprintf(a.userid, sizeof a.userid, "%s", v.userid);
		const struct vacation_absence *now_or_last = vacation_current(&v, (int64_t)rc->now);

		a.start = now_or_last != NULL ? now_or_last->from : 0;
		a.end = now_or_last != NULL ? now_or_last->to : 0;
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

bool boardmail_status_temporary(enum process_status s)
{
	return s == PROCESS_TEMPFAIL || s == PROCESS_NOMEM;
}

bool boardmail_status_store(enum process_status s)
{
	return s == PROCESS_TEMPFAIL || s == PROCESS_FULL || s == PROCESS_IOERR;
}

static enum process_status of_store(enum store_status ss)
{
	return ss == STORE_OK ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL :
	    ss == STORE_TOO_BIG ? PROCESS_FULL : PROCESS_IOERR;
}

static enum process_status of_reply(enum mail_status rs)
{
	return rs == MAIL_OK ? PROCESS_OK : rs == MAIL_NOMEM ? PROCESS_NOMEM :
	    rs == MAIL_TEMPLATE ? PROCESS_CONFIG : PROCESS_SOFTWARE;
}

enum process_status boardmail_make(struct server *srv, const struct game *g, const struct reply_event *ev,
    const char *except, struct reply_mail **mails, int *n)
{
	struct store *st = srv->st;
	struct reply_ctx *rc = &srv->rc;
	struct audience_member *who = NULL;
	enum process_status result = PROCESS_OK;
	struct reply_player p;
	char token[TOKEN_TEXT_SIZE];
	size_t count = 0, i;
	bool robot = robotremote_wants(rc->cfg, g, ev);

	*mails = NULL;
	*n = 0;
	result = of_store(boardmail_set_away(srv, g));
	if (result != PROCESS_OK)
		return result;
	result = of_store(audience_of_board(st, g, game_over(g), &who, &count));
	if (result != PROCESS_OK)
		return result;
	if (count + robot > 0) {
		*mails = calloc(count + robot, sizeof **mails);
		if (*mails == NULL) {
			result = PROCESS_NOMEM;
			goto out;
		}
	}
	for (i = 0; i < count; i++) {
		if (except != NULL && strcasecmp(who[i].user.userid, except) == 0)
			continue;
		/* a queued answer's owner, a player whose digest lists the board (boardquiet.h) */
		if (boardquiet_skip(st, g, ev, &who[i]))
			continue;
		boardmail_player(st, g, &who[i], &p, token);
		result = of_reply(reply_game(rc, g, ev, &p, &(*mails)[*n]));
		if (result != PROCESS_OK)
			break;
		(*n)++;
	}
	/* the robot on another host: its board mail with the game record (robotremote.h) */
	if (result == PROCESS_OK && robot) {
		result = of_reply(robotremote_mail(st, rc, g, &(*mails)[*n]));
		if (result == PROCESS_OK)
			(*n)++;
	}
out:
	if (result != PROCESS_OK) {
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
