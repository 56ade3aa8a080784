/*
 * web_int: what the parts of the web site share (web.c: the site, its
 * files and boards.txt; web_pages.c: the pages; web_update.c: the site
 * written whole or after a change).  Private to them: callers use web.h.
 */
#ifndef OUSTPBM_WEB_INT_H
#define OUSTPBM_WEB_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "commands/services/web.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/tourn.h"

#define WEB_FEED "feed.atom"		/* the Atom feed (RFC 4287), at the site's root */
#define WEB_TOURNS "tournaments.txt"	/* what the tournament pages were made from (web_tourn.c) */
#define WEB_OPEN "open.txt"		/* the open challenges (web_feed.c) */

#define WEB_WINNERS_MAX 200

/* One tournament as tournaments.txt keeps it: what the index and the feed need. */
struct web_tsum {
	unsigned id;
	char sig[80];		/* its file's inode, mtime and size: a changed file has a new one */
	enum tourn_format format;
	enum tourn_state state;
	bool twice;
	long long created, started, ended;	/* started, ended: 0 until then */
	int nplayers, min_players, max_players;
	char winner[WEB_WINNERS_MAX];	/* "-" until it ends; "ann,bob" when they share the first place */
	char director[IDENT_USERID_MAX + 1];
	char name[TOURN_NAME_MAX + 1];
};

/* One open challenge as open.txt keeps it. */
struct web_open {
	long board;
	long long created;
	char challenger[GAME_NAME_SIZE];
	char seat[8];		/* the open seat: "Black" or "White" */
	char what[GAME_DIMENSIONS_SIZE + 40];	/* "7x7, no swap, unrated" */
};

/* One board as boards.txt lists it. */
struct entry {
	long board;
	int size;		/* N, or the side of a hex board */
	bool hex;		/* boards.txt writes its size "hex7" */
	char black[GAME_NAME_SIZE];
	char white[GAME_NAME_SIZE];
	int nturns;
	int turn;		/* the turn in progress, or the last one once over */
	char to_move[GAME_NAME_SIZE];	/* "-" once over */
	long long last_move;
	size_t off, len;	/* its line in the boards.txt read (LF included) */
	char result[GAME_NAME_SIZE + 32];	/* "playing" or how it ended: "won by alice (no-placements)" */
};

struct web {
	const struct config *cfg;
	struct store *st;
	char dir[PATH_MAX];
	char *tmpl;		/* web.html */
	int lockfd;
	size_t written;
	struct entry *e;	/* boards.txt, sorted by board */
	size_t n, alloc;
	char *raw;		/* boards.txt as read */
	size_t rawlen;
	bool clean;		/* every line of raw was read, in order: a changed line can be spliced in */
	bool loaded;		/* boards.txt was read (or made) into e */
	struct web_open *open;	/* open.txt, by board */
	size_t nopen, aopen;
	bool open_read, open_changed;
	char err[WEB_ERR_MAX];
};

/* err from fmt, and s: the status of a failure (web_error() says it). */
enum process_status web_fail(struct web *w, enum process_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The page rel of the site holding text, written only if it changed (web.c). */
enum process_status web_put(struct web *w, const char *rel, const char *text);

/* boards.txt (web.c): the boards of the site, one entry a board. */
void web_entry_of(const struct game *g, struct entry *e);
int web_entry_cmp(const void *a, const void *b);
enum process_status web_entries_add(struct web *w, const struct entry *e);
enum process_status web_summary_load(struct web *w);
enum process_status web_summary_save(struct web *w);
enum process_status web_summary_splice(struct web *w, size_t i, bool inserted);

/* The pages (web_pages.c): web_page() writes rel from the template, content its body. */
enum process_status web_page(struct web *w, const char *rel, const char *root, const char *title,
    const char *content);
enum process_status web_board_page(struct web *w, const struct game *g);
enum process_status web_turn_page(struct web *w, const struct game *g, int k);
enum process_status web_index_page(struct web *w);
enum process_status web_shard_page(struct web *w, long k);
enum process_status web_player_page(struct web *w, const char *userid);
enum process_status web_standings_page(struct web *w);
bool web_has_page(const struct web *w, const char *rel);
/* "2026-11-21 18:41" */
void web_when(long long t, char buf[GAMEFILE_TIME_SIZE]);

/* The tournaments (web_tourn.c): each changed one's page (all: every one), then tournaments.html and the feed. */
enum process_status web_tourns_sync(struct web *w, bool all);
/* Boards a tournament made or ended: their pages, boards.txt, the lists and their players' pages (web_update.c). */
enum process_status web_boards_refresh(struct web *w, const long *boards, size_t n);

/* The open challenges and the feed (web_feed.c). */
enum process_status web_open_load(struct web *w);
/* board is g (an open challenge: listed), or no longer one (g NULL or taken: dropped). */
enum process_status web_open_note(struct web *w, long board, const struct game *g);
/* open.txt written when it changed; entries whose board is gone dropped first. */
enum process_status web_open_save(struct web *w);
/* tournaments.html and feed.atom from the tournaments ts[0..n) and the open challenges. */
enum process_status web_feed_pages(struct web *w, const struct web_tsum *ts, size_t n);
long web_shard_of(long board);

#endif
