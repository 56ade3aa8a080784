/* tournaments: the tournaments open or running, one line each (store/tourns.h). */
#include <stdio.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/tournament.h"
#include "store/tourns.h"

enum process_status tournaments_run(struct job *j)
{
	struct strbuf b = STRBUF_INIT;
	char err[TOURNS_ERR_MAX], title[TOURN_NAME_MAX + 40], *text;
	enum process_status ps;
	unsigned *ids = NULL;
	size_t n = 0, i, shown = 0;

	if (tourns_list(j->srv.st, &ids, &n) != STORE_OK)
		return job_store_failure(j, STORE_TEMPFAIL, "cannot list the tournaments");
	for (i = 0; i < n; i++) {
		struct tourn *t = NULL;

		if (tourns_load(j->srv.st, ids[i], &t, err) != STORE_OK)
			continue;	/* damaged: fsck names it */
		if (t->state != TOURN_FINISHED) {
			tournament_title(t, title, sizeof title);
			strbuf_printf(&b, "%s\n    %s, directed by %s, %zu player%s", title, tourn_state_name(t->state),
			    t->director, t->nplayers, t->nplayers == 1 ? "" : "s");
			if (t->state == TOURN_OPEN)
				strbuf_printf(&b, " (%d to %d): join T%u <userid> <password>", t->min_players, t->max_players,
				    t->id);
			strbuf_printf(&b, "\n    boards: %s\n", t->options[0] != '\0' ? t->options : "the server's defaults");
			shown++;
		}
		tourn_free(t);
	}
	free(ids);
	if (shown == 0)
		strbuf_puts(&b, "No tournament is open or running.\n");
	strbuf_puts(&b, "\nOne in full: tournament <id>\n"
	    "To make one: tournament <userid> <password> <format> [options] <name>\n"
	    "(format: roundrobin, swiss, knockout or ladder)\n");
	text = strbuf_finish(&b);
	if (text == NULL)
		return job_no_memory(j);
	ps = tournament_reply(j, "Oust tournaments", text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "%zu tournament%s listed", shown, shown == 1 ? "" : "s");
	free(text);
	return ps;
}
