/* sgf: the nodes after the root as the history makes them, and the errors (sgf_int.h). */
#include "game/sgf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/sgf_int.h"

void sgf_steps_release(struct steps *s)
{
	free(s->v);
	free(s->removed);
	memset(s, 0, sizeof(*s));
}

static bool steps_add(struct steps *s, const struct step *st, const int *removed, int nremoved)
{
	void *p;
	size_t na;
	int nv;

	if (s->n == s->alloc) {
		nv = s->alloc ? 2 * s->alloc : 64;
		p = realloc(s->v, (size_t)nv * sizeof(*s->v));
		if (p == NULL)
			return false;
		s->v = p;
		s->alloc = nv;
	}
	if (s->nremoved + (size_t)nremoved > s->aremoved) {
		na = s->aremoved ? 2 * s->aremoved : 256;
		while (na < s->nremoved + (size_t)nremoved)
			na *= 2;
		p = realloc(s->removed, na * sizeof(*s->removed));
		if (p == NULL)
			return false;
		s->removed = p;
		s->aremoved = na;
	}
	s->v[s->n] = *st;
	s->v[s->n].removed = s->nremoved;
	s->v[s->n].nremoved = nremoved;
	if (nremoved > 0)
		memcpy(s->removed + s->nremoved, removed, (size_t)nremoved * sizeof(*removed));
	s->nremoved += (size_t)nremoved;
	s->n++;
	return true;
}

enum game_status sgf_fail(struct sgf_error *err, int line, int column, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (err == NULL)
		return GAME_BAD_SGF;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err->line = line;
	err->column = column;
	if (line > 0)
		snprintf(err->msg, sizeof(err->msg), "line %d, column %d: %s", line, column, msg);
	else
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	return GAME_BAD_SGF;
}

/*
 * Replay g's history placement by placement (the history is legal:
 * game_replay() said so) into one step per node.
 */
enum game_status sgf_steps_make(const struct game *g, struct steps *s)
{
	static const struct step zero;
	struct rules_game *rg;
	struct rules_event ev;
	struct step st;
	uint8_t before[RULES_MAX_CELLS];
	int removed[RULES_MAX_POINTS], nremoved, i, j, p;
	const int *points;
	enum game_status ret = GAME_NO_MEMORY;

	rg = malloc(sizeof(*rg));
	if (rg == NULL)
		return GAME_NO_MEMORY;
	rules_game_init_shape(rg, g->shape, g->size, g->swap);
	for (i = 0; i < g->nturns; i++) {
		const struct game_turn *t = &g->turns[i];

		st = zero;
		st.turn = i;
		st.first = true;
		st.color = t->color;
		switch (t->action) {
		case GAME_PLACE:
			points = game_turn_points(g, t);
			for (j = 0; j < t->npoints; j++) {
				memcpy(before, rg->board.color, sizeof(before));
				rules_game_play(rg, points[j], &ev);
				nremoved = 0;
				for (p = 0; p < rg->board.ncells; p++)
					if (before[p] != rg->board.color[p] && p != points[j])
						removed[nremoved++] = p;
				st.point = points[j];
				st.first = j == 0;
				st.more = j < t->npoints - 1;
				st.over = rg->result != RULES_PLAYING;
				if (!steps_add(s, &st, removed, nremoved))
					goto out;
			}
			continue;
		case GAME_SWAP:
			rules_game_swap(rg);
			break;
		case GAME_RESIGN:
		case GAME_TIMEOUT:
			rules_game_resign(rg, t->color);
			break;
		case GAME_PASS:
			/* the rules passed for the side without a placement */
			break;
		}
		st.point = RULES_NO_POINT;
		st.over = rg->result != RULES_PLAYING;
		if (!steps_add(s, &st, NULL, 0))
			goto out;
	}
	ret = GAME_OK;
out:
	free(rg);
	return ret;
}
