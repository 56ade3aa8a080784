/*
 * robot: the built-in player `robot`, played by the AI (ai.h), so that
 * anyone can play Oust by mail at any hour: `challenge alice pw robot
 * -size=9 -level=3`.
 *
 * The account is built in: it has no line in the users file and no
 * password, nobody can register it or log in as it (every command naming
 * robot as its user is refused), and it gets no mail.  A board it plays
 * stores its level in the game file's `robot-level:` line (AI_DEFAULT_LEVEL
 * when absent).  It plays boards of ROBOT_SIZE_MIN to ROBOT_SIZE_MAX.
 *
 * When the robot is to move, its turn is played, under the board's lock:
 *   - by the mail that made it the robot's turn (a move, a swap, or a
 *     challenge where the robot is Black), right after that mail's change
 *     was committed, so the human's one reply shows both turns;
 *   - else by robot_run(): `oustpbm robot` and `oustpbm cleanup` (cron) play
 *     every robot turn left over (the AI failed, the process died during the
 *     think, the lock was held), so no robot game stalls.
 * Its turn is committed as a mail's is (outbox.h's protocol): the mail to
 * its opponent staged in outbox/tmp/ and tagged with the new game text, the
 * game file written, the mail released.  It adds no line to the redelivery
 * record (seen.h: it answers no mail and is not counted against anyone's
 * max_mails_per_hour).  Under the lock the whole game file is read again
 * and the robot plays only if it is still to move, so two deliveries, or a
 * delivery and a cron run, never play one turn twice.
 *
 * The AI runs in a child process (robot_think): a crash, a hang past the
 * deadline, an error status, or a turn the rules refuse is a fault that is
 * caught and logged, and the game is left as it was for the next run.  The
 * turn it returns is applied with game_move(), which checks every
 * placement, so the robot never makes an illegal placement.  The AI decides
 * the pie rule (AI_SWAP) and may resign a game it sees lost (AI_RESIGN).
 *
 * Think time: the AI gets a deadline robot_seconds (oustpbm.conf) from the
 * start of its think; the child is killed ROBOT_GRACE_MS past it.  Test
 * settings of the environment: OUSTPBM_TEST_ROBOT_PLAYOUTS=n, a fixed
 * playout budget and no deadline (deterministic for a given board, turn
 * and time); OUSTPBM_TEST_ROBOT=first, a test player instead of the AI
 * (the first legal placement at each step; it swaps when Black's first
 * stone is in the middle third of the board), so that the mail texts of the
 * golden tests do not follow the AI's changes; OUSTPBM_TEST_ROBOT=resign,
 * a test player that resigns at once; OUSTPBM_TEST_ROBOT=fail,
 * crash, hang or illegal, an AI that returns GAME_INTERNAL, dies of SIGSEGV,
 * never answers, or answers an occupied point; OUSTPBM_TEST_ROBOT=die, the
 * whole process killed (SIGKILL) during the think (tests/sh/crash.sh).
 */
#ifndef OUSTPBM_ROBOT_H
#define OUSTPBM_ROBOT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/game.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/store.h"

#define ROBOT_SIZE_MIN 5	/* the boards the robot plays */
#define ROBOT_SIZE_MAX 19
#define ROBOT_GRACE_MS 2000	/* past the deadline before the think is killed */
#define ROBOT_DETAIL_MAX 300
#define ROBOT_ERR_MAX 700
#define ROBOT_TURNS_MAX 8	/* robot turns played in a row (the human passing between them) */

/*
 * The robot returns (status.h) PROCESS_OK, PROCESS_FAULT (the AI failed:
 * the game is unchanged, the next run retries), PROCESS_TEMPFAIL (locked,
 * disk full, no memory: the next run retries), PROCESS_CONFIG (a template
 * is missing or malformed) or PROCESS_SOFTWARE (any other failure).
 */

/*
 * OUSTPBM_TEST_ROBOT_PLAYOUTS (test builds only: base/testhook.h): a fixed
 * playout budget a placement into *playouts, 0 when unset; false with why
 * when it is not a number from 1 to 100000000.
 */
bool robot_test_playouts(long *playouts, char *why, size_t whylen);

/* True if g is playing and the robot is to move. */
bool robot_to_move(const struct game *g);

/* The robot's level on g: its robot-level, else AI_DEFAULT_LEVEL. */
int robot_level(const struct game *g);

/*
 * The cap on thinks at once on the host (robot_max_thinking, else the
 * number of processors): a think holds one of the lock files
 * ROBOT_SLOT_FILE 0..cap-1 in the home while it runs, so the count needs
 * no daemon and a dead process frees its slot.  Take one, waiting at most
 * wait_ms for a slot to free: true with *slot held (store_unlock() it),
 * false when every slot stays busy (why says so) or a lock file cannot be
 * used.  A mail takes one without waiting, and leaves the robot's turn to
 * `oustpbm robot` when none is free; the run waits for one.
 */
#define ROBOT_SLOT_FILE "robot-thinking.%lu.lock"
#define ROBOT_SLOTS_MAX 1024
bool robot_slot_take(struct server *srv, unsigned long wait_ms, struct store_lock *slot, char *why, size_t whylen);

/* The robot's turn as played, for the mail and the log. */
struct robot_turn {
	struct reply_event ev;	/* what, actor, first, captured, dead_end; comment "" */
	char detail[ROBOT_DETAIL_MAX];	/* "turn 6: robot played E5,F5, capturing 2 (level 3, 0.41 s)" */
};

/*
 * Think and play the robot's turn on g (robot_to_move(g)) at time now: on
 * PROCESS_OK the turn is applied to g (its history, remind: time and result
 * too) and out says what it was; on PROCESS_FAULT or PROCESS_TEMPFAIL g is
 * unchanged and why (whylen bytes) says what went wrong.
 */
enum process_status robot_play(struct game *g, const struct config *cfg, int64_t now, struct robot_turn *out,
    char *why, size_t whylen);

/*
 * robot_play() again while the robot is to move (the human had to pass),
 * at most ROBOT_TURNS_MAX turns (out holds as many): out[0..*n) are the
 * turns played, their events chained (each ev.then the next).  PROCESS_OK
 * when the robot is no longer to move or ROBOT_TURNS_MAX were played;
 * else the status and why of the turn that could not be,
 * after the *n before it, which stand in g.
 */
enum process_status robot_play_turns(struct game *g, const struct config *cfg, int64_t now,
    struct robot_turn out[ROBOT_TURNS_MAX], int *n, char *why, size_t whylen);

/*
 * Commit g, changed by robot_play(), with its n mails, in srv, as
 * outbox.h's protocol says; the caller holds the board's lock and
 * recovered srv's outbox for it.  PROCESS_OK once the game file holds g (also when only the
 * release of the mails failed: they wait in tmp/ for recovery); else
 * nothing was committed and err says why (boardcommit.h's protocol).
 */
enum process_status robot_commit(struct server *srv, const struct game *g, const struct reply_mail *mails, int n,
    char *err, size_t errlen);

/* What one robot_run() did. */
struct robot_stats {
	unsigned boards;	/* game files looked at */
	unsigned played;	/* robot turns played */
	unsigned failed;	/* robot turns left for the next run (faults, locks...) */
};

/*
 * One run plays the robot's turns at a time: robot_run() holds
 * ROBOT_RUN_LOCK of the home, and a run that finds it held (an overlapping
 * cron run) logs so and leaves the turns to it.  The reviews have their
 * own run lock (review.h).
 */
#define ROBOT_RUN_LOCK "robot-turns.lock"

/*
 * Play every robot turn due on the boards of srv's store (all of them when
 * nboards is 0, else the nboards given), at srv->now, in srv (its outbox
 * opened when first needed, its replies' context set for the robot).  A
 * board whose lock is held is left for the next run.  Each turn and each
 * failure is logged; failures also go to stderr.  Returns the worst status
 * (PROCESS_FAULT when a turn could not be played, PROCESS_TEMPFAIL for a board
 * left locked).  stats may be NULL.
 */
enum process_status robot_run(struct server *srv, const long *boards, size_t nboards, struct robot_stats *stats);

#endif
