/* runlog: a board a run over the boards could not do, on stderr and in the log (runlog.h). */
#include "commands/services/runlog.h"

#include <stdio.h>
#include "base/msg.h"

void runlog_vboard_failed(struct store *st, const char *stamp, const char *run, long board, const char *outcome,
    const char *fmt, va_list ap)
{
	char msg[900];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (board > 0)
		msg_warn("%s: board %ld: %s", run, board, msg);
	else
		msg_warn("%s: %s", run, msg);
	store_log(st, "%s %s board=%ld %s: %s", stamp, run, board, outcome, msg);
}

void runlog_worse(struct runlog *rl, int s)
{
	int now = rl->rank != NULL ? rl->rank[s] : s, was = rl->rank != NULL ? rl->rank[rl->worst] : rl->worst;

	if (now > was)
		rl->worst = s;
}

void runlog_vfailed(struct runlog *rl, long board, int s, const char *fmt, va_list ap)
{
	runlog_vboard_failed(rl->st, rl->stamp, rl->run, board, rl->outcome[s], fmt, ap);
	(*rl->failed)++;
	runlog_worse(rl, s);
}
