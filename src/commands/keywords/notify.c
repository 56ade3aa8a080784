/*
 * notify: the mail that ends a board, for an observer who wants only the
 * result: of each board given (its game file's notify:) or of every board
 * (the watchers file's "results", as subscribe.c's "all").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/lib/watching.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "store/audience.h"

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

	if (watching_refused_board(j, g, on, "be told of", ps))
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
	ps = s != NULL && w != NULL && h != NULL ? watching_confirm(j, s, w, h, m) : job_no_memory(j);
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

/* notify <userid> <password> on|off [board...]: every board (the watchers file), or those given. */
enum process_status notify_run(struct job *j)
{
	bool on = strcmp(j->cmd.word, "on") == 0;

	if (j->cmd.nboards == 0)
		return watching_every_board(j, AUDIENCE_RESULTS, on);
	return notify_boards(j, on);
}
