/* msg: warnings to the admin on standard error (msg.h). */
#include "base/msg.h"

#include <stdio.h>
#include <string.h>

void msg_vwarn(const char *fmt, va_list ap)
{
	static const char prefix[] = "oustpbm: ";
	char line[4096];
	size_t len = sizeof prefix - 1;
	int n;

	/* one line, one write: warnings of processes side by side do not interleave */
	memcpy(line, prefix, len);
	n = vsnprintf(line + len, sizeof line - len - 1, fmt, ap);
	if (n < 0)
		return;
	len += (size_t)n < sizeof line - len - 1 ? (size_t)n : sizeof line - len - 2;
	line[len++] = '\n';
	fwrite(line, 1, len, stderr);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_vwarn(fmt, ap);
	va_end(ap);
}
