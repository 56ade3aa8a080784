/*
 * unsubtoken: the token of a List-Unsubscribe mailto (RFC 2369, RFC 6068),
 * the way out of an observer's mails that needs no password.  A token is
 * "<userid>.<scope>.<mac>": scope a board number or "all", mac the first
 * UNSUBTOKEN_MAC_HEX hex digits of HMAC-SHA256 (GLib's GHmac) of
 * "unsubscribe <userid> <scope>" under the home's secret file, <home>/secret
 * (32 random bytes as hex, made 0600 on first use).  So it is unguessable,
 * and per address and scope; '.' is in no user id (ident.h), so the parts
 * split back.  A token fits a password slot (COMMAND_PASSWORD_MAX).
 */
#ifndef OUSTPBM_UNSUBTOKEN_H
#define OUSTPBM_UNSUBTOKEN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/ident.h"
#include "mail/mail.h"

#define UNSUBTOKEN_MAC_HEX 24		/* 96 bits: guessing is throttled as a password (throttle.h) */
#define UNSUBTOKEN_MAX IDENT_PASSWORD_MAX	/* bytes of a token: it fits a password slot (COMMAND_PASSWORD_MAX) */
#define UNSUBTOKEN_SECRET_MAX 256	/* the read cap of the secret file */
#define UNSUBTOKEN_URI_MAX 400		/* bytes of the mailto URI */

/* The token of userid for scope (a board, or 0 for "all") into out. */
enum mail_status unsubtoken_make(const char *home, const char *userid, long board,
    char out[UNSUBTOKEN_MAX + 1]);

/*
 * Check token; on MAIL_OK the user id it names is in userid (the
 * caller's, IDENT_USERID_MAX + 1 bytes) and the board in *board (0: all).
 */
enum mail_status unsubtoken_check(const char *home, const char *token, char *userid, size_t userid_size,
    long *board);

/*
 * The List-Unsubscribe value for token: "<mailto:ADDR?subject=unsubscribe%20TOKEN>",
 * the subject percent-encoded (RFC 6068 2); false if it does not fit.
 */
bool unsubtoken_header(const char *server_addr, const char *token, char out[UNSUBTOKEN_URI_MAX + 1]);

#endif
