/*
 * tap: the tappable board of a board mail to the player to move.  Each
 * legal placement of the HTML board is a mailto: link (RFC 6068) to the
 * server whose subject is the mail's own Subject (the game's, with the
 * reply token, mail/token.h) and whose body is the turn it plays ("#6",
 * "#6.1") on a first line and the placement on the second, so that tapping a
 * point opens the reply that plays it; the capturing placements are
 * marked.  swap (when the pie rule allows it) and resign (body "resign
 * yes": a slip of the finger does not end a game) are links under the
 * board.  Only the player to move gets them: never the opponent, an
 * observer or a web page.
 */
#ifndef OUSTPBM_TAP_H
#define OUSTPBM_TAP_H

#include "base/strbuf.h"
#include "game/game.h"
#include "game/html.h"

/*
 * The links of g's player to move, from the position rg (g's own, or
 * after the pending part of a turn, which may not swap), for a mail
 * from server_address with this subject, their body's first line turn
 * (NULL: none): *out, and *href (its prefix,
 * out->href points to it; the caller frees it).  False when out of
 * memory.
 */
bool tap_links(const struct game *g, const struct rules_game *rg, const char *server_address, const char *subject,
    const char *turn, struct html_links *out, char **href);

/*
 * The board g's player to move plays from while a turn begun by reply
 * waits (game.h's pending): a copy of g sharing its history (read only:
 * the caller frees it with free(), never game_release), its position
 * after the part, and the part's placements counted in *part.  NULL when
 * no part waits, it does not play, or out of memory.
 */
struct game *tap_after_part(const struct game *g, int *part);

/* The lines under the tappable board: what tapping does, swap and resign. */
void tap_html_after(struct strbuf *b, const struct rules_game *rg, bool swap, const char *href);

#endif
