/*
 * tournstart: the boards of a tournament's start made as one batch (step 2
 * of tournament.h's protocol), so that a 50-player round robin's 225
 * boards cost a few syncs, not three each (issue 44: under two seconds).
 *
 * The boards go in chunks of TOURNSTART_CHUNK, each chunk so:
 *   1. every board's lock taken and held to the end of the chunk; a board
 *      whose game file exists is left (made by an earlier run); for the
 *      others what a killed run left is settled first: their outbox
 *      leftovers (outbox_recover: no game file, so its mails are deleted)
 *      and their staged game files (store_board_unstage);
 *   2. every board's mails staged in outbox/tmp/ with their batch record,
 *      tagged with its game text (outbox.h), and its game file staged
 *      beside games/<n>.game: no fsync yet (store.h, deferred durability);
 *   3. one sync (syncfs) makes all of it durable;
 *   4. the installs: each game file renamed, the commit point of its
 *      board; then one sync of the directories;
 *   5. each board's mails released to outbox/new/, its active entry added.
 * A board stays all or nothing, its mails with it, as with its own commit
 * (txn.h): a kill before its rename (4) leaves staged files that step 1 of
 * the next settle removes, and the board is made again; a kill after it
 * leaves its mails in tmp/, tagged with the game file that stands, which
 * the next recovery of the board releases (the flush of that delivery, or
 * cleanup's).  The durable steps of a chunk are its renames and unlinks
 * and two syncs, whatever its number of mails.
 */
#ifndef OUSTPBM_TOURNSTART_H
#define OUSTPBM_TOURNSTART_H

#include <stddef.h>

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "mail/command.h"

#define TOURNSTART_CHUNK 64	/* boards (and board locks held) per sync */

/* One board to make: its number, its players, the robot's level (0: none), its round and the notice its mails show. */
struct tournstart_board {
	long board;
	const char *black, *white;
	int robot_level;
	int round;
	char notice[200];
};

/* A tournament's start: its id (each board's tournament: key), board options (tournament_options) and boards. */
struct tournstart {
	unsigned tournament;
	const struct command *options;
	const struct tournstart_board *boards;
	size_t n;
};

/*
 * Make the boards of s whose game file does not exist yet, with their
 * first mails, in chunks as above.  *made counts the boards made.  On
 * failure err (errlen bytes) says why; the chunks before stand:
 * PROCESS_TEMPFAIL (a lock, the disk, memory: nothing of the failed chunk
 * committed) or PROCESS_SOFTWARE (a template, a damaged users file).
 */
enum process_status tournstart_make(struct server *srv, const struct tournstart *s, size_t *made, char *err,
    size_t errlen);

#endif
