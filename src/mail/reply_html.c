/* reply_html: the text/html alternative of a mail about a board (reply.h). */
#include "mail/reply_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/board.h"
#include "game/html.h"
#include "mail/tap.h"
#include "mail/token.h"

/* ---- the HTML alternative ---- */

/*
 * The bytes a tappable board's table may take: with the rest of the
 * mail (its text part, the history, the headers: some 15 KB on a 25x25
 * board) the whole message stays under 100 KB, below the 102 KB past
 * which Gmail clips a message ("View entire message"), board and links.
 */
#define REPLY_HTML_BOARD_BUDGET 80000

/*
 * A preformatted block at any width (a phone's 400 CSS pixels): its prose
 * lines wrap at spaces only, never inside a word (the cell around it
 * breaks long words anywhere: not here); a line that starts with a space
 * (a command to copy, a history row, a drawing's row) is never wrapped,
 * and the block scrolls sideways when one is wider than the screen.
 */
#define PRE_STYLE "margin:6px 0;padding:8px;background:#f3eedf;color:#1a1a1a;font:13px/1.35 Menlo,Consolas," \
	"'DejaVu Sans Mono',monospace;white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto"

#define ROW_STYLE "white-space:pre"
/*
 * A command to copy or a row of the turns: wrapped at spaces only where
 * the screen is narrower than the line (a phone's 400 pixels, a return
 * game's long command), never cut off by the box's edge; a copy of it is
 * still the one line.  A drawing's row is never wrapped (ROW_STYLE).
 */
#define WRAP_ROW_STYLE "white-space:pre-wrap"

/* html_escape() or html_text() of the text part's words: their REPLY_GLUE as the spaces they are. */
static void html_of_text(struct strbuf *b, const char *text, bool pre)
{
	char *copy = strdup(text);

	if (copy == NULL) {
		b->failed = true;
		return;
	}
	reply_unglue(copy);
	if (pre)
		html_escape(b, copy);
	else
		html_text(b, copy);
	free(copy);
}

static void html_pre(struct strbuf *b, const char *text, bool wrap)
{
	const char *p = text, *nl;
	char *line;

	strbuf_puts(b, "<pre style=\"" PRE_STYLE "\">");
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		line = strndup(p, (size_t)(nl - p));
		if (line == NULL) {
			b->failed = true;
			break;
		}
		if (line[0] == ' ' || strchr(line, REPLY_GLUE) != NULL) {
			/* a command set apart goes without its indent: a phone has no columns to spare */
			bool command = strncmp(line, "    ", 4) == 0 && line[4] != ' ' && line[4] != '\0';

			strbuf_puts(b, wrap ? "<span style=\"" WRAP_ROW_STYLE "\">" : "<span style=\"" ROW_STYLE "\">");
			html_of_text(b, command ? line + 4 : line, true);
			strbuf_puts(b, "</span>");
		} else {
			html_of_text(b, line, true);
		}
		free(line);
		if (*nl == '\0')
			break;
		strbuf_puts(b, "\n");
		p = nl + 1;
	}
	strbuf_puts(b, "</pre>\n");
}

/*
 * The game-end mail's one-tap links (issue 40): the return game and the
 * review, each a mailto: (RFC 6068) to the server under the mail's
 * Subject and its token, whose body is the command by reply
 * (tokenreply.h).  False when out of memory.
 */
static bool end_links(struct strbuf *b, struct reply_ctx *rc, const struct game *g, const struct html_mail *hm)
{
	char review[40];
	char *subj = token_uri_encode(hm->end_subject), *again = token_uri_encode(hm->end_challenge), *rev;
	bool ok;

	snprintf(review, sizeof review, "review %ld", g->board);
	rev = token_uri_encode(review);
	ok = subj != NULL && again != NULL && rev != NULL;
	if (ok) {
		strbuf_printf(b, "\n<p style=\"margin:10px 0\"><a style=\"display:inline-block;padding:10px 14px;"
		    "margin:0 8px 8px 0;background:#1f4fb5;color:#ffffff;text-decoration:none;border-radius:6px\" "
		    "href=\"mailto:%s?subject=%s&amp;body=%s\">Return game</a>", rc->cfg->from_address, subj, again);
		strbuf_printf(b, "<a style=\"display:inline-block;padding:10px 14px;margin:0 8px 8px 0;"
		    "background:#6b3d00;color:#ffffff;text-decoration:none;border-radius:6px\" "
		    "href=\"mailto:%s?subject=%s&amp;body=%s\">Review of the game</a><br>"
		    "<span style=\"font-size:13px;color:#555555\">Tap, then send the reply that opens: its Subject "
		    "stands for your password.</span></p>", rc->cfg->from_address, subj, rev);
	}
	free(subj);
	free(again);
	free(rev);
	return ok;
}

/*
 * The text/html alternative of a mail about g (mail.html), into *out; *out
 * stays NULL when html_mail is off.
 */
enum mail_status reply_html_body(struct reply_ctx *rc, const struct game *g, const struct html_mail *hm,
    char **out)
{
	struct strbuf pieces[8] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	    STRBUF_INIT, STRBUF_INIT };
	enum { TITLE, INTRO, COMMENT, PLAYERS, BOARD, STATUS, NEXT, RECENT };
	static const char *const names[] = { "title", "intro", "comment", "players", "board", "status", "next",
	    "recent" };
	char *vals[8] = { NULL }, status[200], black[GAME_NAME_SIZE], white[GAME_NAME_SIZE], *next = NULL;
	struct html_board *hb = NULL;
	struct html_links *links = NULL;
	char *href = NULL;
	struct vars vs = { .n = 0 };
	enum mail_status st = MAIL_NOMEM;
	struct strbuf srv = STRBUF_INIT, addr = STRBUF_INIT;
	char *srvs = NULL, *addrs = NULL;
	int i;

	*out = NULL;
	if (strcmp(rc->cfg->html_mail, "off") == 0)
		return MAIL_OK;
	hb = malloc(sizeof *hb);
	if (hb == NULL)
		goto out;
	if (html_board_of_game(g, hm->upto, hb, black, white) != GAME_OK) {
		/* a board that cannot be drawn goes without its HTML */
		st = MAIL_OK;
		goto out;
	}
	html_escape(&pieces[TITLE], hm->title);
	if (hm->intro != NULL && hm->intro[0] != '\0') {
		strbuf_puts(&pieces[INTRO], "<p style=\"margin:0 0 10px\">");
		html_of_text(&pieces[INTRO], hm->intro, false);
		strbuf_puts(&pieces[INTRO], "</p>");
	}
	if (hm->html != NULL)
		strbuf_puts(&pieces[INTRO], hm->html);
	if (hm->send != NULL && hm->send[0] != '\0') {
		/* as the text part sets it apart: one line to copy, never broken */
		strbuf_puts(&pieces[INTRO], "\n<p style=\"margin:0\">Send this command instead:</p>");
		html_pre(&pieces[INTRO], hm->send, true);
	}
	if (hm->echo != NULL) {
		/* the command echoed, set apart as in the text part: kept whole when it is one */
		struct text t = { 0 };
		char *e;

		tprintf(&t, "%s%s\n", reply_columns(hm->echo, strlen(hm->echo)) <= REPLY_WRAP ? "    " : "", hm->echo);
		e = tfinish(&t);
		if (e == NULL)
			goto out;
		strbuf_puts(&pieces[INTRO], "\n<p style=\"margin:0\">Your command (passwords masked):</p>");
		html_pre(&pieces[INTRO], e, true);
		free(e);
	}
	if (hm->stop != NULL && hm->stop[0] != '\0')
		html_pre(&pieces[INTRO], hm->stop, false);
	if (hm->comment != NULL && hm->comment[0] != '\0') {
		/* a user id (ident.h) needs no escaping; escaped all the same, as everything from outside */
		strbuf_puts(&pieces[COMMENT], "<p style=\"margin:0 0 4px\"><b>");
		html_escape(&pieces[COMMENT], hm->comment_by);
		strbuf_puts(&pieces[COMMENT], "</b> writes:</p>\n<blockquote style=\"margin:0 0 10px;padding:4px 10px;"
		    "border-left:3px solid #c9a24e;background:#faf6ea;color:#1a1a1a\">");
		html_text(&pieces[COMMENT], hm->comment);
		strbuf_puts(&pieces[COMMENT], "</blockquote>");
	}
	strbuf_printf(&pieces[PLAYERS], "<p style=\"margin:10px 0 0\"><span style=\"color:#111111\">&#9679;</span> "
	    "<b>%s</b> (Black, x) %d/%d &nbsp; <span style=\"color:#8a8a8a\">&#9675;</span> <b>%s</b> (White, o) "
	    "%d/%d <span style=\"color:#555555\">(largest group/stones)</span></p>", black, hb->largest[0],
	    hb->stones[0], white, hb->largest[1], hb->stones[1]);
	if (hm->ratings != NULL && hm->ratings[0] != '\0') {
		strbuf_puts(&pieces[PLAYERS], "\n<p style=\"margin:2px 0 0;font-size:13px;color:#555555\">");
		html_text(&pieces[PLAYERS], hm->ratings);
		strbuf_puts(&pieces[PLAYERS], "</p>");
	}
	/*
	 * A square board is as wide as the mail (html.h); a hex board, of
	 * fixed cells, scrolls in its box when wider than a phone, the page
	 * does not.
	 */
	strbuf_puts(&pieces[BOARD], hb->hex ?
	    "<div style=\"overflow-x:auto;white-space:nowrap;word-break:normal;overflow-wrap:normal\">"
	    "<div style=\"width:max-content\">\n" : "<div style=\"word-break:normal;overflow-wrap:normal\">\n");
	if (hm->tap_subject != NULL) {
		/* tap.h: the board of the player to move, its placements links */
		links = malloc(sizeof *links);
		if (links == NULL || !tap_links(g, &g->rg, rc->cfg->from_address, hm->tap_subject, hm->tap_turn, links, &href))
			goto out;
		if (!html_board_table_fit(&pieces[BOARD], hb, links, REPLY_HTML_BOARD_BUDGET)) {
			/*
			 * Links with the game's whole Subject make the mail too
			 * long for Gmail's 102 KB (it clips the rest): the short
			 * one, "Oust Board 106 [token]", which the token's reader
			 * takes as well (token.h); if even those do not fit, the
			 * board without links: the text says how to reply.
			 */
			char shortsubj[80];
			const char *tok = strrchr(hm->tap_subject, '[');

			snprintf(shortsubj, sizeof shortsubj, "Oust Board %ld %s", g->board, tok != NULL ? tok : "");
			free(href);
			href = NULL;
			if (!tap_links(g, &g->rg, rc->cfg->from_address, shortsubj, hm->tap_turn, links, &href))
				goto out;
			if (!html_board_table_fit(&pieces[BOARD], hb, links, REPLY_HTML_BOARD_BUDGET)) {
				html_board_table(&pieces[BOARD], hb);
				free(href);
				href = NULL;
			}
		}
		strbuf_puts(&pieces[BOARD], hb->hex ? "</div></div>" : "</div>");
		if (href != NULL)
			tap_html_after(&pieces[BOARD], &g->rg, g->swap, href);
	} else {
		html_board_table(&pieces[BOARD], hb);
		strbuf_puts(&pieces[BOARD], hb->hex ? "</div></div>" : "</div>");
	}
	if (hm->upto != g->nturns)
		strbuf_printf(&pieces[STATUS], "<p style=\"margin:0\">The position after turn %d of %d.</p>\n",
		    hm->upto, g->nturns);
	reply_text_status(g, status, sizeof status);
	/* "Turn 8, bob (White, o) to move." or "Game over: alice won: bob resigned." */
	strbuf_printf(&pieces[STATUS], "<p style=\"margin:0 0 10px\"><b>%s%c%s.</b></p>",
	    game_over(g) ? "Game over: " : "", game_over(g) ? status[0] : toupper((unsigned char)status[0]), status + 1);
	if (hm->next && (!game_over(g) || hm->next_body != NULL)) {
		/* the command to send next; once over, the return game's (the text part's {rematch}) */
		next = hm->next_body != NULL ? strdup(hm->next_body) : reply_text_next(g);
		if (next == NULL)
			goto out;
		if (next[0] != '\0')
			html_pre(&pieces[NEXT], next, true);
	}
	if (hm->end_subject != NULL && hm->end_challenge != NULL && game_over(g) && !end_links(&pieces[NEXT], rc,
	    g, hm))
		goto out;
	if (hm->recent != NULL && hm->recent[0] != '\0') {
		strbuf_puts(&pieces[RECENT], "<p style=\"margin:10px 0 0\">Turns:</p>\n");
		html_pre(&pieces[RECENT], hm->recent, true);
	}
	if (rc->cfg->web_url[0] != '\0') {
		/* web_url: the board's page, as the text part's last line (web_link) */
		const char *url = rc->cfg->web_url;

		strbuf_puts(&pieces[RECENT], "\n<p style=\"margin:10px 0 0\"><a style=\"color:#6b3d00\" href=\"");
		html_escape(&pieces[RECENT], url);
		strbuf_printf(&pieces[RECENT], "%sboard/%ld.html\">The board on the web</a></p>",
		    url[strlen(url) - 1] == '/' ? "" : "/", g->board);
	}
	for (i = 0; i < 8; i++) {
		vals[i] = strbuf_finish(&pieces[i]);
		if (vals[i] == NULL)
			goto out;
		var(&vs, names[i], vals[i]);
	}
	html_escape(&srv, rc->cfg->server_name);
	html_escape(&addr, rc->cfg->from_address);
	srvs = strbuf_finish(&srv);
	addrs = strbuf_finish(&addr);
	if (srvs == NULL || addrs == NULL)
		goto out;
	/* reply_expand() adds these two as they are: the escaped ones come first and win */
	var(&vs, "server", srvs);
	var(&vs, "address", addrs);
	st = reply_expand(rc, hm->tmpl != NULL ? hm->tmpl : "mail.html", &vs, out);
	if (st == MAIL_TEMPLATE && rc->html_missing) {
		/* a templates directory from before mail.html: the text alone, as with html_mail = off */
		st = MAIL_OK;
	}
out:
	if (st == MAIL_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	for (i = 0; i < 8; i++) {
		strbuf_release(&pieces[i]);
		free(vals[i]);
	}
	free(srvs);
	free(addrs);
	free(next);
	free(hb);
	free(links);
	free(href);
	return st;
}
