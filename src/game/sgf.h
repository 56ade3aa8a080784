/*
 * sgf: a game as an SGF file (FF[4], https://www.red-bean.com/sgf/), for
 * any SGF viewer, and back.
 *
 * Oust's captures are not Go's, so no node holds a B[] or W[] move: each
 * placement is one node whose setup properties say what changed, AB[] or
 * AW[] for the stone placed and AE[] for the stones it removed, and a viewer
 * shows the right position without knowing the rules.  One node per
 * placement, not per turn: a turn of several placements is a chain of
 * captures, and stepping through it shows each capture on its own.
 *
 * The root holds FF, GM, CA, AP, SZ, GN, PB and PW (the players at turn 1,
 * before any swap), DT (the day the game was created), RE once over, and a
 * comment; a hex-hex board of side S is written as a Hex board (GM[11]) of
 * SZ[2S-1] in axial coordinates (the rules' own: row y, column x), the two
 * corners outside the hexagon dimmed with DD[].  Square boards are Go
 * boards (GM[1]).  What SGF has no property for, and `oustpbm import` needs
 * to rebuild the game file exactly, is in private properties, which viewers
 * keep and ignore: in the root OUSTBOARD, OUSTSHAPE (hex only), OUSTSWAP,
 * OUSTCREATED, OUSTLASTMOVE and, when the game file has them, OUSTREMIND,
 * OUSTTHREAD and OUSTROBOTLEVEL; on the first node of each turn
 * OUSTTURN[number time colour player] (the game file's history line
 * without the placements, which are the AB/AW of that node and of the
 * nodes up to the next OUSTTURN), or with pass, swap, resign or timeout
 * last for a turn without placements.  Those turns are nodes of their own
 * with a comment, and so is every capture.
 *
 * Reading takes the first game tree's main line (the first variation at
 * each branch); the history is checked by replaying it (game_verify), and
 * every node's AB/AW/AE against the replay, so a file whose setup was
 * edited is refused at that node.  No I/O here.
 */
#ifndef OUSTPBM_SGF_H
#define OUSTPBM_SGF_H

#include <stddef.h>

#include "game/game.h"
#include "game/game_status.h"

#define SGF_MAX_BYTES (8 * 1024 * 1024)	/* a longer file is refused */
#define SGF_VALUE_MAX 4096	/* bytes in one property value */
#define SGF_MAX_NODES 200000	/* nodes on the main line */
#define SGF_MAX_DEPTH 1000	/* nested variations */
#define SGF_MIME_TYPE "application/x-go-sgf"

/* Where and why reading or writing failed. */
struct sgf_error {
	int line;		/* 1-based line of the culprit in the SGF text, 0 if none */
	int column;		/* 1-based column, 0 if none */
	char msg[256];		/* e.g. "line 3, column 9: node 4: AE[dc] lists d3, but E1 removes nothing" */
};

/*
 * The SGF of g: *out gets a NUL-terminated malloc'd text of *len bytes,
 * which the caller frees (GAME_OK).  GAME_BAD_SGF (with *err, which may be
 * NULL) if g's history does not lead to its position (an administrator
 * edited the drawing): the records would show another game; or
 * GAME_NO_MEMORY.
 */
enum game_status sgf_format(const struct game *g, char **out, size_t *len, struct sgf_error *err);

/*
 * Parse the len bytes of an SGF written by sgf_format() into *out
 * (overwritten, not released first).  On success the caller owns *out
 * (game_release()); gamefile_format() of it gives the game file the SGF was
 * written from (GAME_OK).  On failure *out is empty (safe to release):
 * GAME_BAD_SGF with *err (may be NULL) saying where and why, or
 * GAME_NO_MEMORY.
 */
enum game_status sgf_parse(const char *text, size_t len, struct game *out, struct sgf_error *err);

/* The SGF name of point p of b ("cc"), as sgf_format() writes it: column, then row from the top. */
void sgf_point_name(const struct rules_board *b, int p, char out[3]);

#endif
