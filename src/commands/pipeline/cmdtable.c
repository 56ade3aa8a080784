/* cmdtable: a table of mail commands, and what is made from one (cmdtable.h). */
#include "commands/pipeline/cmdtable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/strbuf.h"

const struct mail_command *cmdtable_of(const struct cmdtable *t, const struct command *cmd)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (cmd->syntax == &t->rows[i].syntax)
			return &t->rows[i];
	return NULL;
}

mailcmd_fn *cmdtable_bare(const struct cmdtable *t, enum command_result status)
{
	size_t i;

	for (i = 0; i < t->nbare; i++)
		if (t->bare[i].status == status)
			return t->bare[i].run;
	return NULL;
}

const struct mail_command *cmdtable_find(const struct cmdtable *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (strcasecmp(t->rows[i].syntax.name, name) == 0)
			return &t->rows[i];
	return NULL;
}

/*
 * "  challenge <userid> ... [-black|-white|-random]\n            [-noswap] ...":
 * the synopsis wrapped at MAILCMD_HELP_WIDTH, the lines after the first
 * under its first argument.
 */
static void help_synopsis(struct strbuf *sb, const char *synopsis)
{
	size_t indent = 2 + strcspn(synopsis, " ") + 1, col = 2, len;
	const char *p = synopsis;

	strbuf_add(sb, "  ", 2);
	while (*p != '\0') {
		len = strcspn(p, " ");
		if (col > indent && col + 1 + len > MAILCMD_HELP_WIDTH) {
			strbuf_printf(sb, "\n%*s", (int)indent, "");
			col = indent;
		} else if (p != synopsis) {
			strbuf_add(sb, " ", 1);
			col++;
		}
		strbuf_add(sb, p, len);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	strbuf_add(sb, "\n", 1);
}

char *cmdtable_help_text(const struct cmdtable *t)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *nl;
	size_t i;

	for (i = 0; i < t->n; i++) {
		help_synopsis(&sb, t->rows[i].syntax.synopsis);
		for (p = t->rows[i].help; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
			nl = p + strcspn(p, "\n");
			strbuf_printf(&sb, "      %.*s\n", (int)(nl - p), p);
		}
	}
	/* without the last line end: the template's line has its own */
	if (sb.len > 0 && !sb.failed)
		sb.s[--sb.len] = '\0';
	return strbuf_finish(&sb);
}

/* s with '|' escaped for a Markdown table cell. */
static void cell(struct strbuf *sb, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|')
			strbuf_add(sb, "\\", 1);
		strbuf_add(sb, s, 1);
	}
}

char *cmdtable_readme_table(const struct cmdtable *t)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_printf(&sb, "| command | what it does |\n|---|---|\n");
	for (i = 0; i < t->n; i++) {
		strbuf_add(&sb, "| `", 3);
		cell(&sb, t->rows[i].syntax.synopsis);
		strbuf_add(&sb, "` | ", 4);
		cell(&sb, t->rows[i].summary);
		strbuf_add(&sb, " |\n", 3);
	}
	return strbuf_finish(&sb);
}
