/*
 * process: the pipeline of one mail, read top to bottom in process_main():
 *
 *   start    config_load, store_open, mailin_read + mailin_parse (no reply
 *            possible yet: a failure is only the exit status)
 *   gate     with trusted_authserv_id, a From the receiving server's DMARC
 *            check failed: logged and dropped (exit 0, mail/authres.h);
 *            automatic mail: logged and dropped (exit 0); unparsable or no
 *            sender: EX_DATAERR; a mail loop, a copy of a mail already
 *            handled (seen.h) or a sender over max_mails_per_hour: logged
 *            and dropped (exit 0)
 *   parse    mailfind_find by the table of mail commands (mailcmd.h)
 *   prepare  what the command's row needs: the robot refused as a login,
 *            the password checked (throttle.h), accounts.lock, the board
 *            read, under its lock, and checked again against the record
 *   handle   the command's handler (one file per command or family),
 *            which refuses, replies or commits through job.h
 *   robot    the robot's answer on the board just committed, the handler's
 *            last step (MAILCMD_ROBOT: job_turn_answer)
 *   record   the mail in the redelivery record, an outdated hash renewed
 *   deliver  the replies flushed from the outbox to the transport; one log
 *            line: time, Message-ID, sender, masked command, board, result
 *
 * Each step returns an enum process_status; main.c alone turns it into
 * the exit status.  The commit protocol (outbox.h) is job.c's.
 */
#include "commands/pipeline/process.h"

#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/pipeline/alert.h"
#include "commands/pipeline/bounce.h"
#include "commands/pipeline/hooks.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/pipeline/robotreply.h"
#include "commands/pipeline/tokenreply.h"
#include "game/gamefile.h"
#include "mail/authres.h"
#include "mail/idmac.h"
#include "mail/mailfind.h"
#include "mail/mailin.h"
#include "outbox/transport.h"
#include "store/ratings.h"
#include "store/accounts.h"
#include "store/lifecycle.h"
#include "store/pending.h"
#include "store/seen.h"
#include "store/throttle.h"
#include "store/store.h"

/*
 * The hooks (hooks.h): defined here, at the top, and handed to the job,
 * so that the commit, below, reaches no service itself.
 */
static const struct hook hook_rows[] = {
	{ "clock", clock_hook_turn, NULL, NULL, NULL },
	{ "reminder", remind_hook_turn, NULL, NULL, NULL },
	{ "robot", NULL, robot_answer_due, robot_answer_hook, NULL },
	{ "tournament", NULL, NULL, NULL, tournament_hook_flushed },
	{ "web", NULL, NULL, NULL, web_hook_flushed },
};
static const struct hooks hooks = { hook_rows, sizeof hook_rows / sizeof hook_rows[0] };

/* ---- gate: mails that get no answer ---- */

/*
 * A mail loop: our own replies come back (from our address, or carrying a
 * Message-ID we made) without the Auto-Submitted header mailin drops them
 * by.  Answering would start the loop again.
 */
/*
 * True if addr is the account the server runs as: its login name at
 * localhost, at this host's name or at the domain of from_address (the
 * From: of mail the account's own programs send, cron's or a vacation
 * program's, which must never be taken for a command).
 */
static bool own_account(const char *addr, const struct config *cfg)
{
	const char *at = strrchr(addr, '@'), *dom, *cfg_at = strrchr(cfg->from_address, '@');
	struct passwd *pw = getpwuid(geteuid());
	char host[256];
	size_t n;

	if (pw == NULL || pw->pw_name == NULL || at == NULL)
		return false;
	n = strlen(pw->pw_name);
	if ((size_t)(at - addr) != n || strncasecmp(addr, pw->pw_name, n) != 0)
		return false;
	dom = at + 1;
	if (strcasecmp(dom, "localhost") == 0 || (cfg_at != NULL && strcasecmp(dom, cfg_at + 1) == 0))
		return true;
	if (gethostname(host, sizeof host) != 0)
		return false;
	host[sizeof host - 1] = '\0';
	n = strcspn(host, ".");
	/* the host's name, short or fully qualified */
	return strcasecmp(dom, host) == 0 || (strncasecmp(dom, host, n) == 0 && (dom[n] == '.' || dom[n] == '\0'));
}

/*
 * True if j's Message-ID is one the server sent to the address in its To:
 * (idmac.h): our own mail come back.  Its mac is checked, never its shape
 * alone, so a player whose mail program makes ids like ours is answered.
 */
static bool own_id(struct job *j)
{
	unsigned char key[IDMAC_KEY_BYTES];
	const char *at = strrchr(j->srv.cfg.from_address, '@');
	size_t left;
	bool ours;

	if (at == NULL || j->in.message_id == NULL || j->in.to_addr == NULL || j->in.to_addr[0] == '\0' ||
	    !idmac_strip(j->in.message_id, &left))
		return false;
	/* no key: the mail is not taken for a loop; answering it needs the key too, and says so */
	if (server_id_key(&j->srv, key) != STORE_OK)
		return false;
	ours = idmac_ours(key, j->in.message_id, j->in.to_addr, at + 1);
	explicit_bzero(key, sizeof key);
	return ours;
}

static enum process_status check_loop(struct job *j)
{
	if (strcasecmp(j->in.from_addr, j->srv.cfg.from_address) == 0 ||
	    (j->srv.cfg.envelope_from[0] != '\0' && strcasecmp(j->in.from_addr, j->srv.cfg.envelope_from) == 0)) {
		job_detail(j, "dropped", "a mail loop: the sender is the server's own address");
		return PROCESS_DROPPED;
	}
	if (own_account(j->in.from_addr, &j->srv.cfg)) {
		job_detail(j, "dropped", "automatic mail (the sender %s is the account the server runs as)",
		    j->in.from_addr);
		return PROCESS_DROPPED;
	}
	if (own_id(j)) {
		job_detail(j, "dropped", "a mail loop: the Message-ID is one the server sent to %s", j->in.to_addr);
		return PROCESS_DROPPED;
	}
	return PROCESS_OK;
}

/*
 * When a limit of limit mails an hour lifts: times are the n mails
 * counted (oldest first), this one among them; the next is answered once
 * fewer than limit are left in the hour, so when the (n - limit + 1)-th
 * oldest leaves it.
 */
static time_t lifts_at(const time_t *times, size_t n, unsigned long limit, time_t now)
{
	if (n == 0 || limit == 0 || n < limit)
		return now;
	return times[n - limit] + SEEN_RATE_WINDOW;
}

/*
 * Is j a reply by token (replytoken.h) on a running board of which its
 * sender is a player's registered address?  That player's user id into
 * userid.  Read without the board's lock: a game file is replaced whole.
 */
static bool own_board_reply(struct job *j, char userid[IDENT_USERID_MAX + 1])
{
	struct game g;
	struct store_user u;
	char *text = NULL;
	size_t len;
	bool yes = false;
	int i;

	if (!j->by_token || j->token.board <= 0 ||
	    store_board_read(j->srv.st, j->token.board, &text, &len) != STORE_OK)
		return false;
	if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && !game_over(&g)) {
		for (i = 0; i < 2 && !yes; i++) {
			const char *p = i == 0 ? g.black : g.white;

			if (p != NULL && p[0] != '\0' && !game_user_is_robot(p) &&
			    store_user_find(j->srv.st, p, &u) == STORE_OK && strcasecmp(u.address, j->in.from_addr) == 0) {
				snprintf(userid, IDENT_USERID_MAX + 1, "%s", u.userid);
				yes = true;
			}
		}
		game_release(&g);
	}
	free(text);
	return yes;
}

/* The sender's first mail over a rate limit: answered by a notice instead (answer). */
struct rate_notice {
	bool due;
	long board;		/* over max_board_replies_per_hour on this board; 0: max_mails_per_hour */
	time_t lifts;		/* when the limit told of lifts */
};

/*
 * The per-board cap on replies by token (max_board_replies_per_hour):
 * a game is played by such replies, one turn in parts at a time, so they
 * do not count against max_mails_per_hour; this cap stops a client that
 * sends one reply again and again.
 */
static enum process_status check_board_rate(struct job *j, const char *userid, struct rate_notice *rn)
{
	unsigned long cap = j->srv.cfg.max_board_replies_per_hour;
	struct throttle_replies tr;
	enum store_status ss;

	if (cap == 0)
		goto record;
	ss = throttle_replies(j->srv.st, j->in.from_addr, j->token.board, j->srv.now, &tr);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the record of replies by token");
	if (tr.nboard > cap) {
		job_detail(j, "dropped", "%s sent %zu replies by token to board %ld in the last hour "
		    "(max_board_replies_per_hour = %lu)", j->in.from_addr, tr.nboard, j->token.board, cap);
		throttle_replies_free(&tr);
		return PROCESS_DROPPED;
	}
	/* the first one over is told once, and recorded: the later ones are then dropped */
	if (tr.nboard == cap) {
		rn->due = true;
		rn->board = j->token.board;
		/* this one is recorded too: the times, it among them */
		time_t *nb = realloc(tr.board, (tr.nboard + 1) * sizeof *nb);

		if (nb == NULL) {
			throttle_replies_free(&tr);
			return job_no_memory(j);
		}
		tr.board = nb;
		tr.board[tr.nboard++] = j->srv.now;
		rn->lifts = lifts_at(tr.board, tr.nboard, cap, j->srv.now);
	}
	throttle_replies_free(&tr);
record:
	ss = throttle_reply_made(j->srv.st, &j->srv.cfg, userid, j->token.board, j->in.from_addr, j->srv.now);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot record the reply by token");
	return PROCESS_OK;
}

/*
 * Drop the mail if its sender had max_mails_per_hour mails answered in the
 * last hour, so the server cannot be used to flood an address.  Replies by
 * token on the sender's own running boards are not counted: they have
 * their own cap per board (check_board_rate).
 */
static enum process_status check_rate(struct job *j, struct rate_notice *rn)
{
	char userid[IDENT_USERID_MAX + 1];
	unsigned long limit = j->srv.cfg.max_mails_per_hour;
	struct throttle_replies tr;
	enum store_status ss;
	time_t *times = NULL, *kept;
	size_t n = 0, i, k, m;

	/* the robot host's replies, their token right, are exempt; a mail forged From robot_address is not */
	if (robotreply_authentic(j))
		return PROCESS_OK;
	if (own_board_reply(j, userid))
		return check_board_rate(j, userid, rn);
	if (limit == 0)
		return PROCESS_OK;
	ss = seen_sender_times(j->srv.st, j->in.from_addr, j->srv.now, &times, &n);
	if (ss == STORE_OK)
		ss = throttle_replies(j->srv.st, j->in.from_addr, 0, j->srv.now, &tr);
	if (ss != STORE_OK) {
		free(times);
		return job_store_failure(j, ss, "cannot read the redelivery record");
	}
	/* the replies by token are taken out: both lists are sorted, a reply is recorded in both at its time */
	for (i = k = m = 0; i < n; i++) {
		while (k < tr.nall && tr.all[k] < times[i])
			k++;
		if (k < tr.nall && tr.all[k] == times[i])
			k++;
		else
			times[m++] = times[i];
	}
	n = m;
	throttle_replies_free(&tr);
	if (n > limit) {
		job_detail(j, "dropped", "%s sent %zu mails in the last hour (max_mails_per_hour = %lu)",
		    j->in.from_addr, n, limit);
		free(times);
		return PROCESS_DROPPED;
	}
	/*
	 * The first mail over the limit gets one reply saying so instead of
	 * its answer; recorded like an answered mail, it takes the count past
	 * the limit, so the later ones are dropped without a word.
	 */
	if (n == limit) {
		rn->due = true;
		kept = realloc(times, (n + 1) * sizeof *kept);
		if (kept == NULL) {
			free(times);
			return job_no_memory(j);
		}
		times = kept;
		times[n++] = j->srv.now;
		rn->lifts = lifts_at(times, n, limit, j->srv.now);
	}
	free(times);
	return PROCESS_OK;
}

/* ---- prepare and handle: the command's row says what its handler needs (mailcmd.h) ---- */

/* The set-up the row's needs ask for; *ready false after a refusal was sent. */
static enum process_status prepare(struct job *j, unsigned needs, bool *ready)
{
	enum process_status ps = PROCESS_OK;
	bool dup;

	*ready = false;
	if (needs & MAILCMD_BOARD)
		j->board = j->cmd.board;
	if (j->by_token) {
		/* every command a token stands for is a board's, under its lock (replytoken.h) */
		j->board = j->token.board;
		ps = job_load_locked(j, j->token.board, ready);
		if (ps != PROCESS_OK || !*ready)
			return ps;
		ps = tokenreply_login(j, ready);
		if (ps != PROCESS_OK || !*ready)
			return ps;
		*ready = false;
		ps = job_check_duplicate(j, &dup);
		*ready = ps == PROCESS_OK;
		return ps;
	}
	if ((needs & MAILCMD_LOGIN) && game_user_is_robot(j->cmd.userid))
		return job_refuse(j, NULL, "%s is the server's robot player: nobody can log in as %s, it plays its own "
		    "turns", GAME_ROBOT_USERID, GAME_ROBOT_USERID);
	if (needs & MAILCMD_ACCOUNTS) {
		/* one account change at a time; the handler checks the password under the lock */
		ps = job_lock_accounts(j);
		*ready = ps == PROCESS_OK;
		return ps;
	}
	if (needs & MAILCMD_LOCK) {
		/* the password check runs on while the board is read (pwcheck.h) */
		if (needs & MAILCMD_LOGIN) {
			ps = job_authenticate_async(j, j->cmd.userid, j->cmd.password, &j->user, ready);
			if (ps != PROCESS_OK || !*ready)
				return ps;
		}
		ps = job_load_locked(j, j->cmd.board, ready);
		if (ps != PROCESS_OK || !*ready)
			return ps;
		/* under the board lock: a copy handled meanwhile is seen here */
		*ready = false;
		ps = job_check_duplicate(j, &dup);
		*ready = ps == PROCESS_OK;
		return ps;
	}
	if (needs & MAILCMD_LOGIN) {
		ps = job_authenticate(j, j->cmd.userid, j->cmd.password, &j->user, ready);
		if (ps != PROCESS_OK || !*ready)
			return ps;
	}
	if (needs & MAILCMD_BOARD)
		return job_load_readonly(j, j->cmd.board, ready);
	*ready = true;
	return ps;
}

/*
 * A MAILCMD_AUTH command without the trusted server's pass (gate_auth):
 * refused before its set-up, so nothing is read or changed.  The answer
 * goes to the From, as any refusal does: one mail, which a forger cannot
 * make say more.  The results the verdict rests on go to the log.
 */
static enum process_status refuse_unverified(struct job *j)
{
	const char *at = strrchr(j->in.from_addr, '@');
	enum process_status ps;

	ps = job_refuse(j, NULL, "%s needs proof that this mail comes from your address: a DMARC pass or a DKIM "
	    "signature of your domain (%s), as the mail server that received it (%s) checks them, and it found %s. "
	    "Send the command from your mail provider's own service (its web mail or its "
	    "outgoing server), which signs your mail.", j->mc->syntax.name, at != NULL ? at + 1 : "",
	    j->srv.cfg.trusted_authserv_id, j->auth == AUTHRES_NO_PASS ? "neither" :
	    j->auth == AUTHRES_UNREADABLE ? "no readable verdict" : "no verdict");
	job_detail_add(j, " [%s: %s]", authres_verdict_str(j->auth), j->auth_why);
	return ps;
}

/* The parsed command: its set-up, its handler (and a hook's answer: the robot's); the locks released after. */
static enum process_status handle(struct job *j)
{
	const struct mail_command *mc = j->mc;
	mailcmd_fn *bare;
	enum process_status ps;
	bool ready;

	j->masked = j->by_token ? tokenreply_masked(j) : command_mask(&j->cmd);
	if (j->masked != NULL) {
		/* a reply token is a secret: never in the log nor in an echo (replytoken.h) */
		char *t = token_mask(j->masked);

		free(j->masked);
		j->masked = t;
	}
	if (j->masked == NULL)
		return job_no_memory(j);
	if (j->by_token && j->token_error[0] != '\0') {
		/* a token reply whose text is no command: its token checked first, so the answer carries it */
		ps = prepare(j, MAILCMD_LOGIN | MAILCMD_BOARD | MAILCMD_LOCK, &ready);
		if (ps == PROCESS_OK && ready)
			ps = job_refuse(j, &j->game, "%s", j->token_error);
		job_unlock(j);
		return ps;
	}
	/* a mail without a keyword under a board mail (placements alone, an answer to a chat): the table's too */
	if (j->cmd.board > 0 && (bare = cmdtable_bare(j->commands, j->cmd_status)) != NULL) {
		ps = bare(j);
		job_unlock(j);
		return ps;
	}
	if (j->cmd_status != COMMAND_OK) {
		/* the board, if the words got that far, for the subject */
		j->board = j->cmd.board;
		return job_refuse(j, NULL, "%s", j->cmd.error);
	}
	if (mc == NULL) {
		job_detail(j, "error", "no handler for the command");
		return PROCESS_SOFTWARE;
	}
	if ((mc->needs & MAILCMD_AUTH) && j->srv.cfg.trusted_authserv_id[0] != '\0' && j->auth != AUTHRES_PASS)
		return refuse_unverified(j);
	ps = prepare(j, mc->needs, &ready);
	if (ps == PROCESS_OK && ready)
		ps = mc->run(j);
	job_unlock(j);
	return ps;
}

/* ---- record and deliver ---- */

/* ---- the run ---- */

/*
 * The command for the log's cmd="..." field: '"' and '\\' escaped with a
 * backslash, so no Subject can end the field and forge the ones after it
 * (control characters become '?' in store_log).  The caller frees it.
 */
static char *log_quoted(const char *s)
{
	char *q = malloc(2 * strlen(s) + 1), *p = q;

	if (q == NULL)
		return NULL;
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			*p++ = '\\';
		*p++ = *s;
	}
	*p = '\0';
	return q;
}

static void write_log(struct job *j)
{
	char stamp[GAMEFILE_TIME_SIZE], board[24];
	const char *id = j->in.message_id != NULL ? j->in.message_id : "";
	const char *from = j->in.from_addr != NULL ? j->in.from_addr : "";
	char *cmd = log_quoted(j->masked != NULL ? j->masked : "");

	gamefile_time_str((int64_t)j->srv.now, stamp);
	if (j->board > 0)
		snprintf(board, sizeof board, "%ld", j->board);
	else
		snprintf(board, sizeof board, "-");
	store_log(j->srv.st, "%s mail %s%s%s from=%s board=%s cmd=\"%s\" %s: %s", stamp, id[0] != '\0' ? "<" : "",
	    id[0] != '\0' ? id : "-", id[0] != '\0' ? ">" : "", from[0] != '\0' ? from : "-", board,
	    cmd != NULL ? cmd : "(out of memory)", j->outcome != NULL ? j->outcome : "error", j->detail);
	free(cmd);
}

/*
 * The owner gave the right password for a hash of another cost or method
 * than password_cost: make it again, now that the password is known (the
 * mail is handled whatever comes of it).
 */
static void rehash_password(struct job *j)
{
	enum store_status ss;
	size_t n;

	ss = store_user_rehash(j->srv.st, j->rehash.userid, j->rehash.hash, j->cmd.password);
	if (ss != STORE_OK) {
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (password hash not renewed: %s)", store_error(j->srv.st));
		msg_warn("cannot renew the password hash of %s: %s", j->rehash.userid,
		    store_error(j->srv.st));
	}
}


static void flush(struct job *j)
{
	const struct transport_ops *ops = transport_find(j->srv.cfg.transport);
	struct outbox_stats stats;
	enum outbox_status os;
	size_t n;

	if (j->settle && job_need_outbox(j) == PROCESS_OK)
		j->queued = true;
	/* the first copy may have died before the ratings counted its game's end (ratings.h) */
	if (j->settle && j->srv.st != NULL)
		ratings_after_commit(j->srv.st, j->srv.cfg.lock_timeout_ms);
	if (!j->queued || j->srv.ob == NULL || ops == NULL)
		return;
	/* this mail's replies, then a bounded part of the backlog (outbox.h) */
	os = outbox_flush_opts(j->srv.ob, ops, &j->srv.cfg, OUTBOX_FLUSH_MINE, &stats);
	if (os != OUTBOX_OK || stats.deferred > 0 || stats.failed > 0 || stats.left > 0) {
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, " (replies: %u sent, %u deferred, %u failed",
		    stats.delivered, stats.deferred, stats.failed);
		n = strlen(j->detail);
		if (stats.left > 0)
			snprintf(j->detail + n, sizeof j->detail - n, ", %u left for flush", stats.left);
		n = strlen(j->detail);
		snprintf(j->detail + n, sizeof j->detail - n, "%s%s)", os != OUTBOX_OK ? "; " : "",
		    os != OUTBOX_OK ? outbox_error(j->srv.ob) : "");
	}
}

/* The mail as start() read it. */
struct mail_read {
	char *buf;		/* the raw mail, owned */
	size_t len;
	enum mail_status rs, ms;	/* what mailin_read and mailin_parse said */
	struct rate_notice rate;	/* gate_repeat's */
};

/* Why start() failed, for the admin's alert (alert.h). */
struct start_failure {
	bool config;	/* oustpbm.conf cannot be loaded: cause says why */
	bool home;	/* the home cannot be opened: cause says why */
	char cause[CONFIG_ERR_MAX + STORE_ERR_MAX + 32];
};

/*
 * start: the configuration, the home, the mail read and parsed.  No reply
 * is possible yet: a failure is only the exit status, and the log line
 * once the home is open.
 */
static enum process_status start(struct job *j, struct mail_read *mr, struct start_failure *f)
{
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX];
	enum process_status ss = server_open(&j->srv, err, sizeof err);

	if (ss == PROCESS_CONFIG) {
		/* logged in the home when there is one, with the defaults' settings */
		msg_warn("%s", err);
		f->config = true;
		snprintf(f->cause, sizeof f->cause, "configuration error: %s", err);
		if (j->srv.st != NULL) {
			/* the sender and Message-ID, so the admin knows which mail to replay */
			if (mailin_read(STDIN_FILENO, j->srv.cfg.max_message_bytes, &mr->buf, &mr->len) !=
			    MAIL_READ_ERROR && mr->buf != NULL)
				(void)mailin_parse(mr->buf, mr->len, &j->in);
			job_detail(j, "error", "configuration error: %s", err);
		}
		return PROCESS_CONFIG;
	}
	if (ss != PROCESS_OK) {
		/* no home, or not ours: nothing can be logged there */
		msg_warn("%s", err);
		f->home = true;
		snprintf(f->cause, sizeof f->cause, "%s", err);
		return ss == PROCESS_NOHOME ? PROCESS_CONFIG : PROCESS_TEMPFAIL;
	}
	mr->rs = mailin_read(STDIN_FILENO, j->srv.cfg.max_message_bytes, &mr->buf, &mr->len);
	if (mr->rs == MAIL_READ_ERROR || mr->rs == MAIL_NOMEM) {
		job_detail(j, "tempfail", "%s", mail_status_str(mr->rs));
		return PROCESS_TEMPFAIL;
	}
	mr->ms = mailin_parse(mr->buf, mr->len, &j->in);
	if (mr->ms == MAIL_NOMEM) {
		job_detail(j, "tempfail", "%s", mail_status_str(mr->ms));
		return PROCESS_TEMPFAIL;
	}
	if (mr->ms == MAIL_UNPARSABLE) {
		job_detail(j, "unparsable", "%s", mail_status_str(mr->ms));
		return PROCESS_DATAERR;
	}
	return PROCESS_OK;
}

/*
 * gate, after the sender's: a retired server (oustpbm retire) takes no
 * mail.  Exit 69 (EX_UNAVAILABLE) makes the MTA bounce it to its sender
 * with our standard error as the reason, so the player learns it at once
 * and nothing is queued, answered or left unseen.  Automatic mail (a
 * delivery report of a reply retire flushed) was dropped before: no
 * bounce of a bounce.  A damaged stamp refuses too: the admin meant it.
 */
static enum process_status gate_retired(struct job *j)
{
	char when[GAMEFILE_TIME_SIZE];
	enum store_status ss;
	int64_t t;

	ss = lifecycle_read(j->srv.st, LIFECYCLE_RETIRED_FILE, &t);
	if (ss == STORE_NOT_FOUND)
		return PROCESS_OK;
	if (ss != STORE_OK && ss != STORE_CORRUPT) {
		job_detail(j, "tempfail", "%s", store_error(j->srv.st));
		return PROCESS_TEMPFAIL;
	}
	if (t > 0)
		gamefile_time_str(t, when);
	else
		snprintf(when, sizeof when, "?");
	msg_warn("the game server %s is retired (since %s) and takes no more mail%s%s",
	    j->srv.cfg.from_address, when, j->srv.cfg.admin_address[0] != '\0' ? "; its admin: " : "",
	    j->srv.cfg.admin_address);
	job_detail(j, "bounced", "the server is retired (since %s): exit 69, the mail system returns the mail", when);
	return PROCESS_RETIRED;
}

/*
 * gate, first of all: the receiving server's verdict, when the admin
 * trusts it (trusted_authserv_id, mail/authres.h).  A From that its DMARC
 * check found forged is dropped unanswered, before any command runs or any
 * report is counted: an answer would go to the forged address, a stranger.
 * The log says why; the exit status is 0, so the mail system does not try
 * again.  The verdict is kept for the commands that need a pass
 * (MAILCMD_AUTH, handle).  A mail without one plain From is left to
 * gate_sender.
 */
static enum process_status gate_auth(struct job *j, const struct mail_read *mr)
{
	const struct config *cfg = &j->srv.cfg;
	struct authres *ar;

	if (cfg->trusted_authserv_id[0] == '\0' || mr->ms == MAIL_NO_FROM || mr->ms == MAIL_TWO_FROM ||
	    mr->ms == MAIL_BAD_FROM || mr->ms == MAIL_UTF8_FROM || j->in.from_addr == NULL ||
	    j->in.from_addr[0] == '\0')
		return PROCESS_OK;
	ar = malloc(sizeof *ar);	/* about 100 kB */
	if (ar == NULL)
		return job_no_memory(j);
	j->auth = authres_check(mr->buf, mr->len, cfg->trusted_authserv_id, j->in.from_addr, ar, j->auth_why);
	free(ar);
	if (j->auth == AUTHRES_DMARC_FAIL) {
		job_detail(j, "dropped", "a forged sender: the receiving server %s found DMARC fail for the From "
		    "(%s), so the mail is not answered", cfg->trusted_authserv_id, j->auth_why);
		return PROCESS_DROPPED;
	}
	return PROCESS_OK;
}

/* gate, first: automatic mail is never answered, a mail without one sender cannot be. */
static enum process_status gate_sender(struct job *j, const struct mail_read *mr)
{
	enum mail_status ms = mr->ms;

	/* the remote robot's replies are automatic (RFC 3834) and answer board mails: read (robotremote.h) */
	if (j->in.automatic && !robotreply_authentic(j)) {
		/* RFC 3834: never answer a bounce or an automatic mail; a delivery report's bounces count */
		if (robotreply_sender(j))
			job_detail(j, "dropped", "automatic mail (%s) from the robot's address (robot_address) without "
			    "the robot's right token: not answered", j->in.automatic_reason);
		else
			job_detail(j, "dropped", "automatic mail (%s)", j->in.automatic_reason);
		return bounce_report(j, mr->buf, mr->len);
	}
	if (ms == MAIL_NO_FROM || ms == MAIL_TWO_FROM || ms == MAIL_BAD_FROM || ms == MAIL_UTF8_FROM) {
		job_detail(j, "unparsable", "%s: nobody to answer", mail_status_str(ms));
		/* exit 65: the mail system bounces the mail with this text, the one answer possible */
		msg_warn("%s", mail_status_str(ms));
		return PROCESS_DATAERR;
	}
	return PROCESS_OK;
}

/* The sources of the command: the Subject, the text, the ids it answers (mailfind.h). */
static void find(struct job *j, const char *const *senders, size_t n)
{
	const char *at = strrchr(j->srv.cfg.from_address, '@');
	struct mailfind_source src = { .subject = j->in.subject, .body = j->in.body, .in_reply_to = j->in.in_reply_to,
		.references = j->in.references, .own_domain = at != NULL ? at + 1 : "", .senders = senders,
		.nsenders = n };

	j->cmd_status = mailfind_find(&mailcmd_grammar, &src, &j->cmd, &j->found);
}

/*
 * A command too few words long, or none, found again knowing the
 * sender's accounts: they tell its words apart (command_parse_line), so
 * the reply names what is missing and echoes what is not the password.
 * Read only then: most mails need no users file before their command runs.
 */
static void find_as_sender(struct job *j)
{
	char ids[COMMAND_SENDERS_MAX][IDENT_USERID_MAX + 1];
	const char *list[COMMAND_SENDERS_MAX];
	size_t n = 0, i;

	if (j->in.from_addr == NULL ||
	    store_user_ids_of(j->srv.st, j->in.from_addr, ids, COMMAND_SENDERS_MAX, &n) != STORE_OK || n == 0)
		return;
	for (i = 0; i < n; i++)
		list[i] = ids[i];
	find(j, list, n);
}

/*
 * parse: the command, by the table of mail commands; a board command's
 * password check starts at once, to run while the record and the board
 * are read (job_start_password).  A mail cut short or nested too deeply is
 * not parsed: it is refused unread (answer).
 */
/*
 * A reply to a registration's code mail (register.c) whose first line is
 * "<code> <password>": read as "confirm <userid> <code> <password>" of
 * the registration waiting for the sender's address; the code alone, or
 * with no registration waiting, as "confirm <code>" (refused, asking for
 * the password or saying none waits: confirm.c).
 */
static void parse_code_reply(struct job *j)
{
	char code[ACCOUNTS_CODE_LEN + 1], pw[COMMAND_PASSWORD_MAX + 1];
	char line[IDENT_USERID_MAX + COMMAND_PASSWORD_MAX + 32];	/* "confirm <userid> <code> <password>" */
	const char *p = j->in.body != NULL ? j->in.body : "";
	struct pending wait;
	size_t n = 0, k = 0;

	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	while (p[n] != '\0' && p[n] != '\n' && p[n] != '\r' && p[n] != ' ' && p[n] != '\t' && n < sizeof code - 1)
		n++;
	memcpy(code, p, n);
	code[n] = '\0';
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	while (p[k] != '\0' && p[k] != '\n' && p[k] != '\r' && p[k] != ' ' && p[k] != '\t' && k < sizeof pw - 1)
		k++;
	memcpy(pw, p, k);
	pw[k] = '\0';
	p += k;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if ((*p != '\n' && *p != '\0') || !accounts_code_ok(code))
		goto out;
	if (k > 0 && j->in.from_addr != NULL &&
	    pending_of_address(j->srv.st, j->in.from_addr, (int64_t)j->srv.now, &wait) == STORE_OK && !wait.done)
		snprintf(line, sizeof line, "confirm %s %s %s", wait.userid, code, pw);
	else
		/* no registration waits: answered as "confirm <code>", the password never echoed */
		snprintf(line, sizeof line, "confirm %s", code);
	j->cmd_status = mailfind_parse(&mailcmd_grammar, line, NULL, &j->cmd);
	explicit_bzero(line, sizeof line);
out:
	explicit_bzero(code, sizeof code);
	explicit_bzero(pw, sizeof pw);
}

static void parse(struct job *j, const struct mail_read *mr)
{
	if (mr->rs == MAIL_TOO_BIG || mr->ms == MAIL_TOO_DEEP)
		return;
	find(j, NULL, 0);
	if (j->cmd_status == COMMAND_USAGE || j->cmd_status == COMMAND_UNKNOWN || j->cmd_status == COMMAND_EMPTY)
		find_as_sender(j);
	if (j->cmd_status == COMMAND_UNKNOWN || j->cmd_status == COMMAND_EMPTY)
		parse_code_reply(j);
	j->mc = cmdtable_of(j->commands, &j->cmd);
	/* a reply to a board mail, its token standing for the password (replytoken.h) */
	if (tokenreply_parse(j))
		return;
	job_start_password(j);
}

/* gate, then: a mail loop, a redelivered copy, the per-sender limit: dropped without a reply. */
static enum process_status gate_repeat(struct job *j, struct mail_read *mr)
{
	enum process_status ps;
	bool dup;

	ps = check_loop(j);
	if (ps == PROCESS_OK)
		ps = job_check_duplicate(j, &dup);
	if (ps == PROCESS_OK)
		ps = check_rate(j, &mr->rate);
	return ps;
}

/* answer: a mail that cannot be read is refused as such; else its command is handled. */
static enum process_status answer(struct job *j, const struct mail_read *mr)
{
	enum store_status ss;

	/* a mail without a Message-ID is still answered: in_id "" */
	reply_init(&j->srv.rc, &j->srv.cfg, j->srv.home, j->srv.now, j->in.message_id != NULL ? j->in.message_id : "",
	    j->in.references, j->in.from_addr);
	ss = server_reply_key(&j->srv, &j->srv.rc);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the key of the Message-IDs (token.secret)");
	j->unread = "(not read)";
	if (mr->rs == MAIL_TOO_BIG)
		/* only the header was kept: the Subject may be cut short, so it is not acted on */
		return job_refuse(j, NULL, "your mail is larger than %lu bytes, so it was not read: send the "
		    "command alone, without attachments", j->srv.cfg.max_message_bytes);
	if (mr->rate.due) {
		char lifts[REPLY_TIME_SIZE];

		reply_time_str((int64_t)mr->rate.lifts, lifts);
		if (mr->rate.board > 0)
			return job_refuse(j, NULL, "you have sent %lu repl%s to the mails of board %ld in the last "
			    "hour, the most this server answers for one board in an hour, so this one was not read; "
			    "your next replies to them are dropped without an answer until %s. This is the only notice.",
			    j->srv.cfg.max_board_replies_per_hour, j->srv.cfg.max_board_replies_per_hour == 1 ? "y" : "ies",
			    mr->rate.board, lifts);
		return job_refuse(j, NULL, "you have sent %lu mails in the last hour, the most this server answers "
		    "in an hour, so this one was not read; your next mails are dropped without an answer until "
		    "%s (replies to the board mails of your running games are not counted). This is the only "
		    "notice.", j->srv.cfg.max_mails_per_hour, lifts);
	}
	if (mr->ms == MAIL_TOO_DEEP)
		return job_refuse(j, NULL, "the parts of your mail are nested too deeply to find its text: send the "
		    "command as plain text");
	j->unread = NULL;
	return handle(j);
}

/*
 * A mail that no answer can be made for, kept by the mail system (exit 75):
 * the admin is told (alert.h), each cause on its own.  A system error is
 * told by its errno value (a full disk, a permission, the I/O); a lock
 * held too long, or a mail that cannot be read, cures itself or is no
 * fault of the server: nobody is told.
 */
static void tell_admin(struct job *j, enum process_status ps, const struct start_failure *f)
{
	enum alert_cause c;

	if (f->config)
		c = ALERT_CONFIG;
	else if (f->home)
		c = ALERT_HOME;
	else if ((ps == PROCESS_TEMPFAIL || ps == PROCESS_SOFTWARE) && (alert_cause_of_store(j->store_failed, &c) ||
	    alert_cause_of_errno(j->sys_errno, &c)))
		;	/* c is the system error's */
	else if (ps == PROCESS_CONFIG)
		c = ALERT_TEMPLATES;
	else if (ps == PROCESS_SOFTWARE && j->outbox_failed)
		c = ALERT_OUTBOX;
	else if (ps == PROCESS_SOFTWARE)
		c = ALERT_INTERNAL;
	else
		return;
	(void)alert_admin(f->config ? NULL : &j->srv.cfg, j->srv.st, j->srv.home, c,
	    f->config || f->home ? f->cause : j->detail);
}

/* The log line, and everything the job holds released. */
static void finish(struct job *j, enum process_status ps)
{
	if (ps != PROCESS_OK && ps != PROCESS_DROPPED && j->outcome == NULL)
		job_detail(j, "error", "%s", process_status_str(ps));
	pwcheck_release(&j->pw);
	if (j->srv.st != NULL)
		write_log(j);
	free(j->masked);
	mailin_message_release(&j->in);
	server_close(&j->srv);
}

/*
 * One mail, from standard input to the log line.  Each step returns the
 * status the mail ends with; main.c alone turns it into the exit status.
 */
enum process_status process_main(const char *home)
{
	static struct job job;	/* large (the command holds 625 placements): not on the stack */
	struct job *j = &job;
	struct mail_read mr = { NULL, 0, MAIL_OK, MAIL_OK, { false, 0, 0 } };
	static struct start_failure failure;
	enum process_status ps;
	unsigned long cleared = 0;

	memset(j, 0, sizeof *j);
	j->hooks = &hooks;
	j->commands = &mailcmd_commands;
	j->seen_lock.fd = -1;
	j->board_lock.fd = -1;
	j->accounts_lock.fd = -1;
	server_init(&j->srv, home);
	memset(&failure, 0, sizeof failure);
	ps = start(j, &mr, &failure);
	if (ps == PROCESS_OK)
		ps = gate_auth(j, &mr);
	if (ps == PROCESS_OK)
		ps = gate_sender(j, &mr);
	if (ps == PROCESS_OK)
		ps = gate_retired(j);
	if (ps == PROCESS_OK) {
		parse(j, &mr);
		ps = gate_repeat(j, &mr);
	}
	/* the sender wrote: mail to the address goes out again (bounces.h) */
	if (ps == PROCESS_OK)
		cleared = bounce_wrote(j);
	if (ps == PROCESS_OK)
		ps = answer(j, &mr);
	if (cleared > 0)
		job_detail_add(j, "; the address's %lu bounce%s cleared: it wrote", cleared, cleared == 1 ? "" : "s");
	if (ps == PROCESS_OK)
		job_record_handled(j);
	if (ps == PROCESS_OK && j->rehash.userid[0] != '\0')
		rehash_password(j);
	/* a dropped copy of a handled mail: what its first copy left is delivered now */
	if (ps == PROCESS_OK || (ps == PROCESS_DROPPED && j->settle))
		flush(j);
	hooks_flushed(j->hooks, &j->srv, j->hook_board);
	if (ps != PROCESS_OK && ps != PROCESS_DROPPED) {
		if (j->outcome == NULL)
			job_detail(j, "error", "%s", process_status_str(ps));
		tell_admin(j, ps, &failure);
	}
	finish(j, ps);
	free(mr.buf);
	return ps;
}
