/* game_status: the game layer's status in words (game_status.h). */
#include "game/game_status.h"

const char *game_status_str(enum game_status s)
{
	switch (s) {
	case GAME_OK:
		return "ok";
	case GAME_NOT_PLAYER:
		return "not a player of this board";
	case GAME_NOT_YOUR_TURN:
		return "not your turn";
	case GAME_OVER:
		return "the game is over";
	case GAME_SWAP_OFF:
		return "swap is off on this board";
	case GAME_SWAP_NOT_NOW:
		return "swap is only allowed as White's first turn";
	case GAME_ILLEGAL_TURN:
		return "illegal turn";
	case GAME_NO_MEMORY:
		return "out of memory";
	case GAME_BAD_TURN_NUMBER:
		return "no such turn";
	case GAME_BAD_HISTORY:
		return "the history is not consistent";
	case GAME_POSITION_DIFFERS:
		return "the position differs from the history";
	case GAME_NOTHING_TO_UNDO:
		return "nothing to undo";
	case GAME_NO_OFFER:
		return "nothing proposed";
	case GAME_OWN_OFFER:
		return "your own offer";
	case GAME_OFFER_OPEN:
		return "an offer is open";
	case GAME_EDITED:
		return "the position was edited";
	case GAME_CHATS_FULL:
		return "too many chats on this board";
	case GAME_IO:
		return "reading or writing failed";
	case GAME_BAD_FILE:
		return "not a valid game file";
	case GAME_BAD_SGF:
		return "not a valid SGF record";
	case GAME_BAD_REVIEW:
		return "malformed review";
	case GAME_TOO_LONG:
		return "the game is too long to review";
	case GAME_CYCLE:
		return "a cycle of positions";
	case GAME_INTERNAL:
		return "internal error in the computer player";
	}
	return "unknown game status";
}
