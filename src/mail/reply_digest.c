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
static enum mail_status one_board(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *d, bool full, struct strbuf *txt, struct strbuf *html)
{
	const struct game *g = d->g;
	struct reply_event ev;
	struct html_mail hm = { .upto = g->nturns, .next = true };
	char subject[200], tap_turn[24], dims[GAME_DIMENSIONS_SIZE], drawing[BOARD_TEXT_MAX];
	char *happened = NULL, *next = NULL, *verb = NULL, *part = NULL;
	enum mail_status st = MAIL_NOMEM;

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
	if (st == MAIL_OK && part != NULL)
		strbuf_puts(html, part);
out:
	reply_set_away(rc, NULL);
	free(happened);
	free(next);
	free(verb);
	free(part);
	return st;
}

/* One board drawn for a digest: its text block and its HTML section. */
struct drawn {
	char *txt, *html;
	size_t len;	/* of both */
};

static void drawn_free(struct drawn *d)
{
	free(d->txt);
	free(d->html);
	memset(d, 0, sizeof *d);
}

/* d drawn into *out (full: with its board table and tap links). */
static enum mail_status draw(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *d, bool full, struct drawn *out)
{
	struct strbuf t = STRBUF_INIT, h = STRBUF_INIT;
	enum mail_status st;

	memset(out, 0, sizeof *out);
	st = one_board(rc, to, d, full, &t, &h);
	if (st != MAIL_OK)
		goto out;
	out->txt = strbuf_finish(&t);
	out->html = strbuf_finish(&h);
	if (out->txt == NULL || out->html == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	out->len = strlen(out->txt) + strlen(out->html);
out:
	if (st != MAIL_OK)
		drawn_free(out);
	strbuf_release(&t);
	strbuf_release(&h);
	return st;
}

/* A digest being made: its boards drawn and laid out in parts (mails). */
struct dg {
	struct reply_ctx *rc;
	const struct reply_player *to;
	const struct reply_digest_board *b;
	size_t n;
	const char *when;
	struct drawn *d;	/* d[0..placed): b[0..placed) drawn, each in a part */
	size_t placed, nparts;
	size_t first[REPLY_DIGEST_PARTS_MAX + 1];	/* part p holds d[first[p]..first[p + 1]) */
};

/*
 * The boards of g drawn and laid out: in one mail when all fit in
 * REPLY_DIGEST_BYTES in full; else each part filled up to
 * REPLY_DIGEST_PART_BYTES (room left for its intro naming the other parts'
 * boards), at most REPLY_DIGEST_PARTS_MAX parts, the boards past them by
 * number in the last.  A board too long alone in a part (none of today's
 * sizes is) goes without its board table.
 */
static enum mail_status lay_out(struct dg *g)
{
	enum mail_status st = MAIL_OK;
	size_t i, used = 0, total = 0;

	g->d = calloc(g->n, sizeof *g->d);
	if (g->d == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	for (i = 0; i < g->n; i++) {
		struct drawn *d = &g->d[i];

		st = draw(g->rc, g->to, &g->b[i], true, d);
		if (st == MAIL_OK && d->len > REPLY_DIGEST_PART_BYTES) {
			drawn_free(d);
			st = draw(g->rc, g->to, &g->b[i], false, d);
		}
		if (st != MAIL_OK)
			goto out;
		if (d->len > REPLY_DIGEST_PART_BYTES) {
			drawn_free(d);
			break;
		}
		if (g->nparts == 0 || used + d->len > REPLY_DIGEST_PART_BYTES) {
			if (g->nparts == REPLY_DIGEST_PARTS_MAX) {
				drawn_free(d);
				break;
			}
			g->first[g->nparts++] = i;
			used = 0;
		}
		used += d->len;
		total += d->len;
		g->placed = i + 1;
	}
	/* all in one mail when they fit: the digest as it was before it had parts */
	if (g->nparts == 0 || (g->placed == g->n && total <= REPLY_DIGEST_BYTES)) {
		g->nparts = 1;
		g->first[0] = 0;
	}
	g->first[g->nparts] = g->placed;
out:
	return st;
}

/* "board 101" or "boards 101, 102 and 103" of b[from..to), at most REPLY_DIGEST_NAMED_MAX named, into s. */
static void name_boards(struct strbuf *s, const struct reply_digest_board *b, size_t from, size_t to)
{
	size_t k;

	strbuf_printf(s, "board%s", to - from == 1 ? "" : "s");
	for (k = from; k < to && k < from + REPLY_DIGEST_NAMED_MAX; k++)
		strbuf_printf(s, "%s %ld", k == from ? "" : k + 1 == to ? " and" : ",", b[k].g->board);
	if (k < to)
		strbuf_printf(s, " and %zu more", to - k);
}

/* The intro of part p of g. */
static char *intro_of(const struct dg *g, size_t p)
{
	struct strbuf s = STRBUF_INIT;
	size_t q;

	strbuf_printf(&s, "Your digest of %s: it is your turn on %zu board%s", g->when, g->n, g->n == 1 ? "" : "s");
	if (g->nparts == 1) {
		strbuf_puts(&s, ".");
		return strbuf_finish(&s);
	}
	/* a tap plays on its own board whichever part it is in: each part says where the others are */
	strbuf_printf(&s, ", in %zu parts. This is part %zu of %zu, with ", g->nparts, p + 1, g->nparts);
	name_boards(&s, g->b, g->first[p], g->first[p + 1]);
	for (q = 0; q < g->nparts; q++) {
		if (q == p)
			continue;
		strbuf_printf(&s, "%s part %zu has ", q == (p == 0 ? 1 : 0) ? ";" : ",", q + 1);
		name_boards(&s, g->b, g->first[q], g->first[q + 1]);
	}
	if (g->placed < g->n)
		strbuf_printf(&s, "; and %zu more by number at the end of part %zu", g->n - g->placed, g->nparts);
	strbuf_puts(&s, ".");
	return strbuf_finish(&s);
}

/* The boards past those drawn, by number, for the last part ("" when none). */
static char *rest_of(const struct dg *g)
{
	struct strbuf more = STRBUF_INIT;
	size_t i = g->placed, k;

	if (i < g->n) {
		strbuf_printf(&more, "Your turn too on board%s", g->n - i == 1 ? "" : "s");
		for (k = i; k < g->n && k < i + REPLY_DIGEST_LISTED_MAX; k++)
			strbuf_printf(&more, "%s %ld", k == i ? "" : ",", g->b[k].g->board);
		if (k < g->n)
			strbuf_printf(&more, " and %zu more", g->n - k);
		strbuf_puts(&more, " (this mail has room for no more): send \"show <board>\" for one's board, or "
		    "\"games <userid> next\" for the list.\n\n");
	}
	return strbuf_finish(&more);
}

/* Part p of g, the mail, into *out. */
static enum mail_status part_mail(const struct dg *g, size_t p, struct reply_mail *out)
{
	struct reply_ctx *rc = g->rc;
	struct strbuf txt = STRBUF_INIT, html = STRBUF_INIT, page = STRBUF_INIT, esc = STRBUF_INIT;
	struct reply_parts rp = { .tmpl = "digest", .to_addr = g->to->address, .to_name = g->to->fullname };
	struct vars hv = { .n = 0 };
	char subject[120], count[40];
	char *boards = NULL, *sections = NULL, *title = NULL, *srv = NULL, *addr = NULL, *doc = NULL, *hintro = NULL;
	char *rest = NULL, *intro = NULL;
	enum mail_status st = MAIL_OK;
	size_t i;
	bool html_on = strcmp(rc->cfg->html_mail, "off") != 0;

	snprintf(subject, sizeof subject, "Oust: your move on %zu board%s", g->n, g->n == 1 ? "" : "s");
	if (g->nparts > 1)
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " (%zu of %zu)", p + 1,
		    g->nparts);
	snprintf(count, sizeof count, "%zu", g->n);
	for (i = g->first[p]; i < g->first[p + 1]; i++) {
		strbuf_puts(&txt, g->d[i].txt);
		strbuf_puts(&html, g->d[i].html);
	}
	intro = intro_of(g, p);
	rest = p + 1 == g->nparts ? rest_of(g) : strdup("");
	if (intro == NULL || rest == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	strbuf_puts(&txt, rest);
	boards = strbuf_finish(&txt);
	sections = strbuf_finish(&html);
	if (boards == NULL || sections == NULL) {
		st = MAIL_NOMEM;
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
			st = MAIL_NOMEM;
			goto out;
		}
		var(&hv, "title", title);
		var(&hv, "intro", hintro);
		var(&hv, "boards", sections);
		var(&hv, "more", page.s != NULL ? page.s : "");
		var(&hv, "server", srv);
		var(&hv, "address", addr);
		st = reply_expand(rc, "digest.html", &hv, &doc);
		if (st != MAIL_OK)
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
	free(boards);
	free(sections);
	free(title);
	free(srv);
	free(addr);
	free(doc);
	free(hintro);
	free(rest);
	free(intro);
	return st;
}

enum mail_status reply_digest(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *b, size_t n, const char *when, struct reply_digest *out)
{
	struct dg g = { .rc = rc, .to = to, .b = b, .n = n, .when = when };
	enum mail_status st;
	size_t p, i;

	memset(out, 0, sizeof *out);
	st = lay_out(&g);
	for (p = 0; st == MAIL_OK && p < g.nparts; p++) {
		st = part_mail(&g, p, &out->part[p]);
		if (st == MAIL_OK)
			out->n = p + 1;
	}
	if (st != MAIL_OK)
		reply_digest_release(out);
	for (i = 0; g.d != NULL && i < n; i++)
		drawn_free(&g.d[i]);
	free(g.d);
	return st;
}

void reply_digest_release(struct reply_digest *d)
{
	size_t p;

	for (p = 0; p < d->n; p++)
		reply_mail_release(&d->part[p]);
	d->n = 0;
}
