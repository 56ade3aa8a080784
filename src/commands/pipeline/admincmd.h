/*
 * admincmd: the table of admin commands (admin.c), one row per command
 * run on the server's machine (`oustpbm [-d DIR] WORD ...`), and what their
 * handlers share.  The usage text (`oustpbm --help`) and the test of a
 * command word are made from the rows.  A handler gets the run prepared as
 * its flags ask (ADMINCMD_HOME: oustpbm.conf loaded and the home opened,
 * the log lines prefixed with the time and the command) and returns the
 * status main.c turns into the exit status.
 */
#ifndef OUSTPBM_ADMINCMD_H
#define OUSTPBM_ADMINCMD_H

#include <stdio.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/admin.h"
#include "game/gamefile.h"
#include "store/store.h"

/* One run of a command. */
struct admin {
	const char *home;
	const char *cmd;
	char **args;		/* after the command word */
	int nargs;
	struct config cfg;
	struct store *st;	/* owned; NULL without ADMINCMD_HOME */
	time_t now;
	char stamp[GAMEFILE_TIME_SIZE];
};

enum {
	/* runs on an existing home: oustpbm.conf loaded, the home opened (its owner's, or --force-owner) */
	ADMINCMD_HOME = 1 << 0,
	/* takes -d DIR but loads and opens it itself (status: a broken home is what it reports) */
	ADMINCMD_DIR = 1 << 1
};

struct admin_command {
	const char *name;
	const char *synopsis;	/* the arguments, after the name: "[--stdin] USERID" */
	const char *summary;	/* for the usage text */
	unsigned flags;		/* ADMINCMD_ */
	enum admin_status (*run)(struct admin *a);
};

extern const struct admin_command admincmd_table[];
extern const size_t admincmd_count;

/* The row called name, or NULL. */
const struct admin_command *admincmd_find(const char *name);

/* The usage text, to stderr: ADMIN_USAGE. */
enum admin_status admin_usage_error(void);

/* A store status as an admin status. */
enum admin_status admin_of_store(enum store_status ss);

/*
 * Board's game file read and parsed into g: ADMIN_OK; else the complaint
 * made (store_complain) and ADMIN_NOINPUT (no such board), ADMIN_DATAERR
 * (it does not parse) or the store's failure.  Either way g may be
 * released (game_release), and must be once ADMIN_OK.
 */
enum admin_status admin_load_board(struct admin *a, long board, struct game *g);

/* Standard output written and flushed: ADMIN_OK, else ADMIN_IOERR. */
enum admin_status admin_output_done(void);

/* The handlers: admin_account.c, admin_board.c, admin_run.c, admin_init.c. */
enum admin_status admin_adduser_run(struct admin *a);
enum admin_status admin_passwd_run(struct admin *a);
enum admin_status admin_deluser_run(struct admin *a);
enum admin_status admin_list_run(struct admin *a);
enum admin_status admin_show_run(struct admin *a);
enum admin_status admin_cleanup_run(struct admin *a);
enum admin_status admin_robot_run(struct admin *a);
enum admin_status admin_web_run(struct admin *a);
enum admin_status admin_fsck_run(struct admin *a);
enum admin_status admin_edit_run(struct admin *a);
enum admin_status admin_ratings_run(struct admin *a);
enum admin_status admin_status_run(struct admin *a);
enum admin_status admin_init_run(struct admin *a);
/* admin_delboard.c */
enum admin_status admin_delboard_run(struct admin *a);
/* admin_record.c */
enum admin_status admin_export_run(struct admin *a);
enum admin_status admin_import_run(struct admin *a);

#endif
