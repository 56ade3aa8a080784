/*
 * cmdtable: what a table of mail commands is (its rows: mailcmd.c's, the
 * one table), and what is made from one: a row found by its keyword or by
 * a parsed command, the help mail's list of commands, the README's table.
 * The job carries the table (j->commands), so that help, one of its
 * handlers, lists it without reaching up to it.
 */
#ifndef OUSTPBM_CMDTABLE_H
#define OUSTPBM_CMDTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/pipeline/status.h"
#include "mail/command.h"
#include "store/store.h"

struct job;

/*
 * What a command needs before its handler runs; the pipeline provides it,
 * in this order, and refuses or fails the mail if it cannot:
 */
enum {
	/*
	 * cmd.userid and cmd.password name an account: nobody logs in as the
	 * robot; the password is checked (throttle.h) and the account is in
	 * j->user.  With MAILCMD_LOCK the check runs on beside the board's
	 * loading and its verdict is taken at the commit (or a refusal); with
	 * MAILCMD_ACCOUNTS the handler checks it itself, under accounts.lock.
	 */
	MAILCMD_LOGIN = 1 << 0,
	/* cmd.board is read into j->game (refused if missing or unreadable). */
	MAILCMD_BOARD = 1 << 1,
	/*
	 * ... under the board's lock (j->board_lock), what a crashed run left
	 * for it settled, and the mail checked again there against the
	 * redelivery record.  The handler changes j->game and commits it with
	 * job_commit_game().
	 */
	MAILCMD_LOCK = 1 << 2,
	/* accounts.lock is held (j->accounts_lock): the handler commits with job_commit_account(). */
	MAILCMD_ACCOUNTS = 1 << 3,
	/* After a committed j->game with the robot to move, the handler plays the robot's answer (job_turn_answer). */
	MAILCMD_ROBOT = 1 << 4,
	/* The command changes the store (a board, an account): documentation, and the README's table. */
	MAILCMD_CHANGE = 1 << 5,
	/*
	 * With trusted_authserv_id set, refused unless the receiving server's
	 * Authentication-Results shows the sender's domain genuine (dmarc=pass,
	 * or an aligned dkim=pass: mail/authres.h), checked first of all: the
	 * commands that make an account, or send its code or its new address
	 * somewhere, must not run on a forged From.
	 */
	MAILCMD_AUTH = 1 << 6
};

/*
 * A handler: works on a parsed job, prepared as the row's needs say, and
 * answers through job.h: job_refuse(), job_reply(), job_commit_game(),
 * job_commit_account(), and job_detail() for the log.  It returns
 * PROCESS_OK when the mail was handled (a refusal too), else the failure
 * the job function reported.
 */
typedef enum process_status mailcmd_fn(struct job *j);

struct mail_command {
	struct command_syntax syntax;	/* keyword, synopsis, argument slots (mail/command.h) */
	unsigned needs;		/* MAILCMD_ flags */
	mailcmd_fn *run;
	const char *help;	/* the lines under the synopsis in the help mail, "" for none */
	const char *summary;	/* what it does, one line: the README's table */
};

/*
 * A mail with no keyword that the parser still read as something
 * (mail/command.h's status: placements alone under a board mail, an
 * answer to a chat mail): its handler, as a row's.
 */
struct mail_bare {
	enum command_result status;
	mailcmd_fn *run;	/* prepares what it needs itself: no MAILCMD_ flags */
};

/* A table of mail commands. */
struct cmdtable {
	const struct mail_command *rows;
	size_t n;
	const struct mail_bare *bare;	/* the mails without a keyword */
	size_t nbare;
	const struct command_grammar *grammar;	/* the rows as the parser's grammar */
};

/* The row of a parsed command (cmd->syntax is one of the table's), or NULL. */
const struct mail_command *cmdtable_of(const struct cmdtable *t, const struct command *cmd);

/* The row called name (case-insensitive), or NULL. */
const struct mail_command *cmdtable_find(const struct cmdtable *t, const char *name);

/* The handler of a mail without a keyword that the parser read as status, or NULL. */
mailcmd_fn *cmdtable_bare(const struct cmdtable *t, enum command_result status);

/*
 * The list of commands for the help mail (its {commands}): each synopsis,
 * wrapped at MAILCMD_HELP_WIDTH columns, then its help lines.  The caller
 * frees it; NULL when out of memory.
 */
#define MAILCMD_HELP_WIDTH 72	/* a reply's lines (reply.h: REPLY_WRAP); the help lines fit in 66 after their indent */
char *cmdtable_help_text(const struct cmdtable *t);

/* The README's table of mail commands (Markdown).  The caller frees it; NULL when out of memory. */
char *cmdtable_readme_table(const struct cmdtable *t);

#endif
