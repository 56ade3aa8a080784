/* strbuf: a growing string.  See strbuf.h. */
#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool strbuf_reserve(struct strbuf *b, size_t n)
{
	size_t nsize;
	char *ns;

	if (b->failed)
		return false;
	if (b->s != NULL && b->size - b->len >= n + 1)
		return true;
	nsize = b->size != 0 ? b->size : 256;
	while (nsize - b->len < n + 1) {
		if (nsize > ((size_t)-1) / 2) {
			b->failed = true;
			return false;
		}
		nsize *= 2;
	}
	ns = realloc(b->s, nsize);
	if (ns == NULL) {
		b->failed = true;
		return false;
	}
	b->s = ns;
	b->size = nsize;
	return true;
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (!strbuf_reserve(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!strbuf_reserve(b, 64))
		return;
	/* one pass when it fits in the room there is, a second one after growing when not */
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->s[b->len] = '\0';
		b->failed = true;
		return;
	}
	if ((size_t)n >= b->size - b->len) {
		b->s[b->len] = '\0';
		if (!strbuf_reserve(b, (size_t)n))
			return;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void strbuf_truncate(struct strbuf *b, size_t len)
{
	if (b->s == NULL || len >= b->len)
		return;
	b->len = len;
	b->s[len] = '\0';
}

char *strbuf_finish(struct strbuf *b)
{
	char *s;

	if (b->failed) {
		strbuf_release(b);
		return NULL;
	}
	s = b->s != NULL ? b->s : strdup("");
	memset(b, 0, sizeof *b);
	return s;
}

void strbuf_release(struct strbuf *b)
{
	free(b->s);
	memset(b, 0, sizeof *b);
}
