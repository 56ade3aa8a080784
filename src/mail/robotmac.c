/* robotmac: the MAC of a board mail to a robot host.  See robotmac.h. */
#include "mail/robotmac.h"

#include <errno.h>
#include <fcntl.h>
#include <gmime/gmime.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/mailin.h"

bool robotmac_secret(const char *home, const char *file, char secret[ROBOTMAC_SECRET_MAX + 1], char *why,
    size_t whylen)
{
	char path[4096];
	struct stat sb;
	size_t have = 0, n;
	ssize_t r;
	bool ok = false;
	int fd;

	secret[0] = '\0';
	if (file[0] == '/')
		snprintf(path, sizeof path, "%s", file);
	else
		snprintf(path, sizeof path, "%s/%s", home, file);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open robot_secret_file '%s': %s", file, strerror(errno));
		return false;
	}
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		snprintf(why, whylen, "robot_secret_file '%s' is not a regular file", file);
		goto out;
	}
	/* a secret others can read is no secret: the file is its owner's alone */
	if ((sb.st_mode & 077) != 0) {
		snprintf(why, whylen, "robot_secret_file '%s' may be read by others (mode %04o): chmod 600 it", file,
		    (unsigned)(sb.st_mode & 07777));
		goto out;
	}
	while (have < ROBOTMAC_SECRET_MAX && (r = read(fd, secret + have, ROBOTMAC_SECRET_MAX - have)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "cannot read robot_secret_file '%s': %s", file, strerror(errno));
			goto out;
		}
		have += (size_t)r;
	}
	secret[have] = '\0';
	n = strcspn(secret, "\r\n");
	explicit_bzero(secret + n, have - n);
	secret[n] = '\0';
	if (n < ROBOTMAC_SECRET_MIN) {
		snprintf(why, whylen, "the first line of robot_secret_file '%s' is shorter than %d characters", file,
		    ROBOTMAC_SECRET_MIN);
		goto out;
	}
	ok = true;
out:
	if (!ok)
		explicit_bzero(secret, ROBOTMAC_SECRET_MAX + 1);
	close(fd);
	return ok;
}

bool robotmac_make(const char *secret, const char *subject, const char *record, size_t rlen,
    char out[ROBOTMAC_HEX + 1])
{
	GHmac *h = g_hmac_new(G_CHECKSUM_SHA256, (const guchar *)secret, strlen(secret));
	char head[64];
	const char *p = record, *end = record + rlen, *cr;
	const gchar *hex;

	if (h == NULL)
		return false;
	snprintf(head, sizeof head, "oust-robot-mac 1\n%zu\n", strlen(subject));
	g_hmac_update(h, (const guchar *)head, (gssize)strlen(head));
	g_hmac_update(h, (const guchar *)subject, (gssize)strlen(subject));
	g_hmac_update(h, (const guchar *)"\n", 1);
	/* the record without its carriage returns: the same whatever a relay made of its line ends */
	while (p < end) {
		cr = memchr(p, '\r', (size_t)(end - p));
		if (cr == NULL)
			cr = end;
		if (cr > p)
			g_hmac_update(h, (const guchar *)p, (gssize)(cr - p));
		p = cr + 1;
	}
	hex = g_hmac_get_string(h);
	snprintf(out, ROBOTMAC_HEX + 1, "%s", hex != NULL ? hex : "");
	g_hmac_unref(h);
	return strlen(out) == ROBOTMAC_HEX;
}

bool robotmac_header(const char *buf, size_t len, char out[ROBOTMAC_HEX + 1])
{
	GMimeStream *s;
	GMimeParser *p;
	GMimeMessage *m;
	const char *v;
	size_t n;
	bool ok = false;

	out[0] = '\0';
	mailin_init();
	s = g_mime_stream_mem_new_with_buffer(buf, len);
	p = g_mime_parser_new_with_stream(s);
	m = g_mime_parser_construct_message(p, NULL);
	if (m == NULL)
		goto out;
	v = g_mime_object_get_header(GMIME_OBJECT(m), ROBOTMAC_HEADER);
	if (v == NULL)
		goto out;
	v += strspn(v, " \t");
	n = strcspn(v, " \t\r\n");
	if (n != ROBOTMAC_HEX || v[n + strspn(v + n, " \t\r\n")] != '\0')
		goto out;
	memcpy(out, v, n);
	out[n] = '\0';
	ok = true;
out:
	if (m != NULL)
		g_object_unref(m);
	g_object_unref(p);
	g_object_unref(s);
	return ok;
}

bool robotmac_equal(const char *a, const char *b)
{
	unsigned char diff = 0;
	size_t i;

	if (strlen(a) != ROBOTMAC_HEX || strlen(b) != ROBOTMAC_HEX)
		return false;
	/* every digit compared, whatever the first difference: no timing to learn a prefix from */
	for (i = 0; i < ROBOTMAC_HEX; i++)
		diff |= (unsigned char)((a[i] | 0x20) ^ (b[i] | 0x20));
	return diff == 0;
}
