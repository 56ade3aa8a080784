/*
 * mailtext: the lines of a mail's text that its sender wrote, told apart
 * from the quoted mail of a reply, its attribution line and the signature.
 *
 * A body (UTF-8, LF line ends, NUL-terminated) is read line by line with
 * mailtext_line_len() and mailtext_next(); mailtext_kind() says what each
 * line is.  The text ends at a signature ("-- ", "Sent from my iPhone",
 * "Get Outlook for iOS", "Von meinem iPhone gesendet" and the like: a
 * signature never holds a command) or where the quoted mail of a reply
 * begins: "-----Original Message-----" (Outlook, AOL; Yahoo's and
 * Zimbra's spaced form), a line of underscores above a From:/Sent: block
 * (Outlook on the web), such a block alone (Outlook, in English, German
 * or French), "---------- Forwarded message ---------" (Gmail), "Begin
 * forwarded message:" (Apple Mail), and an attribution ("On <date>, <name>
 * wrote:", Gmail's wrapped over two lines, "Am ... schrieb ...:", "Le ...
 * a écrit :") not followed by '>' lines.  Lines quoted with '>' and the
 * attribution above them are skipped where they stand, as a reply may
 * answer between them.  tests/data/replies holds real clients' replies.
 * This module does no I/O.
 */
#ifndef OUSTPBM_MAILTEXT_H
#define OUSTPBM_MAILTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/utf8.h"

#define MAILTEXT_SIGNATURE_MAX 80	/* bytes of a "Sent from my ..." line taken for a signature */

enum mailtext_kind {
	MAILTEXT_TEXT = 0,	/* a line the sender wrote */
	MAILTEXT_BLANK,		/* only blanks */
	MAILTEXT_QUOTED,	/* a '>' line, or an attribution line above them: skipped */
	MAILTEXT_QUOTED2,	/* an attribution of two lines above '>' lines: this and the next skipped */
	MAILTEXT_END		/* a signature or the start of a quoted mail: the text ends before it */
};

/* Bytes of the line at s, without its LF. */
size_t mailtext_line_len(const char *s);

/* The line after the one at s (past its LF), or NULL at the end. */
const char *mailtext_next(const char *s);

/* The line after the line at s of kind (both lines of a MAILTEXT_QUOTED2), or NULL at the end. */
const char *mailtext_after(const char *s, enum mailtext_kind kind);

/* What the line s[0..len) is; s points into the NUL-terminated body (the lines after it are looked at). */
enum mailtext_kind mailtext_kind(const char *s, size_t len);

/*
 * Is s[0..len) a signature line: "-- " (or "--"), or a mail program's
 * sign-off ("Sent from my iPhone", "Get Outlook for Android", "Von meinem
 * iPhone gesendet", "Envoyé de mon iPhone"...)?
 */
bool mailtext_signature(const char *s, size_t len);

/*
 * A header value made one clean line: a copy of s (NULL is "") cleaned by
 * utf8_clean() in mode (UTF8_LINE, or UTF8_LINE_KEEP to keep control
 * characters), at most max bytes, spaces trimmed at both ends.  The caller
 * frees it; NULL when out of memory.
 */
char *mailtext_clean_line(const char *s, size_t max, enum utf8_mode mode);

#endif
