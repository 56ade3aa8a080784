/* game: undo and draw by agreement, and the chat notes of the history (game.h). */
#include "game/game.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- undo and draw by agreement ---- */

enum game_status game_note_add(struct game *g, const struct game_note *n)
{
	struct game_note *p;
	int cap;

	assert(n->after == g->nturns);
	assert(g->nnotes == 0 || g->notes[g->nnotes - 1].after <= n->after);
	if (g->nnotes == g->alloc_notes) {
		if (g->alloc_notes > GAME_MAX_TURNS)
			return GAME_NO_MEMORY;
		cap = g->alloc_notes ? 2 * g->alloc_notes : 8;
		p = realloc(g->notes, (size_t)cap * sizeof(*p));
		if (p == NULL)
			return GAME_NO_MEMORY;
		g->notes = p;
		g->alloc_notes = cap;
	}
	g->notes[g->nnotes++] = *n;
	return GAME_OK;
}

const struct game_note *game_last_offer_note(const struct game *g)
{
	int i;

	for (i = g->nnotes - 1; i >= 0 && g->notes[i].kind == GAME_NOTE_CHAT; i--)
		;
	return i >= 0 ? &g->notes[i] : NULL;
}

const struct game_note *game_open_offer(const struct game *g)
{
	const struct game_note *n = game_last_offer_note(g);

	if (game_over(g) || n == NULL || n->after != g->nturns)
		return NULL;	/* a turn since: the offer lapsed */
	return n->kind == GAME_NOTE_UNDO || n->kind == GAME_NOTE_PROPOSE ? n : NULL;
}

int game_undo_turn(const struct game *g, const char *player)
{
	int i;

	/* the last turn that is not the rules' pass: passes that followed it go with it */
	for (i = g->nturns - 1; i >= 0 && g->turns[i].action == GAME_PASS; i--)
		;
	if (i < 0 || strcasecmp(g->turns[i].player, player) != 0)
		return 0;
	return g->turns[i].number;
}

/* The note of player's kind, after the last turn, with player's side now. */
static enum game_status add_note(struct game *g, const char *player, enum game_note_kind kind, bool undo,
    int64_t now)
{
	struct game_note n;

	memset(&n, 0, sizeof(n));
	n.after = g->nturns;
	n.kind = kind;
	n.undo = undo;
	n.color = game_color_of(g, player);
	snprintf(n.player, sizeof(n.player), "%s", player);
	ident_userid_fold(n.player);
	n.time = now;
	return game_note_add(g, &n);
}

/* The checks every offer and answer share. */
static enum game_status check_offer(const struct game *g, const char *player)
{
	if (game_over(g))
		return GAME_OVER;
	if (game_color_of(g, player) == RULES_EMPTY)
		return GAME_NOT_PLAYER;
	return GAME_OK;
}

/* Does the history lead to the position?  Taking back replays it, which would drop an admin's edit. */
static enum game_status check_replays(const struct game *g)
{
	struct game_replay *r = malloc(sizeof(*r));
	enum game_status st;

	if (r == NULL)
		return GAME_NO_MEMORY;
	st = game_verify(g, r);
	free(r);
	return st == GAME_OK ? GAME_OK : GAME_EDITED;
}

enum game_status game_ask_undo(struct game *g, const char *player, int64_t now)
{
	enum game_status st = check_offer(g, player);

	if (st != GAME_OK)
		return st;
	if (game_open_offer(g) != NULL)
		return GAME_OFFER_OPEN;
	if (game_undo_turn(g, player) == 0)
		return GAME_NOTHING_TO_UNDO;
	st = check_replays(g);
	if (st != GAME_OK)
		return st;
	return add_note(g, player, GAME_NOTE_UNDO, true, now);
}

enum game_status game_propose(struct game *g, const char *player, int64_t now)
{
	enum game_status st = check_offer(g, player);

	if (st != GAME_OK)
		return st;
	if (game_open_offer(g) != NULL)
		return GAME_OFFER_OPEN;
	return add_note(g, player, GAME_NOTE_PROPOSE, false, now);
}

/* The open offer player may answer, or a status saying why there is none. */
static enum game_status answerable(const struct game *g, const char *player, const struct game_note **out)
{
	enum game_status st = check_offer(g, player);

	*out = NULL;
	if (st != GAME_OK)
		return st;
	*out = game_open_offer(g);
	if (*out == NULL)
		return GAME_NO_OFFER;
	if (strcasecmp((*out)->player, player) == 0)
		return GAME_OWN_OFFER;
	return GAME_OK;
}

/* Take back the turns from turn k on: the position is the history's up to turn k - 1. */
static enum game_status take_back(struct game *g, int k, int64_t now)
{
	struct game_replay *r = malloc(sizeof(*r));
	enum game_status st;
	int i;

	if (r == NULL)
		return GAME_NO_MEMORY;
	st = game_replay(g, k - 1, r);
	if (st != GAME_OK) {
		free(r);
		return GAME_EDITED;
	}
	g->rg = r->rg;
	memcpy(g->black, r->black, sizeof(g->black));
	memcpy(g->white, r->white, sizeof(g->white));
	free(r);
	g->npoints = g->turns[k - 1].first;
	g->nturns = k - 1;
	/* the notes about the turns taken back now stand after the last turn left */
	for (i = 0; i < g->nnotes; i++)
		if (g->notes[i].after > g->nturns)
			g->notes[i].after = g->nturns;
	g->last_move = now;	/* the clock of the turn played again starts now */
	game_queue_clear(g);	/* it answered a turn the position no longer waits for */
	g->pending[0] = '\0';	/* a part of a turn on a position there is no more */
	return GAME_OK;
}

enum game_status game_accept(struct game *g, const char *player, int64_t now)
{
	const struct game_note *offer;
	enum game_status st = answerable(g, player, &offer);
	struct game_note n;
	int k;

	if (st != GAME_OK)
		return st;
	memset(&n, 0, sizeof(n));
	n.kind = GAME_NOTE_ACCEPT;
	n.undo = offer->kind == GAME_NOTE_UNDO;
	n.color = game_color_of(g, player);
	snprintf(n.player, sizeof(n.player), "%s", player);
	ident_userid_fold(n.player);
	n.time = now;
	if (n.undo) {
		k = game_undo_turn(g, offer->player);
		if (k == 0)
			return GAME_NOTHING_TO_UNDO;	/* the history changed under the offer: cannot happen */
		if ((st = check_replays(g)) != GAME_OK)
			return st;
		/* room first, so that running out of memory changes nothing */
		n.after = g->nturns;
		if ((st = game_note_add(g, &n)) != GAME_OK)
			return st;
		g->nnotes--;
		st = take_back(g, k, now);
		if (st != GAME_OK)
			return st;
		n.after = g->nturns;
		n.undo_from = k;
		return game_note_add(g, &n);
	}
	n.after = g->nturns;
	st = game_note_add(g, &n);
	if (st != GAME_OK)
		return st;
	g->rg.result = RULES_DRAW;
	g->end = GAME_END_AGREEMENT;
	g->last_move = now;
	return GAME_OK;
}

enum game_status game_reject(struct game *g, const char *player, int64_t now)
{
	const struct game_note *offer;
	enum game_status st = answerable(g, player, &offer);

	if (st != GAME_OK)
		return st;
	return add_note(g, player, GAME_NOTE_REJECT, offer->kind == GAME_NOTE_UNDO, now);
}

enum game_status game_chat(struct game *g, const char *player, int64_t now)
{
	int i, chats = 0;

	if (game_color_of(g, player) == RULES_EMPTY)
		return GAME_NOT_PLAYER;
	for (i = 0; i < g->nnotes; i++)
		chats += g->notes[i].kind == GAME_NOTE_CHAT;
	if (chats >= GAME_CHATS_MAX)
		return GAME_CHATS_FULL;
	return add_note(g, player, GAME_NOTE_CHAT, false, now);
}

const char *game_note_str(enum game_note_kind k)
{
	switch (k) {
	case GAME_NOTE_UNDO:
		return "undo";
	case GAME_NOTE_PROPOSE:
		return "propose";
	case GAME_NOTE_ACCEPT:
		return "accept";
	case GAME_NOTE_REJECT:
		return "reject";
	case GAME_NOTE_CHAT:
		return "chat";
	}
	return "unknown";
}

int game_turn_placements(const struct game *g, int k, const int **out)
{
	const struct game_turn *t;

	*out = NULL;
	if (k < 1 || k > g->nturns)
		return 0;
	t = &g->turns[k - 1];
	if (t->action != GAME_PLACE)
		return 0;
	*out = game_turn_points(g, t);
	return t->npoints;
}

int game_last_placements(const struct game *g, const int **out)
{
	return game_turn_placements(g, g->nturns, out);
}
