/*
 * hexdraw: can a game of Oust on a hex-hex board end with neither side able
 * to place (a draw)?  Walks every position that play can reach on the board
 * of side 3 (19 cells: 3^19 positions, two sides to move, one bit each) from
 * the empty board, with the rules as rules.c applies them, and counts the
 * draws.  `make hex-draw` builds and runs it (about a minute of CPU and
 * 300 MB); it is not part of `make check`.  Exits 1 if a draw is reachable
 * and prints the first positions found.
 *
 * A position with the side to move is enough state: after a capture the
 * same side places again, and with no placement left its turn ends (dead
 * end) or is passed (start of turn); either way the other side moves next
 * from the same position, and the game is a draw exactly when neither side
 * has a placement.  The pie rule only exchanges names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "game/rules.h"

#define SIDE 3
#define NCELLS 19
#define FULL ((1u << NCELLS) - 1)

static uint32_t nbr[NCELLS];	/* neighbour masks */
static uint64_t pow3[NCELLS + 1];
static int cell[NCELLS];	/* rules cell of each bit */

static uint32_t expand(uint32_t g)
{
	uint32_t r = 0;

	for (; g != 0; g &= g - 1)
		r |= nbr[__builtin_ctz(g)];
	return r;
}

/* The group of `start` among the stones col. */
static uint32_t flood(uint32_t col, int start)
{
	uint32_t g = 1u << start, ng;

	for (;;) {
		ng = g | (expand(g) & col);
		if (ng == g)
			return g;
		g = ng;
	}
}

/* Placing at c: 0 illegal, 1 non-capturing, 2 capturing (*cap: the stones it removes). */
static int try_place(uint32_t my, uint32_t op, int c, uint32_t *cap)
{
	uint32_t g, adj, eg;
	int size;

	*cap = 0;
	if ((nbr[c] & my) == 0)
		return 1;
	g = flood(my | 1u << c, c);
	adj = expand(g) & op;
	if (adj == 0)
		return 0;
	size = __builtin_popcount(g);
	while (adj != 0) {
		eg = flood(op, __builtin_ctz(adj));
		if (__builtin_popcount(eg) >= size)
			return 0;
		*cap |= eg;
		adj &= ~eg;
	}
	return 2;
}

static uint64_t index_of(uint32_t black, uint32_t white, int side)
{
	uint64_t k = 0;
	int i;

	for (i = 0; i < NCELLS; i++)
		k += pow3[i] * (uint64_t)((black >> i & 1) ? 1 : (white >> i & 1) ? 2 : 0);
	return k * 2 + (uint64_t)side;
}

static void print_position(const struct rules_board *b, uint32_t black, uint32_t white, int side)
{
	int x, y, i, p;

	printf("a draw, %s to move:\n", side ? "white" : "black");
	for (y = b->width - 1; y >= 0; y--) {
		printf("%*s%c ", abs(y - (SIDE - 1)), "", rules_row_letter(y));
		for (x = rules_row_first(b, y); x < rules_row_first(b, y) + rules_row_len(b, y); x++) {
			p = rules_point(b, x, y);
			for (i = 0; i < NCELLS && cell[i] != p; i++)
				;
			printf(" %c", (black >> i & 1) ? 'x' : (white >> i & 1) ? 'o' : '.');
		}
		printf("\n");
	}
}

int main(void)
{
	static struct rules_board b;
	uint8_t *seen;
	uint64_t *stack, e, k, states = 0, draws = 0, wins = 0, passes = 0, full = 0;
	size_t cap = (size_t)1 << 20, sp = 0;
	uint32_t black, white, my, op, empty, cp, nmy, nop;
	int i, j, d, v, side, any;

	rules_board_init_shape(&b, RULES_HEX, SIDE);
	for (i = 0; i < NCELLS; i++)
		cell[i] = b.empty[i];
	for (i = 0; i < NCELLS; i++)
		for (d = 0; d < b.nnbr; d++)
			for (j = 0; j < NCELLS; j++)
				if (cell[j] == cell[i] + b.nbr[d])
					nbr[i] |= 1u << j;
	pow3[0] = 1;
	for (i = 1; i <= NCELLS; i++)
		pow3[i] = pow3[i - 1] * 3;
	seen = calloc((size_t)(pow3[NCELLS] * 2 / 8 + 1), 1);
	stack = malloc(cap * sizeof(*stack));
	if (seen == NULL || stack == NULL) {
		fprintf(stderr, "hexdraw: out of memory\n");
		return 2;
	}
#define PUSH(bl, wh, s) do { \
	k = index_of(bl, wh, s); \
	if (!(seen[k >> 3] >> (k & 7) & 1)) { \
		seen[k >> 3] |= (uint8_t)(1u << (k & 7)); \
		if (sp == cap) { \
			cap *= 2; \
			stack = realloc(stack, cap * sizeof(*stack)); \
			if (stack == NULL) { \
				fprintf(stderr, "hexdraw: out of memory\n"); \
				return 2; \
			} \
		} \
		stack[sp++] = (uint64_t)(bl) | (uint64_t)(wh) << 20 | (uint64_t)(s) << 40; \
	} \
} while (0)
	PUSH(0u, 0u, 0);
	while (sp > 0) {
		e = stack[--sp];
		black = (uint32_t)(e & 0xfffff);
		white = (uint32_t)(e >> 20 & 0xfffff);
		side = (int)(e >> 40 & 1);
		my = side ? white : black;
		op = side ? black : white;
		empty = ~(black | white) & FULL;
		states++;
		full += empty == 0;
		any = 0;
		for (i = 0; i < NCELLS; i++) {
			if (!(empty >> i & 1) || (v = try_place(my, op, i, &cp)) == 0)
				continue;
			any = 1;
			nmy = my | 1u << i;
			nop = op & ~cp;
			if (v == 2 && nop == 0) {
				wins++; /* the last enemy stones removed */
				continue;
			}
			if (side)
				PUSH(nop, nmy, v == 1 ? 0 : 1);
			else
				PUSH(nmy, nop, v == 1 ? 1 : 0);
		}
		if (any)
			continue;
		for (i = 0; i < NCELLS && !any; i++)
			any = (empty >> i & 1) && try_place(op, my, i, &cp) != 0;
		if (any) {
			passes++;
			PUSH(black, white, !side);
		} else if (draws++ < 5) {
			print_position(&b, black, white, side);
		}
	}
	printf("hex side %d: %llu positions reachable (with the side to move), %llu of them full, "
	    "%llu winning placements, %llu passes, %llu draws\n", SIDE, (unsigned long long)states,
	    (unsigned long long)full, (unsigned long long)wins, (unsigned long long)passes,
	    (unsigned long long)draws);
	free(seen);
	free(stack);
	return draws != 0;
}
