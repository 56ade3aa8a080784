/*
 * gamefile_int: what the parts of the game file codec share
 * (gamefile_parse.c: lines and tokens, the entry points; gamefile_header.c,
 * gamefile_board.c, gamefile_history.c: the parsers; gamefile_check.c: the
 * checks that the parts agree; gamefile_write.c: the writer; gamefile.c
 * itself, the times, needs none of it).  Not for other modules: they use
 * gamefile.h.
 */
#ifndef OUSTPBM_GAMEFILE_INT_H
#define OUSTPBM_GAMEFILE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"

#define QUOTE_SIZE 56
#define CAPTURED "captured:"	/* the optional sixth field of a history line */
#define CAPTURED_LEN 9

/* ---- lines and tokens (gamefile_parse.c) ---- */

struct reader {
	const char *p, *end;
	int line;		/* number of the current line, from 1 */
	const char *s;		/* the current line, without its newline and trailing blanks */
	size_t n;
};

/* "line N: <fmt>" into *err; returns GAME_BAD_FILE. */
enum game_status gamefile_fail(struct gamefile_error *err, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The culprit s[0..n) for a message: at most 48 bytes, anything unprintable as '?'. */
const char *gamefile_quote(char buf[QUOTE_SIZE], const char *s, size_t n);
/* Next line: 1, or 0 at the end of the text, or -1 with err set. */
int gamefile_next_line(struct reader *r, struct gamefile_error *err);
/* Next line that is not blank: 1, 0 at the end, -1 on error. */
int gamefile_next_nonblank(struct reader *r, struct gamefile_error *err);
/* Next blank-separated token of s[*i..n): true with *tok, *tn. */
bool gamefile_token(const char *s, size_t n, size_t *i, const char **tok, size_t *tn);
/* s[0..n) is word. */
bool gamefile_eq(const char *s, size_t n, const char *word);
/* A decimal number without sign or leading zero, at most max; -1 otherwise. */
long gamefile_number(const char *s, size_t n, long max);
/* A user id s[0..n) into name (folded); false if it is not one. */
bool gamefile_userid(const char *s, size_t n, char name[GAME_NAME_SIZE]);

/* ---- the header (gamefile_header.c) ---- */

enum key {
	K_BOARD, K_SIZE, K_SWAP, K_BLACK, K_WHITE, K_STATUS, K_END, K_TO_MOVE, K_TURN,
	K_CREATED, K_LAST_MOVE, K_THREAD, K_REMIND, K_ROBOT_LEVEL, K_SHAPE, K_RATED, K_OPENED, K_OBSERVERS, K_NOTIFY,
	K_REMIND_DAYS, K_TIMEOUT_DAYS, K_QUEUE, K_PENDING, K_CLOCK, K_CLOCK_BLACK, K_CLOCK_WHITE, K_WEEKENDS,
	K_WARNED, K_TOURNAMENT, NKEYS
};

struct header {
	int line[NKEYS];	/* where each key is, 0 if absent */
	enum rules_result result;
	enum rules_color to_move;
	int turn;
};

#define NENDS 6
extern const char *const gamefile_key_names[NKEYS];
extern const char *const gamefile_status_names[4];	/* by enum rules_result */
extern const char *const gamefile_end_names[NENDS];	/* by enum game_end */

/* The header lines up to the blank line after them into *h and *g, checked as a whole. */
enum game_status gamefile_header_parse(struct reader *r, struct header *h, struct game *g,
    struct gamefile_error *err);

/* ---- the clocks (gamefile_clock.c) ---- */

/* The value of clock key k (K_CLOCK .. K_WARNED) into g. */
enum game_status gamefile_clock_value(struct reader *r, enum key k, const char *v, size_t n, struct game *g,
    struct gamefile_error *err);
/* The clock keys of the header h, checked together once it is read. */
enum game_status gamefile_clock_check(const struct header *h, struct game *g, struct gamefile_error *err);
struct strbuf;
/* The clock keys of g, as the header holds them, appended to b. */
void gamefile_clock_write(const struct game *g, struct strbuf *b);

/* ---- the drawing (gamefile_board.c) and the history (gamefile_history.c) ---- */

/* The players' line and the drawing of g's board into *b. */
enum game_status gamefile_board_parse(struct reader *r, const struct game *g,
    struct rules_board *b, struct gamefile_error *err);
/* Whose turn number k is: colours alternate, but the swap (turn 2) is White's and so is turn 3. */
enum rules_color gamefile_history_color(int k, bool swapped);
/* "history:" and its lines into g; *swapped when turn 2 is the swap. */
enum game_status gamefile_history_parse(struct reader *r, struct game *g,
    const struct rules_board *b, bool *swapped, struct gamefile_error *err);

/* ---- the checks (gamefile_check.c) ---- */

/* The header, the drawing b and the history agree; then start the turn state. */
enum game_status gamefile_check_settle(struct game *g, const struct header *h,
    const struct rules_board *b, bool swapped, struct gamefile_error *err);

#endif
