/*
 * idmac: the Message-IDs of our mails bound to their recipient, so that a
 * delivery report or a mail that comes back can be proved to be about a
 * mail the server sent to that address (bounce.h, the loop check of the
 * pipeline), which a stranger cannot forge.
 *
 * Every mail the server sends carries the id it was composed with (its
 * "stem": "oust.<time>.<hash>.<n>@domain", "<board>.<turn>.<userid>.<time>@
 * domain"...) with one more dot-separated part before the '@':
 *
 *     <stem-left>.<mac>@<domain>
 *
 * mac is the first IDMAC_HEX lower-case hex digits of HMAC-SHA256 (RFC
 * 2104, GLib's GHmac) of the recipient's address (lower case) and the
 * stem, under a key derived from the home's token.secret
 * (store/tokens.h) by HMAC with a label of its own, so it never matches a
 * reply token's mac.  The id goes in the Message-ID field, which no mail
 * system rewrites, and a delivery report (RFC 3464) quotes it; a mail sent
 * to alice carries an id that checks only with alice's address.  Macs are
 * compared in constant time.  This module does no I/O.
 */
#ifndef OUSTPBM_IDMAC_H
#define OUSTPBM_IDMAC_H

#include <stdbool.h>
#include <stddef.h>

#define IDMAC_HEX 16		/* 64 bits: a guess costs a mail, and each is throttled */
#define IDMAC_KEY_BYTES 32	/* the derived key: SHA-256's size */

/* The key of the ids, derived from the home's secret (secret_len bytes) into key. */
void idmac_key(const unsigned char *secret, size_t secret_len, unsigned char key[IDMAC_KEY_BYTES]);

/*
 * The id stem ("left@domain", no brackets) as sent to rcpt into out
 * ("left.<mac>@domain"); false if stem has no '@' or out (size bytes)
 * cannot hold the result.
 */
bool idmac_sign(const unsigned char key[IDMAC_KEY_BYTES], const char *stem, const char *rcpt, char *out,
    size_t size);

/*
 * Is id (no brackets) one the server sent to rcpt: its domain is
 * own_domain (any case), its last part before the '@' the mac of rcpt
 * (any case) and the rest?  False for NULL or empty arguments.
 */
bool idmac_ours(const unsigned char key[IDMAC_KEY_BYTES], const char *id, const char *rcpt, const char *own_domain);

/*
 * Does id end in a part shaped like a mac ('.', IDMAC_HEX hex digits, '@')?
 * *left_len is then the length of the stem's left part (before that '.'),
 * else of the whole left part.  For readers of the stem (mailfind.h), which
 * check no mac.  False if id has no '@'.
 */
bool idmac_strip(const char *id, size_t *left_len);

#endif
