/* gamefile: the header, "key: value" lines (doc/game-file.md). */
#include "game/gamefile.h"

#include <stdio.h>
#include <string.h>

#include "base/ident.h"
#include "base/msgid.h"
#include "game/gamefile_int.h"

/* "observers: carol dave" or "notify: erin": user ids separated by spaces, each once. */
static enum game_status observers_value(struct reader *r, const char *v, size_t n, bool results,
    struct game *g, struct gamefile_error *err)
{
	char q[QUOTE_SIZE], name[GAME_NAME_SIZE];
	size_t w;

	for (;;) {
		while (n > 0 && (*v == ' ' || *v == '\t'))
			v++, n--;
		if (n == 0)
			return GAME_OK;
		for (w = 0; w < n && v[w] != ' ' && v[w] != '\t'; w++)
			;
		if (!gamefile_userid(v, w, name))
			return gamefile_fail(err, r->line, "bad user id '%s'", gamefile_quote(q, v, w));
		if (game_observer_find(g, name) >= 0)
			return gamefile_fail(err, r->line, "%s observes the board twice", name);
		if (!game_observer_add(g, name, results))
			return gamefile_fail(err, r->line, "more than %d observers", GAME_OBSERVERS_MAX);
		v += w;
		n -= w;
	}
}

static enum game_status header_value(struct reader *r, enum key k, const char *v, size_t n,
    struct header *h, struct game *g, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	long x;
	int j;

	switch (k) {
	case K_BOARD:
		if (!ident_board_parse(v, n, &g->board))
			return gamefile_fail(err, r->line, "bad board id '%s'", gamefile_quote(q, v, n));
		break;
	case K_SIZE:
		/* Its range depends on the shape, which may come later: see gamefile_header_parse(). */
		x = gamefile_number(v, n, 999);
		if (x < 0)
			return gamefile_fail(err, r->line, "bad size '%s'", gamefile_quote(q, v, n));
		g->size = (int)x;
		break;
	case K_SHAPE:
		if (gamefile_eq(v, n, "hex"))
			g->shape = RULES_HEX;
		else if (gamefile_eq(v, n, "square"))
			g->shape = RULES_SQUARE;
		else
			return gamefile_fail(err, r->line, "shape must be square or hex, not '%s'", gamefile_quote(q, v, n));
		break;
	case K_RATED:
		/* only "no" is ever written: a file without the key is a rated game */
		if (gamefile_eq(v, n, "no"))
			g->unrated = true;
		else if (gamefile_eq(v, n, "yes"))
			g->unrated = false;
		else
			return gamefile_fail(err, r->line, "rated must be yes or no, not '%s'", gamefile_quote(q, v, n));
		break;
	case K_SWAP:
		if (gamefile_eq(v, n, "on"))
			g->swap = true;
		else if (gamefile_eq(v, n, "off"))
			g->swap = false;
		else
			return gamefile_fail(err, r->line, "swap must be on or off, not '%s'", gamefile_quote(q, v, n));
		break;
	case K_BLACK:
	case K_WHITE:
		/* "*": the open seat of an open challenge (game.h) */
		if (gamefile_eq(v, n, GAME_OPEN_SEAT))
			snprintf(k == K_BLACK ? g->black : g->white, GAME_NAME_SIZE, "%s", GAME_OPEN_SEAT);
		else if (!gamefile_userid(v, n, k == K_BLACK ? g->black : g->white))
			return gamefile_fail(err, r->line, "bad user id '%s'", gamefile_quote(q, v, n));
		break;
	case K_STATUS:
		for (j = 0; j < 4 && !gamefile_eq(v, n, gamefile_status_names[j]); j++)
			;
		if (j == 4)
			return gamefile_fail(err, r->line, "unknown status '%s'", gamefile_quote(q, v, n));
		h->result = (enum rules_result)j; /* same order as enum rules_result */
		break;
	case K_END:
		for (j = 1; j < NENDS && !gamefile_eq(v, n, gamefile_end_names[j]); j++)
			;
		if (j == NENDS)
			return gamefile_fail(err, r->line, "unknown end '%s'", gamefile_quote(q, v, n));
		g->end = (enum game_end)j;
		break;
	case K_TO_MOVE:
		if (gamefile_eq(v, n, "black"))
			h->to_move = RULES_BLACK;
		else if (gamefile_eq(v, n, "white"))
			h->to_move = RULES_WHITE;
		else
			return gamefile_fail(err, r->line, "to-move must be black or white, not '%s'",
			    gamefile_quote(q, v, n));
		break;
	case K_TURN:
		x = gamefile_number(v, n, GAME_MAX_TURNS + 1);
		if (x < 1)
			return gamefile_fail(err, r->line, "bad turn '%s'", gamefile_quote(q, v, n));
		h->turn = (int)x;
		break;
	case K_CREATED:
	case K_LAST_MOVE:
		if (!gamefile_time_parse(v, n, k == K_CREATED ? &g->created : &g->last_move))
			return gamefile_fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
			    gamefile_quote(q, v, n));
		break;
	case K_REMIND:
		if (!gamefile_time_parse(v, n, &g->remind))
			return gamefile_fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
			    gamefile_quote(q, v, n));
		break;
	case K_ROBOT_LEVEL:
		/* the robot player's level: robot.h, ai.h's AI_MIN_LEVEL..AI_MAX_LEVEL */
		x = gamefile_number(v, n, 9);
		if (x < GAME_ROBOT_LEVEL_MIN || x > GAME_ROBOT_LEVEL_MAX)
			return gamefile_fail(err, r->line, "robot-level must be %d to %d, not '%s'", GAME_ROBOT_LEVEL_MIN,
			    GAME_ROBOT_LEVEL_MAX, gamefile_quote(q, v, n));
		g->robot_level = (int)x;
		break;
	case K_REMIND_DAYS:
	case K_TIMEOUT_DAYS:
		/* the board's own time limits (challenge -remind=, -timeout=): game.h's ranges */
		x = gamefile_number(v, n, 99999);
		if (x < 1 || x > (k == K_REMIND_DAYS ? GAME_REMIND_DAYS_MAX : GAME_TIMEOUT_DAYS_MAX))
			return gamefile_fail(err, r->line, "%s must be 1 to %d, not '%s'", gamefile_key_names[k],
			    k == K_REMIND_DAYS ? GAME_REMIND_DAYS_MAX : GAME_TIMEOUT_DAYS_MAX, gamefile_quote(q, v, n));
		if (k == K_REMIND_DAYS)
			g->remind_days = (int)x;
		else
			g->timeout_days = (int)x;
		break;
	case K_QUEUE:
		/* "alice E5=>F6;swap=>C3": the owner, then the lines, read against the board in gamefile_check_settle() */
		for (x = 0; x < (long)n && v[x] != ' '; x++)
			;
		if (!gamefile_userid(v, (size_t)x, g->queue_owner))
			return gamefile_fail(err, r->line, "queue: bad user id '%s'", gamefile_quote(q, v, (size_t)x));
		while (x < (long)n && v[x] == ' ')
			x++;
		if (n - (size_t)x == 0 || n - (size_t)x > GAME_QUEUE_MAX)
			return gamefile_fail(err, r->line, "queue: the lines after the owner are missing or longer than %d bytes",
			    GAME_QUEUE_MAX);
		memcpy(g->queue, v + x, n - (size_t)x);
		g->queue[n - (size_t)x] = '\0';
		break;
	case K_PENDING:
		/* "D4,E5": the part of the turn in progress sent by reply token, read against the board in gamefile_check_settle() */
		if (n == 0 || n > GAME_PENDING_MAX || strspn(v, "ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789,") < n)
			return gamefile_fail(err, r->line, "pending: want placements joined by commas, at most %d bytes, not "
			    "'%s'", GAME_PENDING_MAX, gamefile_quote(q, v, n));
		memcpy(g->pending, v, n);
		g->pending[n] = '\0';
		break;
	case K_THREAD:
		/* a Message-ID with its brackets, in msgid.h's grammar, or nothing */
		if (n > GAME_THREAD_MAX || (n > 0 && !msgid_bracketed_ok(v, n)))
			return gamefile_fail(err, r->line, "bad thread '%s' (want a Message-ID, <id-left@id-right>, "
			    "RFC 5322)", gamefile_quote(q, v, n));
		memcpy(g->thread, v, n);
		g->thread[n] = '\0';
		break;
	case K_OPENED:
		/* only "yes" is ever written: an open challenge someone took */
		if (gamefile_eq(v, n, "yes"))
			g->opened = true;
		else if (gamefile_eq(v, n, "no"))
			g->opened = false;
		else
			return gamefile_fail(err, r->line, "open-challenge must be yes or no, not '%s'", gamefile_quote(q, v, n));
		break;
	case K_OBSERVERS:
	case K_NOTIFY:
		return observers_value(r, v, n, k == K_NOTIFY, g, err);
	case K_TOURNAMENT:
		/* "T12": the tournament whose game it is (doc/game-file.md); the T may be absent */
		if (n > 0 && (v[0] == 'T' || v[0] == 't'))
			v++, n--;
		x = gamefile_number(v, n, 999999);
		if (x < 1)
			return gamefile_fail(err, r->line, "tournament must be T1 to T999999, not '%s'", gamefile_quote(q, v, n));
		g->tournament = (unsigned)x;
		break;
	case K_CLOCK:
	case K_CLOCK_BLACK:
	case K_CLOCK_WHITE:
	case K_WEEKENDS:
	case K_WARNED:
		return gamefile_clock_value(r, k, v, n, g, err);
	case NKEYS:
		break;
	}
	return GAME_OK;
}

enum game_status gamefile_header_parse(struct reader *r, struct header *h, struct game *g,
    struct gamefile_error *err)
{
	static const enum key required[] = {
		K_BOARD, K_SIZE, K_SWAP, K_BLACK, K_WHITE, K_STATUS, K_TURN, K_CREATED, K_LAST_MOVE
	};
	enum game_status st;
	const char *colon, *v;
	char q[QUOTE_SIZE];
	size_t i, n;
	int k;
	bool started = false;

	for (;;) {
		k = gamefile_next_line(r, err);
		if (k < 0)
			return GAME_BAD_FILE;
		if (k == 0)
			return gamefile_fail(err, r->line > 0 ? r->line : 1,
			    "unexpected end of file in the header");
		if (r->n == 0) {
			if (started)
				break;
			continue;
		}
		started = true;
		if (r->s[0] == '#')
			continue;
		colon = memchr(r->s, ':', r->n);
		if (colon == NULL)
			return gamefile_fail(err, r->line, "expected 'key: value', found '%s'",
			    gamefile_quote(q, r->s, r->n));
		n = (size_t)(colon - r->s);
		for (k = 0; k < NKEYS && !gamefile_eq(r->s, n, gamefile_key_names[k]); k++)
			;
		if (k == NKEYS)
			return gamefile_fail(err, r->line, "unknown key '%s'", gamefile_quote(q, r->s, n));
		if (h->line[k] != 0)
			return gamefile_fail(err, r->line, "duplicate key '%s' (first on line %d)",
			    gamefile_key_names[k], h->line[k]);
		h->line[k] = r->line;
		v = colon + 1;
		n = r->n - n - 1;
		while (n > 0 && (*v == ' ' || *v == '\t'))
			v++, n--;
		st = header_value(r, (enum key)k, v, n, h, g, err);
		if (st != GAME_OK)
			return st;
	}
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (h->line[required[i]] == 0)
			return gamefile_fail(err, r->line, "the header has no '%s:' line",
			    gamefile_key_names[required[i]]);
	if (g->shape == RULES_HEX && !rules_shape_ok(RULES_HEX, g->size))
		return gamefile_fail(err, h->line[K_SIZE], "hex side %d is not in %d..%d", g->size,
		    RULES_HEX_MIN_SIDE, RULES_HEX_MAX_SIDE);
	if (g->shape == RULES_SQUARE && (g->size < RULES_MIN_SIZE || g->size > RULES_MAX_SIZE))
		return gamefile_fail(err, h->line[K_SIZE], "size %d is not in %d..%d", g->size, RULES_MIN_SIZE,
		    RULES_MAX_SIZE);
	if (g->shape == RULES_SQUARE && g->size % 2 == 0)
		return gamefile_fail(err, h->line[K_SIZE], "size %d is not odd", g->size);
	if (strcmp(g->black, GAME_OPEN_SEAT) == 0 && strcmp(g->white, GAME_OPEN_SEAT) == 0)
		return gamefile_fail(err, h->line[K_WHITE], "both seats are open ('*'): an open challenge has its challenger");
	if (game_is_open(g) && (h->result != RULES_PLAYING || h->turn != 1))
		return gamefile_fail(err, h->line[strcmp(g->black, GAME_OPEN_SEAT) == 0 ? K_BLACK : K_WHITE],
		    "an open seat ('*') on a board with turns: nobody can have played before it was taken");
	st = gamefile_clock_check(h, g, err);
	if (st != GAME_OK)
		return st;
	if (h->result == RULES_PLAYING) {
		if (h->line[K_END] != 0)
			return gamefile_fail(err, h->line[K_END], "end given, but the status is playing");
		if (h->line[K_TO_MOVE] == 0)
			return gamefile_fail(err, h->line[K_STATUS], "a playing game needs a 'to-move:' line");
	} else {
		if (h->line[K_END] == 0)
			return gamefile_fail(err, h->line[K_STATUS], "status %s needs an 'end:' line",
			    gamefile_status_names[h->result]);
		if (h->line[K_TO_MOVE] != 0)
			return gamefile_fail(err, h->line[K_TO_MOVE], "to-move given, but the game is over");
		if (h->line[K_REMIND] != 0)
			return gamefile_fail(err, h->line[K_REMIND], "remind given, but the game is over");
		if (h->line[K_QUEUE] != 0)
			return gamefile_fail(err, h->line[K_QUEUE], "queue given, but the game is over");
		if (h->line[K_PENDING] != 0)
			return gamefile_fail(err, h->line[K_PENDING], "pending given, but the game is over");
		if ((h->result == RULES_DRAW) != (g->end == GAME_END_NO_PLACEMENTS || g->end == GAME_END_AGREEMENT))
			return gamefile_fail(err, h->line[K_END], "end %s does not fit status %s",
			    gamefile_end_names[g->end], gamefile_status_names[h->result]);
	}
	return GAME_OK;
}
