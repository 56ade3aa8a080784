/*
 * command: the command line of a player's mail, in pbmserv's shapes, parsed
 * by a grammar.  Which line of the mail (the Subject or a line of the
 * text) is the command is mailfind.h's business; this module parses one
 * line (command_parse_line), masks it and makes the comment passed on.
 * A command line holding a control character (C0, DEL, C1: U+0000 to
 * U+001F but TAB, U+007F to U+009F) is refused, naming the character and
 * its position: dropping it silently would make "ev<NUL>il" "evil".
 * Words are separated by blanks: spaces, tabs and the Unicode spaces
 * (U+00A0 no-break, U+2000 to U+200A, U+202F narrow, U+205F, U+3000
 * ideographic); zero-width U+200B and U+FEFF are dropped.  A line that
 * does not parse as written but parses without the '.' or '!' after its
 * last word ("move 101 alice pw C3.") is read without it.
 * Keywords are case-insensitive.  The keywords and their arguments are
 * not listed here: they are rows of a grammar (struct command_syntax) the
 * caller passes, the table of mail commands (commands/pipeline/mailcmd.c).
 *
 * Placements are vertices joined by commas or spaces (they are the last
 * words of a command: "E5,F5,G6", "e5, f5, g6", "E5 F5", a trailing comma
 * allowed), or hex cells "g13,f2"; pbmserv's #turn on the last one
 * ("D4#5") is read as the board's #turn.  A mistyping with one reading
 * ("5E", "E5F5", "b 3") is refused with the command to send.  Only their
 * shape is checked here (a letter A..Z, a number 1..25); the board checks
 * the rest (square columns skip I, hex rows include it).
 * This module does no I/O and knows nothing of GMime.
 */
#ifndef OUSTPBM_COMMAND_H
#define OUSTPBM_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/ident.h"
#include "base/mailaddr.h"
#include "game/ai.h"
#include "game/game.h"
#include "game/rules.h"

#define COMMAND_LINE_MAX 4096		/* bytes of the command line */
#define COMMAND_PASSWORD_MAX IDENT_PASSWORD_MAX	/* bytes of a password (store.h's STORE_PASSWORD_MAX too) */
#define COMMAND_FULLNAME_MAX IDENT_FULLNAME_BYTES	/* bytes of a full name (64 characters) */
#define COMMAND_PLACEMENTS_MAX RULES_MAX_POINTS	/* placements in one turn (25 x 25) */
#define COMMAND_TURN_MAX 999999		/* largest #turn */
#define COMMAND_COMMENT_MAX 2000	/* characters of the comment passed on */
#define COMMAND_ERROR_MAX 576		/* bytes of an error message (below job.h's message cap): the list of commands fits */
#define COMMAND_SENDERS_MAX 8		/* the sender's accounts command_parse_as() weighs */
#define COMMAND_LEVEL_MIN AI_MIN_LEVEL	/* -level=N: the robot player's level (robot.h) */
#define COMMAND_LEVEL_MAX AI_MAX_LEVEL
#define COMMAND_GAMES_MAX 99		/* an 'n' slot: a number of games (seek, limit; seeks.h's SEEKS_MAX) */
#define COMMAND_REMIND_MAX GAME_REMIND_DAYS_MAX	/* -remind=DAYS */
#define COMMAND_TIMEOUT_MAX GAME_TIMEOUT_DAYS_MAX	/* -timeout=DAYS */
#define COMMAND_BOARDS_MAX 20		/* boards of a 'B' tail */

/*
 * What the parse found in the sender's text: a result, not a failure of
 * the mail layer (mail.h).  A command that does not parse is the sender's
 * error, answered by a reply saying what is wrong (out->error), and two
 * results are no error at all (PLACEMENTS_ONLY, CHAT_ANSWER).
 */
enum command_result {
	COMMAND_OK = 0,
	COMMAND_EMPTY,		/* no command in the Subject or the body */
	COMMAND_TOO_LONG,	/* the command line exceeds COMMAND_LINE_MAX */
	COMMAND_CONTROL,	/* the command line holds a control character */
	COMMAND_UNKNOWN,	/* the first word is no command */
	COMMAND_USAGE,		/* wrong number of words for the command */
	COMMAND_BAD_USERID,
	COMMAND_BAD_PASSWORD,	/* too long */
	COMMAND_BAD_NAME,	/* the full name: too long, or a bidi formatting character */
	COMMAND_BAD_BOARD,
	COMMAND_BAD_TURN,	/* the #turn after a board number */
	COMMAND_BAD_OPTION,	/* a challenge option */
	COMMAND_BAD_PLACEMENT,
	COMMAND_BAD_CLASS,	/* a 'C' tail: no such board class (struct command_classes) */
	COMMAND_BAD_NUMBER,	/* an 'n' slot: not a number of games */
	COMMAND_PLACEMENTS_ONLY,	/* placements without a command ("C3" under a board mail): out->placements
				   hold them, out->board the board of a Subject "Oust Board N", else 0 */
	COMMAND_CONFLICT,	/* mailfind: the Subject and the text hold two different commands */
	COMMAND_CHAT_ANSWER	/* mailfind: an answer to a chat mail holding no command; out->board its board */
};

/*
 * One command's words: its keyword, its synopsis (quoted by the usage
 * errors: "<...>" names a slot) and its slots, the arguments in order, one
 * letter each:
 *   b  a board number          t  a board number, with an optional #turn
 *   v  as t, or the word "new" and a board size (N, -size=N, -hex, -hex=S):
 *      a study board (cmd.study; cmd.size, cmd.hex), then only an L tail
 *   u  a user id (the sender's account: cmd.userid)
 *   o  another user id, the opponent (cmd.opponent; not the sender's own)
 *   p  a password: the first one cmd.password, a second one cmd.new_password
 *      (a one-time code stands in a p slot too, masked as a password is)
 *   a  a mail address (cmd.new_address), checked by the command
 *   n  a number of games, 0 to COMMAND_GAMES_MAX (cmd.games)
 *   w  one of the words the synopsis gives there, "on|off" or "all"
 *      (cmd.word, lower case)
 *   i  a tournament id, T<n> in any case (cmd.tournament)
 * ('o' takes "*" too: an open challenge.)  A keyword may have several
 * rows, tried in order ("subscribe <board> ..." and "subscribe <userid>
 * <password> all"); a 'b' slot may come after others.
 * then at most one tail, taking the rest of the line:
 *   L  placements (required)   O  challenge options (optional)
 *   C  a board class (optional: cmd.rating_class, -1 when none is given)
 *   N  a full name (optional)  T  a text: the rest of the line (required, cmd.text)
 *   W  one word (optional, cmd.text; the command checks it)
 *   B  board numbers, none to COMMAND_BOARDS_MAX, each once (cmd.boards,
 *      cmd.nboards; cmd.board the first, 0 for none)
 *   *  any words, optional, masked in the log (cmd.text, for the command to read)
 * The masking of passwords and the usage errors read the same slots.
 */
struct command_syntax {
	const char *name;	/* the keyword, lower case: "move" */
	const char *synopsis;	/* "move <board>[#turn] <userid> <password> <placements>" */
	const char *slots;	/* "tupL" */
};

/*
 * The board classes a 'C' tail names ("standard", "hex-small"): values the
 * ratings own (store/ratings.h), passed in by the caller, as mail knows no
 * files.  Class i is cmd.rating_class i.
 */
struct command_classes {
	int n;
	const char *(*name)(int cls);	/* "standard" */
	const char *(*sizes)(int cls);	/* what the class holds, for the error: "11x11 to 13x13" */
};

/*
 * The commands a parse knows: n rows, the first at rows, the next stride
 * bytes further (so the rows may be members of a larger struct, one per
 * command, as in commands/pipeline/mailcmd.c).
 */
struct command_grammar {
	const struct command_syntax *rows;
	size_t n;
	size_t stride;
	const struct command_classes *classes;	/* what a 'C' tail names; NULL: no class */
};

/* Row i of g. */
const struct command_syntax *command_grammar_row(const struct command_grammar *g, size_t i);

/* The row of g whose keyword is name (case-insensitive), or NULL. */
const struct command_syntax *command_grammar_find(const struct command_grammar *g, const char *name);

enum command_color {
	COMMAND_COLOR_BLACK = 0,	/* the challenger plays Black (the default) */
	COMMAND_COLOR_WHITE,
	COMMAND_COLOR_RANDOM
};

enum command_source {
	COMMAND_FROM_NONE = 0,
	COMMAND_FROM_SUBJECT,
	COMMAND_FROM_BODY
};

/* A move's word instead of placements (pbmserv's): take back, offer a draw, answer. */
enum command_offer {
	COMMAND_OFFER_NONE = 0,
	COMMAND_OFFER_UNDO,
	COMMAND_OFFER_PROPOSE,
	COMMAND_OFFER_ACCEPT,
	COMMAND_OFFER_REJECT
};

/*
 * One placement: its name with the letter in upper case ("E5", "G13"; the
 * board's own notation resolves it: rules_parse_point) and its square
 * coordinates, as rules.h counts them.
 */
struct command_placement {
	char name[4];
	int x;			/* column from the left, 0-based, I skipped: A=0 .. H=7, J=8 .. Z=24; I: -1 */
	int y;			/* row from the bottom, 0-based: "E5" has y = 4 */
};

/*
 * A parsed command.  Plain value: nothing to free (grammar and syntax point
 * into the caller's table).  Fields a command does not use are zero.
 */
struct command {
	const struct command_grammar *grammar;	/* what it was parsed with */
	const struct command_syntax *syntax;	/* the command's row; NULL if nothing parsed */
	enum command_source source;
	char line[COMMAND_LINE_MAX + 1];	/* the command line as found (for command_mask) */
	size_t body_rest;	/* FROM_BODY: offset in the body just past the command line */
	char userid[IDENT_USERID_MAX + 1];	/* folded to lower case */
	char password[COMMAND_PASSWORD_MAX + 1];	/* password: the old one */
	char new_password[COMMAND_PASSWORD_MAX + 1];	/* password */
	char fullname[COMMAND_FULLNAME_MAX + 1];	/* register; may be "" */
	char new_address[MAILADDR_MAX + 1];	/* an 'a' slot, as given */
	char text[COMMAND_LINE_MAX + 1];	/* a 'T' slot: the rest of the line as written */
	char opponent[IDENT_USERID_MAX + 1];	/* challenge, folded; "*" for anyone (an open challenge) */
	char word[8];		/* a 'w' slot: the word given, lower case ("on", "off", "all") */
	int size;		/* challenge: board size, odd, 5..25; with hex, the side 3..10 */
	bool hex;		/* challenge: a hex-hex board (-hex or -hex=S) */
	bool study;		/* a 'v' slot given "new <size>": a study board, no board number */
	enum command_color color;	/* challenge: the challenger's colour */
	bool noswap;		/* challenge: pie rule off */
	bool unrated;		/* challenge: -unrated, the result changes no rating (ratings.h) */
	int level;		/* challenge: -level=N for the robot, 0 if not given */
	int rating_class;	/* a 'C' tail: a class of grammar->classes, or -1 for none (every class) */
	int games;		/* an 'n' slot: a number of games, 0..COMMAND_GAMES_MAX */
	int remind_days;	/* challenge: -remind=DAYS, 0 if not given */
	int timeout_days;	/* challenge: -timeout=DAYS, 0 if not given */
	int64_t clock_base, clock_inc, clock_cap;	/* challenge: -clock=D+I/C in seconds (game/gameclock.h); 0 if not */
	bool weekends;		/* challenge: -weekends, the clocks stop at weekends */
	unsigned tournament;	/* an 'i' slot, or challenge -ladder=: T12 is 12 */
	long board;		/* move swap resign show history */
	long boards[COMMAND_BOARDS_MAX];	/* a 'B' tail, in the order given */
	size_t nboards;
	int turn;		/* the #turn given, 0 if none */
	enum command_offer offer;	/* move ... undo|propose|accept|reject: no placements then */
	size_t nplacements;	/* move */
	struct command_placement placements[COMMAND_PLACEMENTS_MAX];
	char error[COMMAND_ERROR_MAX];	/* what was wrong, quoting the culprit; "" on success */
	char senders[COMMAND_SENDERS_MAX][IDENT_USERID_MAX + 1];	/* command_parse_as(): the sender's accounts */
	size_t nsenders;
	long subject_board;	/* the board the Subject names (Oust Board N), filling a missing board
				   in the command to send; 0 if none */
};

/* What the parse of a line takes from the rest of the mail. */
struct command_hints {
	const char *const *senders;	/* the user ids of the sender's accounts (command_parse_line) */
	size_t nsenders;
	long subject_board;	/* the board a Subject "Oust Board N ..." names, 0 if none */
};

/*
 * Parse the command line s[0..len) (UTF-8, control characters kept, a NUL
 * as UTF8_NUL_MARK: mailin.h), found in source, by grammar g.  h (may be
 * NULL) gives the sender's accounts and the Subject's board.  On failure
 * out->error says what was wrong in plain words, quoting the culprit but
 * never a password:
 *   unknown command 'mvoe' (did you mean move?); the commands are register, ..., games and help
 *   move needs: move <board>[#turn] <userid> <password> <placements>; missing: <userid> or <password>.
 *       Send: move 101 <userid> <password> A5
 *   '5E': the column letter comes first: did you mean E5? Send: move 101 alice <password> E5
 *   '10a' is not a board number
 *   -size=12: the size must be odd, from 5 to 25
 *   -hex=12: the hex side must be from 3 to 10
 *   the command line has a control character (U+0000) at character 12
 *   'E55' is not a placement
 * The command to send, when there is one, ends the error after ". Send: "
 * (or "? Send: "); a board missing from it is the Subject's
 * (h->subject_board) when there is one; out->board is set when the words
 * (or the Subject) named a board, for the Subject of the error.
 *
 * The sender's accounts (h->senders, at most COMMAND_SENDERS_MAX used;
 * folded to lower case) tell the words of an incomplete command apart:
 * "move 101#2 bob D3" from bob's address is bob's user id and no password,
 * "move 101 hunter2 A5" is the password and no user id.  So the error
 * names exactly what is missing and the command to send ("move needs:
 * ...; missing: your password. Send: move 101#2 bob <password> D3"), and
 * command_mask() echoes every word that is not the password.  With no
 * senders, a word that may be the password is masked.
 * On failure out->syntax is NULL and only out->error, out->line and
 * out->source are meaningful; line and source are set whenever the line
 * could be read, so command_mask() and command_comment() work after a
 * failure too.  The caller sets out->body_rest.
 */
enum command_result command_parse_line(const struct command_grammar *g, enum command_source source,
    const char *s, size_t len, const struct command_hints *h, struct command *out);

/* The Subject without reply and forward prefixes (Re:, Fwd:, Fw:, AW:, repeated, Re[2]:) and [tags]. */
const char *command_subject_strip(const char *subject);

/* The board N of a stripped Subject "Oust Board N ..." or "New Oust Board N ...", else 0. */
long command_subject_board(const char *stripped);

/* Is the stripped Subject that of a chat mail, "Oust Board N chat from <userid>"? */
bool command_subject_chat(const char *stripped);

/* Does the line s[0..len) start with a keyword of g (after an optional "oust")? */
bool command_line_keyword(const struct command_grammar *g, const char *s, size_t len);

/*
 * Is the parsed cmd a weak command: a row without fixed slots, with words
 * after its keyword ("help me please", "games today")?  Such a line may be
 * prose; a command with a board or a user id is not.
 */
bool command_weak(const struct command *cmd);

/* Do the parsed lines of a and b hold the same words (case aside, "oust" aside)? */
bool command_same(const struct command *a, const struct command *b);

/*
 * The command line for the log and for quoting in replies, with every
 * password replaced by "****".  For an unknown command only the first word
 * is kept.  For a known keyword whose words did not parse, the word in the
 * password's place is masked (with words missing, every word some reading
 * puts there: command_parse_as), and so is every word not recognisable as
 * a keyword, a board, a user id or a placement (a mistyped one included);
 * every other word is echoed (command_mask.c, unparsed_keep).  Returns a
 * string the caller frees, NULL when out of memory.
 */
char *command_mask(const struct command *cmd);

/*
 * The comment passed to the opponent: the body after the command line (when
 * the command came from the body) or the whole body (from the Subject), up
 * to a signature or to the quoted mail of a reply, whichever comes first,
 * without lines quoted with '>' (a reply quoting an old board must not
 * send that board on again) and their attribution lines (mailtext.h).
 * Also without lines holding
 * the sender's password or repeating the command (the keyword and the same
 * board or user id), control characters other
 * than LF and TAB removed, leading and trailing blank lines and trailing
 * spaces dropped, cut to COMMAND_COMMENT_MAX characters.  body is the
 * body the command was found in (mailfind.h).  Returns a string the caller frees ("" when
 * there is no comment), NULL when out of memory.
 */
char *command_comment(const struct command *cmd, const char *body);

/* The keyword of a parsed command ("move"); "" when nothing was parsed. */
const char *command_name(const struct command *cmd);

/* True if cmd is the command called name. */
bool command_is(const struct command *cmd, const char *name);


#endif
