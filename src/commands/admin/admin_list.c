/* admin_list: oustpbm list [active|finished], the boards one a line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/admin/admincmd.h"

/* "2026-11-21 18:41" */
static void short_time(int64_t t, char buf[GAMEFILE_TIME_SIZE])
{
	gamefile_time_str(t, buf);
	buf[10] = ' ';
	buf[16] = '\0';
}

static void state_text(const struct game *g, char *buf, size_t size)
{
	if (!game_over(g))
		snprintf(buf, size, "%s to move", game_is_open(g) ? "open: nobody" : game_player_to_move(g));
	else if (g->rg.result == RULES_DRAW)
		snprintf(buf, size, "drawn (%s)", game_end_str(g->end));
	else
		snprintf(buf, size, "won by %s (%s)", g->rg.result == RULES_BLACK_WINS ? g->black : g->white,
		    game_end_str(g->end));
}

enum process_status admin_list_run(struct admin *a)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum process_status as = PROCESS_OK;
	struct game *games = NULL, *ng;
	long *boards = NULL;
	size_t nboards = 0, n = 0, i, len;
	int which = 0;		/* 0 all, 1 active, 2 finished */
	int wb = 5, ww = 5, wx = 5;
	char *text, state[120], when[GAMEFILE_TIME_SIZE], size[16];

	if (a->nargs > 1)
		return admin_usage_error();
	if (a->nargs == 1) {
		if (strcmp(a->args[0], "active") == 0)
			which = 1;
		else if (strcmp(a->args[0], "finished") == 0)
			which = 2;
		else
			return admin_usage_error();
	}
	ss = store_list_boards(a->srv.st, &boards, &nboards);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "cannot list the boards: %s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	for (i = 0; i < nboards; i++) {
		struct game g;

		ss = store_board_read(a->srv.st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;	/* removed meanwhile */
		if (ss != STORE_OK) {
			store_complain(a->srv.st, "%s", store_error(a->srv.st));
			as = PROCESS_DATAERR;
			continue;
		}
		/* the header is all a listing needs */
		if (gamefile_parse_header(text, len, &g, &gerr) != GAME_OK) {
			store_complain(a->srv.st, "games/%ld.game %s", boards[i], gerr.msg);
			as = PROCESS_DATAERR;
		} else if (which == 0 || (which == 1) == !game_over(&g)) {
			if (n % 64 == 0) {
				ng = realloc(games, (n + 64) * sizeof *games);
				if (ng == NULL) {
					free(text);
					store_complain(a->srv.st, "out of memory");
					as = PROCESS_TEMPFAIL;
					goto out;
				}
				games = ng;
			}
			games[n++] = g;
		}
		free(text);
	}
	for (i = 0; i < n; i++) {
		int b = (int)strlen(games[i].black), w = (int)strlen(games[i].white);

		state_text(&games[i], state, sizeof state);
		wb = b > wb ? b : wb;
		ww = w > ww ? w : ww;
		wx = (int)strlen(state) > wx ? (int)strlen(state) : wx;
	}
	printf("%-8s  %-*s  %-*s  %-5s  %5s  %-*s  %s\n", "board", wb, "black", ww, "white", "size", "turn", wx,
	    "state", "last move (UTC)");
	for (i = 0; i < n; i++) {
		const struct game *g = &games[i];

		state_text(g, state, sizeof state);
		short_time(g->last_move, when);
		game_dimensions(g, true, size);
		printf("%-8ld  %-*s  %-*s  %-5s  %5d  %-*s  %s\n", g->board, wb, g->black, ww, g->white, size,
		    g->rg.turn, wx, state, when);
	}
	if (admin_output_done() != PROCESS_OK)
		as = PROCESS_IOERR;
out:
	free(games);
	free(boards);
	return as;
}
