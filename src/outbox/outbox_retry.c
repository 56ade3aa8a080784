/* outbox: retry and backoff, the failed and the sent mails, requeue. */
#include "outbox/outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "outbox/outbox_int.h"

/*
 * Split a transport's why (transport.h) into q's error, its first line
 * (OUTBOX_ERROR_LINE_MAX bytes at most), and q's reply, the server's lines
 * after it; control characters but the line breaks become '?'.
 */
void outbox_retry_record_why(struct queue_file *q, const char *why)
{
	const char *nl = strchr(why, '\n');
	size_t i, n = nl != NULL ? (size_t)(nl - why) : strlen(why);

	for (i = 0; i < n && i < OUTBOX_ERROR_LINE_MAX; i++)
		q->error[i] = (unsigned char)why[i] < 0x20 || why[i] == 0x7f ? '?' : why[i];
	q->error[i] = '\0';
	q->reply[0] = '\0';
	if (nl == NULL)
		return;
	for (why = nl + 1, i = 0; why[i] != '\0' && i < TRANSPORT_REPLY_MAX; i++)
		q->reply[i] = why[i] == '\n' ? '\n' : (unsigned char)why[i] < 0x20 || why[i] == 0x7f ? '?' : why[i];
	q->reply[i] = '\0';
}

/*
 * The log's text of a failure: the error, then the server's reply as
 * server="...", its lines joined by \n, '"' and '\\' escaped with a
 * backslash, so no server can forge a field of the line.  Cut to size.
 */
void outbox_retry_why_for_log(const struct queue_file *q, char *out, size_t size)
{
	size_t n, i;

	n = (size_t)snprintf(out, size, "%s", q->error);
	if (q->reply[0] == '\0' || n + 12 >= size)
		return;
	n += (size_t)snprintf(out + n, size - n, " server=\"");
	for (i = 0; q->reply[i] != '\0' && n + 4 < size; i++) {
		if (q->reply[i] == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
			continue;
		}
		if (q->reply[i] == '"' || q->reply[i] == '\\')
			out[n++] = '\\';
		out[n++] = q->reply[i];
	}
	out[n++] = '"';
	out[n] = '\0';
}

/* The wait after the attempts-th failed attempt: 1 minute, doubling, at most 1 hour. */
long outbox_retry_backoff(unsigned long attempts)
{
	long wait = OUTBOX_BACKOFF_FIRST;

	while (attempts > 1 && wait < OUTBOX_BACKOFF_MAX) {
		wait *= 2;
		attempts--;
	}
	return wait < OUTBOX_BACKOFF_MAX ? wait : OUTBOX_BACKOFF_MAX;
}

enum outbox_status outbox_retry_move_failed(struct outbox *ob, const char *id);

/* A permanent failure: the error goes into the queue file, which moves to failed/. */
bool outbox_retry_fail(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *what, const char *why, struct outbox_stats *stats)
{
	char logged[OUTBOX_ERROR_LINE_MAX + 2 * TRANSPORT_REPLY_MAX + 16];

	outbox_retry_record_why(q, why);
	outbox_retry_why_for_log(q, logged, sizeof logged);
	outbox_log_mail(ob, cfg, id, q->rcpt, what, logged);
	if (outbox_queue_rewrite(ob, id, q) != OUTBOX_OK)
		outbox_log_mail(ob, cfg, id, q->rcpt, "error not recorded", ob->err);
	if (outbox_retry_move_failed(ob, id) != OUTBOX_OK)
		return false;
	stats->failed++;
	return true;
}

/*
 * A temporary failure: one more attempt, the next one after the backoff, the
 * error recorded; after retry_days since the first failed attempt the mail
 * moves to failed/.
 */
bool outbox_retry_defer(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *why, const char *host, struct outbox_stats *stats)
{
	time_t now = config_now(cfg);
	char what[160], logged[OUTBOX_ERROR_LINE_MAX + 2 * TRANSPORT_REPLY_MAX + 16];

	/* the host was down (hosts.h): its first success makes this reply due again */
	snprintf(q->host, sizeof q->host, "%s", host != NULL ? host : "");
	q->attempts++;
	if (q->first == 0)
		q->first = (long long)now;
	q->next = (long long)now + outbox_retry_backoff(q->attempts);
	if ((long long)now - q->first >= (long long)cfg->retry_days * 86400) {
		snprintf(what, sizeof what, "still failing after %lu attempts in %lu day%s, moved to failed/",
		    q->attempts, cfg->retry_days, cfg->retry_days == 1 ? "" : "s");
		return outbox_retry_fail(ob, cfg, id, q, what, why, stats);
	}
	outbox_retry_record_why(q, why);
	outbox_retry_why_for_log(q, logged, sizeof logged);
	snprintf(what, sizeof what, " (attempt %lu, next in %ld s)", q->attempts, outbox_retry_backoff(q->attempts));
	outbox_log_mail3(ob, cfg, id, q->rcpt, "deferred", logged, what);
	if (outbox_queue_rewrite(ob, id, q) != OUTBOX_OK)
		outbox_log_mail(ob, cfg, id, q->rcpt, "retry state not recorded", ob->err);
	stats->deferred++;
	return false;
}

/*
 * Delivered: the queue file moves to sent/ with the time of sending as its
 * modification time (what outbox_retry_prune_sent() goes by), or goes when
 * none are kept.
 */
enum outbox_status outbox_retry_keep_sent(struct outbox *ob, const struct config *cfg, const char *id)
{
	char from[PATH_BUF], to[PATH_BUF], abs[PATH_BUF + 4096];
	struct timespec ts[2];
	enum outbox_status result;

	snprintf(from, sizeof from, "outbox/new/%s", id);
	if (cfg->sent_keep_days == 0)
		return outbox_from_store(ob, store_unlink(ob->st, from));
	snprintf(to, sizeof to, "outbox/sent/%s", id);
	result = outbox_from_store(ob, store_rename(ob->st, from, to));
	if (result != OUTBOX_OK)
		return result;
	snprintf(abs, sizeof abs, "%s/%s", store_home(ob->st), to);
	ts[0].tv_sec = ts[1].tv_sec = config_now(cfg);
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	utimensat(AT_FDCWD, abs, ts, 0);	/* failing, the copy is kept for its queue time instead */
	return OUTBOX_OK;
}

/*
 * Remove the copies in sent/ older than sent_keep_days, at most once per
 * OUTBOX_PRUNE_EVERY: a busy server keeps thousands, and looking at each on
 * every mail cost milliseconds.  The time of the last pass is the
 * modification time of outbox/.pruned.
 */
void outbox_retry_prune_sent(struct outbox *ob, const struct config *cfg, struct outbox_stats *stats)
{
	time_t now = config_now(cfg);
	long long limit = (long long)now - (long long)cfg->sent_keep_days * 86400;
	char **names = NULL, abs[PATH_BUF + 4096];
	size_t n = 0, i;
	struct stat sb;
	struct timespec ts[2];
	int fd;

	snprintf(abs, sizeof abs, "%s/outbox/.pruned", store_home(ob->st));
	if (stat(abs, &sb) == 0 && (long long)sb.st_mtime <= (long long)now &&
	    (long long)sb.st_mtime > (long long)now - OUTBOX_PRUNE_EVERY)
		return;
	fd = open(abs, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		ts[0].tv_sec = ts[1].tv_sec = now;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		futimens(fd, ts);	/* failing, the next flush prunes again */
		close(fd);
	}
	if (store_list_dir(ob->st, "outbox/sent", &names, &n) != STORE_OK)
		return;
	for (i = 0; i < n; i++) {
		if (!outbox_id_ok(names[i]))
			continue;
		snprintf(abs, sizeof abs, "%s/outbox/sent/%s", store_home(ob->st), names[i]);
		if (stat(abs, &sb) == 0 && (long long)sb.st_mtime <= limit && unlink(abs) == 0)
			stats->pruned++;
	}
	store_free_names(names, n);
}

enum outbox_status outbox_retry_move_failed(struct outbox *ob, const char *id)
{
	char from[PATH_BUF], to[PATH_BUF];

	snprintf(from, sizeof from, "outbox/new/%s", id);
	snprintf(to, sizeof to, "outbox/failed/%s", id);
	return outbox_from_store(ob, store_rename(ob->st, from, to));
}

/*
 * failed/<id> back into new/, its retry lines dropped: tried at once,
 * retry_days counted anew.  *moved false with OUTBOX_OK: no such reply, or
 * a damaged one (ob->err says which).
 */
static enum outbox_status requeue_one(struct outbox *ob, const char *id, bool *moved)
{
	char path[PATH_BUF];
	struct queue_file q;
	enum outbox_status r;
	const char *why = NULL;
	char *text = NULL;
	bool gone;

	*moved = false;
	if (!outbox_id_ok(id)) {
		outbox_set_err(ob, "'%s' is not a queue id", id);
		return OUTBOX_OK;
	}
	r = outbox_queue_read(ob, "failed", id, &text, &q, &gone, &why);
	if (r == OUTBOX_OK && gone) {
		outbox_set_err(ob, "no reply %s in outbox/failed/", id);
	} else if (r == OUTBOX_OK && why != NULL) {
		outbox_set_err(ob, "outbox/failed/%s is damaged (%s): not requeued", id, why);
	} else if (r == OUTBOX_OK) {
		q.attempts = 0;
		q.first = q.next = 0;
		q.error[0] = '\0';
		q.reply[0] = '\0';
		q.host[0] = '\0';
		/* new/ first: a crash in between leaves a copy in failed/, never no copy */
		r = outbox_queue_rewrite(ob, id, &q);
		snprintf(path, sizeof path, "outbox/failed/%s", id);
		if (r == OUTBOX_OK)
			r = outbox_from_store(ob, store_unlink(ob->st, path));
		*moved = r == OUTBOX_OK;
	}
	free(text);
	return r;
}

enum outbox_status outbox_requeue(struct outbox *ob, char *const *ids, size_t nids, const struct config *cfg,
    unsigned *moved, unsigned *refused)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum outbox_status result, r;
	char **names = NULL;
	size_t n = 0, i;
	bool one;

	*moved = *refused = 0;
	/* no flush moves these files meanwhile */
	result = outbox_from_store(ob, store_lock_path(ob->st, "outbox/flush.lock", cfg->lock_timeout_ms, &lock));
	if (result != OUTBOX_OK)
		return result;
	if (ids == NULL) {
		result = outbox_from_store(ob, store_list_dir(ob->st, "outbox/failed", &names, &n));
		if (result != OUTBOX_OK)
			goto out;
		ids = names;
		nids = n;
	}
	for (i = 0; i < nids; i++) {
		if (names != NULL && !outbox_id_ok(ids[i]))
			continue;	/* not ours */
		r = requeue_one(ob, ids[i], &one);
		if (one) {
			(*moved)++;
			outbox_log_mail(ob, cfg, ids[i], "", "requeued from failed/", "by the admin");
		} else {
			(*refused)++;
			msg_warn("requeue: %s", ob->err);
			if (result == OUTBOX_OK)
				result = r;
		}
	}
	if (*moved > 0) {
		r = outbox_from_store(ob, store_sync_dir(ob->st, "outbox/new"));
		if (r == OUTBOX_OK)
			r = outbox_from_store(ob, store_sync_dir(ob->st, "outbox/failed"));
		if (result == OUTBOX_OK)
			result = r;
	}
out:
	store_free_names(names, n);
	store_unlock(&lock);
	return result;
}
