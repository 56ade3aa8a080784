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
 *                         <password> on`); '#' lines are comments;
 *                         "carol last 0123456789abcdef", the stamp of the
 *                         mail that last changed carol's lines (below)
 *   <home>/watchers.lock  orders its rewrites
 *
 * A change by mail is an account change (store/accounts.h): committed
 * with its confirmation under accounts.lock, its token "watchers STAMP",
 * which the account holds while its "last" line says STAMP.  The stamp
 * names the mail (audience_stamp), so a copy of a mail whose change was
 * written is known as such and not answered twice.
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
#include <stdint.h>

#include "game/game.h"
#include "store/store.h"

#define AUDIENCE_FILE "watchers"
#define AUDIENCE_LOCK_FILE "watchers.lock"
#define AUDIENCE_FILE_MAX (4L * 1024 * 1024)	/* bytes of the watchers file */
#define AUDIENCE_STAMP_LEN 16			/* hex digits of a stamp */
#define AUDIENCE_TOKEN_MAX (AUDIENCE_STAMP_LEN + 9)	/* "watchers STAMP" */

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
 * so already (nothing written).  stamp (AUDIENCE_STAMP_LEN lower-case hex
 * digits, or NULL) becomes userid's "last" line in the same write.
 */
enum store_status audience_watch(struct store *st, unsigned long timeout_ms, const char *userid,
    enum audience_watch kind, bool on, const char *stamp, bool *changed);

/* The stamp of userid's "last" line into stamp; *found false (stamp "") if none. */
enum store_status audience_last(struct store *st, const char *userid, char stamp[AUDIENCE_STAMP_LEN + 1],
    bool *found);

/*
 * The stamp of a mail: the FNV-1a 64 hash of its Message-ID (mailin.h's
 * message_key) and its sender, so a copy has its stamp; a mail without
 * one (id NULL or "") is stamped by sender, now and the process, never
 * matching another.
 */
void audience_stamp(const char *id, const char *sender, int64_t now, char stamp[AUDIENCE_STAMP_LEN + 1]);

/* The account token of a change stamped stamp (accounts.h), into buf. */
void audience_token(const char *stamp, char buf[AUDIENCE_TOKEN_MAX + 1]);

/* Drop every line of userid, its "last" too (a closed account); under the lock as audience_watch(). */
enum store_status audience_forget(struct store *st, unsigned long timeout_ms, const char *userid);

#endif
