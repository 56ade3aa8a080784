/*
 * tokenreply: a reply by token read, the incoming half of playing by
 * reply (replytoken.h says what a token is and which replies stand for a
 * command).  Above the job: only the pipeline's top (process.c) calls it,
 * before and at the command's set-up.
 */
#ifndef OUSTPBM_TOKENREPLY_H
#define OUSTPBM_TOKENREPLY_H

#include <stdbool.h>

#include "commands/pipeline/status.h"

struct job;

/*
 * After the parse: a mail without a complete command whose Subject holds a
 * token becomes the command its text stands for, with j->by_token set
 * (the user, found at the login, is the one whose token it is); a text
 * that stands for none is refused at handle() with j->token_error.  True
 * if the mail is a token reply.
 */
bool tokenreply_parse(struct job *j);

/*
 * prepare()'s login of a token reply, under the board's lock: the board
 * read, the player whose registered address sent it found, the token
 * checked (and counted by the throttle when wrong).  *ready false after a
 * refusal was sent.
 */
enum process_status tokenreply_login(struct job *j, bool *ready);

/* The command line for the log of a token reply ("reply to board 101#6 [token]: D4"); the caller frees it. */
char *tokenreply_masked(const struct job *j);

#endif
