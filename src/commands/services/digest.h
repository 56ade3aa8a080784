/*
 * digest: the players' digests (issue 43), sent by `oustpbm cleanup`.  A
 * player whose setting digest is daily@HH or twice@HH,HH (local hours in
 * their setting timezone, store/settings.h) gets no board mail for an
 * opponent's turn (pipeline/boardquiet.h); instead, at each of those hours,
 * one mail (reply_digest, mail/reply.h) lists every board where they are
 * to move, each with its board, the opponent's last turn, the time left,
 * and its own reply token and tap links, so that a tap plays on its own
 * board.  When the boards do not all fit in one mail under 100 KB, the
 * digest is several mails, "(1 of 3)" and on, each with its boards in
 * full (at most REPLY_DIGEST_PARTS_MAX, the boards past them named by
 * number).  Nothing is sent when nothing waits.
 *
 * A digest hour is due from its start for DIGEST_LATE seconds (cleanup
 * runs every hour: a run missed or failed is made up by the next), once:
 * the hour sent is recorded in the digests file (store/digests.h) with the
 * digest staged as an account change's confirmation is (outbox.h), under
 * accounts.lock, what a crashed run staged settled first: a crash at any
 * step leaves either no record and no digest (the next run sends it) or
 * both; a digest of several parts is staged in that one batch, all of
 * its parts or none.
 */
#ifndef OUSTPBM_DIGEST_H
#define OUSTPBM_DIGEST_H

#include <stdint.h>

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "commands/services/runlog.h"
#include "store/settings.h"

#define DIGEST_LATE (3 * 3600)	/* seconds after its hour a digest is still sent */
#define DIGEST_BOARDS_READ_MAX 2000	/* boards of one player looked at */

/*
 * A run's statuses (status.h), graver later (runlog.h): PROCESS_OK,
 * PROCESS_TEMPFAIL (a lock, the disk, no memory: the next run sends it),
 * PROCESS_CONFIG (a template is missing or malformed), PROCESS_SOFTWARE
 * (any other failure).
 */


/*
 * The start of the latest digest hour of s at or before now (in s's zone),
 * or -1 when s has no digest.
 */
int64_t digest_slot(const struct settings *s, int64_t now);

/*
 * Send every digest due at srv->now in srv (its outbox opened when first
 * needed).  Each failure is said (runlog.h: stderr and the log) and
 * counted in *failed; *sent counts the digests queued.  The gravest
 * status is returned.
 */
enum process_status digest_run(struct server *srv, unsigned *sent, unsigned *failed);

#endif
