/*
 * strbuf: a growing NUL-terminated string for text built piece by piece
 * (HTML pages, mail parts).  Out of memory is sticky: after the first
 * failed growth every append is dropped and strbuf_finish() returns NULL,
 * so a caller checks once at the end.
 */
#ifndef OUSTPBM_STRBUF_H
#define OUSTPBM_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s;		/* NUL-terminated once anything was added; NULL before */
	size_t len, size;
	bool failed;		/* out of memory once: everything after is dropped */
};

#define STRBUF_INIT { NULL, 0, 0, false }

void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_puts(struct strbuf *b, const char *s);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Room for at least n more bytes (false after a failure). */
bool strbuf_reserve(struct strbuf *b, size_t n);
/* Cut the text back to its first len bytes (a mark taken from b->len earlier); longer len: no change. */
void strbuf_truncate(struct strbuf *b, size_t len);
/* The text so far ("" if empty), or NULL after a failure; the caller frees it; b is emptied. */
char *strbuf_finish(struct strbuf *b);
/* Free what b holds; b is emptied. */
void strbuf_release(struct strbuf *b);

#endif
