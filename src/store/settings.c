/* settings: the players' settings (settings.h). */
#include "store/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"

#define SETTINGS_LOCK "settings.lock"
#define SETTINGS_HEAD "# oustpbm: players' settings, \"userid key=value ...\" (set <userid> <password> key=value)\n"

const char *const settings_keys[] = { "timezone", "digest", "warn", "weekends", "queued_mail" };
const size_t settings_nkeys = sizeof settings_keys / sizeof settings_keys[0];

void settings_defaults(struct settings *s, const char *userid)
{
	memset(s, 0, sizeof *s);
	snprintf(s->userid, sizeof s->userid, "%.*s", IDENT_USERID_MAX, userid);
	snprintf(s->timezone, sizeof s->timezone, "%s", TZONE_DEFAULT);
	s->nwarn = 1;
	s->warn_hours[0] = 24;
}

/* An hour "HH" or "H", 0 to 23; -1 if not. */
static int parse_hour(const char *s, size_t len)
{
	if (len == 1 && s[0] >= '0' && s[0] <= '9')
		return s[0] - '0';
	if (len == 2 && s[0] >= '0' && s[0] <= '2' && s[1] >= '0' && s[1] <= '9' && (s[0] - '0') * 10 + s[1] - '0' < 24)
		return (s[0] - '0') * 10 + s[1] - '0';
	return -1;
}

static bool parse_digest(struct settings *s, const char *v, char *err, size_t errsize)
{
	const char *comma;
	int a, b;

	if (strcasecmp(v, "off") == 0) {
		s->digest_n = 0;
		return true;
	}
	if (strncasecmp(v, "daily@", 6) == 0 && (a = parse_hour(v + 6, strlen(v + 6))) >= 0) {
		s->digest_n = 1;
		s->digest_hours[0] = a;
		s->digest_hours[1] = 0;
		return true;
	}
	if (strncasecmp(v, "twice@", 6) == 0 && (comma = strchr(v + 6, ',')) != NULL &&
	    (a = parse_hour(v + 6, (size_t)(comma - v - 6))) >= 0 && (b = parse_hour(comma + 1, strlen(comma + 1))) >= 0) {
		if (a == b) {
			snprintf(err, errsize, "digest=%.40s: the two hours must differ", v);
			return false;
		}
		s->digest_n = 2;
		s->digest_hours[0] = a < b ? a : b;
		s->digest_hours[1] = a < b ? b : a;
		return true;
	}
	snprintf(err, errsize, "digest=%.40s: want off, daily@HH or twice@HH,HH (local hours 00 to 23: "
	    "daily@08, twice@08,18)", v);
	return false;
}

/* One mark, whole hours or days left: "24h", "3d"; its hours, or -1. */
static int parse_mark(const char *s, size_t len)
{
	unsigned long n = 0;
	size_t i;

	if (len < 2 || len > 6)
		return -1;
	for (i = 0; i + 1 < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		n = n * 10 + (unsigned long)(s[i] - '0');
	}
	if (s[len - 1] == 'd' || s[len - 1] == 'D')
		n *= 24;
	else if (s[len - 1] != 'h' && s[len - 1] != 'H')
		return -1;
	return n >= 1 && n <= SETTINGS_WARN_HOURS_MAX ? (int)n : -1;
}

static bool parse_warn(struct settings *s, const char *v, char *err, size_t errsize)
{
	int marks[SETTINGS_WARN_MAX], n = 0, h, i, k, t;
	const char *p = v;
	size_t len;

	if (strcasecmp(v, "off") == 0) {
		s->nwarn = 0;
		return true;
	}
	for (;;) {
		len = strcspn(p, ",");
		h = parse_mark(p, len);
		if (h < 0) {
			snprintf(err, errsize, "warn=%.60s: '%.*s' is not a mark: want hours or days left, as 72h,24h,4h "
			    "or 3d,1d (1h to %dd), or off", v, (int)(len > 20 ? 20 : len), p, SETTINGS_WARN_HOURS_MAX / 24);
			return false;
		}
		if (n == SETTINGS_WARN_MAX) {
			snprintf(err, errsize, "warn=%.60s: too many marks, at most %d", v, SETTINGS_WARN_MAX);
			return false;
		}
		for (i = 0; i < n; i++) {
			if (marks[i] == h) {
				snprintf(err, errsize, "warn=%.60s: the mark %dh is given twice", v, h);
				return false;
			}
		}
		marks[n++] = h;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	/* largest first: the order the clock passes them */
	for (i = 1; i < n; i++)
		for (k = i; k > 0 && marks[k - 1] < marks[k]; k--) {
			t = marks[k];
			marks[k] = marks[k - 1];
			marks[k - 1] = t;
		}
	s->nwarn = n;
	memcpy(s->warn_hours, marks, (size_t)n * sizeof marks[0]);
	return true;
}

static bool parse_onoff(bool *b, const char *key, const char *v, char *err, size_t errsize)
{
	if (strcasecmp(v, "on") == 0)
		*b = true;
	else if (strcasecmp(v, "off") == 0)
		*b = false;
	else {
		snprintf(err, errsize, "%s=%.40s: want on or off", key, v);
		return false;
	}
	return true;
}

bool settings_set(struct settings *s, const char *key, const char *value, bool check_zone, char *err,
    size_t errsize)
{
	struct settings t = *s;
	char why[TZONE_ERR_MAX];
	bool ok;

	if (strcasecmp(key, "timezone") == 0) {
		if (strcasecmp(value, "utc") == 0)
			value = TZONE_DEFAULT;
		ok = check_zone ? tzone_valid(value, why, sizeof why) : strlen(value) <= TZONE_NAME_MAX &&
		    value[0] != '\0' && strstr(value, "..") == NULL && value[0] != '/';
		if (!ok && check_zone)
			snprintf(err, errsize, "timezone: %s", why);
		else if (!ok)
			snprintf(err, errsize, "timezone=%.64s: not a time zone name", value);
		else
			snprintf(t.timezone, sizeof t.timezone, "%s", value);
	} else if (strcasecmp(key, "digest") == 0) {
		ok = parse_digest(&t, value, err, errsize);
	} else if (strcasecmp(key, "warn") == 0) {
		ok = parse_warn(&t, value, err, errsize);
	} else if (strcasecmp(key, "weekends") == 0) {
		ok = parse_onoff(&t.weekends, "weekends", value, err, errsize);
	} else if (strcasecmp(key, "queued_mail") == 0) {
		ok = parse_onoff(&t.queued_mail, "queued_mail", value, err, errsize);
	} else {
		snprintf(err, errsize, "unknown setting '%.40s': the settings are timezone, digest, warn, weekends "
		    "and queued_mail", key);
		ok = false;
	}
	if (ok)
		*s = t;
	return ok;
}

bool settings_get(const struct settings *s, const char *key, char *out, size_t size)
{
	size_t len = 0;
	int i;

	if (size == 0)
		return false;
	out[0] = '\0';
	if (strcasecmp(key, "timezone") == 0)
		snprintf(out, size, "%s", s->timezone);
	else if (strcasecmp(key, "digest") == 0 && s->digest_n == 0)
		snprintf(out, size, "off");
	else if (strcasecmp(key, "digest") == 0 && s->digest_n == 1)
		snprintf(out, size, "daily@%02d", s->digest_hours[0]);
	else if (strcasecmp(key, "digest") == 0)
		snprintf(out, size, "twice@%02d,%02d", s->digest_hours[0], s->digest_hours[1]);
	else if (strcasecmp(key, "warn") == 0 && s->nwarn == 0)
		snprintf(out, size, "off");
	else if (strcasecmp(key, "warn") == 0) {
		for (i = 0; i < s->nwarn && len < size; i++)
			len += (size_t)snprintf(out + len, size - len, "%s%dh", i > 0 ? "," : "", s->warn_hours[i]);
	} else if (strcasecmp(key, "weekends") == 0)
		snprintf(out, size, "%s", s->weekends ? "on" : "off");
	else if (strcasecmp(key, "queued_mail") == 0)
		snprintf(out, size, "%s", s->queued_mail ? "on" : "off");
	else
		return false;
	return true;
}

void settings_format(const struct settings *s, char *out, size_t size)
{
	char v[SETTINGS_VALUE_MAX];
	size_t i, len = 0;

	if (size == 0)
		return;
	out[0] = '\0';
	for (i = 0; i < settings_nkeys && len < size; i++) {
		settings_get(s, settings_keys[i], v, sizeof v);
		len += (size_t)snprintf(out + len, size - len, "%s%s=%s", i > 0 ? " " : "", settings_keys[i], v);
	}
}

static bool is_default(const struct settings *s)
{
	struct settings d;
	char a[SETTINGS_LINE_MAX], b[SETTINGS_LINE_MAX];

	settings_defaults(&d, s->userid);
	settings_format(s, a, sizeof a);
	settings_format(&d, b, sizeof b);
	return strcmp(a, b) == 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct settings *)a)->userid, ((const struct settings *)b)->userid);
}

/* One line "userid key=value ..." into *s; false with err. */
static bool parse_line(const char *file, int lineno, char *line, struct settings *s, char *err)
{
	char *p, *word, *eq, why[SETTINGS_ERR_MAX];

	p = strchr(line, ' ');
	if (p != NULL)
		*p++ = '\0';
	if (!ident_userid_ok(line)) {
		snprintf(err, SETTINGS_ERR_MAX, "%s:%d: want 'userid key=value ...', not '%.40s'", file, lineno, line);
		return false;
	}
	settings_defaults(s, line);
	while (p != NULL && *p != '\0') {
		word = p;
		p = strchr(p, ' ');
		if (p != NULL)
			*p++ = '\0';
		eq = strchr(word, '=');
		if (eq == NULL) {
			snprintf(err, SETTINGS_ERR_MAX, "%s:%d: want key=value, not '%.40s'", file, lineno, word);
			return false;
		}
		*eq = '\0';
		if (!settings_set(s, word, eq + 1, false, why, sizeof why)) {
			snprintf(err, SETTINGS_ERR_MAX, "%s:%d: %.240s", file, lineno, why);
			return false;
		}
	}
	return true;
}

static enum store_status parse(const char *text, size_t len, struct settings **out, size_t *n, char *err)
{
	struct store_lines it = { text, len, 0, 0, SETTINGS_FILE };
	struct settings *v = NULL, *nv;
	size_t alloc = 0, k;
	char line[SETTINGS_LINE_MAX];
	int more;

	while ((more = store_lines_next(&it, line, sizeof line, err, SETTINGS_ERR_MAX)) > 0) {
		if (*n == alloc) {
			alloc = alloc != 0 ? 2 * alloc : 64;
			nv = realloc(v, alloc * sizeof *v);
			if (nv == NULL) {
				snprintf(err, SETTINGS_ERR_MAX, "out of memory reading %s", SETTINGS_FILE);
				free(v);
				*n = 0;
				return STORE_TEMPFAIL;
			}
			v = nv;
		}
		if (!parse_line(SETTINGS_FILE, it.lineno, line, &v[*n], err))
			goto bad;
		(*n)++;
	}
	if (more < 0)
		goto bad;
	if (*n > 0)
		qsort(v, *n, sizeof *v, entry_cmp);
	for (k = 1; k < *n; k++) {
		if (strcmp(v[k].userid, v[k - 1].userid) == 0) {
			snprintf(err, SETTINGS_ERR_MAX, "%s: %s has two lines", SETTINGS_FILE, v[k].userid);
			goto bad;
		}
	}
	*out = v;
	return STORE_OK;
bad:
	free(v);
	*n = 0;
	return STORE_CORRUPT;
}

enum store_status settings_load(struct store *st, struct settings **out, size_t *n, char *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	*out = NULL;
	*n = 0;
	ss = store_read_file(st, SETTINGS_FILE, SETTINGS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK) {
		snprintf(err, SETTINGS_ERR_MAX, "cannot read %s: %s", SETTINGS_FILE, store_error(st));
		return ss;
	}
	ss = parse(text, len, out, n, err);
	free(text);
	return ss;
}

void settings_of(const struct settings *v, size_t n, const char *userid, struct settings *out)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(v[mid].userid, userid);
		if (c == 0) {
			*out = v[mid];
			return;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	settings_defaults(out, userid);
}

enum store_status settings_find(struct store *st, const char *userid, struct settings *out, char *err)
{
	struct settings *v = NULL;
	enum store_status ss;
	size_t n = 0;

	ss = settings_load(st, &v, &n, err);
	if (ss == STORE_OK)
		settings_of(v, n, userid, out);
	else
		settings_defaults(out, userid);
	free(v);
	return ss;
}

enum store_status settings_save(struct store *st, unsigned long timeout_ms, const struct settings *s, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct settings *v = NULL;
	enum store_status ss;
	char line[SETTINGS_LINE_MAX];
	size_t n = 0, i;
	bool done = false, keep = !is_default(s);

	ss = store_lock_path(st, SETTINGS_LOCK, timeout_ms, &lock);
	if (ss != STORE_OK) {
		snprintf(err, SETTINGS_ERR_MAX, "cannot lock %s: %s", SETTINGS_FILE, store_error(st));
		return ss;
	}
	ss = settings_load(st, &v, &n, err);
	if (ss != STORE_OK)
		goto out;
	strbuf_printf(&sb, "%s", SETTINGS_HEAD);
	/* the list stays sorted: the new line goes in its place */
	for (i = 0; i <= n; i++) {
		if (!done && keep && (i == n || strcmp(s->userid, v[i].userid) < 0)) {
			settings_format(s, line, sizeof line);
			strbuf_printf(&sb, "%s %s\n", s->userid, line);
			done = true;
		}
		if (i < n && strcmp(v[i].userid, s->userid) != 0) {
			settings_format(&v[i], line, sizeof line);
			strbuf_printf(&sb, "%s %s\n", v[i].userid, line);
		}
	}
	if (sb.failed) {
		snprintf(err, SETTINGS_ERR_MAX, "out of memory writing %s", SETTINGS_FILE);
		ss = STORE_TEMPFAIL;
		goto out;
	}
	ss = store_write_capped(st, SETTINGS_FILE, sb.s, sb.len, SETTINGS_FILE_MAX);
	if (ss != STORE_OK)
		snprintf(err, SETTINGS_ERR_MAX, "cannot write %s: %s", SETTINGS_FILE, store_error(st));
out:
	strbuf_release(&sb);
	free(v);
	store_unlock(&lock);
	return ss;
}

bool settings_digest_at(const struct settings *s, int hour)
{
	int i;

	for (i = 0; i < s->digest_n; i++)
		if (s->digest_hours[i] == hour)
			return true;
	return false;
}
