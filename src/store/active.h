/*
 * active: the index of boards being played, so that standings count each
 * player's active boards without reading every game file.
 *
 * <home>/active/<board>.<a>.<b>: an empty file per board being played, a
 * and b its two players in strcmp order (so a swap does not rename it).
 * Made durably with the board's players index (players.h), before its game
 * file is written; removed after the commit that ends the game.  A crash
 * in between leaves an entry too many (a board never written, a game that
 * ended): readers take the index as it is, and `oustpbm cleanup`, which
 * reads every board, makes it agree with the game files (active_sync).
 * User ids hold no '.', so the name parses back.
 */
#ifndef OUSTPBM_ACTIVE_H
#define OUSTPBM_ACTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

#define ACTIVE_DIR "active"

/* One player's count of active boards. */
struct active_count {
	char userid[IDENT_USERID_MAX + 1];
	unsigned count;
};

/* The board is played: its entry, durable (under store_defer_begin: at the caller's next sync). */
enum store_status active_add(struct store *st, long board, const char *black, const char *white);

/*
 * active_add() of many boards: each entry made without its directory's
 * fsync, then active_sync_dir() once after the last (a tournament's start).
 */
enum store_status active_add_unsynced(struct store *st, long board, const char *black, const char *white);
enum store_status active_sync_dir(struct store *st);

/* The board ended (or is gone): its entry removed, if any. */
enum store_status active_remove(struct store *st, long board, const char *black, const char *white);

/*
 * Every player with an active board and how many, sorted by user id; the
 * caller frees *out.
 */
enum store_status active_counts(struct store *st, struct active_count **out, size_t *n);

/* The count of userid in counts (from active_counts), 0 if absent. */
unsigned active_count_of(const struct active_count *counts, size_t n, const char *userid);

/*
 * Make the index hold exactly the boards of playing (n boards, each with
 * its two players): entries added and removed as needed.  For cleanup,
 * which has just read every board.  *fixed counts the changes.
 */
struct active_board {
	long board;
	char black[IDENT_USERID_MAX + 1];
	char white[IDENT_USERID_MAX + 1];
};
enum store_status active_sync(struct store *st, const struct active_board *playing, size_t n, unsigned *fixed);

#endif
