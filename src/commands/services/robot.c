/* robot: the built-in player `robot`.  See robot.h. */
#include "commands/services/robot.h"
#include "base/hash.h"
#include "base/monoclock.h"
#include "base/testhook.h"
#include "commands/pipeline/boardcommit.h"
#include "commands/pipeline/boardmail.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/services/remind.h"
#include "commands/services/runlog.h"
#include "commands/services/web.h"
#include "game/ai.h"
#include "game/gamefile.h"
#include "game/rules.h"
#include "game/solve.h"
#include "mail/command.h"
#include "store/active.h"
#include "store/ratings.h"
#include "store/seen.h"

_Static_assert(GAME_ROBOT_LEVEL_MIN == AI_MIN_LEVEL && GAME_ROBOT_LEVEL_MAX == AI_MAX_LEVEL,
    "the game file's robot levels are the AI's");
_Static_assert(COMMAND_LEVEL_MIN == AI_MIN_LEVEL && COMMAND_LEVEL_MAX == AI_MAX_LEVEL,
    "-level=N takes the AI's levels");

bool robot_to_move(const struct game *g)
{
	return !game_over(g) && game_user_is_robot(game_player_to_move(g));
}

int robot_level(const struct game *g)
{
	return g->robot_level != 0 ? g->robot_level : AI_DEFAULT_LEVEL;
}

/* ---- the think, in a child process ---- */

/* The test players and faults of OUSTPBM_TEST_ROBOT (robot.h). */
enum mode { MODE_AI = 0, MODE_FIRST, MODE_FAIL, MODE_CRASH, MODE_HANG, MODE_ILLEGAL, MODE_DIE, MODE_RESIGN };

/* What the child sends back: one write, under PIPE_BUF, so it arrives whole or not at all. */
struct answer {
	enum game_status status;
	struct ai_turn turn;
};
_Static_assert(sizeof(struct answer) <= 4096, "the answer fits one atomic pipe write");

static bool test_mode(enum mode *m, char *why, size_t whylen)
{
	static const char *const names[] = { "", "first", "fail", "crash", "hang", "illegal", "die", "resign" };
	const char *v = testhook_env("OUSTPBM_TEST_ROBOT");
	size_t i;

	*m = MODE_AI;
	if (v == NULL || v[0] == '\0')
		return true;
	for (i = 1; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(v, names[i]) == 0) {
			*m = (enum mode)i;
			return true;
		}
	snprintf(why, whylen, "OUSTPBM_TEST_ROBOT='%.40s' is not first, resign, fail, crash, hang, illegal or die", v);
	return false;
}

bool robot_test_playouts(long *playouts, char *why, size_t whylen)
{
	const char *v = testhook_env("OUSTPBM_TEST_ROBOT_PLAYOUTS");
	char *end;

	*playouts = 0;
	if (v == NULL || v[0] == '\0')
		return true;
	errno = 0;
	*playouts = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || *playouts < 1 || *playouts > 100000000) {
		snprintf(why, whylen, "OUSTPBM_TEST_ROBOT_PLAYOUTS='%.40s' is not a number from 1 to 100000000", v);
		return false;
	}
	return true;
}

/*
 * The test player `first`: the first legal placement at each step of the
 * turn; as White on turn 2 it swaps when Black's stone is in the middle
 * third of the board (where a first stone is strong).
 */
static void first_player(const struct rules_game *g, struct ai_turn *t)
{
	static struct rules_game w;	/* large: not on the stack */
	static uint16_t legal[RULES_MAX_POINTS];
	struct rules_event ev;
	int size = g->board.size, lo = size / 3, hi = size - 1 - size / 3, x, y, n, start;

	memset(t, 0, sizeof *t);
	if (rules_game_can_swap(g)) {
		for (y = lo; y <= hi; y++)
			for (x = lo; x <= hi; x++)
				if (rules_at(&g->board, rules_point(&g->board, x, y)) == RULES_BLACK) {
					t->action = AI_SWAP;
					return;
				}
	}
	w = *g;
	start = w.turn;
	while (w.result == RULES_PLAYING && w.turn == start && t->n < RULES_MAX_POINTS) {
		n = rules_game_legal(&w, legal);
		if (n == 0)
			break;
		t->points[t->n++] = legal[0];
		rules_game_play(&w, legal[0], &ev);
	}
	t->action = t->n > 0 ? AI_PLACE : AI_PASS;
}

/* The child: think, answer on fd, exit.  Never returns. */
static void child(int fd, const struct game *g, const struct ai_options *o, enum mode m)
{
	static struct answer a;	/* large: not on the stack */
	struct rlimit nocore = { 0, 0 };
	bool swap = false;
	int x, y;

	/* the think dies with the process that waits for it */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	/* and holds none of its files: the board's lock stays the parent's alone */
	if (fd != 3) {
		if (dup2(fd, 3) < 0)
			_exit(1);
		fd = 3;
	}
	close_range(4, ~0U, 0);
	setrlimit(RLIMIT_CORE, &nocore);
	memset(&a, 0, sizeof a);
	switch (m) {
	case MODE_FIRST:
		first_player(&g->rg, &a.turn);
		a.status = GAME_OK;
		break;
	case MODE_RESIGN:
		a.status = GAME_OK;
		a.turn.action = AI_RESIGN;
		break;
	case MODE_FAIL:
		a.status = GAME_INTERNAL;
		break;
	case MODE_CRASH:
		raise(SIGSEGV);
		_exit(1);
	case MODE_HANG:
	case MODE_DIE:
		for (;;)
			pause();
	case MODE_ILLEGAL:
		/* a placement on a stone, or off the board on an empty one */
		a.status = GAME_OK;
		a.turn.action = AI_PLACE;
		a.turn.n = 1;
		a.turn.points[0] = RULES_NO_POINT;
		for (y = 0; y < g->size && a.turn.points[0] == RULES_NO_POINT; y++)
			for (x = 0; x < g->size; x++)
				if (rules_at(&g->rg.board, rules_point(&g->rg.board, x, y)) != RULES_EMPTY) {
					a.turn.points[0] = rules_point(&g->rg.board, x, y);
					break;
				}
		break;
	case MODE_AI:
		/* level 5 plays perfectly where the game is solved (game/solve.h: the hex board of side 3) */
		if (o->level >= AI_MAX_LEVEL && solve_turn(&g->rg, a.turn.points, RULES_MAX_POINTS, &a.turn.n, &swap)) {
			a.status = GAME_OK;
			a.turn.action = swap ? AI_SWAP : AI_PLACE;
			break;
		}
		a.status = ai_play_turn(&g->rg, o, &a.turn);
		break;
	}
	if (write(fd, &a, sizeof a) != (ssize_t)sizeof a)
		_exit(1);
	_exit(0);
}

/*
 * Run the AI on g in a child process and wait for its answer until
 * limit_ns (CLOCK_MONOTONIC).  PROCESS_OK with *out filled, whatever the
 * AI's status (the caller checks it); PROCESS_FAULT with why if the child
 * died, hung or could not be started.
 */
static enum process_status think(const struct game *g, const struct ai_options *o, enum mode m, int64_t limit_ns,
    struct answer *out, char *why, size_t whylen)
{
	double wait_s = (double)(limit_ns - monoclock_ns()) / 1e9;
	struct pollfd pfd;
	size_t got = 0;
	ssize_t r;
	int fds[2], status, wait_ms;
	int64_t left;
	pid_t pid;
	enum process_status rs = PROCESS_FAULT;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(why, whylen, "cannot make a pipe for the AI: %s", strerror(errno));
		return PROCESS_TEMPFAIL;
	}
	fflush(NULL);	/* nothing buffered is written twice */
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot start the AI: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return PROCESS_TEMPFAIL;
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], g, o, m);
	}
	close(fds[1]);
	if (m == MODE_DIE)
		kill(getpid(), SIGKILL);	/* tests/sh/crash.sh: the process dies during the think */
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	while (got < sizeof *out) {
		left = limit_ns - monoclock_ns();
		if (left <= 0) {
			snprintf(why, whylen, "the AI did not answer within %.1f s", (double)wait_s);
			goto out;
		}
		wait_ms = left / 1000000 + 1 > 60000 ? 60000 : (int)(left / 1000000 + 1);
		r = poll(&pfd, 1, wait_ms);
		if (r < 0 && errno != EINTR) {
			snprintf(why, whylen, "cannot wait for the AI: %s", strerror(errno));
			goto out;
		}
		if (r <= 0)
			continue;
		r = read(fds[0], (char *)out + got, sizeof *out - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;	/* the child ended (its status says how) */
		got += (size_t)r;
	}
	if (got == sizeof *out) {
		rs = PROCESS_OK;
		goto out;
	}
	snprintf(why, whylen, "the AI ended without an answer");
out:
	close(fds[0]);
	if (rs != PROCESS_OK)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rs != PROCESS_OK && got < sizeof *out && WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
		snprintf(why, whylen, "the AI died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (rs != PROCESS_OK && got < sizeof *out && WIFEXITED(status) && WEXITSTATUS(status) != 0)
		snprintf(why, whylen, "the AI exited with status %d", WEXITSTATUS(status));
	return rs;
}

/* ---- the cap on thinks at once ---- */

bool robot_slot_take(struct server *srv, unsigned long wait_ms, struct store_lock *slot, char *why, size_t whylen)
{
	struct store *st = srv->st;
	const struct config *cfg = &srv->cfg;
	char name[64];
	unsigned long cap = cfg->robot_max_thinking, i;
	long cpus;
	enum store_status ss;

	if (cap == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		cap = cpus > 0 ? (unsigned long)cpus : 1;
	}
	if (cap > ROBOT_SLOTS_MAX)
		cap = ROBOT_SLOTS_MAX;
	for (i = 0; i < cap; i++) {
		snprintf(name, sizeof name, ROBOT_SLOT_FILE, i);
		ss = store_lock_path(st, name, 0, slot);
		if (ss == STORE_OK)
			return true;
		if (ss != STORE_TIMEOUT) {
			snprintf(why, whylen, "cannot count the thinks: %s", store_error(st));
			return false;
		}
	}
	if (wait_ms > 0) {
		/* every slot busy: wait on one of them, a different one for each process */
		snprintf(name, sizeof name, ROBOT_SLOT_FILE, (unsigned long)getpid() % cap);
		if (store_lock_path(st, name, wait_ms, slot) == STORE_OK)
			return true;
	}
	snprintf(why, whylen, "the robot thinks on %lu board%s already (robot_max_thinking)", cap, cap == 1 ? "" : "s");
	return false;
}

/* ---- playing a turn ---- */

static void add(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

enum process_status robot_play(struct game *g, const struct config *cfg, int64_t now, struct robot_turn *out,
    char *why, size_t whylen)
{
	static struct answer a;	/* large: not on the stack */
	struct rules_turn_report rep;
	struct ai_options o;
	enum process_status rs;
	enum game_status gs = GAME_OK;
	enum mode m;
	char name[4];
	int64_t start = monoclock_ns(), limit;
	int turn = g->rg.turn, i;

	memset(out, 0, sizeof *out);
	why[0] = '\0';
	if (!robot_to_move(g)) {
		snprintf(why, whylen, "the robot is not to move on board %ld", g->board);
		return PROCESS_SOFTWARE;
	}
	memset(&o, 0, sizeof o);
	o.level = robot_level(g);
	o.seed = hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)turn << 8 ^ (uint64_t)now);
	if (!test_mode(&m, why, whylen) || !robot_test_playouts(&o.playouts, why, whylen))
		return PROCESS_FAULT;
	/* a fixed budget (tests) is deterministic only without a deadline */
	o.deadline_ns = o.playouts > 0 ? 0 : start + (int64_t)cfg->robot_seconds * 1000000000;
	limit = start + (int64_t)cfg->robot_seconds * 1000000000 + (int64_t)ROBOT_GRACE_MS * 1000000;
	rs = think(g, &o, m, limit, &a, why, whylen);
	if (rs != PROCESS_OK)
		return rs;
	if (a.status != GAME_OK) {
		snprintf(why, whylen, "the AI failed: %s", game_status_str(a.status));
		return a.status == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_FAULT;
	}
	memset(&rep, 0, sizeof rep);
	switch (a.turn.action) {
	case AI_PLACE:
		if (a.turn.n < 1 || a.turn.n > RULES_MAX_POINTS) {
			snprintf(why, whylen, "the AI gave a turn of %d placements", a.turn.n);
			return PROCESS_FAULT;
		}
		gs = game_move(g, GAME_ROBOT_USERID, a.turn.points, a.turn.n, now, &rep);
		if (gs == GAME_ILLEGAL_TURN) {
			i = rep.index >= 0 && rep.index < a.turn.n ? rep.index : 0;
			snprintf(why, whylen, "the AI gave an illegal turn: placement %d (%s): %s", i + 1,
			    rules_point_name(&g->rg.board, a.turn.points[i], name),
			    rep.verdict == RULES_TURN_ILLEGAL ? rules_verdict_str(rep.check.verdict) :
			    rules_turn_verdict_str(rep.verdict));
			return PROCESS_FAULT;
		}
		out->ev.what = REPLY_MOVE;
		break;
	case AI_SWAP:
		gs = game_swap(g, GAME_ROBOT_USERID, now);
		out->ev.what = REPLY_SWAP;
		break;
	case AI_RESIGN:
		gs = game_resign(g, GAME_ROBOT_USERID, now);
		out->ev.what = REPLY_RESIGN;
		break;
	case AI_PASS:
	default:
		/* the server passes by itself for a side without placement: the robot is never asked then */
		snprintf(why, whylen, "the AI answered %s with a placement available",
		    a.turn.action == AI_PASS ? "pass" : "an unknown action");
		return PROCESS_FAULT;
	}
	if (gs != GAME_OK) {
		snprintf(why, whylen, "the AI's %s was refused: %s", a.turn.action == AI_SWAP ? "swap" : "resignation",
		    game_status_str(gs));
		return gs == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_FAULT;
	}
	g->remind = remind_at(cfg, g);	/* the next reminder counts from this turn */
	out->ev.actor = GAME_ROBOT_USERID;
	out->ev.first = turn;
	out->ev.captured = rep.captured;
	out->ev.dead_end = rep.dead_end;
	out->ev.comment = "";
	snprintf(out->detail, sizeof out->detail, "turn %d: %s ", turn, GAME_ROBOT_USERID);
	switch (a.turn.action) {
	case AI_PLACE:
		add(out->detail, sizeof out->detail, "played ");
		for (i = 0; i < a.turn.n; i++)
			add(out->detail, sizeof out->detail, "%s%s", i > 0 ? "," : "",
			    rules_point_name(&g->rg.board, a.turn.points[i], name));
		if (rep.captured > 0)
			add(out->detail, sizeof out->detail, ", capturing %d", rep.captured);
		break;
	case AI_SWAP:
		add(out->detail, sizeof out->detail, "swapped");
		break;
	default:
		add(out->detail, sizeof out->detail, "resigned");
		break;
	}
	if (cfg->test_time_set)	/* reproducible logs for the tests: no wall time */
		add(out->detail, sizeof out->detail, " (level %d)", o.level);
	else
		add(out->detail, sizeof out->detail, " (level %d, %.2f s)", o.level,
		    (double)(monoclock_ns() - start) / 1e9);
	if (game_over(g))
		add(out->detail, sizeof out->detail, "; the game is over: %s",
		    g->rg.result == RULES_DRAW ? "drawn" : g->rg.result == RULES_BLACK_WINS ? "black won" : "white won");
	return PROCESS_OK;
}

enum process_status robot_play_turns(struct game *g, const struct config *cfg, int64_t now,
    struct robot_turn out[ROBOT_TURNS_MAX], int *n, char *why, size_t whylen)
{
	enum process_status rs = PROCESS_OK;

	for (*n = 0; *n < ROBOT_TURNS_MAX && robot_to_move(g); (*n)++) {
		rs = robot_play(g, cfg, now, &out[*n], why, whylen);
		if (rs != PROCESS_OK)
			break;
		if (*n > 0)
			out[*n - 1].ev.then = &out[*n].ev;
	}
	return rs;
}

/* ---- committing a turn ---- */

static enum process_status of_store(enum store_status ss)
{
	return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

static enum process_status of_outbox(enum outbox_status os)
{
	return outbox_status_temporary(os) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
}

enum process_status robot_commit(struct server *srv, const struct game *g, const struct reply_mail *mails, int n,
    char *err, size_t errlen)
{
	return boardcommit_write(srv, g, mails, n, err, errlen);	/* OK, TEMPFAIL or SOFTWARE */
}

/* ---- the run over the boards (oustpbm robot, oustpbm cleanup) ---- */

struct run {
	struct server *srv;	/* the caller's: its store, outbox (opened when first needed), replies' context */
	struct runlog log;	/* its failures, the gravest its status */
	struct robot_stats *stats;
};

/* The gravity of each status of a run: a fault is less grave than any failure of the store. */
static const int rank[PROCESS_STATUS_COUNT] = {
	[PROCESS_OK] = 0, [PROCESS_FAULT] = 1, [PROCESS_TEMPFAIL] = 2, [PROCESS_SOFTWARE] = 3, [PROCESS_CONFIG] = 4
};

/* A board the run could not do: logged, on stderr (runlog_vboard_failed), counted. */
static void board_failed(struct run *r, long board, enum process_status s, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void board_failed(struct run *r, long board, enum process_status s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	runlog_vfailed(&r->log, board, s, fmt, ap);
	va_end(ap);
}

/* Read board into g (the header only, or whole); false if gone or unreadable (counted). */
static bool load(struct run *r, long board, bool whole, struct game *g)
{
	struct gamefile_error gerr;
	enum game_status gs;
	enum store_status ss;

	ss = boardcommit_read(r->srv->st, board, whole, g, &gs, &gerr);
	if (ss == STORE_NOT_FOUND)
		return false;
	if (ss != STORE_OK) {
		board_failed(r, board, of_store(ss), "cannot read the game file: %s", store_error(r->srv->st));
		return false;
	}
	if (gs == GAME_NO_MEMORY)
		board_failed(r, board, PROCESS_TEMPFAIL, "out of memory");
	/* a file that does not parse, or is another board's, is for fsck and cleanup to report */
	return gs == GAME_OK;
}

static void one_board(struct run *r, long board)
{
	struct store_lock lock = STORE_LOCK_INIT, slot = STORE_LOCK_INIT;
	static struct robot_turn rt[ROBOT_TURNS_MAX];
	struct reply_mail *m = NULL;
	enum process_status rs;
	enum store_status ss;
	enum outbox_status os;
	enum process_status bs;
	struct game g;
	char why[ROBOT_ERR_MAX], oerr[OUTBOX_ERR_MAX], rline[RATINGS_LINE_MAX];
	int n = 0, nt, i;

	memset(&g, 0, sizeof g);
	r->stats->boards++;
	/* a robot on another host plays by mail (robotremote.h) */
	if (r->srv->cfg.robot_address[0] != '\0' || !load(r, board, false, &g) || !robot_to_move(&g))
		goto out;
	/* a mail holding the lock plays the robot's turn itself, or the next run does */
	ss = store_trylock_board(r->srv->st, board, &lock);
	if (ss == STORE_TIMEOUT) {
		/* logged, not on stderr: cron would mail the admin about a mail being handled */
		store_log(r->srv->st, "%s robot board=%ld tempfail: the board is locked: the robot's turn is left for the "
		    "next run", r->srv->stamp, board);
		r->stats->failed++;
		runlog_worse(&r->log, PROCESS_TEMPFAIL);
		goto out;
	}
	if (ss != STORE_OK) {
		board_failed(r, board, of_store(ss), "cannot lock the board: %s", store_error(r->srv->st));
		goto out;
	}
	os = server_outbox(r->srv, oerr, sizeof oerr);
	if (os != OUTBOX_OK) {
		board_failed(r, board, of_outbox(os), "cannot open the outbox: %s", oerr);
		goto out;
	}
	/* settle what a crashed run left for this board before reading it */
	os = outbox_recover(r->srv->ob, board, NULL);
	if (os != OUTBOX_OK) {
		board_failed(r, board, of_outbox(os), "cannot recover the outbox: %s", outbox_error(r->srv->ob));
		goto out;
	}
	game_release(&g);
	memset(&g, 0, sizeof g);
	/* under the lock: a turn may have been played since the header was read */
	if (!load(r, board, true, &g) || !robot_to_move(&g))
		goto out;
	/* a think slot (robot_max_thinking), waiting for one as long as a think lasts */
	if (!robot_slot_take(r->srv, (r->srv->cfg.robot_seconds + ROBOT_GRACE_MS / 1000) * 1000, &slot, why,
	    sizeof why)) {
		store_log(r->srv->st, "%s robot board=%ld tempfail: %s: the robot's turn is left for the next run", r->srv->stamp,
		    board, why);
		r->stats->failed++;
		runlog_worse(&r->log, PROCESS_TEMPFAIL);
		goto out;
	}
	rs = robot_play_turns(&g, &r->srv->cfg, r->srv->now, rt, &nt, why, sizeof why);
	store_unlock(&slot);
	if (rs != PROCESS_OK)
		board_failed(r, board, rs, "turn %d: the robot could not play: %s; the game is left as it was",
		    g.rg.turn, why);
	if (nt == 0)
		goto out;
	ratings_mail_line(r->srv->st, &g, r->srv->now, rline, sizeof rline);
	rt[0].ev.ratings = rline;
	/* the human and the board's observers (boardmail.h) */
	bs = boardmail_make(r->srv, &g, &rt[0].ev, NULL, &m, &n);
	if (bs != PROCESS_OK && boardmail_status_store(bs)) {
		board_failed(r, board, boardmail_status_temporary(bs) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE,
		    "cannot read the users file: %s", store_error(r->srv->st));
		goto out;
	}
	if (bs != PROCESS_OK) {
		board_failed(r, board, bs == PROCESS_NOMEM ? PROCESS_TEMPFAIL : bs == PROCESS_CONFIG ? PROCESS_CONFIG :
		    PROCESS_SOFTWARE, "cannot make the mail: %s", r->srv->rc.err);
		goto out;
	}
	rs = robot_commit(r->srv, &g, m, n, why, sizeof why);
	if (rs != PROCESS_OK) {
		board_failed(r, board, rs, "%s", why);
		goto out;
	}
	for (i = 0; i < nt; i++) {
		r->stats->played++;
		store_log(r->srv->st, "%s robot board=%ld ok: %s", r->srv->stamp, board, rt[i].detail);
	}
	web_after_commit(r->srv, &g);
out:
	store_unlock(&lock);
	boardmail_free(m, n);
	game_release(&g);
}

enum process_status robot_run(struct server *srv, const long *boards, size_t nboards, struct robot_stats *stats)
{
	struct store_lock run = STORE_LOCK_INIT;
	struct robot_stats dummy;
	struct run r;
	enum store_status ss;
	long *all = NULL;
	size_t i;

	if (stats == NULL)
		stats = &dummy;
	memset(stats, 0, sizeof *stats);
	memset(&r, 0, sizeof r);
	r.srv = srv;
	r.stats = stats;
	r.log = (struct runlog){ srv->st, "robot", srv->stamp, rank, &stats->failed, PROCESS_OK };
	/* one run plays the robot's turns at a time: an overlapping one (cron) leaves them to it */
	ss = store_lock_path(srv->st, ROBOT_RUN_LOCK, 0, &run);
	if (ss == STORE_TIMEOUT) {
		store_log(srv->st, "%s robot: another oustpbm robot run plays the robot's turns: left to it", srv->stamp);
		return PROCESS_OK;
	}
	if (ss != STORE_OK) {
		msg_warn("robot: cannot lock the robot's turns: %s", store_error(srv->st));
		return of_store(ss);
	}
	server_reply_init(srv, "robot");
	if (nboards == 0) {
		ss = store_list_boards(srv->st, &all, &nboards);
		if (ss != STORE_OK) {
			msg_warn("robot: cannot list the boards: %s", store_error(srv->st));
			runlog_worse(&r.log, of_store(ss));
			nboards = 0;
		}
		boards = all;
	}
	for (i = 0; i < nboards; i++)
		one_board(&r, boards[i]);
	free(all);
	store_unlock(&run);
	return r.log.worst;
}
