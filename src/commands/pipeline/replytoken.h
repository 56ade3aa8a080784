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
 *
 * This is the outgoing half, below the job (boardmail.h puts the tokens in
 * the Subjects); the incoming half, reading a reply by token, is
 * tokenreply.h, above it, and a move's by token keywords/move_int.h.
 */
#ifndef OUSTPBM_REPLYTOKEN_H
#define OUSTPBM_REPLYTOKEN_H

#include <stdbool.h>

#include "commands/pipeline/status.h"
#include "mail/token.h"
#include "store/store.h"

struct command;

#define REPLYTOKEN_LOCK_MS 10000	/* waiting for token.secret.lock, once in a home's life */

/*
 * The token of u on board for the Subject of its mails into out, "" when
 * u's tokens are off (or the account is locked); err: what failed.
 */
enum store_status replytoken_of(struct store *st, long board, const struct store_user *u, char out[TOKEN_TEXT_SIZE],
    char *err);

/*
 * command_comment() with every token masked (TOKEN_MASK): a reply that
 * quotes a board mail without '>' must not pass its token on.  The
 * caller frees it; NULL when out of memory.
 */
char *replytoken_comment(const struct command *cmd, const char *body);

#endif
