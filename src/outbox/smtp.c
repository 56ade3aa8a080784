/* smtp: the smtp transport, libcurl loaded with dlopen at open time. */
#include "outbox/smtp.h"
#include "base/testhook.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/mailaddr.h"
#include "outbox/secretfile.h"

#define SMTP_URL_BUF (CONFIG_URL_MAX + CONFIG_NAME_MAX + 4)

/* The few libcurl functions used, resolved by name from the loaded library. */
static struct {
	void *lib;
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
	CURLcode (*easy_perform)(CURL *curl);
	CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *curl);
	const char *(*easy_strerror)(CURLcode code);
	struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
	void (*slist_free_all)(struct curl_slist *list);
} curl;

struct smtp {
	const struct config *cfg;
	CURL *easy;
	char password[CONFIG_SECRET_MAX + 1];	/* from smtp_password or its file */
	char errbuf[CURL_ERROR_SIZE];
	/*
	 * The server's reply being read, its lines joined by '\n' (CRLF
	 * dropped, control characters as '?'), cut at TRANSPORT_REPLY_MAX
	 * bytes; reply_done: its last line ("NNN " or "NNN") has come, so the
	 * next line starts a new reply.  refusal: the last whole 4xx or 5xx
	 * reply of the transaction (libcurl may say QUIT after it, and read
	 * the 221, before it returns).
	 */
	char reply[TRANSPORT_REPLY_MAX + 1];
	size_t reply_len;
	bool reply_done;
	char refusal[TRANSPORT_REPLY_MAX + 1];
};

/* The message being uploaded, with lone LFs turned into CRLF. */
struct upload {
	const char *msg;
	size_t len, pos;
	bool cr_sent;		/* a CR was added before msg[pos], which is a LF */
	bool started;		/* the server took DATA: libcurl asked for the message */
};

/*
 * Load libcurl once per process.  The library stays loaded: libcurl and
 * its TLS library keep global state that must not be unmapped.
 */
static bool load_curl(char *why, size_t whylen)
{
	const char *name = testhook_env("OUSTPBM_TEST_LIBCURL");
	const char *missing = NULL;
	void *lib;

	if (curl.lib != NULL)
		return true;
	if (name == NULL || name[0] == '\0')
		name = SMTP_LIBCURL;
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		const char *e = dlerror();

		snprintf(why, whylen, "cannot load %s (install libcurl4): %s", name, e != NULL ? e : "unknown error");
		return false;
	}
	/* dlsym returns a void *; POSIX lets it be stored through the pointer's object view */
#define RESOLVE(field, sym) \
	do { \
		*(void **)(&curl.field) = dlsym(lib, sym); \
		if (curl.field == NULL && missing == NULL) \
			missing = sym; \
	} while (0)
	RESOLVE(global_init, "curl_global_init");
	RESOLVE(easy_init, "curl_easy_init");
	RESOLVE(easy_setopt, "curl_easy_setopt");
	RESOLVE(easy_perform, "curl_easy_perform");
	RESOLVE(easy_getinfo, "curl_easy_getinfo");
	RESOLVE(easy_cleanup, "curl_easy_cleanup");
	RESOLVE(easy_strerror, "curl_easy_strerror");
	RESOLVE(slist_append, "curl_slist_append");
	RESOLVE(slist_free_all, "curl_slist_free_all");
#undef RESOLVE
	if (missing != NULL) {
		snprintf(why, whylen, "%s has no function %s", name, missing);
		dlclose(lib);
		memset(&curl, 0, sizeof curl);
		return false;
	}
	if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		snprintf(why, whylen, "cannot initialise %s", name);
		memset(&curl, 0, sizeof curl);
		return false;	/* the library stays mapped: it may have started its TLS library */
	}
	curl.lib = lib;
	return true;
}


/* Overwrite every copy of the password in s with '*': no message may carry it. */
static void hide_password(const struct smtp *sm, char *s)
{
	size_t n = strlen(sm->password);
	char *p;

	if (n == 0)
		return;
	while ((p = strstr(s, sm->password)) != NULL)
		memset(p, '*', n);
}

static void smtp_close(void *ctx)
{
	struct smtp *sm = ctx;

	if (sm == NULL)
		return;
	if (sm->easy != NULL)
		curl.easy_cleanup(sm->easy);	/* sends QUIT on a connection still open */
	memset(sm->password, 0, sizeof sm->password);
	free(sm);
}

/*
 * libcurl hands every line of the server's SMTP replies to the header
 * callback; keep the lines of the last reply.  A reply's last line has a
 * space or nothing after its code, the others a '-' (RFC 5321 4.2.1).
 */
static size_t header_cb(char *buf, size_t size, size_t nitems, void *data)
{
	struct smtp *sm = data;
	size_t n = size * nitems, len = n, i;

	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	if (sm->reply_done) {
		sm->reply_len = 0;
		sm->reply_done = false;
	}
	if (len >= 3 && (len == 3 || buf[3] != '-'))
		sm->reply_done = true;
	if (sm->reply_len > 0 && sm->reply_len < TRANSPORT_REPLY_MAX)
		sm->reply[sm->reply_len++] = '\n';
	for (i = 0; i < len && sm->reply_len < TRANSPORT_REPLY_MAX; i++)
		sm->reply[sm->reply_len++] = (unsigned char)buf[i] < 0x20 || buf[i] == 0x7f ? '?' : buf[i];
	sm->reply[sm->reply_len] = '\0';
	if (sm->reply_done && (sm->reply[0] == '4' || sm->reply[0] == '5'))
		memcpy(sm->refusal, sm->reply, sm->reply_len + 1);
	return n;
}

static size_t read_cb(char *buf, size_t size, size_t nitems, void *data)
{
	struct upload *u = data;
	size_t cap = size * nitems, n = 0;

	u->started = true;
	while (n < cap && u->pos < u->len) {
		char c = u->msg[u->pos];

		if (c == '\n' && !u->cr_sent && (u->pos == 0 || u->msg[u->pos - 1] != '\r')) {
			buf[n++] = '\r';
			u->cr_sent = true;
			continue;
		}
		buf[n++] = c;
		u->pos++;
		u->cr_sent = false;
	}
	return n;
}

static enum transport_result smtp_open(struct store *st, const struct config *cfg, void **ctx, char *why,
    size_t whylen)
{
	char url[SMTP_URL_BUF];
	struct smtp *sm;
	size_t n;
	CURLcode rc = CURLE_OK;

	*ctx = NULL;
	if (cfg->smtp_url[0] == '\0') {
		snprintf(why, whylen, "smtp transport without smtp_url");
		return TRANSPORT_PERMFAIL;
	}
	if (!load_curl(why, whylen))
		return TRANSPORT_TEMPFAIL;
	sm = calloc(1, sizeof *sm);
	if (sm == NULL) {
		snprintf(why, whylen, "out of memory");
		return TRANSPORT_TEMPFAIL;
	}
	sm->cfg = cfg;
	if (cfg->smtp_password_file[0] != '\0' &&
	    !secretfile_read("smtp_password_file", cfg->smtp_password_file, store_home(st), sm->password, why, whylen)) {
		smtp_close(sm);
		return TRANSPORT_TEMPFAIL;
	}
	if (cfg->smtp_password[0] != '\0')
		snprintf(sm->password, sizeof sm->password, "%s", cfg->smtp_password);
	sm->easy = curl.easy_init();
	if (sm->easy == NULL) {
		snprintf(why, whylen, "cannot make a libcurl handle");
		smtp_close(sm);
		return TRANSPORT_TEMPFAIL;
	}
	/* the URL's path is the EHLO name (libcurl's SMTP URL syntax) */
	n = strlen(cfg->smtp_url);
	if (n > 0 && cfg->smtp_url[n - 1] == '/')
		n--;
	snprintf(url, sizeof url, "%.*s/%s", (int)n, cfg->smtp_url, cfg->helo_name);
#define SET(opt, val) \
	do { \
		if (rc == CURLE_OK) \
			rc = curl.easy_setopt(sm->easy, opt, val); \
	} while (0)
	SET(CURLOPT_ERRORBUFFER, sm->errbuf);
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_CONNECTTIMEOUT_MS, (long)(cfg->smtp_connect_timeout * 1000));
	SET(CURLOPT_TIMEOUT_MS, (long)(cfg->smtp_timeout * 1000));
	SET(CURLOPT_USE_SSL, (long)(config_smtp_starttls_required(cfg) ? CURLUSESSL_ALL : CURLUSESSL_NONE));
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	if (cfg->smtp_cafile[0] != '\0')
		SET(CURLOPT_CAINFO, cfg->smtp_cafile);
	if (cfg->smtp_user[0] != '\0') {
		SET(CURLOPT_USERNAME, cfg->smtp_user);
		SET(CURLOPT_PASSWORD, sm->password);
	}
	SET(CURLOPT_UPLOAD, 1L);
	SET(CURLOPT_READFUNCTION, read_cb);
	SET(CURLOPT_HEADERFUNCTION, header_cb);
	SET(CURLOPT_HEADERDATA, sm);
#undef SET
	if (rc != CURLE_OK) {
		snprintf(why, whylen, "libcurl refused an option: %s", curl.easy_strerror(rc));
		smtp_close(sm);
		return TRANSPORT_TEMPFAIL;
	}
	*ctx = sm;
	return TRANSPORT_OK;
}

/* Check one envelope address before libcurl sees it; false with why. */
static bool address_ok(const char *what, const char *addr, bool empty_ok, char *why, size_t whylen)
{
	char shown[80];
	const char *bad;
	size_t i;

	if (empty_ok && addr[0] == '\0')
		return true;
	if (mailaddr_ok(addr, &bad))
		return true;
	for (i = 0; addr[i] != '\0' && i + 1 < sizeof shown; i++)
		shown[i] = (unsigned char)addr[i] < 0x20 || addr[i] == 0x7f ? '?' : addr[i];
	shown[i] = '\0';
	snprintf(why, whylen, "%s address '%s' %s: not sent", what, shown, bad);
	return false;
}

/* The libcurl results that say nothing about this mail, only about the server or the link. */
static bool link_failure(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_USE_SSL_FAILED:
	case CURLE_LOGIN_DENIED:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_AUTH_ERROR:
		return true;
	default:
		return false;
	}
}

/*
 * After a timeout or a broken link libcurl would still say QUIT when the
 * handle is cleaned up, and wait for the answer (as long as a slow server
 * takes).  Shutting the socket down makes that fail at once; libcurl still
 * closes it.
 */
static void drop_connection(struct smtp *sm)
{
	curl_socket_t fd = CURL_SOCKET_BAD;

	if (curl.easy_getinfo(sm->easy, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK && fd != CURL_SOCKET_BAD)
		shutdown(fd, SHUT_RDWR);
}

/*
 * A refusal with an RFC 3463 status 5.7.x ("554 5.7.1 Relay access denied")
 * is about a policy, often the relay's about the server: not the address.
 */
static bool policy_refusal(const char *reply)
{
	const char *p = reply;

	if (strlen(p) < 4)
		return false;
	p += 4;	/* "550 " or "550-" */
	return strncmp(p, "5.7.", 4) == 0;
}

static enum transport_result smtp_deliver(void *ctx, const struct transport_envelope *env, const char *msg,
    size_t len, char *why, size_t whylen)
{
	struct smtp *sm = ctx;
	const char *from = sm->cfg->envelope_from[0] != '\0' ? sm->cfg->envelope_from : env->from;
	struct curl_slist *rcpt = NULL;
	struct upload up = { msg, len, 0, false, false };
	enum transport_result result;
	long code = 0;
	char codestr[24];
	CURLcode rc = CURLE_OK;

	if (!address_ok("sender", from, true, why, whylen) || !address_ok("recipient", env->rcpt, false, why, whylen))
		return TRANSPORT_PERMFAIL;
	rcpt = curl.slist_append(NULL, env->rcpt);
	if (rcpt == NULL) {
		snprintf(why, whylen, "out of memory");
		return TRANSPORT_TEMPFAIL;
	}
	sm->errbuf[0] = '\0';
	sm->reply[0] = '\0';
	sm->reply_len = 0;
	sm->reply_done = false;
	sm->refusal[0] = '\0';
	rc = curl.easy_setopt(sm->easy, CURLOPT_MAIL_FROM, from);
	if (rc == CURLE_OK)
		rc = curl.easy_setopt(sm->easy, CURLOPT_MAIL_RCPT, rcpt);
	if (rc == CURLE_OK)
		rc = curl.easy_setopt(sm->easy, CURLOPT_READDATA, &up);
	if (rc == CURLE_OK)
		rc = curl.easy_perform(sm->easy);
	curl.easy_getinfo(sm->easy, CURLINFO_RESPONSE_CODE, &code);
	/* the list must outlive the transfer only; no later perform may see it */
	curl.easy_setopt(sm->easy, CURLOPT_MAIL_RCPT, (struct curl_slist *)NULL);
	curl.slist_free_all(rcpt);
	if (rc == CURLE_OK && (code == 0 || code / 100 == 2))
		return TRANSPORT_OK;
	if (rc != CURLE_OK && link_failure(rc)) {
		result = TRANSPORT_UNAVAILABLE;
		drop_connection(sm);
	}
	else if (code / 100 == 5 && !up.started && strncmp(sm->errbuf, "RCPT failed", 11) == 0 &&
	    !policy_refusal(sm->refusal))
		result = TRANSPORT_BOUNCED;	/* the recipient's address is dead */
	else if (code / 100 == 5 && (up.started || strncmp(sm->errbuf, "RCPT failed", 11) == 0))
		result = TRANSPORT_PERMFAIL;	/* about this recipient or this message */
	else if (code / 100 == 5) {
		/*
		 * A 5xx to the greeting, EHLO, AUTH, MAIL FROM or DATA is about the
		 * server or the session (a relay refusing us, AUTH not set up), not
		 * this mail (RFC 5321 4.2.1): every mail would get it, so the run is
		 * deferred as for a server that cannot be reached.
		 */
		result = TRANSPORT_UNAVAILABLE;
		drop_connection(sm);
	} else
		result = TRANSPORT_TEMPFAIL;
	if (code != 0)
		snprintf(why, whylen, "smtp: %s (server answered %ld)",
		    sm->errbuf[0] != '\0' ? sm->errbuf : curl.easy_strerror(rc), code);
	else
		snprintf(why, whylen, "smtp: %s", sm->errbuf[0] != '\0' ? sm->errbuf : curl.easy_strerror(rc));
	/* the server's own words, when its reply is what failed: every line of it */
	snprintf(codestr, sizeof codestr, "%03ld", code);
	if (code / 100 >= 4 && strncmp(sm->refusal, codestr, 3) == 0 && strlen(why) + 1 < whylen)
		snprintf(why + strlen(why), whylen - strlen(why), "\n%s", sm->refusal);
	hide_password(sm, why);
	return result;
}

const struct transport_ops transport_smtp = {
	.name = "smtp",
	.idempotent = false,
	.open = smtp_open,
	.deliver = smtp_deliver,
	.close = smtp_close,
};
