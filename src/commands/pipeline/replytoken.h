/*
 * replytoken: playing by reply.  A board mail to a player carries in its
 * Subject, the same for the whole game, a reply token (mail/token.h); a
 * reply to it whose text is only what the player would add to a command
 * (placements "D4" or "D3, F6", also written "B 2", "b-2", "B2.", "swap",
 * "resign yes", "undo", "propose",
 * "accept", "reject", "queue ...", or any words in reply to a chat mail)
 * is that command for the token's board and player, in place of the
 * password; words around one placement ("Oops, D3 then.") are answered
 * "Did you mean D3?" with its tap link, and words alone to a person are
 * a chat (to the robot: the help). All this in place of the
 * password, when it comes from the player's registered address.  The turn
 * the reply answers is the command's #turn guard: a "#6" in the Subject
 * (older mails and refusals), else a first line "#6" or "#6.1" of its
 * text (a tapped link's, tap.h), else the board mail its In-Reply-To or
 * References names (<board>.<turns>[p<part>].<userid>..., mailfind.h); a
 * reply with none of them is refused.  A wrong token counts as a
 * wrong password (throttle.h); the token is never echoed or logged.
 */
#ifndef OUSTPBM_REPLYTOKEN_H
#define OUSTPBM_REPLYTOKEN_H

#include <stdbool.h>

#include "commands/pipeline/status.h"
#include "mail/token.h"
#include "store/store.h"

struct command;
struct game;
struct job;

#define REPLYTOKEN_LOCK_MS 10000	/* waiting for token.secret.lock, once in a home's life */

/*
 * The token of u on board for the Subject of its mails into out, "" when
 * u's tokens are off (or the account is locked); err: what failed.
 */
enum store_status replytoken_of(struct store *st, long board, const struct store_user *u, char out[TOKEN_TEXT_SIZE],
    char *err);

/*
 * After the parse: a mail without a complete command whose Subject holds a
 * token becomes the command its text stands for, with j->by_token set
 * (the user, found at the login, is the one whose token it is); a text
 * that stands for none is refused at handle() with j->token_error.  True
 * if the mail is a token reply.
 */
bool replytoken_parse(struct job *j);

/*
 * prepare()'s login of a token reply, under the board's lock: the board
 * read, the player whose registered address sent it found, the token
 * checked (and counted by the throttle when wrong).  *ready false after a
 * refusal was sent.
 */
enum process_status replytoken_login(struct job *j, bool *ready);

/* The command line for the log of a token reply ("reply to board 101#6 [token]: D4"); the caller frees it. */
char *replytoken_masked(const struct job *j);

/*
 * A token move on g (move.c): the Subject's part must be g's pending part
 * (game.h), whose placements are put before the reply's in j->cmd, so
 * that the whole turn plays at once.  *refused true after a refusal
 * (the position has changed) was sent.
 */
enum process_status replytoken_continue(struct job *j, const struct game *g, bool *refused);

/*
 * A token move whose placements j->cmd (the part before included) stop
 * after a capture: kept as g's pending part and
 * committed with one mail, to the mover, showing the board after it with
 * the continuations as links.
 */
enum process_status replytoken_keep_part(struct job *j, struct game *g);

/*
 * command_comment() with every token masked (TOKEN_MASK): a reply that
 * quotes a board mail without '>' must not pass its token on.  The
 * caller frees it; NULL when out of memory.
 */
char *replytoken_comment(const struct command *cmd, const char *body);

#endif
