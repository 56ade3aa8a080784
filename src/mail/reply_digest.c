/*
 * reply_digest: the digest of the boards where a player is to move
 * (reply.h, services/digest.h): one text block and one HTML section per
 * board, each made by the pieces a board mail is made of (reply_text.c,
 * reply_html.c with templates/digestboard.html), in templates/digest.txt
 * and templates/digest.html.
 */
#include "mail/reply_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"
#include "game/board.h"
#include "game/html.h"

/* What happened last on g by the reader's opponent: their last turn that was theirs to choose. */
static void last_turn(const struct game *g, const char *reader, struct reply_event *ev)
{
	int i;

	memset(ev, 0, sizeof *ev);
	ev->what = REPLY_CHALLENGE;
	ev->comment = "";
	for (i = g->nturns - 1; i >= 0; i--) {
		const struct game_turn *t = &g->turns[i];

		if (strcasecmp(t->player, reader) == 0 || (t->action != GAME_PLACE && t->action != GAME_SWAP))
			continue;
		ev->what = t->action == GAME_SWAP ? REPLY_SWAP : REPLY_MOVE;
		ev->actor = t->player;
		ev->first = t->number;
		return;
	}
	ev->actor = strcasecmp(g->black, reader) == 0 ? g->white : g->black;
}

/* One board: its text block into txt, its HTML section into html (full: with the board and its tap links). */
static enum reply_status one_board(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *d, bool full, struct strbuf *txt, struct strbuf *html)
{
	const struct game *g = d->g;
	struct reply_event ev;
	struct html_mail hm = { .upto = g->nturns, .next = true };
	char subject[200], tap_turn[24], dims[GAME_DIMENSIONS_SIZE], drawing[BOARD_TEXT_MAX];
	char *happened = NULL, *next = NULL, *verb = NULL, *part = NULL;
	enum reply_status st = REPLY_NOMEM;

	reply_set_away(rc, d->away);
	last_turn(g, to->userid, &ev);
	reply_text_game_subject(g, subject, sizeof subject);
	if (d->token != NULL && d->token[0] != '\0')
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " [%s]", d->token);
	snprintf(tap_turn, sizeof tap_turn, "#%d", g->rg.turn);
	if (ev.what == REPLY_CHALLENGE) {
		happened = malloc(200);
		if (happened != NULL)
			snprintf(happened, 200, "The game against %s has begun: the first turn is yours.\n", ev.actor);
	} else {
		happened = reply_text_happened(g, &ev);
	}
	next = reply_text_with_time_left(rc, g, to->userid, reply_text_next_for(g, &ev, to->userid));
	board_render_game(g, drawing);
	verb = reply_verbatim(drawing);
	if (happened == NULL || next == NULL || verb == NULL)
		goto out;
	strbuf_printf(txt, "== Board %ld (%s, swap %s): %s (x) against %s (o) ==\n\n%s\n%s\n", g->board,
	    game_dimensions(g, false, dims), g->swap ? "on" : "off", g->black, g->white, happened, next);
	if (d->token != NULL && d->token[0] != '\0')
		strbuf_printf(txt, "Or, without the password: write to %s with the Subject\n\n    %s\n\nand "
		    "your placements alone (D4, or D3,F6) as the text.\n\n", rc->cfg->from_address, subject);
	strbuf_printf(txt, "%s\n", verb);
	hm.title = subject;
	hm.intro = happened;
	hm.next_body = next;
	hm.tmpl = full ? "digestboard.html" : "digestbrief.html";
	if (full && d->token != NULL && d->token[0] != '\0') {
		hm.tap_subject = subject;
		hm.tap_turn = tap_turn;
	}
	st = reply_html_body(rc, g, &hm, &part);
	if (st == REPLY_OK && part != NULL)
		strbuf_puts(html, part);
out:
	reply_set_away(rc, NULL);
	free(happened);
	free(next);
	free(verb);
	free(part);
	return st;
}

/* b back to its first len bytes (a board taken out again). */
static void cut(struct strbuf *b, size_t len)
{
	if (b->s != NULL && len <= b->len) {
		b->len = len;
		b->s[len] = '\0';
	}
}

enum reply_status reply_digest(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *b, size_t n, const char *when, struct reply_mail *out)
{
	struct strbuf txt = STRBUF_INIT, html = STRBUF_INIT, page = STRBUF_INIT, esc = STRBUF_INIT;
	struct strbuf more = STRBUF_INIT;
	struct reply_parts rp = { .tmpl = "digest", .to_addr = to->address, .to_name = to->fullname };
	struct vars hv = { .n = 0 };
	char subject[120], count[40], intro[300];
	char *boards = NULL, *sections = NULL, *title = NULL, *srv = NULL, *addr = NULL, *doc = NULL, *hintro = NULL;
	char *rest = NULL;
	enum reply_status st = REPLY_OK;
	size_t i, k, tl, hl;
	bool html_on = strcmp(rc->cfg->html_mail, "off") != 0, full;

	memset(out, 0, sizeof *out);
	snprintf(subject, sizeof subject, "Oust: your move on %zu board%s", n, n == 1 ? "" : "s");
	snprintf(count, sizeof count, "%zu", n);
	snprintf(intro, sizeof intro, "Your digest of %s: it is your turn on %zu board%s.", when, n,
	    n == 1 ? "" : "s");
	/* each board in full while the HTML allows, then without its board table, then by its number */
	for (i = 0; i < n && st == REPLY_OK; i++) {
		tl = txt.len;
		hl = html.len;
		full = html.len < REPLY_DIGEST_TAP_BYTES;
		st = one_board(rc, to, &b[i], full, &txt, &html);
		if (st == REPLY_OK && full && txt.len + html.len > REPLY_DIGEST_BYTES) {
			cut(&txt, tl);
			cut(&html, hl);
			st = one_board(rc, to, &b[i], false, &txt, &html);
		}
		if (st == REPLY_OK && txt.len + html.len > REPLY_DIGEST_BYTES) {
			cut(&txt, tl);
			cut(&html, hl);
			break;
		}
	}
	if (st != REPLY_OK)
		goto out;
	if (i < n) {
		strbuf_printf(&more, "Your turn too on board%s", n - i == 1 ? "" : "s");
		for (k = i; k < n && k < i + REPLY_DIGEST_LISTED_MAX; k++)
			strbuf_printf(&more, "%s %ld", k == i ? "" : ",", b[k].g->board);
		if (k < n)
			strbuf_printf(&more, " and %zu more", n - k);
		strbuf_puts(&more, " (this mail has room for no more): send \"show <board>\" for one's board, or "
		    "\"games <userid> next\" for the list.\n\n");
	}
	rest = strbuf_finish(&more);
	if (rest == NULL) {
		st = REPLY_NOMEM;
		goto out;
	}
	strbuf_puts(&txt, rest);
	boards = strbuf_finish(&txt);
	sections = strbuf_finish(&html);
	if (boards == NULL || sections == NULL) {
		st = REPLY_NOMEM;
		goto out;
	}
	var(&rp.vs, "intro", intro);
	var(&rp.vs, "count", count);
	var(&rp.vs, "boards", boards);
	if (html_on && sections[0] != '\0') {
		html_escape(&esc, subject);
		title = strbuf_finish(&esc);
		html_escape(&esc, rc->cfg->server_name);
		srv = strbuf_finish(&esc);
		html_escape(&esc, rc->cfg->from_address);
		addr = strbuf_finish(&esc);
		html_escape(&esc, intro);
		hintro = strbuf_finish(&esc);
		if (rest[0] != '\0')
			html_text(&page, rest);
		if (title == NULL || srv == NULL || addr == NULL || hintro == NULL || page.failed) {
			st = REPLY_NOMEM;
			goto out;
		}
		var(&hv, "title", title);
		var(&hv, "intro", hintro);
		var(&hv, "boards", sections);
		var(&hv, "more", page.s != NULL ? page.s : "");
		var(&hv, "server", srv);
		var(&hv, "address", addr);
		st = reply_expand(rc, "digest.html", &hv, &doc);
		if (st != REPLY_OK)
			goto out;
		rp.html = doc;
	}
	rp.subject = subject;
out:
	st = reply_finish(rc, st, &rp, out);
	strbuf_release(&txt);
	strbuf_release(&html);
	strbuf_release(&page);
	strbuf_release(&esc);
	strbuf_release(&more);
	free(boards);
	free(sections);
	free(title);
	free(srv);
	free(addr);
	free(doc);
	free(hintro);
	free(rest);
	return st;
}
