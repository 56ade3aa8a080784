/* hooks: the runs of a table of hooks (hooks.h); the table is process.c's. */
#include "commands/pipeline/hooks.h"

void hooks_turn(const struct hooks *h, struct server *srv, struct game *g)
{
	size_t i;

	for (i = 0; h != NULL && i < h->n; i++)
		if (h->rows[i].turn != NULL)
			h->rows[i].turn(srv, g);
}

const struct hook *hooks_answerer(const struct hooks *h, const struct config *cfg, const struct game *g)
{
	size_t i;

	for (i = 0; h != NULL && i < h->n; i++)
		if (h->rows[i].answers != NULL && h->rows[i].answers(cfg, g))
			return &h->rows[i];
	return NULL;
}

void hooks_flushed(const struct hooks *h, struct server *srv, long board)
{
	size_t i;

	for (i = 0; h != NULL && i < h->n; i++)
		if (h->rows[i].flushed != NULL)
			h->rows[i].flushed(srv, board);
}
