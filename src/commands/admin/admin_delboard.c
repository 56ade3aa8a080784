/*
 * admin_delboard_run: oustpbm delboard [--dry-run] BOARD, the one way to remove
 * a board.  Under the board's lock: its result marked for the ratings
 * (ratings.h: a marked board without a game file has no result, as
 * --rebuild would find), the game file removed, the active index told, the
 * ratings settled; then each player (the robot excepted) gets a mail
 * saying so, the web site is made again without the board's pages, and
 * the outbox is flushed.  --dry-run says all that and changes nothing.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/services/robot.h"
#include "commands/services/tournament.h"
#include "commands/services/web.h"
#include "game/gamefile.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/active.h"
#include "store/ratings.h"

/* The board's pages under the web site (board/<n>.html, board/<n>-<turn>.html): removed. */
static void remove_pages(const struct admin *a, long board)
{
	char dir[CONFIG_PATH_MAX * 2 + 16], path[CONFIG_PATH_MAX * 2 + 300], name[40];
	struct dirent *de;
	size_t n;
	DIR *d;

	if (a->srv.cfg.web_dir[0] == '/')
		snprintf(dir, sizeof dir, "%s/board", a->srv.cfg.web_dir);
	else
		snprintf(dir, sizeof dir, "%s/%s/board", a->srv.home, a->srv.cfg.web_dir);
	d = opendir(dir);
	if (d == NULL)
		return;
	n = (size_t)snprintf(name, sizeof name, "%ld", board);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, name, n) != 0 || (strcmp(de->d_name + n, ".html") != 0 && de->d_name[n] != '-'))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		(void)unlink(path);
	}
	closedir(d);
}

/* The players' mails, queued: the robot and an open seat get none. */
static enum process_status tell_players(struct admin *a, struct outbox *ob, const struct game *g, unsigned *told)
{
	const char *players[2] = { g->black, g->white };
	char board[24], subject[120];
	struct reply_mail m;
	struct reply_ctx rc;
	struct store_user u;
	enum process_status as = PROCESS_OK;
	int i;

	*told = 0;
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld removed", g->board);
	reply_init(&rc, &a->srv.cfg, a->srv.home, a->srv.now, NULL, NULL, NULL);
	(void)server_reply_key(&a->srv, &rc);	/* logged if it fails: the mails go without a mac */
	for (i = 0; i < 2 && as == PROCESS_OK; i++) {
		struct reply_var vars[] = { { "board", board }, { "black", g->black }, { "white", g->white },
			{ "userid", players[i] } };

		if (game_user_is_robot(players[i]) || (i == 1 && strcmp(g->white, g->black) == 0) ||
		    store_user_find(a->srv.st, players[i], &u) != STORE_OK)
			continue;
		if (reply_account(&rc, &(struct reply_to){ u.address, u.fullname },
		    "delboard", subject, vars, sizeof vars / sizeof vars[0],
		    &m) != MAIL_OK) {
			store_complain(a->srv.st, "delboard %ld: cannot make the mail to %s: %s", g->board, players[i], rc.err);
			as = PROCESS_CONFIG;
			break;
		}
		if (outbox_enqueue(ob, a->srv.cfg.from_address, m.rcpt, m.msg, m.len) != OUTBOX_OK) {
			store_complain(a->srv.st, "delboard %ld: cannot queue the mail to %s: %s", g->board, players[i],
			    outbox_error(ob));
			as = PROCESS_TEMPFAIL;
		} else {
			(*told)++;
		}
		reply_mail_release(&m);
	}
	reply_release(&rc);
	return as;
}

enum process_status admin_delboard_run(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct store_lock lock = STORE_LOCK_INIT;
	char err[RATINGS_ERR_MAX > OUTBOX_ERR_MAX ? RATINGS_ERR_MAX : OUTBOX_ERR_MAX], wer[WEB_ERR_MAX];
	struct outbox_stats fl;
	struct outbox *ob = NULL;
	struct web *w = NULL;
	enum store_status ss;
	enum process_status as;
	struct game g;
	bool dry = a->nargs == 2 && strcmp(a->args[0], "--dry-run") == 0, rated;
	unsigned told = 0;
	long board;

	memset(&g, 0, sizeof g);
	if (a->nargs != (dry ? 2 : 1))
		return admin_usage_error();
	if (!ident_board_parse(a->args[a->nargs - 1], strlen(a->args[a->nargs - 1]), &board)) {
		store_complain(a->srv.st, "'%s' is not a board number (%d to %d)", a->args[a->nargs - 1], IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return PROCESS_USAGE;
	}
	ss = store_lock_board(a->srv.st, board, &lock);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "delboard %ld: %s", board, store_error(a->srv.st));
		return admin_of_store(ss);
	}
	as = admin_load_board(a, board, &g);
	if (as != PROCESS_OK)
		goto out;
	rated = game_over(&g) && ratings_game_rated(&g);
	if (dry) {
		printf("delboard --dry-run: would remove board %ld (%s against %s, %s)%s; would tell %s and %s by "
		    "mail; nothing changed\n", board, g.black, g.white, game_over(&g) ? "over" : "being played",
		    rated ? ", its result taken out of the ratings" : "", g.black, g.white);
		as = admin_output_done();
		goto out;
	}
	if (outbox_open(a->srv.st, &ob, err, sizeof err) != OUTBOX_OK) {
		store_complain(a->srv.st, "delboard %ld: cannot open the outbox: %s", board, err);
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	/* its tournament game annulled first: a tournament never makes a deleted board again (tournament.h) */
	{
		char terr[TOURNAMENT_ERR_MAX];

		if (tournament_forget(&a->srv, board, NULL, terr) != PROCESS_OK) {
			store_complain(a->srv.st, "delboard %ld: %s", board, terr);
			as = PROCESS_TEMPFAIL;
			goto out;
		}
	}
	/* the mark first: a crash after the removal still takes the result out at the next settle */
	ss = ratings_mark(a->srv.st, board, err);
	if (ss == STORE_OK)
		ss = store_board_remove(a->srv.st, board);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "delboard %ld: %s", board, store_error(a->srv.st));
		as = admin_of_store(ss);
		goto out;
	}
	if (active_remove(a->srv.st, board, g.black, g.white) != STORE_OK)
		store_complain(a->srv.st, "delboard %ld: the active index is behind (cleanup mends it): %s", board,
		    store_error(a->srv.st));
	store_unlock(&lock);
	if (ratings_settle(a->srv.st, a->srv.cfg.lock_timeout_ms, err) != STORE_OK)
		store_complain(a->srv.st, "delboard %ld: the ratings not settled yet (the next settle does it): %s", board,
		    err);
	store_log(a->srv.st, "%s admin delboard %ld: %s against %s removed%s", a->srv.stamp, board, g.black, g.white,
	    rated ? ", its result out of the ratings" : "");
	as = tell_players(a, ob, &g, &told);
	if (a->srv.cfg.web_dir[0] != '\0') {
		remove_pages(a, board);
		if (web_open(&a->srv.cfg, a->srv.st, a->srv.cfg.web_dir, &w, wer, sizeof wer) != PROCESS_OK || web_build(w) != PROCESS_OK)
			store_complain(a->srv.st, "delboard %ld: the web site not made again: %s", board,
			    w != NULL ? web_error(w) : wer);
		web_close(w);
	}
	if (told > 0 && (ops == NULL || outbox_flush(ob, ops, &a->srv.cfg, &fl) != OUTBOX_OK))
		msg_warn("delboard: the mails wait in the outbox: %s",
		    ops == NULL ? "unknown transport" : outbox_error(ob));
	printf("board %ld removed (%s against %s)%s; %u player%s told\n", board, g.black, g.white,
	    rated ? ", its result taken out of the ratings" : "", told, told == 1 ? "" : "s");
	if (as == PROCESS_OK)
		as = admin_output_done();
out:
	store_unlock(&lock);
	game_release(&g);
	outbox_close(ob);
	return as;
}
