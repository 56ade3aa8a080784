/*
 * mailcmd: the table of mail commands, the one place that lists them.
 *
 * Each row gives a command's keyword, synopsis and argument slots (the
 * parser's grammar: mail/command.h), what it needs before its handler runs
 * (the MAILCMD_ flags: the pipeline, process.c, does that set-up, as git's
 * RUN_SETUP), its handler, and the words of `help` and of the README.  The
 * parser's keywords, the usage errors, the help mail's list of commands and
 * the README's table of mail commands are all made from the rows
 * (test_mailcmd checks the README).  Adding a command is one row in
 * mailcmd.c and one handler in a file of this folder: doc/HACKING.md.
 */
#ifndef OUSTPBM_MAILCMD_H
#define OUSTPBM_MAILCMD_H

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
	/* After a committed j->game with the robot to move, the robot's answer is played. */
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

/* The table, in the order help lists it; mailcmd_count rows. */
extern const struct mail_command mailcmd_table[];
extern const size_t mailcmd_count;

/* The table as the parser's grammar (mail/command.h). */
extern const struct command_grammar mailcmd_grammar;

/* The row of a parsed command (cmd->syntax is one of the table's), or NULL. */
const struct mail_command *mailcmd_of(const struct command *cmd);

/* The row called name (case-insensitive), or NULL. */
const struct mail_command *mailcmd_find(const char *name);

/*
 * The list of commands for the help mail (its {commands}): each synopsis,
 * wrapped at MAILCMD_HELP_WIDTH columns, then its help lines.  The caller
 * frees it; NULL when out of memory.
 */
#define MAILCMD_HELP_WIDTH 72	/* a reply's lines (reply.h: REPLY_WRAP); the help lines fit in 66 after their indent */
char *mailcmd_help_text(void);

/* The README's table of mail commands (Markdown).  The caller frees it; NULL when out of memory. */
char *mailcmd_readme_table(void);

/* The handlers (one file per command or close family). */
mailcmd_fn password_run;
mailcmd_fn register_run;
mailcmd_fn confirm_run, confirm_code_run, confirm_register_run;
mailcmd_fn challenge_run;
mailcmd_fn accept_run;
mailcmd_fn decline_run;
mailcmd_fn challenges_run;
mailcmd_fn tournament_run, tournament_show_run, tournaments_run, join_run, withdraw_run, begin_run;
mailcmd_fn subscribe_run, subscribe_all_run;
mailcmd_fn unsubscribe_run, unsubscribe_board_run, unsubscribe_all_run;
mailcmd_fn notify_run;
mailcmd_fn move_run;
mailcmd_fn show_run;
mailcmd_fn history_run;
mailcmd_fn sgf_run, review_run;
mailcmd_fn games_run;
mailcmd_fn finished_run;
mailcmd_fn preview_run;
mailcmd_fn moves_run;
mailcmd_fn chat_run;
mailcmd_fn help_run;
mailcmd_fn forgot_run;
mailcmd_fn reset_run;
mailcmd_fn address_run;
mailcmd_fn signoff_run;
mailcmd_fn whoami_run;
mailcmd_fn tokens_run;
mailcmd_fn standings_run;
mailcmd_fn rating_run;
mailcmd_fn seek_run;
mailcmd_fn limit_run;

/* The boards userid is playing on now (its index, players.h, and each board's header). */
enum process_status challenge_active_boards(struct job *j, const char *userid, unsigned long *count);
mailcmd_fn vacation_run;
mailcmd_fn queue_run;

struct game;
struct reply_event;

/*
 * After the turn of history entry first was played on g (move.c): the
 * queue of conditional turns of the other player answered (*played, then
 * the event of the answer) or dropped (note, for its owner alone, says
 * why), in the same commit (queue.c).
 */
enum process_status queue_after_turn(struct job *j, struct game *g, int first, struct reply_event *then,
    char *note, size_t size, bool *played);

/*
 * "bob is away (vacation) until ...\n\n" into buf if userid is away now,
 * else "" (games.c, for games and whoami).
 */
enum process_status vacation_line(struct job *j, const char *userid, char *buf, size_t size);

/*
 * Refuse a one-time code that is not right (store/accounts.h's verdict):
 * expired, used, stale, another account's (counted by the throttle) or
 * wrong (counted); again says how to get a new one.  forgot.c, for
 * address.c too.
 */
enum process_status forgot_refuse_code(struct job *j, const struct store_user *u, int verdict, const char *again);

/*
 * The account write of a one-time code (job.h's job_account_write for
 * job_commit_account): arg is its struct accounts_code.  forgot.c, for
 * address.c too.
 */
enum store_status forgot_write_code(struct job *j, const char *token, const char *expect, const void *arg);

struct accounts_code;

/*
 * A one-time code of kind (store/accounts.h) issued to u: the code into
 * code (ACCOUNTS_CODE_LEN + 1 bytes), its record into *rec and the time it
 * expires into expires (GAMEFILE_TIME_SIZE bytes).  *ok false after the
 * failure reply; or a failure.  forgot.c, for address.c too.
 */
enum process_status forgot_issue_code(struct job *j, int kind, const struct store_user *u, char *code,
    struct accounts_code *rec, char *expires, bool *ok);

/*
 * Find userid's account (into *u) and check the one-time code of kind
 * (store/accounts.h; the code is cmd.password) against it: *verdict and
 * *rec as accounts_code_verify gives them.  *ok false after the job was
 * answered (no such account); or a failure.  forgot.c, for address.c too.
 */
enum process_status forgot_verify_code(struct job *j, int kind, const char *userid, struct store_user *u,
    int *verdict, struct accounts_code *rec, bool *ok);

/*
 * May userid start another game (challenge.c, the one check of it: a
 * challenge's players, an accept)?  Not past max_open_boards nor past its
 * own limit (limit <userid> <password> N); the robot always may.  *ok
 * false after a refusal was sent, which ends with then (what to do).
 */
enum process_status challenge_may_start(struct job *j, const char *userid, const char *then, bool *ok);

/*
 * move ... undo|propose|accept|reject (offer.c): move_run's handler for a
 * move whose placements are one of pbmserv's words, on a board that is
 * playable by the sender (move.c checked it).
 */
mailcmd_fn offer_run;

/* Placements sent alone under a board mail (coordinates.c): not a row, the parser found no keyword. */
mailcmd_fn coordinates_run;
mailcmd_fn chatanswer_run;	/* an answer to a chat mail without a command (chatanswer.c) */

#endif
