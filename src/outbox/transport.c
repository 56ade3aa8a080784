/* transport: the table of transports and the maildir transport. */
#include "outbox/smtp.h"
#include "outbox/transport.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAILDIR_DIR_BUF (MAILADDR_MAX + 8)	/* mail/<rcpt> */
#define MAILDIR_PATH_BUF 1024

const struct transport_ops *transport_find(const char *name)
{
	static const struct transport_ops *const all[] = { &transport_maildir, &transport_smtp };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void transport_host(const struct transport_ops *ops, const struct config *cfg, char *buf, size_t size)
{
	const char *p = strstr(cfg->smtp_url, "://");
	size_t n, i;

	if (ops != &transport_smtp || p == NULL) {
		snprintf(buf, size, "local");
		return;
	}
	p += 3;
	n = strcspn(p, "/?#");
	snprintf(buf, size, "%.*s", (int)n, p);
	/* one word on the hosts file's line */
	for (i = 0; buf[i] != '\0'; i++)
		if ((unsigned char)buf[i] <= 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	if (buf[0] == '\0')
		snprintf(buf, size, "local");
}

bool transport_maildir_rcpt_ok(const char *rcpt, const char **why)
{
	return mailaddr_deliverable(rcpt, why);
}

/* A message written into tmp/, waiting for finish() to rename it into new/. */
struct maildir_staged {
	char tmp[MAILDIR_PATH_BUF];	/* mail/<rcpt>/tmp/<id> */
	char dst[MAILDIR_PATH_BUF];	/* mail/<rcpt>/new/<id> */
};

struct maildir {
	struct store *st;
	struct maildir_staged staged[TRANSPORT_BATCH_MAX];
	size_t n;		/* staged, not yet finished */
};

static enum transport_result maildir_open(struct store *st, const struct config *cfg, void **ctx,
    char *why, size_t whylen)
{
	struct maildir *md = calloc(1, sizeof *md);

	if (md == NULL) {
		snprintf(why, whylen, "out of memory");
		return TRANSPORT_TEMPFAIL;
	}
	md->st = st;
	*ctx = md;
	return TRANSPORT_OK;
}

/* Remove the temp files of the staged messages from i on (not renamed). */
static void maildir_drop(struct maildir *md, size_t i)
{
	for (; i < md->n; i++)
		store_unlink(md->st, md->staged[i].tmp);
	md->n = 0;
}

static void maildir_close(void *ctx)
{
	struct maildir *md = ctx;

	maildir_drop(md, 0);	/* staged but never finished: not delivered */
	free(md);
}

/*
 * A file system failure delivering into a Maildir: disk full, but also a
 * permission an admin can fix.  Worth trying again, so temporary.
 */
static enum transport_result from_store(struct store *st, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s", store_error(st));
	return TRANSPORT_TEMPFAIL;
}

static enum transport_result maildir_deliver(void *ctx, const struct transport_envelope *env,
    const char *msg, size_t len, char *why, size_t whylen)
{
	static const char *const subdirs[] = { "tmp", "new", "cur" };
	struct maildir *md = ctx;
	char dir[MAILDIR_DIR_BUF], tmp[MAILDIR_PATH_BUF], dst[MAILDIR_PATH_BUF];
	enum store_status status;
	const char *bad;
	size_t i;
	int n;

	if (!transport_maildir_rcpt_ok(env->rcpt, &bad)) {
		snprintf(why, whylen, "recipient address %s", bad);
		return TRANSPORT_PERMFAIL;
	}
	if (env->id[0] == '.' || env->id[0] == '\0' || strchr(env->id, '/') != NULL) {
		snprintf(why, whylen, "invalid queue id");
		return TRANSPORT_PERMFAIL;
	}
	status = store_mkdir(md->st, "mail");
	if (status != STORE_OK)
		return from_store(md->st, why, whylen);
	n = snprintf(dir, sizeof dir, "mail/%s", env->rcpt);
	if (n < 0 || (size_t)n >= sizeof dir) {
		snprintf(why, whylen, "recipient address too long");
		return TRANSPORT_PERMFAIL;
	}
	status = store_mkdir(md->st, dir);
	for (i = 0; status == STORE_OK && i < sizeof subdirs / sizeof subdirs[0]; i++) {
		snprintf(tmp, sizeof tmp, "%s/%s", dir, subdirs[i]);
		status = store_mkdir(md->st, tmp);
	}
	if (status != STORE_OK)
		return from_store(md->st, why, whylen);
	n = snprintf(tmp, sizeof tmp, "%s/tmp/%s", dir, env->id);
	if (n < 0 || (size_t)n >= sizeof tmp || snprintf(dst, sizeof dst, "%s/new/%s", dir, env->id) >= (int)sizeof dst) {
		snprintf(why, whylen, "queue id too long");
		return TRANSPORT_PERMFAIL;
	}
	/*
	 * Maildir delivery, first half: the whole file in tmp/ (its fsync owed
	 * when the outbox defers them, store.h); maildir_finish() does the rest.
	 */
	assert(md->n < TRANSPORT_BATCH_MAX);
	status = store_create_file(md->st, tmp, msg, len);
	if (status != STORE_OK) {
		enum transport_result result = from_store(md->st, why, whylen);

		store_unlink(md->st, tmp);
		return result;
	}
	memcpy(md->staged[md->n].tmp, tmp, sizeof tmp);
	memcpy(md->staged[md->n].dst, dst, sizeof dst);
	md->n++;
	return TRANSPORT_OK;
}

/*
 * Second half, for all the staged messages at once: their data made durable
 * (one sync), renamed into new/, the new names made durable (one more).  A
 * message is visible in new/ only once its content is on disk, as the
 * Maildir protocol asks.  On failure the outbox delivers them all again,
 * each onto its own file name.
 */
static enum transport_result maildir_finish(void *ctx, char *why, size_t whylen)
{
	struct maildir *md = ctx;
	enum store_status status;
	char newdir[MAILDIR_PATH_BUF];
	size_t i;

	status = store_sync(md->st);
	for (i = 0; status == STORE_OK && i < md->n; i++) {
		status = store_rename(md->st, md->staged[i].tmp, md->staged[i].dst);
		if (status == STORE_OK) {
			snprintf(newdir, sizeof newdir, "%s", md->staged[i].dst);
			*strrchr(newdir, '/') = '\0';
			status = store_sync_dir(md->st, newdir);
		}
	}
	if (status == STORE_OK)
		status = store_sync(md->st);
	if (status != STORE_OK) {
		enum transport_result result = from_store(md->st, why, whylen);

		/* a failed rename left its temp file: from there on they go */
		maildir_drop(md, i > 0 ? i - 1 : 0);
		return result;
	}
	md->n = 0;
	return TRANSPORT_OK;
}

const struct transport_ops transport_maildir = {
	.name = "maildir",
	.idempotent = true,
	.open = maildir_open,
	.deliver = maildir_deliver,
	.finish = maildir_finish,
	.close = maildir_close,
};
