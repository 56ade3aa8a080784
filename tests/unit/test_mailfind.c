/* Unit tests for mailfind (which line is the command) and mailtext (the sender's own lines). */
#include "commands/pipeline/mailcmd.h"
#include "mail/command.h"
#include "mail/mailfind.h"
#include "mail/mailtext.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct command cmd;
static struct mailfind_result res;

static enum command_result find(const char *subject, const char *body)
{
	struct mailfind_source src = { .subject = subject, .body = body, .own_domain = "example.net" };

	return mailfind_find(&mailcmd_grammar, &src, &cmd, &res);
}

static enum command_result find_reply(const char *subject, const char *body, const char *irt, const char *refs)
{
	struct mailfind_source src = { .subject = subject, .body = body, .in_reply_to = irt, .references = refs,
		.own_domain = "example.net" };

	return mailfind_find(&mailcmd_grammar, &src, &cmd, &res);
}

static char *masked(void)
{
	static char buf[COMMAND_LINE_MAX + 1];
	char *m = command_mask(&cmd);

	snprintf(buf, sizeof buf, "%s", m != NULL ? m : "(null)");
	free(m);
	return buf;
}

static void test_greetings(void)
{
	static const char *const openings[] = { "Hi Bob,", "Hallo Bob,", "Thanks! Here is my move:", "Hello!",
		"Good morning,", "Hi,", "Dear Bob", "Bonjour Bob,", "I thought long about this one." };
	char body[200];
	char *c;
	size_t i;

	for (i = 0; i < sizeof openings / sizeof openings[0]; i++) {
		snprintf(body, sizeof body, "%s\n\nmove 101 alice pw A5\n\nGood game\n", openings[i]);
		ok_int(find("Re: Oust Board 101 alice", body), COMMAND_OK, "'%s' above the command: skipped", openings[i]);
		ok_str(cmd.line, "move 101 alice pw A5", "'%s': the command line", openings[i]);
		c = command_comment(&cmd, body);
		ok_str(c, "Good game", "'%s': the comment is what follows, not the greeting", openings[i]);
		free(c);
	}
	ok_int(find("", "Help me if this is wrong:\nmove 101 alice pw A5\n"), COMMAND_OK, "a prose 'help ...' line");
	ok(command_is(&cmd, "move"), "... gives way to a complete command below it");
	ok_int(find("", "help me please\n"), COMMAND_OK, "'help me please' alone is help");
	ok_int(find("", "move 101 bob D4\nhelp me please\n"), COMMAND_USAGE, "a mistyped move above a 'help me'");
	ok_str(cmd.line, "move 101 bob D4", "... is the line the error is about");
	ok_int(find("", "Here is my move: move 101 alice pw A5\nbye\n"), COMMAND_OK, "a command after a colon");
	ok_str(cmd.line, "move 101 alice pw A5", "... without the prose before it");
	ok_int(find("", "move 101 alice pw\nA5, B1\nthanks\n"), COMMAND_OK, "placements wrapped to the next line");
	ok_int((int)cmd.nplacements, 2, "... joined");
	ok_int(find("", "move 101 alice pw A5,\nB1, C2\n"), COMMAND_OK, "placements after a comma, wrapped");
	ok_int((int)cmd.nplacements, 3, "... joined");
	ok_int(find("", "chat 101 alice\nHello there\n"), COMMAND_USAGE, "a text on the next line is not joined");
	ok_int(find("", "register bob\nMy password is\n"), COMMAND_USAGE, "... nor a name");
	ok_int(find("Oust: move 101 alice pw A5", ""), COMMAND_OK, "'Oust:' before a command in the Subject");
	ok_int(find("Re: Oust Board 101 alice", "Hi,\nMy move: D4\n"), COMMAND_PLACEMENTS_ONLY, "placements after a colon");
	ok_str(cmd.line, "D4", "... the placements alone, not the prose");
	ok_int(find("", "Hi\nmove 101 alice pw A5\nmove 101 alice pw B1\n"), COMMAND_OK, "two commands");
	ok_str(cmd.placements[0].name, "A5", "... the first one runs");
}

static void test_blanks_and_marks(void)
{
	ok_int(find("", "move\xc2\xa0" "101\xe2\x80\xaf" "alice\xe3\x80\x80pw\t\xe2\x80\x89" "A5\n"), COMMAND_OK,
	    "no-break, narrow, ideographic, thin spaces and a tab separate words");
	ok_str(cmd.password, "pw", "... the password whole");
	ok_int(find("", "move 101 alice pw\xe2\x80\x8b A5\n"), COMMAND_OK, "a zero-width space is dropped");
	ok_int(find("", "move 101 alice pw A5.\n"), COMMAND_OK, "a full stop after the placements");
	ok_int(find("", "move 101 alice pw A5, B1!\n"), COMMAND_OK, "an exclamation mark after the placements");
	ok_int((int)cmd.nplacements, 2, "... both placements");
	ok_int(find("", "*move 101 alice pw A5*\n"), COMMAND_OK, "bold marks made plain text");
	ok_int(find("", "\xe2\x80\x9cmove 101 alice pw A5\xe2\x80\x9d\n"), COMMAND_OK, "typographic quotes");
	ok_int(find("", "- move 101 alice pw A5\n"), COMMAND_OK, "a list item");
	ok_int(find("", "whoami alice secret!\n"), COMMAND_OK, "a password ending in '!'");
	ok_str(cmd.password, "secret!", "... is kept as written when the line parses so");
	ok_int(find("", "move 101 alice pw A5 ....\n"), COMMAND_OK, "dots apart after the placements");
}

static void test_signatures(void)
{
	static const char *const signoffs[] = { "-- ", "--", "Sent from my iPhone", "Sent from my Android",
		"Sent from my Samsung Galaxy smartphone.", "Get Outlook for iOS", "Get Outlook for Android",
		"Get Outlook for iOS<https://aka.ms/o0ukef>",
		"Von meinem iPhone gesendet", "Envoy\xc3\xa9 de mon iPhone", "Sent from Mail for Windows",
		"-----Original Message-----", "Am 14.11.2023 um 23:10 schrieb Oust <oust@example.net>:",
		"On Tue, Nov 14, 2023 at 11:10 PM Oust <oust@example.net> wrote:" };
	char body[300];
	size_t i;

	for (i = 0; i < sizeof signoffs / sizeof signoffs[0]; i++) {
		snprintf(body, sizeof body, "Ok\n%s\nmove 101 alice pw A5\n", signoffs[i]);
		ok(find("", body) != COMMAND_OK, "no command below '%s'", signoffs[i]);
		ok(strstr(cmd.line, "A5") == NULL, "'%s': the line after it not read", signoffs[i]);
	}
	ok(!mailtext_signature("Sent from my phone, so short. Good luck", 39), "a sentence is no sign-off");
	ok(mailtext_signature("Sent from my iPhone", 19), "Sent from my iPhone is one");
	ok_int(find("", "> move 101 alice pw A5\n\nOk\n"), COMMAND_UNKNOWN, "a quoted command never runs");
	ok_int(find("", "Von: Oust <oust@example.net>\nGesendet: Dienstag\nAn: alice@example.org\nBetreff: x\n\n"
	    "move 101 alice pw A5\n"), COMMAND_EMPTY, "an Outlook header block in German ends the text");
}

static void test_subject(void)
{
	ok_int(find("Re: Oust Board 101 alice", "move 101 alice pw A5\n"), COMMAND_OK, "a board's Subject, a command");
	ok_int((int)res.subject_board, 101, "... the Subject's board");
	ok_int(cmd.source, COMMAND_FROM_BODY, "... the text's command");
	ok_int(find("AW: Oust Board 101 alice", ""), COMMAND_EMPTY, "a Subject naming a board is never a command");
	ok_int(find("Re: New Oust Board 102 bob", "x"), COMMAND_UNKNOWN, "a new board's Subject neither");
	ok_int((int)res.subject_board, 102, "... its board");
	ok_int(find("SV: Antw: WG: show 101", ""), COMMAND_OK, "Nordic, Dutch and German prefixes stripped");
	ok_int(find("register me please", "register alice pw Alice\n"), COMMAND_CONFLICT,
	    "a Subject and a text with different commands");
	ok(cmd.error[0] != '\0' && strstr(cmd.error, "'register me ****'") != NULL &&
	    strstr(cmd.error, "'register alice **** Alice'") != NULL, "... both quoted, masked: %s", cmd.error);
	ok_int(find("move 101 alice pw A5", "move 101 alice pw A5\nthanks\n"), COMMAND_OK, "the same command twice");
	ok_int(cmd.source, COMMAND_FROM_BODY, "... the text's, with its comment");
	ok_int(find("help me please", "move 101 alice pw A5\n"), COMMAND_OK, "a weak Subject");
	ok(command_is(&cmd, "move"), "... gives way to the text");
	ok_int(find("Help with my move", "move 101 bob D4\n"), COMMAND_USAGE, "a weak Subject over a mistyped move");
	ok_int(cmd.source, COMMAND_FROM_BODY, "... the move's error");
	ok_int(find("Help with my move", "Hi Bob\n"), COMMAND_OK, "a weak Subject over prose");
	ok(command_is(&cmd, "help"), "... is help");
	ok_int(find("queue", "queue 101 alice pw E1 => A1\n"), COMMAND_OK, "a 'queue' Subject falls through to the text");
	ok_int(find("queue", ""), COMMAND_USAGE, "'queue' alone: its usage (its words were read past the line's end)");
	ok(strstr(cmd.error, "queue needs: ") != NULL, "... says what it needs: %s", cmd.error);
	ok_int(find("show", "show 101\n"), COMMAND_OK, "a 'show' Subject too");
	ok_int(find("move 101 alice pw E55", "move 101 alice pw A5\n"), COMMAND_CONFLICT,
	    "a wrong Subject command over a right one in the text: neither runs");
	ok_int(find("move 101 alice pw A5", "Hi Bob,\nsee you\n"), COMMAND_OK, "a Subject command, prose below");
	ok_int(cmd.source, COMMAND_FROM_SUBJECT, "... the Subject's");
}

static void test_errors(void)
{
	ok_int(find("Re: Oust Board 101 error", "move alice pw A5\n"), COMMAND_USAGE, "no board, under a board's Subject");
	ok(strstr(cmd.error, "Send: move 101 alice <password> A5") != NULL, "... the Subject's board in the command: %s",
	    cmd.error);
	ok_int((int)cmd.board, 101, "... and for the error's Subject");
	ok_int(find("Re: Oust Board 101 alice", "Hi Bob, secret words\nsee you\n"), COMMAND_UNKNOWN, "prose only");
	ok_str(cmd.error, "no command found: the first line of your text, 'Hi ****', is not a command. A command "
	    "must stand on a line of its own, at the start of the mail or in the Subject. Send: move 101 <userid> "
	    "<password> <placements>", "... the line named masked, where a command stands, an example");
	ok_str(masked(), "Hi ****", "... masked in the log too");
	ok_int(find("", "move 101 alice <password> A5\n"), COMMAND_BAD_PASSWORD, "the placeholder copied as it stands");
	ok(strstr(cmd.error, "write your password in its place") != NULL, "... is not tried as a password");
	ok_str(masked(), "move 101 alice **** A5", "... and masked");
	ok_int(find("", "Hello Bob\n"), COMMAND_UNKNOWN, "'Hello' is not taken for a mistyped help");
	ok(strstr(cmd.error, "no command found") != NULL, "... but for prose");
	ok_int(find("", "Hi\nmvoe 101 alice pw A5\n"), COMMAND_UNKNOWN, "a mistyped keyword below a greeting");
	ok(strstr(cmd.error, "did you mean move?") != NULL, "... is the line the error is about");
	ok_int(find("", "Hi! my password is hunter2\nmove 101 bob D4\n"), COMMAND_USAGE, "an incomplete command");
	ok_str(cmd.line, "move 101 bob D4", "... the line read: the prose above it is never echoed");
	ok_int(find("Re: Oust Board 101 alice", "Hi\nD4.\n"), COMMAND_PLACEMENTS_ONLY, "placements alone below a greeting");
	ok_int((int)cmd.board, 101, "... the Subject's board");
}

static void test_answered(void)
{
	struct mailfind_answered a;
	char body[4000];
	size_t i, used = 0;

	ok(mailfind_answered_id("101.2.alice.1700000300@example.net", "example.net", &a), "a board mail's id");
	ok(a.kind == MAILFIND_BOARD && a.board == 101 && a.turns == 2 && strcmp(a.userid, "alice") == 0,
	    "... its board, turns and reader");
	ok(mailfind_answered_id("101.7.bob.reminder.1700000300@example.net", "example.net", &a) &&
	    a.kind == MAILFIND_BOARD && a.turns == 7, "a reminder's id");
	ok(mailfind_answered_id("101.2.alice.chat5c929017.1700000360@example.net", "example.net", &a) &&
	    a.kind == MAILFIND_CHAT, "a chat mail's id");
	ok(!mailfind_answered_id("101.2.alice.1700000300@example.com", "example.net", &a), "another domain's");
	ok(!mailfind_answered_id("oust.1700003600.2e02a738.1@example.net", "example.net", &a), "a reply's id");
	ok(!mailfind_answered_id("board-101.1700000180@example.net", "example.net", &a), "a thread's root");
	ok(!mailfind_answered_id("101.2.al!ce.17@example.net", "example.net", &a), "no user id");
	ok_int(find_reply("Re: Oust Board 101 chat from bob", "Sure, it was on purpose.\n", NULL, NULL),
	    COMMAND_CHAT_ANSWER, "an answer to a chat by its Subject");
	ok_int((int)cmd.board, 101, "... its board");
	ok_int(find_reply("Re: hello", "No.\n", "101.2.alice.chat5c929017.1700000360@example.net", NULL),
	    COMMAND_CHAT_ANSWER, "an answer to a chat by In-Reply-To");
	ok_str(res.answered.userid, "alice", "... its reader");
	ok_int(find_reply("Re: hello", "No.\n", "x@example.org",
	    "board-101.17@example.net 101.2.alice.chat5c929017.17@example.net x@example.org"),
	    COMMAND_CHAT_ANSWER, "... by References, the last id of ours");
	ok_int(find_reply("Re: Oust Board 101 chat from bob", "chat 101 alice\nSure\n", NULL, NULL), COMMAND_USAGE,
	    "an answer to a chat with a chat command: its error");
	ok_int(find_reply("Re: Oust Board 101 chat from bob", "Show me what you have!\n", NULL, NULL),
	    COMMAND_CHAT_ANSWER, "an answer to a chat starting with a keyword, naming no board");
	ok_int(find_reply("Re: Oust Board 101 bob", "D4\n", "101.1.bob.1700000240@example.net", NULL),
	    COMMAND_PLACEMENTS_ONLY, "placements in answer to a board mail");
	ok(res.answered.kind == MAILFIND_BOARD && res.answered.turns == 1, "... the mail answered: turn 2's");
	ok_int(find("Re: Oust Board 101 bob", "D4\n\n> Your move, bob (turn 2):\n>     move 101#2 bob <password> "
	    "<placements>\n"), COMMAND_PLACEMENTS_ONLY, "no id of ours, a quoted board mail");
	ok(res.answered.kind == MAILFIND_BOARD && res.answered.board == 101 && res.answered.turns == 1 &&
	    strcmp(res.answered.userid, "bob") == 0, "... its turn from its command line");
	ok_int(find("Re: Oust Board 102 bob", "D4\n>     move 101#2 bob <password> <placements>\n"),
	    COMMAND_PLACEMENTS_ONLY, "a quoted mail of another board");
	ok_int(res.answered.kind, MAILFIND_NONE, "... answers no mail of this one");
	for (i = 0; i < MAILFIND_LINES_MAX + 5; i++)
		used += (size_t)snprintf(body + used, sizeof body - used, "line %zu\n", i);
	snprintf(body + used, sizeof body - used, "show 101\n");
	ok(find("", body) != COMMAND_OK, "a command below MAILFIND_LINES_MAX lines of prose is not looked for");
}

int main(void)
{
	test_greetings();
	test_blanks_and_marks();
	test_signatures();
	test_subject();
	test_errors();
	test_answered();
	return t_done();
}
