/*
 * standings_int: what the mail commands standings (standings.c, which
 * defines these) and rating (rating.c) share.  Private to them.
 */
#ifndef OUSTPBM_STANDINGS_INT_H
#define OUSTPBM_STANDINGS_INT_H

#include "commands/pipeline/job.h"

/* A reply made from template tmpl with {text}. */
enum process_status standings_text_reply(struct job *j, const char *userid, const char *tmpl, const char *subject,
    const char *text);

/* A ratings file that cannot be read: the mail is tried again later (or the admin told). */
enum process_status standings_ratings_failure(struct job *j, enum store_status ss, const char *err);

#endif
