/*
 * subscribe_int: what the observers' commands share (subscribe.c,
 * unsubscribe.c, notify.c), defined in subscribe.c.
 */
#ifndef OUSTPBM_SUBSCRIBE_INT_H
#define OUSTPBM_SUBSCRIBE_INT_H

#include <stdbool.h>

#include "commands/pipeline/job.h"
#include "store/audience.h"

/* The confirmation to the observer (templates/observe.txt) into m: news, then how to undo it. */
enum process_status subscribe_confirm(struct job *j, const char *subject, const char *news, const char *how,
    struct reply_mail *m);

/* True, *ps the refusal, if no observer may do what on g: a board over (adding), one the user plays. */
bool subscribe_refused_board(struct job *j, const struct game *g, bool adding, const char *what,
    enum process_status *ps);

/* j->game committed with the observer's confirmation; the log line says detail. */
enum process_status subscribe_commit_change(struct job *j, const char *subject, const char *news, const char *how,
    const char *detail);

/* Every board watched (kind AUDIENCE_ALL) or its result asked (AUDIENCE_RESULTS), on or off: the watchers file. */
enum process_status subscribe_watch_every_board(struct job *j, enum audience_watch kind, bool on);

#endif
