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
 * quit, boardsize (odd, 5..25: a square board), oustpbm-board, oustpbm-search, clear_board
 * (same shape and size), play, genmove, time_settings, time_left, showboard,
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
 * - `oustpbm-search` answers what the last genmove's search did:
 *   "playouts N nodes N cap N value V cpu S", the nodes of the tree in use
 *   and the pool's cap (ai_last_search), the chosen placement's win rate
 *   and the process CPU seconds it took: for strength matches, and for
 *   measuring playouts a second on a shared machine.
 * - `play COLOUR VERTEX` makes one placement (rules_game_play_color): after
 *   a capture the same colour places again; passes happen by themselves, so
 *   `play b pass` is refused.  A refused placement changes nothing and
 *   answers "? illegal move: <reason>" ("E5 is occupied").
 * - `genmove COLOUR` plays the computer player's placement for the side to
 *   move (ai.h, at the level of the options; a search keeps its tree from one
 *   genmove to the next), or with the test players `random` and `greedy`
 *   theirs.  It answers within the think time: the options' seconds, or less
 *   when `time_left` says the clock is short.  Its seed is the options' seed,
 *   else the environment variable OUSTPBM_ENGINE_SEED (any string), else the
 *   clock and the pid; a seed and a playout budget give the same games.
 * - `time_settings MAIN BYO_YOMI_TIME BYO_YOMI_STONES` and `time_left COLOUR
 *   TIME STONES` (GTP 2, 6.3.4), as GoGui's twogtp and gogui-server send them:
 *   a placement is a move.  With main time left a genmove takes about the
 *   remaining time over the placements the game may still need; in byo-yomi
 *   the period's time over its stones; never more than the seconds option.
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/game.h"

#define ENGINE_LINE_MAX 4096	/* bytes in a command line, after preprocessing */
#define ENGINE_FILE_MAX (4L * 1024 * 1024)	/* bytes in a game file, as the store allows */

enum engine_player {
	ENGINE_AI = 0,		/* the computer player (ai.h) */
	ENGINE_RANDOM,		/* uniformly random legal placements (a test player) */
	ENGINE_GREEDY		/* the greedy one-ply player (a test player) */
};

#define ENGINE_DEFAULT_SECONDS 10.0	/* think time per genmove when none is given */
#define ENGINE_CLI_LEVEL 5	/* `oustpbm engine` plays its strongest unless told otherwise */
#define ENGINE_MAX_SECONDS 86400.0

struct engine_options {
	enum engine_player player;
	int level;		/* AI_MIN_LEVEL..AI_MAX_LEVEL */
	double seconds;		/* longest think per genmove, > 0 */
	long playouts;		/* > 0: a fixed playout budget per placement (matches, tests) */
	bool seeded;		/* seed below is given */
	uint64_t seed;
	bool resign;		/* genmove may answer resign (see ENGINE_RESIGN_BELOW) */
};

/*
 * With --resign, genmove answers resign when the AI's search, of at least
 * ENGINE_RESIGN_PLAYOUTS playouts, gives the side to move less than this
 * chance to win.
 */
#define ENGINE_RESIGN_BELOW 0.01
#define ENGINE_RESIGN_PLAYOUTS 1000

/* The defaults: the computer player at AI_DEFAULT_LEVEL, ENGINE_DEFAULT_SECONDS, no seed. */
void engine_options_init(struct engine_options *o);

/*
 * Parse the engine's command-line options (after "engine"): --level N,
 * --seconds S, --seed N, --playouts N, --player ai|random|greedy, each also
 * as --name=value, and --resign.  On an error writes a message (room for 160 bytes) and
 * returns false.
 */
bool engine_parse_options(int argc, char **argv, struct engine_options *o, char *err, size_t errlen);

/* Answer GTP commands from in on out until quit or end of input (default options). */
enum game_status engine_run(FILE *in, FILE *out);
enum game_status engine_run_opts(FILE *in, FILE *out, const struct engine_options *o);

#endif
