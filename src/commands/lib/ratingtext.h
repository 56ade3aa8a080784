/*
 * ratingtext: the replies of the ratings' texts (standings, rating).
 */
#ifndef OUSTPBM_RATINGTEXT_H
#define OUSTPBM_RATINGTEXT_H

#include "commands/pipeline/job.h"

/* A reply made from template tmpl with {text}. */
enum process_status ratingtext_reply(struct job *j, const char *userid, const char *tmpl, const char *subject,
    const char *text);

/* A ratings file that cannot be read: the mail is tried again later (or the admin told). */
enum process_status ratingtext_failure(struct job *j, enum store_status ss, const char *err);

#endif
