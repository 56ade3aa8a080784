/*
 * tourns: the tournaments of the home, one file each, tournaments/<n>
 * (store/tournfile.h: the text; doc/game-file.md: Tournament files),
 * changed only under tournaments/lock: one lock for them all, as they
 * change at a player's join or a game's end, seldom.  Each is rewritten
 * whole and durably (store.h), at most TOURNS_FILE_MAX bytes.
 */
#ifndef OUSTPBM_TOURNS_H
#define OUSTPBM_TOURNS_H

#include <stddef.h>

#include "game/tourn.h"
#include "store/store.h"

#define TOURNS_DIR "tournaments"
#define TOURNS_LOCK "tournaments/lock"
#define TOURNS_FILE_MAX (1024L * 1024)	/* a 200-player round robin's file is about 500 KB */
#define TOURNS_ERR_MAX 300
/* The folder's caps (filecaps.h): a `tournament` is refused past them, the server full for now. */
#define TOURNS_DIR_COUNT 2000			/* files: the tournaments and the lock */
#define TOURNS_DIR_BYTES (256L * 1024 * 1024)	/* bytes of them together */

/* Hold tournaments/lock (made with its folder when missing), waiting at most timeout_ms. */
enum store_status tourns_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock, char *err);

/* Tournament id; *out is the caller's to tourn_free().  STORE_NOT_FOUND when there is none; err says what failed. */
enum store_status tourns_load(struct store *st, unsigned id, struct tourn **out, char *err);

/* Write t (under the lock) as tournaments/<t->id>. */
enum store_status tourns_save(struct store *st, const struct tourn *t, char *err);

/*
 * The next free id (one more than the highest file's) into *id, under the
 * lock; STORE_FULL (err says why) when the folder is at its caps or no id
 * is left.  tourns_create() takes it; a -repeat edition reserves it first
 * (services/tournament.h: the next edition).
 */
enum store_status tourns_next_id(struct store *st, unsigned *id, char *err);

/* Give t the next free id (tourns_next_id) and write it (under the lock). */
enum store_status tourns_create(struct store *st, struct tourn *t, char *err);

/* The ids of every tournament file, in order; the caller frees *ids. */
enum store_status tourns_list(struct store *st, unsigned **ids, size_t *n);

#endif
