/*
 * mailpart: one MIME part of a mail by its media type, decoded (a game
 * record attached to a board mail for a robot host:
 * commands/admin/admin_robot_mail.c).
 * The mail's text is mailin.h's; this reads the attachments it leaves.
 */
#ifndef OUSTPBM_MAILPART_H
#define OUSTPBM_MAILPART_H

#include <stddef.h>

#include "mail/mail.h"

/*
 * The content of the first part of mail buf[0..len) whose media type is
 * type/subtype (any case), its transfer encoding undone, into *data
 * (NUL-terminated, *dlen bytes without the NUL; the caller frees it), at
 * most cap bytes.  On any failure *data is NULL.
 */
enum mail_status mailpart_find(const char *buf, size_t len, const char *type, const char *subtype, size_t cap,
    char **data, size_t *dlen);

#endif
