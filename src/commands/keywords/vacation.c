/*
 * vacation <userid> <password> <days>|off: the sender goes away for that
 * many days from now, or comes back early.  While away, the clocks of the
 * boards where the sender is to move stop (cleanup waits with reminders and
 * losses on time, and counts the absence out: vacations.h).  The days come
 * from a yearly allowance, vacation_days_per_year (30), counted by calendar
 * year (UTC); a new vacation while away replaces the old one, and coming
 * back gives back the whole days not begun.  The opponents of the boards
 * still played are told.  The write is an account change (accounts.h's
 * token "vacation START END"), committed with its mails under accounts.lock.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/vacations.h"

#define VACATION_MAILS_MAX 201	/* the sender's and one per opponent told; more opponents are not told */

static enum store_status write_vacation(struct job *j, const char *token, const char *expect, const void *arg)
{
	return vacations_set(j->srv.st, arg);
}

/* The days asked for: *days > 0, or 0 for "off"; false after the refusal. */
static bool parse_days(struct job *j, unsigned long cap, int *days, enum process_status *ps)
{
	const char *s = j->cmd.text;
	char *end;
	long n;

	while (*s == ' ' || *s == '\t')
		s++;
	if (strcasecmp(s, "off") == 0) {
		*days = 0;
		return true;
	}
	if (strchr(s, ' ') != NULL || strchr(s, '\t') != NULL) {
		*ps = job_refuse(j, NULL, "'%.40s' is not a number of days: send vacation <userid> <password> <days>, "
		    "1 to %lu, or off", s, cap);
		return false;
	}
	n = strtol(s, &end, 10);
	if (end == s || *end != '\0' || !(isdigit((unsigned char)*s) || *s == '-' || *s == '+')) {
		*ps = job_refuse(j, NULL, "'%.40s' is not a number of days: send vacation <userid> <password> <days>, "
		    "1 to %lu, or off", s, cap);
		return false;
	}
	if (n < 1) {
		*ps = job_refuse(j, NULL, "vacation %.40s: the days must be from 1 to %lu", s, cap);
		return false;
	}
	*days = n > 10000 ? 10000 : (int)n;
	return true;
}

/* The whole days of v not yet begun at now: given back when it ends early or is replaced. */
static int days_left(const struct vacation *v, int64_t now)
{
	return vacation_away(v, now) ? (int)((v->end - now) / VACATIONS_DAY) : 0;
}

/*
 * The mails of a vacation of days (0: back): the sender's confirmation
 * (away or back), and a notice to the opponent of each board still played;
 * into m[0..*n).
 */
static enum process_status make_mails(struct job *j, const struct store_user *u, const struct vacation *v, int days,
    struct reply_mail *m, int *n)
{
	const unsigned long cap = j->srv.cfg.vacation_days_per_year;
	const bool away = days > 0;
	char subject[200], until[REPLY_TIME_SIZE], used[16], left[16], year[16], ndays[16], capstr[16], day_count[32];
	char boards[1000];
	struct store_user o;
	struct game *games = NULL;
	enum process_status ps;
	enum reply_status rs;
	size_t ng = 0, i, k, len = 0;
	const char *opponent;

	*n = 0;
	boards[0] = '\0';
	ps = job_boards_of(j, u->userid, &games, &ng);
	if (ps != PROCESS_OK)
		return ps;
	for (i = 0; i < ng && len + 24 < sizeof boards; i++)
		if (!game_over(&games[i]))
			len += (size_t)snprintf(boards + len, sizeof boards - len, "%s%ld", len > 0 ? ", " : "",
			    games[i].board);
	reply_time_str(v->end, until);
	snprintf(used, sizeof used, "%d", v->used);
	snprintf(left, sizeof left, "%d", (int)cap - v->used);
	snprintf(year, sizeof year, "%d", v->year);
	snprintf(ndays, sizeof ndays, "%d", days);
	snprintf(day_count, sizeof day_count, "%d day%s", days, days == 1 ? "" : "s");
	snprintf(capstr, sizeof capstr, "%lu", cap);
	snprintf(subject, sizeof subject, "Oust vacation of %s", u->userid);
	{
		struct reply_var vars[] = { { "userid", u->userid }, { "until", until }, { "days", ndays },
		    { "day_count", day_count }, { "used", used }, { "left", left }, { "year", year }, { "cap", capstr },
		    { "boards", boards[0] != '\0' ? boards : "none" } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u->userid) },
		    away ? "vacation" :
		    "vacationoff", subject, vars, sizeof vars / sizeof vars[0], &m[(*n)++]);
		for (i = 0; rs == REPLY_OK && i < ng && *n < VACATION_MAILS_MAX; i++) {
			if (game_over(&games[i]))
				continue;
			opponent = strcmp(games[i].black, u->userid) == 0 ? games[i].white : games[i].black;
			if (strcmp(opponent, u->userid) == 0 || game_user_is_robot(opponent))
				continue;
			/* one notice per opponent, naming the first board */
			for (k = 0; k < i && !(!game_over(&games[k]) && (strcmp(games[k].black, opponent) == 0 ||
			    strcmp(games[k].white, opponent) == 0)); k++)
				;
			if (k < i || store_user_find(j->srv.st, opponent, &o) != STORE_OK)
				continue;
			snprintf(subject, sizeof subject, "Oust Board %ld: %s %s", games[i].board, u->userid,
			    away ? "is away" : "is back");
			rs = reply_account(&j->srv.rc, &(struct reply_to){ o.address, o.fullname },
			    away ? "vacationnotice" : "vacationback",
			    subject, vars, sizeof vars / sizeof vars[0], &m[(*n)++]);
		}
	}
	for (i = 0; i < ng; i++)
		game_release(&games[i]);
	free(games);
	if (rs != REPLY_OK)
		return job_reply_failure(j, rs);
	return PROCESS_OK;
}

enum process_status vacation_run(struct job *j)
{
	const unsigned long cap = j->srv.cfg.vacation_days_per_year;
	const int64_t now = (int64_t)j->srv.now;
	char token[VACATIONS_TOKEN_MAX + 1];
	struct reply_mail *mails = NULL;
	struct store_user u;
	struct vacation v, old;
	enum store_status ss, wrote;
	enum process_status ps;
	int days = 0, n = 0, i, back;
	bool ok, had;

	ps = job_authenticate(j, j->cmd.userid, j->cmd.password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	if (!parse_days(j, cap, &days, &ps))
		return ps;
	ss = vacations_find(j->srv.st, u.userid, &old);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND)
		return job_store_failure(j, ss, "cannot read the vacations");
	had = ss == STORE_OK;
	memset(&v, 0, sizeof v);
	snprintf(v.userid, sizeof v.userid, "%s", u.userid);
	v.year = vacation_year(now);
	if (had && old.year == v.year)
		v.used = old.used;
	back = had && old.year == v.year ? days_left(&old, now) : 0;
	if (days == 0) {
		if (!had || !vacation_away(&old, now))
			return job_refuse(j, NULL, "vacation off: you are not away");
		v.start = old.start;
		v.end = now;
		v.used -= back;
	} else {
		if (cap == 0)
			return job_refuse(j, NULL, "vacation %d: this server allows no vacation (vacation_days_per_year "
			    "is 0)", days);
		if (days > (int)cap - (v.used - back))
			return job_refuse(j, NULL, "vacation %d: over the yearly cap of %lu day%s: %d left in %d "
			    "(%d used)", days, cap, cap == 1 ? "" : "s", (int)cap - (v.used - back), v.year, v.used - back);
		/* a vacation while away replaces the one running: the absence goes on from its start */
		v.start = had && vacation_away(&old, now) ? old.start : now;
		v.end = gamefile_time_add(now, (int64_t)days * VACATIONS_DAY);
		v.used += days - back;
	}
	if (v.used < 0)
		v.used = 0;
	mails = calloc(VACATION_MAILS_MAX, sizeof *mails);
	if (mails == NULL)
		return job_no_memory(j);
	ps = make_mails(j, &u, &v, days, mails, &n);
	if (ps != PROCESS_OK)
		goto out;
	vacations_token(&v, token);
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, token, u.hash, write_vacation, &v },
	    mails, n, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote != STORE_OK) {
		ps = job_account_failure(j, wrote, "cannot write the vacation");
		goto out;
	}
	if (days > 0)
		job_detail(j, "ok", "%s away for %d day%s, until %s; %d of %lu day%s of %d used; %d opponent%s told",
		    u.userid, days, days == 1 ? "" : "s", gamefile_time_str(v.end, token), v.used, cap,
		    cap == 1 ? "" : "s", v.year, n - 1,
		    n == 2 ? "" : "s");
	else
		job_detail(j, "ok", "%s back; %d day%s given back, %d of %lu day%s of %d used; %d opponent%s told",
		    u.userid, back, back == 1 ? "" : "s", v.used, cap, cap == 1 ? "" : "s", v.year, n - 1,
		    n == 2 ? "" : "s");
out:
	for (i = 0; i < n; i++)
		reply_mail_release(&mails[i]);
	free(mails);
	return ps;
}
