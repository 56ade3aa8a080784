/* settingstext: a player's settings in a reply (settingstext.h). */
#include <stdio.h>
#include <stdlib.h>

#include "base/msg.h"
#include "base/strbuf.h"
#include "commands/lib/away.h"
#include "commands/lib/settingstext.h"

/* What each key does, in settings_keys' order, for the reply's last lines. */
static const char *const what[] = {
	"timezone: the times in your mails, your weekends and digest hours",
	"digest: off, a mail for every turn; daily@HH or twice@HH,HH, one\n  mail at those hours listing the boards waiting for you",
	"warn: a warning when your clock passes each mark (hours or days\n  left), or off",
	"weekends: on, your clocks stop at weekends on boards where both\n  players ask it",
	"queued_mail: on, a mail when your own queued turn answers at once",
};

enum process_status settingstext_reply(struct job *j, const struct settings *s, const char *head)
{
	struct strbuf sb = STRBUF_INIT;
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char v[SETTINGS_VALUE_MAX], subject[80], *text;
	size_t i;

	strbuf_printf(&sb, "%s\n\n", head);
	for (i = 0; i < settings_nkeys; i++) {
		settings_get(s, settings_keys[i], v, sizeof v);
		strbuf_printf(&sb, "    %-12s %s\n", settings_keys[i], v);
	}
	strbuf_printf(&sb, "\n");
	for (i = 0; i < settings_nkeys; i++)
		strbuf_printf(&sb, "%s\n", what[i]);
	strbuf_printf(&sb, "\nTo change one: set %s <password> key=value ...\n", s->userid);
	{
		/* the vacation bank (vacations.h): shown, set by the mail command vacation */
		char bank[AWAY_BANK_MAX];

		ps = away_bank_of(j, &j->user, bank, sizeof bank);
		if (ps != PROCESS_OK) {
			strbuf_release(&sb);
			return ps;
		}
		strbuf_printf(&sb, "\n%s", bank);
	}
	text = strbuf_finish(&sb);
	if (text == NULL)
		return job_no_memory(j);
	snprintf(subject, sizeof subject, "Oust settings of %s", s->userid);
	{
		struct reply_var var = { "text", text };

		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, s->userid) }, "notice", subject, &var, 1,
		    &m);
	}
	ps = job_send(j, rs, &m);
	free(text);
	return ps;
}

enum process_status settingstext_failure(struct job *j, enum store_status ss, const char *err)
{
	msg_warn("%s", err);
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}
