/*
 * rules: the Oust rules core (Oust, by Mark Steere), as doc/rules.md states them.
 *
 * Pure C: no I/O, no clock, no allocation.  A board is a fixed-size value
 * (copy it with plain assignment) with a border of off-board cells, so that
 * a point's neighbours are always at the fixed offsets nbr[0..nnbr) and
 * never need a bounds check.
 *
 * Two shapes share one bordered array of width + 2 columns:
 * - square, N x N points, four neighbours: -1, +1, -stride, +stride;
 * - hex-hex of side S (Mark Steere's own board), 3S(S-1)+1 cells with six
 *   neighbours, in axial coordinates: row y from the bottom, x such that a
 *   cell's neighbours are -1, +1, -stride, +stride, -stride-1, +stride+1.
 *   The array is 2S-1 wide and the cells with |x - y| > S-1 (two cut-off
 *   corners) are RULES_OFFBOARD like the border.
 *
 * Groups never split in Oust: a placement only merges groups, and a capture
 * removes whole groups.  So each group is a circular list of its stones with
 * a size, and a merge relabels the smaller groups into the largest one; no
 * placement relabels the whole board.
 *
 * Points are cell indexes into the bordered board (see rules_point()).
 * x is the column of the array from the left, y the row from the bottom,
 * both from 0; row y's points are x = rules_row_first() .. + rules_row_len() - 1.
 */
#ifndef OUSTPBM_RULES_H
#define OUSTPBM_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RULES_MIN_SIZE 5
#define RULES_MAX_SIZE 25
#define RULES_DEFAULT_SIZE 11
#define RULES_MAX_STRIDE (RULES_MAX_SIZE + 2)
#define RULES_MAX_CELLS (RULES_MAX_STRIDE * RULES_MAX_STRIDE)
#define RULES_MAX_POINTS (RULES_MAX_SIZE * RULES_MAX_SIZE)
#define RULES_NO_POINT 0 /* cell 0 is always off-board */

/* Hex-hex boards: side S, 2S-1 rows, 3S(S-1)+1 cells. */
#define RULES_HEX_MIN_SIDE 3
#define RULES_HEX_MAX_SIDE 10
#define RULES_HEX_DEFAULT_SIDE 7
#define RULES_MAX_NBR 6

enum rules_shape {
	RULES_SQUARE = 0,
	RULES_HEX = 1
};

enum rules_color {
	RULES_EMPTY = 0,
	RULES_BLACK = 1,
	RULES_WHITE = 2,
	RULES_OFFBOARD = 3
};

/* The other player's colour; c is RULES_BLACK or RULES_WHITE. */
#define RULES_OTHER(c) ((enum rules_color)(3 - (c)))

/* What a placement would do, or why it may not be made. */
enum rules_verdict {
	RULES_NONCAPTURE = 0,	/* legal, touches no own stone: ends the turn */
	RULES_CAPTURE,		/* legal, joins own stones and removes enemy groups */
	RULES_OFFBOARD_POINT,	/* not a point of this board */
	RULES_OCCUPIED,		/* the point holds a stone */
	RULES_NO_ENEMY,		/* joins own stones but the new group touches no enemy */
	RULES_NOT_LARGER,	/* the new group is not larger than an enemy group it touches */
	RULES_GAME_OVER,	/* the game has ended */
	RULES_NOT_YOUR_TURN	/* rules_game_play_color: the colour is not the side to move */
};

/* True for the two legal verdicts. */
static inline bool rules_is_legal(enum rules_verdict v)
{
	return v == RULES_NONCAPTURE || v == RULES_CAPTURE;
}

/* Details of a placement check, filled by rules_check(). */
struct rules_check {
	enum rules_verdict verdict;
	int new_group;		/* size of the group the stone would form (1 if alone) */
	int largest_enemy;	/* largest enemy group the new group would touch (0: none) */
	int enemy_groups;	/* how many enemy groups it would touch */
	int captured;		/* stones that would be removed (capture only) */
};

struct rules_board {
	enum rules_shape shape;
	int size;		/* square: N, points per side; hex: S, cells per side */
	int width;		/* rows, and columns of the array: N, or 2S - 1 */
	int stride;		/* width + 2 */
	int ncells;		/* stride * stride */
	int npoints;		/* points of the board: N * N, or 3S(S-1) + 1 */
	int nnbr;		/* neighbours of an inner point: 4 or 6 */
	int nbr[RULES_MAX_NBR];	/* their offsets; an edge point's others are off-board */
	int nempty;		/* empty points */
	int stones[3];		/* stones of each colour, indexed by enum rules_color */
	uint32_t wgen;		/* generation of the group-walk marks */
	uint8_t color[RULES_MAX_CELLS];
	uint8_t nown[RULES_MAX_CELLS];	/* black neighbours | white neighbours << 4 */
	uint16_t group[RULES_MAX_CELLS];	/* group id (a cell of the group); 0 if empty */
	uint16_t next[RULES_MAX_CELLS];	/* next stone of the same group (circular) */
	uint16_t gsize[RULES_MAX_CELLS];	/* stones in group g, indexed by group id */
	uint16_t epos[RULES_MAX_CELLS];	/* index of an empty point in empty[] */
	uint16_t empty[RULES_MAX_POINTS];	/* the empty points, in no order */
	uint8_t gvalid[RULES_MAX_CELLS];	/* gmax[g] is up to date */
	uint16_t gmax[RULES_MAX_CELLS];	/* largest enemy group next to group g */
	uint32_t wmark[RULES_MAX_CELLS];	/* group g walked in generation wgen */
	/*
	 * Legal sets, kept per colour and brought up to date lazily: a change
	 * marks dirty the empty points whose verdict it may change, and the next
	 * rules_legal() for that colour decides only those again.
	 */
	bool full[3];		/* every point must be decided again */
	int nlegal[3];
	int ndirty[3];
	uint16_t legal[3][RULES_MAX_POINTS];
	uint16_t lpos[3][RULES_MAX_CELLS];	/* index in legal[c], or RULES_NOT_LISTED */
	uint16_t dirty[3][RULES_MAX_POINTS + 1];	/* + 1: mark() writes one slot ahead */
	uint8_t isdirty[3][RULES_MAX_CELLS];
};

#define RULES_NOT_LISTED 0xffff

enum rules_result {
	RULES_PLAYING = 0,
	RULES_BLACK_WINS,
	RULES_WHITE_WINS,
	RULES_DRAW
};

/* The turn state of a game: the board, who is placing, and whether mid-turn. */
struct rules_game {
	struct rules_board board;
	enum rules_color to_move;	/* side to move (meaningless once over) */
	enum rules_result result;
	int turn;		/* number of the turn in progress, from 1; passes and swap count */
	int placed;		/* placements already made in the turn in progress */
	bool swap_enabled;	/* pie rule on for this game */
};

/* Events a single placement caused, filled by rules_game_play(). */
struct rules_event {
	enum rules_verdict verdict;
	int captured;		/* stones removed by this placement */
	bool turn_over;		/* the turn ended with this placement */
	bool dead_end;		/* it ended after a capture: no placement was left */
	int npasses;		/* turns passed automatically after it (0 or 1) */
	enum rules_color passed[2];	/* who passed, in order */
	enum rules_result result;	/* the game's result after it */
};

/* ---- board ---- */

/* Empty square board of size N; size must satisfy rules_size_ok(). */
void rules_board_init(struct rules_board *b, int size);
bool rules_size_ok(int size);
/* Empty board of either shape; size is N (square) or the side S (hex). */
void rules_board_init_shape(struct rules_board *b, enum rules_shape shape, int size);
/* Square: rules_size_ok(); hex: a side from RULES_HEX_MIN_SIDE to RULES_HEX_MAX_SIDE. */
bool rules_shape_ok(enum rules_shape shape, int size);

/* The cell of column x, row y (0-based, row 0 at the bottom); x, y must be on the board. */
static inline int rules_point(const struct rules_board *b, int x, int y)
{
	return (y + 1) * b->stride + (x + 1);
}
/* The column x of row y's leftmost point: 0 on square boards. */
static inline int rules_row_first(const struct rules_board *b, int y)
{
	return b->shape == RULES_HEX && y >= b->size ? y - b->size + 1 : 0;
}
/* Points in row y (0-based from the bottom): N, or S .. 2S-1 .. S. */
static inline int rules_row_len(const struct rules_board *b, int y)
{
	if (b->shape != RULES_HEX)
		return b->size;
	return y < b->size ? b->size + y : 3 * b->size - 2 - y;
}
static inline int rules_x(const struct rules_board *b, int p) { return p % b->stride - 1; }
static inline int rules_y(const struct rules_board *b, int p) { return p / b->stride - 1; }
static inline enum rules_color rules_at(const struct rules_board *b, int p)
{
	return (enum rules_color)b->color[p];
}
/* Size of colour c's largest group (0 if it has no stone). */
int rules_largest_group(const struct rules_board *b, enum rules_color c);

/*
 * Put a stone of colour c on the empty point p with no rule applied: no
 * capture, groups merge as needed.  For setting up a position (a game file's
 * board, a test).  Returns false if p is off the board or occupied.
 */
bool rules_board_setup(struct rules_board *b, int p, enum rules_color c);

/* What placing colour c at p would do; out may be NULL. Does not change b. */
enum rules_verdict rules_check(const struct rules_board *b, enum rules_color c, int p,
    struct rules_check *out);

/*
 * Place colour c at p if legal; returns the verdict and removes what it
 * captures (*captured, may be NULL, gets the stone count).
 */
enum rules_verdict rules_place(struct rules_board *b, enum rules_color c, int p, int *captured);

/*
 * All legal placements for colour c, written to out (room for
 * RULES_MAX_POINTS), in no particular order (sort them to print them).
 * Returns how many.  b is not const because this brings its cached legal
 * set for c up to date; the position itself is not changed.
 */
int rules_legal(struct rules_board *b, enum rules_color c, uint16_t *out);

/* Whether colour c has at least one legal placement. */
bool rules_has_legal(struct rules_board *b, enum rules_color c);

/*
 * ---- notation ----
 * Square: "E5", column letters from the left skipping I, rows from 1 at
 * the bottom.  Hex (AbstractPlay's hex-hex notation): "g13", rows lettered
 * from a at the bottom (i included), cells numbered from 1 at the left end
 * of each row.  Both accept either case; names are written in the case of
 * the board's drawing: upper case on square boards, lower case on hex.
 */

/*
 * Parse a vertex such as "E5" or "e5" (exactly the text s[0..len)) into a
 * cell of b.  Returns RULES_NO_POINT if it is not a point of this board.
 */
int rules_parse_point(const struct rules_board *b, const char *s, int len);
/* Write p's name ("E5", "g13") into buf (room for 4 bytes); returns buf. */
char *rules_point_name(const struct rules_board *b, int p, char buf[4]);
/*
 * Why the vertex s[0..len) (a letter and a number, as rules_parse_point()
 * refused it) is not a point of b, as a sentence for a player: "E12 is not
 * on the 11x11 board"; on hex boards naming the valid range, "m8 is not on
 * the hex board of side 7: row m has cells m1 to m7" or "n1 is not on the
 * hex board of side 7: its rows run from a to m".  Writes at most size
 * bytes (size > 0) to buf; returns buf.
 */
char *rules_offboard_why(const struct rules_board *b, const char *s, int len, char *buf, size_t size);
/* Column letter for column x (0-based), skipping I. */
char rules_column_letter(int x);
/* Hex row letter for row y (0-based from the bottom): 'a' + y. */
char rules_row_letter(int y);

/* ---- game: turn state ---- */

/* A new game on an empty square board of size N. */
void rules_game_init(struct rules_game *g, int size, bool swap_enabled);
/* A new game on an empty board of either shape (see rules_board_init_shape). */
void rules_game_init_shape(struct rules_game *g, enum rules_shape shape, int size, bool swap_enabled);

/*
 * Begin a game at an arbitrary position: board b as set up, colour to_move
 * about to start turn number `turn`.  Settles the position as play would:
 * if to_move has no placement it passes, or the game is drawn if neither
 * side has one; reported in *ev (may be NULL) as rules_game_play() does.
 * The caller sets g->result itself for a game it knows to be over.
 */
void rules_game_start(struct rules_game *g, const struct rules_board *b, enum rules_color to_move,
    int turn, bool swap_enabled, struct rules_event *ev);

/*
 * One placement by the side to move at p.  On an illegal placement nothing
 * changes and ev->verdict says why.  After a capture the same side places
 * again; when a turn ends the next side's automatic passes, a win or a draw
 * are applied and reported in *ev.
 */
enum rules_verdict rules_game_play(struct rules_game *g, int p, struct rules_event *ev);

/* As rules_game_play, but refuses with RULES_NOT_YOUR_TURN unless c is to move. */
enum rules_verdict rules_game_play_color(struct rules_game *g, enum rules_color c, int p,
    struct rules_event *ev);

/* Legal placements of the side to move in the current turn state; 0 once over. */
int rules_game_legal(struct rules_game *g, uint16_t *out);

/*
 * Pie rule: true if the side to move may swap now (swap on, turn 2, no
 * placement made in it yet, game running).
 */
bool rules_game_can_swap(const struct rules_game *g);

/*
 * Swap: the turn counts, colours stay on the board; the caller exchanges the
 * players' names.  White (now owned by the player who made turn 1) moves
 * next, starting turn 3.  Returns false, changing nothing, if not allowed.
 */
bool rules_game_swap(struct rules_game *g);

/* Colour c resigns: the other colour wins at once. */
void rules_game_resign(struct rules_game *g, enum rules_color c);

/* ---- whole turns (all placements checked and applied together) ---- */

/*
 * The verdict on a whole turn: a result, not a failure (an illegal turn is
 * the rules' answer, said to the player; the game layer's failures are
 * enum game_status, game_status.h).
 */
enum rules_turn_verdict {
	RULES_TURN_OK = 0,
	RULES_TURN_ILLEGAL,	/* placement [index] is illegal: see check.verdict */
	RULES_TURN_TOO_SHORT,	/* stops after a capture although a placement remains */
	RULES_TURN_TOO_LONG,	/* placement [index] comes after the turn ended */
	RULES_TURN_EMPTY	/* no placement given */
};

struct rules_turn_report {
	enum rules_turn_verdict verdict;
	int index;		/* the placement concerned, from 0 */
	struct rules_check check;	/* for RULES_TURN_ILLEGAL */
	int captured;		/* stones captured by the whole turn */
	bool dead_end;		/* the turn ended after a capture with no placement left (RULES_TURN_TOO_LONG too) */
	int npasses;		/* automatic passes that followed the turn */
	enum rules_color passed[2];
	enum rules_result result;	/* after the turn (RULES_TURN_TOO_LONG: where it ended) */
};

/*
 * Apply a whole turn of n placements by the side to move, atomically: either
 * every placement is legal and the turn is complete (ends with a
 * non-capturing placement, a win, or a capture that left no placement), and
 * g is updated, or g is unchanged and rep says what was wrong.  Returns
 * rep->verdict (RULES_TURN_OK: the turn was played).
 */
enum rules_turn_verdict rules_game_turn(struct rules_game *g, const int *points, int n,
    struct rules_turn_report *rep);

/* ---- names ---- */
const char *rules_verdict_str(enum rules_verdict v);
const char *rules_turn_verdict_str(enum rules_turn_verdict s);
const char *rules_color_name(enum rules_color c); /* "black", "white" */
const char *rules_result_str(enum rules_result r); /* GTP style: "unknown", "B+", "W+", "0" */

#endif
