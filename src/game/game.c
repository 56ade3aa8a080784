/*
 * game: one Oust board, its players and its history.  See game.h.  This
 * part: the board and its players, the turns, the seats and observers, the
 * time limits and the messages; the rest is in game_queue.c (the pending
 * turn, conditional turns), game_offer.c (undo and draw by agreement) and
 * game_replay.c (replay and verify).
 */
#include "game/game.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game_int.h"

static void copy_name(char dst[GAME_NAME_SIZE], const char *src)
{
	assert(ident_userid_ok(src) || strcmp(src, GAME_OPEN_SEAT) == 0);
	snprintf(dst, GAME_NAME_SIZE, "%s", src);
	ident_userid_fold(dst);
}

void game_init(struct game *g, long board, int size, bool swap, const char *black,
    const char *white, int64_t now)
{
	game_init_shape(g, board, &(struct game_form){ RULES_SQUARE, size, swap }, black, white, now);
}

void game_init_shape(struct game *g, long board, const struct game_form *f, const char *black, const char *white,
    int64_t now)
{
	assert(board >= IDENT_BOARD_MIN && board <= IDENT_BOARD_MAX);
	assert(rules_shape_ok(f->shape, f->size));
	assert(now >= 0);
	memset(g, 0, sizeof(*g));
	g->board = board;
	g->shape = f->shape;
	g->size = f->size;
	g->swap = f->swap;
	copy_name(g->black, black);
	copy_name(g->white, white);
	rules_game_init_shape(&g->rg, f->shape, f->size, f->swap);
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

/* ---- names ---- */


/* "E5" for a cell of b, or "placement N" when it is not a point of b. */
static const char *point_label(const struct rules_board *b, int p, int index, char buf[24])
{
	if (p > 0 && p < b->ncells && b->color[p] != RULES_OFFBOARD)
		return rules_point_name(b, p, buf);
	snprintf(buf, 24, "placement %d", index + 1);
	return buf;
}

/* What was wrong with a refused turn, e.g. "F5: the point is occupied". */
void game_describe_turn(const struct rules_board *b, const int *points,
    const struct rules_turn_report *rep, char *buf, size_t size)
{
	char name[24], prev[24];

	switch (rep->verdict) {
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

const char *game_dimensions(const struct game *g, bool brief, char buf[GAME_DIMENSIONS_SIZE])
{
	if (g->shape == RULES_HEX)
		snprintf(buf, GAME_DIMENSIONS_SIZE, brief ? "hex%d" : "hex side %d", g->size);
	else
		snprintf(buf, GAME_DIMENSIONS_SIZE, "%dx%d", g->size, g->size);
	return buf;
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
		if (rep != NULL && (points != NULL || rep->verdict == RULES_TURN_EMPTY))
			game_describe_turn(&g->rg.board, points, rep, buf, size);
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

	/* a board with a clock runs out by it (gameclock.h), not by a number of days */
	if (game_over(g) || game_is_open(g) || days == 0 || g->clock_base != 0)
		return 0;
	return game_time_add(g->last_move, (int64_t)days * GAME_DAY);
}
