/*
 * finished: the mail command that lists the server's most recent results.
 */
#include <stdlib.h>

#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"

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
enum process_status finished_run(struct job *j)
{
	const struct game *order[REPLY_FINISHED_MAX + 1], *t;
	struct game *slots, *g;
	struct reply_mail m;
	enum mail_status rs;
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
		if (gamefile_parse_header(text, len, g, NULL) == GAME_OK && g->board == boards[i] &&
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
	rs = reply_finished(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
	    order, n, total, &m);
	free(slots);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu finished game%s listed of %zu", n, n == 1 ? "" : "s", total);
	return ps;
}
