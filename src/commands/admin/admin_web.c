/* admin_web: oustpbm web [SITE], the whole web site written (web.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/services/web.h"

enum process_status admin_web_run(struct admin *a)
{
	char err[WEB_ERR_MAX];
	const char *dir = a->nargs == 1 ? a->args[0] : a->srv.cfg.web_dir;
	enum process_status ws;
	struct web *w = NULL;

	if (a->nargs > 1)
		return admin_usage_error();
	if (dir[0] == '\0') {
		msg_warn("web: no directory given and no web_dir in %s", CONFIG_FILE);
		return PROCESS_USAGE;
	}
	ws = web_open(&a->srv.cfg, a->srv.st, dir, &w, err, sizeof err);
	if (ws == PROCESS_OK) {
		ws = web_build(w);
		if (ws != PROCESS_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		else
			printf("web: %zu pages written\n", web_pages_written(w));
		web_close(w);
	}
	if (ws != PROCESS_OK) {
		msg_warn("web: %s", err);
		/* a lock (75), a template (78), the store (65); else the site's own I/O, memory (74) */
		return ws == PROCESS_TEMPFAIL || ws == PROCESS_CONFIG || ws == PROCESS_DATAERR ? ws : PROCESS_IOERR;
	}
	store_log(a->srv.st, "admin web %s", dir);
	return admin_output_done();
}
