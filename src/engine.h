/*
 * engine: a GTP version 2 engine for Oust (Oust, by Mark Steere) on a pair of
 * streams (`oustpbm engine`), with the GoGui rules-engine commands, for
 * admins analysing a game, for tests, and for robot players.
 *
 * Protocol (GTP 2, http://www.lysator.liu.se/~gunnar/gtp/): every command
 * line is preprocessed as the GTP spec says (control characters other than
 * HT and LF are removed, so CR is; HT becomes a space; a '#' starts a
 * comment; empty lines are ignored).  An optional numeric id comes back in
 * the answer: "=12 E5".  Each answer starts "= " or "? " and ends with an
 * empty line.  A line longer than ENGINE_LINE_MAX bytes gets an error.
 *
 * Commands: protocol_version, name, version, known_command, list_commands,
 * quit, boardsize (odd, 5..25: a square board), oustpbm-board, clear_board
 * (same shape and size), play, genmove, showboard,
 * loadgame FILE, gogui-analyze_commands and the GoGui rules commands
 * gogui-rules_game_id (Oust), gogui-rules_board_size,
 * gogui-rules_side_to_move, gogui-rules_legal_moves, gogui-rules_board,
 * gogui-rules_final_result (unknown, B+, W+ or 0).
 *
 * - `oustpbm-board square N` or `oustpbm-board hex S` picks the board's
 *   shape and size (N odd 5..25, S 3..10) and clears it.  On hex boards
 *   vertices are in hex-hex notation ("a1", "g13": row letter from the
 *   bottom, i included, then the cell's number from the row's left end),
 *   and gogui-rules_board_size answers the side S.
 * - `play COLOUR VERTEX` makes one placement (rules_game_play_color): after
 *   a capture the same colour places again; passes happen by themselves, so
 *   `play b pass` is refused.  A refused placement changes nothing and
 *   answers "? illegal move: <reason>" ("E5 is occupied").
 * - `genmove COLOUR` plays a random legal placement of the side to move.
 *   The generator is seeded from the clock and the pid, or from the
 *   environment variable OUSTPBM_ENGINE_SEED (any string) for repeatable runs.
 * - `showboard` answers the board as board_render() draws it, starting on
 *   the line after "= ", with its blank line left out (an empty line would
 *   end a GTP answer).  Names are "black" and "white" unless a game file
 *   gave them; the last turn's stones are upper case.
 * - `gogui-rules_legal_moves` lists the vertices sorted by column, then by
 *   row ("A1 A2 B1 ..."), as the conformance traces do; on hex boards by
 *   row, then number ("a1 a2 b1 ..."); empty once over.
 * - `gogui-rules_board` answers rows top first, points as X, O and '.'
 *   separated by spaces, starting on the line after "= "; a hex board's
 *   rows are indented by half a cell per row away from the middle row.
 * - `loadgame FILE` reads a game file (gamefile_parse, at most
 *   ENGINE_FILE_MAX bytes): its position, side to move and players.
 */
#ifndef OUSTPBM_ENGINE_H
#define OUSTPBM_ENGINE_H

#include <stdio.h>

#define ENGINE_LINE_MAX 4096	/* bytes in a command line, after preprocessing */
#define ENGINE_FILE_MAX (4L * 1024 * 1024)	/* bytes in a game file, as the store allows */

enum engine_status {
	ENGINE_OK = 0,	/* quit, or end of input */
	ENGINE_IO	/* reading or writing failed */
};

/* Answer GTP commands from in on out until quit or end of input. */
enum engine_status engine_run(FILE *in, FILE *out);

#endif
