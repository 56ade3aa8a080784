/*
 * libFuzzer harness: the command parser.  The input is the Subject, a
 * newline, then the body (the text part), as mailin hands them over: NUL
 * bytes end the strings, as they would in C.  Parsed as from an unknown
 * sender, then as from one with the accounts alice, bob and a.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands/pipeline/mailcmd.h"
#include "mail/command.h"
#include "mail/mailfind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct command cmd;	/* large: not on the stack */
	static const char *const senders[] = { "alice", "bob", "a" };
	char *buf, *nl, *body, *masked, *comment;

	buf = malloc(size + 1);
	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nl = memchr(buf, '\n', size);
	body = nl != NULL ? nl + 1 : buf + size;
	if (nl != NULL)
		*nl = '\0';
	mailfind_parse(&mailcmd_grammar, buf, body, &cmd);
	masked = command_mask(&cmd);
	comment = command_comment(&cmd, body);
	free(masked);
	free(comment);
	/* as from a sender with accounts */
	mailfind_parse_as(&mailcmd_grammar, buf, body, senders, sizeof senders / sizeof senders[0], &cmd);
	masked = command_mask(&cmd);
	free(masked);
	free(buf);
	return 0;
}
