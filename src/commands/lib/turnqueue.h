/*
 * turnqueue: the conditional turns of a board (game.h's queue) answered after a
 * turn, in the same commit (move), and their text (queue).
 */
#ifndef OUSTPBM_TURNQUEUE_H
#define OUSTPBM_TURNQUEUE_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/pipeline/job.h"
#include "game/game.h"
#include "mail/reply.h"

/* "E5,F6" of n points of g into buf (size bytes); buf. */
const char *turnqueue_points_text(const struct game *g, const int *p, int n, char *buf, size_t size);

/* The turn of line l ("E5,F6", "swap") into buf (size bytes); buf. */
const char *turnqueue_their_text(const struct game *g, const struct game_queue_line *l, char *buf, size_t size);

/*
 * After the turn of history entry first was played on g (move): the
 * queue of conditional turns of the other player answered (*played, then
 * the event of the answer) or dropped (note, for its owner alone, says
 * why), in the same commit.
 */
enum process_status turnqueue_after_turn(struct job *j, struct game *g, int first, struct reply_event *then,
    char *note, size_t size, bool *played);

#endif
