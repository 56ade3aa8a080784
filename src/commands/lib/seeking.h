/*
 * seeking: a player's own numbers of games (store/seeks.h: the games sought, the
 * limit of boards) set and confirmed (seek, limit).
 */
#ifndef OUSTPBM_SEEKING_H
#define OUSTPBM_SEEKING_H

#include "commands/pipeline/job.h"
#include "store/seeks.h"

/* The confirmation: templates/notice.txt with {text}. */
enum process_status seeking_notice(struct job *j, const char *subject, const char *text);

/* Write the sender's (j->user's) number of kind. */
enum process_status seeking_set(struct job *j, enum seeks_kind kind, unsigned n);

#endif
