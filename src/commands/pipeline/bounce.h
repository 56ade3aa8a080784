/*
 * bounce: what the mail pipeline does about bounces (store/bounces.h).
 * A delivery report (mail/dsn.h) is never answered, like every automatic
 * mail (RFC 3834).  A recipient whose Action is failed with a 5.x.x Status
 * counts a bounce only when the report's original Message-ID is one we
 * sent to that very address (its mac, mail/idmac.h: a stranger cannot
 * make one), named by Final-Recipient or Original-Recipient; each address
 * counts once in a report; an Action delayed is only logged.  The count
 * and the mark of the mail it was about go into one durable write
 * (bounces_add_report), so a copy of the report delivered again (after a
 * crash) or replayed is not counted twice; a report counted is recorded
 * as handled too (seen.h).  robot_address and admin_address are never
 * silenced by a report: the admin is alerted (alert.h) instead.  A mail
 * the pipeline answers clears its sender's bounces: the player who writes
 * again gets mail again.
 */
#ifndef OUSTPBM_BOUNCE_H
#define OUSTPBM_BOUNCE_H

#include <stddef.h>

#include "commands/pipeline/job.h"

/*
 * j's mail (buf[0..len), automatic) read as a delivery report: its bounces
 * counted and the log line's detail set when it is one; else the detail
 * is left as it is.  PROCESS_DROPPED: the mail is dropped;
 * PROCESS_TEMPFAIL: a bounce could not be written for now (a lock held,
 * the disk), so the mail system delivers the report again.
 */
enum process_status bounce_report(struct job *j, const char *buf, size_t len);

/* j's sender wrote: its bounces cleared; the count cleared (0: none), added to the log line by the caller. */
unsigned long bounce_wrote(struct job *j);

#endif
