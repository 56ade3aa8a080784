/*
 * settingstext: a player's settings as the reply of the mail commands set
 * and settings shows them, each with what it does.
 */
#ifndef OUSTPBM_SETTINGSTEXT_H
#define OUSTPBM_SETTINGSTEXT_H

#include "commands/pipeline/job.h"
#include "store/settings.h"

/*
 * The reply to the sender (j->user): templates/notice.txt with head, then
 * every setting of s.
 */
enum process_status settingstext_reply(struct job *j, const struct settings *s, const char *head);

/* The settings file could not be read or written (err says why): logged, the mail failed or kept. */
enum process_status settingstext_failure(struct job *j, enum store_status ss, const char *err);

#endif
