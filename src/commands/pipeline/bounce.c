/* bounce: delivery reports counted, a sender's bounces cleared.  See bounce.h. */
#include "commands/pipeline/bounce.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/alert.h"
#include "game/gamefile.h"
#include "mail/dsn.h"
#include "mail/idmac.h"
#include "store/bounces.h"
#include "store/seen.h"

/* What one report did, for its log line. */
struct tally {
	char text[JOB_DETAIL_MAX];
	size_t used;
	bool counted;	/* a bounce was written */
	bool again;	/* a bounce was found written by a run that died (or the report replayed) */
};

static void say(struct tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct tally *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->used + 1 >= sizeof t->text)
		return;
	if (t->used > 0)
		t->used += (size_t)snprintf(t->text + t->used, sizeof t->text - t->used, "; ");
	if (t->used + 1 >= sizeof t->text)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->text + t->used, sizeof t->text - t->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->used += (size_t)n;
	if (t->used >= sizeof t->text)
		t->used = sizeof t->text - 1;
}

/*
 * robot_address and admin_address are never silenced by a report (the
 * remote robot's games would stall, the admin hear nothing): the admin is
 * told instead.  True if addr is one of them.
 */
static bool protected_address(struct job *j, const char *addr, const struct dsn_recipient *r, struct tally *t)
{
	const struct config *cfg = &j->srv.cfg;
	const char *which = NULL;
	enum alert_cause key = ALERT_BOUNCE_ROBOT;
	char cause[400];

	if (cfg->robot_address[0] != '\0' && strcasecmp(addr, cfg->robot_address) == 0)
		which = "robot_address", key = ALERT_BOUNCE_ROBOT;
	else if (cfg->admin_address[0] != '\0' && strcasecmp(addr, cfg->admin_address) == 0)
		which = "admin_address", key = ALERT_BOUNCE_ADMIN;
	if (which == NULL)
		return false;
	snprintf(cause, sizeof cause, "a delivery report says mail to %s (%s) failed (%s); it is never "
	    "silenced by a report: check that address", which, addr, r->status[0] != '\0' ? r->status : "no status");
	(void)alert_admin(cfg, j->srv.st, j->srv.home, key, cause);
	say(t, "%s failed (%s): %s is never silenced, the admin is alerted", addr,
	    r->status[0] != '\0' ? r->status : "no status", which);
	return true;
}

/* One failed recipient r of a report about our mail id (mac checked for the address counted). */
static enum process_status one_failed(struct job *j, const unsigned char key[IDMAC_KEY_BYTES], const struct dsn *d,
    size_t i, struct tally *t)
{
	const struct dsn_recipient *r = &d->rcpt[i];
	const char *status = r->status[0] != '\0' ? r->status : "no status", *at = strrchr(j->srv.cfg.from_address, '@');
	const char *addr = NULL;
	struct bounce b;
	unsigned long count;
	bool counted;
	size_t k, left;
	enum store_status ss;

	/* each address counts once in a report, however many of its lines name it, and is said once */
	for (k = 0; k < i; k++)
		if (d->rcpt[k].action == DSN_FAILED && strcasecmp(d->rcpt[k].addr, r->addr) == 0)
			return PROCESS_OK;
	/* the address the mail was sent to: the one its id's mac was made for (idmac.h) */
	if (at != NULL && idmac_ours(key, d->orig_id, r->addr, at + 1))
		addr = r->addr;
	else if (at != NULL && r->orig_addr[0] != '\0' && idmac_ours(key, d->orig_id, r->orig_addr, at + 1))
		addr = r->orig_addr;
	if (addr == NULL) {
		say(t, "%s failed (%s): not counted, the report names no mail of ours to it", r->addr, status);
		return PROCESS_OK;
	}
	/* ... and once whether a line names it as Final- or as Original-Recipient */
	for (k = 0; k < i; k++)
		if (d->rcpt[k].action == DSN_FAILED && (strcasecmp(d->rcpt[k].addr, addr) == 0 ||
		    strcasecmp(d->rcpt[k].orig_addr, addr) == 0))
			return PROCESS_OK;
	if (protected_address(j, addr, r, t))
		return PROCESS_OK;
	memset(&b, 0, sizeof b);
	snprintf(b.address, sizeof b.address, "%s", addr);
	snprintf(b.status, sizeof b.status, "%s", r->status);
	b.last = (int64_t)j->srv.now;
	/* the mark: the id's mac, one per mail sent, so this report counts in the same write that proves it */
	(void)idmac_strip(d->orig_id, &left);
	for (k = 0; k < IDMAC_HEX; k++)
		b.mark[k] = (char)(d->orig_id[left + 1 + k] | 0x20);	/* hex digits: lower case */
	b.mark[IDMAC_HEX] = '\0';
	ss = bounces_add_report(j->srv.st, &b, j->srv.cfg.bounce_limit, j->srv.cfg.lock_timeout_ms, &count, &counted);
	if (ss != STORE_OK) {
		/* the MTA delivers the report again: counted then (a temporary failure) */
		say(t, "%s failed (%s), bounce not recorded: %s", addr, status, store_error(j->srv.st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_OK;
	}
	if (!counted) {
		t->again = true;
		say(t, "%s failed (%s): this report was counted before (bounce %lu), not again", addr, status, count);
		return PROCESS_OK;
	}
	t->counted = true;
	if (j->srv.cfg.bounce_limit == 0)
		say(t, "%s failed (%s): bounce %lu (bounce_limit 0: its mail never stops)", addr, status, count);
	else
		say(t, "%s failed (%s): bounce %lu of %lu%s", addr, status, count, j->srv.cfg.bounce_limit,
		    count >= j->srv.cfg.bounce_limit ? ", no more mail to it until it writes" : "");
	return PROCESS_OK;
}

enum process_status bounce_report(struct job *j, const char *buf, size_t len)
{
	static struct dsn d;	/* 8 KB: not on the stack */
	static struct tally t;
	unsigned char key[IDMAC_KEY_BYTES];
	char stamp[GAMEFILE_TIME_SIZE];
	const char *at = strrchr(j->srv.cfg.from_address, '@'), *id_at;
	enum process_status ps = PROCESS_DROPPED;
	bool dup = false;
	size_t i, left;
	time_t when;

	if (buf == NULL || dsn_parse(buf, len, &d) != MAIL_OK || d.n == 0)
		return PROCESS_DROPPED;
	/* the MTA delivered the report again (a crash after it was counted): counted once */
	if (seen_is_duplicate(j->srv.st, j->in.message_key, j->in.from_addr, &dup, &when) == STORE_OK && dup) {
		gamefile_time_str((int64_t)when, stamp);
		job_detail(j, "dropped", "a copy of the delivery report handled at %s (same Message-ID): not counted "
		    "again", stamp);
		return PROCESS_DROPPED;
	}
	id_at = strrchr(d.orig_id, '@');
	if (dsn_failed_count(&d) > 0 && (at == NULL || id_at == NULL || strcasecmp(id_at + 1, at + 1) != 0 ||
	    !idmac_strip(d.orig_id, &left))) {
		/* backscatter: a bounce of mail forged in our name, or a report we cannot tie to our mail */
		job_detail(j, "dropped", "a delivery report about a mail not ours (Message-ID <%.100s>): not counted",
		    d.orig_id);
		return PROCESS_DROPPED;
	}
	if (dsn_failed_count(&d) > 0 && server_id_key(&j->srv, key) != STORE_OK) {
		job_detail(j, "tempfail", "a delivery report: the key of the Message-IDs (token.secret) cannot be read");
		return PROCESS_TEMPFAIL;
	}
	memset(&t, 0, sizeof t);
	for (i = 0; i < d.n && ps == PROCESS_DROPPED; i++) {
		const struct dsn_recipient *r = &d.rcpt[i];

		if (r->action == DSN_OTHER)
			continue;
		if (r->action == DSN_DELAYED) {
			say(&t, "%s delayed (%s), not a bounce", r->addr, r->status[0] != '\0' ? r->status : "no status");
			continue;
		}
		if (one_failed(j, key, &d, i, &t) == PROCESS_TEMPFAIL)
			ps = PROCESS_TEMPFAIL;
	}
	explicit_bzero(key, sizeof key);
	if (t.used == 0)
		return ps;
	job_detail(j, ps == PROCESS_TEMPFAIL ? "tempfail" : t.counted ? "bounce" : "dropped",
	    "a delivery report (not answered): %s", t.text);
	if (ps != PROCESS_TEMPFAIL && (t.counted || t.again))
		job_record_handled(j);	/* in the redelivery record, as an answered mail */
	return ps;
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
