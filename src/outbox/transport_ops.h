/*
 * transport_ops: the interface of a transport (transport.h), the results
 * and the envelope, apart from the table of transports so that a transport
 * (smtp.h) and the table that lists it include this, not each other.
 */
#ifndef OUSTPBM_TRANSPORT_OPS_H
#define OUSTPBM_TRANSPORT_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "store/store.h"

#define TRANSPORT_REPLY_MAX 2048	/* bytes of a server's reply kept after the why line */
#define TRANSPORT_WHY_MAX (512 + TRANSPORT_REPLY_MAX)	/* size of the why buffer given to the functions */
#define TRANSPORT_BATCH_MAX 64	/* mails staged before finish() is called */

enum transport_result {
	TRANSPORT_OK,		/* delivered: the mail leaves the outbox */
	TRANSPORT_TEMPFAIL,	/* not now (SMTP 4xx, no connection, disk full): kept */
	TRANSPORT_PERMFAIL,	/* never (SMTP 5xx to RCPT or to the message, bad
				 * recipient): moved to failed/ */
	TRANSPORT_UNAVAILABLE,	/* temporary, and so for every mail of this run (no
				 * connection, timeout, TLS, an SMTP 5xx about the
				 * server or the session): kept, the run ends */
	TRANSPORT_BOUNCED,	/* never, because the recipient's address is dead
				 * (SMTP 5xx to RCPT, not a 5.7.x policy refusal):
				 * moved to failed/, a bounce of the address counted
				 * (store/bounces.h) */
};

/* The envelope of one queued mail; all strings valid during the call only. */
struct transport_envelope {
	const char *id;		/* queue id: unique, [A-Za-z0-9._-], no leading '.' */
	const char *from;	/* envelope sender, "" for the null sender <> */
	const char *rcpt;	/* the one recipient, mailaddr_ok() */
};

struct transport_ops {
	const char *name;	/* as in the "transport" key of oustpbm.conf */
	/*
	 * Prepare a run of deliveries; *ctx is passed to deliver and close.
	 * st and cfg outlive the run.  On failure write why and return
	 * TRANSPORT_TEMPFAIL or TRANSPORT_PERMFAIL; close is then not called.
	 */
	enum transport_result (*open)(struct store *st, const struct config *cfg, void **ctx,
	    char *why, size_t whylen);
	/*
	 * Deliver msg (len bytes, a complete RFC 5322 message) to env->rcpt.
	 * On failure why is one line; when a server answered, its whole reply
	 * (every line of a multi-line one, RFC 5321 4.2.1) may follow, each
	 * line after a '\n', at most TRANSPORT_REPLY_MAX bytes of them.
	 */
	enum transport_result (*deliver)(void *ctx, const struct transport_envelope *env,
	    const char *msg, size_t len, char *why, size_t whylen);
	/*
	 * Optional (NULL: deliver() is final).  When set, deliver() returning
	 * TRANSPORT_OK only stages the mail, and it is delivered once finish()
	 * returns TRANSPORT_OK, which completes every mail staged since the
	 * last finish() at once: the maildir transport writes the messages of a
	 * run into tmp/, then makes them durable with one sync, renames them
	 * into new/, and makes the names durable with one more, where one by one
	 * each cost two fsyncs.  On failure nothing staged counts as delivered
	 * (temporary: each is tried again).  outbox_flush() calls it at the end
	 * of the run and after every TRANSPORT_BATCH_MAX staged mails.
	 */
	enum transport_result (*finish)(void *ctx, char *why, size_t whylen);
	/* End the run and free ctx. */
	void (*close)(void *ctx);
	/*
	 * Delivering one queued mail again replaces the earlier copy (maildir:
	 * the file name is the queue id).  Then a flush need not fsync the
	 * removals from outbox/new/: a crash that undoes one only delivers that
	 * mail onto itself.  Otherwise (SMTP) it does, so a mail is not sent twice.
	 */
	bool idempotent;
};

#endif
