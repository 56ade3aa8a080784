/*
 * preview: a turn tried placement by placement on a copy of a position,
 * for the preview and moves mail commands (Oust, by Mark Steere): what each
 * placement does, where the turn stops and why, and the legal placements
 * there.  The position given is never changed.  No I/O, no clock.
 */
#ifndef OUSTPBM_PREVIEW_H
#define OUSTPBM_PREVIEW_H

#include <stdbool.h>

#include "game/board.h"
#include "game/game.h"
#include "game/rules.h"

/* The status of the functions below: GAME_OK, or GAME_NO_MEMORY (game_status.h). */

/* Where a tried turn stops. */
enum preview_outcome {
	PREVIEW_COMPLETE = 0,	/* it ends: a non-capturing placement, a win, or a capture that left no placement */
	PREVIEW_ILLEGAL,	/* placement [stop] may not be made (see why) */
	PREVIEW_UNFINISHED	/* the last placement captured and a placement remains: place again */
};

enum preview_why {
	PREVIEW_RULES = 0,	/* the rules refuse it: check.verdict */
	PREVIEW_OFF_BOARD,	/* not a point of this board */
	PREVIEW_AFTER_END	/* it comes after the turn ended */
};

/* One legal placement and what it would take. */
struct preview_option {
	int point;
	int captured;		/* stones it would remove; 0: non-capturing */
};

/* One placement tried. */
struct preview_step {
	int point;		/* RULES_NO_POINT when off the board */
	struct rules_check check;	/* rules_check() before it */
	int captured;		/* stones it removed */
	int taken[RULES_MAX_POINTS];	/* ... which (the first ntaken) */
	int ntaken;
	char drawing[BOARD_TEXT_MAX];	/* the board after it: capturing placements and the last one; else "" */
};

/* A tried turn.  Owned by the caller: preview_release(). */
struct preview {
	enum preview_outcome outcome;
	enum rules_color color;	/* who places */
	int nsteps;		/* placements tried (with ILLEGAL, the last is the illegal one) */
	struct preview_step *steps;
	enum preview_why why;	/* ILLEGAL */
	int captured;		/* stones the legal placements removed */
	struct rules_event last;	/* the event of the last legal placement (passes, result, dead end) */
	char drawing_start[BOARD_TEXT_MAX];	/* the board before the turn */
	/*
	 * The legal placements where it stops: of the player placing (ILLEGAL,
	 * UNFINISHED), or of the side to move after it (COMPLETE, the game
	 * going on; none once it is over), by column then row (hex: by row).
	 */
	enum rules_color legal_color;
	int nlegal;
	struct preview_option *legal;
};

/*
 * Try the placements points[0..n) (cells of start's board; RULES_NO_POINT
 * for a name that is not on it) by the side to move of start, which must
 * be a game going on.  black and white name the players in the drawings.
 */
enum game_status preview_turn(const struct rules_game *start, const int *points, int n, const char *black,
    const char *white, struct preview *out);
void preview_release(struct preview *p);

/*
 * The legal placements of the side to move of rg, each with what it would
 * take, by column then row (on a hex board by row, then cell), into *out
 * (the caller frees it); *n how many.
 */
enum game_status preview_options(const struct rules_game *rg, struct preview_option **out, int *n);

#endif
