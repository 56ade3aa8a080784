/* html: boards as HTML tables and SVG, and escaping.  See html.h. */
#include "game/html.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "game/board.h"

/* A string literal appended without strlen(). */
#define PUT(b, lit) strbuf_add((b), (lit), sizeof(lit) - 1)

void html_board_from(struct html_board *hb, const struct rules_board *now, const struct rules_board *before,
    const int *last, int nlast)
{
	int x, y, p, i, first, end;
	enum rules_color c, was;
	unsigned char v;

	memset(hb, 0, sizeof *hb);
	hb->hex = now->shape == RULES_HEX;
	hb->size = now->size;
	hb->width = now->width;
	for (y = 0; y < now->width; y++) {
		first = rules_row_first(now, y);
		end = first + rules_row_len(now, y);
		for (x = 0; x < now->width; x++) {
			if (x < first || x >= end) {
				hb->pt[y * now->width + x] = HTML_OFF;
				continue;
			}
			p = rules_point(now, x, y);
			c = rules_at(now, p);
			if (c == RULES_BLACK || c == RULES_WHITE) {
				v = c == RULES_BLACK ? HTML_BLACK : HTML_WHITE;
				for (i = 0; i < nlast; i++)
					if (last[i] == p)
						v = c == RULES_BLACK ? HTML_BLACK_LAST : HTML_WHITE_LAST;
			} else {
				was = before != NULL ? rules_at(before, p) : RULES_EMPTY;
				if (was == RULES_BLACK)
					v = HTML_GONE_BLACK;
				else if (was == RULES_WHITE)
					v = HTML_GONE_WHITE;
				else if (!hb->hex && board_is_star(now->size, x, y))
					v = HTML_STAR;
				else
					v = HTML_EMPTY;
			}
			hb->pt[y * now->width + x] = v;
		}
	}
	hb->stones[0] = now->stones[RULES_BLACK];
	hb->stones[1] = now->stones[RULES_WHITE];
	hb->largest[0] = rules_largest_group(now, RULES_BLACK);
	hb->largest[1] = rules_largest_group(now, RULES_WHITE);
}

/*
 * The board before turn upto of g, by the placements alone (rules_place:
 * captures as the rules make them, without the turn bookkeeping and the
 * copy per turn of game_replay(), a tenth of its time on long games).
 * Only what the stones were matters here: which points the turn emptied.
 * False when a placement is not legal there (an edited history).
 */
static bool stones_before(const struct game *g, int upto, struct rules_board *b)
{
	const struct game_turn *t;
	const int *p;
	int i, k;

	rules_board_init_shape(b, g->shape, g->size);
	for (i = 0; i < upto - 1; i++) {
		t = &g->turns[i];
		if (t->action != GAME_PLACE)
			continue;
		if (t->color != RULES_BLACK && t->color != RULES_WHITE)
			return false;
		p = game_turn_points(g, t);
		for (k = 0; k < t->npoints; k++)
			if (!rules_is_legal(rules_place(b, t->color, p[k], NULL)))
				return false;
	}
	return true;
}

enum game_status html_board_of_game(const struct game *g, int upto, struct html_board *hb, char *black,
    char *white)
{
	struct game_replay *after = NULL, *before = NULL;
	struct rules_board *prev = NULL;
	const struct rules_board *now, *was = NULL;
	enum game_status st = GAME_NO_MEMORY;
	const int *last = NULL;
	int nlast;

	if (upto < 0 || upto > g->nturns)
		return GAME_BAD_TURN_NUMBER;
	nlast = game_turn_placements(g, upto, &last);
	if (upto == g->nturns) {
		/* the position is g's own: the board before the turn only shows its captures */
		if (nlast > 0) {
			prev = malloc(sizeof *prev);
			if (prev == NULL)
				goto out;
			/* a history that does not replay (an edited file): the position all the same */
			if (stones_before(g, upto, prev))
				was = prev;
		}
		now = &g->rg.board;
		if (black != NULL)
			memcpy(black, g->black, GAME_NAME_SIZE);
		if (white != NULL)
			memcpy(white, g->white, GAME_NAME_SIZE);
	} else {
		/* a past position: replayed with every check, for the names of that time too */
		if (nlast > 0) {
			before = malloc(sizeof *before);
			if (before == NULL)
				goto out;
			st = game_replay(g, upto - 1, before);
			if (st != GAME_OK)
				goto out;
			was = &before->rg.board;
		}
		after = malloc(sizeof *after);
		if (after == NULL) {
			st = GAME_NO_MEMORY;
			goto out;
		}
		st = game_replay(g, upto, after);
		if (st != GAME_OK)
			goto out;
		now = &after->rg.board;
		if (black != NULL)
			memcpy(black, after->black, GAME_NAME_SIZE);
		if (white != NULL)
			memcpy(white, after->white, GAME_NAME_SIZE);
	}
	html_board_from(hb, now, was, last, nlast);
	st = GAME_OK;
out:
	free(prev);
	free(before);
	free(after);
	return st;
}

static void escape(struct strbuf *b, const char *s, bool text)
{
	size_t n = strlen(s), i = 0, k;
	unsigned run = 0;
	uint32_t cp;

	while (i < n) {
		k = utf8_decode(s + i, n - i, &cp);
		if (k == 0) {
			strbuf_puts(b, "\xef\xbf\xbd");	/* U+FFFD */
			i++;
			run++;
			continue;
		}
		if (text && (cp == ' ' || cp == '\t' || cp == '\n'))
			run = 0;
		else if (text && ++run > HTML_WORD_MAX) {
			strbuf_puts(b, "<wbr>");
			run = 1;
		}
		switch (cp) {
		case '&': strbuf_puts(b, "&amp;"); break;
		case '<': strbuf_puts(b, "&lt;"); break;
		case '>': strbuf_puts(b, "&gt;"); break;
		case '"': strbuf_puts(b, "&quot;"); break;
		case '\'': strbuf_puts(b, "&#39;"); break;
		case '\n':
			strbuf_puts(b, text ? "<br>\n" : "\n");
			break;
		case '\t':
			strbuf_puts(b, " ");
			break;
		default:
			/* the explicit directional formatting and zero-width characters are dropped (utf8.h) */
			if (!utf8_is_control(cp) && !utf8_is_invisible(cp))
				strbuf_add(b, s + i, k);
			break;
		}
		i += k;
	}
}

void html_escape(struct strbuf *b, const char *s)
{
	escape(b, s, false);
}

void html_text(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);
	char *copy;

	/* a final line end makes no empty line */
	while (n > 0 && s[n - 1] == '\n')
		n--;
	copy = strndup(s, n);
	if (copy == NULL) {
		b->failed = true;
		return;
	}
	strbuf_puts(b, "<bdi>");
	escape(b, copy, true);
	strbuf_puts(b, "</bdi>");
	free(copy);
}

/* ---- the mail's table ---- */

#define BOARD_BG "#dcb35c"
#define BOARD_INK "#4a3510"

struct piece {
	const char *s;
	size_t n;
};
#define PIECE(lit) { lit, sizeof(lit) - 1 }

/*
 * A square board's point: the cell's opening tag and what it shows.  Kept
 * short (a 25 x 25 board has 625 of them): unquoted attribute values and
 * the end tag </td> left out (both HTML5, and HTML 4 before it, allow
 * that).  A stone is its cell's background, round; a stone the last turn
 * took is a hollow one (a faint disk in a ring of its colour, titled
 * "taken"), a mark a link keeps (link_cell).
 */
static const struct piece square_open[] = {
	[HTML_EMPTY] = PIECE("<td>"),
	[HTML_STAR] = PIECE("<td>"),
	[HTML_BLACK] = PIECE("<td style=background:#111;border-radius:50%>"),
	[HTML_WHITE] = PIECE("<td style=background:#eee;border-radius:50%>"),
	[HTML_BLACK_LAST] = PIECE("<td style=background:#111;border-radius:50%;color:#f43>"),
	[HTML_WHITE_LAST] = PIECE("<td style=background:#eee;border-radius:50%;color:#d21>"),
	[HTML_GONE_BLACK] = PIECE("<td style=\"" HTML_GONE_BLACK_STYLE "\""),
	[HTML_GONE_WHITE] = PIECE("<td style=\"" HTML_GONE_WHITE_STYLE "\""),
	[HTML_OFF] = PIECE("<td>"),
};
static const struct piece square_glyph[] = {
	[HTML_EMPTY] = PIECE("&middot;"),
	[HTML_STAR] = PIECE("&bull;"),
	[HTML_BLACK_LAST] = PIECE("&bull;"),
	[HTML_WHITE_LAST] = PIECE("&bull;"),
};

/*
 * A block as tall as its cell is wide (a padding in percent is of the
 * width, CSS 2.1 section 8.4): in the first point of each row, it makes
 * the row as high as a point is wide, so that the points stay square
 * while the table's width follows the screen's.
 */
#define SQUARE "padding:50% 0;line-height:0"

/* A hex cell spans two half-cell columns, so that each row can be offset by half a cell. */
static const struct piece hex_cell[] = {
	[HTML_EMPTY] = PIECE("<td colspan=2 style=background:" HTML_HEX_HOLE ";border-radius:50%>"),
	[HTML_STAR] = PIECE("<td colspan=2 style=background:" HTML_HEX_HOLE ";border-radius:50%>"),
	[HTML_BLACK] = PIECE("<td colspan=2 style=background:#111;border-radius:50%>"),
	[HTML_WHITE] = PIECE("<td colspan=2 style=background:#eee;border-radius:50%>"),
	[HTML_BLACK_LAST] = PIECE("<td colspan=2 style=background:#111;border-radius:50%;color:#f43>&bull;"),
	[HTML_WHITE_LAST] = PIECE("<td colspan=2 style=background:#eee;border-radius:50%;color:#d21>&bull;"),
	[HTML_GONE_BLACK] = PIECE("<td colspan=2 title=taken style=\"" HTML_GONE_BLACK_STYLE "\">"),
	[HTML_GONE_WHITE] = PIECE("<td colspan=2 title=taken style=\"" HTML_GONE_WHITE_STYLE "\">"),
	[HTML_OFF] = PIECE("<td colspan=2>"),
};

#define TABLE_STYLE "border-collapse:separate;border-spacing:0;background:" BOARD_BG ";color:" BOARD_INK \
	";text-align:center;margin:8px 0;font-family:Arial,Helvetica,sans-serif;font-weight:bold"

#define HEX_TABLE_OPEN "<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" style=\"" TABLE_STYLE \
	";font-size:13px;line-height:22px\">\n"

/* n (1..99) in decimal into s; returns the length. */
static size_t decimal(char *s, int n)
{
	if (n >= 10) {
		s[0] = (char)('0' + n / 10);
		s[1] = (char)('0' + n % 10);
		return 2;
	}
	s[0] = (char)('0' + n);
	return 1;
}

/* "<td>13</td>" */
static void number_cell(struct strbuf *b, const char *open, size_t openlen, int n)
{
	char s[40];
	size_t len = openlen;

	memcpy(s, open, openlen);
	len += decimal(s + len, n);
	memcpy(s + len, "</td>", 5);
	strbuf_add(b, s, len + 5);
}

/* An empty cell spanning n half-cell columns (none for n <= 0). */
static void spacer(struct strbuf *b, int n)
{
	char s[32];
	size_t len;

	if (n == 1)
		PUT(b, "<td></td>");
	if (n <= 1)
		return;
	memcpy(s, "<td colspan=", 12);
	len = 12 + decimal(s + 12, n);
	memcpy(s + len, "></td>", 6);
	strbuf_add(b, s, len + 6);
}

/* The letters above and below; the first row sets the columns' widths (table-layout fixed). */
static void coord_row(struct strbuf *b, int size, bool first)
{
	char s[RULES_MAX_SIZE * 10];
	size_t len = 0;
	int x;

	if (first)
		strbuf_printf(b, "<tr><td style=\"width:%dpx;height:%dpx\"></td>", HTML_NUMBER_COLUMN,
		    HTML_NUMBER_COLUMN + 4);
	else
		strbuf_printf(b, "<tr><td style=\"height:%dpx\"></td>", HTML_NUMBER_COLUMN + 4);
	for (x = 0; x < size; x++) {
		memcpy(s + len, "<td>?</td>", 10);
		s[len + 4] = rules_column_letter(x);
		len += 10;
	}
	strbuf_add(b, s, len);
	PUT(b, "</tr>\n");
}

/*
 * A tappable point: a link to the mailto: URI that plays it (RFC 6068),
 * on a point the last turn emptied (pt) showing the taken stone all the
 * same.  Rich: the link a block filling its cell (SQUARE), the whole
 * cell its target, a capturing one marked with a red ring.  Compact (a
 * large board, where the rich links would make the mail too long): the
 * link and its mark alone; the board's class gets them their block shape
 * from the style sheet in mail.html's head, where a client keeps it.
 */
static void link_cell(struct strbuf *b, const struct html_links *links, enum html_link kind, unsigned char pt,
    bool compact, bool hex, const char *name)
{
	bool gone = pt == HTML_GONE_BLACK || pt == HTML_GONE_WHITE;

	if (hex)
		strbuf_puts(b, gone ? "<td colspan=2>" : "<td colspan=2 style=background:" HTML_HEX_HOLE ";border-radius:50%>");
	else
		PUT(b, "<td>");
	PUT(b, "<a href=\"");
	html_escape(b, links->href);
	strbuf_puts(b, name);
	if (compact && !gone) {
		if (kind == HTML_LINK_CAPTURE)
			PUT(b, "\" style=color:#c0261b>&#9678;</a>\n");
		else
			PUT(b, "\">&#9675;</a>\n");
		return;
	}
	strbuf_printf(b, "\" title=\"%s%s%s\" style=\"display:block;", name, gone ? " taken" : "",
	    kind == HTML_LINK_CAPTURE ? ": captures" : "");
	if (!hex)
		PUT(b, SQUARE ";");
	if (gone)
		strbuf_puts(b, pt == HTML_GONE_BLACK ? HTML_GONE_BLACK_STYLE ";" : HTML_GONE_WHITE_STYLE ";");
	PUT(b, "text-decoration:none;color:");
	/* a line each: the mail's lines stay under RFC 5322's 998 characters, so the part stays 7bit */
	if (kind == HTML_LINK_CAPTURE)
		PUT(b, "#c0261b\">&#9678;</a>\n");
	else
		PUT(b, "#1f4fb5\">&#9675;</a>\n");
}

/* A point that is no link; the first of a row (first) also makes the row square (SQUARE). */
static void point_cell(struct strbuf *b, unsigned char v, bool first, const char *name)
{
	const struct piece *open = &square_open[v];
	const struct piece *glyph = v < sizeof square_glyph / sizeof square_glyph[0] ? &square_glyph[v] : NULL;

	strbuf_add(b, open->s, open->n);
	if (v == HTML_GONE_BLACK || v == HTML_GONE_WHITE)
		strbuf_printf(b, " title=\"%s taken\">", name);
	if (first)
		PUT(b, "<div style=\"" SQUARE "\">");
	if (glyph != NULL && glyph->s != NULL)
		strbuf_add(b, glyph->s, glyph->n);
	if (first)
		PUT(b, "</div>");
	PUT(b, "\n");
}

static void square_table(struct strbuf *b, const struct html_board *hb, const struct html_links *links,
    bool compact)
{
	int n = hb->size, x, y, font = n <= 9 ? 20 : n <= 13 ? 16 : n <= 19 ? 13 : 11;
	enum html_link kind;
	char name[16];

	strbuf_printf(b, "<table role=\"presentation\"%s cellpadding=\"0\" cellspacing=\"0\" style=\"width:100%%;"
	    "max-width:%dpx;table-layout:fixed;" TABLE_STYLE ";font-size:%dpx;line-height:1.2\">\n",
	    compact ? " class=\"oust-tap\"" : "", HTML_NUMBER_COLUMN + n * HTML_CELL_MAX, font);
	coord_row(b, n, true);
	for (y = n - 1; y >= 0; y--) {
		PUT(b, "<tr>");
		number_cell(b, "<td>", 4, y + 1);
		for (x = 0; x < n; x++) {
			snprintf(name, sizeof name, "%c%d", rules_column_letter(x), y + 1);
			kind = links != NULL ? (enum html_link)links->kind[y * hb->width + x] : HTML_LINK_NONE;
			if (kind != HTML_LINK_NONE)
				/* a row's first link is a rich one: it keeps the row square without the style sheet */
				link_cell(b, links, kind, hb->pt[y * hb->width + x], compact && x > 0, false, name);
			else
				point_cell(b, hb->pt[y * hb->width + x], x == 0, name);
		}
		PUT(b, "</tr>\n");
	}
	coord_row(b, n, false);
	PUT(b, "</table>\n");
}

/*
 * The hex-hex board as the ASCII drawing has it (board.h): rows offset by
 * half a cell, the row letters on both sides, the numbers 1..S above and
 * below the board half a cell right of their cells and, off the middle row,
 * the number of the line that ends there right of each row.  The table has
 * 2W + 1 columns of half a cell (W = 2S - 1 cells in the middle row)
 * between the two columns of letters.
 */
/* The numbers of the lines of cells, above and below the board: k half a cell right of the edge row's cell k. */
static void hex_numbers(struct strbuf *b, int s, int half)
{
	int k;

	PUT(b, "<tr><td></td>");
	spacer(b, s);
	for (k = 1; k <= s; k++)
		number_cell(b, "<td colspan=2>", 14, k);
	spacer(b, half - 3 * s);
	PUT(b, "<td></td></tr>\n");
}

static void hex_table(struct strbuf *b, const struct html_board *hb, const struct html_links *links,
    bool compact)
{
	int s = hb->size, w = hb->width, half = 2 * w + 1, y, x, off, len, used, first;
	const unsigned char *pt;
	char letter[12], name[16];

	PUT(b, HEX_TABLE_OPEN);
	/* the columns' widths: a row of empty cells with no height */
	PUT(b, "<tr style=\"height:0\"><td style=\"width:26px\"></td>");
	for (x = 0; x < half; x++)
		PUT(b, "<td style=\"width:11px\"></td>");
	PUT(b, "<td style=\"width:26px\"></td></tr>\n");
	hex_numbers(b, s, half);
	for (y = w - 1; y >= 0; y--) {
		off = y >= s - 1 ? y - (s - 1) : s - 1 - y;
		len = w - off;
		memcpy(letter, "<td>?</td>", 10);
		letter[4] = rules_row_letter(y);
		PUT(b, "<tr>");
		strbuf_add(b, letter, 10);
		spacer(b, off);
		/* row y's cells are columns row_first.. of pt (rules.h) */
		first = y * w + (y >= s ? y - s + 1 : 0);
		pt = hb->pt + first;
		for (x = 0; x < len; x++) {
			if (links != NULL && links->kind[first + x] != HTML_LINK_NONE) {
				/* hex names: the row letter in lower case, the cell's number in its row (rules.h) */
				snprintf(name, sizeof name, "%c%d", (char)tolower((unsigned char)rules_row_letter(y)),
				    x + 1);
				link_cell(b, links, (enum html_link)links->kind[first + x], pt[x], compact, true, name);
				continue;
			}
			strbuf_add(b, hex_cell[pt[x]].s, hex_cell[pt[x]].n);
		}
		used = off + 2 * len;
		if (y != s - 1) {
			number_cell(b, "<td colspan=2>", 14, len + 1);
			used += 2;
		}
		spacer(b, half - used);
		strbuf_add(b, letter, 10);
		PUT(b, "</tr>\n");
	}
	hex_numbers(b, s, half);
	PUT(b, "</table>\n");
}

static void table(struct strbuf *b, const struct html_board *hb, const struct html_links *links, bool compact)
{
	/* one growth for the whole table: cells are at most 200 bytes, a link's its URI more */
	strbuf_reserve(b, (size_t)hb->width * (size_t)hb->width *
	    (200 + (links != NULL ? strlen(links->href) : 0)) + 4096);
	if (hb->hex)
		hex_table(b, hb, links, compact);
	else
		square_table(b, hb, links, compact);
}

bool html_board_table_fit(struct strbuf *b, const struct html_board *hb, const struct html_links *links,
    size_t budget)
{
	struct strbuf t = STRBUF_INIT;
	bool fits;

	table(&t, hb, links, false);
	if (!t.failed && links != NULL && budget > 0 && t.len > budget) {
		strbuf_release(&t);
		table(&t, hb, links, true);
	}
	if (t.failed) {
		b->failed = true;
		strbuf_release(&t);
		return true;
	}
	fits = links == NULL || budget == 0 || t.len <= budget;
	if (fits)
		strbuf_add(b, t.s, t.len);
	strbuf_release(&t);
	return fits;
}

void html_board_table_links(struct strbuf *b, const struct html_board *hb, const struct html_links *links)
{
	table(b, hb, links, false);
}

void html_board_table(struct strbuf *b, const struct html_board *hb)
{
	table(b, hb, NULL, false);
}
/* ---- the web's SVG ---- */

#define SVG_CELL 32
#define SVG_MARGIN 32

/* The point named name at cx, cy: a stone (and its mark), a star point, a captured stone, or nothing. */
static void stone_svg(struct strbuf *b, unsigned char v, const char *name, int cx, int cy)
{
	switch (v) {
	case HTML_STAR:
		strbuf_printf(b, "<circle class=\"s\" cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"#7a5a22\"/>\n", cx, cy);
		break;
	case HTML_BLACK:
	case HTML_BLACK_LAST:
		strbuf_printf(b, "<circle class=\"b\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"14\" "
		    "fill=\"#111\"/>\n", name, cx, cy);
		if (v == HTML_BLACK_LAST)
			strbuf_printf(b, "<circle class=\"m\" cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#ff4d3a\"/>\n", cx, cy);
		break;
	case HTML_WHITE:
	case HTML_WHITE_LAST:
		strbuf_printf(b, "<circle class=\"w\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"13.5\" "
		    "fill=\"#f6f6f6\" stroke=\"#333\" stroke-width=\"1\"/>\n", name, cx, cy);
		if (v == HTML_WHITE_LAST)
			strbuf_printf(b, "<circle class=\"m\" cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#d8261a\"/>\n", cx, cy);
		break;
	case HTML_GONE_BLACK:
	case HTML_GONE_WHITE:
		/* a taken stone: faint, in a ring of its colour, as in the mail's table (HTML_GONE_BLACK_STYLE) */
		strbuf_printf(b, "<circle class=\"%s\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"12.5\" "
		    "fill=\"%s\" fill-opacity=\"0.3\" stroke=\"%s\" stroke-width=\"3\"><title>%s taken</title></circle>\n",
		    v == HTML_GONE_BLACK ? "gb" : "gw", name, cx, cy, v == HTML_GONE_BLACK ? "#111" : "#fff",
		    v == HTML_GONE_BLACK ? "#111" : "#fff", name);
		break;
	default:
		break;
	}
}

static void square_svg(struct strbuf *b, const struct html_board *hb, const char *title, const char *desc_id)
{
	int n = hb->size, w = 2 * SVG_MARGIN + n * SVG_CELL, x, y, cx, cy, lo, hi;
	char name[4];

	strbuf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\" aria-label=\"", w, w, w, w);
	html_escape(b, title);
	strbuf_printf(b, "\" aria-describedby=\"%s\" class=\"board\">\n<title>", desc_id);
	html_escape(b, title);
	strbuf_printf(b, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"" BOARD_BG "\"/>\n", w, w);
	/* the grid, from the centre of the first point to the centre of the last */
	lo = SVG_MARGIN + SVG_CELL / 2;
	hi = lo + (n - 1) * SVG_CELL;
	strbuf_puts(b, "<path stroke=\"#7a5a22\" stroke-width=\"1\" fill=\"none\" d=\"");
	for (x = 0; x < n; x++)
		strbuf_printf(b, "M%d %dV%d", lo + x * SVG_CELL, lo, hi);
	for (y = 0; y < n; y++)
		strbuf_printf(b, "M%d %dH%d", lo, lo + y * SVG_CELL, hi);
	strbuf_puts(b, "\"/>\n<g font-family=\"DejaVu Sans,Arial,sans-serif\" font-size=\"13\" fill=\"" BOARD_INK
	    "\" text-anchor=\"middle\">\n");
	for (x = 0; x < n; x++) {
		cx = lo + x * SVG_CELL;
		strbuf_printf(b, "<text class=\"c\" x=\"%d\" y=\"%d\">%c</text><text class=\"c\" x=\"%d\" y=\"%d\">%c</text>\n",
		    cx, SVG_MARGIN / 2 + 5, rules_column_letter(x), cx, w - SVG_MARGIN / 2 + 5, rules_column_letter(x));
	}
	for (y = 0; y < n; y++) {
		cy = lo + (n - 1 - y) * SVG_CELL + 5;
		strbuf_printf(b, "<text class=\"c\" x=\"%d\" y=\"%d\">%d</text><text class=\"c\" x=\"%d\" y=\"%d\">%d</text>\n",
		    SVG_MARGIN / 2, cy, y + 1, w - SVG_MARGIN / 2, cy, y + 1);
	}
	strbuf_puts(b, "</g>\n");
	for (y = n - 1; y >= 0; y--) {
		for (x = 0; x < n; x++) {
			name[0] = rules_column_letter(x);
			name[decimal(name + 1, y + 1) + 1] = '\0';
			stone_svg(b, hb->pt[y * n + x], name, lo + x * SVG_CELL, lo + (n - 1 - y) * SVG_CELL);
		}
	}
	strbuf_puts(b, "</svg>\n");
}

/*
 * A hex-hex board: pointy-top hexagons in rows offset by half a cell
 * (HEX_W apart in a row, HEX_H between rows), laid out as the ASCII
 * drawing (board.h): the row letters on both sides, the numbers of the
 * lines of cells above and below the board half a cell right of their
 * cells, and off the middle row the number of the line that ends there one
 * cell right of the row.
 */
#define HEX_W 32
#define HEX_H 28
#define HEX_LEFT 40		/* from the left edge to the middle row's first cell's left side */
#define HEX_TOP 52		/* from the top edge to the centre of the top row */
/* One hexagon around the current point: radius 18.67, so that rows 28 apart touch. */
#define HEX_PATH "m0-18.67l16 9.33v18.67l-16 9.33-16-9.33v-18.67z"

static void hex_svg(struct strbuf *b, const struct html_board *hb, const char *title, const char *desc_id)
{
	int s = hb->size, w = hb->width, width = HEX_LEFT + w * HEX_W + 44;
	int height = HEX_TOP + (w - 1) * HEX_H + HEX_TOP, y, k, off, len, cx, cy, first;
	char name[4];

	strbuf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	    "role=\"img\" aria-label=\"", width, height, width, height);
	html_escape(b, title);
	strbuf_printf(b, "\" aria-describedby=\"%s\" class=\"board hex\">\n<title>", desc_id);
	html_escape(b, title);
	strbuf_printf(b, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"" BOARD_BG "\"/>\n", width, height);
	/* every cell's hexagon, in one path */
	strbuf_puts(b, "<path class=\"cells\" fill=\"" HTML_HEX_HOLE "\" stroke=\"#7a5a22\" stroke-width=\"1\" d=\"");
	for (y = w - 1; y >= 0; y--) {
		off = y >= s - 1 ? y - (s - 1) : s - 1 - y;
		len = w - off;
		cy = HEX_TOP + (w - 1 - y) * HEX_H;
		for (k = 0; k < len; k++)
			strbuf_printf(b, "M%d %d" HEX_PATH, HEX_LEFT + (off + 2 * k + 1) * (HEX_W / 2), cy);
	}
	strbuf_puts(b, "\"/>\n<g font-family=\"DejaVu Sans,Arial,sans-serif\" font-size=\"13\" fill=\"" BOARD_INK
	    "\" text-anchor=\"middle\">\n");
	/* the numbers above and below: half a cell right of the edge rows' cells, one row out */
	for (k = 0; k < s; k++) {
		cx = HEX_LEFT + (s - 1 + 2 * k + 1) * (HEX_W / 2) + HEX_W / 2;
		strbuf_printf(b, "<text class=\"c\" x=\"%d\" y=\"%d\">%d</text><text class=\"c\" x=\"%d\" y=\"%d\">%d</text>\n",
		    cx, HEX_TOP - HEX_H + 5, k + 1, cx, HEX_TOP + w * HEX_H + 5, k + 1);
	}
	for (y = w - 1; y >= 0; y--) {
		off = y >= s - 1 ? y - (s - 1) : s - 1 - y;
		len = w - off;
		cy = HEX_TOP + (w - 1 - y) * HEX_H + 5;
		/* the letters: one cell left of the row, and right of the line numbers' column */
		strbuf_printf(b, "<text class=\"c\" x=\"%d\" y=\"%d\">%c</text><text class=\"c\" x=\"%d\" y=\"%d\">%c</text>\n",
		    HEX_LEFT + (off - 1) * (HEX_W / 2), cy, rules_row_letter(y), width - 14, cy, rules_row_letter(y));
		if (y != s - 1)
			strbuf_printf(b, "<text class=\"c\" x=\"%d\" y=\"%d\">%d</text>\n",
			    HEX_LEFT + (off + 2 * len + 1) * (HEX_W / 2), cy, len + 1);
	}
	strbuf_puts(b, "</g>\n");
	for (y = w - 1; y >= 0; y--) {
		off = y >= s - 1 ? y - (s - 1) : s - 1 - y;
		len = w - off;
		first = y >= s ? y - s + 1 : 0;
		cy = HEX_TOP + (w - 1 - y) * HEX_H;
		for (k = 0; k < len; k++) {
			cx = HEX_LEFT + (off + 2 * k + 1) * (HEX_W / 2);
			name[0] = rules_row_letter(y);
			name[decimal(name + 1, k + 1) + 1] = '\0';
			stone_svg(b, hb->pt[y * w + first + k], name, cx, cy);
		}
	}
	strbuf_puts(b, "</svg>\n");
}

void html_board_svg(struct strbuf *b, const struct html_board *hb, const char *title, const char *desc_id)
{
	if (hb->hex)
		hex_svg(b, hb, title, desc_id);
	else
		square_svg(b, hb, title, desc_id);
}
