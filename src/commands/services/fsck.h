/*
 * fsck: `oustpbm fsck [board...]`, the consistency check of a home's game
 * files, for an admin after an edit, a crash or a restore from backup.
 *
 * Each problem is one line on the output, compiler style, naming the file
 * (relative to the home) and, when it is about one line, the line:
 *     games/101.game:27: turn 4: E5: the point is occupied
 *     games/next-board:1: the counter 102 is not ahead of board 102
 * Checked for every game file (or the boards given):
 *   - it parses (gamefile_parse: header, drawing, history);
 *   - the header's board id is the one in the file name;
 *   - the history replays (game_verify) and gives the drawn position, the
 *     side to move, the turn, the status and the end of the header (the
 *     line is the history entry, the board row or the header line at fault);
 *   - both players have an account in the users file.
 * And for the whole store (when no boards are given), under the store lock
 * so no board is created meanwhile:
 *   - games/next-board holds a board number ahead of every board;
 *   - games/ holds nothing that looks like a game file but is not named
 *     <board>.game;
 *   - no temporary file of an interrupted write (".<name>.<pid>.<n>.tmp")
 *     is left in the home or in games/ by a process that is gone;
 *   - every file and directory under the home belongs to the home's owner;
 *   - the reserved user ids (store.h) and the one-time codes (accounts.h)
 *     parse, line by line; no reserved id still has an account; every code
 *     belongs to an account;
 *   - the bounces file (bounces.h) parses; each address stopped at
 *     bounce_limit is shown as a note, "bounces: note: ...", not a problem.
 *   - the files mail makes grow (store/filecaps.h): a warning line (not a
 *     problem) at STORE_CAP_WARN_PCT of their cap, a problem past it.
 * A player of a game may also be a reserved id: an account that signed off
 * keeps its finished games.
 * Nothing is changed: fsck only reads.
 */
#ifndef OUSTPBM_FSCK_H
#define OUSTPBM_FSCK_H

#include <stddef.h>
#include <stdio.h>

#include "commands/pipeline/status.h"
#include "store/store.h"

/*
 * The checks return (status.h) PROCESS_OK (the check ran: problems are
 * counted, not a failure), PROCESS_TEMPFAIL (the store lock or a file
 * could not be had now) or PROCESS_IOERR (the store could not be read).
 */

/*
 * Check the game file text (len bytes) of board, read from file (its name
 * for the messages, "games/101.game"); problems go to out, one line each,
 * and are added to *problems.  st (may be NULL: no users check) gives the
 * users file.
 */
enum process_status fsck_game(struct store *st, long board, const char *file, const char *text, size_t len,
    FILE *out, unsigned *problems);

/*
 * Check boards[0..n) of st, or with n == 0 every board and the store as
 * above.  A board given that does not exist is a problem.  *problems gets
 * the number of problems reported to out.
 */
enum process_status fsck_run(struct store *st, const long *boards, size_t n, FILE *out, unsigned *problems);

#endif
