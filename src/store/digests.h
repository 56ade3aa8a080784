/*
 * digests: the last digest each player was sent (services/digest.h), in
 * the file <home>/digests, one line per player who ever got one:
 *     userid slot
 * userid  the account, lower case
 * slot    the time (seconds since the epoch, UTC) of the digest hour the
 *         last digest was sent for: a digest is due at a later hour only
 * '#' lines and blank lines are ignored; a line that does not parse makes
 * the file STORE_CORRUPT, naming the line.  Rewritten whole, durably, under
 * accounts.lock, with the digest staged in the outbox as an account
 * change's confirmation is (outbox.h): its account token (accounts.h) is
 * "digest SLOT", so a crash either leaves the line as it was and drops
 * the staged digest (the next run sends it) or writes the line and sends
 * it: never two digests for one hour, none lost.  DIGESTS_FILE_MAX caps it
 * (filecaps.c).
 */
#ifndef OUSTPBM_DIGESTS_H
#define OUSTPBM_DIGESTS_H

#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"
#include "store/store.h"

#define DIGESTS_FILE "digests"
#define DIGESTS_FILE_MAX (2L * 1024 * 1024)	/* bytes read of the file */
#define DIGESTS_TOKEN_MAX 40

/* userid's last digest hour into *slot: STORE_OK, or STORE_NOT_FOUND if it never had one. */
enum store_status digests_find(struct store *st, const char *userid, int64_t *slot);

/* Record that userid was sent the digest of slot (accounts.lock held), replacing its line. */
enum store_status digests_set(struct store *st, const char *userid, int64_t slot);

/* The account token of writing slot for a player (accounts.h), into buf. */
void digests_token(int64_t slot, char buf[DIGESTS_TOKEN_MAX + 1]);

#endif
