/*
 * robotmac: the MAC that authenticates a board mail from the server to a
 * robot host (commands/pipeline/robotremote.h sends it,
 * admin/admin_robot_mail.c checks it).  The From of a mail proves
 * nothing (anyone can write robot_server there), so each board mail
 * carries, in its header ROBOTMAC_HEADER, an HMAC-SHA256 (RFC 2104, FIPS
 * 180-4; GLib's GHmac, which GMime brings) under a secret that the server
 * and its robot host share, the admin's robot_secret_file on each side.
 * It covers what the robot host acts on: the Subject (the board, the
 * turn, the reply token) and the game record the position is rebuilt from,
 *
 *     "oust-robot-mac 1\n" <length of Subject> "\n" Subject "\n" record
 *
 * the record's carriage returns left out (a relay may turn LF into CRLF).
 * A mail without it, or with another, is no board mail of the server: the
 * robot host logs and drops it, never thinks for it nor queues it.  The
 * hex MAC is compared in constant time.
 */
#ifndef OUSTPBM_ROBOTMAC_H
#define OUSTPBM_ROBOTMAC_H

#include <stdbool.h>
#include <stddef.h>

#define ROBOTMAC_HEADER "X-Oust-Robot-MAC"
#define ROBOTMAC_HEX 64			/* hex digits of an HMAC-SHA256 */
#define ROBOTMAC_SECRET_MIN 32		/* characters of the shared secret, at least */
#define ROBOTMAC_SECRET_MAX 1024	/* bytes of robot_secret_file read */
#define ROBOTMAC_WHY_MAX 300

/*
 * The first line of the secret file (file: absolute, or relative to
 * home), without its line end, into secret (ROBOTMAC_SECRET_MAX + 1
 * bytes; the caller wipes it with explicit_bzero).  False with why (the
 * secret never in it) if the file cannot be read, is no regular file, may
 * be read by its group or others, or its line is shorter than
 * ROBOTMAC_SECRET_MIN.
 */
bool robotmac_secret(const char *home, const char *file, char secret[ROBOTMAC_SECRET_MAX + 1], char *why,
    size_t whylen);

/* The MAC of a board mail, as hex, into out; false only when out of memory. */
bool robotmac_make(const char *secret, const char *subject, const char *record, size_t rlen,
    char out[ROBOTMAC_HEX + 1]);

/*
 * The value of the mail's ROBOTMAC_HEADER (buf[0..len), a whole mail) into
 * out, trimmed; false if it has none, or not a MAC's length.
 */
bool robotmac_header(const char *buf, size_t len, char out[ROBOTMAC_HEX + 1]);

/* True if the two hex MACs are the same (case aside), compared in constant time. */
bool robotmac_equal(const char *a, const char *b);

#endif
