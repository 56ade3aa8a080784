/* gamefile: the checks that the header, the drawing and the history agree. */
#include "game/gamefile.h"

#include <stdlib.h>
#include <string.h>

#include "game/gamefile_int.h"

/* ---- the whole file ---- */

/* The queue of conditional turns: its owner plays here and is not to move; its lines parse. */
static enum game_status settle_queue(struct game *g, const struct header *h, struct gamefile_error *err)
{
	struct game_queue *q;
	char why[200];
	bool good;

	if (g->queue_owner[0] == '\0')
		return GAME_OK;
	if (game_color_of(g, g->queue_owner) == RULES_EMPTY)
		return gamefile_fail(err, h->line[K_QUEUE], "queue: '%s' is not a player of board %ld", g->queue_owner, g->board);
	if (strcmp(game_player_to_move(g), g->queue_owner) == 0)
		return gamefile_fail(err, h->line[K_QUEUE], "queue: %s is to move: a queue answers the opponent's turn",
		    g->queue_owner);
	q = malloc(sizeof(*q));
	if (q == NULL)
		return GAME_NO_MEMORY;
	good = game_queue_parse(g, g->queue, q, why, sizeof(why));
	free(q);
	if (!good)
		return gamefile_fail(err, h->line[K_QUEUE], "queue: %s", why);
	return GAME_OK;
}

/* The header, the drawing and the history agree; then start the turn state. */
enum game_status gamefile_check_settle(struct game *g, const struct header *h,
    const struct rules_board *b, bool swapped, struct gamefile_error *err)
{
	const struct game_turn *last = g->nturns > 0 ? &g->turns[g->nturns - 1] : NULL;
	enum rules_color winner = h->result == RULES_BLACK_WINS ? RULES_BLACK : RULES_WHITE;
	enum rules_color next = gamefile_history_color(h->turn, swapped);
	const struct game_note *note = game_last_offer_note(g);
	bool agreed = note != NULL && note->kind == GAME_NOTE_ACCEPT && !note->undo;
	struct rules_event ev;

	if (g->nturns != h->turn - 1)
		return gamefile_fail(err, h->line[K_TURN], "turn %d, but the history has %d turns", h->turn,
		    g->nturns);
	if (h->result == RULES_PLAYING) {
		if (last != NULL && (last->action == GAME_RESIGN || last->action == GAME_TIMEOUT))
			return gamefile_fail(err, h->line[K_STATUS], "status playing, but the game ended at "
			    "turn %d (%s)", last->number, game_action_str(last->action));
		if (agreed)
			return gamefile_fail(err, h->line[K_STATUS], "status playing, but the history ends with a draw agreed");
		if (h->to_move != next)
			return gamefile_fail(err, h->line[K_TO_MOVE], "to-move %s, but turn %d is %s's",
			    rules_color_name(h->to_move), h->turn, rules_color_name(next));
		rules_game_start(&g->rg, b, h->to_move, h->turn, g->swap, &ev);
		if (ev.result == RULES_DRAW)
			return gamefile_fail(err, h->line[K_TO_MOVE], "neither side has a legal placement: "
			    "the game is drawn (status drawn, end no-placements)");
		if (ev.npasses > 0)
			return gamefile_fail(err, h->line[K_TO_MOVE], "%s is to move but has no legal "
			    "placement (the history must record its pass)",
			    rules_color_name(h->to_move));
		if (g->pending[0] != '\0') {
			/* the part of the turn in progress plays from the position, and leaves the turn open */
			int *pts = malloc(RULES_MAX_POINTS * sizeof *pts), np;
			char why[200];
			bool good = pts != NULL && game_pending_points(g, pts, &np, NULL, why, sizeof why);

			free(pts);
			if (pts == NULL)
				return GAME_NO_MEMORY;
			if (!good)
				return gamefile_fail(err, h->line[K_PENDING], "pending: %s", why);
		}
		return settle_queue(g, h, err);
	}
	if (agreed != (g->end == GAME_END_AGREEMENT))
		return gamefile_fail(err, h->line[K_END], agreed ? "the history ends with a draw agreed, but end is %s" :
		    "end %s, but the history does not end with a draw agreed", gamefile_end_names[g->end]);
	switch (g->end) {
	case GAME_END_AGREEMENT:
		break;
	case GAME_END_RESIGN:
	case GAME_END_TIMEOUT:
		if (last == NULL || last->color == winner || last->action !=
		    (g->end == GAME_END_RESIGN ? GAME_RESIGN : GAME_TIMEOUT))
			return gamefile_fail(err, h->line[K_END], "end %s, but the last turn is not %s's %s",
			    gamefile_end_names[g->end], rules_color_name(RULES_OTHER(winner)),
			    g->end == GAME_END_RESIGN ? "resignation" : "timeout");
		break;
	case GAME_END_CAPTURE:
		if (last == NULL || last->action != GAME_PLACE || last->color != winner)
			return gamefile_fail(err, h->line[K_END], "end capture, but the last turn is not a "
			    "placement by %s", rules_color_name(winner));
		break;
	default:
		if (last == NULL || last->action != GAME_PLACE)
			return gamefile_fail(err, h->line[K_END], "end no-placements, but the last turn is "
			    "not a placement");
		break;
	}
	/* A finished game: nobody moves; the result is the file's, not the position's. */
	rules_game_start(&g->rg, b, next, h->turn, g->swap, NULL);
	g->rg.to_move = next;
	g->rg.result = h->result;
	g->rg.turn = h->turn;
	g->rg.placed = 0;
	return GAME_OK;
}
