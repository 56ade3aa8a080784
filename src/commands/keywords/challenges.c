/*
 * challenges: the mail command that lists the open challenges of the
 * server; nothing changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "game/gamefile.h"

#define OPEN_LIST_MAX 200	/* open challenges listed; more are counted */

/* challenges: the open challenges of the server, the newest last; nothing changes. */
enum process_status challenges_run(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	struct reply_mail m;
	enum store_status ss;
	enum mail_status rs;
	enum process_status ps;
	char *text, *list = NULL, count[24], when[REPLY_TIME_SIZE];
	long *boards = NULL;
	size_t nb = 0, i, len, n = 0;
	struct game g;

	ss = store_list_boards(j->srv.st, &boards, &nb);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nb; i++) {
		if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && g.board == boards[i] && game_is_open(&g) &&
		    ++n <= OPEN_LIST_MAX) {
			char dims[GAME_DIMENSIONS_SIZE];

			strbuf_printf(&sb, "    %ld  %s%s%s  %s as %s, since %s\n", g.board,
			    game_dimensions(&g, false, dims), g.swap ? "" : ", no swap", g.unrated ? ", unrated" : "",
			    game_open_challenger(&g), strcmp(g.black, GAME_OPEN_SEAT) == 0 ? "White" : "Black",
			    reply_time_str(g.created, when));
		}
		free(text);
	}
	free(boards);
	if (n > OPEN_LIST_MAX)
		strbuf_printf(&sb, "    ... and %zu more\n", n - OPEN_LIST_MAX);
	if (n == 0)
		strbuf_puts(&sb, "    none\n");
	list = strbuf_finish(&sb);
	if (list == NULL)
		return job_no_memory(j);
	snprintf(count, sizeof count, "%zu", n);
	{
		struct reply_var vars[] = { { "count", count }, { "challenges", list } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) },
		    "challenges", "Oust open challenges",
		    REPLY_VARS(vars), &m);
	}
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu open challenge%s listed", n, n == 1 ? "" : "s");
	free(list);
	return ps;
}
