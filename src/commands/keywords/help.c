/* help: the mail command that sends the commands (made from the table, mailcmd.h) and the rules. */
#include <stdlib.h>

#include "commands/pipeline/cmdtable.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"

enum process_status help_run(struct job *j)
{
	struct reply_mail m;
	enum mail_status rs;
	enum process_status ps;
	char *commands = cmdtable_help_text(j->commands);

	if (commands == NULL)
		return job_no_memory(j);
	rs = reply_help(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, NULL) }, commands, &m);
	free(commands);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "help sent");
	return ps;
}
