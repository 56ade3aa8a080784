/*
 * boardcommit: a game file committed with its mails through a transaction
 * (txn.h), outside a mail's own commit (job_commit.c): a robot's turn, a board of a command of several,
 * a board resigned by a closing account.  The protocol of outbox.h: the
 * mails into outbox/tmp/ tagged with the new text, the game file, the
 * mails released; the redelivery record of the file replaced settled
 * first (seen.h), the ratings marked (ratings.h).
 */
#ifndef OUSTPBM_BOARDCOMMIT_H
#define OUSTPBM_BOARDCOMMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/txn.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/store.h"

/*
 * Commit g with its n mails in srv; the caller holds the board's lock
 * and recovered srv's outbox for it.  PROCESS_OK once the game file holds g
 * (also when only the release of the mails failed: they wait in tmp/ for
 * recovery); else nothing was committed and err says why.  The web pages
 * are the caller's (web_after_commit()): a mail's are written after its
 * replies are flushed.
 */
enum process_status boardcommit_write(struct server *srv, const struct game *g, const struct reply_mail *mails,
    int n, char *err, size_t errlen);

/*
 * boardcommit_write() of a board made now (a tournament's): no mail can be
 * recorded pending a file that never existed, so none is settled first.
 */
enum process_status boardcommit_write_new(struct server *srv, const struct game *g, const struct reply_mail *mails,
    int n, char *err, size_t errlen);

/*
 * Read board from st into g, the header only or whole, and check that the
 * file is named for it (gamefile_named_for: another board's file under
 * this name is never written back).  STORE_OK with *gs GAME_OK and g
 * the caller's to release; STORE_OK with *gs the failure and err->msg why
 * (a name that is not the board's is GAME_BAD_FILE); or the store's failure
 * (STORE_NOT_FOUND: no such file), *gs unset.  For the services that go
 * over boards (cleanup, robot, signoff).
 */
enum store_status boardcommit_read(struct store *st, long board, bool whole, struct game *g,
    enum game_status *gs, struct gamefile_error *err);

#endif
