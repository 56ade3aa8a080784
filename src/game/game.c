/*
 * game: one Oust board, its players and its history.  See game.h.
 */
#include "game/game.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void copy_name(char dst[GAME_NAME_SIZE], const char *src)
{
	assert(ident_userid_ok(src) || strcmp(src, GAME_OPEN_SEAT) == 0);
	snprintf(dst, GAME_NAME_SIZE, "%s", src);
	ident_userid_fold(dst);
}

void game_init(struct game *g, long board, int size, bool swap, const char *black,
    const char *white, int64_t now)
{
	game_init_shape(g, board, RULES_SQUARE, size, swap, black, white, now);
}

void game_init_shape(struct game *g, long board, enum rules_shape shape, int size, bool swap,
    const char *black, const char *white, int64_t now)
{
	assert(board >= IDENT_BOARD_MIN && board <= IDENT_BOARD_MAX);
	assert(rules_shape_ok(shape, size));
	assert(now >= 0);
	memset(g, 0, sizeof(*g));
	g->board = board;
	g->shape = shape;
	g->size = size;
	g->swap = swap;
	copy_name(g->black, black);
	copy_name(g->white, white);
	rules_game_init_shape(&g->rg, shape, size, swap);
	g->end = GAME_END_NONE;
	g->created = now;
	g->last_move = now;
}

void game_release(struct game *g)
{
	free(g->turns);
	free(g->points);
	free(g->notes);
	g->turns = NULL;
	g->points = NULL;
	g->notes = NULL;
	g->nnotes = g->alloc_notes = 0;
	g->nturns = g->alloc_turns = 0;
	g->npoints = g->alloc_points = 0;
}

/* Room for `turns` more history entries and `points` more placements. */
static bool reserve(struct game *g, int turns, size_t points)
{
	if (turns > GAME_MAX_TURNS - g->nturns || points > (size_t)RULES_MAX_POINTS * GAME_MAX_TURNS)
		return false;
	if (g->nturns + turns > g->alloc_turns) {
		int n = g->alloc_turns ? g->alloc_turns : 16;
		struct game_turn *t;

		while (n < g->nturns + turns)
			n *= 2;
		t = realloc(g->turns, (size_t)n * sizeof(*t));
		if (t == NULL)
			return false;
		g->turns = t;
		g->alloc_turns = n;
	}
	if (g->npoints + points > g->alloc_points) {
		size_t n = g->alloc_points ? g->alloc_points : 64;
		int *p;

		while (n < g->npoints + points)
			n *= 2;
		p = realloc(g->points, n * sizeof(*p));
		if (p == NULL)
			return false;
		g->points = p;
		g->alloc_points = n;
	}
	return true;
}

/* Append an entry; the room was reserved. */
static void append(struct game *g, enum rules_color c, const char *player, enum game_action a,
    int64_t now, const int *points, int n)
{
	struct game_turn *t = &g->turns[g->nturns];

	memset(t, 0, sizeof(*t));
	t->number = g->nturns + 1;
	t->color = c;
	assert(strlen(player) < sizeof(t->player));
	memcpy(t->player, player, strlen(player) + 1);
	t->action = a;
	t->time = now;
	t->npoints = n;
	t->first = g->npoints;
	if (n > 0)
		memcpy(g->points + g->npoints, points, (size_t)n * sizeof(*points));
	g->npoints += (size_t)n;
	g->nturns++;
}

enum game_status game_history_add(struct game *g, const struct game_turn *t, const int *points)
{
	int n = t->action == GAME_PLACE ? t->npoints : 0;

	assert(t->number == g->nturns + 1);
	assert(n >= 0);
	if (!reserve(g, 1, (size_t)n))
		return GAME_NO_MEMORY;
	append(g, t->color, t->player, t->action, t->time, points, n);
	return GAME_OK;
}

enum rules_color game_color_of(const struct game *g, const char *name)
{
	if (name == NULL)
		return RULES_EMPTY;
	if (strcasecmp(name, g->black) == 0)
		return RULES_BLACK;
	if (strcasecmp(name, g->white) == 0)
		return RULES_WHITE;
	return RULES_EMPTY;
}

const char *game_player_of(const struct game *g, enum rules_color c)
{
	assert(c == RULES_BLACK || c == RULES_WHITE);
	return c == RULES_BLACK ? g->black : g->white;
}

bool game_user_is_robot(const char *userid)
{
	return userid != NULL && strcasecmp(userid, GAME_ROBOT_USERID) == 0;
}

const char *game_player_to_move(const struct game *g)
{
	if (game_over(g))
		return NULL;
	return game_player_of(g, g->rg.to_move);
}

/* The common checks before a player acts on the side to move's turn. */
static enum game_status check_turn(const struct game *g, const char *player)
{
	if (game_over(g))
		return GAME_OVER;
	if (game_color_of(g, player) == RULES_EMPTY)
		return GAME_NOT_PLAYER;
	if (strcasecmp(player, game_player_to_move(g)) != 0)
		return GAME_NOT_YOUR_TURN;
	return GAME_OK;
}

enum game_status game_move(struct game *g, const char *player, const int *points, int n,
    int64_t now, struct rules_turn_report *rep)
{
	struct rules_turn_report dummy;
	struct rules_game next;
	enum rules_color c = g->rg.to_move;
	enum game_status st;
	int i;

	if (rep == NULL)
		rep = &dummy;
	memset(rep, 0, sizeof(*rep));
	st = check_turn(g, player);
	if (st != GAME_OK)
		return st;
	/* Try the turn on a copy so that running out of memory afterwards changes nothing. */
	next = g->rg;
	if (rules_game_turn(&next, points, n, rep) != RULES_TURN_OK)
		return GAME_ILLEGAL_TURN;
	if (!reserve(g, 1 + rep->npasses, (size_t)n))
		return GAME_NO_MEMORY;
	g->rg = next;
	g->pending[0] = '\0';	/* the whole turn replaces a part sent before */
	append(g, c, game_player_of(g, c), GAME_PLACE, now, points, n);
	for (i = 0; i < rep->npasses; i++)
		append(g, rep->passed[i], game_player_of(g, rep->passed[i]), GAME_PASS, now, NULL, 0);
	if (g->rg.result == RULES_DRAW)
		g->end = GAME_END_NO_PLACEMENTS;
	else if (g->rg.result != RULES_PLAYING)
		g->end = GAME_END_CAPTURE;
	g->last_move = now;
	return GAME_OK;
}

enum game_status game_swap(struct game *g, const char *player, int64_t now)
{
	char name[GAME_NAME_SIZE];

	if (game_over(g))
		return GAME_OVER;
	if (game_color_of(g, player) == RULES_EMPTY)
		return GAME_NOT_PLAYER;
	if (!g->swap)
		return GAME_SWAP_OFF;
	if (!rules_game_can_swap(&g->rg))
		return GAME_SWAP_NOT_NOW;
	if (strcasecmp(player, g->white) != 0)
		return GAME_NOT_YOUR_TURN;
	if (!reserve(g, 1, 0))
		return GAME_NO_MEMORY;
	if (!rules_game_swap(&g->rg))
		return GAME_SWAP_NOT_NOW;
	g->pending[0] = '\0';
	append(g, RULES_WHITE, g->white, GAME_SWAP, now, NULL, 0);
	/* Pie rule: the swapper now owns the black stone(s); the other player, now White, moves. */
	memcpy(name, g->black, sizeof(name));
	memcpy(g->black, g->white, sizeof(name));
	memcpy(g->white, name, sizeof(name));
	g->last_move = now;
	return GAME_OK;
}

enum game_status game_resign(struct game *g, const char *player, int64_t now)
{
	enum rules_color c;

	if (game_over(g))
		return GAME_OVER;
	c = game_color_of(g, player);
	if (c == RULES_EMPTY)
		return GAME_NOT_PLAYER;
	/* Someone playing both sides resigns the side to move. */
	if (strcasecmp(player, game_player_to_move(g)) == 0)
		c = g->rg.to_move;
	if (!reserve(g, 1, 0))
		return GAME_NO_MEMORY;
	g->pending[0] = '\0';
	append(g, c, game_player_of(g, c), GAME_RESIGN, now, NULL, 0);
	rules_game_resign(&g->rg, c);
	g->end = GAME_END_RESIGN;
	g->last_move = now;
	return GAME_OK;
}

enum game_status game_timeout(struct game *g, const char *player, int64_t now)
{
	enum rules_color c = g->rg.to_move;
	enum game_status st;

	st = check_turn(g, player);
	if (st != GAME_OK)
		return st;
	if (!reserve(g, 1, 0))
		return GAME_NO_MEMORY;
	g->pending[0] = '\0';
	append(g, c, game_player_of(g, c), GAME_TIMEOUT, now, NULL, 0);
	rules_game_resign(&g->rg, c);
	g->end = GAME_END_TIMEOUT;
	g->last_move = now;
	return GAME_OK;
}

/* ---- the pending part of a turn ---- */

bool game_pending_points(const struct game *g, int *points, int *n, struct rules_game *after, char *why, size_t size)
{
	struct rules_game rg = g->rg;
	struct rules_event ev;
	const char *p = g->pending, *e;
	char name[8];
	int len;

	*n = 0;
	while (*p != '\0') {
		e = strchr(p, ',');
		len = e != NULL ? (int)(e - p) : (int)strlen(p);
		if (len < 2 || len > 3 || *n >= RULES_MAX_POINTS) {
			snprintf(why, size, "'%.*s' is no placement", len > 8 ? 8 : len, p);
			return false;
		}
		memcpy(name, p, (size_t)len);
		name[len] = '\0';
		points[*n] = rules_parse_point(&rg.board, name, len);
		if (points[*n] == RULES_NO_POINT) {
			snprintf(why, size, "%s is not a point of the board", name);
			return false;
		}
		if (!rules_is_legal(rules_game_play(&rg, points[*n], &ev))) {
			snprintf(why, size, "%s is not legal there (%s)", name, rules_verdict_str(ev.verdict));
			return false;
		}
		(*n)++;
		if (ev.turn_over) {
			snprintf(why, size, "the turn is over after %s: it is no part of a turn", name);
			return false;
		}
		p = e != NULL ? e + 1 : p + len;
	}
	if (after != NULL)
		*after = rg;
	return true;
}

/* ---- conditional turns ---- */

void game_queue_clear(struct game *g)
{
	g->queue_owner[0] = '\0';
	g->queue[0] = '\0';
}

/* Placements "E5, F6" (s[0..n)) into pts on g's board; false with why. */
static bool queue_points(const struct game *g, int k, const char *side, const char *s, size_t n, int *pts, int *np,
    char *why, size_t size)
{
	size_t i = 0, j, a, b;

	*np = 0;
	for (;;) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		for (a = i; a < j && (s[a] == ' ' || s[a] == '\t'); a++)
			;
		for (b = j; b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'); b--)
			;
		if (a == b) {
			snprintf(why, size, "line %d: %s has an empty placement", k, side);
			return false;
		}
		if (*np == GAME_QUEUE_POINTS) {
			snprintf(why, size, "line %d: more than %d placements in %s", k, GAME_QUEUE_POINTS, side);
			return false;
		}
		pts[*np] = rules_parse_point(&g->rg.board, s + a, (int)(b - a));
		if (pts[*np] == RULES_NO_POINT) {
			char dims[GAME_DIMENSIONS_SIZE];

			snprintf(why, size, "line %d: '%.*s' is not a point of the %s board", k, (int)(b - a > 20 ? 20 : b - a),
			    s + a, game_dimensions(g, false, dims));
			return false;
		}
		(*np)++;
		if (j == n)
			return true;
		i = j + 1;
	}
}

bool game_queue_parse(const struct game *g, const char *text, struct game_queue *out, char *why, size_t size)
{
	const char *p = text, *end, *arrow, *a, *b;
	struct game_queue_line *l;
	int k = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		end = strchr(p, ';');
		if (end == NULL)
			end = p + strlen(p);
		for (a = p; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		k++;
		if (a == end && *end == '\0' && k > 1)
			break;	/* a ';' at the end */
		if (a == end) {
			snprintf(why, size, "line %d is empty", k);
			return false;
		}
		if (out->n == GAME_QUEUE_LINES) {
			snprintf(why, size, "more than %d lines", GAME_QUEUE_LINES);
			return false;
		}
		l = &out->line[out->n];
		arrow = strstr(a, "=>");
		if (arrow == NULL || arrow >= end) {
			snprintf(why, size, "line %d: '=>' is missing between their turn and yours", k);
			return false;
		}
		for (b = arrow; b > a && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (b == a) {
			snprintf(why, size, "line %d: their turn is missing before '=>'", k);
			return false;
		}
		if (b - a == 4 && strncasecmp(a, "swap", 4) == 0)
			l->swap = true;
		else if (!queue_points(g, k, "their turn", a, (size_t)(b - a), l->their, &l->ntheir, why, size))
			return false;
		for (a = arrow + 2; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		for (b = end; b > a && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (a == b) {
			snprintf(why, size, "line %d: your answer is missing after '=>'", k);
			return false;
		}
		if (memchr(a, '=', (size_t)(b - a)) != NULL) {
			snprintf(why, size, "line %d: two '=>' (lines are separated by ';')", k);
			return false;
		}
		if (!queue_points(g, k, "your answer", a, (size_t)(b - a), l->mine, &l->nmine, why, size))
			return false;
		out->n++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return true;
}

bool game_queue_format(const struct game *g, const struct game_queue *q, char *buf, size_t size)
{
	size_t n = 0;
	char name[4];
	int i, j;

#define PUT(s) do { size_t len_ = strlen(s); if (n + len_ >= size) return false; memcpy(buf + n, s, len_ + 1); \
	n += len_; } while (0)
	buf[0] = '\0';
	for (i = 0; i < q->n; i++) {
		const struct game_queue_line *l = &q->line[i];

		if (i > 0)
			PUT(";");
		if (l->swap)
			PUT("swap");
		for (j = 0; j < l->ntheir; j++) {
			if (j > 0)
				PUT(",");
			PUT(rules_point_name(&g->rg.board, l->their[j], name));
		}
		PUT("=>");
		for (j = 0; j < l->nmine; j++) {
			if (j > 0)
				PUT(",");
			PUT(rules_point_name(&g->rg.board, l->mine[j], name));
		}
	}
#undef PUT
	return true;
}

bool game_queue_matches(const struct game *g, const struct game_queue_line *l, const struct game_turn *t)
{
	if (t->action == GAME_SWAP)
		return l->swap;
	if (t->action != GAME_PLACE || l->swap || l->ntheir != t->npoints)
		return false;
	return memcmp(l->their, game_turn_points(g, t), (size_t)t->npoints * sizeof(int)) == 0;
}

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

/* ---- replay ---- */

static enum game_status bad(struct game_replay *r, int turn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum game_status bad(struct game_replay *r, int turn, const char *fmt, ...)
{
	va_list ap;
	int n;

	r->bad_turn = turn;
	n = snprintf(r->why, sizeof(r->why), "turn %d: ", turn);
	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return GAME_BAD_HISTORY;
}

/* "E5" for a cell of b, or "placement N" when it is not a point of b. */
static const char *point_label(const struct rules_board *b, int p, int index, char buf[24])
{
	if (p > 0 && p < b->ncells && b->color[p] != RULES_OFFBOARD)
		return rules_point_name(b, p, buf);
	snprintf(buf, 24, "placement %d", index + 1);
	return buf;
}

/* What was wrong with a refused turn, e.g. "F5: the point is occupied". */
static void describe_turn(const struct rules_board *b, const int *points,
    const struct rules_turn_report *rep, char *buf, size_t size)
{
	char name[24], prev[24];

	switch (rep->status) {
	case RULES_TURN_OK:
		snprintf(buf, size, "the turn is legal");
		break;
	case RULES_TURN_EMPTY:
		snprintf(buf, size, "no placement given");
		break;
	case RULES_TURN_ILLEGAL:
		snprintf(buf, size, "%s: %s", point_label(b, points[rep->index], rep->index, name),
		    rules_verdict_str(rep->check.verdict));
		break;
	case RULES_TURN_TOO_LONG:
		snprintf(buf, size, "%s: the turn ended with %s", point_label(b, points[rep->index],
		    rep->index, name), point_label(b, points[rep->index - 1], rep->index - 1, prev));
		break;
	case RULES_TURN_TOO_SHORT:
		snprintf(buf, size, "the turn stops after the capture at %s, but a placement remains: "
		    "place again", point_label(b, points[rep->index], rep->index, name));
		break;
	}
}

enum game_status game_captures(const struct game *g, struct game_captures *out)
{
	struct rules_board *b = NULL;	/* large: on the heap */
	uint8_t before[RULES_MAX_CELLS];	/* the colours before a placement */
	const struct game_turn *t;
	enum game_status st = GAME_NO_MEMORY;
	size_t used = 0, idx;
	int i, k, q, got;

	memset(out, 0, sizeof(*out));
	b = malloc(sizeof(*b));
	out->first = calloc(g->npoints + 1, sizeof(*out->first));
	out->n = calloc(g->npoints + 1, sizeof(*out->n));
	out->stones = calloc(g->npoints + 1, sizeof(*out->stones));
	if (b == NULL || out->first == NULL || out->n == NULL || out->stones == NULL)
		goto out;
	rules_board_init_shape(b, g->shape, g->size);
	st = GAME_OK;
	for (i = 0; i < g->nturns; i++) {
		t = &g->turns[i];
		if (t->action != GAME_PLACE)
			continue;
		for (k = 0; k < t->npoints; k++) {
			idx = t->first + (size_t)k;
			memcpy(before, b->color, sizeof(before));
			got = 0;
			if (!rules_is_legal(rules_place(b, t->color, g->points[idx], &got))) {
				st = GAME_BAD_HISTORY;
				goto out;
			}
			out->first[idx] = used;
			for (q = 0; got > 0 && q < b->ncells; q++)
				if (before[q] == RULES_OTHER(t->color) && rules_at(b, q) == RULES_EMPTY &&
				    used < g->npoints)
					out->stones[used++] = q;
			out->n[idx] = (int)(used - out->first[idx]);
		}
	}
out:
	free(b);
	if (st != GAME_OK)
		game_captures_release(out);
	return st;
}

void game_captures_release(struct game_captures *c)
{
	free(c->first);
	free(c->n);
	free(c->stones);
	memset(c, 0, sizeof(*c));
}

enum game_status game_replay(const struct game *g, int upto, struct game_replay *out)
{
	struct rules_game *rg = &out->rg;
	enum rules_color pending[2], want;
	int npending = 0, ipending = 0, i, k;
	const struct game_turn *t;
	const char *owner;
	char msg[120], name[GAME_NAME_SIZE];
	bool swapped = g->nturns >= 2 && g->turns[1].action == GAME_SWAP;

	memset(out, 0, sizeof(*out));
	rules_game_init_shape(rg, g->shape, g->size, g->swap);
	/* Before a swap the names were the other way round. */
	snprintf(out->black, sizeof(out->black), "%s", swapped ? g->white : g->black);
	snprintf(out->white, sizeof(out->white), "%s", swapped ? g->black : g->white);
	if (upto < 0 || upto > g->nturns)
		return GAME_BAD_TURN_NUMBER;
	for (i = 0; i < upto; i++) {
		t = &g->turns[i];
		k = i + 1;
		if (t->number != k)
			return bad(out, k, "numbered %d", t->number);
		if (rg->result != RULES_PLAYING)
			return bad(out, k, "comes after the end of the game");
		if (t->color != RULES_BLACK && t->color != RULES_WHITE)
			return bad(out, k, "no colour");
		owner = t->color == RULES_BLACK ? out->black : out->white;
		if (strcasecmp(t->player, owner) != 0)
			return bad(out, k, "%s played %s, but %s owned %s then", t->player,
			    rules_color_name(t->color), owner, rules_color_name(t->color));
		want = ipending < npending ? pending[ipending] : rg->to_move;
		if (t->action != GAME_RESIGN && t->color != want)
			return bad(out, k, "%s played, but it was %s's turn",
			    rules_color_name(t->color), rules_color_name(want));
		if (ipending < npending && t->action != GAME_PASS)
			return bad(out, k, "%s had no placement, so this turn must be a pass",
			    rules_color_name(want));
		switch (t->action) {
		case GAME_PASS:
			if (ipending == npending)
				return bad(out, k, "%s passed, but had a placement",
				    rules_color_name(t->color));
			ipending++;
			break;
		case GAME_PLACE:
			if (rules_game_turn(rg, game_turn_points(g, t), t->npoints, &out->rep) !=
			    RULES_TURN_OK) {
				describe_turn(&rg->board, game_turn_points(g, t), &out->rep, msg,
				    sizeof(msg));
				return bad(out, k, "%s", msg);
			}
			npending = out->rep.npasses;
			ipending = 0;
			pending[0] = out->rep.passed[0];
			pending[1] = out->rep.passed[1];
			break;
		case GAME_SWAP:
			if (!rules_game_swap(rg))
				return bad(out, k, "swap is only allowed as White's first turn%s",
				    g->swap ? "" : ", and swap is off");
			memcpy(name, out->black, sizeof(name));
			memcpy(out->black, out->white, sizeof(name));
			memcpy(out->white, name, sizeof(name));
			break;
		case GAME_RESIGN:
		case GAME_TIMEOUT:
			rules_game_resign(rg, t->color);
			break;
		default:
			return bad(out, k, "unknown action %d", (int)t->action);
		}
	}
	if (ipending < npending) {
		if (upto == g->nturns)
			return bad(out, upto + 1, "missing: %s had no placement and passes",
			    rules_color_name(pending[ipending]));
		/* Stop before the recorded passes: the passing side is to move. */
		rg->turn -= npending - ipending;
		rg->to_move = pending[ipending];
	}
	return GAME_OK;
}

/* The last offer note (chats passed over), if it is an accepted draw after the last turn: drawn by agreement. */
static bool agreed_draw(const struct game *g)
{
	const struct game_note *n = game_last_offer_note(g);

	return n != NULL && n->kind == GAME_NOTE_ACCEPT && !n->undo && n->after == g->nturns;
}

static enum game_end end_of_history(const struct game *g, enum rules_result r)
{
	if (r == RULES_PLAYING)
		return GAME_END_NONE;
	if (r == RULES_DRAW && agreed_draw(g))
		return GAME_END_AGREEMENT;
	if (r == RULES_DRAW)
		return GAME_END_NO_PLACEMENTS;
	if (g->nturns > 0 && g->turns[g->nturns - 1].action == GAME_RESIGN)
		return GAME_END_RESIGN;
	if (g->nturns > 0 && g->turns[g->nturns - 1].action == GAME_TIMEOUT)
		return GAME_END_TIMEOUT;
	return GAME_END_CAPTURE;
}

static enum game_status differs(struct game_replay *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum game_status differs(struct game_replay *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return GAME_POSITION_DIFFERS;
}

static const char *color_word(enum rules_color c)
{
	return c == RULES_EMPTY ? "empty" : rules_color_name(c);
}

enum game_status game_verify(const struct game *g, struct game_replay *out)
{
	const struct rules_board *have = &g->rg.board, *want = &out->rg.board;
	enum game_status st;
	enum game_end end;
	char name[4];
	int x, y, p;

	st = game_replay(g, g->nturns, out);
	if (st != GAME_OK)
		return st;
	/* a draw agreed by the players ends a game the turns leave running */
	if (out->rg.result == RULES_PLAYING && agreed_draw(g))
		out->rg.result = RULES_DRAW;
	for (y = have->width - 1; y >= 0; y--) {
		for (x = rules_row_first(have, y); x < rules_row_first(have, y) + rules_row_len(have, y); x++) {
			p = rules_point(have, x, y);
			if (have->color[p] != want->color[p])
				return differs(out, "%s is %s, but %s after the history",
				    rules_point_name(have, p, name), color_word(rules_at(have, p)),
				    color_word(rules_at(want, p)));
		}
	}
	if (g->rg.result != out->rg.result)
		return differs(out, "the result is %s, but %s after the history",
		    rules_result_str(g->rg.result), rules_result_str(out->rg.result));
	if (g->rg.result == RULES_PLAYING && g->rg.to_move != out->rg.to_move)
		return differs(out, "%s is to move, but %s after the history",
		    rules_color_name(g->rg.to_move), rules_color_name(out->rg.to_move));
	if (g->rg.turn != out->rg.turn)
		return differs(out, "turn %d is next, but %d after the history", g->rg.turn,
		    out->rg.turn);
	end = end_of_history(g, out->rg.result);
	if (g->end != end)
		return differs(out, "the game ended by %s, but by %s after the history",
		    game_end_str(g->end), game_end_str(end));
	return GAME_OK;
}

/* ---- names ---- */

const char *game_dimensions(const struct game *g, bool brief, char buf[GAME_DIMENSIONS_SIZE])
{
	if (g->shape == RULES_HEX)
		snprintf(buf, GAME_DIMENSIONS_SIZE, brief ? "hex%d" : "hex side %d", g->size);
	else
		snprintf(buf, GAME_DIMENSIONS_SIZE, "%dx%d", g->size, g->size);
	return buf;
}

const char *game_status_str(enum game_status s)
{
	switch (s) {
	case GAME_OK:
		return "ok";
	case GAME_NOT_PLAYER:
		return "not a player of this board";
	case GAME_NOT_YOUR_TURN:
		return "not your turn";
	case GAME_OVER:
		return "the game is over";
	case GAME_SWAP_OFF:
		return "swap is off on this board";
	case GAME_SWAP_NOT_NOW:
		return "swap is only allowed as White's first turn";
	case GAME_ILLEGAL_TURN:
		return "illegal turn";
	case GAME_NO_MEMORY:
		return "out of memory";
	case GAME_BAD_TURN_NUMBER:
		return "no such turn";
	case GAME_BAD_HISTORY:
		return "the history is not consistent";
	case GAME_POSITION_DIFFERS:
		return "the position differs from the history";
	case GAME_NOTHING_TO_UNDO:
		return "nothing to undo";
	case GAME_NO_OFFER:
		return "nothing proposed";
	case GAME_OWN_OFFER:
		return "your own offer";
	case GAME_OFFER_OPEN:
		return "an offer is open";
	case GAME_EDITED:
		return "the position was edited";
	case GAME_CHATS_FULL:
		return "too many chats on this board";
	}
	return "unknown game status";
}

const char *game_action_str(enum game_action a)
{
	switch (a) {
	case GAME_PLACE:
		return "place";
	case GAME_PASS:
		return "pass";
	case GAME_SWAP:
		return "swap";
	case GAME_RESIGN:
		return "resign";
	case GAME_TIMEOUT:
		return "timeout";
	}
	return "unknown";
}

const char *game_end_str(enum game_end e)
{
	switch (e) {
	case GAME_END_NONE:
		return "none";
	case GAME_END_CAPTURE:
		return "capture";
	case GAME_END_RESIGN:
		return "resign";
	case GAME_END_TIMEOUT:
		return "timeout";
	case GAME_END_NO_PLACEMENTS:
		return "no-placements";
	case GAME_END_AGREEMENT:
		return "agreement";
	}
	return "unknown";
}

const char *game_status_message(const struct game *g, enum game_status s, const char *player,
    const int *points, const struct rules_turn_report *rep, char *buf, size_t size)
{
	const char *who = player != NULL ? player : "?";

	switch (s) {
	case GAME_NOT_PLAYER:
		snprintf(buf, size, "%s is not playing on board %ld", who, g->board);
		break;
	case GAME_NOT_YOUR_TURN:
		if (game_over(g))
			snprintf(buf, size, "board %ld is over", g->board);
		else
			snprintf(buf, size, "it is %s's turn", game_player_to_move(g));
		break;
	case GAME_OVER:
		snprintf(buf, size, "board %ld is over", g->board);
		break;
	case GAME_SWAP_OFF:
		snprintf(buf, size, "swap is off on board %ld", g->board);
		break;
	case GAME_ILLEGAL_TURN:
		if (rep != NULL && (points != NULL || rep->status == RULES_TURN_EMPTY))
			describe_turn(&g->rg.board, points, rep, buf, size);
		else
			snprintf(buf, size, "illegal turn on board %ld", g->board);
		break;
	case GAME_BAD_HISTORY:
	case GAME_POSITION_DIFFERS:
		snprintf(buf, size, "board %ld: %s", g->board, game_status_str(s));
		break;
	default:
		snprintf(buf, size, "%s", game_status_str(s));
		break;
	}
	return buf;
}

bool game_is_open(const struct game *g)
{
	return strcmp(g->black, GAME_OPEN_SEAT) == 0 || strcmp(g->white, GAME_OPEN_SEAT) == 0;
}

const char *game_open_challenger(const struct game *g)
{
	assert(game_is_open(g));
	return strcmp(g->black, GAME_OPEN_SEAT) == 0 ? g->white : g->black;
}

void game_take_seat(struct game *g, const char *userid)
{
	assert(game_is_open(g) && ident_userid_ok(userid));
	copy_name(strcmp(g->black, GAME_OPEN_SEAT) == 0 ? g->black : g->white, userid);
	g->opened = true;
}

int game_observer_find(const struct game *g, const char *userid)
{
	int i;

	for (i = 0; i < g->nobservers; i++)
		if (strcasecmp(g->observers[i].userid, userid) == 0)
			return i;
	return -1;
}

bool game_observer_add(struct game *g, const char *userid, bool results)
{
	if (g->nobservers >= GAME_OBSERVERS_MAX)
		return false;
	copy_name(g->observers[g->nobservers].userid, userid);
	g->observers[g->nobservers].results = results;
	g->nobservers++;
	return true;
}

void game_observer_remove(struct game *g, int i)
{
	assert(i >= 0 && i < g->nobservers);
	memmove(&g->observers[i], &g->observers[i + 1], (size_t)(g->nobservers - i - 1) * sizeof g->observers[0]);
	g->nobservers--;
}

unsigned long game_remind_days(const struct game *g, unsigned long dflt)
{
	return g->remind_days != 0 ? (unsigned long)g->remind_days : dflt;
}

unsigned long game_timeout_days(const struct game *g, unsigned long dflt)
{
	return g->timeout_days != 0 ? (unsigned long)g->timeout_days : dflt;
}

int64_t game_time_add(int64_t t, int64_t secs)
{
	return t > GAME_TIME_MAX - secs ? GAME_TIME_MAX : t + secs;
}

int64_t game_timeout_at(const struct game *g, unsigned long dflt)
{
	unsigned long days = game_timeout_days(g, dflt);

	if (game_over(g) || game_is_open(g) || days == 0)
		return 0;
	return game_time_add(g->last_move, (int64_t)days * GAME_DAY);
}
