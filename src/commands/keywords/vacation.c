/*
 * vacation <userid> <password> <days>|off|<from> <to>|cancel <from>: the
 * sender's absences, taken from their vacation bank (store/vacations.h: a
 * day for every vacation_accrual_days as a member, at most
 * vacation_max_days).  <days>: away from now for that many days (while
 * away: the absence running goes on to that many days from now); off: back
 * early, the whole days not begun given back; <from> <to>: an absence
 * booked ahead, the days from <from> 00:00 to the end of <to> in the
 * sender's time zone (settings.h), at most VACATIONS_BOOKED_MAX booked;
 * cancel <from>: the booking from that day dropped, its days given back.
 * While away, the clocks of the boards where the sender is to move stop
 * (cleanup counts the absences out).  The opponents of the boards still
 * played are told of <days> and off.  The write is an account change
 * (accounts.h's token "vacation LINE"), committed with its mails under
 * accounts.lock.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "base/tzone.h"
#include "commands/lib/away.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/robot.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/settings.h"
#include "store/vacations.h"

#define VACATION_MAILS_MAX 201	/* the sender's and one per opponent told; more opponents are not told */
#define USAGE "send vacation <userid> <password> <days>, off, <from> <to> (dates YYYY-MM-DD) or cancel <from>"

enum vacation_kind { VACATION_DAYS, VACATION_OFF, VACATION_BOOK, VACATION_CANCEL };

/* What the mail asks, parsed. */
struct vacation_ask {
	enum vacation_kind kind;
	int days;			/* VACATION_DAYS */
	char from[16], to[16];		/* VACATION_BOOK, VACATION_CANCEL: the dates as written */
	int64_t at, until;		/* their local 00:00, and the 00:00 after the last day */
	long day_from, day_to;		/* their day numbers (days since 1970-01-01) */
};

static enum store_status write_vacation(struct job *j, const char *token, const char *expect, const void *arg)
{
	return vacations_set(j->srv.st, arg);
}

/* "2026-12-24" into its day number and its local 00:00 in zone; false if it is no date. */
static bool parse_date(const char *s, const char *zone, long *day, int64_t *at)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	struct tm tm;
	int y, m, d, n = 0;

	if (strlen(s) != 10 || sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || n != 10 || s[4] != '-' ||
	    s[7] != '-' || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[5]) ||
	    !isdigit((unsigned char)s[8]))
		return false;
	if (y < 1970 || y > 9999 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ||
	    (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
		return false;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_isdst = -1;
	*at = tzone_mktime(&tm, zone);
	*day = (long)tzone_days_from_civil(y, m, d);
	return true;
}

/* The local 00:00 of the day after day number day, in zone. */
static int64_t day_after(long day, const char *zone)
{
	struct tm tm;

	memset(&tm, 0, sizeof tm);
	tm.tm_year = 70;
	tm.tm_mday = (int)(day + 2);	/* mktime normalizes: 1970-01-01 is day 0 */
	tm.tm_isdst = -1;
	return tzone_mktime(&tm, zone);
}

/* The bank's cap under the server's rule. */
static int bank_cap(const struct job *j)
{
	struct vacation_rule rule;

	away_rule(j, &rule);
	return (int)rule.cap;
}

/* The words after the password into *a; false after the refusal. */
static bool parse_ask(struct job *j, const char *zone, struct vacation_ask *a, enum process_status *ps)
{
	char w[3][48];
	char *end;
	long n;
	int k;

	memset(a, 0, sizeof *a);
	w[0][0] = w[1][0] = w[2][0] = '\0';
	k = sscanf(j->cmd.text, "%47s %47s %47s", w[0], w[1], w[2]);
	if (k <= 0) {
		*ps = job_refuse(j, NULL, "vacation: what? " USAGE);
		return false;
	}
	if (k == 1 && strcasecmp(w[0], "off") == 0) {
		a->kind = VACATION_OFF;
		return true;
	}
	if (strcasecmp(w[0], "cancel") == 0) {
		if (k != 2 || !parse_date(w[1], zone, &a->day_from, &a->at)) {
			*ps = job_refuse(j, NULL, "vacation cancel: give the first day of the booking, as YYYY-MM-DD: "
			    "vacation <userid> <password> cancel <from>");
			return false;
		}
		a->kind = VACATION_CANCEL;
		snprintf(a->from, sizeof a->from, "%.15s", w[1]);
		return true;
	}
	if (k == 2 && strchr(w[0], '-') != NULL && w[0][0] != '-') {
		if (!parse_date(w[0], zone, &a->day_from, &a->at) || !parse_date(w[1], zone, &a->day_to, &a->until)) {
			*ps = job_refuse(j, NULL, "vacation %.20s %.20s: a booking's days are dates, YYYY-MM-DD: "
			    USAGE, w[0], w[1]);
			return false;
		}
		a->kind = VACATION_BOOK;
		snprintf(a->from, sizeof a->from, "%.15s", w[0]);
		snprintf(a->to, sizeof a->to, "%.15s", w[1]);
		return true;
	}
	if (k == 1 && strchr(w[0] + 1, '-') != NULL) {
		*ps = job_refuse(j, NULL, "vacation %.20s: give the last day too: vacation <userid> <password> "
		    "<from> <to>", w[0]);
		return false;
	}
	n = strtol(w[0], &end, 10);
	if (k != 1 || end == w[0] || *end != '\0' ||
	    !(isdigit((unsigned char)w[0][0]) || w[0][0] == '-' || w[0][0] == '+')) {
		*ps = job_refuse(j, NULL, "'%.40s' is not a number of days: " USAGE, j->cmd.text);
		return false;
	}
	if (n < 1) {
		*ps = job_refuse(j, NULL, "vacation %.40s: the days must be from 1 to %d", w[0], bank_cap(j));
		return false;
	}
	a->kind = VACATION_DAYS;
	a->days = n > 10000 ? 10000 : (int)n;
	return true;
}

/* Give days back to v's bank, never past the cap. */
static void give_back(const struct job *j, struct vacation *v, int days)
{
	v->bank += days;
	if (v->bank > bank_cap(j))
		v->bank = bank_cap(j);
}

/* "2026-12-24 to 2026-12-31" of absence x in zone into out. */
static void span_str(const struct vacation_absence *x, const char *zone, char out[96])
{
	struct tm a, b;

	tzone_local(x->from, zone, &a);
	tzone_local(x->to - 1, zone, &b);
	snprintf(out, 96, "%04d-%02d-%02d to %04d-%02d-%02d", a.tm_year + 1900, a.tm_mon + 1, a.tm_mday,
	    b.tm_year + 1900, b.tm_mon + 1, b.tm_mday);
}

/* The refusal of a bank too small for days. */
static enum process_status refuse_bank(struct job *j, const char *what, int days, const struct vacation *v, int back)
{
	if (bank_cap(j) == 0)
		return job_refuse(j, NULL, "vacation %s: this server allows no vacation (vacation_max_days is 0)", what);
	return job_refuse(j, NULL, "vacation %s: %d day%s asked, your vacation bank holds %d (a day for every %lu days "
	    "as a member, at most %d)", what, days, days == 1 ? "" : "s", v->bank + back,
	    j->srv.cfg.vacation_accrual_days, bank_cap(j));
}

/* A booking a into v (the refusals: a past day, from after to, the bank, a fourth booking, an overlap). */
static bool book(struct job *j, struct vacation *v, const struct vacation_ask *a, const char *zone,
    enum process_status *ps)
{
	const int64_t now = (int64_t)j->srv.now;
	struct vacation_absence x;
	const struct vacation_absence *clash;
	struct tm tm;
	char what[48], today[40], other[96];
	long day_today;
	int days;

	snprintf(what, sizeof what, "%s %s", a->from, a->to);
	tzone_local(now, zone, &tm);
	day_today = (long)tzone_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	snprintf(today, sizeof today, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
	if (a->day_from < day_today || a->day_to < day_today) {
		*ps = job_refuse(j, NULL, "vacation %s: %s is past: today is %s (%s)", what,
		    a->day_from < day_today ? a->from : a->to, today, zone);
		return false;
	}
	if (a->day_from > a->day_to) {
		*ps = job_refuse(j, NULL, "vacation %s: the first day, %s, is after the last, %s", what, a->from, a->to);
		return false;
	}
	days = (int)(a->day_to - a->day_from + 1);
	if (days > v->bank) {
		*ps = refuse_bank(j, what, days, v, 0);
		return false;
	}
	x.from = a->at > now ? a->at : now;	/* from today: from now */
	x.to = day_after(a->day_to, zone);
	x.days = days;
	if (x.from > now && vacation_booked(v, now) >= VACATIONS_BOOKED_MAX) {
		*ps = job_refuse(j, NULL, "vacation %s: you have %d absences booked already, the most there may be: "
		    "cancel one first (vacation <userid> <password> cancel <from>)", what, VACATIONS_BOOKED_MAX);
		return false;
	}
	if (!vacation_add(v, &x, now, &clash)) {
		if (clash != NULL) {
			span_str(clash, zone, other);
			*ps = job_refuse(j, NULL, "vacation %s: it overlaps your absence of %s", what, other);
		} else {
			*ps = job_refuse(j, NULL, "vacation %s: you have %d absences not ended, the most kept", what,
			    VACATIONS_AWAY_MAX);
		}
		return false;
	}
	v->bank -= days;
	return true;
}

/* Cancel the booking from day a->from; false after the refusal. */
static bool cancel(struct job *j, struct vacation *v, const struct vacation_ask *a, const char *zone, int *days,
    enum process_status *ps)
{
	const int64_t now = (int64_t)j->srv.now;
	struct tm tm;
	size_t i;

	for (i = 0; i < v->n; i++) {
		tzone_local(v->away[i].from, zone, &tm);
		if (v->away[i].to <= now ||
		    (long)tzone_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday) != a->day_from)
			continue;
		if (v->away[i].from <= now) {
			*ps = job_refuse(j, NULL, "vacation cancel %s: that absence has begun: send vacation <userid> "
			    "<password> off to come back", a->from);
			return false;
		}
		*days = v->away[i].days;
		vacation_remove(v, i);
		give_back(j, v, *days);
		return true;
	}
	*ps = job_refuse(j, NULL, "vacation cancel %s: you have no absence booked from %s", a->from, a->from);
	return false;
}

/*
 * The mails of a vacation of days (0: back; -1: a booking or cancel, news
 * saying which, to the sender alone): the sender's, and a notice to the
 * opponent of each board still played; into m[0..*n).
 */
/* What the sender's mail tells: the absence's end, its days (0: back; -1: a booking or cancel), the bank, news. */
struct vacation_news {
	int64_t until;
	int days;
	const char *bank;
	const char *news;
};

static enum process_status make_mails(struct job *j, const struct store_user *u, const struct vacation_news *vn,
    struct reply_mail *m, int *n)
{
	const int days = vn->days;
	const char *bank = vn->bank, *news = vn->news;
	const bool away = days > 0;
	char subject[200], untilstr[REPLY_TIME_SIZE], ndays[16], day_count[32], boards[1000];
	struct store_user o;
	struct game *games = NULL;
	enum process_status ps;
	enum mail_status rs;
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
	reply_time_str(vn->until, untilstr);
	snprintf(ndays, sizeof ndays, "%d", days);
	snprintf(day_count, sizeof day_count, "%d day%s", days, days == 1 ? "" : "s");
	snprintf(subject, sizeof subject, "Oust vacation of %s", u->userid);
	{
		struct reply_var vars[] = { { "userid", u->userid }, { "until", untilstr }, { "days", ndays },
		    { "day_count", day_count }, { "bank", bank }, { "news", news },
		    { "boards", boards[0] != '\0' ? boards : "none" } };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u->userid) },
		    days < 0 ? "vacationbook" : away ? "vacation" : "vacationoff", subject, vars,
		    sizeof vars / sizeof vars[0], &m[(*n)++]);
		for (i = 0; days >= 0 && rs == MAIL_OK && i < ng && *n < VACATION_MAILS_MAX; i++) {
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
	if (rs != MAIL_OK)
		return job_reply_failure(j, rs);
	return PROCESS_OK;
}

/* v changed by a: the days form or off; false after the refusal. *back: the days given back. */
static bool days_or_off(struct job *j, struct vacation *v, const struct vacation_ask *a, int *back,
    enum process_status *ps)
{
	const int64_t now = (int64_t)j->srv.now;
	const struct vacation_absence *clash, *cur = vacation_away(v, now) ? vacation_current(v, now) : NULL;
	struct vacation_absence x;
	size_t i = cur != NULL ? (size_t)(cur - v->away) : 0;
	char what[24];

	*back = cur != NULL ? (int)((cur->to - now) / VACATIONS_DAY) : 0;
	if (a->kind == VACATION_OFF) {
		if (cur == NULL) {
			*ps = job_refuse(j, NULL, "vacation off: you are not away");
			return false;
		}
		v->away[i].to = now;
		v->away[i].days -= *back;
		if (v->away[i].to <= v->away[i].from)
			vacation_remove(v, i);
		give_back(j, v, *back);
		return true;
	}
	snprintf(what, sizeof what, "%d", a->days);
	if (bank_cap(j) == 0 || a->days > v->bank + *back) {
		*ps = refuse_bank(j, what, a->days, v, *back);
		return false;
	}
	/* a vacation while away replaces the one running: the absence goes on from its start */
	x.from = cur != NULL ? cur->from : now;
	x.to = gamefile_time_add(now, (int64_t)a->days * VACATIONS_DAY);
	x.days = (cur != NULL ? cur->days - *back : 0) + a->days;
	if (cur != NULL)
		vacation_remove(v, i);
	if (!vacation_add(v, &x, now, &clash)) {
		char other[96];

		if (clash != NULL) {
			span_str(clash, TZONE_DEFAULT, other);
			*ps = job_refuse(j, NULL, "vacation %s: it would overlap your absence booked for %s (UTC): "
			    "cancel it first, or ask fewer days", what, other);
		} else {
			*ps = job_refuse(j, NULL, "vacation %s: you have %d absences not ended, the most kept", what,
			    VACATIONS_AWAY_MAX);
		}
		return false;
	}
	v->bank += *back - a->days;
	return true;
}

enum process_status vacation_run(struct job *j)
{
	const int64_t now = (int64_t)j->srv.now;
	char token[VACATIONS_TOKEN_MAX + 1], bank[AWAY_BANK_MAX], news[200], err[SETTINGS_ERR_MAX];
	char tstr[GAMEFILE_TIME_SIZE];
	struct reply_mail *mails = NULL;
	struct store_user u;
	struct settings s;
	struct vacation v;
	struct vacation_rule rule;
	struct vacation_ask a;
	enum store_status ss;
	struct job_account_result wrote;
	enum process_status ps;
	int n = 0, i, back = 0, days;
	int64_t next, until = 0;
	bool ok;

	ps = job_authenticate(j, j->cmd.userid, j->cmd.password, &u, &ok);
	if (ps != PROCESS_OK || !ok)
		return ps;
	ss = settings_find(j->srv.st, u.userid, &s, err);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the settings");
	if (!parse_ask(j, s.timezone, &a, &ps))
		return ps;
	ss = vacations_find(j->srv.st, u.userid, &v);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND)
		return job_store_failure(j, ss, "cannot read the vacations");
	away_rule(j, &rule);
	vacation_accrue(&v, u.since, now, &rule, &next);
	news[0] = '\0';
	days = a.kind == VACATION_DAYS ? a.days : a.kind == VACATION_OFF ? 0 : -1;
	if (a.kind == VACATION_BOOK) {
		if (!book(j, &v, &a, s.timezone, &ps))
			return ps;
		snprintf(news, sizeof news, "Booked: away from %s 00:00 to the end of %s (%s), %d day%s from your bank.",
		    a.from, a.to, s.timezone, (int)(a.day_to - a.day_from + 1), a.day_to == a.day_from ? "" : "s");
	} else if (a.kind == VACATION_CANCEL) {
		if (!cancel(j, &v, &a, s.timezone, &back, &ps))
			return ps;
		snprintf(news, sizeof news, "Cancelled: your absence from %s; its %d day%s went back to your bank.",
		    a.from, back, back == 1 ? "" : "s");
	} else if (!days_or_off(j, &v, &a, &back, &ps)) {
		return ps;
	}
	if (vacation_away(&v, now))
		until = vacation_current(&v, now)->to;
	/* the bank as it is after the change */
	vacation_accrue(&v, u.since, now, &rule, &next);
	away_bank(j, &v, s.timezone, next, bank, sizeof bank);
	mails = calloc(VACATION_MAILS_MAX, sizeof *mails);
	if (mails == NULL)
		return job_no_memory(j);
	ps = make_mails(j, &u, &(struct vacation_news){ until, days, bank, news }, mails, &n);
	if (ps != PROCESS_OK)
		goto out;
	vacations_token(&v, token);
	ps = job_commit_account(j, &(struct job_account_change){ u.userid, token, u.hash, write_vacation, &v },
	    mails, n, &wrote);
	if (ps != PROCESS_OK)
		goto out;
	if (wrote.status != STORE_OK) {
		ps = job_account_failure(j, &wrote, "cannot write the vacation");
		goto out;
	}
	if (a.kind == VACATION_DAYS)
		job_detail(j, "ok", "%s away for %d day%s, until %s; %d day%s left in the bank; %d opponent%s told",
		    u.userid, a.days, a.days == 1 ? "" : "s", gamefile_time_str(until, tstr), v.bank,
		    v.bank == 1 ? "" : "s", n - 1, n == 2 ? "" : "s");
	else if (a.kind == VACATION_OFF)
		job_detail(j, "ok", "%s back; %d day%s given back, %d in the bank; %d opponent%s told", u.userid, back,
		    back == 1 ? "" : "s", v.bank, n - 1, n == 2 ? "" : "s");
	else if (a.kind == VACATION_BOOK)
		job_detail(j, "ok", "%s booked %s to %s, %ld day%s; %d left in the bank", u.userid, a.from, a.to,
		    a.day_to - a.day_from + 1, a.day_to == a.day_from ? "" : "s", v.bank);
	else
		job_detail(j, "ok", "%s cancelled the booking from %s, %d day%s given back; %d in the bank", u.userid,
		    a.from, back, back == 1 ? "" : "s", v.bank);
out:
	for (i = 0; i < n; i++)
		reply_mail_release(&mails[i]);
	free(mails);
	return ps;
}
