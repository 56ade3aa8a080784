/* admin_web: oustpbm web [SITE], the whole web site written (web.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/services/web.h"

enum admin_status admin_web_run(struct admin *a)
{
	char err[WEB_ERR_MAX];
	const char *dir = a->nargs == 1 ? a->args[0] : a->srv.cfg.web_dir;
	enum web_status ws;
	struct web *w = NULL;

	if (a->nargs > 1)
		return admin_usage_error();
	if (dir[0] == '\0') {
		msg_warn("web: no directory given and no web_dir in %s", CONFIG_FILE);
		return ADMIN_USAGE;
	}
	ws = web_open(&a->srv.cfg, a->srv.st, dir, &w, err, sizeof err);
	if (ws == WEB_OK) {
		ws = web_build(w);
		if (ws != WEB_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		else
			printf("web: %zu pages written\n", web_pages_written(w));
		web_close(w);
	}
	if (ws != WEB_OK) {
		msg_warn("web: %s", err);
		switch (ws) {
		case WEB_TIMEOUT: return ADMIN_TEMPFAIL;
		case WEB_TEMPLATE: return ADMIN_CONFIG;
		case WEB_STORE: return ADMIN_DATAERR;
		default: return ADMIN_IOERR;
		}
	}
	store_log(a->srv.st, "admin web %s", dir);
	return admin_output_done();
}
