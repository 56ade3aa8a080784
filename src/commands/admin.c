/* admin: the command-line commands of an admin.  See admin.h. */
#include "commands/admin.h"

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "base/ident.h"
#include "base/mailaddr.h"
#include "commands/cleanup.h"
#include "commands/edit.h"
#include "commands/fsck.h"
#include "commands/robot.h"
#include "commands/web.h"
#include "game/board.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "mail/reply.h"
#include "outbox/transport.h"
#include "store/store.h"
#include "store/throttle.h"

#define PASSWORD_LEN 12		/* characters of a generated password: about 69 bits */
#define LINE_MAX_IN (STORE_PASSWORD_MAX + 3)	/* a password line read from stdin, CR LF included */
#define NAME_MAX_IN (STORE_FULLNAME_MAX + 1)

const char admin_usage[] =
    "       oustpbm [-d DIR] cleanup                  robot turns, reminders, losses on time, outbox flush (cron)\n"
    "       oustpbm [-d DIR] robot [BOARD...]         play the robot player's turns left over, flush\n"
    "       oustpbm [-d DIR] adduser [--stdin] USERID ADDRESS [NAME...]\n"
    "                                                 add an account; prints its password\n"
    "       oustpbm [-d DIR] passwd [--stdin] USERID  set a new password; prints it\n"
    "       oustpbm [-d DIR] list [active|finished]   the boards\n"
    "       oustpbm [-d DIR] show BOARD[#TURN]        a board as the players see it\n"
    "       oustpbm [-d DIR] fsck [BOARD...]          check the game files\n"
    "       oustpbm [-d DIR] web [SITE]               write the web site (default: web_dir)\n"
    "       oustpbm [-d DIR] edit BOARD               change a game file with $EDITOR, safely\n"
    "       oustpbm init DIR                          make a new home\n"
    "       oustpbm [-d DIR] --force-owner COMMAND    run on a home owned by another user\n";

static const char *const commands[] = { "cleanup", "adduser", "passwd", "list", "show", "fsck", "robot", "web",
	"init", "edit" };
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* One run of a command. */
struct admin {
	const char *home;
	const char *cmd;
	char **args;		/* after the command word */
	int nargs;
	struct config cfg;
	struct store *st;	/* owned */
	time_t now;
	char stamp[GAMEFILE_TIME_SIZE];
};

const char *admin_status_str(enum admin_status s)
{
	switch (s) {
	case ADMIN_OK: return "ok";
	case ADMIN_USAGE: return "usage";
	case ADMIN_DATAERR: return "bad data";
	case ADMIN_NOINPUT: return "no such board";
	case ADMIN_NOUSER: return "no such user";
	case ADMIN_EXISTS: return "already exists";
	case ADMIN_TEMPFAIL: return "temporary failure";
	case ADMIN_IOERR: return "output error";
	case ADMIN_CONFIG: return "configuration error";
	case ADMIN_SOFTWARE: return "internal error";
	case ADMIN_NOPERM: return "home owned by another user";
	case ADMIN_CANTCREAT: return "cannot create";
	}
	return "unknown";
}

/* The index of the command word in argv ([-d DIR] WORD), or 0 if there is none. */
static int command_index(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "-d") == 0)
		return argc >= 4 ? 3 : 0;
	if (argc >= 2 && strncmp(argv[1], "-d", 2) == 0 && argv[1][2] != '\0')
		return argc >= 3 ? 2 : 0;
	return argc >= 2 ? 1 : 0;
}

bool admin_is_command(int argc, char **argv)
{
	int i = command_index(argc, argv);
	size_t k;

	if (i == 0)
		return false;
	for (k = 0; k < NCOMMANDS; k++)
		if (strcmp(argv[i], commands[k]) == 0)
			return true;
	return false;
}

static enum admin_status usage(void)
{
	fprintf(stderr, "usage:\n%s", admin_usage);
	return ADMIN_USAGE;
}

static enum admin_status of_store(enum store_status ss)
{
	switch (ss) {
	case STORE_OK:
		return ADMIN_OK;
	case STORE_NOT_FOUND:
		return ADMIN_NOUSER;
	case STORE_USER_EXISTS:
		return ADMIN_EXISTS;
	case STORE_BAD_ID:
	case STORE_BAD_ADDRESS:
	case STORE_BAD_PASSWORD:
	case STORE_BAD_NAME:
	case STORE_CORRUPT:
	case STORE_TOO_BIG:
		return ADMIN_DATAERR;
	default:
		return store_status_temporary(ss) ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	}
}

/* Standard output written and flushed: ADMIN_OK, else ADMIN_IOERR. */
static enum admin_status output_done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "oustpbm: cannot write the output\n");
		return ADMIN_IOERR;
	}
	return ADMIN_OK;
}

/* ---- passwords ---- */

/* A random password of PASSWORD_LEN letters and digits (no 0 O 1 l I, which are easily mixed up). */
static bool generate_password(char out[PASSWORD_LEN + 1])
{
	static const char alphabet[] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	const size_t n = sizeof alphabet - 1;	/* 57 */
	unsigned char b;
	int i = 0;

	while (i < PASSWORD_LEN) {
		if (getrandom(&b, 1, 0) != 1)
			return false;
		if (b >= 256 - 256 % n)
			continue;	/* no modulo bias */
		out[i++] = alphabet[b % n];
	}
	out[i] = '\0';
	return true;
}

/* The first line of standard input, without its line end, into pw. */
static enum admin_status read_password(char pw[LINE_MAX_IN])
{
	size_t n;

	if (fgets(pw, LINE_MAX_IN, stdin) == NULL) {
		fprintf(stderr, "oustpbm: --stdin: no password on standard input\n");
		return ADMIN_DATAERR;
	}
	n = strlen(pw);
	if (n > 0 && pw[n - 1] != '\n' && !feof(stdin)) {
		fprintf(stderr, "oustpbm: a password is 1 to %d printable ASCII characters without spaces\n",
		    STORE_PASSWORD_MAX);
		return ADMIN_DATAERR;
	}
	while (n > 0 && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
		pw[--n] = '\0';
	if (!store_password_ok(pw)) {
		fprintf(stderr, "oustpbm: a password is 1 to %d printable ASCII characters without spaces\n",
		    STORE_PASSWORD_MAX);
		return ADMIN_DATAERR;
	}
	return ADMIN_OK;
}

/* The password for adduser/passwd: from stdin with --stdin, else generated (*shown true). */
static enum admin_status get_password(bool from_stdin, char pw[LINE_MAX_IN], bool *shown)
{
	*shown = !from_stdin;
	if (from_stdin)
		return read_password(pw);
	if (!generate_password(pw)) {
		fprintf(stderr, "oustpbm: no random numbers for a password\n");
		return ADMIN_SOFTWARE;
	}
	return ADMIN_OK;
}

/* ---- the commands ---- */

static enum admin_status do_adduser(struct admin *a)
{
	char pw[LINE_MAX_IN], name[NAME_MAX_IN * 2];
	bool from_stdin = false, shown;
	enum admin_status as;
	enum store_status ss;
	const char *why;
	char **args = a->args;
	int n = a->nargs, i;
	size_t len = 0;

	if (n > 0 && strcmp(args[0], "--stdin") == 0)
		from_stdin = true, args++, n--;
	if (n < 2)
		return usage();
	if (!ident_userid_ok(args[0])) {
		store_complain(a->st, "'%s' is not a user id (1 to %d of a-z 0-9 _ -, starting with a letter "
		    "or digit)", args[0], IDENT_USERID_MAX);
		return ADMIN_DATAERR;
	}
	if (robot_is(args[0])) {
		fprintf(stderr, "oustpbm: the user id %s is the built-in robot player's\n", ROBOT_USERID);
		return ADMIN_EXISTS;
	}
	if (!mailaddr_deliverable(args[1], &why)) {
		store_complain(a->st, "address '%s' %s", args[1], why);
		return ADMIN_DATAERR;
	}
	/* the full name is the other words joined by spaces */
	name[0] = '\0';
	for (i = 2; i < n; i++) {
		int w = snprintf(name + len, sizeof name - len, "%s%s", i > 2 ? " " : "", args[i]);

		if (w < 0 || (size_t)w >= sizeof name - len) {
			store_complain(a->st, "the full name is longer than %d characters", IDENT_FULLNAME_MAX);
			return ADMIN_DATAERR;
		}
		len += (size_t)w;
	}
	as = get_password(from_stdin, pw, &shown);
	if (as != ADMIN_OK)
		return as;
	ss = store_user_add(a->st, args[0], args[1], pw, name);
	if (ss != STORE_OK) {
		store_complain(a->st, "adduser %s: %s", args[0], store_error(a->st));
		return of_store(ss);
	}
	store_log(a->st, "%s admin adduser %s <%s>", a->stamp, args[0], args[1]);
	if (shown)
		printf("%s\n", pw);
	return output_done();
}

static enum admin_status do_passwd(struct admin *a)
{
	char pw[LINE_MAX_IN];
	bool from_stdin = false, shown;
	enum admin_status as;
	enum store_status ss;
	struct store_user u;
	char **args = a->args;
	int n = a->nargs;

	if (n > 0 && strcmp(args[0], "--stdin") == 0)
		from_stdin = true, args++, n--;
	if (n != 1)
		return usage();
	ss = store_user_find(a->st, args[0], &u);
	if (ss != STORE_OK) {
		if (ss == STORE_NOT_FOUND)
			store_complain(a->st, "there is no user %s", args[0]);
		else
			store_complain(a->st, "passwd %s: %s", args[0], store_error(a->st));
		return of_store(ss);
	}
	as = get_password(from_stdin, pw, &shown);
	if (as != ADMIN_OK)
		return as;
	ss = store_user_set_password(a->st, u.userid, pw, NULL);
	if (ss != STORE_OK) {
		store_complain(a->st, "passwd %s: %s", u.userid, store_error(a->st));
		return of_store(ss);
	}
	/* a new password ends a lockout for guessing (throttle.h) */
	ss = throttle_clear(a->st, &a->cfg, u.userid, a->now);
	if (ss != STORE_OK)
		fprintf(stderr, "oustpbm: passwd %s: the password is set, but a lockout could not be ended: %s\n",
		    u.userid, store_error(a->st));
	store_log(a->st, "%s admin passwd %s", a->stamp, u.userid);
	if (shown)
		printf("%s\n", pw);
	return output_done();
}

/* "2026-11-21 18:41" */
static void short_time(int64_t t, char buf[GAMEFILE_TIME_SIZE])
{
	gamefile_time_str(t, buf);
	buf[10] = ' ';
	buf[16] = '\0';
}

static void state_text(const struct game *g, char *buf, size_t size)
{
	if (!game_over(g))
		snprintf(buf, size, "%s to move", game_player_to_move(g));
	else if (g->rg.result == RULES_DRAW)
		snprintf(buf, size, "drawn (%s)", game_end_str(g->end));
	else
		snprintf(buf, size, "won by %s (%s)", g->rg.result == RULES_BLACK_WINS ? g->black : g->white,
		    game_end_str(g->end));
}

static enum admin_status do_list(struct admin *a)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum admin_status as = ADMIN_OK;
	struct game *games = NULL, *ng;
	long *boards = NULL;
	size_t nboards = 0, n = 0, i, len;
	int which = 0;		/* 0 all, 1 active, 2 finished */
	int wb = 5, ww = 5, wx = 5;
	char *text, state[120], when[GAMEFILE_TIME_SIZE], size[16];

	if (a->nargs > 1)
		return usage();
	if (a->nargs == 1) {
		if (strcmp(a->args[0], "active") == 0)
			which = 1;
		else if (strcmp(a->args[0], "finished") == 0)
			which = 2;
		else
			return usage();
	}
	ss = store_list_boards(a->st, &boards, &nboards);
	if (ss != STORE_OK) {
		store_complain(a->st, "cannot list the boards: %s", store_error(a->st));
		return of_store(ss);
	}
	for (i = 0; i < nboards; i++) {
		struct game g;

		ss = store_board_read(a->st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;	/* removed meanwhile */
		if (ss != STORE_OK) {
			store_complain(a->st, "%s", store_error(a->st));
			as = ADMIN_DATAERR;
			continue;
		}
		/* the header is all a listing needs */
		if (gamefile_parse_header(text, len, &g, &gerr) != GAMEFILE_OK) {
			store_complain(a->st, "games/%ld.game %s", boards[i], gerr.msg);
			as = ADMIN_DATAERR;
		} else if (which == 0 || (which == 1) == !game_over(&g)) {
			if (n % 64 == 0) {
				ng = realloc(games, (n + 64) * sizeof *games);
				if (ng == NULL) {
					free(text);
					store_complain(a->st, "out of memory");
					as = ADMIN_TEMPFAIL;
					goto out;
				}
				games = ng;
			}
			games[n++] = g;
		}
		free(text);
	}
	for (i = 0; i < n; i++) {
		int b = (int)strlen(games[i].black), w = (int)strlen(games[i].white);

		state_text(&games[i], state, sizeof state);
		wb = b > wb ? b : wb;
		ww = w > ww ? w : ww;
		wx = (int)strlen(state) > wx ? (int)strlen(state) : wx;
	}
	printf("%-8s  %-*s  %-*s  %-5s  %5s  %-*s  %s\n", "board", wb, "black", ww, "white", "size", "turn", wx,
	    "state", "last move (UTC)");
	for (i = 0; i < n; i++) {
		const struct game *g = &games[i];

		state_text(g, state, sizeof state);
		short_time(g->last_move, when);
		game_dimensions(g, true, size);
		printf("%-8ld  %-*s  %-*s  %-5s  %5d  %-*s  %s\n", g->board, wb, g->black, ww, g->white, size,
		    g->rg.turn, wx, state, when);
	}
	if (output_done() != ADMIN_OK)
		as = ADMIN_IOERR;
out:
	free(games);
	free(boards);
	return as;
}

/* A turn number: 1 to 7 digits, no sign or leading zero. */
static bool turn_parse(const char *s, long *out)
{
	size_t n = strlen(s);

	if (n == 0 || n > 7 || s[0] == '0' || strspn(s, "0123456789") != n)
		return false;
	*out = strtol(s, NULL, 10);
	return true;
}

static enum admin_status do_show(struct admin *a)
{
	char drawing[BOARD_TEXT_MAX], *text = NULL, *body = NULL;
	struct gamefile_error gerr;
	struct reply_ctx rc;
	struct game g;
	enum store_status ss;
	enum reply_status rs;
	enum admin_status as = ADMIN_OK;
	const char *arg, *hash;
	long board, turn = 0;
	size_t len;

	memset(&g, 0, sizeof g);
	if (a->nargs != 1)
		return usage();
	arg = a->args[0];
	hash = strchr(arg, '#');
	if (!ident_board_parse(arg, hash != NULL ? (size_t)(hash - arg) : strlen(arg), &board) ||
	    (hash != NULL && !turn_parse(hash + 1, &turn))) {
		store_complain(a->st, "'%s' is not a board (%d to %d) or BOARD#TURN", arg, IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	ss = store_board_read(a->st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		store_complain(a->st, "board %ld does not exist", board);
		return ADMIN_NOINPUT;
	}
	if (ss != STORE_OK) {
		store_complain(a->st, "%s", store_error(a->st));
		return of_store(ss);
	}
	if (gamefile_parse(text, len, &g, &gerr) != GAMEFILE_OK) {
		store_complain(a->st, "games/%ld.game %s", board, gerr.msg);
		as = ADMIN_DATAERR;
		goto out;
	}
	if (turn > g.nturns) {
		store_complain(a->st, "board %ld has no turn #%ld yet: %d played so far", board, turn, g.nturns);
		as = ADMIN_NOINPUT;
		goto out;
	}
	if (turn > 0 && board_render_turn(&g, (int)turn, drawing) != GAME_OK) {
		store_complain(a->st, "the history of board %ld cannot be replayed (oustpbm fsck %ld says why)",
		    board, board);
		as = ADMIN_DATAERR;
		goto out;
	}
	reply_init(&rc, &a->cfg, a->home, a->now, NULL, NULL, "admin");
	rs = reply_show_body(&rc, &g, (int)turn, turn > 0 ? drawing : NULL, &body);
	if (rs != REPLY_OK) {
		store_complain(a->st, "%s", rc.err);
		as = rs == REPLY_TEMPLATE ? ADMIN_CONFIG : rs == REPLY_NOMEM ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	} else {
		fputs(body, stdout);
		as = output_done();
	}
	reply_release(&rc);
out:
	free(body);
	free(text);
	game_release(&g);
	return as;
}

/* web [SITE]: every page of the web site, into SITE or web_dir. */
static enum admin_status do_web(struct admin *a)
{
	char err[WEB_ERR_MAX];
	const char *dir = a->nargs == 1 ? a->args[0] : a->cfg.web_dir;
	enum web_status ws;
	struct web *w = NULL;

	if (a->nargs > 1)
		return usage();
	if (dir[0] == '\0') {
		fprintf(stderr, "oustpbm: web: no directory given and no web_dir in %s\n", CONFIG_FILE);
		return ADMIN_USAGE;
	}
	ws = web_open(&a->cfg, a->st, dir, &w, err, sizeof err);
	if (ws == WEB_OK) {
		ws = web_build(w);
		if (ws != WEB_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		else
			printf("web: %zu pages written\n", web_pages_written(w));
		web_close(w);
	}
	if (ws != WEB_OK) {
		fprintf(stderr, "oustpbm: web: %s\n", err);
		switch (ws) {
		case WEB_TIMEOUT: return ADMIN_TEMPFAIL;
		case WEB_TEMPLATE: return ADMIN_CONFIG;
		case WEB_STORE: return ADMIN_DATAERR;
		default: return ADMIN_IOERR;
		}
	}
	store_log(a->st, "admin web %s", dir);
	return output_done();
}

static enum admin_status do_fsck(struct admin *a)
{
	enum fsck_status fs;
	unsigned problems = 0;
	long *boards = NULL;
	int i;

	if (a->nargs > 0) {
		boards = calloc((size_t)a->nargs, sizeof *boards);
		if (boards == NULL)
			return ADMIN_TEMPFAIL;
	}
	for (i = 0; i < a->nargs; i++) {
		if (!ident_board_parse(a->args[i], strlen(a->args[i]), &boards[i])) {
			store_complain(a->st, "'%s' is not a board number (%d to %d)", a->args[i], IDENT_BOARD_MIN,
			    IDENT_BOARD_MAX);
			free(boards);
			return ADMIN_USAGE;
		}
	}
	fs = fsck_run(a->st, boards, (size_t)a->nargs, stdout, &problems);
	free(boards);
	if (output_done() != ADMIN_OK)
		return ADMIN_IOERR;
	if (problems > 0)
		store_complain(a->st, "fsck: %u problem%s", problems, problems == 1 ? "" : "s");
	if (fs != FSCK_OK)
		return fs == FSCK_TEMPFAIL ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	return problems > 0 ? ADMIN_DATAERR : ADMIN_OK;
}

static enum admin_status do_edit(struct admin *a)
{
	long board;

	if (a->nargs != 1)
		return usage();
	if (!ident_board_parse(a->args[0], strlen(a->args[0]), &board)) {
		store_complain(a->st, "'%s' is not a board number (%d to %d)", a->args[0], IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	return edit_board(a->st, board, a->now, a->stamp);
}

/* oustpbm robot [BOARD...]: the robot turns left over (robot.h), then the outbox flush. */
static enum admin_status do_robot(struct admin *a)
{
	const struct transport_ops *ops = transport_find(a->cfg.transport);
	struct robot_stats stats;
	struct outbox_stats fl;
	struct outbox *ob = NULL;
	enum robot_status rs;
	enum outbox_status os;
	enum admin_status as = ADMIN_OK;
	char err[OUTBOX_ERR_MAX];
	long *boards = NULL;
	int i;

	if (a->nargs > 0) {
		boards = calloc((size_t)a->nargs, sizeof *boards);
		if (boards == NULL)
			return ADMIN_TEMPFAIL;
	}
	for (i = 0; i < a->nargs; i++) {
		if (!ident_board_parse(a->args[i], strlen(a->args[i]), &boards[i])) {
			fprintf(stderr, "oustpbm: '%s' is not a board number (%d to %d)\n", a->args[i], IDENT_BOARD_MIN,
			    IDENT_BOARD_MAX);
			free(boards);
			return ADMIN_USAGE;
		}
	}
	rs = robot_run(a->st, &a->cfg, a->home, a->now, boards, (size_t)a->nargs, &stats);
	free(boards);
	memset(&fl, 0, sizeof fl);
	os = outbox_open(a->st, &ob, err, sizeof err);
	if (os == OUTBOX_OK && ops != NULL)
		os = outbox_flush(ob, ops, &a->cfg, &fl);
	if (os != OUTBOX_OK || ops == NULL) {
		fprintf(stderr, "oustpbm: robot: cannot flush the outbox: %s\n",
		    ops == NULL ? "unknown transport" : ob != NULL ? outbox_error(ob) : err);
		as = ops == NULL ? ADMIN_CONFIG : outbox_status_temporary(os) ? ADMIN_TEMPFAIL : ADMIN_SOFTWARE;
	}
	outbox_close(ob);
	store_log(a->st, "%s robot done: %u boards, %u robot turns played, %u left for the next run; "
	    "mail: %u sent, %u deferred, %u failed", a->stamp, stats.boards, stats.played, stats.failed,
	    fl.delivered, fl.deferred, fl.failed);
	if (as != ADMIN_OK)
		return as;
	switch (rs) {
	case ROBOT_OK:
		return ADMIN_OK;
	case ROBOT_FAULT:
	case ROBOT_TEMPFAIL:
		return ADMIN_TEMPFAIL;	/* left for the next run */
	case ROBOT_CONFIG:
		return ADMIN_CONFIG;
	case ROBOT_ERROR:
		break;
	}
	return ADMIN_SOFTWARE;
}

static enum admin_status do_cleanup(struct admin *a)
{
	struct cleanup_stats stats;
	enum cleanup_status cs;

	if (a->nargs != 0)
		return usage();
	cs = cleanup_run(a->st, &a->cfg, a->home, a->now, &stats);
	store_log(a->st, "%s cleanup done: %u boards, %u robot turns, %u reminded, %u lost on time, %u failed; "
	    "mail: %u sent, %u deferred, %u failed", a->stamp, stats.boards, stats.robot, stats.reminded,
	    stats.timed_out, stats.failed, stats.flush.delivered, stats.flush.deferred, stats.flush.failed);
	switch (cs) {
	case CLEANUP_OK:
		return ADMIN_OK;
	case CLEANUP_TEMPFAIL:
		return ADMIN_TEMPFAIL;
	case CLEANUP_DATAERR:
		return ADMIN_DATAERR;
	case CLEANUP_CONFIG:
		return ADMIN_CONFIG;
	case CLEANUP_SOFTWARE:
		break;
	}
	return ADMIN_SOFTWARE;
}

/* The account's login name and this host's name, for a first from_address. */
static void guess_address(char *buf, size_t size)
{
	struct passwd *pw = getpwuid(geteuid());
	char host[256];
	int n;

	if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
		snprintf(host, sizeof host, "localhost");
	host[sizeof host - 1] = '\0';
	n = snprintf(buf, size, "%s@%s", pw != NULL && pw->pw_name != NULL ? pw->pw_name : "oust", host);
	if (n < 0 || (size_t)n >= size || !mailaddr_ok(buf, NULL))
		snprintf(buf, size, "oust@localhost");
}

/* A file that exists, for the lines init prints: the installed one, else the checkout's. */
static void find_script(const char *exe, const char *name, char *buf, size_t size)
{
	char *copy = strdup(exe), *slash;

	snprintf(buf, size, "%s/scripts/%s", OUSTPBM_DATADIR, name);
	if (access(buf, R_OK) == 0 || copy == NULL) {
		free(copy);
		return;
	}
	slash = strrchr(copy, '/');
	if (slash != NULL) {
		*slash = '\0';
		snprintf(buf, size, "%s/scripts/%s", copy, name);
		if (access(buf, R_OK) != 0)
			snprintf(buf, size, "%s/scripts/%s", OUSTPBM_DATADIR, name);
	}
	free(copy);
}

/*
 * oustpbm init [DIR]: the one command that makes a home: DIR (one level,
 * 0700) with games/ and a commented oustpbm.conf holding every key, then
 * the lines for ~/.forward, ~/.procmailrc and the crontab of that home.
 */
static enum admin_status do_init(struct admin *a)
{
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX], from[MAILADDR_MAX + 1], exe[PATH_MAX], home[PATH_MAX];
	char rc[PATH_MAX + 64], *dir, *text = NULL;
	struct store *st = NULL;
	enum store_status ss;
	size_t len = 0;
	ssize_t n;
	FILE *f;
	struct stat sb;
	enum admin_status as;

	if (a->nargs > 1)
		return usage();
	if (a->nargs == 1)
		a->home = a->args[0];
	if (a->home[0] == '\0')
		return usage();
	if (stat(a->home, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    store_open(a->home, &a->cfg, &st, err, sizeof err) == STORE_OK) {
		store_close(st);
		fprintf(stderr, "oustpbm: %s is already an oustpbm home\n", a->home);
		return ADMIN_EXISTS;
	}
	ss = store_create_home(a->home, err, sizeof err);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: %s\n", err);
		return ss == STORE_NOT_FOUND ? ADMIN_CANTCREAT : of_store(ss);
	}
	ss = store_open(a->home, &a->cfg, &st, err, sizeof err);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: %s\n", err);
		return ss == STORE_NOT_OWNER ? ADMIN_NOPERM : of_store(ss);
	}
	store_set_log_prefix(st, "init");
	guess_address(from, sizeof from);
	f = open_memstream(&text, &len);
	if (f == NULL || config_write_sample(f, from) != 0 || fclose(f) != 0) {
		store_complain(st, "out of memory");
		as = ADMIN_TEMPFAIL;
		goto out;
	}
	ss = store_write_file(st, CONFIG_FILE, text, len);
	if (ss != STORE_OK) {
		store_complain(st, "%s", store_error(st));
		as = of_store(ss);
		goto out;
	}
	store_log(st, "%s admin init %s", a->stamp, a->home);
	/* the lines below name absolute paths: cron and procmail do not start in the home */
	if (realpath(a->home, home) == NULL)
		snprintf(home, sizeof home, "%s", a->home);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		snprintf(exe, sizeof exe, "oustpbm");
	else
		exe[n] = '\0';
	dir = strdup(exe);
	if (dir == NULL) {
		as = ADMIN_TEMPFAIL;
		goto out;
	}
	if (strrchr(dir, '/') != NULL)
		*strrchr(dir, '/') = '\0';
	find_script(exe, "procmailrc", rc, sizeof rc);
	printf("oustpbm: made the home %s; check from_address in %s/%s (now %s)\n\n"
	    "# ~/.forward of the account the server runs as:\n"
	    "\"|exec /usr/bin/procmail\"\n\n"
	    "# ~/.procmailrc of that account:\n"
	    "OUSTPBM=%s\n"
	    "OUSTPBM_HOME=%s\n"
	    "INCLUDERC=%s\n\n"
	    "# its crontab (crontab -e), with MAILTO set to your own address:\n"
	    "PATH=%s:/usr/bin:/bin\n"
	    "MAILTO=postmaster@example.org\n"
	    "OUSTPBM_HOME=%s\n"
	    "*/5 * * * *\toustpbm flush\n"
	    "*/5 * * * *\toustpbm robot\n"
	    "17 * * * *\toustpbm cleanup\n",
	    home, home, CONFIG_FILE, from, exe, home, rc, dir, home);
	free(dir);
	as = output_done();
out:
	free(text);
	store_close(st);
	return as;
}

enum admin_status admin_main(int argc, char **argv)
{
	struct admin a;
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX];
	enum admin_status as;
	enum store_status ss;
	int i = command_index(argc, argv);

	memset(&a, 0, sizeof a);
	if (i == 0)
		return usage();
	a.home = config_default_home();
	if (i == 3)
		a.home = argv[2];
	else if (i == 2)
		a.home = argv[1] + 2;
	if (a.home[0] == '\0')
		return usage();
	a.cmd = argv[i];
	a.args = argv + i + 1;
	a.nargs = argc - i - 1;
	if (strcmp(a.cmd, "init") == 0) {
		config_defaults(&a.cfg);
		a.now = config_now(&a.cfg);
		gamefile_time_str((int64_t)a.now, a.stamp);
		return do_init(&a);
	}
	if (config_load(&a.cfg, a.home, err, sizeof err) != CONFIG_OK) {
		/* logged too when the home is there (opened with the defaults) */
		fprintf(stderr, "oustpbm: %s\n", err);
		config_defaults(&a.cfg);
		a.now = config_now(&a.cfg);
		gamefile_time_str((int64_t)a.now, a.stamp);
		if (store_open(a.home, &a.cfg, &a.st, err + strlen(err) + 1, sizeof err - strlen(err) - 1) == STORE_OK) {
			store_log(a.st, "%s admin %s failed: configuration error: %s", a.stamp, a.cmd, err);
			store_close(a.st);
		}
		return ADMIN_CONFIG;
	}
	a.now = config_now(&a.cfg);
	gamefile_time_str((int64_t)a.now, a.stamp);
	ss = store_open(a.home, &a.cfg, &a.st, err, sizeof err);
	if (ss != STORE_OK) {
		fprintf(stderr, "oustpbm: %s\n", err);
		if (ss == STORE_NOT_OWNER)
			return ADMIN_NOPERM;
		return store_status_temporary(ss) ? ADMIN_TEMPFAIL : ADMIN_CONFIG;
	}
	{
		char prefix[STORE_LOG_PREFIX_MAX];

		snprintf(prefix, sizeof prefix, "%s admin %s", a.stamp, a.cmd);
		store_set_log_prefix(a.st, prefix);
	}
	if (strcmp(a.cmd, "cleanup") == 0)
		as = do_cleanup(&a);
	else if (strcmp(a.cmd, "adduser") == 0)
		as = do_adduser(&a);
	else if (strcmp(a.cmd, "passwd") == 0)
		as = do_passwd(&a);
	else if (strcmp(a.cmd, "list") == 0)
		as = do_list(&a);
	else if (strcmp(a.cmd, "show") == 0)
		as = do_show(&a);
	else if (strcmp(a.cmd, "edit") == 0)
		as = do_edit(&a);
	else if (strcmp(a.cmd, "web") == 0)
		as = do_web(&a);
	else if (strcmp(a.cmd, "robot") == 0)
		as = do_robot(&a);
	else
		as = do_fsck(&a);
	store_close(a.st);
	return as;
}
