/* admin_ratings: oustpbm ratings [--rebuild], the ratings file (store/ratings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/admin/admincmd.h"
#include "store/ratings.h"

/*
 * oustpbm ratings: the marked boards settled, then the ratings file on
 * standard output.  --rebuild: the file made anew from the game files.
 */
enum process_status admin_ratings_run(struct admin *a)
{
	struct ratings r;
	enum store_status ss;
	char err[RATINGS_ERR_MAX], *text = NULL;
	size_t len;
	bool rebuild;

	if (a->nargs > 1 || (a->nargs == 1 && strcmp(a->args[0], "--rebuild") != 0))
		return admin_usage_error();
	rebuild = a->nargs == 1;
	ss = rebuild ? ratings_rebuild(a->srv.st, a->srv.cfg.lock_timeout_ms, err) :
	    ratings_settle(a->srv.st, a->srv.cfg.lock_timeout_ms, err);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", err);
		return ss == STORE_CORRUPT ? PROCESS_DATAERR : admin_of_store(ss);
	}
	ss = ratings_load(a->srv.st, false, &r, err);
	if (ss == STORE_OK)
		ss = ratings_format(&r, &text, &len);
	else
		store_complain(a->srv.st, "%s", err);
	if (ss == STORE_OK && rebuild) {
		store_log(a->srv.st, "%s admin ratings --rebuild: %zu players, %zu games", a->srv.stamp, r.nplayers,
		    r.nresults);
		printf("oustpbm: ratings rebuilt: %zu player ratings from %zu rated games\n", r.nplayers, r.nresults);
	} else if (ss == STORE_OK) {
		fwrite(text, 1, len, stdout);
	}
	ratings_release(&r);
	free(text);
	if (ss != STORE_OK)
		return ss == STORE_CORRUPT ? PROCESS_DATAERR : admin_of_store(ss);
	return admin_output_done();
}
