/* txn: the one commit protocol of every change (txn.h). */
#include "commands/pipeline/txn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errbuf.h"
#include "base/msg.h"
#include "game/gamefile.h"
#include "store/active.h"
#include "store/ratings.h"
#include "store/seen.h"

struct txn_step {
	enum txn_when when;
	txn_step_fn *fn;
	void *arg;
};

struct txn {
	struct server *srv;
	long board;			/* 0: an account change */
	bool remove;			/* the game file removed (the empty text) */
	const struct game *g;		/* the board's new game, NULL for an account */
	char *text;			/* its game file ("" for a removal) */
	size_t len;
	char userid[IDENT_USERID_MAX + 1];	/* an account change's */
	char token[STORE_HASH_MAX + 1];
	txn_write_fn *write;
	void *write_arg;
	const struct reply_mail *mails;
	int nmails;
	const char *message_key, *from;	/* txn_record_mail; NULL: no record */
	struct store_lock *seen_lock;
	bool settle_first;
	bool recorded;			/* the record stands (written and not voided) */
	struct txn_step steps[TXN_STEPS_MAX];
	int nsteps;
	bool step_overflow;
	/* the failure of the last commit */
	enum txn_layer layer;
	enum store_status ss;
	enum outbox_status os;
	const char *what;
	char msg[1024];
	bool at_install;
};

static enum process_status begin(struct server *srv, struct txn **out)
{
	*out = calloc(1, sizeof **out);
	if (*out == NULL)
		return PROCESS_TEMPFAIL;
	(*out)->srv = srv;
	return PROCESS_OK;
}

enum process_status txn_begin_board(struct server *srv, const struct game *g, struct txn **out)
{
	struct txn *t;

	if (begin(srv, out) != PROCESS_OK)
		return PROCESS_TEMPFAIL;
	t = *out;
	t->board = g->board;
	t->g = g;
	if (gamefile_format(g, &t->text, &t->len) != GAME_OK) {
		free(t);
		*out = NULL;
		return PROCESS_TEMPFAIL;
	}
	return PROCESS_OK;
}

enum process_status txn_begin_removal(struct server *srv, const struct game *g, struct txn **out)
{
	struct txn *t;

	if (begin(srv, out) != PROCESS_OK)
		return PROCESS_TEMPFAIL;
	t = *out;
	t->board = g->board;
	t->g = g;
	t->remove = true;
	/* a removal is the write of the empty text (store_board_holds) */
	t->text = strdup("");
	t->len = 0;
	if (t->text == NULL) {
		free(t);
		*out = NULL;
		return PROCESS_TEMPFAIL;
	}
	return PROCESS_OK;
}

enum process_status txn_begin_account(struct server *srv, const char *userid, const char *token, txn_write_fn *write,
    void *arg, struct txn **out)
{
	struct txn *t;

	if (begin(srv, out) != PROCESS_OK)
		return PROCESS_TEMPFAIL;
	t = *out;
	snprintf(t->userid, sizeof t->userid, "%s", userid);
	snprintf(t->token, sizeof t->token, "%s", token);
	t->write = write;
	t->write_arg = arg;
	return PROCESS_OK;
}

void txn_add_mails(struct txn *t, const struct reply_mail *mails, int n)
{
	t->mails = mails;
	t->nmails = n;
}

void txn_record_mail(struct txn *t, const char *message_key, const char *from, struct store_lock *seen_lock)
{
	t->message_key = message_key;
	t->from = from;
	t->seen_lock = seen_lock;
}

void txn_settle_first(struct txn *t)
{
	t->settle_first = true;
}

void txn_also(struct txn *t, enum txn_when when, txn_step_fn *fn, void *arg)
{
	if (t->nsteps == TXN_STEPS_MAX) {
		t->step_overflow = true;	/* a programming error: the commit refuses */
		return;
	}
	t->steps[t->nsteps++] = (struct txn_step){ when, fn, arg };
}

/* Note a failure of layer: status, what failed and its words; PROCESS_TEMPFAIL or PROCESS_SOFTWARE. */
static enum process_status fail_store(struct txn *t, enum store_status ss, const char *what)
{
	t->layer = TXN_LAYER_STORE;
	t->ss = ss;
	t->what = what;
	errbuf_set(t->msg, sizeof t->msg, "%s", store_error(t->srv->st));
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status fail_outbox(struct txn *t, enum outbox_status os, const char *what)
{
	t->layer = TXN_LAYER_OUTBOX;
	t->os = os;
	t->what = what;
	errbuf_set(t->msg, sizeof t->msg, "%s", t->srv->ob != NULL ? outbox_error(t->srv->ob) : outbox_status_str(os));
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status fail_other(struct txn *t, bool temporary, const char *what, const char *msg)
{
	t->layer = TXN_LAYER_OTHER;
	t->what = what;
	errbuf_set(t->msg, sizeof t->msg, "%s", msg);
	return temporary ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* 1. the mails into a new batch in outbox/tmp/; on failure nothing is left staged */
static enum process_status stage_mails(struct txn *t, struct outbox_batch **out)
{
	struct server *srv = t->srv;
	struct outbox_batch *b = NULL;
	enum outbox_status os;
	char err[OUTBOX_ERR_MAX];
	bool committed;
	int i;

	*out = NULL;
	if (srv->ob == NULL) {
		os = server_outbox(srv, err, sizeof err);
		if (os != OUTBOX_OK)
			return fail_other(t, outbox_status_temporary(os), "cannot open the outbox", err);
	}
	if (t->board > 0)
		os = outbox_batch_new(srv->ob, t->board, t->text, t->len, &b);
	else
		os = outbox_batch_new_account(srv->ob, t->userid, t->token, &b);
	for (i = 0; os == OUTBOX_OK && i < t->nmails; i++)
		os = outbox_batch_add(b, srv->cfg.from_address, t->mails[i].rcpt, t->mails[i].msg, t->mails[i].len);
	/* the mails' bytes durable in one record: one fsync however many they are (outbox.h) */
	if (os == OUTBOX_OK)
		os = outbox_batch_seal(b);
	if (os != OUTBOX_OK) {
		if (b != NULL)
			outbox_batch_abort(b, &committed);
		outbox_batch_free(b);
		return fail_outbox(t, os, t->nmails == 1 ? "cannot queue the reply" : "cannot queue the replies");
	}
	*out = b;
	return PROCESS_OK;
}

/* 3. the mail recorded pending the write (seen.h); the lock stays held to the end of the commit */
static enum process_status record(struct txn *t)
{
	struct server *srv = t->srv;
	enum store_status ss;

	if (t->message_key == NULL)
		return PROCESS_OK;
	if (t->seen_lock->fd < 0) {
		ss = seen_lock(srv->st, srv->cfg.lock_timeout_ms, t->seen_lock);
		if (ss == STORE_TIMEOUT)
			return fail_other(t, true, "tempfail",
			    "the redelivery record is locked by another process: try again later");
		if (ss != STORE_OK)
			return fail_store(t, ss, "cannot lock the redelivery record");
	}
	if (t->board > 0)
		ss = seen_record(srv->st, t->message_key, t->from, srv->now, t->board, t->text, t->len);
	else
		ss = seen_record_account(srv->st, t->message_key, t->from, srv->now, t->userid, t->token);
	if (ss != STORE_OK)
		return fail_store(t, ss, "cannot write the redelivery record");
	t->recorded = true;
	return PROCESS_OK;
}

static enum process_status settle_first(struct txn *t)
{
	struct store_lock slock = STORE_LOCK_INIT;
	enum store_status ss;

	ss = seen_lock(t->srv->st, t->srv->cfg.lock_timeout_ms, &slock);
	if (ss == STORE_OK) {
		ss = seen_settle(t->srv->st, t->board);
		store_unlock(&slock);
	}
	return ss == STORE_OK ? PROCESS_OK : fail_store(t, ss, "cannot settle the redelivery record");
}

static enum store_status run_steps(struct txn *t, enum txn_when when)
{
	enum store_status ss;
	int i;

	for (i = 0; i < t->nsteps; i++) {
		if (t->steps[i].when != when)
			continue;
		ss = t->steps[i].fn(t->srv, t->steps[i].arg);
		if (ss != STORE_OK && when == TXN_BEFORE_INSTALL)
			return ss;
		if (ss != STORE_OK)
			msg_warn("after the commit: %s", store_error(t->srv->st));
	}
	return STORE_OK;
}

/* 2, 4, 5: everything staged and made durable, the steps before the install run */
static enum process_status prepare(struct txn *t, struct store_staged *sf, bool *marked)
{
	struct store *st = t->srv->st;
	enum store_status ss;
	enum process_status ts;
	char rerr[RATINGS_ERR_MAX];

	if (t->board > 0 && !t->remove) {
		ss = store_board_stage(st, t->board, t->text, t->len, sf);
		if (ss != STORE_OK)
			return fail_store(t, ss, "cannot write the game file");
	}
	ts = record(t);
	if (ts != PROCESS_OK)
		return ts;
	/* a game's end is marked for the ratings before it is committed (ratings.h) */
	if (t->board > 0 && !t->remove) {
		if (ratings_before_commit(st, t->g, rerr) != STORE_OK)
			return fail_other(t, true, "tempfail", rerr);
		*marked = true;
	}
	/* what the commit needs on disk, in one sync (store.h) */
	ss = store_sync(st);
	if (ss == STORE_OK)
		ss = run_steps(t, TXN_BEFORE_INSTALL);
	if (ss != STORE_OK)
		return fail_store(t, ss, t->board > 0 ? "cannot write the game file" : "cannot write the account");
	return PROCESS_OK;
}

/* 6. the commit point: the game file installed or removed, or the account written; durable */
static enum store_status install(struct txn *t, struct store_staged *sf)
{
	struct store *st = t->srv->st;
	enum store_status ss;

	if (t->board == 0)
		ss = t->write(t->write_arg);
	else if (t->remove)
		ss = store_board_remove(st, t->board);
	else
		ss = store_install(st, sf);
	/* the commit is durable before its mails are released */
	if (ss == STORE_OK)
		ss = store_defer_end(st);
	return ss;
}

enum process_status txn_commit(struct txn *t)
{
	struct server *srv = t->srv;
	struct store *st = srv->st;
	struct outbox_batch *b = NULL;
	struct store_staged sf = { .live = false };
	enum store_status ss;
	enum process_status ts;
	bool committed = false, marked = false, installed = false;

	t->layer = TXN_LAYER_NONE;
	t->msg[0] = '\0';
	t->at_install = false;
	if (t->step_overflow)
		return fail_other(t, false, "cannot commit", "too many steps");
	if (t->settle_first) {
		ts = settle_first(t);
		if (ts != PROCESS_OK)
			return ts;
	}
	/* the fsyncs of the mails, the record and the game are made together (store.h) */
	store_defer_begin(st);
	ts = stage_mails(t, &b);
	if (ts != PROCESS_OK)
		goto out;
	ts = prepare(t, &sf, &marked);
	if (ts != PROCESS_OK) {
		outbox_batch_abort(b, &committed);
		goto out;
	}
	ss = install(t, &sf);
	if (ss != STORE_OK) {
		ts = fail_store(t, ss, t->board > 0 ? "cannot write the game file" : "cannot write the account");
		t->at_install = true;
		/* the write may have reached its rename: then the change stands */
		if (outbox_batch_abort(b, &committed) == OUTBOX_OK && committed)
			installed = true;
	} else {
		installed = true;
		/* the change stands; its mails wait in tmp/ for the next recovery */
		if (outbox_batch_commit(b) != OUTBOX_OK) {
			if (t->board > 0)
				msg_warn("board %ld: cannot queue the replies: %s", t->board, outbox_error(srv->ob));
			else
				msg_warn("cannot queue the confirmation: %s", outbox_error(srv->ob));
		}
	}
	if (installed) {
		ts = PROCESS_OK;
		if (t->g != NULL && !t->remove && game_over(t->g))
			active_remove(st, t->board, t->g->black, t->g->white);
		if (marked)
			ratings_after_commit(st, srv->cfg.lock_timeout_ms);
		run_steps(t, TXN_AFTER_INSTALL);
	}
out:
	if (!installed && marked)
		ratings_cancel(st, t->g);	/* nothing was committed: no mark either */
	if (t->board == 0 && t->recorded) {
		/* an account's record says whether its write stands (seen.h) */
		if (seen_settle_account(st, t->message_key, t->from, srv->now, installed) != STORE_OK)
			msg_warn("cannot settle the redelivery record: %s", store_error(st));
		t->recorded = installed;
	}
	store_discard(st, &sf);
	store_defer_end(st);	/* nothing owed is kept: harmless if already ended */
	if (t->seen_lock != NULL)
		store_unlock(t->seen_lock);
	outbox_batch_free(b);
	if (installed && ts == PROCESS_OK)
		t->layer = TXN_LAYER_NONE;
	return ts;
}

void txn_failure(const struct txn *t, struct txn_failure *f)
{
	f->layer = t->layer;
	f->store_status = t->ss;
	f->outbox_status = t->os;
	f->what = t->what != NULL ? t->what : "";
	f->message = t->msg;
	f->at_install = t->at_install;
}

bool txn_recorded(const struct txn *t)
{
	return t->recorded;
}

void txn_free(struct txn *t)
{
	if (t == NULL)
		return;
	free(t->text);
	free(t);
}
