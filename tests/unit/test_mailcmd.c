/*
 * Tests of the table of mail commands (src/commands/pipeline/mailcmd.h): every row
 * complete and parsed by its own grammar, help listing them all, the
 * README's table made from the rows.
 */
#include "commands/pipeline/mailcmd.h"
#include "mail/mailfind.h"
#include "store/ratings.h"
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
		ok(mc->syntax.slots != NULL && strspn(mc->syntax.slots, "btvuopawniLONTCWB*") == strlen(mc->syntax.slots),
		    "%s: slots of the grammar's letters", name);
		ok(mc->run != NULL, "%s: a handler", name);
		ok(mc->help != NULL && mc->summary != NULL && mc->summary[0] != '\0', "%s: help and summary", name);
		/* a keyword's rows stand together, the first found by name, each with its own slots */
		ok(cmdtable_find(&mailcmd_commands, name) == mc || (i > 0 && strcmp(mc[-1].syntax.name, name) == 0 &&
		    strcmp(mc[-1].syntax.slots, mc->syntax.slots) != 0), "%s: found by name, or the row after its first",
		    name);
		for (k = 0; k + 1 < i; k++)
			ok(strcmp(mailcmd_table[k].syntax.name, name) != 0 || strcmp(mailcmd_table[k + 1].syntax.name,
			    name) == 0, "%s: its rows together", name);
		/* a password is never where the robot's login check cannot see it */
		if (strchr(mc->syntax.slots, 'p') != NULL && strchr(mc->syntax.slots, 'u') != NULL &&
		    strcmp(name, "register") != 0)
			ok(mc->needs & MAILCMD_LOGIN, "%s: a user id and password: MAILCMD_LOGIN", name);
		if (mc->needs & MAILCMD_LOCK)
			ok(mc->needs & MAILCMD_BOARD, "%s: a lock needs the board", name);
	}
	ok(cmdtable_find(&mailcmd_commands, "MOVE") == cmdtable_find(&mailcmd_commands, "move"), "found case-insensitively");
	ok(cmdtable_find(&mailcmd_commands, "mvoe") == NULL, "no row for a misspelt keyword");
}

/* Each command's synopsis, with the words of one example mail, parses to that row. */
/* The 'n' slot (seek, limit) and the 'C' tail (standings). */
static void test_games_and_class(void)
{
	static struct command cmd;
	char *m;

	ok_int(mailfind_parse(&mailcmd_grammar, "standings", NULL, &cmd), COMMAND_OK, "standings alone");
	ok_int(cmd.rating_class, -1, "... is every class");
	ok_int(mailfind_parse(&mailcmd_grammar, "Standings LARGE", NULL, &cmd), COMMAND_OK, "a class in any case");
	ok_int(cmd.rating_class, RATINGS_LARGE, "... is that class");
	ok_int(mailfind_parse(&mailcmd_grammar, "standings medium", NULL, &cmd), COMMAND_BAD_CLASS, "an unknown class");
	ok(strstr(cmd.error, "'medium'") != NULL && strstr(cmd.error, "hex-large (hex sides 9 and 10)") != NULL,
	    "... quoted, and the classes named: %s", cmd.error);
	m = command_mask(&cmd);
	ok_str(m, "standings medium", "... and kept in the log: no password can stand there");
	free(m);
	ok_int(mailfind_parse(&mailcmd_grammar, "standings small large", NULL, &cmd), COMMAND_USAGE, "two classes");
	ok(strstr(cmd.error, "1 word too many") != NULL, "... one word too many: %s", cmd.error);
	ok_int(mailfind_parse(&mailcmd_grammar, "seek alice secret 0", NULL, &cmd), COMMAND_OK, "seek 0");
	ok_int(cmd.games, 0, "... is 0");
	ok_int(mailfind_parse(&mailcmd_grammar, "limit alice secret 99", NULL, &cmd), COMMAND_OK, "limit 99");
	ok_int(cmd.games, 99, "... is 99");
	ok_str(cmd.password, "secret", "... the password in its slot");
	ok_int(mailfind_parse(&mailcmd_grammar, "seek alice secret 100", NULL, &cmd), COMMAND_BAD_NUMBER, "100 games");
	ok(strstr(cmd.error, "'100' is not a number of games (0 to 99)") != NULL, "... refused: %s", cmd.error);
	ok_int(mailfind_parse(&mailcmd_grammar, "seek alice secret 07", NULL, &cmd), COMMAND_BAD_NUMBER,
	    "a leading zero");
	/* found by fuzz_mailin: a long number overflowed while it was read */
	ok_int(mailfind_parse(&mailcmd_grammar, "seek alice secret 11111111111111111111", NULL, &cmd), COMMAND_BAD_NUMBER,
	    "twenty digits");
	ok(strstr(cmd.error, "'11111111111111111111' is not a number of games (0 to 99)") != NULL, "... refused: %s",
	    cmd.error);
	ok_int(mailfind_parse(&mailcmd_grammar, "limit alice secret -1", NULL, &cmd), COMMAND_BAD_NUMBER, "a sign");
	ok_int(mailfind_parse(&mailcmd_grammar, "limit alice 3", NULL, &cmd), COMMAND_USAGE, "a word missing");
	m = command_mask(&cmd);
	ok_str(m, "limit **** ****", "... either word may be the password: both masked");
	free(m);
	ok_int(mailfind_parse(&mailcmd_grammar, "seek alice secret 3", NULL, &cmd), COMMAND_OK, "seek 3");
	m = command_mask(&cmd);
	ok_str(m, "seek alice **** 3", "... its password masked");
	free(m);
}

static void test_parse_each(void)
{
	static const char *const examples[][3] = {
		{ "register", "register alice secret Alice Liddell" },
		{ "password", "password alice old new" },
		{ "challenge", "challenge alice secret bob -size=9" },
		{ "accept", "accept 101 bob secret" },
		{ "decline", "decline 101 bob secret" },
		{ "challenges", "challenges" },
		{ "tournament", "tournament alice secret swiss -rounds=3 -size=9 Spring cup", "upT" },
		{ "tournament", "tournament t12", "i" },
		{ "tournaments", "tournaments" },
		{ "join", "join T1 bob secret" },
		{ "withdraw", "withdraw T1 alice secret bob" },
		{ "begin", "begin T1 alice secret" },
		{ "subscribe", "subscribe carol secret all", "upw" },
		{ "subscribe", "subscribe 101 carol secret", "bup" },
		{ "unsubscribe", "unsubscribe carol secret ALL", "upw" },
		{ "unsubscribe", "unsubscribe 101 carol secret", "bup" },
		{ "unsubscribe", "unsubscribe carol.101.e2ab695c9ec39ebc47a2dfee", "p" },
		{ "notify", "notify carol secret off 101 102", "upwB" },
		{ "move", "move 101#3 alice secret E5,F6" },
		{ "swap", "swap 101 bob secret" },
		{ "resign", "resign 101 bob secret" },
		{ "preview", "preview 101#3 E5,F6" },
		{ "moves", "moves 101" },
		{ "show", "show 101#2" },
		{ "history", "history 101" },
		{ "sgf", "sgf 101" },
		{ "review", "review 101 alice secret" },
		{ "chat", "chat 101 alice secret" },
		{ "games", "games alice next" },
		{ "finished", "finished" },
		{ "standings", "standings hex-small" },
		{ "rating", "rating alice" },
		{ "seek", "seek alice secret 3" },
		{ "limit", "limit alice secret 12" },
		{ "help", "help oust" },
		{ "forgot", "forgot alice" },
		{ "reset", "reset alice K7M2QX9PHD new" },
		{ "address", "address alice secret alice@new.example" },
		{ "confirm", "confirm alice K7M2QX9PHD" },
		{ "confirm", "confirm alice K7M2QX9PHD secret" },
		{ "confirm", "confirm K7M2QX9PHD" },
		{ "signoff", "signoff alice secret" },
		{ "queue", "queue 101 alice secret E1 => A1; D4 => E5" },
		{ "vacation", "vacation alice secret 7" },
		{ "set", "set alice secret timezone=Europe/Paris warn=72h,24h" },
		{ "settings", "settings alice secret" },
		{ "whoami", "whoami alice secret" },
		{ "tokens", "tokens alice secret new" },
	};
	static struct command cmd;
	size_t i;

	ok_int((int)(sizeof examples / sizeof examples[0]), (int)mailcmd_count, "an example for every command");
	for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		ok_int(mailfind_parse(&mailcmd_grammar, examples[i][1], NULL, &cmd), COMMAND_OK, "'%s' parses",
		    examples[i][1]);
		ok(cmdtable_of(&mailcmd_commands, &cmd) != NULL && strcmp(cmdtable_of(&mailcmd_commands, &cmd)->syntax.name, examples[i][0]) == 0 &&
		    (examples[i][2] == NULL || strcmp(cmdtable_of(&mailcmd_commands, &cmd)->syntax.slots, examples[i][2]) == 0),
		    "'%s' is %s", examples[i][1], examples[i][0]);
	}
	ok_int(mailfind_parse(&mailcmd_grammar, "mvoe 101 alice secret E5", NULL, &cmd), COMMAND_UNKNOWN,
	    "a misspelt keyword is unknown");
	ok(cmdtable_of(&mailcmd_commands, &cmd) == NULL, "... and has no row");
	ok(strstr(cmd.error, "(did you mean move?)") != NULL, "a misspelt keyword: the nearest one named");
	ok(strstr(cmd.error, "Send: move 101 alice <password> E5") != NULL,
	    "... with the command ready to send, the password masked");
	ok_int(mailfind_parse(&mailcmd_grammar, "frobnicate", NULL, &cmd), COMMAND_UNKNOWN, "an unknown word");
	ok(strstr(cmd.error, "did you mean") == NULL && strstr(cmd.error, "; the commands are register, ") != NULL,
	    "... gets the list, and no guess");
	for (i = 0; i < mailcmd_count; i++)
		ok(strstr(cmd.error, mailcmd_table[i].syntax.name) != NULL, "an unknown command's error lists %s",
		    mailcmd_table[i].syntax.name);
}

/* The shapes of preview (a board, or "new <size>") and of games' optional filter. */
static void test_preview_games(void)
{
	static struct command cmd;
	char *masked;

	ok_int(mailfind_parse(&mailcmd_grammar, "preview 101#7 E5, F6", NULL, &cmd), COMMAND_OK, "preview of a board");
	ok(cmd.board == 101 && cmd.turn == 7 && !cmd.study && cmd.nplacements == 2, "... its board, turn, placements");
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new 9 E5", NULL, &cmd), COMMAND_OK, "preview new 9");
	ok(cmd.study && cmd.board == 0 && cmd.size == 9 && !cmd.hex && cmd.nplacements == 1, "... a 9x9 study board");
	ok_int(mailfind_parse(&mailcmd_grammar, "Preview NEW -hex=5 c3,d4", NULL, &cmd), COMMAND_OK, "preview new -hex=5");
	ok(cmd.study && cmd.size == 5 && cmd.hex && cmd.nplacements == 2, "... a hex study board of side 5");
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new -size=7 C3", NULL, &cmd), COMMAND_OK, "preview new -size=7");
	ok(cmd.study && cmd.size == 7 && !cmd.hex, "... 7x7");
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new 12 C3", NULL, &cmd), COMMAND_BAD_OPTION, "an even size");
	ok(strstr(cmd.error, "'12' is not a board size") != NULL, "... named: %s", cmd.error);
	masked = command_mask(&cmd);
	ok(masked != NULL && strcmp(masked, "preview new 12 C3") == 0, "... and shown unmasked: %s", masked);
	free(masked);
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new -black C3", NULL, &cmd), COMMAND_BAD_OPTION,
	    "an option that is no size");
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new -hex=11 c3", NULL, &cmd), COMMAND_BAD_OPTION, "a hex side of 11");
	ok_int(mailfind_parse(&mailcmd_grammar, "preview new 9", NULL, &cmd), COMMAND_USAGE, "no placements");
	ok(strstr(cmd.error, "missing: <placements>") != NULL, "... named: %s", cmd.error);
	ok_int(mailfind_parse(&mailcmd_grammar, "preview 101", NULL, &cmd), COMMAND_USAGE, "a board, no placements");
	ok_int(mailfind_parse(&mailcmd_grammar, "games alice", NULL, &cmd), COMMAND_OK, "games without a filter");
	ok(strcmp(cmd.text, "") == 0, "... none");
	ok_int(mailfind_parse(&mailcmd_grammar, "games alice Finished", NULL, &cmd), COMMAND_OK, "games with a filter");
	ok(strcmp(cmd.text, "Finished") == 0, "... as written (games.c checks it)");
	ok_int(mailfind_parse(&mailcmd_grammar, "games alice next all", NULL, &cmd), COMMAND_USAGE, "two filters");
	ok(strstr(cmd.error, "1 word too many") != NULL, "... one too many: %s", cmd.error);
	ok_int(mailfind_parse(&mailcmd_grammar, "finished 20", NULL, &cmd), COMMAND_USAGE, "finished takes no word");
}

/* help lists every command, each synopsis once, each at the start of a line. */
static void test_help(void)
{
	char *text = cmdtable_help_text(&mailcmd_commands), line[200];
	size_t i;

	ok(text != NULL, "the help text is made");
	if (text == NULL)
		return;
	for (i = 0; i < mailcmd_count; i++) {
		const char *name = mailcmd_table[i].syntax.name;
		const char *p;

		snprintf(line, sizeof line, "  %s", name);
		/* the first "  name" at the start of a line ("      set this board's" is a help line's text) */
		for (p = strstr(text, line); p != NULL && p != text && p[-1] != '\n'; p = strstr(p + 1, line))
			;
		ok(p != NULL && (p == text || p[-1] == '\n') && (p[strlen(line)] == ' ' || p[strlen(line)] == '\n' ||
		    p[strlen(line)] == '\0'), "help lists %s", name);
	}
	ok(strstr(text, "  challenge <userid> <password> <opponent>|* [-size=N|-hex[=S]]\n"
	    "            [-black|-white|-random] [-noswap] [-level=N] [-unrated]\n") != NULL,
	    "a long synopsis is wrapped at 72 under its first argument");
	ok(text[strlen(text) - 1] != '\n', "no line end after the last line (the template has it)");
	free(text);
}

/* The players' guide's table of mail commands (doc/players.md) is the one the rows make. */
static void test_readme(void)
{
	const char *top = getenv("OUSTPBM_TOP");
	char path[4096], *readme = NULL, *table = cmdtable_readme_table(&mailcmd_commands);
	size_t len = 0, n;
	FILE *f;

	snprintf(path, sizeof path, "%s/doc/players.md", top != NULL ? top : ".");
	f = fopen(path, "r");
	ok(f != NULL, "doc/players.md opens (%s)", path);
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
	    "doc/players.md holds the table of mail commands the rows make (under Mail commands)");
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
	static const struct command_grammar g = { rows, sizeof rows / sizeof rows[0], sizeof rows[0], NULL };
	static struct command cmd;
	char *masked;

	ok_int(mailfind_parse(&g, "chat 101#4 alice pw hello there, bob", NULL, &cmd), COMMAND_OK, "chat parses");
	ok(cmd.syntax == &rows[0] && cmd.board == 101 && cmd.turn == 4, "chat: the row, board and turn");
	ok_str(cmd.text, "hello there, bob", "chat: the text, as written");
	masked = command_mask(&cmd);
	ok_str(masked, "chat 101#4 alice **** hello there, bob", "chat: only the password masked");
	free(masked);
	ok_int(mailfind_parse(&g, "chat 101 alice pw", NULL, &cmd), COMMAND_USAGE, "chat without a text");
	ok_str(cmd.error, "chat needs: chat <board> <userid> <password> <text>", "... the usage from the row");
	ok_int(mailfind_parse(&g, "whoami alice pw", NULL, &cmd), COMMAND_OK, "whoami parses");
	ok_str(command_name(&cmd), "whoami", "whoami: its name");
	ok_int(mailfind_parse(&g, "move 101 alice pw E5", NULL, &cmd), COMMAND_UNKNOWN,
	    "a command of another table is unknown here");
	ok_int(mailfind_parse(&g, "whoami alice", NULL, &cmd), COMMAND_USAGE, "whoami: a word missing");
	ok_str(cmd.error, "whoami needs: whoami <userid> <password>; missing: <userid> or <password>. "
	    "Send: whoami <userid> <password>", "... named from the synopsis, with the command to send");
}

int main(void)
{
	test_rows();
	test_parse_each();
	test_games_and_class();
	test_preview_games();
	test_help();
	test_readme();
	test_own_grammar();
	return t_done();
}
