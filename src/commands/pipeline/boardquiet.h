/*
 * boardquiet: the board mails a player's settings (store/settings.h) leave
 * out, so that a player is not mailed for what nobody had to wait for
 * (issue 43):
 *   - a turn played from a player's queue of conditional turns (queue.c)
 *     answered at once: its owner gets no mail for it unless their
 *     queued_mail is on (the mover's mail says the answer was queued);
 *   - with digest=daily@HH or twice@HH,HH, the opponent's turn that makes
 *     the player the one to move: the digest (services/digest.h) lists the
 *     board at the player's next digest hour instead.
 * Everything else still comes at once: a game's start and end, chats,
 * offers and their answers, warnings and reminders, a turn whose mover
 * wrote a comment, a queue dropped (its note), and every mail that answers
 * the player's own mail.  When the settings cannot be read the mail goes.
 */
#ifndef OUSTPBM_BOARDQUIET_H
#define OUSTPBM_BOARDQUIET_H

#include <stdbool.h>

#include "game/game.h"
#include "mail/reply.h"
#include "store/audience.h"
#include "store/store.h"

/* Does m, a reader of the mail that tells ev on g (already applied), go without it? */
bool boardquiet_skip(struct store *st, const struct game *g, const struct reply_event *ev,
    const struct audience_member *m);

/*
 * Does a board mail of ev on g, to userid (a player whose digest is on),
 * leave the board to the digest: a turn of the opponent's, without a
 * comment or a note for userid, that leaves userid to move?
 */
bool boardquiet_for_digest(const struct game *g, const struct reply_event *ev, const char *userid);

#endif
