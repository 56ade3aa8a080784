/* signoff: an account closed, its boards resigned, its id reserved (signoff.h). */
#include "commands/services/signoff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/boardmail.h"
#include "commands/services/robot.h"
#include "commands/services/tournament.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "store/accounts.h"
#include "store/audience.h"
#include "store/players.h"
#include "store/ratings.h"

int64_t signoff_reserved_until(const struct config *cfg, int64_t since)
{
	return since + (int64_t)cfg->userid_reserve_days * 86400;
}

static enum process_status of_store(enum store_status ss)
{
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* Why a board could not be done: its status and its message (err, errlen bytes), the caller's. */
struct failure {
	enum process_status *s;
	char *err;
	size_t errlen;
};

/*
 * Read board whole (header only if !whole) into g: false with *f->s and
 * f->err set if it cannot be; *gone when it no longer exists (skipped).
 */
static bool load(struct store *st, long board, bool whole, struct game *g, bool *gone, const struct failure *f)
{
	enum process_status *s = f->s;
	char *err = f->err;
	size_t errlen = f->errlen;
	struct gamefile_error gerr;
	enum game_status gs;
	enum store_status ss;

	*gone = false;
	ss = boardcommit_read(st, board, whole, g, &gs, &gerr);
	if (ss == STORE_NOT_FOUND) {
		*gone = true;	/* indexed but never written (players.h), or removed by the admin */
		return false;
	}
	if (ss != STORE_OK) {
		snprintf(err, errlen, "board %ld cannot be read: %s", board, store_error(st));
		*s = ss == STORE_NOT_REGULAR ? PROCESS_DATAERR : of_store(ss);
		return false;
	}
	if (gs != GAME_OK) {
		snprintf(err, errlen, "board %ld cannot be read: %s", board, gs == GAME_NO_MEMORY ? game_status_str(gs) :
		    gerr.msg);
		*s = gs == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_DATAERR;
		return false;
	}
	return true;
}

/* Does userid still play g? */
static bool plays(const struct game *g, const char *userid)
{
	return !game_over(g) && game_color_of(g, userid) != RULES_EMPTY;
}

/*
 * Lock board (lock: the caller unlocks it, taken or not), settle what a
 * crashed run left for it in the outbox, and read it whole into g (the
 * caller releases it): false with *f->s and f->err set if it cannot be, or
 * with *f->s untouched when the board is gone.
 */
static bool lock_load(struct store *st, struct outbox *ob, long board, struct store_lock *lock, struct game *g,
    const struct failure *f)
{
	enum process_status *s = f->s;
	char *err = f->err;
	size_t errlen = f->errlen;
	enum store_status ss;
	enum outbox_status os;
	bool gone;

	ss = store_lock_board(st, board, lock);
	if (ss != STORE_OK) {
		snprintf(err, errlen, "cannot lock board %ld: %s", board, store_error(st));
		*s = of_store(ss);
		return false;
	}
	/* settle what a crashed run left for this board before reading it */
	os = outbox_recover(ob, board, NULL);
	if (os != OUTBOX_OK) {
		snprintf(err, errlen, "cannot recover the outbox of board %ld: %s", board, outbox_error(ob));
		*s = outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		return false;
	}
	return load(st, board, true, g, &gone, f);
}

/* Resign board for userid under its lock, mailing the opponent. */
static enum process_status resign_one(struct server *srv, const char *userid, long board, const char *note, bool *done,
    char *err, size_t errlen)
{
	struct store *st = srv->st;
	struct reply_ctx *rc = &srv->rc;
	time_t now = srv->now;
	struct store_lock lock = STORE_LOCK_INIT;
	enum process_status s = PROCESS_OK;
	struct reply_mail *m = NULL;
	struct reply_event ev;
	enum store_status ss;
	enum process_status bs;
	enum process_status rbs;
	char stamp[GAMEFILE_TIME_SIZE], rline[RATINGS_LINE_MAX];
	struct game g;
	int n = 0;

	*done = false;
	memset(&g, 0, sizeof g);
	if (!lock_load(st, srv->ob, board, &lock, &g, &(struct failure){ &s, err, errlen }))
		goto out;
	if (!plays(&g, userid))
		goto out;	/* over meanwhile */
	if (game_is_open(&g)) {
		/* an open challenge nobody took: withdrawn, as its decline would (nobody to tell) */
		ss = store_board_remove(st, board);
		if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
			snprintf(err, errlen, "cannot withdraw the open challenge %ld: %s", board, store_error(st));
			s = of_store(ss);
			goto out;
		}
		gamefile_time_str((int64_t)now, stamp);
		store_log(st, "%s signoff board=%ld ok: the open challenge of %s withdrawn, closing the account", stamp,
		    board, userid);
		*done = true;
		goto out;
	}
	if (game_resign(&g, userid, (int64_t)now) != GAME_OK) {
		snprintf(err, errlen, "cannot resign board %ld: out of memory", board);
		s = PROCESS_TEMPFAIL;
		goto out;
	}
	g.remind = 0;
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_RESIGN;
	ev.actor = userid;
	ev.first = g.nturns;
	ev.comment = "";
	ev.notice = note;	/* the server's words, not the player's */
	ev.closed = true;	/* no return game against a closed account */
	ratings_mail_line(st, &g, (int64_t)now, rline, sizeof rline);
	ev.ratings = rline;
	/* the opponent and the observers (boardmail.h), not the player closing the account */
	bs = boardmail_make(srv, &g, &ev, userid, &m, &n);
	if (bs != PROCESS_OK && boardmail_status_store(bs)) {
		snprintf(err, errlen, "cannot read the users file: %s", store_error(st));
		s = boardmail_status_temporary(bs) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	if (bs != PROCESS_OK) {
		snprintf(err, errlen, "cannot make the mail of board %ld: %s", board, rc->err);
		s = bs == PROCESS_CONFIG ? PROCESS_CONFIG : bs == PROCESS_NOMEM ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	rbs = robot_commit(srv, &g, m, n, err, errlen);
	if (rbs != PROCESS_OK) {
		s = rbs == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	gamefile_time_str((int64_t)now, stamp);
	store_log(st, "%s signoff board=%ld ok: turn %d: %s resigned, closing the account; %s won", stamp, board,
	    g.nturns, userid, g.rg.result == RULES_BLACK_WINS ? g.black : g.white);
	*done = true;
out:
	boardmail_free(m, n);
	game_release(&g);
	store_unlock(&lock);
	return s;
}

/* Drop userid from the observers of board under its lock (robot_commit's protocol, no mail). */
static enum process_status unobserve_one(struct server *srv, const char *userid, long board, char *err, size_t errlen)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum process_status s = PROCESS_OK;
	enum process_status rbs;
	struct game g;
	int i;

	memset(&g, 0, sizeof g);
	if (!lock_load(srv->st, srv->ob, board, &lock, &g, &(struct failure){ &s, err, errlen }) ||
	    (i = game_observer_find(&g, userid)) < 0)
		goto out;	/* gone, unreadable (fsck's to report), or dropped meanwhile */
	game_observer_remove(&g, i);
	rbs = robot_commit(srv, &g, NULL, 0, err, errlen);
	if (rbs != PROCESS_OK)
		s = rbs == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
out:
	game_release(&g);
	store_unlock(&lock);
	return s;
}

enum process_status signoff_unobserve_all(struct server *srv, const char *userid, char *err, size_t errlen)
{
	struct store *st = srv->st;
	enum process_status s = PROCESS_OK;
	enum store_status ss;
	long *boards = NULL;
	size_t nb = 0, i, len;
	char *text;
	struct game g;

	ss = store_list_boards(st, &boards, &nb);
	if (ss != STORE_OK) {
		snprintf(err, errlen, "cannot list the boards: %s", store_error(st));
		return of_store(ss);
	}
	for (i = 0; i < nb && s == PROCESS_OK; i++) {
		if (store_board_read(st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: nobody's mail goes by it */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && game_observer_find(&g, userid) >= 0)
			s = unobserve_one(srv, userid, boards[i], err, errlen);
		free(text);
	}
	free(boards);
	return s;
}

enum process_status signoff_resign_all(struct server *srv, const char *userid, struct signoff_result *res, char *err,
    size_t errlen)
{
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	enum process_status s = PROCESS_OK;
	enum store_status ss;
	char note[200];
	long *boards = NULL;
	size_t nb = 0, i, k = 0, used = 0;
	bool gone, done;
	struct game g;

	memset(res, 0, sizeof *res);
	err[0] = '\0';
	ss = players_boards(st, cfg->lock_timeout_ms, userid, &boards, &nb);
	if (ss != STORE_OK) {
		snprintf(err, errlen, "cannot list the boards of %s: %s", userid, store_error(st));
		return of_store(ss);
	}
	/* first every board read, so that one that cannot be stops it all before any change */
	for (i = 0; i < nb; i++) {
		memset(&g, 0, sizeof g);
		if (!load(st, boards[i], false, &g, &gone, &(struct failure){ &s, err, errlen })) {
			if (gone)
				continue;
			goto out;
		}
		if (plays(&g, userid))
			boards[k++] = boards[i];
		game_release(&g);
	}
	snprintf(note, sizeof note, "%s closed the account: every board %s played was resigned.", userid, userid);
	for (i = 0; i < k; i++) {
		s = resign_one(srv, userid, boards[i], note, &done, err, errlen);
		if (s != PROCESS_OK)
			goto out;
		if (!done)
			continue;
		res->resigned++;
		if (used + 16 < sizeof res->list)
			used += (size_t)snprintf(res->list + used, sizeof res->list - used, "%s%ld",
			    used > 0 ? ", " : "", boards[i]);
	}
	/* out of the tournaments too: their boards just resigned count as the rule says (tournament.h) */
	{
		char terr[TOURNAMENT_ERR_MAX];

		if (tournament_forget(srv, 0, userid, terr) != PROCESS_OK) {
			snprintf(err, errlen, "%s", terr);
			s = PROCESS_TEMPFAIL;
			goto out;
		}
	}
	s = signoff_unobserve_all(srv, userid, err, errlen);
out:
	free(boards);
	return s;
}

enum store_status signoff_remove(struct server *srv, const char *userid, const char *expect, int64_t since,
    int64_t until)
{
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	enum store_status ss;

	/* the watchers lines first: an account gone never leaves them to a later holder of its id */
	ss = audience_forget(st, cfg->lock_timeout_ms, userid);
	if (ss == STORE_OK)
		ss = store_user_remove(st, userid, expect, since, until);
	return ss;
}
