/*
 * dsn: a delivery status notification read with GMime (RFC 3464): which
 * recipients of a mail of ours could not be reached, for good.
 *
 * A report is a multipart/report (report-type=delivery-status) whose
 * message/delivery-status part (message/global-delivery-status, RFC 6533,
 * too) holds header-like blocks separated by blank lines: the first about
 * the message, each next one about one recipient (Final-Recipient, or
 * Original-Recipient without it; Action; Status).  A recipient bounced when
 * its Action is "failed" and its Status a 5.x.x (RFC 3463: permanent); an
 * Action "delayed" (or a 4.x.x) is a warning, not a bounce.  The part is
 * looked for at any depth (Gmail and Microsoft nest theirs), field names in
 * any case, "rfc822;" in any case with or without angle brackets around the
 * address, a comment after the status ignored (Postfix, Exim, Gmail,
 * Microsoft Exchange and Office 365 all write these shapes).  A mail with no
 * such part but an X-Failed-Recipients header (Exim's plain-text bounces)
 * counts each address there as failed with 5.0.0.
 *
 * The Message-ID of the mail that bounced (orig_id) comes from the report's
 * message/rfc822 or text/rfc822-headers part, else from the first
 * Message-ID line in the body: the caller counts a report only if it names
 * a mail of ours sent to the recipient it names (mail/idmac.h), so
 * backscatter (bounces of mail forged in our name) and forged reports are
 * not taken for a player's dead address.
 */
#ifndef OUSTPBM_DSN_H
#define OUSTPBM_DSN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/mailaddr.h"
#include "mail/mail.h"

#define DSN_RECIPIENTS_MAX 16	/* recipients kept from one report */
#define DSN_STATUS_MAX 15	/* "5.1.1" and the like */
#define DSN_ID_MAX 250		/* bytes of the original Message-ID */
#define DSN_DEPTH_MAX 8		/* MIME nesting searched */
#define DSN_FIELDS_MAX 65536	/* bytes of the delivery-status part read */

enum dsn_action {
	DSN_FAILED,	/* Action: failed with a 5.x.x Status: a bounce */
	DSN_DELAYED,	/* Action: delayed, or a failure that is not permanent */
	DSN_OTHER,	/* delivered, relayed, expanded */
};

struct dsn_recipient {
	char addr[MAILADDR_MAX + 1];	/* passes mailaddr_ok(); domain as written */
	char orig_addr[MAILADDR_MAX + 1];	/* its Original-Recipient, "" if none (RFC 3464 2.3.1) */
	enum dsn_action action;
	char status[DSN_STATUS_MAX + 1];	/* "5.1.1"; "" if none */
};

struct dsn {
	struct dsn_recipient rcpt[DSN_RECIPIENTS_MAX];
	size_t n;
	char orig_id[DSN_ID_MAX + 1];	/* without brackets; "" if not found */
};

/* Read the report in buf[0..len) (a whole mail) into *out. */
enum mail_status dsn_parse(const char *buf, size_t len, struct dsn *out);

/* The number of recipients of d that bounced (DSN_FAILED). */
size_t dsn_failed_count(const struct dsn *d);

#endif
