/*
 * rules: the square and hex boards' sizes and the notation of their points
 * (rules.h; doc/rules.md, the notation).
 */
#include "game/rules.h"

#include <assert.h>
#include <stdio.h>

bool rules_size_ok(int size)
{
	return size >= RULES_MIN_SIZE && size <= RULES_MAX_SIZE && size % 2 == 1;
}

bool rules_shape_ok(enum rules_shape shape, int size)
{
	if (shape == RULES_HEX)
		return size >= RULES_HEX_MIN_SIDE && size <= RULES_HEX_MAX_SIDE;
	return shape == RULES_SQUARE && rules_size_ok(size);
}

/* ---- notation ---- */

char rules_column_letter(int x)
{
	assert(x >= 0 && x < RULES_MAX_SIZE);
	return (char)('A' + x + (x >= 8)); /* Go boards skip I */
}

char rules_row_letter(int y)
{
	assert(y >= 0 && y < 2 * RULES_HEX_MAX_SIDE - 1);
	return (char)('a' + y);
}

/* A hex cell "g13": row letter from a at the bottom, number from 1 at the row's left end. */
static int parse_hex_point(const struct rules_board *b, const char *s, int len)
{
	int y, k = 0, i;
	char l = s[0];

	if (l >= 'A' && l <= 'Z')
		l = (char)(l - 'A' + 'a');
	if (l < 'a' || l > 'z' || s[1] == '0')
		return RULES_NO_POINT;
	y = l - 'a';
	for (i = 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return RULES_NO_POINT;
		k = k * 10 + (s[i] - '0');
	}
	if (y >= b->width || k < 1 || k > rules_row_len(b, y))
		return RULES_NO_POINT;
	return rules_point(b, rules_row_first(b, y) + k - 1, y);
}

int rules_parse_point(const struct rules_board *b, const char *s, int len)
{
	int x, y = 0, i;
	char l;

	if (len < 2 || len > 3)
		return RULES_NO_POINT;
	if (b->shape == RULES_HEX)
		return parse_hex_point(b, s, len);
	l = s[0];
	if (l >= 'a' && l <= 'z')
		l = (char)(l - 'a' + 'A');
	if (l < 'A' || l > 'Z' || l == 'I')
		return RULES_NO_POINT;
	x = l - 'A' - (l > 'I');
	if (s[1] == '0')
		return RULES_NO_POINT;
	for (i = 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return RULES_NO_POINT;
		y = y * 10 + (s[i] - '0');
	}
	if (x >= b->size || y < 1 || y > b->size)
		return RULES_NO_POINT;
	return rules_point(b, x, y - 1);
}

char *rules_offboard_why(const struct rules_board *b, const char *s, int len, char *buf, size_t size)
{
	char l = len > 0 ? s[0] : '?';
	int n, y;

	if (len > 8)
		len = 8; /* a vertex is at most 3 characters: the rest is noise */
	if (b->shape != RULES_HEX) {
		if (l >= 'a' && l <= 'z')
			l = (char)(l - 'a' + 'A');
		n = snprintf(buf, size, "%c%.*s is not on the %dx%d board", l, len > 0 ? len - 1 : 0, s + 1,
		    b->size, b->size);
		if (l == 'I' && n >= 0 && (size_t)n < size)
			snprintf(buf + n, size - (size_t)n, ": the columns skip I");
		return buf;
	}
	if (l >= 'A' && l <= 'Z')
		l = (char)(l - 'A' + 'a');
	n = snprintf(buf, size, "%c%.*s is not on the hex board of side %d: ", l, len > 0 ? len - 1 : 0, s + 1,
	    b->size);
	if (n < 0 || (size_t)n >= size)
		return buf;
	y = l - 'a';
	if (y >= 0 && y < b->width)
		snprintf(buf + n, size - (size_t)n, "row %c has cells %c1 to %c%d", l, l, l, rules_row_len(b, y));
	else
		snprintf(buf + n, size - (size_t)n, "its rows run from a to %c", rules_row_letter(b->width - 1));
	return buf;
}

char *rules_point_name(const struct rules_board *b, int p, char buf[4])
{
	int x = rules_x(b, p), y = rules_y(b, p) + 1;

	assert(p > 0 && p < b->ncells && rules_at(b, p) != RULES_OFFBOARD);
	if (b->shape == RULES_HEX) {
		/* Row letter, then the number in the row (stored in y for the digits below). */
		buf[0] = rules_row_letter(y - 1);
		y = x - rules_row_first(b, y - 1) + 1;
	} else {
		buf[0] = rules_column_letter(x);
	}
	if (y >= 10) {
		buf[1] = (char)('0' + y / 10);
		buf[2] = (char)('0' + y % 10);
		buf[3] = '\0';
	} else {
		buf[1] = (char)('0' + y);
		buf[2] = '\0';
	}
	return buf;
}
