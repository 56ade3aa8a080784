/* test_outbox: queueing, the commit protocol with the game file, flush, the maildir transport. */
#include "outbox/outbox.h"
#include "outbox/smtp.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "t.h"
#include "t_home.h"

static struct config cfg;
static char err[OUTBOX_ERR_MAX];

static const char reply1[] =
    "From: oust@localhost\r\nTo: alice@example.com\r\nSubject: Oust Board 101 bob\r\n\r\n"
    "x: alice 1/1   o: bob 0/0\r\n\r\nbytes \x01\xff kept\r\n";
static const char reply2[] = "From: oust@localhost\nTo: bob@example.net\nSubject: Oust Board 101 bob\n\nyour turn\n";

struct home {
	char *path;
	struct store *st;
	struct outbox *ob;
};

static void home_open(struct home *h)
{
	char serr[STORE_ERR_MAX];

	h->path = t_home_new();
	if (store_open(h->path, &cfg, &h->st, serr, sizeof serr) != STORE_OK ||
	    outbox_open(h->st, &h->ob, err, sizeof err) != OUTBOX_OK) {
		printf("# cannot open %s: %s %s\n", h->path, serr, err);
		abort();
	}
}

static void home_close(struct home *h)
{
	outbox_close(h->ob);
	store_close(h->st);
	t_home_free(h->path);
}

static int count(struct home *h, const char *dir)
{
	return t_count_entries(t_path(h->path, dir));
}

/* The content of the only file in <home>/<dir>, malloc'ed. */
static char *only_file(struct home *h, const char *dir, size_t *len)
{
	char *name = t_first_entry(t_path(h->path, dir)), *path = NULL, *text;

	if (name == NULL)
		return NULL;
	if (asprintf(&path, "%s/%s/%s", h->path, dir, name) < 0)
		abort();
	text = t_slurp(path, len);
	free(path);
	free(name);
	return text;
}

static void test_open(void)
{
	struct home h;
	struct outbox *ob = NULL;

	home_open(&h);
	ok(count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 0 && count(&h, "outbox/failed") == 0,
	    "outbox/tmp, new, failed created");
	ok_int(outbox_open(h.st, &ob, err, sizeof err), OUTBOX_OK, "opening again is fine");
	outbox_close(ob);
	home_close(&h);

	ok(strcmp(outbox_status_str(OUTBOX_OK), "ok") == 0 &&
	    strcmp(outbox_status_str(OUTBOX_TIMEOUT), outbox_status_str(OUTBOX_TEMPFAIL)) != 0, "status strings");
	ok(outbox_status_temporary(OUTBOX_TIMEOUT) && outbox_status_temporary(OUTBOX_TEMPFAIL) &&
	    outbox_status_temporary(OUTBOX_NO_SPACE) && outbox_status_temporary(OUTBOX_DISK_ERROR) &&
	    !outbox_status_temporary(OUTBOX_BAD_ADDRESS) && !outbox_status_temporary(OUTBOX_IO) &&
	    !outbox_status_temporary(OUTBOX_DENIED) && !outbox_status_temporary(OUTBOX_CONFIG),
	    "temporary statuses");
	ok(transport_find("maildir") == &transport_maildir && transport_find("smtp") == &transport_smtp &&
	    transport_find("sendmail") == NULL, "transport_find");
}

static void test_enqueue_flush(void)
{
	struct home h;
	struct outbox_stats stats;
	char *text, *qfile;
	size_t len;

	home_open(&h);
	ok_int(outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1), OUTBOX_OK,
	    "enqueue a reply");
	ok(count(&h, "outbox/new") == 1 && count(&h, "outbox/tmp") == 0, "queued in outbox/new, tmp empty");
	qfile = only_file(&h, "outbox/new", &len);
	ok(qfile != NULL && strncmp(qfile, "oustpbm-queue 1\nfrom oust@localhost\nrcpt alice@example.com\nsize ", 63) == 0,
	    "queue file starts with its envelope");
	ok(qfile != NULL && len > sizeof reply1 - 1 &&
	    memcmp(qfile + len - (sizeof reply1 - 1), reply1, sizeof reply1 - 1) == 0 &&
	    memcmp(qfile + len - (sizeof reply1 - 1) - 2, "\n\n", 2) == 0, "message after a blank line, exact");
	free(qfile);

	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush");
	ok(stats.delivered == 1 && stats.deferred == 0 && stats.failed == 0, "one delivered");
	ok_int(count(&h, "outbox/new"), 0, "the mail left the outbox");
	ok(count(&h, "mail/alice@example.com/tmp") == 0 && count(&h, "mail/alice@example.com/cur") == 0 &&
	    count(&h, "mail/alice@example.com/new") == 1, "a Maildir with tmp, new, cur; one message in new");
	text = only_file(&h, "mail/alice@example.com/new", &len);
	ok(text != NULL && len == sizeof reply1 - 1 && memcmp(text, reply1, len) == 0,
	    "delivered bytes are exactly the message (no envelope)");
	free(text);
	{
		char *name = t_first_entry(t_path(h.path, "mail/alice@example.com/new"));
		long long secs;
		long usec, pid;
		unsigned long n;
		char host[80];

		ok(name != NULL && sscanf(name, "%lld.M%ldP%ldQ%lu.%79s", &secs, &usec, &pid, &n, host) == 5 &&
		    pid == (long)getpid(), "Maildir unique name time.M<usec>P<pid>Q<n>.<host>: %s", name);
		free(name);
	}

	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush again");
	ok(stats.delivered == 0, "nothing to deliver the second time");
	ok_int(count(&h, "mail/alice@example.com/new"), 1, "flush twice delivers once");

	ok_int(outbox_enqueue(h.ob, "", "bob@example.net", reply2, sizeof reply2 - 1), OUTBOX_OK,
	    "enqueue with the null sender");
	ok_int(outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", reply2, sizeof reply2 - 1), OUTBOX_OK,
	    "enqueue a second mail for alice");
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush two");
	ok(stats.delivered == 2 && count(&h, "mail/alice@example.com/new") == 2 &&
	    count(&h, "mail/bob@example.net/new") == 1, "each recipient has its own Maildir");
	home_close(&h);
}

static void test_bad_addresses(void)
{
	struct home h;
	struct outbox_stats stats;
	static const char *const bad[] = { "../etc@example.com", "a b@example.com", "alice@example.com\r\nRCPT TO:<x@y>",
		".alice@example.com", "", "alice", "alice@", "alice@exa_mple.com", "al\"ice@example.com",
		"alice@example.com/../../x" };
	char long_local[80], *text;
	const char *why;
	size_t i;

	home_open(&h);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char shown[80];
		size_t k;

		/* CR/LF in a test name would break its output line */
		for (k = 0; bad[i][k] != '\0' && k + 1 < sizeof shown; k++)
			shown[k] = bad[i][k] == '\r' ? 'r' : bad[i][k] == '\n' ? 'n' : bad[i][k];
		shown[k] = '\0';
		ok_int(outbox_enqueue(h.ob, "oust@localhost", bad[i], reply2, sizeof reply2 - 1), OUTBOX_BAD_ADDRESS,
		    "recipient '%s' refused", shown);
	}
	ok(strncmp(outbox_error(h.ob), "recipient address ", 18) == 0, "message: %s", outbox_error(h.ob));
	memset(long_local, 'a', 65);
	snprintf(long_local + 65, sizeof long_local - 65, "@example.com");
	ok_int(outbox_enqueue(h.ob, "oust@localhost", long_local, reply2, sizeof reply2 - 1), OUTBOX_BAD_ADDRESS,
	    "65-character local part refused");
	ok_int(outbox_enqueue(h.ob, "oust@local host", "bob@example.net", reply2, sizeof reply2 - 1),
	    OUTBOX_BAD_ADDRESS, "bad sender refused");
	ok(count(&h, "outbox/new") == 0 && count(&h, "outbox/tmp") == 0, "nothing queued for a bad address");
	ok_int(outbox_enqueue(h.ob, "oust@localhost", "bob@example.net", reply2, (size_t)OUTBOX_MESSAGE_MAX + 1),
	    OUTBOX_TOO_BIG, "oversized message refused");

	ok(!transport_maildir_rcpt_ok("a/b@example.com", &why) && strcmp(why, "contains '/'") == 0,
	    "maildir: '/' cannot become a directory name");
	ok(transport_maildir_rcpt_ok("a.b+tag@example.com", &why), "maildir: ordinary address is fine");

	/* '/' is valid in an address, so it is queued; the maildir transport refuses it for good */
	ok_int(outbox_enqueue(h.ob, "oust@localhost", "a/b@example.com", reply2, sizeof reply2 - 1), OUTBOX_OK,
	    "address with '/' queued");
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush it");
	ok(stats.failed == 1 && stats.delivered == 0, "refused by the maildir transport");
	ok(count(&h, "outbox/failed") == 1 && count(&h, "outbox/new") == 0, "moved to outbox/failed");
	ok(access(t_path(h.path, "mail/a"), F_OK) != 0, "no directory made from it");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "rcpt=a/b@example.com refused, moved to failed/: recipient address contains '/'") != NULL,
	    "the refusal is logged with its reason");
	free(text);

	{
		struct transport_envelope env = { "1.M1P1Q1.h", "", "../x@example.com" };
		char whybuf[TRANSPORT_WHY_MAX];
		void *ctx = NULL;

		ok_int(transport_maildir.open(h.st, &cfg, &ctx, whybuf, sizeof whybuf), TRANSPORT_OK, "open maildir");
		ok_int(transport_maildir.deliver(ctx, &env, "x", 1, whybuf, sizeof whybuf), TRANSPORT_PERMFAIL,
		    "maildir deliver refuses '../x@example.com'");
		ok_str(whybuf, "recipient address has a local part starting or ending with '.'", "why");
		env.rcpt = "x@example.com";
		env.id = "../../escape";
		ok_int(transport_maildir.deliver(ctx, &env, "x", 1, whybuf, sizeof whybuf), TRANSPORT_PERMFAIL,
		    "maildir deliver refuses a queue id with '/'");
		env.id = "1.M1P1Q1.h";
		ok_int(transport_maildir.deliver(ctx, &env, "one", 3, whybuf, sizeof whybuf), TRANSPORT_OK, "deliver");
		ok_int(count(&h, "mail/x@example.com/new"), 0, "staged: nothing in new/ before finish");
		ok_int(transport_maildir.finish(ctx, whybuf, sizeof whybuf), TRANSPORT_OK, "finish");
		ok_int(count(&h, "mail/x@example.com/new"), 1, "then the message is in new/");
		ok_int(transport_maildir.deliver(ctx, &env, "two", 3, whybuf, sizeof whybuf), TRANSPORT_OK,
		    "deliver the same queue id again");
		ok_int(transport_maildir.finish(ctx, whybuf, sizeof whybuf), TRANSPORT_OK, "finish again");
		ok_int(count(&h, "mail/x@example.com/new"), 1, "the same queue id gives one message, not two");
		ok_int(count(&h, "mail/x@example.com/tmp"), 0, "nothing left in tmp/");
		text = t_slurp(t_path(h.path, "mail/x@example.com/new/1.M1P1Q1.h"), NULL);
		ok_str(text, "two", "named by the queue id");
		free(text);
		env.id = "2.M1P1Q1.h";
		ok_int(transport_maildir.deliver(ctx, &env, "three", 5, whybuf, sizeof whybuf), TRANSPORT_OK,
		    "deliver a second mail");
		ok_int(count(&h, "mail/x@example.com/tmp"), 1, "staged in tmp/");
		transport_maildir.close(ctx);
		ok_int(count(&h, "mail/x@example.com/tmp"), 0, "closed without finish: its temp file is removed");
		ok_int(count(&h, "mail/x@example.com/new"), 1, "and it was not delivered");
	}
	home_close(&h);
}

/* A transport for tests: records what it gets, answers as told. */
struct fake {
	int opens, closes, delivers;
	enum transport_result open_result, result;
	char rcpts[256];
	char from[64], id[128];
	char subjects[512];	/* the Subject of each mail attempted, ';' after each */
};
static struct fake fake;

static enum transport_result fake_open(struct store *st, const struct config *c, void **ctx, char *why, size_t whylen)
{
	fake.opens++;
	*ctx = &fake;
	snprintf(why, whylen, "fake server down");
	return fake.open_result;
}

static enum transport_result fake_deliver(void *ctx, const struct transport_envelope *env, const char *msg,
    size_t len, char *why, size_t whylen)
{
	struct fake *f = ctx;

	f->delivers++;
	strncat(f->rcpts, env->rcpt, sizeof f->rcpts - strlen(f->rcpts) - 2);
	strcat(f->rcpts, " ");
	snprintf(f->from, sizeof f->from, "%s", env->from);
	snprintf(f->id, sizeof f->id, "%s", env->id);
	{
		const char *sub = strstr(msg, "Subject: "), *eol = sub != NULL ? strchr(sub, '\n') : NULL;
		size_t have = strlen(f->subjects);

		if (eol != NULL && have + (size_t)(eol - sub) + 2 < sizeof f->subjects)
			snprintf(f->subjects + have, sizeof f->subjects - have, "%.*s;", (int)(eol - sub - 9), sub + 9);
	}
	(void)len;
	snprintf(why, whylen, f->result == TRANSPORT_TEMPFAIL ? "451 try later" : "550 no such user");
	return f->result;
}

static void fake_close(void *ctx)
{
	((struct fake *)ctx)->closes++;
}

static const struct transport_ops fake_ops = {
	.name = "fake", .open = fake_open, .deliver = fake_deliver, .close = fake_close,
};

/* Move the test clock past any backoff. */
static void later(void)
{
	cfg.test_time += OUTBOX_BACKOFF_MAX + 1;
}

static void test_transport_results(void)
{
	struct home h;
	struct outbox_stats stats;
	char *text;

	home_open(&h);
	memset(&fake, 0, sizeof fake);
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush an empty outbox");
	ok(fake.opens == 0 && fake.closes == 0, "the transport is not opened for nothing");

	outbox_enqueue(h.ob, "oust@localhost", "first@example.com", reply2, sizeof reply2 - 1);
	outbox_enqueue(h.ob, "oust@localhost", "second@example.com", reply2, sizeof reply2 - 1);
	outbox_enqueue(h.ob, "oust@localhost", "third@example.com", reply2, sizeof reply2 - 1);
	fake.result = TRANSPORT_TEMPFAIL;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush with temporary failures");
	ok(stats.deferred == 3 && stats.delivered == 0 && count(&h, "outbox/new") == 3, "all three kept");
	ok(fake.opens == 1 && fake.closes == 1 && fake.delivers == 3, "opened once, closed once, three attempts");
	ok_str(fake.rcpts, "first@example.com second@example.com third@example.com ", "in the order queued");
	ok_str(fake.from, "oust@localhost", "envelope sender passed");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "rcpt=first@example.com deferred: 451 try later") != NULL, "deferral logged");
	free(text);

	memset(&fake, 0, sizeof fake);
	fake.open_result = TRANSPORT_TEMPFAIL;
	later();
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush while the transport cannot open");
	ok(stats.deferred == 3 && fake.delivers == 0 && fake.closes == 0 && count(&h, "outbox/new") == 3,
	    "all kept, nothing attempted, not closed");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "transport not available: fake server down") != NULL, "logged");
	free(text);

	memset(&fake, 0, sizeof fake);
	fake.result = TRANSPORT_PERMFAIL;
	later();
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush with permanent failures");
	ok(stats.failed == 3 && count(&h, "outbox/failed") == 3 && count(&h, "outbox/new") == 0,
	    "moved to outbox/failed");

	outbox_enqueue(h.ob, "oust@localhost", "fourth@example.com", reply2, sizeof reply2 - 1);
	memset(&fake, 0, sizeof fake);
	fake.result = TRANSPORT_OK;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush succeeding");
	ok(stats.delivered == 1 && count(&h, "outbox/new") == 0, "delivered and removed");
	ok(fake.id[0] >= '1' && fake.id[0] <= '9' && strchr(fake.id, '/') == NULL, "queue id passed: %s", fake.id);

	/* the maildir transport defers when it cannot write, and the mail waits */
	outbox_enqueue(h.ob, "oust@localhost", "carol@example.com", reply2, sizeof reply2 - 1);
	mkdir(t_path(h.path, "mail"), 0700);
	t_spew(t_path(h.path, "mail/carol@example.com"), "in the way", 10);
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush into a blocked Maildir");
	ok(stats.deferred == 1 && count(&h, "outbox/new") == 1, "deferred, still queued");
	remove(t_path(h.path, "mail/carol@example.com"));
	later();
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush once it is clear");
	ok(stats.delivered == 1 && count(&h, "mail/carol@example.com/new") == 1, "delivered now");

	/* damaged queue files go to failed/ */
	t_spew(t_path(h.path, "outbox/new/1.M1P1Q1.host"), "not a queue file\n", 17);
	t_spew(t_path(h.path, "outbox/new/1.M1P1Q2.host"), "oustpbm-queue 1\nfrom \nrcpt a@b.c\nsize 99\n\nshort", 47);
	t_spew(t_path(h.path, "outbox/new/.hidden"), "ignored", 7);
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush damaged files");
	ok(stats.failed == 2 && count(&h, "outbox/failed") == 5, "both moved to failed/");
	ok(access(t_path(h.path, "outbox/new/.hidden"), F_OK) == 0, "dot files are not ours and stay");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "damaged queue file, moved to failed/: message size does not match") != NULL,
	    "damage logged");
	free(text);
	home_close(&h);
}

/* The queue file of new/ as text (only one there). */
static char *queued(struct home *h)
{
	return only_file(h, "outbox/new", NULL);
}

static void test_retry(void)
{
	struct home h;
	struct outbox_stats stats;
	struct outbox_entry *e = NULL;
	size_t n = 0;
	char *text, want[200];
	time_t t0;
	int i;

	home_open(&h);
	later();
	t0 = cfg.test_time;
	memset(&fake, 0, sizeof fake);
	outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", reply2, sizeof reply2 - 1);
	ok_int(outbox_list(h.ob, &e, &n), OUTBOX_OK, "list");
	ok(n == 1 && strcmp(e[0].rcpt, "alice@example.com") == 0 && strcmp(e[0].subject, "Oust Board 101 bob") == 0 &&
	    e[0].attempts == 0 && e[0].next == 0 && e[0].error[0] == '\0' && !e[0].damaged,
	    "a new mail: recipient, subject, no attempt yet");
	free(e);

	fake.result = TRANSPORT_TEMPFAIL;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush, 451");
	ok(stats.deferred == 1 && fake.delivers == 1, "deferred");
	text = queued(&h);
	snprintf(want, sizeof want, "size %zu\nattempts 1\nfirst %lld\nnext %lld\nerror 451 try later\n\n%s",
	    sizeof reply2 - 1, (long long)t0, (long long)t0 + 60, reply2);
	ok(text != NULL && strstr(text, want) != NULL, "attempt, first, next (1 minute), error recorded");
	free(text);

	cfg.test_time = t0 + 59;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush before the next attempt is due");
	ok(stats.waiting == 1 && stats.deferred == 0 && fake.delivers == 1 && fake.opens == 1,
	    "not attempted, the transport not even opened");
	cfg.test_time = t0 + 60;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(fake.delivers == 2 && stats.deferred == 1, "attempted when due");
	text = queued(&h);
	snprintf(want, sizeof want, "attempts 2\nfirst %lld\nnext %lld\n", (long long)t0, (long long)t0 + 60 + 120);
	ok(text != NULL && strstr(text, want) != NULL, "the wait doubles");
	free(text);
	for (i = 0; i < 8; i++) {
		later();
		outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	}
	ok_int(outbox_list(h.ob, &e, &n), OUTBOX_OK, "list");
	ok(n == 1 && e[0].attempts == 10 && e[0].next == (long long)cfg.test_time + 3600 &&
	    strcmp(e[0].error, "451 try later") == 0, "ten attempts, the wait capped at one hour");
	free(e);

	/* after retry_days from the first failure: failed/ */
	cfg.test_time = t0 + (time_t)cfg.retry_days * 86400 - 1;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.deferred == 1 && count(&h, "outbox/new") == 1, "still retried just before retry_days");
	cfg.test_time = t0 + (time_t)cfg.retry_days * 86400 + OUTBOX_BACKOFF_MAX;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.failed == 1 && count(&h, "outbox/new") == 0 && count(&h, "outbox/failed") == 1,
	    "moved to failed/ after retry_days");
	text = only_file(&h, "outbox/failed", NULL);
	ok(text != NULL && strstr(text, "attempts 12\n") != NULL && strstr(text, "error 451 try later\n") != NULL,
	    "with its attempts and last error");
	free(text);
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "still failing after 12 attempts in 5 days, moved to failed/: 451 try later"),
	    "logged");
	ok(text != NULL && strstr(text, "deferred: 451 try later (attempt 2, next in 120 s)") != NULL,
	    "each deferral logged with its attempt");
	free(text);

	/* a permanent failure keeps its reason in failed/ */
	later();
	outbox_enqueue(h.ob, "oust@localhost", "bob@example.net", reply2, sizeof reply2 - 1);
	fake.result = TRANSPORT_PERMFAIL;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.failed == 1 && count(&h, "outbox/failed") == 2, "550: failed/");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "rcpt=bob@example.net refused, moved to failed/: 550 no such user") != NULL,
	    "logged");
	free(text);

	/* unavailable: the run ends after the first mail */
	memset(&fake, 0, sizeof fake);
	outbox_enqueue(h.ob, "oust@localhost", "a1@example.com", reply2, sizeof reply2 - 1);
	outbox_enqueue(h.ob, "oust@localhost", "a2@example.com", reply2, sizeof reply2 - 1);
	outbox_enqueue(h.ob, "oust@localhost", "a3@example.com", reply2, sizeof reply2 - 1);
	fake.result = TRANSPORT_UNAVAILABLE;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush with the server unavailable");
	ok(fake.delivers == 1 && stats.deferred == 3 && fake.closes == 1, "one attempt, all three kept");
	ok_int(outbox_list(h.ob, &e, &n), OUTBOX_OK, "list");
	ok(n == 3 && e[0].attempts == 1 && e[1].attempts == 0 && e[2].attempts == 0, "only the first counts one");
	free(e);

	/* delivered: a copy in sent/, pruned after sent_keep_days */
	fake.result = TRANSPORT_OK;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush with the server back");
	ok(stats.delivered == 2 && stats.waiting == 1 && count(&h, "outbox/sent") == 2, "two sent, copies in sent/");
	later();
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.delivered == 1 && count(&h, "outbox/sent") == 3 && count(&h, "outbox/new") == 0, "the third too");
	text = only_file(&h, "outbox/sent", NULL);
	ok(text != NULL && strncmp(text, "oustpbm-queue 1\n", 16) == 0, "the copy is the queue file");
	free(text);
	cfg.test_time += (time_t)cfg.sent_keep_days * 86400 - OUTBOX_BACKOFF_MAX - 2;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.pruned == 0 && count(&h, "outbox/sent") == 3, "kept for sent_keep_days");
	cfg.test_time += OUTBOX_BACKOFF_MAX + 2;
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.pruned == 3 && count(&h, "outbox/sent") == 0, "then pruned");
	{
		/* a pass at most once per OUTBOX_PRUNE_EVERY: an old copy waits for the next */
		FILE *f = fopen(t_path(h.path, "outbox/sent/1.M1P1Q1.old"), "w");
		struct timespec ts[2] = { { .tv_sec = 1 }, { .tv_sec = 1 } };

		if (f == NULL)
			abort();
		fclose(f);
		utimensat(AT_FDCWD, t_path(h.path, "outbox/sent/1.M1P1Q1.old"), ts, 0);
		cfg.test_time += OUTBOX_PRUNE_EVERY - 10;
		outbox_flush(h.ob, &fake_ops, &cfg, &stats);
		ok(stats.pruned == 0 && count(&h, "outbox/sent") == 1, "within the hour of the last pass: not looked at");
		cfg.test_time += 10;
		outbox_flush(h.ob, &fake_ops, &cfg, &stats);
		ok(stats.pruned == 1 && count(&h, "outbox/sent") == 0, "an hour after it: pruned");
	}
	cfg.sent_keep_days = 0;
	outbox_enqueue(h.ob, "oust@localhost", "a4@example.com", reply2, sizeof reply2 - 1);
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.delivered == 1 && count(&h, "outbox/sent") == 0 && count(&h, "outbox/new") == 0,
	    "sent_keep_days 0: no copy");
	cfg.sent_keep_days = 7;

	/* damaged retry lines */
	{
		static const char q3[] = "oustpbm-queue 1\nfrom \nrcpt a@b.c\nsize 1\nattempts x\n\nx";
		static const char q4[] = "oustpbm-queue 1\nfrom \nrcpt a@b.c\nsize 1\nnext 99999999999999\n\nx";

		t_spew(t_path(h.path, "outbox/new/1.M1P1Q3.host"), q3, sizeof q3 - 1);
		t_spew(t_path(h.path, "outbox/new/1.M1P1Q4.host"), q4, sizeof q4 - 1);
	}
	ok_int(outbox_list(h.ob, &e, &n), OUTBOX_OK, "list damaged files");
	ok(n == 2 && e[0].damaged && strcmp(e[0].error, "bad retry line") == 0 && e[1].damaged,
	    "shown as damaged: %s", n > 0 ? e[0].error : "");
	free(e);
	outbox_flush(h.ob, &fake_ops, &cfg, &stats);
	ok(stats.failed == 2 && count(&h, "outbox/new") == 0, "moved to failed/");
	home_close(&h);
}

static void test_commit_protocol(void)
{
	struct home h;
	struct outbox_batch *b = NULL;
	struct outbox_stats stats;
	struct store_lock lock = STORE_LOCK_INIT;
	bool committed;
	char *text;

	home_open(&h);
	ok_int(store_board_write(h.st, 101, "turn 1\n", 7), STORE_OK, "game 101 at turn 1");

	/* the normal path: replies in tmp/, game committed, replies to new/ */
	store_lock_board(h.st, 101, &lock);
	memset(&stats, 0, sizeof stats);
	ok_int(outbox_recover(h.ob, 101, &stats), OUTBOX_OK, "recover with nothing to do");
	ok(stats.released == 0 && stats.discarded == 0, "nothing settled");
	ok_int(outbox_batch_new(h.ob, 101, "turn 2\n", 7, &b), OUTBOX_OK, "batch for board 101");
	ok_int(outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1), OUTBOX_OK, "reply 1");
	ok_int(outbox_batch_add(b, "oust@localhost", "bob@example.net", reply2, sizeof reply2 - 1), OUTBOX_OK, "reply 2");
	ok(count(&h, "outbox/tmp") == 2 && count(&h, "outbox/new") == 0, "replies wait in tmp/ before the commit");
	text = only_file(&h, "outbox/tmp", NULL);
	ok(text != NULL && strstr(text, "\nboard 101\ncommit 7 ") != NULL, "tagged with the board and the game hash");
	free(text);
	ok_int(store_board_write(h.st, 101, "turn 2\n", 7), STORE_OK, "commit the game");
	ok_int(outbox_batch_commit(b), OUTBOX_OK, "commit the replies");
	outbox_batch_free(b);
	store_unlock(&lock);
	ok(count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 2, "both replies queued");

	/* crash after the game commit: recovery sends the replies */
	store_lock_board(h.st, 101, &lock);
	outbox_batch_new(h.ob, 101, "turn 3\n", 7, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	store_board_write(h.st, 101, "turn 3\n", 7);
	outbox_batch_free(b);	/* the process dies here */
	store_unlock(&lock);
	ok_int(count(&h, "outbox/tmp"), 1, "crash after the game commit: reply left in tmp/");
	store_lock_board(h.st, 101, &lock);
	memset(&stats, 0, sizeof stats);
	ok_int(outbox_recover(h.ob, 101, &stats), OUTBOX_OK, "next holder of the board lock recovers");
	store_unlock(&lock);
	ok(stats.released == 1 && stats.discarded == 0, "the reply of the committed move is released");
	ok(count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 3, "now in new/");

	/* crash before the game commit: recovery drops the replies */
	store_lock_board(h.st, 101, &lock);
	outbox_batch_new(h.ob, 101, "turn 4\n", 7, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	outbox_batch_free(b);	/* dies before store_board_write */
	store_unlock(&lock);
	ok_int(count(&h, "outbox/tmp"), 1, "crash before the game commit: reply left in tmp/");
	store_lock_board(h.st, 101, &lock);
	memset(&stats, 0, sizeof stats);
	ok_int(outbox_recover(h.ob, 101, &stats), OUTBOX_OK, "recover");
	store_unlock(&lock);
	ok(stats.released == 0 && stats.discarded == 1, "the reply of the move that did not happen is deleted");
	ok(count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 3, "nothing new queued");

	/* a new board that was never written */
	outbox_batch_new(h.ob, 102, "new game\n", 9, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	outbox_batch_free(b);
	memset(&stats, 0, sizeof stats);
	ok_int(outbox_recover(h.ob, 101, &stats), OUTBOX_OK, "recover board 101 only");
	ok(stats.released == 0 && stats.discarded == 0 && count(&h, "outbox/tmp") == 1, "board 102's leftover untouched");
	ok_int(outbox_recover(h.ob, 102, &stats), OUTBOX_OK, "recover board 102");
	ok(stats.discarded == 1 && count(&h, "outbox/tmp") == 0, "no game file 102: its replies are deleted");
	ok_int(outbox_recover(h.ob, 100, &stats), OUTBOX_IO, "recover refuses a bad board number");

	/* abort: decided by the game file */
	outbox_batch_new(h.ob, 101, "turn 5\n", 7, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	ok_int(outbox_batch_abort(b, &committed), OUTBOX_OK, "abort after a failed game write");
	ok(!committed && count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 3, "replies deleted");
	outbox_batch_free(b);
	outbox_batch_new(h.ob, 101, "turn 5\n", 7, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	store_board_write(h.st, 101, "turn 5\n", 7);
	ok_int(outbox_batch_abort(b, &committed), OUTBOX_OK, "abort although the game was written");
	ok(committed && count(&h, "outbox/tmp") == 0 && count(&h, "outbox/new") == 4, "the replies of the move that stands are sent");
	outbox_batch_free(b);

	ok_int(outbox_batch_new(h.ob, 100, "x", 1, &b), OUTBOX_IO, "batch for a bad board number refused");
	ok(b == NULL, "no batch");
	ok_int(outbox_batch_new(h.ob, 101, "x", (size_t)STORE_BOARD_FILE_MAX + 1, &b), OUTBOX_TOO_BIG,
	    "batch for an oversized game refused");

	/* flush settles leftovers of boards nobody holds, and leaves the others */
	outbox_batch_new(h.ob, 101, "turn 6\n", 7, &b);
	outbox_batch_add(b, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	store_board_write(h.st, 101, "turn 6\n", 7);
	outbox_batch_free(b);
	{
		int release;
		pid_t child = t_hold_lock(t_path(h.path, "games/101.lock"), &release);

		ok(child > 0, "another process holds board 101");
		ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush meanwhile");
		ok(stats.released == 0 && stats.delivered == 4 && count(&h, "outbox/tmp") == 1,
		    "the held board's leftover waits; the queued four are delivered");
		t_release(child, release);
	}
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush once the board is free");
	ok(stats.released == 1 && stats.delivered == 1 && count(&h, "outbox/tmp") == 0, "released and delivered");
	ok_int(count(&h, "mail/alice@example.com/new"), 4, "alice got turns 2, 3, 5, 6 and nothing for 4");

	/* untagged leftovers: kept while young, deleted after 36 hours */
	t_spew(t_path(h.path, "outbox/tmp/1000000000.M1P1Q1.host"), "oustpbm-queue 1\n", 16);
	{
		char *young = NULL;

		if (asprintf(&young, "outbox/tmp/%lld.M1P1Q2.host", (long long)time(NULL)) < 0)
			abort();
		t_spew(t_path(h.path, young), "partial", 7);
		free(young);
	}
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush with untagged leftovers");
	ok(stats.discarded == 1 && count(&h, "outbox/tmp") == 1, "the old one deleted, the young one kept");
	home_close(&h);
}

static void test_flush_lock(void)
{
	struct home h;
	struct outbox_stats stats;
	int release;
	pid_t child;
	long t0;

	cfg.lock_timeout_ms = 200;
	home_open(&h);
	outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", reply2, sizeof reply2 - 1);
	child = t_hold_lock(t_path(h.path, "outbox/flush.lock"), &release);
	ok(child > 0, "another flush holds outbox/flush.lock");
	t0 = t_ms();
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_TIMEOUT, "a second flush times out");
	ok(t_ms() - t0 < 1500, "within the bound");
	ok(count(&h, "outbox/new") == 1 && count(&h, "mail") == -1, "and delivers nothing");
	t_release(child, release);
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush after the other ended");
	ok_int(stats.delivered, 1, "delivered once");
	home_close(&h);
	cfg.lock_timeout_ms = 10000;
}

/*
 * The maildir transport stages a run's messages and completes them together
 * (transport.h: finish): more than TRANSPORT_BATCH_MAX of them, and a finish
 * that fails, which leaves every staged mail queued for the next attempt.
 */
static void test_maildir_batches(void)
{
	struct home h;
	struct outbox_stats stats;
	char *text;
	int i, n = TRANSPORT_BATCH_MAX * 2 + 3;
	FILE *f;

	home_open(&h);
	for (i = 0; i < n; i++)
		outbox_enqueue(h.ob, "oust@localhost", i % 2 ? "bob@example.net" : "alice@example.com", reply2,
		    sizeof reply2 - 1);
	ok_int(count(&h, "outbox/new"), n, "%d mails queued", n);
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush them");
	ok(stats.delivered == (unsigned)n && stats.deferred == 0, "all delivered, in three batches (%u)",
	    stats.delivered);
	ok(count(&h, "mail/alice@example.com/new") + count(&h, "mail/bob@example.net/new") == n &&
	    count(&h, "mail/alice@example.com/tmp") + count(&h, "mail/bob@example.net/tmp") == 0,
	    "every message in new/, none left in tmp/");
	ok_int(count(&h, "outbox/new"), 0, "the outbox is empty");

	/* carol's new/ is a file: her message is staged, but its rename at finish fails */
	mkdir(t_path(h.path, "mail/carol@example.org"), 0700);
	mkdir(t_path(h.path, "mail/carol@example.org/tmp"), 0700);
	mkdir(t_path(h.path, "mail/carol@example.org/cur"), 0700);
	f = fopen(t_path(h.path, "mail/carol@example.org/new"), "w");
	if (f == NULL)
		abort();
	fclose(f);
	outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", reply1, sizeof reply1 - 1);
	outbox_enqueue(h.ob, "oust@localhost", "carol@example.org", reply2, sizeof reply2 - 1);
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush with a finish that fails");
	ok(stats.delivered == 0 && stats.deferred == 2, "nothing counts as delivered: both deferred (%u, %u)",
	    stats.delivered, stats.deferred);
	ok_int(count(&h, "outbox/new"), 2, "both still queued");
	ok_int(count(&h, "mail/carol@example.org/tmp"), 0, "no temp file left behind");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "rcpt=carol@example.org deferred: cannot rename to") != NULL &&
	    strstr(text, "rcpt=alice@example.com deferred: cannot rename to") != NULL,
	    "each is logged as deferred with the error");
	free(text);
	unlink(t_path(h.path, "mail/carol@example.org/new"));
	mkdir(t_path(h.path, "mail/carol@example.org/new"), 0700);
	cfg.test_time += 3600;
	ok_int(outbox_flush(h.ob, &transport_maildir, &cfg, &stats), OUTBOX_OK, "flush after the repair");
	ok(stats.delivered == 2 && count(&h, "outbox/new") == 0, "both delivered");
	ok_int(count(&h, "mail/carol@example.org/new"), 1, "carol has her message");
	cfg.test_time -= 3600;
	home_close(&h);
}

/* One committed move of board: a reply to rcpt with this subject. */
static void commit_reply(struct home *h, long board, int turn, const char *rcpt, const char *subject)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct outbox_batch *b = NULL;
	char game[32], msg[200];

	snprintf(game, sizeof game, "turn %d\n", turn);
	snprintf(msg, sizeof msg, "From: oust@localhost\nTo: %s\nSubject: %s\n\nbody\n", rcpt, subject);
	store_lock_board(h->st, board, &lock);
	if (outbox_batch_new(h->ob, board, game, strlen(game), &b) != OUTBOX_OK ||
	    outbox_batch_add(b, "oust@localhost", rcpt, msg, strlen(msg)) != OUTBOX_OK ||
	    store_board_write(h->st, board, game, strlen(game)) != STORE_OK || outbox_batch_commit(b) != OUTBOX_OK)
		ok(0, "commit %s", subject);
	outbox_batch_free(b);
	store_unlock(&lock);
}

/* issue 13: a board's replies to one address leave in commit order, even after an outage */
static void test_order(void)
{
	struct home h;
	struct outbox_stats stats;
	char *text;
	time_t t0;

	home_open(&h);
	later();
	t0 = cfg.test_time;
	memset(&fake, 0, sizeof fake);
	commit_reply(&h, 101, 2, "alice@example.com", "A2");
	commit_reply(&h, 101, 2, "bob@example.net", "B2");
	fake.result = TRANSPORT_TEMPFAIL;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "relay down: flush");
	ok(stats.deferred == 2, "both replies deferred, next attempt in a minute");

	/* the relay is back; a later move's reply arrives while the first ones back off */
	commit_reply(&h, 101, 3, "alice@example.com", "A3");
	commit_reply(&h, 102, 2, "alice@example.com", "other board");
	outbox_enqueue(h.ob, "oust@localhost", "alice@example.com",
	    "From: oust@localhost\nSubject: help\n\nhelp\n", 40);
	memset(&fake, 0, sizeof fake);
	fake.result = TRANSPORT_OK;
	cfg.test_time = t0 + 30;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush while the first ones back off");
	ok_str(fake.subjects, "other board;help;", "A3 waits for A2 (same board, same address); the others go");
	ok(stats.waiting == 3 && stats.delivered == 2, "three waiting, two sent");

	memset(&fake, 0, sizeof fake);
	cfg.test_time = t0 + 60;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush when they are due");
	ok_str(fake.subjects, "A2;B2;A3;", "in commit order");
	text = t_slurp(t_path(h.path, "log"), NULL);
	ok(text != NULL && strstr(text, "rcpt=alice@example.com delivered: after 1 failed attempt since ") != NULL &&
	    strstr(text, "rcpt=bob@example.net delivered: after 1 failed attempt since ") != NULL,
	    "the final delivery of each deferred reply is logged");
	{
		const char *p = text;
		int k = 0;

		while (p != NULL && (p = strstr(p, " delivered: ")) != NULL)
			k++, p++;
		ok_int(k, 2, "... and only those (A3 waited but never failed)");
	}
	free(text);

	/* a deferral within a run holds the later reply of the same pair in that run */
	commit_reply(&h, 101, 4, "alice@example.com", "A4");
	commit_reply(&h, 101, 5, "alice@example.com", "A5");
	commit_reply(&h, 101, 5, "bob@example.net", "B5");
	memset(&fake, 0, sizeof fake);
	fake.result = TRANSPORT_TEMPFAIL;
	ok_int(outbox_flush(h.ob, &fake_ops, &cfg, &stats), OUTBOX_OK, "flush, 451 for each");
	ok_str(fake.subjects, "A4;B5;", "A5 not tried after A4 was deferred");
	home_close(&h);
}

/*
 * A reply queued on a full disk (a write past RLIMIT_FSIZE: EFBIG, SIGXFSZ
 * ignored as main does) fails with OUTBOX_NO_SPACE, carried up from the
 * store's STORE_NO_SPACE by value: temporary, the admin told of the disk.
 */
static void test_no_space(void)
{
	struct home h;
	struct rlimit old, small;
	static char big[64 * 1024];
	enum outbox_status os;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	size_t i;

	for (i = 0; i < sizeof big; i++)
		big[i] = i % 64 == 63 ? '\n' : 'x';
	memcpy(big, "Subject: x\n\n", 13);
	home_open(&h);
	if (getrlimit(RLIMIT_FSIZE, &old) != 0) {
		ok(0, "getrlimit: %s", strerror(errno));
		goto out;
	}
	small = old;
	small.rlim_cur = 4096;
	if (setrlimit(RLIMIT_FSIZE, &small) != 0) {
		ok(0, "setrlimit: %s", strerror(errno));
		goto out;
	}
	os = outbox_enqueue(h.ob, "oust@localhost", "alice@example.com", big, sizeof big);
	ok(setrlimit(RLIMIT_FSIZE, &old) == 0, "limit restored");
	ok_int(os, OUTBOX_NO_SPACE, "a reply queued past the file size limit: OUTBOX_NO_SPACE");
	ok(outbox_status_temporary(os), "... temporary");
	ok_int(outbox_store_status(os), STORE_NO_SPACE, "... from the store's STORE_NO_SPACE");
	ok_int(outbox_errno(h.ob), EFBIG, "... its errno EFBIG kept");
	ok(count(&h, "outbox/new") == 0, "... nothing queued");
out:
	signal(SIGXFSZ, was);
	home_close(&h);
}

int main(void)
{
	config_defaults(&cfg);
	cfg.test_time_set = true;
	cfg.test_time = time(NULL);
	test_open();
	test_enqueue_flush();
	test_bad_addresses();
	test_transport_results();
	test_retry();
	test_commit_protocol();
	test_flush_lock();
	test_maildir_batches();
	test_order();
	test_no_space();
	return t_done();
}
