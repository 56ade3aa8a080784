/*
 * reply: the mails oustpbm sends in answer to a player's mail, made from
 * the plain-text templates of the templates directory (so an admin can
 * reword them without recompiling: templates/README.md lists each file and
 * its placeholders) and composed with mailout into complete messages.
 *
 * Subjects follow pbmserv, so players and their filters know them:
 *   New Oust Board 101 alice       a new board, alice to move
 *   Oust Board 101 bob             bob to move
 *   Oust Board 101 won by alice    Oust Board 101 drawn
 *   Oust Board 101 error           Oust error
 *   Oust Board 101 reminder bob    bob has not moved for remind_days
 *
 * Threading (RFC 5322 3.6.4): every reply has In-Reply-To and References to
 * the incoming mail; a reply about a board also starts its References with
 * the board's root id (the game file's thread: line), so a mail client
 * shows a whole game as one thread.  Message-IDs and Date depend only on
 * the time (config_now(), fixed by OUSTPBM_TEST_TIME), the board, the turn,
 * the recipient and the incoming mail, so tests can compare replies byte
 * for byte:
 *   <101.7.bob.1700000000@example.org>       bob's mail about board 101 after turn 7
 *   <oust.1700000000.1a2b3c4d.1@example.org> any other reply
 * (the 8 hex digits hash the incoming Message-ID and sender, and the process
 * id unless the test time is set).
 *
 * A mail that shows a board also carries it as HTML (html_mail = on, the
 * default): a text/html alternative after the unchanged text/plain part,
 * made from the template mail.html with the board as a table (html.h), the
 * players' largest/total figures, what happened, the comment, the command
 * to send next and the last turns; text from players is escaped.  A
 * templates directory without mail.html (an admin's copy from before it)
 * sends the text alone; a malformed mail.html is a template error.
 *
 * Every line of a text/plain body is wrapped at REPLY_WRAP columns
 * (reply_wrap) but the board drawing's, which keeps its shape.
 *
 * Only the templates a reply uses are read, each once (the mails to both
 * players share one).  No I/O other than reading
 * templates; nothing is queued here.
 */
#ifndef OUSTPBM_REPLY_H
#define OUSTPBM_REPLY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>

#include "base/config.h"
#include "base/ident.h"
#include "base/mailaddr.h"
#include "game/game.h"
#include "game/preview.h"
#include "mail/idmac.h"
#include "mail/mail.h"

#define REPLY_ERR_MAX 1200
#define REPLY_RECENT 6		/* history entries shown in a game mail */
#define REPLY_WRAP 72		/* columns of a reply's lines (the board drawing's excepted) */
#define REPLY_VERBATIM '\001'	/* starts a line reply_wrap() leaves as it is */
#define REPLY_GLUE '\002'	/* a space reply_wrap() never breaks at (a name, a command), sent as ' ' */
#define REPLY_OPTIONS_MAX 30

/*
 * The one form of a time in every mail to a player: "2023-11-14 23:13 UTC"
 * (game files and logs keep ISO 8601, gamefile.h).  Returns buf.
 */
#define REPLY_TIME_SIZE 24
char *reply_time_str(int64_t t, char buf[REPLY_TIME_SIZE]);

/*
 * text with every line longer than REPLY_WRAP columns (characters of
 * UTF-8) broken at spaces into lines of at most REPLY_WRAP, each
 * continuation indented as the line was; the spaces at a break are
 * dropped, the others kept.  A word longer than a line (a URL, a
 * Message-ID, one long word) is never cut: it stands whole on a line of
 * its own.  A line starting with REPLY_VERBATIM (the board drawing) is
 * kept as it is, without that character.  A REPLY_GLUE is a space that
 * is no place to break (inside a name, a command or a history line): it
 * comes out as ' '.  NULL if out of memory; the caller frees the result.
 */
char *reply_wrap(const char *text);

/*
 * A player's absence (the mail command vacation), as plain values: the
 * store keeps the file (store/vacations.h), the caller reads it.
 */
struct reply_away {
	char userid[IDENT_USERID_MAX + 1];	/* "" when nobody is away */
	int64_t start, end;	/* away while start <= now < end */
	bool now;		/* away at the reply's now (vacation_away) */
	int64_t stopped;	/* seconds the clock stood still since the board's last turn (vacation_stopped) */
};

/*
 * The clocks of a board (game/gameclock.h) as a reply shows them, set by
 * the caller, who knows the stops (reply_set_clock): each player's time
 * left now, and when the clock of the player to move runs out.  Times are
 * shown in the reader's zone (zone_of, NULL: UTC).
 */
struct reply_clock {
	bool on;		/* the board has clocks */
	int64_t left[2];	/* black's, white's seconds left at the reply's now */
	int64_t runs_out;	/* when the clock of the player to move reaches zero; 0: none runs */
	void (*zone_of)(void *ctx, const char *userid, char *zone, size_t size);
	void *zone_ctx;
	char viewer[IDENT_USERID_MAX + 1];	/* the reader of a reply that names none (show): their zone */
};

/* What the replies to one incoming mail share.  Plain value; reply_init() fills it. */
#define REPLY_NOTE_MAX 240	/* bytes of reply_ctx.note */

struct reply_ctx {
	const struct config *cfg;
	const char *home;
	time_t now;
	const char *in_id;	/* the incoming Message-ID without brackets, "" if none */
	const char *in_refs;	/* its References, space separated */
	bool answering;		/* there is an incoming mail (cleanup and admin have none) */
	unsigned hash;		/* of the incoming id and sender: the other replies' ids */
	unsigned counter;	/* replies made so far */
	/*
	 * The key of the ids (idmac.h), set by the caller after reply_init()
	 * (commands: server_reply_key).  Every mail that is sent needs it:
	 * without it a report about the mail is not counted and its return
	 * is not seen as a loop.
	 */
	unsigned char id_key[IDMAC_KEY_BYTES];
	bool id_key_set;
	bool have_tdir;
	char tdir[PATH_MAX];	/* the templates directory, found on first use */
	char cached_name[72];	/* the last text template read, kept for the next reply */
	char *cached;		/* its text, owned: reply_release() */
	char *cached_html;	/* mail.html once read, owned: reply_release() */
	bool html_missing;	/* the templates directory has no mail.html: text only */
	char err[REPLY_ERR_MAX];	/* what the last failure was */
	/* the absence of a board's player to move (reply_set_away); userid "" when none */
	struct reply_away away;
	struct reply_clock clock;	/* the board's clocks (reply_set_clock); clock.on false when none */
	/*
	 * The reply token of the player error_player (mail/token.h) for an
	 * error about a board it plays, NULL for none: its Subject carries it
	 * with the turn now, and the board is tappable when it is theirs to move.
	 */
	const char *error_token;
	const char *error_player;
	/* with error_token, a placement the refused reply meant ("Did you mean D3?"): its one tap link, or NULL */
	const char *error_suggest;
	/*
	 * The reader's reply token on the board of a show of its position now,
	 * given only when the reader is the player to move writing from the
	 * registered address (show.c), NULL for none: the board comes with its
	 * links under the game's own Subject (tap.h).
	 */
	const char *tap_token;
	/*
	 * Said first in an error, the board right after it and the command to
	 * send only then: "You answered the mail of turn 2; board 101 is now
	 * at turn 6: ..." (a reply to an old board mail); "" for none.
	 */
	char note[REPLY_NOTE_MAX];
};

/* One composed reply: recipient and message. */
struct reply_mail {
	char rcpt[MAILADDR_MAX + 1];
	char *msg;		/* the whole message, owned: reply_mail_release() */
	size_t len;
};

/*
 * Why the reader gets a board mail: a player, or an observer (a read-only
 * view: no move prompt, no options, no comment of the players; a line
 * saying they observe and the command that stops it).
 */
enum reply_role {
	REPLY_ROLE_PLAYER = 0,
	REPLY_ROLE_OBSERVER,		/* subscribe <board>: unsubscribe <board> stops it */
	REPLY_ROLE_NOTIFY,		/* notify ... on <board>: the result only */
	REPLY_ROLE_WATCH_ALL,		/* subscribe ... all */
	REPLY_ROLE_WATCH_RESULTS	/* notify ... on: the result of every board */
};

/* A player (or observer) as a reply addresses them. */
struct reply_player {
	const char *userid;
	const char *address;
	const char *fullname;	/* may be "" */
	enum reply_role role;	/* 0, a player, unless set */
	/*
	 * A player's reply token for the board (mail/token.h), NULL or "" for
	 * none: the Subject carries it with the turn ("Oust Board 101 bob #6
	 * [K7M2-QX9P-HD3RT]"), and a mail to the player to move makes the
	 * board's legal placements links that reply with them.
	 */
	const char *token;
};

/* What changed a game, for the mails to its players. */
enum reply_what {
	REPLY_CHALLENGE,
	REPLY_MOVE,
	REPLY_SWAP,
	REPLY_RESIGN,
	REPLY_TIMEOUT,		/* oustpbm cleanup: the player to move lost on time */
	REPLY_ACCEPT,		/* an open challenge taken: the actor took the open seat */
	REPLY_UNDO_ASKED,	/* move ... undo: first is the turn asked back */
	REPLY_UNDO_ACCEPTED,	/* move ... accept: the turns from first on were taken back */
	REPLY_UNDO_REJECTED,	/* move ... reject of an undo */
	REPLY_DRAW_PROPOSED,	/* move ... propose */
	REPLY_DRAW_ACCEPTED,	/* move ... accept: the game is drawn */
	REPLY_DRAW_REJECTED	/* move ... reject of a draw */
};

struct reply_event {
	enum reply_what what;
	const char *actor;	/* who acted: the challenger, the mover... */
	int first;		/* history number of the turn made; 0 for a challenge */
	int captured;		/* REPLY_MOVE: stones the turn removed */
	bool dead_end;		/* REPLY_MOVE: no placement was left after a capture */
	bool random;		/* REPLY_CHALLENGE: the colours were drawn at random */
	const char *comment;	/* the actor's comment, "" if none: shown to the other player */
	int days;		/* REPLY_TIMEOUT: the time limit, timeout_days */
	const char *ratings;	/* the players' ratings line (ratings_mail_line), NULL or "" for none */
	const char *notice;	/* the server's own words about the change (a signoff), NULL for none: shown as
				 * the server's, never as the actor's comment */
	bool closed;		/* the actor closed the account (signoff, deluser): no return game offered */
	const char *offerer;	/* REPLY_*_ACCEPTED, REPLY_*_REJECTED: who made the offer */
	bool queued;		/* REPLY_MOVE: played from the player's queue of conditional turns */
	const char *note;	/* a line for note_to's mail alone (a queue dropped), or NULL */
	const char *note_to;
	const struct reply_event *then;	/* a change made right after this one, told in the same
					 * mail (the robot's answer, robot.h), or NULL */
	int part;		/* placements of the turn in progress pending (game.h): "#6.2" in a token's Subject */
};

/*
 * a: the absence (vacation) of the player to move on the board the next
 * replies tell, or NULL for none (copied).  Their clock stands still while
 * they are away (cleanup.c), so the time left those replies show counts it
 * as cleanup does: the limit moves on by a->stopped, and during the
 * absence "away until ..." is said.
 */
void reply_set_away(struct reply_ctx *rc, const struct reply_away *a);

/* The clocks the next replies show (NULL: none). */
void reply_set_clock(struct reply_ctx *rc, const struct reply_clock *c);

/* A deadline warning (clock.h of the commands): the mark passed, the time left, when it runs out. */
struct reply_warn {
	int mark;		/* hours */
	int64_t left;		/* seconds */
	int64_t runs_out;
	const char *zone;	/* the player's time zone */
};

/*
 * The warning to player to (to->token: tappable, as a board mail) that
 * their clock on g has passed w->mark: templates/warn.txt.
 */
enum mail_status reply_warning(struct reply_ctx *rc, const struct game *g, const struct reply_player *to,
    const struct reply_warn *w, struct reply_mail *out);

/*
 * in_id, in_refs and sender come from the incoming mail and must stay valid
 * while rc is used; in_id NULL means the mails answer no mail (a reminder
 * from cleanup), and they say so with Auto-Submitted: auto-generated.  reply_release() frees what rc holds afterwards.
 */
void reply_init(struct reply_ctx *rc, const struct config *cfg, const char *home, time_t now,
    const char *in_id, const char *in_refs, const char *sender);

/* Free what rc holds (the cached template); rc may be used again. */
void reply_release(struct reply_ctx *rc);

void reply_mail_release(struct reply_mail *m);

/*
 * The templates directory: the `templates` key of cfg (relative to home if
 * not absolute), else <home>/templates if it is a directory, else
 * OUSTPBM_DATADIR/templates if it is one, else templates/ beside the
 * running executable (a source checkout).  MAIL_TEMPLATE with err when
 * none is found.
 */
enum mail_status reply_templates_dir(const struct config *cfg, const char *home, char *out, size_t size,
    char *err, size_t errlen);

/*
 * A player's mail after a change of game g (already applied): what
 * happened, whose turn it is and the command to send, the last turns and
 * the board; at the end of the game the result and the whole history.
 */
enum mail_status reply_game(struct reply_ctx *rc, const struct game *g, const struct reply_event *ev,
    const struct reply_player *to, struct reply_mail *out);

/* One board of a digest (reply_digest). */
struct reply_digest_board {
	const struct game *g;		/* read whole, its reader to move */
	const char *token;		/* the reader's reply token on it, NULL or "" for none */
	const struct reply_away *away;	/* the reader's absence (reply_set_away), or NULL */
};

#define REPLY_DIGEST_BYTES 92000	/* text and HTML of one mail's boards, at most: the mail stays under 100 KB */
#define REPLY_DIGEST_PART_BYTES 90000	/* the same in a digest of several parts (room for the intro's list) */
#define REPLY_DIGEST_PARTS_MAX 8	/* mails of one digest: 16 boards of 11x11 (2 a part), more of smaller */
#define REPLY_DIGEST_NAMED_MAX 10	/* boards of another part named in a part's intro; the others counted */
#define REPLY_DIGEST_LISTED_MAX 200	/* boards past the parts named by their number; the others counted */

/* A digest: its parts, each a whole mail (reply_digest_release). */
struct reply_digest {
	struct reply_mail part[REPLY_DIGEST_PARTS_MAX];
	size_t n;
};

/*
 * The digest of the boards b[0..n) where to (a player) is to move
 * (services/digest.h), n >= 1, into *out (the caller releases it with
 * reply_digest_release): for each board, its Subject with the reader's
 * token, the opponent's last turn, the command to send with the time
 * left and the drawing; the HTML shows each board as a board mail does
 * with its tap links (tap.h, each replying with its own board's Subject,
 * so a tap plays on its own board).  One mail, subject "Oust: your move
 * on 3 boards", when the boards' text and HTML fit in
 * REPLY_DIGEST_BYTES; else several (issue 40: each under 100 KB whole,
 * as Gmail clips past 102 KB), "Oust: your move on 10 boards (1 of 4)"
 * and on, each with boards drawn in full up to REPLY_DIGEST_PART_BYTES
 * and an intro naming its boards and the other parts'.  Past
 * REPLY_DIGEST_PARTS_MAX parts the boards are named by their numbers at
 * the end of the last (then counted past REPLY_DIGEST_LISTED_MAX); a
 * board too long alone in a part goes without its board table (the text
 * still has its drawing, command and Subject to reply with).  when: the
 * digest's hour as the reader reads it ("Mon 2023-11-20 08:00
 * Europe/Paris").
 */
enum mail_status reply_digest(struct reply_ctx *rc, const struct reply_player *to,
    const struct reply_digest_board *b, size_t n, const char *when, struct reply_digest *out);

/* Free the parts of d; d is emptied. */
void reply_digest_release(struct reply_digest *d);

/*
 * A reminder (oustpbm cleanup) to the player to move on g, idle for days
 * days: subject "Oust Board 101 reminder bob", the command to send, the
 * board; timeout_at, if not 0, is when the game will be lost on time.
 */
enum mail_status reply_reminder(struct reply_ctx *rc, const struct game *g, const struct reply_player *to,
    int days, int64_t timeout_at, struct reply_mail *out);

/*
 * The text of the show reply (the body of reply_show()), for `oustpbm show`:
 * *body is a string the caller frees.
 */
enum mail_status reply_show_body(struct reply_ctx *rc, const struct game *g, int upto, const char *drawing,
    char **body);

/*
 * The recipient of a reply to one person (the sender, mostly): the
 * address, and the display name ("" for none).  The reply_*() functions
 * below take it as one argument.
 */
struct reply_to {
	const char *addr;
	const char *name;
};

/*
 * A turn of g's player to move refused after k of its placements were
 * made (issue 22: show where a turn failed): points[0..k) as rules cells,
 * legal one after the other; ended when the turn was over after them (a
 * placement too many followed).
 */
struct reply_stop {
	const int *points;
	int k;
	bool ended;
};

/*
 * An error, the one form of it: r->error says what was wrong, r->command is
 * the command line with the passwords masked ("" if none was found); r->g
 * (may be NULL) is the board the command was about, shown as it stands;
 * r->board is its number, or 0.  A turn refused in its middle (r->stop,
 * else NULL) shows, before the board as it stands, the position where the
 * turn stopped, what each placement before it captured, and the
 * placements open there (or, when the turn was over, the command that
 * plays it up to its end); in the text/html alternative too.
 */
struct reply_refused {
	long board;		/* the board the command was about, or 0 */
	const struct game *g;	/* that board as it stands, or NULL */
	const struct reply_stop *stop;	/* where the turn stopped, or NULL */
	const char *command;	/* the command refused, passwords masked */
	const char *error;	/* why */
};
enum mail_status reply_error(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_refused *r, struct reply_mail *out);

/*
 * show: drawing is the board to show (board_render_turn() for "show
 * 101#N", then upto is N), or NULL for the position now (upto 0).
 */
enum mail_status reply_show(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, int upto, const char *drawing, struct reply_mail *out);

/* history: every turn with its time, and the board now. */
enum mail_status reply_history(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, struct reply_mail *out);

/*
 * sgf <board>: a short text (sgf.txt) and the game record sgf (len bytes,
 * NUL-terminated, game/sgf.h) attached as oust-<board>.sgf.
 */
enum mail_status reply_sgf(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *sgf, size_t len, struct reply_mail *out);
/*
 * review <board>, done: the review's texts (game/review.h: the table, the
 * costliest turns, the chart's HTML, the costliest turns' HTML with their
 * boards as tables) and its SGF (len bytes) attached as
 * oust-<board>-review.sgf; how says how it was computed ("400 playouts a
 * placement", "proved by the solver").
 */
struct reply_review {
	const char *table, *worst, *chart_html, *worst_html, *how;
	const char *sgf;
	size_t sgf_len;
};
enum mail_status reply_review(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const struct reply_review *rv, struct reply_mail *out);

/* review <board>, queued: ahead requests wait before it; the robot's run comes every few minutes. */
enum mail_status reply_review_queued(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, int ahead, struct reply_mail *out);

/* Which of a player's boards `games` lists. */
enum reply_games_filter {
	REPLY_GAMES_ALL = 0,	/* every board (the default) */
	REPLY_GAMES_ACTIVE,	/* the boards being played */
	REPLY_GAMES_NEXT,	/* the boards being played where it is the player's move */
	REPLY_GAMES_FINISHED	/* the finished boards */
};

/* "all", "active", "next", "finished". */
const char *reply_games_filter_str(enum reply_games_filter f);
/* The filter called word (case-insensitive); false if none is. */
bool reply_games_filter_parse(const char *word, enum reply_games_filter *out);

/*
 * games: the list->n boards (read with gamefile_parse_header()) of
 * list->userid, in order; counted all, listed those list->filter keeps, at
 * most the last REPLY_GAMES_MAX.  With list->own, the boards where userid
 * is to move are marked "your move"; list->away is said first.
 */
#define REPLY_GAMES_MAX 200
struct reply_games_list {
	const char *userid;	/* whose boards */
	bool own;		/* the mail comes from userid's address */
	enum reply_games_filter filter;
	const struct game *games;	/* the boards, headers read */
	size_t n;
	const char *away;	/* the line saying userid is away, or "" */
	/*
	 * games <userid> next from userid's own address (issue 40): the board
	 * to play first, read whole, drawn under the list with its tap links
	 * under its game Subject and userid's token (mail/token.h); NULL for
	 * none
	 */
	const struct game *tap;
	const char *tap_token;
};
enum mail_status reply_games(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_games_list *list, struct reply_mail *out);

/*
 * finished: the n most recently finished boards of the server (headers,
 * newest first), n at most REPLY_FINISHED_MAX; total is how many boards
 * have finished in all.
 */
#define REPLY_FINISHED_MAX 20
enum mail_status reply_finished(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *const *games, size_t n, size_t total, struct reply_mail *out);

/*
 * help: the commands and the rules (Oust, by Mark Steere).  commands is the
 * list of commands, the template's {commands} (made from the table of mail
 * commands, commands/pipeline/mailcmd.h).
 */
enum mail_status reply_help(struct reply_ctx *rc, const struct reply_to *to,
    const char *commands, struct reply_mail *out);

/*
 * chat: sender's text (command_comment(): quoted mail cut) to the reader
 * to of board g, in the board's thread: subject "Oust Board 101 chat from
 * alice".
 */
enum mail_status reply_chat(struct reply_ctx *rc, const struct game *g, const char *sender, const char *text,
    const struct reply_player *to, struct reply_mail *out);

/* chat, to its sender: text went to readers (user ids, "bob"); "Oust Board 101 chat sent". */
enum mail_status reply_chat_sent(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *readers, const char *text, struct reply_mail *out);

/*
 * An answer to a chat mail that holds no command (mailfind.h), to its
 * sender: the chat command to send for board g as userid, text (the
 * sender's own, quoted mail cut) below it, ready to copy.
 */
enum mail_status reply_chat_answer(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const char *userid, const char *text, struct reply_mail *out);

#define REPLY_PLACEMENTS_MAX 4100	/* bytes of the placements a preview quotes ("C3,D4,..."), cut beyond */

/* What a preview reply is about (besides the tried turn itself). */
struct reply_preview {
	const struct game *g;	/* the board, NULL for a study board */
	int turn;		/* the turn tried */
	bool past;		/* a turn of the board's history (#turn), not the next one */
	const char *who;	/* who places: a user id, or "Black" on a study board */
	const char *next_who;	/* the side after them */
	const struct rules_board *board;	/* the position tried on (for the names of its points) */
	const char (*names)[4];	/* the placements as given, p->nsteps of them at least */
	int n;			/* placements given */
	const struct preview *p;
};

/*
 * preview: the board after each placement that captured and at the end,
 * whether the turn would be complete, illegal (which placement, why) or
 * unfinished, and the legal placements where it stops.  Subject "Oust
 * Board 101 preview", or "Oust preview" for a study board.
 */
enum mail_status reply_preview(struct reply_ctx *rc, const struct reply_to *to,
    const struct reply_preview *pv, struct reply_mail *out);

/* moves: the legal placements opts[0..n) of the player to move on g, what the capturing ones take. */
enum mail_status reply_moves(struct reply_ctx *rc, const struct reply_to *to,
    const struct game *g, const struct preview_option *opts, int n, struct reply_mail *out);

/*
 * To the owner of userid (throttle.h): failures wrong passwords within an
 * hour, the last from sender, so password attempts are refused until until.
 */
enum mail_status reply_lockout(struct reply_ctx *rc, const struct reply_to *to,
    const char *userid, unsigned long failures, const char *sender, const char *until, struct reply_mail *out);

/* password: userid's password was changed. */
enum mail_status reply_password(struct reply_ctx *rc, const struct reply_to *to,
    const char *userid, struct reply_mail *out);

/* One placeholder of a template: {name} is replaced by value. */
struct reply_var {
	const char *name;
	const char *value;
};

/*
 * A mail of the account commands (forgot, reset, address, confirm,
 * signoff, whoami): templates/<tmpl>.txt with vars[0..n) besides the
 * placeholders every template has, under subject, to to_addr.
 */
enum mail_status reply_account(struct reply_ctx *rc, const struct reply_to *to, const char *tmpl,
    const char *subject, const struct reply_var *vars, size_t n, struct reply_mail *out);

/* An array of struct reply_var and its length, for reply_account(): REPLY_VARS(vars). */
#define REPLY_VARS(a) (a), sizeof (a) / sizeof (a)[0]

#endif
