/* boardcommit: a game file committed with its mails (boardcommit.h). */
#include "commands/pipeline/boardcommit.h"

#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "base/errbuf.h"
#include "commands/pipeline/txn.h"
#include "game/gamefile.h"

static enum process_status commit(struct server *srv, const struct game *g, const struct reply_mail *mails, int n,
    bool settle, char *err, size_t errlen)
{
	struct txn *t = NULL;
	struct txn_failure f;
	enum process_status ts;

	if (txn_begin_board(srv, g, &t) != PROCESS_OK) {
		errbuf_set(err, errlen, "out of memory writing board %ld", g->board);
		return PROCESS_TEMPFAIL;
	}
	txn_add_mails(t, mails, n);
	/* the mails recorded pending the file about to be replaced (the human's turn just committed) */
	if (settle)
		txn_settle_first(t);
	ts = txn_commit(t);
	if (ts != PROCESS_OK) {
		txn_failure(t, &f);
		if (f.layer == TXN_LAYER_OTHER && strcmp(f.what, "tempfail") == 0)
			errbuf_set(err, errlen, "%s", f.message);
		else
			errbuf_set(err, errlen, "%s: %s", f.what, f.message);
	}
	txn_free(t);
	return ts;
}

enum process_status boardcommit_write(struct server *srv, const struct game *g, const struct reply_mail *mails,
    int n, char *err, size_t errlen)
{
	return commit(srv, g, mails, n, true, err, errlen);
}

enum process_status boardcommit_write_new(struct server *srv, const struct game *g, const struct reply_mail *mails,
    int n, char *err, size_t errlen)
{
	return commit(srv, g, mails, n, false, err, errlen);
}

enum store_status boardcommit_read(struct store *st, long board, bool whole, struct game *g,
    enum game_status *gs, struct gamefile_error *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	ss = store_board_read(st, board, &text, &len);
	if (ss != STORE_OK)
		return ss;
	*gs = whole ? gamefile_parse(text, len, g, err) : gamefile_parse_header(text, len, g, err);
	free(text);
	if (*gs == GAME_OK && !gamefile_named_for(g, board, err)) {
		game_release(g);
		*gs = GAME_BAD_FILE;
	}
	return STORE_OK;
}
