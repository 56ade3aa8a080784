/* test_reply: the templates directory, subjects, ids, threading and the texts of the replies. */
#include "mail/reply.h"

#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/rules.h"
#include "mail/mailout.h"
#include "t.h"
#include "t_home.h"

/* the list of commands the help mail gets (commands/pipeline/mailcmd.c makes it) */
#define HELP_LIST "  help\n      This text."

#define NOW 1700000000

static struct config cfg;
static char tdir[4096];

/* The checkout's templates: tests run from the top directory. */
static const char *top_templates(void)
{
	const char *top = getenv("OUSTPBM_TOP");

	snprintf(tdir, sizeof tdir, "%s/templates", top != NULL ? top : ".");
	return tdir;
}

static void setup(const char *templates)
{
	config_defaults(&cfg);
	snprintf(cfg.from_address, sizeof cfg.from_address, "oust@example.net");
	snprintf(cfg.server_name, sizeof cfg.server_name, "Test server");
	snprintf(cfg.templates, sizeof cfg.templates, "%s", templates);
	cfg.test_time_set = true;
	cfg.test_time = NOW;
}

static bool has(const struct reply_mail *m, const char *s)
{
	return m->msg != NULL && strstr(m->msg, s) != NULL;
}

static int place(struct game *g, const char *who, const char *pt)
{
	int p = rules_parse_point(&g->rg.board, pt, (int)strlen(pt));

	return game_move(g, who, &p, 1, NOW, NULL);
}

static void test_templates_dir(void)
{
	char *home = t_home_new(), out[4096], err[REPLY_ERR_MAX];
	enum mail_status st;

	setup("/some/where");
	ok_int(reply_templates_dir(&cfg, home, out, sizeof out, err, sizeof err), MAIL_OK, "templates key, absolute");
	ok_str(out, "/some/where", "an absolute key is taken as it is");
	setup("mine");
	reply_templates_dir(&cfg, "/home/oust", out, sizeof out, err, sizeof err);
	ok_str(out, "/home/oust/mine", "a relative key is taken from the home");

	setup("");
	mkdir(t_path(home, "templates"), 0700);
	ok_int(reply_templates_dir(&cfg, home, out, sizeof out, err, sizeof err), MAIL_OK, "<home>/templates");
	ok_str(out, t_path(home, "templates"), "<home>/templates comes first without the key");
	rmdir(t_path(home, "templates"));
	st = reply_templates_dir(&cfg, home, out, sizeof out, err, sizeof err);
	/* the test program is in build/tests: no templates beside it; DATADIR only if installed */
	if (st == MAIL_OK)
		ok_str(out, OUSTPBM_DATADIR "/templates", "then the installed templates");
	else
		ok(strstr(err, "no templates directory") != NULL && strstr(err, "set 'templates'") != NULL,
		    "no directory found: the message says what to set: %s", err);
	t_home_free(home);
}

static void test_errors(void)
{
	char *dir = t_home_new();
	struct reply_ctx rc;
	struct reply_mail m;

	setup(dir);
	reply_init(&rc, &cfg, "/nonexistent", NOW, "in.1@example.org", "", "alice@example.org");
	ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "" },
	    HELP_LIST, &m), MAIL_TEMPLATE, "a missing template");
	ok(strstr(rc.err, "help.txt") != NULL, "the message names the file: %s", rc.err);
	ok(m.msg == NULL, "no message on failure");

	t_spew(t_path(dir, "help.txt"), "line one\nHello {sever}\n", strlen("line one\nHello {sever}\n"));
	ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "" },
	    HELP_LIST, &m), MAIL_TEMPLATE, "a template with a bad placeholder");
	ok(strstr(rc.err, "help.txt line 2: unknown placeholder '{sever}'") != NULL, "line and culprit: %s", rc.err);

	t_spew(t_path(dir, "help.txt"), "Hello {server} at {address}\n", strlen("Hello {server} at {address}\n"));
	ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "" },
	    HELP_LIST, &m), MAIL_TEMPLATE, "a template is read once per run");
	reply_release(&rc);
	ok_int(reply_help(&rc, &(struct reply_to){ "not an address", "" },
	    HELP_LIST, &m), MAIL_COMPOSE, "a bad recipient cannot be composed");
	ok(strstr(rc.err, "not an address") != NULL, "the message names the recipient: %s", rc.err);
	reply_mail_release(&m);

	reply_release(&rc);
	setup("");
	reply_init(&rc, &cfg, "/nonexistent", NOW, "", "", "");
	if (reply_templates_dir(&cfg, "/nonexistent", tdir, sizeof tdir, rc.err, sizeof rc.err) != MAIL_OK) {
		ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "" },
		    HELP_LIST, &m), MAIL_TEMPLATE, "no templates directory at all");
		ok(strstr(rc.err, "no templates directory") != NULL, "and the message says so: %s", rc.err);
	} else {
		ok(1, "# skip: templates are installed");
		ok(1, "# skip");
	}
	reply_release(&rc);
	t_home_free(dir);
}

static void test_ids(void)
{
	struct reply_ctx rc, rc2;
	struct reply_mail m, m2;

	setup(top_templates());
	reply_init(&rc, &cfg, "/nonexistent", NOW, "in.1@example.org", "a.0@example.org in.0@example.org",
	    "alice@example.org");
	ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "Alice" },
	    HELP_LIST, &m), MAIL_OK, "help composed");
	ok(has(&m, "Subject: Oust help\n"), "help subject");
	ok(has(&m, "To: Alice <alice@example.org>\n"), "to the sender, with the name");
	ok(has(&m, "From: Test server <oust@example.net>\n"), "from the server");
	ok(has(&m, "Date: Tue, 14 Nov 2023 22:13:20 +0000\n"), "the date is the test time");
	ok(has(&m, "In-Reply-To: <in.1@example.org>\n"), "in reply to the incoming mail");
	ok(has(&m, "References: <a.0@example.org> <in.0@example.org>\n <in.1@example.org>\n") ||
	    has(&m, "References: <a.0@example.org> <in.0@example.org> <in.1@example.org>\n"),
	    "references: the incoming ones, then the incoming id");
	ok(has(&m, "Message-Id: <oust.1700000000."), "an id from the time");
	ok(has(&m, ".1@example.net>\n"), "... the counter and the server's domain");
	ok(has(&m, "Oust, by Mark Steere"), "the help names Mark Steere");
	ok_str(m.rcpt, "alice@example.org", "recipient");
	reply_mail_release(&m);

	ok_int(reply_help(&rc, &(struct reply_to){ "alice@example.org", "" },
	    HELP_LIST, &m), MAIL_OK, "a second reply");
	ok(has(&m, ".2@example.net>\n"), "the counter goes on");
	reply_mail_release(&m);
	reply_release(&rc);

	/* the same incoming mail gives the same ids: reproducible */
	reply_init(&rc, &cfg, "/nonexistent", NOW, "in.1@example.org", "", "alice@example.org");
	reply_init(&rc2, &cfg, "/nonexistent", NOW, "in.2@example.org", "", "alice@example.org");
	reply_help(&rc, &(struct reply_to){ "alice@example.org", "" }, HELP_LIST, &m);
	reply_help(&rc2, &(struct reply_to){ "alice@example.org", "" }, HELP_LIST, &m2);
	ok(m.msg != NULL && m2.msg != NULL && strstr(m.msg, "Message-Id:") != NULL &&
	    strncmp(strstr(m.msg, "Message-Id:"), strstr(m2.msg, "Message-Id:"), 40) != 0,
	    "another incoming mail, another id");
	reply_mail_release(&m);
	reply_mail_release(&m2);
	reply_release(&rc);
	reply_release(&rc2);
}

static void test_game(void)
{
	struct reply_player alice = { .userid = "alice", .address = "alice@example.org", .fullname = "Alice Liddell" };
	struct reply_player bob = { .userid = "bob", .address = "bob@example.com", .fullname = "" };
	struct reply_event ev = { .what = REPLY_CHALLENGE, .actor = "alice", .comment = "Good luck!" };
	struct reply_ctx rc;
	struct reply_mail m;
	struct game g;

	setup(top_templates());
	reply_init(&rc, &cfg, "/nonexistent", NOW, "c.1@example.org", "", "alice@example.org");
	game_init(&g, 101, 5, true, "alice", "bob", NOW);
	snprintf(g.thread, sizeof g.thread, "<board-101.1@example.net>");
	ok_int(reply_game(&rc, &g, &ev, &bob, &m), MAIL_OK, "challenge mail");
	ok(has(&m, "Subject: Oust Board 101 alice vs bob\n"), "the game's one Subject: the board and its players");
	ok(has(&m, "Message-Id: <101.0.bob.1700000000@example.net>\n"), "board id: board, turn, recipient, time");
	ok(has(&m, "References: <board-101.1@example.net> <c.1@example.org>\n"), "the board's root id comes first");
	ok(has(&m, "alice writes:\n\n  Good luck!\n"), "the comment goes to the opponent");
	ok(has(&m, "Waiting for alice (Black, x) to play turn 1.\n"), "the waiting player's copy: whom the board waits for");
	ok(has(&m, "After alice's first turn you may swap (the pie rule):\n"), "... and when they may swap");
	ok(!has(&m, "move 101#1 alice"), "... not the other player's command");
	ok(!has(&m, "capturing placements"), "... nor their options");
	reply_mail_release(&m);
	ok_int(reply_game(&rc, &g, &ev, &alice, &m), MAIL_OK, "the challenger's copy");
	ok(has(&m, "Your move, alice (turn 1, you play Black, x). To play, send:\n\n"
	    "    move 101#1 alice <password> <placements>\n"), "... the player to move's: the command to send");
	ok(has(&m, "Your comment was passed on") == false, "... no 'passed on' to the player to move");
	ok(has(&m, "Your capturing placements: none: every placement is non-capturing.\n"), "... their options");
	ok(!has(&m, "Good luck!"), "... without the challenger's own comment");
	ok(has(&m, "To: Alice Liddell <alice@example.org>\n"), "... to the full name");
	reply_mail_release(&m);

	place(&g, "alice", "C3");
	ev.what = REPLY_MOVE;
	ev.first = 1;
	ev.comment = "";
	ok_int(reply_game(&rc, &g, &ev, &bob, &m), MAIL_OK, "move mail");
	ok(has(&m, "Subject: Oust Board 101 alice vs bob\n"), "subject: the same for the whole game");
	ok(has(&m, "Turn 1: alice played C3.\n"), "what happened");
	ok(has(&m, "swap 101#2 bob <password>"), "swap is offered at turn 2");
	ok(has(&m, "   1  x alice  C3\n"), "the last turns");
	reply_mail_release(&m);
	ev.comment = "Your turn.";
	ok_int(reply_game(&rc, &g, &ev, &alice, &m), MAIL_OK, "the mover's copy");
	ok(has(&m, "Waiting for bob (White, o) to play turn 2.\nYour comment was passed on to bob.\n"),
	    "... whom the board waits for, and the comment passed on");
	reply_mail_release(&m);
	ev.comment = "";

	place(&g, "bob", "B3");
	place(&g, "alice", "D3");	/* captures B3: bob has nothing left */
	ev.first = 3;
	ev.captured = 1;
	ok_int(g.rg.result, RULES_BLACK_WINS, "alice won");
	ok_int(reply_game(&rc, &g, &ev, &bob, &m), MAIL_OK, "end mail");
	ok(has(&m, "Subject: Oust Board 101 alice vs bob\n"), "the end mail: the game's Subject still");
	ok(has(&m, "is over: alice won: bob has no stones left."), "the result");
	ok(has(&m, "Turn 3: alice played D3 (capturing B3), the last of bob's.\n"), "the winning turn, naming the capture");
	ok(has(&m, "For a return game, send:\n\n    challenge bob <password> alice -size=5\n"),
	    "the rematch command, for the reader, colours reversed: bob, who had White, takes Black");
	ok(!has(&m, "Or reply to this mail with this line alone"), "... no return game by reply without a token");
	ok(has(&m, "   1  2023-11-14 22:13 UTC  x alice  C3\n"), "the whole history with times, in the mails' one form");
	ok(!has(&m, "To play, send"), "no command to send once over");
	reply_mail_release(&m);

	ok_int(reply_error(&rc, &(struct reply_to){ "carol@example.net", "" },
	    &(struct reply_refused){ 101, &g, NULL, "move 101 carol **** E5", "carol is not playing on board 101" }, &m), MAIL_OK, "error with a board");
	ok(has(&m, "Subject: Oust Board 101 error\n"), "board error subject");
	ok(has(&m, "not carried out: carol is not playing on board 101."), "the error");
	ok(has(&m, "    move 101 carol **** E5\n"), "the command quoted");
	ok(has(&m, "Board 101 now (alice won: bob has no stones left):"), "the board as it stands");
	reply_mail_release(&m);
	ok_int(reply_error(&rc, &(struct reply_to){ "carol@example.net", "" },
	    &(struct reply_refused){ 0, NULL, NULL, "", "no command found" }, &m), MAIL_OK,
	    "error without a board");
	ok(has(&m, "Subject: Oust error\n"), "plain error subject");
	ok(has(&m, "(no command found)"), "no command to quote");
	ok(!has(&m, "References: <board"), "no board root");
	reply_mail_release(&m);

	ok_int(reply_games(&rc, &(struct reply_to){ "carol@example.net", "" },
	    &(struct reply_games_list){ "carol", true, REPLY_GAMES_ALL, NULL, 0, "", NULL, NULL }, &m), MAIL_OK, "empty games list");
	ok(has(&m, "(carol plays on no board)"), "says so");
	reply_mail_release(&m);
	ok_int(reply_games(&rc, &(struct reply_to){ "alice@example.net", "" },
	    &(struct reply_games_list){ "alice", true, REPLY_GAMES_ALL, &g, 1, "", NULL, NULL }, &m), MAIL_OK, "games list");
	ok(has(&m, "  101        5x5    alice (x) - bob (o)  alice won: bob has no stones\n"
	    "                                         left\n"), "one line per board, a long state wrapped under its column");
	reply_mail_release(&m);
	game_release(&g);
	game_init(&g, 102, 5, true, "carol", "alice", NOW);
	place(&g, "carol", "C3");
	ok_int(reply_games(&rc, &(struct reply_to){ "alice@example.net", "" },
	    &(struct reply_games_list){ "alice", true, REPLY_GAMES_ALL, &g, 1, "", NULL, NULL }, &m), MAIL_OK, "games list, own");
	ok(has(&m, "  102        5x5    carol (x) - alice (o)  turn 2, alice to move: your\n"
	    "                                           move\n"), "... marks your move (wrapped under its column)");
	reply_mail_release(&m);
	ok_int(reply_games(&rc, &(struct reply_to){ "bob@example.net", "" },
	    &(struct reply_games_list){ "alice", false, REPLY_GAMES_ALL, &g, 1, "", NULL, NULL }, &m), MAIL_OK, "games list, another's");
	ok(has(&m, "turn 2, alice to move\n"), "... without 'your move'");
	reply_mail_release(&m);
	game_release(&g);
	reply_release(&rc);
}

/* reply_wrap: 72 columns, the indent kept, long words whole, the drawing's lines untouched. */
static void test_wrap(void)
{
	char in[4096], want[4096], word[201], *w;
	int i;

	w = reply_wrap("short line\n\nanother\n");
	ok_str(w, "short line\n\nanother\n", "short lines stay as they are");
	free(w);
	/* 93 columns: broken at the last space before column 73 */
	w = reply_wrap("Your command was not carried out: alice is playing on 2 boards already (max_open_boards = 2).");
	ok_str(w, "Your command was not carried out: alice is playing on 2 boards already\n(max_open_boards = 2).",
	    "a long line breaks at the last space that fits");
	free(w);
	w = reply_wrap("  alice writes:  two  spaces  kept  between words  but  the  one  at  the  break  goes  away\n");
	ok_str(w, "  alice writes:  two  spaces  kept  between words  but  the  one  at\n  the  break  goes  away\n",
	    "a continuation keeps the indent; spaces are kept but at the break");
	free(w);
	memset(word, 'x', 200);
	word[200] = '\0';
	snprintf(in, sizeof in, "see https://example.org/%s for more\n", word);
	snprintf(want, sizeof want, "see\nhttps://example.org/%s\nfor more\n", word);
	w = reply_wrap(in);
	ok_str(w, want, "a word longer than a line stands whole on a line of its own");
	free(w);
	snprintf(in, sizeof in, "%s\n", word);
	w = reply_wrap(in);
	ok_str(w, in, "a line of one long word is kept whole");
	free(w);
	/* 72 characters of UTF-8 (144 bytes) fit: columns are characters, not bytes */
	in[0] = '\0';
	for (i = 0; i < 36; i++)
		strcat(in, i % 6 == 5 ? "\xc3\xa9 " : "\xc3\xa9\xc3\xa9");
	in[strlen(in) - 1] = '\0';
	w = reply_wrap(in);
	ok_str(w, in, "72 characters of UTF-8 fit on a line");
	free(w);
	snprintf(in, sizeof in, "%c 1  . . . %s\nnext\n", REPLY_VERBATIM, word);
	snprintf(want, sizeof want, " 1  . . . %s\nnext\n", word);
	w = reply_wrap(in);
	ok_str(w, want, "a line marked verbatim (the drawing) is kept as it is, unmarked");
	free(w);
	/* a comment of 2,000 characters becomes lines of at most 72 */
	in[0] = '\0';
	for (i = 0; i < 400; i++)
		strcat(in, i == 0 ? "  word" : " word");
	w = reply_wrap(in);
	ok(w != NULL && strlen(w) >= 2000, "a 2,000-character comment is wrapped whole");
	for (i = 0; w != NULL && w[i] != '\0'; ) {
		size_t n = strcspn(w + i, "\n");

		if (n > 72 || strncmp(w + i, "  word", 6) != 0)
			break;
		i += (int)n + (w[i + n] == '\n');
	}
	ok(w != NULL && w[i] == '\0', "... into indented lines of at most 72 columns");
	free(w);
}

int main(void)
{
	test_wrap();
	test_templates_dir();
	test_errors();
	test_ids();
	test_game();
	mailout_shutdown();	/* a clean heap for the leak checker */
	return t_done();
}
