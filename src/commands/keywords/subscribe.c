/*
 * subscribe: the mail commands of observers, who follow boards they do not
 * play.  subscribe and unsubscribe a board (its game file's observers:),
 * or every board ("all", the watchers file, store/audience.h, an account
 * change: accounts.lock, job_commit_account); notify on|off, the mail
 * that ends each board given (its game file's notify:) or every board (the
 * watchers file's "results").  Who then gets a board's mail is
 * audience_of_board()'s to say; observers get a read-only view of it
 * (reply_game).  A board's list is changed under its lock and committed by
 * the game file's protocol (job_commit_quiet, job_commit_board: only the
 * observer is told).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/audience.h"

/* The confirmation to the observer (templates/observe.txt): news, then how to undo it. */
static enum process_status confirm(struct job *j, const char *subject, const char *news, const char *how,
    struct reply_mail *m)
{
	struct reply_var vars[] = { { "userid", j->user.userid }, { "news", news }, { "how", how } };
	enum reply_status rs;

	rs = reply_account(&j->srv.rc, j->in.from_addr, job_sender_name(j, j->user.userid), "observe", subject, REPLY_VARS(vars),
	    m);
	return rs == REPLY_OK ? PROCESS_OK : job_reply_failure(j, rs);
}

/* Refuse what no observer may do on g: a board over (adding), one userid plays. */
static bool refused_board(struct job *j, const struct game *g, bool adding, const char *what,
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
static enum process_status commit_change(struct job *j, const char *subject, const char *news, const char *how,
    const char *detail)
{
	struct reply_mail m;
	enum process_status ps;
	bool done;

	memset(&m, 0, sizeof m);
	ps = confirm(j, subject, news, how, &m);
	if (ps == PROCESS_OK)
		ps = job_commit_quiet(j, &m, 1, &done);
	if (ps == PROCESS_OK && done)
		job_detail(j, "ok", "board %ld: %s", j->game.board, detail);
	reply_mail_release(&m);
	return ps;
}

/* subscribe <board> <userid> <password>: every mail of the board, as a read-only view. */
enum process_status subscribe_run(struct job *j)
{
	struct game *g = &j->game;
	const char *userid = j->user.userid;
	char subject[120], news[400], how[200], detail[120];
	enum process_status ps;
	int i;

	if (refused_board(j, g, true, "observe", &ps))
		return ps;
	i = game_observer_find(g, userid);
	if (i >= 0 && !g->observers[i].results)
		return job_refuse(j, g, "%s observes board %ld already", userid, g->board);
	if (i >= 0) {
		g->observers[i].results = false;	/* from the result alone to every mail */
	} else if (!game_observer_add(g, userid, false)) {
		return job_refuse(j, g, "board %ld has %d observers already, the most a board has", g->board,
		    GAME_OBSERVERS_MAX);
	}
	snprintf(subject, sizeof subject, "Oust Board %ld subscribed", g->board);
	snprintf(news, sizeof news, "%s now observes board %ld (%s against %s): every mail of the board comes to "
	    "you too, as a read-only view, from the next turn on.", userid, g->board, g->black, g->white);
	snprintf(how, sizeof how, "To stop, send:\n\n    unsubscribe %ld %s <password>", g->board, userid);
	snprintf(detail, sizeof detail, "%s subscribed", userid);
	return commit_change(j, subject, news, how, detail);
}

/* unsubscribe <board> <userid> <password>. */
enum process_status subscribe_unsubscribe_run(struct job *j)
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
	return commit_change(j, subject, news, how, detail);
}

/*
 * notify <userid> <password> on|off <board>...: the mail that ends each
 * board given.  The boards' locks are taken in ascending order (so two
 * such mails never deadlock, each holding a lock the other waits for),
 * each board read and checked; one
 * refused refuses the command, nothing changed.  Then the boards that
 * change are written in ascending order, the highest with the
 * confirmation and the record of the mail (job_commit_board): its write
 * is the command's commit point.  A crash before it leaves some boards
 * written and no confirmation; the redelivered mail finds them as asked,
 * writes the rest and confirms the whole, which the reply says as it
 * stands: each board named is then as asked.  A board already as asked is
 * left as it is; every one of them so is refused ("already"), as before.
 */
struct notify_board {
	long board;
	struct store_lock lock;
	struct game g;
	bool loaded;
	bool change;
	int at;			/* its observer entry, or -1 */
};

static int by_board(const void *a, const void *b)
{
	const struct notify_board *x = a, *y = b;

	return (x->board > y->board) - (x->board < y->board);
}

/* The boards of the command, as given: "101", "101 and 102", "101, 102 and 103", into sb. */
static void board_list(struct strbuf *sb, const struct job *j)
{
	size_t i, n = j->cmd.nboards;

	for (i = 0; i < n; i++)
		strbuf_printf(sb, "%s%ld", i == 0 ? "" : i + 1 == n ? " and " : ", ", j->cmd.boards[i]);
}

/* The board b of nb[0..n). */
static struct notify_board *find_board(struct notify_board *nb, size_t n, long b)
{
	size_t i;

	for (i = 0; i < n && nb[i].board != b; i++)
		;
	return i < n ? &nb[i] : NULL;
}

/* Refuse what notify on|off may not do on board g; false when it may. */
static bool notify_refused(struct job *j, struct notify_board *b, bool on, enum process_status *ps)
{
	struct game *g = &b->g;
	const char *userid = j->user.userid;

	if (refused_board(j, g, on, "be told of", ps))
		return true;
	b->at = game_observer_find(g, userid);
	if (b->at >= 0 && !g->observers[b->at].results) {
		*ps = on ? job_refuse(j, g, "%s gets the every mail, the result with them, of board %ld already", userid,
		    g->board) : job_refuse(j, g, "%s has not asked for the result of board %ld (it observes the board: "
		    "unsubscribe stops that)", userid, g->board);
		return true;
	}
	b->change = on ? b->at < 0 : b->at >= 0;
	if (on && b->change && g->nobservers >= GAME_OBSERVERS_MAX) {
		*ps = job_refuse(j, g, "board %ld has %d observers already, the most a board has", g->board,
		    GAME_OBSERVERS_MAX);
		return true;
	}
	return false;
}

/* The confirmation of the boards nb[0..n) (in the order given), into m. */
static enum process_status notify_confirm(struct job *j, struct notify_board *nb, size_t n, bool on,
    struct reply_mail *m)
{
	struct strbuf subject = STRBUF_INIT, news = STRBUF_INIT, how = STRBUF_INIT;
	const char *userid = j->user.userid;
	struct notify_board *b;
	enum process_status ps;
	char *s = NULL, *w = NULL, *h = NULL;
	size_t i;

	strbuf_printf(&subject, "Oust Board%s ", n == 1 ? "" : "s");
	board_list(&subject, j);
	strbuf_printf(&subject, " notify %s", on ? "on" : "off");
	if (on) {
		strbuf_printf(&news, "%s will get the mail that ends board%s ", userid, n == 1 ? "" : "s");
		for (i = 0; i < n; i++) {
			b = find_board(nb, n, j->cmd.boards[i]);
			strbuf_printf(&news, "%s%ld (%s against %s)", i == 0 ? "" : i + 1 == n ? " and " : ", ",
			    b->board, b->g.black, b->g.white);
		}
		strbuf_puts(&news, ", with the result and the whole game.");
		strbuf_printf(&how, "To stop, send:\n\n    notify %s <password> off ", userid);
	} else {
		strbuf_printf(&news, "%s will no longer get the result of board%s ", userid, n == 1 ? "" : "s");
		board_list(&news, j);
		strbuf_puts(&news, ".");
		strbuf_printf(&how, "To ask for %s again, send:\n\n    notify %s <password> on ", n == 1 ? "it" : "them",
		    userid);
	}
	for (i = 0; i < n; i++)
		strbuf_printf(&how, "%s%ld", i == 0 ? "" : " ", j->cmd.boards[i]);
	s = strbuf_finish(&subject);
	w = strbuf_finish(&news);
	h = strbuf_finish(&how);
	ps = s != NULL && w != NULL && h != NULL ? confirm(j, s, w, h, m) : job_no_memory(j);
	free(s);
	free(w);
	free(h);
	return ps;
}

static enum process_status notify_boards(struct job *j, bool on)
{
	const char *userid;
	struct notify_board *nb, *b, *last = NULL;
	struct strbuf sb = STRBUF_INIT;
	struct reply_mail m;
	enum process_status ps = PROCESS_OK;
	size_t n = j->cmd.nboards, i, nchange = 0;
	bool ok, found, dup, done;
	char *list;

	memset(&m, 0, sizeof m);
	ps = job_authenticate(j, j->cmd.userid, j->cmd.password, &j->user, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	userid = j->user.userid;
	/* no account is written: the boards' own locks order it */
	store_unlock(&j->accounts_lock);
	nb = calloc(n, sizeof *nb);
	if (nb == NULL)
		return job_no_memory(j);
	for (i = 0; i < n; i++) {
		nb[i].board = j->cmd.boards[i];
		nb[i].lock = (struct store_lock)STORE_LOCK_INIT;
	}
	/* the locks in ascending order, as every mail of several boards takes them: no deadlock */
	qsort(nb, n, sizeof *nb, by_board);
	for (i = 0; i < n; i++) {
		j->board = nb[i].board;	/* the board a refusal is about: its Subject, the log */
		ps = job_load_board(j, nb[i].board, &nb[i].lock, &nb[i].g, &found);
		if (ps != PROCESS_OK || !found)
			goto out;
		nb[i].loaded = true;
	}
	/* under the boards' locks: a copy committed meanwhile is seen here (seen.h) */
	ps = job_check_duplicate(j, &dup);
	if (ps != PROCESS_OK)
		goto out;
	/* checked in the order given, so the refusal names the first culprit as written */
	for (i = 0; i < n; i++) {
		b = find_board(nb, n, j->cmd.boards[i]);
		j->board = b->board;
		if (notify_refused(j, b, on, &ps))
			goto out;
	}
	for (i = 0; i < n; i++)
		if (nb[i].change) {
			nchange++;
			last = &nb[i];
		}
	if (nchange == 0) {
		j->board = j->cmd.boards[0];
		board_list(&sb, j);
		list = strbuf_finish(&sb);
		if (list == NULL) {
			ps = job_no_memory(j);
			goto out;
		}
		ps = on ? job_refuse(j, n == 1 ? &nb[0].g : NULL, "%s gets the result of board%s %s already", userid,
		    n == 1 ? "" : "s", list) : job_refuse(j, n == 1 ? &nb[0].g : NULL, "%s has not asked for the result "
		    "of board%s %s", userid, n == 1 ? "" : "s", list);
		free(list);
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!nb[i].change)
			continue;
		if (on && !game_observer_add(&nb[i].g, userid, true)) {
			ps = job_refuse(j, &nb[i].g, "board %ld has %d observers already, the most a board has",
			    nb[i].board, GAME_OBSERVERS_MAX);
			goto out;
		}
		if (!on)
			game_observer_remove(&nb[i].g, nb[i].at);
	}
	ps = notify_confirm(j, nb, n, on, &m);
	if (ps != PROCESS_OK)
		goto out;
	/* ascending, the highest last: its commit carries the confirmation and the record */
	for (i = 0; i < n; i++) {
		if (!nb[i].change)
			continue;
		done = false;
		ps = job_commit_board(j, &nb[i].g, &m, &nb[i] == last ? 1 : 0, &nb[i] == last, &done);
		if (ps != PROCESS_OK || !done)
			goto out;
	}
	j->board = last->board;
	board_list(&sb, j);
	list = strbuf_finish(&sb);
	job_detail(j, "ok", "board%s %s: notify %s for %s", n == 1 ? "" : "s", list != NULL ? list : "?",
	    on ? "on" : "off", userid);
	if (nchange < n)
		job_detail_add(j, " (%zu of them as asked already)", n - nchange);
	free(list);
out:
	reply_mail_release(&m);
	for (i = 0; i < n; i++) {
		if (nb[i].loaded)
			game_release(&nb[i].g);
		store_unlock(&nb[i].lock);
	}
	free(nb);
	return ps;
}

/*
 * The watchers file (every board): subscribe/unsubscribe ... all, notify
 * on|off.  An account change (accounts.lock held: MAILCMD_ACCOUNTS): the
 * confirmation staged with the token of the mail's stamp, the file
 * rewritten with the change and the stamp (the commit point), the
 * confirmation released (job_commit_account).  A copy of a mail whose
 * change was written finds its stamp there and is dropped: its
 * confirmation, released by the recovery, is the one answer.
 */
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

static enum process_status watch_every_board(struct job *j, enum audience_watch kind, bool on)
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
	ps = confirm(j, subject, news, how, &m);
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

/* subscribe <userid> <password> all, unsubscribe <userid> <password> all. */
enum process_status subscribe_all_run(struct job *j)
{
	return watch_every_board(j, AUDIENCE_ALL, command_is(&j->cmd, "subscribe"));
}

/* notify <userid> <password> on|off [board...]: every board (the watchers file), or those given. */
enum process_status subscribe_notify_run(struct job *j)
{
	bool on = strcmp(j->cmd.word, "on") == 0;

	if (j->cmd.nboards == 0)
		return watch_every_board(j, AUDIENCE_RESULTS, on);
	return notify_boards(j, on);
}
