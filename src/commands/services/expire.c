/* expire: challenges not accepted, withdrawn by cleanup.  See expire.h. */
#include "commands/services/expire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "commands/pipeline/txn.h"
#include "commands/services/remind.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/active.h"
#include "store/store.h"

int64_t expire_due(const struct config *cfg, const struct game *g)
{
	if (cfg->challenge_expiry_days == 0 || game_over(g))
		return 0;
	/* at most one turn played: the player to move has not played there yet (decline.c's rule) */
	if (!game_is_open(g) && g->rg.turn > 2)
		return 0;
	/* a board with the robot was accepted when it was made: the robot answers every challenge */
	if (game_user_is_robot(g->black) || game_user_is_robot(g->white))
		return 0;
	return g->created + (int64_t)cfg->challenge_expiry_days * REMIND_DAY;
}

static enum process_status of_store(enum store_status ss)
{
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* The mail to player userid of g (none for the robot, an open seat or a closed account): *n counts it. */
/* The mails made so far: m[0..n). */
struct told {
	struct reply_mail *m;
	int n;
};

static enum process_status tell(struct server *srv, const struct game *g, const char *userid, const char *news,
    struct told *t, char *err, size_t errlen)
{
	static const char how[] = "To start another game, send:\n\n    challenge <userid> <password> <opponent> "
	    "[options]\n\nor, to anyone: challenge <userid> <password> *";
	char subject[80];
	struct store_user u;
	enum store_status ss;
	enum mail_status rs;

	if (strcmp(userid, GAME_OPEN_SEAT) == 0 || game_user_is_robot(userid))
		return PROCESS_OK;
	ss = store_user_find(srv->st, userid, &u);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;
	if (ss != STORE_OK) {
		snprintf(err, errlen, "cannot read the users file: %s", store_error(srv->st));
		return of_store(ss);
	}
	snprintf(subject, sizeof subject, "Oust Board %ld withdrawn", g->board);
	{
		struct reply_var vars[] = { { "userid", u.userid }, { "news", news }, { "comment", "" }, { "how", how } };

		rs = reply_account(&srv->rc, &(struct reply_to){ u.address, u.fullname }, "decline", subject,
		    REPLY_VARS(vars), &t->m[t->n]);
	}
	if (rs != MAIL_OK) {
		snprintf(err, errlen, "cannot make the mail: %s", srv->rc.err);
		return rs == MAIL_NOMEM ? PROCESS_TEMPFAIL : rs == MAIL_TEMPLATE ? PROCESS_CONFIG : PROCESS_SOFTWARE;
	}
	t->n++;
	return PROCESS_OK;
}

/* The board out of the active index once its file is gone (txn.h's "after" step). */
static enum store_status unindex(struct server *srv, void *arg)
{
	const struct game *g = arg;

	active_remove(srv->st, g->board, g->black, g->white);
	return STORE_OK;
}

/* The removal with its mails, committed as every change is (txn.h): the mails tagged with the empty text. */
static enum process_status remove_board(struct server *srv, const struct game *g, const struct reply_mail *m, int n,
    char *err, size_t errlen)
{
	struct txn *t = NULL;
	struct txn_failure f;
	enum process_status s = PROCESS_OK;

	/* the one commit protocol (txn.h): the mails staged, the file removed, the mails released */
	if (txn_begin_removal(srv, g, &t) != PROCESS_OK) {
		snprintf(err, errlen, "out of memory removing board %ld", g->board);
		return PROCESS_TEMPFAIL;
	}
	txn_add_mails(t, m, n);
	/* mails recorded pending the file about to go are settled first (seen.h) */
	txn_settle_first(t);
	if (!game_is_open(g))
		txn_also(t, TXN_AFTER_INSTALL, unindex, (void *)g);
	if (txn_commit(t) != PROCESS_OK) {
		txn_failure(t, &f);
		snprintf(err, errlen, "%s: %s", f.what, f.message);
		s = f.layer == TXN_LAYER_STORE ? of_store(f.store_status) :
		    f.layer == TXN_LAYER_OUTBOX && !outbox_status_temporary(f.outbox_status) ? PROCESS_SOFTWARE :
		    PROCESS_TEMPFAIL;
	}
	txn_free(t);
	return s;
}

enum process_status expire_board(struct server *srv, const struct game *g, char *err, size_t errlen)
{
	struct reply_mail m[2];
	enum process_status s;
	char news[400], dims[GAME_DIMENSIONS_SIZE];
	unsigned long days = srv->cfg.challenge_expiry_days;
	int n = 0, i;

	memset(m, 0, sizeof m);
	/* "hex side 7" is a name: never broken (reply.h) */
	for (i = 0, game_dimensions(g, false, dims); dims[i] != '\0'; i++)
		if (dims[i] == ' ')
			dims[i] = REPLY_GLUE;
	if (game_is_open(g))
		snprintf(news, sizeof news, "Nobody accepted the open challenge of %s on board %ld (%s, swap %s) within "
		    "%lu day%s (challenge_expiry_days): it is withdrawn, and the board is removed.",
		    game_open_challenger(g), g->board, dims, g->swap ? "on" : "off", days, days == 1 ? "" : "s");
	else
		snprintf(news, sizeof news, "The challenge of board %ld, %s (x) against %s (o) (%s, swap %s), was not "
		    "answered within %lu day%s (challenge_expiry_days): %s has not played on it yet.  It is withdrawn, "
		    "and the board is removed.", g->board, g->black, g->white, dims, g->swap ? "on" : "off", days,
		    days == 1 ? "" : "s", game_player_to_move(g));
	{
		struct told t = { m, 0 };

		s = tell(srv, g, g->black, news, &t, err, errlen);
		if (s == PROCESS_OK && strcmp(g->white, g->black) != 0)
			s = tell(srv, g, g->white, news, &t, err, errlen);
		n = t.n;
	}
	if (s == PROCESS_OK)
		s = remove_board(srv, g, m, n, err, errlen);
	for (i = 0; i < n; i++)
		reply_mail_release(&m[i]);
	return s;
}
