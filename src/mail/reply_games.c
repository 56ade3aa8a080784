/* reply_games: the list of games (reply.h). */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/board.h"
#include "game/html.h"

const char *reply_games_filter_str(enum reply_games_filter f)
{
	switch (f) {
	case REPLY_GAMES_ALL: return "all";
	case REPLY_GAMES_ACTIVE: return "active";
	case REPLY_GAMES_NEXT: return "next";
	case REPLY_GAMES_FINISHED: return "finished";
	}
	return "all";
}

bool reply_games_filter_parse(const char *word, enum reply_games_filter *out)
{
	enum reply_games_filter f;

	for (f = REPLY_GAMES_ALL; f <= REPLY_GAMES_FINISHED; f++)
		if (strcasecmp(word, reply_games_filter_str(f)) == 0) {
			*out = f;
			return true;
		}
	return false;
}

/* Does g pass filter f for userid? */
static bool games_pass(const struct game *g, const char *userid, enum reply_games_filter f)
{
	switch (f) {
	case REPLY_GAMES_ACTIVE:
		return !game_over(g);
	case REPLY_GAMES_NEXT:
		return !game_over(g) && strcmp(game_player_to_move(g), userid) == 0;
	case REPLY_GAMES_FINISHED:
		return game_over(g);
	case REPLY_GAMES_ALL:
		break;
	}
	return true;
}

enum mail_status reply_games(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_games_list *games_list, struct reply_mail *out)
{
	const char *userid = games_list->userid, *away = games_list->away;
	const struct game *games = games_list->games;
	enum reply_games_filter filter = games_list->filter;
	bool own = games_list->own;
	size_t n = games_list->n;
	char subject[200], status[200], who[100], count[32], row[400], which[200];
	size_t indent;
	struct text t = { 0 };
	struct reply_parts rp = { .tmpl = "games", .subject = subject, .to_addr = to->addr,
	    .to_name = to->name };
	enum mail_status st = MAIL_NOMEM;
	char *list = NULL, *tap_text = NULL, *htmls = NULL;
	char tap_subject[200], tap_turn[16], intro[200], drawing[BOARD_TEXT_MAX];
	const struct game *tg;
	struct text tt = { 0 };
	struct strbuf html = STRBUF_INIT;
	struct html_mail hm = { .title = NULL };
	size_t i, playing = 0, shown = 0, skip;
	int width = 7;

	snprintf(subject, sizeof subject, "Oust games %s", userid);
	for (i = 0; i < n; i++) {
		int w = (int)(strlen(games[i].black) + strlen(games[i].white) + 11);

		if (games_pass(&games[i], userid, filter))
			width = w > width ? w : width;
	}
	for (i = 0; i < n; i++) {
		if (!game_over(&games[i]))
			playing++;
		if (games_pass(&games[i], userid, filter))
			shown++;
	}
	switch (filter) {
	case REPLY_GAMES_ALL:
		which[0] = '\0';	/* all of them: nothing to say */
		break;
	case REPLY_GAMES_ACTIVE:
		snprintf(which, sizeof which, "\nBeing played (games %s active): %zu\n", userid, shown);
		break;
	case REPLY_GAMES_NEXT:
		snprintf(which, sizeof which, "\nWhere it is %s's move (games %s next): %zu\n", userid, userid, shown);
		break;
	case REPLY_GAMES_FINISHED:
		snprintf(which, sizeof which, "\nFinished (games %s finished): %zu\n", userid, shown);
		break;
	}
	if (shown > 0)
		tprintf(&t, "  %-9s  %-5s  %-*s  %s\n", "board", "size", width, "players", "state");
	/* a long list is cut to the newest boards: the reply stays a mail, not a file */
	skip = shown > REPLY_GAMES_MAX ? shown - REPLY_GAMES_MAX : 0;
	for (i = 0; i < n; i++) {
		const struct game *g = &games[i];
		char size[16];

		if (!games_pass(g, userid, filter) || (skip > 0 && skip--))
			continue;
		game_dimensions(g, true, size);
		snprintf(who, sizeof who, "%s (x) - %s (o)", g->black, g->white);
		if (game_over(g))
			reply_text_result(g, status, sizeof status);
		else if (game_is_open(g))
			snprintf(status, sizeof status, "open challenge: waiting for a player (accept %ld)", g->board);
		else
			snprintf(status, sizeof status, "turn %d, %s to move%s", g->rg.turn, game_player_to_move(g),
			    own && strcmp(game_player_to_move(g), userid) == 0 ? ": your move" : "");
		/* a long state goes on under its own column (wrap_line), not under the board's */
		snprintf(row, sizeof row, "  %-9ld  %-5s  %-*s  ", g->board, size, width, who);
		indent = reply_columns(row, strlen(row));
		snprintf(row + strlen(row), sizeof row - strlen(row), "%s", status);
		reply_wrap_line(&t, row, strlen(row), indent);
		tputs(&t, "\n");
	}
	if (shown > REPLY_GAMES_MAX)
		tprintf(&t, "  (the %zu older boards are not listed: only the newest %d are)\n",
		    shown - (size_t)REPLY_GAMES_MAX, REPLY_GAMES_MAX);
	if (n == 0)
		tprintf(&t, "  (%s plays on no board)\n", userid);
	else if (shown == 0)
		tprintf(&t, "  (none)\n");
	list = tfinish(&t);
	if (list == NULL)
		goto out;
	snprintf(count, sizeof count, "%zu", n);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "games", list);
	var(&rp.vs, "count", count);
	snprintf(status, sizeof status, "%zu", playing);
	var(&rp.vs, "playing", status);
	var(&rp.vs, "filter", reply_games_filter_str(filter));
	var(&rp.vs, "which", which);
	var(&rp.vs, "away", away);
	tg = games_list->tap;
	if (tg != NULL && games_list->tap_token != NULL && games_list->tap_token[0] != '\0' && !game_over(tg) &&
	    !game_is_open(tg) && tg->pending[0] == '\0' && strcmp(game_player_to_move(tg), userid) == 0) {
		/* the first board to play, as a board mail has it: its links under the game's Subject and token */
		reply_text_game_subject(tg, tap_subject, sizeof tap_subject);
		snprintf(tap_subject + strlen(tap_subject), sizeof tap_subject - strlen(tap_subject), " [%s]",
		    games_list->tap_token);
		snprintf(tap_turn, sizeof tap_turn, "#%d", tg->rg.turn);
		board_render_game(tg, drawing);
		tprintf(&tt, "\nYour move on board %ld (turn %d), the first listed:\n\n%s\nReply to its board mail, "
		    "or tap a point of the board in this mail's HTML part.\n", tg->board, tg->rg.turn, drawing);
		tap_text = tfinish(&tt);
		snprintf(intro, sizeof intro, "Your move on board %ld (turn %d), the first listed: tap a point of its "
		    "board below to play it.", tg->board, tg->rg.turn);
		strbuf_puts(&html, "<pre style=\"margin:0 0 10px;white-space:pre-wrap\">");
		html_escape(&html, list);
		strbuf_puts(&html, "</pre>\n");
		htmls = strbuf_finish(&html);
		if (tap_text == NULL || htmls == NULL) {
			st = MAIL_NOMEM;
			goto out;
		}
		hm.title = subject;
		hm.intro = intro;
		hm.html = htmls;
		hm.upto = tg->nturns;
		hm.tap_subject = tap_subject;
		hm.tap_turn = tap_turn;
		rp.g = tg;
		rp.hm = &hm;
	}
	var(&rp.vs, "tap", tap_text != NULL ? tap_text : "");
	st = MAIL_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(list);
	free(tap_text);
	free(htmls);
	return st;
}
