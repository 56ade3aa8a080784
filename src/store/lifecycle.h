/*
 * lifecycle: when a home was made and whether it is retired, each a small
 * file of the home holding one time stamp ("2026-11-29T09:00:00Z\n"):
 *
 *   installed   written by oustpbm init: status does not take cron's runs
 *               missing from the log for a dead crontab in the first hour
 *               (admin_status.c);
 *   retired     written by oustpbm retire: every mail handed to the server
 *               is refused with EX_UNAVAILABLE, which the MTA turns into a
 *               bounce, so nothing is lost while the admin removes the
 *               wiring (.forward, alias, cron); removed by retire --undo.
 *
 * The files are read with a small cap: anything larger or not a time
 * stamp is STORE_CORRUPT, which the callers treat as the file being there
 * (a damaged retired stamp still refuses mail: nothing is taken in by a
 * server its admin meant to close).
 */
#ifndef OUSTPBM_LIFECYCLE_H
#define OUSTPBM_LIFECYCLE_H

#include <stdint.h>
#include <time.h>

#include "store/store.h"

#define LIFECYCLE_INSTALLED_FILE "installed"
#define LIFECYCLE_RETIRED_FILE "retired"
#define LIFECYCLE_FILE_MAX 64	/* bytes read of either file */

/* The stamp file (one of the two above) written with now, durably. */
enum store_status lifecycle_mark(struct store *st, const char *file, time_t now);

/*
 * The time in file: STORE_OK and *when; STORE_NOT_FOUND when there is no
 * such file; STORE_CORRUPT (*when 0) when it holds no time stamp; else a
 * store failure.
 */
enum store_status lifecycle_read(struct store *st, const char *file, int64_t *when);

/* The stamp file removed, durably; STORE_NOT_FOUND if there was none. */
enum store_status lifecycle_clear(struct store *st, const char *file);

#endif
