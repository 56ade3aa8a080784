/*
 * robotremote: the robot player on other hosts, by mail (the server's
 * side; admin/admin_robot_mail.c is the robot host's).
 *
 * With robot_address set (oustpbm.conf), the robot thinks on no turn here:
 * when a change leaves it to move, the board's mails (boardmail.h) carry
 * one more, to robot_address:
 *   Subject  "Oust Board 101 robot #6 [K7M2-QX9P-HD3RT]": the board, the
 *            turn it was written for and the robot's reply token
 *            (mail/token.h), as a player's board mail;
 *   text     a few lines for a person reading it;
 *   part     application/x-oust-game, oust-101.game: the game file as the
 *            server keeps it (gamefile.h), the record the robot host
 *            rebuilds the position from, with the robot's level.
 * The robot host answers with a reply by mail: that Subject and its turn
 * alone as the text ("D4, E5", "swap", "resign yes"), which the token
 * authorises (replytoken.h) as a player's from its registered address.
 * The robot's token is the HMAC of the board, "robot" and robot_address
 * under the home's secret: a new robot_address ends the old ones.  The
 * robot's reply, its token right, is exempt from max_mails_per_hour and is
 * read although it is an automatic mail (Auto-Submitted: RFC 3834 says a
 * responder marks its answers, and the robot host does); any other mail
 * From robot_address is throttled and treated as any sender's, and one
 * with a wrong token is logged and dropped, never answered (a forger
 * would have the server mail the robot host), nor counted by the
 * throttle (a forger must not lock the robot out).
 * `oustpbm robot` and cleanup play no robot turn (the robot host does).
 *
 * This is the outgoing half, below the job (boardmail.h sends the robot's
 * board mail); robotreply.h, above it, reads the robot host's replies.
 */
#ifndef OUSTPBM_ROBOTREMOTE_H
#define OUSTPBM_ROBOTREMOTE_H

#include <stdbool.h>

#include "base/config.h"
#include "game/game.h"
#include "mail/reply.h"
#include "mail/token.h"
#include "store/store.h"

#define ROBOTREMOTE_TYPE "application"		/* the game record's media type */
#define ROBOTREMOTE_SUBTYPE "x-oust-game"
#define ROBOTREMOTE_FILE "oust-%ld.game"	/* its file name */

/* True if the robot plays on another host (robot_address set). */
bool robotremote_on(const struct config *cfg);

/* True if the robot is to move on g and thinks here (no robot_address). */
bool robotremote_local_turn(const struct config *cfg, const struct game *g);

/* True if the change ev (applied to g) leaves the remote robot to move: the robot's board mail goes. */
bool robotremote_wants(const struct config *cfg, const struct game *g, const struct reply_event *ev);

/*
 * The board mail to the remote robot for g into out (the caller releases
 * it: reply_mail_release), composed with rc's configuration and time.
 * MAIL_OK, else why in rc->err.
 */
enum mail_status robotremote_mail(struct store *st, struct reply_ctx *rc, const struct game *g,
    struct reply_mail *out);

/* The robot's token on board into out (TOKEN_TEXT_SIZE bytes); err says what failed. */
enum store_status robotremote_token(struct store *st, const struct config *cfg, long board,
    char out[TOKEN_TEXT_SIZE], char *err);

#endif
