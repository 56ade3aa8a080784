/* admin_board: the admin commands that read the boards, list and show. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/admincmd.h"
#include "commands/services/robot.h"
#include "game/board.h"

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

enum admin_status admin_list_run(struct admin *a)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum admin_status as = ADMIN_OK;
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
			as = ADMIN_DATAERR;
			continue;
		}
		/* the header is all a listing needs */
		if (gamefile_parse_header(text, len, &g, &gerr) != GAMEFILE_OK) {
			store_complain(a->srv.st, "games/%ld.game %s", boards[i], gerr.msg);
			as = ADMIN_DATAERR;
		} else if (which == 0 || (which == 1) == !game_over(&g)) {
			if (n % 64 == 0) {
				ng = realloc(games, (n + 64) * sizeof *games);
				if (ng == NULL) {
					free(text);
					store_complain(a->srv.st, "out of memory");
					as = ADMIN_TEMPFAIL;
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
	if (admin_output_done() != ADMIN_OK)
		as = ADMIN_IOERR;
out:
	free(games);
	free(boards);
	return as;
}

/* A turn number: 1 to 7 digits, no sign or leading zero. */
static bool turn_parse(const char *s, long *out)
{
	size_t n = strlen(s);

	if (n == 0 || n > 7 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	*out = strtol(s, NULL, 10);
	return true;
}

enum admin_status admin_show_run(struct admin *a)
{
	char drawing[BOARD_TEXT_MAX], *body = NULL;
	struct reply_ctx rc;
	struct game g;
	enum reply_status rs;
	enum admin_status as;
	const char *arg, *hash;
	long board, turn = 0;

	if (a->nargs != 1)
		return admin_usage_error();
	arg = a->args[0];
	hash = strchr(arg, '#');
	if (!ident_board_parse(arg, hash != NULL ? (size_t)(hash - arg) : strlen(arg), &board) ||
	    (hash != NULL && !turn_parse(hash + 1, &turn))) {
		store_complain(a->srv.st, "'%s' is not a board (%d to %d) or BOARD#TURN", arg, IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	as = admin_load_board(a, board, &g);
	if (as != ADMIN_OK)
		goto out;
	if (turn > g.nturns) {
		store_complain(a->srv.st, "board %ld has no turn #%ld yet: %d played so far", board, turn, g.nturns);
		as = ADMIN_NOINPUT;
		goto out;
	}
	if (turn > 0 && board_render_turn(&g, (int)turn, drawing) != GAME_OK) {
		store_complain(a->srv.st, "the history of board %ld cannot be replayed (oustpbm fsck %ld says why)",
		    board, board);
		as = ADMIN_DATAERR;
		goto out;
	}
	reply_init(&rc, &a->srv.cfg, a->srv.home, a->srv.now, NULL, NULL, "admin");
	rs = reply_show_body(&rc, &g, (int)turn, turn > 0 ? drawing : NULL, &body);
	if (rs != REPLY_OK) {
		store_complain(a->srv.st, "%s", rc.err);
		as = rs == REPLY_TEMPLATE ? ADMIN_CONFIG : rs == REPLY_NOMEM ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	} else {
		fputs(body, stdout);
		as = admin_output_done();
	}
	reply_release(&rc);
out:
	free(body);
	game_release(&g);
	return as;
}

