/* outcome: how a game ended, in words.  See outcome.h. */
#include "commands/lib/outcome.h"

#include <stdio.h>

void outcome_words(const struct game *g, char *buf, size_t size)
{
	if (g->rg.result == RULES_DRAW)
		snprintf(buf, size, "drawn");
	else
		snprintf(buf, size, "won by %s", g->rg.result == RULES_BLACK_WINS ? g->black : g->white);
}
