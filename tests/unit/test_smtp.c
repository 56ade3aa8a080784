/*
 * test_smtp: the smtp transport against a real SMTP server, the sink of
 * tests/smtpd/sink.py (aiosmtpd, 127.0.0.1 only): plain SMTP, one connection
 * for a run, CRLF on the wire, STARTTLS with a CA made here by openssl, AUTH,
 * a wrong CA, STARTTLS refused, 451 and 550 to RCPT and to DATA, a slow
 * server, a server down, addresses with CR/LF refused before libcurl, a
 * missing libcurl, and the password kept out of every message.
 */
#include "outbox/smtp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "t_home.h"

#define PYTHON "/usr/bin/python3"

static char *tmp;		/* scratch directory */
static char sink_py[4096];
static struct store *st;
static char why[TRANSPORT_WHY_MAX];

struct sink {
	pid_t pid;
	unsigned port;
	char dir[2048];
};

/* Start the sink with extra arguments (NULL-terminated); waits for its port. */
static void sink_start(struct sink *s, const char *name, ...)
{
	char portfile[2100], *args[16];
	va_list ap;
	int n = 0, i;

	snprintf(s->dir, sizeof s->dir, "%s/%s", tmp, name);
	snprintf(portfile, sizeof portfile, "%s.port", s->dir);
	mkdir(s->dir, 0700);
	unlink(portfile);
	args[n++] = PYTHON;
	args[n++] = sink_py;
	args[n++] = "--dir";
	args[n++] = s->dir;
	args[n++] = "--portfile";
	args[n++] = portfile;
	va_start(ap, name);
	while (n < 15 && (args[n] = va_arg(ap, char *)) != NULL)
		n++;
	va_end(ap);
	args[n] = NULL;
	s->pid = fork();
	if (s->pid == 0) {
		int fd = open(t_path(s->dir, "stderr"), O_WRONLY | O_CREAT | O_APPEND, 0600);

		if (fd >= 0)
			dup2(fd, 2);	/* aiosmtpd's tracebacks of refused TLS handshakes */
		execv(PYTHON, args);
		_exit(127);
	}
	s->port = 0;
	for (i = 0; i < 200 && s->port == 0; i++) {
		char *text = t_slurp(portfile, NULL);

		if (text != NULL)
			s->port = (unsigned)atoi(text);
		free(text);
		if (s->port == 0)
			usleep(25000);
	}
	if (s->port == 0) {
		printf("# the sink did not start (python3-aiosmtpd installed?)\n");
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
	}
}

static void sink_stop(struct sink *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
}

/* Number of messages the sink stored. */
static int stored(const struct sink *s)
{
	DIR *d = opendir(s->dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] != '.' && l > 4 && strcmp(e->d_name + l - 4, ".eml") == 0)
			n++;
	}
	closedir(d);
	return n;
}

static int connections(const struct sink *s)
{
	char *text = t_slurp(t_path(s->dir, "connections"), NULL);
	int n = 0;
	char *p;

	for (p = text; p != NULL && *p != '\0'; p++)
		n += *p == '\n';
	free(text);
	return n;
}

/* The content of the first stored file ending in ext. */
static char *first_stored(const struct sink *s, const char *ext)
{
	DIR *d = opendir(s->dir);
	struct dirent *e;
	char *best = NULL, *text;

	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] != '.' && l > 4 && strcmp(e->d_name + l - 4, ext) == 0 &&
		    (best == NULL || strcmp(e->d_name, best) < 0)) {
			free(best);
			best = strdup(e->d_name);
		}
	}
	closedir(d);
	if (best == NULL)
		return NULL;
	text = t_slurp(t_path(s->dir, best), NULL);
	free(best);
	return text;
}

static void base_cfg(struct config *cfg, unsigned port)
{
	config_defaults(cfg);
	snprintf(cfg->smtp_url, sizeof cfg->smtp_url, "smtp://127.0.0.1:%u", port);
	snprintf(cfg->transport, sizeof cfg->transport, "smtp");
	snprintf(cfg->helo_name, sizeof cfg->helo_name, "oust.example.net");
	cfg->smtp_connect_timeout = 2;
	cfg->smtp_timeout = 5;
}

static enum transport_result send_one(void *ctx, const char *from, const char *rcpt, const char *msg)
{
	struct transport_envelope env = { "1.M1P1Q1.host", from, rcpt };

	why[0] = '\0';
	return transport_smtp.deliver(ctx, &env, msg, strlen(msg), why, sizeof why);
}

static const char msg1[] = "From: oust@example.net\nTo: alice@example.org\nSubject: Oust help\n\n"
    "line one\n.leading dot\n\nlast\n";
static const char msg1_wire[] = "From: oust@example.net\r\nTo: alice@example.org\r\nSubject: Oust help\r\n\r\n"
    "line one\r\n.leading dot\r\n\r\nlast\r\n";

static void test_missing_libcurl(void)
{
	struct config cfg;
	void *ctx = NULL;

	/* first: once loaded, the library stays */
	base_cfg(&cfg, 1);
	setenv("OUSTPBM_TEST_LIBCURL", "libcurl-missing-for-test.so.4", 1);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_TEMPFAIL, "no libcurl: temporary");
	ok(strstr(why, "cannot load libcurl-missing-for-test.so.4") != NULL, "and says so: %s", why);
	setenv("OUSTPBM_TEST_LIBCURL", "libc.so.6", 1);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_TEMPFAIL,
	    "a library without curl's functions: temporary");
	ok(strstr(why, "has no function curl_global_init") != NULL, "and says which: %s", why);
	unsetenv("OUSTPBM_TEST_LIBCURL");
	cfg.smtp_url[0] = '\0';
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_PERMFAIL, "no smtp_url: refused");
}

static void test_plain(void)
{
	struct sink s;
	struct config cfg;
	void *ctx = NULL;
	char *text;

	sink_start(&s, "plain", (char *)NULL);
	ok(s.port > 0, "sink started on port %u", s.port);
	base_cfg(&cfg, s.port);
	ok(!config_smtp_starttls_required(&cfg), "no STARTTLS needed on loopback by default");
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open");
	ok_int(send_one(ctx, "oust@example.net", "alice@example.org", msg1), TRANSPORT_OK, "deliver: %s", why);
	ok_int(send_one(ctx, "", "bob@example.org", msg1), TRANSPORT_OK, "deliver with the null sender");
	ok_int(send_one(ctx, "oust@example.net", "carol@example.org", msg1), TRANSPORT_OK, "deliver a third");
	ok_int(stored(&s), 3, "three messages stored");
	ok_int(connections(&s), 1, "over one connection");
	text = first_stored(&s, ".eml");
	ok_str(text, msg1_wire, "message byte-exact, lone LF sent as CRLF, the dot unstuffed");
	free(text);
	text = first_stored(&s, ".env");
	ok(text != NULL && strstr(text, "\"mail_from\": \"oust@example.net\"") != NULL &&
	    strstr(text, "\"rcpt_tos\": [\"alice@example.org\"]") != NULL &&
	    strstr(text, "\"helo\": \"oust.example.net\"") != NULL, "envelope and EHLO name: %s", text);
	free(text);

	/* addresses that would put CR/LF or junk on the wire: nothing is sent */
	ok_int(send_one(ctx, "oust@example.net", "x@example.org\r\nRCPT TO:<evil@example.org>", msg1),
	    TRANSPORT_PERMFAIL, "recipient with CR/LF refused");
	ok(strstr(why, "recipient address 'x@example.org??RCPT TO:<evil@example.org>' contains a control character")
	    != NULL, "with the reason: %s", why);
	ok_int(send_one(ctx, "oust@example.net\nDATA", "a@example.org", msg1), TRANSPORT_PERMFAIL,
	    "sender with LF refused");
	ok(strstr(why, "sender address") != NULL, "with the reason: %s", why);
	ok_int(send_one(ctx, "oust@example.net", "<a@example.org>", msg1), TRANSPORT_PERMFAIL, "'<' refused");
	ok_int(send_one(ctx, "oust@example.net", "a b@example.org", msg1), TRANSPORT_PERMFAIL, "space refused");
	ok_int(stored(&s), 3, "none of them reached the server");

	/* the sink's answers */
	ok_int(send_one(ctx, "oust@example.net", "rcpt451@example.org", msg1), TRANSPORT_TEMPFAIL, "451 to RCPT");
	ok(strstr(why, "451") != NULL, "the code is in the message: %s", why);
	ok_int(send_one(ctx, "oust@example.net", "rcpt550@example.org", msg1), TRANSPORT_BOUNCED,
	    "550 5.1.1 to RCPT: the address bounced");
	ok(strstr(why, "550") != NULL, "the code is in the message: %s", why);
	ok_int(send_one(ctx, "oust@example.net", "data451@example.org", msg1), TRANSPORT_TEMPFAIL, "451 to DATA");
	ok_int(send_one(ctx, "oust@example.net", "data550@example.org", msg1), TRANSPORT_PERMFAIL, "550 to DATA");
	ok_int(send_one(ctx, "oust@example.net", "dave@example.org", msg1), TRANSPORT_OK, "then a good one again");
	ok_int(stored(&s), 4, "stored");
	transport_smtp.close(ctx);

	/* STARTTLS required, the server has none: nothing is sent in clear */
	snprintf(cfg.smtp_starttls, sizeof cfg.smtp_starttls, "required");
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open requiring STARTTLS");
	ok_int(send_one(ctx, "oust@example.net", "erin@example.org", msg1), TRANSPORT_UNAVAILABLE,
	    "no STARTTLS offered: unavailable");
	transport_smtp.close(ctx);
	ok_int(stored(&s), 4, "nothing sent in clear");

	/* the server goes away */
	sink_stop(&s);
	cfg.smtp_starttls[0] = '\0';
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open (connects lazily)");
	ok_int(send_one(ctx, "oust@example.net", "alice@example.org", msg1), TRANSPORT_UNAVAILABLE,
	    "server down: unavailable");
	ok(strstr(why, "smtp: ") == why, "with libcurl's reason: %s", why);
	transport_smtp.close(ctx);
}

static void test_slow(void)
{
	struct sink s;
	struct config cfg;
	void *ctx = NULL;
	long t0;

	sink_start(&s, "slow", "--slow", "4", (char *)NULL);
	base_cfg(&cfg, s.port);
	cfg.smtp_timeout = 1;
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open with a 1 s timeout");
	t0 = t_ms();
	ok_int(send_one(ctx, "oust@example.net", "slow@example.org", msg1), TRANSPORT_UNAVAILABLE,
	    "a too slow server: unavailable");
	ok(t_ms() - t0 < 3000, "given up after the timeout (%ld ms)", t_ms() - t0);
	ok(strstr(why, "imeout") != NULL || strstr(why, "timed out") != NULL, "a timeout: %s", why);
	transport_smtp.close(ctx);
	ok(t_ms() - t0 < 3000, "closed without waiting for the slow server (%ld ms)", t_ms() - t0);
	sink_stop(&s);
}

/* A CA and a server certificate for 127.0.0.1, made with openssl. */
static int make_certs(const char *name, const char *dir)
{
	char cmd[8192];

	snprintf(cmd, sizeof cmd,
	    "cd '%s' && openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=%s-ca -keyout %s-ca.key "
	    "-out %s-ca.pem >/dev/null 2>&1 && "
	    "openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout %s.key -out %s.csr >/dev/null 2>&1 && "
	    "printf 'subjectAltName=IP:127.0.0.1\\n' >%s.ext && "
	    "openssl x509 -req -in %s.csr -CA %s-ca.pem -CAkey %s-ca.key -CAcreateserial -days 2 "
	    "-extfile %s.ext -out %s.pem >/dev/null 2>&1",
	    dir, name, name, name, name, name, name, name, name, name, name, name);
	return system(cmd);
}

static void test_tls_auth(void)
{
	struct sink s;
	struct config cfg;
	void *ctx = NULL;
	char cert[4300], key[4300], *text;
	const char *secret = "s3cr3t-Pa55";

	ok_int(make_certs("good", tmp), 0, "certificates made with openssl");
	ok_int(make_certs("other", tmp), 0, "and another CA");
	snprintf(cert, sizeof cert, "%s/good.pem", tmp);
	snprintf(key, sizeof key, "%s/good.key", tmp);
	sink_start(&s, "tls", "--tls", cert, key, "--auth", "oust:s3cr3t-Pa55", (char *)NULL);
	ok(s.port > 0, "TLS and AUTH sink started");
	base_cfg(&cfg, s.port);
	snprintf(cfg.smtp_starttls, sizeof cfg.smtp_starttls, "required");
	snprintf(cfg.smtp_cafile, sizeof cfg.smtp_cafile, "%s/good-ca.pem", tmp);
	snprintf(cfg.smtp_user, sizeof cfg.smtp_user, "oust");
	snprintf(cfg.smtp_password, sizeof cfg.smtp_password, "%s", secret);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open");
	ok_int(send_one(ctx, "oust@example.net", "alice@example.org", msg1), TRANSPORT_OK,
	    "delivered over STARTTLS with AUTH: %s", why);
	ok_int(send_one(ctx, "oust@example.net", "bob@example.org", msg1), TRANSPORT_OK, "and a second");
	transport_smtp.close(ctx);
	ok_int(connections(&s), 1, "one connection");
	text = first_stored(&s, ".env");
	ok(text != NULL && strstr(text, "\"tls\": true") != NULL && strstr(text, "\"auth\": \"oust\"") != NULL,
	    "the server saw TLS and the login: %s", text);
	free(text);

	/* the password from a file */
	cfg.smtp_password[0] = '\0';
	snprintf(cfg.smtp_password_file, sizeof cfg.smtp_password_file, "%s/pw", tmp);
	t_spew(cfg.smtp_password_file, "s3cr3t-Pa55\nsecond line\n", 24);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open with smtp_password_file");
	ok_int(send_one(ctx, "oust@example.net", "carol@example.org", msg1), TRANSPORT_OK, "delivered: %s", why);
	transport_smtp.close(ctx);
	ok_int(stored(&s), 3, "three stored");
	t_spew(cfg.smtp_password_file, "\nx\n", 3);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_TEMPFAIL, "empty first line");
	ok(strstr(why, "does not start with a password") != NULL, "said: %s", why);
	unlink(cfg.smtp_password_file);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_TEMPFAIL, "missing file");
	ok(strstr(why, "cannot open smtp_password_file") != NULL, "said: %s", why);
	cfg.smtp_password_file[0] = '\0';

	/* a wrong password: refused, and not shown */
	snprintf(cfg.smtp_password, sizeof cfg.smtp_password, "wrong-%s", secret);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open with a wrong password");
	ok_int(send_one(ctx, "oust@example.net", "dave@example.org", msg1), TRANSPORT_UNAVAILABLE,
	    "login refused: unavailable, not the mail's fault");
	ok(strstr(why, secret) == NULL && strstr(why, "wrong-") == NULL, "the password is not in: %s", why);
	transport_smtp.close(ctx);

	/* a certificate from another CA: nothing sent */
	snprintf(cfg.smtp_password, sizeof cfg.smtp_password, "%s", secret);
	snprintf(cfg.smtp_cafile, sizeof cfg.smtp_cafile, "%s/other-ca.pem", tmp);
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open with the wrong CA");
	ok_int(send_one(ctx, "oust@example.net", "erin@example.org", msg1), TRANSPORT_UNAVAILABLE,
	    "certificate refused: unavailable");
	ok(strstr(why, "certificate") != NULL || strstr(why, "SSL") != NULL, "said: %s", why);
	ok(strstr(why, secret) == NULL, "no password in it");
	transport_smtp.close(ctx);

	/* no STARTTLS: the server requires it before AUTH and MAIL */
	snprintf(cfg.smtp_starttls, sizeof cfg.smtp_starttls, "off");
	ok_int(transport_smtp.open(st, &cfg, &ctx, why, sizeof why), TRANSPORT_OK, "open without STARTTLS");
	ok(send_one(ctx, "oust@example.net", "frank@example.org", msg1) != TRANSPORT_OK, "not delivered: %s", why);
	ok(strstr(why, secret) == NULL, "no password in it");
	transport_smtp.close(ctx);
	ok_int(stored(&s), 3, "nothing more stored");
	sink_stop(&s);
}

int main(void)
{
	const char *top = getenv("OUSTPBM_TOP");
	char serr[STORE_ERR_MAX];
	struct config cfg;

	snprintf(sink_py, sizeof sink_py, "%s/tests/smtpd/sink.py", top != NULL ? top : ".");
	tmp = t_home_new();
	config_defaults(&cfg);
	if (store_open(tmp, &cfg, &st, serr, sizeof serr) != STORE_OK) {
		printf("# %s\n", serr);
		return 1;
	}
	test_missing_libcurl();
	test_plain();
	test_slow();
	test_tls_auth();
	store_close(st);
	t_home_free(tmp);
	return t_done();
}
