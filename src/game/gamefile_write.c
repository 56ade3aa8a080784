/* gamefile: the writer, a game in the canonical form of its file. */
#include "game/gamefile.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/board.h"
#include "game/gamefile_int.h"

#define HEADER_COMMENT "# Oust game file (oustpbm). Oust, by Mark Steere. Format: games/README.md"

static int turn_captured(const struct game_turn *e, const struct game_captures *gc)
{
	int i, n = 0;

	for (i = 0; gc != NULL && e->action == GAME_PLACE && i < e->npoints; i++)
		n += gc->n[e->first + (size_t)i];
	return n;
}

/*
 * "captured:A1+B2,-": for each placement of turn e, the stones it took
 * joined by '+', or '-', into s (room for CAPTURED_LEN + 2 per placement
 * + 5 per stone taken + 1); "" when the turn took nothing.  Returns the
 * length.
 */
static size_t captured_field(const struct game *g, const struct game_turn *e, const struct game_captures *gc,
    char *s)
{
	char name[4];
	size_t n = 0, idx, k;
	int i, j;

	s[0] = '\0';
	if (turn_captured(e, gc) == 0)
		return 0;
	memcpy(s, CAPTURED, CAPTURED_LEN), n += CAPTURED_LEN;
	for (i = 0; i < e->npoints; i++) {
		idx = e->first + (size_t)i;
		if (i > 0)
			s[n++] = ',';
		if (gc->n[idx] == 0)
			s[n++] = '-';
		for (j = 0; j < gc->n[idx]; j++) {
			if (j > 0)
				s[n++] = '+';
			rules_point_name(&g->rg.board, gc->stones[gc->first[idx] + (size_t)j], name);
			k = strlen(name);
			memcpy(s + n, name, k), n += k;
		}
	}
	s[n] = '\0';
	return n;
}

/* ---- formatting ---- */

char *gamefile_note_text(const struct game_note *e, char buf[GAMEFILE_NOTE_SIZE])
{
	char t[GAMEFILE_TIME_SIZE];
	int n;

	n = snprintf(buf, GAMEFILE_NOTE_SIZE, "- %s %c %s %s", gamefile_time_str(e->time, t),
	    e->color == RULES_BLACK ? 'x' : 'o', e->player, game_note_str(e->kind));
	if (e->kind == GAME_NOTE_ACCEPT && e->undo)
		snprintf(buf + n, GAMEFILE_NOTE_SIZE - (size_t)n, " undo:%d", e->undo_from);
	else if (e->kind == GAME_NOTE_ACCEPT || e->kind == GAME_NOTE_REJECT)
		snprintf(buf + n, GAMEFILE_NOTE_SIZE - (size_t)n, " %s", e->undo ? "undo" : "draw");
	return buf;
}

/* The note line "- 2026-11-21T19:02:11Z o bob accept undo:7" onto b. */
static void note_line(struct strbuf *b, const struct game_note *e)
{
	char s[GAMEFILE_NOTE_SIZE];

	strbuf_printf(b, "%s\n", gamefile_note_text(e, s));
}

/*
 * One history line "12 2026-11-21T18:45:00Z x alice E5,F5" into s, with
 * what the placements captured when gc is given and they took any;
 * returns its length.
 */
static size_t entry_line(const struct game *g, const struct game_turn *e, const struct game_captures *gc,
    char *s)
{
	const int *pts = game_turn_points(g, e);
	char num[12], name[4];
	size_t n = 0, k;
	int i, v = e->number;

	k = sizeof(num);
	do {
		num[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	memcpy(s, num + k, sizeof(num) - k), n += sizeof(num) - k;
	s[n++] = ' ';
	gamefile_time_str(e->time, s + n), n += GAMEFILE_TIME_SIZE - 1;
	s[n++] = ' ';
	s[n++] = e->color == RULES_BLACK ? 'x' : 'o';
	s[n++] = ' ';
	k = strlen(e->player);
	memcpy(s + n, e->player, k), n += k;
	s[n++] = ' ';
	if (e->action != GAME_PLACE) {
		k = strlen(game_action_str(e->action));
		memcpy(s + n, game_action_str(e->action), k), n += k;
	}
	for (i = 0; e->action == GAME_PLACE && pts != NULL && i < e->npoints; i++) {
		if (i > 0)
			s[n++] = ',';
		rules_point_name(&g->rg.board, pts[i], name);
		k = strlen(name);
		memcpy(s + n, name, k), n += k;
	}
	if (turn_captured(e, gc) > 0) {
		s[n++] = ' ';
		n += captured_field(g, e, gc, s + n);
	}
	s[n++] = '\n';
	return n;
}

/* "observers: carol dave\n" (results false) or "notify: erin\n"; nothing when there are none. */
static void observers_line(struct strbuf *b, const struct game *g, bool results)
{
	const char *key = results ? "notify:" : "observers:";
	int i;

	for (i = 0; i < g->nobservers; i++) {
		if (g->observers[i].results != results)
			continue;
		strbuf_printf(b, "%s %s", key, g->observers[i].userid);
		key = "";
	}
	if (key[0] == '\0')
		strbuf_printf(b, "\n");
}

enum game_status gamefile_format(const struct game *g, char **out, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	char t[GAMEFILE_TIME_SIZE], board[BOARD_TEXT_MAX];
	const struct game_turn *e;
	struct game_captures gc;
	bool have_gc;
	size_t n;
	int i, k = 0;

	assert((g->rg.result == RULES_PLAYING) == (g->end == GAME_END_NONE));
	*out = NULL;
	*len = 0;
	if (!strbuf_reserve(&b, 4096 + (size_t)g->nturns * 64 + g->npoints * 4))
		return GAME_NO_MEMORY;
	strbuf_printf(&b, "%s\n", HEADER_COMMENT);
	strbuf_printf(&b, "board: %ld\n", g->board);
	/* A square board says nothing of its shape: files from before hex boards stay as they were. */
	if (g->shape == RULES_HEX)
		strbuf_printf(&b, "shape: hex\n");
	strbuf_printf(&b, "size: %d\nswap: %s\n", g->size, g->swap ? "on" : "off");
	strbuf_printf(&b, "black: %s\nwhite: %s\n", g->black, g->white);
	strbuf_printf(&b, "status: %s\n", gamefile_status_names[g->rg.result]);
	if (g->rg.result == RULES_PLAYING)
		strbuf_printf(&b, "to-move: %s\n", rules_color_name(g->rg.to_move));
	else
		strbuf_printf(&b, "end: %s\n", gamefile_end_names[g->end]);
	strbuf_printf(&b, "turn: %d\n", g->nturns + 1);
	strbuf_printf(&b, "created: %s\n", gamefile_time_str(g->created, t));
	strbuf_printf(&b, "last-move: %s\n", gamefile_time_str(g->last_move, t));
	if (g->remind != 0 && g->rg.result == RULES_PLAYING)
		strbuf_printf(&b, "remind: %s\n", gamefile_time_str(g->remind, t));
	if (g->thread[0] != '\0')
		strbuf_printf(&b, "thread: %s\n", g->thread);
	if (g->robot_level != 0)
		strbuf_printf(&b, "robot-level: %d\n", g->robot_level);
	if (g->unrated)
		strbuf_printf(&b, "rated: no\n");
	if (g->tournament != 0)
		strbuf_printf(&b, "tournament: T%u\n", g->tournament);
	if (g->opened)
		strbuf_printf(&b, "open-challenge: yes\n");
	observers_line(&b, g, false);
	observers_line(&b, g, true);
	if (g->remind_days != 0)
		strbuf_printf(&b, "remind-days: %d\n", g->remind_days);
	if (g->timeout_days != 0)
		strbuf_printf(&b, "timeout-days: %d\n", g->timeout_days);
	gamefile_clock_write(g, &b);
	if (g->pending[0] != '\0' && g->rg.result == RULES_PLAYING) {
		strbuf_printf(&b, "pending: ");
		strbuf_add(&b, g->pending, strlen(g->pending));
		strbuf_add(&b, "\n", 1);
	}
	if (g->queue_owner[0] != '\0' && g->rg.result == RULES_PLAYING) {
		strbuf_printf(&b, "queue: %s ", g->queue_owner);
		strbuf_add(&b, g->queue, strlen(g->queue));
		strbuf_add(&b, "\n", 1);
	}
	n = board_render_game(g, board);
	strbuf_add(&b, "\n", 1);
	strbuf_add(&b, board, n);
	strbuf_add(&b, "\nhistory:\n", 10);
	/* a history that does not replay (an admin's edit) is written without its captures */
	have_gc = game_captures(g, &gc) == GAME_OK;
	for (i = 0; i < g->nturns; i++) {
		/* the notes stand between the turns: after turn `after` */
		for (; k < g->nnotes && g->notes[k].after <= i; k++)
			note_line(&b, &g->notes[k]);
		e = &g->turns[i];
		assert(e->action != GAME_PLACE || (e->npoints > 0 && e->npoints <= RULES_MAX_POINTS));
		/* 7 digits, time, colour, 32-character name, action: under 96 bytes; then the captures */
		if (strbuf_reserve(&b, 96 + 4 * (size_t)e->npoints + (have_gc ? CAPTURED_LEN + 2 * (size_t)e->npoints +
		    5 * (size_t)turn_captured(e, &gc) + 1 : 0)))
			b.len += entry_line(g, e, have_gc ? &gc : NULL, b.s + b.len);
	}
	for (; k < g->nnotes; k++)
		note_line(&b, &g->notes[k]);
	if (have_gc)
		game_captures_release(&gc);
	/* entry_line() writes into the room reserved, without the NUL */
	if (!b.failed)
		b.s[b.len] = '\0';
	n = b.len;
	*out = strbuf_finish(&b);
	if (*out == NULL)
		return GAME_NO_MEMORY;
	*len = n;
	return GAME_OK;
}
