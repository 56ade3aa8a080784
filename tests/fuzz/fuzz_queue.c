/*
 * libFuzzer harness: the queue-file parser (outbox.h), through the public
 * calls that read queue files.  The input is written as one file of
 * outbox/new/ in a scratch home; outbox_list() parses it, then a flush
 * whose transport defers every mail rewrites its retry lines.  What the
 * flush rewrote must parse again (listed, not damaged, same recipient),
 * and a file the first listing called damaged must have gone to failed/.
 */
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/mailaddr.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/store.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define QUEUE_ID "1700000000.M1P1Q1.fuzz"

static char home[64];
static struct config cfg;

static void cleanup(void);

static enum transport_result fz_open(struct store *st, const struct config *c, void **ctx, char *why, size_t n)
{
	(void)st;
	(void)c;
	(void)why;
	(void)n;
	*ctx = NULL;
	return TRANSPORT_OK;
}

#define FZ_REPLY "451-4.3.0 not now,\n451 4.3.0 \"later\""

static enum transport_result fz_deliver(void *ctx, const struct transport_envelope *env, const char *msg,
    size_t len, char *why, size_t n)
{
	const char *bad;

	(void)ctx;
	(void)msg;
	(void)len;
	/* only checked envelopes reach a transport */
	if (!mailaddr_ok(env->rcpt, &bad) || (env->from[0] != '\0' && !mailaddr_ok(env->from, &bad)))
		abort();
	/* the server's reply after the why line, as the smtp transport gives it */
	snprintf(why, n, "fuzz: 451 later\n" FZ_REPLY);
	return TRANSPORT_TEMPFAIL;
}

static void fz_close(void *ctx)
{
	(void)ctx;
}

static const struct transport_ops fz_ops = {
	.name = "fuzz",
	.open = fz_open,
	.deliver = fz_deliver,
	.close = fz_close,
	.idempotent = false,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* on tmpfs where there is one: every write is fsync'ed */
	snprintf(home, sizeof home, "%s/oustpbm-fuzz-queue.%ld", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp",
	    (long)getpid());
	/* only `oustpbm init` makes a home: the scratch one is made here, as init would */
	{
		char games[96];

		snprintf(games, sizeof games, "%s/games", home);
		if ((mkdir(home, 0700) != 0 && errno != EEXIST) || (mkdir(games, 0700) != 0 && errno != EEXIST)) {
			fprintf(stderr, "fuzz_queue: cannot make %s\n", home);
			exit(1);
		}
	}
	config_defaults(&cfg);
	cfg.test_time_set = true;
	cfg.test_time = 1700000000;
	atexit(cleanup);
	return 0;
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", home);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_queue: cannot remove %s\n", home);
}

/* Empty reldir of the scratch home. */
static void clear(struct store *st, const char *reldir)
{
	char **names = NULL, path[256];
	size_t n = 0, i;

	if (store_list_dir(st, reldir, &names, &n) != STORE_OK)
		abort();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", reldir, names[i]);
		store_unlink(st, path);
	}
	store_free_names(names, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[STORE_ERR_MAX + OUTBOX_ERR_MAX];
	struct outbox_entry *e = NULL, *e2 = NULL;
	struct outbox_stats stats;
	struct store *st = NULL;
	struct outbox *ob = NULL;
	size_t n = 0, n2 = 0;
	char rcpt[MAILADDR_MAX + 1];
	bool damaged;

	if (store_open(home, &cfg, &st, err, sizeof err) != STORE_OK ||
	    outbox_open(st, &ob, err, sizeof err) != OUTBOX_OK)
		abort();
	/* a clean queue: the one file of this input */
	clear(st, "outbox/new");
	clear(st, "outbox/failed");
	if (store_write_file(st, "outbox/new/" QUEUE_ID, data, size) != STORE_OK)
		abort();
	if (outbox_list(ob, &e, &n) != OUTBOX_OK || n != 1)
		abort();
	damaged = e[0].damaged;
	snprintf(rcpt, sizeof rcpt, "%s", e[0].rcpt);
	if (outbox_flush(ob, &fz_ops, &cfg, &stats) != OUTBOX_OK)
		abort();
	if (outbox_list(ob, &e2, &n2) != OUTBOX_OK)
		abort();
	if (damaged && n2 != 0)
		abort();	/* a damaged file goes to failed/ */
	if (!damaged && stats.deferred == 1 && (n2 != 1 || e2[0].damaged || strcmp(e2[0].rcpt, rcpt) != 0 ||
	    e2[0].attempts != e[0].attempts + 1 || strcmp(e2[0].reply, FZ_REPLY) != 0))
		abort();	/* what a flush rewrote reads back, the server's reply too */
	free(e);
	free(e2);
	outbox_close(ob);
	store_close(st);
	return 0;
}
