/* idmac: our Message-IDs bound to their recipient (idmac.h). */
#include "mail/idmac.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/mailaddr.h"

/* The label of the derived key: a key of its own, whatever else token.secret keys (mail/token.h). */
static const char label[] = "oustpbm message-id key v1";

void idmac_key(const unsigned char *secret, size_t secret_len, unsigned char key[IDMAC_KEY_BYTES])
{
	GHmac *h = g_hmac_new(G_CHECKSUM_SHA256, secret, secret_len);
	gsize n = IDMAC_KEY_BYTES;

	g_hmac_update(h, (const guchar *)label, (gssize)sizeof label);
	g_hmac_get_digest(h, key, &n);
	g_hmac_unref(h);
}

/* The mac of rcpt and the stem left[0..left_len) "@" domain into mac (IDMAC_HEX + 1 bytes). */
static void mac_of(const unsigned char key[IDMAC_KEY_BYTES], const char *rcpt, const char *left, size_t left_len,
    const char *domain, char mac[IDMAC_HEX + 1])
{
	GHmac *h = g_hmac_new(G_CHECKSUM_SHA256, key, IDMAC_KEY_BYTES);
	char low[MAILADDR_MAX + 1];
	const char *hex;
	size_t i;

	/* the address and the domain in lower case: mail systems change their case, never an id's left part */
	for (i = 0; rcpt[i] != '\0' && i < MAILADDR_MAX; i++)
		low[i] = g_ascii_tolower(rcpt[i]);
	low[i] = '\0';
	g_hmac_update(h, (const guchar *)low, (gssize)i + 1);
	g_hmac_update(h, (const guchar *)left, (gssize)left_len);
	g_hmac_update(h, (const guchar *)"@", 1);
	for (i = 0; domain[i] != '\0' && i < MAILADDR_MAX; i++)
		low[i] = g_ascii_tolower(domain[i]);
	low[i] = '\0';
	g_hmac_update(h, (const guchar *)low, (gssize)i);
	hex = g_hmac_get_string(h);
	snprintf(mac, IDMAC_HEX + 1, "%s", hex);
	g_hmac_unref(h);
}

bool idmac_sign(const unsigned char key[IDMAC_KEY_BYTES], const char *stem, const char *rcpt, char *out,
    size_t size)
{
	const char *at = strrchr(stem, '@');
	char mac[IDMAC_HEX + 1];
	int n;

	if (at == NULL || at == stem)
		return false;
	mac_of(key, rcpt, stem, (size_t)(at - stem), at + 1, mac);
	n = snprintf(out, size, "%.*s.%s%s", (int)(at - stem), stem, mac, at);
	return n > 0 && (size_t)n < size;
}

bool idmac_strip(const char *id, size_t *left_len)
{
	const char *at = strrchr(id, '@'), *dot;
	size_t i;

	if (at == NULL)
		return false;
	*left_len = (size_t)(at - id);
	if (*left_len < IDMAC_HEX + 2)
		return false;
	dot = at - IDMAC_HEX - 1;
	if (*dot != '.')
		return false;
	for (i = 1; i <= IDMAC_HEX; i++)
		if (!g_ascii_isxdigit(dot[i]))
			return false;
	*left_len = (size_t)(dot - id);
	return true;
}

bool idmac_ours(const unsigned char key[IDMAC_KEY_BYTES], const char *id, const char *rcpt, const char *own_domain)
{
	char mac[IDMAC_HEX + 1];
	const char *at, *given;
	unsigned diff = 0;
	size_t left, i;

	if (id == NULL || rcpt == NULL || own_domain == NULL || rcpt[0] == '\0' || !idmac_strip(id, &left))
		return false;
	at = strrchr(id, '@');
	if (strcasecmp(at + 1, own_domain) != 0)
		return false;
	given = id + left + 1;
	mac_of(key, rcpt, id, left, at + 1, mac);
	/* constant time: a report that names a near guess learns nothing of where it went wrong */
	for (i = 0; i < IDMAC_HEX; i++)
		diff |= (unsigned)(g_ascii_tolower(given[i]) ^ mac[i]);
	return diff == 0;
}
