/* html: boards as HTML tables and SVG, and escaping.  See html.h. */
#include "game/html.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "game/board.h"

void html_board_from(struct html_board *hb, const struct rules_board *now, const struct rules_board *before,
    const int *last, int nlast)
{
	int x, y, p, i;
	enum rules_color c, was;
	unsigned char v;

	memset(hb, 0, sizeof *hb);
	hb->hex = now->shape == RULES_HEX;
	hb->size = now->size;
	for (y = 0; y < now->size && !hb->hex; y++) {
		for (x = 0; x < now->size; x++) {
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
				else
					v = board_is_star(now->size, x, y) ? HTML_STAR : HTML_EMPTY;
			}
			hb->pt[y * now->size + x] = v;
		}
	}
	hb->stones[0] = now->stones[RULES_BLACK];
	hb->stones[1] = now->stones[RULES_WHITE];
	hb->largest[0] = rules_largest_group(now, RULES_BLACK);
	hb->largest[1] = rules_largest_group(now, RULES_WHITE);
}

enum game_status html_board_of_game(const struct game *g, int upto, struct html_board *hb, char *black,
    char *white)
{
	struct game_replay *after = NULL, *before = NULL;
	const struct rules_board *now;
	enum game_status st = GAME_NO_MEMORY;
	const int *last = NULL;
	int nlast;

	if (upto < 0 || upto > g->nturns)
		return GAME_BAD_TURN_NUMBER;
	nlast = game_turn_placements(g, upto, &last);
	if (nlast > 0) {
		before = malloc(sizeof *before);
		if (before == NULL)
			goto out;
		st = game_replay(g, upto - 1, before);
		if (st != GAME_OK && upto == g->nturns) {
			/* a history that does not replay (an edited file): the position all the same */
			free(before);
			before = NULL;
		} else if (st != GAME_OK) {
			goto out;
		}
	}
	if (upto == g->nturns) {
		now = &g->rg.board;
		if (black != NULL)
			memcpy(black, g->black, GAME_NAME_SIZE);
		if (white != NULL)
			memcpy(white, g->white, GAME_NAME_SIZE);
	} else {
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
	html_board_from(hb, now, before != NULL ? &before->rg.board : NULL, last, nlast);
	st = GAME_OK;
out:
	free(before);
	free(after);
	return st;
}

/* The explicit directional formatting characters (Unicode 15, UAX #9 2.1 to 2.4). */
static bool bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
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
			if (!utf8_is_control(cp) && !bidi_control(cp))
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

/* The letters; the first row sets the columns' widths, the rows' height comes from the line height. */
static void coord_row(struct strbuf *b, int size, bool first)
{
	int x;

	strbuf_puts(b, first ? "<tr><td style=\"width:26px\"></td>" : "<tr><td></td>");
	for (x = 0; x < size; x++)
		strbuf_printf(b, first ? "<td style=\"width:22px\">%c</td>" : "<td>%c</td>", rules_column_letter(x));
	strbuf_puts(b, first ? "<td style=\"width:26px\"></td></tr>\n" : "<td></td></tr>\n");
}

void html_board_table(struct strbuf *b, const struct html_board *hb)
{
	/* Each point's cell, kept short: a 25 x 25 board has 625 of them. */
	static const char *const cell[] = {
		/*
		 * Unquoted attribute values and the end tag </td> left out (both
		 * HTML5, and HTML 4 before it, allow that) save 7 bytes a point.
		 */
		[HTML_EMPTY] = "<td>&middot;",
		[HTML_STAR] = "<td>&bull;",
		[HTML_BLACK] = "<td style=background:#111;border-radius:50%>",
		[HTML_WHITE] = "<td style=background:#eee;border-radius:50%>",
		[HTML_BLACK_LAST] = "<td style=background:#111;border-radius:50%;color:#f43>&bull;",
		[HTML_WHITE_LAST] = "<td style=background:#eee;border-radius:50%;color:#d21>&bull;",
		[HTML_GONE_BLACK] = "<td style=background:#c29a4c;border-radius:50%>",
		[HTML_GONE_WHITE] = "<td style=background:#ead08f;border-radius:50%>",
	};
	int x, y;

	strbuf_puts(b, "<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" style=\"border-collapse:"
	    "separate;border-spacing:0;background:" BOARD_BG ";color:" BOARD_INK ";font:bold 13px/22px Arial,"
	    "Helvetica,sans-serif;text-align:center;margin:8px 0\">\n");
	coord_row(b, hb->size, true);
	for (y = hb->size - 1; y >= 0; y--) {
		strbuf_printf(b, "<tr><td>%d</td>", y + 1);
		for (x = 0; x < hb->size; x++)
			strbuf_puts(b, cell[hb->pt[y * hb->size + x]]);
		strbuf_printf(b, "<td>%d</td></tr>\n", y + 1);
	}
	coord_row(b, hb->size, false);
	strbuf_puts(b, "</table>\n");
}

/* ---- the web's SVG ---- */

#define SVG_CELL 32
#define SVG_MARGIN 32

void html_board_svg(struct strbuf *b, const struct html_board *hb, const char *title, const char *desc_id)
{
	int n = hb->size, w = 2 * SVG_MARGIN + n * SVG_CELL, x, y, cx, cy, lo, hi;
	char name[4];
	unsigned char v;

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
			v = hb->pt[y * n + x];
			cx = lo + x * SVG_CELL;
			cy = lo + (n - 1 - y) * SVG_CELL;
			name[0] = rules_column_letter(x);
			if (y + 1 >= 10) {
				name[1] = (char)('0' + (y + 1) / 10);
				name[2] = (char)('0' + (y + 1) % 10);
				name[3] = '\0';
			} else {
				name[1] = (char)('0' + y + 1);
				name[2] = '\0';
			}
			switch (v) {
			case HTML_STAR:
				strbuf_printf(b, "<circle class=\"s\" cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"#7a5a22\"/>\n", cx, cy);
				break;
			case HTML_BLACK:
			case HTML_BLACK_LAST:
				strbuf_printf(b, "<circle class=\"b\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"14\" "
				    "fill=\"#111\"/>\n", name, cx, cy);
				if (v == HTML_BLACK_LAST)
					strbuf_printf(b, "<circle class=\"m\" cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#ff4d3a\"/>\n",
					    cx, cy);
				break;
			case HTML_WHITE:
			case HTML_WHITE_LAST:
				strbuf_printf(b, "<circle class=\"w\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"13.5\" "
				    "fill=\"#f6f6f6\" stroke=\"#333\" stroke-width=\"1\"/>\n", name, cx, cy);
				if (v == HTML_WHITE_LAST)
					strbuf_printf(b, "<circle class=\"m\" cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"#d8261a\"/>\n",
					    cx, cy);
				break;
			case HTML_GONE_BLACK:
			case HTML_GONE_WHITE:
				strbuf_printf(b, "<circle class=\"%s\" data-point=\"%s\" cx=\"%d\" cy=\"%d\" r=\"14\" "
				    "fill=\"%s\" fill-opacity=\"0.3\"/>\n", v == HTML_GONE_BLACK ? "gb" : "gw", name, cx, cy,
				    v == HTML_GONE_BLACK ? "#111" : "#fff");
				break;
			default:
				break;
			}
		}
	}
	strbuf_puts(b, "</svg>\n");
}
