/*
 * hosts: each host's backoff, in <home>/outbox/hosts.  A host is where the
 * transport hands the replies (transport_host: the SMTP server's host:port,
 * "local" for the maildir transport).  When a flush finds the host down (no
 * connection, a timeout, a 5xx about the session: TRANSPORT_UNAVAILABLE) its
 * line counts the failed runs and says when the next is due; the replies of
 * that run are marked with the host (the queue file's "host" line).  The
 * first delivery that succeeds resets the host: its line keeps the time
 * ("ok"), and every reply marked with the host whose last attempt was before
 * it is due at once, whatever its own backoff said, so the backlog follows
 * the first reply through (outbox.h).
 *
 * One line per host, written whole (store_write_file) by the flush, under
 * outbox/flush.lock:
 *     HOST ATTEMPTS FIRST NEXT OK ERROR...
 * ATTEMPTS failed runs since the last success (0: the host works), FIRST the
 * first of them, NEXT no run before it (with ATTEMPTS > 0), OK the time of the
 * last success after failures (0: none), times in seconds since the epoch;
 * ERROR the last failure, one line (the rest of the line, "-" if none).  '#'
 * lines are ignored.  The file is small (HOSTS_MAX lines, HOSTS_FILE_MAX
 * bytes read): a damaged or lost file only makes the backlog wait for its
 * own backoff.
 */
#ifndef OUSTPBM_HOSTS_H
#define OUSTPBM_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

#define HOSTS_FILE "outbox/hosts"
#define HOSTS_FILE_MAX 65536	/* bytes read of the file */
#define HOSTS_MAX 16		/* hosts kept: a changed smtp_url leaves its old host behind */
#define HOSTS_NAME_MAX 300	/* bytes of a host name (CONFIG_URL_MAX) */
#define HOSTS_ERROR_MAX 400	/* bytes of the last error kept */

struct host_state {
	char name[HOSTS_NAME_MAX + 1];
	unsigned long attempts;	/* failed runs since the last success; 0: working */
	long long first;	/* the first of them */
	long long next;		/* no run before this */
	long long ok;		/* the last success after failures; 0: none */
	char error[HOSTS_ERROR_MAX + 1];
};

struct hosts {
	struct host_state v[HOSTS_MAX];
	size_t n;
};

/* Read the file into *h (empty if it does not exist or is damaged: see above). */
void hosts_read(struct store *st, struct hosts *h);

/* Write h whole; the caller holds outbox/flush.lock. */
enum store_status hosts_write(struct store *st, const struct hosts *h);

/* The line of name, added (the oldest dropped if full) when missing. */
struct host_state *hosts_get(struct hosts *h, const char *name);

/* The line of name, or NULL. */
const struct host_state *hosts_find(const struct hosts *h, const char *name);

/*
 * The host took a mail at now: true if it was down (its line then reset,
 * ok = now: the replies it held back are due), false if nothing changed.
 */
bool hosts_worked(struct host_state *hs, long long now);

/* The host was down at now: one more failed run, the next after wait seconds, why its first line. */
void hosts_failed(struct host_state *hs, long long now, long wait, const char *why);

/*
 * Is a reply marked with host (its "host" line, "" if none) whose last
 * attempt was at last released by hs: the same host, working again since?
 */
bool hosts_released(const struct host_state *hs, const char *host, long long last);

#endif
