/*
 * server: the context every run of the server works in, as git's struct
 * repository or notmuch's database handle: the home, its configuration,
 * the store, the outbox (opened on first use), the replies' context, the
 * time of the run and its stamp.  The mail job (job.h), the admin commands
 * (admincmd.h) embed one; cleanup and the robot's runs work in their
 * caller's.  It is opened and closed here only.
 */
#ifndef OUSTPBM_SERVER_H
#define OUSTPBM_SERVER_H

#include <stddef.h>
#include <time.h>

#include "base/config.h"
#include "commands/pipeline/status.h"
#include "game/gamefile.h"
#include "mail/reply.h"
#include "outbox/outbox.h"
#include "store/store.h"

struct server {
	const char *home;
	struct config cfg;
	struct store *st;	/* owned; NULL until server_open() */
	struct outbox *ob;	/* owned; NULL until server_outbox() */
	struct reply_ctx rc;	/* the replies' context: reply_init() or server_reply_init() */
	time_t now;		/* the run's time (config_now()) */
	char stamp[GAMEFILE_TIME_SIZE];	/* now as the log writes it */
};

/*
 * server_open returns (status.h) PROCESS_OK, PROCESS_CONFIG (oustpbm.conf
 * cannot be loaded: the defaults are in cfg, st open if the home is),
 * PROCESS_NOHOME (the home cannot be opened: none, damaged, not a home),
 * PROCESS_NOPERM (the home belongs to another user and we are not root)
 * or PROCESS_TEMPFAIL (a lock held too long, the disk: try again).
 */

/* s for home, the configuration's defaults in it and its time set; nothing opened. */
void server_init(struct server *s, const char *home);

/*
 * oustpbm.conf loaded, the time set and the home opened.  On PROCESS_CONFIG
 * err says what is wrong with the file and the home is open (st) with the
 * defaults when it can be, for the log; on any other failure err says why
 * and st is NULL.
 */
enum process_status server_open(struct server *s, char *err, size_t errlen);

/* The run's time set to now (and its stamp): a test's clock. */
void server_at(struct server *s, time_t now);

/* The outbox, opened on first use (s->ob); else err says why. */
enum outbox_status server_outbox(struct server *s, char *err, size_t errlen);

/*
 * The replies' context of a run that answers no mail (cleanup, the robot);
 * sender names the run.  Its ids are bound to their recipients
 * (server_reply_key); when token.secret cannot be read that is logged and
 * the mails go with ids the server will not know again.
 */
void server_reply_init(struct server *s, const char *sender);

/*
 * rc's Message-IDs bound to their recipients (reply_set_id_key) under the
 * home's token.secret, made if the home has none; a failure is logged.
 */
enum store_status server_reply_key(struct server *s, struct reply_ctx *rc);

/* The key of the Message-IDs (idmac.h) into key, as server_reply_key sets it; a failure is logged. */
enum store_status server_id_key(struct server *s, unsigned char key[IDMAC_KEY_BYTES]);

/* Everything s holds closed and released; it may be opened again. */
void server_close(struct server *s);

#endif
