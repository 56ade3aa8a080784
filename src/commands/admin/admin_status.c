/*
 * oustpbm status [--brief]: the server's health on one screen, and an exit
 * status for monitoring: 0 healthy, 1 warnings, 2 failing (as Nagios
 * plugins: OK, WARNING, CRITICAL).  --brief prints one line in the shape
 * of a Nagios or monit check, "OUSTPBM WARNING - what | perfdata".
 *
 * Checked, each one line: the configuration, the home writable, free space
 * and inodes (statvfs), whether it is retired (a warning), the transport
 * (maildir: the replies stay here, a warning), the queue (depth, oldest reply), failed replies, the last
 * cleanup, flush and robot runs (their "done" lines in the log, or in the
 * log logrotate made last) against the shipped crontab's schedule (none
 * yet in the first hour after oustpbm init: lifecycle.h), robot turns waiting, store files
 * near their caps, addresses that bounce (store/bounces.h), each host's
 * backoff (outbox/hosts.h).  It only reads (and makes one probe file).
 */
#include "commands/admin/admincmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include "commands/services/robot.h"
#include "outbox/hosts.h"
#include "outbox/outbox.h"
#include "store/accounts.h"
#include "store/active.h"
#include "store/audience.h"
#include "store/bounces.h"
#include "store/lifecycle.h"
#include "store/ratings.h"
#include "store/seen.h"
#include "store/throttle.h"
#include "store/vacations.h"

/* The schedule of scripts/crontab (and the systemd timers): seconds between runs. */
#define STATUS_FLUSH_EVERY 300
#define STATUS_ROBOT_EVERY 300
#define STATUS_CLEANUP_EVERY 3600
#define STATUS_LATE 600			/* a run this late after its schedule: cron looks dead */
#define STATUS_DAY 86400		/* late, down or waiting this long: failing */
#define STATUS_LOG_TAIL (1024L * 1024)	/* bytes read from the log's end */
#define STATUS_QUEUE_OLD 3600		/* a reply waiting this long: a warning */
#define STATUS_FREE_WARN_PCT 5		/* free space or inodes below: a warning */
#define STATUS_FREE_CRIT_PCT 1		/* below: failing */
#define STATUS_FREE_WARN_BYTES (100LL * 1024 * 1024)
#define STATUS_FREE_CRIT_BYTES (10LL * 1024 * 1024)
#define STATUS_CAP_PCT 80		/* a file this full of its cap: a warning */
#define STATUS_ROBOT_LATE 900		/* a robot turn waiting this long: a warning */
#define STATUS_BRIEF_MAX 400		/* bytes of the --brief line's text */
#define STATUS_SCREEN_MAX 16384		/* bytes of the report */
#define STATUS_LINE_MAX 4096		/* bytes of a rotated log's line looked at */

enum status_level { STATUS_OK, STATUS_WARNING, STATUS_CRITICAL };

static const char *const level_word[] = { "OK", "WARNING", "CRITICAL" };

struct report {
	enum status_level worst;
	char screen[STATUS_SCREEN_MAX];
	size_t used;
	char brief[STATUS_BRIEF_MAX];	/* the problems, "; " between */
	size_t bused;
	time_t now;
	/* perfdata */
	size_t queued, failed, bouncing, robot;
	long oldest;
};

static void add(char *buf, size_t size, size_t *used, const char *fmt, va_list ap)
{
	int n;

	if (*used >= size)
		return;
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	if (n > 0)
		*used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
}

/* One line of the report; a problem also goes into the brief line (brief: its short form). */
static void line(struct report *r, enum status_level lv, const char *brief, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void line(struct report *r, enum status_level lv, const char *brief, const char *fmt, ...)
{
	static const char *const word[] = { "ok", "warning", "critical" };
	va_list ap;
	size_t n;

	n = (size_t)snprintf(r->screen + r->used, sizeof r->screen - r->used, "%-9s", word[lv]);
	r->used = r->used + n < sizeof r->screen ? r->used + n : sizeof r->screen - 1;
	va_start(ap, fmt);
	add(r->screen, sizeof r->screen, &r->used, fmt, ap);
	va_end(ap);
	if (r->used + 1 < sizeof r->screen)
		r->screen[r->used++] = '\n';
	r->screen[r->used] = '\0';
	if (lv == STATUS_OK)
		return;
	if (lv > r->worst)
		r->worst = lv;
	n = (size_t)snprintf(r->brief + r->bused, sizeof r->brief - r->bused, "%s%s", r->bused > 0 ? "; " : "", brief);
	r->bused = r->bused + n < sizeof r->brief ? r->bused + n : sizeof r->brief - 1;
}

/* "3 min", "2 h", "4 days" */
static const char *ago(long s, char buf[32])
{
	if (s < 120)
		snprintf(buf, 32, "%ld s", s < 0 ? 0 : s);
	else if (s < 7200)
		snprintf(buf, 32, "%ld min", s / 60);
	else if (s < 2 * STATUS_DAY)
		snprintf(buf, 32, "%ld h", s / 3600);
	else
		snprintf(buf, 32, "%ld days", s / STATUS_DAY);
	return buf;
}

static void check_home(struct report *r, const char *home)
{
	char probe[CONFIG_PATH_MAX + 64];
	struct statvfs vfs;
	long long avail, total;
	int fd, pct, ipct = 100;

	snprintf(probe, sizeof probe, "%s/.status-probe.XXXXXX", home);
	fd = mkstemp(probe);
	if (fd < 0) {
		line(r, STATUS_CRITICAL, "home not writable", "home: %s cannot be written: %s", home, strerror(errno));
	} else {
		close(fd);
		unlink(probe);
		line(r, STATUS_OK, "", "home: %s writable", home);
	}
	if (statvfs(home, &vfs) != 0) {
		line(r, STATUS_WARNING, "free space unknown", "disk: statvfs %s: %s", home, strerror(errno));
		return;
	}
	avail = (long long)vfs.f_bavail * (long long)vfs.f_frsize;
	total = (long long)vfs.f_blocks * (long long)vfs.f_frsize;
	pct = total > 0 ? (int)(avail * 100 / total) : 100;
	if (vfs.f_files > 0)
		ipct = (int)((unsigned long long)vfs.f_favail * 100 / vfs.f_files);
	if (avail < STATUS_FREE_CRIT_BYTES || pct < STATUS_FREE_CRIT_PCT || ipct < STATUS_FREE_CRIT_PCT)
		line(r, STATUS_CRITICAL, "disk full", "disk: %lld MB free (%d%%), %d%% of inodes free", avail >> 20, pct,
		    ipct);
	else if (avail < STATUS_FREE_WARN_BYTES || pct < STATUS_FREE_WARN_PCT || ipct < STATUS_FREE_WARN_PCT)
		line(r, STATUS_WARNING, "disk nearly full", "disk: %lld MB free (%d%%), %d%% of inodes free", avail >> 20,
		    pct, ipct);
	else
		line(r, STATUS_OK, "", "disk: %lld MB free (%d%%), %d%% of inodes free", avail >> 20, pct, ipct);
}

/* The queue id's time (time.M<usec>...), 0 if it has none. */
static long long id_time(const char *id)
{
	return strtoll(id, NULL, 10);
}

static void check_outbox(struct report *r, struct store *st)
{
	struct outbox_entry *e = NULL;
	struct outbox *ob = NULL;
	char err[OUTBOX_ERR_MAX], b[32], brief[80];
	size_t n = 0, i;
	long long oldest = 0;
	time_t real = time(NULL);	/* queue ids hold the real time */

	if (outbox_open(st, &ob, err, sizeof err) != OUTBOX_OK) {
		line(r, STATUS_CRITICAL, "outbox unusable", "queue: %s", err);
		return;
	}
	if (outbox_list(ob, &e, &n) != OUTBOX_OK) {
		line(r, STATUS_CRITICAL, "outbox unreadable", "queue: %s", outbox_error(ob));
	} else {
		for (i = 0; i < n; i++)
			if (id_time(e[i].id) > 0 && (oldest == 0 || id_time(e[i].id) < oldest))
				oldest = id_time(e[i].id);
		r->queued = n;
		r->oldest = n > 0 && oldest > 0 && real > oldest ? (long)(real - oldest) : 0;
		snprintf(brief, sizeof brief, "%zu replies queued, the oldest for %s", n, ago(r->oldest, b));
		if (n == 0)
			line(r, STATUS_OK, "", "queue: no reply waiting");
		else
			line(r, r->oldest >= STATUS_DAY ? STATUS_CRITICAL : r->oldest >= STATUS_QUEUE_OLD ? STATUS_WARNING :
			    STATUS_OK, brief, "queue: %zu repl%s waiting, the oldest queued %s ago (oustpbm outbox)", n,
			    n == 1 ? "y" : "ies", ago(r->oldest, b));
	}
	free(e);
	e = NULL;
	if (outbox_list_failed(ob, &e, &n) != OUTBOX_OK) {
		line(r, STATUS_WARNING, "outbox/failed unreadable", "failed: %s", outbox_error(ob));
	} else {
		r->failed = n;
		snprintf(brief, sizeof brief, "%zu failed repl%s", n, n == 1 ? "y" : "ies");
		if (n == 0)
			line(r, STATUS_OK, "", "failed: no reply refused for good");
		else
			line(r, STATUS_WARNING, brief, "failed: %zu repl%s in outbox/failed/ (oustpbm outbox; "
			    "oustpbm outbox retry)", n, n == 1 ? "y" : "ies");
	}
	free(e);
	outbox_close(ob);
}

/* The runs status looks for in the log: "<stamp> flush done: ...". */
static const char *const runs[] = { "flush", "robot", "cleanup" };
#define STATUS_RUNS 3

/* A log line of one of the runs: its time kept in last[] when later. */
static void scan_line(const char *p, size_t len, int64_t last[STATUS_RUNS])
{
	const char *sp = memchr(p, ' ', len);
	size_t k, rest;
	int64_t t;

	if (sp == NULL || !gamefile_time_parse(p, (size_t)(sp - p), &t))
		return;
	rest = len - (size_t)(sp + 1 - p);
	for (k = 0; k < STATUS_RUNS; k++) {
		size_t n = strlen(runs[k]);

		if (rest >= n + 6 && strncmp(sp + 1, runs[k], n) == 0 && strncmp(sp + 1 + n, " done:", 6) == 0 &&
		    t > last[k])
			last[k] = t;
	}
}

/* The current log's last STATUS_LOG_TAIL bytes scanned; false if there is no log to read. */
static bool scan_log(const char *home, int64_t last[STATUS_RUNS])
{
	char path[CONFIG_PATH_MAX + 16], *buf, *p, *nl;
	ssize_t got;
	off_t size;
	int fd;

	snprintf(path, sizeof path, "%s/log", home);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return false;
	size = lseek(fd, 0, SEEK_END);
	buf = malloc(STATUS_LOG_TAIL + 1);
	if (buf == NULL || size < 0 || lseek(fd, size > STATUS_LOG_TAIL ? size - STATUS_LOG_TAIL : 0, SEEK_SET) < 0 ||
	    (got = read(fd, buf, STATUS_LOG_TAIL)) < 0) {
		free(buf);
		close(fd);
		return false;
	}
	close(fd);
	buf[got] = '\0';
	for (p = buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
		scan_line(p, (size_t)(nl - p), last);
	free(buf);
	return true;
}

/*
 * The log logrotate made last (scripts/logrotate: log.1, kept plain by
 * delaycompress; log.1.gz where the admin's rule compresses at once),
 * read whole: zlib reads a plain file as it is.  Right after a rotation
 * the current log holds no run yet, and that is no dead crontab.
 */
static void scan_rotated(const char *home, int64_t last[STATUS_RUNS])
{
	static const char *const names[] = { "log.1", "log.1.gz" };
	char path[CONFIG_PATH_MAX + 16], line[STATUS_LINE_MAX];
	size_t i, len;
	bool start;
	gzFile gz;
	int fd;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", home, names[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		gz = gzdopen(fd, "rb");
		if (gz == NULL) {
			close(fd);
			continue;
		}
		/* a line longer than the buffer comes in pieces: only a piece that starts a line is a line */
		start = true;
		while (gzgets(gz, line, sizeof line) != NULL) {
			len = strlen(line);
			if (start)
				scan_line(line, len > 0 && line[len - 1] == '\n' ? len - 1 : len, last);
			start = len > 0 && line[len - 1] == '\n';
		}
		gzclose(gz);
		return;
	}
}

/* The time of the last "<stamp> WHAT done:" line of each run, the rotated log too; 0: none. */
static void last_runs(const char *home, int64_t last[STATUS_RUNS])
{
	size_t k;

	last[0] = last[1] = last[2] = 0;
	scan_log(home, last);
	for (k = 0; k < STATUS_RUNS; k++)
		if (last[k] == 0) {
			scan_rotated(home, last);
			break;
		}
}

/*
 * cron's runs on time.  A run not in the log (nor in the rotated one) is
 * a crontab not installed, unless the home is younger than the run's
 * schedule and its grace (installed: oustpbm init's stamp, 0 if none).
 */
static void check_cron(struct report *r, const char *home, int64_t installed)
{
	static const long every[] = { STATUS_FLUSH_EVERY, STATUS_ROBOT_EVERY, STATUS_CLEANUP_EVERY };
	enum status_level lv = STATUS_OK, one;
	char text[300], brief[120] = "", b[32];
	size_t used = 0, k;
	int64_t last[STATUS_RUNS];
	long young = installed > 0 ? (long)(r->now - installed) : -1;
	bool any_waiting = false;

	last_runs(home, last);
	for (k = 0; k < STATUS_RUNS; k++) {
		long late = last[k] == 0 ? 0 : (long)(r->now - last[k]) - every[k];
		bool waiting = last[k] == 0 && young >= 0 && young < every[k] + STATUS_LATE;

		if (last[k] == 0)
			one = waiting ? STATUS_OK : STATUS_WARNING;
		else
			one = late >= STATUS_DAY ? STATUS_CRITICAL : late >= STATUS_LATE ? STATUS_WARNING : STATUS_OK;
		if (one > lv)
			lv = one;
		any_waiting = any_waiting || waiting;
		if (waiting)
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s not run yet", k > 0 ? ", " : "",
			    runs[k]);
		else if (last[k] == 0)
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s never ran", k > 0 ? ", " : "", runs[k]);
		else
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %s ago", k > 0 ? ", " : "", runs[k],
			    ago((long)(r->now - last[k]), b));
		if (used >= sizeof text)
			used = sizeof text - 1;
		if (one != STATUS_OK)
			snprintf(brief + strlen(brief), sizeof brief - strlen(brief), "%s%s %s", brief[0] != '\0' ? ", " : "cron: ",
			    runs[k], last[k] == 0 ? "never ran" : "late");
	}
	if (any_waiting && used < sizeof text)
		snprintf(text + used, sizeof text - used, " (installed %s ago)", ago(young, b));
	if (lv == STATUS_OK)
		line(r, lv, "", "cron: %s", text);
	else
		line(r, lv, brief, "cron: %s (scheduled every %d, %d and %d min: is the crontab installed?)", text,
		    STATUS_FLUSH_EVERY / 60, STATUS_ROBOT_EVERY / 60, STATUS_CLEANUP_EVERY / 60);
}

/* A retired server (oustpbm retire) returns every mail: shown, a warning should it be a mistake. */
static void check_retired(struct report *r, struct store *st)
{
	char t[GAMEFILE_TIME_SIZE];
	int64_t since;
	enum store_status ss = lifecycle_read(st, LIFECYCLE_RETIRED_FILE, &since);

	if (ss == STORE_NOT_FOUND)
		return;
	if (ss == STORE_OK || ss == STORE_CORRUPT)
		line(r, STATUS_WARNING, "server retired", "retired: since %s: every mail is returned to its sender "
		    "(oustpbm retire --undo reopens)", since > 0 ? gamefile_time_str(since, t) : "?");
	else
		line(r, STATUS_WARNING, "retired stamp unreadable", "retired: %s", store_error(st));
}

/* Replies that stay on this machine (transport = maildir) reach nobody: a warning. */
static void check_transport(struct report *r, const struct config *cfg, const char *home)
{
	if (strcmp(cfg->transport, "maildir") == 0)
		line(r, STATUS_WARNING, "replies kept on this machine (transport = maildir)",
		    "transport: maildir: the replies stay in %s/mail/, nobody receives them (for tests and the demo; "
		    "set smtp_url = %s for the local MTA)", home, CONFIG_LOCAL_MTA_URL);
	else
		line(r, STATUS_OK, "", "transport: %s to %s", cfg->transport, cfg->smtp_url);
}

/* The robot's turns waiting: boards of the active index with the robot in them, read. */
static void check_robot(struct report *r, struct store *st)
{
	char **names = NULL, b[32], brief[80];
	size_t n = 0, i, pending = 0;
	long oldest = 0;

	if (store_list_dir(st, ACTIVE_DIR, &names, &n) != STORE_OK)
		n = 0;
	for (i = 0; i < n; i++) {
		char name[256], *a, *c, *text = NULL;
		struct gamefile_error gerr;
		struct game g;
		size_t len;
		long board;

		/* <board>.<a>.<b> (active.h): only the robot's boards are read */
		snprintf(name, sizeof name, "%s", names[i]);
		a = strchr(name, '.');
		c = a != NULL ? strchr(a + 1, '.') : NULL;
		if (c == NULL)
			continue;
		*a++ = '\0';
		*c++ = '\0';
		board = strtol(name, NULL, 10);
		if ((!game_user_is_robot(a) && !game_user_is_robot(c)) || board <= 0 || store_board_read(st, board, &text, &len) != STORE_OK)
			continue;
		memset(&g, 0, sizeof g);
		if (gamefile_parse(text, len, &g, &gerr) == GAME_OK) {
			if (robot_to_move(&g)) {
				pending++;
				if ((long)(r->now - g.last_move) > oldest)
					oldest = (long)(r->now - g.last_move);
			}
			game_release(&g);
		}
		free(text);
	}
	store_free_names(names, n);
	r->robot = pending;
	snprintf(brief, sizeof brief, "%zu robot turn%s waiting", pending, pending == 1 ? "" : "s");
	if (pending == 0)
		line(r, STATUS_OK, "", "robot: no turn waiting");
	else
		line(r, oldest >= STATUS_ROBOT_LATE ? STATUS_WARNING : STATUS_OK, brief,
		    "robot: %zu turn%s waiting, the oldest for %s (oustpbm robot)", pending, pending == 1 ? "" : "s",
		    ago(oldest, b));
}

/* The store files with a cap on what is read, and the largest game file. */
static void check_caps(struct report *r, struct store *st, const char *home)
{
	static const struct {
		const char *file;
		long long cap;
	} files[] = {
		{ "users", STORE_USERS_FILE_MAX }, { ACCOUNTS_FILE, ACCOUNTS_FILE_MAX },
		{ AUDIENCE_FILE, AUDIENCE_FILE_MAX }, { RATINGS_FILE, RATINGS_FILE_MAX },
		{ SEEN_FILE, SEEN_FILE_MAX }, { THROTTLE_FILE, THROTTLE_FILE_MAX },
		{ VACATIONS_FILE, VACATIONS_FILE_MAX }, { BOUNCES_FILE, BOUNCES_FILE_MAX },
	};
	char path[CONFIG_PATH_MAX + 64], text[400] = "", brief[120];
	enum status_level lv = STATUS_OK;
	size_t k, used = 0, n = 0;
	long *boards = NULL;
	struct stat sb;
	long long gmax = 0;
	long gboard = 0;

	for (k = 0; k < sizeof files / sizeof files[0]; k++) {
		snprintf(path, sizeof path, "%s/%s", home, files[k].file);
		if (stat(path, &sb) != 0 || (long long)sb.st_size * 100 < files[k].cap * STATUS_CAP_PCT)
			continue;
		lv = STATUS_WARNING;
		used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %lld%% of %lld KB", used > 0 ? ", " : "",
		    files[k].file, (long long)sb.st_size * 100 / files[k].cap, files[k].cap >> 10);
		if (used >= sizeof text)
			used = sizeof text - 1;
	}
	if (store_list_boards(st, &boards, &n) == STORE_OK) {
		for (k = 0; k < n; k++) {
			snprintf(path, sizeof path, "%s/games/%ld.game", home, boards[k]);
			if (stat(path, &sb) == 0 && (long long)sb.st_size > gmax) {
				gmax = (long long)sb.st_size;
				gboard = boards[k];
			}
		}
		free(boards);
	}
	if (gmax * 100 >= STORE_BOARD_FILE_MAX * STATUS_CAP_PCT) {
		lv = STATUS_WARNING;
		used += (size_t)snprintf(text + used, sizeof text - used, "%sgames/%ld.game %lld%% of %ld KB",
		    used > 0 ? ", " : "", gboard, gmax * 100 / STORE_BOARD_FILE_MAX, STORE_BOARD_FILE_MAX >> 10);
	}
	snprintf(brief, sizeof brief, "files near their caps");
	if (lv == STATUS_OK)
		line(r, lv, "", "files: none near its cap (%d%%)", STATUS_CAP_PCT);
	else
		line(r, lv, brief, "files: near the cap: %s", text);
}

static void check_bounces(struct report *r, const struct config *cfg, struct store *st)
{
	struct bounce *list = NULL;
	char t[GAMEFILE_TIME_SIZE], brief[160];
	size_t n = 0, i, below = 0;

	if (bounces_read(st, &list, &n) != STORE_OK) {
		line(r, STATUS_WARNING, "bounces file damaged", "bounces: %s", store_error(st));
		return;
	}
	for (i = 0; i < n; i++) {
		char ids[4][IDENT_USERID_MAX + 1], who[80] = "no account";
		size_t nids = 0, k, used = 0;

		if (!bounces_stopped(&list[i], cfg->bounce_limit)) {
			below++;
			continue;
		}
		r->bouncing++;
		if (store_user_ids_of(st, list[i].address, ids, 4, &nids) == STORE_OK && nids > 0)
			for (k = 0, who[0] = '\0'; k < nids; k++)
				used += (size_t)snprintf(who + used, sizeof who - used, "%s%s", k > 0 ? ", " : "account ", ids[k]);
		snprintf(brief, sizeof brief, "%.120s bounces", list[i].address);
		line(r, STATUS_WARNING, brief,
		    "bounces: %s (%s) gets no mail: %lu bounces, the last %s (%s); a mail from it clears that",
		    list[i].address, who, list[i].count, gamefile_time_str(list[i].last, t), list[i].status);
	}
	if (r->bouncing == 0)
		line(r, STATUS_OK, "", "bounces: no address stopped (%zu below bounce_limit %lu)", below, cfg->bounce_limit);
	free(list);
}

static void check_hosts(struct report *r, struct store *st)
{
	struct hosts h;
	char t[GAMEFILE_TIME_SIZE], brief[HOSTS_NAME_MAX + 16];
	size_t i;

	hosts_read(st, &h);
	for (i = 0; i < h.n; i++) {
		const struct host_state *hs = &h.v[i];
		long next = (long)(hs->next - (long long)r->now);

		if (hs->attempts == 0) {
			line(r, STATUS_OK, "", "host %s: delivering", hs->name);
			continue;
		}
		snprintf(brief, sizeof brief, "host %s down", hs->name);
		line(r, (long long)r->now - hs->first >= STATUS_DAY ? STATUS_CRITICAL : STATUS_WARNING, brief,
		    "host %s: down since %s, %lu failed runs, next in %ld s: %s", hs->name,
		    gamefile_time_str(hs->first, t), hs->attempts, next > 0 ? next : 0, hs->error);
	}
}

enum process_status admin_status_run(struct admin *a)
{
	static struct report r;	/* 17 KB: not on the stack */
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX], t[GAMEFILE_TIME_SIZE];
	struct store *st = NULL;
	bool brief = false;
	int i;

	for (i = 0; i < a->nargs; i++) {
		if (strcmp(a->args[i], "--brief") == 0)
			brief = true;
		else
			return admin_usage_error();
	}
	memset(&r, 0, sizeof r);
	if (config_load(&a->srv.cfg, a->srv.home, err, sizeof err) != CONFIG_OK) {
		line(&r, STATUS_CRITICAL, "configuration error", "configuration: %s", err);
		config_defaults(&a->srv.cfg);
	} else
		line(&r, STATUS_OK, "", "configuration: %s/" CONFIG_FILE " valid", a->srv.home);
	r.now = config_now(&a->srv.cfg);
	if (store_open(a->srv.home, &a->srv.cfg, &st, err, sizeof err) != STORE_OK) {
		line(&r, STATUS_CRITICAL, "home unusable", "home: %s", err);
	} else {
		int64_t installed = 0;

		/* none (a home older than the stamp) or damaged: cron's runs are looked for from the start */
		(void)lifecycle_read(st, LIFECYCLE_INSTALLED_FILE, &installed);
		check_home(&r, a->srv.home);
		check_retired(&r, st);
		check_transport(&r, &a->srv.cfg, a->srv.home);
		check_outbox(&r, st);
		check_cron(&r, a->srv.home, installed);
		check_robot(&r, st);
		check_caps(&r, st, a->srv.home);
		check_bounces(&r, &a->srv.cfg, st);
		check_hosts(&r, st);
		store_close(st);
	}
	if (brief)
		printf("OUSTPBM %s - %s | queued=%zu failed=%zu oldest=%lds bouncing=%zu robot=%zu\n", level_word[r.worst],
		    r.bused > 0 ? r.brief : "replies flowing, cron alive", r.queued, r.failed, r.oldest, r.bouncing,
		    r.robot);
	else
		printf("oustpbm status of %s at %s: %s\n%s", a->srv.home, gamefile_time_str((int64_t)r.now, t),
		    level_word[r.worst], r.screen);
	if (admin_output_done() != PROCESS_OK)
		return PROCESS_IOERR;
	return r.worst == STATUS_OK ? PROCESS_OK : r.worst == STATUS_WARNING ? PROCESS_WARNING : PROCESS_FAILING;
}
