/*
 * mailfind: which line of a mail is its command, the way a person writes
 * it.  The sources of a mail are one struct (struct mailfind_source: the
 * Subject, the text, the ids it answers); the finder reads them in one
 * place, in this order, and command.h parses the line it picks:
 *
 *   1. The Subject, its reply and forward prefixes and [tags] stripped,
 *      is a command when it starts with a keyword (after an optional
 *      "oust").  A Subject naming a board ("Re: Oust Board 101 alice",
 *      "AW: Oust Board 101 ...") is never a command: its board fills a
 *      missing board in the errors and the commands to send
 *      (command_hints.subject_board).
 *   2. The text: its lines before the signature and the quoted mail, and
 *      not quoted (mailtext.h).  The command is the first line that parses
 *      as a complete command; the lines before it (greetings, prose) are
 *      skipped and never echoed, the lines after it are the comment
 *      (command_comment).  A weak command ("help me please": a row without
 *      fixed slots, with words after its keyword, command_weak) counts only
 *      when no later line holds a complete one.
 *   3. Both complete: the same words run once (the text's, so its comment
 *      follows it); two different commands run nothing (COMMAND_CONFLICT:
 *      the error quotes both, masked).  A weak Subject gives way to the
 *      text.  A Subject that does not parse ("queue", "Oust move") gives
 *      way to a complete command in the text.
 *   4. Nothing complete: the error is that of the line the player most
 *      likely meant for the command: the Subject's if it starts with a
 *      keyword and no line of the text does; else, for an answer to a chat
 *      mail (its Subject, or an id of ours it answers) whose lines are
 *      prose (or start with a keyword but name no board: "Show me!"),
 *      COMMAND_CHAT_ANSWER; else the first line of the text starting with a
 *      keyword (or one edit from one and naming a board, "mvoe 101 ...");
 *      else the first line of placements alone (COMMAND_PLACEMENTS_ONLY);
 *      else the first line of the text, named masked, with where a command
 *      must stand and, for the Subject's board, an example.
 *
 * What the mail answers (struct mailfind_answered) is read from the ids
 * of In-Reply-To and References that are the server's: a board mail is
 * <board>.<turn>.<userid>.<time>@<domain> (reply.c; <turn>p<part> for
 * the mail of a part of a turn, replytoken.h), a reminder
 * <board>.<turn>.<userid>.reminder.<time>@..., a chat mail
 * <board>.<turn>.<userid>.chat<hash>.<time>@...; <turn> is the number of turns
 * played when it was sent, <userid> its reader.  Without such an id, under
 * a Subject naming a board, the quoted board mail's line "move 101#3 alice
 * <password> ..." tells the turn it asked for.
 *
 * To extend: a new source (a reply token in the Subject, placements
 * replied alone) is a member of struct mailfind_source or of struct
 * mailfind_result and a step in mailfind_find(); the line parser stays in
 * command.c.  This module does no I/O and knows nothing of GMime.
 */
#ifndef OUSTPBM_MAILFIND_H
#define OUSTPBM_MAILFIND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/ident.h"
#include "mail/command.h"

#define MAILFIND_LINES_MAX 100	/* lines of text tried as the command: a command stands near the top */
#define MAILFIND_QUOTE_LINES_MAX 400	/* lines searched for a quoted board mail's turn */

/* A mail's sources of a command.  Every pointer is borrowed; any may be NULL. */
struct mailfind_source {
	const char *subject;	/* decoded, one line */
	const char *body;	/* the text: UTF-8, LF line ends (mailin.h) */
	const char *in_reply_to;	/* the id it answers, without brackets */
	const char *references;	/* ids without brackets, space separated, oldest first */
	const char *own_domain;	/* the domain of the server's address: which ids are ours */
	const char *const *senders;	/* the user ids of the sender's accounts (command_hints) */
	size_t nsenders;
};

enum mailfind_kind {
	MAILFIND_NONE = 0,
	MAILFIND_BOARD,		/* a board mail (or a reminder) */
	MAILFIND_CHAT		/* a chat mail */
};

/* The mail of ours a mail answers. */
struct mailfind_answered {
	enum mailfind_kind kind;
	long board;
	int turns;		/* turns played when it was sent: it asked for turn turns + 1 */
	int part;		/* placements of that turn pending then (a part's mail, "<turns>p<part>"), else 0 */
	char userid[IDENT_USERID_MAX + 1];	/* its reader */
};

/* What the finder learnt besides the command.  Plain value. */
struct mailfind_result {
	long subject_board;	/* the board the Subject names, 0 if none */
	bool subject_chat;	/* the Subject is a chat mail's (Re: Oust Board N chat from X) */
	struct mailfind_answered answered;	/* by In-Reply-To, else the last id of ours in References */
	size_t text_lines;	/* lines of the sender's own text read */
};

/*
 * Find and parse the command of the mail src by grammar g into out
 * (command.h: out->source, out->line, out->body_rest; out->error on
 * failure), and what else was learnt into res (may be NULL).  Returns
 * out's status; COMMAND_CONFLICT and COMMAND_CHAT_ANSWER are the finder's
 * own (out->error says what to send).
 */
enum command_result mailfind_find(const struct command_grammar *g, const struct mailfind_source *src,
    struct command *out, struct mailfind_result *res);

/* mailfind_find() with only a Subject and a text, for tests and tools. */
enum command_result mailfind_parse(const struct command_grammar *g, const char *subject, const char *body,
    struct command *out);

/* mailfind_parse() knowing the sender's accounts (struct mailfind_source's senders). */
enum command_result mailfind_parse_as(const struct command_grammar *g, const char *subject, const char *body,
    const char *const *senders, size_t nsenders, struct command *out);

/*
 * Is id (without brackets) one of the server's board, reminder or chat
 * mails (the domain own_domain)?  Its board, turns and reader into *a.
 */
bool mailfind_answered_id(const char *id, const char *own_domain, struct mailfind_answered *a);

#endif
