/*
 * seeks: a number per player, kept in one small file per kind:
 *   seeking  how many more games the player seeks (`seek <userid>
 *            <password> N`), shown in the standings so that others know
 *            whom to challenge;
 *   limits   the most active games the player wants (`limit <userid>
 *            <password> N`): a challenge from or to the player past it is
 *            refused.
 * Each file is plain text, one "userid N" line per player (N 1 to
 * SEEKS_MAX), sorted by user id; lines starting with '#' are comments.
 * Rewritten whole and durably (store.h) under its lock file (seeking.lock,
 * limits.lock); a player whose number is 0 has no line.  A damaged line
 * is refused with its line number.
 */
#ifndef OUSTPBM_SEEKS_H
#define OUSTPBM_SEEKS_H

#include <stddef.h>

#include "store/store.h"

#define SEEKS_MAX 99			/* the largest number */
#define SEEKS_FILE_MAX (4L * 1024 * 1024)
#define SEEKS_ERR_MAX 300

/* One player seeking games. */
struct seeks_entry {
	char userid[IDENT_USERID_MAX + 1];
	unsigned count;
};

enum seeks_kind {
	SEEKS_SEEK = 0,		/* seeking */
	SEEKS_LIMIT		/* limits */
};

/* Every player's number of kind, sorted by user id; the caller frees *out.  err: what failed. */
enum store_status seeks_load(struct store *st, enum seeks_kind kind, struct seeks_entry **out, size_t *n,
    char *err);

/* userid's number of kind is count (0: none), waiting at most timeout_ms for the lock. */
enum store_status seeks_set(struct store *st, unsigned long timeout_ms, enum seeks_kind kind, const char *userid,
    unsigned count, char *err);

/* userid's number in v (seeks_load), 0 if none. */
unsigned seeks_of(const struct seeks_entry *v, size_t n, const char *userid);

#endif
