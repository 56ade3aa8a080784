/*
 * set <userid> <password> key=value ...: the sender's settings
 * (store/settings.h): timezone, digest, warn, weekends, queued_mail.  Every
 * pair is checked before anything is written: one bad pair (an unknown key,
 * a bad value, an unknown zone, a key given twice) refuses them all, naming
 * it.  The reply lists every setting, as `settings` does.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "commands/lib/settingstext.h"
#include "commands/pipeline/mailcmd.h"

#define SET_PAIRS_MAX 10	/* key=value pairs in one command */

enum process_status set_run(struct job *j)
{
	char text[COMMAND_LINE_MAX + 1], err[SETTINGS_ERR_MAX], why[SETTINGS_ERR_MAX], *p, *word, *eq;
	const char *seen[SET_PAIRS_MAX];
	struct settings s;
	enum store_status ss;
	enum process_status ps;
	int n = 0, i;

	ss = settings_find(j->srv.st, j->user.userid, &s, err);
	if (ss != STORE_OK)
		return settingstext_failure(j, ss, err);
	snprintf(text, sizeof text, "%s", j->cmd.text);
	for (p = text; *p != '\0';) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		word = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
		eq = strchr(word, '=');
		if (eq == NULL || eq == word)
			return job_refuse(j, NULL, "'%.40s' is not key=value: send set <userid> <password> key=value ..., "
			    "as timezone=Europe/Paris or warn=72h,24h,4h", word);
		*eq = '\0';
		if (n == SET_PAIRS_MAX)
			return job_refuse(j, NULL, "set: at most %d settings in one command", SET_PAIRS_MAX);
		for (i = 0; i < n; i++)
			if (strcasecmp(seen[i], word) == 0)
				return job_refuse(j, NULL, "set: %.40s is given twice", word);
		seen[n++] = word;
		if (!settings_set(&s, word, eq + 1, true, why, sizeof why))
			return job_refuse(j, NULL, "%s", why);
	}
	ss = settings_save(j->srv.st, j->srv.cfg.lock_timeout_ms, &s, err);
	if (ss != STORE_OK)
		return settingstext_failure(j, ss, err);
	ps = settingstext_reply(j, &s, "Your settings are now:");
	if (ps == PROCESS_OK) {
		settings_format(&s, text, sizeof text);
		job_detail(j, "ok", "%s sets %s", j->user.userid, text);
	}
	return ps;
}
