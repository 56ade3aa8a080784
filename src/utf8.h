/*
 * utf8: checking and cleaning UTF-8 text that came from outside (mail
 * headers, mail bodies, templates), so that nothing downstream sees invalid
 * sequences or control characters.  RFC 3629 decoding: overlong forms,
 * surrogates and code points above U+10FFFF are invalid.
 */
#ifndef OUSTPBM_UTF8_H
#define OUSTPBM_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Decode the sequence at s (n bytes available).  Returns its length (1 to 4)
 * and stores the code point in *cp, or returns 0 if s does not start with a
 * valid sequence (or n is 0).
 */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* A control character: C0 (U+0000..U+001F), DEL, or C1 (U+0080..U+009F). */
bool utf8_is_control(uint32_t cp);

enum utf8_mode {
	/* Multi-line text: CRLF and lone CR become LF; LF and TAB stay. */
	UTF8_TEXT,
	/* One header line: CR, LF and TAB become a space. */
	UTF8_LINE
};

/*
 * Copy n bytes of s as clean UTF-8: invalid sequences become U+FFFD, control
 * characters other than those `mode` keeps are removed.  The copy is cut at
 * a character boundary so that it holds at most max bytes (0: no limit).
 * Returns a NUL-terminated string the caller frees, with its length in
 * *outlen (may be NULL), or NULL when out of memory.
 */
char *utf8_clean(const char *s, size_t n, enum utf8_mode mode, size_t max, size_t *outlen);

/* Whether the n bytes at s are valid UTF-8 (NUL and controls included). */
bool utf8_valid(const char *s, size_t n);

/*
 * Whether the n bytes at s are valid UTF-8 holding no control character
 * other than LF and TAB.  On false, *bad (may be NULL) gets the offset of
 * the first offending byte.
 */
bool utf8_text_ok(const char *s, size_t n, size_t *bad);

/* Byte length of the first max characters of the NUL-terminated valid UTF-8 s. */
size_t utf8_prefix(const char *s, size_t max);

#endif
