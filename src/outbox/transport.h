/*
 * transport: how a queued reply leaves the outbox.  A transport is a small
 * table of functions; outbox_flush() opens it when there is something to
 * send, calls deliver() once per queued mail (one envelope recipient each,
 * so every result is unambiguous), and closes it.  A transport that keeps a
 * connection (SMTP) reuses it across the deliver() calls of one flush.
 *
 * Built in: "maildir", the default, and "smtp" (smtp.h).  Each reply goes into
 * <home>/mail/<recipient>/new/ as a Maildir message (written in tmp/, made
 * durable, renamed into new/, new/ made durable; see finish below), readable
 * with any Maildir reader (mutt -f DIR).  The
 * file name is the queue id, which has the Maildir unique-name shape
 * time.M<usec>P<pid>Q<n>.<host>, so delivering one queued mail again after a
 * crash replaces the same file instead of adding a second copy.  The
 * recipient becomes a directory name only if mailaddr_ok() accepts it and it
 * contains no '/' (so no leading '.', no spaces, no control characters, at
 * most 254 characters); anything else is a permanent failure.
 */
#ifndef OUSTPBM_TRANSPORT_H
#define OUSTPBM_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "outbox/transport_ops.h"
#include "store/store.h"

extern const struct transport_ops transport_maildir;

/* The transport called name, or NULL if there is none. */
const struct transport_ops *transport_find(const char *name);

/*
 * The host ops hands the replies to, for its backoff (hosts.h): the
 * host[:port] of smtp_url for the smtp transport, "local" otherwise.
 */
void transport_host(const struct transport_ops *ops, const struct config *cfg, char *buf, size_t size);

/* True if rcpt may name a directory under <home>/mail; *why as mailaddr_ok. */
bool transport_maildir_rcpt_ok(const char *rcpt, const char **why);

#endif
