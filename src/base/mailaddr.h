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

/*
 * mailaddr_ok(), and every transport can deliver to it: no '/', which the
 * maildir transport cannot put in a directory name (transport.h).  What an
 * account is bound to (register, adduser) passes this, so its mail never
 * fails for the address alone.  *why as above.
 */
bool mailaddr_deliverable(const char *s, const char **why);

/*
 * The form of address s under which mails are counted for the per-sender
 * limit (max_mails_per_hour): ASCII letters in lower case, and a "+tag"
 * (from the first '+' of the local part, unless it starts the local part,
 * to the '@') dropped, so Alice@Example.org, alice+1@example.org and
 * ALICE+x@EXAMPLE.ORG are one sender.  Written into out (cut to
 * MAILADDR_MAX bytes); s need not be valid.
 */
void mailaddr_fold(const char *s, char out[MAILADDR_MAX + 1]);
/* RFC 5322 3.2.3 atext: a character of an atom (also msgid.h's grammar). */
bool mailaddr_atext(unsigned char c);

#endif
