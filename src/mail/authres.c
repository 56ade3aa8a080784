/*
 * authres: Authentication-Results (RFC 8601) read for the verdict of a
 * trusted receiving server (authres.h).  Every buffer is fixed in size;
 * the parser reads the value once, left to right, without recursion.
 */
#include "mail/authres.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *authres_verdict_str(enum authres_verdict v)
{
	switch (v) {
	case AUTHRES_NO_HEADER: return "no verdict";
	case AUTHRES_UNREADABLE: return "unreadable verdict";
	case AUTHRES_NO_PASS: return "no pass";
	case AUTHRES_PASS: return "pass";
	case AUTHRES_DMARC_FAIL: return "dmarc fail";
	}
	return "unknown verdict";
}

/* ---- the lexical level: CFWS, keywords, values (RFC 8601 2.2, RFC 5322 3.2) ---- */

struct cur {
	const char *s;
	size_t i, n;
};

static bool at_end(const struct cur *c)
{
	return c->i >= c->n;
}

static char peek(const struct cur *c)
{
	return c->i < c->n ? c->s[c->i] : '\0';
}

static bool is_wsp(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/*
 * Skip [CFWS]: white space, folding, and comments, which nest and may
 * hold quoted-pairs (RFC 5322 3.2.2).  False on a comment left open.
 */
static bool skip_cfws(struct cur *c)
{
	size_t depth = 0;

	while (!at_end(c)) {
		char ch = c->s[c->i];

		if (depth > 0) {
			if (ch == '\\')
				c->i++;
			else if (ch == '(')
				depth++;
			else if (ch == ')')
				depth--;
			c->i++;
			continue;
		}
		if (ch == '(')
			depth++;
		else if (!is_wsp(ch))
			break;
		c->i++;
	}
	if (c->i > c->n)
		c->i = c->n;
	return depth == 0;
}

/* A Keyword's byte (ldh-str, RFC 5321; '_' as some verifiers write it). */
static bool is_kw(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
	    ch == '_';
}

/* A Keyword, lower-cased into out (AUTHRES_WORD_MAX + 1 bytes); false if none or longer. */
static bool read_keyword(struct cur *c, char *out)
{
	size_t k = 0;

	while (!at_end(c) && is_kw(c->s[c->i])) {
		char ch = c->s[c->i++];

		if (k == AUTHRES_WORD_MAX)
			return false;
		out[k++] = (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
	}
	out[k] = '\0';
	return k > 0;
}

/* Append ch to out[0..max), or note the cut. */
static void put(char *out, size_t max, size_t *k, bool *cut, char ch)
{
	if (*k < max)
		out[(*k)++] = ch;
	else
		*cut = true;
}

/* A quoted-string at c (its '"'), its content into out; false if left open. */
static bool read_quoted(struct cur *c, char *out, size_t max, size_t *k, bool *cut)
{
	c->i++;
	while (!at_end(c)) {
		char ch = c->s[c->i++];

		if (ch == '"')
			return true;
		if (ch == '\\') {
			if (at_end(c))
				return false;
			ch = c->s[c->i++];
		} else if (ch == '\r' || ch == '\n') {
			continue;	/* folding inside the quotes */
		}
		put(out, max, k, cut, ch);
	}
	return false;
}

/* An RFC 2045 token's byte: no space, control or tspecial. */
static bool is_tchar(char ch)
{
	return (unsigned char)ch > ' ' && ch != 0x7f && strchr("()<>@,;:\\\"/[]?=", ch) == NULL;
}

/*
 * The authserv-id: a token or a quoted-string (RFC 8601 2.2's value), into
 * out (AUTHRES_ID_MAX + 1 bytes); false if none, left open or longer.
 */
static bool read_id(struct cur *c, char *out)
{
	size_t k = 0;
	bool cut = false;

	if (peek(c) == '"') {
		if (!read_quoted(c, out, AUTHRES_ID_MAX, &k, &cut))
			return false;
	} else {
		while (!at_end(c) && is_tchar(c->s[c->i]))
			put(out, AUTHRES_ID_MAX, &k, &cut, c->s[c->i++]);
	}
	out[k] = '\0';
	return k > 0 && !cut;
}

/*
 * A property's value (pvalue): a token, a quoted-string, or an address or
 * domain ("@example.org", "\"a b\"@example.org"): runs of bytes other
 * than white space, '(', ')', ';' and '"', and quoted-strings, written
 * without space between them.  Into out (AUTHRES_VALUE_MAX + 1 bytes),
 * *cut when longer.  False if empty or a quote is left open.
 */
static bool read_value(struct cur *c, char *out, bool *cut)
{
	size_t k = 0, start = c->i;

	*cut = false;
	while (!at_end(c)) {
		char ch = c->s[c->i];

		if (ch == '"') {
			if (!read_quoted(c, out, AUTHRES_VALUE_MAX, &k, cut))
				return false;
			continue;
		}
		if (is_wsp(ch) || ch == '(' || ch == ')' || ch == ';')
			break;
		put(out, AUTHRES_VALUE_MAX, &k, cut, ch);
		c->i++;
	}
	out[k] = '\0';
	return c->i > start;
}

/*
 * After a resinfo that does not parse: on to the next ';' outside comments
 * and quotes.  False when there is none, or a comment or quote is left open.
 */
static bool skip_resinfo(struct cur *c)
{
	char scratch[AUTHRES_VALUE_MAX + 1];
	size_t k = 0;
	bool cut;

	for (;;) {
		if (!skip_cfws(c))
			return false;
		if (at_end(c))
			return false;
		if (c->s[c->i] == ';')
			return true;
		if (c->s[c->i] == '"') {
			k = 0;
			if (!read_quoted(c, scratch, AUTHRES_VALUE_MAX, &k, &cut))
				return false;
			continue;
		}
		c->i++;
	}
}

/* ---- the grammar ---- */

/*
 * One resinfo after its ';' (RFC 8601 2.2):
 *   methodspec [CFWS reasonspec] [CFWS 1*propspec]
 * A reasonspec, and any "name=value" without a ptype, is skipped.  False
 * on a syntax error (r then holds what was read).
 */
static bool parse_resinfo(struct cur *c, struct authres_result *r)
{
	char ptype[AUTHRES_WORD_MAX + 1], prop[AUTHRES_WORD_MAX + 1], value[AUTHRES_VALUE_MAX + 1];
	char version[AUTHRES_WORD_MAX + 1];
	bool cut;

	memset(r, 0, sizeof *r);
	if (!skip_cfws(c) || !read_keyword(c, r->method) || !skip_cfws(c))
		return false;
	if (peek(c) == '/') {
		/* method-version: only 1 is defined for every method so far; read and let be */
		c->i++;
		if (!skip_cfws(c) || !read_keyword(c, version) || !skip_cfws(c))
			return false;
	}
	if (peek(c) != '=')
		return false;
	c->i++;
	if (!skip_cfws(c) || !read_keyword(c, r->result))
		return false;
	for (;;) {
		if (!skip_cfws(c))
			return false;
		if (at_end(c) || peek(c) == ';')
			return true;
		if (!read_keyword(c, ptype) || !skip_cfws(c))
			return false;
		if (peek(c) == '=') {
			/* reason=..., or a vendor's action=none: no ptype, not a property */
			c->i++;
			if (!skip_cfws(c) || !read_value(c, value, &cut))
				return false;
			continue;
		}
		if (peek(c) != '.')
			return false;
		c->i++;
		if (!skip_cfws(c) || !read_keyword(c, prop) || !skip_cfws(c) || peek(c) != '=')
			return false;
		c->i++;
		if (!skip_cfws(c) || !read_value(c, value, &cut))
			return false;
		if (r->nprops < AUTHRES_PROPS_MAX) {
			struct authres_prop *p = &r->props[r->nprops++];

			snprintf(p->name, sizeof p->name, "%s.%s", ptype, prop);
			memcpy(p->value, value, sizeof p->value);
			p->cut = cut;
		}
	}
}

enum mail_status authres_parse(const char *s, size_t len, struct authres *out)
{
	struct cur c = { s, 0, len };
	char version[AUTHRES_WORD_MAX + 1], word[AUTHRES_WORD_MAX + 1];
	size_t k = 0;

	memset(out, 0, sizeof *out);
	if (len > AUTHRES_FIELD_MAX)
		c.n = AUTHRES_FIELD_MAX;	/* for the authserv-id; the caller reads the status */
	if (!skip_cfws(&c) || !read_id(&c, out->authserv_id)) {
		out->authserv_id[0] = '\0';
		return MAIL_AUTHRES_NO_ID;
	}
	if (len > AUTHRES_FIELD_MAX)
		return MAIL_AUTHRES_TOO_LONG;
	if (!skip_cfws(&c))
		return MAIL_AUTHRES_SYNTAX;
	if (peek(&c) >= '0' && peek(&c) <= '9') {
		/* authres-version: RFC 8601 2.2, a field of an unknown version is ignored */
		while (!at_end(&c) && c.s[c.i] >= '0' && c.s[c.i] <= '9' && k < AUTHRES_WORD_MAX)
			version[k++] = c.s[c.i++];
		version[k] = '\0';
		if (strcmp(version, "1") != 0 || (!at_end(&c) && c.s[c.i] >= '0' && c.s[c.i] <= '9'))
			return MAIL_AUTHRES_VERSION;
		if (!skip_cfws(&c))
			return MAIL_AUTHRES_SYNTAX;
	}
	if (peek(&c) != ';')
		return MAIL_AUTHRES_SYNTAX;
	/* no-result: "; none" alone (RFC 8601 2.2) */
	{
		struct cur look = c;

		look.i++;
		if (skip_cfws(&look) && read_keyword(&look, word) && strcmp(word, "none") == 0 && skip_cfws(&look) &&
		    (at_end(&look) || peek(&look) == ';')) {
			out->none = true;
			return MAIL_OK;
		}
	}
	while (!at_end(&c) && peek(&c) == ';') {
		struct authres_result *r = &out->results[out->nresults < AUTHRES_RESULTS_MAX ? out->nresults : 0];
		struct authres_result spare;
		bool full = out->nresults == AUTHRES_RESULTS_MAX;

		c.i++;
		if (full)
			r = &spare;
		if (parse_resinfo(&c, r) && !full) {
			out->nresults++;
			continue;
		}
		out->skipped++;
		if (!full)
			memset(r, 0, sizeof *r);
		/* on to the next resinfo: parse_resinfo stopped at ';' when it read one whole */
		if (peek(&c) != ';' && !skip_resinfo(&c))
			break;
	}
	return out->nresults > 0 || out->skipped > 0 ? MAIL_OK : MAIL_AUTHRES_SYNTAX;
}

/* ---- the header section ---- */

enum mail_status authres_find(const char *buf, size_t len, const char *id, struct authres *out, bool *found)
{
	static const char name[] = "Authentication-Results";
	const size_t nlen = sizeof name - 1;
	enum mail_status st;
	size_t i = 0, eol, vstart, vend, k;
	const char *nl;

	*found = false;
	memset(out, 0, sizeof *out);
	if (len >= 5 && memcmp(buf, "From ", 5) == 0) {
		nl = memchr(buf, '\n', len);
		i = nl != NULL ? (size_t)(nl - buf) + 1 : len;
	}
	while (i < len) {
		/* a field starts at i; an empty line ends the header section */
		if (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))
			break;
		nl = memchr(buf + i, '\n', len - i);
		eol = nl != NULL ? (size_t)(nl - buf) + 1 : len;
		/* its continuation lines (RFC 5322 2.2.3) */
		vend = eol;
		while (vend < len && (buf[vend] == ' ' || buf[vend] == '\t')) {
			nl = memchr(buf + vend, '\n', len - vend);
			vend = nl != NULL ? (size_t)(nl - buf) + 1 : len;
		}
		nl = memchr(buf + i, ':', eol - i);
		if (nl == NULL)
			break;	/* not a field: the header section ended without its empty line */
		vstart = (size_t)(nl - buf) + 1;
		k = (size_t)(nl - buf) - i;
		while (k > 0 && (buf[i + k - 1] == ' ' || buf[i + k - 1] == '\t'))
			k--;
		if (k == nlen && strncasecmp(buf + i, name, nlen) == 0) {
			st = authres_parse(buf + vstart, vend - vstart, out);
			if (st != MAIL_AUTHRES_NO_ID && strcasecmp(out->authserv_id, id) == 0) {
				*found = true;
				return st;
			}
		}
		i = vend;
	}
	memset(out, 0, sizeof *out);
	return MAIL_OK;
}

/* ---- the verdict ---- */

/* a and b the same domain, without regard to case or to a final dot */
static bool same_domain(const char *a, size_t na, const char *b)
{
	size_t nb = strlen(b);

	if (na > 0 && a[na - 1] == '.')
		na--;
	if (nb > 0 && b[nb - 1] == '.')
		nb--;
	return na == nb && na > 0 && strncasecmp(a, b, na) == 0;
}

bool authres_aligned(const char *d, const char *from_domain)
{
	size_t nd = strlen(d), nf = strlen(from_domain);

	if (nd > 0 && d[nd - 1] == '.')
		nd--;
	if (nf > 0 && from_domain[nf - 1] == '.')
		nf--;
	if (nd == 0 || nf == 0)
		return false;
	if (same_domain(d, nd, from_domain))
		return true;
	/* a parent domain of the From domain, never a bare top-level domain */
	return memchr(d, '.', nd) != NULL && d[0] != '.' && nf > nd && from_domain[nf - nd - 1] == '.' &&
	    strncasecmp(from_domain + nf - nd, d, nd) == 0;
}

static const char *prop_of(const struct authres_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nprops; i++)
		if (strcmp(r->props[i].name, name) == 0)
			return r->props[i].cut ? "" : r->props[i].value;	/* cut: matches no domain */
	return NULL;
}

/* The domain of a property value: after its last '@' if it has one. */
static const char *domain_of(const char *v)
{
	const char *at = v != NULL ? strrchr(v, '@') : NULL;

	return at != NULL ? at + 1 : v;
}

/* Append to why (AUTHRES_WHY_MAX bytes), the %s arguments' bytes outside printable ASCII as '?'. */
static void why_add(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void why_add(char *why, const char *fmt, ...)
{
	size_t n = strlen(why), i;
	va_list ap;

	if (n + 1 >= AUTHRES_WHY_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(why + n, AUTHRES_WHY_MAX - n, fmt, ap);
	va_end(ap);
	for (i = n; why[i] != '\0'; i++)
		if ((unsigned char)why[i] < ' ' || (unsigned char)why[i] >= 0x7f || why[i] == '"')
			why[i] = '?';
}

/* A result as the log shows it: "dkim=pass header.d=example.org". */
static void why_result(char *why, const struct authres_result *r, const char *prop, const char *value,
    const char *tail)
{
	why_add(why, "%s%s=%s", why[0] != '\0' ? "; " : "", r->method, r->result);
	if (value != NULL)
		why_add(why, " %s=%s", prop, value);
	why_add(why, "%s", tail);
}

enum authres_verdict authres_judge(const struct authres *ar, const char *from_domain, char *why)
{
	char fail[AUTHRES_WHY_MAX] = "", pass[AUTHRES_WHY_MAX] = "", other[AUTHRES_WHY_MAX] = "";
	const char *hf, *d;
	size_t i;

	why[0] = '\0';
	for (i = 0; i < ar->nresults; i++) {
		const struct authres_result *r = &ar->results[i];

		if (strcmp(r->method, "dmarc") == 0) {
			hf = prop_of(r, "header.from");
			/* a result about another domain than the From's says nothing of this mail's From */
			if (hf != NULL && !same_domain(domain_of(hf), strlen(domain_of(hf)), from_domain)) {
				why_result(other, r, "header.from", hf, " (another domain)");
				continue;
			}
			if (strcmp(r->result, "fail") == 0)
				why_result(fail, r, "header.from", hf, "");
			else if (strcmp(r->result, "pass") == 0)
				why_result(pass, r, "header.from", hf, "");
			else
				why_result(other, r, "header.from", hf, "");
		} else if (strcmp(r->method, "dkim") == 0) {
			const char *name = "header.d";

			d = prop_of(r, "header.d");
			if (d == NULL && (d = domain_of(prop_of(r, "header.i"))) != NULL)
				name = "header.i";
			if (strcmp(r->result, "pass") != 0)
				why_result(other, r, name, d, "");
			else if (d != NULL && authres_aligned(d, from_domain))
				why_result(pass, r, name, d, "");
			else
				why_result(other, r, name, d, " (not aligned with the From domain)");
		}
	}
	if (fail[0] != '\0') {
		why_add(why, "%s", fail);
		return AUTHRES_DMARC_FAIL;
	}
	if (pass[0] != '\0') {
		why_add(why, "%s", pass);
		return AUTHRES_PASS;
	}
	if (other[0] != '\0')
		why_add(why, "%s", other);
	else if (ar->none)
		why_add(why, "none");
	else
		why_add(why, "no dmarc or dkim result");
	return AUTHRES_NO_PASS;
}

enum authres_verdict authres_check(const char *buf, size_t len, const char *id, const char *from_addr,
    struct authres *work, char *why)
{
	const char *at = strrchr(from_addr, '@');
	enum mail_status st;
	bool found;

	why[0] = '\0';
	st = authres_find(buf, len, id, work, &found);
	if (!found) {
		why_add(why, "no Authentication-Results header from %s", id);
		return AUTHRES_NO_HEADER;
	}
	if (st != MAIL_OK) {
		why_add(why, "the Authentication-Results header from %s cannot be read: %s", id,
		    mail_status_str(st));
		return AUTHRES_UNREADABLE;
	}
	return authres_judge(work, at != NULL ? at + 1 : "", why);
}
