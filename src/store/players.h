/*
 * players: the index of boards per player, so that "games <userid>" reads
 * the headers of that player's boards only, not of every board in games/.
 *
 * <home>/players/<userid>: one board number per line, appended (one write,
 * fsync'ed) when a board is made, before its game file is written (so a
 * board is never missing from its players' lists; a board listed whose
 * game file was never written, a crash in between, is skipped by readers).
 * The players of a board never change, so nothing else writes it.
 * <home>/players/.complete: the lists hold every board (an index built
 * from games/ by players_boards() when it was missing: a home from before
 * the index, or one whose players/ was deleted; deleting players/ is
 * always safe).  players.lock orders the appends and the rebuild; a
 * rebuild keeps what the lists already say, so a board being made while
 * it runs is not lost.
 *
 * Errors are the store's (enum store_status, store_error()).
 */
#ifndef OUSTPBM_PLAYERS_H
#define OUSTPBM_PLAYERS_H

#include <stddef.h>

#include "store/store.h"

#define PLAYERS_DIR "players"
#define PLAYERS_LOCK_FILE "players.lock"
#define PLAYERS_COMPLETE PLAYERS_DIR "/.complete"
#define PLAYERS_FILE_MAX (8L * 1024 * 1024)	/* bytes read of one list */

/* Add board to the lists of black and white (once if they are the same); players.lock waited for at most timeout_ms. */
enum store_status players_add(struct store *st, unsigned long timeout_ms, long board, const char *black,
    const char *white);

/*
 * Add boards[0..n) to userid's list in one append (a tournament's start:
 * every board of a player at once, before any of their game files exists).
 */
enum store_status players_add_list(struct store *st, unsigned long timeout_ms, const char *userid, const long *boards,
    size_t n);

/*
 * The boards of userid, ascending, without repeats, into *boards (the
 * caller frees it); *count may be 0.  Builds the index first if it is not
 * complete.  The boards are as the index says: the caller reads each and
 * skips one that is gone or not userid's.
 */
enum store_status players_boards(struct store *st, unsigned long timeout_ms, const char *userid, long **boards,
    size_t *count);

#endif
