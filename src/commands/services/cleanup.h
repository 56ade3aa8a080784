/*
 * cleanup: `oustpbm cleanup`, run from cron (pbmserv's "Cleanup"): plays
 * the robot player's turns left over (robot_run(), robot.h), reminds
 * players who have not moved, ends games on time, and flushes the outbox.
 *
 * For each board still playing, the header alone (gamefile_parse_header)
 * says whether anything is due, so boards with nothing to do cost one small
 * read and no lock:
 *   - a reminder is due at the header's `remind:` time (set when a turn is
 *     made and when a reminder is sent; a file without it counts from
 *     `last-move:`), if remind_days is not 0.  The player to move gets one
 *     mail (remind.txt, subject "Oust Board 101 reminder bob") and the next
 *     reminder is set remind_days later, on the same schedule;
 *   - a loss on time is due timeout_days after `last-move:`, if timeout_days
 *     is not 0.  The player to move loses (game_timeout(), a `timeout`
 *     history entry) and both players get the game-end mail (timeout.txt,
 *     subject "Oust Board 101 won by alice").  It takes precedence over a
 *     reminder due at the same run;
 *   - a challenge not accepted expires challenge_expiry_days after the
 *     board was made (expire.h): withdrawn, both players told once.  It
 *     takes precedence over both.
 * A board with something due is then handled as a mail is (process.c): its
 * lock taken, the outbox's leftovers for it recovered, the whole file read
 * again (a turn may have arrived meanwhile), the replies staged in an outbox
 * batch, the game file written, the batch committed (outbox.h's protocol).
 * So cleanup may run while mails arrive, and running it twice in a row
 * sends nothing new: what was due has moved on or ended.
 * Then the digests due (digest.h).
 * Then the temp files a crashed write left (store.h) older than
 * CLEANUP_TMP_AGE are removed from the home, games/ and outbox/'s queues
 * (outbox/tmp/ has its own rule, outbox.h).
 * Last, the outbox is flushed (also what earlier runs deferred).
 */
#ifndef OUSTPBM_CLEANUP_H
#define OUSTPBM_CLEANUP_H

#include <stdarg.h>
#include <stdint.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "commands/services/remind.h"
#include "game/game.h"
#include "outbox/outbox.h"
#include "store/store.h"

#define CLEANUP_DAY REMIND_DAY	/* seconds in a day of remind_days and timeout_days */
#define CLEANUP_TMP_AGE CLEANUP_DAY	/* seconds after which a crashed write's temp file is removed */

/*
 * A run's statuses (status.h), graver later: PROCESS_OK, PROCESS_TEMPFAIL
 * (a board was locked, the disk full...: the next run does it),
 * PROCESS_DATAERR (a game file cannot be read (oustpbm fsck says why);
 * others were done), PROCESS_CONFIG (a template is missing or malformed),
 * PROCESS_SOFTWARE (any other failure).
 */

/* What one run did. */
struct cleanup_stats {
	unsigned boards;	/* game files looked at */
	unsigned robot;		/* robot turns played (robot.h) */
	unsigned reminded;	/* reminders queued */
	unsigned timed_out;	/* games ended on time */
	unsigned expired;	/* challenges not accepted in time, withdrawn (expire.h) */
	unsigned digests;	/* digests queued (digest.h) */
	unsigned failed;	/* boards left for the next run or unreadable */
	unsigned tmp_removed;	/* temp files of crashed writes removed */
	struct outbox_stats flush;	/* the final flush */
};

/*
 * One run over every board of srv's store at srv->now, in srv (its outbox
 * opened when first needed, its replies' context set for the run).  Each
 * board's action and each failure is logged and failures are also written
 * to stderr; stats (may be NULL) says what was done.  The worst status of
 * all the boards is returned.
 */
enum process_status cleanup_run(struct server *srv, struct cleanup_stats *stats);

#endif
