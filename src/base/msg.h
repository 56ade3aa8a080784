/*
 * msg: the one way the server warns its admin on standard error, as
 * Postfix's msg_warn: "oustpbm: MESSAGE" and a line end, one write.  What
 * must also reach the log goes through store_complain (store.h), which
 * uses this; a failure a mail's reply reports goes through the job
 * (job_detail).  An admin command's failure comes here too; only main's
 * usage text on a bad command line is written to stderr directly.
 */
#ifndef OUSTPBM_MSG_H
#define OUSTPBM_MSG_H

#include <stdarg.h>

void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
