/* away: a player away on vacation, in a line; the vacation bank.  See away.h. */
#include "commands/lib/away.h"

#include <stdio.h>
#include <string.h>

#include "base/tzone.h"
#include "commands/pipeline/job.h"
#include "store/settings.h"
#include "store/vacations.h"

enum process_status away_line(struct job *j, const char *userid, char *buf, size_t size)
{
	struct vacation v;
	enum store_status ss;
	char until[REPLY_TIME_SIZE];
	const struct vacation_absence *a;

	buf[0] = '\0';
	ss = vacations_find(j->srv.st, userid, &v);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && !vacation_away(&v, (int64_t)j->srv.now)))
		return PROCESS_OK;
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the vacations");
	a = vacation_current(&v, (int64_t)j->srv.now);
	snprintf(buf, size, "%s is away (vacation) until %s: %s's clocks stop meanwhile.\n\n", userid,
	    reply_time_str(a->to, until), userid);
	return PROCESS_OK;
}

void away_rule(const struct job *j, struct vacation_rule *rule)
{
	const struct config *cfg = &j->srv.cfg;

	rule->accrual_days = cfg->vacation_accrual_days;
	rule->cap = cfg->vacation_max_days < cfg->vacation_days_per_year ? cfg->vacation_max_days :
	    cfg->vacation_days_per_year;
}

/* The local date of t in zone: "2026-12-24". */
static void local_date(int64_t t, const char *zone, char out[40])
{
	struct tm tm;

	tzone_local(t, zone, &tm);
	snprintf(out, 40, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

void away_bank(const struct job *j, const struct vacation *v, const char *zone, int64_t next, char *buf,
    size_t size)
{
	const int64_t now = (int64_t)j->srv.now;
	struct vacation_rule rule;
	char a[40], b[40], when[TZONE_STR_SIZE];
	size_t len, i, k = 0;

	away_rule(j, &rule);
	len = (size_t)snprintf(buf, size, "Vacation bank: %d day%s (a day for every %lu days as a member, at most %lu)",
	    v->bank, v->bank == 1 ? "" : "s", rule.accrual_days, rule.cap);
	if (len < size) {
		if (next != 0) {
			tzone_str(next, zone, when, sizeof when);
			len += (size_t)snprintf(buf + len, size - len, "; the next day on %s.\n", when);
		} else {
			len += (size_t)snprintf(buf + len, size - len, "%s.\n", rule.accrual_days == 0 ? "" : ": full");
		}
	}
	for (i = 0; i < v->n && len < size; i++) {
		if (v->away[i].to <= now)
			continue;
		local_date(v->away[i].from, zone, a);
		/* the last day away: the day of the last second away */
		local_date(v->away[i].to - 1, zone, b);
		if (v->away[i].from <= now) {
			len += (size_t)snprintf(buf + len, size - len, "Away now: %s to %s (%d day%s).\n", a, b,
			    v->away[i].days, v->away[i].days == 1 ? "" : "s");
			continue;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s %s to %s (%d day%s)", k == 0 ? "Booked:" : ";", a,
		    b, v->away[i].days, v->away[i].days == 1 ? "" : "s");
		k++;
	}
	if (len < size)
		snprintf(buf + len, size - len, "%s", k == 0 ? "Booked: nothing.\n" : ".\n");
}

enum process_status away_bank_of(struct job *j, const struct store_user *u, char *buf, size_t size)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;
	struct vacation v;
	struct vacation_rule rule;
	enum store_status ss;
	int64_t next;

	buf[0] = '\0';
	ss = vacations_find(j->srv.st, u->userid, &v);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND)
		return job_store_failure(j, ss, "cannot read the vacations");
	ss = settings_find(j->srv.st, u->userid, &s, err);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the settings");
	away_rule(j, &rule);
	vacation_accrue(&v, u->since, (int64_t)j->srv.now, &rule, &next);
	away_bank(j, &v, s.timezone, next, buf, size);
	return PROCESS_OK;
}
