/*
 * web: the static web site of one home's boards, plain HTML with inline
 * SVG that any web server can serve and no script is needed to read.
 *
 * Layout under the site directory (`oustpbm web [DIR]`, or web_dir):
 *   index.html          the WEB_INDEX_ACTIVE boards being played with the
 *                       latest moves, the WEB_RECENT last finished, and
 *                       links to the pages of the full list
 *   all-1.html          the full list: boards 101 to 600 (WEB_SHARD a page,
 *                       all-2.html 601 to 1100...), so that a move rewrites
 *                       one page of it
 *   board/101.html      board 101 now: the position (SVG, with the ASCII
 *                       board as its text alternative), the players, whose
 *                       turn it is and the command to play, the history
 *   board/101-7.html    the position after turn 7 (each history line links here)
 *   player/alice.html   alice's boards, running and finished
 *   standings.html      the rated players of each board class (standings.h),
 *                       rewritten when a rated game ends
 *   tournament/T1.html  tournament T1: its options, players, standings with
 *                       tie-breaks (a round robin's crosstable), the pairings
 *                       of each round linking to the boards
 *   tournaments.html    every tournament, the open challenges, the players
 *                       seeking games
 *   feed.atom           the Atom feed (RFC 4287) of the tournaments (made,
 *                       begun, ended with the winner), the open challenges
 *                       and the players seeking games
 *   tournaments.txt     what the tournament pages were made from, with each
 *                       file's inode, mtime and size: after any change only
 *                       the tournaments whose file changed are made again
 *   open.txt            the open challenges, kept from the commits of their
 *                       boards
 *   boards.txt          one tab-separated line per board: what index.html and
 *                       the player pages are made from, so that one move
 *                       does not read every game file
 * The pages are made from the template web.html of the templates directory.
 *
 * Pages are written atomically (a temp file ".NAME.PID.tmp" beside the
 * page, then rename), so a reader sees the old page or the new one, whole;
 * a page whose text did not change is not written at all.  They are not
 * fsync'ed: the site is derived from the game files, and `oustpbm web`
 * rebuilds it whole.  Writers take the lock file DIR/.lock, waiting at most
 * lock_timeout_ms.
 */
#ifndef OUSTPBM_WEB_H
#define OUSTPBM_WEB_H

#include <stddef.h>

#include "base/config.h"
#include "commands/pipeline/server.h"
#include "commands/pipeline/status.h"
#include "game/game.h"
#include "store/store.h"

#define WEB_RECENT 50		/* finished boards on the index */
#define WEB_INDEX_ACTIVE 100	/* boards being played on the index: the latest moved */
#define WEB_SHARD 500		/* boards on one page of the full list */
#define WEB_ERR_MAX 1200

/*
 * The site's functions return (status.h) PROCESS_OK, PROCESS_NOMEM,
 * PROCESS_IOERR (a page or directory could not be read or written),
 * PROCESS_TEMPFAIL (the site's lock was not obtained in time),
 * PROCESS_CONFIG (no web.html template, or a malformed one) or
 * PROCESS_DATAERR (the store could not be read).
 */


struct web;

/*
 * Open the site dir (relative to the store's home unless absolute; created,
 * one level, if missing) for cfg's store st.  The caller owns *out
 * (web_close); on failure *out is NULL and err says why.
 */
enum process_status web_open(const struct config *cfg, struct store *st, const char *dir, struct web **out,
    char *err, size_t errlen);
void web_close(struct web *w);
const char *web_error(const struct web *w);
/* Pages written (not counting those left alone as unchanged) since web_open. */
size_t web_pages_written(const struct web *w);

/*
 * After a commit of g: its board page, the pages of its turns that are new
 * since the last update (and of the one before, whose "next" link is new),
 * its line of boards.txt, index.html and its players' pages.
 */
enum process_status web_update(struct web *w, const struct game *g);

/* Every page of every board of the store, and boards.txt anew. */
enum process_status web_build(struct web *w);

/*
 * standings.html rewritten into cfg->web_dir when it is set, after an
 * account was closed (signoff, deluser: it leaves the standings); a
 * failure is said as web_after_commit() says it.
 */
void web_standings_after(struct server *srv);

/*
 * The pages of the tournaments whose file changed (and of their boards
 * made or ended meanwhile), tournaments.html and the feed, into
 * cfg->web_dir when it is set (cleanup, after the tournaments settled); a
 * failure is said as web_after_commit() says it.
 */
void web_tournaments_after(struct server *srv);

/*
 * After a commit of g: web_update() into cfg->web_dir when it is set.  A
 * failure is said on standard error and in the log and changes nothing
 * else: the move stands, and `oustpbm web` rebuilds the site.
 */
void web_after_commit(struct server *srv, const struct game *g);

#endif
