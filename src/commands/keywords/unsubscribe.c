/*
 * unsubscribe <token>: the way out of an observer's mails that needs no
 * password, the Subject of their List-Unsubscribe mailto (RFC 2369;
 * mail/unsubtoken.h makes and checks the token).  Accepted from any
 * address, since the token is the authority; answered only to the
 * account's registered address, never to the sender, so a stranger holding
 * a token learns nothing and cannot make the server mail anyone else.  A
 * board's token drops the account from the board's observers (every mail,
 * or its result alone); "all" stops both kinds of the watchers file.  Done
 * already is done: the same confirmation again.  A bad token counts
 * against the account it names as a wrong password does (throttle.h).
 */
#include <stdio.h>
#include <string.h>

#include "base/msg.h"
#include "commands/lib/watching.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "mail/unsubtoken.h"
#include "store/audience.h"

/* The confirmation (templates/observe.txt) to the account's own address. */
static enum process_status confirm(struct job *j, const struct store_user *u, long board, const char *subject,
    const char *news, struct reply_mail *m)
{
	char how[300];
	struct reply_var vars[] = { { "userid", u->userid }, { "news", news }, { "how", how } };
	enum mail_status rs;

	if (board > 0)
		snprintf(how, sizeof how, "To observe it again, send:\n\n    subscribe %ld %s <password>", board,
		    u->userid);
	else
		snprintf(how, sizeof how, "To observe every board again, send:\n\n    subscribe %s <password> all",
		    u->userid);
	rs = reply_account(&j->srv.rc, &(struct reply_to){ u->address, job_sender_name(j, u->userid) },
	    "observe", subject, REPLY_VARS(vars), m);
	return rs == MAIL_OK ? PROCESS_OK : job_reply_failure(j, rs);
}

/* A board's token: the account off the board's observers. */
static enum process_status stop_board(struct job *j, const struct store_user *u, long board)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct reply_mail m;
	struct game g;
	enum process_status ps;
	char subject[120], news[300];
	bool found = false, dup, done = false;
	int i;

	memset(&m, 0, sizeof m);
	/* no account is written: the board's own lock orders it */
	store_unlock(&j->accounts_lock);
	j->board = board;
	ps = job_load_board(j, board, &lock, &g, &found);
	if (ps != PROCESS_OK || !found)
		goto out;
	ps = job_check_duplicate(j, &dup);
	if (ps != PROCESS_OK)
		goto out;
	i = game_observer_find(&g, u->userid);
	snprintf(subject, sizeof subject, "Oust Board %ld unsubscribed", board);
	if (i >= 0)
		snprintf(news, sizeof news, "%s no longer observes board %ld, as the unsubscribe token of its mails "
		    "asked: its mails stop.", u->userid, board);
	else
		snprintf(news, sizeof news, "%s does not observe board %ld (any more): no mail of it comes to you.",
		    u->userid, board);
	if (i >= 0)
		game_observer_remove(&g, i);
	ps = confirm(j, u, board, subject, news, &m);
	if (ps != PROCESS_OK)
		goto out;
	if (i < 0) {
		ps = job_reply(j, &m);
		if (ps == PROCESS_OK)
			job_detail(j, "ok", "board %ld: %s unsubscribed by token already", board, u->userid);
		goto out;
	}
	ps = job_commit_board(j, &g, &m, 1, true, &done);
	if (ps == PROCESS_OK && done)
		job_detail(j, "ok", "board %ld: %s unsubscribed by token", board, u->userid);
out:
	reply_mail_release(&m);
	if (found)
		game_release(&g);
	store_unlock(&lock);
	return ps;
}

struct stop_all {
	char stamp[AUDIENCE_STAMP_LEN + 1];
};

/* Both kinds of the watchers file off, the stamp with the last write. */
static enum store_status write_stop(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct stop_all *w = arg;
	enum store_status ss;
	bool a = false, b = false;

	ss = audience_watch(j->srv.st, j->srv.cfg.lock_timeout_ms, j->user.userid, AUDIENCE_RESULTS, false, NULL, &a);
	if (ss == STORE_OK)
		ss = audience_watch(j->srv.st, j->srv.cfg.lock_timeout_ms, j->user.userid, AUDIENCE_ALL, false, w->stamp, &b);
	if (ss == STORE_OK && !a && !b)
		ss = STORE_CHANGED;	/* not under accounts.lock: an admin's edit; the next try looks again */
	return ss;
}

/* The token of every board: the watchers file's subscribe all and notify on stopped. */
static enum process_status stop_all(struct job *j, const struct store_user *u)
{
	char token[AUDIENCE_TOKEN_MAX + 1], news[300];
	struct stop_all w;
	struct reply_mail m;
	enum store_status ss;
	enum process_status ps;
	bool all = false, results = false, ok;

	memset(&m, 0, sizeof m);
	j->user = *u;	/* write_stop's account */
	ss = audience_watching(j->srv.st, u->userid, AUDIENCE_ALL, &all);
	if (ss == STORE_OK)
		ss = audience_watching(j->srv.st, u->userid, AUDIENCE_RESULTS, &results);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the watchers file");
	if (all || results)
		snprintf(news, sizeof news, "%s no longer observes every board (nor gets the result of every board), "
		    "as the unsubscribe token of its mails asked (the boards subscribed one by one stay).", u->userid);
	else
		snprintf(news, sizeof news, "%s does not observe every board (any more): those mails do not come to "
		    "you.", u->userid);
	ps = confirm(j, u, 0, "Oust unsubscribe all", news, &m);
	if (ps != PROCESS_OK)
		goto out;
	if (!all && !results) {
		ps = job_reply(j, &m);
		if (ps == PROCESS_OK)
			job_detail(j, "ok", "%s unsubscribed from every board by token already", u->userid);
		goto out;
	}
	audience_stamp(j->in.message_key, j->in.from_addr, (int64_t)j->srv.now, w.stamp);
	audience_token(w.stamp, token);
	ps = job_commit_account_checked(j, &(struct job_account_change){ u->userid, token, u->hash, write_stop, &w },
	    &m, 1, "cannot write the watchers file", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	job_detail(j, "ok", "%s no longer observes every board (by token)", u->userid);
out:
	reply_mail_release(&m);
	return ps;
}

/* unsubscribe <token>. */
enum process_status unsubscribe_run(struct job *j)
{
	char userid[IDENT_USERID_MAX + 1];
	char why[JOB_MESSAGE_MAX];
	const char *dot = strchr(j->cmd.password, '.');
	enum mail_status ts;
	struct store_user u;
	enum store_status ss;
	long board = 0;

	ts = unsubtoken_check(j->srv.home, j->cmd.password, userid, sizeof userid, &board);
	if (ts == MAIL_NO_SECRET) {
		/* the admin's to fix (<home>/secret): the mail is kept and tried again */
		job_detail(j, "tempfail", "cannot read or make %s/secret", j->srv.home);
		msg_warn("cannot read or make %s/secret", j->srv.home);
		return PROCESS_TEMPFAIL;
	}
	if (ts != MAIL_OK) {
		/* the account the token claims, if any, counts the failure as a wrong password */
		snprintf(userid, sizeof userid, "%.*s", dot != NULL ? (int)(dot - j->cmd.password) : 0, j->cmd.password);
		if (userid[0] != '\0' && store_user_find(j->srv.st, userid, &u) == STORE_OK &&
		    !job_secret_verdict(j, &u, false, "unsubscribe token", why) && strstr(why, "refused") != NULL)
			return job_refuse(j, NULL, "%s", why);
		return job_refuse(j, NULL, "that is not an unsubscribe token of this server: send the Subject of "
		    "the List-Unsubscribe of one of its mails as it is, or unsubscribe with your password (see help)");
	}
	ss = store_user_find(j->srv.st, userid, &u);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "the account %s of that token is closed: it gets no mail", userid);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the users file");
	if (!job_secret_verdict(j, &u, true, "unsubscribe token", why))
		return job_refuse(j, NULL, "%s", why);
	return board > 0 ? stop_board(j, &u, board) : stop_all(j, &u);
}

/* unsubscribe <board> <userid> <password>. */
enum process_status unsubscribe_board_run(struct job *j)
{
	struct game *g = &j->game;
	const char *userid = j->user.userid;
	char subject[120], news[300], how[200], detail[120];
	int i;

	i = game_observer_find(g, userid);
	if (i < 0 || g->observers[i].results)
		return job_refuse(j, g, "%s is not subscribed to board %ld%s", userid, g->board,
		    i >= 0 ? " (only to its result: notify ... off stops that)" : "");
	game_observer_remove(g, i);
	snprintf(subject, sizeof subject, "Oust Board %ld unsubscribed", g->board);
	snprintf(news, sizeof news, "%s no longer observes board %ld: its mails stop.", userid, g->board);
	snprintf(how, sizeof how, "To observe it again, send:\n\n    subscribe %ld %s <password>", g->board, userid);
	snprintf(detail, sizeof detail, "%s unsubscribed", userid);
	return watching_commit_change(j, subject, news, how, detail);
}

/* unsubscribe <userid> <password> all. */
enum process_status unsubscribe_all_run(struct job *j)
{
	return watching_every_board(j, AUDIENCE_ALL, false);
}
