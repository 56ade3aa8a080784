/* admin_edit: oustpbm edit BOARD, a game file changed with $EDITOR (edit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "commands/admin/admincmd.h"
#include "commands/services/edit.h"

enum process_status admin_edit_run(struct admin *a)
{
	long board;

	if (a->nargs != 1)
		return admin_usage_error();
	if (!ident_board_parse(a->args[0], strlen(a->args[0]), &board)) {
		store_complain(a->srv.st, "'%s' is not a board number (%d to %d)", a->args[0], IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return PROCESS_USAGE;
	}
	return edit_board(a->srv.st, board, a->srv.now, a->srv.stamp);
}
