/*
 * errbuf: the one way a module writes its message into a caller's error
 * buffer (char err[], size errlen): formatted, truncated to fit, always
 * NUL-terminated; a NULL buffer or a size of 0 is left alone.
 */
#ifndef OUSTPBM_ERRBUF_H
#define OUSTPBM_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>

void errbuf_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void errbuf_vset(char *err, size_t errlen, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));

#endif
