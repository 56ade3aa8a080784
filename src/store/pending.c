/* pending: registrations waiting for their confirm (pending.h). */
#include "store/pending.h"
#include "base/strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static const char pending_header[] =
    "# oustpbm registrations waiting for their confirm: one per line, oldest first\n"
    "#   userid issued sent state address stamp pwhash codehash [full name]\n"
    "# issued, sent: epoch seconds (lapses a day after issued); state: open,\n"
    "# done (confirmed) or void (replaced by a later register); stamp: hash of\n"
    "# the register mail's Message-ID; pwhash, codehash:\n"
    "# yescrypt hashes of the password and of the code mailed to address.\n"
    "# Lines starting with '#' and blank lines are ignored.\n";

/* The next space-separated word of line[*pos..n) into out (size outlen); false if none or too long. */
static bool word(const char *line, size_t n, size_t *pos, char *out, size_t outlen)
{
	size_t start = *pos, len;

	while (*pos < n && line[*pos] != ' ')
		(*pos)++;
	len = *pos - start;
	if (len == 0 || len >= outlen)
		return false;
	memcpy(out, line + start, len);
	out[len] = '\0';
	if (*pos < n)
		(*pos)++;
	return true;
}

static bool parse_time(const char *s, int64_t *out)
{
	char *end;
	long long t = strtoll(s, &end, 10);

	if (end == s || *end != '\0' || t < 0)
		return false;
	*out = (int64_t)t;
	return true;
}

static bool parse_pending(const char *line, size_t n, void *rec, const char **why)
{
	struct pending *p = rec;
	char num[32];
	size_t pos = 0;
	const char *err;

	memset(p, 0, sizeof *p);
	if (!word(line, n, &pos, p->userid, sizeof p->userid) || !ident_userid_ok(p->userid)) {
		*why = "has no user id";
		return false;
	}
	if (!word(line, n, &pos, num, sizeof num) || !parse_time(num, &p->issued) ||
	    !word(line, n, &pos, num, sizeof num) || !parse_time(num, &p->sent)) {
		*why = "has no times 'issued sent'";
		return false;
	}
	if (!word(line, n, &pos, num, sizeof num) ||
	    (strcmp(num, "open") != 0 && strcmp(num, "done") != 0 && strcmp(num, "void") != 0)) {
		*why = "has no state 'open', 'done' or 'void'";
		return false;
	}
	p->done = strcmp(num, "done") == 0;
	p->voided = strcmp(num, "void") == 0;
	if (!word(line, n, &pos, p->address, sizeof p->address) || !mailaddr_ok(p->address, &err)) {
		*why = "has no address";
		return false;
	}
	if (!word(line, n, &pos, num, sizeof num) || strlen(num) != 16 ||
	    sscanf(num, "%16" SCNx64, &p->stamp) != 1) {
		*why = "has no stamp";
		return false;
	}
	if (!word(line, n, &pos, p->pwhash, sizeof p->pwhash) || p->pwhash[0] != '$' ||
	    !word(line, n, &pos, p->codehash, sizeof p->codehash) || p->codehash[0] != '$') {
		*why = "has no hashes 'pwhash codehash'";
		return false;
	}
	if (n - pos >= sizeof p->fullname) {
		*why = "has a full name too long";
		return false;
	}
	memcpy(p->fullname, line + pos, n - pos);
	p->fullname[n - pos] = '\0';
	return true;
}

/* Every line of the file; none is an empty list.  The caller frees *list. */
static enum store_status read_all(struct store *st, struct pending **list, size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	*count = 0;
	status = store_read_records(st, &(struct store_records){ PENDING_FILE, PENDING_FILE_MAX, sizeof **list,
	    parse_pending }, &recs, NULL, count);
	*list = recs;
	return status == STORE_NOT_FOUND ? STORE_OK : status;
}

static bool lapsed(const struct pending *p, int64_t now)
{
	return p->issued + PENDING_LIFE <= now;
}

enum store_status pending_all(struct store *st, int64_t now, struct pending **list, size_t *count)
{
	enum store_status status;
	size_t n = 0, i, k = 0;

	*list = NULL;
	*count = 0;
	status = read_all(st, list, &n);
	if (status != STORE_OK)
		return status;
	for (i = 0; i < n; i++)
		if (!lapsed(&(*list)[i], now))
			(*list)[k++] = (*list)[i];
	*count = k;
	return STORE_OK;
}

/* The newest line not lapsed at now nor void for which match is true. */
static enum store_status find(struct store *st, int64_t now, bool (*match)(const struct pending *, const char *),
    const char *key, struct pending *out)
{
	struct pending *list = NULL;
	enum store_status status;
	size_t n = 0, i;

	status = read_all(st, &list, &n);
	if (status != STORE_OK)
		return status;
	status = STORE_NOT_FOUND;
	for (i = n; i-- > 0;)
		if (!lapsed(&list[i], now) && !list[i].voided && match(&list[i], key)) {
			*out = list[i];
			status = STORE_OK;
			break;
		}
	free(list);
	return status;
}

static bool of_user(const struct pending *p, const char *userid)
{
	return strcasecmp(p->userid, userid) == 0;
}

static bool of_address(const struct pending *p, const char *address)
{
	return strcasecmp(p->address, address) == 0;
}

enum store_status pending_find(struct store *st, const char *userid, int64_t now, struct pending *out)
{
	return find(st, now, of_user, userid, out);
}

enum store_status pending_of_address(struct store *st, const char *address, int64_t now, struct pending *out)
{
	return find(st, now, of_address, address, out);
}

/* What write_all() writes: list[0..n) then extra, the lines lapsed at now left out. */
struct pending_out {
	const struct pending *list;
	size_t n;
	int64_t now;
	const struct pending *extra;
};

static void pending_line(const void *ctx, size_t i, struct strbuf *out)
{
	const struct pending_out *w = ctx;
	const struct pending *p = i < w->n ? &w->list[i] : w->extra;

	if (p == NULL || p->userid[0] == '\0' || lapsed(p, w->now))
		return;
	strbuf_printf(out, "%s %lld %lld %s %s %016" PRIx64 " %s %s%s%s\n", p->userid, (long long)p->issued,
	    (long long)p->sent, p->done ? "done" : p->voided ? "void" : "open", p->address, p->stamp, p->pwhash,
	    p->codehash, p->fullname[0] != '\0' ? " " : "", p->fullname);
}

/*
 * Write list[0..n) then extra (may be NULL), without the lapsed lines and
 * those whose userid was emptied; past PENDING_FILE_MAX the file could not
 * be read again, and every register and confirm would fail: refused.
 */
static enum store_status write_all(struct store *st, const struct pending *list, size_t n, int64_t now,
    const struct pending *extra)
{
	struct pending_out w = { list, n, now, extra };

	return store_write_records(st, PENDING_FILE, PENDING_FILE_MAX, pending_header, n + 1, pending_line, &w);
}

/* Under the store lock: may rec->userid be taken by rec->address? */
static enum store_status id_free(struct store *st, const struct pending *rec, int64_t now)
{
	struct store_reserved r;
	struct store_user u;
	enum store_status status;

	status = store_user_find(st, rec->userid, &u);
	if (status == STORE_OK) {
		store_set_error(st, "user id '%s' is already taken", rec->userid);
		return STORE_USER_EXISTS;
	}
	if (status != STORE_NOT_FOUND)
		return status;
	status = store_reserved_find(st, rec->userid, &r);
	if (status == STORE_OK && r.until > now) {
		store_set_error(st, "user id '%s' is reserved: its account was closed", rec->userid);
		return STORE_RESERVED;
	}
	/* another address's registration of it holds nothing: the first confirmed wins (pending.h) */
	return status == STORE_NOT_FOUND || status == STORE_OK ? STORE_OK : status;
}

/* "2023-11-14 23:14 UTC", the minute after t rounded up: when a limit counted from t lifts. */
static void lift_str(int64_t t, char out[32])
{
	time_t s = (time_t)((t + 59) / 60 * 60);
	struct tm tm;

	if (gmtime_r(&s, &tm) == NULL || strftime(out, 32, "%Y-%m-%d %H:%M UTC", &tm) == 0)
		snprintf(out, 32, "%lld", (long long)s);
}

/* The domain of address: what follows its last '@'. */
static const char *domain_of(const char *address)
{
	const char *at = strrchr(address, '@');

	return at != NULL ? at + 1 : address;
}

/* Is list[i] a code mail within PENDING_WINDOW of now to address (by_domain: to its domain)? */
static bool counted(const struct pending *p, const char *address, bool by_domain, int64_t now)
{
	if (p->sent <= now - PENDING_WINDOW || p->sent > now)
		return false;
	return by_domain ? strcasecmp(domain_of(p->address), domain_of(address)) == 0 : of_address(p, address);
}

/*
 * Under the store lock: STORE_LIMIT when max (0: none) code mails went to
 * rec->address (by_domain: to its domain) within PENDING_WINDOW of
 * rec->sent; *count of them, *lifts when fewer than max will be (the lines
 * are oldest first).
 */
static enum store_status over(const struct pending *list, size_t n, const struct pending *rec, bool by_domain,
    unsigned long max, unsigned long *count, int64_t *lifts)
{
	const char *address = rec->address;
	const int64_t now = rec->sent;
	unsigned long k = 0;
	size_t i;

	*count = 0;
	*lifts = 0;
	for (i = 0; i < n; i++)
		*count += counted(&list[i], address, by_domain, now);
	if (max == 0 || *count < max)
		return STORE_OK;
	/* the (count - max + 1)th oldest leaving the window brings it below max */
	for (i = 0; i < n; i++)
		if (counted(&list[i], address, by_domain, now) && ++k == *count - max + 1) {
			*lifts = list[i].sent + PENDING_WINDOW;
			break;
		}
	return STORE_LIMIT;
}

/*
 * Under the store lock: may a code go to rec->address now?  Each line sent
 * within PENDING_WINDOW (open, done or void) was one code mail.
 */
static enum store_status mail_limits(struct store *st, const struct pending *rec, const struct pending *list, size_t n,
    unsigned long per_domain)
{
	unsigned long count;
	int64_t lifts;
	char when[32];

	if (over(list, n, rec, false, PENDING_CODES_PER_HOUR, &count, &lifts) != STORE_OK) {
		lift_str(lifts, when);
		store_set_error(st, "%lu registration codes were mailed to %s within the hour, the most one address "
		    "gets; the next may go at %s", count, rec->address, when);
		return STORE_LIMIT;
	}
	if (over(list, n, rec, true, per_domain, &count, &lifts) != STORE_OK) {
		lift_str(lifts, when);
		store_set_error(st, "%lu registration codes were mailed to addresses at %s within the hour "
		    "(max_pending_per_domain_per_hour = %lu); the next may go at %s", count, domain_of(rec->address),
		    per_domain, when);
		return STORE_LIMIT;
	}
	return STORE_OK;
}

/* Take the store lock into *lock, then read every line; the caller frees *list and releases *lock either way. */
static enum store_status lock_and_read(struct store *st, struct store_lock *lock, struct pending **list, size_t *n)
{
	enum store_status status = store_lock_store(st, lock);

	return status != STORE_OK ? status : read_all(st, list, n);
}

enum store_status pending_put(struct store *st, const struct pending *rec, unsigned long per_domain)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct pending *list = NULL;
	enum store_status status;
	int64_t now = rec->sent;
	size_t n = 0, i;

	status = lock_and_read(st, &lock, &list, &n);
	if (status != STORE_OK)
		goto out;
	status = id_free(st, rec, now);
	if (status == STORE_OK)
		status = mail_limits(st, rec, list, n, per_domain);
	if (status != STORE_OK)
		goto out;
	for (i = 0; i < n; i++)
		if (!list[i].done && of_address(&list[i], rec->address))
			list[i].voided = true;	/* replaced: its code void from now on */
	status = write_all(st, list, n, now, rec);
out:
	free(list);
	store_unlock(&lock);
	return status;
}

enum store_status pending_done(struct store *st, const char *userid, const char *codehash, int64_t now)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct pending *list = NULL;
	enum store_status status;
	size_t n = 0, i;
	bool found = false;

	status = lock_and_read(st, &lock, &list, &n);
	if (status != STORE_OK)
		goto out;
	for (i = 0; i < n; i++)
		if (of_user(&list[i], userid) && strcmp(list[i].codehash, codehash) == 0 && !list[i].done) {
			list[i].done = true;
			found = true;
		}
	status = found ? write_all(st, list, n, now, NULL) : STORE_NOT_FOUND;
out:
	free(list);
	store_unlock(&lock);
	return status;
}

enum store_status pending_prune(struct store *st, int64_t now, size_t *dropped)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct pending *list = NULL;
	enum store_status status;
	size_t n = 0, i;

	*dropped = 0;
	status = lock_and_read(st, &lock, &list, &n);
	if (status != STORE_OK)
		goto out;
	for (i = 0; i < n; i++)
		if (lapsed(&list[i], now))
			(*dropped)++;
	if (*dropped > 0)
		status = write_all(st, list, n, now, NULL);
out:
	free(list);
	store_unlock(&lock);
	return status;
}
