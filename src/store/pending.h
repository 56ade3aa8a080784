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
 * A confirm proves the mailbox, not the password: so a registration is
 * confirmed only with its code AND the password it was made with
 * (confirm.c).  A forged register from someone's address is then worth
 * nothing to its sender: the owner, who alone sees the code, cannot
 * confirm it with her own password.  A later register from the same
 * address replaces the earlier one, whose code is void from then on: the
 * owner of the mailbox gets past a forged registration by registering;
 * a forged one after hers voids her code (her confirm is told so, and
 * she registers again) but cannot make her account with its password.
 * A pending registration holds nothing: registrations of one user id
 * from several addresses stand side by side, the first confirmed wins.
 * Code mails are limited per address (PENDING_CODES_PER_HOUR) and per
 * address domain (max_pending_per_domain_per_hour), never server-wide,
 * so forged mail cannot lock every newcomer out.
 *
 * File <home>/pending: plain text, one registration per line, oldest first:
 *     userid issued sent state address stamp pwhash codehash [full name]
 * userid    lower case
 * issued    epoch seconds of the first register: it lapses PENDING_LIFE after
 * sent      epoch seconds of its code mail (the limits count them)
 * state     "open"; "done" once confirmed (kept until it lapses, so that a
 *           copy of the confirm mail is known as one); "void" once a later
 *           register from the same address replaced it (kept until it
 *           lapses, so that its code is answered as voided and its code
 *           mail counts against the limits)
 * address   where the code went; at most one open registration per address
 * stamp     16 hex digits, store_text_hash() of the register mail's
 *           Message-ID: a copy of that mail is known as one
 * pwhash    yescrypt hash of the password chosen (the account's, once confirmed)
 * codehash  yescrypt hash of the code (the code itself is never stored)
 * full name the rest of the line, may be empty
 * '#' lines and blank lines are ignored.  A line that does not parse makes
 * the file STORE_CORRUPT naming it.  It is rewritten whole (durably, under
 * the store lock) by each change, lapsed lines dropped, and refused past
 * PENDING_FILE_MAX (STORE_TOO_BIG: "too many registrations wait"; about
 * 5,000 lines: the per-domain limit keeps one domain's share of it to
 * max_pending_per_domain_per_hour an hour).  An open
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
#define PENDING_CODES_PER_HOUR 3	/* code mails to one address within an hour */
#define PENDING_WINDOW 3600L	/* seconds of the per-address and per-domain limits */

struct pending {
	char userid[IDENT_USERID_MAX + 1];
	int64_t issued;
	int64_t sent;
	bool done;
	bool voided;	/* replaced by a later register from its address */
	char address[MAILADDR_MAX + 1];
	uint64_t stamp;
	char pwhash[STORE_HASH_MAX + 1];
	char codehash[STORE_HASH_MAX + 1];
	char fullname[STORE_FULLNAME_MAX + 1];
};

/*
 * The newest registration of userid (folded) not lapsed at now and not
 * void into *out, open or done (out->done; an open one may have been
 * confirmed by a run that died: the users file tells); STORE_NOT_FOUND if
 * none.  Several addresses may have one: any of them.
 */
enum store_status pending_find(struct store *st, const char *userid, int64_t now, struct pending *out);

/* The same for the registration of address (compared without case): at most one is open. */
enum store_status pending_of_address(struct store *st, const char *address, int64_t now, struct pending *out);

/*
 * Every registration not lapsed at now, void ones too, oldest first, into
 * *list (*count of them; none is an empty list).  The caller frees *list.
 */
enum store_status pending_all(struct store *st, int64_t now, struct pending **list, size_t *count);

/*
 * Under the store lock: write rec, its address's open registration made
 * void, lapsed ones dropped.  A code mail: STORE_LIMIT when
 * PENDING_CODES_PER_HOUR went to rec->address or per_domain (0: no limit)
 * to its domain within PENDING_WINDOW, the error saying which and when it
 * lifts.  STORE_USER_EXISTS if an account has the user id,
 * STORE_RESERVED if a closed account keeps it (another address's
 * registration of it does not matter).  STORE_TOO_BIG past
 * PENDING_FILE_MAX.
 */
enum store_status pending_put(struct store *st, const struct pending *rec, unsigned long per_domain);

/* Mark the registration of userid with code hash codehash done (confirmed), under the store lock. */
enum store_status pending_done(struct store *st, const char *userid, const char *codehash, int64_t now);

/* Drop the registrations lapsed at now, under the store lock; *dropped of them (cleanup). */
enum store_status pending_prune(struct store *st, int64_t now, size_t *dropped);

#endif
