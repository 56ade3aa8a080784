/*
 * Tests of the table of admin commands (src/commands/pipeline/admincmd.h): every
 * row complete, the usage text listing them all, an unknown or misspelt
 * command word answered with the list.
 */
#include "commands/pipeline/admincmd.h"
#include "t.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What fn wrote on stream (stdout or stderr), read back; the caller frees it. */
static char *captured(FILE *stream, void (*fn)(void))
{
	char path[] = "/tmp/test_admincmd.XXXXXX", *text;
	int fd = mkstemp(path), saved;
	long n;
	FILE *f;

	if (fd < 0)
		return NULL;
	fflush(stream);
	saved = dup(fileno(stream));
	dup2(fd, fileno(stream));
	fn();
	fflush(stream);
	dup2(saved, fileno(stream));
	close(saved);
	close(fd);
	f = fopen(path, "r");
	unlink(path);
	if (f == NULL)
		return NULL;
	text = calloc(1, 8192);
	n = text != NULL ? (long)fread(text, 1, 8191, f) : 0;
	(void)n;
	fclose(f);
	return text;
}

static void print_usage(void)
{
	admin_usage_print(stdout);
}

static void unknown_lsit(void)
{
	static const char *const own[] = { "engine", "flush" };

	admin_unknown("lsit", own, 2);
}

static void unknown_far(void)
{
	admin_unknown("frobnicate", NULL, 0);
}

static void test_rows(void)
{
	size_t i, k;

	ok(admincmd_count >= 10, "the table has its commands (%zu)", admincmd_count);
	for (i = 0; i < admincmd_count; i++) {
		const struct admin_command *c = &admincmd_table[i];

		ok(c->name[0] != '\0' && c->synopsis != NULL && c->summary[0] != '\0' && c->run != NULL,
		    "%s: name, synopsis, summary, handler", c->name);
		ok(admincmd_find(c->name) == c, "%s: found by name", c->name);
		for (k = 0; k < i; k++)
			ok(strcmp(admincmd_table[k].name, c->name) != 0, "%s: one row only", c->name);
	}
	ok(!(admincmd_find("init")->flags & ADMINCMD_HOME), "init makes a home: it needs none");
	ok(admincmd_find("list")->flags & ADMINCMD_HOME, "list runs on a home");
	ok(admincmd_find("lsit") == NULL, "no row for a misspelt word");
}

static void test_usage(void)
{
	char *text = captured(stdout, print_usage), line[200];
	size_t i;

	ok(text != NULL, "the usage text is written");
	if (text == NULL)
		return;
	for (i = 0; i < admincmd_count; i++) {
		const struct admin_command *c = &admincmd_table[i];

		snprintf(line, sizeof line, "oustpbm %s%s%s%s", c->flags & (ADMINCMD_HOME | ADMINCMD_DIR) ? "[-d DIR] " : "",
		    c->name, c->synopsis[0] != '\0' ? " " : "", c->synopsis);
		ok(strstr(text, line) != NULL && strstr(text, c->summary) != NULL, "usage lists %s", c->name);
	}
	ok(strstr(text, "       oustpbm [-d DIR] show BOARD[#TURN]        a board as the players see it\n") != NULL,
	    "a summary starts at its column");
	ok(strstr(text, "USERID ADDRESS [NAME...]\n                                                 add an account") !=
	    NULL, "a long synopsis has its summary on the next line");
	free(text);
}

static void test_unknown(void)
{
	char *text = captured(stderr, unknown_lsit);
	size_t i;

	ok(text != NULL && strncmp(text, "oustpbm: unknown command 'lsit' (did you mean list?); the commands are ",
	    71) == 0, "a misspelt word: the nearest command named");
	for (i = 0; text != NULL && i < admincmd_count; i++)
		ok(strstr(text, admincmd_table[i].name) != NULL, "... and the list has %s", admincmd_table[i].name);
	ok(text != NULL && strstr(text, ", engine and flush\n") != NULL, "... and main's own commands, last");
	free(text);
	text = captured(stderr, unknown_far);
	ok(text != NULL && strstr(text, "did you mean") == NULL && strstr(text, "'frobnicate'; the commands are") != NULL,
	    "a word near no command: the list alone");
	free(text);
}

int main(void)
{
	test_rows();
	test_usage();
	test_unknown();
	return t_done();
}
