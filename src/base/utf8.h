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

/*
 * An explicit bidirectional formatting character (Unicode UAX #9 2.1-2.2:
 * U+202A..U+202E embeddings and overrides, U+2066..U+2069 isolates): in a
 * name it reorders the text around it, so a name can pass for another.
 */
bool utf8_is_bidi_control(uint32_t cp);

/*
 * An invisible character that changes how the text around it reads: the
 * bidirectional controls above, the zero-width characters and marks
 * U+200B..U+200F (ZWSP, ZWNJ, ZWJ, LRM, RLM) and U+FEFF (a byte order mark,
 * inside a text a zero-width no-break space).  A player's words go to
 * other people's mail and to the admin's log: there they are shown, not
 * obeyed (utf8_visible).
 */
bool utf8_is_invisible(uint32_t cp);

#define UTF8_VISIBLE_MARK_LEN 8	/* bytes of "<U+202E>" */

/*
 * A copy of the n bytes of s with each invisible character (above) written
 * as "<U+XXXX>", except a U+FEFF at the very start (a byte order mark),
 * dropped.  Invalid sequences are copied as they are (the callers' text
 * was cleaned before).  NUL-terminated, its length in *outlen (may be
 * NULL); the caller frees it; NULL when out of memory.
 */
char *utf8_visible(const char *s, size_t n, size_t *outlen);

/*
 * The noncharacter U+FDD0 (Unicode 3.4 D14: for a program's internal use)
 * stands for a NUL byte of the input in the _KEEP modes' output, which is
 * a C string; the other modes drop it with the control characters.
 */
#define UTF8_NUL_MARK 0xfdd0

enum utf8_mode {
	/* Multi-line text: CRLF and lone CR become LF; LF and TAB stay. */
	UTF8_TEXT,
	/* One header line: CR, LF and TAB become a space. */
	UTF8_LINE,
	/* As UTF8_TEXT and UTF8_LINE, but the other control characters are
	 * kept (a NUL as UTF8_NUL_MARK), for a caller that refuses them. */
	UTF8_TEXT_KEEP,
	UTF8_LINE_KEEP
};

/*
 * Copy n bytes of s as clean UTF-8: invalid sequences become U+FFFD, control
 * characters (and UTF8_NUL_MARK) other than those `mode` keeps are removed.  The copy is cut at
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
