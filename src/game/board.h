/*
 * board: the ASCII board, pbmserv style (doc/rules.md, seed 003
 * Figure 7), as mail replies and game files show it:
 *
 *   x: rrognlie 41/46   o: marksteere 20/40
 *
 *       A B C D E F G H J K L M N
 *   13  o . . . o . . o . . o . .  13
 *    9  x . . o o o o o . o . . o   9
 *       A B C D E F G H J K L M N
 *
 * Black is x, White o, an empty point '.', an empty star point ','; the
 * stones placed in the last turn are upper case.  The first line gives each
 * player's symbol, name, largest group / total stones.  Columns skip I.
 *
 * A hex-hex board (side 3 here) is drawn with its rows offset by half a
 * cell, the row letters on both sides, and the cell numbers along the
 * edges (AbstractPlay's notation: a cell is its row letter and its number
 * from 1 at the left end of the row):
 *
 *   x: alice 3/5   o: bob 2/5
 *
 *         1 2 3
 *     e  o x o 4  e
 *    d  x . . x 5  d
 *   c  o . o . .  c
 *    b  x . O o 5  b
 *     a  o x . 4  a
 *         1 2 3
 *
 * Each number marks a line of cells that share it: from a number above
 * the board or on the upper right, the line runs down and to the left to
 * the middle row, then down and to the right to the same number below the
 * board or on the lower right (so e3 d3 c3 b3 a3 above, and d4 c4 b4).
 * There are no star points.
 */
#ifndef OUSTPBM_BOARD_H
#define OUSTPBM_BOARD_H

#include <stdbool.h>
#include <stddef.h>

#include "game/game.h"
#include "game/rules.h"

/* Room for any board (25 x 25 or hex side 10, two 32-character names) and its NUL. */
#define BOARD_TEXT_MAX 2048

/*
 * Star points, as on a Go board: 5 x 5 the centre only; 7, 9, 11 the four
 * points on the 3rd lines (C3, C-N+2, ...) and the centre; 13 and up the
 * four points on the 4th lines, the centre and the four side midpoints on
 * the 4th lines (D4 G4 K4 D7 G7 K7 D10 G10 K10 on 13 x 13).
 * x and y are 0-based columns and rows of a size x size board.
 */
bool board_is_star(int size, int x, int y);

/*
 * Draw board b into out (BOARD_TEXT_MAX bytes, NUL-terminated, every line
 * ending in '\n').  last holds the nlast cells placed in the last turn
 * (drawn upper case; may be NULL when nlast is 0).  Returns the length.
 */
size_t board_render(const struct rules_board *b, const char *black_name,
    const char *white_name, const int *last, int nlast, char out[BOARD_TEXT_MAX]);

/* Draw g's current board with its players' names, marking the last turn's placements. */
size_t board_render_game(const struct game *g, char out[BOARD_TEXT_MAX]);

/*
 * Draw the position after turn upto (0..nturns) of g's history, as replayed
 * by game_replay(), with the players' names of that time and that turn's
 * placements marked ("show 101#N").  Returns GAME_OK, or game_replay()'s
 * error (out is then "").
 */
enum game_status board_render_turn(const struct game *g, int upto, char out[BOARD_TEXT_MAX]);

#endif
