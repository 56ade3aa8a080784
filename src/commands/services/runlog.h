/*
 * runlog: what a run over the boards (oustpbm cleanup, oustpbm robot) says
 * of a board it could not do, the same way for every run.
 */
#ifndef OUSTPBM_RUNLOG_H
#define OUSTPBM_RUNLOG_H

#include <stdarg.h>

#include "commands/pipeline/status.h"
#include "store/store.h"

/*
 * A board a run over the boards (run: "cleanup", "robot") could not do:
 * "oustpbm: RUN: board N: MESSAGE" on stderr (no board when board is 0)
 * and "STAMP RUN board=N OUTCOME: MESSAGE" in the log.
 */
void runlog_vboard_failed(struct store *st, const char *stamp, const char *run, long board, const char *outcome,
    const char *fmt, va_list ap);

/* The log's word for a run's status s: "ok", "tempfail", "fault" or "error". */
const char *runlog_outcome(enum process_status s);

/*
 * The failures of one run over the boards: each said, counted, and the
 * gravest kept as the run's status.  rank gives each status's gravity
 * (PROCESS_STATUS_COUNT of them), NULL: the enum's order (status.h).
 */
struct runlog {
	struct store *st;
	const char *run;		/* "cleanup", "robot" */
	const char *stamp;		/* the run's time, as the log writes it */
	const int *rank;		/* the gravity of each status, or NULL */
	unsigned *failed;		/* the run's count of boards not done */
	enum process_status worst;	/* the gravest status so far */
};

/* s, a status of the run: kept if graver than the worst so far. */
void runlog_worse(struct runlog *rl, enum process_status s);

/* A board the run could not do, with status s: said as runlog_vboard_failed() says it, counted, kept. */
void runlog_vfailed(struct runlog *rl, long board, enum process_status s, const char *fmt, va_list ap);

#endif
