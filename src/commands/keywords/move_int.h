/*
 * move_int: what the parts of the move keyword share (move.c, the
 * handler of the table's row; move_offer.c, undo and draws; move_token.c,
 * a move by reply token).
 */
#ifndef OUSTPBM_MOVE_INT_H
#define OUSTPBM_MOVE_INT_H

#include <stdbool.h>

#include "commands/pipeline/status.h"

struct game;
struct job;
struct job_turn;

/*
 * move ... undo|propose|accept|reject (move_offer.c): move_run's part for
 * a move whose placements are one of pbmserv's words, on a board that is
 * playable by the sender (move.c checked it).
 */
enum process_status move_offer(struct job *j, struct job_turn *t);

/*
 * A token move on g: the Subject's part must be g's pending part
 * (game.h), whose placements are put before the reply's in j->cmd, so
 * that the whole turn plays at once.  *refused true after a refusal
 * (the position has changed) was sent.
 */
enum process_status move_token_continue(struct job *j, const struct game *g, bool *refused);

/*
 * A token move whose placements j->cmd (the part before included) stop
 * after a capture: kept as g's pending part and
 * committed with one mail, to the mover, showing the board after it with
 * the continuations as links.
 */
enum process_status move_token_keep_part(struct job *j, struct game *g);

#endif
