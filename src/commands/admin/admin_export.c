/* admin_export: oustpbm export BOARD, the game record as SGF on standard output (game/sgf.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "commands/admin/admincmd.h"
#include "game/sgf.h"

/* export BOARD: the game record as SGF (game/sgf.h) on standard output. */
enum process_status admin_export_run(struct admin *a)
{
	struct sgf_error serr;
	struct game g;
	enum game_status sg;
	enum process_status as;
	char *sgf = NULL;
	long board;
	size_t len;

	if (a->nargs != 1)
		return admin_usage_error();
	if (!ident_board_parse(a->args[0], strlen(a->args[0]), &board)) {
		store_complain(a->srv.st, "'%s' is not a board (%d to %d)", a->args[0], IDENT_BOARD_MIN, IDENT_BOARD_MAX);
		return PROCESS_USAGE;
	}
	as = admin_load_board(a, board, &g);
	if (as != PROCESS_OK)
		goto out;
	sg = sgf_format(&g, &sgf, &len, &serr);
	if (sg != GAME_OK) {
		store_complain(a->srv.st, "%s", sg == GAME_NO_MEMORY ? game_status_str(sg) : serr.msg);
		as = sg == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_DATAERR;
		goto out;
	}
	fwrite(sgf, 1, len, stdout);
	as = admin_output_done();
out:
	free(sgf);
	game_release(&g);
	return as;
}
