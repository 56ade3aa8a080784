/*
 * tourn: a tournament (a round robin, a Swiss, a knockout or a ladder) as
 * values: its players, its games and their results, and the rules that
 * pair them, score them and rank them (doc/players.md: Tournaments).
 * Pure logic: no files, no mail, no clock (callers pass the time).  The
 * store reads and writes it as tournaments/<n> (store/tournfile.h); the
 * commands start the boards of the games it adds and tell it the results.
 *
 * Colours: Black moves first in Oust, so Black here is chess's White in
 * the FIDE tables (handbook C.05, Annex 1: the Berger tables).
 * Scores are kept in half points (2 a win, 1 a draw, 0 a loss) and the
 * tie-breaks (Sonneborn-Berger, Buchholz) in quarter points, so that no
 * float is ever compared.
 */
#ifndef OUSTPBM_TOURN_H
#define OUSTPBM_TOURN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ident.h"

#define TOURN_NAME_MAX 80		/* bytes of a tournament's name */
#define TOURN_OPTIONS_MAX 200		/* bytes of its board options (the challenge's) */
#define TOURN_PLAYERS_MAX 200		/* players in one tournament */
#define TOURN_DIVISION_MAX 10		/* players in one round-robin division (AbstractPlay's rule) */
#define TOURN_ROUNDS_MAX 20		/* Swiss rounds */
#define TOURN_REACH_DEFAULT 3		/* ladder: places one may challenge upwards */
#define TOURN_IDLE_DEFAULT 30		/* ladder: days without a ladder game before the drop */
#define TOURN_ERR_MAX 200		/* bytes of an error message */

enum tourn_format {
	TOURN_ROUNDROBIN = 0,
	TOURN_SWISS,
	TOURN_KNOCKOUT,
	TOURN_LADDER
};

enum tourn_state {
	TOURN_OPEN = 0,		/* taking players */
	TOURN_RUNNING,
	TOURN_FINISHED
};

enum tourn_result {
	TOURN_PENDING = 0,	/* being played (or its board not started yet) */
	TOURN_BLACK_WINS,	/* "1-0" */
	TOURN_WHITE_WINS,	/* "0-1" */
	TOURN_DRAW,		/* "1/2" */
	TOURN_BLACK_FORFEIT,	/* "+-": Black wins by forfeit, White left */
	TOURN_WHITE_FORFEIT,	/* "-+": White wins by forfeit, Black left */
	TOURN_ANNULLED,		/* a leaver's game, counted for nobody */
	TOURN_BYE		/* no opponent (white is -1) */
};

/* One entrant. */
struct tourn_player {
	char userid[IDENT_USERID_MAX + 1];
	int rating;		/* at the start (the seeding), rounded */
	int robot;		/* the robot's level when the robot plays, else 0 */
	int seed;		/* 1 = the highest rated (in its division); 0 before the start */
	int division;		/* round robin: 1 = the strongest; else 1 */
	int place;		/* ladder: 1 = the top; else 0 */
	bool left;		/* withdrew or was removed */
	bool annulled;		/* left before half their games: every result annulled */
	int64_t last;		/* ladder: the last game's end (or the join), for the idle drop */
};

/* One game of a round, or a bye. */
struct tourn_game {
	int round;		/* 1, 2, ...; a ladder's games count up */
	int division;		/* round robin; else 1 */
	int slot;		/* knockout: the match's place in the bracket; else its table */
	int black, white;	/* player indices; white is -1 for a bye */
	long board;		/* its board, 0 until started */
	enum tourn_result result;
};

struct tourn {
	unsigned id;		/* T<id> */
	enum tourn_format format;
	enum tourn_state state;
	char name[TOURN_NAME_MAX + 1];
	char director[IDENT_USERID_MAX + 1];
	char options[TOURN_OPTIONS_MAX + 1];	/* the board options, as a challenge gives them */
	int min_players, max_players;
	bool twice;		/* round robin -double */
	bool repeat;		/* a new edition with the same players when it ends */
	int edition;		/* 1 for the first; the next edition's is one more */
	unsigned previous;	/* the edition before (T<previous>), 0 for the first */
	unsigned next;		/* the next edition's id, reserved when this one ended (-repeat), else 0 */
	int rounds;		/* Swiss rounds; knockout and round robin: set at the start */
	int reach;		/* ladder */
	int idle_days;		/* ladder */
	int round;		/* the round being played, 0 before the start */
	int mailed;		/* the last round whose pairings were mailed to its players */
	bool final_mailed;	/* the final standings were mailed */
	int64_t created;
	struct tourn_player *players;
	size_t nplayers, aplayers;
	struct tourn_game *games;
	size_t ngames, agames;
};

/* Parse/format names: "roundrobin", "swiss", "knockout", "ladder"; false/NULL when unknown. */
bool tourn_format_parse(const char *s, enum tourn_format *out);
const char *tourn_format_name(enum tourn_format f);
bool tourn_state_parse(const char *s, enum tourn_state *out);
const char *tourn_state_name(enum tourn_state s);
/* "*", "1-0", "0-1", "1/2", "+-", "-+", "annulled", "bye" */
bool tourn_result_parse(const char *s, enum tourn_result *out);
const char *tourn_result_name(enum tourn_result r);

/* A new tournament of format with its defaults; NULL when out of memory.  tourn_free() frees it. */
struct tourn *tourn_new(unsigned id, enum tourn_format format);
void tourn_free(struct tourn *t);

/* The player's index, or -1. */
int tourn_find(const struct tourn *t, const char *userid);

/* Append a player (a ladder's to the bottom); its index, or -1 when out of memory or full. */
int tourn_add_player(struct tourn *t, const char *userid, int rating, int robot);

/* Remove a player before the start (withdraw while open); false if absent or started. */
bool tourn_remove_player(struct tourn *t, int p);

/* Append a game; its index, or -1 when out of memory. */
int tourn_add_game(struct tourn *t, const struct tourn_game *g);

/* The game of board, or -1. */
int tourn_game_of_board(const struct tourn *t, long board);

/*
 * Start: seed the players by rating, make the divisions (round robin over
 * TOURN_DIVISION_MAX), pair the first round (a round robin: every round at
 * once), place a ladder's players.  The games to start are those with
 * board 0 and a white player.  False with why (TOURN_ERR_MAX) when it
 * cannot start (too few players, out of memory).
 */
bool tourn_begin(struct tourn *t, int64_t now, char *why);

/* Games the caller must start a board for (board 0, not a bye, pending), in order; *n of them. */
size_t tourn_to_start(const struct tourn *t, size_t *idx, size_t max);

/*
 * What tourn_result_of() did: nothing more, a new round paired (boards to
 * start), or the end (final standings to mail).
 */
enum tourn_step {
	TOURN_STEP_NONE = 0,
	TOURN_STEP_ROUND,
	TOURN_STEP_END
};

/*
 * The game on board ended with result (a board's result: 1-0, 0-1, 1/2):
 * recorded, then the round's next step taken when it was its last game
 * (the next Swiss or knockout round paired, a knockout draw replayed with
 * colours reversed, the ladder's places changed, or the end).  now is the
 * ladder's clock.  *step says what happened.  False when no game of t is
 * on that board or it has its result already.
 */
bool tourn_result_of(struct tourn *t, long board, enum tourn_result result, int64_t now, enum tourn_step *step);

/*
 * Player p leaves (withdraws, or is removed by the director): before half
 * of their games are played every result of theirs is annulled, after it
 * their unplayed games are lost by forfeit (a pending board's game too:
 * the caller ends those boards).  *step as for tourn_result_of.
 */
void tourn_leave(struct tourn *t, int p, enum tourn_step *step);

/* The board of a pending game was deleted (delboard): the game annulled, the round's next step taken. */
bool tourn_board_gone(struct tourn *t, long board, enum tourn_step *step);

/* The games p has played (a result on the board, no bye, no forfeit) and the games p is to play in all. */
void tourn_player_games(const struct tourn *t, int p, int *played, int *total);

/*
 * Ladder: may challenger challenge target (places, reach, one open ladder
 * game each)?  False with why.
 */
bool tourn_ladder_may(const struct tourn *t, int challenger, int target, char *why);

/* Ladder: players idle past idle_days at now drop to the bottom (in their order); how many dropped. */
int tourn_ladder_idle(struct tourn *t, int64_t now);

/* One line of the standings. */
struct tourn_row {
	int player;
	int rank;		/* 1, 2, ...; equal for players tied on everything */
	int score2;		/* half points */
	long tb1, tb2;		/* quarter points: round robin SB and direct game (half points), Swiss Buchholz and SB */
	int games;		/* played or forfeited, byes not counted */
};

/*
 * The standings of division (round robin; 1 for the others), best first,
 * into rows (room for t->nplayers); the count.  Ladder: by place; knockout:
 * the round reached, then the seed.
 */
size_t tourn_standings(const struct tourn *t, int division, struct tourn_row *rows);

/* Divisions of t (1 unless a round robin of more than TOURN_DIVISION_MAX). */
int tourn_divisions(const struct tourn *t);

/* Half points p scored (against the unannulled, byes as the format counts them). */
int tourn_score2(const struct tourn *t, int p);

struct strbuf;
/* The standings (and a round robin's crosstable) of every division as text, for mail and `tournament <id>`. */
void tourn_text_standings(const struct tourn *t, struct strbuf *out);
/* The pairings of the current round (round robin: all rounds), with boards. */
void tourn_text_pairings(const struct tourn *t, struct strbuf *out);
/* The pairings of player p only (their start mail). */
void tourn_text_player_pairings(const struct tourn *t, int p, struct strbuf *out);
/* A score as text: "3", "2.5", "0.5" (half points). */
void tourn_text_score(int score2, char buf[16]);

/* Internal, for the pairing module (tourn_pair.c). */
bool tourn_pair_roundrobin(struct tourn *t);
bool tourn_pair_swiss(struct tourn *t, int round);
bool tourn_pair_knockout(struct tourn *t, int round);
int tourn_winner(const struct tourn_game *g);
bool tourn_played(const struct tourn *t, int a, int b);
int tourn_blacks(const struct tourn *t, int p, int *last);

#endif
