/*
 * admin_fetch: oustpbm fetch [--idle], the server of a club with a hosted
 * mailbox and no mail system of its own (issue 41): the mail of imap_url
 * (outbox/imap.h) is handled message by message exactly as a piped mail,
 * by process_main() in a child process reading the message on its
 * standard input, then taken out of the mailbox:
 *
 *   handled (answered, refused with a reply, or dropped)
 *                      moved to imap_done_folder, only now that process_main
 *                      has committed and queued its replies durably
 *   a passing failure  (exit 75's statuses: a lock, the disk, the
 *                      configuration, a crash) left in the mailbox for
 *                      the next run; the pipeline has told the admin
 *   never to be handled (no sender to answer: EX_DATAERR's statuses)
 *                      moved to imap_failed_folder, the admin told
 *
 * Never handled twice: the pipeline's redelivery record (seen.h) knows
 * each Message-ID it handled, so a message that comes again after a crash
 * between its handling and its move is dropped as a copy (its replies
 * delivered if they were not) and moved.  A message without a Message-ID
 * is given one made of the mailbox's UIDVALIDITY and its UID, its name
 * for good (RFC 3501 2.3.1.1), as Postfix's cleanup gives one to a mail
 * that comes without (RFC 5322 3.6.4 wants one in every mail).  A mail over max_message_bytes is
 * fetched only up to the cap plus one byte, which the pipeline answers
 * "too large" as it does a piped one.  At most imap_max_per_run messages
 * a run; one fetch at a time (fetch.lock: a second one, cron's while
 * --idle runs, ends at once).
 *
 * --idle: after each run the session waits in IMAP IDLE (RFC 2177),
 * renewed every IMAP_RENEW_IDLE_SECONDS, or, on a server without IDLE,
 * imap_poll_seconds; a run cut short at imap_max_per_run is followed at
 * once by the next; a lost connection is opened again after
 * imap_poll_seconds.  It runs until killed.
 *
 * Test hooks: OUSTPBM_TEST_FETCH_KILL=fetched|processed|moved kills the
 * process (SIGKILL) at that point of the first message;
 * OUSTPBM_TEST_IDLE_SECONDS shortens the IDLE's renewal.
 */
#include "commands/admin/admincmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/imapurl.h"
#include "base/testhook.h"
#include "commands/pipeline/alert.h"
#include "commands/pipeline/process.h"
#include "outbox/imap.h"

#define FETCH_LOCK "fetch.lock"

/* What became of the messages of a run. */
struct fetch_stats {
	unsigned done, failed, left;
	bool stop;		/* a failure every message would meet: the rest wait */
	bool full;		/* imap_max_per_run reached: more may be waiting */
};

/* One fetch: the command's run, its lock, the mailbox's host. */
struct fetch {
	struct admin *a;
	int lockfd;		/* fetch.lock, closed in the children */
	char host[IMAPURL_HOST_MAX + 1];	/* imap_url's: the right side of a Message-ID given */
	struct fetch_stats fs;	/* the last run's */
};

static void kill_point(const char *point)
{
	const char *v = testhook_env("OUSTPBM_TEST_FETCH_KILL");

	if (v != NULL && strcmp(v, point) == 0)
		raise(SIGKILL);
}

/*
 * The message handled as a piped mail: process_main() in a child whose
 * standard input is the message (a memory file), so the pipeline runs as
 * it does for the mail system, its state its own.  *died: the child was
 * killed (its status then means nothing).
 */
static enum process_status handle_message(struct admin *a, int lockfd, const char *msg, size_t len, bool *died)
{
	enum process_status ps = PROCESS_TEMPFAIL;
	size_t done = 0;
	ssize_t w;
	pid_t pid;
	int fd, st;

	*died = false;
	fd = memfd_create("oustpbm-fetch", MFD_CLOEXEC);
	if (fd < 0) {
		store_complain(a->srv.st, "cannot make a memory file for a message: %s", strerror(errno));
		return PROCESS_TEMPFAIL;
	}
	while (done < len) {
		w = write(fd, msg + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			store_complain(a->srv.st, "cannot write a message to a memory file: %s", strerror(errno));
			goto out;
		}
		done += (size_t)w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		goto out;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		store_complain(a->srv.st, "cannot start the handling of a message: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* fetch.lock stays the parent's: closing a copy does not release it (fcntl(2), OFD locks) */
		if (lockfd >= 0)
			close(lockfd);
		if (dup2(fd, STDIN_FILENO) < 0)
			_exit(PROCESS_TEMPFAIL);
		_exit((int)process_main(a->srv.home));
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			store_complain(a->srv.st, "cannot wait for the handling of a message: %s", strerror(errno));
			*died = true;
			goto out;
		}
	if (WIFEXITED(st) && WEXITSTATUS(st) <= PROCESS_RETIRED)
		ps = (enum process_status)WEXITSTATUS(st);
	else
		*died = true;
out:
	close(fd);
	return ps;
}

/* True if the header section of msg has a Message-ID field (RFC 5322 3.6.4). */
static bool has_message_id(const char *msg, size_t len)
{
	size_t i = 0;

	while (i < len) {
		/* a line of the header section: it ends at the first empty line */
		if (msg[i] == '\n' || (msg[i] == '\r' && i + 1 < len && msg[i + 1] == '\n'))
			return false;
		if (len - i >= 11 && strncasecmp(msg + i, "Message-ID:", 11) == 0)
			return true;
		while (i < len && msg[i] != '\n')
			i++;
		i++;
	}
	return false;
}

/*
 * m with a Message-ID field of its own when it has none (see above): a
 * new buffer in place of m->data.  False when out of memory.
 */
static bool name_message(struct imap *im, const char *host, unsigned long uid, struct imap_message *m)
{
	char field[300], *grown;
	int n;

	if (has_message_id(m->data, m->len))
		return true;
	n = snprintf(field, sizeof field, "Message-ID: <oustpbm-fetch.%lu.%lu@%s>\r\n", imap_uidvalidity(im), uid,
	    host);
	if (n < 0 || (size_t)n >= sizeof field)
		return false;
	grown = malloc(m->len + (size_t)n + 1);
	if (grown == NULL)
		return false;
	memcpy(grown, field, (size_t)n);
	memcpy(grown + n, m->data, m->len);
	grown[(size_t)n + m->len] = '\0';
	free(m->data);
	m->data = grown;
	m->len += (size_t)n;
	return true;
}

/* Message uid: fetched, handled, moved as its status says (see above). */
static enum outbox_status one_message(struct fetch *f, struct imap *im, unsigned long uid, char *why, size_t whylen)
{
	struct admin *a = f->a;
	struct fetch_stats *fs = &f->fs;
	const struct config *cfg = &a->srv.cfg;
	char cause[CONFIG_URL_MAX + 2 * CONFIG_FOLDER_MAX];
	struct imap_message m;
	enum outbox_status is;
	enum process_status ps;
	unsigned long size;
	bool died;

	/* one byte over the cap: the pipeline tells a mail too large (mailin.h) from one that just fits */
	is = imap_fetch(im, uid, (size_t)cfg->max_message_bytes + 1, &m, why, whylen);
	if (is == OUTBOX_REFUSED) {
		store_complain(a->srv.st, "fetch: message UID %lu cannot be fetched, left in the mailbox: %s", uid, why);
		fs->left++;
		return OUTBOX_OK;
	}
	if (is != OUTBOX_OK || m.data == NULL)
		return is;	/* the session lost, or the message gone meanwhile (another client) */
	size = m.size;
	if (!name_message(im, f->host, uid, &m)) {
		free(m.data);
		store_complain(a->srv.st, "fetch: out of memory for message UID %lu", uid);
		fs->left++;
		fs->stop = true;
		return OUTBOX_OK;
	}
	kill_point("fetched");
	ps = handle_message(a, f->lockfd, m.data, m.len, &died);
	free(m.data);
	kill_point("processed");
	/* a retired server (oustpbm retire) takes no mail: it stays for whoever takes the mailbox over */
	if (died || ps == PROCESS_TEMPFAIL || ps == PROCESS_CONFIG || ps == PROCESS_SOFTWARE || ps == PROCESS_RETIRED) {
		store_log(a->srv.st, "%s admin fetch UID %lu (%lu bytes): %s, left in the mailbox for the next run",
		    a->srv.stamp, uid, size, died ? "its handling was killed" : process_status_str(ps));
		fs->left++;
		/* the configuration, the templates, a crash: every message would fare alike */
		fs->stop = died || ps != PROCESS_TEMPFAIL;
		return OUTBOX_OK;
	}
	if (ps == PROCESS_OK || ps == PROCESS_DROPPED) {
		is = imap_move(im, uid, cfg->imap_done_folder, why, whylen);
		if (is == OUTBOX_OK) {
			fs->done++;
			store_log(a->srv.st, "%s admin fetch UID %lu (%lu bytes): %s, moved to %s", a->srv.stamp, uid,
			    size, ps == PROCESS_OK ? "handled" : "dropped", cfg->imap_done_folder);
		}
	} else {
		is = imap_move(im, uid, cfg->imap_failed_folder, why, whylen);
		if (is == OUTBOX_OK) {
			fs->failed++;
			snprintf(cause, sizeof cause, "message UID %lu of %s (%lu bytes) can never be handled (%s): "
			    "moved to the folder %s", uid, cfg->imap_url, size, process_status_str(ps),
			    cfg->imap_failed_folder);
			store_log(a->srv.st, "%s admin fetch %s", a->srv.stamp, cause);
			(void)alert_admin(cfg, a->srv.st, a->srv.home, ALERT_MAILBOX_FAILED, cause);
		}
	}
	kill_point("moved");
	if (is == OUTBOX_REFUSED) {
		/* handled, but it stays: the next run finds it again, and its record drops the copy */
		store_complain(a->srv.st, "fetch: message UID %lu handled but not moved: %s", uid, why);
		fs->left++;
		return OUTBOX_OK;
	}
	return is;
}

/* One run over the mailbox: its messages, oldest first, up to imap_max_per_run. */
static enum outbox_status run_once(struct fetch *f, struct imap *im, char *why, size_t whylen)
{
	struct admin *a = f->a;
	struct fetch_stats *fs = &f->fs;
	unsigned long *uids = NULL;
	enum outbox_status is;
	size_t n = 0, i;

	memset(fs, 0, sizeof *fs);
	/* the log's time of this run (--idle runs for days) */
	server_at(&a->srv, config_now(&a->srv.cfg));
	is = imap_create(im, a->srv.cfg.imap_done_folder, why, whylen);
	if (is == OUTBOX_OK)
		is = imap_create(im, a->srv.cfg.imap_failed_folder, why, whylen);
	if (is == OUTBOX_REFUSED)
		return OUTBOX_DENIED;	/* a folder that cannot be made: a setting to fix */
	if (is == OUTBOX_OK)
		is = imap_search(im, a->srv.cfg.imap_max_per_run, &uids, &n, why, whylen);
	for (i = 0; is == OUTBOX_OK && i < n && !fs->stop; i++)
		is = one_message(f, im, uids[i], why, whylen);
	fs->full = n == a->srv.cfg.imap_max_per_run && fs->left == 0 && !fs->stop;
	free(uids);
	if (is == OUTBOX_OK && (fs->done > 0 || fs->failed > 0 || fs->left > 0))
		store_log(a->srv.st, "%s admin fetch done: %u handled, %u to %s, %u left for the next run", a->srv.stamp,
		    fs->done, fs->failed, a->srv.cfg.imap_failed_folder, fs->left);
	return is;
}

/* A failure of the session told: the admin alerted when it is a setting to fix. */
static enum process_status session_failure(struct admin *a, enum outbox_status is, const char *why)
{
	char cause[IMAP_WHY_MAX + 64];

	if (is == OUTBOX_DENIED) {
		store_complain(a->srv.st, "fetch: %s", why);
		snprintf(cause, sizeof cause, "fetch cannot read the mailbox: %s", why);
		/* keyed by the cause, not the text: a server's answer may carry a timing or a session id */
		(void)alert_admin(&a->srv.cfg, a->srv.st, a->srv.home, ALERT_MAILBOX, cause);
		return PROCESS_CONFIG;
	}
	store_complain(a->srv.st, "fetch: %s; the mail waits in the mailbox for the next run", why);
	return PROCESS_TEMPFAIL;
}

static void pause_seconds(unsigned long seconds)
{
	struct timespec ts = { .tv_sec = (time_t)seconds, .tv_nsec = 0 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* --idle: run, wait for new mail, run again, until killed; only a setting to fix ends it. */
static enum process_status run_idle(struct fetch *f)
{
	struct admin *a = f->a;
	const char *t = testhook_env("OUSTPBM_TEST_IDLE_SECONDS");
	unsigned long renew = t != NULL && atol(t) > 0 ? (unsigned long)atol(t) : IMAP_RENEW_IDLE_SECONDS;
	char why[IMAP_WHY_MAX];
	struct imap *im = NULL;
	enum outbox_status is;
	bool news;

	for (;;) {
		is = imap_open(&a->srv.cfg, a->srv.home, &im, why, sizeof why);
		while (is == OUTBOX_OK) {
			is = run_once(f, im, why, sizeof why);
			/* a run cut at imap_max_per_run goes on at once: the mailbox has more */
			if (is == OUTBOX_OK && !f->fs.full)
				is = imap_wait(im, imap_has_idle(im) ? renew : a->srv.cfg.imap_poll_seconds, &news, why,
				    sizeof why);
		}
		imap_close(im);
		im = NULL;
		if (is == OUTBOX_DENIED || is == OUTBOX_NOMEM)
			return session_failure(a, OUTBOX_DENIED, why);
		(void)session_failure(a, is, why);
		pause_seconds(a->srv.cfg.imap_poll_seconds);
	}
}

enum process_status admin_fetch_run(struct admin *a)
{
	struct store_lock lock = { .fd = -1 };
	char why[IMAP_WHY_MAX];
	struct fetch f = { .a = a, .lockfd = -1 };
	struct imapurl u;
	const char *uwhy = NULL;
	struct imap *im = NULL;
	enum process_status as;
	enum outbox_status is;
	enum store_status ss;
	bool idle = a->nargs == 1 && strcmp(a->args[0], "--idle") == 0;

	if (a->nargs > 1 || (a->nargs == 1 && !idle))
		return admin_usage_error();
	if (a->srv.cfg.imap_url[0] == '\0') {
		store_complain(a->srv.st, "fetch needs imap_url (and imap_password_file) in %s", CONFIG_FILE);
		return PROCESS_CONFIG;
	}
	if (imapurl_parse(a->srv.cfg.imap_url, &u, &uwhy))
		snprintf(f.host, sizeof f.host, "%s", u.host);
	ss = store_lock_path(a->srv.st, FETCH_LOCK, 0, &lock);
	if (ss == STORE_TIMEOUT)
		return PROCESS_OK;	/* another fetch (--idle, or the last minute's) reads the mailbox */
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return admin_of_store(ss);
	}
	f.lockfd = lock.fd;
	if (idle) {
		as = run_idle(&f);
		goto out;
	}
	is = imap_open(&a->srv.cfg, a->srv.home, &im, why, sizeof why);
	if (is == OUTBOX_OK)
		is = run_once(&f, im, why, sizeof why);
	imap_close(im);
	if (is != OUTBOX_OK)
		as = session_failure(a, is, why);
	else
		as = f.fs.left > 0 ? PROCESS_TEMPFAIL : PROCESS_OK;
out:
	store_unlock(&lock);
	return as;
}
