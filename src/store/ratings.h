/*
 * ratings: the players' Glicko-2 ratings (glicko.h), one per board class,
 * kept in <home>/ratings, a plain-text file an admin can read (its format:
 * doc/game-file.md, "The ratings file").
 *
 * The file holds every rated result (one "game:" line per finished rated
 * board) and the ratings made from them (one "player:" line per player and
 * class).  The ratings are a function of the results alone, and `oustpbm
 * ratings --rebuild` makes the same file from the finished game files.
 *
 * Incremental: a game's end changes only its two players' ratings in the
 * game's rating period (Glicko-2 rates a period's games against the
 * ratings at its start).  The file's numbers are rounded, so the exact
 * state rides beside it in <home>/ratings-state (RATINGS_STATE_FILE):
 * every player's exact rating, and for the players of the latest period
 * their exact rating as they entered it, tied to the ratings file by a
 * hash of its text.  A new result in the latest period (or a later one)
 * updates the two players from that state alone; anything else (a result
 * of an earlier period, a changed or dropped result, a state that does not
 * match the file: a crash between the two writes, an admin's edit) makes
 * every rating again from all results, and the state with it.  Either way
 * the file is the one --rebuild makes (tests/sh/ratings.sh checks it).
 *
 * Rated: a finished game (won, lost, resigned, lost on time, drawn)
 * between two different players, not challenged with -unrated, in which
 * both made RATINGS_MIN_TURNS turns with placements (a swap is none), or
 * lost on time after the winner had placed: a game resigned at once is
 * no evidence (rating farming, issue 31).  Of the rated games between the
 * same two players in one class and rating period, only the first (by
 * end, then board) counts; the others are listed with "repeat" and count
 * with weight 0 (RATINGS_RULE, README: Ratings).  The robot
 * player is rated at each of its levels as "robot:L".  Board classes:
 * square 5-9 small, 11-13 standard, 15-25 large; hex sides 3-5 hex-small,
 * 6-8 hex-standard, 9-10 hex-large.
 *
 * Rating periods of RATINGS_PERIOD_DAYS days, counted from 1970-01-01
 * 00:00 UTC: a game counts in the period it ended in, and all games of a
 * period are rated together (Glicko-2's rule).  The period in progress is
 * rated as if it ended with its last game, so a result shows at once.
 * A player's deviation grows by one step per period without a game
 * (glicko_idle), counted up to the reader's today.
 *
 * Commit protocol (the game file is the truth; the ratings file follows):
 *   1. ratings_mark(): before a game file that ends a game (or an admin's
 *      edit) is installed, an empty marker ratings-pending/<board> is made
 *      durable with it;
 *   2. the game file is installed (the commit point);
 *   3. ratings_settle(), under ratings.lock: every marked board's game
 *      file is read and its result put in (or taken out of) the ratings
 *      file, written durably; then the markers are removed.
 * A crash before 2 leaves a marker whose game did not end: dropped (once
 * its board's lock shows nobody is committing it).  A crash after 2 leaves
 * the marker: the next settle (the next game's end, `oustpbm cleanup`,
 * `oustpbm ratings`) counts it.  A board's result is one line keyed by its
 * number, so settling twice never counts a game twice.
 *
 * Locks: a board's lock, then ratings.lock; never the other way round
 * (other boards' locks are only tried, never waited for).
 */
#ifndef OUSTPBM_RATINGS_H
#define OUSTPBM_RATINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/glicko.h"
#include "game/game.h"
#include "store/store.h"

#define RATINGS_FILE "ratings"
#define RATINGS_LOCK_FILE "ratings.lock"
#define RATINGS_PENDING_DIR "ratings-pending"
#define RATINGS_FILE_MAX (64L * 1024 * 1024)	/* bytes in the ratings file */
#define RATINGS_PERIOD_DAYS 14			/* a rating period */
#define RATINGS_PERIOD_SECONDS ((int64_t)RATINGS_PERIOD_DAYS * 86400)
#define RATINGS_PROVISIONAL_RD 110.0		/* a deviation above this is provisional */
#define RATINGS_INACTIVE_PERIODS 13		/* periods without a game (half a year): inactive */
#define RATINGS_NAME_SIZE (IDENT_USERID_MAX + 1)	/* "robot:3" fits */
#define RATINGS_ROBOT GAME_ROBOT_USERID	/* the robot rated as one player a level (game.h) */
#define RATINGS_ERR_MAX 700
#define RATINGS_MIN_TURNS 2			/* turns with placements each side makes in a rated game */

enum ratings_class {
	RATINGS_SMALL = 0,
	RATINGS_STANDARD,
	RATINGS_LARGE,
	RATINGS_HEX_SMALL,
	RATINGS_HEX_STANDARD,
	RATINGS_HEX_LARGE,
	RATINGS_NCLASSES
};

enum ratings_standing {
	RATINGS_ESTABLISHED = 0,
	RATINGS_PROVISIONAL,
	RATINGS_INACTIVE
};

/* One rated result: a "game:" line. */
struct ratings_result {
	long board;
	enum ratings_class cls;
	int64_t ended;		/* the game's last-move */
	char black[RATINGS_NAME_SIZE];	/* rated names (ratings_name) of the owners at the end */
	char white[RATINGS_NAME_SIZE];
	enum rules_result result;	/* RULES_BLACK_WINS, RULES_WHITE_WINS or RULES_DRAW */
};

/* One player's rating in one class: a "player:" line. */
struct ratings_player {
	enum ratings_class cls;
	char name[RATINGS_NAME_SIZE];
	struct glicko_rating r;	/* after the player's last period with a game */
	unsigned long games, won, lost, drawn;
	int64_t last;		/* when the player's last rated game ended */
	/* exact values (struct ratings' exact): r and games unrounded, and as the player entered the latest period */
	struct glicko_player now;
	struct glicko_player entered;	/* meaningful when now.last_period == struct ratings' period */
};

struct ratings {
	struct ratings_player *players;	/* by class, then rating (highest first), then name */
	size_t nplayers;
	struct ratings_result *results;	/* by end, then board */
	size_t nresults;
	bool exact;		/* the players' now and entered are exact (computed, or the state file's) */
	int64_t period;		/* the latest period with a result, when exact */
	/* the file's text it was read from (ratings_load), while the only change is one incremental result */
	char *from;
	size_t from_len;
	unsigned adds;		/* results ratings_add_result() put in incrementally since */
	long added;		/* the board of the last one */
};

#define RATINGS_STATE_FILE "ratings-state"

/*
 * The state file's text for r (exact), beside the ratings file's text
 * text[0..len) that ratings_format() made from r; *slen its length.  The
 * caller frees it; NULL out of memory.
 */
char *ratings_state_format(const struct ratings *r, const char *text, size_t len, size_t *slen);

/*
 * The state s[0..slen) (NUL-terminated at slen) into r, parsed from the
 * ratings file's text[0..len): true, and r->exact, if it matches that text
 * and r's players line by line; else false and r as it was.
 */
bool ratings_state_apply(struct ratings *r, const char *text, size_t len, const char *s, size_t slen);

/*
 * Put in the result res of a board not yet in r, updating only its two
 * players when r is exact and res is of the latest period or a later one
 * (*incremental true); otherwise the result is put in as
 * ratings_set_result() does and the caller must ratings_compute().
 * Returns whether r changed.  STORE_TEMPFAIL in *ss out of memory.
 */
bool ratings_add_result(struct ratings *r, const struct ratings_result *res, bool *incremental,
    enum store_status *ss);

const char *ratings_class_name(enum ratings_class c);	/* "standard", "hex-small", ... */
/* A class by name (any case); false if there is none. */
bool ratings_class_parse(const char *s, enum ratings_class *out);
/* What each class holds, for help and errors: "11x11 to 13x13". */
const char *ratings_class_sizes(enum ratings_class c);
enum ratings_class ratings_class_of(const struct game *g);
const char *ratings_standing_str(enum ratings_standing s);	/* "established", ... */

/* True if g, finished or not, is rated: not -unrated, two different players. */
bool ratings_game_rated(const struct game *g);

/*
 * True if the finished game g counts in the ratings: rated, and both sides
 * made RATINGS_MIN_TURNS turns with placements, or it was lost on time
 * after the winner had placed (the rule above).
 */
bool ratings_game_counts(const struct game *g);

/* The rule, for replies, `oustpbm ratings` and the ratings file's header. */
#define RATINGS_RULE_SHORT "a game counts once each player has made 2 turns with placements (or lost on time " \
	"after the opponent played)"
#define RATINGS_STR_(x) #x
#define RATINGS_STR(x) RATINGS_STR_(x)
#define RATINGS_RULE_REPEAT "of the games between the same two players in a class and a rating period of " \
	RATINGS_STR(RATINGS_PERIOD_DAYS) " days, the first counts, the others with weight 0"

/* The rated name of colour c's player on g: its user id, or "robot:L" for the robot. */
void ratings_name(const struct game *g, enum rules_color c, char out[RATINGS_NAME_SIZE]);
/* The result line of a finished rated game g. */
void ratings_result_of(const struct game *g, struct ratings_result *out);

/* The rating period of time t (seconds since the epoch, UTC). */
int64_t ratings_period(int64_t t);
/* The player's rating as of now: its deviation widened by the periods since its last game. */
struct glicko_rating ratings_now(const struct ratings_player *p, int64_t now);
enum ratings_standing ratings_standing(const struct ratings_player *p, int64_t now);

/*
 * Parse the ratings file text (len bytes).  players_only: stop at the first
 * "game:" line (what standings need; the file writes players first).
 * RATINGS_BAD... a parse error is STORE_CORRUPT with err saying
 * "ratings:LINE: what" (err: RATINGS_ERR_MAX bytes); STORE_TEMPFAIL out of
 * memory.  The caller owns *out (ratings_release), also after a failure.
 */
enum store_status ratings_parse(const char *text, size_t len, bool players_only, struct ratings *out,
    char *err);
/* The file's text from r (its players as ratings_compute made them).  The caller owns *text (free). */
enum store_status ratings_format(const struct ratings *r, char **text, size_t *len);
/* Make r's players from its results (sorted here first).  STORE_TEMPFAIL out of memory. */
enum store_status ratings_compute(struct ratings *r);
/* Put in the result of res->board (replacing one there); true if r changed. */
bool ratings_set_result(struct ratings *r, const struct ratings_result *res, enum store_status *ss);
/* Take out the result of board; true if there was one. */
bool ratings_drop_result(struct ratings *r, long board);
void ratings_release(struct ratings *r);

/* The player name in class cls, or NULL. */
const struct ratings_player *ratings_find(const struct ratings *r, enum ratings_class cls, const char *name);

/*
 * The ratings line of the board mails of g, into buf (size bytes), ending
 * in a newline: "Ratings (standard): alice 1623 (deviation 78), bob 1500
 * (new).", or for a finished rated game the change its result makes,
 * "Ratings (standard): alice 1600 -> 1623 (+23), bob 1512 -> 1489 (-23).",
 * or "This game is not rated.".  r holds the file's players and, for a
 * finished game, its results too (ratings_load with players_only false).
 * STORE_TEMPFAIL out of memory.
 */
enum store_status ratings_mail_text(const struct ratings *r, const struct game *g, int64_t now, char *buf,
    size_t size);

/* --- the store (the protocol above); err gets what failed, RATINGS_ERR_MAX bytes --- */

/* Step 1: mark board, durably (under store_defer_begin the caller's next store_sync makes it so). */
enum store_status ratings_mark(struct store *st, long board, char *err);

/* Step 3: settle every marked board.  Harmless when nothing is marked. */
enum store_status ratings_settle(struct store *st, unsigned long timeout_ms, char *err);

/*
 * For whoever writes a game file: ratings_before_commit() marks g's board
 * when g is a finished rated game (else does nothing); a failure must stop
 * the commit (err says why).  ratings_after_commit() settles; a failure is
 * told on standard error and in the log (store_complain) and changes
 * nothing else: the mark stays for the next settle.
 */
enum store_status ratings_before_commit(struct store *st, const struct game *g, char *err);
/* The commit ratings_before_commit() prepared did not happen: its mark removed (the board's lock held). */
void ratings_cancel(struct store *st, const struct game *g);
void ratings_after_commit(struct store *st, unsigned long timeout_ms);

/* The ratings file made anew from every finished game file, then the marks settled. */
enum store_status ratings_rebuild(struct store *st, unsigned long timeout_ms, char *err);

/*
 * ratings_mail_text() from the store: an unreadable ratings file gives ""
 * (the mail goes without the line; the failure is complained about).
 */
void ratings_mail_line(struct store *st, const struct game *g, int64_t now, char *buf, size_t size);
#define RATINGS_LINE_MAX 240

/* Read the ratings file (none yet: empty ratings).  The caller owns *out (ratings_release). */
enum store_status ratings_load(struct store *st, bool players_only, struct ratings *out, char *err);

#endif
