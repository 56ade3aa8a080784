/*
 * seek_int: what the mail commands seek (seek.c, which defines these) and
 * limit (limit.c) share.  Private to them.
 */
#ifndef OUSTPBM_SEEK_INT_H
#define OUSTPBM_SEEK_INT_H

#include "commands/pipeline/job.h"
#include "store/seeks.h"

/* The confirmation: templates/notice.txt with {text}. */
enum process_status seek_notice(struct job *j, const char *subject, const char *text);

/* Write the sender's (j->user's) number of kind. */
enum process_status seek_set(struct job *j, enum seeks_kind kind, unsigned n);

#endif
