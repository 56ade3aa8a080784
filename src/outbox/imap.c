/* imap: the hosted mailbox's client (imap.h), libcurl loaded with dlopen at open time. */
#include "outbox/imap.h"

#include <curl/curl.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/imapurl.h"
#include "base/monoclock.h"
#include "base/strbuf.h"
#include "base/testhook.h"
#include "outbox/secretfile.h"

#define IMAP_LINE_MAX (4 * 1024 * 1024)	/* bytes of one response's text, literals aside (a long SEARCH) */
#define IMAP_TAG_MAX 16

/* The libcurl functions used, resolved by name from the loaded library. */
struct imap_curl {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *curl);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *curl);
	const char *(*easy_strerror)(CURLcode code);
	CURLcode (*easy_send)(CURL *curl, const void *buffer, size_t buflen, size_t *n);
	CURLcode (*easy_recv)(CURL *curl, void *buffer, size_t buflen, size_t *n);
};

struct imap {
	struct imap_curl fn;
	CURL *easy;
	curl_socket_t sock;
	int64_t timeout_ms;	/* imap_timeout */
	unsigned tag;		/* the last command's number */
	bool cap_move, cap_uidplus, cap_idle;
	bool lost;		/* the session is unusable: nothing more is sent */
	char password[CONFIG_SECRET_MAX + 1];
	char errbuf[CURL_ERROR_SIZE];
	char in[16384];		/* bytes received, not yet read */
	size_t inpos, inlen;
	struct strbuf text;	/* the response being read, each literal as its "{N}" */
	/* the first literal of a response, kept when keep_lit (a FETCH's message) */
	bool keep_lit;
	size_t lit_max;
	char *lit;
	size_t litlen;
	bool have_lit;
	/* what the untagged responses of the command told */
	unsigned long *uids;	/* SEARCH */
	size_t nuids, uids_max;
	bool uids_nomem;
	bool exists;		/* EXISTS or RECENT: a new message */
	unsigned long uidvalidity;	/* SELECT's [UIDVALIDITY n] */
	bool listed;		/* LIST answered */
	unsigned long want_uid;	/* FETCH: the message asked for */
	char *msg;		/* FETCH: its bytes (taken from lit) */
	size_t msglen;
	unsigned long msgsize;
};

/* Overwrite every copy of the password in s with '*': no message may carry it. */
static void hide_password(const struct imap *im, char *s)
{
	size_t n = strlen(im->password);
	char *p;

	if (n == 0)
		return;
	while ((p = strstr(s, im->password)) != NULL)
		memset(p, '*', n);
}

static enum outbox_status fail(struct imap *im, enum outbox_status s, char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* why set from fmt; the session marked lost on OUTBOX_UNAVAILABLE. */
static enum outbox_status fail(struct imap *im, enum outbox_status s, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	if (im != NULL) {
		hide_password(im, why);
		if (s == OUTBOX_UNAVAILABLE)
			im->lost = true;
	}
	return s;
}

/*
 * libcurl loaded (once: dlopen counts its loads, and the library is never
 * unloaded, as libcurl and its TLS library keep global state).
 */
static bool load_curl(struct imap_curl *fn, char *why, size_t whylen)
{
	const char *name = testhook_env("OUSTPBM_TEST_LIBCURL");
	const char *missing = NULL;
	void *lib;

	if (name == NULL || name[0] == '\0')
		name = IMAP_LIBCURL;
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		const char *e = dlerror();

		snprintf(why, whylen, "cannot load %s (install libcurl4): %s", name, e != NULL ? e : "unknown error");
		return false;
	}
#define RESOLVE(field, sym) \
	do { \
		*(void **)(&fn->field) = dlsym(lib, sym); \
		if (fn->field == NULL && missing == NULL) \
			missing = sym; \
	} while (0)
	RESOLVE(global_init, "curl_global_init");
	RESOLVE(easy_init, "curl_easy_init");
	RESOLVE(easy_setopt, "curl_easy_setopt");
	RESOLVE(easy_perform, "curl_easy_perform");
	RESOLVE(easy_getinfo, "curl_easy_getinfo");
	RESOLVE(easy_cleanup, "curl_easy_cleanup");
	RESOLVE(easy_strerror, "curl_easy_strerror");
	RESOLVE(easy_send, "curl_easy_send");
	RESOLVE(easy_recv, "curl_easy_recv");
#undef RESOLVE
	if (missing != NULL) {
		snprintf(why, whylen, "%s has no function %s", name, missing);
		return false;
	}
	if (fn->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(why, whylen, "cannot initialise %s", name);
		return false;
	}
	return true;
}


/* ---- the wire ---- */

/* Wait for the socket (POLLIN or POLLOUT) until deadline; false on timeout. */
static bool wait_socket(struct imap *im, short events, int64_t deadline)
{
	struct pollfd p = { .fd = (int)im->sock, .events = events };
	int64_t left;
	int r;

	for (;;) {
		left = deadline - monoclock_ms();
		if (left <= 0)
			return false;
		r = poll(&p, 1, left > 60000 ? 60000 : (int)left);
		if (r > 0)
			return true;
		if (r < 0 && errno != EINTR)
			return true;	/* the next send or recv tells the error */
	}
}

static enum outbox_status send_all(struct imap *im, const char *buf, size_t len, char *why, size_t whylen)
{
	int64_t deadline = monoclock_ms() + im->timeout_ms;
	size_t done = 0, n;
	CURLcode rc;

	if (im->lost)
		return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP connection was lost");
	while (done < len) {
		n = 0;
		rc = im->fn.easy_send(im->easy, buf + done, len - done, &n);
		if (rc == CURLE_AGAIN) {
			if (!wait_socket(im, POLLOUT, deadline))
				return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server took more than %lld s to "
				    "take a command", (long long)(im->timeout_ms / 1000));
			continue;
		}
		if (rc != CURLE_OK)
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "cannot send to the IMAP server: %s",
			    im->fn.easy_strerror(rc));
		done += n;
	}
	return OUTBOX_OK;
}

/* More bytes into im->in.  *timed_out (may be NULL) tells a deadline passed from a failure. */
static enum outbox_status fill(struct imap *im, int64_t deadline, bool *timed_out, char *why, size_t whylen)
{
	size_t n;
	CURLcode rc;

	for (;;) {
		n = 0;
		rc = im->fn.easy_recv(im->easy, im->in, sizeof im->in, &n);
		if (rc == CURLE_OK && n == 0)
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server closed the connection");
		if (rc == CURLE_OK) {
			im->inpos = 0;
			im->inlen = n;
			return OUTBOX_OK;
		}
		if (rc != CURLE_AGAIN)
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "cannot read from the IMAP server: %s",
			    im->fn.easy_strerror(rc));
		if (!wait_socket(im, POLLIN, deadline)) {
			if (timed_out != NULL) {
				*timed_out = true;
				return OUTBOX_OK;
			}
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server did not answer within %lld s",
			    (long long)(im->timeout_ms / 1000));
		}
	}
}

/* n bytes of a literal: kept in im->lit when keep, else dropped. */
static enum outbox_status read_literal(struct imap *im, size_t n, bool keep, int64_t deadline, char *why,
    size_t whylen)
{
	size_t k;
	enum outbox_status s;

	if (keep) {
		im->lit = malloc(n + 1);
		if (im->lit == NULL)
			return fail(im, OUTBOX_NOMEM, why, whylen, "out of memory for a message of %zu bytes", n);
		im->litlen = 0;
		im->have_lit = true;
	}
	while (n > 0) {
		if (im->inpos == im->inlen) {
			s = fill(im, deadline, NULL, why, whylen);
			if (s != OUTBOX_OK)
				return s;
		}
		k = im->inlen - im->inpos < n ? im->inlen - im->inpos : n;
		if (keep) {
			memcpy(im->lit + im->litlen, im->in + im->inpos, k);
			im->litlen += k;
		}
		im->inpos += k;
		n -= k;
	}
	if (keep)
		im->lit[im->litlen] = '\0';
	return OUTBOX_OK;
}

/* The literal's length if the text ends with "{N}" or "{N+}" (RFC 7888), else -1. */
static long long literal_at_end(const char *s, size_t len)
{
	size_t i;
	long long v = 0;

	if (len < 3 || s[len - 1] != '}')
		return -1;
	i = len - 1;
	if (s[i - 1] == '+')
		i--;
	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == 0 || s[i - 1] != '{' || i == len - 1 || !isdigit((unsigned char)s[i]))
		return -1;
	for (; isdigit((unsigned char)s[i]); i++) {
		if (v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * One whole response into im->text (CRLF dropped, each literal left as
 * its "{N}"), the first literal into im->lit when im->keep_lit.  With
 * timed_out (may be NULL), a deadline passed before a response began is
 * *timed_out, not a failure.
 */
static enum outbox_status read_response(struct imap *im, int64_t deadline, bool *timed_out, char *why, size_t whylen)
{
	enum outbox_status s;
	long long lit;
	char c;

	strbuf_release(&im->text);
	free(im->lit);
	im->lit = NULL;
	im->have_lit = false;
	for (;;) {
		if (im->inpos == im->inlen) {
			s = fill(im, deadline, im->text.len == 0 ? timed_out : NULL, why, whylen);
			if (s != OUTBOX_OK)
				return s;
			if (timed_out != NULL && *timed_out)
				return OUTBOX_OK;
		}
		c = im->in[im->inpos++];
		if (c != '\n') {
			if (im->text.len >= IMAP_LINE_MAX)
				return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "an IMAP response longer than %d bytes",
				    IMAP_LINE_MAX);
			strbuf_add(&im->text, &c, 1);
			if (im->text.failed)
				return fail(im, OUTBOX_NOMEM, why, whylen, "out of memory for an IMAP response");
			continue;
		}
		if (im->text.len > 0 && im->text.s[im->text.len - 1] == '\r')
			im->text.s[--im->text.len] = '\0';
		lit = im->text.len > 0 ? literal_at_end(im->text.s, im->text.len) : -1;
		if (lit < 0)
			break;
		if (im->keep_lit && !im->have_lit && (size_t)lit > im->lit_max)
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server sent %lld bytes where %zu "
			    "were asked for", lit, im->lit_max);
		s = read_literal(im, (size_t)lit, im->keep_lit && !im->have_lit, deadline, why, whylen);
		if (s != OUTBOX_OK)
			return s;
	}
	if (im->text.s == NULL)
		strbuf_puts(&im->text, "");
	if (im->text.failed)
		return fail(im, OUTBOX_NOMEM, why, whylen, "out of memory for an IMAP response");
	return OUTBOX_OK;
}

/* ---- the responses ---- */

/* The word after "* " or "* N " of an untagged response, and N. */
static const char *untagged_word(const char *t, unsigned long *num, bool *has_num)
{
	char *end;

	t += 2;
	*has_num = false;
	if (isdigit((unsigned char)*t)) {
		*num = strtoul(t, &end, 10);
		*has_num = true;
		t = end;
		while (*t == ' ')
			t++;
	}
	return t;
}

static bool word_is(const char *t, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(t, w, n) == 0 && (t[n] == ' ' || t[n] == '\0' || t[n] == ']');
}

static void capabilities(struct imap *im, const char *t)
{
	for (;;) {
		while (*t == ' ')
			t++;
		if (*t == '\0' || *t == ']')
			return;
		if (word_is(t, "MOVE"))
			im->cap_move = true;
		else if (word_is(t, "UIDPLUS"))
			im->cap_uidplus = true;
		else if (word_is(t, "IDLE"))
			im->cap_idle = true;
		t += strcspn(t, " ]");
	}
}

static void search_result(struct imap *im, const char *t)
{
	unsigned long *grown, v;
	char *end;

	for (;;) {
		while (*t == ' ')
			t++;
		if (!isdigit((unsigned char)*t))
			return;
		v = strtoul(t, &end, 10);
		t = end;
		if (im->nuids >= im->uids_max)
			continue;	/* sorted below: the smallest are kept */
		grown = realloc(im->uids, (im->nuids + 1) * sizeof *im->uids);
		if (grown == NULL) {
			im->uids_nomem = true;
			return;
		}
		im->uids = grown;
		im->uids[im->nuids++] = v;
	}
}

/* The number after item name (e.g. "UID ") in a FETCH response's list, or false. */
static bool fetch_item(const char *t, const char *name, unsigned long *v)
{
	size_t n = strlen(name);
	const char *p;

	for (p = t; (p = strcasestr(p, name)) != NULL; p += n)
		if ((p == t || p[-1] == '(' || p[-1] == ' ') && isdigit((unsigned char)p[n])) {
			*v = strtoul(p + n, NULL, 10);
			return true;
		}
	return false;
}

/* What an untagged response tells. */
static void untagged(struct imap *im)
{
	const char *t = im->text.s, *w;
	unsigned long num = 0, uid = 0, size = 0;
	bool has_num;

	w = untagged_word(t, &num, &has_num);
	if (!has_num && word_is(w, "CAPABILITY")) {
		capabilities(im, w + 10);
	} else if (!has_num && (word_is(w, "OK") || word_is(w, "NO")) && strncasecmp(w + 3, "[CAPABILITY ", 12) == 0) {
		capabilities(im, w + 15);
	} else if (!has_num && word_is(w, "OK") && strncasecmp(w + 3, "[UIDVALIDITY ", 13) == 0) {
		im->uidvalidity = strtoul(w + 16, NULL, 10);
	} else if (!has_num && word_is(w, "SEARCH")) {
		search_result(im, w + 6);
	} else if (!has_num && word_is(w, "LIST")) {
		im->listed = true;
	} else if (!has_num && word_is(w, "BYE")) {
		im->lost = true;
	} else if (has_num && (word_is(w, "EXISTS") || word_is(w, "RECENT"))) {
		im->exists = true;
	} else if (has_num && word_is(w, "FETCH") && im->have_lit && im->msg == NULL && fetch_item(w, "UID ", &uid) &&
	    uid == im->want_uid) {
		(void)fetch_item(w, "RFC822.SIZE ", &size);
		im->msg = im->lit;
		im->msglen = im->litlen;
		im->msgsize = size;
		im->lit = NULL;
		im->have_lit = false;
	}
}

/*
 * Send one command (fmt, without tag and CRLF) and read its responses up
 * to its tagged one: OUTBOX_OK on OK, OUTBOX_REFUSED on NO or BAD (the server's text
 * in why).
 */
static enum outbox_status command(struct imap *im, char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum outbox_status command(struct imap *im, char *why, size_t whylen, const char *fmt, ...)
{
	char line[1024], tag[IMAP_TAG_MAX];
	enum outbox_status s;
	size_t taglen;
	va_list ap;
	int n;

	snprintf(tag, sizeof tag, "F%u ", ++im->tag);
	taglen = strlen(tag);
	memcpy(line, tag, taglen);
	va_start(ap, fmt);
	n = vsnprintf(line + taglen, sizeof line - taglen - 2, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line - taglen - 2)
		return fail(im, OUTBOX_REFUSED, why, whylen, "an IMAP command too long");
	memcpy(line + taglen + (size_t)n, "\r\n", 3);
	s = send_all(im, line, taglen + (size_t)n + 2, why, whylen);
	while (s == OUTBOX_OK) {
		s = read_response(im, monoclock_ms() + im->timeout_ms, NULL, why, whylen);
		if (s != OUTBOX_OK)
			break;
		if (strncmp(im->text.s, "* ", 2) == 0) {
			untagged(im);
			/* RFC 3501 7.1.5: BYE ends the session (a LOGOUT's too, whose end is not waited for) */
			if (im->lost)
				return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server ended the session: %.300s",
				    im->text.s + 2);
			continue;
		}
		if (strncmp(im->text.s, tag, taglen) != 0)
			continue;	/* a continuation or a stray line: not ours to answer */
		if (strncasecmp(im->text.s + taglen, "OK", 2) == 0)
			return OUTBOX_OK;
		snprintf(why, whylen, "%.*s: %.300s", (int)strcspn(line + taglen, " "), line + taglen,
		    im->text.s + taglen);
		hide_password(im, why);
		return OUTBOX_REFUSED;
	}
	return s;
}

/* ---- the session ---- */

static enum outbox_status connect_login(struct imap *im, const struct config *cfg, const struct imapurl *u, char *why,
    size_t whylen)
{
	char url[IMAPURL_HOST_MAX + 32];
	CURLcode rc = CURLE_OK;
	curl_socket_t sock = CURL_SOCKET_BAD;

	snprintf(url, sizeof url, "%s://%s%s%s:%u/", u->tls ? "imaps" : "imap", u->ipv6 ? "[" : "", u->host,
	    u->ipv6 ? "]" : "", u->port);
#define SET(opt, val) \
	do { \
		if (rc == CURLE_OK) \
			rc = im->fn.easy_setopt(im->easy, opt, val); \
	} while (0)
	SET(CURLOPT_ERRORBUFFER, im->errbuf);
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "imap,imaps");
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_CONNECTTIMEOUT_MS, (long)(cfg->imap_timeout * 1000));
	/* RFC 8314 / RFC 2595: the password never crosses a network in clear; loopback has none between */
	SET(CURLOPT_USE_SSL, (long)(u->tls || !imapurl_loopback(u) ? CURLUSESSL_ALL : CURLUSESSL_NONE));
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	if (cfg->imap_cafile[0] != '\0')
		SET(CURLOPT_CAINFO, cfg->imap_cafile);
	SET(CURLOPT_USERNAME, u->user);
	SET(CURLOPT_PASSWORD, im->password);
	SET(CURLOPT_CONNECT_ONLY, 1L);
#undef SET
	if (rc != CURLE_OK)
		return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "libcurl refused an option: %s", im->fn.easy_strerror(rc));
	rc = im->fn.easy_perform(im->easy);
	if (rc == CURLE_LOGIN_DENIED)
		return fail(im, OUTBOX_DENIED, why, whylen, "%s refused the login of %s: %s", u->host, u->user,
		    im->errbuf[0] != '\0' ? im->errbuf : im->fn.easy_strerror(rc));
	if (rc != CURLE_OK)
		return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "cannot reach %s:%u: %s", u->host, u->port,
		    im->errbuf[0] != '\0' ? im->errbuf : im->fn.easy_strerror(rc));
	rc = im->fn.easy_getinfo(im->easy, CURLINFO_ACTIVESOCKET, &sock);
	if (rc != CURLE_OK || sock == CURL_SOCKET_BAD)
		return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "libcurl gave no socket for %s", u->host);
	im->sock = sock;
	return OUTBOX_OK;
}

enum outbox_status imap_open(const struct config *cfg, const char *home, struct imap **out, char *why, size_t whylen)
{
	struct imapurl u;
	const char *uwhy = NULL;
	struct imap *im;
	enum outbox_status s;

	*out = NULL;
	if (!imapurl_parse(cfg->imap_url, &u, &uwhy))
		return fail(NULL, OUTBOX_DENIED, why, whylen, "imap_url %s", cfg->imap_url[0] == '\0' ? "is not set" : uwhy);
	im = calloc(1, sizeof *im);
	if (im == NULL)
		return fail(NULL, OUTBOX_NOMEM, why, whylen, "out of memory");
	im->timeout_ms = (int64_t)cfg->imap_timeout * 1000;
	if (cfg->imap_password_file[0] == '\0') {
		s = fail(im, OUTBOX_DENIED, why, whylen, "imap_url needs imap_password_file");
		goto out;
	}
	if (!secretfile_read("imap_password_file", cfg->imap_password_file, home, im->password, why, whylen)) {
		s = OUTBOX_DENIED;
		goto out;
	}
	if (!load_curl(&im->fn, why, whylen)) {
		s = OUTBOX_UNAVAILABLE;
		goto out;
	}
	im->easy = im->fn.easy_init();
	if (im->easy == NULL) {
		s = fail(im, OUTBOX_NOMEM, why, whylen, "cannot make a libcurl handle");
		goto out;
	}
	s = connect_login(im, cfg, &u, why, whylen);
	/* the capabilities after the login may differ from the greeting's (RFC 3501 6.2) */
	if (s == OUTBOX_OK)
		s = command(im, why, whylen, "CAPABILITY");
	if (s == OUTBOX_OK) {
		s = command(im, why, whylen, "SELECT \"%s\"", u.mailbox);
		if (s == OUTBOX_REFUSED)
			s = OUTBOX_DENIED;	/* no such mailbox: a setting to fix */
	}
out:
	if (s != OUTBOX_OK) {
		imap_close(im);
		return s;
	}
	*out = im;
	return OUTBOX_OK;
}

void imap_close(struct imap *im)
{
	char why[IMAP_WHY_MAX];

	if (im == NULL)
		return;
	if (im->easy != NULL && im->sock != 0 && !im->lost)
		(void)command(im, why, sizeof why, "LOGOUT");
	if (im->easy != NULL)
		im->fn.easy_cleanup(im->easy);
	strbuf_release(&im->text);
	free(im->lit);
	free(im->uids);
	free(im->msg);
	explicit_bzero(im->password, sizeof im->password);
	free(im);
}

unsigned long imap_uidvalidity(const struct imap *im)
{
	return im->uidvalidity;
}

bool imap_has_idle(const struct imap *im)
{
	return im->cap_idle;
}

static int cmp_uid(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

enum outbox_status imap_search(struct imap *im, size_t max, unsigned long **uids, size_t *n, char *why,
    size_t whylen)
{
	enum outbox_status s;

	*uids = NULL;
	*n = 0;
	free(im->uids);
	im->uids = NULL;
	im->nuids = 0;
	/* every UID is read, so the lowest max are the ones kept whatever order the server lists them in */
	im->uids_max = SIZE_MAX / sizeof *im->uids;
	im->uids_nomem = false;
	s = command(im, why, whylen, "UID SEARCH UNDELETED");
	if (s == OUTBOX_OK && im->uids_nomem)
		s = fail(im, OUTBOX_NOMEM, why, whylen, "out of memory for the list of messages");
	if (s != OUTBOX_OK) {
		free(im->uids);
		im->uids = NULL;
		return s;
	}
	if (im->nuids > 0)
		qsort(im->uids, im->nuids, sizeof *im->uids, cmp_uid);
	*uids = im->uids;
	*n = im->nuids < max ? im->nuids : max;
	im->uids = NULL;
	return OUTBOX_OK;
}

enum outbox_status imap_fetch(struct imap *im, unsigned long uid, size_t cap, struct imap_message *m, char *why,
    size_t whylen)
{
	enum outbox_status s;

	memset(m, 0, sizeof *m);
	free(im->msg);
	im->msg = NULL;
	im->want_uid = uid;
	im->keep_lit = true;
	im->lit_max = cap;
	/* PEEK: a message left for the next run stays unread in the owner's mail client */
	s = command(im, why, whylen, "UID FETCH %lu (UID RFC822.SIZE BODY.PEEK[]<0.%zu>)", uid, cap);
	im->keep_lit = false;
	if (s == OUTBOX_OK && im->msg == NULL)
		return OUTBOX_OK;	/* gone meanwhile: m->data NULL */
	if (s != OUTBOX_OK) {
		free(im->msg);
		im->msg = NULL;
		return s;
	}
	m->data = im->msg;
	m->len = im->msglen;
	m->size = im->msgsize > im->msglen ? im->msgsize : im->msglen;
	im->msg = NULL;
	return OUTBOX_OK;
}

enum outbox_status imap_create(struct imap *im, const char *folder, char *why, size_t whylen)
{
	enum outbox_status s;

	im->listed = false;
	s = command(im, why, whylen, "LIST \"\" \"%s\"", folder);
	if (s != OUTBOX_OK || im->listed)
		return s;
	return command(im, why, whylen, "CREATE \"%s\"", folder);
}

enum outbox_status imap_move(struct imap *im, unsigned long uid, const char *folder, char *why, size_t whylen)
{
	enum outbox_status s;

	if (im->cap_move)
		return command(im, why, whylen, "UID MOVE %lu \"%s\"", uid, folder);
	s = command(im, why, whylen, "UID COPY %lu \"%s\"", uid, folder);
	if (s == OUTBOX_OK)
		s = command(im, why, whylen, "UID STORE %lu +FLAGS.SILENT (\\Deleted)", uid);
	if (s == OUTBOX_OK)
		s = im->cap_uidplus ? command(im, why, whylen, "UID EXPUNGE %lu", uid) :
		    command(im, why, whylen, "EXPUNGE");
	return s;
}

/* IDLE until a new message or the deadline, then DONE (RFC 2177). */
static enum outbox_status idle(struct imap *im, int64_t deadline, char *why, size_t whylen)
{
	char tag[IMAP_TAG_MAX], line[IMAP_TAG_MAX + 8];
	enum outbox_status s;
	bool started = false, timed_out;
	size_t taglen;

	snprintf(tag, sizeof tag, "F%u ", ++im->tag);
	taglen = strlen(tag);
	snprintf(line, sizeof line, "%sIDLE\r\n", tag);
	s = send_all(im, line, strlen(line), why, whylen);
	while (s == OUTBOX_OK && !started) {
		s = read_response(im, monoclock_ms() + im->timeout_ms, NULL, why, whylen);
		if (s != OUTBOX_OK)
			return s;
		if (im->text.s[0] == '+')
			started = true;
		else if (strncmp(im->text.s, "* ", 2) == 0)
			untagged(im);
		else if (strncmp(im->text.s, tag, taglen) == 0)
			return fail(im, OUTBOX_REFUSED, why, whylen, "IDLE: %.300s", im->text.s + taglen);
	}
	while (s == OUTBOX_OK && !im->exists) {
		timed_out = false;
		s = read_response(im, deadline, &timed_out, why, whylen);
		if (s != OUTBOX_OK || timed_out)
			break;
		if (strncmp(im->text.s, "* ", 2) == 0)
			untagged(im);
		if (im->lost)
			return fail(im, OUTBOX_UNAVAILABLE, why, whylen, "the IMAP server ended the session: %.300s",
			    im->text.s);
	}
	if (s != OUTBOX_OK)
		return s;
	s = send_all(im, "DONE\r\n", 6, why, whylen);
	while (s == OUTBOX_OK) {
		s = read_response(im, monoclock_ms() + im->timeout_ms, NULL, why, whylen);
		if (s != OUTBOX_OK)
			break;
		if (strncmp(im->text.s, "* ", 2) == 0)
			untagged(im);
		else if (strncmp(im->text.s, tag, taglen) == 0)
			return strncasecmp(im->text.s + taglen, "OK", 2) == 0 ? OUTBOX_OK :
			    fail(im, OUTBOX_REFUSED, why, whylen, "IDLE: %.300s", im->text.s + taglen);
	}
	return s;
}

enum outbox_status imap_wait(struct imap *im, unsigned long seconds, bool *news, char *why, size_t whylen)
{
	int64_t deadline = monoclock_ms() + (int64_t)seconds * 1000;
	struct timespec ts;
	enum outbox_status s;
	int64_t left;

	im->exists = false;
	if (im->cap_idle) {
		s = idle(im, deadline, why, whylen);
	} else {
		/* a plain poll: the connection stays open, NOOP tells of what came meanwhile */
		while ((left = deadline - monoclock_ms()) > 0) {
			ts.tv_sec = (time_t)(left / 1000);
			ts.tv_nsec = (long)(left % 1000) * 1000000L;
			(void)nanosleep(&ts, NULL);
		}
		s = command(im, why, whylen, "NOOP");
	}
	*news = im->exists;
	return s;
}
