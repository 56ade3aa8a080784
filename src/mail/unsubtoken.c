/* unsubtoken: the tokens of List-Unsubscribe (unsubtoken.h). */
#include "mail/unsubtoken.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <glib.h>

#include "base/ident.h"

#define SECRET_BYTES 32
#define SECRET_NAME "secret"

/* Read the secret (hex, up to the read cap) into buf; false if absent or unreadable. */
static bool read_secret(const char *path, char *buf, size_t size, bool *absent)
{
	ssize_t n;
	int fd;

	*absent = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*absent = errno == ENOENT;
		return false;
	}
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 2 * SECRET_BYTES)
		return false;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return strlen(buf) >= 2 * SECRET_BYTES;
}

/*
 * The home's secret, made on first use: written whole to a temporary file
 * (0600) and linked into place, so a reader never sees half of it and of
 * two made at once one wins (link refuses to replace).
 */
static enum mail_status secret(const char *home, char *buf, size_t size)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	unsigned char raw[SECRET_BYTES];
	bool absent;
	size_t i;
	int fd, ok;

	snprintf(path, sizeof path, "%s/%s", home, SECRET_NAME);
	if (read_secret(path, buf, size, &absent))
		return MAIL_OK;
	if (!absent)
		return MAIL_NO_SECRET;
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		return MAIL_NO_SECRET;
	for (i = 0; i < sizeof raw; i++)
		snprintf(buf + 2 * i, 3, "%02x", raw[i]);
	snprintf(tmp, sizeof tmp, "%s/.%s.%ld", home, SECRET_NAME, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return MAIL_NO_SECRET;
	ok = write(fd, buf, 2 * SECRET_BYTES) == 2 * SECRET_BYTES && write(fd, "\n", 1) == 1 && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	if (ok && link(tmp, path) != 0 && errno != EEXIST)
		ok = 0;
	unlink(tmp);
	if (!ok)
		return MAIL_NO_SECRET;
	/* the file now there, ours or another's */
	return read_secret(path, buf, size, &absent) ? MAIL_OK : MAIL_NO_SECRET;
}

/* The mac of userid and scope into mac (UNSUBTOKEN_MAC_HEX + 1 bytes). */
static enum mail_status mac_of(const char *home, const char *userid, const char *scope, char *mac)
{
	char key[UNSUBTOKEN_SECRET_MAX];
	enum mail_status st;
	GHmac *h;
	const gchar *hex;

	st = secret(home, key, sizeof key);
	if (st != MAIL_OK)
		return st;
	h = g_hmac_new(G_CHECKSUM_SHA256, (const guchar *)key, strlen(key));
	if (h == NULL)
		return MAIL_NO_SECRET;
	g_hmac_update(h, (const guchar *)"unsubscribe ", -1);
	g_hmac_update(h, (const guchar *)userid, -1);
	g_hmac_update(h, (const guchar *)" ", -1);
	g_hmac_update(h, (const guchar *)scope, -1);
	hex = g_hmac_get_string(h);
	snprintf(mac, UNSUBTOKEN_MAC_HEX + 1, "%s", hex);
	g_hmac_unref(h);
	return MAIL_OK;
}

enum mail_status unsubtoken_make(const char *home, const char *userid, long board,
    char out[UNSUBTOKEN_MAX + 1])
{
	char scope[24], mac[UNSUBTOKEN_MAC_HEX + 1];
	enum mail_status st;
	int n;

	if (board > 0)
		snprintf(scope, sizeof scope, "%ld", board);
	else
		snprintf(scope, sizeof scope, "all");
	st = mac_of(home, userid, scope, mac);
	if (st != MAIL_OK)
		return st;
	n = snprintf(out, UNSUBTOKEN_MAX + 1, "%s.%s.%s", userid, scope, mac);
	return n > 0 && n <= UNSUBTOKEN_MAX ? MAIL_OK : MAIL_TOKEN_TOO_LONG;
}

/* Equal macs, compared in a time that does not depend on where they differ; case folded. */
static bool same_mac(const char *a, const char *b)
{
	unsigned diff = 0;
	size_t i;

	for (i = 0; i < UNSUBTOKEN_MAC_HEX; i++)
		diff |= (unsigned)(g_ascii_tolower(a[i]) ^ g_ascii_tolower(b[i]));
	return diff == 0;
}

enum mail_status unsubtoken_check(const char *home, const char *token, char *userid, size_t userid_size,
    long *board)
{
	char buf[UNSUBTOKEN_MAX + 1], mac[UNSUBTOKEN_MAC_HEX + 1], *scope, *given, *end;
	enum mail_status st;
	long b = 0;

	if (strlen(token) > UNSUBTOKEN_MAX)
		return MAIL_BAD_TOKEN;
	snprintf(buf, sizeof buf, "%s", token);
	scope = strchr(buf, '.');
	given = scope != NULL ? strchr(scope + 1, '.') : NULL;
	if (given == NULL)
		return MAIL_BAD_TOKEN;
	*scope++ = '\0';
	*given++ = '\0';
	if (!ident_userid_ok(buf) || strlen(buf) >= userid_size || strlen(given) != UNSUBTOKEN_MAC_HEX)
		return MAIL_BAD_TOKEN;
	if (strcmp(scope, "all") != 0) {
		errno = 0;
		b = strtol(scope, &end, 10);
		if (scope[0] < '1' || scope[0] > '9' || *end != '\0' || errno != 0 || b <= 0)
			return MAIL_BAD_TOKEN;
	}
	st = mac_of(home, buf, scope, mac);
	if (st != MAIL_OK)
		return st;
	if (!same_mac(mac, given))
		return MAIL_BAD_TOKEN;
	snprintf(userid, userid_size, "%s", buf);
	*board = b;
	return MAIL_OK;
}

/* Append s to out percent-encoded (RFC 3986 2.1): all but unreserved characters, and '@'. */
static bool pct(char *out, size_t size, size_t *at, const char *s, bool raw)
{
	static const char keep[] = "-._~@";
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (raw || g_ascii_isalnum(*p) || (strchr(keep, *p) != NULL)) {
			if (*at + 1 >= size)
				return false;
			out[(*at)++] = (char)*p;
		} else {
			if (*at + 3 >= size)
				return false;
			snprintf(out + *at, 4, "%%%02X", *p);
			*at += 3;
		}
	}
	out[*at] = '\0';
	return true;
}

bool unsubtoken_header(const char *server_addr, const char *token, char out[UNSUBTOKEN_URI_MAX + 1])
{
	size_t at = 0;

	out[0] = '\0';
	return pct(out, UNSUBTOKEN_URI_MAX + 1, &at, "<mailto:", true) &&
	    pct(out, UNSUBTOKEN_URI_MAX + 1, &at, server_addr, false) &&
	    pct(out, UNSUBTOKEN_URI_MAX + 1, &at, "?subject=unsubscribe%20", true) &&
	    pct(out, UNSUBTOKEN_URI_MAX + 1, &at, token, false) &&
	    pct(out, UNSUBTOKEN_URI_MAX + 1, &at, ">", true);
}
