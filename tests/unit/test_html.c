/* test_html: escaping of outside text, and the board as a mail table and as SVG. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/game.h"
#include "game/html.h"
#include "game/rules.h"
#include "t.h"

static char *esc(const char *s, int text)
{
	struct strbuf b = STRBUF_INIT;

	if (text)
		html_text(&b, s);
	else
		html_escape(&b, s);
	return strbuf_finish(&b);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)) != NULL; hay += strlen(needle))
		n++;
	return n;
}

static void test_escape(void)
{
	char *s, word[2001];
	size_t i;

	s = esc("<script>alert('x')</script>", 0);
	ok_str(s, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", "<script> and quotes escaped");
	free(s);
	s = esc("a & \"b\" 'c'", 0);
	ok_str(s, "a &amp; &quot;b&quot; &#39;c&#39;", "& and both quotes escaped");
	free(s);
	s = esc("Bob \xe2\x80\xae" "evil\xe2\x80\xac \xe2\x81\xa7" "x\xe2\x81\xa9 \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", 1);
	ok_str(s, "<bdi>Bob evil x \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d</bdi>",
	    "bidi overrides and isolates dropped, Hebrew kept, the text isolated in <bdi>");
	free(s);
	s = esc("a\x01" "b\x7f" "c\xff" "d", 0);
	ok_str(s, "abc\xef\xbf\xbd" "d", "control characters dropped, invalid UTF-8 replaced");
	free(s);
	s = esc("line one\nline two\n\n", 1);
	ok_str(s, "<bdi>line one<br>\nline two</bdi>", "line ends as <br>, the final ones dropped");
	free(s);
	memset(word, 'w', 2000);
	word[2000] = '\0';
	s = esc(word, 1);
	ok(s != NULL && count(s, "<wbr>") == 2000 / HTML_WORD_MAX - (2000 % HTML_WORD_MAX == 0),
	    "a 2,000-character word breaks every %d characters", HTML_WORD_MAX);
	for (i = 0; s != NULL && s[i] != '\0' && strncmp(s + i, "<wbr>", 5) != 0; i++)
		;
	ok(s != NULL && i == 5 + HTML_WORD_MAX, "... the first break after %d characters", HTML_WORD_MAX);
	free(s);
	s = esc("short words stay whole", 1);
	ok_str(s, "<bdi>short words stay whole</bdi>", "short words have no break");
	free(s);
	s = esc("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 1);
	ok(s != NULL && count(s, "<wbr>") == 1 && strstr(s, "\xc3<wbr>") == NULL,
	    "breaks count characters and fall between them, not inside one");
	free(s);
}

/* A game on an N x N board with the given placements, one turn each, alternating. */
static void setup(struct game *g, int size, const char *const *pts, int n)
{
	int i, p;

	game_init(g, 101, size, false, "alice", "bob", 1700000000);
	for (i = 0; i < n; i++) {
		p = rules_parse_point(&g->rg.board, pts[i], (int)strlen(pts[i]));
		if (game_move(g, i % 2 == 0 ? "alice" : "bob", &p, 1, 1700000000 + i, NULL) != GAME_OK)
			printf("# cannot play %s\n", pts[i]);
	}
}

static void test_board(void)
{
	static const char *const pts[] = { "C3", "D4", "A1", "E5" };
	struct html_board hb;
	struct strbuf b = STRBUF_INIT;
	struct game g;
	char *s, black[GAME_NAME_SIZE], white[GAME_NAME_SIZE];

	setup(&g, 5, pts, 4);
	ok_int(html_board_of_game(&g, g.nturns, &hb, black, white), GAME_OK, "the position now");
	ok(hb.pt[2 * 5 + 2] == HTML_BLACK && hb.pt[3 * 5 + 3] == HTML_WHITE && hb.pt[0] == HTML_BLACK &&
	    hb.pt[4 * 5 + 4] == HTML_WHITE_LAST, "stones where they are played, E5 marked as the last turn's");
	ok(hb.pt[1] == HTML_EMPTY && hb.stones[0] == 2 && hb.stones[1] == 2 && hb.largest[0] == 1,
	    "an empty point; two stones each, largest groups of one");
	ok_str(black, "alice", "the owner of Black");
	ok_int(html_board_of_game(&g, 1, &hb, NULL, NULL), GAME_OK, "the position after turn 1");
	ok(hb.pt[2 * 5 + 2] == HTML_BLACK_LAST && hb.stones[0] == 1 && hb.stones[1] == 0 &&
	    hb.pt[2 * 5 + 2 - 2 * 5 + 0] != HTML_BLACK, "... C3 alone, marked");
	ok_int(html_board_of_game(&g, 9, &hb, NULL, NULL), GAME_BAD_TURN_NUMBER, "no turn 9");
	html_board_of_game(&g, g.nturns, &hb, NULL, NULL);
	html_board_table(&b, &hb);
	s = strbuf_finish(&b);
	ok(s != NULL && count(s, "background:#111;") == 2 && count(s, "background:#eee;") == 2,
	    "table: two black and two white stones");
	ok(s != NULL && count(s, "color:#d21>&bull;\n") == 1, "table: the last turn's stone marked");
	ok(s != NULL && count(s, "<tr>") == 7 && count(s, ">A</td>") == 2 && count(s, "<td>5</td>") == 1,
	    "table: letters above and below, numbers on the left");
	ok(s != NULL && strstr(s, "width:100%;max-width:258px;table-layout:fixed;") != NULL &&
	    count(s, "<div style=\"padding:50% 0;line-height:0\">") == 5,
	    "table: as wide as the mail up to 48 pixels a point, each row's first point square");
	ok(s != NULL && count(s, "&bull;") == 1 && count(s, "&middot;") == 21,
	    "table: no star point (5x5 has only C3, taken), 21 empty points");
	ok(s != NULL && strstr(s, "<svg") == NULL && strstr(s, "<img") == NULL && strstr(s, "class=") == NULL,
	    "table: no SVG, no image, no class (inline CSS only)");
	free(s);
	html_board_svg(&b, &hb, "Board <101>", "ascii");
	s = strbuf_finish(&b);
	ok(s != NULL && count(s, "<circle class=\"b\"") == 2 && count(s, "<circle class=\"w\"") == 2 &&
	    count(s, "class=\"m\"") == 1, "svg: the stones and one mark");
	ok(s != NULL && strstr(s, "data-point=\"E5\" cx=\"176\" cy=\"48\"") != NULL &&
	    strstr(s, "data-point=\"A1\" cx=\"48\" cy=\"176\"") != NULL, "svg: E5 top right, A1 bottom left");
	ok(s != NULL && strstr(s, "aria-label=\"Board &lt;101&gt;\" aria-describedby=\"ascii\"") != NULL &&
	    strstr(s, "<title>Board &lt;101&gt;</title>") != NULL, "svg: titled (escaped), described by the ASCII board");
	free(s);
	game_release(&g);
}

/* The taken stone of test_captures (A1): marked in the table, as a link too, and in the SVG. */
static void test_captures_drawn(const struct html_board *hb)
{
	struct html_links links;
	struct strbuf b = STRBUF_INIT;
	size_t rich;
	char *s;

	html_board_table(&b, hb);
	s = strbuf_finish(&b);
	ok(s != NULL && count(s, HTML_GONE_WHITE_STYLE "\" title=\"A1 taken\">") == 1 && count(s, "taken") == 1,
	    "table: A1 taken, a ring, titled");
	free(s);
	memset(&links, 0, sizeof links);
	links.href = "mailto:oust@example.net?subject=S&body=%231%0A";
	links.kind[0] = HTML_LINK_PLAIN;
	links.kind[2] = HTML_LINK_CAPTURE;
	html_board_table_links(&b, hb, &links);
	s = strbuf_finish(&b);
	ok(s != NULL && strstr(s, "<a href=\"mailto:oust@example.net?subject=S&amp;body=%231%0AA1\" title=\"A1 taken\" "
	    "style=\"display:block;padding:50% 0;line-height:0;" HTML_GONE_WHITE_STYLE ";") != NULL &&
	    strstr(s, "title=\"C1: captures\"") != NULL, "table: the link on A1 keeps the taken mark; C1 captures");
	free(s);
	ok(html_board_table_fit(&b, hb, &links, 100000) && b.len > 0 && strstr(b.s, "oust-tap") == NULL,
	    "fit: links as blocks within a large budget");
	strbuf_release(&b);
	html_board_table_links(&b, hb, &links);
	rich = b.len;
	strbuf_release(&b);
	ok(html_board_table_fit(&b, hb, &links, rich - 1) && strstr(b.s, "class=\"oust-tap\"") != NULL &&
	    strstr(b.s, "title=\"A1 taken\"") != NULL && b.len < rich,
	    "fit: compact links within a small budget (%zu bytes), the taken one still marked", b.len);
	strbuf_release(&b);
	ok(!html_board_table_fit(&b, hb, &links, 500) && b.len == 0, "fit: too small a budget: nothing");
	html_board_svg(&b, hb, "B", "d");
	s = strbuf_finish(&b);
	ok(s != NULL && strstr(s, "<circle class=\"gw\" data-point=\"A1\"") != NULL &&
	    strstr(s, "<title>A1 taken</title>") != NULL, "svg: A1 taken, titled");
	free(s);
}

static void test_captures(void)
{
	/* Black B2 joins nothing; White surrounds... a plain capture: white A2, black A1? Use the rules:
	 * on 5x5, White C2 then Black C3 then White B3? Simpler: find a capture by the rules themselves. */
	struct rules_board before, now;
	struct html_board hb;
	int p;

	rules_board_init(&before, 5);
	rules_board_setup(&before, rules_point(&before, 0, 0), RULES_WHITE);
	rules_board_setup(&before, rules_point(&before, 1, 1), RULES_BLACK);
	now = before;
	p = rules_point(&now, 1, 0);
	ok_int(rules_place(&now, RULES_BLACK, p, NULL), RULES_CAPTURE, "B1 joins B2 and captures A1");
	html_board_from(&hb, &now, &before, &p, 1);
	ok(hb.pt[0] == HTML_GONE_WHITE && hb.pt[1] == HTML_BLACK_LAST && hb.pt[5 + 1] == HTML_BLACK,
	    "the captured stone shown as gone, the new one marked");
	test_captures_drawn(&hb);
}

static void test_size(void)
{
	struct rules_board rb;
	struct html_board hb;
	struct strbuf b = STRBUF_INIT;
	char *s;
	int x, y;

	/* every point taken, in stripes: the largest table there can be */
	rules_board_init(&rb, 25);
	for (y = 0; y < 25; y++)
		for (x = 0; x < 25; x++)
			rules_board_setup(&rb, rules_point(&rb, x, y), (x / 2 + y) % 2 ? RULES_WHITE : RULES_BLACK);
	html_board_from(&hb, &rb, NULL, NULL, 0);
	html_board_table(&b, &hb);
	s = strbuf_finish(&b);
	ok(s != NULL && strlen(s) <= 32 * 1024, "a full 25x25 table is at most 32 KB (%zu bytes)", s ? strlen(s) : 0);
	free(s);
}

/* strbuf_truncate: back to a mark, never past the end, harmless on an empty buffer. */
static void test_truncate(void)
{
	struct strbuf b = STRBUF_INIT;
	size_t mark;
	char *s;

	strbuf_truncate(&b, 0);
	ok(b.s == NULL && b.len == 0, "truncating an empty strbuf changes nothing");
	strbuf_puts(&b, "<p>kept</p>");
	mark = b.len;
	strbuf_puts(&b, "<table>dropped</table>");
	strbuf_truncate(&b, mark + 100);
	ok_int(b.len, mark + 22, "a mark past the end changes nothing");
	strbuf_truncate(&b, mark);
	strbuf_puts(&b, "<p>after</p>");
	s = strbuf_finish(&b);
	ok_str(s, "<p>kept</p><p>after</p>", "text cut back to the mark, then appended");
	free(s);
}

/* A hex-hex board of side 3: the drawing's layout in the table and the SVG. */
static void test_hex(void)
{
	struct html_board hb;
	struct strbuf b = STRBUF_INIT;
	struct game g;
	char *s, *row;
	const char *pts[] = { "c3", "a1", "e3", "c5" };
	int i, p;

	game_init_shape(&g, 101, &(struct game_form){ RULES_HEX, 3, false }, "alice", "bob", 1700000000);
	for (i = 0; i < 4; i++) {
		p = rules_parse_point(&g.rg.board, pts[i], (int)strlen(pts[i]));
		if (game_move(&g, i % 2 == 0 ? "alice" : "bob", &p, 1, 1700000000 + i, NULL) != GAME_OK)
			printf("# cannot play %s\n", pts[i]);
	}
	ok_int(html_board_of_game(&g, g.nturns, &hb, NULL, NULL), GAME_OK, "hex: the position now");
	ok(hb.hex && hb.width == 5 && hb.pt[2 * 5 + 2] == HTML_BLACK && hb.pt[0] == HTML_WHITE &&
	    hb.pt[2 * 5 + 4] == HTML_WHITE_LAST && hb.pt[4 * 5 + 4] == HTML_BLACK && hb.pt[4 * 5 + 0] == HTML_OFF && hb.pt[0 * 5 + 4] == HTML_OFF,
	    "hex: c3 (the centre), a1 and the marked c5 in the axial array, the cut-off corners off the board");
	html_board_table(&b, &hb);
	s = strbuf_finish(&b);
	ok(s != NULL && count(s, "<td colspan=2 style=background:#111;") == 2 &&
	    count(s, "<td colspan=2 style=background:#eee;") == 2 && count(s, "color:#d21>&bull;") == 1,
	    "hex table: two black and two white stones, c5 marked");
	ok(s != NULL && count(s, "<td colspan=2 style=background:" HTML_HEX_HOLE) == 19 - 4,
	    "hex table: the 15 empty cells as holes");
	ok(s != NULL && count(s, "<td style=\"width:11px\"></td>") == 11 && count(s, "<tr") == 1 + 2 + 5,
	    "hex table: 11 half-cell columns, the numbers' rows and five rows");
	/* row e (the top): letter, 2 half columns of offset, 3 cells, the number 4, 1 half column, letter */
	row = s != NULL ? strstr(s, "<tr><td>e</td>") : NULL;
	ok(row != NULL && strncmp(row, "<tr><td>e</td><td colspan=2></td><td colspan=2 style=", 52) == 0 &&
	    strstr(row, "<td colspan=2>4</td><td></td><td>e</td></tr>") != NULL,
	    "hex table: the top row offset by a cell, its line number 4 after it");
	row = s != NULL ? strstr(s, "<tr><td>c</td>") : NULL;
	ok(row != NULL && strncmp(row, "<tr><td>c</td><td colspan=2 style=", 34) == 0 &&
	    strstr(row, "<td></td><td>c</td></tr>") != NULL, "hex table: the middle row not offset, no number");
	ok(s != NULL && count(s, "<td colspan=2>1</td><td colspan=2>2</td><td colspan=2>3</td>") == 2,
	    "hex table: the numbers 1 to 3 above and below");
	free(s);
	html_board_svg(&b, &hb, "Board 101", "ascii");
	s = strbuf_finish(&b);
	ok(s != NULL && count(s, "<circle class=\"b\"") == 2 && count(s, "<circle class=\"w\"") == 2 &&
	    count(s, "class=\"m\"") == 1 && strstr(s, "class=\"board hex\"") != NULL,
	    "hex svg: the stones and one mark");
	ok(s != NULL && count(s, "l16 9.33v18.67") == 19, "hex svg: 19 hexagons");
	/* centres: half a cell (16) a column of the drawing, 28 a row */
	ok(s != NULL && strstr(s, "data-point=\"c3\" cx=\"120\" cy=\"108\"") != NULL &&
	    strstr(s, "data-point=\"a1\" cx=\"88\" cy=\"164\"") != NULL &&
	    strstr(s, "data-point=\"c5\" cx=\"184\" cy=\"108\"") != NULL &&
	    strstr(s, "data-point=\"e3\" cx=\"152\" cy=\"52\"") != NULL,
	    "hex svg: c3 in the middle, a1 bottom left, e3 top right, c5 the middle row's end");
	free(s);
	game_release(&g);
}

int main(void)
{
	test_escape();
	test_board();
	test_captures();
	test_size();
	test_truncate();
	test_hex();
	return t_done();
}
