/*
 * libFuzzer harness: the reply composer (reply.h, mailout.h) with what a
 * mail or a stored file can put into a reply: the sender's display name,
 * the command as quoted, the error text, the comment, a full name, the
 * incoming Message-ID and References (cleaned as mailin.c cleans them), and
 * a game file.  The input is those fields separated by NUL bytes.  Every
 * reply composed must parse back (mailin_parse) as a mail from the server's
 * address with one To, no Bcc and no header that came from the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/config.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "mail/mailin.h"
#include "mail/reply.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { F_NAME, F_COMMAND, F_ERROR, F_COMMENT, F_FULLNAME, F_ID, F_REFS, F_GAME, NFIELDS };

static struct config cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *top = getenv("OUSTPBM_TOP");

	(void)argc;
	(void)argv;
	mailin_init();
	config_defaults(&cfg);
	snprintf(cfg.from_address, sizeof cfg.from_address, "oust@example.net");
	snprintf(cfg.templates, sizeof cfg.templates, "%s/templates", top != NULL ? top : ".");
	return 0;
}

/* An id as mailin keeps it: printable ASCII but '<', '>' and '"', at most 250 bytes (keep_space: References). */
static void clean_id(char *s, bool keep_space)
{
	size_t i, n = 0;

	for (i = 0; s[i] != '\0' && n < 250; i++)
		if ((s[i] > ' ' && s[i] < 0x7f && s[i] != '<' && s[i] != '>' && s[i] != '"') || (keep_space && s[i] == ' '))
			s[n++] = s[i];
	s[n] = '\0';
}

/* The mail m must read back as the server's reply to rcpt. */
static void check(const struct reply_mail *m)
{
	struct mailin_message in;
	const char *p, *end, *nl;
	unsigned to = 0;

	if (mailin_parse(m->msg, m->len, &in) != MAIL_OK || strcasecmp(in.from_addr, cfg.from_address) != 0)
		abort();
	mailin_message_release(&in);
	/* the header section: one To, no Bcc, every line a header or its continuation */
	for (p = m->msg, end = m->msg + m->len; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL || nl == p || (nl == p + 1 && *p == '\r'))
			break;
		if (strncasecmp(p, "To:", 3) == 0)
			to++;
		if (strncasecmp(p, "Bcc:", 4) == 0 || strncasecmp(p, "X-Injected", 10) == 0)
			abort();
		if (*p != ' ' && *p != '\t' && memchr(p, ':', (size_t)(nl - p)) == NULL)
			abort();	/* a line that is neither a field nor a continuation */
	}
	if (to != 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy, *f[NFIELDS];
	struct reply_ctx rc;
	struct reply_mail m;
	struct reply_player pl = { 0 };
	struct reply_event ev;
	enum mail_status rs;
	struct game g;
	bool have_game = false;
	size_t i, k = 0;

	copy = malloc(size + 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	f[0] = copy;
	for (i = 0; i < size && k + 1 < NFIELDS; i++)
		if (copy[i] == '\0')
			f[++k] = copy + i + 1;
	for (k++; k < NFIELDS; k++)
		f[k] = copy + size;	/* "" */
	clean_id(f[F_ID], false);
	clean_id(f[F_REFS], true);
	if (gamefile_parse(f[F_GAME], strlen(f[F_GAME]), &g, NULL) == GAME_OK)
		have_game = true;
	reply_init(&rc, &cfg, ".", 1700000000, f[F_ID], f[F_REFS], "alice@example.org");
	rs = reply_error(&rc, &(struct reply_to){ "alice@example.org", f[F_NAME] },
	    &(struct reply_refused){ have_game ? g.board : 0, have_game ? &g : NULL, NULL, f[F_COMMAND], f[F_ERROR] }, &m);
	if (rs == MAIL_TEMPLATE)
		abort();	/* the set-up: run from the top of the tree, or set OUSTPBM_TOP */
	if (rs == MAIL_OK) {
		check(&m);
		reply_mail_release(&m);
	}
	{
		struct reply_var vars[] = { { "userid", "alice" }, { "fullname", f[F_FULLNAME] },
		    { "registered_address", "alice@example.org" }, { "open", "" } };

		rs = reply_account(&rc, &(struct reply_to){ "alice@example.org", f[F_NAME] }, "registered",
		    "Oust registration alice", REPLY_VARS(vars), &m);
	}
	if (rs == MAIL_OK) {
		check(&m);
		reply_mail_release(&m);
	}
	if (have_game) {
		memset(&ev, 0, sizeof ev);
		ev.what = REPLY_MOVE;
		ev.actor = g.black;
		ev.first = g.nturns > 0 ? g.nturns : 1;
		ev.comment = f[F_COMMENT];
		pl.userid = g.white;
		pl.address = "bob@example.com";
		pl.fullname = f[F_FULLNAME];
		pl.role = REPLY_ROLE_PLAYER;
		pl.token = "K7M2-QX9P-HD3RT";	/* the Subject's token and, to the mover, the tap links */
		if (reply_game(&rc, &g, &ev, &pl, &m) == MAIL_OK) {
			check(&m);
			reply_mail_release(&m);
		}
		if (reply_history(&rc, &(struct reply_to){ "alice@example.org", f[F_NAME] }, &g, &m) == MAIL_OK) {
			check(&m);
			reply_mail_release(&m);
		}
		game_release(&g);
	}
	reply_release(&rc);
	free(copy);
	return 0;
}
