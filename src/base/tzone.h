/*
 * tzone: a player's time zone, an IANA name ("Europe/Paris", "UTC") as the
 * system's zoneinfo (tzdata) holds it, and the local time in it.  A name is
 * checked by its shape (letters, digits, '/', '_', '-', '+'; no empty or
 * dotted component, so no path leaves the zoneinfo folder) and by its file:
 * $TZDIR or /usr/share/zoneinfo, a regular file starting "TZif" (RFC 8536).
 * The conversions set TZ for the length of the call and put it back
 * (the C library knows no other way to name a zone); the program is one
 * thread.
 */
#ifndef OUSTPBM_TZONE_H
#define OUSTPBM_TZONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define TZONE_NAME_MAX 64	/* bytes of a zone name */
#define TZONE_DEFAULT "UTC"
#define TZONE_ERR_MAX 200
#define TZONE_STR_SIZE 96	/* "Sat 2023-11-18 14:00 Europe/Paris" and more */

/* Whether name is a zone of the system's zoneinfo; if not, err says why. */
bool tzone_valid(const char *name, char *err, size_t errsize);

/* t as the local time of zone (UTC when zone is "" or NULL) into *out. */
void tzone_local(int64_t t, const char *zone, struct tm *out);

/* The epoch seconds of local time *tm in zone (tm_isdst -1: the zone decides). */
int64_t tzone_mktime(const struct tm *tm, const char *zone);

/*
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms"): plain arithmetic, no zone.
 */
int64_t tzone_days_from_civil(int64_t y, int m, int d);

/* t in zone, to the minute: "Mon 2023-11-20 14:00 Europe/Paris", into out (TZONE_STR_SIZE). */
void tzone_str(int64_t t, const char *zone, char *out, size_t size);

#endif
