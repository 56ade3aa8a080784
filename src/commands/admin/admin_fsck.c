/* admin_fsck: oustpbm fsck [BOARD...], the check of the game files (fsck.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/admin/admincmd.h"
#include "commands/services/fsck.h"


enum process_status admin_fsck_run(struct admin *a)
{
	enum process_status fs;
	enum process_status as;
	unsigned problems = 0;
	long *boards = NULL;

	as = admin_board_args(a, true, &boards);
	if (as != PROCESS_OK)
		return as;
	fs = fsck_run(a->srv.st, boards, (size_t)a->nargs, stdout, &problems);
	free(boards);
	/* the last line says how it went, also when all is well (silence reads as a hang) */
	if (fs != PROCESS_OK)
		printf("fsck: %u problem%s found, then the check stopped (%s)\n", problems, problems == 1 ? "" : "s",
		    fs == PROCESS_TEMPFAIL ? "a temporary failure: run it again" : "a system error");
	else if (problems > 0)
		printf("fsck: %u problem%s found\n", problems, problems == 1 ? "" : "s");
	else
		printf("fsck: no problems found\n");
	if (admin_output_done() != PROCESS_OK)
		return PROCESS_IOERR;
	if (problems > 0)
		store_complain(a->srv.st, "fsck: %u problem%s", problems, problems == 1 ? "" : "s");
	if (fs != PROCESS_OK)
		return fs == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	return problems > 0 ? PROCESS_DATAERR : PROCESS_OK;
}
