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

#endif
