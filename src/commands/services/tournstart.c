/* tournstart: a tournament's boards made as one batch (tournstart.h). */
#include "commands/services/tournstart.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errbuf.h"
#include "base/msg.h"
#include "commands/pipeline/boardmail.h"
#include "game/gamefile.h"
#include "outbox/outbox.h"
#include "store/active.h"

/* One board of a chunk as it goes through the steps. */
struct slot {
	const struct tournstart_board *b;
	struct store_lock lock;
	struct outbox_batch *batch;	/* step 2: its mails staged */
	struct store_staged sf;		/* step 2: its game file staged */
	bool make;			/* no game file: made here */
	bool installed;			/* step 4 done */
};

static enum process_status of_store(enum store_status ss)
{
	return ss == STORE_OK ? PROCESS_OK : store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status of_outbox(enum outbox_status os)
{
	return os == OUTBOX_OK ? PROCESS_OK : outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* Step 1: the locks, and what a killed run left of the boards to make settled. */
static enum process_status settle_left(struct server *srv, struct slot *sl, size_t n, char *err, size_t errlen)
{
	enum store_status ss;
	long boards[TOURNSTART_CHUNK];
	unsigned removed;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		ss = store_lock_board(srv->st, sl[i].b->board, &sl[i].lock);
		if (ss == STORE_OK)
			ss = store_board_exists(srv->st, sl[i].b->board);
		if (ss == STORE_NOT_FOUND) {
			sl[i].make = true;
			boards[k++] = sl[i].b->board;
			if (outbox_recover(srv->ob, sl[i].b->board, NULL) != OUTBOX_OK) {
				errbuf_set(err, errlen, "cannot recover the outbox of board %ld: %s", sl[i].b->board,
				    outbox_error(srv->ob));
				return PROCESS_TEMPFAIL;
			}
		} else if (ss != STORE_OK) {
			errbuf_set(err, errlen, "cannot lock board %ld: %s", sl[i].b->board, store_error(srv->st));
			return of_store(ss);
		}
	}
	ss = store_board_unstage(srv->st, boards, k, &removed);
	if (ss != STORE_OK) {
		errbuf_set(err, errlen, "cannot remove the staged boards a killed run left: %s", store_error(srv->st));
		return of_store(ss);
	}
	return PROCESS_OK;
}

/* Step 2 for one board: its game and mails made, its mails and game file staged. */
static enum process_status stage(struct server *srv, const struct tournstart *s, struct slot *sl, char *err,
    size_t errlen)
{
	const struct tournstart_board *b = sl->b;
	const struct command *o = s->options;
	enum process_status ts = PROCESS_OK;
	struct reply_mail *m = NULL;
	struct reply_event ev;
	enum process_status bs;
	enum outbox_status os;
	enum store_status ss;
	char *text = NULL;
	const char *at;
	struct game g;
	size_t len;
	int n = 0, i;

	game_init_shape(&g, b->board, &(struct game_form){ o->hex ? RULES_HEX : RULES_SQUARE, o->size, !o->noswap },
	    b->black, b->white, (int64_t)srv->now);
	if (b->robot_level > 0)
		g.robot_level = b->robot_level;
	g.unrated = o->unrated;
	g.tournament = s->tournament;	/* the hook after a delivery reads it (tournament_hook_flushed) */
	g.remind_days = o->remind_days;
	g.timeout_days = o->timeout_days;
	at = strrchr(srv->cfg.from_address, '@');
	snprintf(g.thread, sizeof g.thread, "<board-%ld.%lld@%s>", b->board, (long long)srv->now,
	    at != NULL ? at + 1 : "localhost");
	memset(&ev, 0, sizeof ev);
	ev.what = REPLY_CHALLENGE;
	ev.actor = b->black;
	ev.comment = "";
	ev.notice = b->notice;
	bs = boardmail_make(srv, &g, &ev, NULL, &m, &n);
	if (bs != PROCESS_OK) {
		if (boardmail_status_store(bs))
			errbuf_set(err, errlen, "cannot read the users file: %s", store_error(srv->st));
		else
			errbuf_set(err, errlen, "cannot make the mails of board %ld: %.200s", b->board, srv->rc.err);
		ts = boardmail_status_temporary(bs) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	if (gamefile_format(&g, &text, &len) != GAME_OK) {
		errbuf_set(err, errlen, "out of memory writing board %ld", b->board);
		ts = PROCESS_TEMPFAIL;
		goto out;
	}
	/* the mails tagged with the game text, their bytes in one record (outbox.h); its fsync owed */
	os = outbox_batch_new(srv->ob, b->board, text, len, &sl->batch);
	for (i = 0; os == OUTBOX_OK && i < n; i++)
		os = outbox_batch_add(sl->batch, srv->cfg.from_address, m[i].rcpt, m[i].msg, m[i].len);
	if (os == OUTBOX_OK)
		os = outbox_batch_seal(sl->batch);
	if (os != OUTBOX_OK) {
		errbuf_set(err, errlen, "cannot queue the mails of board %ld: %s", b->board, outbox_error(srv->ob));
		ts = of_outbox(os);
		goto out;
	}
	ss = store_board_stage(srv->st, b->board, text, len, &sl->sf);
	if (ss != STORE_OK) {
		errbuf_set(err, errlen, "cannot write the game file of board %ld: %s", b->board, store_error(srv->st));
		ts = of_store(ss);
	}
out:
	free(text);
	boardmail_free(m, n);
	game_release(&g);
	return ts;
}

/* Steps 3 and 4: one sync, the installs, one sync of the directories. */
static enum process_status install(struct server *srv, struct slot *sl, size_t n, char *err, size_t errlen)
{
	enum store_status ss;
	size_t i;

	ss = store_sync(srv->st);
	for (i = 0; ss == STORE_OK && i < n; i++) {
		if (!sl[i].make)
			continue;
		ss = store_install(srv->st, &sl[i].sf);
		/* a failed directory fsync after the rename: the board stands (outbox_batch_abort decides so too) */
		if (ss == STORE_OK || !sl[i].sf.live)
			sl[i].installed = true;
	}
	if (ss == STORE_OK)
		ss = store_sync(srv->st);
	if (ss != STORE_OK) {
		errbuf_set(err, errlen, "cannot write the boards: %s", store_error(srv->st));
		return of_store(ss);
	}
	return PROCESS_OK;
}

/* One chunk, steps 1 to 5; *made counts its boards made. */
static enum process_status chunk(struct server *srv, const struct tournstart *s, const struct tournstart_board *b,
    size_t n, size_t *made, char *err, size_t errlen)
{
	enum process_status ts;
	struct slot *sl;
	bool committed;
	long lo = 0, hi = 0;
	int rlo = 0, rhi = 0;
	size_t i, k = 0;

	sl = calloc(n, sizeof *sl);
	if (sl == NULL) {
		errbuf_set(err, errlen, "out of memory making the boards of T%u", s->tournament);
		return PROCESS_TEMPFAIL;
	}
	for (i = 0; i < n; i++) {
		sl[i].b = &b[i];
		sl[i].lock = (struct store_lock)STORE_LOCK_INIT;
	}
	ts = settle_left(srv, sl, n, err, errlen);
	/* the fsyncs of every board's mails, record and game file owed, paid at once (store.h) */
	store_defer_begin_batch(srv->st);
	for (i = 0; ts == PROCESS_OK && i < n; i++)
		if (sl[i].make)
			ts = stage(srv, s, &sl[i], err, errlen);
	if (ts == PROCESS_OK)
		ts = install(srv, sl, n, err, errlen);
	(void)store_defer_end(srv->st);
	for (i = 0; i < n; i++) {
		if (sl[i].installed) {
			/* the board stands; a mail not released waits in tmp/ for the board's next recovery */
			if (outbox_batch_commit(sl[i].batch) != OUTBOX_OK)
				msg_warn("board %ld: cannot queue its mails: %s", sl[i].b->board, outbox_error(srv->ob));
			/* its directory synced once after the last board (active_sync_dir); a rebuild finds it if this fails */
			(void)active_add_unsynced(srv->st, sl[i].b->board, sl[i].b->black, sl[i].b->white);
			lo = k == 0 ? sl[i].b->board : lo;
			hi = sl[i].b->board;
			rlo = k == 0 || sl[i].b->round < rlo ? sl[i].b->round : rlo;
			rhi = k == 0 || sl[i].b->round > rhi ? sl[i].b->round : rhi;
			k++;
		} else if (sl[i].batch != NULL) {
			outbox_batch_abort(sl[i].batch, &committed);
		}
		store_discard(srv->st, &sl[i].sf);
		outbox_batch_free(sl[i].batch);
		store_unlock(&sl[i].lock);
	}
	/* a round robin makes every round's boards at once: say which rounds */
	if (k > 0 && rlo == rhi)
		store_log(srv->st, "%s tournament T%u boards=%ld-%ld ok: %zu board%s made, round %d", srv->stamp,
		    s->tournament, lo, hi, k, k == 1 ? "" : "s", rlo);
	else if (k > 0)
		store_log(srv->st, "%s tournament T%u boards=%ld-%ld ok: %zu boards made, rounds %d-%d", srv->stamp,
		    s->tournament, lo, hi, k, rlo, rhi);
	*made += k;
	free(sl);
	return ts;
}

enum process_status tournstart_make(struct server *srv, const struct tournstart *s, size_t *made, char *err,
    size_t errlen)
{
	enum process_status ts = PROCESS_OK;
	size_t i, n;

	*made = 0;
	if (s->n == 0)
		return PROCESS_OK;
	if (server_outbox(srv, err, errlen) != OUTBOX_OK)
		return PROCESS_TEMPFAIL;
	for (i = 0; ts == PROCESS_OK && i < s->n; i += n) {
		n = s->n - i < TOURNSTART_CHUNK ? s->n - i : TOURNSTART_CHUNK;
		ts = chunk(srv, s, s->boards + i, n, made, err, errlen);
	}
	return ts;
}
