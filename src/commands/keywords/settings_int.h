/*
 * settings_int: what the mail commands set (set.c) and settings
 * (settings.c, which defines these) share.  Private to them.
 */
#ifndef OUSTPBM_SETTINGS_INT_H
#define OUSTPBM_SETTINGS_INT_H

#include "commands/pipeline/job.h"
#include "store/settings.h"

/*
 * The reply to the sender (j->user): templates/notice.txt with head, then
 * every setting of s.
 */
enum process_status settings_reply(struct job *j, const struct settings *s, const char *head);

/* The settings file could not be read or written (err says why): logged, the mail failed or kept. */
enum process_status settings_failure(struct job *j, enum store_status ss, const char *err);

#endif
