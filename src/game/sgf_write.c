/* sgf: the writer, a game as an SGF game record (sgf.h). */
#include "game/sgf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/version.h"
#include "game/gamefile.h"
#include "game/sgf_int.h"

/* A property value, ']' and '\' escaped (SGF 3.2: Text and SimpleText). */
static void put_value(struct strbuf *b, const char *s)
{
	strbuf_add(b, "[", 1);
	for (; *s != '\0'; s++) {
		if (*s == ']' || *s == '\\')
			strbuf_add(b, "\\", 1);
		strbuf_add(b, s, 1);
	}
	strbuf_add(b, "]", 1);
}

static void put_prop(struct strbuf *b, const char *id, const char *value)
{
	strbuf_puts(b, id);
	put_value(b, value);
}

static const char *color_word(enum rules_color c)
{
	return c == RULES_BLACK ? "Black" : "White";
}

const char *sgf_write_result(const struct game *g, char buf[4])
{
	const char *side = g->rg.result == RULES_BLACK_WINS ? "B+" : "W+";

	if (g->rg.result == RULES_DRAW)
		return "0";
	snprintf(buf, 4, "%s%s", side, g->end == GAME_END_RESIGN ? "R" : g->end == GAME_END_TIMEOUT ? "T" : "");
	return buf;
}

/* The comment of a node: what the turn was, what a capture did, how the game ended. */
static void node_comment(struct strbuf *c, const struct game *g, const struct step *st,
    const char *black0, const char *white0)
{
	const struct game_turn *t = &g->turns[st->turn];
	const char *winner;
	char name[4];
	int j;

	if (st->first) {
		strbuf_printf(c, "Turn %d: %s (%s)", t->number, t->player, color_word(t->color));
		switch (t->action) {
		case GAME_PLACE:
			for (j = 0; j < t->npoints; j++) {
				rules_point_name(&g->rg.board, game_turn_points(g, t)[j], name);
				strbuf_printf(c, "%s%s", j == 0 ? " " : ",", name);
			}
			strbuf_puts(c, ".");
			break;
		case GAME_PASS:
			strbuf_puts(c, " has no placement and passes.");
			break;
		case GAME_SWAP:
			strbuf_printf(c, " swaps: %s now plays Black, %s White.", white0, black0);
			break;
		case GAME_RESIGN:
			strbuf_puts(c, " resigns.");
			break;
		case GAME_TIMEOUT:
			strbuf_puts(c, " lost on time.");
			break;
		}
	}
	if (st->nremoved > 0) {
		rules_point_name(&g->rg.board, st->point, name);
		strbuf_printf(c, "%s%s removes %d %s stone%s%s%s.", c->len ? "\n" : "", name,
		    st->nremoved, st->color == RULES_BLACK ? "white" : "black", st->nremoved == 1 ? "" : "s",
		    st->more ? "; places again: " : "", st->more ? t->player : "");
	}
	if (st->over) {
		winner = game_player_of(g, g->rg.result == RULES_BLACK_WINS ? RULES_BLACK : RULES_WHITE);
		if (g->rg.result == RULES_DRAW)
			strbuf_printf(c, "%sNeither side can place: a draw.", c->len ? "\n" : "");
		else
			strbuf_printf(c, "%s%s (%s) wins%s.", c->len ? "\n" : "", winner,
			    g->rg.result == RULES_BLACK_WINS ? "Black" : "White",
			    g->end == GAME_END_CAPTURE ? ": no enemy stone is left" : "");
	}
}

/* A note of undo, draw by agreement or chat: a node of its own, OUSTNOTE[] as the file writes it, and a comment. */
static void note_node(struct strbuf *b, const struct game *g, const struct game_note *n)
{
	char line[GAMEFILE_NOTE_SIZE], c[160];

	put_prop(b, ";OUSTNOTE", gamefile_note_text(n, line));
	switch (n->kind) {
	case GAME_NOTE_UNDO:
		snprintf(c, sizeof c, "%s asks to take back their last turn.", n->player);
		break;
	case GAME_NOTE_PROPOSE:
		snprintf(c, sizeof c, "%s offers a draw.", n->player);
		break;
	case GAME_NOTE_ACCEPT:
		if (n->undo)
			snprintf(c, sizeof c, "%s agrees: the turns from turn %d on are taken back.", n->player,
			    n->undo_from);
		else
			snprintf(c, sizeof c, "%s accepts: the game is drawn by agreement.", n->player);
		break;
	case GAME_NOTE_REJECT:
		snprintf(c, sizeof c, "%s declines the %s.", n->player, n->undo ? "undo" : "draw");
		break;
	case GAME_NOTE_CHAT:
		/* the text went by mail and is not kept (game.h) */
		snprintf(c, sizeof c, "%s chats.", n->player);
		break;
	}
	put_prop(b, "C", c);
	strbuf_puts(b, "\n");
	(void)g;
}

enum game_status sgf_format(const struct game *g, char **out, size_t *len, struct sgf_error *err)
{
	struct strbuf b = STRBUF_INIT, c = STRBUF_INIT;
	struct steps s = { 0 };
	struct game_replay *r;
	const struct rules_board *bd = &g->rg.board;
	char tbuf[GAMEFILE_TIME_SIZE], pt[3], num[32], res[4], *text;
	const char *black0, *white0;
	enum game_status ret;
	bool swapped = g->nturns >= 2 && g->turns[1].action == GAME_SWAP;
	int i, j, k, x, y;

	*out = NULL;
	*len = 0;
	r = malloc(sizeof(*r));
	if (r == NULL)
		return GAME_NO_MEMORY;
	if (game_verify(g, r) != GAME_OK) {
		ret = sgf_fail(err, 0, 0, "board %ld: its history does not lead to its position (%s): "
		    "the record would show another game", g->board, r->why);
		goto out;
	}
	ret = sgf_steps_make(g, &s);
	if (ret != GAME_OK)
		goto out;
	/* the players at turn 1: a swap exchanged the names (game.h) */
	black0 = swapped ? g->white : g->black;
	white0 = swapped ? g->black : g->white;

	strbuf_printf(&b, "(;FF[4]GM[%d]CA[UTF-8]AP[oustpbm:%s]SZ[%d]\n", bd->shape == RULES_HEX ? 11 : 1,
	    OUSTPBM_VERSION, bd->width);
	snprintf(num, sizeof(num), "Oust board %ld", g->board);
	put_prop(&b, "GN", num);
	put_prop(&b, "PB", black0);
	put_prop(&b, "PW", white0);
	gamefile_time_str(g->created, tbuf);
	tbuf[10] = '\0';
	put_prop(&b, "DT", tbuf);
	if (game_over(g))
		put_prop(&b, "RE", sgf_write_result(g, res));
	strbuf_puts(&b, "\n");
	if (bd->shape == RULES_HEX)
		strbuf_printf(&c, "Oust, by Mark Steere: board %ld, a hex-hex board of side %d drawn on a "
		    "Hex board of %d (the dimmed corners are not part of it), swap %s.", g->board, g->size,
		    bd->width, g->swap ? "on" : "off");
	else
		strbuf_printf(&c, "Oust, by Mark Steere: board %ld, %dx%d, swap %s.", g->board, g->size,
		    g->size, g->swap ? "on" : "off");
	strbuf_puts(&c, " Each node shows what one placement changed: the stone placed (AB, AW) "
	    "and the stones it removed (AE).");
	if (c.failed) {
		ret = GAME_NO_MEMORY;
		goto out;
	}
	put_prop(&b, "C", c.s);
	strbuf_release(&c);
	strbuf_puts(&b, "\n");
	if (bd->shape == RULES_HEX) {
		strbuf_puts(&b, "DD");
		for (y = bd->width - 1; y >= 0; y--)
			for (x = 0; x < bd->width; x++)
				if (x < rules_row_first(bd, y) || x >= rules_row_first(bd, y) + rules_row_len(bd, y))
					strbuf_printf(&b, "[%c%c]", 'a' + x, 'a' + bd->width - 1 - y);
		strbuf_puts(&b, "\n");
	}
	snprintf(num, sizeof(num), "%ld", g->board);
	put_prop(&b, "OUSTBOARD", num);
	if (bd->shape == RULES_HEX)
		put_prop(&b, "OUSTSHAPE", "hex");
	put_prop(&b, "OUSTSWAP", g->swap ? "on" : "off");
	put_prop(&b, "OUSTCREATED", gamefile_time_str(g->created, tbuf));
	put_prop(&b, "OUSTLASTMOVE", gamefile_time_str(g->last_move, tbuf));
	if (g->remind > 0)
		put_prop(&b, "OUSTREMIND", gamefile_time_str(g->remind, tbuf));
	if (g->thread[0] != '\0')
		put_prop(&b, "OUSTTHREAD", g->thread);
	if (g->robot_level > 0) {
		snprintf(num, sizeof(num), "%d", g->robot_level);
		put_prop(&b, "OUSTROBOTLEVEL", num);
	}
	strbuf_puts(&b, "\n");

	for (i = 0, k = 0; i < s.n; i++) {
		const struct step *st = &s.v[i];
		const struct game_turn *t = &g->turns[st->turn];

		/* the notes before this turn, a node each (game.h: they stand between the turns) */
		for (; st->first && k < g->nnotes && g->notes[k].after < t->number; k++)
			note_node(&b, g, &g->notes[k]);
		strbuf_puts(&b, ";");
		if (st->first) {
			strbuf_printf(&b, "OUSTTURN[%d %s %c %s", t->number, gamefile_time_str(t->time, tbuf),
			    t->color == RULES_BLACK ? 'x' : 'o', t->player);
			if (t->action != GAME_PLACE)
				strbuf_printf(&b, " %s", game_action_str(t->action));
			strbuf_puts(&b, "]");
		}
		if (st->point != RULES_NO_POINT) {
			sgf_point_name(bd, st->point, pt);
			strbuf_printf(&b, "%s[%s]", st->color == RULES_BLACK ? "AB" : "AW", pt);
		}
		if (st->nremoved > 0) {
			strbuf_puts(&b, "AE");
			for (j = 0; j < st->nremoved; j++) {
				sgf_point_name(bd, s.removed[st->removed + (size_t)j], pt);
				strbuf_printf(&b, "[%s]", pt);
			}
		}
		node_comment(&c, g, st, black0, white0);
		if (c.len > 0 && !c.failed)
			put_prop(&b, "C", c.s);
		if (c.failed)
			b.failed = true;
		strbuf_release(&c);
		strbuf_puts(&b, "\n");
	}
	for (; k < g->nnotes; k++)
		note_node(&b, g, &g->notes[k]);
	strbuf_puts(&b, ")\n");
	ret = GAME_NO_MEMORY;
	*len = b.len;
	text = strbuf_finish(&b);
	if (text == NULL) {
		*len = 0;
		goto out;
	}
	*out = text;
	ret = GAME_OK;
out:
	strbuf_release(&b);
	strbuf_release(&c);
	sgf_steps_release(&s);
	free(r);
	return ret;
}
