/*
 * mailin_int: what mailin.c takes from mailin_text.c; not for callers
 * outside them, who include mailin.h.
 */
#ifndef OUSTPBM_MAILIN_INT_H
#define OUSTPBM_MAILIN_INT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The part's bytes as UTF-8 (not yet cleaned).  ISO-8859-1 and US-ASCII
 * labels are read as windows-1252, as browsers do (WHATWG Encoding): mail
 * labelled latin1 is often cp1252.  No label, US-ASCII or an unknown
 * charset: valid UTF-8 is taken as it is, anything else as windows-1252.
 */
char *mailin_text_to_utf8(const char *in, size_t n, const char *charset, size_t *outlen);

/*
 * An HTML body as the text a reader sees, well enough to find a command in
 * it: tags dropped (those that break a line or a block become a newline),
 * the content of <head>, <script> and <style> dropped, comments dropped,
 * character entities decoded.  Runs of blanks the HTML layout made are
 * collapsed.  The lines inside a <blockquote> (the quoted mail of Apple
 * Mail's, Gmail's and Thunderbird's HTML replies) start with "> ", as a
 * plain text reply quotes, so that no command is taken from them
 * (mailtext.h).  Never longer than the input plus one byte: a line break
 * and its "> " (3 bytes) stand for a tag of 4 bytes or more.  NULL when out
 * of memory; the caller owns the result.
 */
char *mailin_text_from_html(const char *h, size_t n, size_t *outlen);

/*
 * The text of a format=flowed part with its soft line breaks undone (RFC
 * 3676, 4.2): a line ending in a space runs on into the next line of the
 * same quote depth, which a phone's mail client relies on to wrap a long
 * command line; with delsp=yes that space goes too (4.3).  Space-stuffing
 * is removed (4.4), the "-- " signature line stays a line of its own, and
 * quoted lines keep their '>' marks, written ">> " before the text.
 * Returns a malloc'd string (NULL when out of memory), its length in *outlen.
 */
char *mailin_text_unflow(const char *s, size_t n, bool delsp, size_t *outlen);

#endif
