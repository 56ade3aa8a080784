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
 * mailcmd.c and one handler in a file of keywords/: doc/HACKING.md.
 *
 * This header declares the table and its handlers, nothing else: what a
 * row is, is cmdtable.h's; what several keywords share is in a library
 * of its own (lib/), never here.  Only the pipeline's top (process.c)
 * reaches a handler, through the table: nothing below calls one
 * (tests/tools/cycles.sh, the link level).
 */
#ifndef OUSTPBM_MAILCMD_H
#define OUSTPBM_MAILCMD_H

#include <stdbool.h>
#include <stddef.h>

#include "commands/pipeline/cmdtable.h"

/* The table, in the order help lists it; mailcmd_count rows. */
extern const struct mail_command mailcmd_table[];
extern const size_t mailcmd_count;

/* The table as the parser's grammar (mail/command.h). */
extern const struct command_grammar mailcmd_grammar;

/* The whole: the rows, the mails without a keyword, the grammar (cmdtable.h); the job's (j->commands). */
extern const struct cmdtable mailcmd_commands;

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
mailcmd_fn set_run, settings_run;
mailcmd_fn vacation_run;
mailcmd_fn queue_run;

/* Placements sent alone under a board mail (coordinates.c): not a row, the parser found no keyword. */
mailcmd_fn coordinates_run;
mailcmd_fn chatanswer_run;	/* an answer to a chat mail without a command (chatanswer.c) */

#endif
