/* turnqueue: conditional turns answered after a turn.  See turnqueue.h. */
#include "commands/lib/turnqueue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/job.h"

/* "E5,F6" of n points of g into buf. */
const char *turnqueue_points_text(const struct game *g, const int *p, int n, char *buf, size_t size)
{
	size_t used = 0;
	char name[4];
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used + 6 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 0 ? "," : "",
		    rules_point_name(&g->rg.board, p[i], name));
	return buf;
}

/* Their turn of line l, "E5,F6" or "swap", into buf. */
const char *turnqueue_their_text(const struct game *g, const struct game_queue_line *l, char *buf, size_t size)
{
	if (l->swap) {
		snprintf(buf, size, "swap");
		return buf;
	}
	return turnqueue_points_text(g, l->their, l->ntheir, buf, size);
}

enum process_status turnqueue_after_turn(struct job *j, struct game *g, int first, struct reply_event *then,
    char *note, size_t size, bool *played)
{
	char owner[GAME_NAME_SIZE], a[300], b[300], msg[400];
	const struct game_turn *t = &g->turns[first - 1];
	struct rules_turn_report rep;
	struct game_queue *q;
	enum game_status gs;
	int k;

	*played = false;
	note[0] = '\0';
	if (g->queue_owner[0] == '\0')
		return PROCESS_OK;
	snprintf(owner, sizeof owner, "%s", g->queue_owner);
	q = malloc(sizeof(*q));
	if (q == NULL)
		return job_no_memory(j);
	if (!game_queue_parse(g, g->queue, q, msg, sizeof msg))
		q->n = 0;
	game_queue_clear(g);	/* answered or dropped: a queue serves one turn */
	if (game_over(g)) {
		free(q);
		return PROCESS_OK;
	}
	for (k = 0; k < q->n && !game_queue_matches(g, &q->line[k], t); k++)
		;
	if (k == q->n) {
		snprintf(note, size, "Your queue of %d line%s on board %ld did not answer %s's turn %d, so it was dropped: "
		    "it is your turn, by mail.", q->n, q->n == 1 ? "" : "s", g->board, t->player, t->number);
		free(q);
		return PROCESS_OK;
	}
	if (strcmp(game_player_to_move(g), owner) != 0) {
		snprintf(note, size, "Your queued answer %s to %s (line %d) was dropped: after it you had no "
		    "placement and passed.", turnqueue_points_text(g, q->line[k].mine, q->line[k].nmine, a, sizeof a),
		    turnqueue_their_text(g, &q->line[k], b, sizeof b), k + 1);
		free(q);
		return PROCESS_OK;
	}
	memset(&rep, 0, sizeof rep);
	gs = game_move(g, owner, q->line[k].mine, q->line[k].nmine, (int64_t)j->srv.now, &rep);
	if (gs == GAME_NO_MEMORY) {
		free(q);
		return job_no_memory(j);
	}
	if (gs != GAME_OK) {
		snprintf(note, size, "Your queued answer %s to %s (line %d) has become illegal (%s) and was dropped: "
		    "it is your turn, by mail.", turnqueue_points_text(g, q->line[k].mine, q->line[k].nmine, a, sizeof a),
		    turnqueue_their_text(g, &q->line[k], b, sizeof b), k + 1, game_status_message(g, gs, owner,
		    q->line[k].mine, &rep, msg, sizeof msg));
		free(q);
		return PROCESS_OK;
	}
	memset(then, 0, sizeof *then);
	then->what = REPLY_MOVE;
	then->actor = g->turns[g->nturns - 1 - rep.npasses].player;
	then->first = g->nturns - rep.npasses;
	then->captured = rep.captured;
	then->dead_end = rep.dead_end;
	then->queued = true;
	then->comment = "";
	if (q->n > 1)
		snprintf(note, size, "Your queue's line %d answered; the other %d line%s dropped.", k + 1, q->n - 1,
		    q->n == 2 ? " was" : "s were");
	*played = true;
	free(q);
	return PROCESS_OK;
}
