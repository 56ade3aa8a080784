/*
 * mailaddr: the one check an e-mail address passes before oustpbm stores it
 * in the users file, writes it into a queue envelope, makes a Maildir
 * directory of it or (later) hands it to an SMTP client.
 *
 * Deliberately narrower than RFC 5322: an addr-spec whose local part is a
 * dot-atom (RFC 5322 3.4.1, no quoted strings, no comments) and whose domain
 * is a host name (letters, digits, '-' labels joined by '.'; no address
 * literals), ASCII only, within the RFC 5321 4.5.3.1 limits (local part 64,
 * domain 253, whole address 254).  So no accepted address contains a space,
 * a control character, CR/LF, ':', '<', '>', '"' or leading/trailing dots.
 */
#ifndef OUSTPBM_MAILADDR_H
#define OUSTPBM_MAILADDR_H

#include <stdbool.h>

#define MAILADDR_MAX 254	/* characters in a whole address */
#define MAILADDR_LOCAL_MAX 64
#define MAILADDR_DOMAIN_MAX 253

/*
 * True if s is an acceptable address.  Otherwise false, and *why (if why is
 * not NULL) points to a static phrase saying what is wrong ("has no '@'").
 */
bool mailaddr_ok(const char *s, const char **why);

/* RFC 5322 3.2.3 atext: a character of an atom (also msgid.h's grammar). */
bool mailaddr_atext(unsigned char c);

#endif
