/* tap: the tappable board of a board mail.  See tap.h. */
#include "mail/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/token.h"

bool tap_links(const struct game *g, const struct rules_game *rg, const char *server_address, const char *subject,
    const char *turn, struct html_links *out, char **href)
{
	struct rules_game *copy = malloc(sizeof *copy);
	uint16_t *legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	struct rules_check chk;
	char *subj = token_uri_encode(subject), *first = token_uri_encode(turn != NULL ? turn : "");
	size_t len;
	int n, i, p;
	bool ok = false;

	(void)g;
	*href = NULL;
	memset(out->kind, HTML_LINK_NONE, sizeof out->kind);
	if (copy == NULL || legal == NULL || subj == NULL || first == NULL)
		goto out;
	/*
	 * RFC 6068: mailto:addr?subject=...&body=...; the address is the
	 * server's own, plain ASCII.  The body's first line is the turn the
	 * link plays ("#6", "#6.1": the Subject is the whole game's), the
	 * second the placement the caller appends.
	 */
	len = strlen(server_address) + strlen(subj) + strlen(first) + 32;
	*href = malloc(len);
	if (*href == NULL)
		goto out;
	snprintf(*href, len, "mailto:%s?subject=%s&body=%s%s", server_address, subj, first, first[0] != '\0' ? "%0A" : "");
	out->href = *href;
	*copy = *rg;	/* rules_game_legal brings the copy's cache up to date */
	n = rules_game_legal(copy, legal);
	for (i = 0; i < n; i++) {
		p = legal[i];
		(void)rules_check(&copy->board, copy->to_move, p, &chk);
		out->kind[rules_y(&copy->board, p) * copy->board.width + rules_x(&copy->board, p)] =
		    chk.captured > 0 ? HTML_LINK_CAPTURE : HTML_LINK_PLAIN;
	}
	ok = true;
out:
	free(copy);
	free(legal);
	free(subj);
	free(first);
	if (!ok) {
		free(*href);
		*href = NULL;
	}
	return ok;
}

struct game *tap_after_part(const struct game *g, int *part)
{
	struct game *shown;
	int *pts;
	char why[200];
	const char *p;
	bool ok;

	*part = 0;
	for (p = g->pending; *p != '\0'; p++)
		*part += p == g->pending || *p == ',';
	if (*part == 0)
		return NULL;
	shown = malloc(sizeof *shown);
	pts = malloc(RULES_MAX_POINTS * sizeof *pts);
	ok = shown != NULL && pts != NULL;
	if (ok) {
		int np = 0;

		*shown = *g;
		ok = game_pending_points(g, pts, &np, &shown->rg, why, sizeof why);
	}
	free(pts);
	if (!ok) {
		free(shown);
		return NULL;
	}
	return shown;
}

void tap_html_after(struct strbuf *b, const struct rules_game *rg, bool swap, const char *href)
{
	strbuf_puts(b, "<p style=\"margin:0 0 10px\">Tap a point to play it (<span style=\"color:#1f4fb5\">"
	    "&#9675;</span> a placement, <span style=\"color:#c0261b\">&#9678;</span> a capture: you place "
	    "again after it; a ringed pale disk: a stone the last turn took), then send the reply that opens; "
	    "its Subject stands for your password. Or reply with a point's name (");
	strbuf_puts(b, rg->board.shape == RULES_HEX ? "d4" : "D4");
	strbuf_puts(b, ").");
	if (swap && rules_game_can_swap(rg)) {
		strbuf_puts(b, " Or <a href=\"");
		html_escape(b, href);
		strbuf_puts(b, "swap\">swap</a> (take over Black's stones: the pie rule).");
	}
	strbuf_puts(b, " To give up: <a href=\"");
	html_escape(b, href);
	strbuf_puts(b, "resign%20yes\">resign</a>.</p>\n");
}
