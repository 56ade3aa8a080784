/*
 * The vacation bank (store/vacations.h) and the member-since of an account
 * (store.h's users file): lines of both forms, the accrual and its cap, the
 * absences and their overlaps, the time a clock stands still.
 */
#include "base/config.h"
#include "game/gamefile.h"
#include "store/store.h"
#include "store/vacations.h"
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "t_home.h"

#define DAY INT64_C(86400)
#define T0 INT64_C(1700000000)	/* 2023-11-14T22:13:20Z */

static struct config cfg;

/* A users line without since loads (since 0); a damaged since is refused naming it. */
static void test_since(void)
{
	static const char old[] = "# users\nbob:bob@example.com:$y$j9T$abc$def:Bob: the Builder\n";
	static const char good[] = "bob:bob@example.com:$y$j9T$abc$def:Bob\tsince=2023-11-14T22:13:20Z\n";
	static const char bad[] = "bob:bob@example.com:$y$j9T$abc$def:Bob\tsince=soon\n";
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_user u;

	ok(t_spew(t_path(home, "users"), old, strlen(old)) == 0, "a users line from before since");
	ok_int(store_user_find(st, "bob", &u), STORE_OK, "... loads");
	ok(u.since == 0 && strcmp(u.fullname, "Bob: the Builder") == 0, "... since 0, the full name whole");
	ok(t_spew(t_path(home, "users"), good, strlen(good)) == 0, "a line with since");
	ok_int(store_user_find(st, "bob", &u), STORE_OK, "... loads");
	ok(u.since == T0 && strcmp(u.fullname, "Bob") == 0, "... since read, the full name before the TAB");
	ok(t_spew(t_path(home, "users"), bad, strlen(bad)) == 0, "a line with a damaged since");
	ok_int(store_user_find(st, "bob", &u), STORE_CORRUPT, "... refused");
	ok(strstr(store_error(st), "member-since") != NULL, "... saying what: %s", store_error(st));
	store_close(st);
	t_home_free(home);
}

/* Both forms of a vacations line, the write, and damaged lines. */
static void test_lines(void)
{
	static const char text[] = "# vacations\n"
	    "alice 2023-11-01T00:00:00Z 2023-11-08T00:00:00Z 2023 7\n"
	    "bob bank=12 ticks=30 away=2023-12-24T00:00:00Z,2024-01-01T00:00:00Z,8\n";
	static const char *const bad[] = { "bob bank=12\n", "bob bank=x ticks=1\n", "bob bank=400 ticks=1\n",
		"bob bank=1 ticks=1 away=2023-12-24T00:00:00Z,2023-12-20T00:00:00Z,3\n",
		"bob bank=1 ticks=1 away=2023-12-24T00:00:00Z,2023-12-26T00:00:00Z,2 "
		"away=2023-12-25T00:00:00Z,2023-12-27T00:00:00Z,2\n", "bob bank=1 ticks=1 what=2\n" };
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct vacation v, *list;
	char *out;
	size_t n, i;

	ok(t_spew(t_path(home, "vacations"), text, strlen(text)) == 0, "a file of both forms");
	ok_int(vacations_find(st, "alice", &v), STORE_OK, "the old line loads");
	ok(!v.banked && v.old_year == 2023 && v.old_used == 7 && v.n == 1 && v.away[0].days == 7,
	    "... its absence and the days used of 2023");
	ok_int(vacations_find(st, "bob", &v), STORE_OK, "the new line loads");
	ok(v.banked && v.bank == 12 && v.ticks == 30 && v.n == 1 && v.away[0].days == 8, "... bank, ticks, absence");
	v.bank = 4;
	ok_int(vacations_set(st, &v), STORE_OK, "bob written");
	out = t_slurp(t_path(home, "vacations"), NULL);
	ok(out != NULL && strstr(out, "\nalice 2023-11-01T00:00:00Z 2023-11-08T00:00:00Z 2023 7\n") != NULL,
	    "alice's old line stays as it was");
	ok(out != NULL && strstr(out, "\nbob bank=4 ticks=30 away=2023-12-24T00:00:00Z,2024-01-01T00:00:00Z,8\n"),
	    "bob's line in the new form");
	free(out);
	ok_int(vacations_find(st, "carol", &v), STORE_NOT_FOUND, "nobody else");
	ok(strcmp(v.userid, "carol") == 0 && !v.banked && v.n == 0, "... a fresh line of carol");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ok(t_spew(t_path(home, "vacations"), bad[i], strlen(bad[i])) == 0, "damaged: %s", bad[i]);
		ok_int(vacations_read(st, &list, &n), STORE_CORRUPT, "... refused");
	}
	ok(strstr(store_error(st), "vacations line 1") != NULL, "... naming the line: %s", store_error(st));
	store_close(st);
	t_home_free(home);
}

/* The accrual: a day every 12 days, at most 30; an old line's days used this year owed. */
static void test_accrue(void)
{
	const struct vacation_rule rule = { 12, 30 };
	struct vacation v;
	int64_t next;

	memset(&v, 0, sizeof v);
	vacation_accrue(&v, T0, T0 + 11 * DAY, &rule, &next);
	ok(v.banked && v.bank == 0 && v.ticks == 0 && next == T0 + 12 * DAY, "11 days a member: nothing yet, "
	    "the first day at 12");
	vacation_accrue(&v, T0, T0 + 12 * DAY, &rule, &next);
	ok(v.bank == 1 && v.ticks == 1 && next == T0 + 24 * DAY, "12 days: 1 day");
	v.bank = 0;	/* used */
	vacation_accrue(&v, T0, T0 + 60 * DAY, &rule, &next);
	ok(v.bank == 4 && v.ticks == 5, "60 days, one used: 4");
	vacation_accrue(&v, T0, T0 + 1000 * DAY, &rule, &next);
	ok(v.bank == 30 && next == 0, "1000 days: the cap, no next day");
	v.bank = 25;
	vacation_accrue(&v, T0, T0 + 1007 * DAY, &rule, &next);
	ok(v.bank == 25 && next == T0 + 1008 * DAY, "the days past the cap were lost: the next at 1008");
	vacation_accrue(&v, T0, T0 + 1008 * DAY, &rule, &next);
	ok(v.bank == 26, "... 26 then");
	memset(&v, 0, sizeof v);
	vacation_accrue(&v, 0, T0, &rule, &next);
	ok(v.bank == 30, "a member from before since: a full bank");
	memset(&v, 0, sizeof v);
	v.old_year = 2023;
	v.old_used = 7;
	vacation_accrue(&v, 0, T0, &rule, &next);
	ok(v.bank == 23 && v.old_used == 0, "an old line owes the days used in the year");
	memset(&v, 0, sizeof v);
	v.old_year = 2022;
	v.old_used = 7;
	vacation_accrue(&v, 0, T0, &rule, &next);
	ok(v.bank == 30, "... not those of another year");
	memset(&v, 0, sizeof v);
	vacation_accrue(&v, T0, T0 + 100 * DAY, &(struct vacation_rule){ 0, 30 }, &next);
	ok(v.bank == 0 && next == 0, "vacation_accrual_days 0: nothing accrues");
}

/* Absences: sorted, no overlap, room made from ended ones; the time a clock stood still. */
static void test_absences(void)
{
	struct vacation v;
	const struct vacation_absence *clash;
	struct vacation_absence a = { T0 + 10 * DAY, T0 + 12 * DAY, 2 }, b = { T0 + 2 * DAY, T0 + 4 * DAY, 2 },
	    c = { T0 + 11 * DAY, T0 + 13 * DAY, 2 };
	size_t i;

	memset(&v, 0, sizeof v);
	ok(vacation_add(&v, &a, T0, &clash) && vacation_add(&v, &b, T0, &clash), "two absences");
	ok(v.n == 2 && v.away[0].from == b.from, "... sorted");
	ok(!vacation_add(&v, &c, T0, &clash) && clash == &v.away[1], "an overlapping one refused, naming it");
	ok(vacation_booked(&v, T0) == 2 && vacation_booked(&v, T0 + 3 * DAY) == 1, "booked: those not begun");
	ok(!vacation_away(&v, T0 + DAY) && vacation_away(&v, T0 + 3 * DAY) && !vacation_away(&v, T0 + 4 * DAY),
	    "away from from, to to");
	ok(vacation_current(&v, T0 + 5 * DAY) == &v.away[0], "after it: the last ended");
	ok(vacation_stopped(&v, T0, T0 + 20 * DAY) == 4 * DAY, "a clock from T0 stood 4 days");
	ok(vacation_stopped(&v, T0 + 3 * DAY, T0 + 11 * DAY) == 2 * DAY, "from inside one, to inside the other");
	for (i = 0; i < 4; i++) {
		struct vacation_absence x = { T0 + (20 + 3 * (int64_t)i) * DAY, T0 + (21 + 3 * (int64_t)i) * DAY, 1 };

		ok(vacation_add(&v, &x, T0, &clash), "absence %zu", i + 3);
	}
	{
		struct vacation_absence x = { T0 + 40 * DAY, T0 + 41 * DAY, 1 };

		ok(!vacation_add(&v, &x, T0, &clash) && clash == NULL, "a seventh not ended: refused");
		ok(vacation_add(&v, &x, T0 + 5 * DAY, &clash) && v.n == VACATIONS_AWAY_MAX && v.away[0].from == a.from,
		    "once the first ended: it makes room");
	}
	vacation_remove(&v, 0);
	ok(v.n == VACATIONS_AWAY_MAX - 1 && v.away[0].from == T0 + 20 * DAY, "removed");
}

int main(void)
{
	config_defaults(&cfg);
	cfg.password_cost = 1;
	test_since();
	test_lines();
	test_accrue();
	test_absences();
	return t_done();
}
