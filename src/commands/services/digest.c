/* digest: the players' digests, from cleanup.  See digest.h. */
#include "commands/services/digest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/msg.h"
#include "base/tzone.h"
#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/replytoken.h"
#include "commands/pipeline/txn.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/digests.h"
#include "store/players.h"
#include "store/vacations.h"

int64_t digest_slot(const struct settings *s, int64_t now)
{
	struct tm today, tm;
	int64_t best = -1, t;
	int d, k;

	if (s->digest_n <= 0)
		return -1;
	tzone_local(now, s->timezone, &today);
	for (d = 0; d >= -1; d--)
		for (k = 0; k < s->digest_n && k < 2; k++) {
			tm = today;
			tm.tm_mday += d;
			tm.tm_hour = s->digest_hours[k];
			tm.tm_min = 0;
			tm.tm_sec = 0;
			tm.tm_isdst = -1;
			t = tzone_mktime(&tm, s->timezone);
			if (t <= now && t > best)
				best = t;
		}
	return best;
}

/* One run's state. */
struct run {
	struct server *srv;
	unsigned *sent, *failed;
	enum process_status worst;
};

static void failed(struct run *r, enum process_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void failed(struct run *r, enum process_status s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	runlog_vboard_failed(r->srv->st, r->srv->stamp, "cleanup", 0, runlog_outcome(s),
	    fmt, ap);
	va_end(ap);
	(*r->failed)++;
	if (s > r->worst)
		r->worst = s;
}

static enum process_status of_store(enum store_status ss)
{
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* What the digest's commit writes: the slot of userid's last digest (digests.h). */
struct digest_write {
	struct store *st;
	const char *userid;
	int64_t slot;
};

/* The install of a digest's commit (txn.h): its line of the digests file. */
static enum store_status write_digest(void *arg)
{
	const struct digest_write *w = arg;

	return digests_set(w->st, w->userid, w->slot);
}

/* The boards where u is to move, read whole, into *games (the caller releases each and frees it). */
static enum store_status waiting_boards(struct run *r, const struct store_user *u, struct game **games, size_t *n)
{
	struct store *st = r->srv->st;
	struct gamefile_error gerr;
	enum game_status gs;
	enum store_status ss;
	long *boards = NULL;
	size_t nb = 0, i;

	*games = NULL;
	*n = 0;
	ss = players_boards(st, r->srv->cfg.lock_timeout_ms, u->userid, &boards, &nb);
	if (ss != STORE_OK)
		return ss;
	if (nb > DIGEST_BOARDS_READ_MAX)
		nb = DIGEST_BOARDS_READ_MAX;
	*games = calloc(nb != 0 ? nb : 1, sizeof **games);
	if (*games == NULL) {
		free(boards);
		store_set_error(st, "out of memory");
		return STORE_TEMPFAIL;
	}
	for (i = 0; i < nb; i++) {
		struct game *g = &(*games)[*n];

		/* a board gone or unreadable is not listed (cleanup's pass over the boards says why) */
		if (boardcommit_read(st, boards[i], true, g, &gs, &gerr) != STORE_OK || gs != GAME_OK)
			continue;
		if (game_over(g) || game_is_open(g) || strcasecmp(game_player_to_move(g), u->userid) != 0) {
			game_release(g);
			continue;
		}
		(*n)++;
	}
	free(boards);
	return STORE_OK;
}

/* The digest of u for slot, made from games[0..n), staged, recorded, released (digest.h); false on failure. */
static bool send_one(struct run *r, const struct store_user *u, const struct settings *s, int64_t slot,
    const struct game *games, size_t n)
{
	struct server *srv = r->srv;
	struct store *st = srv->st;
	struct store_lock lock = STORE_LOCK_INIT;
	struct reply_digest_board *b = NULL;
	struct reply_away *away = NULL;
	struct reply_player p = { .userid = u->userid, .address = u->address, .fullname = u->fullname };
	struct reply_digest m;
	struct txn *t = NULL;
	struct vacation v;
	char (*tokens)[TOKEN_TEXT_SIZE] = NULL;
	char when[TZONE_STR_SIZE], dtoken[DIGESTS_TOKEN_MAX + 1], err[OUTBOX_ERR_MAX];
	enum store_status ss;
	enum outbox_status os;
	enum mail_status rs;
	bool ok = false, have_vac;
	int64_t last;
	size_t i;

	memset(&m, 0, sizeof m);
	os = server_outbox(srv, err, sizeof err);
	if (os != OUTBOX_OK) {
		failed(r, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE, "cannot open the outbox: %s", err);
		return false;
	}
	ss = vacations_find(st, u->userid, &v);
	if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
		failed(r, of_store(ss), "digest of %s: cannot read the vacations: %s", u->userid, store_error(st));
		return false;
	}
	have_vac = ss == STORE_OK;
	b = calloc(n, sizeof *b);
	away = calloc(n, sizeof *away);
	tokens = calloc(n, sizeof *tokens);
	if (b == NULL || away == NULL || tokens == NULL) {
		failed(r, PROCESS_TEMPFAIL, "digest of %s: out of memory", u->userid);
		goto out;
	}
	for (i = 0; i < n; i++) {
		char terr[200];

		b[i].g = &games[i];
		/* without its token (a file that cannot be read) the board still goes: a password plays */
		if (replytoken_of(st, games[i].board, u, tokens[i], terr) != STORE_OK) {
			msg_warn("no reply token for %s: %s", u->userid, terr);
			tokens[i][0] = '\0';
		}
		b[i].token = tokens[i];
		if (have_vac) {
			snprintf(away[i].userid, sizeof away[i].userid, "%s", v.userid);
			const struct vacation_absence *cur = vacation_current(&v, (int64_t)srv->now);

			away[i].start = cur != NULL ? cur->from : 0;
			away[i].end = cur != NULL ? cur->to : 0;
			away[i].now = vacation_away(&v, (int64_t)srv->now);
			away[i].stopped = vacation_stopped(&v, games[i].last_move, (int64_t)srv->now);
			b[i].away = &away[i];
		}
	}
	tzone_str(slot, s->timezone, when, sizeof when);
	rs = reply_digest(&srv->rc, &p, b, n, when, &m);
	if (rs != MAIL_OK) {
		failed(r, rs == MAIL_TEMPLATE ? PROCESS_CONFIG : rs == MAIL_NOMEM ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "digest of %s: cannot make the mail: %s", u->userid, srv->rc.err);
		goto out;
	}
	/* the record and the staged digest together, under accounts.lock; a crashed run's settled first */
	ss = store_lock_accounts(st, true, &lock);
	if (ss != STORE_OK) {
		failed(r, of_store(ss), "digest of %s: cannot lock the accounts: %s", u->userid, store_error(st));
		goto out;
	}
	os = outbox_recover_accounts(srv->ob, NULL);
	if (os != OUTBOX_OK) {
		failed(r, outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE, "cannot recover the outbox: %s",
		    outbox_error(srv->ob));
		goto out;
	}
	ss = digests_find(st, u->userid, &last);
	if (ss == STORE_OK && last >= slot) {
		ok = true;	/* a crashed run's, released just now */
		goto out;
	}
	if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
		failed(r, of_store(ss), "digest of %s: cannot read the digests: %s", u->userid, store_error(st));
		goto out;
	}
	digests_token(slot, dtoken);
	/* the one commit protocol (txn.h): the mail staged with the token, the digests file written, the mail released */
	{
		struct digest_write w = { st, u->userid, slot };
		struct txn_failure f;

		if (txn_begin_account(srv, u->userid, dtoken, write_digest, &w, &t) != PROCESS_OK) {
			failed(r, PROCESS_TEMPFAIL, "digest of %s: out of memory", u->userid);
			goto out;
		}
		/* its parts in the one batch with the one record: a crash doubles none and loses none */
		txn_add_mails(t, m.part, (int)m.n);
		if (txn_commit(t) != PROCESS_OK) {
			txn_failure(t, &f);
			failed(r, f.layer == TXN_LAYER_STORE ? of_store(f.store_status) :
			    f.layer == TXN_LAYER_OUTBOX && !outbox_status_temporary(f.outbox_status) ? PROCESS_SOFTWARE :
			    PROCESS_TEMPFAIL, "digest of %s: %s: %s", u->userid, f.what, f.message);
			goto out;
		}
	}
	ok = true;
	(*r->sent)++;
	if (m.n > 1)
		store_log(st, "%s cleanup board=0 ok: digest of %zu boards in %zu parts to %s (%s)", srv->stamp, n,
		    m.n, u->userid, when);
	else
		store_log(st, "%s cleanup board=0 ok: digest of %zu board%s to %s (%s)", srv->stamp, n,
		    n == 1 ? "" : "s", u->userid, when);
out:
	store_unlock(&lock);
	txn_free(t);
	reply_digest_release(&m);
	if (tokens != NULL)
		explicit_bzero(tokens, n * sizeof *tokens);
	free(tokens);
	free(away);
	free(b);
	return ok;
}

/* The digest of the player of s, if one is due. */
static void one_player(struct run *r, const struct settings *s)
{
	struct store *st = r->srv->st;
	int64_t now = (int64_t)r->srv->now, slot, last;
	struct store_user u;
	struct game *games = NULL;
	enum store_status ss;
	size_t n = 0, i;

	slot = digest_slot(s, now);
	if (slot < 0 || now - slot >= DIGEST_LATE)
		return;	/* no digest hour in the last DIGEST_LATE seconds */
	ss = digests_find(st, s->userid, &last);
	if (ss == STORE_OK && last >= slot)
		return;	/* sent already */
	if (ss != STORE_OK && ss != STORE_NOT_FOUND) {
		failed(r, of_store(ss), "cannot read the digests: %s", store_error(st));
		return;
	}
	ss = store_user_find(st, s->userid, &u);
	if (ss == STORE_NOT_FOUND)
		return;	/* a closed account's line */
	if (ss != STORE_OK) {
		failed(r, of_store(ss), "cannot read the users file: %s", store_error(st));
		return;
	}
	ss = waiting_boards(r, &u, &games, &n);
	if (ss != STORE_OK) {
		failed(r, of_store(ss), "digest of %s: cannot list the boards: %s", u.userid, store_error(st));
		return;
	}
	/* nothing waits, nothing is sent (nor recorded: a turn later in the hour still makes one) */
	if (n > 0)
		send_one(r, &u, s, slot, games, n);
	for (i = 0; i < n; i++)
		game_release(&games[i]);
	free(games);
}

enum process_status digest_run(struct server *srv, unsigned *sent, unsigned *nfailed)
{
	struct run r = { srv, sent, nfailed, PROCESS_OK };
	struct settings *all = NULL;
	char err[SETTINGS_ERR_MAX];
	enum store_status ss;
	size_t n = 0, i;

	ss = settings_load(srv->st, &all, &n, err);
	if (ss != STORE_OK) {
		failed(&r, of_store(ss), "cannot read the settings, no digest this run: %s", err);
		return r.worst;
	}
	for (i = 0; i < n; i++)
		if (all[i].digest_n > 0)
			one_player(&r, &all[i]);
	free(all);
	return r.worst;
}
