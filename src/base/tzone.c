/* tzone: time zones by their IANA names (tzone.h). */
#include "base/tzone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool name_shape_ok(const char *name)
{
	const char *p;
	size_t len = strlen(name);

	if (len == 0 || len > TZONE_NAME_MAX || name[0] == '/' || name[len - 1] == '/')
		return false;
	for (p = name; *p != '\0'; p++) {
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '/' || *p == '_' || *p == '-' || *p == '+'))
			return false;
		if (*p == '/' && p[1] == '/')
			return false;
	}
	return true;
}

bool tzone_valid(const char *name, char *err, size_t errsize)
{
	const char *dir = getenv("TZDIR");
	char path[512], magic[4];
	struct stat sb;
	FILE *f;
	bool ok;

	if (!name_shape_ok(name)) {
		snprintf(err, errsize, "'%.64s' is not a time zone name (an IANA name such as Europe/Paris, "
		    "America/New_York or UTC)", name);
		return false;
	}
	if (dir == NULL || dir[0] == '\0')
		dir = "/usr/share/zoneinfo";
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? fopen(path, "rb") : NULL;
	ok = f != NULL && fread(magic, 1, 4, f) == 4 && memcmp(magic, "TZif", 4) == 0;
	if (f != NULL)
		fclose(f);
	if (!ok)
		snprintf(err, errsize, "unknown time zone '%.64s' (an IANA name such as Europe/Paris, "
		    "America/New_York or UTC)", name);
	return ok;
}

/* Sets TZ to zone (":zone", read from the zoneinfo), keeping the old one in old. */
static void tz_push(const char *zone, char *old, size_t size, bool *had)
{
	const char *v = getenv("TZ");
	char want[TZONE_NAME_MAX + 2];

	*had = v != NULL;
	snprintf(old, size, "%s", v != NULL ? v : "");
	snprintf(want, sizeof want, ":%s", zone != NULL && zone[0] != '\0' ? zone : TZONE_DEFAULT);
	setenv("TZ", want, 1);
	tzset();
}

static void tz_pop(const char *old, bool had)
{
	if (had)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
}

void tzone_local(int64_t t, const char *zone, struct tm *out)
{
	char old[256];
	time_t tt = (time_t)t;
	bool had;

	tz_push(zone, old, sizeof old, &had);
	if (localtime_r(&tt, out) == NULL)
		memset(out, 0, sizeof *out);
	tz_pop(old, had);
}

int64_t tzone_mktime(const struct tm *tm, const char *zone)
{
	struct tm copy = *tm;
	char old[256];
	time_t t;
	bool had;

	tz_push(zone, old, sizeof old, &had);
	t = mktime(&copy);
	tz_pop(old, had);
	return (int64_t)t;
}

void tzone_str(int64_t t, const char *zone, char *out, size_t size)
{
	struct tm tm;
	char when[40];

	tzone_local(t, zone, &tm);
	strftime(when, sizeof when, "%a %Y-%m-%d %H:%M", &tm);
	snprintf(out, size, "%s %s", when, zone != NULL && zone[0] != '\0' ? zone : TZONE_DEFAULT);
}

int64_t tzone_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}
