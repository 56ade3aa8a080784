/*
 * settings: what each player asked for with `set <userid> <password>
 * key=value ...`, kept in the home's file "settings":
 *   timezone     an IANA zone of the system's zoneinfo (base/tzone.h), UTC
 *                by default: the times of the player's mails, their
 *                weekends and digest hours are in it;
 *   digest       off (a board mail for every turn), daily@HH or twice@HH,HH
 *                (local hours): when the digest of boards waiting is sent;
 *   warn         the marks of the deadline warnings, hours or days left on
 *                the clock, largest first: "72h,24h,4h" (default "24h"; at
 *                most SETTINGS_WARN_MAX), or off;
 *   weekends     on/off: the player's clocks stop at weekends on boards
 *                both players asked it of (default off);
 *   queued_mail  on/off: a mail when the player's own queued turn answers
 *                at once (default off).
 * The file is plain text, one line per player who set anything:
 * "userid key=value key=value ..." (every key, in the order above), sorted
 * by user id; '#' lines are comments.  Rewritten whole and durably
 * (store.h) under settings.lock; SETTINGS_FILE_MAX caps it (filecaps.c).
 * A damaged line is refused with its line number.  A player without a
 * line has the defaults.
 */
#ifndef OUSTPBM_SETTINGS_H
#define OUSTPBM_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/ident.h"
#include "base/tzone.h"
#include "store/store.h"

#define SETTINGS_FILE "settings"
#define SETTINGS_FILE_MAX (4L * 1024 * 1024)
#define SETTINGS_ERR_MAX 300
#define SETTINGS_WARN_MAX 5		/* warn marks */
#define SETTINGS_WARN_HOURS_MAX (366 * 24)	/* the largest mark */
#define SETTINGS_VALUE_MAX 80		/* bytes of a value as settings_get writes it */
#define SETTINGS_LINE_MAX 400		/* bytes of a file line, or of settings_format's text */

/* One player's settings. */
struct settings {
	char userid[IDENT_USERID_MAX + 1];
	char timezone[TZONE_NAME_MAX + 1];
	int digest_n;			/* 0 off, 1 daily, 2 twice */
	int digest_hours[2];		/* local hours 0..23, the first smaller */
	int nwarn;			/* 0: no warnings */
	int warn_hours[SETTINGS_WARN_MAX];	/* hours left, largest first, each once */
	bool weekends;
	bool queued_mail;
};

/* The keys, in their order: "timezone", "digest", "warn", "weekends", "queued_mail". */
extern const char *const settings_keys[];
extern const size_t settings_nkeys;

/* *s is userid's defaults. */
void settings_defaults(struct settings *s, const char *userid);

/*
 * Sets key (case-insensitive) to value in *s, checked: false with err
 * saying why (unknown key, bad value, unknown zone, too many marks), *s
 * unchanged.  check_zone: check the zone against the zoneinfo (a mail's
 * value), not only its shape (the file's, so that a zone tzdata drops does
 * not make the file unreadable).
 */
bool settings_set(struct settings *s, const char *key, const char *value, bool check_zone, char *err,
    size_t errsize);

/* The value of key in s as `set` takes it ("twice@08,18", "72h,24h"), into out; false for no such key. */
bool settings_get(const struct settings *s, const char *key, char *out, size_t size);

/* "timezone=UTC digest=off warn=24h weekends=off queued_mail=off" into out (SETTINGS_LINE_MAX). */
void settings_format(const struct settings *s, char *out, size_t size);

/* Every player's settings, sorted by user id; the caller frees *out.  err: what failed. */
enum store_status settings_load(struct store *st, struct settings **out, size_t *n, char *err);

/* userid's settings into *out: the defaults when it has none. */
enum store_status settings_find(struct store *st, const char *userid, struct settings *out, char *err);

/* userid's settings in v (settings_load) into *out, the defaults when none. */
void settings_of(const struct settings *v, size_t n, const char *userid, struct settings *out);

/* Keeps *s as its player's settings (its line replaced, or removed when all are the defaults),
 * waiting at most timeout_ms for the lock. */
enum store_status settings_save(struct store *st, unsigned long timeout_ms, const struct settings *s, char *err);

/* Whether local hour `hour` is one of s's digest hours. */
bool settings_digest_at(const struct settings *s, int hour);

#endif
