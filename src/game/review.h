/*
 * review: a game replayed by the AI (ai.h), for the mail command `review`:
 * for every turn, Black's chance to win before and after it (the search's
 * value for the side to move, turned into Black's), the turns that cost
 * their player the most, and for those the turn the AI would have played
 * instead.  Pure as the AI is: no files, no mail (the kept file and the
 * queue are store/reviews.h's, the mail commands/services/review.c's).
 *
 * Position i is the one after turn i (0: the empty board).  Its value is
 * exact once the game is over there (1 Black won, 0 White won, 0.5 a
 * draw), and on a board the solver knows (solve.h: the hex board of side
 * 3) it is the proved result; else it is the win rate of the AI's search,
 * level AI_MAX_LEVEL, with o->playouts a placement or o->seconds for the
 * whole review.  Turn k's "before" is position k-1's value, its "after"
 * position k's; its drop is what the player of turn k lost by it (Black's
 * chance before minus after, or the reverse for White).  A drop of
 * REVIEW_MISTAKE_DROP or more is a mistake, of REVIEW_BLUNDER_DROP or more
 * a blunder; on a solved board a turn that turns a won position into a lost
 * one is a blunder whatever the figures.
 *
 * Every chance is kept in 0..1: a search's value is clamped where it is
 * computed (a win rate with its exploration terms can stray past either
 * end), and a kept file with a value outside it (one written before the
 * clamp, "turn 3 x 1.0000 -0.0123") is repaired when read, not refused,
 * so that a kept review is always mailed again rather than recomputed.
 *
 * For each of the costliest turns (review_worst) the review also keeps the
 * opponent's best answer to the turn played (the refutation): the AI's
 * whole turn at the position after it.
 */
#ifndef OUSTPBM_REVIEW_H
#define OUSTPBM_REVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "game/game_status.h"

/* the HTML boards of the costliest turns, at most: past it a board is left to the text part, so that the
 * whole review mail (text, HTML, SGF) stays under Gmail's 102 KB clip on every board size */
#define REVIEW_WORST_HTML_MAX 48000
#define REVIEW_MISTAKE_DROP 0.15	/* the player's chance to win fell by 15 points */
#define REVIEW_BLUNDER_DROP 0.30	/* ... by 30 points */
#define REVIEW_BETTER_MAX 32	/* placements of a better turn kept */
#define REVIEW_WORST_MAX 5	/* turns the mail describes, the costliest first */
#define REVIEW_MAX_TURNS 2000	/* a longer game is not reviewed */
#define REVIEW_FILE_MAX (256 * 1024)	/* bytes of a kept review */
#define REVIEW_DECIDED 0.05	/* Black's chance below it, or above 1 - it, to the end: the game was decided */

enum review_kind { REVIEW_FINE = 0, REVIEW_MISTAKE, REVIEW_BLUNDER };

struct review_turn {
	int number;		/* from 1 */
	enum rules_color color;	/* who played it */
	enum game_action action;
	double before, after;	/* Black's chance to win, 0..1 */
	/* the AI's turn at the position before, for a mistake or blunder only */
	bool better_swap;	/* it would have swapped */
	int nbetter;		/* its placements (0: none, or the same turn as played) */
	int better[REVIEW_BETTER_MAX];	/* rules cells */
	int better_captured;	/* stones its placements would have removed */
	/* the opponent's best answer to the turn played, for the costliest turns only */
	bool answer_swap;	/* it would swap */
	int nanswer;		/* its placements (0: none computed, or the game was over) */
	int answer[REVIEW_BETTER_MAX];	/* rules cells */
	int answer_captured;
};

struct review {
	long board;
	int nturns;		/* the turns reviewed: the game's when it was reviewed */
	bool exact;		/* values proved by the solver, not searched */
	long playouts;		/* searched: playouts of all the searches together */
	struct review_turn *turns;	/* nturns of them; owned: review_release() */
};

struct review_options {
	long playouts;		/* > 0: a fixed budget a placement (tests; deterministic) */
	double seconds;		/* else the time of the whole review, shared out over its searches */
	uint64_t seed;
};

/*
 * Review g's history into *out (the caller releases it with
 * review_release(), also after a failure).  g may be over or in progress.
 * GAME_OK; GAME_BAD_HISTORY (the history does not replay: an edited board),
 * GAME_TOO_LONG (more than REVIEW_MAX_TURNS turns), GAME_NO_MEMORY, or
 * GAME_INTERNAL (the AI failed).
 */
enum game_status review_compute(const struct game *g, const struct review_options *o, struct review *out);
void review_release(struct review *r);

/* What turn t cost its player (negative: it gained), and what that makes it. */
double review_drop(const struct review_turn *t);
enum review_kind review_kind_of(const struct review *r, const struct review_turn *t);
const char *review_kind_str(enum review_kind k);	/* "", "mistake", "blunder" */

/*
 * The turns the mail describes: up to REVIEW_WORST_MAX indexes into
 * r->turns of the mistakes and blunders, the costliest first; returns how many.
 */
int review_worst(const struct review *r, int idx[REVIEW_WORST_MAX]);

/*
 * The kept file: a text the caller owns (*out, *len): GAME_OK or
 * GAME_NO_MEMORY; and back, checked against g: GAME_OK, GAME_BAD_REVIEW
 * (it does not parse, or is another game's: why in err), GAME_NO_MEMORY.
 */
enum game_status review_format(const struct review *r, const struct game *g, char **out, size_t *len);
enum game_status review_parse(const char *text, size_t len, const struct game *g, struct review *out,
    char *why, size_t whylen);

/*
 * What the review mail and the web page show (reviewtext.c); each returns
 * a malloc'd NUL-terminated text the caller frees, or NULL when out of
 * memory (or, for review_sgf, when g's history does not replay).
 *   review_table:    the plain-text table, a line a turn, up to the turn after
 *                    which the game stayed decided (review_decided): the rest
 *                    in one line;
 *   review_worst_text: the costliest turns in words, each with the board of the
 *                    opponent's best answer to it and the board of the better
 *                    turn ("C2 wins at once" when it ends the game);
 *   review_worst_html: the same with the boards as HTML tables (html.h), for mail;
 *                    a board that would take it past REVIEW_WORST_HTML_MAX is named
 *                    and left to the text part;
 *   review_chart_html: the bar chart as a table of coloured cells (mail: no SVG);
 *   review_chart_svg:  the same as inline SVG (the web page);
 *   review_sgf:      g's SGF (sgf.h) with the evaluations in each turn's C[] and
 *                    the AI's better turns as variations.
 */
char *review_table(const struct game *g, const struct review *r);
char *review_worst_text(const struct game *g, const struct review *r);
char *review_worst_html(const struct game *g, const struct review *r);

/*
 * The turn (from 1) after which Black's chance stayed below REVIEW_DECIDED
 * or above 1 - REVIEW_DECIDED to the end of r, or 0 when it never did (or
 * r is exact: a solved board's values are all 0, 1/2 or 1).
 */
int review_decided(const struct review *r);
char *review_chart_html(const struct game *g, const struct review *r);
char *review_chart_svg(const struct game *g, const struct review *r);
char *review_sgf(const struct game *g, const struct review *r, size_t *len);


#endif
