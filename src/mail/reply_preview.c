/* reply_preview: the preview of placements on a board or a study board (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/board.h"
#include "game/rules.h"
#include "game/review.h"

/*
 * The legal placements opts[0..n) of colour c on b: the capturing ones
 * first, each with what it takes (with stones: which, else how many), then
 * the others; "none" when there are none.
 */
void reply_preview_legal(struct text *t, const struct rules_board *b, enum rules_color c,
    const struct preview_option *opts, int n, bool stones)
{
	struct rules_board *scratch = NULL;
	int *taken = NULL, i, k, ncaps = 0, shown = 0;
	char name[4];

	for (i = 0; i < n; i++)
		ncaps += opts[i].captured > 0;
	if (n == 0) {
		tputs(t, "  none\n");
		return;
	}
	if (stones) {
		scratch = malloc(sizeof *scratch);
		taken = malloc(RULES_MAX_POINTS * sizeof *taken);
		if (scratch == NULL || taken == NULL) {
			t->b.failed = true;
			goto out;
		}
	}
	if (ncaps > 0)
		tprintf(t, "  capturing (%d; after each, place again):\n", ncaps);
	for (i = 0; i < n; i++) {
		if (opts[i].captured == 0)
			continue;
		if (shown++ == REPLY_OPTIONS_MAX) {
			tprintf(t, "    and %d more\n", ncaps - REPLY_OPTIONS_MAX);
			break;
		}
		tprintf(t, "    %s takes ", rules_point_name(b, opts[i].point, name));
		if (stones) {
			k = reply_text_taken_by(b, c, opts[i].point, scratch, taken);
			reply_text_points(t, b, taken, k);
			tputs(t, "\n");
		} else {
			tprintf(t, "%d stone%s\n", opts[i].captured, reply_text_plural(opts[i].captured));
		}
	}
	if (n > ncaps) {
		struct text line = { 0 };
		char *s;

		tprintf(&line, "  not capturing (%d; each ends the turn):", n - ncaps);
		for (i = 0; i < n; i++)
			if (opts[i].captured == 0)
				tprintf(&line, " %s", rules_point_name(b, opts[i].point, name));
		s = tfinish(&line);
		if (s == NULL) {
			t->b.failed = true;
			goto out;
		}
		/* wrapped under its list (reply_wrap keeps the indent) */
		reply_wrap_line(t, s, strlen(s), 4);
		tputs(t, "\n");
		free(s);
	}
out:
	free(scratch);
	free(taken);
}

/* Why placement i of pv was refused, one sentence without its period. */
static void preview_why(const struct reply_preview *pv, int i, char *buf, size_t size)
{
	const struct preview_step *s = &pv->p->steps[i];
	const char *name = pv->names[i];

	switch (pv->p->why) {
	case PREVIEW_OFF_BOARD:
		rules_offboard_why(pv->board, name, (int)strlen(name), buf, size);
		return;
	case PREVIEW_AFTER_END:
		snprintf(buf, size, "%s comes after the turn ended with %s: only a capture lets a player place "
		    "again", name, pv->names[i - 1]);
		return;
	case PREVIEW_RULES:
		break;
	}
	switch (s->check.verdict) {
	case RULES_OCCUPIED:
		snprintf(buf, size, "%s is occupied", name);
		break;
	case RULES_NO_ENEMY:
		snprintf(buf, size, "%s would join %s's stones into a group of %d that touches no enemy stone: "
		    "a placement next to one's own stones must capture", name, pv->who, s->check.new_group);
		break;
	case RULES_NOT_LARGER:
		snprintf(buf, size, "%s would make a group of %d, not larger than the enemy group of %d it "
		    "touches: a capturing group must be larger than every enemy group it touches", name,
		    s->check.new_group, s->check.largest_enemy);
		break;
	default:
		snprintf(buf, size, "%s: %s", name, rules_verdict_str(s->check.verdict));
		break;
	}
}

/* The steps of a preview: each placement, the board after a capture and at the end. */
static void preview_steps(struct text *t, const struct reply_preview *pv)
{
	const struct preview *p = pv->p;
	char why[400], *kept;
	int i;

	for (i = 0; i < p->nsteps; i++) {
		const struct preview_step *s = &p->steps[i];

		if (p->outcome == PREVIEW_ILLEGAL && i == p->nsteps - 1) {
			preview_why(pv, i, why, sizeof why);
			tprintf(t, "%d. %s: illegal (see below).\n\n", i + 1, pv->names[i]);
			break;
		}
		if (s->captured > 0) {
			tprintf(t, "%d. %s captures %d stone%s: ", i + 1, pv->names[i], s->captured,
			    reply_text_plural(s->captured));
			reply_text_points(t, pv->board, s->taken, s->ntaken);
			tputs(t, p->last.result != RULES_PLAYING && i == p->nsteps - 1 ? "; the last of them.\n" :
			    i == p->nsteps - 1 && p->outcome == PREVIEW_COMPLETE ?
			    "; no placement is left, the turn ends.\n" : "; place again.\n");
		} else {
			tprintf(t, "%d. %s does not capture: the turn ends.\n", i + 1, pv->names[i]);
		}
		if (s->drawing[0] != '\0') {
			kept = reply_verbatim(s->drawing);
			if (kept == NULL) {
				t->b.failed = true;
				return;
			}
			tprintf(t, "\n%s", kept);
			free(kept);
		}
		tputs(t, "\n");
	}
}

enum mail_status reply_preview(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_preview *pv, struct reply_mail *out)
{
	const struct preview *p = pv->p;
	const struct game *g = pv->g;
	/* the title quotes the whole list: room for it beside the rest */
	char subject[200], title[REPLY_PLACEMENTS_MAX + 400], verdict[800], why[400];
	char dims[GAME_DIMENSIONS_SIZE], list[REPLY_PLACEMENTS_MAX];
	struct text steps = { 0 }, legal = { 0 }, send = { 0 };
	char *steps_s = NULL, *legal_s = NULL, *send_s = NULL, *start = NULL;
	struct reply_parts rp = { .tmpl = "preview", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name, .g = g };
	enum mail_status st = MAIL_NOMEM;
	size_t used = 0;
	int i, last = p->nsteps - (p->outcome == PREVIEW_ILLEGAL);

	list[0] = '\0';
	for (i = 0; i < pv->n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? "," : "", pv->names[i]);
	if (g != NULL) {
		snprintf(subject, sizeof subject, "Oust Board %ld preview", g->board);
		snprintf(title, sizeof title, "A preview of turn %d on board %ld (%s)%s: %s (%s, %c) places %s. "
		    "Nothing is played.", pv->turn, g->board, game_dimensions(g, false, dims),
		    pv->past ? ", from the position before it in the board's history" : "", pv->who,
		    reply_text_colour_name(p->color), reply_text_symbol(p->color), list);
	} else {
		snprintf(subject, sizeof subject, "Oust preview");
		if (pv->board->shape == RULES_HEX)
			snprintf(dims, sizeof dims, "hex side %d", pv->board->size);
		else
			snprintf(dims, sizeof dims, "%dx%d", pv->board->size, pv->board->size);
		snprintf(title, sizeof title, "A preview on an empty %s study board: Black (x) places %s.", dims, list);
	}
	switch (p->outcome) {
	case PREVIEW_COMPLETE:
		used = (size_t)snprintf(verdict, sizeof verdict, "The turn would be complete");
		if (p->captured > 0)
			used += (size_t)snprintf(verdict + used, sizeof verdict - used, ", capturing %d stone%s",
			    p->captured, reply_text_plural(p->captured));
		if (p->last.result == RULES_DRAW)
			snprintf(verdict + used, sizeof verdict - used, ", and the game would be drawn: neither side "
			    "could place.");
		else if (p->last.result != RULES_PLAYING)
			snprintf(verdict + used, sizeof verdict - used, ", and %s would win: no enemy stone left.",
			    pv->who);
		else if (p->last.npasses > 0)
			snprintf(verdict + used, sizeof verdict - used, "; %s would have no legal placement and pass, "
			    "so %s would move again.", pv->next_who, pv->who);
		else
			snprintf(verdict + used, sizeof verdict - used, "; %s would move next.", pv->next_who);
		break;
	case PREVIEW_ILLEGAL:
		preview_why(pv, p->nsteps - 1, why, sizeof why);
		snprintf(verdict, sizeof verdict, "The turn would be illegal at placement %d, %s: %s. A move with "
		    "these placements would be refused.", p->nsteps, pv->names[p->nsteps - 1], why);
		break;
	case PREVIEW_UNFINISHED:
		snprintf(verdict, sizeof verdict, "The turn would be unfinished: after the capture at %s, %s must "
		    "place again.", pv->names[last - 1], pv->who);
		break;
	}
	preview_steps(&steps, pv);
	if (p->outcome == PREVIEW_COMPLETE && p->last.result != RULES_PLAYING)
		tputs(&legal, "None: the game would be over.\n");
	else {
		tprintf(&legal, "The legal placements of %s %s:\n",
		    p->legal_color == p->color ? pv->who : pv->next_who,
		    p->outcome == PREVIEW_COMPLETE ? "after the turn" : p->outcome == PREVIEW_ILLEGAL ?
		    "before that placement" : "now");
		reply_preview_legal(&legal, pv->board, p->legal_color, p->legal, p->nlegal, false);
	}
	if (g != NULL && !pv->past && p->outcome == PREVIEW_COMPLETE)
		tprintf(&send, "To play it, send:\n\n    move %ld#%d %s <password> %s\n\n", g->board, pv->turn,
		    pv->who, list);
	start = reply_verbatim(p->drawing_start);
	steps_s = tfinish(&steps);
	legal_s = tfinish(&legal);
	send_s = tfinish(&send);
	if (steps_s == NULL || legal_s == NULL || send_s == NULL || start == NULL)
		goto out;
	var(&rp.vs, "title", title);
	var(&rp.vs, "start", start);
	var(&rp.vs, "steps", steps_s);
	var(&rp.vs, "verdict", verdict);
	var(&rp.vs, "legal", legal_s);
	var(&rp.vs, "send", send_s);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(start);
	free(steps_s);
	free(legal_s);
	free(send_s);
	return st;
}
