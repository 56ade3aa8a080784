/*
 * games: the mail commands that list boards, games (a player's boards and
 * whose turn it is on each, filtered) and finished (the server's most
 * recent results).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"
#include "store/vacations.h"

enum process_status vacation_line(struct job *j, const char *userid, char *buf, size_t size)
{
	struct vacation v;
	enum store_status ss;
	char until[REPLY_TIME_SIZE];

	buf[0] = '\0';
	ss = vacations_find(j->srv.st, userid, &v);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && !vacation_away(&v, (int64_t)j->srv.now)))
		return PROCESS_OK;
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the vacations");
	snprintf(buf, size, "%s is away (vacation) until %s: %s's clocks stop meanwhile.\n\n", userid,
	    reply_time_str(v.end, until), userid);
	return PROCESS_OK;
}

enum process_status games_run(struct job *j)
{
	struct store_user u;
	struct reply_mail m;
	struct reply_games_list list;
	struct game *games = NULL;
	enum reply_games_filter filter = REPLY_GAMES_ALL;
	enum reply_status rs;
	enum process_status ps;
	size_t n = 0;
	bool found;
	char away[200];

	if (j->cmd.text[0] != '\0' && !reply_games_filter_parse(j->cmd.text, &filter))
		return job_refuse(j, NULL, "'%s' is not a filter of games: use active, next, finished or all "
		    "(or none: all)", j->cmd.text);
	ps = job_find_user(j, j->cmd.userid, &u, &found);
	if (ps != PROCESS_OK || !found)
		return ps;
	ps = job_boards_of(j, u.userid, &games, &n);
	if (ps != PROCESS_OK)
		return ps;
	ps = vacation_line(j, u.userid, away, sizeof away);
	if (ps != PROCESS_OK)
		goto out;
	list = (struct reply_games_list){ u.userid, u.address[0] != '\0' && strcasecmp(u.address, j->in.from_addr) == 0,
	    filter, games, n, away };
	rs = reply_games(&j->srv.rc, j->in.from_addr, job_sender_name(j, u.userid), &list, &m);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu board%s of %s%s%s", n, n == 1 ? "" : "s", u.userid,
		    filter != REPLY_GAMES_ALL ? ", listed: " : "", filter != REPLY_GAMES_ALL ?
		    reply_games_filter_str(filter) : "");
out:
	free(games);
	return ps;
}

/* The most recently finished first; the same time, the higher board first. */
static int by_end(const struct game *u, const struct game *v)
{
	if (u->last_move != v->last_move)
		return u->last_move > v->last_move ? -1 : 1;
	return u->board > v->board ? -1 : u->board < v->board;
}

/*
 * finished: the REPLY_FINISHED_MAX games that ended last, by the time of
 * their last turn (a loss on time: the time it was recorded), over every
 * board's header.  A small window sorted while reading (pointers move, not
 * the games, which are large), so the cost stays one header read a board.
 */
enum process_status games_finished_run(struct job *j)
{
	const struct game *order[REPLY_FINISHED_MAX + 1], *t;
	struct game *slots, *g;
	struct reply_mail m;
	enum reply_status rs;
	enum process_status ps;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, n = 0, total = 0, i, k, len;
	char *text;

	slots = malloc((REPLY_FINISHED_MAX + 1) * sizeof *slots);
	if (slots == NULL)
		return job_no_memory(j);
	ss = store_list_boards(j->srv.st, &boards, &nboards);
	if (ss != STORE_OK) {
		free(slots);
		return job_store_failure(j, ss, "cannot list the boards");
	}
	g = &slots[0];
	for (i = 0; i < nboards; i++) {
		if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, g, NULL) == GAMEFILE_OK && g->board == boards[i] &&
		    game_over(g)) {
			total++;
			/* insert g in order; the one pushed off the end gives its slot to the next read */
			order[n] = g;
			for (k = n; k > 0 && by_end(order[k], order[k - 1]) < 0; k--) {
				t = order[k];
				order[k] = order[k - 1];
				order[k - 1] = t;
			}
			if (n < REPLY_FINISHED_MAX) {
				n++;
				g = &slots[n];
			} else {
				g = (struct game *)order[n];
			}
		}
		free(text);
	}
	free(boards);
	rs = reply_finished(&j->srv.rc, j->in.from_addr, job_sender_name(j, NULL), order, n, total, &m);
	free(slots);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu finished game%s listed of %zu", n, n == 1 ? "" : "s", total);
	return ps;
}
