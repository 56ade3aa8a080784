/* cleanup: reminders, losses on time and the outbox flush, from cron.  See cleanup.h. */
#include "commands/services/cleanup.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/txn.h"
#include "commands/pipeline/boardmail.h"
#include "commands/pipeline/replytoken.h"
#include "commands/services/clock.h"
#include "commands/services/digest.h"
#include "commands/services/expire.h"
#include "commands/services/remind.h"
#include "commands/services/robot.h"
#include "commands/services/tournament.h"
#include "commands/services/runlog.h"
#include "commands/services/web.h"
#include "game/gamefile.h"
#include "mail/reply.h"
#include "outbox/transport.h"
#include "store/active.h"
#include "store/pending.h"
#include "store/filecaps.h"
#include "store/ratings.h"
#include "store/tokens.h"
#include "store/vacations.h"

/* One run: what every board shares. */
struct run {
	struct server *srv;	/* the caller's: its store, outbox (opened when first needed), replies' context */
	struct runlog log;	/* its failures, the gravest its status */
	struct cleanup_stats *stats;
	struct active_board *playing;	/* the boards found being played, for active_sync */
	size_t nplaying, alloc_playing;
	bool playing_nomem;
	struct vacation *vac;	/* the vacations file (vacations.h), read once */
	size_t nvac;
};

/*
 * The time a reminder is due on g (header read), or 0 for none; stopped:
 * the seconds the clock of the player to move stood still (a vacation).
 */
static int64_t remind_due(const struct config *cfg, const struct game *g, int64_t stopped)
{
	if (game_over(g) || game_is_open(g) || game_remind_days(g, cfg->remind_days) == 0)
		return 0;
	/* a file written before reminders existed counts from its last turn */
	return gamefile_time_add(g->remind != 0 ? g->remind : remind_at(cfg, g), stopped);
}

/* The time g is lost on time, or 0 for never: its own limit, else timeout_days; stopped as for remind_due(). */
static int64_t timeout_due(const struct config *cfg, const struct game *g, int64_t stopped)
{
	int64_t at = game_timeout_at(g, cfg->timeout_days);

	return at == 0 ? 0 : gamefile_time_add(at, stopped);
}

/*
 * How long the clock of g's player to move stood still since the last
 * turn: the part of their vacation (vacations.h) after it, up to now.
 */
static int64_t clock_stopped(const struct run *r, const struct game *g)
{
	const char *who = game_player_to_move(g);

	if (who == NULL)
		return 0;
	return vacation_stopped(vacations_of(r->vac, r->nvac, who), g->last_move, r->srv->now);
}

/* A board that could not be done: logged, on stderr, counted. */
static void board_failed(struct run *r, long board, enum process_status s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void board_failed(struct run *r, long board, enum process_status s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	runlog_vfailed(&r->log, board, s, fmt, ap);
	va_end(ap);
}

static enum process_status of_reply(enum mail_status rs)
{
	return rs == MAIL_NOMEM ? PROCESS_TEMPFAIL : rs == MAIL_TEMPLATE ? PROCESS_CONFIG : PROCESS_SOFTWARE;
}

/* player's mail address into p; false if the account is gone (nobody to tell) or on failure (*s set). */
static bool find_player(struct run *r, const char *userid, struct store_user *u, struct reply_player *p,
    enum process_status *s)
{
	enum store_status ss = store_user_find(r->srv->st, userid, u);

	*s = PROCESS_OK;
	if (ss != STORE_OK) {
		if (ss != STORE_NOT_FOUND)
			*s = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		return false;
	}
	p->userid = u->userid;
	p->address = u->address;
	p->fullname = u->fullname;
	return true;
}

/*
 * The reply token of u, the player to move on g, into token and p->token,
 * as a board mail's: a reply or a tap of the reminder or warning plays
 * (issue 40); without it (said on stderr) a password does.
 */
static void player_token(struct run *r, const struct game *g, const struct store_user *u, struct reply_player *p,
    char token[TOKEN_TEXT_SIZE])
{
	char err[TOKENS_ERR_MAX];

	token[0] = '\0';
	p->token = NULL;
	if (replytoken_of(r->srv->st, g->board, u, token, err) != STORE_OK)
		msg_warn("no reply token for %s: %s", u->userid, err);
	else
		p->token = token;
}

/*
 * Write g (its lock held) with its n mails, as outbox.h's protocol says.
 * Returns PROCESS_OK once the game file is written.
 */
static enum process_status commit(struct run *r, const struct game *g, const struct reply_mail *mails, int n)
{
	struct txn *t = NULL;
	struct txn_failure f;
	enum process_status ts;
	enum process_status s = PROCESS_OK;

	if (txn_begin_board(r->srv, g, &t) != PROCESS_OK) {
		board_failed(r, g->board, PROCESS_TEMPFAIL, "out of memory");
		return PROCESS_TEMPFAIL;
	}
	txn_add_mails(t, mails, n);
	ts = txn_commit(t);
	if (ts != PROCESS_OK) {
		s = ts == PROCESS_TEMPFAIL ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		txn_failure(t, &f);
		if (f.layer == TXN_LAYER_OTHER && strcmp(f.what, "tempfail") == 0)
			board_failed(r, g->board, s, "%s", f.message);
		else
			board_failed(r, g->board, s, "%s: %s", f.what, f.message);
	} else {
		web_after_commit(r->srv, g);
	}
	txn_free(t);
	return s;
}

/* End g on time: the player to move loses; both players (and its observers: boardmail.h) are told. */
static void time_out(struct run *r, struct game *g)
{
	struct reply_mail *mails = NULL;
	struct reply_event ev;
	enum process_status bs;
	enum game_status gs;
	char loser[GAME_NAME_SIZE], rline[RATINGS_LINE_MAX];
	int n = 0;

	snprintf(loser, sizeof loser, "%s", game_player_to_move(g));
	gs = game_timeout(g, loser, r->srv->now);
	if (gs != GAME_OK) {
		board_failed(r, g->board, gs == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot end the game on time: %s", game_status_str(gs));
		return;
	}
	g->remind = 0;
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_TIMEOUT;
	ev.actor = loser;
	ev.first = g->nturns;
	ev.comment = "";
	ev.days = (int)game_timeout_days(g, r->srv->cfg.timeout_days);
	ratings_mail_line(r->srv->st, g, r->srv->now, rline, sizeof rline);
	ev.ratings = rline;
	bs = boardmail_make(r->srv, g, &ev, NULL, &mails, &n);
	if (bs != PROCESS_OK && boardmail_status_store(bs)) {
		board_failed(r, g->board, boardmail_status_temporary(bs) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot read the users file: %s", store_error(r->srv->st));
		return;
	}
	if (bs != PROCESS_OK) {
		board_failed(r, g->board, bs == PROCESS_NOMEM ? PROCESS_TEMPFAIL : bs == PROCESS_CONFIG ?
		    PROCESS_CONFIG : PROCESS_SOFTWARE, "cannot make the mail: %s", r->srv->rc.err);
		return;
	}
	if (commit(r, g, mails, n) == PROCESS_OK) {
		r->stats->timed_out++;
		if (g->clock_base != 0)
			store_log(r->srv->st, "%s cleanup board=%ld ok: turn %d: %s lost on time, the clock at zero; %s won",
			    r->srv->stamp, g->board, g->nturns, loser, g->rg.result == RULES_BLACK_WINS ? g->black :
			    g->white);
		else
			store_log(r->srv->st, "%s cleanup board=%ld ok: turn %d: %s lost on time after %lu day%s; %s won",
		    r->srv->stamp, g->board, g->nturns, loser, game_timeout_days(g, r->srv->cfg.timeout_days),
		    game_timeout_days(g, r->srv->cfg.timeout_days) == 1 ? "" : "s",
		    g->rg.result == RULES_BLACK_WINS ? g->black : g->white);
	}
	boardmail_free(mails, n);
}

/* Remind the player to move on g, due since due; the next reminder remind_days later. */
static void remind(struct run *r, struct game *g, int64_t due, int64_t stopped)
{
	int64_t period = (int64_t)game_remind_days(g, r->srv->cfg.remind_days) * CLEANUP_DAY;
	struct reply_mail m;
	struct reply_player p = { 0 };
	struct store_user u;
	enum mail_status rs;
	enum process_status s;
	const char *who = game_player_to_move(g);
	char next[GAMEFILE_TIME_SIZE], token[TOKEN_TEXT_SIZE];
	int days = (int)((r->srv->now - g->last_move - stopped) / CLEANUP_DAY);
	int n = 0;

	memset(&m, 0, sizeof m);
	/* on the same schedule, however late this run is: the first due time after now */
	g->remind = due + ((r->srv->now - due) / period + 1) * period;
	/* the header keeps the time on the running clock: the stop is counted out again when read */
	g->remind -= stopped;
	if (find_player(r, who, &u, &p, &s)) {
		player_token(r, g, &u, &p, token);
		rs = reply_reminder(&r->srv->rc, g, &p, days, timeout_due(&r->srv->cfg, g, stopped), &m);
		explicit_bzero(token, sizeof token);
		if (rs != MAIL_OK) {
			board_failed(r, g->board, of_reply(rs), "cannot make the reminder: %s", r->srv->rc.err);
			return;
		}
		n = 1;
	} else if (s != PROCESS_OK) {
		board_failed(r, g->board, s, "cannot read the users file: %s", store_error(r->srv->st));
		return;
	}
	if (commit(r, g, &m, n) == PROCESS_OK) {
		r->stats->reminded += (unsigned)n;
		store_log(r->srv->st, "%s cleanup board=%ld ok: %s %s, idle %d day%s; next reminder %s", r->srv->stamp,
		    g->board, n == 1 ? "reminded" : "no account to remind:", who, days, days == 1 ? "" : "s",
		    gamefile_time_str(g->remind, next));
	}
	reply_mail_release(&m);
}

/* Warn the player to move on g that their clock passed mark hours, left seconds left; c its stops. */
static void warn(struct run *r, struct game *g, int mark, int64_t left, const struct clockstops *c)
{
	struct reply_warn w = { mark, left, clockstops_runs_out(c, r->srv->now, left), c->zone };
	struct reply_mail m;
	struct reply_player p = { 0 };
	struct store_user u;
	enum mail_status rs;
	enum process_status s;
	const char *who = game_player_to_move(g);
	char token[TOKEN_TEXT_SIZE];
	int n = 0;

	memset(&m, 0, sizeof m);
	g->clock_warned = mark;	/* never twice for this mark, nor for the larger ones it passed */
	if (find_player(r, who, &u, &p, &s)) {
		player_token(r, g, &u, &p, token);
		rs = reply_warning(&r->srv->rc, g, &p, &w, &m);
		explicit_bzero(token, sizeof token);
		if (rs != MAIL_OK) {
			board_failed(r, g->board, of_reply(rs), "cannot make the warning: %s", r->srv->rc.err);
			return;
		}
		n = 1;
	} else if (s != PROCESS_OK) {
		board_failed(r, g->board, s, "cannot read the users file: %s", store_error(r->srv->st));
		return;
	}
	if (commit(r, g, &m, n) == PROCESS_OK) {
		r->stats->reminded += (unsigned)n;
		store_log(r->srv->st, "%s cleanup board=%ld ok: %s %s, %lld hour%s left, under the mark of %d hour%s",
		    r->srv->stamp, g->board, n == 1 ? "warned" : "no account to warn:", who, (long long)(left / 3600),
		    left / 3600 == 1 ? "" : "s", mark, mark == 1 ? "" : "s");
	}
	reply_mail_release(&m);
}

/* Withdraw g, a challenge not accepted in time (expire.h); out of the index of active boards. */
static void withdraw(struct run *r, struct game *g)
{
	enum process_status es;
	char err[400];

	es = expire_board(r->srv, g, err, sizeof err);
	if (es != PROCESS_OK) {
		board_failed(r, g->board, es, "cannot withdraw the expired challenge: %s", err);
		return;
	}
	r->stats->expired++;
	if (r->nplaying > 0 && r->playing[r->nplaying - 1].board == g->board)
		r->nplaying--;
	store_log(r->srv->st, "%s cleanup board=%ld ok: challenge not accepted within %lu day%s, withdrawn",
	    r->srv->stamp, g->board, r->srv->cfg.challenge_expiry_days,
	    r->srv->cfg.challenge_expiry_days == 1 ? "" : "s");
}

/* Open the outbox on first use; false after a failure was counted. */
static bool need_outbox(struct run *r, long board)
{
	char err[OUTBOX_ERR_MAX];
	enum outbox_status os;

	os = server_outbox(r->srv, err, sizeof err);
	if (os != OUTBOX_OK) {
		board_failed(r, board, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot open the outbox: %s", err);
		return false;
	}
	return true;
}

/* Read board into g: the header only, or the whole file; false after a failure was counted. */
static bool load(struct run *r, long board, bool whole, struct game *g)
{
	struct gamefile_error gerr;
	enum game_status gs;
	enum store_status ss;

	ss = boardcommit_read(r->srv->st, board, whole, g, &gs, &gerr);
	if (ss == STORE_NOT_FOUND)
		return false;	/* removed by the admin meanwhile: nothing to do */
	if (ss != STORE_OK) {
		board_failed(r, board, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot read the game file: %s", store_error(r->srv->st));
		return false;
	}
	if (gs != GAME_OK) {
		if (gs == GAME_NO_MEMORY)
			board_failed(r, board, PROCESS_TEMPFAIL, "out of memory");
		else
			board_failed(r, board, PROCESS_DATAERR, "games/%ld.game %s", board, gerr.msg);
		return false;
	}
	return true;
}

/* Note g for the index of active boards if it is being played. */
static void note_playing(struct run *r, const struct game *g)
{
	struct active_board *p;
	size_t n;

	if (game_over(g) || game_is_open(g) || r->playing_nomem)
		return;
	if (r->nplaying == r->alloc_playing) {
		n = r->alloc_playing != 0 ? 2 * r->alloc_playing : 64;
		p = realloc(r->playing, n * sizeof *p);
		if (p == NULL) {
			r->playing_nomem = true;	/* the index is left as it is */
			return;
		}
		r->playing = p;
		r->alloc_playing = n;
	}
	p = &r->playing[r->nplaying++];
	p->board = g->board;
	snprintf(p->black, sizeof p->black, "%s", g->black);
	snprintf(p->white, sizeof p->white, "%s", g->white);
}

/*
 * The board's lock taken, the outbox recovered for it and g read again
 * whole (a turn may have come in since its header was read); false after
 * a failure was counted (the lock, if taken, is the caller's to release).
 */
static bool lock_reload(struct run *r, long board, struct store_lock *lock, struct game *g)
{
	enum store_status ss;
	enum outbox_status os;

	ss = store_lock_board(r->srv->st, board, lock);
	if (ss != STORE_OK) {
		board_failed(r, board, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot lock the board: %s", store_error(r->srv->st));
		return false;
	}
	if (!need_outbox(r, board))
		return false;
	/* settle what a crashed run left for this board before reading it */
	os = outbox_recover(r->srv->ob, board, NULL);
	if (os != OUTBOX_OK) {
		board_failed(r, board, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot recover the outbox: %s", outbox_error(r->srv->ob));
		return false;
	}
	game_release(g);
	return load(r, board, true, g);
}

/* A board with a clock (clock.h): lost on time at zero, else a warning at a mark passed. */
static void clocked_board(struct run *r, long board, struct game *g)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct clockstops c;
	enum clock_due due;
	enum store_status ss;
	int64_t left;
	int mark;

	ss = clock_due(r->srv, g, r->srv->now, &due, &left, &mark, &c);
	if (ss != STORE_OK) {
		board_failed(r, board, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot read the stops of the clock: %s", store_error(r->srv->st));
		return;
	}
	if (due == CLOCK_NOTHING)
		return;	/* nothing due: no lock, no history read */
	if (!lock_reload(r, board, &lock, g))
		goto out;
	ss = clock_due(r->srv, g, r->srv->now, &due, &left, &mark, &c);
	if (ss != STORE_OK)
		board_failed(r, board, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot read the stops of the clock: %s", store_error(r->srv->st));
	else if (due == CLOCK_TIMEOUT) {
		time_out(r, g);
		if (game_over(g) && r->nplaying > 0 && r->playing[r->nplaying - 1].board == board)
			r->nplaying--;
	} else if (due == CLOCK_WARN) {
		warn(r, g, mark, left, &c);
	}
out:
	store_unlock(&lock);
}

static void one_board(struct run *r, long board)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	enum outbox_status os;
	struct game g;
	int64_t rdue, tdue, edue, stopped;

	memset(&g, 0, sizeof g);
	r->stats->boards++;
	if (!load(r, board, false, &g))
		return;
	note_playing(r, &g);
	edue = expire_due(&r->srv->cfg, &g);
	if (g.clock_base != 0 && (edue == 0 || edue > r->srv->now)) {
		clocked_board(r, board, &g);
		game_release(&g);
		return;
	}
	rdue = remind_due(&r->srv->cfg, &g, clock_stopped(r, &g));
	tdue = timeout_due(&r->srv->cfg, &g, clock_stopped(r, &g));
	if ((rdue == 0 || rdue > r->srv->now) && (tdue == 0 || tdue > r->srv->now) &&
	    (edue == 0 || edue > r->srv->now))
		return;	/* nothing due: no lock, no history read */
	ss = store_lock_board(r->srv->st, board, &lock);
	if (ss != STORE_OK) {
		board_failed(r, board, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot lock the board: %s", store_error(r->srv->st));
		return;
	}
	if (!need_outbox(r, board))
		goto out;
	/* settle what a crashed run left for this board before reading it */
	os = outbox_recover(r->srv->ob, board, NULL);
	if (os != OUTBOX_OK) {
		board_failed(r, board, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot recover the outbox: %s", outbox_error(r->srv->ob));
		goto out;
	}
	/* a turn may have come in since the header was read */
	if (!load(r, board, true, &g))
		goto out;
	stopped = clock_stopped(r, &g);
	rdue = remind_due(&r->srv->cfg, &g, stopped);
	tdue = timeout_due(&r->srv->cfg, &g, stopped);
	edue = expire_due(&r->srv->cfg, &g);
	if (edue != 0 && edue <= r->srv->now) {
		/* a challenge never answered is withdrawn, not lost on time by whoever was to start */
		withdraw(r, &g);
	} else if (g.clock_base != 0) {
		;	/* a clocked board's time is clocked_board()'s, on the next run */
	} else if (tdue != 0 && tdue <= r->srv->now) {
		time_out(r, &g);
		/* ended: out of the index (its commit removed the entry) */
		if (game_over(&g) && r->nplaying > 0 && r->playing[r->nplaying - 1].board == board)
			r->nplaying--;
	} else if (rdue != 0 && rdue <= r->srv->now) {
		remind(r, &g, rdue, stopped);
	}
out:
	store_unlock(&lock);
	game_release(&g);
}

/* The temp files crashed writes left, older than CLEANUP_TMP_AGE (store_remove_stale_tmp). */
static void remove_stale_tmp(struct run *r)
{
	static const char *const dirs[] = { ".", "games", "outbox", "outbox/new", "outbox/failed" };
	enum store_status ss;
	size_t i;

	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		ss = store_remove_stale_tmp(r->srv->st, dirs[i], (time_t)(r->srv->now - CLEANUP_TMP_AGE), &r->stats->tmp_removed);
		if (ss != STORE_OK)
			board_failed(r, 0, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
			    "cannot remove old temp files: %s", store_error(r->srv->st));
	}
	if (r->stats->tmp_removed > 0)
		store_log(r->srv->st, "%s cleanup board=0 ok: removed %u temp file%s of interrupted writes, older than "
		    "a day", r->srv->stamp, r->stats->tmp_removed, r->stats->tmp_removed == 1 ? "" : "s");
}

/* The registrations never confirmed, a day old (store/pending.h): their user ids free again. */
static void prune_pending(struct run *r)
{
	enum store_status ss;
	size_t dropped = 0;

	ss = pending_prune(r->srv->st, r->srv->now, &dropped);
	if (ss != STORE_OK)
		board_failed(r, 0, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot prune the pending registrations: %s", store_error(r->srv->st));
	else if (dropped > 0)
		store_log(r->srv->st, "%s cleanup board=0 ok: dropped %zu registration%s a day old", r->srv->stamp, dropped,
		    dropped == 1 ? "" : "s");
}

enum process_status cleanup_run(struct server *srv, struct cleanup_stats *stats)
{
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	time_t now = srv->now;
	const struct transport_ops *ops = transport_find(cfg->transport);
	struct cleanup_stats dummy;
	struct robot_stats rstats;
	enum process_status rs;
	struct run r;
	enum store_status ss;
	enum outbox_status os;
	long *boards = NULL;
	size_t n = 0, i;

	if (stats == NULL)
		stats = &dummy;
	memset(stats, 0, sizeof *stats);
	memset(&r, 0, sizeof r);
	r.srv = srv;
	r.stats = stats;
	r.log = (struct runlog){ st, "cleanup", srv->stamp, NULL, &stats->failed, PROCESS_OK };
	/* first the robot turns left over, so that a turn played is not reminded of */
	rs = robot_run(srv, NULL, 0, &rstats);
	server_reply_init(srv, "cleanup");

	stats->robot = rstats.played;
	stats->failed += rstats.failed;
	if (rs == PROCESS_TEMPFAIL || rs == PROCESS_FAULT)
		runlog_worse(&r.log, PROCESS_TEMPFAIL);
	else if (rs == PROCESS_CONFIG)
		runlog_worse(&r.log, PROCESS_CONFIG);
	else if (rs != PROCESS_OK)
		runlog_worse(&r.log, PROCESS_SOFTWARE);
	ss = store_list_boards(st, &boards, &n);
	if (ss != STORE_OK) {
		msg_warn("cleanup: cannot list the boards: %s", store_error(st));
		runlog_worse(&r.log, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE);
		n = 0;
	}
	/* without the vacations, nobody is reminded or timed out: a player away would be */
	ss = vacations_read(st, &r.vac, &r.nvac);
	if (ss != STORE_OK) {
		board_failed(&r, 0, store_status_temporary(ss) ? PROCESS_TEMPFAIL : ss == STORE_CORRUPT ?
		    PROCESS_DATAERR : PROCESS_SOFTWARE, "cannot read the vacations, no reminder or loss on time "
		    "this run: %s", store_error(st));
		n = 0;
	}
	for (i = 0; i < n; i++)
		one_board(&r, boards[i]);
	free(boards);
	/* the index of active boards agrees with the game files just read (active.h) */
	if (ss == STORE_OK && !r.playing_nomem) {
		unsigned fixed;

		if (active_sync(st, r.playing, r.nplaying, &fixed) != STORE_OK)
			msg_warn("cleanup: cannot update the index of active boards: %s",
			    store_error(st));
	}
	free(r.playing);
	/* the tournaments after the boards: a game lost on time just now ends its round (tournament.h) */
	{
		unsigned settled;
		char terr[TOURNAMENT_ERR_MAX];

		if (tournament_settle_all(srv, &settled, terr) != PROCESS_OK)
			board_failed(&r, 0, PROCESS_TEMPFAIL, "cannot settle the tournaments: %s", terr);
		/* their pages, and the feed's open challenges (expired ones gone) */
		web_tournaments_after(srv);
	}
	/* the digests due this hour, after the boards' changes (digest.h): OK, TEMPFAIL, CONFIG or SOFTWARE */
	runlog_worse(&r.log, digest_run(srv, &stats->digests, &stats->failed));
	remove_stale_tmp(&r);
	prune_pending(&r);
	/* what has expired, out of the capped files (filecaps.h), even with no mail to write them */
	{
		unsigned dropped = 0;

		ss = filecaps_prune(st, cfg, now, &dropped);
		if (ss != STORE_OK)
			board_failed(&r, 0, store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
			    "cannot prune the codes or the throttle: %s", store_error(st));
		else if (dropped > 0)
			store_log(st, "%s cleanup board=0 ok: pruned %u expired line%s of the codes and throttle "
			    "files", srv->stamp, dropped, dropped == 1 ? "" : "s");
	}
	if (srv->ob == NULL && !need_outbox(&r, 0))
		goto out;
	if (ops == NULL) {
		msg_warn("cleanup: unknown transport '%s'", cfg->transport);
		runlog_worse(&r.log, PROCESS_CONFIG);
		goto out;
	}
	os = outbox_flush(srv->ob, ops, cfg, &stats->flush);
	if (os != OUTBOX_OK) {
		msg_warn("cleanup: cannot flush the outbox: %s", outbox_error(srv->ob));
		runlog_worse(&r.log, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE);
	}
out:
	free(r.vac);
	return r.log.worst;
}
