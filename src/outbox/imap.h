/*
 * imap: the client of a hosted mailbox (imap_url, base/imapurl.h) that
 * `oustpbm fetch` reads mail from; beside the transports because it is the
 * other module that speaks to a mail server with libcurl, loaded the same
 * way (dlopen of libcurl.so.4 at open time, smtp.h).
 *
 * libcurl connects, starts TLS (imaps://, or STARTTLS on imap:// unless
 * the host is loopback) and logs in (CURLOPT_CONNECT_ONLY); the commands
 * after the login are this module's, sent with curl_easy_send and read
 * with curl_easy_recv (libcurl has no IDLE, RFC 2177, and its FETCH has no
 * BODY.PEEK or partial fetch).  RFC 3501 for the rest: one tagged command
 * at a time, literals read by their length, the mailbox and folder names
 * one quoted string (imapurl_folder_ok keeps them quotable).
 *
 * A message is taken from the mailbox by imap_move: UID MOVE (RFC 6851)
 * where the server has it, else UID COPY, then STORE \Deleted and UID
 * EXPUNGE (RFC 4315) or, without UIDPLUS, EXPUNGE.
 *
 * Statuses: OUTBOX_REFUSED, the server refused the one command (its text in why);
 * OUTBOX_UNAVAILABLE, no connection, a dropped one, a timeout, a TLS failure
 * or a protocol error: the session is unusable, close it; OUTBOX_DENIED, the
 * login was refused (a setting to fix, not a passing failure); OUTBOX_NOMEM.
 * No message carries the password.
 */
#ifndef OUSTPBM_IMAP_H
#define OUSTPBM_IMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "outbox/outbox.h"

#define IMAP_LIBCURL "libcurl.so.4"
#define IMAP_WHY_MAX 600	/* bytes of a failure's text */
#define IMAP_RENEW_IDLE_SECONDS (25 * 60)	/* RFC 2177: re-IDLE before the server's 30 minutes */

struct imap;

/*
 * Connect to cfg->imap_url with the password of imap_password_file (a
 * relative path from home), log in and select the URL's mailbox.  *out is
 * the session (imap_close frees it), NULL on failure.  A password file that
 * cannot be read is OUTBOX_DENIED too.
 */
enum outbox_status imap_open(const struct config *cfg, const char *home, struct imap **out, char *why,
    size_t whylen);

/* Close the session (LOGOUT when it still stands); NULL is harmless. */
void imap_close(struct imap *im);

/* The mailbox's UIDVALIDITY (RFC 3501 2.3.1.1): with a UID, a message's name for good; 0 if not told. */
unsigned long imap_uidvalidity(const struct imap *im);

/* Whether the server announced IDLE (RFC 2177). */
bool imap_has_idle(const struct imap *im);

/* The UIDs of the mailbox's messages not flagged \Deleted, ascending, at most max; the caller frees *uids. */
enum outbox_status imap_search(struct imap *im, size_t max, unsigned long **uids, size_t *n, char *why,
    size_t whylen);

/* A message fetched: its first bytes, and its whole size on the server. */
struct imap_message {
	char *data;		/* malloc'd: the caller frees it */
	size_t len;
	unsigned long size;
};

/*
 * Message uid's first cap bytes (BODY.PEEK[]<0.cap>: its \Seen flag left
 * alone) into *m.  OUTBOX_OK with m->data NULL if the message is gone (taken
 * by another client meanwhile).
 */
enum outbox_status imap_fetch(struct imap *im, unsigned long uid, size_t cap, struct imap_message *m, char *why,
    size_t whylen);

/* Make folder unless it exists. */
enum outbox_status imap_create(struct imap *im, const char *folder, char *why, size_t whylen);

/* Move message uid to folder (see above). */
enum outbox_status imap_move(struct imap *im, unsigned long uid, const char *folder, char *why, size_t whylen);

/*
 * IDLE (RFC 2177) until the server tells of a new message (*news true) or
 * seconds pass, then DONE.  Without IDLE on the server: NOOP after the
 * wait (a plain poll), *news false.
 */
enum outbox_status imap_wait(struct imap *im, unsigned long seconds, bool *news, char *why, size_t whylen);

#endif
