/*
 * bounce: what the mail pipeline does about bounces (store/bounces.h).
 * A delivery report (mail/dsn.h) is never answered, like every automatic
 * mail (RFC 3834); one that names a mail of ours (msgid_ours) counts a
 * bounce for each recipient whose Action is failed with a 5.x.x Status,
 * and an Action delayed is only logged; a report counted is recorded as
 * handled (seen.h), so its copy delivered again is not counted twice.  A
 * mail the pipeline answers clears
 * its sender's bounces: the player who writes again gets mail again.
 */
#ifndef OUSTPBM_BOUNCE_H
#define OUSTPBM_BOUNCE_H

#include <stddef.h>

#include "commands/pipeline/job.h"

/*
 * j's mail (buf[0..len), automatic) read as a delivery report: its bounces
 * counted and the log line's detail set when it is one; else the detail
 * is left as it is.  The mail is dropped either way.
 */
void bounce_report(struct job *j, const char *buf, size_t len);

/* j's sender wrote: its bounces cleared; the count cleared (0: none), added to the log line by the caller. */
unsigned long bounce_wrote(struct job *j);

#endif
