/*
 * authres: the receiving mail server's verdict on a mail, read from its
 * Authentication-Results header field (RFC 8601), for a server whose admin
 * trusts that mail server (config key trusted_authserv_id).
 *
 * Which header counts (RFC 8601, 5 and 7.2): an MTA adds its own field at
 * the top of the header and should remove or rename any field carrying
 * its own authserv-id that came in with the mail; every field below the
 * topmost one, and every field of another authserv-id, may have been
 * written by the sender.  So only the topmost field whose authserv-id is
 * the trusted one is read (authserv-ids compared without regard to case);
 * a forged one below it is never looked at.
 *
 * The verdict (authres_judge), for the domain of the mail's From:
 *   AUTHRES_DMARC_FAIL  a dmarc=fail result whose header.from is the From
 *                       domain (or names none): the From is forged;
 *   AUTHRES_PASS        dmarc=pass for the From domain, or dkim=pass whose
 *                       signing domain (header.d, else the domain of
 *                       header.i) is aligned with it: the same domain, or a
 *                       parent domain of it with at least one dot (the From
 *                       domain ends in "." and the signing domain).  This is
 *                       a safe subset of DMARC's relaxed alignment (RFC 7489,
 *                       3.1.1) without the public suffix list: a signature
 *                       by a subdomain of the From domain does not count;
 *   AUTHRES_NO_PASS     read, but neither (dmarc=none, an unaligned
 *                       signature, temperror...);
 *   AUTHRES_UNREADABLE  the trusted field is there but cannot be read:
 *                       a syntax error before its first result, a version
 *                       other than 1 (RFC 8601 2.2), or longer than
 *                       AUTHRES_FIELD_MAX (a cut field could read as
 *                       another verdict);
 *   AUTHRES_NO_HEADER   no field of the trusted authserv-id.
 * A fail wins over a pass in the same field.
 *
 * The parser (authres_parse) reads the ABNF of RFC 8601 2.2 with bounded
 * buffers: comments (nested, with quoted-pairs) and folding white space
 * anywhere CFWS may stand, quoted strings, keywords without regard to
 * case, "; none", several resinfo separated by ';'.  A resinfo that does
 * not parse is skipped up to the next ';' outside comments and quotes (and
 * counted in skipped): the verdict never rests on it.  Unknown properties
 * without a ptype (Microsoft's "action=none") are skipped too.  No GMime:
 * the header section is split here (authres_find), so the parser can be
 * fuzzed on its own.
 */
#ifndef OUSTPBM_AUTHRES_H
#define OUSTPBM_AUTHRES_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/mail.h"

#define AUTHRES_ID_MAX 255	/* bytes of an authserv-id */
#define AUTHRES_WORD_MAX 63	/* bytes of a method, result or property name */
#define AUTHRES_VALUE_MAX 255	/* bytes of a property value (a domain, an address) */
#define AUTHRES_RESULTS_MAX 32	/* resinfo kept from one field */
#define AUTHRES_PROPS_MAX 8	/* properties kept from one resinfo */
#define AUTHRES_FIELD_MAX 16384	/* bytes of one field's value read; a longer trusted one is unreadable */
#define AUTHRES_WHY_MAX 600	/* authres_verdict's explanation */

struct authres_prop {
	char name[2 * AUTHRES_WORD_MAX + 2];	/* "ptype.property", lower case: "header.d" */
	char value[AUTHRES_VALUE_MAX + 1];	/* as written, quotes removed; cut at AUTHRES_VALUE_MAX */
	bool cut;		/* value was longer and cut */
};

struct authres_result {
	char method[AUTHRES_WORD_MAX + 1];	/* lower case, without a method version: "dkim" */
	char result[AUTHRES_WORD_MAX + 1];	/* lower case: "pass" */
	struct authres_prop props[AUTHRES_PROPS_MAX];
	size_t nprops;
};

/* One Authentication-Results field, parsed. */
struct authres {
	char authserv_id[AUTHRES_ID_MAX + 1];	/* as written, quotes removed */
	bool none;		/* "; none": no method was applied */
	struct authres_result results[AUTHRES_RESULTS_MAX];
	size_t nresults;
	size_t skipped;		/* resinfo not read: bad syntax, or past AUTHRES_RESULTS_MAX */
};

/*
 * Parse the value of one Authentication-Results field, s[0..len), as
 * written (folded lines, CR LF, comments).  out is overwritten; its
 * authserv_id is filled as soon as it is read, even when the status is
 * MAIL_AUTHRES_VERSION or MAIL_AUTHRES_SYNTAX.
 */
enum mail_status authres_parse(const char *s, size_t len, struct authres *out);

/*
 * Find the topmost Authentication-Results field whose authserv-id is id
 * (without regard to case) in the header section of the mail buf[0..len)
 * (a leading mbox "From " line skipped, LF or CR LF line ends, folded
 * fields joined) and parse it into out.  *found is false when there is
 * none; else the status is the parse's.  A field whose authserv-id cannot
 * be read is passed over.
 */
enum mail_status authres_find(const char *buf, size_t len, const char *id, struct authres *out, bool *found);

enum authres_verdict {
	AUTHRES_NO_HEADER,
	AUTHRES_UNREADABLE,
	AUTHRES_NO_PASS,
	AUTHRES_PASS,
	AUTHRES_DMARC_FAIL,
};

const char *authres_verdict_str(enum authres_verdict v);

/*
 * The signing domain d is aligned with from_domain (see above): equal, or
 * a parent domain of it with a dot in it; without regard to case and to a
 * final dot.
 */
bool authres_aligned(const char *d, const char *from_domain);

/*
 * The verdict of the parsed field ar for from_domain (the domain of the
 * mail's From), and in why (AUTHRES_WHY_MAX bytes) the results it rests
 * on, for the log and the reply: printable ASCII only.
 */
enum authres_verdict authres_judge(const struct authres *ar, const char *from_domain, char *why);

/*
 * The verdict on the mail buf[0..len) from the server id, for the address
 * from_addr (its domain is taken after the last '@'): authres_find and
 * authres_judge, with AUTHRES_NO_HEADER and AUTHRES_UNREADABLE explained
 * in why too.  work is the caller's room for the parse (about 100 kB: not
 * for the stack).
 */
enum authres_verdict authres_check(const char *buf, size_t len, const char *id, const char *from_addr,
    struct authres *work, char *why);

#endif
