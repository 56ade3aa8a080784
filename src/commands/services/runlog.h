/*
 * runlog: what a run over the boards (oustpbm cleanup, oustpbm robot) says
 * of a board it could not do, the same way for every run.
 */
#ifndef OUSTPBM_RUNLOG_H
#define OUSTPBM_RUNLOG_H

#include <stdarg.h>

#include "store/store.h"

/*
 * A board a run over the boards (run: "cleanup", "robot") could not do:
 * "oustpbm: RUN: board N: MESSAGE" on stderr (no board when board is 0)
 * and "STAMP RUN board=N OUTCOME: MESSAGE" in the log.
 */
void runlog_vboard_failed(struct store *st, const char *stamp, const char *run, long board, const char *outcome,
    const char *fmt, va_list ap);

/*
 * The failures of one run over the boards: each said, counted, and the
 * gravest kept as the run's status.  A run's statuses are its enum's
 * values: outcome gives the log's word for each, rank their gravity
 * (NULL: the enum's order).
 */
struct runlog {
	struct store *st;
	const char *run;		/* "cleanup", "robot" */
	const char *stamp;		/* the run's time, as the log writes it */
	const char *const *outcome;	/* the log's word for each status */
	const int *rank;		/* the gravity of each status, or NULL */
	unsigned *failed;		/* the run's count of boards not done */
	int worst;			/* the gravest status so far */
};

/* s, a status of the run: kept if graver than the worst so far. */
void runlog_worse(struct runlog *rl, int s);

/* A board the run could not do, with status s: said as runlog_vboard_failed() says it, counted, kept. */
void runlog_vfailed(struct runlog *rl, long board, int s, const char *fmt, va_list ap);

#endif
