/* reply_text: the texts about a game the board mails share: status, history, options, time left (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "game/rules.h"
#include "mail/unsubtoken.h"

/* ---- pieces of text about a game ---- */

char reply_text_symbol(enum rules_color c)
{
	return c == RULES_BLACK ? 'x' : 'o';
}

const char *reply_text_colour_name(enum rules_color c)
{
	return c == RULES_BLACK ? "Black" : "White";
}

/* The winner's name, or NULL for a draw or a game still running. */
static const char *winner(const struct game *g)
{
	if (g->rg.result == RULES_BLACK_WINS)
		return g->black;
	if (g->rg.result == RULES_WHITE_WINS)
		return g->white;
	return NULL;
}

const char *reply_text_loser(const struct game *g)
{
	if (g->rg.result == RULES_BLACK_WINS)
		return g->white;
	if (g->rg.result == RULES_WHITE_WINS)
		return g->black;
	return NULL;
}

/* "Oust Board 101 bob", "Oust Board 101 won by alice", "Oust Board 101 drawn" */
void reply_text_status_subject(const struct game *g, char *buf, size_t size)
{
	if (!game_over(g))
		snprintf(buf, size, "Oust Board %ld %s", g->board, game_player_to_move(g));
	else if (winner(g) != NULL)
		snprintf(buf, size, "Oust Board %ld won by %s", g->board, winner(g));
	else
		snprintf(buf, size, "Oust Board %ld drawn", g->board);
}

void reply_text_game_subject(const struct game *g, char *buf, size_t size)
{
	/* an open seat is "anyone" until taken (the Subject changes once, when it is) */
	snprintf(buf, size, "Oust Board %ld %s vs %s", g->board,
	    strcmp(g->black, GAME_OPEN_SEAT) == 0 ? "anyone" : g->black,
	    strcmp(g->white, GAME_OPEN_SEAT) == 0 ? "anyone" : g->white);
}

/* How the game ended, one sentence without the final period. */
void reply_text_result(const struct game *g, char *buf, size_t size)
{
	/* gamefile.c checks that a won game has a winner; "?" only guards the format */
	const char *w = winner(g) != NULL ? winner(g) : "?",
	    *l = reply_text_loser(g) != NULL ? reply_text_loser(g) : "?";

	switch (g->end) {
	case GAME_END_CAPTURE:
		snprintf(buf, size, "%s won: %s has no stones left", w, l);
		break;
	case GAME_END_RESIGN:
		snprintf(buf, size, "%s won: %s resigned", w, l);
		break;
	case GAME_END_TIMEOUT:
		snprintf(buf, size, "%s won: %s ran out of time", w, l);
		break;
	case GAME_END_NO_PLACEMENTS:
		snprintf(buf, size, "the game is drawn: neither player can place");
		break;
	case GAME_END_AGREEMENT:
		snprintf(buf, size, "the game is drawn by agreement");
		break;
	case GAME_END_NONE:
		snprintf(buf, size, "the game goes on");
		break;
	}
}

/* "turn 8, bob (White, o) to move" or the result. */
void reply_text_status(const struct game *g, char *buf, size_t size)
{
	if (game_over(g))
		reply_text_result(g, buf, size);
	else if (game_is_open(g))
		snprintf(buf, size, "an open challenge of %s's, waiting for a player", game_open_challenger(g));
	else
		snprintf(buf, size, "turn %d, %s (%s, %c) to move", g->rg.turn, game_player_to_move(g),
		    reply_text_colour_name(g->rg.to_move), reply_text_symbol(g->rg.to_move));
}

/* The placements of history entry t, "E5,F5". */
static void placements_text(struct text *t, const struct game *g, const struct game_turn *e)
{
	const int *p = game_turn_points(g, e);
	char name[4];
	int i;

	for (i = 0; i < e->npoints; i++) {
		if (i > 0)
			tputs(t, ",");
		tputs(t, rules_point_name(&g->rg.board, p[i], name));
	}
}

static int name_width(const struct game *g)
{
	int a = (int)strlen(g->black), b = (int)strlen(g->white);

	return a > b ? a : b;
}

/* One history line: "   7  x alice  E5,F5", with its time when with_time. */
static void history_line(struct text *t, const struct game *g, const struct game_turn *e, bool with_time)
{
	char stamp[REPLY_TIME_SIZE];
	size_t from = t->b.len;

	tprintf(t, "%4d  ", e->number);
	if (with_time)
		tprintf(t, "%s  ", reply_time_str(e->time, stamp));
	tprintf(t, "%c %-*s  ", reply_text_symbol(e->color), name_width(g), e->player);
	switch (e->action) {
	case GAME_PLACE:
		placements_text(t, g, e);
		break;
	case GAME_PASS:
		tputs(t, "pass (no placement)");
		break;
	case GAME_SWAP:
		/* who holds which stones from here on: the rows above were played in the old colours */
		tprintf(t, "swap: now %s plays x, %s o", e->player,
		    strcmp(g->black, e->player) == 0 ? g->white : g->black);
		break;
	case GAME_RESIGN:
		tputs(t, "resign");
		break;
	case GAME_TIMEOUT:
		tputs(t, "out of time");
		break;
	}
	tglue_from(t, from);	/* a row of a table: never broken inside */
	tputs(t, "\n");
}

/* One note of undo or draw by agreement: "   -  x alice  propose (offers a draw)". */
static void note_line(struct text *t, const struct game *g, const struct game_note *n, bool with_time)
{
	char stamp[REPLY_TIME_SIZE];
	size_t from = t->b.len;

	tputs(t, "   -  ");
	if (with_time)
		tprintf(t, "%s  ", reply_time_str(n->time, stamp));
	tprintf(t, "%c %-*s  %s ", reply_text_symbol(n->color), name_width(g), n->player, game_note_str(n->kind));
	switch (n->kind) {
	case GAME_NOTE_UNDO:
		tputs(t, "(asks to take back the last turn)");
		break;
	case GAME_NOTE_PROPOSE:
		tputs(t, "(offers a draw)");
		break;
	case GAME_NOTE_ACCEPT:
		if (n->undo)
			tprintf(t, "(the turns from %d on taken back)", n->undo_from);
		else
			tputs(t, "(a draw agreed)");
		break;
	case GAME_NOTE_REJECT:
		tprintf(t, "(%s declined)", n->undo ? "undo" : "draw");
		break;
	case GAME_NOTE_CHAT:
		tputs(t, "(wrote to the board's readers)");
		break;
	}
	tglue_from(t, from);
	tputs(t, "\n");
}

/*
 * The turns before turn upto + 1 (all with upto 0), at most the last `last`
 * of them (0: all), with the notes of undo and draw offers among them.
 */
char *reply_text_history_upto(const struct game *g, int upto, int last, bool with_time)
{
	struct text t = { 0 };
	int end = upto > 0 && upto < g->nturns ? upto : g->nturns;
	int i = last > 0 && end > last ? end - last : 0, k = 0;

	if (end == 0 && g->nnotes == 0)
		tputs(&t, "   (no turns yet)\n");
	while (k < g->nnotes && g->notes[k].after < i)
		k++;
	for (; i < end; i++) {
		for (; k < g->nnotes && g->notes[k].after <= i; k++)
			note_line(&t, g, &g->notes[k], with_time);
		history_line(&t, g, &g->turns[i], with_time);
	}
	for (; end == g->nturns && k < g->nnotes; k++)
		note_line(&t, g, &g->notes[k], with_time);
	return tfinish(&t);
}

char *reply_text_history(const struct game *g, int last, bool with_time)
{
	return reply_text_history_upto(g, 0, last, with_time);
}

const char *reply_text_plural(int n)
{
	return n == 1 ? "" : "s";
}

/* "A1", "A1 and B2", "A1, B2 and C3": the n points p[] of b. */
void reply_text_points(struct text *t, const struct rules_board *b, const int *p, int n)
{
	char name[4];
	int i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			tputs(t, i == n - 1 ? " and " : ", ");
		tputs(t, rules_point_name(b, p[i], name));
	}
}

/*
 * The stones colour c's placement at p would remove from b, into taken
 * (room for RULES_MAX_POINTS), in board order; returns how many.  scratch
 * is a board the caller provides (rules_board is large).
 */
int reply_text_taken_by(const struct rules_board *b, enum rules_color c, int p, struct rules_board *scratch,
    int *taken)
{
	int q, n = 0;

	*scratch = *b;
	if (rules_place(scratch, c, p, NULL) != RULES_CAPTURE)
		return 0;
	for (q = 0; q < b->ncells; q++)
		if (rules_at(b, q) == RULES_OTHER(c) && rules_at(scratch, q) == RULES_EMPTY)
			taken[n++] = q;
	return n;
}

int reply_text_by_column(const void *a, const void *b)
{
	const struct place_xy *u = a, *v = b;

	return u->x != v->x ? u->x - v->x : u->y - v->y;
}

/* Hex cells as their names read: row a first, then by number in the row. */
int reply_text_by_row(const void *a, const void *b)
{
	const struct place_xy *u = a, *v = b;

	return u->y != v->y ? u->y - v->y : u->x - v->x;
}

/*
 * For the player to move: the capturing placements open to them now, each
 * with the stones it takes, or that there are none; "" for anyone else.
 */
char *reply_text_options(const struct game *g, const char *reader)
{
	struct rules_board *b = NULL;	/* b[0] the position, b[1] scratch */
	struct place_xy *caps = NULL;
	uint16_t *legal = NULL;
	int *taken = NULL, n, i, ncaps = 0, k;
	const char *who = game_player_to_move(g);
	enum rules_color c = g->rg.to_move;
	struct text t = { 0 };
	struct rules_check chk;

	if (who == NULL || strcmp(who, reader) != 0 || game_user_is_robot(who) || game_is_open(g))
		return strdup("");
	b = malloc(2 * sizeof *b);
	legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	taken = malloc(RULES_MAX_POINTS * sizeof *taken);
	caps = malloc(RULES_MAX_POINTS * sizeof *caps);
	if (b == NULL || legal == NULL || taken == NULL || caps == NULL) {
		t.b.failed = true;
		goto out;
	}
	b[0] = g->rg.board;
	n = rules_legal(&b[0], c, legal);
	for (i = 0; i < n; i++)
		if (rules_check(&b[0], c, legal[i], &chk) == RULES_CAPTURE) {
			caps[ncaps].p = legal[i];
			caps[ncaps].x = rules_x(&b[0], legal[i]);
			caps[ncaps].y = rules_y(&b[0], legal[i]);
			ncaps++;
		}
	qsort(caps, (size_t)ncaps, sizeof *caps, reply_text_by_column);
	if (ncaps == 0) {
		tputs(&t, "Your capturing placements: none: every placement is non-capturing.\n\n");
		goto out;
	}
	tprintf(&t, "Your capturing placement%s (after each you place again):\n", reply_text_plural(ncaps));
	for (i = 0; i < ncaps && i < REPLY_OPTIONS_MAX; i++) {
		char name[4];

		k = reply_text_taken_by(&b[0], c, caps[i].p, &b[1], taken);
		tprintf(&t, "  %s takes ", rules_point_name(&b[0], caps[i].p, name));
		reply_text_points(&t, &b[0], taken, k);
		tputs(&t, "\n");
	}
	if (ncaps > REPLY_OPTIONS_MAX)
		tprintf(&t, "  and %d more\n", ncaps - REPLY_OPTIONS_MAX);
	tputs(&t, "\n");
out:
	free(b);
	free(legal);
	free(taken);
	free(caps);
	return tfinish(&t);
}

/*
 * {next} of a game mail, spoken to its reader: to the player to move,
 * "Your move" and the command to send; to the other, whom the board waits
 * for, whether their comment was passed on, and when they may swap.
 */
char *reply_text_next_for(const struct game *g, const struct reply_event *ev, const char *reader)
{
	struct text t = { 0 };
	const char *who;
	enum rules_color c = g->rg.to_move;

	if (game_over(g))
		return strdup("");
	if (game_is_open(g)) {
		tprintf(&t, "This is an open challenge: it waits for a player. Anyone may take it by sending:\n\n"
		    "    accept %ld <userid> <password>\n\nTo withdraw it before then, send:\n\n"
		    "    decline %ld %s <password>\n", g->board, g->board, reader);
		return tfinish(&t);
	}
	who = game_player_to_move(g);
	if (strcmp(who, reader) == 0) {
		tprintf(&t, "Your move, %s (turn %d, you play %s, %c). To play, send:\n\n", who, g->rg.turn,
		    reply_text_colour_name(c), reply_text_symbol(c));
		tprintf(&t, "    move %ld#%d %s <password> <placements>\n", g->board, g->rg.turn, who);
		if (g->swap && rules_game_can_swap(&g->rg)) {
			tprintf(&t, "\nor, to take over Black's stones instead (the pie rule), send:\n\n");
			tprintf(&t, "    swap %ld#%d %s <password>\n", g->board, g->rg.turn, who);
		}
		return tfinish(&t);
	}
	tprintf(&t, "Waiting for %s (%s, %c) to play turn %d%s.\n", who, reply_text_colour_name(c),
	    reply_text_symbol(c), g->rg.turn, game_user_is_robot(who) ? ": its answer comes by mail within minutes" : "");
	if (ev->comment != NULL && ev->comment[0] != '\0' && strcmp(ev->actor, reader) == 0 && !game_user_is_robot(who))
		tprintf(&t, "Your comment was passed on to %s.\n", who);
	if (g->swap && g->rg.turn == 1 && game_color_of(g, reader) == RULES_WHITE)
		tprintf(&t, "After %s's first turn you may swap (the pie rule):\ntake over Black's stones instead "
		    "of placing.\n", who);
	return tfinish(&t);
}

/* Whose turn it is and the command to send; "" once over. */
char *reply_text_next(const struct game *g)
{
	struct text t = { 0 };
	const char *who;

	if (game_over(g))
		return strdup("");
	who = game_player_to_move(g);
	if (game_user_is_robot(who)) {
		/* nobody sends the robot's turns (robot.h) */
		tprintf(&t, "It is %s's turn (turn %d, %s plays %s, %c): its answer comes by mail within minutes.\n",
		    who, g->rg.turn, who, reply_text_colour_name(g->rg.to_move), reply_text_symbol(g->rg.to_move));
		return tfinish(&t);
	}
	tprintf(&t, "It is %s's turn (turn %d, %s plays %s, %c). To play, send:\n\n", who, g->rg.turn, who,
	    reply_text_colour_name(g->rg.to_move), reply_text_symbol(g->rg.to_move));
	tprintf(&t, "    move %ld#%d %s <password> <placements>\n", g->board, g->rg.turn, who);
	if (g->swap && rules_game_can_swap(&g->rg)) {
		tprintf(&t, "\nor, to take over Black's stones instead (the pie rule), send:\n\n");
		tprintf(&t, "    swap %ld#%d %s <password>\n", g->board, g->rg.turn, who);
	}
	return tfinish(&t);
}

/*
 * "C1 (capturing A1 and B2), then E1": turn e's placements with the
 * stones each took; false (nothing written) if the history cannot be
 * replayed or memory runs out.
 */
static bool captures_text(struct text *t, const struct game *g, const struct game_turn *e)
{
	const int *p = game_turn_points(g, e);
	struct game_captures gc;
	char name[4];
	size_t idx;
	int i;

	if (game_captures(g, &gc) != GAME_OK)
		return false;
	for (i = 0; i < e->npoints; i++) {
		idx = e->first + (size_t)i;
		tprintf(t, "%s%s", i > 0 ? ", then " : "", rules_point_name(&g->rg.board, p[i], name));
		if (gc.n[idx] > 0) {
			tputs(t, " (capturing ");
			reply_text_points(t, &g->rg.board, gc.stones + gc.first[idx], gc.n[idx]);
			tputs(t, ")");
		}
	}
	game_captures_release(&gc);
	return true;
}

/* Did g's players exchange colours (a swap among its turns)? */
static bool swapped(const struct game *g)
{
	int i;

	for (i = 0; i < g->nturns; i++)
		if (g->turns[i].action == GAME_SWAP)
			return true;
	return false;
}

/*
 * For a finished game: the command that starts a return game against the
 * same opponent, with every option of the game that ended: its size or hex
 * side, the reader's colour at its start (the challenger plays Black
 * unless told), the swap, the robot's level, rated or not, its own
 * reminder and time limit.  One line, never wrapped: it is to be copied.
 */
/* The return game's challenge after "challenge <reader> <password> ": the opponent and g's options. */
static void rematch_args(struct text *t, const struct game *g, const char *reader)
{
	const char *opponent = strcmp(reader, g->black) == 0 ? g->white : g->black;
	bool was_black = (strcmp(reader, g->black) == 0) != swapped(g);

	tprintf(t, "%s ", opponent);
	if (g->shape == RULES_HEX)
		tprintf(t, "-hex=%d", g->size);
	else
		tprintf(t, "-size=%d", g->size);
	/* colours reversed: who began with Black begins the return game with White */
	if (was_black)
		tputs(t, " -white");
	if (!g->swap)
		tputs(t, " -noswap");
	if (game_user_is_robot(opponent) && g->robot_level != 0)
		tprintf(t, " -level=%d", g->robot_level);
	if (g->unrated)
		tputs(t, " -unrated");
	if (g->remind_days > 0)
		tprintf(t, " -remind=%d", g->remind_days);
	if (g->timeout_days > 0)
		tprintf(t, " -timeout=%d", g->timeout_days);
}

char *reply_text_rematch(const struct game *g, const char *reader)
{
	struct text t = { 0 };
	size_t from;

	if (game_user_is_robot(reader))
		return strdup("");
	tputs(&t, "For a return game, send:\n\n    ");
	from = t.b.len;
	tprintf(&t, "challenge %s <password> ", reader);
	rematch_args(&t, g, reader);
	tglue_from(&t, from);
	tputs(&t, "\n");
	return tfinish(&t);
}

char *reply_text_rematch_by_token(const struct game *g, const char *reader)
{
	struct text t = { 0 };

	tputs(&t, "challenge ");
	rematch_args(&t, g, reader);
	return tfinish(&t);
}

/*
 * The way out of an observer's mail that needs no password (RFC 2369
 * List-Unsubscribe, unsubtoken.h): the token of the reader and of what
 * they get the mail for, the board or every board.  Without the home's
 * secret the mail goes without it (and says so on stderr): a board mail is
 * not lost for it.
 */
void reply_text_unsub_make(struct reply_ctx *rc, const struct game *g, const struct reply_player *to, struct unsub *u)
{
	enum mail_status st;
	long scope = to->role == REPLY_ROLE_OBSERVER || to->role == REPLY_ROLE_NOTIFY ? g->board : 0;

	u->token[0] = u->header[0] = '\0';
	if (to->role == REPLY_ROLE_PLAYER)
		return;
	st = unsubtoken_make(rc->home, to->userid, scope, u->token);
	if (st == MAIL_OK && unsubtoken_header(rc->cfg->from_address, u->token, u->header))
		return;
	msg_warn("no List-Unsubscribe for %s: %s", to->userid, mail_status_str(st));
	u->token[0] = u->header[0] = '\0';
}

/*
 * An observer's line, in place of a player's move prompt or return game:
 * that they observe, and the command that stops it.
 */
char *reply_text_observing(const struct game *g, const struct reply_player *to, const struct unsub *u)
{
	struct text t = { 0 };

	switch (to->role) {
	case REPLY_ROLE_OBSERVER:
		tprintf(&t, "You observe board %ld (subscribe): this is a read-only view, you do not play on it.\n"
		    "To stop, send:\n\n    unsubscribe %ld %s <password>\n", g->board, g->board, to->userid);
		break;
	case REPLY_ROLE_NOTIFY:
		tprintf(&t, "You asked for the result of board %ld (notify); you do not play on it.\n"
		    "To stop, send:\n\n    notify %s <password> off %ld\n", g->board, to->userid, g->board);
		break;
	case REPLY_ROLE_WATCH_ALL:
		tprintf(&t, "You observe every board (subscribe ... all): this is a read-only view, you do not play "
		    "on board %ld.\nTo stop, send:\n\n    unsubscribe %s <password> all\n", g->board, to->userid);
		break;
	case REPLY_ROLE_WATCH_RESULTS:
		tprintf(&t, "You asked for the result of every board (notify); you do not play on board %ld.\n"
		    "To stop, send:\n\n    notify %s <password> off\n", g->board, to->userid);
		break;
	case REPLY_ROLE_PLAYER:
		break;
	}
	if (to->role != REPLY_ROLE_PLAYER && u->token[0] != '\0')
		tprintf(&t, "\nTo stop these mails, reply with the Subject below, or use your mail\nprogram's "
		    "unsubscribe button (no password needed):\n\n    unsubscribe %s\n", u->token);
	return tfinish(&t);
}

/* What the event did, one or more lines. */
char *reply_text_happened(const struct game *g, const struct reply_event *ev)
{
	struct text t = { 0 };
	const struct game_turn *e;
	enum rules_color c;
	int i;

	switch (ev->what) {
	case REPLY_CHALLENGE:
		/* the first line of the mail gives the board, its size, the swap and the colours */
		if (game_is_open(g)) {
			tprintf(&t, "%s offers an open challenge: a new game against whoever accepts it first%s; %s "
			    "plays %s, and Black moves first.\n", ev->actor, ev->random ?
			    " (the colours were drawn at random)" : "", ev->actor,
			    strcmp(ev->actor, g->black) == 0 ? "Black (x)" : "White (o)");
			break;
		}
		tprintf(&t, "%s challenges %s to a new game%s; Black moves first.\n", ev->actor,
		    strcmp(ev->actor, g->black) == 0 ? g->white : g->black,
		    ev->random ? " (the colours were drawn at random)" : "");
		if (g->robot_level != 0)
			tprintf(&t, "%s, the server's robot player, plays at level %d (of %d to %d).\n",
			    GAME_ROBOT_USERID, g->robot_level, GAME_ROBOT_LEVEL_MIN, GAME_ROBOT_LEVEL_MAX);
		break;
	case REPLY_MOVE:
		if (ev->first < 1 || ev->first > g->nturns)
			break;
		e = &g->turns[ev->first - 1];
		tprintf(&t, "Turn %d: %s played ", e->number, e->player);
		if (ev->captured == 0 || !captures_text(&t, g, e)) {
			placements_text(&t, g, e);
			if (ev->captured > 0)
				tprintf(&t, ", capturing %d stone%s", ev->captured, reply_text_plural(ev->captured));
		}
		if (g->end == GAME_END_CAPTURE && ev->first == g->nturns && reply_text_loser(g) != NULL)
			tprintf(&t, ", the last of %s's", reply_text_loser(g));
		else if (ev->dead_end)
			tputs(&t, ", and had no placement left, so the turn ended there");
		if (ev->queued)
			tprintf(&t, " (a queued turn: %s's answer, given in advance, to that turn)", ev->actor);
		tputs(&t, ".\n");
		/* the passes that followed, up to the next change told */
		for (i = ev->first; i < (ev->then != NULL ? ev->then->first - 1 : g->nturns); i++) {
			e = &g->turns[i];
			if (e->action == GAME_PASS)
				tprintf(&t, "Turn %d: %s has no placement and passes.\n", e->number, e->player);
		}
		if (g->end == GAME_END_NO_PLACEMENTS && ev->then == NULL)
			tputs(&t, "Neither player can place any more: the game is drawn.\n");
		break;
	case REPLY_SWAP:
		c = game_color_of(g, ev->actor);
		tprintf(&t, "Turn %d: %s swapped (the pie rule): %s now owns the black stones (x), and %s "
		    "plays White (o).\n", ev->first, ev->actor, ev->actor,
		    game_player_of(g, c == RULES_BLACK ? RULES_WHITE : RULES_BLACK));
		break;
	case REPLY_RESIGN:
		tprintf(&t, "Turn %d: %s resigned.\n", ev->first, ev->actor);
		break;
	case REPLY_ACCEPT:
		tprintf(&t, "%s accepted the open challenge of %s: %s plays Black (x), %s White (o); Black moves "
		    "first.\n", ev->actor, strcmp(ev->actor, g->black) == 0 ? g->white : g->black, g->black, g->white);
		break;
	case REPLY_TIMEOUT:
		if (g->clock_base != 0)
			tprintf(&t, "Turn %d: %s's clock ran out: %s lost on time.\n", ev->first, ev->actor, ev->actor);
		else
			tprintf(&t, "Turn %d: %s did not play within %d day%s and lost on time.\n", ev->first, ev->actor,
			    ev->days, reply_text_plural(ev->days));
		break;
	case REPLY_UNDO_ASKED:
	case REPLY_DRAW_PROPOSED:
		if (ev->what == REPLY_UNDO_ASKED && ev->first >= 1 && ev->first <= g->nturns) {
			e = &g->turns[ev->first - 1];
			tprintf(&t, "%s asks to take back turn %d (", ev->actor, ev->first);
			if (e->action == GAME_PLACE)
				placements_text(&t, g, e);
			else
				tputs(&t, game_action_str(e->action));
			tputs(&t, ").\n");
		} else {
			tprintf(&t, "%s proposes a draw.\n", ev->actor);
		}
		c = game_color_of(g, ev->actor);
		/* the command in the sentence is glued (REPLY_GLUE): never broken over two lines */
		tprintf(&t, "%s: to agree, send \"move\002%ld\002%s\002<password>\002accept\"; to decline, "
		    "\"...\002reject\". "
		    "A turn by either player lets the offer lapse.\n", game_player_of(g, RULES_OTHER(c)), g->board,
		    game_player_of(g, RULES_OTHER(c)));
		break;
	case REPLY_UNDO_ACCEPTED:
		tprintf(&t, "%s agreed to %s's undo: the turns from turn %d on are taken back, and %s plays turn %d "
		    "again.\n", ev->actor, ev->offerer, ev->first, ev->offerer, ev->first);
		break;
	case REPLY_UNDO_REJECTED:
		tprintf(&t, "%s declined %s's undo: the turns stand.\n", ev->actor, ev->offerer);
		break;
	case REPLY_DRAW_ACCEPTED:
		tprintf(&t, "%s accepted %s's offer of a draw.\n", ev->actor, ev->offerer);
		break;
	case REPLY_DRAW_REJECTED:
		tprintf(&t, "%s declined %s's offer of a draw: the game goes on.\n", ev->actor, ev->offerer);
		break;
	}
	if (ev->then != NULL) {
		char *more = reply_text_happened(g, ev->then);

		if (more == NULL) {
			free(tfinish(&t));
			return NULL;
		}
		tputs(&t, more);
		free(more);
	}
	return tfinish(&t);
}

void reply_text_indent(struct text *t, const char *text, const char *indent)
{
	const char *p = text, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (nl > p)
			tputs(t, indent);
		tadd(t, p, (size_t)(nl - p));
		tputs(t, "\n");
		p = *nl != '\0' ? nl + 1 : nl;
	}
}

/* text with every line indented by two spaces (a player's words set apart), ending in a newline. */
char *reply_text_indented(const char *text)
{
	struct text t = { 0 };

	reply_text_indent(&t, text, "  ");
	return tfinish(&t);
}

/* "\nalice writes:\n  ...\n" for recipients other than the author; "" otherwise. */
char *reply_text_comment(const struct reply_event *ev, const char *recipient)
{
	struct text t = { 0 };
	char *said;

	/* the server's notice: a paragraph of its own, not a player's words */
	if (ev->notice != NULL && ev->notice[0] != '\0') {
		tprintf(&t, "\n%s\n", ev->notice);
		return tfinish(&t);
	}
	if (ev->comment == NULL || ev->comment[0] == '\0' || strcmp(recipient, ev->actor) == 0)
		return strdup("");
	said = reply_text_indented(ev->comment);
	if (said == NULL)
		return NULL;
	tprintf(&t, "\n%s writes:\n\n%s", ev->actor, said);
	free(said);
	return tfinish(&t);
}

/* An observer's {next}: whose turn it is (never "your move"), then how to stop observing. */
char *reply_text_observer_next(const struct game *g, const struct reply_event *ev, const struct reply_player *to,
    const struct unsub *u)
{
	struct text t = { 0 };
	const char *who = game_player_to_move(g);
	enum rules_color c = g->rg.to_move;
	char *stop;

	if (game_is_open(g))
		tprintf(&t, "This is an open challenge of %s's: anyone may take it.\n", game_open_challenger(g));
	else
		tprintf(&t, "Turn %d: %s (%s, %c) to move.\n", g->rg.turn, who, reply_text_colour_name(c),
		    reply_text_symbol(c));
	stop = reply_text_observing(g, to, u);
	if (stop == NULL) {
		t.b.failed = true;
		return tfinish(&t);
	}
	tprintf(&t, "\n%s", stop);
	free(stop);
	(void)ev;
	return tfinish(&t);
}

void reply_text_duration(int64_t secs, char *buf, size_t size)
{
	int64_t days = secs / GAME_DAY, hours = secs % GAME_DAY / 3600;

	if (days == 0 && hours == 0)
		snprintf(buf, size, "less than an hour");
	else if (days == 0)
		snprintf(buf, size, "%lld hour%s", (long long)hours, hours == 1 ? "" : "s");
	else if (hours == 0)
		snprintf(buf, size, "%lld day%s", (long long)days, days == 1 ? "" : "s");
	else
		snprintf(buf, size, "%lld day%s %lld hour%s", (long long)days, days == 1 ? "" : "s", (long long)hours,
		    hours == 1 ? "" : "s");
}

/*
 * next (taken over: freed, or returned longer) and then, on a board with a
 * time limit (its own -timeout=, else timeout_days), the time left to the
 * player to move: to them (reader), "You have ..."; to anyone else, "bob
 * has ...".  NULL when out of memory.
 */
void reply_set_away(struct reply_ctx *rc, const struct reply_away *a)
{
	memset(&rc->away, 0, sizeof rc->away);
	if (a != NULL)
		rc->away = *a;
}

char *reply_text_with_time_left(struct reply_ctx *rc, const struct game *g, const char *reader, char *next)
{
	int64_t at = game_timeout_at(g, rc->cfg->timeout_days), left, until, now = (int64_t)rc->now;
	char when[REPLY_TIME_SIZE], how[64], back[REPLY_TIME_SIZE];
	const char *who;
	bool you, away = false;
	struct text t = { 0 };

	if (next != NULL && rc->clock.on && !game_over(g) && !game_is_open(g)) {
		tputs(&t, next);
		free(next);
		if (t.b.len > 0 && t.b.s[t.b.len - 1] != '\n')
			tputs(&t, "\n");
		if (t.b.len > 0)
			tputs(&t, "\n");
		reply_clock_text(rc, g, reader, &t);
		return tfinish(&t);
	}
	if (next == NULL || at == 0)
		return next;
	who = game_player_to_move(g);
	you = reader != NULL && strcmp(who, reader) == 0;
	until = at;
	left = at - now;
	if (rc->away.userid[0] != '\0' && strcmp(rc->away.userid, who) == 0) {
		/* the clock stood still while they were away since the last turn (cleanup.c's clock_stopped) */
		left += rc->away.stopped;
		away = rc->away.now && rc->away.start < at;
		/* away now: the time left waits for their return */
		until = away ? rc->away.end + left : now + left;
	}
	if (left < 0)
		left = 0;
	reply_text_duration(left, how, sizeof how);
	tputs(&t, next);
	free(next);
	if (t.b.len > 0 && t.b.s[t.b.len - 1] != '\n')
		tputs(&t, "\n");
	if (t.b.len > 0)
		tputs(&t, "\n");
	if (away)
		tprintf(&t, "%s away until %s (vacation): the clock stands still until then.\n",
		    you ? "You are" : who, reply_time_str(rc->away.end, back));
	if (you)
		tprintf(&t, "You have %s to move, until %s: then the game is lost on time.\n", how,
		    reply_time_str(until, when));
	else
		tprintf(&t, "%s has %s to move, until %s.\n", who, how, reply_time_str(until, when));
	return tfinish(&t);
}
