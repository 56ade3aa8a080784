/* reply_clock: what the replies say of a board's clocks, and the deadline warning (reply.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tzone.h"
#include "game/board.h"
#include "game/gameclock.h"
#include "mail/reply.h"
#include "mail/reply_int.h"

void reply_set_clock(struct reply_ctx *rc, const struct reply_clock *c)
{
	memset(&rc->clock, 0, sizeof rc->clock);
	if (c != NULL)
		rc->clock = *c;
}

/* The reader's time zone into zone: theirs (rc->clock.zone_of), else UTC. */
static void reader_zone(struct reply_ctx *rc, const char *reader, char *zone, size_t size)
{
	snprintf(zone, size, "%s", TZONE_DEFAULT);
	if (reader == NULL && rc->clock.viewer[0] != '\0')
		reader = rc->clock.viewer;
	if (reader != NULL && rc->clock.zone_of != NULL)
		rc->clock.zone_of(rc->clock.zone_ctx, reader, zone, size);
}

void reply_clock_text(struct reply_ctx *rc, const struct game *g, const char *reader, struct text *t)
{
	const char *who = game_player_to_move(g);
	char zone[TZONE_NAME_MAX + 1], when[TZONE_STR_SIZE], back[TZONE_STR_SIZE], b[64], w[64], inc[64], cap[64];
	char spec[GAMECLOCK_SPEC_SIZE];
	bool you = reader != NULL && strcmp(reader, who) == 0;
	int64_t left = rc->clock.left[g->rg.to_move == RULES_WHITE ? 1 : 0];

	reader_zone(rc, reader, zone, sizeof zone);
	reply_text_duration(rc->clock.left[0], b, sizeof b);
	reply_text_duration(rc->clock.left[1], w, sizeof w);
	reply_text_duration(g->clock_inc, inc, sizeof inc);
	reply_text_duration(g->clock_cap, cap, sizeof cap);
	gameclock_spec(g->clock_base, g->clock_inc, g->clock_cap, spec, sizeof spec);
	tprintf(t, "Clocks (%s: %s more a turn, at most %s): %s (x) %s, %s (o) %s.\n", spec,
	    g->clock_inc > 0 ? inc : "nothing", cap, g->black, b, g->white, w);
	if (g->weekends)
		tprintf(t, "They stop at weekends (Saturday 00:00 to Monday 00:00 where the player to move lives).\n");
	if (rc->away.userid[0] != '\0' && strcmp(rc->away.userid, who) == 0 && rc->away.now) {
		tzone_str(rc->away.end, zone, back, sizeof back);
		tprintf(t, "%s away until %s (vacation): the clock stands still until then.\n", you ? "You are" : who,
		    back);
	}
	tzone_str(rc->clock.runs_out, zone, when, sizeof when);
	reply_text_duration(left, b, sizeof b);
	if (you)
		tprintf(t, "You have %s to move, until %s: then the game is lost on time.\n", b, when);
	else
		tprintf(t, "%s has %s to move, until %s.\n", who, b, when);
}

enum mail_status reply_warning(struct reply_ctx *rc, const struct game *g, const struct reply_player *to,
    const struct reply_warn *w, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[300], board[24], turn[16], tap_turn[16], mark[32], left[64];
	char until[TZONE_STR_SIZE], dims[GAME_DIMENSIONS_SIZE], id_user[GAME_NAME_SIZE + 16];
	char *next = NULL, *hist = NULL, intro[400];
	struct html_mail hm = { .title = subject, .intro = intro, .upto = g->nturns, .next = true };
	/* its own Message-ID: <101.7.bob.warnH.T@domain>, threaded under the board */
	struct reply_parts rp = { .tmpl = "warn", .subject = subject, .to_addr = to->address,
	    .to_name = to->fullname, .g = g, .hm = &hm, .id_board = g->board, .id_turn = g->nturns,
	    .id_user = id_user };
	enum mail_status st = MAIL_NOMEM;

	board_render_game(g, drawing);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(turn, sizeof turn, "%d", g->rg.turn);
	if (w->mark % 24 == 0)
		snprintf(mark, sizeof mark, "%d day%s", w->mark / 24, w->mark == 24 ? "" : "s");
	else
		snprintf(mark, sizeof mark, "%d hour%s", w->mark, w->mark == 1 ? "" : "s");
	reply_text_duration(w->left, left, sizeof left);
	tzone_str(w->runs_out, w->zone, until, sizeof until);
	snprintf(subject, sizeof subject, "Oust Board %ld warning %s #%d", g->board, to->userid, g->rg.turn);
	/* the player's reply token: a reply with the turn plays it, the board's points are tap links */
	if (to->token != NULL && to->token[0] != '\0') {
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " [%s]", to->token);
		snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
		hm.tap_subject = subject;
		hm.tap_turn = tap_turn;
	}
	snprintf(id_user, sizeof id_user, "%s.warn%d", to->userid, w->mark);
	snprintf(intro, sizeof intro, "Your clock on board %ld has %s left: less than %s.\nIf you have not played by "
	    "%s, you lose the game on time.", g->board, left, mark, until);
	next = reply_text_next(g);
	hist = reply_text_history(g, REPLY_RECENT, false);
	if (next == NULL || hist == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "turn", turn);
	var(&rp.vs, "userid", to->userid);
	var(&rp.vs, "mark", mark);
	var(&rp.vs, "tap", hm.tap_subject != NULL ? "Reply to this mail with your turn (its Subject stands for your\n"
	    "password), or tap a point of the board.\n" : "");
	var(&rp.vs, "left", left);
	var(&rp.vs, "until", until);
	var(&rp.vs, "next", next);
	var(&rp.vs, "drawing", drawing);
	var(&rp.vs, "recent", hist);
	hm.recent = hist;
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(next);
	free(hist);
	return st;
}
