/* queuecmd: oustpbm flush and oustpbm queue. */
#include "outbox/queuecmd.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/config.h"
#include "game/gamefile.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/store.h"

const char *queuecmd_status_str(enum queuecmd_status status)
{
	switch (status) {
	case QUEUECMD_OK:
		return "ok";
	case QUEUECMD_TEMPFAIL:
		return "temporary failure";
	case QUEUECMD_USAGE:
		return "usage";
	case QUEUECMD_CONFIG:
		return "configuration error";
	case QUEUECMD_IO:
		return "system error";
	case QUEUECMD_NOPERM:
		return "home owned by another user";
	case QUEUECMD_NOINPUT:
		return "no such queued mail";
	}
	return "unknown status";
}

static bool is_command(const char *s)
{
	return strcmp(s, "flush") == 0 || strcmp(s, "queue") == 0 || strcmp(s, "requeue") == 0;
}

/* The index of the command word after [-d DIR | -dDIR], or 0. */
static int command_index(int argc, char **argv)
{
	if (argc >= 2 && is_command(argv[1]))
		return 1;
	if (argc >= 3 && strncmp(argv[1], "-d", 2) == 0 && argv[1][2] != '\0' && is_command(argv[2]))
		return 2;
	if (argc >= 4 && strcmp(argv[1], "-d") == 0 && is_command(argv[3]))
		return 3;
	return 0;
}

bool queuecmd_wanted(int argc, char **argv)
{
	return command_index(argc, argv) > 0;
}

/*
 * [-d DIR | -dDIR] COMMAND [ARGS]: flush [--all], queue, requeue [ID...|all];
 * false on anything else.  *args, *nargs: the words after the command.
 */
static bool parse_args(int argc, char **argv, const char **home, const char **cmd, char ***args, int *nargs)
{
	int i = command_index(argc, argv);

	*home = config_default_home();
	if (i == 0)
		return false;
	if (i == 3) {
		if (argv[2][0] == '\0')
			return false;
		*home = argv[2];
	} else if (i == 2) {
		*home = argv[1] + 2;
	}
	*cmd = argv[i];
	*args = argv + i + 1;
	*nargs = argc - i - 1;
	if (strcmp(*cmd, "queue") == 0)
		return *nargs == 0;
	if (strcmp(*cmd, "flush") == 0)
		return *nargs == 0 || (*nargs == 1 && strcmp((*args)[0], "--all") == 0);
	return true;
}

static enum queuecmd_status from_outbox(enum outbox_status os)
{
	if (os == OUTBOX_OK)
		return QUEUECMD_OK;
	return outbox_status_temporary(os) ? QUEUECMD_TEMPFAIL : QUEUECMD_IO;
}

static void iso_time(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (gmtime_r(&tt, &tm) == NULL || strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "%lld", t);
}

static enum queuecmd_status do_requeue(struct outbox *ob, const struct config *cfg, char **args, int nargs,
    FILE *out)
{
	enum outbox_status os;
	unsigned moved, refused;
	bool all = nargs == 0 || (nargs == 1 && strcmp(args[0], "all") == 0);

	os = outbox_requeue(ob, all ? NULL : args, all ? 0 : (size_t)nargs, cfg, &moved, &refused);
	if (os != OUTBOX_OK) {
		fprintf(stderr, "oustpbm: requeue: %s\n", outbox_error(ob));
		return from_outbox(os);
	}
	fprintf(out, "oustpbm requeue: %u mail%s moved back to the queue%s\n", moved, moved == 1 ? "" : "s",
	    refused > 0 ? " (some not found or damaged: see above)" : "");
	return refused > 0 ? QUEUECMD_NOINPUT : QUEUECMD_OK;
}

static enum queuecmd_status do_flush(struct outbox *ob, const struct config *cfg, bool all, FILE *out)
{
	const struct transport_ops *ops = transport_find(cfg->transport);
	struct outbox_stats stats;
	enum outbox_status os;
	char stamp[32];
	time_t now;
	struct tm tm;

	if (ops == NULL) {
		store_complain(outbox_store(ob), "unknown transport '%s'", cfg->transport);
		return QUEUECMD_CONFIG;
	}
	os = outbox_flush_opts(ob, ops, cfg, all ? OUTBOX_FLUSH_ALL : 0, &stats);
	if (os != OUTBOX_OK) {
		store_complain(outbox_store(ob), "%s", outbox_error(ob));
		return from_outbox(os);
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
	return QUEUECMD_OK;
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

/*
 * The waiting replies (outbox/new/), then those refused for good
 * (outbox/failed/, which requeue sends again), each with its last error
 * and the server's whole reply to it.
 */
static enum queuecmd_status do_queue(struct outbox *ob, const struct config *cfg, FILE *out)
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
		return from_outbox(os);
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
		fprintf(out, "%zu mail%s failed, kept in outbox/failed/ (oustpbm requeue ID... sends %s again)\n", nf,
		    nf == 1 ? "" : "s", nf == 1 ? "it" : "them");
	free(e);
	free(f);
	return QUEUECMD_OK;
}

enum queuecmd_status queuecmd_main(int argc, char **argv, FILE *out)
{
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX];
	struct config cfg;
	struct store *st = NULL;
	struct outbox *ob = NULL;
	enum queuecmd_status result;
	enum store_status ss;
	enum outbox_status os;
	char stamp[GAMEFILE_TIME_SIZE], prefix[STORE_LOG_PREFIX_MAX];
	const char *home, *cmd = NULL;
	char **args = NULL;
	int nargs = 0;

	if (!parse_args(argc, argv, &home, &cmd, &args, &nargs)) {
		fputs("usage: oustpbm [-d DIR] flush [--all] | queue | requeue [ID...|all]\n", stderr);
		return QUEUECMD_USAGE;
	}
	if (config_load(&cfg, home, err, sizeof err) != CONFIG_OK) {
		/* logged too when the home is there (opened with the defaults) */
		fprintf(stderr, "oustpbm: %s\n", err);
		config_defaults(&cfg);
		gamefile_time_str((int64_t)config_now(&cfg), stamp);
		if (store_open(home, &cfg, &st, err + strlen(err) + 1, sizeof err - strlen(err) - 1) == STORE_OK) {
			store_log(st, "%s %s failed: configuration error: %s", stamp, cmd, err);
			store_close(st);
		}
		return QUEUECMD_CONFIG;
	}
	ss = store_open(home, &cfg, &st, err, sizeof err);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: %s\n", err);
		if (ss == STORE_NOT_OWNER)
			return QUEUECMD_NOPERM;
		return store_status_temporary(ss) ? QUEUECMD_TEMPFAIL : QUEUECMD_CONFIG;
	}
	gamefile_time_str((int64_t)config_now(&cfg), stamp);
	snprintf(prefix, sizeof prefix, "%s %s", stamp, cmd);
	store_set_log_prefix(st, prefix);
	os = outbox_open(st, &ob, err, sizeof err);
	if (os != OUTBOX_OK) {
		store_complain(st, "cannot open the outbox: %s", err);
		result = from_outbox(os);
		goto out;
	}
	if (strcmp(cmd, "flush") == 0)
		result = do_flush(ob, &cfg, nargs == 1, out);
	else if (strcmp(cmd, "requeue") == 0)
		result = do_requeue(ob, &cfg, args, nargs, out);
	else
		result = do_queue(ob, &cfg, out);
out:
	outbox_close(ob);
	store_close(st);
	return result;
}
