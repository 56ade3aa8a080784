/* transport: the table of transports and the maildir transport. */
#include "transport.h"
#include "smtp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAILDIR_DIR_BUF (MAILADDR_MAX + 8)	/* mail/<rcpt> */
#define MAILDIR_PATH_BUF 1024

const char *transport_result_str(enum transport_result result)
{
	switch (result) {
	case TRANSPORT_OK:
		return "delivered";
	case TRANSPORT_TEMPFAIL:
		return "temporary failure";
	case TRANSPORT_PERMFAIL:
		return "permanent failure";
	case TRANSPORT_UNAVAILABLE:
		return "server unavailable";
	}
	return "unknown result";
}

const struct transport_ops *transport_find(const char *name)
{
	static const struct transport_ops *const all[] = { &transport_maildir, &transport_smtp };
	size_t i;

	for (i = 0; i < sizeof all / sizeof all[0]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

bool transport_maildir_rcpt_ok(const char *rcpt, const char **why)
{
	if (!mailaddr_ok(rcpt, why))
		return false;
	/* dot-atom allows '/', a directory name cannot have it */
	if (strchr(rcpt, '/') != NULL) {
		if (why != NULL)
			*why = "contains '/'";
		return false;
	}
	return true;
}

struct maildir {
	struct store *st;
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

static void maildir_close(void *ctx)
{
	free(ctx);
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
	/* Maildir delivery: whole file in tmp/, fsync, rename into new/, fsync new/ */
	status = store_create_file(md->st, tmp, msg, len);
	if (status == STORE_OK)
		status = store_rename(md->st, tmp, dst);
	if (status == STORE_OK) {
		snprintf(dst, sizeof dst, "%s/new", dir);
		status = store_sync_dir(md->st, dst);
	}
	if (status != STORE_OK) {
		enum transport_result result = from_store(md->st, why, whylen);

		store_unlink(md->st, tmp);	/* gone already if the rename was done */
		return result;
	}
	return TRANSPORT_OK;
}

const struct transport_ops transport_maildir = {
	.name = "maildir",
	.idempotent = true,
	.open = maildir_open,
	.deliver = maildir_deliver,
	.close = maildir_close,
};
