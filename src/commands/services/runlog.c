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

const char *runlog_outcome(enum process_status s)
{
	switch (s) {
	case PROCESS_OK:
		return "ok";
	case PROCESS_TEMPFAIL:
		return "tempfail";
	case PROCESS_FAULT:
		return "fault";
	default:
		return "error";
	}
}

void runlog_worse(struct runlog *rl, enum process_status s)
{
	int now = rl->rank != NULL ? rl->rank[s] : (int)s, was = rl->rank != NULL ? rl->rank[rl->worst] : (int)rl->worst;

	if (now > was)
		rl->worst = s;
}

void runlog_vfailed(struct runlog *rl, long board, enum process_status s, const char *fmt, va_list ap)
{
	runlog_vboard_failed(rl->st, rl->stamp, rl->run, board, runlog_outcome(s), fmt, ap);
	(*rl->failed)++;
	runlog_worse(rl, s);
}
