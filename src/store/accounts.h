/*
 * accounts: what an account has beyond its users line: the one-time codes
 * of the mail commands forgot/reset and address/confirm, and the test that
 * tells whether an account change was committed (outbox.h's account
 * batches).
 *
 * Codes file, <home>/codes: plain text, one code per line, oldest first:
 *     userid kind issued state tag hash [address]
 * userid   the account, lower case
 * kind     "reset" (forgot: a new password) or "address" (a new address)
 * issued   epoch seconds; the code is good for ACCOUNTS_CODE_LIFE after it
 * state    "open", or "used" once it did its work
 * tag      16 hex digits: accounts_tag() of the account when the code was
 *          made; the code is good only while the account is unchanged (a
 *          new password or address, set by any means, voids it)
 * hash     yescrypt hash of the code: the code itself is never stored
 * address  kind address only: the address the code was mailed to
 * '#' lines and blank lines are ignored; the file starts with a comment
 * saying this.  A line that does not parse makes the file STORE_CORRUPT,
 * naming the line (fsck reports it; nothing rewrites a damaged file).  It is
 * rewritten whole (durably, under the store lock) by each change, keeping
 * the codes of the last ACCOUNTS_CODE_KEEP seconds, so at most
 * ACCOUNTS_CODES_PER_DAY of each kind per account.
 *
 * A code is ACCOUNTS_CODE_LEN characters of a 32-letter alphabet without
 * 0, O, 1 and I (50 bits from getrandom(2), the system's CSPRNG), read
 * without case.  Test hook: OUSTPBM_TEST_CODE, a code of that shape, is
 * the code every new code is (tests/golden, as OUSTPBM_TEST_TIME fixes the
 * time); its hash is salted as any other.
 *
 * Account tokens: an account change by mail stages its confirmation
 * tagged with a token naming the write about to be made (outbox.h); the
 * change was committed if and only if the account holds the token:
 *     a password hash              the account's hash is it (register,
 *                                  password, reset)
 *     a code's hash                the codes file has that code of the
 *                                  account (forgot, address)
 *     "address <address>"          the account's address is it (confirm)
 *     a registration's code hash   the pending file has it for the user id
 *                                  (register, pending.h)
 *     "signoff <since>"            the account is gone and its id reserved
 *                                  since that time (signoff)
 *     "vacation <start> <end>"     the account's line of the vacations file
 *                                  says that absence (vacation, vacations.h)
 *     "watchers <stamp>"           the account's "last" line of the watchers
 *                                  file says that stamp (subscribe ... all,
 *                                  unsubscribe ... all, notify ... on|off:
 *                                  audience.h)
 * Hashes are salted, since is a time and a stamp names a mail, so a token
 * names one write.
 *
 * Errors are the store's (enum store_status, store_error()).
 */
#ifndef OUSTPBM_ACCOUNTS_H
#define OUSTPBM_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"
#include "base/mailaddr.h"
#include "store/store.h"
#include "store/vacations.h"

#define ACCOUNTS_FILE "codes"
#define ACCOUNTS_FILE_MAX (4L * 1024 * 1024)	/* bytes read of the codes file */
#define ACCOUNTS_CODE_LEN 10		/* characters in a code */
#define ACCOUNTS_CODE_LIFE 3600L	/* seconds a code is good */
#define ACCOUNTS_CODE_KEEP 86400L	/* seconds a code is kept: the day of the cap */
#define ACCOUNTS_CODES_PER_DAY 3	/* codes of one kind an account may get in a day */
#define ACCOUNTS_OTHER_CHECKS 64	/* other accounts' codes a wrong code is compared with */
#define ACCOUNTS_TOKEN_MAX (MAILADDR_MAX + 16)	/* bytes of a token (without its NUL) */

enum accounts_kind {
	ACCOUNTS_RESET = 0,	/* forgot, reset */
	ACCOUNTS_ADDRESS	/* address, confirm */
};

/* Drop the codes issued ACCOUNTS_CODE_KEEP or more before now (cleanup); *dropped counts them. */
enum store_status accounts_prune(struct store *st, int64_t now, unsigned *dropped);

/* "reset", "address". */
const char *accounts_kind_str(enum accounts_kind kind);

/* One line of the codes file. */
struct accounts_code {
	char userid[IDENT_USERID_MAX + 1];
	enum accounts_kind kind;
	int64_t issued;
	bool used;
	uint64_t tag;
	char hash[STORE_HASH_MAX + 1];
	char address[MAILADDR_MAX + 1];	/* ACCOUNTS_ADDRESS; "" otherwise */
};

/* What a code given by mail is. */
enum accounts_verdict {
	ACCOUNTS_RIGHT = 0,	/* open, in time, the account unchanged: it may do its work */
	ACCOUNTS_WRONG,		/* no code of any account */
	ACCOUNTS_EXPIRED,	/* the account's, older than ACCOUNTS_CODE_LIFE */
	ACCOUNTS_USED,		/* the account's, already used */
	ACCOUNTS_STALE,		/* the account's, but the account changed since it was made */
	ACCOUNTS_OTHER		/* a code of another account */
};

/* The state a code is bound to: FNV-1a 64 of the account's hash and address. */
uint64_t accounts_tag(const struct store_user *u);

/* True if code has the shape of a code (ACCOUNTS_CODE_LEN letters of the alphabet, any case). */
bool accounts_code_ok(const char *code);

/*
 * Is code (any case) the code of hash (accounts_code_new)?  Compared in
 * constant time; false with *failed when the hash cannot be computed.
 */
bool accounts_code_is(const char *code, const char *hash, bool *failed);

/*
 * A new code from getrandom(2) into code, and its salted hash into hash
 * (no lock: hashing is the slow part).  STORE_TEMPFAIL if the system has no
 * randomness to give now.
 */
enum store_status accounts_code_new(struct store *st, char code[ACCOUNTS_CODE_LEN + 1],
    char hash[STORE_HASH_MAX + 1]);

/*
 * A new code of kind for the account u as it stands at now
 * (accounts_code_new()): the code into code, its record (user id, kind,
 * issued, tag, hash; the caller adds an address code's address) into *rec.
 */
enum store_status accounts_code_issue(struct store *st, enum accounts_kind kind, const struct store_user *u,
    int64_t now, char code[ACCOUNTS_CODE_LEN + 1], struct accounts_code *rec);

/*
 * Add rec (its state open) to the codes file, under the store lock; codes
 * older than ACCOUNTS_CODE_KEEP at rec->issued are dropped.  STORE_LIMIT
 * (nothing written) if the account already has ACCOUNTS_CODES_PER_DAY
 * codes of that kind of the last ACCOUNTS_CODE_KEEP seconds.
 */
enum store_status accounts_code_add(struct store *st, const struct accounts_code *rec);

/*
 * The one-time-code check of a mail command (forgot, address): what code
 * is for the codes of kind of the account u at now, the account's state
 * being accounts_tag(u).  Its own codes are compared first, newest first;
 * only if none matches, the open codes of that kind of other accounts (at
 * most ACCOUNTS_OTHER_CHECKS, newest first).  *rec is the code matched
 * (ACCOUNTS_RIGHT, EXPIRED, USED, STALE).  STORE_TEMPFAIL if a hash could
 * not be computed.
 */
enum store_status accounts_code_verify(struct store *st, enum accounts_kind kind, const struct store_user *u,
    const char *code, int64_t now, enum accounts_verdict *v, struct accounts_code *rec);

/* Mark the code of hash used, under the store lock; STORE_NOT_FOUND if it is gone. */
enum store_status accounts_code_use(struct store *st, const char *hash);

/*
 * After the change a right code made: mark rec's code used.  A failure
 * only loses the word "used" in a later refusal: said on stderr, not returned.
 */
void accounts_code_spend(struct store *st, const struct accounts_code *rec);

/* Remove every code of userid (its account is gone), under the store lock. */
enum store_status accounts_codes_drop(struct store *st, const char *userid);

/*
 * Every code of the file with its line number, for fsck.  The caller owns
 * *list and *lines (free).  STORE_NOT_FOUND without a codes file;
 * STORE_CORRUPT naming a bad line.
 */
enum store_status accounts_code_all(struct store *st, struct accounts_code **list, unsigned **lines,
    size_t *count);

/* The tokens of a confirm and of a signoff (see above), into buf. */
void accounts_token_address(const char *address, char buf[ACCOUNTS_TOKEN_MAX + 1]);
void accounts_token_signoff(int64_t since, char buf[ACCOUNTS_TOKEN_MAX + 1]);

/*
 * Does userid hold the token of length len and store_text_hash hash (see
 * above)?  *same is false also when there is no such account.
 */
enum store_status accounts_holds(struct store *st, const char *userid, size_t len, uint64_t hash, bool *same);

#endif
