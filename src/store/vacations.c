/* vacations: the players away, <home>/vacations.  See vacations.h. */
#include "store/vacations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/gamefile.h"

static const char header[] = "# oustpbm vacations: userid start end year used. Format: games/README.md\n";

#define LINE_MAX_BYTES (IDENT_USERID_MAX + 2 * GAMEFILE_TIME_SIZE + 24)

/* One line "alice 2026-11-24T02:40:00Z 2026-12-01T02:40:00Z 2026 7" into v. */
static bool parse_line(const char *s, size_t len, struct vacation *v)
{
	char id[IDENT_USERID_MAX + 2], a[GAMEFILE_TIME_SIZE + 1], b[GAMEFILE_TIME_SIZE + 1], line[LINE_MAX_BYTES + 1];
	int year, used, n = 0;

	if (len > LINE_MAX_BYTES)
		return false;
	memcpy(line, s, len);
	line[len] = '\0';
	memset(v, 0, sizeof *v);
	if (sscanf(line, "%33s %21s %21s %d %d%n", id, a, b, &year, &used, &n) != 5 || (size_t)n != len)
		return false;
	if (strlen(id) > IDENT_USERID_MAX || !ident_userid_ok(id))
		return false;
	if (!gamefile_time_parse(a, strlen(a), &v->start) || !gamefile_time_parse(b, strlen(b), &v->end) ||
	    v->end < v->start || year < 1970 || year > 9999 || used < 0 || used > 366)
		return false;
	memcpy(v->userid, id, strlen(id) + 1);
	ident_userid_fold(v->userid);
	v->year = year;
	v->used = used;
	return true;
}

/* parse_line() as store.h's record parser. */
static bool vacation_record(const char *line, size_t len, void *rec, const char **why)
{
	*why = "is not 'userid start end year used'";
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

	status = vacations_read(st, &list, &n);
	if (status != STORE_OK)
		return status;
	v = vacations_of(list, n, userid);
	if (v != NULL)
		*out = *v;
	free(list);
	return v != NULL ? STORE_OK : STORE_NOT_FOUND;
}

enum store_status vacations_set(struct store *st, const struct vacation *v)
{
	struct vacation *list;
	enum store_status status;
	char *out, a[GAMEFILE_TIME_SIZE], b[GAMEFILE_TIME_SIZE];
	size_t n, i, used, cap;

	status = vacations_read(st, &list, &n);
	if (status != STORE_OK)
		return status;
	cap = sizeof header + (n + 1) * (LINE_MAX_BYTES + 2);
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
		used += (size_t)snprintf(out + used, cap - used, "%s %s %s %d %d\n", w->userid,
		    gamefile_time_str(w->start, a), gamefile_time_str(w->end, b), w->year, w->used);
	}
	status = store_write_capped(st, VACATIONS_FILE, out, used, VACATIONS_FILE_MAX);
	free(out);
	free(list);
	return status;
}

bool vacation_away(const struct vacation *v, int64_t now)
{
	return v != NULL && v->start <= now && now < v->end;
}

int64_t vacation_stopped(const struct vacation *v, int64_t from, int64_t now)
{
	int64_t a, b;

	if (v == NULL)
		return 0;
	a = v->start > from ? v->start : from;
	b = v->end < now ? v->end : now;
	return b > a ? b - a : 0;
}

int vacation_year(int64_t t)
{
	char s[GAMEFILE_TIME_SIZE];

	return atoi(gamefile_time_str(t, s));
}

void vacations_token(const struct vacation *v, char buf[VACATIONS_TOKEN_MAX + 1])
{
	char a[GAMEFILE_TIME_SIZE], b[GAMEFILE_TIME_SIZE];

	snprintf(buf, VACATIONS_TOKEN_MAX + 1, "vacation %s %s", gamefile_time_str(v->start, a),
	    gamefile_time_str(v->end, b));
}
