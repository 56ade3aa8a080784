/*
 * msgid: the one grammar of a message id (RFC 5322 3.6.4), shared by the
 * game file's thread: field (gamefile), fsck (through gamefile) and the
 * composer (mailout), so that a value one accepts the others accept too.
 *
 *   msg-id   = "<" id-left "@" id-right ">"
 *   id-left  = dot-atom-text
 *   id-right = dot-atom-text / "[" *dtext "]"
 *
 * The obsolete forms (obs-id-left, obs-id-right: quoted strings, comments,
 * folding) are not accepted: nothing this server writes uses them, and a
 * reply leaves out an id it cannot repeat safely rather than fail.
 */
#ifndef OUSTPBM_MSGID_H
#define OUSTPBM_MSGID_H

#include <stdbool.h>
#include <stddef.h>

/* Is s[0..len) the content of a msg-id, "id-left@id-right", without the angle brackets? */
bool msgid_ok(const char *s, size_t len);

/* Is s[0..len) a whole msg-id, "<id-left@id-right>"? */
bool msgid_bracketed_ok(const char *s, size_t len);

/*
 * Whether an id is one the server sent is not a matter of its shape (a
 * player's mail program may make ids like ours): mail/idmac.h checks the
 * mac it carries.
 */

#endif
