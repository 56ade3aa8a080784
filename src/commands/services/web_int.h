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
	char err[WEB_ERR_MAX];
};

/* err from fmt, and s: the status of a failure (web_error() says it). */
enum web_status web_fail(struct web *w, enum web_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The page rel of the site holding text, written only if it changed (web.c). */
enum web_status web_put(struct web *w, const char *rel, const char *text);

/* boards.txt (web.c): the boards of the site, one entry a board. */
void web_entry_of(const struct game *g, struct entry *e);
int web_entry_cmp(const void *a, const void *b);
enum web_status web_entries_add(struct web *w, const struct entry *e);
enum web_status web_summary_load(struct web *w);
enum web_status web_summary_save(struct web *w);
enum web_status web_summary_splice(struct web *w, size_t i, bool inserted);

/* The pages (web_pages.c). */
enum web_status web_board_page(struct web *w, const struct game *g);
enum web_status web_turn_page(struct web *w, const struct game *g, int k);
enum web_status web_index_page(struct web *w);
enum web_status web_shard_page(struct web *w, long k);
enum web_status web_player_page(struct web *w, const char *userid);
enum web_status web_standings_page(struct web *w);
bool web_has_page(const struct web *w, const char *rel);
long web_shard_of(long board);

#endif
