/*
 * gamefile: the game file, one board's complete state as plain text that an
 * administrator can read and edit (format reference: doc/game-file.md).
 *
 *   # Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md
 *   board: 101
 *   size: 11
 *   ...header lines "key: value"...
 *
 *   <the board as board_render() draws it>
 *
 *   history:
 *   1 2026-11-21T18:45:00Z x alice E5
 *
 * The drawing is authoritative: on load the position is read from it (no
 * history replay, so loading stays fast), and the turn state is started
 * from the header's to-move and turn.  The history is checked for its form,
 * numbering, colours and players, not replayed; game_verify() does that.
 *
 * No file I/O here: the store module reads and writes the files.
 */
#ifndef OUSTPBM_GAMEFILE_H
#define OUSTPBM_GAMEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/game_status.h"

#define GAMEFILE_LINE_MAX 4096	/* bytes in one line; a full turn on 25 x 25 fits */
#define GAMEFILE_TIME_SIZE 21	/* "2026-11-21T18:41:07Z" and its NUL */
#define GAMEFILE_TIME_MAX GAME_TIME_MAX	/* 9999-12-31T23:59:59Z, the last time a file holds */

/* Where and why a parse failed. */
struct gamefile_error {
	int line;		/* 1-based line number, 0 if not about one line */
	char msg[256];		/* e.g. "line 7: unknown status 'plying'" */
};

/*
 * Parse the len bytes of text into *out (overwritten, not released first).
 * On success (GAME_OK) the caller owns *out and releases it with
 * game_release().  On failure *out is empty (safe to release): GAME_BAD_FILE
 * with *err (may be NULL) saying where and why, or GAME_NO_MEMORY.
 */
enum game_status gamefile_parse(const char *text, size_t len, struct game *out,
    struct gamefile_error *err);

/*
 * Parse only the header of a game file, for listings ("games <userid>")
 * that must not pay for the board and the history: the header fields go
 * into *out as gamefile_parse() sets them, with out->rg.result, rg.to_move
 * (RULES_EMPTY once over) and rg.turn; the board is left empty and the
 * history unread.  The header is checked as gamefile_parse() checks it,
 * and the statuses are its.  *out owns no memory (game_release() is harmless).
 */
enum game_status gamefile_parse_header(const char *text, size_t len, struct game *out,
    struct gamefile_error *err);

/*
 * Is g the game of the file named for board?  A file copied or restored
 * under another name holds another board's header: written back, it would
 * replace games/<header board>.game without that board's lock.  Such a file
 * is refused wherever it is loaded for writing; false fills *err (its msg
 * follows the file name: "games/101.game says board 102 ...").
 */
bool gamefile_named_for(const struct game *g, long board, struct gamefile_error *err);

/*
 * Write g in the canonical form: *out gets a NUL-terminated malloc'd text
 * of *len bytes, which the caller frees.  g must be consistent (as built by
 * game.c or gamefile_parse); parsing the text gives back the same game.
 * GAME_OK, or GAME_NO_MEMORY (*out NULL).
 */
enum game_status gamefile_format(const struct game *g, char **out, size_t *len);

/*
 * A note of the history (undo and draw by agreement, game.h) as its line
 * says it, "- 2026-11-21T19:02:11Z o bob accept undo:7", without the line
 * end; and one such line s[0..len) read and appended to g, after its last
 * turn, checked as the game file checks it (line: for the message):
 * GAME_OK, GAME_BAD_FILE with *err, or GAME_NO_MEMORY.
 */
#define GAMEFILE_NOTE_SIZE 96
char *gamefile_note_text(const struct game_note *e, char buf[GAMEFILE_NOTE_SIZE]);
enum game_status gamefile_parse_note(const char *s, size_t len, int line, struct game *g,
    struct gamefile_error *err);

/* UTC ISO 8601 with Z, "2026-11-21T18:41:07Z"; t in 0..9999-12-31T23:59:59Z. */
char *gamefile_time_str(int64_t t, char buf[GAMEFILE_TIME_SIZE]);

/* game_time_add(), for the callers that write times to files. */
int64_t gamefile_time_add(int64_t t, int64_t secs);
/* Parse exactly that form (the len bytes of s); false if it is anything else. */
bool gamefile_time_parse(const char *s, size_t len, int64_t *out);

#endif
