/* watching: what the observers' commands share.  See watching.h. */
#include "commands/lib/watching.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "store/audience.h"

/* The confirmation to the observer (templates/observe.txt): news, then how to undo it. */
enum process_status watching_confirm(struct job *j, const char *subject, const char *news, const char *how,
    struct reply_mail *m)
{
	struct reply_var vars[] = { { "userid", j->user.userid }, { "news", news }, { "how", how } };
	enum mail_status rs;

	rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, j->user.userid) },
	    "observe", subject, REPLY_VARS(vars),
	    m);
	return rs == MAIL_OK ? PROCESS_OK : job_reply_failure(j, rs);
}

/* Refuse what no observer may do on g: a board over (adding), one userid plays. */
bool watching_refused_board(struct job *j, const struct game *g, bool adding, const char *what,
    enum process_status *ps)
{
	const char *userid = j->user.userid;

	if (adding && game_over(g)) {
		*ps = job_refuse(j, g, "board %ld is over: there is nothing left to %s", g->board, what);
		return true;
	}
	if (game_color_of(g, userid) != RULES_EMPTY) {
		*ps = job_refuse(j, g, "%s plays on board %ld: a player gets every mail of the board already", userid,
		    g->board);
		return true;
	}
	return false;
}

/* Commit j->game with the observer's confirmation; the log line says what. */
enum process_status watching_commit_change(struct job *j, const char *subject, const char *news, const char *how,
    const char *detail)
{
	struct reply_mail m;
	enum process_status ps;
	bool done;

	memset(&m, 0, sizeof m);
	ps = watching_confirm(j, subject, news, how, &m);
	if (ps == PROCESS_OK)
		ps = job_commit_quiet(j, &m, 1, &done);
	if (ps == PROCESS_OK && done)
		job_detail(j, "ok", "board %ld: %s", j->game.board, detail);
	reply_mail_release(&m);
	return ps;
}

struct watch_change {
	enum audience_watch kind;
	bool on;
	char stamp[AUDIENCE_STAMP_LEN + 1];
};

static enum store_status write_watch(struct job *j, const char *token, const char *expect, const void *arg)
{
	const struct watch_change *w = arg;
	enum store_status ss;
	bool changed;

	ss = audience_watch(j->srv.st, j->srv.cfg.lock_timeout_ms, j->user.userid, w->kind, w->on, w->stamp, &changed);
	if (ss == STORE_OK && !changed)
		ss = STORE_CHANGED;	/* not under accounts.lock: an admin's edit; the next try looks again */
	return ss;
}

enum process_status watching_every_board(struct job *j, enum audience_watch kind, bool on)
{
	const char *userid;
	char subject[120], news[300], how[200], token[AUDIENCE_TOKEN_MAX + 1], last[AUDIENCE_STAMP_LEN + 1];
	struct watch_change w;
	struct reply_mail m;
	enum store_status ss;
	enum process_status ps;
	bool ok, yes, found, all = kind == AUDIENCE_ALL;

	memset(&m, 0, sizeof m);
	ps = job_authenticate(j, j->cmd.userid, j->cmd.password, &j->user, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	userid = j->user.userid;
	w.kind = kind;
	w.on = on;
	audience_stamp(j->in.message_key, j->in.from_addr, (int64_t)j->srv.now, w.stamp);
	ss = audience_watching(j->srv.st, userid, kind, &yes);
	if (ss == STORE_OK && yes == on)
		ss = audience_last(j->srv.st, userid, last, &found);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the watchers file");
	if (yes == on && found && strcmp(last, w.stamp) == 0)
		return job_account_copy(j, all ? (on ? "subscribe all" : "unsubscribe all") :
		    (on ? "notify on" : "notify off"));
	if (yes == on && all)
		return job_refuse(j, NULL, on ? "%s observes every board already" : "%s does not observe every board "
		    "(unsubscribe <board> <userid> <password> stops one board)", userid);
	if (yes == on)
		return job_refuse(j, NULL, on ? "%s gets the result of every board already" : "%s does not get the "
		    "result of every board (notify <userid> <password> off <board> stops one board)", userid);
	if (all) {
		snprintf(subject, sizeof subject, "Oust %s all", on ? "subscribe" : "unsubscribe");
		snprintf(news, sizeof news, on ? "%s now observes every board, the boards started later too: every "
		    "board mail comes to you as a read-only view." : "%s no longer observes every board (the boards "
		    "you subscribed to one by one stay).", userid);
		snprintf(how, sizeof how, on ? "To stop, send:\n\n    unsubscribe %s <password> all" :
		    "To observe every board again, send:\n\n    subscribe %s <password> all", userid);
	} else {
		snprintf(subject, sizeof subject, "Oust notify %s", on ? "on" : "off");
		snprintf(news, sizeof news, on ? "%s will get the mail that ends every board, the boards started "
		    "later too, with the result and the whole game." : "%s will no longer get the result of every "
		    "board (the boards you asked for one by one stay).", userid);
		snprintf(how, sizeof how, on ? "To stop, send:\n\n    notify %s <password> off" :
		    "To ask for them again, send:\n\n    notify %s <password> on", userid);
	}
	ps = watching_confirm(j, subject, news, how, &m);
	if (ps != PROCESS_OK)
		goto out;
	audience_token(w.stamp, token);
	ps = job_commit_account_checked(j, &(struct job_account_change){ userid, token, j->user.hash, write_watch, &w },
	    &m, 1, "cannot write the watchers file", &ok);
	if (ps != PROCESS_OK || !ok)
		goto out;
	job_detail(j, "ok", "%s %s every board", userid, all ? (on ? "observes" : "no longer observes") :
	    (on ? "gets the result of" : "no longer gets the result of"));
out:
	reply_mail_release(&m);
	return ps;
}
