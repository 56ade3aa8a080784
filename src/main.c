/*
 * main: oustpbm's entry point, as git.c's: the global options are read
 * once, here, then the command word picks one row of commands[] below,
 * which says what the command needs before it runs and who runs it; the
 * module's status is turned into the exit status (sysexits.h) here and
 * nowhere else.  `oustpbm --help` and every usage error print from the
 * table.
 *
 *   oustpbm [GLOBAL...] [COMMAND [ARGS...]]
 *   GLOBAL: -d DIR (the home; else $OUSTPBM_HOME, else ~/oustpbm),
 *           --help, --version, --list-commands (the table's names);
 *           --force-owner, accepted and ignored: root always acts as the
 *           home's owner now (store/owner.h)
 *   no COMMAND: the mail on standard input is handled (procmail, .forward)
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "base/config.h"
#include "base/ident.h"
#include "base/msg.h"
#include "base/version.h"
#include "commands/admin/admin.h"
#include "commands/admin/admincmd.h"
#include "commands/pipeline/process.h"
#include "game/engine.h"
#include "store/owner.h"
#include "store/store.h"

/* The command line after the global options. */
struct cmdline {
	const struct command *c;	/* the row */
	const char *home;		/* -d DIR, else config_default_home() */
	char **args;			/* the words after the command word */
	int nargs;
};

enum {
	/* runs on a home: oustpbm.conf loaded and the home opened (its owner's: root becomes the owner) first */
	CMD_HOME = 1 << 0,
	/* runs on a home that it opens itself (status reports a broken one, a mail its failures) */
	CMD_DIR = 1 << 1,
	/* an old name kept for scripts: the row names the new one in its summary */
	CMD_ALIAS = 1 << 2,
	/* reads a mail the mail system hands it: any failure exits 75, the mail kept and delivered again */
	CMD_MAIL = 1 << 3,
};

struct command {
	const char *name;	/* the command word; "" for the mail, which comes without one */
	const char *synopsis;	/* the arguments, after the name */
	const char *summary;	/* for the usage text */
	unsigned flags;		/* CMD_ */
	int (*run)(const struct cmdline *cl);	/* returns the exit status */
	admin_fn *admin;	/* run_admin's handler (admin.h), else NULL */
};

static int run_mail(const struct cmdline *cl);
static int run_engine(const struct cmdline *cl);
static int run_admin(const struct cmdline *cl);

/* The table, in the order of the usage text. */
static const struct command commands[] = {
	{ "", "< message", "handle one mail (procmail, .forward)", CMD_DIR, run_mail, NULL },
	{ "engine", "[--level 1..5] [--seconds S] [--seed N] [--playouts N] [--player ai|random|greedy] [--resign]",
	  "GTP engine on standard input/output", 0, run_engine, NULL },
	{ "cleanup", "", "robot turns, reminders, losses on time, outbox flush (cron)", CMD_HOME, run_admin,
	  admin_cleanup_run },
	{ "robot", "[BOARD...]", "play the robot player's turns left over, flush", CMD_HOME, run_admin, admin_robot_run },
	{ "robot-mail", "[--queued]", "robot host: answer the board mail on stdin (--queued: the kept ones)",
	  CMD_HOME | CMD_MAIL, run_admin, admin_robot_mail_run },
	{ "flush", "[--all]", "send the queued replies that are due (--all: every one)", CMD_HOME, run_admin,
	  admin_flush_run },
	{ "outbox", "[retry [ID...|all]]", "list the queued and failed replies; retry: failed ones queued again",
	  CMD_HOME, run_admin, admin_outbox_run },
	{ "fetch", "[--idle]", "handle the mail of the mailbox imap_url as piped mail (cron, or --idle)", CMD_HOME,
	  run_admin, admin_fetch_run },
	{ "adduser", "[--stdin] USERID ADDRESS [NAME...]", "add an account; prints its password", CMD_HOME, run_admin,
	  admin_adduser_run },
	{ "passwd", "[--stdin] USERID", "set a new password; prints it", CMD_HOME, run_admin, admin_passwd_run },
	{ "deluser", "USERID", "close an account: its boards resigned, its id reserved", CMD_HOME, run_admin,
	  admin_deluser_run },
	{ "delboard", "[--dry-run] BOARD", "remove a board: its players told, its result unrated", CMD_HOME, run_admin,
	  admin_delboard_run },
	{ "list", "[active|finished]", "the boards", CMD_HOME, run_admin, admin_list_run },
	{ "show", "BOARD[#TURN]", "a board as the players see it", CMD_HOME, run_admin, admin_show_run },
	{ "fsck", "[BOARD...]", "check the game files", CMD_HOME, run_admin, admin_fsck_run },
	{ "status", "[--brief]", "the server's health; exit 0 ok, 1 warnings, 2 failing", CMD_DIR, run_admin,
	  admin_status_run },
	{ "web", "[SITE]", "write the web site (default: web_dir)", CMD_HOME, run_admin, admin_web_run },
	{ "edit", "BOARD", "change a game file with $EDITOR, safely", CMD_HOME, run_admin, admin_edit_run },
	{ "export", "BOARD", "the game record as SGF on standard output", CMD_HOME, run_admin, admin_export_run },
	{ "import", "FILE [BOARD]", "a game file made from an SGF record (- for stdin)", CMD_HOME, run_admin,
	  admin_import_run },
	{ "ratings", "[--rebuild]", "the ratings file (--rebuild: made anew from the games)", CMD_HOME, run_admin,
	  admin_ratings_run },
	{ "init", "[DIR]", "make a new home (DIR, else the home)", 0, run_admin, admin_init_run },
	{ "retire", "[--undo]", "take the server down: new mail bounces, the outbox flushed (--undo: reopen)",
	  CMD_HOME, run_admin, admin_retire_run },
	/* the outbox's verbs had names that read as the conditional turns' `queue` mail command */
	{ "queue", "", "old name of outbox", CMD_HOME | CMD_ALIAS, run_admin, admin_outbox_run },
	{ "requeue", "[ID...|all]", "old name of outbox retry", CMD_HOME | CMD_ALIAS, run_admin, admin_requeue_run },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])
#define USAGE_COLUMN 49		/* where a usage line's summary starts */
#define UNKNOWN_LIST_MAX 1000	/* bytes of the list of commands an unknown word is told */
#define PATH_BUF_OWNER 4400	/* owner_become's message: a path and a system error */

/*
 * The exit status (sysexits.h) of each status of the commands layer
 * (status.h): for an admin command, and for a mail handed to us by the
 * mail system (procmail, the MTA), which reads it as "done" (0), "bounce
 * it" (64, 65, 69) or "keep it and deliver it again" (75).  A mail is
 * never bounced for our own failure: what no answer can be made for (a
 * configuration error, an unusable home or templates, a bug) is kept by
 * the MTA and tried again once the admin, told by alert.h, has fixed it;
 * never parked unread.
 */
static const struct exit_code {
	int admin;	/* an admin command's exit status */
	int mail;	/* a mail's (oustpbm with no command; robot-mail keeps all but OK and RETIRED) */
} exit_codes[PROCESS_STATUS_COUNT] = {
	[PROCESS_OK] = { EX_OK, EX_OK },
	[PROCESS_DROPPED] = { EX_OK, EX_OK },		/* handled, even if dropped: never bounce it */
	[PROCESS_TEMPFAIL] = { EX_TEMPFAIL, EX_TEMPFAIL },	/* nothing changed: deliver it again later */
	[PROCESS_DATAERR] = { EX_DATAERR, EX_DATAERR },	/* also: fsck found problems */
	[PROCESS_USAGE] = { EX_USAGE, EX_USAGE },
	[PROCESS_CONFIG] = { EX_CONFIG, EX_TEMPFAIL },
	[PROCESS_SOFTWARE] = { EX_SOFTWARE, EX_TEMPFAIL },
	/* oustpbm retire: the MTA bounces it with our message, nothing lost unseen */
	[PROCESS_RETIRED] = { EX_UNAVAILABLE, EX_UNAVAILABLE },
	[PROCESS_NOINPUT] = { EX_NOINPUT, EX_TEMPFAIL },	/* also: outbox retry of an id not failed */
	[PROCESS_NOUSER] = { EX_NOUSER, EX_TEMPFAIL },
	[PROCESS_EXISTS] = { EX_CANTCREAT, EX_TEMPFAIL },
	[PROCESS_IOERR] = { EX_IOERR, EX_TEMPFAIL },
	[PROCESS_NOPERM] = { EX_NOPERM, EX_TEMPFAIL },
	[PROCESS_CANTCREAT] = { EX_CANTCREAT, EX_TEMPFAIL },
	[PROCESS_WARNING] = { 1, EX_TEMPFAIL },		/* status: the monitoring plugins' WARNING */
	[PROCESS_FAILING] = { 2, EX_TEMPFAIL },		/* CRITICAL */
	[PROCESS_NOHOME] = { EX_CONFIG, EX_TEMPFAIL },
	[PROCESS_NOMEM] = { EX_TEMPFAIL, EX_TEMPFAIL },
	[PROCESS_FULL] = { EX_TEMPFAIL, EX_TEMPFAIL },
	[PROCESS_FAULT] = { EX_TEMPFAIL, EX_TEMPFAIL },
};

/* The exit status of s, for a mail (mail) or an admin command. */
static int exit_code(enum process_status s, bool mail)
{
	if ((unsigned)s >= PROCESS_STATUS_COUNT)
		return mail ? EX_TEMPFAIL : EX_SOFTWARE;
	return mail ? exit_codes[s].mail : exit_codes[s].admin;
}

/* One row's usage line: "       oustpbm [-d DIR] show BOARD[#TURN]     a board ...". */
static void usage_line(FILE *f, const char *lead, const struct command *c)
{
	char line[300];
	int n;

	n = snprintf(line, sizeof line, "%soustpbm %s%s%s%s", lead, c->flags & (CMD_HOME | CMD_DIR) ? "[-d DIR] " : "",
	    c->name, c->name[0] != '\0' && c->synopsis[0] != '\0' ? " " : "", c->synopsis);
	if (n >= 0 && n < USAGE_COLUMN)
		fprintf(f, "%s%*s%s\n", line, USAGE_COLUMN - n, "", c->summary);
	else
		fprintf(f, "%s\n%*s%s\n", line, USAGE_COLUMN, "", c->summary);
}

static int usage(FILE *f)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		usage_line(f, i == 0 ? "usage: " : "       ", &commands[i]);
	fputs("       oustpbm --help | --version | --list-commands\n"
	      "  (the home is -d DIR, else $OUSTPBM_HOME, else ~/oustpbm; run as root, oustpbm acts as the home's owner)\n",
	    f);
	return f == stderr ? EX_USAGE : EX_OK;
}

/* A usage error of one command: its line of the table. */
static int usage_of(const struct command *c)
{
	usage_line(stderr, "usage: ", c);
	return EX_USAGE;
}

/* A row that an unknown word may be told of: a command word, not an old name. */
static bool listed(const struct command *c)
{
	return c->name[0] != '\0' && !(c->flags & CMD_ALIAS);
}

/*
 * "oustpbm: unknown command 'lsit' (did you mean list?); the commands are
 * ...", then the usage text.
 */
static int unknown(const char *word)
{
	const char *near = NULL;
	char list[UNKNOWN_LIST_MAX];
	size_t i, n = 0, k = 0, len = 0;
	int w;

	for (i = 0; i < NCOMMANDS; i++) {
		n += listed(&commands[i]);
		/* an old name too: a script's misspelt "requeu" */
		if (near == NULL && commands[i].name[0] != '\0' && ident_keyword_near(word, strlen(word), commands[i].name))
			near = commands[i].name;
	}
	list[0] = '\0';
	for (i = 0; i < NCOMMANDS && len < sizeof list; i++) {
		if (!listed(&commands[i]))
			continue;
		k++;
		w = snprintf(list + len, sizeof list - len, "%s%s", k == 1 ? "" : k == n ? " and " : ", ", commands[i].name);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	msg_warn("unknown command '%.40s'%s%s%s; the commands are %s", word, near != NULL ? " (did you mean " : "",
	    near != NULL ? near : "", near != NULL ? "?)" : "", list);
	return usage(stderr);
}

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int run_mail(const struct cmdline *cl)
{
	if (cl->nargs > 0)
		return usage_of(cl->c);
	return exit_code(process_main(cl->home), true);
}

static int run_engine(const struct cmdline *cl)
{
	struct engine_options o;
	char err[200];

	engine_options_init(&o);
	o.level = ENGINE_CLI_LEVEL;
	if (!engine_parse_options(cl->nargs, cl->args, &o, err, sizeof(err))) {
		msg_warn("%s", err);
		return usage_of(cl->c);
	}
	switch (engine_run_opts(stdin, stdout, &o)) {
	case GAME_OK:
		return EX_OK;
	case GAME_IO:
		return EX_IOERR;
	default:
		return EX_SOFTWARE;
	}
}

static int run_admin(const struct cmdline *cl)
{
	struct admin_call call = { .run = cl->c->admin, .open_home = (cl->c->flags & CMD_HOME) != 0,
		.name = cl->c->name, .home = cl->home, .args = cl->args, .nargs = cl->nargs };
	enum process_status as = admin_main(&call);

	if (as == PROCESS_USAGE)
		usage_of(cl->c);
	/* a mail from the mail system (robot-mail): kept and delivered again, bounced only by a retired home */
	if (as != PROCESS_OK && as != PROCESS_RETIRED && (cl->c->flags & CMD_MAIL))
		return EX_TEMPFAIL;
	return exit_code(as, false);
}

/*
 * Run as root, a command on a home becomes the home's owner before it
 * touches anything (store/owner.h), the mail's too: nothing root-owned is
 * left in a home.  init goes by the folder it is given (or the one it will
 * make it in).  False, told on stderr, if the switch fails: the command
 * does not run, a mail is kept by the MTA (75).
 */
static bool as_owner(const struct cmdline *cl)
{
	const char *path = cl->home;
	bool init = cl->c->run == run_admin && cl->c->admin == admin_init_run;
	char err[PATH_BUF_OWNER];
	bool switched;

	if (init && cl->nargs == 1)
		path = cl->args[0];
	else if (!init && !(cl->c->flags & (CMD_HOME | CMD_DIR)))
		return true;
	if (path[0] == '\0' || owner_become(path, init, err, sizeof err, &switched) == STORE_OK)
		return true;
	msg_warn("%s", err);
	return false;
}

/*
 * Standard descriptors closed by whoever started us (a careless cron job,
 * a daemon) get /dev/null: else the first file opened takes fd 2 and the
 * diagnostics land in it (a lock file, a game file).  False if that fails.
 */
static bool standard_fds(void)
{
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return false;
	}
	return true;
}

/* The global options' answers. */
enum global {
	GLOBAL_RUN,		/* run the command */
	GLOBAL_HELP,
	GLOBAL_VERSION,
	GLOBAL_LIST,
	GLOBAL_USAGE		/* a bad global option: the usage text, exit 64 */
};

/* The options before the command word, argv[1..*next); the home set. */
static enum global global_options(int argc, char **argv, const char **home, int *next)
{
	int i = 1;

	*home = config_default_home();
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-d") == 0) {
			if (i + 1 >= argc || argv[i + 1][0] == '\0')
				return GLOBAL_USAGE;
			*home = argv[++i];
		} else if (strncmp(argv[i], "-d", 2) == 0) {
			*home = argv[i] + 2;
		} else if (strcmp(argv[i], "--force-owner") == 0) {
			/* the old way for root to run on the owner's home, in scripts: root now always becomes the owner */
			continue;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			return GLOBAL_HELP;
		} else if (strcmp(argv[i], "--version") == 0) {
			return GLOBAL_VERSION;
		} else if (strcmp(argv[i], "--list-commands") == 0) {
			return GLOBAL_LIST;
		} else {
			msg_warn("unknown option '%.40s'", argv[i]);
			return GLOBAL_USAGE;
		}
	}
	*next = i;
	return GLOBAL_RUN;
}

int main(int argc, char **argv)
{
	struct cmdline cl;
	size_t i;
	int next = 1;

	if (!standard_fds())
		return EX_OSERR;
	/*
	 * Past the file size limit (ulimit -f) a write fails with EFBIG, which
	 * the store treats as a full disk (exit 75, nothing half-written),
	 * instead of SIGXFSZ killing us in the middle.
	 */
	signal(SIGXFSZ, SIG_IGN);
	switch (global_options(argc, argv, &cl.home, &next)) {
	case GLOBAL_RUN:
		break;
	case GLOBAL_HELP:
		return usage(stdout);
	case GLOBAL_VERSION:
		return printf("oustpbm %s\n", OUSTPBM_VERSION) < 0 || fflush(stdout) != 0 ? EX_IOERR : EX_OK;
	case GLOBAL_LIST:
		for (i = 0; i < NCOMMANDS; i++)
			if (commands[i].name[0] != '\0')
				printf("%s\n", commands[i].name);
		return fflush(stdout) != 0 ? EX_IOERR : EX_OK;
	case GLOBAL_USAGE:
		return usage(stderr);
	}
	cl.c = find(next < argc ? argv[next] : "");
	if (cl.c == NULL)
		return unknown(argv[next]);
	cl.args = argv + next + (next < argc);
	cl.nargs = argc - next - (next < argc);
	if (!as_owner(&cl))
		return cl.c->run == run_mail || (cl.c->flags & CMD_MAIL) ? EX_TEMPFAIL : EX_NOPERM;
	return cl.c->run(&cl);
}
