/* boardcommit: a game file committed with its mails (boardcommit.h). */
#include "commands/pipeline/boardcommit.h"

#include <stdio.h>
#include <stdlib.h>

#include "game/gamefile.h"
#include "store/active.h"
#include "store/ratings.h"
#include "store/seen.h"

const char *boardcommit_status_str(enum boardcommit_status s)
{
	switch (s) {
	case BOARDCOMMIT_OK:
		return "ok";
	case BOARDCOMMIT_TEMPFAIL:
		return "temporary failure";
	case BOARDCOMMIT_ERROR:
		return "error";
	}
	return "unknown";
}

/* A failure: for the next try (a lock, a full disk) or not. */
static enum boardcommit_status failure(bool temporary)
{
	return temporary ? BOARDCOMMIT_TEMPFAIL : BOARDCOMMIT_ERROR;
}

enum boardcommit_status boardcommit_write(struct server *srv, const struct game *g, const struct reply_mail *mails,
    int n, char *err, size_t errlen)
{
	struct store *st = srv->st;
	struct outbox *ob = srv->ob;
	const struct config *cfg = &srv->cfg;
	struct outbox_batch *b = NULL;
	struct store_lock slock = STORE_LOCK_INIT;
	enum outbox_status os;
	enum store_status ss;
	enum boardcommit_status rs = BOARDCOMMIT_OK;
	char *text = NULL, rerr[RATINGS_ERR_MAX];
	size_t len;
	bool committed = false;
	int i;

	if (gamefile_format(g, &text, &len) != GAMEFILE_OK) {
		snprintf(err, errlen, "out of memory writing board %ld", g->board);
		return BOARDCOMMIT_TEMPFAIL;
	}
	/*
	 * The mails recorded pending the file about to be replaced (the human's
	 * turn just committed) are settled first, or they would look never
	 * committed once it is gone: seen.h.
	 */
	ss = seen_lock(st, cfg->lock_timeout_ms, &slock);
	if (ss == STORE_OK) {
		ss = seen_settle(st, g->board);
		store_unlock(&slock);
	}
	if (ss != STORE_OK) {
		snprintf(err, errlen, "cannot settle the redelivery record: %s", store_error(st));
		rs = failure(store_status_temporary(ss));
		goto out;
	}
	/* 1. the mails into outbox/tmp/, tagged with the new text; 2. the game file; 3. the mails released */
	os = outbox_batch_new(ob, g->board, text, len, &b);
	for (i = 0; os == OUTBOX_OK && i < n; i++)
		os = outbox_batch_add(b, cfg->from_address, mails[i].rcpt, mails[i].msg, mails[i].len);
	if (os != OUTBOX_OK) {
		snprintf(err, errlen, "cannot queue the mail: %s", outbox_error(ob));
		rs = failure(outbox_status_temporary(os));
		if (b != NULL)
			outbox_batch_abort(b, &committed);
		goto out;
	}
	ss = ratings_before_commit(st, g, rerr);
	if (ss != STORE_OK) {
		snprintf(err, errlen, "%s", rerr);
		rs = failure(store_status_temporary(ss));
		outbox_batch_abort(b, &committed);
		goto out;
	}
	ss = store_board_write(st, g->board, text, len);
	if (ss != STORE_OK) {
		/* the write may have reached its rename: then the turn stands */
		snprintf(err, errlen, "cannot write the game file: %s", store_error(st));
		if (outbox_batch_abort(b, &committed) != OUTBOX_OK || !committed) {
			rs = failure(store_status_temporary(ss));
			ratings_cancel(st, g);
		}
	} else if (outbox_batch_commit(b) != OUTBOX_OK) {
		/* the turn stands; its mail waits in tmp/ for the next recovery */
		fprintf(stderr, "oustpbm: robot: board %ld: cannot queue the mail: %s\n", g->board, outbox_error(ob));
	}
	if (ss == STORE_OK) {
		if (game_over(g))
			active_remove(st, g->board, g->black, g->white);
		ratings_after_commit(st, cfg->lock_timeout_ms);
	}
out:
	outbox_batch_free(b);
	free(text);
	return rs;
}

enum store_status boardcommit_read(struct store *st, long board, bool whole, struct game *g,
    enum gamefile_status *gs, struct gamefile_error *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	ss = store_board_read(st, board, &text, &len);
	if (ss != STORE_OK)
		return ss;
	*gs = whole ? gamefile_parse(text, len, g, err) : gamefile_parse_header(text, len, g, err);
	free(text);
	if (*gs == GAMEFILE_OK && !gamefile_named_for(g, board, err)) {
		game_release(g);
		*gs = GAMEFILE_BAD;
	}
	return STORE_OK;
}
