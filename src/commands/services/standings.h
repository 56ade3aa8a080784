/*
 * standings: the texts of the mail commands `standings [class]` and
 * `rating <userid>`, made from the ratings (ratings.h), the index of
 * active boards (active.h) and what the players seek.  No I/O: the caller
 * reads those and mails the text.
 */
#ifndef OUSTPBM_STANDINGS_H
#define OUSTPBM_STANDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "store/active.h"
#include "store/ratings.h"
#include "store/seeks.h"

#define STANDINGS_RECENT 10	/* rated results `rating` lists */
#define STANDINGS_LIST_MAX 100	/* players listed in each part of a class: a mail, not a file */

/*
 * The standings of class cls, or of every class with a rated player when
 * cls is -1: per class its established, provisional and inactive players
 * (ratings_standing at now), each by rating, with deviation, games,
 * won-lost-drawn, active boards (in every class) and games sought; at most
 * STANDINGS_LIST_MAX in each part, the number of the others said.  r needs its players
 * only.  Returns a string the caller frees, NULL when out of memory.
 */
char *standings_text(const struct ratings *r, int cls, const struct active_count *active, size_t nactive,
    const struct seeks_entry *seeks, size_t nseeks, int64_t now);

/*
 * Take out of r's players the closed accounts (signoff, oustpbm deluser:
 * the ids in store.h's reserved file).  Their results stay in the ratings
 * file (their opponents' ratings were made with them, and --rebuild makes
 * the same file), but the standings no longer list them.  A home without
 * a reserved file has none.
 */
enum store_status standings_drop_closed(struct store *st, struct ratings *r);

/*
 * name's ratings in every class (the robot: each of its levels) and its
 * STANDINGS_RECENT latest rated results, newest first.  r needs its
 * results too.  Returns a string the caller frees, NULL when out of memory.
 */
char *standings_rating_text(const struct ratings *r, const char *name, int64_t now);

#endif
