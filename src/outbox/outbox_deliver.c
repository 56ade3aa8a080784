/* outbox: a flush, the queued mails handed to a transport in commit order. */
#include "outbox/outbox.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbox/outbox_int.h"
#include "store/bounces.h"

/*
 * The (recipient, board) pairs with an earlier reply still waiting in this
 * flush: a later reply to the same address about the same board waits too,
 * so that a player reads a board's replies in commit order (queue ids, the
 * order of new/, are in commit order) even after an outage during which the
 * earlier ones were backing off.  The recipient is kept as a hash: a
 * collision only holds a reply back until the next flush.
 */
struct held {
	long board;
	uint64_t rcpt;
};

struct held_set {
	struct held *v;
	size_t n, cap;
};

static uint64_t rcpt_key(const char *rcpt)
{
	char low[MAILADDR_MAX + 1];
	size_t i;

	for (i = 0; rcpt[i] != '\0' && i < MAILADDR_MAX; i++)
		low[i] = (char)tolower((unsigned char)rcpt[i]);
	low[i] = '\0';
	return store_text_hash(low, i);
}

static bool held_has(const struct held_set *hs, const struct queue_file *q)
{
	uint64_t k = rcpt_key(q->rcpt);
	size_t i;

	for (i = 0; q->board != 0 && i < hs->n; i++)
		if (hs->v[i].board == q->board && hs->v[i].rcpt == k)
			return true;
	return false;
}

/* Hold back the later replies of q's pair; without memory, they go (order is then not kept). */
static void held_add(struct held_set *hs, const struct queue_file *q)
{
	if (q->board == 0 || held_has(hs, q))
		return;
	if (hs->n == hs->cap) {
		size_t cap = hs->cap == 0 ? 16 : hs->cap * 2;
		struct held *v = realloc(hs->v, cap * sizeof *v);

		if (v == NULL)
			return;
		hs->v = v;
		hs->cap = cap;
	}
	hs->v[hs->n].board = q->board;
	hs->v[hs->n].rcpt = rcpt_key(q->rcpt);
	hs->n++;
}

/* What a staged mail needs for its log line once finish() has spoken. */
struct staged_info {
	char rcpt[MAILADDR_MAX + 1];
	long board;
	unsigned long attempts;
	long long first;
};

/* One flush's state, shared by its steps. */
struct flush_run {
	struct outbox *ob;
	const struct transport_ops *ops;
	const struct config *cfg;
	void *ctx;		/* the transport's, once opened */
	struct outbox_stats *stats;
	struct held_set held;
	bool removed, failed;	/* files left new/ (delivered; refused or damaged) */
	struct hosts hosts;	/* each host's backoff (hosts.h) */
	struct host_state *host;	/* the transport's host, in hosts */
	bool hosts_dirty;	/* hosts to be written */
	struct bounce *bounces;	/* the bounces file (bounces.h), read once */
	size_t nbounces;
};

/* The server refused q's recipient: one more bounce of the address (bounces.h). */
static void count_bounce(struct flush_run *fr, const char *id, const struct queue_file *q)
{
	char status[BOUNCES_STATUS_MAX + 1], what[120];
	unsigned long count = 0;

	bounces_status_of(q->reply, status);
	if (bounces_add(fr->ob->st, q->rcpt, status, (int64_t)config_now(fr->cfg), fr->cfg->bounce_limit,
	    fr->cfg->lock_timeout_ms, &count) != STORE_OK) {
		outbox_log_mail(fr->ob, fr->cfg, id, q->rcpt, "bounce not recorded", store_error(fr->ob->st));
		return;
	}
	if (fr->cfg->bounce_limit == 0)
		snprintf(what, sizeof what, "bounce %lu (%s; bounce_limit 0: its mail never stops)", count, status);
	else
		snprintf(what, sizeof what, "bounce %lu of %lu (%s)%s", count, fr->cfg->bounce_limit, status,
		    count >= fr->cfg->bounce_limit ? ", no more mail to it until it writes" : "");
	outbox_log_mail(fr->ob, fr->cfg, id, q->rcpt, "the address bounced", what);
}

/*
 * Does q's recipient get no mail (bounce_limit reached, bounces.h)?  Then
 * the reply goes to failed/ unsent, and true.
 */
static bool stopped(struct flush_run *fr, const char *id, struct queue_file *q)
{
	const struct bounce *b = bounces_of(fr->bounces, fr->nbounces, q->rcpt);
	char why[200];

	if (!bounces_stopped(b, fr->cfg->bounce_limit))
		return false;
	snprintf(why, sizeof why, "the address bounced %lu times (bounce_limit %lu): nothing is sent to it until "
	    "it writes again", b->count, fr->cfg->bounce_limit);
	if (outbox_retry_fail(fr->ob, fr->cfg, id, q, "not sent, moved to failed/", why, fr->stats))
		fr->failed = true;
	return true;
}

/* A reply that had been deferred is delivered at last: the admin sees the end of its story. */
static void log_delivered(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    unsigned long attempts, long long first)
{
	char what[200], when[32];
	time_t t = (time_t)first;
	struct tm tm;

	if (attempts == 0)
		return;
	if (gmtime_r(&t, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "%lld", first);
	snprintf(what, sizeof what, "after %lu failed attempt%s since %s", attempts, attempts == 1 ? "" : "s",
	    when);
	outbox_log_mail(ob, cfg, id, rcpt, "delivered", what);
}

/*
 * The host took a mail: a host that was down works again, and every reply
 * it held back is due at once (hosts.h).
 */
static void host_worked(struct flush_run *fr)
{
	struct host_state *hs = fr->host;
	char stamp[32];
	time_t now = config_now(fr->cfg);
	struct tm tm;
	unsigned long failed = hs != NULL ? hs->attempts : 0;

	if (hs == NULL || !hosts_worked(hs, (long long)now))
		return;
	fr->hosts_dirty = true;
	if (gmtime_r(&now, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	store_log(fr->ob->st, "%s outbox host %s works again after %lu failed run%s: the replies it held back "
	    "are due", stamp, hs->name, failed, failed == 1 ? "" : "s");
}

/* The host is down (TRANSPORT_UNAVAILABLE, or the transport could not open): one more failed run. */
static void host_failed(struct flush_run *fr, const char *why)
{
	if (fr->host == NULL)
		return;
	hosts_failed(fr->host, (long long)config_now(fr->cfg), outbox_retry_backoff(fr->host->attempts + 1), why);
	fr->hosts_dirty = true;
}

/*
 * Is q due?  Its own backoff over, or deferred because its host was down
 * and the host has delivered since q's last attempt (next minus the wait
 * outbox_retry_defer() set).
 */
static bool due(const struct flush_run *fr, const struct queue_file *q, unsigned flags)
{
	if ((flags & OUTBOX_FLUSH_ALL) || q->next <= (long long)config_now(fr->cfg))
		return true;
	return hosts_released(fr->host, q->host, q->next - outbox_retry_backoff(q->attempts));
}

/*
 * Complete the mails a transport with finish() staged (names[staged[k]]):
 * delivered, or, if finish() failed, deferred like any temporary failure.
 */
static void finish_staged(struct flush_run *fr, char **names, const size_t *staged, const struct staged_info *info,
    size_t nstaged)
{
	enum transport_result tr;
	char why[TRANSPORT_WHY_MAX] = "";
	size_t k;

	if (nstaged == 0)
		return;
	tr = fr->ops->finish(fr->ctx, why, sizeof why);
	if (tr == TRANSPORT_OK)
		host_worked(fr);
	else if (tr == TRANSPORT_UNAVAILABLE)
		host_failed(fr, why);
	for (k = 0; k < nstaged; k++) {
		const char *id = names[staged[k]];
		struct queue_file q;
		const char *bad = NULL;
		char *text = NULL;
		bool gone;

		if (tr == TRANSPORT_OK) {
			if (outbox_retry_keep_sent(fr->ob, fr->cfg, id) != OUTBOX_OK)
				outbox_log_mail(fr->ob, fr->cfg, id, "", "delivered but not removed", fr->ob->err);
			log_delivered(fr->ob, fr->cfg, id, info[k].rcpt, info[k].attempts, info[k].first);
			fr->stats->delivered++;
			fr->removed = true;
			continue;
		}
		/* read again for its retry lines: it was read and parsed a moment ago */
		if (outbox_queue_read(fr->ob, "new", id, &text, &q, &gone, &bad) == OUTBOX_OK && bad == NULL && !gone) {
			if (outbox_retry_defer(fr->ob, fr->cfg, id, &q, why, tr == TRANSPORT_UNAVAILABLE ? fr->host->name :
			    NULL, fr->stats))
				fr->failed = true;
			held_add(&fr->held, &q);
		} else
			fr->stats->deferred++;
		free(text);
	}
}

static long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Put the names this process queued (is_mine) first, the others after, each
 * part in name order (names is sorted); *nmine says how many came first.
 */
static void mine_first(const struct outbox *ob, char **names, size_t n, size_t *nmine)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (outbox_is_mine(ob, names[i])) {
			char *t = names[i];

			memmove(names + k + 1, names + k, (i - k) * sizeof *names);
			names[k++] = t;
		}
	}
	*nmine = k;
}

/*
 * OUTBOX_FLUSH_MINE: the (recipient, board) pairs of the backlog, so that
 * the mail's own replies never pass an older reply of the same board to the
 * same address still in the queue: those pairs wait.
 */
static void older_pairs(struct outbox *ob, char **names, size_t n, size_t nmine, struct held_set *older)
{
	size_t i;

	for (i = nmine; nmine > 0 && i < n; i++) {
		struct queue_file q;
		const char *bad = NULL;
		char *text = NULL;
		bool gone;

		if (outbox_id_ok(names[i]) &&
		    outbox_queue_read(ob, "new", names[i], &text, &q, &gone, &bad) == OUTBOX_OK && bad == NULL && !gone)
			held_add(older, &q);
		free(text);
	}
}

enum outbox_status outbox_flush(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    struct outbox_stats *stats)
{
	return outbox_flush_opts(ob, ops, cfg, 0, stats);
}

enum outbox_status outbox_flush_opts(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    unsigned flags, struct outbox_stats *stats)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct outbox_stats local;
	enum outbox_status result, r;
	char **names = NULL, why[TRANSPORT_WHY_MAX], hostname[HOSTS_NAME_MAX + 1];
	size_t n = 0, i, staged[TRANSPORT_BATCH_MAX], nstaged = 0, nmine = 0, backlog = 0;
	static struct staged_info info[TRANSPORT_BATCH_MAX];	/* 16 KB: not on the stack */
	static struct flush_run run;	/* the hosts' lines: not on the stack */
	struct flush_run *fr = &run;
	struct held_set older = { NULL, 0, 0 };
	bool opened = false;
	long start = monotonic_ms();

	if (stats == NULL)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	memset(fr, 0, sizeof *fr);
	fr->ob = ob;
	fr->ops = ops;
	fr->cfg = cfg;
	fr->stats = stats;
	result = outbox_from_store(ob, store_lock_path(ob->st, "outbox/flush.lock", cfg->lock_timeout_ms, &lock));
	if (result != OUTBOX_OK)
		return result;
	/* the fsyncs of the run are made together where they can be (store.h) */
	store_defer_begin(ob->st);
	/* a leftover that cannot be settled now waits; sending goes on */
	outbox_queue_recover(ob, 0, stats);
	result = outbox_from_store(ob, store_list_dir(ob->st, "outbox/new", &names, &n));
	if (result != OUTBOX_OK)
		goto out;
	/* many mails (a tournament's start): their fsyncs paid by a few syncfs whatever `sync` says (store.h) */
	if (n >= OUTBOX_FLUSH_BATCH)
		store_defer_begin_batch(ob->st);
	if (n > 0) {
		hosts_read(ob->st, &fr->hosts);
		if (bounces_read(ob->st, &fr->bounces, &fr->nbounces) != STORE_OK)
			outbox_log_mail(ob, cfg, "-", "", "bounces not read, none stopped", store_error(ob->st));
		transport_host(ops, cfg, hostname, sizeof hostname);
		fr->host = hosts_get(&fr->hosts, hostname);
	}
	if (flags & OUTBOX_FLUSH_MINE)
		mine_first(ob, names, n, &nmine);
	older_pairs(ob, names, n, nmine, &older);
	for (i = 0; i < n; i++) {
		struct transport_envelope env;
		struct queue_file q;
		enum transport_result tr;
		const char *bad = NULL;
		char *text = NULL;
		bool gone;

		if (!outbox_id_ok(names[i]))
			continue;	/* not ours */
		if ((flags & OUTBOX_FLUSH_MINE) && i >= nmine && (backlog >= cfg->flush_backlog_max ||
		    monotonic_ms() - start >= (long)cfg->flush_backlog_seconds * 1000L)) {
			/* the mail's own replies are out; the rest of the backlog is for flush and cron */
			stats->left += (unsigned)(n - i);
			break;
		}
		r = outbox_queue_read(ob, "new", names[i], &text, &q, &gone, &bad);
		if (gone)
			continue;
		if (r != OUTBOX_OK) {
			free(text);
			outbox_log_mail(ob, cfg, names[i], "", "deferred", ob->err);
			stats->deferred++;
			continue;
		}
		if (bad != NULL) {
			outbox_log_mail(ob, cfg, names[i], "", "damaged queue file, moved to failed/", bad);
			free(text);
			if (outbox_retry_move_failed(ob, names[i]) == OUTBOX_OK) {
				stats->failed++;
				fr->removed = fr->failed = true;
			}
			continue;
		}
		if (!due(fr, &q, flags) || held_has(&fr->held, &q) || (i < nmine && held_has(&older, &q))) {
			/* backing off, or an earlier reply of the same board to the same address is */
			held_add(&fr->held, &q);
			stats->waiting++;
			free(text);
			continue;
		}
		if (i >= nmine)
			backlog++;
		if (stopped(fr, names[i], &q)) {
			free(text);
			continue;
		}
		if (!opened) {
			why[0] = '\0';
			tr = ops->open(ob->st, cfg, &fr->ctx, why, sizeof why);
			if (tr != TRANSPORT_OK) {
				outbox_log_mail(ob, cfg, names[i], q.rcpt, "transport not available", why);
				host_failed(fr, why);
				if (outbox_retry_defer(ob, cfg, names[i], &q, why, fr->host->name, stats))
					fr->failed = true;
				stats->deferred += (unsigned)(n - i - 1);
				free(text);
				break;
			}
			opened = true;
		}
		env.id = names[i];
		env.from = q.from;
		env.rcpt = q.rcpt;
		why[0] = '\0';
		tr = ops->deliver(fr->ctx, &env, q.msg, q.len, why, sizeof why);
		if (tr == TRANSPORT_OK && ops->finish != NULL) {
			snprintf(info[nstaged].rcpt, sizeof info[nstaged].rcpt, "%s", q.rcpt);
			info[nstaged].board = q.board;
			info[nstaged].attempts = q.attempts;
			info[nstaged].first = q.first;
			staged[nstaged++] = i;	/* delivered at finish_staged() */
			if (nstaged == TRANSPORT_BATCH_MAX) {
				finish_staged(fr, names, staged, info, nstaged);
				nstaged = 0;
			}
		} else if (tr == TRANSPORT_OK) {
			host_worked(fr);
			r = outbox_retry_keep_sent(ob, cfg, names[i]);
			if (r != OUTBOX_OK)
				outbox_log_mail(ob, cfg, names[i], q.rcpt, "delivered but not removed", ob->err);
			log_delivered(ob, cfg, names[i], q.rcpt, q.attempts, q.first);
			stats->delivered++;
			fr->removed = true;
		} else if (tr == TRANSPORT_TEMPFAIL || tr == TRANSPORT_UNAVAILABLE) {
			if (tr == TRANSPORT_UNAVAILABLE)
				host_failed(fr, why);
			else
				host_worked(fr);	/* the host answered: it is up */
			if (outbox_retry_defer(ob, cfg, names[i], &q, why, tr == TRANSPORT_UNAVAILABLE ? fr->host->name : NULL,
			    stats))
				fr->failed = true;
			held_add(&fr->held, &q);
		} else {
			host_worked(fr);
			if (outbox_retry_fail(ob, cfg, names[i], &q, "refused, moved to failed/", why, stats))
				fr->failed = true;
			if (tr == TRANSPORT_BOUNCED)
				count_bounce(fr, names[i], &q);
		}
		free(text);
		if (tr == TRANSPORT_UNAVAILABLE) {
			/* the server or the link is down: the others wait for the next flush */
			stats->deferred += (unsigned)(n - i - 1);
			break;
		}
	}
	if (opened)
		finish_staged(fr, names, staged, info, nstaged);
	fr->removed = fr->removed || fr->failed;
	outbox_retry_prune_sent(ob, cfg, stats);
	if (fr->hosts_dirty && hosts_write(ob->st, &fr->hosts) != STORE_OK)
		outbox_log_mail(ob, cfg, "-", "", "hosts not recorded", store_error(ob->st));
	/*
	 * One directory fsync for all the removals of this flush, so a crash
	 * does not send them again; not needed when delivering again is
	 * harmless (transport.h).  The copies in sent/ are an archive: losing
	 * one in a crash loses nothing, so sent/ is not fsync'ed.
	 */
	if (fr->failed || (fr->removed && !ops->idempotent))
		result = outbox_from_store(ob, store_sync_dir(ob->st, "outbox/new"));
	if (fr->failed && result == OUTBOX_OK)
		result = outbox_from_store(ob, store_sync_dir(ob->st, "outbox/failed"));
out:
	if (opened)
		ops->close(fr->ctx);
	/* the records of this process's batches: their mails delivered, or durable where they wait */
	outbox_record_retire_mine(ob);
	r = outbox_from_store(ob, store_defer_end(ob->st));
	if (result == OUTBOX_OK)
		result = r;
	store_free_names(names, n);
	free(fr->held.v);
	free(fr->bounces);
	free(older.v);
	store_unlock(&lock);
	return result;
}

/* --- requeue --- */
