/*
 * standings: the mail command `standings [class]`, and what it shares
 * with rating.c (lib/ratingtext.h); the texts are services/standings.h's
 * (the web site's standings page shares them).
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands/lib/ratingtext.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/standings.h"
#include "mail/reply.h"
#include "store/ratings.h"

/* standings [class]: the ratings (players only), each player's active boards and games sought. */
enum process_status standings_run(struct job *j)
{
	struct ratings r;
	struct active_count *active = NULL;
	struct seeks_entry *seeks = NULL;
	enum store_status ss;
	enum process_status ps;
	char err[RATINGS_ERR_MAX > SEEKS_ERR_MAX ? RATINGS_ERR_MAX : SEEKS_ERR_MAX], subject[64];
	const char *cname = j->cmd.rating_class >= 0 ? ratings_class_name((enum ratings_class)j->cmd.rating_class) : "";
	char *text = NULL;
	size_t nactive = 0, nseeks = 0;

	ss = ratings_load(j->srv.st, true, &r, err);
	if (ss != STORE_OK) {
		ps = ratingtext_failure(j, ss, err);
		goto out;
	}
	/* a closed account is no longer listed (signoff, deluser) */
	ss = standings_drop_closed(j->srv.st, &r);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot read the reserved user ids");
		goto out;
	}
	ss = active_counts(j->srv.st, &active, &nactive);
	if (ss != STORE_OK) {
		ps = job_store_failure(j, ss, "cannot read the index of active boards");
		goto out;
	}
	ss = seeks_load(j->srv.st, SEEKS_SEEK, &seeks, &nseeks, err);
	if (ss != STORE_OK) {
		ps = ratingtext_failure(j, ss, err);
		goto out;
	}
	text = standings_text(&r, j->cmd.rating_class, active, nactive, seeks, nseeks, (int64_t)j->srv.now);
	if (text == NULL) {
		ps = job_no_memory(j);
		goto out;
	}
	snprintf(subject, sizeof subject, "Oust standings%s%s", cname[0] != '\0' ? " " : "", cname);
	ps = ratingtext_reply(j, NULL, "standings", subject, text);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "standings%s%s: %zu ratings", cname[0] != '\0' ? " " : "", cname, r.nplayers);
out:
	free(text);
	free(seeks);
	free(active);
	ratings_release(&r);
	return ps;
}
