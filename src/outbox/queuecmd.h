/*
 * queuecmd: what the admin's commands on the outbox do (main.c's table
 * runs them through commands/admin/admin_outbox.c, which opens the home and the
 * outbox):
 *   oustpbm [-d DIR] flush [--all]  send every queued mail that is due
 *                            (outbox_flush, under outbox/flush.lock); quiet
 *                            unless a mail was deferred or failed, then one
 *                            summary line; --all: backoff or not (postqueue -f)
 *   oustpbm [-d DIR] outbox  list the waiting mails: queue id, recipient,
 *                            subject, attempts, next attempt, last error
 *   oustpbm [-d DIR] outbox retry [ID...|all]
 *                            move replies from outbox/failed/ back into the
 *                            queue (all without ids), their retries reset
 * Output on out, complaints on stderr and in the log (store_complain).
 */
#ifndef OUSTPBM_QUEUECMD_H
#define OUSTPBM_QUEUECMD_H

#include <stdbool.h>
#include <stdio.h>

#include "base/config.h"
#include "outbox/outbox.h"

/* Each returns OUTBOX_OK or why not (outbox.h): OUTBOX_CONFIG, OUTBOX_NO_SUCH_ID, the outbox's failures. */
/* Send the queued mails that are due (all: every one), logging the run's counts. */
enum outbox_status queuecmd_flush(struct outbox *ob, const struct config *cfg, bool all, FILE *out);

/*
 * The waiting replies (outbox/new/), then those refused for good
 * (outbox/failed/, which retry sends again), each with its last error
 * and the server's whole reply to it.
 */
enum outbox_status queuecmd_list(struct outbox *ob, const struct config *cfg, FILE *out);

/* The replies ids[0..nids) of outbox/failed/ (every one when nids is 0 or ids is {"all"}) queued again. */
enum outbox_status queuecmd_requeue(struct outbox *ob, const struct config *cfg, char **ids, int nids, FILE *out);

#endif
