/*
 * job: what a mail command's handler may do with the mail it handles
 * (job.h): the log line, failures, refusals, replies, boards and users
 * read.  The password checks are job_password.c's, the one commit
 * protocol of outbox.h job_commit.c's, as follows.
 *
 * Every refusal is an error reply to the sender and changes nothing in the
 * store: all checks come before the first write.  A change is committed by
 * one write (the game file, the users file) made after its replies are safe
 * in outbox/tmp/, as outbox.h's protocol says; a register or password
 * confirmation uses an account batch the same way (tagged with the new
 * password hash, under accounts.lock), so it goes out if and only if the
 * account was written, also when the process dies in between: a copy of
 * the mail then finds the change made, and is dropped while the
 * confirmation left behind is released.  A temporary failure before that write
 * (lock timeout, disk full) leaves the store as it was and exits
 * EX_TEMPFAIL, so the MTA delivers the mail again; after it the mail is
 * handled (exit 0), and a redelivery is refused by the #turn guard or
 * found already done (an account).
 */
#include "commands/pipeline/job.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "game/gamefile.h"
#include "store/players.h"

/* ---- the log line, and failures of the machinery (not of the player) ---- */

void job_detail(struct job *j, const char *outcome, const char *fmt, ...)
{
	va_list ap;

	j->outcome = outcome;
	va_start(ap, fmt);
	vsnprintf(j->detail, sizeof j->detail, fmt, ap);
	va_end(ap);
}

void job_detail_add(struct job *j, const char *fmt, ...)
{
	size_t n = strlen(j->detail);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->detail + n, sizeof j->detail - n, fmt, ap);
	va_end(ap);
}

enum process_status job_store_failure(struct job *j, enum store_status ss, const char *what)
{
	/* a file at its cap (store_write_capped): a clear reply, the mail handled; the admin sees fsck */
	if (ss == STORE_TOO_BIG) {
		store_complain(j->srv.st, "%s: %s", what, store_error(j->srv.st));
		return job_refuse(j, NULL, "%s: one of the server's files is full; try again later or ask the "
		    "server's admin", what);
	}
	j->sys_errno = store_errno(j->srv.st);
	j->store_failed = ss;
	job_detail(j, store_status_temporary(ss) ? "tempfail" : "error", "%s: %s", what, store_error(j->srv.st));
	msg_warn("%s: %s", what, store_error(j->srv.st));
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

enum process_status job_outbox_failure(struct job *j, enum outbox_status os, const char *what)
{
	const char *why = j->srv.ob != NULL ? outbox_error(j->srv.ob) : outbox_status_str(os);

	j->sys_errno = j->srv.ob != NULL ? outbox_errno(j->srv.ob) : 0;
	j->store_failed = outbox_store_status(os);
	j->outbox_failed = true;
	job_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "%s: %s", what, why);
	msg_warn("%s: %s", what, why);
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

/* A password hash that could not be computed: neither right nor wrong, so nothing is decided (75). */
enum process_status job_hash_failure(struct job *j, const char *userid)
{
	job_detail(j, "tempfail", "cannot check the password of %s: its hash could not be computed "
	    "(out of memory?)", userid);
	msg_warn("cannot check the password of %s: its hash could not be computed", userid);
	return PROCESS_TEMPFAIL;
}

enum process_status job_reply_failure(struct job *j, enum mail_status rs)
{
	job_detail(j, rs == MAIL_NOMEM ? "tempfail" : "error", "cannot make the reply: %s", j->srv.rc.err);
	msg_warn("cannot make the reply: %s", j->srv.rc.err);
	switch (rs) {
	case MAIL_NOMEM:
		return PROCESS_TEMPFAIL;
	case MAIL_TEMPLATE:
		return PROCESS_CONFIG;
	default:
		return PROCESS_SOFTWARE;
	}
}

enum process_status job_no_memory(struct job *j)
{
	job_detail(j, "tempfail", "out of memory");
	return PROCESS_TEMPFAIL;
}

enum process_status job_need_outbox(struct job *j)
{
	char err[OUTBOX_ERR_MAX];
	enum outbox_status os;

	if (j->srv.ob != NULL)
		return PROCESS_OK;
	os = outbox_open(j->srv.st, &j->srv.ob, err, sizeof err);
	if (os != OUTBOX_OK) {
		j->sys_errno = store_errno(j->srv.st);	/* outbox_open fails on the store's calls */
		j->store_failed = outbox_store_status(os);
		j->outbox_failed = true;
		job_detail(j, outbox_status_temporary(os) ? "tempfail" : "error", "cannot open the outbox: %s", err);
		msg_warn("cannot open the outbox: %s", err);
		return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

/* Queue one reply that changes nothing (board 0). */
enum process_status job_reply(struct job *j, const struct reply_mail *m)
{
	char who[IDENT_USERID_MAX + 1];
	char why[JOB_MESSAGE_MAX];
	enum pwcheck_verdict v;
	enum process_status ps;
	enum outbox_status os;

	/*
	 * A board command's password check may still run beside it (pwcheck.h):
	 * its verdict comes first, so a reply that changes nothing (a queue
	 * listed) never goes to the wrong password.
	 */
	v = job_password_settled(j, who, why);
	if (v == PWCHECK_FAILED)
		return job_hash_failure(j, who);
	if (v == PWCHECK_WRONG)
		return job_refuse(j, NULL, "%s", why);
	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_enqueue(j->srv.ob, j->srv.cfg.from_address, m->rcpt, m->msg, m->len);
	if (os != OUTBOX_OK)
		return job_outbox_failure(j, os, "cannot queue the reply");
	j->queued = true;
	return PROCESS_OK;
}

enum process_status job_send(struct job *j, enum mail_status rs, struct reply_mail *m)
{
	enum process_status ps;

	ps = rs == MAIL_OK ? job_reply(j, m) : job_reply_failure(j, rs);
	reply_mail_release(m);
	return ps;
}

/* ---- refusals: an error reply to the sender ---- */

const char *job_sender_name(struct job *j, const char *userid)
{
	store_user_display_name(j->srv.st, j->in.from_addr, userid != NULL && userid[0] != '\0' ? userid : NULL,
	    j->to_name);
	return j->to_name;
}

/*
 * Refuse the command with message (plain words, quoting the culprit); g,
 * when not NULL, is the board it was about, shown in the reply; else the
 * board j->board is shown if it exists and can be read.
 */
static enum process_status refuse(struct job *j, const struct game *g, const struct reply_stop *stop,
    const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/*
 * The command to send of a refusal ("...; missing: your password. Send:
 * move 101#2 bob <password> D3"), made by the parser from a #turn that
 * the board g has passed since: the turn now in its place, and the reason
 * told ("(board 101 is at turn 7 now)"), so the command sent is one that
 * works.  Left as it is when it does not fit.
 */
static void fresh_send(char *msg, size_t size, const struct game *g)
{
	char out[JOB_MESSAGE_MAX];
	const char *send = strstr(msg, " Send: "), *kw, *hash, *end;
	long board = 0;
	int turn = 0, n;

	if (send == NULL || send == msg || (send[-1] != '.' && send[-1] != '?') || game_over(g))
		return;
	kw = send + 7;
	hash = strchr(kw, ' ');
	if (hash == NULL || sscanf(hash + 1, "%ld#%d%n", &board, &turn, &n) != 2 || board != g->board ||
	    turn == g->rg.turn || (hash[1 + n] != ' ' && hash[1 + n] != '\0'))
		return;
	end = hash + 1 + n;
	n = snprintf(out, sizeof out, "%.*s (board %ld is at turn %d now)%.*s%ld#%d%s", (int)(send - 1 - msg), msg,
	    g->board, g->rg.turn, (int)(hash + 1 - (send - 1)), send - 1, g->board, g->rg.turn, end);
	if (n > 0 && (size_t)n < size && (size_t)n < sizeof out)
		memcpy(msg, out, (size_t)n + 1);
}

/*
 * A mail answering the board mail of an earlier turn of g (its Message-ID:
 * mailfind.h): the refusal says so first, then shows the board, and only
 * then the command to send, so a copied command is not sent blind.
 */
static void old_mail_note(struct job *j, const struct game *g)
{
	const struct mailfind_answered *a = &j->found.answered;

	j->srv.rc.note[0] = '\0';
	if (g == NULL || a->kind != MAILFIND_BOARD || a->board != g->board || a->turns + 1 >= g->rg.turn)
		return;
	snprintf(j->srv.rc.note, sizeof j->srv.rc.note, "You answered the mail of turn %d; board %ld is now at turn %d: "
	    "look at the board below before you send.", a->turns + 1, g->board, g->rg.turn);
}

/* With the note, the board stands above the error in the text part: "the board below" loses its "below". */
static void board_above(char *msg)
{
	char *p = strstr(msg, "the board below");

	if (p != NULL)
		memmove(p + 9, p + 15, strlen(p + 15) + 1);
}

enum process_status job_refuse(struct job *j, const struct game *g, const char *fmt, ...)
{
	enum process_status ps;
	va_list ap;

	va_start(ap, fmt);
	ps = refuse(j, g, NULL, fmt, ap);
	va_end(ap);
	return ps;
}

enum process_status job_refuse_at(struct job *j, const struct game *g, const struct reply_stop *stop,
    const char *fmt, ...)
{
	enum process_status ps;
	va_list ap;

	va_start(ap, fmt);
	ps = refuse(j, g, stop, fmt, ap);
	va_end(ap);
	return ps;
}

static enum process_status refuse(struct job *j, const struct game *g, const struct reply_stop *stop,
    const char *fmt, va_list ap)
{
	char msg[JOB_MESSAGE_MAX];
	struct reply_mail m;
	struct reply_refused refused;
	enum mail_status rs;
	enum process_status ps;

	struct game peek;
	bool peeked = false;
	char *text = NULL;
	size_t len;

	char who[IDENT_USERID_MAX + 1];
	char why[JOB_MESSAGE_MAX];
	enum pwcheck_verdict v;

	vsnprintf(msg, sizeof msg, fmt, ap);
	/* a line quoted back may hold a reply token: masked (TOKEN_MASK is shorter than a token) */
	text = token_mask(msg);
	if (text != NULL)
		snprintf(msg, sizeof msg, "%s", text);
	free(text);
	text = NULL;
	v = job_password_settled(j, who, why);
	if (v == PWCHECK_FAILED)
		return job_hash_failure(j, who);
	if (v == PWCHECK_WRONG) {
		/* a wrong password is the answer, whatever else is wrong with the command */
		snprintf(msg, sizeof msg, "%s", why);
		g = NULL;
		stop = NULL;
	}
	if (g == NULL && j->board > 0 && store_board_read(j->srv.st, j->board, &text, &len) == STORE_OK) {
		/* show the board the command was about, if it can be read */
		peeked = gamefile_parse(text, len, &peek, NULL) == GAME_OK;
		if (peeked && peek.board != j->board) {
			game_release(&peek);	/* another board's header: not shown as this one */
			peeked = false;
		}
		if (peeked)
			g = &peek;
	}
	free(text);
	if (g != NULL && g->board == j->board)
		fresh_send(msg, sizeof msg, g);
	if (j->token_now[0] != '\0' && g != NULL && g->board == j->board && !game_over(g) && !game_is_open(g)) {
		/* a token reply refused: the answer carries the token again, for the turn now (replytoken.h) */
		j->srv.rc.error_token = j->token_now;
		j->srv.rc.error_player = j->user.userid;
		j->srv.rc.error_suggest = j->suggest;
	}
	old_mail_note(j, g);
	if (j->srv.rc.note[0] != '\0')
		board_above(msg);
	refused = (struct reply_refused){ j->board, g, stop, j->masked != NULL ? j->masked : j->unread != NULL ?
	    j->unread : "", msg };
	rs = reply_error(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, j->cmd.userid) },
	    &refused, &m);
	j->srv.rc.note[0] = '\0';
	j->srv.rc.error_token = NULL;
	j->srv.rc.error_suggest = NULL;
	if (peeked)
		game_release(&peek);
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "refused", "%s", msg);
	return ps;
}

/* ---- boards and users, read ---- */

/* "is a FIFO, not a regular file": store_error() after STORE_NOT_REGULAR, without the home's path. */
static const char *not_regular_why(const struct job *j)
{
	const char *is = strstr(store_error(j->srv.st), " is ");

	return is != NULL ? is + 1 : "is not a regular file";
}

/*
 * A game file that cannot be used: the player is told it needs the admin
 * (why is what follows "games/<board>.game"), the log and stderr say why.
 */
static enum process_status unusable_board(struct job *j, long board, const char *why)
{
	enum process_status ps;

	msg_warn("games/%ld.game %s", board, why);
	ps = job_refuse(j, NULL, "board %ld cannot be read (games/%ld.game %s): the server's admin must repair it",
	    board, board, why);
	if (ps == PROCESS_OK)
		j->outcome = "error";
	return ps;
}

/*
 * "board 104 does not exist", and the boards of the player: the user id
 * the command names, else the sender's one account.  The numbers come from
 * the players' index (players.h): cheap, and public (games lists them).
 */
#define NO_BOARD_LIST_MAX 20	/* board numbers listed; more are counted */

static enum process_status no_such_board(struct job *j, long board)
{
	char ids[2][IDENT_USERID_MAX + 1], list[JOB_MESSAGE_MAX / 2];
	const char *who = j->cmd.userid;
	long *boards = NULL;
	size_t n = 0, nids = 0, i, used = 0;
	enum process_status ps;

	if (who[0] == '\0' && store_user_ids_of(j->srv.st, j->in.from_addr, ids, 2, &nids) == STORE_OK && nids == 1)
		who = ids[0];
	if (who[0] == '\0' || players_boards(j->srv.st, j->srv.cfg.lock_timeout_ms, who, &boards, &n) != STORE_OK)
		return job_refuse(j, NULL, "board %ld does not exist", board);
	list[0] = '\0';
	for (i = 0; i < n && i < NO_BOARD_LIST_MAX; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%ld", i > 0 ? ", " : "", boards[i]);
	if (n > NO_BOARD_LIST_MAX)
		snprintf(list + used, sizeof list - used, " and %zu more", n - NO_BOARD_LIST_MAX);
	free(boards);
	if (n == 0)
		ps = job_refuse(j, NULL, "board %ld does not exist, and %s plays on no board", board, who);
	else
		ps = job_refuse(j, NULL, "board %ld does not exist; the boards of %s are %s", board, who, list);
	return ps;
}

/* Read board into g (not j->game's flag); *found false after a refusal was sent. */
static enum process_status read_board(struct job *j, long board, struct game *g, bool *found)
{
	struct gamefile_error gerr;
	enum store_status ss;
	char *text = NULL;
	size_t len;

	*found = false;
	ss = store_board_read(j->srv.st, board, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return no_such_board(j, board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the board");
	if (gamefile_parse(text, len, g, &gerr) != GAME_OK) {
		free(text);
		return unusable_board(j, board, gerr.msg);
	}
	free(text);
	/* another board's file under this name is never written back (gamefile.h) */
	if (!gamefile_named_for(g, board, &gerr)) {
		game_release(g);
		return unusable_board(j, board, gerr.msg);
	}
	*found = true;
	return PROCESS_OK;
}

/*
 * Load board g for reading only, without its lock (game files are replaced
 * whole, never rewritten in place); *found false after a refusal was sent.
 */
enum process_status job_load_readonly(struct job *j, long board, bool *found)
{
	enum process_status ps;

	ps = read_board(j, board, &j->game, found);
	if (ps == PROCESS_OK && *found)
		j->game_loaded = true;
	return ps;
}

/* Settle the outbox leftovers of a crashed run for board, its lock held (outbox.h). */
static enum process_status recover_board(struct job *j, long board)
{
	enum outbox_status os;
	enum process_status ps;

	ps = job_need_outbox(j);
	if (ps != PROCESS_OK)
		return ps;
	os = outbox_recover(j->srv.ob, board, NULL);
	if (os != OUTBOX_OK)
		return job_outbox_failure(j, os, "cannot recover the outbox");
	return PROCESS_OK;
}

/* Lock board into lock, its leftovers settled; *found false after a refusal was sent. */
static enum process_status lock_board(struct job *j, long board, struct store_lock *lock, bool *found)
{
	enum store_status ss;
	enum process_status ps;

	*found = false;
	ss = store_board_exists(j->srv.st, board);
	if (ss == STORE_NOT_FOUND)
		return no_such_board(j, board);
	if (ss == STORE_NOT_REGULAR)
		return unusable_board(j, board, not_regular_why(j));
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the board");
	ss = store_lock_board(j->srv.st, board, lock);
	if (ss == STORE_TIMEOUT) {
		char who[IDENT_USERID_MAX + 1];
		char why[JOB_MESSAGE_MAX];
		enum pwcheck_verdict v = job_password_settled(j, who, why);

		if (v == PWCHECK_FAILED)
			return job_hash_failure(j, who);
		if (v == PWCHECK_WRONG)
			return job_refuse(j, NULL, "%s", why);
		job_detail(j, "tempfail", "board %ld is locked by another process: try again later", board);
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the board");
	/* settle what a crashed run left for this board before reading it */
	ps = recover_board(j, board);
	if (ps == PROCESS_OK)
		*found = true;
	return ps;
}

/* Load board into j->game with its lock held; *found false after a refusal was sent. */
enum process_status job_load_locked(struct job *j, long board, bool *found)
{
	enum process_status ps;

	ps = lock_board(j, board, &j->board_lock, found);
	if (ps != PROCESS_OK || !*found)
		return ps;
	return job_load_readonly(j, board, found);
}

enum process_status job_load_board(struct job *j, long board, struct store_lock *lock, struct game *g, bool *found)
{
	enum process_status ps;

	ps = lock_board(j, board, lock, found);
	if (ps != PROCESS_OK || !*found)
		return ps;
	return read_board(j, board, g, found);
}

enum process_status job_lock_new_board(struct job *j, long board)
{
	enum store_status ss;
	enum process_status ps;
	bool dup;

	ss = store_lock_board(j->srv.st, board, &j->board_lock);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot lock the new board");
	ps = recover_board(j, board);
	if (ps != PROCESS_OK)
		return ps;
	/* a copy of this mail being handled at the same time makes no second board */
	ps = job_need_seen_lock(j);
	if (ps != PROCESS_OK)
		return ps;
	return job_check_duplicate(j, &dup);
}

enum process_status job_lock_path(struct job *j, const char *path, const char *what, struct store_lock *lock)
{
	enum store_status ss;
	char msg[100];

	ss = store_lock_path(j->srv.st, path, j->srv.cfg.lock_timeout_ms, lock);
	if (ss == STORE_TIMEOUT) {
		job_detail(j, "tempfail", "the %s are locked by another process: try again later", what);
		return PROCESS_TEMPFAIL;
	}
	if (ss != STORE_OK) {
		snprintf(msg, sizeof msg, "cannot lock the %s", what);
		return job_store_failure(j, ss, msg);
	}
	return PROCESS_OK;
}

enum process_status job_find_user(struct job *j, const char *userid, struct store_user *user, bool *found)
{
	enum store_status ss;

	memset(user, 0, sizeof *user);
	*found = false;
	if (game_user_is_robot(userid)) {
		snprintf(user->userid, sizeof user->userid, "%s", GAME_ROBOT_USERID);	/* built in: no account line */
		*found = true;
		return PROCESS_OK;
	}
	ss = store_user_find(j->srv.st, userid, user);
	if (ss == STORE_NOT_FOUND)
		return job_refuse(j, NULL, "there is no user %s", userid);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot read the users file");
	*found = true;
	return PROCESS_OK;
}

enum process_status job_boards_of(struct job *j, const char *userid, struct game **games, size_t *n)
{
	struct game *ng;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, alloc = 0, i, len;
	char *text;

	*games = NULL;
	*n = 0;
	/* the player's boards from the index (players.h), not every board's header */
	ss = players_boards(j->srv.st, j->srv.cfg.lock_timeout_ms, userid, &boards, &nboards);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nboards; i++) {
		struct game g;

		if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && g.board == boards[i] &&
		    (strcmp(g.black, userid) == 0 || strcmp(g.white, userid) == 0)) {
			if (*n == alloc) {
				alloc = alloc != 0 ? alloc * 2 : 16;
				ng = realloc(*games, alloc * sizeof **games);
				if (ng == NULL) {
					free(text);
					free(boards);
					free(*games);
					*games = NULL;
					*n = 0;
					return job_no_memory(j);
				}
				*games = ng;
			}
			(*games)[(*n)++] = g;
		}
		free(text);
	}
	free(boards);
	return PROCESS_OK;
}

void job_unlock(struct job *j)
{
	store_unlock(&j->seen_lock);
	store_unlock(&j->board_lock);
	store_unlock(&j->accounts_lock);
	game_release(&j->game);	/* also after a failed load: harmless on a zeroed game */
	j->game_loaded = false;
}
