/* accounts: one-time codes of accounts, and the tokens of account changes (accounts.h). */
#include "store/accounts.h"
#include "base/strbuf.h"
#include "base/testhook.h"

#include <crypt.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "base/msg.h"
#include "store/audience.h"
#include "store/digests.h"
#include "store/pending.h"

#define CODE_ALPHABET "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"	/* 32 letters: 5 bits each */
#define CODE_HASH_COST 1	/* yescrypt's cheapest: 50 random bits need no stretching */
#define LINE_MAX_BYTES (IDENT_USERID_MAX + STORE_HASH_MAX + MAILADDR_MAX + 80)

static const char codes_header[] =
    "# oustpbm one-time codes (forgot, address): one code per line, oldest first\n"
    "#   userid kind issued state tag hash [address]\n"
    "# kind: reset or address; issued: epoch seconds; state: open or used;\n"
    "# tag: the account's state the code is bound to; hash: yescrypt hash of\n"
    "# the code; address: where an address code was mailed.\n"
    "# Lines starting with '#' and blank lines are ignored.\n";

const char *accounts_kind_str(enum accounts_kind kind)
{
	return kind == ACCOUNTS_ADDRESS ? "address" : "reset";
}

uint64_t accounts_tag(const struct store_user *u)
{
	char buf[STORE_HASH_MAX + MAILADDR_MAX + 4];
	size_t i;
	int n;

	n = snprintf(buf, sizeof buf, "%s\n%s", u->hash, u->address);
	/* addresses compare without case */
	for (i = strlen(u->hash) + 1; buf[i] != '\0'; i++)
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
	return store_text_hash(buf, n > 0 ? (size_t)n : 0);
}

bool accounts_code_ok(const char *code)
{
	size_t i;

	for (i = 0; code[i] != '\0'; i++)
		if (i >= ACCOUNTS_CODE_LEN || code[i] == '\0' ||
		    strchr(CODE_ALPHABET, code[i] >= 'a' && code[i] <= 'z' ? code[i] - 'a' + 'A' : code[i]) == NULL)
			return false;
	return i == ACCOUNTS_CODE_LEN;
}

/* code in upper case into out; false if it is not a code. */
static bool code_norm(const char *code, char out[ACCOUNTS_CODE_LEN + 1])
{
	size_t i;

	if (!accounts_code_ok(code))
		return false;
	for (i = 0; i < ACCOUNTS_CODE_LEN; i++)
		out[i] = code[i] >= 'a' && code[i] <= 'z' ? (char)(code[i] - 'a' + 'A') : code[i];
	out[i] = '\0';
	return true;
}

enum store_status accounts_code_new(struct store *st, char code[ACCOUNTS_CODE_LEN + 1],
    char hash[STORE_HASH_MAX + 1])
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	unsigned char rnd[ACCOUNTS_CODE_LEN];
	struct crypt_data *cd = NULL;
	enum store_status status = STORE_OK;
	const char *h, *test;
	ssize_t got;
	size_t i;

	code[0] = '\0';
	test = testhook_env("OUSTPBM_TEST_CODE");
	if (test != NULL && code_norm(test, code)) {
		/* the golden tests' codes, as OUSTPBM_TEST_TIME fixes their times */
	} else {
		do
			got = getrandom(rnd, sizeof rnd, 0);
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)sizeof rnd) {
			store_set_error(st, "cannot read random bytes for a code: %s",
			    got < 0 ? strerror(errno) : "short read");
			return STORE_TEMPFAIL;
		}
		/* 256 is a multiple of 32: each byte's low 5 bits are uniform */
		for (i = 0; i < ACCOUNTS_CODE_LEN; i++)
			code[i] = CODE_ALPHABET[rnd[i] & 31];
		code[i] = '\0';
		explicit_bzero(rnd, sizeof rnd);
	}
	cd = calloc(1, sizeof *cd);
	if (cd == NULL || crypt_gensalt_rn("$y$", CODE_HASH_COST, NULL, 0, setting, sizeof setting) == NULL) {
		store_set_error(st, "cannot make a salt for a code: %s", strerror(errno));
		status = STORE_TEMPFAIL;
		goto out;
	}
	h = crypt_r(code, setting, cd);
	if (h == NULL || h[0] != '$' || strlen(h) > STORE_HASH_MAX || strpbrk(h, " :\n") != NULL) {
		store_set_error(st, "cannot compute the hash of a code (out of memory?)");
		status = STORE_TEMPFAIL;
		goto out;
	}
	memcpy(hash, h, strlen(h) + 1);
out:
	if (cd != NULL)
		explicit_bzero(cd, sizeof *cd);
	free(cd);
	if (status != STORE_OK)
		explicit_bzero(code, ACCOUNTS_CODE_LEN + 1);
	return status;
}

/* Is code (upper case) the one of hash?  Compared in constant time; false with *failed if it cannot be told. */
static bool code_matches(const char *code, const char *hash, bool *failed)
{
	char want[STORE_HASH_MAX + 1], got[STORE_HASH_MAX + 1];
	struct crypt_data *cd;
	unsigned char diff = 0;
	const char *h;
	size_t i;

	*failed = false;
	cd = calloc(1, sizeof *cd);
	if (cd == NULL) {
		*failed = true;
		return false;
	}
	memset(want, 0, sizeof want);
	memset(got, 0, sizeof got);
	memcpy(want, hash, strnlen(hash, STORE_HASH_MAX));
	h = crypt_r(code, hash, cd);
	if (h == NULL || h[0] != '$' || strlen(h) > STORE_HASH_MAX)
		*failed = true;
	else
		memcpy(got, h, strlen(h));
	for (i = 0; i < sizeof want; i++)
		diff |= (unsigned char)(want[i] ^ got[i]);
	explicit_bzero(cd, sizeof *cd);
	free(cd);
	return !*failed && diff == 0;
}

bool accounts_code_is(const char *code, const char *hash, bool *failed)
{
	char norm[ACCOUNTS_CODE_LEN + 1];
	bool right;

	*failed = false;
	if (!code_norm(code, norm))
		return false;
	right = code_matches(norm, hash, failed);
	explicit_bzero(norm, sizeof norm);
	return right;
}

/* Parse one line (without its newline); *why says what is wrong. */
static bool parse_code(const char *line, size_t n, struct accounts_code *c, const char **why)
{
	char buf[LINE_MAX_BYTES + 1], *f[8], *save = NULL, *p, *end;
	const char *awhy;
	int nf = 0;

	memset(c, 0, sizeof *c);
	if (n > LINE_MAX_BYTES || memchr(line, '\0', n) != NULL) {
		*why = "is too long or holds a NUL byte";
		return false;
	}
	memcpy(buf, line, n);
	buf[n] = '\0';
	for (p = strtok_r(buf, " ", &save); p != NULL; p = strtok_r(NULL, " ", &save)) {
		if (nf == 7) {
			*why = "has more than seven fields";
			return false;
		}
		f[nf++] = p;
	}
	if (nf < 6) {
		*why = "has fewer than six fields (userid kind issued state tag hash)";
		return false;
	}
	if (!ident_userid_ok(f[0]) || strlen(f[0]) > IDENT_USERID_MAX) {
		*why = "has an invalid user id";
		return false;
	}
	snprintf(c->userid, sizeof c->userid, "%s", f[0]);
	ident_userid_fold(c->userid);
	if (strcmp(f[1], "reset") == 0) {
		c->kind = ACCOUNTS_RESET;
	} else if (strcmp(f[1], "address") == 0) {
		c->kind = ACCOUNTS_ADDRESS;
	} else {
		*why = "has a kind that is neither 'reset' nor 'address'";
		return false;
	}
	errno = 0;
	c->issued = strtoll(f[2], &end, 10);
	if (f[2][0] < '0' || f[2][0] > '9' || *end != '\0' || errno != 0) {
		*why = "has no time issued (epoch seconds)";
		return false;
	}
	if (strcmp(f[3], "open") == 0) {
		c->used = false;
	} else if (strcmp(f[3], "used") == 0) {
		c->used = true;
	} else {
		*why = "has a state that is neither 'open' nor 'used'";
		return false;
	}
	c->tag = strtoull(f[4], &end, 16);
	if (strlen(f[4]) != 16 || *end != '\0' || f[4][0] == '-' || f[4][0] == '+') {
		*why = "has a tag that is not 16 hex digits";
		return false;
	}
	if (f[5][0] != '$' || strlen(f[5]) > STORE_HASH_MAX) {
		*why = "has no code hash";
		return false;
	}
	snprintf(c->hash, sizeof c->hash, "%s", f[5]);
	if ((c->kind == ACCOUNTS_ADDRESS) != (nf == 7)) {
		*why = c->kind == ACCOUNTS_ADDRESS ? "is an address code without its address" :
		    "is a reset code with an address";
		return false;
	}
	if (nf == 7) {
		if (!mailaddr_ok(f[6], &awhy)) {
			*why = "has an invalid address";
			return false;
		}
		snprintf(c->address, sizeof c->address, "%s", f[6]);
	}
	return true;
}

static bool code_record(const char *line, size_t n, void *rec, const char **why)
{
	return parse_code(line, n, rec, why);
}

/*
 * Read the codes file; none is an empty list.  One over ACCOUNTS_FILE_MAX
 * (written by an older version: writes are capped now) is an empty list
 * too, said on stderr and in the log: its codes, good for an hour, are
 * lost, and the next code written starts it afresh, rather than every
 * command that reads it failing (issue 31: forgot, reset... exited 70).
 */
static enum store_status read_codes(struct store *st, struct accounts_code **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, &(struct store_records){ ACCOUNTS_FILE, ACCOUNTS_FILE_MAX, sizeof **list,
	    code_record }, &recs, lines, count);
	*list = recs;
	if (status == STORE_TOO_BIG) {
		store_complain(st, "%s/%s is larger than %ld bytes: read as empty, started afresh at the next code",
		    store_home(st), ACCOUNTS_FILE, ACCOUNTS_FILE_MAX);
		*list = NULL;
		*count = 0;
		if (lines != NULL)
			*lines = NULL;
		return STORE_OK;
	}
	return status == STORE_NOT_FOUND ? STORE_OK : status;
}

/* Take the store lock into *lock, then read the codes; the caller frees *list and releases *lock either way. */
static enum store_status lock_and_read(struct store *st, struct store_lock *lock, struct accounts_code **list,
    size_t *n)
{
	enum store_status status = store_lock_store(st, lock);

	return status != STORE_OK ? status : read_codes(st, list, NULL, n);
}

/* What write_codes() writes: list[0..n) then extra, leaving out codes issued at or before drop_before. */
struct codes_out {
	const struct accounts_code *list;
	size_t n;
	int64_t drop_before;
	const struct accounts_code *extra;
};

static void code_line(const void *ctx, size_t i, struct strbuf *out)
{
	const struct codes_out *w = ctx;
	const struct accounts_code *c = i < w->n ? &w->list[i] : w->extra;

	if (c == NULL || c->userid[0] == '\0' || c->issued <= w->drop_before)
		return;
	strbuf_printf(out, "%s %s %lld %s %016" PRIx64 " %s%s%s\n", c->userid, accounts_kind_str(c->kind),
	    (long long)c->issued, c->used ? "used" : "open", c->tag, c->hash, c->kind == ACCOUNTS_ADDRESS ? " " : "",
	    c->kind == ACCOUNTS_ADDRESS ? c->address : "");
}

/*
 * Write the codes file: list[0..n) then extra (may be NULL), leaving out
 * codes issued at or before drop_before and those whose userid was emptied.
 */
static enum store_status write_codes(struct store *st, const struct accounts_code *list, size_t n,
    int64_t drop_before, const struct accounts_code *extra)
{
	struct codes_out w = { list, n, drop_before, extra };

	return store_write_records(st, ACCOUNTS_FILE, ACCOUNTS_FILE_MAX, codes_header, n + 1, code_line, &w);
}

enum store_status accounts_code_add(struct store *st, const struct accounts_code *rec)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct accounts_code *list = NULL, c = *rec;
	enum store_status status;
	size_t n = 0, i;
	int mine = 0;

	if (!ident_userid_ok(c.userid) || c.hash[0] != '$' || strpbrk(c.hash, " :\n") != NULL ||
	    (c.kind == ACCOUNTS_ADDRESS && !mailaddr_ok(c.address, NULL))) {
		store_set_error(st, "not a code of an account: '%s'", c.userid);
		return STORE_BAD_ID;
	}
	ident_userid_fold(c.userid);
	c.used = false;
	if (c.kind != ACCOUNTS_ADDRESS)
		c.address[0] = '\0';
	status = lock_and_read(st, &lock, &list, &n);
	if (status != STORE_OK)
		goto out;
	for (i = 0; i < n; i++)
		if (strcmp(list[i].userid, c.userid) == 0 && list[i].kind == c.kind &&
		    list[i].issued > c.issued - ACCOUNTS_CODE_KEEP)
			mine++;
	if (mine >= ACCOUNTS_CODES_PER_DAY) {
		store_set_error(st, "%s has had %d %s codes in the last day, the most an account may have",
		    c.userid, mine, accounts_kind_str(c.kind));
		status = STORE_LIMIT;
		goto out;
	}
	status = write_codes(st, list, n, c.issued - ACCOUNTS_CODE_KEEP, &c);
out:
	free(list);
	store_unlock(&lock);
	return status;
}

enum store_status accounts_code_issue(struct store *st, enum accounts_kind kind, const struct store_user *u,
    int64_t now, char code[ACCOUNTS_CODE_LEN + 1], struct accounts_code *rec)
{
	enum store_status status = accounts_code_new(st, code, rec->hash);

	if (status != STORE_OK)
		return status;
	snprintf(rec->userid, sizeof rec->userid, "%s", u->userid);
	rec->kind = kind;
	rec->issued = now;
	rec->tag = accounts_tag(u);
	return STORE_OK;
}

void accounts_code_spend(struct store *st, const struct accounts_code *rec)
{
	if (accounts_code_use(st, rec->hash) != STORE_OK)
		msg_warn("cannot mark the code of %s used: %s", rec->userid, store_error(st));
}

enum store_status accounts_code_verify(struct store *st, enum accounts_kind kind, const struct store_user *u,
    const char *code, int64_t now, enum accounts_verdict *v, struct accounts_code *rec)
{
	const char *userid = u->userid;
	const uint64_t tag = accounts_tag(u);
	struct accounts_code *list = NULL;
	char norm[ACCOUNTS_CODE_LEN + 1], id[IDENT_USERID_MAX + 1];
	enum store_status status;
	size_t n = 0, i;
	int others = 0;
	bool failed = false;

	*v = ACCOUNTS_WRONG;
	memset(rec, 0, sizeof *rec);
	if (!code_norm(code, norm) || !ident_userid_ok(userid))
		return STORE_OK;
	snprintf(id, sizeof id, "%s", userid);
	ident_userid_fold(id);
	status = read_codes(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	for (i = n; i-- > 0;) {
		const struct accounts_code *c = &list[i];

		if (c->kind != kind || strcmp(c->userid, id) != 0)
			continue;
		if (!code_matches(norm, c->hash, &failed)) {
			if (failed)
				goto failed;
			continue;
		}
		*rec = *c;
		if (c->used)
			*v = ACCOUNTS_USED;
		else if (now >= c->issued + ACCOUNTS_CODE_LIFE)
			*v = ACCOUNTS_EXPIRED;
		else if (c->tag != tag)
			*v = ACCOUNTS_STALE;
		else
			*v = ACCOUNTS_RIGHT;
		goto out;
	}
	for (i = n; i-- > 0 && others < ACCOUNTS_OTHER_CHECKS;) {
		const struct accounts_code *c = &list[i];

		if (c->kind != kind || strcmp(c->userid, id) == 0 || c->used || now >= c->issued + ACCOUNTS_CODE_LIFE)
			continue;
		others++;
		if (code_matches(norm, c->hash, &failed)) {
			*v = ACCOUNTS_OTHER;
			goto out;
		}
		if (failed)
			goto failed;
	}
	goto out;
failed:
	store_set_error(st, "cannot compute the hash of a code (out of memory?)");
	status = STORE_TEMPFAIL;
out:
	explicit_bzero(norm, sizeof norm);
	free(list);
	return status;
}

enum store_status accounts_prune(struct store *st, int64_t now, unsigned *dropped)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct accounts_code *list = NULL;
	enum store_status status;
	size_t n = 0, i;

	*dropped = 0;
	status = lock_and_read(st, &lock, &list, &n);
	for (i = 0; status == STORE_OK && i < n; i++)
		if (list[i].issued <= now - ACCOUNTS_CODE_KEEP)
			(*dropped)++;
	if (status == STORE_OK && *dropped > 0)
		status = write_codes(st, list, n, now - ACCOUNTS_CODE_KEEP, NULL);
	free(list);
	store_unlock(&lock);
	return status;
}

/* Rewrite the codes file with the code of hash marked used, or with drop_userid's codes left out. */
static enum store_status rewrite(struct store *st, const char *hash, const char *drop_userid)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct accounts_code *list = NULL;
	enum store_status status;
	size_t n = 0, i;
	bool found = false;

	status = lock_and_read(st, &lock, &list, &n);
	if (status != STORE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		if (hash != NULL && strcmp(list[i].hash, hash) == 0) {
			list[i].used = true;
			found = true;
		}
		if (drop_userid != NULL && strcmp(list[i].userid, drop_userid) == 0) {
			list[i].userid[0] = '\0';	/* left out by write_codes */
			found = true;
		}
	}
	if (!found) {
		status = hash != NULL ? STORE_NOT_FOUND : STORE_OK;
		goto out;
	}
	status = write_codes(st, list, n, INT64_MIN, NULL);
out:
	free(list);
	store_unlock(&lock);
	return status;
}

enum store_status accounts_code_use(struct store *st, const char *hash)
{
	return rewrite(st, hash, NULL);
}

enum store_status accounts_codes_drop(struct store *st, const char *userid)
{
	char id[IDENT_USERID_MAX + 1];

	if (!ident_userid_ok(userid)) {
		store_set_error(st, "invalid user id");
		return STORE_BAD_ID;
	}
	snprintf(id, sizeof id, "%s", userid);
	ident_userid_fold(id);
	return rewrite(st, NULL, id);
}

enum store_status accounts_code_all(struct store *st, struct accounts_code **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, &(struct store_records){ ACCOUNTS_FILE, ACCOUNTS_FILE_MAX, sizeof **list,
	    code_record }, &recs, lines, count);
	*list = recs;
	return status;
}

void accounts_token_address(const char *address, char buf[ACCOUNTS_TOKEN_MAX + 1])
{
	size_t i;

	snprintf(buf, ACCOUNTS_TOKEN_MAX + 1, "address %s", address);
	for (i = 0; buf[i] != '\0'; i++)
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
}

void accounts_token_signoff(int64_t since, char buf[ACCOUNTS_TOKEN_MAX + 1])
{
	snprintf(buf, ACCOUNTS_TOKEN_MAX + 1, "signoff %lld", (long long)since);
}

static bool token_is(const char *token, size_t len, uint64_t hash)
{
	return strlen(token) == len && store_text_hash(token, len) == hash;
}

enum store_status accounts_holds(struct store *st, const char *userid, size_t len, uint64_t hash, bool *same)
{
	char token[ACCOUNTS_TOKEN_MAX + 1], vtoken[VACATIONS_TOKEN_MAX + 1], wtoken[AUDIENCE_TOKEN_MAX + 1];
	char stamp[AUDIENCE_STAMP_LEN + 1];
	struct accounts_code *list = NULL;
	struct store_reserved r;
	struct store_user u;
	struct pending *pl = NULL;
	struct vacation v;
	enum store_status status;
	size_t n = 0, i;
	bool exists, found;

	*same = false;
	status = store_user_find(st, userid, &u);
	if (status != STORE_OK && status != STORE_NOT_FOUND)
		return status;
	exists = status == STORE_OK;
	if (exists) {
		accounts_token_address(u.address, token);
		if (token_is(u.hash, len, hash) || token_is(token, len, hash)) {
			*same = true;
			return STORE_OK;
		}
	} else {
		status = store_reserved_find(st, userid, &r);
		if (status != STORE_OK && status != STORE_NOT_FOUND)
			return status;
		if (status == STORE_OK) {
			accounts_token_signoff(r.since, token);
			*same = token_is(token, len, hash);
			return STORE_OK;
		}
		/* a registration written with its code mail (pending.h): several addresses may have one of userid */
		status = pending_all(st, (int64_t)store_now(st), &pl, &n);
		for (i = 0; status == STORE_OK && i < n; i++)
			if (strcasecmp(pl[i].userid, userid) == 0 && token_is(pl[i].codehash, len, hash))
				*same = true;
		free(pl);
		return status;
	}
	/* a change of the watchers file: its "last" line (audience.h) */
	status = audience_last(st, u.userid, stamp, &found);
	if (status != STORE_OK)
		return status;
	if (found) {
		audience_token(stamp, wtoken);
		if (token_is(wtoken, len, hash)) {
			*same = true;
			return STORE_OK;
		}
	}
	/* a digest sent: the line the write made (digests.h) */
	{
		char dtoken[DIGESTS_TOKEN_MAX + 1];
		int64_t slot;

		status = digests_find(st, u.userid, &slot);
		if (status != STORE_OK && status != STORE_NOT_FOUND)
			return status;
		if (status == STORE_OK) {
			digests_token(slot, dtoken);
			if (token_is(dtoken, len, hash)) {
				*same = true;
				return STORE_OK;
			}
		}
	}
	/* a vacation: the line the write made (vacations.h) */
	status = vacations_find(st, u.userid, &v);
	if (status != STORE_OK && status != STORE_NOT_FOUND)
		return status;
	if (status == STORE_OK) {
		vacations_token(&v, vtoken);
		if (token_is(vtoken, len, hash)) {
			*same = true;
			return STORE_OK;
		}
	}
	status = read_codes(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	for (i = 0; i < n && !*same; i++)
		*same = strcmp(list[i].userid, u.userid) == 0 && token_is(list[i].hash, len, hash);
	free(list);
	return STORE_OK;
}
