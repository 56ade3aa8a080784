/* store_register: who may register now: reserved user ids and the registration caps (store.h). */
#include "base/ident.h"
#include "base/strbuf.h"
#include "store/store_int.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RESERVED_FILE "reserved"

static const char reserved_header[] =
    "# oustpbm reserved user ids: accounts that signed off or were deleted.\n"
    "#   userid until since [hash]\n"
    "# Nobody can register userid before until; since is when the account went\n"
    "# (both epoch seconds); hash is its last password hash, which tells a copy of\n"
    "# its signoff mail.  Lines starting with '#' and blank lines are ignored.\n";

#define REGISTRATIONS_FILE "registrations"
#define REGISTRATIONS_MAX STORE_REGISTRATIONS_FILE_MAX
#define REGISTRATIONS_COMPACT 65536		/* rewritten with the last hour only past this */

/* The domain of address, lower case, into out. */
void store_address_domain(const char *address, char out[MAILADDR_MAX + 1])
{
	const char *at = strrchr(address, '@');
	size_t i;

	snprintf(out, MAILADDR_MAX + 1, "%s", at != NULL ? at + 1 : address);
	for (i = 0; out[i] != '\0'; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
}

/*
 * Under the store lock: refuse a registration over caps (STORE_LIMIT).
 * *text is the registrations file (NULL if none), kept for store_registration_note().
 */
enum store_status store_registration_check(struct store *st, const struct store_register_caps *caps, const char *domain,
    char **text, size_t *len)
{
	enum store_status status;
	unsigned long all = 0, mine = 0;
	const char *p, *nl, *sp;
	long long t;
	char *end;

	*text = NULL;
	*len = 0;
	status = store_read_file(st, REGISTRATIONS_FILE, REGISTRATIONS_MAX, text, len);
	if (status == STORE_NOT_FOUND || status == STORE_TOO_BIG) {
		/* none yet; or too big to be ours: counted as empty, rewritten below */
		*text = NULL;
		*len = 0;
		status = STORE_OK;
	}
	if (status != STORE_OK)
		return status;
	for (p = *text; p != NULL && p < *text + *len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(*text + *len - p));
		if (nl == NULL)
			break;	/* an unfinished last line (a crash): not counted */
		t = strtoll(p, &end, 10);
		if (end == p || *end != ' ' || t <= caps->now - 3600 || t > caps->now)
			continue;
		all++;
		sp = end + 1;
		if ((size_t)(nl - sp) == strlen(domain) && memcmp(sp, domain, (size_t)(nl - sp)) == 0)
			mine++;
	}
	if (caps->per_hour > 0 && all >= caps->per_hour) {
		set_err(st, "%lu account%s registered in the last hour (max_registrations_per_hour = %lu)", all,
		    all == 1 ? " was" : "s were", caps->per_hour);
		return STORE_LIMIT;
	}
	if (caps->per_domain > 0 && mine >= caps->per_domain) {
		set_err(st, "%lu account%s with an address at %s %s registered in the last hour "
		    "(max_registrations_per_domain = %lu)", mine, mine == 1 ? "" : "s", domain,
		    mine == 1 ? "was" : "were", caps->per_domain);
		return STORE_LIMIT;
	}
	return STORE_OK;
}

/*
 * Under the store lock, after the account was written: note its time.  A
 * failure here loses one line of a count, never the account: not reported.
 */
void store_registration_note(struct store *st, const struct store_register_caps *caps, const char *domain,
    const char *text, size_t len)
{
	char line[MAILADDR_MAX + 32], *out = NULL;
	const char *p, *nl;
	size_t used = 0;
	long long t;
	int n;

	n = snprintf(line, sizeof line, "%lld %s\n", (long long)caps->now, domain);
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	if (len + (size_t)n <= REGISTRATIONS_COMPACT) {
		store_append_file(st, REGISTRATIONS_FILE, line, (size_t)n);
		return;
	}
	/* grown: rewritten with the lines of the last hour */
	out = malloc(len + (size_t)n + 1);
	if (out == NULL)
		return;
	for (p = text; p != NULL && p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (nl == NULL)
			break;
		t = strtoll(p, NULL, 10);
		if (t > caps->now - 3600 && t <= caps->now) {
			memcpy(out + used, p, (size_t)(nl + 1 - p));
			used += (size_t)(nl + 1 - p);
		}
	}
	memcpy(out + used, line, (size_t)n);
	used += (size_t)n;
	store_write_file(st, REGISTRATIONS_FILE, out, used);
	free(out);
}

/* Parse "userid until since [hash]"; *why says what is wrong. */
static bool parse_reserved(const char *line, size_t n, struct store_reserved *r, const char **why)
{
	char buf[IDENT_USERID_MAX + STORE_HASH_MAX + 64], *sp, *end;
	long long until, since;

	memset(r, 0, sizeof *r);
	if (n >= sizeof buf || memchr(line, '\0', n) != NULL) {
		*why = "is too long or holds a NUL byte";
		return false;
	}
	memcpy(buf, line, n);
	buf[n] = '\0';
	sp = strchr(buf, ' ');
	if (sp == NULL) {
		*why = "is not 'userid until since'";
		return false;
	}
	*sp = '\0';
	if (!ident_userid_ok(buf) || strlen(buf) > IDENT_USERID_MAX) {
		*why = "has an invalid user id";
		return false;
	}
	memcpy(r->userid, buf, strlen(buf) + 1);	/* at most IDENT_USERID_MAX, checked above */
	ident_userid_fold(r->userid);
	errno = 0;
	until = strtoll(sp + 1, &end, 10);
	if (end == sp + 1 || *end != ' ' || errno != 0 || until < 0 || sp[1] == '-' || sp[1] == '+') {
		*why = "has no time 'until' (epoch seconds)";
		return false;
	}
	sp = end;
	since = strtoll(sp + 1, &end, 10);
	if (end == sp + 1 || (*end != '\0' && *end != ' ') || errno != 0 || since < 0 || sp[1] == '-' ||
	    sp[1] == '+') {
		*why = "has no time 'since' (epoch seconds)";
		return false;
	}
	if (*end == ' ') {
		if (end[1] != '$' || strlen(end + 1) > STORE_HASH_MAX || strpbrk(end + 1, " :") != NULL) {
			*why = "has something else than a password hash after 'since'";
			return false;
		}
		snprintf(r->hash, sizeof r->hash, "%s", end + 1);
	}
	r->until = until;
	r->since = since;
	return true;
}

static bool reserved_record(const char *line, size_t n, void *rec, const char **why)
{
	return parse_reserved(line, n, rec, why);
}

/* Read and parse the reserved file; none is an empty list. */
static enum store_status read_reserved(struct store *st, struct store_reserved **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, &(struct store_records){ RESERVED_FILE, STORE_USERS_FILE_MAX, sizeof **list,
	    reserved_record }, &recs, lines, count);
	*list = recs;
	return status == STORE_NOT_FOUND ? STORE_OK : status;
}

enum store_status store_reserved_find(struct store *st, const char *userid, struct store_reserved *out)
{
	struct store_reserved *list = NULL;
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	size_t n = 0, i;

	memset(out, 0, sizeof *out);
	status = store_fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	status = read_reserved(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	status = STORE_NOT_FOUND;
	for (i = 0; i < n; i++)
		if (strcmp(list[i].userid, id) == 0) {
			*out = list[i];
			status = STORE_OK;
		}
	if (status == STORE_NOT_FOUND)
		set_err(st, "user id '%s' is not reserved", id);
	free(list);
	return status;
}

enum store_status store_reserved_all(struct store *st, struct store_reserved **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, &(struct store_records){ RESERVED_FILE, STORE_USERS_FILE_MAX, sizeof **list,
	    reserved_record }, &recs, lines, count);
	*list = recs;
	return status;
}

/* Under the store lock: STORE_RESERVED if id (folded) is reserved at now. */
enum store_status store_reserved_check(struct store *st, const char *id, int64_t now)
{
	struct store_reserved r;
	enum store_status status = store_reserved_find(st, id, &r);
	char stamp[32];
	struct tm tm;
	time_t t;

	if (status == STORE_NOT_FOUND)
		return STORE_OK;
	if (status != STORE_OK)
		return status;
	if (r.until <= now)
		return STORE_OK;
	t = (time_t)r.until;
	if (gmtime_r(&t, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)r.until);
	set_err(st, "user id '%s' is reserved until %s: its account was closed", id, stamp);
	return STORE_RESERVED;
}

/*
 * The reserved file with id's line (until, since, hash) in place of any
 * earlier one, lines whose time is up dropped.
 */
/* What store_reserve_id() writes: list[0..n) but id's line and those whose time is up at since, then add. */
struct reserved_out {
	const struct store_reserved *list;
	size_t n;
	const struct store_reserved *add;
};

static void reserved_line(const void *ctx, size_t i, struct strbuf *out)
{
	const struct reserved_out *w = ctx;
	const struct store_reserved *r = i < w->n ? &w->list[i] : w->add;

	if (i < w->n && (strcmp(r->userid, w->add->userid) == 0 || r->until <= w->add->since))
		return;
	strbuf_printf(out, "%s %lld %lld%s%s\n", r->userid, (long long)r->until, (long long)r->since,
	    r->hash[0] != '\0' ? " " : "", r->hash);
}

enum store_status store_reserve_id(struct store *st, const char *id, int64_t since, int64_t until, const char *hash)
{
	struct store_reserved *list = NULL, add;
	struct reserved_out w;
	enum store_status status;
	size_t n = 0;

	status = read_reserved(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	memset(&add, 0, sizeof add);
	snprintf(add.userid, sizeof add.userid, "%s", id);
	add.until = until;
	add.since = since;
	if (store_hash_ok(hash))
		snprintf(add.hash, sizeof add.hash, "%s", hash);
	w = (struct reserved_out){ list, n, &add };
	status = store_write_records(st, RESERVED_FILE, STORE_USERS_FILE_MAX, reserved_header, n + 1, reserved_line,
	    &w);
	free(list);
	return status;
}

