/* admin: the table of admin commands (admincmd.h) and the run of one.  See admin.h. */
#include "commands/pipeline/admin.h"
#include "commands/pipeline/admincmd.h"
#include "base/ident.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* The table, in the order of the usage text. */
const struct admin_command admincmd_table[] = {
	{ "cleanup", "", "robot turns, reminders, losses on time, outbox flush (cron)", ADMINCMD_HOME, admin_cleanup_run },
	{ "robot", "[BOARD...]", "play the robot player's turns left over, flush", ADMINCMD_HOME, admin_robot_run },
	{ "adduser", "[--stdin] USERID ADDRESS [NAME...]", "add an account; prints its password", ADMINCMD_HOME,
	  admin_adduser_run },
	{ "passwd", "[--stdin] USERID", "set a new password; prints it", ADMINCMD_HOME, admin_passwd_run },
	{ "deluser", "USERID", "close an account: its boards resigned, its id reserved", ADMINCMD_HOME,
	  admin_deluser_run },
	{ "delboard", "[--dry-run] BOARD", "remove a board: its players told, its result unrated", ADMINCMD_HOME,
	  admin_delboard_run },
	{ "list", "[active|finished]", "the boards", ADMINCMD_HOME, admin_list_run },
	{ "show", "BOARD[#TURN]", "a board as the players see it", ADMINCMD_HOME, admin_show_run },
	{ "fsck", "[BOARD...]", "check the game files", ADMINCMD_HOME, admin_fsck_run },
	{ "status", "[--brief]", "the server's health; exit 0 ok, 1 warnings, 2 failing", ADMINCMD_DIR,
	  admin_status_run },
	{ "web", "[SITE]", "write the web site (default: web_dir)", ADMINCMD_HOME, admin_web_run },
	{ "edit", "BOARD", "change a game file with $EDITOR, safely", ADMINCMD_HOME, admin_edit_run },
	{ "export", "BOARD", "the game record as SGF on standard output", ADMINCMD_HOME, admin_export_run },
	{ "import", "FILE [BOARD]", "a game file made from an SGF record (- for stdin)", ADMINCMD_HOME, admin_import_run },
	{ "ratings", "[--rebuild]", "the ratings file (--rebuild: made anew from the games)", ADMINCMD_HOME,
	  admin_ratings_run },
	{ "init", "DIR", "make a new home", 0, admin_init_run },
};

const size_t admincmd_count = sizeof admincmd_table / sizeof admincmd_table[0];

#define USAGE_COLUMN 49		/* where a usage line's summary starts */

const struct admin_command *admincmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < admincmd_count; i++)
		if (strcmp(admincmd_table[i].name, name) == 0)
			return &admincmd_table[i];
	return NULL;
}

void admin_unknown(const char *word, const char *const *more, size_t nmore)
{
	size_t n = admincmd_count + nmore, i, len = strlen(word);
	const char *name, *near = NULL;

	for (i = 0; i < n && near == NULL; i++) {
		name = i < admincmd_count ? admincmd_table[i].name : more[i - admincmd_count];
		if (ident_keyword_near(word, len, name))
			near = name;
	}
	fprintf(stderr, "oustpbm: unknown command '%.40s'", word);
	if (near != NULL)
		fprintf(stderr, " (did you mean %s?)", near);
	fputs("; the commands are ", stderr);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
		    i < admincmd_count ? admincmd_table[i].name : more[i - admincmd_count]);
	fputs("\n", stderr);
}

void admin_usage_print(FILE *f)
{
	const struct admin_command *c;
	char line[200];
	size_t i;
	int n;

	for (i = 0; i < admincmd_count; i++) {
		c = &admincmd_table[i];
		n = snprintf(line, sizeof line, "       oustpbm %s%s%s%s", c->flags & (ADMINCMD_HOME | ADMINCMD_DIR) ? "[-d DIR] " : "",
		    c->name, c->synopsis[0] != '\0' ? " " : "", c->synopsis);
		if (n < USAGE_COLUMN)
			fprintf(f, "%s%*s%s\n", line, USAGE_COLUMN - n, "", c->summary);
		else
			fprintf(f, "%s\n%*s%s\n", line, USAGE_COLUMN, "", c->summary);
	}
	fputs("       oustpbm [-d DIR] --force-owner COMMAND    run on a home owned by another user\n", f);
}

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
	case ADMIN_STATUS_WARNING: return "warnings";
	case ADMIN_STATUS_FAILING: return "failing";
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

	if (i == 0)
		return false;
	return admincmd_find(argv[i]) != NULL;
}

enum admin_status admin_usage_error(void)
{
	fputs("usage:\n", stderr);
	admin_usage_print(stderr);
	return ADMIN_USAGE;
}

enum admin_status admin_of_store(enum store_status ss)
{
	switch (ss) {
	case STORE_OK:
		return ADMIN_OK;
	case STORE_NOT_FOUND:
		return ADMIN_NOUSER;
	case STORE_USER_EXISTS:
	case STORE_RESERVED:
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

enum admin_status admin_load_board(struct admin *a, long board, struct game *g)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum admin_status as = ADMIN_OK;
	char *text = NULL;
	size_t len;

	memset(g, 0, sizeof *g);
	ss = store_board_read(a->st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		store_complain(a->st, "board %ld does not exist", board);
		return ADMIN_NOINPUT;
	}
	if (ss != STORE_OK) {
		store_complain(a->st, "%s", store_error(a->st));
		return admin_of_store(ss);
	}
	if (gamefile_parse(text, len, g, &gerr) != GAMEFILE_OK) {
		store_complain(a->st, "games/%ld.game %s", board, gerr.msg);
		as = ADMIN_DATAERR;
	}
	free(text);
	return as;
}

enum admin_status admin_output_done(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "oustpbm: cannot write the output\n");
		return ADMIN_IOERR;
	}
	return ADMIN_OK;
}

enum admin_status admin_main(int argc, char **argv)
{
	struct admin a;
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX];
	enum admin_status as;
	enum store_status ss;
	const struct admin_command *ac;
	int i = command_index(argc, argv);

	memset(&a, 0, sizeof a);
	if (i == 0)
		return admin_usage_error();
	a.home = config_default_home();
	if (i == 3)
		a.home = argv[2];
	else if (i == 2)
		a.home = argv[1] + 2;
	if (a.home[0] == '\0')
		return admin_usage_error();
	a.cmd = argv[i];
	a.args = argv + i + 1;
	a.nargs = argc - i - 1;
	ac = admincmd_find(a.cmd);
	if (ac == NULL)
		return admin_usage_error();
	if (!(ac->flags & ADMINCMD_HOME)) {
		config_defaults(&a.cfg);
		a.now = config_now(&a.cfg);
		gamefile_time_str((int64_t)a.now, a.stamp);
		return ac->run(&a);
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
	as = ac->run(&a);
	store_close(a.st);
	return as;
}

