/*
 * boardmail: the mails of one change of a board, to everyone who gets it
 * (store/audience.h decides who: the players, the board's observers, the
 * watchers of every board), each in its reader's view (reply_game: a
 * player's, or an observer's read-only one).  Every board mail of a
 * command, of the robot, of cleanup's time loss and of a signoff is made
 * here.
 */
#ifndef OUSTPBM_BOARDMAIL_H
#define OUSTPBM_BOARDMAIL_H

#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "mail/reply.h"
#include "mail/token.h"
#include "store/audience.h"
#include "store/store.h"

/*
 * Why the mails of a board could not be made (status.h): the users,
 * vacations or watchers file could not be read (store_error() says why):
 * PROCESS_TEMPFAIL for now (store_status_temporary: disk full, I/O error,
 * a lock), PROCESS_FULL (a file over its cap, STORE_TOO_BIG) or
 * PROCESS_IOERR (any other store failure); or a mail could not be made
 * (srv->rc.err says why, reply.h): PROCESS_NOMEM (MAIL_NOMEM),
 * PROCESS_CONFIG (MAIL_TEMPLATE) or PROCESS_SOFTWARE (MAIL_COMPOSE).
 * boardmail_status_store() tells the two kinds apart.
 */

/* Is s one that may well go away if tried again later (a store's for now, no memory)? */
bool boardmail_status_temporary(enum process_status s);
/* Did s come from the store (store_error() says why), not from making a mail (rc->err)? */
bool boardmail_status_store(enum process_status s);

/*
 * The mails after ev changed g (already applied), made with srv's reply
 * context from its store, into *mails (the caller
 * frees them, boardmail_free), *n of them, maybe none: one per member of
 * audience_of_board(), the final mail to the results-only observers too
 * when g is over; except (NULL for none) is a user id left out (a player
 * who closed the account, the sender of a chat).  On failure *mails is NULL, *n 0, and the status says why.
 */
enum process_status boardmail_make(struct server *srv, const struct game *g, const struct reply_event *ev,
    const char *except, struct reply_mail **mails, int *n);

/*
 * Tell srv's reply context the vacation of g's player to move (vacations.h), or none, so the
 * time left its mails show counts the clock that stood still, and g's clocks
 * as of now (reply_set_clock; store/clockstops.h); STORE_OK, or why the
 * vacations or settings file could not be read.
 */
enum store_status boardmail_set_away(struct server *srv, const struct game *g);

/* How a reader who gets a board's mail by via is addressed (reply.h). */
enum reply_role boardmail_role(enum audience_via via);

/*
 * m as the recipient *p of a mail of g; a player of a game in progress
 * with its reply token, written into token (a token that cannot be had
 * is said on stderr: the mail goes without it, a password plays).
 */
void boardmail_player(struct store *st, const struct game *g, const struct audience_member *m, struct reply_player *p,
    char token[TOKEN_TEXT_SIZE]);

/* Release mails[0..n) and free the array; harmless on NULL. */
void boardmail_free(struct reply_mail *mails, int n);

#endif
