/*
 * imapurl: the imap_url setting taken apart, for the configuration's check
 * (config.c) and for the IMAP client (outbox/imap.h):
 *
 *   imap://USER@HOST[:PORT]/MAILBOX     (port 143; STARTTLS unless loopback)
 *   imaps://USER@HOST[:PORT]/MAILBOX    (port 993; TLS from the start)
 *
 * The syntax is RFC 5092's, narrowed: USER is percent-decoded ("%40" for
 * the '@' of a Gmail-type login), no password in the URL (imap_password_file
 * holds it), MAILBOX percent-decoded and INBOX when empty.  A mailbox and a
 * folder name (imapurl_folder_ok) are printable ASCII without '"', '\\',
 * '%' or '*', so that they are sent as one quoted string (RFC 3501 4.3)
 * and never read as a LIST wildcard.
 */
#ifndef OUSTPBM_IMAPURL_H
#define OUSTPBM_IMAPURL_H

#include <stdbool.h>

#define IMAPURL_USER_MAX 200
#define IMAPURL_HOST_MAX 255
#define IMAPURL_MAILBOX_MAX 200

struct imapurl {
	bool tls;			/* imaps:// */
	char user[IMAPURL_USER_MAX + 1];	/* decoded */
	char host[IMAPURL_HOST_MAX + 1];	/* an IPv6 literal without its [] */
	bool ipv6;			/* host was written in [] */
	unsigned port;			/* 143 or 993 when not given */
	char mailbox[IMAPURL_MAILBOX_MAX + 1];	/* decoded; "INBOX" when not given */
};

/* url taken apart into *out; false with *why (a static text) if it is not acceptable. */
bool imapurl_parse(const char *url, struct imapurl *out, const char **why);

/* True if name may be a mailbox or folder name (see above), 1..IMAPURL_MAILBOX_MAX characters. */
bool imapurl_folder_ok(const char *name);

/* True if the host is a loopback one (localhost, 127.0.0.0/8, ::1): no STARTTLS needed. */
bool imapurl_loopback(const struct imapurl *u);

#endif
