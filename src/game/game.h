/*
 * game: one Oust board as the server keeps it (Oust, by Mark Steere).
 *
 * A struct game holds the board's settings, its two players, the current
 * turn state (struct rules_game) and the history of every turn.  The rules
 * themselves live in rules.c; this module adds who plays which colour, the
 * pie rule's exchange of names (doc/rules.md, "swap"), resignation,
 * loss on time, and the record of turns that the game file stores.
 *
 * Turns are numbered from 1; passes, the swap, a resignation and a timeout
 * each count as a turn.  While a game runs, rg.turn is the number of the
 * turn in progress, nturns + 1.  The server records automatic passes in the
 * history itself, one entry each, right after the turn that caused them.
 *
 * No I/O and no clock: callers pass the time ("now", seconds since the
 * epoch, UTC).  The game owns its history arrays; game_release() frees them.
 */
#ifndef OUSTPBM_GAME_H
#define OUSTPBM_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"
#include "game/game_status.h"
#include "game/rules.h"

#define GAME_THREAD_MAX 250	/* characters in a thread Message-ID */
#define GAME_MAX_TURNS 1000000	/* a history longer than this is refused */
#define GAME_NAME_SIZE (IDENT_USERID_MAX + 1)
#define GAME_ROBOT_USERID "robot"	/* the server's robot player (commands/services/robot.h) */
#define GAME_ROBOT_LEVEL_MIN 1	/* the robot's levels (robot.h checks them against ai.h) */
#define GAME_ROBOT_LEVEL_MAX 5
#define GAME_OPEN_SEAT "*"	/* the seat of an open challenge nobody has taken yet (never a user id) */
#define GAME_OBSERVERS_MAX 32	/* observers of one board (subscribe, notify) */
#define GAME_REMIND_DAYS_MAX 365	/* a board's own time limits, as config.h's remind_days, timeout_days */
#define GAME_TIMEOUT_DAYS_MAX 3650
#define GAME_QUEUE_MAX 1500	/* bytes of a queue of conditional turns, canonical text */
#define GAME_PENDING_MAX 2600	/* bytes of a pending part of a turn: 625 placements of 3 and commas */
#define GAME_QUEUE_LINES 20	/* lines of a queue */
#define GAME_QUEUE_POINTS 32	/* placements on either side of a line */
#define GAME_CHATS_MAX 2000	/* chat notes in one board's history (about 80 KB of its file) */

enum game_action {
	GAME_PLACE = 0,		/* one or more placements */
	GAME_PASS,		/* automatic pass: no placement was available */
	GAME_SWAP,		/* pie rule: White's first turn, names exchange */
	GAME_RESIGN,
	GAME_TIMEOUT		/* loss on time, recorded by the server */
};

/* Why a finished game ended. */
enum game_end {
	GAME_END_NONE = 0,	/* still playing */
	GAME_END_CAPTURE,	/* the last enemy stones were removed */
	GAME_END_RESIGN,
	GAME_END_TIMEOUT,
	GAME_END_NO_PLACEMENTS,	/* neither side could place: a draw */
	GAME_END_AGREEMENT	/* both players agreed a draw (propose, accept) */
};

/*
 * Undo and draw by agreement (pbmserv's move ... undo|propose|accept|reject):
 * an offer and its answer are notes in the history, between the turns; they
 * are not turns, so the numbering, the colours and the replay of the turns
 * stay as they were.  An offer is open while it is the last offer or answer
 * and no turn came after it: either side's turn lets it lapse.
 *
 * A chat (the mail command chat) is a note too: who wrote to the board's
 * other readers, and when, never the text (that went by mail and stays
 * there).  It is no turn, no offer and no answer: it neither opens, closes
 * nor hides an offer, and it may follow the end of the game.  Its note is
 * what makes the chat a change of the game file, committed with its mails
 * (outbox.h), so that a chat is passed on once whatever crashes.
 */
enum game_note_kind {
	GAME_NOTE_UNDO = 0,	/* asks to take back the player's last turn */
	GAME_NOTE_PROPOSE,	/* offers a draw */
	GAME_NOTE_ACCEPT,	/* accepts the open offer */
	GAME_NOTE_REJECT,	/* declines it */
	GAME_NOTE_CHAT		/* the player chatted (chat): no offer, no answer */
};

struct game_note {
	int after;		/* the turns played before it: it stands after turn `after` */
	enum game_note_kind kind;
	bool undo;		/* ACCEPT, REJECT: the answer to an undo (else to a draw) */
	int undo_from;		/* ACCEPT of an undo: the first turn taken back (the history now ends before it) */
	enum rules_color color;	/* the side of the player then */
	char player[GAME_NAME_SIZE];
	int64_t time;
};

/*
 * Someone who follows a board without playing it: every board mail as a
 * read-only view (subscribe), or only the final one (notify: results).
 */
struct game_observer {
	char userid[GAME_NAME_SIZE];
	bool results;		/* notify: only the mail that ends the game */
};

/* One history entry. */
struct game_turn {
	int number;		/* from 1 */
	enum rules_color color;	/* whose stones: RULES_BLACK or RULES_WHITE */
	char player[GAME_NAME_SIZE];	/* who owned that colour then */
	enum game_action action;
	int64_t time;		/* seconds since the epoch, UTC */
	int npoints;		/* placements, GAME_PLACE only */
	size_t first;		/* index of its first placement in game.points */
};

struct game {
	long board;		/* board id, IDENT_BOARD_MIN.. */
	enum rules_shape shape;	/* square (the default) or hex */
	int size;		/* square: N; hex: the side S */
	bool swap;		/* pie rule on */
	char black[GAME_NAME_SIZE];	/* current owner of the black stones */
	char white[GAME_NAME_SIZE];
	struct rules_game rg;	/* the current turn state; rg.result is the result */
	enum game_end end;
	int64_t created;
	int64_t last_move;
	int64_t remind;		/* when `oustpbm cleanup` next reminds the player to move; 0: not set */
	char thread[GAME_THREAD_MAX + 1];	/* Message-ID for mail threading, may be "" */
	int robot_level;	/* the robot player's level (robot.h), 0: not given */
	bool unrated;		/* challenged with -unrated: its result changes no rating */
	unsigned tournament;	/* the tournament it is a game of (T<n>, store/tourns.h), 0: none */
	bool opened;		/* began as an open challenge, since taken (game_take_seat) */
	struct game_observer observers[GAME_OBSERVERS_MAX];	/* in the order they came */
	int nobservers;
	int remind_days;	/* its own remind_days (challenge -remind=), 0: the configuration's */
	int timeout_days;	/* its own timeout_days (challenge -timeout=), 0: the configuration's */
	/* its clocks (challenge -clock=D+I/C: game/gameclock.h), seconds; clock_base 0: none (timeout-days) */
	int64_t clock_base, clock_inc, clock_cap;
	int64_t clock_left[2];	/* black's, white's time left as of last_move */
	int clock_warned;	/* the smallest warn mark (hours) the player to move was warned of, 0: none */
	bool weekends;		/* challenge -weekends: the clocks stop at weekends */
	/* not in the file: how the clocks stood when read (gameclock_mark) */
	int64_t clock_at;
	char clock_names[2][GAME_NAME_SIZE];	/* black, white then */
	char clock_mover[GAME_NAME_SIZE];	/* the player to move then, "" for none */
	int clock_turns;	/* the turns of the history then */
	struct game_turn *turns;	/* history, turns[i].number == i + 1 */
	int nturns;
	int alloc_turns;
	int *points;		/* placements of every PLACE turn, in order (rules cells) */
	size_t npoints;
	size_t alloc_points;
	char queue_owner[GAME_NAME_SIZE];	/* conditional turns: whose, "" for none (game_queue_*) */
	char queue[GAME_QUEUE_MAX + 1];	/* their canonical text, "E5=>F6,G7;swap=>C3" */
	/*
	 * The pending part of the turn in progress, "D4,E5" (the game file's
	 * pending: key), "" for none: placements of the player to move sent
	 * by reply token that stopped after a capture (commands/pipeline/replytoken.h).
	 * Not applied to rg: everyone but the mover sees the position before
	 * the turn.  Any turn played, or taken back, drops it.
	 */
	char pending[GAME_PENDING_MAX + 1];
	struct game_note *notes;	/* offers, answers and chats, in order (after never decreases) */
	int nnotes;
	int alloc_notes;
};

/*
 * A new game on an empty board: size must satisfy rules_size_ok(), black and
 * white valid user ids (ident_userid_ok(); stored lower-cased), board in
 * IDENT_BOARD_MIN..IDENT_BOARD_MAX, now >= 0.  Black moves first.
 */
void game_init(struct game *g, long board, int size, bool swap, const char *black,
    const char *white, int64_t now);
/* A board's form: its shape and size (rules_shape_ok() must hold), and whether the swap is on. */
struct game_form {
	enum rules_shape shape;
	int size;
	bool swap;
};

/* The same on a board of either shape, of form f. */
void game_init_shape(struct game *g, long board, const struct game_form *f, const char *black, const char *white,
    int64_t now);
/* Free the history; g is left empty and may be released again. */
void game_release(struct game *g);

/*
 * A whole turn by player: n placements (rules cells, see rules_parse_point)
 * checked and applied together by rules_game_turn().  rep (may be NULL)
 * gets the rules' report; with GAME_ILLEGAL_TURN it says what was wrong.
 * On success the turn is appended to the history, followed by one entry per
 * automatic pass, and the result and end are set if the game ended.  On any
 * failure g is unchanged.
 */
enum game_status game_move(struct game *g, const char *player, const int *points, int n,
    int64_t now, struct rules_turn_report *rep);

/*
 * undo: player asks to take back their last turn (the last turn that is not
 * a pass must be theirs; the passes after it go with it).  GAME_OFFER_OPEN
 * while an offer waits, GAME_NOTHING_TO_UNDO, GAME_EDITED when the
 * history does not lead to the position (an admin's edit: taking back would
 * lose it).  The note is added; nothing else changes.
 */
enum game_status game_ask_undo(struct game *g, const char *player, int64_t now);
/* propose: player offers a draw (GAME_OFFER_OPEN while an offer waits). */
enum game_status game_propose(struct game *g, const char *player, int64_t now);
/*
 * accept: player, the opponent of the one who made the open offer, agrees.
 * An undo takes back the turns from the offerer's last one on (the position
 * is the history's, replayed; the offerer is to move, its clock restarted
 * at now); a draw ends the game, drawn by agreement.  GAME_NO_OFFER,
 * GAME_OWN_OFFER, GAME_EDITED.
 */
enum game_status game_accept(struct game *g, const char *player, int64_t now);
/* reject: player declines the opponent's open offer (GAME_NO_OFFER, GAME_OWN_OFFER). */
enum game_status game_reject(struct game *g, const char *player, int64_t now);
/* The open offer, or NULL (none, or the game is over). */
const struct game_note *game_open_offer(const struct game *g);
/* The last offer or answer of the history (chats passed over), or NULL. */
const struct game_note *game_last_offer_note(const struct game *g);
/*
 * chat: player, a player of g, chatted at now: the note is added, nothing
 * else changes (the turn, the clocks, an open offer).  Allowed once the game
 * is over too.  GAME_NOT_PLAYER; GAME_CHATS_FULL once the history holds
 * GAME_CHATS_MAX chats (a cap, so that no player can grow a game file past
 * what the store reads); GAME_NO_MEMORY.
 */
enum game_status game_chat(struct game *g, const char *player, int64_t now);
/* The turn an undo by player would take back, or 0 if there is none. */
int game_undo_turn(const struct game *g, const char *player);
/*
 * Append a note as it stands (for the game file codec): n->after must be
 * nturns and not less than the last note's.  GAME_NO_MEMORY leaves g unchanged.
 */
enum game_status game_note_add(struct game *g, const struct game_note *n);
const char *game_note_str(enum game_note_kind k);	/* "undo", "propose", "accept", "reject", "chat" */

/* Pie rule: White's player swaps as White's first turn; the names exchange, then White moves. */
enum game_status game_swap(struct game *g, const char *player, int64_t now);

/* player resigns (at any time, on either side's turn): the other side wins. */
enum game_status game_resign(struct game *g, const char *player, int64_t now);

/* The player to move, player, loses on time. */
enum game_status game_timeout(struct game *g, const char *player, int64_t now);

/*
 * The colour name plays, or RULES_EMPTY if name is not a player here.
 * Someone playing against themselves gets RULES_BLACK.
 */
enum rules_color game_color_of(const struct game *g, const char *name);
/* The current owner of colour c (RULES_BLACK or RULES_WHITE). */
const char *game_player_of(const struct game *g, enum rules_color c);
/* The player to move, or NULL once the game is over. */
const char *game_player_to_move(const struct game *g);

/*
 * An open challenge: one seat is GAME_OPEN_SEAT, waiting for anyone to
 * accept it; nobody plays on it until then.
 */
bool game_is_open(const struct game *g);
/* The challenger of an open challenge (the seat that is taken); g must be open. */
const char *game_open_challenger(const struct game *g);
/* userid takes the open seat of g (game_is_open(g); userid valid, not the challenger's). */
void game_take_seat(struct game *g, const char *userid);

/* The index of userid among g's observers, or -1. */
int game_observer_find(const struct game *g, const char *userid);
/*
 * Add userid (valid, folded) as an observer (results: notify only); false
 * when GAME_OBSERVERS_MAX are there already.  The caller checks it is not
 * there yet.
 */
bool game_observer_add(struct game *g, const char *userid, bool results);
/* Remove observer i (0 <= i < nobservers), keeping the others' order. */
void game_observer_remove(struct game *g, int i);

/* True if userid is the robot player's, GAME_ROBOT_USERID (case-insensitive). */
bool game_user_is_robot(const char *userid);
static inline bool game_over(const struct game *g)
{
	return g->rg.result != RULES_PLAYING;
}

/*
 * Append one history entry as it stands, with no rule applied (for the game
 * file codec, which reads the position from the file).  t->number must be
 * nturns + 1; points holds t->npoints placements for a PLACE entry (t->first
 * is set here).  GAME_NO_MEMORY leaves g unchanged.
 */
enum game_status game_history_add(struct game *g, const struct game_turn *t, const int *points);

/* The placements of turn t (its points, in g->points). */
static inline const int *game_turn_points(const struct game *g, const struct game_turn *t)
{
	/* no placement yet: no array (NULL + 0 is undefined behaviour in C) */
	return g->points != NULL ? g->points + t->first : NULL;
}

/*
 * The placements of turn number k (1..nturns) if it is a PLACE turn: *out
 * points into g->points.  Returns how many, 0 for any other turn or k.
 */
int game_turn_placements(const struct game *g, int k, const int **out);
/* The placements of the last history entry if it is a PLACE turn (else 0): the upper-case stones. */
int game_last_placements(const struct game *g, const int **out);

/* The position after some turn, rebuilt from the history by game_replay(). */
struct game_replay {
	struct rules_game rg;	/* the turn state after turn upto */
	char black[GAME_NAME_SIZE];	/* owners of the colours then (before or after a swap) */
	char white[GAME_NAME_SIZE];
	int bad_turn;		/* GAME_BAD_HISTORY: the entry that failed, from 1 */
	struct rules_turn_report rep;	/* for an illegal PLACE entry */
	char why[160];		/* GAME_BAD_HISTORY: what is wrong, e.g. "turn 7: E5: the point is occupied" */
};

/*
 * What each placement of the history removed: for placement i (its index
 * in game.points), the stones stones[first[i] .. first[i] + n[i]), in board
 * order; n[i] is 0 for a non-capturing placement.  A stone is captured at
 * most once after it was placed, so stones needs no more room than the
 * placements.  Owned by the caller: game_captures_release().
 */
struct game_captures {
	size_t *first;
	int *n;
	int *stones;
};

/*
 * Fill out from g's placements, replayed on an empty board.  Only the
 * stones are followed (the turn order is game_replay()'s business): a
 * placement that is not legal where it stands gives GAME_BAD_HISTORY.
 * GAME_NO_MEMORY when out of memory.
 */
enum game_status game_captures(const struct game *g, struct game_captures *out);
void game_captures_release(struct game_captures *c);

/*
 * Replay the history from an empty board up to and including turn upto
 * (0..nturns; 0 is the empty board).  Every entry is checked: numbering,
 * colour, player, legality, that passes are recorded exactly where the
 * rules make them, swap and the end.  Returns GAME_OK, GAME_BAD_TURN_NUMBER
 * or GAME_BAD_HISTORY (out->bad_turn and out->why say where and why).
 */
enum game_status game_replay(const struct game *g, int upto, struct game_replay *out);

/*
 * Replay the whole history and compare with the stored position, side to
 * move, turn, result and end (what fsck does); the history's players must
 * be the game's.  GAME_POSITION_DIFFERS with
 * out->why naming the first difference; the board is authoritative on load,
 * so this is how an edited position shows up.
 */
enum game_status game_verify(const struct game *g, struct game_replay *out);

/*
 * The board's time limits: its own days (a challenge's -remind=, -timeout=),
 * else dflt (the configuration's remind_days, timeout_days); 0: none.
 */
unsigned long game_remind_days(const struct game *g, unsigned long dflt);
unsigned long game_timeout_days(const struct game *g, unsigned long dflt);
#define GAME_DAY 86400		/* seconds in a day of the time limits */
#define GAME_TIME_MAX INT64_C(253402300799)	/* 9999-12-31T23:59:59Z, the last time a game file holds */
/* t + secs (secs >= 0), no later than GAME_TIME_MAX: a deadline past 9999 is never reached. */
int64_t game_time_add(int64_t t, int64_t secs);
/*
 * When the player to move on g loses on time: its last turn plus
 * game_timeout_days(g, dflt) days (never past the latest time a game file
 * holds); 0 when there is no limit or g is over.
 */
int64_t game_timeout_at(const struct game *g, unsigned long dflt);

/*
 * Conditional turns (the mail command queue): a list of answers to the
 * opponent's next turn, held by the player who is not to move.  Each line
 * is the opponent's turn (its placements in order, or a swap) and the
 * owner's answer (placements).  Text: lines joined by ';', each "THEIR =>
 * MINE", placements joined by commas, blanks allowed around the
 * separators; the canonical form has no blanks and the board's names
 * ("E5=>F6,G7;swap=>C3").
 */
struct game_queue_line {
	bool swap;		/* their turn is the swap */
	int ntheir, nmine;
	int their[GAME_QUEUE_POINTS], mine[GAME_QUEUE_POINTS];
};

struct game_queue {
	int n;
	struct game_queue_line line[GAME_QUEUE_LINES];
};

/*
 * Parse text into *out on g's board.  False with why ("line 2: 'Z9' is not
 * a point of the 5x5 board", "line 1: '=>' is missing between their turn
 * and yours") if it is not a queue; line numbers from 1.
 */
bool game_queue_parse(const struct game *g, const char *text, struct game_queue *out, char *why, size_t size);
/* The canonical text of q into buf (GAME_QUEUE_MAX + 1 bytes); false if it does not fit. */
bool game_queue_format(const struct game *g, const struct game_queue *q, char *buf, size_t size);
/* Does line l answer the turn history entry t (of g) just played? */
bool game_queue_matches(const struct game *g, const struct game_queue_line *l, const struct game_turn *t);
/* Drop g's queue. */
void game_queue_clear(struct game *g);

/*
 * The pending part of g's turn in progress as rules cells into points
 * (room for RULES_MAX_POINTS), *n of them, and the position after it into
 * *after (may be NULL); false (why in buf) if it does not parse or does
 * not play as a begun turn: every placement legal, the turn not over.
 */
bool game_pending_points(const struct game *g, int *points, int *n, struct rules_game *after, char *why, size_t size);

/* ---- names ---- */
#define GAME_DIMENSIONS_SIZE 16
/*
 * The board's shape and size as replies say it, "11x11" or "hex side 7",
 * or with brief as tables list it (one word): "11x11" or "hex7".  Returns buf.
 */
const char *game_dimensions(const struct game *g, bool brief, char buf[GAME_DIMENSIONS_SIZE]);
const char *game_action_str(enum game_action a);	/* "place", "pass", "swap", ... */
const char *game_end_str(enum game_end e);	/* "capture", "resign", "timeout", "no-placements", "agreement" */

/*
 * The specific message for status s of a request by player on g, such as
 * "it is bob's turn", "carol is not playing on board 101", "board 101 is
 * over".  For GAME_ILLEGAL_TURN give the points and rep of game_move() to
 * say which placement and why ("F5: the point is occupied"); they may be
 * NULL otherwise.  Writes at most size bytes to buf; returns buf.
 */
const char *game_status_message(const struct game *g, enum game_status s, const char *player,
    const int *points, const struct rules_turn_report *rep, char *buf, size_t size);

#endif
