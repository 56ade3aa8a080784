/*
 * settings <userid> <password>: the sender's settings (store/settings.h),
 * each with what it does.  Nothing is written.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands/lib/settingstext.h"
#include "commands/pipeline/mailcmd.h"

enum process_status settings_run(struct job *j)
{
	char err[SETTINGS_ERR_MAX];
	struct settings s;
	enum store_status ss;
	enum process_status ps;

	ss = settings_find(j->srv.st, j->user.userid, &s, err);
	if (ss != STORE_OK)
		return settingstext_failure(j, ss, err);
	ps = settingstext_reply(j, &s, "Your settings:");
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "settings of %s", j->user.userid);
	return ps;
}
