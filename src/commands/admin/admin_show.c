/* admin_show: oustpbm show BOARD[#TURN], a board as the players see it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "commands/admin/admincmd.h"
#include "commands/services/robot.h"

/* A turn number: 1 to 7 digits, no sign or leading zero. */
static bool turn_parse(const char *s, long *out)
{
	size_t n = strlen(s);

	if (n == 0 || n > 7 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	*out = strtol(s, NULL, 10);
	return true;
}

enum process_status admin_show_run(struct admin *a)
{
	char drawing[BOARD_TEXT_MAX], *body = NULL;
	struct reply_ctx rc;
	struct game g;
	enum mail_status rs;
	enum process_status as;
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
		return PROCESS_USAGE;
	}
	as = admin_load_board(a, board, &g);
	if (as != PROCESS_OK)
		goto out;
	if (turn > g.nturns) {
		store_complain(a->srv.st, "board %ld has no turn #%ld yet: %d played so far", board, turn, g.nturns);
		as = PROCESS_NOINPUT;
		goto out;
	}
	if (turn > 0 && board_render_turn(&g, (int)turn, drawing) != GAME_OK) {
		store_complain(a->srv.st, "the history of board %ld cannot be replayed (oustpbm fsck %ld says why)",
		    board, board);
		as = PROCESS_DATAERR;
		goto out;
	}
	reply_init(&rc, &a->srv.cfg, a->srv.home, a->srv.now, NULL, NULL, "admin");
	rs = reply_show_body(&rc, &g, (int)turn, turn > 0 ? drawing : NULL, &body);
	if (rs != MAIL_OK) {
		store_complain(a->srv.st, "%s", rc.err);
		as = rs == MAIL_TEMPLATE ? PROCESS_CONFIG : rs == MAIL_NOMEM ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
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
