/*
 * libFuzzer harness: the mail front end, a raw message to a command
 * (mailin_parse, then command_parse, command_mask and command_comment as
 * process.c calls them).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "commands/pipeline/mailcmd.h"
#include "mail/command.h"
#include "mail/mailfind.h"
#include "mail/mailin.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	mailin_init();	/* GMime once for the whole run */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct command cmd;	/* large: not on the stack */
	struct mailin_message m;
	enum mail_status st;

	st = mailin_parse((const char *)data, size, &m);
	if (st != MAIL_NOMEM && st != MAIL_UNPARSABLE) {
		char *masked, *comment;

		mailfind_parse(&mailcmd_grammar, m.subject, m.body, &cmd);
		masked = command_mask(&cmd);
		comment = command_comment(&cmd, m.body);
		free(masked);
		free(comment);
	}
	mailin_message_release(&m);
	return 0;
}
