/* bounce: delivery reports counted, a sender's bounces cleared.  See bounce.h. */
#include "commands/pipeline/bounce.h"

#include <stdio.h>
#include <string.h>

#include "base/msgid.h"
#include "game/gamefile.h"
#include "mail/dsn.h"
#include "store/bounces.h"
#include "store/seen.h"

void bounce_report(struct job *j, const char *buf, size_t len)
{
	static struct dsn d;	/* 4 KB: not on the stack */
	char text[JOB_DETAIL_MAX], stamp[GAMEFILE_TIME_SIZE];
	size_t i, used = 0;
	unsigned long count;
	bool counted = false, dup = false;
	time_t when;

	if (buf == NULL || dsn_parse(buf, len, &d) != DSN_OK || d.n == 0)
		return;
	/* the MTA delivered the report again (a crash after it was counted): counted once */
	if (seen_is_duplicate(j->srv.st, j->in.message_key, j->in.from_addr, &dup, &when) == STORE_OK && dup) {
		gamefile_time_str((int64_t)when, stamp);
		job_detail(j, "dropped", "a copy of the delivery report handled at %s (same Message-ID): not counted "
		    "again", stamp);
		return;
	}
	if (dsn_failed_count(&d) > 0 && !msgid_ours(d.orig_id, j->srv.cfg.from_address)) {
		/* backscatter: a bounce of mail forged in our name, or a report we cannot tie to our mail */
		job_detail(j, "dropped", "a delivery report about a mail not ours (Message-ID <%.100s>): not counted",
		    d.orig_id);
		return;
	}
	text[0] = '\0';
	for (i = 0; i < d.n && used + 1 < sizeof text; i++) {
		const struct dsn_recipient *r = &d.rcpt[i];
		const char *status = r->status[0] != '\0' ? r->status : "no status";

		if (r->action == DSN_OTHER)
			continue;
		if (r->action == DSN_DELAYED) {
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s delayed (%s), not a bounce",
			    used > 0 ? "; " : "", r->addr, status);
			continue;
		}
		if (bounces_add(j->srv.st, r->addr, r->status, (int64_t)j->srv.now, j->srv.cfg.bounce_limit, j->srv.cfg.lock_timeout_ms,
		    &count) != STORE_OK) {
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s failed (%s), bounce not recorded: %s",
			    used > 0 ? "; " : "", r->addr, status, store_error(j->srv.st));
			continue;
		}
		counted = true;
		if (j->srv.cfg.bounce_limit == 0)
			used += (size_t)snprintf(text + used, sizeof text - used,
			    "%s%s failed (%s): bounce %lu (bounce_limit 0: its mail never stops)", used > 0 ? "; " : "",
			    r->addr, status, count);
		else
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s failed (%s): bounce %lu of %lu%s",
			    used > 0 ? "; " : "", r->addr, status, count, j->srv.cfg.bounce_limit,
			    count >= j->srv.cfg.bounce_limit ? ", no more mail to it until it writes" : "");
	}
	if (used == 0)
		return;
	if (used >= sizeof text)
		used = sizeof text - 1;
	job_detail(j, counted ? "bounce" : "dropped", "a delivery report (not answered): %s", text);
	if (counted)
		job_record_handled(j);	/* in the redelivery record, as an answered mail */
}

unsigned long bounce_wrote(struct job *j)
{
	unsigned long had = 0;

	if (j->in.from_addr == NULL || j->in.from_addr[0] == '\0')
		return 0;
	if (bounces_clear(j->srv.st, j->in.from_addr, j->srv.cfg.lock_timeout_ms, &had) != STORE_OK) {
		store_log(j->srv.st, "bounces: %s: not cleared: %s", j->in.from_addr, store_error(j->srv.st));
		return 0;
	}
	return had;
}
