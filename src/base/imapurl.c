/* imapurl: imap_url taken apart (imapurl.h). */
#include "base/imapurl.h"

#include <arpa/inet.h>
#include <string.h>
#include <strings.h>

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* s[0..n) percent-decoded into out (size outlen); false on a bad escape, a control byte or no room. */
static bool decode(const char *s, size_t n, char *out, size_t outlen)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 2 < n ? hexval(s[i + 1]) : -1;
			int lo = hi >= 0 ? hexval(s[i + 2]) : -1;

			if (hi < 0 || lo < 0)
				return false;
			c = (unsigned char)(hi * 16 + lo);
			i += 2;
		}
		if (c < 0x20 || c == 0x7f || k + 1 >= outlen)
			return false;
		out[k++] = (char)c;
	}
	out[k] = '\0';
	return true;
}

bool imapurl_folder_ok(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (*p == '\0' || strlen(name) > IMAPURL_MAILBOX_MAX)
		return false;
	for (; *p != '\0'; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' || *p == '%' || *p == '*')
			return false;
	return true;
}

static bool host_ok(const char *h, size_t n)
{
	size_t i;

	if (n == 0 || h[0] == '.' || h[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!((h[i] >= 'a' && h[i] <= 'z') || (h[i] >= 'A' && h[i] <= 'Z') || (h[i] >= '0' && h[i] <= '9') ||
		    h[i] == '.' || h[i] == '-'))
			return false;
	return true;
}

bool imapurl_parse(const char *url, struct imapurl *out, const char **why)
{
	const char *p, *at, *slash, *h, *hend;
	unsigned long port = 0;
	struct in6_addr a6;

	memset(out, 0, sizeof *out);
	if (strncmp(url, "imap://", 7) == 0) {
		p = url + 7;
	} else if (strncmp(url, "imaps://", 8) == 0) {
		out->tls = true;
		p = url + 8;
	} else {
		*why = "does not start with imap:// or imaps://";
		return false;
	}
	slash = strchr(p, '/');
	if (slash == NULL)
		slash = p + strlen(p);
	/* the last '@' before the path: a login may hold one (written %40, or bare as some clients do) */
	at = NULL;
	for (h = p; h < slash; h++)
		if (*h == '@')
			at = h;
	if (at == NULL || at == p) {
		*why = "has no user name (imap://USER@HOST/MAILBOX)";
		return false;
	}
	if (memchr(p, ':', (size_t)(at - p)) != NULL) {
		*why = "holds a password: put it in imap_password_file";
		return false;
	}
	if (!decode(p, (size_t)(at - p), out->user, sizeof out->user)) {
		*why = "has a bad user name (a control character, a bad %-escape, or too long)";
		return false;
	}
	h = at + 1;
	if (*h == '[') {
		hend = memchr(h, ']', (size_t)(slash - h));
		if (hend == NULL || (size_t)(hend - h - 1) >= sizeof out->host || hend == h + 1) {
			*why = "has a bad IPv6 address";
			return false;
		}
		memcpy(out->host, h + 1, (size_t)(hend - h - 1));
		out->host[hend - h - 1] = '\0';
		if (inet_pton(AF_INET6, out->host, &a6) != 1) {
			*why = "has a bad IPv6 address";
			return false;
		}
		out->ipv6 = true;
		hend++;
	} else {
		for (hend = h; hend < slash && *hend != ':'; hend++)
			;
		if (!host_ok(h, (size_t)(hend - h)) || (size_t)(hend - h) >= sizeof out->host) {
			*why = "has no host name";
			return false;
		}
		memcpy(out->host, h, (size_t)(hend - h));
		out->host[hend - h] = '\0';
	}
	if (hend < slash && *hend == ':') {
		for (hend++; hend < slash && *hend >= '0' && *hend <= '9' && port <= 65535; hend++)
			port = port * 10 + (unsigned long)(*hend - '0');
		if (port == 0 || port > 65535 || hend != slash) {
			*why = "has a bad port (1..65535)";
			return false;
		}
	} else if (hend != slash) {
		*why = "has no host name";
		return false;
	}
	out->port = port != 0 ? (unsigned)port : out->tls ? 993 : 143;
	if (*slash == '/' && slash[1] != '\0') {
		if (!decode(slash + 1, strlen(slash + 1), out->mailbox, sizeof out->mailbox) ||
		    !imapurl_folder_ok(out->mailbox) || strchr(slash + 1, ';') != NULL || strchr(slash + 1, '?') != NULL) {
			*why = "has a bad mailbox name (printable ASCII without '\"', '\\', '%', '*', ';' or '?')";
			return false;
		}
	} else {
		memcpy(out->mailbox, "INBOX", 6);
	}
	return true;
}

bool imapurl_loopback(const struct imapurl *u)
{
	struct in_addr a4;

	if (strcasecmp(u->host, "localhost") == 0 || strcmp(u->host, "::1") == 0)
		return true;
	return inet_pton(AF_INET, u->host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127;
}
