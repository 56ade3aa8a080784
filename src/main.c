/*
 * main: oustpbm's entry point.  It only picks the job from the command line,
 * runs the module that does it, and turns the module's status into the exit
 * status (sysexits.h), which is decided here and nowhere else.
 *
 *   oustpbm [-d DIR] < message     handle one mail (procmail, .forward)
 *   oustpbm engine [--level N] [--seconds S] [--seed N] [--playouts N] [--player P] [--resign]
 *                                  GTP engine on stdin/stdout
 *   oustpbm [-d DIR] cleanup|adduser|passwd|deluser|list|show|fsck ...   admin.h
 *   oustpbm [-d DIR] flush         send the queued replies that are due
 *   oustpbm [-d DIR] queue         list the queued replies
 *   oustpbm init DIR               make a new home
 *   --force-owner (before the command): run on a home another user owns
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "base/version.h"
#include "commands/pipeline/admin.h"
#include "commands/pipeline/process.h"
#include "game/engine.h"
#include "outbox/queuecmd.h"
#include "store/store.h"

/* The exit status of a handled mail, as procmail and the MTA read it. */
static int mail_exit_code(enum process_status s)
{
	switch (s) {
	case PROCESS_OK:
	case PROCESS_DROPPED:
		return EX_OK; /* handled, even if refused or dropped: never bounce it */
	case PROCESS_TEMPFAIL:
		return EX_TEMPFAIL; /* nothing changed: deliver it again later */
	case PROCESS_DATAERR:
		return EX_DATAERR;
	case PROCESS_USAGE:
		return EX_USAGE;
	case PROCESS_CONFIG:
	case PROCESS_SOFTWARE:
		/*
		 * No answer can be made (a configuration error, an unusable home or
		 * templates, a bug): the MTA keeps the mail and tries again once
		 * the admin, told by alert.h, has fixed it; never parked unread.
		 */
		return EX_TEMPFAIL;
	}
	return EX_TEMPFAIL;
}

/* The exit status of an admin command (admin.h). */
static int admin_exit_code(enum admin_status s)
{
	switch (s) {
	case ADMIN_OK: return EX_OK;
	case ADMIN_USAGE: return EX_USAGE;
	case ADMIN_DATAERR: return EX_DATAERR;	/* also: fsck found problems */
	case ADMIN_NOINPUT: return EX_NOINPUT;
	case ADMIN_NOUSER: return EX_NOUSER;
	case ADMIN_EXISTS: return EX_CANTCREAT;
	case ADMIN_TEMPFAIL: return EX_TEMPFAIL;
	case ADMIN_IOERR: return EX_IOERR;
	case ADMIN_CONFIG: return EX_CONFIG;
	case ADMIN_SOFTWARE: return EX_SOFTWARE;
	case ADMIN_NOPERM: return EX_NOPERM;
	case ADMIN_CANTCREAT: return EX_CANTCREAT;
	case ADMIN_STATUS_WARNING: return 1;	/* the monitoring plugins' WARNING */
	case ADMIN_STATUS_FAILING: return 2;	/* CRITICAL */
	}
	return EX_SOFTWARE;
}

/* The exit status of flush and queue (queuecmd.h). */
static int queuecmd_exit_code(enum queuecmd_status s)
{
	switch (s) {
	case QUEUECMD_OK:
		return EX_OK;
	case QUEUECMD_TEMPFAIL:
		return EX_TEMPFAIL;
	case QUEUECMD_USAGE:
		return EX_USAGE;
	case QUEUECMD_CONFIG:
		return EX_CONFIG;
	case QUEUECMD_IO:
		return EX_IOERR;
	case QUEUECMD_NOPERM:
		return EX_NOPERM;
	case QUEUECMD_NOINPUT:
		return EX_NOINPUT;
	}
	return EX_SOFTWARE;
}

static int usage(FILE *f)
{
	fputs("usage: oustpbm [-d DIR] < message      handle one mail\n"
	      "       oustpbm engine [--level 1..5] [--seconds S] [--seed N] [--playouts N]\n"
	      "                      [--player ai|random|greedy] [--resign]\n"
	      "                                      GTP engine on standard input/output\n"
	      "       oustpbm [-d DIR] flush [--all]  send the queued replies that are due (--all: every one)\n"
	      "       oustpbm [-d DIR] queue          list the queued replies\n"
	      "       oustpbm [-d DIR] requeue [ID...|all]  move failed replies back into the queue\n"
	      "  (the home is -d DIR, else $OUSTPBM_HOME, else ~/oustpbm)\n",
	    f);
	admin_usage_print(f);
	fputs("       oustpbm --help | --version\n", f);
	return f == stderr ? EX_USAGE : EX_OK;
}

/*
 * Take --force-owner out of the options before the command word (after
 * -d DIR, or before it), so that the modules see [-d DIR] COMMAND ARGS.
 */
static bool take_force_owner(int *argc, char **argv)
{
	bool found = false;
	int i = 1, k;

	while (i < *argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--force-owner") == 0) {
			for (k = i; k < *argc; k++)
				argv[k] = argv[k + 1];
			(*argc)--;
			found = true;
			continue;
		}
		i += strcmp(argv[i], "-d") == 0 ? 2 : 1;
	}
	return found;
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

/* The word after [-d DIR] that is no option ("lsit"), or NULL. */
static const char *command_word(int argc, char **argv)
{
	int i = 1;

	if (argc >= 2 && strcmp(argv[1], "-d") == 0)
		i = 3;
	else if (argc >= 2 && strncmp(argv[1], "-d", 2) == 0 && argv[1][2] != '\0')
		i = 2;
	return i < argc && argv[i][0] != '-' ? argv[i] : NULL;
}

int main(int argc, char **argv)
{
	const char *word;

	if (!standard_fds())
		return EX_OSERR;
	/*
	 * Past the file size limit (ulimit -f) a write fails with EFBIG, which
	 * the store treats as a full disk (exit 75, nothing half-written),
	 * instead of SIGXFSZ killing us in the middle.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/* an admin command run as root would leave root's files in the home: store_open refuses */
	if (take_force_owner(&argc, argv))
		store_set_force_owner(true);
	if (argc >= 2 && strcmp(argv[1], "engine") == 0) {
		struct engine_options o;
		char err[200];

		engine_options_init(&o);
		o.level = ENGINE_CLI_LEVEL;
		if (!engine_parse_options(argc - 2, argv + 2, &o, err, sizeof(err))) {
			fprintf(stderr, "oustpbm: %s\n", err);
			usage(stderr);
			return EX_USAGE;
		}
		switch (engine_run_opts(stdin, stdout, &o)) {
		case ENGINE_OK:
			return EX_OK;
		case ENGINE_IO:
			return EX_IOERR;
		}
		return EX_SOFTWARE;
	}
	if (queuecmd_wanted(argc, argv))
		return queuecmd_exit_code(queuecmd_main(argc, argv, stdout));
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return usage(stdout);
	if (argc == 2 && strcmp(argv[1], "--version") == 0)
		return printf("oustpbm %s\n", OUSTPBM_VERSION) < 0 || fflush(stdout) != 0 ? EX_IOERR : EX_OK;
	if (admin_is_command(argc, argv))
		return admin_exit_code(admin_main(argc, argv));
	word = command_word(argc, argv);
	if (word != NULL) {
		/* no command of that name: the list, and the nearest name (a mail comes without a word) */
		static const char *const own[] = { "engine", "flush", "queue", "requeue" };

		admin_unknown(word, own, sizeof own / sizeof own[0]);
		return usage(stderr);
	}
	return mail_exit_code(process_main(argc, argv));
}
