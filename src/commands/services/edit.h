/*
 * edit: `oustpbm edit BOARD`, the one safe way to change a game file while
 * mail arrives.  The board's lock (the fcntl lock every mail for that board
 * takes; flock(1) does not see it) is held from the read to the install, so
 * a mail for the board meanwhile waits lock_timeout_ms and then exits 75:
 * the MTA delivers it again after the edit.  $VISUAL, else $EDITOR, else vi
 * edits a copy in $TMPDIR; the result is checked as fsck checks a board
 * (fsck_game) and only then installed atomically (store_board_write), the
 * old file kept as games/<board>.game.<time>.bak.  A copy that fails the
 * check is not installed and is kept for the admin; an unchanged copy
 * changes nothing.  Every outcome is logged.
 */
#ifndef OUSTPBM_EDIT_H
#define OUSTPBM_EDIT_H

#include <time.h>

#include "commands/pipeline/status.h"
#include "store/store.h"

/* Edit board of st; now names the backup, stamp prefixes the log line. */
enum process_status edit_board(struct store *st, long board, time_t now, const char *stamp);

#endif
