/*
 * board: the ASCII board of pbmserv (seed 003 Figure 7).  See board.h.
 */
#include "game/board.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

bool board_is_star(int size, int x, int y)
{
	int mid = size / 2, e, onx, ony;

	if (x == mid && y == mid)
		return true;
	if (size < 7)
		return false;
	e = size >= 13 ? 3 : 2; /* 4th line on big boards, 3rd line on small ones */
	onx = x == e || x == size - 1 - e;
	ony = y == e || y == size - 1 - e;
	if (onx && ony)
		return true;
	/* Side midpoints on the 4th lines, 13 x 13 and up. */
	return size >= 13 && ((onx && y == mid) || (ony && x == mid));
}

static size_t column_line(const struct rules_board *b, char *s)
{
	size_t n = 0;
	int x;

	memcpy(s, "   ", 3), n += 3;
	for (x = 0; x < b->size; x++) {
		s[n++] = ' ';
		s[n++] = rules_column_letter(x);
	}
	s[n++] = '\n';
	return n;
}

static bool marked(int p, const int *last, int nlast)
{
	int i;

	for (i = 0; i < nlast; i++)
		if (last[i] == p)
			return true;
	return false;
}

/* "13" or " 9": a row number right-aligned in two columns. */
static void row_number(char *s, int y)
{
	s[0] = y >= 10 ? (char)('0' + y / 10) : ' ';
	s[1] = (char)('0' + y % 10);
}

/* The symbol of the point p: x, o (upper case if placed in the last turn), '.' or ','. */
static char symbol(const struct rules_board *b, int p, const int *last, int nlast)
{
	switch (rules_at(b, p)) {
	case RULES_BLACK:
		return nlast > 0 && marked(p, last, nlast) ? 'X' : 'x';
	case RULES_WHITE:
		return nlast > 0 && marked(p, last, nlast) ? 'O' : 'o';
	default:
		if (b->shape == RULES_HEX)
			return '.';
		return board_is_star(b->size, rules_x(b, p), rules_y(b, p)) ? ',' : '.';
	}
}

static size_t spaces(char *s, int n)
{
	memset(s, ' ', (size_t)n);
	return (size_t)n;
}

/* The numbers 1..S of the top and bottom rows, each half a cell right of its cell. */
static size_t hex_number_line(const struct rules_board *b, char *s)
{
	size_t n = spaces(s, b->size + 3);
	int k;

	for (k = 1; k <= b->size; k++)
		n += (size_t)sprintf(s + n, k > 1 ? " %d" : "%d", k);
	s[n++] = '\n';
	return n;
}

/* The hex-hex drawing (see board.h): the lines after the players line. */
static size_t render_hex(const struct rules_board *b, const int *last, int nlast, char *out)
{
	size_t len = 0;
	int y, k, off, first;
	char row;

	len += hex_number_line(b, out + len);
	for (y = b->width - 1; y >= 0; y--) {
		off = y > b->size - 1 ? y - (b->size - 1) : b->size - 1 - y;
		first = rules_row_first(b, y);
		row = rules_row_letter(y);
		len += spaces(out + len, off);
		out[len++] = row;
		out[len++] = ' ';
		for (k = 0; k < rules_row_len(b, y); k++) {
			out[len++] = ' ';
			out[len++] = symbol(b, rules_point(b, first + k, y), last, nlast);
		}
		/* Off the middle row, the number of the line of cells that ends here. */
		if (y != b->size - 1)
			len += (size_t)sprintf(out + len, " %d", rules_row_len(b, y) + 1);
		out[len++] = ' ';
		out[len++] = ' ';
		out[len++] = row;
		out[len++] = '\n';
	}
	len += hex_number_line(b, out + len);
	return len;
}

size_t board_render(const struct rules_board *b, const char *black_name,
    const char *white_name, const int *last, int nlast, char out[BOARD_TEXT_MAX])
{
	size_t len;
	int x, y, n;

	assert(black_name != NULL && white_name != NULL);
	assert(strlen(black_name) <= 64 && strlen(white_name) <= 64);
	n = snprintf(out, BOARD_TEXT_MAX, "x: %s %d/%d   o: %s %d/%d\n\n", black_name,
	    rules_largest_group(b, RULES_BLACK), b->stones[RULES_BLACK], white_name,
	    rules_largest_group(b, RULES_WHITE), b->stones[RULES_WHITE]);
	assert(n > 0 && n < 256);
	len = (size_t)n;
	if (b->shape == RULES_HEX) {
		/* At most 2 + 19 rows of 9 + 3 + 2 * 19 + 7 bytes: it fits. */
		len += render_hex(b, last, nlast, out + len);
		assert(len < BOARD_TEXT_MAX);
		out[len] = '\0';
		return len;
	}
	/* The rest is at most 2 + 27 rows of 4 + 2 * 25 + 5 bytes: it fits. */
	len += column_line(b, out + len);
	for (y = b->size - 1; y >= 0; y--) {
		row_number(out + len, y + 1);
		out[len + 2] = ' ';
		len += 3;
		for (x = 0; x < b->size; x++) {
			out[len++] = ' ';
			out[len++] = symbol(b, rules_point(b, x, y), last, nlast);
		}
		out[len++] = ' ';
		out[len++] = ' ';
		row_number(out + len, y + 1);
		out[len + 2] = '\n';
		len += 3;
	}
	len += column_line(b, out + len);
	assert(len < BOARD_TEXT_MAX);
	out[len] = '\0';
	return len;
}

size_t board_render_game(const struct game *g, char out[BOARD_TEXT_MAX])
{
	const int *last;
	int n = game_last_placements(g, &last);

	return board_render(&g->rg.board, g->black, g->white, last, n, out);
}

enum game_status board_render_turn(const struct game *g, int upto, char out[BOARD_TEXT_MAX])
{
	struct game_replay r;
	enum game_status st;
	const int *last;
	int n;

	out[0] = '\0';
	st = game_replay(g, upto, &r);
	if (st != GAME_OK)
		return st;
	n = game_turn_placements(g, upto, &last);
	board_render(&r.rg.board, r.black, r.white, last, n, out);
	return GAME_OK;
}
