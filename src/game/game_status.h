/*
 * game_status: how a request to the game layer (src/game/) went, the one
 * status type of the layer.  Every module of the layer that can fail
 * returns it: the game and its requests (game.h), the game file and SGF
 * codecs (gamefile.h, sgf.h), the computer player (ai.h), the review
 * (review.h), the solver (solve.h), the drawings and the GTP engine.
 *
 * A status says that a request failed and why, in a few words
 * (game_status_str()); where a parse failed, the line and the detail are
 * in the caller's error struct (struct gamefile_error, struct sgf_error,
 * the review's errbuf) as before.  What is a result rather than a failure
 * keeps its own type: a placement's verdict (enum rules_verdict), a whole
 * turn's (enum rules_turn_verdict), a game's result, a preview's outcome,
 * a solved position's value, a reviewed turn's kind.
 *
 * No dependency: the lowest header of the layer, which every module of it
 * includes without a cycle.
 */
#ifndef OUSTPBM_GAME_STATUS_H
#define OUSTPBM_GAME_STATUS_H

enum game_status {
	GAME_OK = 0,
	/* a player's request refused (game.h): the board stays as it was */
	GAME_NOT_PLAYER,	/* the user does not play on this board */
	GAME_NOT_YOUR_TURN,	/* the user plays, but the other side is to move */
	GAME_OVER,		/* the game has ended (also: the AI asked to play a finished game) */
	GAME_SWAP_OFF,		/* swap asked for on a board without the pie rule */
	GAME_SWAP_NOT_NOW,	/* swap asked for after White's first turn */
	GAME_ILLEGAL_TURN,	/* the rules refused the turn: see the rules_turn_report */
	GAME_NO_MEMORY,
	/* records that do not hold together */
	GAME_BAD_TURN_NUMBER,	/* game_replay: no such turn in the history */
	GAME_BAD_HISTORY,	/* game_replay, review: the history cannot have been played */
	GAME_POSITION_DIFFERS,	/* game_verify: the stored position is not the replayed one */
	/* more refusals of a player's request */
	GAME_NOTHING_TO_UNDO,	/* undo: the player's last turn is not the last one played */
	GAME_NO_OFFER,		/* accept or reject with nothing proposed */
	GAME_OWN_OFFER,		/* accept or reject of the player's own offer */
	GAME_OFFER_OPEN,	/* undo or propose while an offer waits for its answer */
	GAME_EDITED,		/* undo: the position was edited, the history does not lead to it */
	GAME_CHATS_FULL,	/* chat: the board's history holds GAME_CHATS_MAX chats already */
	/* the outside world */
	GAME_IO,		/* engine_run: reading or writing failed */
	/* texts that do not parse: the line and the detail are in the caller's error struct */
	GAME_BAD_FILE,		/* not a valid game file (gamefile.h), or another board's */
	GAME_BAD_SGF,		/* not a valid SGF record of oustpbm, or a history SGF cannot show (sgf.h) */
	GAME_BAD_REVIEW,	/* a kept review that does not parse, or is another game's (review.h) */
	GAME_TOO_LONG,		/* review: more than REVIEW_MAX_TURNS turns */
	GAME_CYCLE,		/* the solver met a cycle of positions (solve.h) */
	GAME_INTERNAL		/* the computer player failed (a bug): ai.h, review.h; the last value */
};

/* What s means in a few words, e.g. "not your turn", "out of memory"; never NULL. */
const char *game_status_str(enum game_status s);

#endif
