/* reply_board: the mails about a board: a turn, show, reminders, history, SGF, reviews, chat (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/board.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "game/review.h"
#include "game/sgf.h"
#include "mail/tap.h"

/* ---- the replies ---- */

/*
 * web_url set: a mail about a board ends with the address of the board's
 * page (web.h: board/<id>.html under the site).  *body (or given, when the
 * body is not from a template) is replaced by the text with the line added.
 */
enum mail_status reply_board_web_link(struct reply_ctx *rc, const struct game *g, char **body, const char *given)
{
	const char *text = *body != NULL ? *body : given, *url = rc->cfg->web_url;
	size_t n;
	char *out = NULL;

	if (text == NULL)
		return MAIL_OK;
	n = strlen(text);
	if (asprintf(&out, "%s%s\nThe board on the web: %s%sboard/%ld.html\n", text,
	    n > 0 && text[n - 1] != '\n' ? "\n" : "", url, url[strlen(url) - 1] == '/' ? "" : "/", g->board) < 0) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return MAIL_NOMEM;
	}
	free(*body);
	*body = out;
	return MAIL_OK;
}

enum mail_status reply_game(struct reply_ctx *rc, const struct game *g, const struct reply_event *ev,
    const struct reply_player *to, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], board[24], size[8], turn[16], result[200], days[16], day_count[32];
	char dims[GAME_DIMENSIONS_SIZE], tap_turn[24];
	char *happened = NULL, *comment = NULL, *next = NULL, *hist = NULL;
	char *options = NULL, *next_html = NULL, *rematch = NULL, *last_turns = NULL, *intro = NULL, *again = NULL;
	struct html_mail hm = { .title = subject, .upto = g->nturns, .next = true };
	struct reply_parts rp = { .subject = subject, .to_addr = to->address, .to_name = to->fullname, .g = g,
	    .hm = &hm, .id_board = g->board, .id_turn = g->nturns, .id_user = to->userid };
	enum mail_status st = MAIL_NOMEM;
	bool observer = to->role != REPLY_ROLE_PLAYER;
	struct unsub unsub;

	reply_text_unsub_make(rc, g, to, &unsub);
	if (unsub.header[0] != '\0')
		rp.list_unsubscribe = unsub.header;
	board_render_game(g, drawing);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	snprintf(turn, sizeof turn, "%d", g->rg.turn);
	/*
	 * One Subject for the whole game (issue 40: clients that thread by
	 * Subject split a game whose Subject changed every turn): the board and
	 * its players, and the player's reply token (mail/token.h), which is
	 * constant per player and board.  The turn a reply answers is its
	 * In-Reply-To's (the Message-ID holds it), or a tapped link's body's.
	 */
	reply_text_game_subject(g, subject, sizeof subject);
	if (to->token != NULL && to->token[0] != '\0' && !observer && !game_is_open(g)) {
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " [%s]", to->token);
		if (!game_over(g) && strcmp(game_player_to_move(g), to->userid) == 0) {
			hm.tap_subject = subject;
			if (ev->part > 0)
				snprintf(tap_turn, sizeof tap_turn, "#%d.%d", g->rg.turn, ev->part);
			else
				snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
			hm.tap_turn = tap_turn;
		}
	}
	rp.id_part = ev->part;
	happened = reply_text_happened(g, ev);
	/* the players' words are for each other: an observer reads the board, not them */
	comment = observer ? strdup("") : reply_text_comment(ev, to->userid);
	if (happened == NULL || comment == NULL)
		goto out;
	if (ev->note != NULL && ev->note_to != NULL && strcmp(ev->note_to, to->userid) == 0) {
		/* for that player alone: the other one never learns what was queued */
		char *more = malloc(strlen(happened) + strlen(ev->note) + 2);

		if (more == NULL)
			goto out;
		sprintf(more, "%s%s\n", happened, ev->note);
		free(happened);
		happened = more;
	}
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "happened", happened);
	var(&rp.vs, "comment", comment);
	var(&rp.vs, "drawing", drawing);
	var(&rp.vs, "ratings", ev->ratings != NULL ? ev->ratings : "");
	if (game_over(g)) {
		reply_text_result(g, result, sizeof result);
		hist = reply_text_history(g, 0, true);
		if (observer) {
			rematch = reply_text_observing(g, to, &unsub);
		} else if (ev->closed) {
			/* no challenge to an account that is gone */
			rematch = malloc(strlen(ev->actor) + 64);
			if (rematch != NULL)
				sprintf(rematch, "There is no return game: %s closed the account.\n", ev->actor);
		} else {
			rematch = reply_text_rematch(g, to->userid);
			if (rematch != NULL && rematch[0] != '\0' && to->token != NULL && to->token[0] != '\0') {
				/*
				 * One tap each (issue 40): the return game and the review by
				 * reply, the Subject's token standing for the password (the
				 * return game of this board only: keywords/challenge.c)
				 */
				struct text t = { 0 };
				size_t from;

				again = reply_text_rematch_by_token(g, to->userid);
				if (again == NULL)
					goto out;
				tprintf(&t, "%s\nOr reply to this mail with this line alone (its Subject stands for your "
				    "password):\n\n    ", rematch);
				from = t.b.len;
				tputs(&t, again);
				tglue_from(&t, from);	/* to be copied: never wrapped */
				tprintf(&t, "\n\nFor the robot's review of the game, reply with: review %ld\n", g->board);
				free(rematch);
				rematch = tfinish(&t);
				hm.end_subject = subject;
				hm.end_challenge = again;
			}
		}
		if (hist == NULL || rematch == NULL)
			goto out;
		var(&rp.vs, "result", result);
		var(&rp.vs, "history", hist);
		var(&rp.vs, "rematch", rematch);
		hm.next_body = rematch;	/* the HTML shows it too */
		if (ev->what == REPLY_TIMEOUT) {
			/* the time-loss wording is its own template */
			snprintf(days, sizeof days, "%d", ev->days);
			snprintf(day_count, sizeof day_count, "%d day%s", ev->days, ev->days == 1 ? "" : "s");
			var(&rp.vs, "loser", ev->actor);
			var(&rp.vs, "days", days);
			var(&rp.vs, "day_count", day_count);
			rp.tmpl = "timeout";
		} else {
			rp.tmpl = "end";
		}
	} else {
		next = reply_text_with_time_left(rc, g, observer ? NULL : to->userid,
		    observer ? reply_text_observer_next(g, ev, to, &unsub) : reply_text_next_for(g, ev, to->userid));
		if (next != NULL && hm.tap_subject != NULL) {
			char *more = malloc(strlen(next) + 200);

			if (more != NULL)
				sprintf(more, "%s\nOr reply to this mail with your placements alone (%s):\n"
				    "its Subject stands for your password.\n", next,
				    g->shape == RULES_HEX ? "d4, or c3,e5" : "D4, or D3,F6");
			free(next);
			next = more;
		}
		options = observer ? strdup("") : reply_text_options(g, to->userid);
		hist = reply_text_history(g, REPLY_RECENT, false);
		if (next == NULL || options == NULL || hist == NULL)
			goto out;
		var(&rp.vs, "turn", turn);
		var(&rp.vs, "swap", g->swap ? "on" : "off");
		var(&rp.vs, "next", next);
		var(&rp.vs, "options", options);
		/* a new board has no turns to list: the section is left out */
		last_turns = g->nturns > 0 ? malloc(strlen(hist) + 20) : strdup("");
		if (last_turns == NULL)
			goto out;
		if (g->nturns > 0)
			sprintf(last_turns, "Last turns:\n%s\n", hist);
		var(&rp.vs, "last_turns", last_turns);
		var(&rp.vs, "recent", hist);
		rp.tmpl = "game";
	}
	hm.intro = happened;
	hm.ratings = ev->ratings;
	if (ev->notice != NULL && ev->notice[0] != '\0') {
		/* the server's words go with what happened, not as a player's comment */
		intro = malloc(strlen(happened) + strlen(ev->notice) + 2);
		if (intro == NULL)
			goto out;
		sprintf(intro, "%s\n%s", happened, ev->notice);
		hm.intro = intro;
	} else if (ev->comment != NULL && strcmp(to->userid, ev->actor) != 0 && !observer) {
		hm.comment_by = ev->actor;
		hm.comment = ev->comment;
	}
	if (next != NULL) {
		/* the reader's own words and options, as in the text */
		next_html = malloc(strlen(next) + strlen(options) + 2);
		if (next_html == NULL)
			goto out;
		sprintf(next_html, "%s%s%s", next, options[0] != '\0' ? "\n" : "", options);
		if (options[0] != '\0')
			next_html[strlen(next_html) - 1] = '\0';	/* the blank line after the options */
		hm.next_body = next_html;
	}
	hm.recent = hist;
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(happened);
	free(comment);
	free(next);
	free(options);
	free(next_html);
	free(rematch);
	free(again);
	free(intro);
	free(last_turns);
	free(hist);
	return st;
}

/*
 * Where a turn refused in its middle stopped (reply_error, r->stop): the
 * placements made before the refusal with what each captured, the board
 * there (this turn's stones in upper case), and what may follow: the
 * placements open there, or, when the turn was already over, the command
 * that plays it up to its end.  Plain text, the drawing kept as it is
 * (REPLY_VERBATIM) unless plain; NULL when out of memory.
 */
char *reply_board_stop(const struct game *g, const struct reply_stop *stop, bool plain)
{
	struct rules_game *rg = NULL;
	struct rules_board *b = NULL;	/* b[0] before a placement, b[1] scratch */
	struct place_xy *caps = NULL, *others = NULL;
	uint16_t *legal = NULL;
	int *taken = NULL, i, n, k, q, ncaps = 0, nothers = 0;
	enum rules_color c = g->rg.to_move;
	const char *who = game_player_to_move(g);
	char drawing[BOARD_TEXT_MAX], name[4], *kept;
	struct text t = { 0 };
	struct rules_event ev;
	struct rules_check chk;

	rg = malloc(sizeof *rg);
	b = malloc(2 * sizeof *b);
	legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	taken = malloc(RULES_MAX_POINTS * sizeof *taken);
	caps = malloc(RULES_MAX_POINTS * sizeof *caps);
	others = malloc(RULES_MAX_POINTS * sizeof *others);
	if (rg == NULL || b == NULL || legal == NULL || taken == NULL || caps == NULL || others == NULL ||
	    who == NULL) {
		t.b.failed = true;
		goto out;
	}
	*rg = g->rg;
	tprintf(&t, "Where your turn stopped: after ");
	for (i = 0; i < stop->k; i++) {
		b[0] = rg->board;
		if (!rules_is_legal(rules_game_play(rg, stop->points[i], &ev))) {
			t.b.failed = true;	/* the rules refused what they reported as made */
			goto out;
		}
		for (n = 0, q = 0; q < b[0].ncells; q++)
			if (rules_at(&b[0], q) == RULES_OTHER(c) && rules_at(&rg->board, q) == RULES_EMPTY)
				taken[n++] = q;
		tprintf(&t, "%s%s", i > 0 ? ", then " : "", rules_point_name(&rg->board, stop->points[i], name));
		if (n > 0) {
			tputs(&t, " (capturing ");
			reply_text_points(&t, &rg->board, taken, n);
			tputs(&t, ")");
		} else {
			tputs(&t, " (capturing nothing)");
		}
	}
	tputs(&t, ". The board there, this turn's stones in upper case:\n\n");
	board_render(&rg->board, g->black, g->white, stop->points, stop->k, drawing);
	kept = plain ? strdup(drawing) : reply_verbatim(drawing);
	if (kept == NULL) {
		t.b.failed = true;
		goto out;
	}
	tputs(&t, kept);
	free(kept);
	tputs(&t, "\n");
	if (stop->ended) {
		/* the turn was over there: a win, a capture with no placement left, or no capture */
		rules_point_name(&rg->board, stop->points[stop->k - 1], name);
		if (rg->result == RULES_BLACK_WINS || rg->result == RULES_WHITE_WINS)
			tprintf(&t, "%s took the last of %s's stones: that wins the game, and the turn ends there. "
			    "To win, send the turn without the placements after it:\n\n    ", name,
			    game_player_of(g, RULES_OTHER(c)));
		else if (ev.dead_end)
			tprintf(&t, "Your turn ended with %s: after that capture no placement was left. To play the "
			    "turn up to there, send:\n\n    ", name);
		else
			tprintf(&t, "Your turn ended with %s: only a capture lets you place again. To play the turn "
			    "up to there, send:\n\n    ", name);
		n = (int)t.b.len;
		tprintf(&t, "move %ld#%d %s <password> ", g->board, g->rg.turn, who);
		for (i = 0; i < stop->k; i++)
			tprintf(&t, "%s%s", i > 0 ? "," : "", rules_point_name(&g->rg.board, stop->points[i], name));
		tglue_from(&t, (size_t)n);
		tputs(&t, "\n\n");
		goto out;
	}
	n = rules_legal(&rg->board, c, legal);
	for (i = 0; i < n; i++) {
		struct place_xy *to = rules_check(&rg->board, c, legal[i], &chk) == RULES_CAPTURE ?
		    &caps[ncaps++] : &others[nothers++];

		to->p = legal[i];
		to->x = rules_x(&rg->board, legal[i]);
		to->y = rules_y(&rg->board, legal[i]);
	}
	qsort(caps, (size_t)ncaps, sizeof *caps,
	    rg->board.shape == RULES_HEX ? reply_text_by_row : reply_text_by_column);
	qsort(others, (size_t)nothers, sizeof *others,
	    rg->board.shape == RULES_HEX ? reply_text_by_row : reply_text_by_column);
	tputs(&t, "There you place again.");
	if (ncaps > 0) {
		tprintf(&t, " Your capturing placement%s (after each you place again):\n", reply_text_plural(ncaps));
		for (i = 0; i < ncaps && i < REPLY_OPTIONS_MAX; i++) {
			k = reply_text_taken_by(&rg->board, c, caps[i].p, &b[1], taken);
			tprintf(&t, "  %s takes ", rules_point_name(&rg->board, caps[i].p, name));
			reply_text_points(&t, &rg->board, taken, k);
			tputs(&t, "\n");
		}
		if (ncaps > REPLY_OPTIONS_MAX)
			tprintf(&t, "  and %d more\n", ncaps - REPLY_OPTIONS_MAX);
	} else {
		tputs(&t, " No placement there captures.\n");
	}
	if (nothers > 0) {
		tprintf(&t, "%s placement%s that end%s the turn: ", ncaps > 0 ? "Or one of the" : "The",
		    reply_text_plural(nothers), nothers == 1 ? "s" : "");
		for (i = 0; i < nothers && i < REPLY_OPTIONS_MAX; i++)
			tprintf(&t, "%s%s", i > 0 ? ", " : "", rules_point_name(&rg->board, others[i].p, name));
		if (nothers > REPLY_OPTIONS_MAX)
			tprintf(&t, " and %d more", nothers - REPLY_OPTIONS_MAX);
		tputs(&t, ".\n");
	}
	tputs(&t, "\n");
out:
	free(rg);
	free(b);
	free(legal);
	free(taken);
	free(caps);
	free(others);
	return tfinish(&t);
}

enum mail_status reply_show_body(struct reply_ctx *rc, const struct game *g, int upto, const char *drawing,
    char **body)
{
	char now[BOARD_TEXT_MAX], status[200], title[400], dims[GAME_DIMENSIONS_SIZE], now_text[300];
	char *next = NULL, *hist = NULL;
	struct vars vs = { .n = 0 };
	enum mail_status st = MAIL_NOMEM;
	char board[24];

	*body = NULL;
	snprintf(board, sizeof board, "%ld", g->board);
	reply_text_status(g, status, sizeof status);
	if (drawing == NULL) {
		board_render_game(g, now);
		drawing = now;
		snprintf(title, sizeof title, "Oust board %ld (%s, swap %s): %s.", g->board,
		    game_dimensions(g, false, dims), g->swap ? "on" : "off", status);
		now_text[0] = '\0';
	} else {
		/* a past position: the present (and what to send now) is kept apart, at the end */
		snprintf(title, sizeof title, "Oust board %ld (%s, swap %s): the position after turn %d of %d.",
		    g->board, game_dimensions(g, false, dims), g->swap ? "on" : "off", upto, g->nturns);
		snprintf(now_text, sizeof now_text, "Board %ld now: %s. Send \"show %ld\" for the board as it is.\n\n",
		    g->board, status, g->board);
	}
	next = drawing == now ? reply_text_with_time_left(rc, g, NULL, reply_text_next(g)) : strdup("");
	if (next != NULL && next[0] != '\0') {
		/* a blank line after the command to send, none when there is none */
		char *more = realloc(next, strlen(next) + 2);

		if (more == NULL)
			goto out;
		next = more;
		strcat(next, "\n");
	}
	/* show 101#5: the turns that led to the position shown, not the game's last ones */
	hist = reply_text_history_upto(g, upto, REPLY_RECENT, false);
	if (next == NULL || hist == NULL)
		goto out;
	var(&vs, "board", board);
	var(&vs, "title", title);
	var(&vs, "status", status);
	var(&vs, "drawing", drawing);
	var(&vs, "next", next);
	var(&vs, "recent", hist);
	var(&vs, "now", now_text);
	st = reply_expand(rc, "show", &vs, body);
out:
	if (st == MAIL_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	free(next);
	free(hist);
	return st;
}

enum mail_status reply_show(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, int upto, const char *drawing, struct reply_mail *out)
{
	enum mail_status st;
	char subject[200], tap_subject[200], tap_turn[16], *body = NULL, *hist = NULL;
	/* a past position is kept apart from what to send now */
	struct html_mail hm = { .title = subject, .upto = drawing == NULL ? g->nturns : upto,
	    .next = drawing == NULL };
	struct reply_parts rp = { .subject = subject, .to_addr = to->addr, .to_name = to->name, .g = g, .hm = &hm };

	reply_text_status_subject(g, subject, sizeof subject);
	if (rc->tap_token != NULL && rc->tap_token[0] != '\0' && drawing == NULL && !game_over(g) &&
	    !game_is_open(g) && g->pending[0] == '\0') {
		/*
		 * The player to move asked (issue 40): the board tappable, its
		 * links under the game's Subject and token, as a board mail's
		 * (a turn begun by reply has none: the links of its board mail
		 * go on from the part)
		 */
		reply_text_game_subject(g, tap_subject, sizeof tap_subject);
		snprintf(tap_subject + strlen(tap_subject), sizeof tap_subject - strlen(tap_subject), " [%s]",
		    rc->tap_token);
		snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
		hm.tap_subject = tap_subject;
		hm.tap_turn = tap_turn;
	}
	st = reply_show_body(rc, g, upto, drawing, &body);
	if (st == MAIL_OK) {
		/* the turns the text part lists: up to the position shown (show 101#3), none later */
		hist = reply_text_history_upto(g, upto, REPLY_RECENT, false);
		if (hist == NULL)
			st = MAIL_NOMEM;
	}
	rp.body = body;
	hm.recent = hist;
	st = reply_finish(rc, st, &rp, out);
	free(body);
	free(hist);
	return st;
}

enum mail_status reply_reminder(struct reply_ctx *rc, const struct game *g, const struct reply_player *to,
    int days, int64_t timeout_at, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], board[24], size[8], turn[16], ndays[16], last[REPLY_TIME_SIZE];
	char day_count[32], tap_turn[24];
	struct game *shown = NULL;
	int part = 0;
	char dims[GAME_DIMENSIONS_SIZE];
	char deadline[GAMEFILE_TIME_SIZE + 100], id_user[GAME_NAME_SIZE + 16];
	char *next = NULL, *hist = NULL, intro[GAMEFILE_TIME_SIZE + 300];
	struct html_mail hm = { .title = subject, .intro = intro, .upto = g->nturns, .next = true };
	/* its own Message-ID: <101.7.bob.reminder.T@domain>, threaded under the board */
	struct reply_parts rp = { .tmpl = "remind", .subject = subject, .to_addr = to->address,
	    .to_name = to->fullname, .g = g, .hm = &hm, .id_board = g->board, .id_turn = g->nturns,
	    .id_user = id_user };
	enum mail_status st = MAIL_NOMEM;

	board_render_game(g, drawing);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	snprintf(turn, sizeof turn, "%d", g->rg.turn);
	snprintf(ndays, sizeof ndays, "%d", days);
	snprintf(day_count, sizeof day_count, "%d day%s", days, days == 1 ? "" : "s");
	snprintf(subject, sizeof subject, "Oust Board %ld reminder %s", g->board, to->userid);
	/*
	 * The player's reply token, as the clock's warning has it (issue 40):
	 * a reply with the turn plays it, the board's points are tap links;
	 * while a turn begun by reply waits, the board after the part, its
	 * links going on from it (#6.1), as the part's own mail
	 */
	if (to->token != NULL && to->token[0] != '\0') {
		shown = tap_after_part(g, &part);
		if (shown != NULL) {
			g = shown;
			rp.g = g;
			snprintf(tap_turn, sizeof tap_turn, "#%d.%d", g->rg.turn, part);
		} else {
			snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
		}
		if (g->pending[0] == '\0' || shown != NULL) {
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " %s [%s]", tap_turn,
			    to->token);
			hm.tap_subject = subject;
			hm.tap_turn = tap_turn;
		} else {
			/* a part that does not play (never so): the token without links */
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " [%s]", to->token);
		}
		board_render_game(g, drawing);	/* the board the links are on */
	}
	snprintf(id_user, sizeof id_user, "%s.reminder", to->userid);
	reply_time_str(g->last_move, last);
	deadline[0] = '\0';
	if (timeout_at > 0) {
		char t[REPLY_TIME_SIZE];

		snprintf(deadline, sizeof deadline, "If you have not played by %s, you lose the game on time.\n",
		    reply_time_str(timeout_at, t));
	}
	snprintf(intro, sizeof intro, "You have not played on board %ld since %s (%d day%s).%s%s", g->board,
	    last, days, reply_text_plural(days), deadline[0] != '\0' ? "\n" : "", deadline);
	next = reply_text_next(g);
	hist = reply_text_history(g, REPLY_RECENT, false);
	if (next == NULL || hist == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "turn", turn);
	var(&rp.vs, "userid", to->userid);
	var(&rp.vs, "days", ndays);
	var(&rp.vs, "day_count", day_count);
	var(&rp.vs, "last_move", last);
	var(&rp.vs, "deadline", deadline);
	var(&rp.vs, "tap", hm.tap_subject != NULL ? "Reply to this mail with your turn (its Subject stands for your\n"
	    "password), or tap a point of the board.\n" : "");
	var(&rp.vs, "next", next);
	var(&rp.vs, "drawing", drawing);
	var(&rp.vs, "recent", hist);
	hm.recent = hist;
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(next);
	free(hist);
	free(shown);
	return st;
}

enum mail_status reply_history(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], status[200], board[24], size[8], created[REPLY_TIME_SIZE];
	char dims[GAME_DIMENSIONS_SIZE];
	char *hist = NULL;
	struct html_mail hm = { .title = subject, .upto = g->nturns };
	struct reply_parts rp = { .tmpl = "history", .subject = subject, .to_addr = to->addr, .to_name = to->name,
	    .g = g, .hm = &hm };
	enum mail_status st = MAIL_NOMEM;

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	reply_text_status_subject(g, subject, sizeof subject);
	reply_text_status(g, status, sizeof status);
	board_render_game(g, drawing);
	reply_time_str(g->created, created);
	hist = reply_text_history(g, 0, true);
	if (hist == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "swap", g->swap ? "on" : "off");
	var(&rp.vs, "created", created);
	var(&rp.vs, "status", status);
	var(&rp.vs, "history", hist);
	var(&rp.vs, "drawing", drawing);
	hm.recent = hist;
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(hist);
	return st;
}

/* The texts of the placeholders every mail of a game record has (sgf, review). */
struct record_vars {
	char board[24], turns[16], status[200], dims[GAME_DIMENSIONS_SIZE];
};

/* {board} {dimensions} {black} {white} {turns} {status} of g into vs, their texts in r. */
static void record_vars(struct vars *vs, const struct game *g, struct record_vars *r)
{
	snprintf(r->board, sizeof r->board, "%ld", g->board);
	snprintf(r->turns, sizeof r->turns, "%d", g->nturns);
	reply_text_status(g, r->status, sizeof r->status);
	var(vs, "board", r->board);
	var(vs, "dimensions", game_dimensions(g, false, r->dims));
	var(vs, "black", g->black);
	var(vs, "white", g->white);
	var(vs, "turns", r->turns);
	var(vs, "status", r->status);
}

enum mail_status reply_sgf(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *sgf, size_t len, struct reply_mail *out)
{
	char subject[200], filename[40];
	struct record_vars r;
	struct reply_file file = { .data = sgf, .len = len, .type = SGF_MIME_TYPE, .name = filename };
	struct reply_parts rp = { .tmpl = "sgf", .subject = subject, .to_addr = to->addr, .to_name = to->name,
	    .g = g, .file = &file };

	snprintf(subject, sizeof subject, "Oust Board %ld record", g->board);
	snprintf(filename, sizeof filename, "oust-%ld.sgf", g->board);
	record_vars(&rp.vs, g, &r);
	var(&rp.vs, "filename", filename);
	return reply_finish(rc, MAIL_OK, &rp, out);
}

enum mail_status reply_review(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const struct reply_review *rv, struct reply_mail *out)
{
	char subject[200], filename[48], mistake[8], blunder[8];
	struct record_vars r;
	struct reply_file file = { .data = rv->sgf, .len = rv->sgf_len, .type = SGF_MIME_TYPE, .name = filename };
	struct html_mail hm = { .title = subject, .upto = g->nturns };
	struct strbuf html = STRBUF_INIT;
	char *htmls;
	struct reply_parts rp = { .tmpl = "review", .subject = subject, .to_addr = to->addr, .to_name = to->name,
	    .g = g, .hm = &hm, .file = &file };
	enum mail_status st;

	snprintf(subject, sizeof subject, "Oust Board %ld review", g->board);
	snprintf(filename, sizeof filename, "oust-%ld-review.sgf", g->board);
	snprintf(mistake, sizeof mistake, "%d", (int)(REVIEW_MISTAKE_DROP * 100 + 0.5));
	snprintf(blunder, sizeof blunder, "%d", (int)(REVIEW_BLUNDER_DROP * 100 + 0.5));
	hm.intro = rv->how;
	/* the chart, then the costliest turns with their boards drawn as the board mail's (html.h) */
	strbuf_puts(&html, rv->chart_html);
	strbuf_puts(&html, "<p style=\"margin:12px 0 4px\"><b>The turns that cost the most</b></p>\n");
	strbuf_puts(&html, rv->worst_html);
	htmls = strbuf_finish(&html);
	hm.html = htmls;
	record_vars(&rp.vs, g, &r);
	var(&rp.vs, "how", rv->how);
	var(&rp.vs, "mistake", mistake);
	var(&rp.vs, "blunder", blunder);
	var(&rp.vs, "drawing", rv->table);
	var(&rp.vs, "worst", rv->worst);
	var(&rp.vs, "filename", filename);
	st = reply_finish(rc, htmls != NULL ? MAIL_OK : MAIL_NOMEM, &rp, out);
	free(htmls);
	return st;
}

enum mail_status reply_review_queued(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, int ahead, struct reply_mail *out)
{
	char subject[200], board[24], waiting[80], turns[16], minutes[24];
	struct reply_parts rp = { .tmpl = "reviewqueued", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name, .g = g };

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld review queued", g->board);
	snprintf(turns, sizeof turns, "%d", g->nturns);
	if (ahead == 0)
		snprintf(waiting, sizeof waiting, "no other review waits before it");
	else
		snprintf(waiting, sizeof waiting, "%d other review%s wait%s before it", ahead, ahead == 1 ? "" : "s",
		    ahead == 1 ? "s" : "");
	var(&rp.vs, "board", board);
	var(&rp.vs, "turns", turns);
	var(&rp.vs, "waiting", waiting);
	/* the robot's cron run comes every 5 minutes (scripts/crontab); each review before takes its time */
	snprintf(minutes, sizeof minutes, "%lu",
	    5 + ((unsigned long)ahead + 1) * rc->cfg->review_seconds / 60 + 1);
	var(&rp.vs, "minutes", minutes);
	return reply_finish(rc, MAIL_OK, &rp, out);
}

enum mail_status reply_finished(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *const *games, size_t n, size_t total, struct reply_mail *out)
{
	char status[200], row[400], when[REPLY_TIME_SIZE], count[32], listed[32], size[16];
	struct text t = { 0 };
	struct reply_parts rp = { .tmpl = "finished", .subject = "Oust finished games", .to_addr = to->addr,
	    .to_name = to->name };
	enum mail_status st = MAIL_NOMEM;
	char *list = NULL;
	size_t i;

	/* two lines a board: the board and its players; when and how it ended */
	for (i = 0; i < n; i++) {
		const struct game *g = games[i];

		game_dimensions(g, true, size);
		reply_text_result(g, status, sizeof status);
		tprintf(&t, "  %-9ld  %-5s  %s (x) - %s (o)\n", g->board, size, g->black, g->white);
		snprintf(row, sizeof row, "             %s, %s", reply_time_str(g->last_move, when), status);
		reply_wrap_line(&t, row, strlen(row), 13);
		tputs(&t, "\n");
	}
	if (n == 0)
		tputs(&t, "  (no board has finished yet)\n");
	list = tfinish(&t);
	if (list == NULL)
		goto out;
	snprintf(count, sizeof count, "%zu", total);
	snprintf(listed, sizeof listed, "%zu", n);
	var(&rp.vs, "games", list);
	var(&rp.vs, "count", count);
	var(&rp.vs, "listed", listed);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(list);
	return st;
}

enum mail_status reply_chat(struct reply_ctx *rc, const struct game *g, const char *sender, const char *text,
    const struct reply_player *to, struct reply_mail *out)
{
	char subject[200], board[24], status[200], *quoted = NULL, *answer = NULL, id_user[IDENT_USERID_MAX + 16];
	/*
	 * in the board's thread (its root id in References), as the board's
	 * mails are; its own id <101.7.bob.chatHASH.T@domain> tells an answer to
	 * it (mailfind.h)
	 */
	struct reply_parts rp = { .tmpl = "chat", .subject = subject, .to_addr = to->address,
	    .to_name = to->fullname, .g = g, .id_board = g->board, .id_turn = g->nturns, .id_user = id_user };
	enum mail_status st = MAIL_NOMEM;
	struct unsub unsub;

	/* "chat" and the incoming mail's hash: two chats to one reader in one second differ */
	snprintf(id_user, sizeof id_user, "%s.chat%08x", to->userid, rc->hash + rc->counter);

	reply_text_unsub_make(rc, g, to, &unsub);
	if (unsub.header[0] != '\0')
		rp.list_unsubscribe = unsub.header;
	snprintf(subject, sizeof subject, "Oust Board %ld chat from %s", g->board, sender);
	if (to->token != NULL && to->token[0] != '\0' && to->role == REPLY_ROLE_PLAYER)
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d [%s]", g->rg.turn,
		    to->token);
	snprintf(board, sizeof board, "%ld", g->board);
	reply_text_status(g, status, sizeof status);
	quoted = reply_text_indented(text);
	if (quoted == NULL)
		goto out;
	/* a player may answer; an observer is told how to stop (observers do not chat) */
	if (to->role == REPLY_ROLE_PLAYER) {
		struct text t = { 0 };

		if (to->token != NULL && to->token[0] != '\0')
			tprintf(&t, "To answer, reply to this mail with your text (its Subject stands\nfor your "
			    "password), or send \"chat %ld %s <password>\" with your\ntext below the command line. ",
			    g->board, to->userid);
		else
			tprintf(&t, "To answer, send \"chat %ld %s <password>\" with your text\nbelow the command "
			    "line. ", g->board, to->userid);
		answer = tfinish(&t);
	} else {
		char *obs = reply_text_observing(g, to, &unsub);

		if (obs != NULL) {
			struct text t = { 0 };

			tprintf(&t, "%s\n", obs);
			answer = tfinish(&t);
			free(obs);
		}
	}
	if (answer == NULL)
		goto out;
	var(&rp.vs, "answer", answer);
	var(&rp.vs, "board", board);
	var(&rp.vs, "sender", sender);
	var(&rp.vs, "userid", to->userid);
	var(&rp.vs, "status", status);
	var(&rp.vs, "text", quoted);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(answer);
	free(quoted);
	return st;
}

enum mail_status reply_chat_answer(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *userid, const char *text, struct reply_mail *out)
{
	char subject[200], board[24];
	struct reply_parts rp = { .tmpl = "chatanswer", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name, .g = g };
	struct text t = { 0 };
	enum mail_status st = MAIL_NOMEM;
	char *block;

	snprintf(subject, sizeof subject, "Oust Board %ld chat not sent", g->board);
	snprintf(board, sizeof board, "%ld", g->board);
	/* the command and the text as one block, indented alike, to copy whole */
	tprintf(&t, "    chat %ld %s <password>\n", g->board, userid);
	reply_text_indent(&t, text, "    ");
	block = tfinish(&t);
	if (block == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "block", block);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(block);
	return st;
}

enum mail_status reply_chat_sent(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *readers, const char *text, struct reply_mail *out)
{
	char subject[200], board[24], *quoted = NULL;
	struct reply_parts rp = { .tmpl = "chatsent", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name, .g = g };
	enum mail_status st = MAIL_NOMEM;

	snprintf(subject, sizeof subject, "Oust Board %ld chat sent", g->board);
	snprintf(board, sizeof board, "%ld", g->board);
	quoted = reply_text_indented(text);
	if (quoted == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "readers", readers);
	var(&rp.vs, "text", quoted);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(quoted);
	return st;
}

enum mail_status reply_moves(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const struct preview_option *opts, int n, struct reply_mail *out)
{
	char subject[200], title[400], drawing[BOARD_TEXT_MAX], count[16], board[24];
	struct text legal = { 0 };
	char *legal_s = NULL;
	struct reply_parts rp = { .tmpl = "moves", .subject = subject, .to_addr = to->addr, .to_name = to->name,
	    .g = g };
	enum mail_status st = MAIL_NOMEM;
	enum rules_color c = g->rg.to_move;

	snprintf(subject, sizeof subject, "Oust Board %ld moves", g->board);
	snprintf(title, sizeof title, "Board %ld, turn %d: the legal placements of %s (%s, %c).", g->board,
	    g->rg.turn, game_player_to_move(g), reply_text_colour_name(c), reply_text_symbol(c));
	snprintf(count, sizeof count, "%d", n);
	board_render_game(g, drawing);
	reply_preview_legal(&legal, &g->rg.board, c, opts, n, true);
	if (g->swap && rules_game_can_swap(&g->rg) && !game_user_is_robot(game_player_to_move(g))) {
		/* White's first turn may be the pie rule instead of a placement */
		size_t from;

		tputs(&legal, "  or, instead of placing, swap (the pie rule: take over Black's stones):\n    ");
		from = legal.b.len;
		tprintf(&legal, "swap %ld#%d %s <password>", g->board, g->rg.turn, game_player_to_move(g));
		tglue_from(&legal, from);
		tputs(&legal, "\n");
	}
	legal_s = tfinish(&legal);
	if (legal_s == NULL)
		goto out;
	var(&rp.vs, "title", title);
	snprintf(board, sizeof board, "%ld", g->board);
	var(&rp.vs, "board", board);
	var(&rp.vs, "count", count);
	var(&rp.vs, "legal", legal_s);
	var(&rp.vs, "drawing", drawing);
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(legal_s);
	return st;
}
