/*
 * smtp: the "smtp" transport (transport.h; its interface, transport_ops.h),
 * which hands queued replies to a mail server with libcurl.  It is the only module that uses libcurl, and
 * loads it with dlopen("libcurl.so.4") when a run of deliveries opens, so
 * handling a mail with the maildir transport never pays its start-up cost
 * (and ./oustpbm is not linked with it).  A missing or unusable libcurl is a
 * temporary failure: the mails wait in the outbox.
 *
 * Settings (config.h): smtp_url, smtp_starttls, smtp_cafile, smtp_user with
 * smtp_password or smtp_password_file, helo_name, envelope_from,
 * smtp_connect_timeout, smtp_timeout.  One easy handle is kept for a run, so
 * libcurl reuses one connection for all its deliveries; each deliver() is one
 * SMTP transaction with one recipient (MAIL, RCPT, DATA), so every result
 * belongs to one mail.  The message's lone LFs are sent as CRLF (RFC 5321
 * 2.3.8); libcurl adds the dot-stuffing (RFC 5321 4.5.2).
 *
 * libcurl 7.88 writes CR/LF inside an address onto the wire as is, so both
 * envelope addresses must pass mailaddr_ok() (no control characters, no
 * space, no '<' or '>') before they reach libcurl; anything else is a
 * permanent failure and nothing is sent.
 *
 * Results: 2xx, TRANSPORT_OK.  A 5xx answer to RCPT, TRANSPORT_BOUNCED (a
 * dead address), unless its status is a 5.7.x (a policy refusal, such as a
 * relay's "5.7.1 Relay access denied"), then TRANSPORT_PERMFAIL, as for a 5xx
 * to the end of data.  A 4xx answer, TRANSPORT_TEMPFAIL.  No
 * connection, a dropped one, a timeout, a TLS or certificate failure, a
 * refused login: TRANSPORT_UNAVAILABLE (no other mail of the run would fare
 * better).  The message (why) is libcurl's text with the server's code,
 * then the server's whole last reply, every line of a multi-line one, as
 * transport.h says (collected from libcurl's header callback, which gets
 * every response line); the SMTP password never appears in it.
 */
#ifndef OUSTPBM_SMTP_H
#define OUSTPBM_SMTP_H

#include "outbox/transport_ops.h"

#define SMTP_LIBCURL "libcurl.so.4"

extern const struct transport_ops transport_smtp;

#endif
