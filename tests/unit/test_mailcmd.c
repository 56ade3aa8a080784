/*
 * Tests of the table of mail commands (src/commands/mailcmd.h): every row
 * complete and parsed by its own grammar, help listing them all, the
 * README's table made from the rows.
 */
#include "commands/mailcmd.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every row: a keyword, a synopsis starting with it, slots, a handler, words for help and the README. */
static void test_rows(void)
{
	size_t i, k;

	ok(mailcmd_count >= 10, "the table has its commands (%zu)", mailcmd_count);
	for (i = 0; i < mailcmd_count; i++) {
		const struct mail_command *mc = &mailcmd_table[i];
		const char *name = mc->syntax.name;
		size_t n = strlen(name);

		ok(n > 0 && strspn(name, "abcdefghijklmnopqrstuvwxyz") == n, "%s: a lower-case keyword", name);
		ok(strncmp(mc->syntax.synopsis, name, n) == 0 &&
		    (mc->syntax.synopsis[n] == '\0' || mc->syntax.synopsis[n] == ' '),
		    "%s: the synopsis starts with the keyword", name);
		ok(mc->syntax.slots != NULL && strspn(mc->syntax.slots, "btuopaLONT*") == strlen(mc->syntax.slots),
		    "%s: slots of the grammar's letters", name);
		ok(mc->run != NULL, "%s: a handler", name);
		ok(mc->help != NULL && mc->summary != NULL && mc->summary[0] != '\0', "%s: help and summary", name);
		ok(mailcmd_find(name) == mc, "%s: found by name", name);
		for (k = 0; k < i; k++)
			ok(strcmp(mailcmd_table[k].syntax.name, name) != 0, "%s: one row only", name);
		/* a password is never where the robot's login check cannot see it */
		if (strchr(mc->syntax.slots, 'p') != NULL && strchr(mc->syntax.slots, 'u') != NULL &&
		    strcmp(name, "register") != 0)
			ok(mc->needs & MAILCMD_LOGIN, "%s: a user id and password: MAILCMD_LOGIN", name);
		if (mc->needs & MAILCMD_LOCK)
			ok(mc->needs & MAILCMD_BOARD, "%s: a lock needs the board", name);
	}
	ok(mailcmd_find("MOVE") == mailcmd_find("move"), "found case-insensitively");
	ok(mailcmd_find("mvoe") == NULL, "no row for a misspelt keyword");
}

/* Each command's synopsis, with the words of one example mail, parses to that row. */
static void test_parse_each(void)
{
	static const char *const examples[][2] = {
		{ "register", "register alice secret Alice Liddell" },
		{ "password", "password alice old new" },
		{ "challenge", "challenge alice secret bob -size=9" },
		{ "move", "move 101#3 alice secret E5,F6" },
		{ "swap", "swap 101 bob secret" },
		{ "resign", "resign 101 bob secret" },
		{ "show", "show 101#2" },
		{ "history", "history 101" },
		{ "sgf", "sgf 101" },
		{ "games", "games alice" },
		{ "help", "help oust" },
		{ "forgot", "forgot alice" },
		{ "reset", "reset alice K7M2QX9PHD new" },
		{ "address", "address alice secret alice@new.example" },
		{ "confirm", "confirm alice K7M2QX9PHD" },
		{ "signoff", "signoff alice secret" },
		{ "queue", "queue 101 alice secret E1 => A1; D4 => E5" },
		{ "vacation", "vacation alice secret 7" },
		{ "whoami", "whoami alice secret" },
	};
	static struct command cmd;
	size_t i;

	ok_int((int)(sizeof examples / sizeof examples[0]), (int)mailcmd_count, "an example for every command");
	for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		ok_int(command_parse(&mailcmd_grammar, examples[i][1], NULL, &cmd), COMMAND_OK, "'%s' parses",
		    examples[i][1]);
		ok(mailcmd_of(&cmd) == mailcmd_find(examples[i][0]), "'%s' is %s", examples[i][1], examples[i][0]);
	}
	ok_int(command_parse(&mailcmd_grammar, "mvoe 101 alice secret E5", NULL, &cmd), COMMAND_UNKNOWN,
	    "a misspelt keyword is unknown");
	ok(mailcmd_of(&cmd) == NULL, "... and has no row");
	ok(strstr(cmd.error, "(did you mean move?)") != NULL, "a misspelt keyword: the nearest one named");
	for (i = 0; i < mailcmd_count; i++)
		ok(strstr(cmd.error, mailcmd_table[i].syntax.name) != NULL, "an unknown command's error lists %s",
		    mailcmd_table[i].syntax.name);
	ok_int(command_parse(&mailcmd_grammar, "frobnicate", NULL, &cmd), COMMAND_UNKNOWN, "an unknown word");
	ok(strstr(cmd.error, "did you mean") == NULL && strstr(cmd.error, "; the commands are register, ") != NULL,
	    "... gets the list, and no guess");
}

/* help lists every command, each synopsis once, each at the start of a line. */
static void test_help(void)
{
	char *text = mailcmd_help_text(), line[200];
	size_t i;

	ok(text != NULL, "the help text is made");
	if (text == NULL)
		return;
	for (i = 0; i < mailcmd_count; i++) {
		const char *name = mailcmd_table[i].syntax.name;
		const char *p;

		snprintf(line, sizeof line, "  %s", name);
		p = strstr(text, line);
		ok(p != NULL && (p == text || p[-1] == '\n') && (p[strlen(line)] == ' ' || p[strlen(line)] == '\n' ||
		    p[strlen(line)] == '\0'), "help lists %s", name);
	}
	ok(strstr(text, "  challenge <userid> <password> <opponent> [-size=N|-hex[=S]]\n"
	    "            [-black|-white|-random] [-noswap] [-level=N] [-unrated]\n") != NULL,
	    "a long synopsis is wrapped at 72 under its first argument");
	ok(text[strlen(text) - 1] != '\n', "no line end after the last line (the template has it)");
	free(text);
}

/* The README's table of mail commands is the one the rows make. */
static void test_readme(void)
{
	const char *top = getenv("OUSTPBM_TOP");
	char path[4096], *readme = NULL, *table = mailcmd_readme_table();
	size_t len = 0, n;
	FILE *f;

	snprintf(path, sizeof path, "%s/README.md", top != NULL ? top : ".");
	f = fopen(path, "r");
	ok(f != NULL, "README.md opens (%s)", path);
	ok(table != NULL, "the README table is made");
	if (f == NULL || table == NULL) {
		if (f != NULL)
			fclose(f);
		free(table);
		return;
	}
	readme = malloc(1 << 20);
	if (readme != NULL) {
		n = fread(readme, 1, (1 << 20) - 1, f);
		readme[n] = '\0';
		len = n;
	}
	fclose(f);
	ok(readme != NULL && len > 0 && strstr(readme, table) != NULL,
	    "README.md holds the table of mail commands the rows make (under Mail commands)");
	if (readme == NULL || strstr(readme, table) == NULL)
		printf("# the table, as the rows make it:\n%s", table);
	free(readme);
	free(table);
}

/* A grammar of one's own: the parser knows only the rows it is given; a text tail (T). */
static void test_own_grammar(void)
{
	static const struct command_syntax rows[] = {
		{ "chat", "chat <board> <userid> <password> <text>", "tupT" },
		{ "whoami", "whoami <userid> <password>", "up" },
	};
	static const struct command_grammar g = { rows, sizeof rows / sizeof rows[0], sizeof rows[0] };
	static struct command cmd;
	char *masked;

	ok_int(command_parse(&g, "chat 101#4 alice pw hello there, bob", NULL, &cmd), COMMAND_OK, "chat parses");
	ok(cmd.syntax == &rows[0] && cmd.board == 101 && cmd.turn == 4, "chat: the row, board and turn");
	ok_str(cmd.text, "hello there, bob", "chat: the text, as written");
	masked = command_mask(&cmd);
	ok_str(masked, "chat 101#4 alice **** hello there, bob", "chat: only the password masked");
	free(masked);
	ok_int(command_parse(&g, "chat 101 alice pw", NULL, &cmd), COMMAND_USAGE, "chat without a text");
	ok_str(cmd.error, "chat needs: chat <board> <userid> <password> <text>", "... the usage from the row");
	ok_int(command_parse(&g, "whoami alice pw", NULL, &cmd), COMMAND_OK, "whoami parses");
	ok_str(command_name(&cmd), "whoami", "whoami: its name");
	ok_int(command_parse(&g, "move 101 alice pw E5", NULL, &cmd), COMMAND_UNKNOWN,
	    "a command of another table is unknown here");
	ok_int(command_parse(&g, "whoami alice", NULL, &cmd), COMMAND_USAGE, "whoami: a word missing");
	ok_str(cmd.error, "whoami needs: whoami <userid> <password>; missing: <userid> or <password>",
	    "... named from the synopsis");
}

int main(void)
{
	test_rows();
	test_parse_each();
	test_help();
	test_readme();
	test_own_grammar();
	return t_done();
}
