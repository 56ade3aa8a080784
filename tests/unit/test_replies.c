/*
 * Unit tests on the corpus of real clients' replies (tests/data/replies):
 * each raw mail, read by mailin as the server reads it, must leave only the
 * reply's own text as the comment passed to the opponent, whatever quote
 * form its client wrote (Outlook's header block, AOL's and Yahoo's
 * "Original Message" lines, attributions with or without '>' quoting, a
 * signature, a bottom-posted reply).
 */
#include "commands/pipeline/mailcmd.h"
#include "mail/command.h"
#include "mail/mailfind.h"
#include "mail/mailin.h"
#include "t.h"
#include "t_home.h"

#include <stdlib.h>
#include <string.h>

static struct command cmd;

/*
 * The comment of the mail in name, read as a reply whose command came from
 * the Subject (so the whole body is the comment) and, with the command
 * line put on top of its text, as a reply with the command in the body.
 */
static void corpus(const char *name, const char *want)
{
	struct mailin_message m;
	char *buf, *c, *body;
	size_t len;

	buf = t_load("tests/data/replies", name, &len);
	ok_int(mailin_parse(buf, len, &m), MAIL_OK, "%s: parsed", name);
	mailfind_parse(&mailcmd_grammar, "show 101", m.body, &cmd);
	c = command_comment(&cmd, m.body);
	ok_str(c, want, "%s: the comment is the reply alone (command in the Subject)", name);
	free(c);
	body = malloc(strlen(m.body) + 40);
	if (body == NULL)
		exit(1);
	sprintf(body, "show 101\n%s", m.body);
	ok_int(mailfind_parse(&mailcmd_grammar, m.subject, body, &cmd), COMMAND_OK, "%s: the command above the reply is read", name);
	c = command_comment(&cmd, body);
	ok_str(c, want, "%s: the comment is the reply alone (command in the body)", name);
	free(c);
	free(body);
	mailin_message_release(&m);
	free(buf);
}

int main(void)
{
	corpus("outlook.eml", "Hello");
	corpus("aol.eml", "Hello");
	corpus("yahoo.eml", "Hello");
	corpus("comcast.eml", "Hello");
	corpus("hotmail.eml", "Hello");
	corpus("apple_mail.eml", "Hello");
	corpus("apple_mail_2.eml", "Hello");
	corpus("iphone.eml", "Hello");	/* the sign-off is a signature (mailtext.h) */
	corpus("sparrow.eml", "Hello");
	corpus("thunderbird.eml", "Hello");
	mailin_shutdown();
	return t_done();
}
