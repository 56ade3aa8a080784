/*
 * pending: accounts registered by mail and not yet confirmed.
 *
 * A register by mail makes no account: it makes a pending registration,
 * and a one-time code (accounts.h's machinery) is mailed to the address
 * the mail came from.  Only "confirm <userid> <code>" (or the code alone,
 * in a reply) from that address makes the account (store_user_register_
 * hashed), so no mail ever goes to an address that did not write back:
 * a forged From gets its owner one code mail and nothing else.
 *
 * File <home>/pending: plain text, one registration per line, oldest first:
 *     userid issued sent state address stamp pwhash codehash [full name]
 * userid    lower case
 * issued    epoch seconds of the first register: it lapses PENDING_LIFE after
 * sent      epoch seconds of the last code mailed (none again for PENDING_RESEND)
 * state     "open", or "done" once confirmed (kept until it lapses, so that a
 *           copy of the confirm mail is known as one; it holds nothing)
 * address   where the code went; at most one registration per address
 * stamp     16 hex digits, store_text_hash() of the register mail's
 *           Message-ID: a copy of that mail is known as one
 * pwhash    yescrypt hash of the password chosen (the account's, once confirmed)
 * codehash  yescrypt hash of the code (the code itself is never stored)
 * full name the rest of the line, may be empty
 * '#' lines and blank lines are ignored.  A line that does not parse makes
 * the file STORE_CORRUPT naming it.  It is rewritten whole (durably, under
 * the store lock) by each change, lapsed lines dropped, and refused past
 * PENDING_FILE_MAX (the registration caps keep it below: 100 an hour
 * for a day, 2,400 lines of at most about 850 bytes, is 2 MiB).  An open
 * line whose user id has an account is one confirmed by a run that ended
 * before it marked it done.
 *
 * Errors are the store's (enum store_status, store_error()).
 */
#ifndef OUSTPBM_PENDING_H
#define OUSTPBM_PENDING_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ident.h"
#include "base/mailaddr.h"
#include "store/store.h"

#define PENDING_FILE "pending"
#define PENDING_FILE_MAX (4L * 1024 * 1024)	/* bytes of the pending file: read cap, and refused past it */
#define PENDING_LIFE 86400L	/* seconds a registration waits for its confirm */
#define PENDING_RESEND 3600L	/* seconds before a register mails its address a new code */

struct pending {
	char userid[IDENT_USERID_MAX + 1];
	int64_t issued;
	int64_t sent;
	bool done;
	char address[MAILADDR_MAX + 1];
	uint64_t stamp;
	char pwhash[STORE_HASH_MAX + 1];
	char codehash[STORE_HASH_MAX + 1];
	char fullname[STORE_FULLNAME_MAX + 1];
};

/*
 * The registration of userid (folded) not lapsed at now into *out, open or
 * done (out->done; an open one may have been confirmed by a run that died:
 * the users file tells); STORE_NOT_FOUND if none.
 */
enum store_status pending_find(struct store *st, const char *userid, int64_t now, struct pending *out);

/* The same for the registration of address (compared without case). */
enum store_status pending_of_address(struct store *st, const char *address, int64_t now, struct pending *out);

/*
 * Under the store lock: write rec, replacing any registration of its
 * user id or of its address, lapsed ones dropped (done ones stay).  When caps is not NULL
 * (a new registration, not a code sent again) it counts against the
 * registration caps (store_registration_take): STORE_LIMIT.  The user id
 * must be free: STORE_USER_EXISTS if an account has it or another
 * address's registration waits for it, STORE_RESERVED if a closed account
 * keeps it.  STORE_TOO_BIG past PENDING_FILE_MAX.
 */
enum store_status pending_put(struct store *st, const struct pending *rec, const struct store_register_caps *caps);

/* Mark the registration of userid with code hash codehash done (confirmed), under the store lock. */
enum store_status pending_done(struct store *st, const char *userid, const char *codehash, int64_t now);

/* Drop the registrations lapsed at now, under the store lock; *dropped of them (cleanup). */
enum store_status pending_prune(struct store *st, int64_t now, size_t *dropped);

#endif
