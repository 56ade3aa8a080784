/*
 * t_board.h: positions for the unit tests of the rules, the AI and the
 * preview, written as ASCII rows (top row first, X black ('#' too, to
 * mark one), O white, '.' empty; spaces and '/' are ignored), as the Go
 * engines write theirs.
 */
#ifndef OUSTPBM_T_BOARD_H
#define OUSTPBM_T_BOARD_H

#include <stdio.h>
#include <stdlib.h>

#include "game/rules.h"

/* b: the position of rows on a size x size board; a miscounted position aborts the test. */
static __attribute__((unused)) void t_board_rows(struct rules_board *b, int size, const char *rows)
{
	int x = 0, y = size - 1;
	const char *s;

	rules_board_init(b, size);
	for (s = rows; *s != '\0'; s++) {
		if (*s == ' ' || *s == '/')
			continue;
		if (*s == 'X' || *s == '#')
			rules_board_setup(b, rules_point(b, x, y), RULES_BLACK);
		else if (*s == 'O')
			rules_board_setup(b, rules_point(b, x, y), RULES_WHITE);
		if (++x == size) {
			x = 0;
			y--;
		}
	}
	if (y != -1 || x != 0) {
		fprintf(stderr, "bad test position: %s\n", rows);
		abort();
	}
}

#endif
