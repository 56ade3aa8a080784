/*
 * admin_robot_mail: `oustpbm robot-mail`, a robot host, the robot player's side of
 * pipeline/robotremote.h.  A
 * home whose oustpbm.conf sets robot_server (the server address whose
 * board mails it answers) and from_address (the robot's address, the
 * server's robot_address) gets the robot's mail through the MTA, piped
 * into `oustpbm -d HOME robot-mail`, and answers each board mail for it
 * with the robot's turn, by mail to robot_server through its transport:
 *   Subject      "Re: " and the board mail's (its token and turn);
 *   In-Reply-To  the board mail's Message-ID;
 *   text         the turn alone: "D4, E5", "swap" or "resign yes";
 *   Auto-Submitted: auto-replied (RFC 3834), which the server exempts.
 * The position is rebuilt from the game record the board mail carries
 * (application/x-oust-game, the server's game file), never from the
 * drawing; the robot thinks as on the server (robot.h: robot_seconds,
 * the record's level, a child process).
 *
 * Never a mail loop: a mail not from robot_server, or from it without a
 * game record (an error reply, any other answer) is logged and never
 * answered; a refusal by the server (the Subject names a board, the text
 * is the server's error) is told to the admin too (pipeline/alert.h, once an hour
 * a cause).  A record whose board, turn or player to move does not match
 * its Subject, or a (board, turn) already answered (robot-answered/ in
 * the home), is logged and dropped.
 *
 * Capacity: robot_max_thinking thinks at once (services/robot.h's slots); a board
 * mail beyond the cap is kept in robot-queue/ of the home and answered by
 * `oustpbm robot-mail --queued` (cron, every minute or few), which waits
 * for a slot.  A temporary failure (the home, the think) exits 75: the
 * MTA keeps the mail and delivers it again.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "commands/pipeline/alert.h"
#include "commands/services/robot.h"
#include "commands/pipeline/robotremote.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "mail/mailin.h"
#include "mail/mailout.h"
#include "mail/mailpart.h"
#include "mail/robotmac.h"
#include "mail/token.h"
#include "outbox/outbox.h"
#include "outbox/transport.h"
#include "store/lifecycle.h"
#include "store/filecaps.h"

#define ROBOTHOST_QUEUE FILECAPS_ROBOT_QUEUE	/* board mails waiting for a think slot (capped: filecaps.h) */
#define ROBOTHOST_QUEUE_LOCK "robot-queue.lock"
#define ROBOTHOST_ANSWERED "robot-answered"	/* per board: the last turn answered */

#define ROBOTHOST_TURN_MAX 2000		/* bytes of the turn's text */
#define ROBOTHOST_SHOWN 160		/* bytes of a Subject or a line shown in the log */

/* What became of one mail. */
enum outcome {
	DONE = 0,	/* answered, or dropped for good (logged): it leaves the queue */
	BUSY,		/* every think slot taken: queued (a delivery) or left in the queue (a run) */
	RETRY		/* a temporary failure: the MTA, or the next run, tries again */
};

struct host {
	struct admin *a;
	struct outbox *ob;	/* owned, opened when first needed */
	unsigned answered, queued, dropped, failed;
};

/* s for the log: its tokens masked, cut short; the caller frees it. */
static char *shown(const char *s)
{
	char *m = token_mask(s != NULL ? s : ""), *c;

	if (m != NULL && strlen(m) > ROBOTHOST_SHOWN)
		m[ROBOTHOST_SHOWN] = '\0';
	for (c = m; c != NULL && *c != '\0'; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';
	return m;
}

static void logline(struct host *h, const char *what, const char *detail, const char *subject)
{
	char *s = shown(subject);

	store_log(h->a->srv.st, "%s robot-mail %s: %s (Subject: %s)", h->a->srv.stamp, what, detail, s != NULL ? s : "");
	free(s);
}

/* FNV-1a: which record a turn was answered for (a board mail sent twice is answered once). */
static uint64_t record_hash(const char *s, size_t len)
{
	uint64_t x = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++)
		x = (x ^ (unsigned char)s[i]) * 1099511628211ULL;
	return x;
}

static bool answered_before(struct host *h, long board, const char *mark)
{
	char path[64], *text = NULL;
	size_t len;
	bool same;

	snprintf(path, sizeof path, ROBOTHOST_ANSWERED "/%ld", board);
	if (store_read_file(h->a->srv.st, path, 200, &text, &len) != STORE_OK)
		return false;
	same = strcmp(text, mark) == 0;
	free(text);
	return same;
}

static enum store_status mark_answered(struct host *h, long board, const char *mark)
{
	char path[64];
	enum store_status ss;

	snprintf(path, sizeof path, ROBOTHOST_ANSWERED "/%ld", board);
	ss = store_mkdir(h->a->srv.st, ROBOTHOST_ANSWERED);
	if (ss == STORE_OK)
		ss = store_write_file(h->a->srv.st, path, mark, strlen(mark));
	return ss;
}

/* The turn numbered turn of g as a reply's text: "D4, E5", "swap" or "resign yes". */
static void turn_text(const struct game *g, int turn, char *out, size_t size)
{
	const struct game_turn *t = NULL;
	char name[4];
	size_t used = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < g->nturns; i++)
		if (g->turns[i].number == turn)
			t = &g->turns[i];
	if (t == NULL)
		return;
	if (t->action == GAME_SWAP) {
		snprintf(out, size, "swap");
		return;
	}
	if (t->action == GAME_RESIGN) {
		snprintf(out, size, "resign yes");
		return;
	}
	for (i = 0; i < t->npoints && used + 8 < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i > 0 ? ", " : "",
		    rules_point_name(&g->rg.board, g->points[t->first + (size_t)i], name));
}

/* A mail of the server that is no board mail: never answered; a refusal is the admin's to see. */
static enum outcome not_board_mail(struct host *h, const struct mailin_message *m)
{
	struct token_subject ts;
	char cause[600], line[ROBOTHOST_SHOWN + 1];
	char *s = shown(m->subject);
	const char *b = m->body != NULL ? m->body : "";
	size_t n;

	h->dropped++;
	logline(h, "not answered", "a mail of the server without a game record", m->subject);
	if (token_from_subject(m->subject, &ts) || strstr(m->subject, "Oust Board") != NULL) {
		/* the first line of the server's text: its reason */
		while (*b == '\n' || *b == ' ')
			b++;
		n = strcspn(b, "\n");
		snprintf(line, sizeof line, "%.*s", (int)(n < ROBOTHOST_SHOWN ? n : ROBOTHOST_SHOWN), b);
		snprintf(cause, sizeof cause, "the server %s refused or answered a reply of the robot: %s: %s",
		    h->a->srv.cfg.robot_server, s != NULL ? s : "", line);
		/* keyed on the cause, never on the Subject: forged mails make one alert an hour, not one each */
		alert_admin(&h->a->srv.cfg, h->a->srv.st, h->a->srv.home, ALERT_ROBOT_HOST, cause);
	}
	free(s);
	return DONE;
}

/*
 * Keep a board mail beyond the cap for robot-mail --queued, within the
 * queue's caps (filecaps.h: its files and their bytes, counted under its
 * lock); past them it is not kept: the MTA keeps it (exit 75).
 */
static enum outcome enqueue(struct host *h, const char *buf, size_t len, const char *subject)
{
	static unsigned counter;
	struct store_lock lock = STORE_LOCK_INIT;
	char path[100], detail[200];
	enum store_status ss;
	long long count = 0, bytes = 0;

	snprintf(path, sizeof path, ROBOTHOST_QUEUE "/%lld.%ld.%u", (long long)h->a->srv.now, (long)getpid(), counter++);
	ss = store_lock_path(h->a->srv.st, ROBOTHOST_QUEUE_LOCK, h->a->srv.cfg.lock_timeout_ms, &lock);
	if (ss == STORE_OK)
		ss = store_folder_usage(h->a->srv.st, ROBOTHOST_QUEUE, &count, &bytes);
	if (ss == STORE_OK && (count + 1 > FILECAPS_ROBOT_QUEUE_COUNT ||
	    bytes + (long long)len > FILECAPS_ROBOT_QUEUE_BYTES)) {
		store_unlock(&lock);
		h->failed++;
		snprintf(detail, sizeof detail, "%s is full (%lld mails, %lld bytes; the caps are %d and %ld): "
		    "left to the mail system, which delivers it again later", ROBOTHOST_QUEUE, count, bytes,
		    FILECAPS_ROBOT_QUEUE_COUNT, FILECAPS_ROBOT_QUEUE_BYTES);
		logline(h, "tempfail", detail, subject);
		return RETRY;
	}
	if (ss == STORE_OK)
		ss = store_mkdir(h->a->srv.st, ROBOTHOST_QUEUE);
	if (ss == STORE_OK)
		ss = store_write_file(h->a->srv.st, path, buf, len);
	store_unlock(&lock);
	if (ss != STORE_OK) {
		store_complain(h->a->srv.st, "cannot queue a board mail: %s", store_error(h->a->srv.st));
		h->failed++;
		return RETRY;
	}
	h->queued++;
	logline(h, "queued", "every think slot is busy (robot_max_thinking): left for robot-mail --queued",
	    subject);
	return BUSY;
}

/* The reply with the robot's turn, queued in the outbox. */
static enum outcome send_turn(struct host *h, const struct mailin_message *m, const char *text)
{
	const struct config *cfg = &h->a->srv.cfg;
	struct mailout_spec spec;
	char subject[MAILIN_SUBJECT_MAX + 8], err[OUTBOX_ERR_MAX], *msg = NULL;
	size_t len;
	enum outbox_status os;

	snprintf(subject, sizeof subject, "%s%s", strncasecmp(m->subject, "Re:", 3) == 0 ? "" : "Re: ", m->subject);
	memset(&spec, 0, sizeof spec);
	spec.from_addr = cfg->from_address;
	spec.from_name = cfg->server_name;
	spec.to_addr = cfg->robot_server;
	spec.subject = subject;
	spec.body = text;
	spec.date = h->a->srv.now;
	spec.in_reply_to = m->message_id;
	spec.references = m->references;
	spec.generated = false;	/* Auto-Submitted: auto-replied (RFC 3834) */
	if (mailout_compose(&spec, &msg, &len) != MAIL_OK) {
		store_complain(h->a->srv.st, "cannot compose the robot's reply");
		explicit_bzero(subject, sizeof subject);
		return RETRY;
	}
	explicit_bzero(subject, sizeof subject);
	os = h->ob != NULL ? OUTBOX_OK : outbox_open(h->a->srv.st, &h->ob, err, sizeof err);
	if (os == OUTBOX_OK)
		os = outbox_enqueue(h->ob, cfg->from_address, cfg->robot_server, msg, len);
	free(msg);
	if (os != OUTBOX_OK) {
		store_complain(h->a->srv.st, "cannot queue the robot's reply: %s", h->ob != NULL ? outbox_error(h->ob) : err);
		return RETRY;
	}
	return DONE;
}

/* Think and answer the board mail whose record is g. */
static enum outcome play(struct host *h, const struct mailin_message *m, struct game *g, const char *mark,
    unsigned long wait_ms, const char *buf, size_t len)
{
	struct store_lock slot = STORE_LOCK_INIT;
	struct robot_turn rt;
	enum process_status rs;
	enum outcome o;
	char why[ROBOT_ERR_MAX], text[ROBOTHOST_TURN_MAX], detail[ROBOT_ERR_MAX + ROBOT_DETAIL_MAX + 80];
	int turn = g->rg.turn;

	if (!robot_slot_take(&h->a->srv, wait_ms, &slot, why, sizeof why))
		return wait_ms == 0 ? enqueue(h, buf, len, m->subject) : BUSY;
	rs = robot_play(g, &h->a->srv.cfg, (int64_t)h->a->srv.now, &rt, why, sizeof why);
	store_unlock(&slot);
	if (rs != PROCESS_OK) {
		h->failed++;
		snprintf(detail, sizeof detail, "board %ld turn %d: the robot could not play: %s", g->board, turn, why);
		logline(h, "tempfail", detail, m->subject);
		msg_warn("robot-mail: %s", detail);
		return RETRY;
	}
	turn_text(g, turn, text, sizeof text);
	o = send_turn(h, m, text);
	if (o != DONE) {
		h->failed++;
		return o;
	}
	if (mark_answered(h, g->board, mark) != STORE_OK)
		msg_warn("robot-mail: cannot record board %ld as answered: %s", g->board,
		    store_error(h->a->srv.st));
	h->answered++;
	snprintf(detail, sizeof detail, "board %ld %s", g->board, rt.detail);
	logline(h, "ok", detail, m->subject);
	return DONE;
}

/*
 * The board mail's MAC (robotmac.h) under robot_secret_file: true if it
 * is the server's; else false with *o: DONE for a forged mail (logged and
 * dropped: never thought for nor queued), RETRY when the secret cannot be
 * read (the admin's to fix: the MTA keeps the mail).
 */
static bool authentic(struct host *h, const char *buf, size_t len, const struct mailin_message *m, const char *rec,
    size_t rlen, enum outcome *o)
{
	static char secret[ROBOTMAC_SECRET_MAX + 1];	/* wiped after use */
	char given[ROBOTMAC_HEX + 1], want[ROBOTMAC_HEX + 1], why[ROBOTMAC_WHY_MAX];
	bool has = robotmac_header(buf, len, given), right;

	if (!robotmac_secret(h->a->srv.home, h->a->srv.cfg.robot_secret_file, secret, why, sizeof why)) {
		store_complain(h->a->srv.st, "cannot check a board mail: %s", why);
		h->failed++;
		*o = RETRY;
		return false;
	}
	right = robotmac_make(secret, m->subject != NULL ? m->subject : "", rec, rlen, want);
	explicit_bzero(secret, sizeof secret);
	if (!right) {
		store_complain(h->a->srv.st, "cannot check a board mail: out of memory");
		h->failed++;
		*o = RETRY;
		return false;
	}
	right = has && robotmac_equal(given, want);
	explicit_bzero(want, sizeof want);
	if (right)
		return true;
	h->dropped++;
	logline(h, "dropped", has ? "a forged board mail: its " ROBOTMAC_HEADER " is not the server's MAC "
	    "(robot_secret_file)" : "a forged board mail: no " ROBOTMAC_HEADER " (the server's MAC, robot_secret_file)",
	    m->subject);
	*o = DONE;
	return false;
}

/* One mail: answered, dropped, queued or left to retry. */
static enum outcome one_mail(struct host *h, const char *buf, size_t len, unsigned long wait_ms)
{
	const struct config *cfg = &h->a->srv.cfg;
	struct mailin_message m;
	struct token_subject ts;
	struct game g;
	enum mail_status ms;
	enum mail_status ps;
	enum outcome o = DONE;
	char *rec = NULL, mark[64], detail[200];
	size_t rlen;

	memset(&g, 0, sizeof g);
	ms = mailin_parse(buf, len, &m);
	if (ms == MAIL_NOMEM) {
		o = RETRY;
		goto out;
	}
	if (ms == MAIL_UNPARSABLE || m.from_addr == NULL || m.from_addr[0] == '\0') {
		h->dropped++;
		logline(h, "ignored", "not a mail of the server (no sender)", ms == MAIL_UNPARSABLE ? "" : m.subject);
		goto out;
	}
	if (strcasecmp(m.from_addr, cfg->robot_server) != 0) {
		h->dropped++;
		snprintf(detail, sizeof detail, "a mail from %.80s, not from the server (robot_server)", m.from_addr);
		logline(h, "ignored", detail, m.subject);
		goto out;
	}
	ps = mailpart_find(buf, len, ROBOTREMOTE_TYPE, ROBOTREMOTE_SUBTYPE, cfg->max_message_bytes, &rec, &rlen);
	if (ps == MAIL_NOMEM) {
		o = RETRY;
		goto out;
	}
	if (ps != MAIL_OK) {
		o = not_board_mail(h, &m);
		goto out;
	}
	if (!authentic(h, buf, len, &m, rec, rlen, &o))
		goto out;
	if (!token_from_subject(m.subject, &ts) || ts.token[0] == '\0') {
		h->dropped++;
		logline(h, "ignored", "a game record without a reply token in the Subject", m.subject);
		goto out;
	}
	if (gamefile_parse(rec, rlen, &g, NULL) != GAME_OK || g.board != ts.board || !robot_to_move(&g) ||
	    g.rg.turn != ts.turn || g.pending[0] != '\0') {
		h->dropped++;
		logline(h, "ignored", "the game record is unreadable, or not the robot's turn its Subject names", m.subject);
		goto out;
	}
	if (g.size < ROBOT_SIZE_MIN && g.shape != RULES_HEX) {
		h->dropped++;
		logline(h, "ignored", "a board smaller than the robot plays", m.subject);
		goto out;
	}
	snprintf(mark, sizeof mark, "%d %016llx\n", g.rg.turn, (unsigned long long)record_hash(rec, rlen));
	if (answered_before(h, g.board, mark)) {
		h->dropped++;
		logline(h, "ignored", "this board mail was answered already", m.subject);
		goto out;
	}
	o = play(h, &m, &g, mark, wait_ms, buf, len);
out:
	game_release(&g);
	free(rec);
	mailin_message_release(&m);
	return o;
}

/* Each queued board mail, oldest first, a think slot waited for. */
static enum outcome run_queue(struct host *h)
{
	unsigned long wait_ms = (h->a->srv.cfg.robot_seconds + ROBOT_GRACE_MS / 1000) * 1000;
	enum outcome worst = DONE, o;
	char **names = NULL, path[300], *buf = NULL;
	size_t n = 0, i, len;
	enum store_status ss;

	ss = store_list_dir(h->a->srv.st, ROBOTHOST_QUEUE, &names, &n);
	if (ss == STORE_NOT_FOUND)
		return DONE;
	if (ss != STORE_OK) {
		store_complain(h->a->srv.st, "cannot list %s: %s", ROBOTHOST_QUEUE, store_error(h->a->srv.st));
		return RETRY;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, ROBOTHOST_QUEUE "/%s", names[i]);
		if (store_read_file(h->a->srv.st, path, h->a->srv.cfg.max_message_bytes, &buf, &len) != STORE_OK) {
			store_complain(h->a->srv.st, "cannot read %s: %s", path, store_error(h->a->srv.st));
			worst = RETRY;
			continue;
		}
		o = one_mail(h, buf, len, wait_ms);
		free(buf);
		buf = NULL;
		if (o == DONE && store_unlink(h->a->srv.st, path) != STORE_OK)
			store_complain(h->a->srv.st, "cannot remove %s: %s", path, store_error(h->a->srv.st));
		if (o > worst)
			worst = o;
	}
	store_free_names(names, n);
	return worst;
}

enum process_status admin_robot_mail_run(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->srv.cfg.transport);
	struct outbox_stats fl;
	struct host h;
	enum outcome o;
	enum mail_status rs;
	enum process_status as = PROCESS_OK;
	char *buf = NULL;
	size_t len;
	bool queued = a->nargs == 1 && strcmp(a->args[0], "--queued") == 0;
	int64_t since;

	if (a->nargs > 1 || (a->nargs == 1 && !queued))
		return admin_usage_error();
	if (a->srv.cfg.robot_server[0] == '\0') {
		store_complain(a->srv.st, "robot_server is not set in oustpbm.conf: this home is no robot host "
		    "(doc/admin.md: The robot on other hosts), so no robot mail is answered");
		return PROCESS_CONFIG;
	}
	/* a retired robot host takes no new board mail: the MTA returns it to the server (process.c's gate) */
	if (!queued && lifecycle_read(a->srv.st, LIFECYCLE_RETIRED_FILE, &since) != STORE_NOT_FOUND) {
		msg_warn("the robot host %s is retired and takes no more mail", a->srv.cfg.from_address);
		store_log(a->srv.st, "%s robot-mail bounced: the host is retired: exit 69", a->srv.stamp);
		return PROCESS_RETIRED;
	}
	memset(&h, 0, sizeof h);
	h.a = a;
	if (queued) {
		o = run_queue(&h);
	} else {
		rs = mailin_read(STDIN_FILENO, a->srv.cfg.max_message_bytes, &buf, &len);
		if (rs == MAIL_TOO_BIG) {
			store_log(a->srv.st, "%s robot-mail ignored: a mail larger than max_message_bytes", a->srv.stamp);
			o = DONE;
		} else if (rs != MAIL_OK) {
			store_complain(a->srv.st, "cannot read the mail: %s", mail_status_str(rs));
			o = RETRY;
		} else {
			o = one_mail(&h, buf, len, 0);
		}
		free(buf);
	}
	/* the replies go now; what the relay defers waits for the next run */
	if (h.ob != NULL && ops != NULL)
		(void)outbox_flush_opts(h.ob, ops, &a->srv.cfg, OUTBOX_FLUSH_MINE, &fl);
	else if (queued && ops != NULL) {
		char err[OUTBOX_ERR_MAX];

		if (outbox_open(a->srv.st, &h.ob, err, sizeof err) == OUTBOX_OK)
			(void)outbox_flush(h.ob, ops, &a->srv.cfg, &fl);
	}
	outbox_close(h.ob);
	if (queued)
		store_log(a->srv.st, "%s robot-mail --queued done: %u answered, %u dropped, %u left, %u failed", a->srv.stamp,
		    h.answered, h.dropped, h.queued, h.failed);
	if (o == RETRY)
		as = PROCESS_TEMPFAIL;
	return as;
}
