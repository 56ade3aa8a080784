/* store_user: the users file, one account a line: read, find, add, change, remove (store.h). */
#include "base/ident.h"
#include "base/utf8.h"
#include "game/gamefile.h"
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

/* the member-since after a TAB (store.h) is not named here: the header of older homes stays as it was */
static const char users_header[] =
    "# oustpbm users: one account per line, fields separated by ':'\n"
    "#   userid:address:hash:full name\n"
    "# userid: lower case [a-z0-9_-]; address: the e-mail address the account\n"
    "# is bound to; hash: yescrypt password hash from crypt(3) (\"*\" locks the\n"
    "# account); full name: the rest of the line, may be empty, may contain ':'.\n"
    "# Lines starting with '#' and blank lines are ignored.\n";

static bool fullname_ok(const char *name)
{
	const unsigned char *p;

	if (strlen(name) > STORE_FULLNAME_MAX)
		return false;
	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* Check and fold a user id into out; STORE_BAD_ID (no path, no lookup) otherwise. */
enum store_status store_fold_userid(struct store *st, const char *userid, char out[IDENT_USERID_MAX + 1])
{
	if (!ident_userid_ok(userid)) {
		set_err(st, "invalid user id");
		return STORE_BAD_ID;
	}
	snprintf(out, IDENT_USERID_MAX + 1, "%s", userid);
	ident_userid_fold(out);
	return STORE_OK;
}

/* Copy s[0..n) into out (size outlen) if it fits. */
static bool copy_field(char *out, size_t outlen, const char *s, size_t n)
{
	if (n >= outlen)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* Parse one users line (without its newline); *why says what is wrong. */
static bool parse_user(const char *line, size_t n, struct store_user *u, const char **why)
{
	const char *c1, *c2, *c3, *end = line + n, *p;
	const char *awhy;

	memset(u, 0, sizeof *u);
	if (memchr(line, '\0', n) != NULL) {
		*why = "contains a NUL byte";
		return false;
	}
	c1 = memchr(line, ':', n);
	c2 = c1 != NULL ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
	c3 = c2 != NULL ? memchr(c2 + 1, ':', (size_t)(end - c2 - 1)) : NULL;
	if (c3 == NULL) {
		*why = "has fewer than four ':'-separated fields";
		return false;
	}
	if (!copy_field(u->userid, sizeof u->userid, line, (size_t)(c1 - line)) || !ident_userid_ok(u->userid)) {
		*why = "has an invalid user id";
		return false;
	}
	ident_userid_fold(u->userid);
	if (!copy_field(u->address, sizeof u->address, c1 + 1, (size_t)(c2 - c1 - 1)) ||
	    !mailaddr_ok(u->address, &awhy)) {
		*why = "has an invalid address";
		return false;
	}
	if (!copy_field(u->hash, sizeof u->hash, c2 + 1, (size_t)(c3 - c2 - 1)) || u->hash[0] == '\0') {
		*why = "has an empty or too long password hash";
		return false;
	}
	for (p = u->hash; *p != '\0'; p++)
		if (*p < '!' || *p > '~') {
			*why = "has a password hash with a space or control character";
			return false;
		}
	/* a full name has no control character: a TAB starts the keys after it (since=) */
	p = memchr(c3 + 1, '\t', (size_t)(end - c3 - 1));
	if (p != NULL) {
		if ((size_t)(end - p) < 7 || memcmp(p + 1, "since=", 6) != 0 ||
		    !gamefile_time_parse(p + 7, (size_t)(end - p - 7), &u->since) || u->since < 0) {
			*why = "has a member-since that is not 'since=YYYY-MM-DDTHH:MM:SSZ' after its full name";
			return false;
		}
		end = p;
	}
	if (!copy_field(u->fullname, sizeof u->fullname, c3 + 1, (size_t)(end - c3 - 1)) ||
	    !fullname_ok(u->fullname)) {
		*why = "has a full name too long or with control characters";
		return false;
	}
	return true;
}

/* Walks the lines of the users text: start, length (no newline, no CR), number. */
struct line_iter {
	const char *text;
	size_t len, pos;
	unsigned lineno;
};

static bool next_line(struct line_iter *it, const char **line, size_t *n, size_t *start)
{
	for (;;) {
		const char *nl;
		size_t eol, k;

		if (it->pos >= it->len)
			return false;
		nl = memchr(it->text + it->pos, '\n', it->len - it->pos);
		eol = nl != NULL ? (size_t)(nl - it->text) : it->len;
		*start = it->pos;
		*line = it->text + it->pos;
		*n = eol - it->pos;
		it->pos = eol + 1;
		it->lineno++;
		if (*n > 0 && (*line)[*n - 1] == '\r')
			(*n)--;
		for (k = 0; k < *n && ((*line)[k] == ' ' || (*line)[k] == '\t'); k++)
			;
		if (k == *n || (*line)[k] == '#')
			continue;
		return true;
	}
}

/* What read_records() reads: the file, its cap, a record's size and its parser; file_len is the file's length read. */
struct records_read {
	const char *relpath;
	size_t cap, size;
	store_record_fn *parse;
	size_t file_len;
};

/* store_read_records(), the length of the file read left in rr->file_len. */
static enum store_status read_records(struct store *st, struct records_read *rr, void **list, unsigned **lines,
    size_t *count)
{
	struct line_iter it = { NULL, 0, 0, 0 };
	const char *relpath = rr->relpath;
	size_t size = rr->size;
	enum store_status status;
	unsigned char *recs = NULL, *nr;
	unsigned *ln = NULL, *nl;
	const char *line, *why;
	char *text = NULL;
	size_t n = 0, alloc = 0, ll, start;

	*list = NULL;
	*count = 0;
	if (lines != NULL)
		*lines = NULL;
	status = store_read_file(st, relpath, rr->cap, &text, &it.len);
	if (status != STORE_OK)
		return status;
	rr->file_len = it.len;
	it.text = text;
	while (next_line(&it, &line, &ll, &start)) {
		if (n == alloc) {
			/* at most one record a line of a file of at most cap bytes: no overflow */
			alloc = alloc != 0 ? alloc * 2 : 16;
			nr = realloc(recs, alloc * size);
			if (nr == NULL) {
				status = store_nomem(st);
				goto out;
			}
			recs = nr;
			nl = realloc(ln, alloc * sizeof *ln);
			if (nl == NULL) {
				status = store_nomem(st);
				goto out;
			}
			ln = nl;
		}
		if (!rr->parse(line, ll, recs + n * size, &why)) {
			set_err(st, "%s/%s line %u %s", st->home, relpath, it.lineno, why);
			status = STORE_CORRUPT;
			goto out;
		}
		ln[n++] = it.lineno;
	}
	*list = recs;
	*count = n;
	recs = NULL;
	if (lines != NULL) {
		*lines = ln;
		ln = NULL;
	}
out:
	free(recs);
	free(ln);
	free(text);
	return status;
}

enum store_status store_read_records(struct store *st, const struct store_records *f, void **list, unsigned **lines,
    size_t *count)
{
	struct records_read rr = { f->relpath, f->cap, f->size, f->parse, 0 };

	return read_records(st, &rr, list, lines, count);
}

/*
 * Find userid (folded) in text.  With userid "" (never a user id) every
 * line is parsed, and none found: STORE_NOT_FOUND if they all parse.
 * *at and *at_len locate the matching line; STORE_NOT_FOUND if none.
 */
static enum store_status scan_users(struct store *st, const char *text, size_t len, const char *userid,
    struct store_user *found, size_t *at, size_t *at_len)
{
	struct line_iter it = { text, len, 0, 0 };
	struct store_user u;
	size_t idlen = strlen(userid), n, start;
	const char *line, *why;
	const bool check_all = userid[0] == '\0';
	bool have = false;

	while (next_line(&it, &line, &n, &start)) {
		bool mine = n > idlen && line[idlen] == ':' && strncasecmp(line, userid, idlen) == 0;

		if (!check_all && !mine)
			continue;
		if (!parse_user(line, n, &u, &why)) {
			set_err(st, "%s/%s line %u %s", st->home, USERS_FILE, it.lineno, why);
			return STORE_CORRUPT;
		}
		if (mine && !have) {
			have = true;
			if (found != NULL)
				*found = u;
			if (at != NULL) {
				*at = start;
				*at_len = n;
			}
			if (!check_all)
				return STORE_OK;
		}
	}
	if (!have) {
		set_err(st, "no user '%s'", userid);
		return STORE_NOT_FOUND;
	}
	return STORE_OK;
}

enum store_status store_user_find(struct store *st, const char *userid, struct store_user *user)
{
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	char *text = NULL;
	size_t len;

	memset(user, 0, sizeof *user);
	status = store_fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len);
	if (status == STORE_NOT_FOUND)
		set_err(st, "no user '%s'", id);
	if (status != STORE_OK)
		return status;
	status = scan_users(st, text, len, id, user, NULL, NULL);
	free(text);
	return status;
}

void store_user_display_name(struct store *st, const char *address, const char *userid,
    char name[STORE_FULLNAME_MAX + 1])
{
	struct line_iter it;
	struct store_user u;
	const char *line, *why;
	char *text = NULL;
	size_t len, n, start;
	bool have = false, differ = false;

	name[0] = '\0';
	if (address == NULL || address[0] == '\0' ||
	    store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len) != STORE_OK)
		return;
	it = (struct line_iter){ text, len, 0, 0 };
	while (next_line(&it, &line, &n, &start)) {
		if (!parse_user(line, n, &u, &why) || strcasecmp(u.address, address) != 0)
			continue;	/* a damaged line is fsck's to report; it names nobody here */
		if (userid != NULL && strcasecmp(u.userid, userid) == 0) {
			snprintf(name, STORE_FULLNAME_MAX + 1, "%s", u.fullname);
			have = true;
			differ = false;
			break;
		}
		if (!have) {
			snprintf(name, STORE_FULLNAME_MAX + 1, "%s", u.fullname);
			have = true;
		} else if (strcmp(name, u.fullname) != 0) {
			differ = true;
		}
	}
	free(text);
	if (differ)
		name[0] = '\0';
}

enum store_status store_user_ids_of(struct store *st, const char *address, char ids[][IDENT_USERID_MAX + 1],
    size_t max, size_t *n)
{
	struct line_iter it;
	struct store_user u;
	const char *line, *why;
	char *text = NULL;
	size_t len, ln, start;
	enum store_status status;

	*n = 0;
	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len);
	if (status == STORE_NOT_FOUND)
		return STORE_OK;
	if (status != STORE_OK)
		return status;
	it = (struct line_iter){ text, len, 0, 0 };
	while (*n < max && next_line(&it, &line, &ln, &start)) {
		if (!parse_user(line, ln, &u, &why) || strcasecmp(u.address, address) != 0)
			continue;	/* a damaged line is fsck's to report */
		memcpy(ids[(*n)++], u.userid, sizeof u.userid);
	}
	free(text);
	return STORE_OK;
}

/* Read the users file for a rewrite: every line checked; absent = empty. */
static enum store_status read_users_checked(struct store *st, char **text, size_t *len)
{
	enum store_status status;

	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, text, len);
	if (status == STORE_NOT_FOUND) {
		*text = NULL;
		*len = 0;
		return STORE_OK;
	}
	if (status != STORE_OK)
		return status;
	/* "" is never a user id: this only checks the lines */
	status = scan_users(st, *text, *len, "", NULL, NULL, NULL);
	if (status == STORE_NOT_FOUND)
		status = STORE_OK;
	if (status != STORE_OK) {
		free(*text);
		*text = NULL;
	}
	return status;
}

/* Add an account with password, or with prehash made by store_password_hash() when password is NULL. */
static enum store_status add_user(struct store *st, const char *userid, const char *address,
    const char *password, const char *prehash, const char *fullname, const struct store_register_caps *caps)
{
	char since[GAMEFILE_TIME_SIZE];
	struct store_lock lock = STORE_LOCK_INIT;
	char id[IDENT_USERID_MAX + 1], hash[STORE_HASH_MAX + 1], domain[MAILADDR_MAX + 1];
	enum store_status status;
	char *text = NULL, *out = NULL, *regs = NULL;
	const char *why;
	size_t len, outlen, regs_len = 0;
	int n;

	if (fullname == NULL)
		fullname = "";
	status = store_fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	if (!mailaddr_deliverable(address, &why)) {
		set_err(st, "address %s", why);
		return STORE_BAD_ADDRESS;
	}
	if (password != NULL && !store_password_ok(password)) {
		set_err(st, "a password is 1 to %d printable characters without spaces", STORE_PASSWORD_MAX);
		return STORE_BAD_PASSWORD;
	}
	if (password == NULL && !store_hash_ok(prehash)) {
		set_err(st, "not a password hash");
		return STORE_BAD_PASSWORD;
	}
	if (!ident_fullname_ok(fullname, &why)) {
		set_err(st, "the full name %s", why);
		return STORE_BAD_NAME;
	}
	store_address_domain(address, domain);
	if (password == NULL) {
		snprintf(hash, sizeof hash, "%s", prehash);
	} else {
		/* hashing takes tens of milliseconds: not under the lock */
		status = store_password_hash(st, password, hash);
		if (status != STORE_OK)
			return status;
	}
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	if (caps != NULL) {
		status = store_registration_check(st, caps, domain, &regs, &regs_len);
		if (status != STORE_OK)
			goto out;
	}
	status = read_users_checked(st, &text, &len);
	if (status != STORE_OK)
		goto out;
	if (text != NULL && scan_users(st, text, len, id, NULL, NULL, NULL) == STORE_OK) {
		set_err(st, "user id '%s' is already taken", id);
		status = STORE_USER_EXISTS;
		goto out;
	}
	status = store_reserved_check(st, id, caps != NULL ? caps->now : (int64_t)store_now(st));
	if (status != STORE_OK)
		goto out;
	n = asprintf(&out, "%s%.*s%s%s:%s:%s:%s\tsince=%s\n", len == 0 ? users_header : "", (int)len,
	    text != NULL ? text : "", len > 0 && text != NULL && text[len - 1] != '\n' ? "\n" : "", id, address,
	    hash, fullname, gamefile_time_str(caps != NULL ? caps->now : (int64_t)store_now(st), since));
	if (n < 0) {
		out = NULL;
		status = store_nomem(st);
		goto out;
	}
	outlen = (size_t)n;
	if (outlen > (size_t)STORE_USERS_FILE_MAX) {
		/* past it the file could not be read again, and every mail would fail */
		set_err(st, "the users file would pass %ld bytes", STORE_USERS_FILE_MAX);
		status = STORE_TOO_BIG;
		goto out;
	}
	status = store_write_file(st, USERS_FILE, out, outlen);
	if (status == STORE_OK && caps != NULL)
		store_registration_note(st, caps, domain, regs, regs_len);
out:
	free(out);
	free(text);
	free(regs);
	store_unlock(&lock);
	return status;
}

enum store_status store_user_add(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname)
{
	return add_user(st, userid, address, password, NULL, fullname, NULL);
}

enum store_status store_user_register(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname, const struct store_register_caps *caps)
{
	return add_user(st, userid, address, password, NULL, fullname, caps);
}

enum store_status store_user_register_hashed(struct store *st, const char *userid, const char *address,
    const char *hash, const char *fullname, const struct store_register_caps *caps)
{
	return add_user(st, userid, address, NULL, hash, fullname, caps);
}

enum store_status store_user_set_password(struct store *st, const char *userid, const char *password,
    const char *expect_hash)
{
	char hash[STORE_HASH_MAX + 1];
	enum store_status status;

	if (!store_password_ok(password)) {
		set_err(st, "a password is 1 to %d printable characters without spaces", STORE_PASSWORD_MAX);
		return STORE_BAD_PASSWORD;
	}
	status = store_password_hash(st, password, hash);
	if (status != STORE_OK)
		return status;
	return store_user_set_hash(st, userid, hash, expect_hash);
}

/*
 * One account's line of the users file, for a change under the store
 * lock: the whole text (every line checked), the account as it stands,
 * and where its line starts (at) and how long it is (at_len, without its
 * newline).
 */
struct users_edit {
	struct store_lock lock;
	char id[IDENT_USERID_MAX + 1];	/* folded */
	char *text;
	size_t len;
	struct store_user cur;
	size_t at, at_len;
};

static void users_edit_init(struct users_edit *e)
{
	memset(e, 0, sizeof *e);
	e->lock.fd = -1;
}

/* Take the store lock, read the users file and find e->id's line. */
static enum store_status users_edit_begin(struct store *st, struct users_edit *e)
{
	enum store_status status = store_lock_store(st, &e->lock);

	if (status != STORE_OK)
		return status;
	status = read_users_checked(st, &e->text, &e->len);
	if (status != STORE_OK)
		return status;
	if (e->text == NULL) {
		set_err(st, "no user '%s'", e->id);
		return STORE_NOT_FOUND;
	}
	return scan_users(st, e->text, e->len, e->id, &e->cur, &e->at, &e->at_len);
}

static void users_edit_end(struct users_edit *e)
{
	free(e->text);
	e->text = NULL;
	store_unlock(&e->lock);
}

/* STORE_CHANGED unless the account still has the hash the caller checked (NULL: any). */
static enum store_status users_edit_expect_hash(struct store *st, const struct users_edit *e,
    const char *expect_hash)
{
	if (expect_hash != NULL && strcmp(e->cur.hash, expect_hash) != 0) {
		/* locked, reset or changed since the old password was checked */
		set_err(st, "the account '%s' changed while its password was checked", e->id);
		return STORE_CHANGED;
	}
	return STORE_OK;
}

/*
 * The span [*from, *to) of field k (0 the user id, 1 the address, 2 the
 * hash) of e's line, as offsets into e->text: the line parsed, so it has
 * its three ':'.
 */
static void users_field(const struct users_edit *e, int k, size_t *from, size_t *to)
{
	const char *line = e->text + e->at, *p = line;
	int i;

	for (i = 0; i < k; i++)
		p = (const char *)memchr(p, ':', e->at_len - (size_t)(p - line)) + 1;
	*from = (size_t)(p - e->text);
	*to = (size_t)((const char *)memchr(p, ':', e->at_len - (size_t)(p - line)) - e->text);
}

/* Write the users text made of e->text[0..cut) + mid + e->text[resume..len). */
static enum store_status users_splice(struct store *st, const struct users_edit *e, size_t cut, const char *mid,
    size_t resume)
{
	enum store_status status;
	size_t ml = strlen(mid), outlen = cut + ml + (e->len - resume);
	char *out;

	if (outlen > (size_t)STORE_USERS_FILE_MAX) {
		/* past it the file could not be read again, and every mail would fail */
		set_err(st, "the users file would pass %ld bytes", STORE_USERS_FILE_MAX);
		return STORE_TOO_BIG;
	}
	out = malloc(outlen + 1);
	if (out == NULL)
		return store_nomem(st);
	memcpy(out, e->text, cut);
	memcpy(out + cut, mid, ml);
	memcpy(out + cut + ml, e->text + resume, e->len - resume);
	status = store_write_file(st, USERS_FILE, out, outlen);
	free(out);
	return status;
}

enum store_status store_user_set_hash(struct store *st, const char *userid, const char *hash,
    const char *expect_hash)
{
	struct users_edit e;
	enum store_status status;
	size_t from, to;

	users_edit_init(&e);
	status = store_fold_userid(st, userid, e.id);
	if (status != STORE_OK)
		return status;
	if (!store_hash_ok(hash)) {
		set_err(st, "not a password hash");
		return STORE_BAD_PASSWORD;
	}
	status = users_edit_begin(st, &e);
	if (status == STORE_OK)
		status = users_edit_expect_hash(st, &e, expect_hash);
	if (status == STORE_OK) {
		users_field(&e, 2, &from, &to);
		status = users_splice(st, &e, from, hash, to);
	}
	users_edit_end(&e);
	return status;
}

enum store_status store_user_rehash(struct store *st, const char *userid, const char *old_hash,
    const char *password)
{
	enum store_status status = store_user_set_password(st, userid, password, old_hash);

	return status == STORE_CHANGED ? STORE_OK : status;	/* changed meanwhile: that hash stands */
}

enum store_status store_user_set_address(struct store *st, const char *userid, const char *address,
    const char *expect_address)
{
	struct users_edit e;
	enum store_status status;
	const char *why;
	size_t from, to;

	users_edit_init(&e);
	status = store_fold_userid(st, userid, e.id);
	if (status != STORE_OK)
		return status;
	if (!mailaddr_deliverable(address, &why)) {
		set_err(st, "address %s", why);
		return STORE_BAD_ADDRESS;
	}
	status = users_edit_begin(st, &e);
	if (status == STORE_OK && expect_address != NULL && strcasecmp(e.cur.address, expect_address) != 0) {
		set_err(st, "the address of '%s' changed meanwhile", e.id);
		status = STORE_CHANGED;
	}
	if (status == STORE_OK) {
		users_field(&e, 1, &from, &to);
		status = users_splice(st, &e, from, address, to);
	}
	users_edit_end(&e);
	return status;
}

enum store_status store_user_remove(struct store *st, const char *userid, const char *expect_hash,
    int64_t since, int64_t until)
{
	struct users_edit e;
	enum store_status status;
	size_t resume;

	users_edit_init(&e);
	status = store_fold_userid(st, userid, e.id);
	if (status != STORE_OK)
		return status;
	if (since < 0 || until < since) {
		set_err(st, "reserved until %lld, before the account went at %lld", (long long)until,
		    (long long)since);
		return STORE_IO;
	}
	status = users_edit_begin(st, &e);
	if (status == STORE_OK)
		status = users_edit_expect_hash(st, &e, expect_hash);
	/* reserved first: a crash between the two writes leaves the id taken, never free */
	if (status == STORE_OK)
		status = store_reserve_id(st, e.id, since, until, e.cur.hash);
	if (status == STORE_OK) {
		resume = e.at + e.at_len;
		while (resume < e.len && e.text[resume] != '\n')
			resume++;	/* a CR */
		if (resume < e.len)
			resume++;
		status = users_splice(st, &e, e.at, "", resume);
	}
	users_edit_end(&e);
	return status;
}

static bool user_record(const char *line, size_t n, void *rec, const char **why)
{
	return parse_user(line, n, rec, why);
}

enum store_status store_user_all(struct store *st, struct store_user **users, unsigned **lines, size_t *count,
    size_t *size)
{
	struct records_read rr = { USERS_FILE, STORE_USERS_FILE_MAX, sizeof **users, user_record, 0 };
	enum store_status status;
	void *recs = NULL;

	*size = 0;
	status = read_records(st, &rr, &recs, lines, count);
	*users = recs;
	*size = rr.file_len;
	return status;
}
