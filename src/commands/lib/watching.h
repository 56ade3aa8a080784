/*
 * watching: what the observers' commands share (subscribe, unsubscribe, notify):
 * their confirmations, the boards no observer may join, the watchers file.
 */
#ifndef OUSTPBM_WATCHING_H
#define OUSTPBM_WATCHING_H

#include <stdbool.h>

#include "commands/pipeline/job.h"
#include "store/audience.h"

/* The confirmation to the observer (templates/observe.txt) into m: news, then how to undo it. */
enum process_status watching_confirm(struct job *j, const char *subject, const char *news, const char *how,
    struct reply_mail *m);

/* True, *ps the refusal, if no observer may do what on g: a board over (adding), one the user plays. */
bool watching_refused_board(struct job *j, const struct game *g, bool adding, const char *what,
    enum process_status *ps);

/* j->game committed with the observer's confirmation; the log line says detail. */
enum process_status watching_commit_change(struct job *j, const char *subject, const char *news, const char *how,
    const char *detail);

/* Every board watched (kind AUDIENCE_ALL) or its result asked (AUDIENCE_RESULTS), on or off: the watchers file. */
enum process_status watching_every_board(struct job *j, enum audience_watch kind, bool on);

#endif
