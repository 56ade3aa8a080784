/* gamefile: the history, one line a turn or a note, checked for its form, not replayed. */
#include "game/gamefile.h"

#include <string.h>

#include "game/gamefile_int.h"

/* ---- the history ---- */

/* Whose turn number k is: colours alternate, but the swap (turn 2) is White's and so is turn 3. */
enum rules_color gamefile_history_color(int k, bool swapped)
{
	if (k >= 3 && swapped)
		k++;
	return k % 2 == 1 ? RULES_BLACK : RULES_WHITE;
}

/* Who owned colour c at turn k: before a swap the names were the other way round. */
static const char *owner(const struct game *g, enum rules_color c, int k, bool swapped)
{
	if (swapped && k <= 2)
		c = RULES_OTHER(c);
	return game_player_of(g, c);
}

static enum game_status check_player(const struct game *g, const struct game_turn *t,
    int line, bool swapped, struct gamefile_error *err)
{
	const char *o = owner(g, t->color, t->number, swapped);

	if (strcmp(t->player, o) != 0)
		return gamefile_fail(err, line, "turn %d: %s was played by %s, not %s", t->number,
		    rules_color_name(t->color), o, t->player);
	return GAME_OK;
}

/* Placements "E5,F5,G6" into pts; returns how many, or -1 with err set. */
static int parse_points(int line, const char *s, size_t n, const struct rules_board *b,
    int *pts, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	size_t i = 0, j;
	int np = 0, p;

	for (;;) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		if (j == i) {
			gamefile_fail(err, line, "empty placement in '%s'", gamefile_quote(q, s, n));
			return -1;
		}
		p = rules_parse_point(b, s + i, (int)(j - i));
		if (p == RULES_NO_POINT && b->shape == RULES_HEX) {
			gamefile_fail(err, line, "'%s' is not a cell of a hex board of side %d", gamefile_quote(q, s + i, j - i),
			    b->size);
			return -1;
		}
		if (p == RULES_NO_POINT) {
			gamefile_fail(err, line, "'%s' is not a point on %s %dx%d board", gamefile_quote(q, s + i, j - i),
			    b->size == 11 ? "an" : "a", b->size, b->size);
			return -1;
		}
		if (np == RULES_MAX_POINTS) {
			gamefile_fail(err, line, "more than %d placements in one turn", RULES_MAX_POINTS);
			return -1;
		}
		pts[np++] = p;
		if (j == n)
			return np;
		i = j + 1;
	}
}

/*
 * The captures of a history line after "captured:", "A1+B2,-": one item
 * per placement, each '-' or points of b joined by '+'.
 */
static enum game_status parse_captured(int line, const char *s, size_t n, const struct rules_board *b,
    int npoints, struct gamefile_error *err)
{
	char q[QUOTE_SIZE];
	size_t i = 0, j;
	int items = 0;

	for (;;) {
		items++;
		if (i < n && s[i] == '-') {
			j = i + 1;
		} else {
			for (;;) {
				for (j = i; j < n && s[j] != ',' && s[j] != '+'; j++)
					;
				if (rules_parse_point(b, s + i, (int)(j - i)) == RULES_NO_POINT)
					return gamefile_fail(err, line, "captured: '%s' is not a point of the board",
					    gamefile_quote(q, s + i, j - i));
				if (j == n || s[j] != '+')
					break;
				i = j + 1;
			}
		}
		if (j == n)
			break;
		if (s[j] != ',')
			return gamefile_fail(err, line, "captured: '%s': items are joined by commas", gamefile_quote(q, s, n));
		i = j + 1;
	}
	if (items != npoints)
		return gamefile_fail(err, line, "captured: %d item%s for %d placement%s", items, items == 1 ? "" : "s",
		    npoints, npoints == 1 ? "" : "s");
	return GAME_OK;
}

/*
 * A note of the history, "- 2026-11-21T19:02:11Z o bob accept undo:7": an
 * offer (undo, propose) or its answer (accept or reject, of an undo or a
 * draw), between the turns; the answer follows its offer, by the other player
 * (chats between them passed over).  Or a chat, "- 2026-11-21T19:05:00Z x
 * alice chat": anywhere, the end of the game included.
 */
static enum game_status parse_note(int line, struct game *g, const char *const *t, const size_t *tn, int n,
    struct gamefile_error *err)
{
	const struct game_note *prev = game_last_offer_note(g);
	struct game_note e;
	char q[QUOTE_SIZE];
	bool chat = gamefile_eq(t[4], tn[4], "chat");
	long k;

	memset(&e, 0, sizeof(e));
	e.after = g->nturns;
	if (!chat && prev != NULL && prev->kind == GAME_NOTE_ACCEPT && !prev->undo)
		return gamefile_fail(err, line, "a note after the accepted draw");
	if (!chat && g->nturns > 0 && (g->turns[g->nturns - 1].action == GAME_RESIGN ||
	    g->turns[g->nturns - 1].action == GAME_TIMEOUT))
		return gamefile_fail(err, line, "a note after the end of the game at turn %d", g->nturns);
	if (!gamefile_time_parse(t[1], tn[1], &e.time))
		return gamefile_fail(err, line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)", gamefile_quote(q, t[1], tn[1]));
	if (gamefile_eq(t[2], tn[2], "x"))
		e.color = RULES_BLACK;
	else if (gamefile_eq(t[2], tn[2], "o"))
		e.color = RULES_WHITE;
	else
		return gamefile_fail(err, line, "unknown colour '%s' (x or o)", gamefile_quote(q, t[2], tn[2]));
	if (!gamefile_userid(t[3], tn[3], e.player))
		return gamefile_fail(err, line, "bad user id '%s'", gamefile_quote(q, t[3], tn[3]));
	if (game_color_of(g, e.player) == RULES_EMPTY)
		return gamefile_fail(err, line, "'%s' is not a player of board %ld", e.player, g->board);
	if (chat) {
		e.kind = GAME_NOTE_CHAT;
		if (n != 5)
			return gamefile_fail(err, line, "'%s' after chat: a chat note has no argument (its text is not kept)",
			    gamefile_quote(q, t[5], tn[5]));
	} else if (gamefile_eq(t[4], tn[4], "undo") || gamefile_eq(t[4], tn[4], "propose")) {
		e.kind = gamefile_eq(t[4], tn[4], "undo") ? GAME_NOTE_UNDO : GAME_NOTE_PROPOSE;
		e.undo = e.kind == GAME_NOTE_UNDO;
		if (n != 5)
			return gamefile_fail(err, line, "'%s' after %s: an offer has no argument", gamefile_quote(q, t[5], tn[5]),
			    game_note_str(e.kind));
	} else if (gamefile_eq(t[4], tn[4], "accept") || gamefile_eq(t[4], tn[4], "reject")) {
		e.kind = gamefile_eq(t[4], tn[4], "accept") ? GAME_NOTE_ACCEPT : GAME_NOTE_REJECT;
		if (n != 6)
			return gamefile_fail(err, line, "%s needs what it answers: undo or draw", game_note_str(e.kind));
		if (gamefile_eq(t[5], tn[5], "draw")) {
			e.undo = false;
		} else if (e.kind == GAME_NOTE_ACCEPT && tn[5] > 5 && memcmp(t[5], "undo:", 5) == 0) {
			/* the turns from K on were taken back: the history goes on with turn K again */
			e.undo = true;
			k = gamefile_number(t[5] + 5, tn[5] - 5, GAME_MAX_TURNS);
			if (k != g->nturns + 1)
				return gamefile_fail(err, line, "'%s': the turns taken back start at turn %d, the next one",
				    gamefile_quote(q, t[5], tn[5]), g->nturns + 1);
			e.undo_from = (int)k;
		} else if (e.kind == GAME_NOTE_REJECT && gamefile_eq(t[5], tn[5], "undo")) {
			e.undo = true;
		} else {
			return gamefile_fail(err, line, "'%s': %s answers %s", gamefile_quote(q, t[5], tn[5]), game_note_str(e.kind),
			    e.kind == GAME_NOTE_ACCEPT ? "undo:TURN or draw" : "undo or draw");
		}
		if (prev == NULL || prev->after != e.after || (prev->kind != GAME_NOTE_UNDO &&
		    prev->kind != GAME_NOTE_PROPOSE) || prev->undo != e.undo)
			return gamefile_fail(err, line, "%s %s, but no %s was offered just before", game_note_str(e.kind),
			    e.undo ? "undo" : "draw", e.undo ? "undo" : "draw");
		if (strcmp(prev->player, e.player) == 0)
			return gamefile_fail(err, line, "%s answers their own offer", e.player);
	} else {
		return gamefile_fail(err, line, "unknown note '%s' (undo, propose, accept, reject or chat)",
		    gamefile_quote(q, t[4], tn[4]));
	}
	if (game_note_add(g, &e) != GAME_OK)
		return GAME_NO_MEMORY;
	return GAME_OK;
}

enum game_status gamefile_parse_note(const char *s, size_t len, int line, struct game *g,
    struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0;
	char q[QUOTE_SIZE];
	int n = 0;

	memset(err, 0, sizeof(*err));
	while (n < 7 && gamefile_token(s, len, &i, &t[n], &tn[n]))
		n++;
	if (n < 5 || n > 6 || !gamefile_eq(t[0], tn[0], "-"))
		return gamefile_fail(err, line, "expected '- TIME x|o PLAYER undo|propose|accept|reject|chat [undo:TURN|undo|draw]', "
		    "found '%s'", gamefile_quote(q, s, len));
	return parse_note(line, g, t, tn, n, err);
}

static enum game_status parse_entry(struct reader *r, struct game *g,
    const struct rules_board *b, bool *swapped, int *line1, struct gamefile_error *err)
{
	const char *t[7];
	size_t tn[7], i = 0;
	int n = 0, np, pts[RULES_MAX_POINTS];
	struct game_turn e;
	char q[QUOTE_SIZE];
	long num;
	enum game_status st;

	while (n < 7 && gamefile_token(r->s, r->n, &i, &t[n], &tn[n]))
		n++;
	if ((n == 5 || n == 6) && gamefile_eq(t[0], tn[0], "-"))
		return parse_note(r->line, g, t, tn, n, err);
	if (n != 5 && !(n == 6 && tn[5] > CAPTURED_LEN && memcmp(t[5], CAPTURED, CAPTURED_LEN) == 0))
		return gamefile_fail(err, r->line, "expected 'NUMBER TIME x|o PLAYER ACTION [captured:...]', found '%s'",
		    gamefile_quote(q, r->s, r->n));
	memset(&e, 0, sizeof(e));
	num = gamefile_number(t[0], tn[0], GAME_MAX_TURNS);
	if (num < 0)
		return gamefile_fail(err, r->line, "bad turn number '%s'", gamefile_quote(q, t[0], tn[0]));
	if (num != g->nturns + 1)
		return gamefile_fail(err, r->line, "turn %ld out of order, expected %d", num, g->nturns + 1);
	if (game_last_offer_note(g) != NULL && game_last_offer_note(g)->kind == GAME_NOTE_ACCEPT &&
	    !game_last_offer_note(g)->undo)
		return gamefile_fail(err, r->line, "turn %ld follows the draw agreed before it", num);
	e.number = (int)num;
	if (g->nturns > 0 && (g->turns[g->nturns - 1].action == GAME_RESIGN ||
	    g->turns[g->nturns - 1].action == GAME_TIMEOUT))
		return gamefile_fail(err, r->line, "turn %d follows the end of the game at turn %d",
		    e.number, g->nturns);
	if (!gamefile_time_parse(t[1], tn[1], &e.time))
		return gamefile_fail(err, r->line, "bad time '%s' (want e.g. 2026-11-21T18:41:07Z)",
		    gamefile_quote(q, t[1], tn[1]));
	if (gamefile_eq(t[2], tn[2], "x"))
		e.color = RULES_BLACK;
	else if (gamefile_eq(t[2], tn[2], "o"))
		e.color = RULES_WHITE;
	else
		return gamefile_fail(err, r->line, "unknown colour '%s' (x or o)", gamefile_quote(q, t[2], tn[2]));
	if (!gamefile_userid(t[3], tn[3], e.player))
		return gamefile_fail(err, r->line, "bad user id '%s'", gamefile_quote(q, t[3], tn[3]));
	if (game_color_of(g, e.player) == RULES_EMPTY)
		return gamefile_fail(err, r->line, "'%s' is not a player of board %ld", e.player, g->board);
	if (gamefile_eq(t[4], tn[4], "pass")) {
		e.action = GAME_PASS;
	} else if (gamefile_eq(t[4], tn[4], "swap")) {
		e.action = GAME_SWAP;
		if (e.number != 2)
			return gamefile_fail(err, r->line, "swap at turn %d: only turn 2 may be a swap",
			    e.number);
		if (!g->swap)
			return gamefile_fail(err, r->line, "swap at turn 2, but swap is off");
		*swapped = true;
	} else if (gamefile_eq(t[4], tn[4], "resign")) {
		e.action = GAME_RESIGN;
	} else if (gamefile_eq(t[4], tn[4], "timeout")) {
		e.action = GAME_TIMEOUT;
	} else {
		e.action = GAME_PLACE;
		np = parse_points(r->line, t[4], tn[4], b, pts, err);
		if (np < 0)
			return GAME_BAD_FILE;
		e.npoints = np;
	}
	/*
	 * What the placements captured: read for its form only (replaying the
	 * whole history on every load would cost more than the file is worth);
	 * every write makes it again from the placements.
	 */
	if (n == 6 && e.action != GAME_PLACE)
		return gamefile_fail(err, r->line, "'%s' after %s: only placements capture", gamefile_quote(q, t[5], tn[5]),
		    game_action_str(e.action));
	if (n == 6 && (st = parse_captured(r->line, t[5] + CAPTURED_LEN, tn[5] - CAPTURED_LEN, b, e.npoints,
	    err)) != GAME_OK)
		return st;
	/* A resignation may come on either side's turn; everything else alternates. */
	if (e.action != GAME_RESIGN && e.color != gamefile_history_color(e.number, *swapped))
		return gamefile_fail(err, r->line, "turn %d is %s's turn, not %s's", e.number,
		    rules_color_name(gamefile_history_color(e.number, *swapped)), rules_color_name(e.color));
	/* Turn 1's player is known once turn 2 tells whether there was a swap. */
	if (e.number == 1) {
		*line1 = r->line;
	} else {
		if (e.number == 2 && (st = check_player(g, &g->turns[0], *line1, *swapped,
		    err)) != GAME_OK)
			return st;
		if ((st = check_player(g, &e, r->line, *swapped, err)) != GAME_OK)
			return st;
	}
	if (game_history_add(g, &e, pts) != GAME_OK)
		return GAME_NO_MEMORY;
	return GAME_OK;
}

enum game_status gamefile_history_parse(struct reader *r, struct game *g,
    const struct rules_board *b, bool *swapped, struct gamefile_error *err)
{
	enum game_status st;
	char q[QUOTE_SIZE];
	int k, line1 = 0;

	k = gamefile_next_nonblank(r, err);
	if (k < 0)
		return GAME_BAD_FILE;
	if (k == 0)
		return gamefile_fail(err, r->line, "unexpected end of file, expected 'history:'");
	if (!gamefile_eq(r->s, r->n, "history:"))
		return gamefile_fail(err, r->line, "expected 'history:', found '%s'", gamefile_quote(q, r->s, r->n));
	while ((k = gamefile_next_nonblank(r, err)) == 1) {
		st = parse_entry(r, g, b, swapped, &line1, err);
		if (st != GAME_OK)
			return st;
	}
	if (k < 0)
		return GAME_BAD_FILE;
	if (g->nturns == 1)
		return check_player(g, &g->turns[0], line1, false, err);
	return GAME_OK;
}

/* Stones turn e captured, by gc. */
