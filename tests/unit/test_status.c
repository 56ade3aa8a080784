/* Tests of commands/pipeline/status: the commands layer's one status type and its names. */
#include <string.h>

#include "t.h"
#include "commands/pipeline/status.h"
#include "commands/services/runlog.h"

/* Every status has its own name, none the fallback's: the log tells them apart. */
static void test_names(void)
{
	int i, k, distinct = 1, named = 1;

	for (i = 0; i < PROCESS_STATUS_COUNT; i++) {
		const char *a = process_status_str((enum process_status)i);

		if (a == NULL || a[0] == '\0' || strcmp(a, "unknown") == 0)
			named = 0;
		for (k = 0; k < i; k++)
			if (a != NULL && strcmp(a, process_status_str((enum process_status)k)) == 0)
				distinct = 0;
	}
	ok(named, "each of the %d statuses has a name", PROCESS_STATUS_COUNT);
	ok(distinct, "and no two the same");
	ok_str(process_status_str(PROCESS_TEMPFAIL), "temporary failure", "TEMPFAIL's name");
	ok_str(process_status_str(PROCESS_IOERR), "input/output error", "IOERR's name (the web site's log line)");
	ok_str(process_status_str((enum process_status)PROCESS_STATUS_COUNT), "unknown", "a value out of range");
}

/* A run's word in the log (runlog.h): the words cleanup and robot wrote before the one type. */
static void test_outcomes(void)
{
	ok_str(runlog_outcome(PROCESS_OK), "ok", "ok");
	ok_str(runlog_outcome(PROCESS_TEMPFAIL), "tempfail", "tempfail");
	ok_str(runlog_outcome(PROCESS_FAULT), "fault", "the robot's fault");
	ok_str(runlog_outcome(PROCESS_DATAERR), "error", "a damaged board: error");
	ok_str(runlog_outcome(PROCESS_CONFIG), "error", "a template: error");
	ok_str(runlog_outcome(PROCESS_SOFTWARE), "error", "anything else: error");
}

/* The gravest status of a run: by the enum's order, or by the run's own ranks. */
static void test_worse(void)
{
	static const int rank[PROCESS_STATUS_COUNT] = {
		[PROCESS_OK] = 0, [PROCESS_FAULT] = 1, [PROCESS_TEMPFAIL] = 2, [PROCESS_SOFTWARE] = 3, [PROCESS_CONFIG] = 4
	};
	struct runlog rl = { NULL, "cleanup", "", NULL, NULL, PROCESS_OK };

	runlog_worse(&rl, PROCESS_TEMPFAIL);
	runlog_worse(&rl, PROCESS_DATAERR);
	runlog_worse(&rl, PROCESS_TEMPFAIL);
	ok_int(rl.worst, PROCESS_DATAERR, "cleanup: a damaged board is graver than a lock");
	runlog_worse(&rl, PROCESS_SOFTWARE);
	ok_int(rl.worst, PROCESS_SOFTWARE, "and anything else graver still");
	rl = (struct runlog){ NULL, "robot", "", rank, NULL, PROCESS_OK };
	runlog_worse(&rl, PROCESS_CONFIG);
	runlog_worse(&rl, PROCESS_SOFTWARE);
	runlog_worse(&rl, PROCESS_FAULT);
	ok_int(rl.worst, PROCESS_CONFIG, "robot: a template is its gravest");
}

int main(void)
{
	test_names();
	test_outcomes();
	test_worse();
	return t_done();
}
