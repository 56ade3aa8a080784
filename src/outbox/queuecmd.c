/* queuecmd: what oustpbm flush and oustpbm outbox do with the outbox.  See queuecmd.h. */
#include "outbox/queuecmd.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/config.h"
#include "base/msg.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/store.h"

static void iso_time(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL || strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "%lld", t);
}

enum outbox_status queuecmd_requeue(struct outbox *ob, const struct config *cfg, char **args, int nargs, FILE *out)
{
	enum outbox_status os;
	unsigned moved, refused;
	bool all = nargs == 0 || (nargs == 1 && strcmp(args[0], "all") == 0);

	os = outbox_requeue(ob, all ? NULL : args, all ? 0 : (size_t)nargs, cfg, &moved, &refused);
	if (os != OUTBOX_OK) {
		msg_warn("outbox retry: %s", outbox_error(ob));
		return os;
	}
	fprintf(out, "oustpbm outbox retry: %u mail%s moved back to the queue%s\n", moved, moved == 1 ? "" : "s",
	    refused > 0 ? " (some not found or damaged: see above)" : "");
	return refused > 0 ? OUTBOX_NO_SUCH_ID : OUTBOX_OK;
}

enum outbox_status queuecmd_flush(struct outbox *ob, const struct config *cfg, bool all, FILE *out)
{
	const struct transport_ops *ops = transport_find(cfg->transport);
	struct outbox_stats stats;
	enum outbox_status os;
	char stamp[32];
	time_t now;
	struct tm tm;

	if (ops == NULL) {
		store_complain(outbox_store(ob), "unknown transport '%s'", cfg->transport);
		return OUTBOX_CONFIG;
	}
	os = outbox_flush_opts(ob, ops, cfg, all ? OUTBOX_FLUSH_ALL : 0, &stats);
	if (os != OUTBOX_OK) {
		store_complain(outbox_store(ob), "%s", outbox_error(ob));
		return os;
	}
	/* every run, as cleanup's and robot's: `oustpbm status` tells from it whether cron runs */
	now = config_now(cfg);
	if (gmtime_r(&now, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	store_log(outbox_store(ob), "%s flush done: %u sent, %u deferred, %u waiting, %u failed", stamp,
	    stats.delivered, stats.deferred, stats.waiting, stats.failed);
	if (stats.deferred > 0 || stats.failed > 0)
		fprintf(out, "oustpbm flush: %u delivered, %u deferred, %u waiting, %u failed (see the log)\n",
		    stats.delivered, stats.deferred, stats.waiting, stats.failed);
	return OUTBOX_OK;
}

/* The server's reply, one line each under "  server:   ". */
static void print_reply(FILE *out, const char *reply)
{
	const char *label = "  server:   ";

	while (*reply != '\0') {
		size_t len = strcspn(reply, "\n");

		fprintf(out, "%s%.*s\n", label, (int)len, reply);
		label = "            ";
		reply += len;
		if (*reply == '\n')
			reply++;
	}
}

enum outbox_status queuecmd_list(struct outbox *ob, const struct config *cfg, FILE *out)
{
	struct outbox_entry *e = NULL, *f = NULL;
	enum outbox_status os;
	size_t n = 0, nf = 0, i;
	char when[40];

	os = outbox_list(ob, &e, &n);
	if (os == OUTBOX_OK)
		os = outbox_list_failed(ob, &f, &nf);
	if (os != OUTBOX_OK) {
		store_complain(outbox_store(ob), "%s", outbox_error(ob));
		free(e);
		return os;
	}
	for (i = 0; i < n; i++) {
		fprintf(out, "%s\n", e[i].id);
		if (e[i].damaged) {
			fprintf(out, "  damaged:  %s\n", e[i].error);
			continue;
		}
		if (e[i].next <= (long long)config_now(cfg))
			snprintf(when, sizeof when, "now");
		else
			iso_time(e[i].next, when, sizeof when);
		fprintf(out, "  to:       %s\n  subject:  %s\n  attempts: %lu\n  next:     %s\n", e[i].rcpt,
		    e[i].subject, e[i].attempts, when);
		if (e[i].error[0] != '\0')
			fprintf(out, "  error:    %s\n", e[i].error);
		print_reply(out, e[i].reply);
	}
	fprintf(out, "%zu mail%s waiting\n", n, n == 1 ? "" : "s");
	for (i = 0; i < nf; i++) {
		fprintf(out, "%s\n", f[i].id);
		if (f[i].damaged) {
			fprintf(out, "  damaged:  %s\n", f[i].error);
			continue;
		}
		fprintf(out, "  to:       %s\n  subject:  %s\n  failed:   %s\n", f[i].rcpt, f[i].subject,
		    f[i].error[0] != '\0' ? f[i].error : "(no error recorded)");
		print_reply(out, f[i].reply);
	}
	if (nf > 0)
		fprintf(out, "%zu mail%s failed, kept in outbox/failed/ (oustpbm outbox retry ID... sends %s again)\n", nf,
		    nf == 1 ? "" : "s", nf == 1 ? "it" : "them");
	free(e);
	free(f);
	return OUTBOX_OK;
}
