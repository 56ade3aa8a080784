/* secretfile: a mail server's password from its file (secretfile.h). */
#include "outbox/secretfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool secretfile_read(const char *key, const char *file, const char *home, char out[CONFIG_SECRET_MAX + 1],
    char *why, size_t whylen)
{
	char path[CONFIG_PATH_MAX + 1100], buf[SECRETFILE_MAX + 1];
	size_t have = 0, n;
	ssize_t r;
	bool ok = false;
	int fd;

	if (file[0] == '/')
		snprintf(path, sizeof path, "%s", file);
	else
		snprintf(path, sizeof path, "%s/%s", home, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open %s '%s': %s", key, file, strerror(errno));
		return false;
	}
	while (have < SECRETFILE_MAX && (r = read(fd, buf + have, SECRETFILE_MAX - have)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "cannot read %s '%s': %s", key, file, strerror(errno));
			goto out;
		}
		have += (size_t)r;
	}
	buf[have] = '\0';
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	if (n == 0 || n > CONFIG_SECRET_MAX) {
		snprintf(why, whylen, "%s '%s' does not start with a password of 1..%d characters", key, file,
		    CONFIG_SECRET_MAX);
		goto out;
	}
	memcpy(out, buf, n + 1);
	ok = true;
out:
	close(fd);
	explicit_bzero(buf, sizeof buf);
	return ok;
}
