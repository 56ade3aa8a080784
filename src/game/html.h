/*
 * html: the HTML of oustpbm's boards and the escaping of every text that
 * comes from outside, shared by the mail's text/html part (reply_html.c) and the
 * web site (web.c).
 *
 * A board is first reduced to a struct html_board: each point empty, a
 * star point, a stone (marked when the last turn placed it) or a point the
 * last turn captured (shown as a taken stone: a hollow one), plus the
 * players' largest/total figures.  It is then drawn either as a table with
 * inline CSS (for mail: no SVG, no images, explicit colours so clients in
 * dark mode do not invert it; a square board's table as wide as the mail,
 * up to HTML_CELL_MAX pixels a point, its points square at any width) or
 * as inline SVG (for the web pages).  A hex-hex
 * board is drawn as its ASCII drawing lays it out (board.h): rows offset by
 * half a cell, in the table as cells spanning two half-cell columns, in
 * the SVG as hexagons.
 *
 * Escaping (html_escape, html_text): & < > " ' become entities, so the
 * result is safe in text and in quoted attribute values; invalid UTF-8
 * becomes U+FFFD, control characters other than LF and TAB go, and the
 * explicit bidi controls (U+202A..U+202E, U+2066..U+2069) are dropped so a
 * name cannot reverse the text after it; html_text also wraps the text in
 * <bdi> (an Arabic or Hebrew name is isolated from the text around it) and
 * lets a word longer than HTML_WORD_MAX characters break (<wbr>).
 */
#ifndef OUSTPBM_HTML_H
#define OUSTPBM_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "game/game.h"
#include "game/rules.h"

#define HTML_WORD_MAX 24	/* characters of a word before a break opportunity */

enum html_point {
	HTML_EMPTY = 0,
	HTML_STAR,		/* an empty star point (board.h) */
	HTML_BLACK,
	HTML_WHITE,
	HTML_BLACK_LAST,	/* placed by the last turn */
	HTML_WHITE_LAST,
	HTML_GONE_BLACK,	/* a black stone the last turn captured */
	HTML_GONE_WHITE,
	HTML_OFF		/* not a cell: the cut-off corners of a hex board's array */
};

#define HTML_HEX_HOLE "#ebcd86"	/* an empty hex cell, lighter than the board around it */
/* A stone the last turn took: a faint disk in a ring of the stone's colour (an inset shadow: no size of its own). */
#define HTML_GONE_BLACK_STYLE "background:#c29a4c;border-radius:50%;box-shadow:inset 0 0 0 3px #111"
#define HTML_GONE_WHITE_STYLE "background:#ead08f;border-radius:50%;box-shadow:inset 0 0 0 3px #fff"

#define HTML_CELL_MAX 48	/* CSS pixels of a square board's point at most (the table's max-width) */
#define HTML_NUMBER_COLUMN 18	/* CSS pixels of the row numbers' column */

/* A position as drawn. */
struct html_board {
	bool hex;		/* a hex-hex board */
	int size;		/* N, or the side S */
	int width;		/* rows and columns of pt: N, or 2S - 1 */
	/*
	 * enum html_point of column x, row y (0 at the bottom): [y * width + x];
	 * x as in rules.h, so on hex boards row y's cells are x = rules_row_first()..
	 */
	unsigned char pt[RULES_MAX_POINTS];
	int stones[2];		/* black, white */
	int largest[2];		/* largest group of black, white */
};

/*
 * Reduce board now to hb.  last holds the nlast cells placed by the last
 * turn (may be NULL when nlast is 0); before (may be NULL) is the board
 * before that turn, whose stones missing from now are shown as captured.
 */
void html_board_from(struct html_board *hb, const struct rules_board *now, const struct rules_board *before,
    const int *last, int nlast);

/*
 * The position after turn upto (0..nturns) of g, that turn's placements
 * marked and its captures shown; the owners of the colours then go to
 * black and white (GAME_NAME_SIZE bytes each, may be NULL).  For upto ==
 * nturns the board is g's own, replayed only for the captures.  Returns
 * GAME_OK, GAME_NO_MEMORY or game_replay()'s error.
 */
enum game_status html_board_of_game(const struct game *g, int upto, struct html_board *hb, char *black,
    char *white);

/* Append s escaped (see above), without <bdi> or breaks: for attribute values and titles. */
void html_escape(struct strbuf *b, const char *s);
/* Append s escaped, in <bdi>, long words breakable, line ends as <br>. */
void html_text(struct strbuf *b, const char *s);

/*
 * The board as a table with inline CSS for mail.  A square board's: the
 * letters above and below, the numbers on the left; as wide as the mail
 * (width 100%, table-layout fixed) up to HTML_CELL_MAX pixels a point,
 * the rows as high as a point is wide (so a 9x9 board's points are 40
 * pixels on a 400-pixel phone); at most 32 KB for a 25 x 25 board with a
 * stone on every point.  A hex board's table has 22-pixel cells, 2W + 3
 * columns (W = 2S - 1): a row letter, 2W + 1 half-cell columns, a row
 * letter; its first row sets the widths and has no height.
 */
void html_board_table(struct strbuf *b, const struct html_board *hb);

/* What a point of the mail's table links to (html_board_table_links). */
enum html_link {
	HTML_LINK_NONE = 0,
	HTML_LINK_PLAIN,	/* a legal placement */
	HTML_LINK_CAPTURE	/* a legal placement that captures: marked */
};

/*
 * The tappable board of a mail to the player to move: each legal
 * placement a link to href (a mailto: URI up to its body's value, as it
 * goes in the attribute: escaped here) followed by the point's name
 * ("D4", "g13"), so that tapping it opens the reply that plays it.
 */
struct html_links {
	const char *href;
	unsigned char kind[RULES_MAX_POINTS];	/* enum html_link, indexed as html_board.pt */
};

/* html_board_table() with links (NULL: none, as html_board_table()), each a block filling its point. */
void html_board_table_links(struct strbuf *b, const struct html_board *hb, const struct html_links *links);

/*
 * html_board_table_links() in at most budget bytes (0: any): when the
 * links as blocks are longer, the compact form, each link its mark alone
 * (the table has the class "oust-tap", whose links mail.html's style sheet
 * makes blocks; a client without it shows plain links); the first of each
 * row and those on a taken stone stay blocks.  False, and nothing
 * appended, when that too is longer than budget.
 */
bool html_board_table_fit(struct strbuf *b, const struct html_board *hb, const struct html_links *links,
    size_t budget);

/*
 * The board as inline SVG for the web: <svg role="img"> titled title
 * (escaped here), described by the element of id desc_id (the ASCII
 * board).  Stones are <circle class="b"> and <circle class="w"> with
 * data-point="E5" (or "g13"); the last turn's marks <circle class="m">,
 * captured points <circle class="gb"> and <circle class="gw">; coordinates
 * are <text class="c">.  A hex board's <svg> has the classes "board hex"
 * and its cells are one <path class="cells">.
 */
void html_board_svg(struct strbuf *b, const struct html_board *hb, const char *title, const char *desc_id);

#endif
