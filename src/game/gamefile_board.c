/* gamefile: the board drawing, read back into a position (board.h draws it). */
#include "game/gamefile.h"

#include <string.h>
#include <strings.h>

#include "game/gamefile_int.h"

/* ---- the board drawing ---- */

/* The current line must be the column letters "    A B C ..." of a size-n board. */
static enum game_status parse_columns(const struct reader *r, int size,
    struct gamefile_error *err)
{
	const char *tok;
	char q[QUOTE_SIZE];
	size_t i = 0, tn;
	int x = 0;
	bool good = true;

	while (good && gamefile_token(r->s, r->n, &i, &tok, &tn))
		good = x < size && tn == 1 && (tok[0] & ~0x20) == rules_column_letter(x++);
	if (!good || x != size)
		return gamefile_fail(err, r->line, "column letters '%s' do not match size %d",
		    gamefile_quote(q, r->s, r->n), size);
	return GAME_OK;
}

static enum game_status parse_players(struct reader *r, const struct game *g,
    struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0, j;
	int n = 0, s;
	char q[QUOTE_SIZE], q2[QUOTE_SIZE];
	bool good;

	s = gamefile_next_nonblank(r, err);
	if (s < 0)
		return GAME_BAD_FILE;
	if (s == 0)
		return gamefile_fail(err, r->line, "unexpected end of file, expected the board");
	while (n < 7 && gamefile_token(r->s, r->n, &i, &t[n], &tn[n]))
		n++;
	good = n == 6 && gamefile_eq(t[0], tn[0], "x:") && gamefile_eq(t[3], tn[3], "o:");
	for (j = 2; good && j < 6; j += 3) {
		const char *slash = memchr(t[j], '/', tn[j]);

		good = slash != NULL && gamefile_number(t[j], (size_t)(slash - t[j]), 99999) >= 0 &&
		    gamefile_number(slash + 1, tn[j] - (size_t)(slash - t[j]) - 1, 99999) >= 0;
	}
	if (!good)
		return gamefile_fail(err, r->line, "expected the players line 'x: NAME LARGEST/TOTAL   "
		    "o: NAME LARGEST/TOTAL', found '%s'", gamefile_quote(q, r->s, r->n));
	if (tn[1] != strlen(g->black) || strncasecmp(t[1], g->black, tn[1]) != 0 ||
	    tn[4] != strlen(g->white) || strncasecmp(t[4], g->white, tn[4]) != 0)
		return gamefile_fail(err, r->line, "the players line names '%s' and '%s', the header "
		    "black %s and white %s", gamefile_quote(q, t[1], tn[1]), gamefile_quote(q2, t[4], tn[4]),
		    g->black, g->white);
	return GAME_OK;
}

/* The symbol of one point of the drawing: a colour, or RULES_OFFBOARD if it is none. */
static enum rules_color point_symbol(const char *tok, size_t tn)
{
	if (tn != 1)
		return RULES_OFFBOARD;
	switch (tok[0]) {
	case 'x': case 'X':
		return RULES_BLACK;
	case 'o': case 'O':
		return RULES_WHITE;
	case '.': case ',':
		return RULES_EMPTY;
	}
	return RULES_OFFBOARD;
}

/* The current line must be the cell numbers "1 2 3 ... S" above or below a hex board. */
static enum game_status parse_hex_numbers(const struct reader *r, int side,
    struct gamefile_error *err)
{
	const char *tok;
	char q[QUOTE_SIZE];
	size_t i = 0, tn;
	int k = 0;
	bool good = true;

	while (good && gamefile_token(r->s, r->n, &i, &tok, &tn))
		good = k < side && gamefile_number(tok, tn, 99) == ++k;
	if (!good || k != side)
		return gamefile_fail(err, r->line, "cell numbers '%s' do not match a hex board of side %d",
		    gamefile_quote(q, r->s, r->n), side);
	return GAME_OK;
}

/*
 * One row "f  . x . . O 6  f" of a hex drawing, y from 0 at the bottom:
 * its letter, its cells, the number of the edge's line of cells (every row
 * but the middle one) and its letter again; stones onto b.
 */
static enum game_status parse_hex_row(struct reader *r, int y, struct rules_board *b,
    struct gamefile_error *err)
{
	const char *tok[2 * RULES_HEX_MAX_SIDE + 3];
	size_t tn[2 * RULES_HEX_MAX_SIDE + 3], i = 0;
	const int len = rules_row_len(b, y), edge = y != b->size - 1;
	const char row = rules_row_letter(y);
	char q[QUOTE_SIZE];
	enum rules_color c;
	int ntok = 0, k;

	while (ntok < 2 * RULES_HEX_MAX_SIDE + 3 && gamefile_token(r->s, r->n, &i, &tok[ntok], &tn[ntok]))
		ntok++;
	if (ntok == 0 || tn[0] != 1 || (tok[0][0] | 0x20) != row)
		return gamefile_fail(err, r->line, "expected row %c, found '%s'", row, gamefile_quote(q, r->s, r->n));
	if (ntok != len + 2 + edge) {
		ntok -= 2 + edge;
		return gamefile_fail(err, r->line, "row %c has %d cells, expected %d", row, ntok < 0 ? 0 : ntok, len);
	}
	if (tn[ntok - 1] != 1 || (tok[ntok - 1][0] | 0x20) != row)
		return gamefile_fail(err, r->line, "row %c ends with '%s', expected %c", row,
		    gamefile_quote(q, tok[ntok - 1], tn[ntok - 1]), row);
	if (edge && gamefile_number(tok[len + 1], tn[len + 1], 99) != len + 1)
		return gamefile_fail(err, r->line, "row %c: '%s' after the last cell, expected the number %d", row,
		    gamefile_quote(q, tok[len + 1], tn[len + 1]), len + 1);
	for (k = 0; k < len; k++) {
		c = point_symbol(tok[k + 1], tn[k + 1]);
		if (c == RULES_OFFBOARD)
			return gamefile_fail(err, r->line, "row %c: unknown cell '%s' at %c%d (use x, o or .)", row,
			    gamefile_quote(q, tok[k + 1], tn[k + 1]), row, k + 1);
		if (c != RULES_EMPTY)
			rules_board_setup(b, rules_point(b, rules_row_first(b, y) + k, y), c);
	}
	return GAME_OK;
}

/* One row "13  o . . X ,  13" of the drawing, y from 0 at the bottom, stones onto b. */
static enum game_status parse_row(struct reader *r, int y, struct rules_board *b,
    struct gamefile_error *err)
{
	const char *tok, *first = NULL, *last = NULL;
	size_t i = 0, tn, firstn = 0, lastn = 0;
	char q[QUOTE_SIZE];
	enum rules_color c;
	int ntok = 0, x;

	while (gamefile_token(r->s, r->n, &i, &tok, &tn)) {
		if (ntok++ == 0)
			first = tok, firstn = tn;
		last = tok, lastn = tn;
	}
	if (ntok == 0 || gamefile_number(first, firstn, 99) != y + 1)
		return gamefile_fail(err, r->line, "expected row %d, found '%s'", y + 1,
		    gamefile_quote(q, r->s, r->n));
	if (ntok - 2 != b->size)
		return gamefile_fail(err, r->line, "row %d has %d points, expected %d", y + 1,
		    ntok < 2 ? 0 : ntok - 2, b->size);
	if (gamefile_number(last, lastn, 99) != y + 1)
		return gamefile_fail(err, r->line, "row %d ends with '%s', expected %d", y + 1,
		    gamefile_quote(q, last, lastn), y + 1);
	i = 0;
	gamefile_token(r->s, r->n, &i, &tok, &tn); /* the row number */
	for (x = 0; x < b->size; x++) {
		gamefile_token(r->s, r->n, &i, &tok, &tn);
		c = point_symbol(tok, tn);
		if (c == RULES_OFFBOARD)
			return gamefile_fail(err, r->line, "row %d: unknown point '%s' in column %c (use x, "
			    "o, . or ,)", y + 1, gamefile_quote(q, tok, tn), rules_column_letter(x));
		if (c != RULES_EMPTY)
			rules_board_setup(b, rules_point(b, x, y), c);
	}
	return GAME_OK;
}

enum game_status gamefile_board_parse(struct reader *r, const struct game *g,
    struct rules_board *b, struct gamefile_error *err)
{
	enum game_status st;
	const bool hex = g->shape == RULES_HEX;
	const char *edge = hex ? "the cell numbers" : "the column letters";
	int y, k;

	rules_board_init_shape(b, g->shape, g->size);
	st = parse_players(r, g, err);
	if (st != GAME_OK)
		return st;
	k = gamefile_next_nonblank(r, err);
	if (k < 0)
		return GAME_BAD_FILE;
	if (k == 0)
		return gamefile_fail(err, r->line, "unexpected end of file, expected %s", edge);
	st = hex ? parse_hex_numbers(r, g->size, err) : parse_columns(r, g->size, err);
	for (y = b->width - 1; st == GAME_OK && y >= 0; y--) {
		k = gamefile_next_line(r, err);
		if (k < 0)
			return GAME_BAD_FILE;
		if (k == 0 && hex)
			return gamefile_fail(err, r->line, "unexpected end of file, expected row %c",
			    rules_row_letter(y));
		if (k == 0)
			return gamefile_fail(err, r->line, "unexpected end of file, expected row %d", y + 1);
		st = hex ? parse_hex_row(r, y, b, err) : parse_row(r, y, b, err);
	}
	if (st != GAME_OK)
		return st;
	k = gamefile_next_line(r, err);
	if (k < 0)
		return GAME_BAD_FILE;
	if (k == 0)
		return gamefile_fail(err, r->line, "unexpected end of file, expected %s", edge);
	return hex ? parse_hex_numbers(r, g->size, err) : parse_columns(r, g->size, err);
}
