/* vacations: the vacation banks and absences, <home>/vacations.  See vacations.h. */
#include "store/vacations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/gamefile.h"

static const char header[] = "# oustpbm vacations: userid bank=DAYS ticks=N [away=FROM,TO,DAYS]... "
    "Format: games/README.md\n";

static void fresh(struct vacation *v, const char *userid)
{
	memset(v, 0, sizeof *v);
	snprintf(v->userid, sizeof v->userid, "%s", userid);
	ident_userid_fold(v->userid);
}

/* A time "2026-11-24T02:40:00Z" of s[0..len) into *t. */
static bool parse_time(const char *s, size_t len, int64_t *t)
{
	return len > 0 && gamefile_time_parse(s, len, t);
}

/* "FROM,TO,DAYS" into a. */
static bool parse_away(const char *s, struct vacation_absence *a)
{
	const char *c1 = strchr(s, ','), *c2 = c1 != NULL ? strchr(c1 + 1, ',') : NULL;
	char *end;
	long d;

	if (c2 == NULL || !parse_time(s, (size_t)(c1 - s), &a->from) ||
	    !parse_time(c1 + 1, (size_t)(c2 - c1 - 1), &a->to) || a->to <= a->from)
		return false;
	d = strtol(c2 + 1, &end, 10);
	if (end == c2 + 1 || *end != '\0' || d < 0 || d > 10000)
		return false;
	a->days = (int)d;
	return true;
}

/* The old form "alice 2026-11-24T02:40:00Z 2026-12-01T02:40:00Z 2026 7" into v. */
static bool parse_old(const char *line, struct vacation *v)
{
	char id[IDENT_USERID_MAX + 2], a[GAMEFILE_TIME_SIZE + 1], b[GAMEFILE_TIME_SIZE + 1];
	int64_t start, end;
	int year, used, n = 0;

	if (sscanf(line, "%33s %21s %21s %d %d%n", id, a, b, &year, &used, &n) != 5 || line[n] != '\0')
		return false;
	if (strlen(id) > IDENT_USERID_MAX || !ident_userid_ok(id))
		return false;
	if (!gamefile_time_parse(a, strlen(a), &start) || !gamefile_time_parse(b, strlen(b), &end) ||
	    end < start || year < 1970 || year > 9999 || used < 0 || used > 366)
		return false;
	fresh(v, id);
	v->old_year = year;
	v->old_used = used;
	if (end > start) {
		v->away[0].from = start;
		v->away[0].to = end;
		v->away[0].days = (int)((end - start + VACATIONS_DAY - 1) / VACATIONS_DAY);
		v->n = 1;
	}
	return true;
}

/* One line of either form into v. */
static bool parse_line(const char *s, size_t len, struct vacation *v)
{
	char line[VACATIONS_LINE_MAX + 1], *save = NULL, *w, *end;
	long x;
	bool bank = false, ticks = false;

	if (len > VACATIONS_LINE_MAX || memchr(s, '\0', len) != NULL)
		return false;
	memcpy(line, s, len);
	line[len] = '\0';
	w = strchr(line, ' ');
	if (w == NULL || strncmp(w + 1, "bank=", 5) != 0)
		return parse_old(line, v);
	*w = '\0';
	if (strlen(line) > IDENT_USERID_MAX || !ident_userid_ok(line))
		return false;
	fresh(v, line);
	v->banked = true;
	for (w = strtok_r(w + 1, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "bank=", 5) == 0 && !bank) {
			x = strtol(w + 5, &end, 10);
			if (end == w + 5 || *end != '\0' || x < 0 || x > 366)
				return false;
			v->bank = (int)x;
			bank = true;
		} else if (strncmp(w, "ticks=", 6) == 0 && !ticks) {
			x = strtol(w + 6, &end, 10);
			if (end == w + 6 || *end != '\0' || x < 0 || x > 100000000L)
				return false;
			v->ticks = x;
			ticks = true;
		} else if (strncmp(w, "away=", 5) == 0 && v->n < VACATIONS_AWAY_MAX) {
			if (!parse_away(w + 5, &v->away[v->n]))
				return false;
			if (v->n > 0 && v->away[v->n].from < v->away[v->n - 1].to)
				return false;	/* not sorted, or overlapping */
			v->n++;
		} else {
			return false;
		}
	}
	return bank && ticks;
}

/* parse_line() as store.h's record parser. */
static bool vacation_record(const char *line, size_t len, void *rec, const char **why)
{
	*why = "is not 'userid bank=DAYS ticks=N [away=FROM,TO,DAYS]...' (at most 6 absences, sorted, apart) "
	    "nor 'userid start end year used'";
	return parse_line(line, len, rec);
}

enum store_status vacations_read(struct store *st, struct vacation **list, size_t *n)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, &(struct store_records){ VACATIONS_FILE, VACATIONS_FILE_MAX, sizeof **list,
	    vacation_record }, &recs, NULL, n);
	*list = recs;
	return status == STORE_NOT_FOUND ? STORE_OK : status;
}

const struct vacation *vacations_of(const struct vacation *list, size_t n, const char *userid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i].userid, userid) == 0)
			return &list[i];
	return NULL;
}

enum store_status vacations_find(struct store *st, const char *userid, struct vacation *out)
{
	struct vacation *list;
	const struct vacation *v;
	enum store_status status;
	size_t n;

	fresh(out, userid);
	status = vacations_read(st, &list, &n);
	if (status != STORE_OK)
		return status;
	v = vacations_of(list, n, userid);
	if (v != NULL)
		*out = *v;
	free(list);
	return v != NULL ? STORE_OK : STORE_NOT_FOUND;
}

void vacations_line(const struct vacation *v, char buf[VACATIONS_LINE_MAX + 1])
{
	char a[GAMEFILE_TIME_SIZE], b[GAMEFILE_TIME_SIZE];
	size_t used, i;

	used = (size_t)snprintf(buf, VACATIONS_LINE_MAX + 1, "%s bank=%d ticks=%ld", v->userid, v->bank, v->ticks);
	for (i = 0; i < v->n && used < VACATIONS_LINE_MAX; i++)
		used += (size_t)snprintf(buf + used, VACATIONS_LINE_MAX + 1 - used, " away=%s,%s,%d",
		    gamefile_time_str(v->away[i].from, a), gamefile_time_str(v->away[i].to, b), v->away[i].days);
}

enum store_status vacations_set(struct store *st, const struct vacation *v)
{
	struct vacation *list;
	enum store_status status;
	char *out;
	size_t n, i, used, cap;

	status = vacations_read(st, &list, &n);
	if (status != STORE_OK)
		return status;
	cap = sizeof header + (n + 1) * (VACATIONS_LINE_MAX + 2);
	out = malloc(cap);
	if (out == NULL) {
		free(list);
		store_set_error(st, "out of memory");
		return STORE_TEMPFAIL;
	}
	memcpy(out, header, sizeof header - 1);
	used = sizeof header - 1;
	for (i = 0; i <= n; i++) {
		const struct vacation *w = i < n ? &list[i] : v;

		if (i < n && strcmp(w->userid, v->userid) == 0)
			continue;	/* replaced by v, written last */
		if (!w->banked) {
			/* an old line stays as it was until its player changes it */
			char a[GAMEFILE_TIME_SIZE], b[GAMEFILE_TIME_SIZE];

			used += (size_t)snprintf(out + used, cap - used, "%s %s %s %d %d\n", w->userid,
			    gamefile_time_str(w->n > 0 ? w->away[0].from : 0, a),
			    gamefile_time_str(w->n > 0 ? w->away[0].to : 0, b), w->old_year, w->old_used);
			continue;
		}
		vacations_line(w, out + used);
		used += strlen(out + used);
		out[used++] = '\n';
	}
	status = store_write_capped(st, VACATIONS_FILE, out, used, VACATIONS_FILE_MAX);
	free(out);
	free(list);
	return status;
}

void vacation_accrue(struct vacation *v, int64_t since, int64_t now, const struct vacation_rule *rule,
    int64_t *next)
{
	const int64_t period = (int64_t)rule->accrual_days * VACATIONS_DAY;
	const int cap = (int)rule->cap;
	long t = 0;

	*next = 0;
	if (period > 0 && now > since)
		t = (long)((now - since) / period);
	if (!v->banked) {
		/* counted from the start; an old line owes the days used of this year's allowance */
		v->bank = t > cap ? cap : (int)t;
		if (v->old_year == vacation_year(now))
			v->bank -= v->old_used;
		v->banked = true;
	} else if (t > v->ticks) {
		v->bank = t - v->ticks > cap - v->bank ? cap : v->bank + (int)(t - v->ticks);
	}
	if (v->bank > cap)
		v->bank = cap;	/* the cap was lowered */
	if (v->bank < 0)
		v->bank = 0;
	v->ticks = t;
	v->old_year = v->old_used = 0;
	if (period > 0 && v->bank < cap)
		*next = gamefile_time_add(since, ((int64_t)t + 1) * period);
}

bool vacation_away(const struct vacation *v, int64_t now)
{
	const struct vacation_absence *a = vacation_current(v, now);

	return a != NULL && a->from <= now && now < a->to;
}

const struct vacation_absence *vacation_current(const struct vacation *v, int64_t now)
{
	const struct vacation_absence *last = NULL;
	size_t i;

	if (v == NULL)
		return NULL;
	for (i = 0; i < v->n; i++) {
		if (v->away[i].from <= now && now < v->away[i].to)
			return &v->away[i];
		if (v->away[i].to <= now)
			last = &v->away[i];
	}
	return last;
}

size_t vacation_booked(const struct vacation *v, int64_t now)
{
	size_t i, k = 0;

	for (i = 0; i < v->n; i++)
		if (v->away[i].from > now)
			k++;
	return k;
}

int64_t vacation_stopped(const struct vacation *v, int64_t from, int64_t now)
{
	int64_t a, b, sum = 0;
	size_t i;

	if (v == NULL)
		return 0;
	for (i = 0; i < v->n; i++) {
		a = v->away[i].from > from ? v->away[i].from : from;
		b = v->away[i].to < now ? v->away[i].to : now;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

bool vacation_add(struct vacation *v, const struct vacation_absence *a, int64_t now,
    const struct vacation_absence **clash)
{
	size_t i, k;

	*clash = NULL;
	for (i = 0; i < v->n; i++)
		if (a->from < v->away[i].to && v->away[i].from < a->to) {
			*clash = &v->away[i];
			return false;
		}
	if (v->n == VACATIONS_AWAY_MAX) {
		/* room: the oldest absence ended (sorted: the first) */
		if (v->away[0].to > now)
			return false;
		vacation_remove(v, 0);
	}
	for (k = 0; k < v->n && v->away[k].from < a->from; k++)
		;
	memmove(&v->away[k + 1], &v->away[k], (v->n - k) * sizeof v->away[0]);
	v->away[k] = *a;
	v->n++;
	return true;
}

void vacation_remove(struct vacation *v, size_t i)
{
	if (i >= v->n)
		return;
	memmove(&v->away[i], &v->away[i + 1], (v->n - i - 1) * sizeof v->away[0]);
	v->n--;
}

int vacation_year(int64_t t)
{
	char s[GAMEFILE_TIME_SIZE];

	return atoi(gamefile_time_str(t, s));
}

void vacations_token(const struct vacation *v, char buf[VACATIONS_TOKEN_MAX + 1])
{
	char line[VACATIONS_LINE_MAX + 1];

	vacations_line(v, line);
	snprintf(buf, VACATIONS_TOKEN_MAX + 1, "vacation %s", line);
}
