/*
 * audience: who gets the mail of a board, the one place that decides it.
 *
 * A board mail goes to the board's players (the robot reads no mail, an
 * account the admin removed gets none), then to its observers: those the
 * game file lists (observers:, every mail; notify:, only the mail that
 * ends the game) and those who watch every board, the home's watchers file:
 *
 *   <home>/watchers       one line per user and kind, "carol all" (every
 *                         mail of every board, `subscribe <userid>
 *                         <password> all`) or "carol results" (the mail
 *                         that ends each board, `notify <userid>
 *                         <password> on`); '#' lines are comments
 *   <home>/watchers.lock  orders its rewrites
 *
 * Each user gets one mail: a player never gets an observer's too, an
 * observer listed twice gets one.  Observer mails count toward nothing
 * (no reminder, no throttle): they are only ever made from this list.
 *
 * Errors are the store's (enum store_status, store_error()).
 */
#ifndef OUSTPBM_AUDIENCE_H
#define OUSTPBM_AUDIENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "game/game.h"
#include "store/store.h"

#define AUDIENCE_FILE "watchers"
#define AUDIENCE_LOCK_FILE "watchers.lock"
#define AUDIENCE_FILE_MAX (4L * 1024 * 1024)	/* bytes of the watchers file */

/* What a user watches of every board (the watchers file). */
enum audience_watch {
	AUDIENCE_ALL = 0,	/* every mail of every board */
	AUDIENCE_RESULTS	/* the mail that ends each board */
};

/* Why a member gets the mail (a reply says how to stop it). */
enum audience_via {
	AUDIENCE_PLAYER = 0,
	AUDIENCE_OBSERVER,	/* the game file's observers: */
	AUDIENCE_NOTIFY,	/* the game file's notify: (the final mail only) */
	AUDIENCE_WATCH_ALL,	/* the watchers file's "all" */
	AUDIENCE_WATCH_RESULTS	/* the watchers file's "results" (the final mail only) */
};

struct audience_member {
	struct store_user user;
	enum audience_via via;
};

/*
 * The recipients of a mail about board g (as it is after the change the
 * mail tells); final: the mail ends the game (the results-only observers
 * get it then).  Players first, in the order black, white.  *out (the
 * caller frees it) has *n members, maybe none.
 */
enum store_status audience_of_board(struct store *st, const struct game *g, bool final,
    struct audience_member **out, size_t *n);

/* Does userid watch kind of every board?  *yes false if the file is missing. */
enum store_status audience_watching(struct store *st, const char *userid, enum audience_watch kind, bool *yes);

/*
 * Make userid watch kind of every board (on) or stop (off), under
 * watchers.lock waited for at most timeout_ms; *changed false when it was
 * so already (nothing written).
 */
enum store_status audience_watch(struct store *st, unsigned long timeout_ms, const char *userid,
    enum audience_watch kind, bool on, bool *changed);

/* Drop every line of userid (a closed account); under the lock as audience_watch(). */
enum store_status audience_forget(struct store *st, unsigned long timeout_ms, const char *userid);

#endif
