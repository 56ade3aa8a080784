/* store_log: the home's log file, one stamped line an event (store.h). */
#include "base/utf8.h"
#include "store/store_int.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <stdarg.h>
#include <sys/resource.h>
#include "base/msg.h"

/* True if line starts with a time as the log writes it: 2026-01-31T12:00:00Z. */
static bool log_stamped(const char *line)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	for (i = 0; shape[i] != '\0'; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)line[i]) : line[i] != shape[i])
			return false;
	return true;
}

enum store_status store_log(struct store *st, const char *fmt, ...)
{
	char line[STORE_LOG_LINE_MAX + 1], *shown;
	enum store_status status = STORE_OK;
	size_t slen;
	struct rlimit rl;
	struct stat sb;
	struct tm tm;
	time_t now;
	va_list ap;
	size_t n, i, at = 0;
	ssize_t w;
	off_t end;
	int r, fd;

	/* every line has its time: one the caller's text does not start with is put first */
	va_start(ap, fmt);
	r = vsnprintf(line, STORE_LOG_LINE_MAX, fmt, ap);
	va_end(ap);
	if (r >= 0 && !log_stamped(line)) {
		now = store_now(st);
		if (gmtime_r(&now, &tm) != NULL)
			at = strftime(line, 32, "%Y-%m-%dT%H:%M:%SZ ", &tm);
		va_start(ap, fmt);
		r = vsnprintf(line + at, STORE_LOG_LINE_MAX - at, fmt, ap);
		va_end(ap);
		if (r >= 0)
			r += (int)at;
	}
	if (r < 0)
		r = 0;
	n = (size_t)r < STORE_LOG_LINE_MAX - 1 ? (size_t)r : STORE_LOG_LINE_MAX - 1;
	/* invisible and bidirectional characters written as <U+202E>: a log line reads as it is (utf8.h) */
	shown = utf8_visible(line, n, &slen);
	if (shown != NULL) {
		n = slen < STORE_LOG_LINE_MAX - 1 ? slen : STORE_LOG_LINE_MAX - 1;
		while (n > 0 && n < slen && ((unsigned char)shown[n] & 0xc0) == 0x80)
			n--;	/* cut at a character */
		memcpy(line, shown, n);
		free(shown);
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	line[n++] = '\n';
	fd = openat(st->home_fd, "log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return store_sys_fail(st, errno, "cannot open", "log");
	/* a line that would pass the file size limit (ulimit -f) is not begun: whole or absent */
	if (fstat(fd, &sb) == 0 && getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (unsigned long long)sb.st_size + n > (unsigned long long)rl.rlim_cur) {
		close(fd);
		return store_sys_fail(st, EFBIG, "cannot write", "log");
	}
	/* one write: concurrent processes' lines never interleave */
	store_crash_point();
	w = write(fd, line, n);
	if (w < 0) {
		status = store_sys_fail(st, errno, "cannot write", "log");
	} else if ((size_t)w != n) {
		/* a part of the line (a full disk): cut it off again unless another line followed */
		end = lseek(fd, 0, SEEK_CUR);
		if (end >= w && fstat(fd, &sb) == 0 && sb.st_size == end)
			(void)ftruncate(fd, end - w);
		status = store_sys_fail(st, ENOSPC, "short write to", "log");
	}
	close(fd);
	return status;
}

void store_set_log_prefix(struct store *st, const char *prefix)
{
	snprintf(st->log_prefix, sizeof st->log_prefix, "%s", prefix);
}

void store_complain(struct store *st, const char *fmt, ...)
{
	char msg[STORE_LOG_LINE_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	msg_warn("%s", msg);
	if (st != NULL)
		store_log(st, "%s failed: %s", st->log_prefix, msg);
}
