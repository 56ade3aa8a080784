/* preview: a turn tried placement by placement on a copy of a position. */
#include "game/preview.h"

#include <stdlib.h>
#include <string.h>

/* qsort has no argument for the board: the options are sorted by a key made first. */
struct keyed {
	struct preview_option o;
	int key;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *u = a, *v = b;

	return u->key - v->key;
}

enum game_status preview_options(const struct rules_game *rg, struct preview_option **out, int *n)
{
	struct rules_board *b = malloc(2 * sizeof *b);	/* b[0] the position, b[1] scratch */
	uint16_t *legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	struct keyed *k = malloc(RULES_MAX_POINTS * sizeof *k);
	enum game_status st = GAME_NO_MEMORY;
	struct rules_check chk;
	int i, m;

	*out = NULL;
	*n = 0;
	if (b == NULL || legal == NULL || k == NULL)
		goto out;
	b[0] = rg->board;
	m = rg->result == RULES_PLAYING ? rules_legal(&b[0], rg->to_move, legal) : 0;
	for (i = 0; i < m; i++) {
		k[i].o.point = legal[i];
		k[i].o.captured = rules_check(&b[0], rg->to_move, legal[i], &chk) == RULES_CAPTURE ? chk.captured : 0;
		/* square: by column then row, as the mails list placements; hex: by row (a1 a2 ... b1 ...) */
		k[i].key = b[0].shape == RULES_HEX ? rules_y(&b[0], legal[i]) * RULES_MAX_STRIDE + rules_x(&b[0], legal[i]) :
		    rules_x(&b[0], legal[i]) * RULES_MAX_STRIDE + rules_y(&b[0], legal[i]);
	}
	qsort(k, (size_t)m, sizeof *k, by_key);
	*out = malloc((size_t)(m > 0 ? m : 1) * sizeof **out);
	if (*out == NULL)
		goto out;
	for (i = 0; i < m; i++)
		(*out)[i] = k[i].o;
	*n = m;
	st = GAME_OK;
out:
	free(b);
	free(legal);
	free(k);
	return st;
}

void preview_release(struct preview *p)
{
	free(p->steps);
	free(p->legal);
	p->steps = NULL;
	p->legal = NULL;
	p->nsteps = p->nlegal = 0;
}

enum game_status preview_turn(const struct rules_game *start, const int *points, int n, const char *black,
    const char *white, struct preview *out)
{
	struct rules_game *rg = malloc(sizeof *rg);
	struct rules_board *before = malloc(sizeof *before);
	struct preview_step *s;
	struct rules_event ev;
	enum game_status st = GAME_NO_MEMORY;
	bool over = false;
	int i, q;

	memset(out, 0, sizeof *out);
	out->steps = calloc((size_t)(n > 0 ? n : 1), sizeof *out->steps);
	if (rg == NULL || before == NULL || out->steps == NULL)
		goto out;
	*rg = *start;
	out->color = rg->to_move;
	out->outcome = PREVIEW_UNFINISHED;
	board_render(&rg->board, black, white, NULL, 0, out->drawing_start);
	for (i = 0; i < n; i++) {
		s = &out->steps[out->nsteps++];
		s->point = points[i];
		if (over) {
			out->outcome = PREVIEW_ILLEGAL;
			out->why = PREVIEW_AFTER_END;
			break;
		}
		if (points[i] == RULES_NO_POINT) {
			out->outcome = PREVIEW_ILLEGAL;
			out->why = PREVIEW_OFF_BOARD;
			break;
		}
		rules_check(&rg->board, rg->to_move, points[i], &s->check);
		*before = rg->board;
		if (!rules_is_legal(rules_game_play(rg, points[i], &ev))) {
			out->outcome = PREVIEW_ILLEGAL;
			out->why = PREVIEW_RULES;
			break;
		}
		out->last = ev;
		s->captured = ev.captured;
		out->captured += ev.captured;
		for (q = 0; q < before->ncells && ev.captured > 0; q++)
			if (rules_at(before, q) == RULES_OTHER(out->color) && rules_at(&rg->board, q) == RULES_EMPTY &&
			    s->ntaken < (int)(sizeof s->taken / sizeof s->taken[0]))
				s->taken[s->ntaken++] = q;
		if (ev.captured > 0 || ev.turn_over || i + 1 == n)
			board_render(&rg->board, black, white, points, out->nsteps, s->drawing);
		if (ev.turn_over) {
			over = true;
			out->outcome = PREVIEW_COMPLETE;
		}
	}
	if (n == 0)
		out->outcome = PREVIEW_UNFINISHED;
	out->legal_color = rg->to_move;
	if (preview_options(rg, &out->legal, &out->nlegal) != GAME_OK)
		goto out;
	st = GAME_OK;
out:
	if (st != GAME_OK)
		preview_release(out);
	free(rg);
	free(before);
	return st;
}
