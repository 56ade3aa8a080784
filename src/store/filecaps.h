/*
 * filecaps: the files of the home that mail makes grow, each with the cap
 * its readers read (one table: fsck's warnings and cleanup's pruning come
 * from it).  Every write of them goes through store_write_capped() (or, for
 * the appended redelivery record, a compaction), so none grows past what is
 * read, and what has expired is dropped at every write and by cleanup
 * (filecaps_prune).  A file over its cap all the same (an older version,
 * an admin's copy) is read as empty where that is safe (codes, throttle,
 * seen: records of an hour or a day) or as no watchers for a board mail,
 * and a rewrite that would lose lines is refused.
 *
 * Errors are the store's.
 */
#ifndef OUSTPBM_FILECAPS_H
#define OUSTPBM_FILECAPS_H

#include <stddef.h>
#include <time.h>

#include "base/config.h"
#include "store/store.h"

/* One capped file (or folder) and, after filecaps_usage, its size. */
struct filecap {
	const char *file;	/* relative to the home */
	long cap;		/* bytes read of it; of a folder, bytes of its files together */
	const char *what;	/* what fills it, for fsck's warning */
	long long size;		/* bytes now, 0 when missing */
	long count_cap;		/* a folder: the most files it holds; 0 for a file */
	long long count;	/* a folder: its files now */
};

/*
 * robot-queue/ of a robot host: the board mails waiting for a think slot
 * (admin/admin_robot_mail.c).  Past either cap a board mail is not
 * queued: the MTA keeps it (exit 75) and delivers it again later.
 */
#define FILECAPS_ROBOT_QUEUE "robot-queue"
#define FILECAPS_ROBOT_QUEUE_COUNT 100			/* board mails */
#define FILECAPS_ROBOT_QUEUE_BYTES (4L * 1024 * 1024)	/* bytes of them together */

#define FILECAPS_N 20

/* The table with the files' sizes now (stat); a file that cannot be stat'ed counts 0. */
void filecaps_usage(struct store *st, struct filecap out[FILECAPS_N]);


/*
 * Drop what has expired from the files that keep it (the codes older than
 * a day, the throttle's failures older than its hour); *dropped counts the
 * lines.  Each under its own lock, as their writes.
 */
enum store_status filecaps_prune(struct store *st, const struct config *cfg, time_t now, unsigned *dropped);

#endif
