/*
 * reply_int: what the parts of the replies share (reply.c, the template
 * engine; reply_text.c, reply_html.c, reply_board.c, reply_error.c,
 * reply_games.c, reply_preview.c, reply_account.c); not for callers
 * outside them, who include reply.h.
 */
#ifndef OUSTPBM_REPLY_INT_H
#define OUSTPBM_REPLY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "mail/mailout.h"
#include "mail/reply.h"
#include "mail/unsubtoken.h"

#define VARS_MAX 24

/*
 * How a reply is made.  Each reply_*() function builds only what is its
 * own: its subject, the placeholders of its template, what the HTML of a
 * board mail shows.  It puts them in a struct reply_parts and ends in
 * reply_finish(), which expands the template, adds the text/html
 * alternative, composes the mail (recipient, subject, Message-ID,
 * threading) and frees what it made itself:
 *
 *	struct reply_parts rp = { .tmpl = "help", .subject = "Oust help",
 *	    .to_addr = to_addr, .to_name = to_name };
 *
 *	var(&rp.vs, "commands", commands);
 *	return reply_finish(rc, MAIL_OK, &rp, out);
 *
 * A reply that allocates pieces of its own starts from st = MAIL_NOMEM,
 * jumps to out when one fails, sets st = MAIL_OK once all are made, and
 * has one exit:
 *
 *	out:
 *		st = reply_finish(rc, st, &rp, out);
 *		free(...its own pieces...);
 *		return st;
 */

/* The placeholders of a template (mailout.h); var() adds one. */
struct vars {
	struct mailout_var v[VARS_MAX];
	size_t n;
};

/* A point with its column and row, to sort by. */
struct place_xy {
	int p, x, y;
};

/* A file attached to a reply (mailout.h): its bytes, NUL-terminated, media type and name. */
struct reply_file {
	const char *data;
	size_t len;
	const char *type, *name;
};

/* What the HTML of a mail about a board shows; NULL or "" leaves a piece out. */
struct html_mail {
	const char *title;	/* the subject */
	const char *intro;	/* plain text: what happened, the error... */
	const char *echo;	/* plain text: the command an error refused, passwords masked, or NULL */
	const char *send;	/* plain text: the command an error gives to send instead, or NULL */
	const char *stop;	/* plain text with a drawing: where a refused turn stopped, or NULL */
	const char *comment_by;	/* the author of comment */
	const char *comment;	/* plain text from a player */
	int upto;		/* the position after this turn */
	bool next;		/* with the command to send next */
	const char *next_body;	/* plain text: that command as the reader's own, or NULL */
	const char *recent;	/* plain text: history lines */
	const char *ratings;	/* plain text: the players' ratings line (ratings_mail_line), NULL or "" for none */
	const char *html;	/* HTML made by the game layer (a review's chart: game/review.h), after the intro, or NULL */
	const char *tap_subject;	/* to the player to move with a token: the Subject its links reply with (tap.h) */
	const char *tap_turn;	/* and the turn they play, "#6" or "#6.1", the first line of their body */
	/*
	 * The game-end mail to a player with a token: the Subject (with it)
	 * of the one-tap return game and review links, and the return game's
	 * challenge (reply_text_rematch_by_token); NULL for none
	 */
	const char *end_subject;
	const char *end_challenge;
	const char *tmpl;	/* the HTML template, NULL: mail.html (a digest's board: reply_digest.c) */
};

/*
 * A reply's parts, for reply_finish().  Every pointer is borrowed: the
 * caller keeps what it points to alive until reply_finish() returns and
 * frees it afterwards.  Members left 0 are not used.
 */
struct reply_parts {
	const char *tmpl;	/* the text template, templates/<tmpl>.txt, filled with vs */
	struct vars vs;		/* its placeholders besides {server} and {address} */
	const char *body;	/* or, with tmpl NULL, a text made already (reply_show) */
	const char *subject;
	const char *to_addr, *to_name;	/* the recipient; to_name may be "" */
	const struct game *g;	/* the board the mail is about: its thread goes in References; or NULL */
	const struct html_mail *hm;	/* what g's text/html alternative shows; NULL: text alone */
	long id_board;		/* > 0: a game Message-ID <board.turn.user.time@domain> */
	int id_turn;
	int id_part;		/* > 0: a part of turn id_turn + 1 is pending: <board.turnPpart.user.time@...> */
	const char *id_user;
	const struct reply_file *file;	/* an attachment, or NULL */
	const char *list_unsubscribe;	/* an observer's List-Unsubscribe value, or NULL */
	const char *html;	/* with hm NULL: a text/html alternative made already (a digest), or NULL */
};

/* An observer's token and List-Unsubscribe value (unsub_make); "" for none. */
struct unsub {
	char token[UNSUBTOKEN_MAX + 1];
	char header[UNSUBTOKEN_URI_MAX + 1];
};

/*
 * Finish a reply: st is how making rp went.  MAIL_OK: expand rp->tmpl,
 * make rp->hm's HTML, compose the mail into out (the caller owns it:
 * reply_mail_release()).  Otherwise, or when a step fails, out is left
 * empty and st returned, with "out of memory" in rc->err for MAIL_NOMEM
 * (the other failures have set rc->err already).  Frees only what it made.
 */
enum mail_status reply_finish(struct reply_ctx *rc, enum mail_status st, struct reply_parts *rp,
    struct reply_mail *out);

/* ---- a growing string: strbuf.h under the names this file uses ---- */

struct text {
	struct strbuf b;
};

static inline void tadd(struct text *t, const char *s, size_t n)
{
	strbuf_add(&t->b, s, n);
}

static inline void tputs(struct text *t, const char *s)
{
	strbuf_puts(&t->b, s);
}

#define tprintf(t, ...) strbuf_printf(&(t)->b, __VA_ARGS__)

/* The spaces t got from offset from on become REPLY_GLUE: a line never wrapped (a history row). */
static inline void tglue_from(struct text *t, size_t from)
{
	size_t i;

	for (i = from; t->b.s != NULL && !t->b.failed && i < t->b.len; i++)
		if (t->b.s[i] == ' ')
			t->b.s[i] = REPLY_GLUE;
}

/* The text so far ("" if empty), or NULL after a failure; t is emptied. */
static inline char *tfinish(struct text *t)
{
	return strbuf_finish(&t->b);
}

/* ---- templates ---- */

static inline void var(struct vars *vs, const char *name, const char *value)
{
	if (vs->n < VARS_MAX) {
		vs->v[vs->n].name = name;
		vs->v[vs->n].value = value != NULL ? value : "";
		vs->n++;
	}
}

/* ---- reply.c ---- */

/* Columns of s[0..n): characters of UTF-8 (a byte that is not valid UTF-8 counts one). */
size_t reply_columns(const char *s, size_t n);

/*
 * One line (no newline) into t, wrapped, each continuation indented by
 * indent columns, or by the line's own leading spaces if indent is
 * (size_t)-1; see reply_wrap.
 */
void reply_wrap_line(struct text *t, const char *line, size_t n, size_t indent);

/* s with every REPLY_GLUE turned into the space it stands for. */
void reply_unglue(char *s);

/* text with REPLY_VERBATIM before each line: reply_wrap leaves it as it is.  NULL if out of memory. */
char *reply_verbatim(const char *text);

/*
 * Expand template name with vs plus the variables every template has.  A
 * text template's result is wrapped (reply_wrap), the board drawing (the
 * variable drawing) excepted.
 */
enum mail_status reply_expand(struct reply_ctx *rc, const char *name, struct vars *vs, char **body);

enum mail_status reply_finish(struct reply_ctx *rc, enum mail_status st, struct reply_parts *rp,
    struct reply_mail *out);

/* ---- reply_html.c ---- */

/*
 * The text/html alternative of a mail about g (mail.html), into *out; *out
 * stays NULL when html_mail is off.
 */
enum mail_status reply_html_body(struct reply_ctx *rc, const struct game *g, const struct html_mail *hm,
    char **out);

/* ---- reply_text.c ---- */

char reply_text_symbol(enum rules_color c);

const char *reply_text_colour_name(enum rules_color c);

const char *reply_text_loser(const struct game *g);

/* "Oust Board 101 bob", "Oust Board 101 won by alice", "Oust Board 101 drawn" */
void reply_text_status_subject(const struct game *g, char *buf, size_t size);
/* The Subject of every board mail of g, the same for the whole game: "Oust Board 101 alice vs bob". */
void reply_text_game_subject(const struct game *g, char *buf, size_t size);

/* How the game ended, one sentence without the final period. */
void reply_text_result(const struct game *g, char *buf, size_t size);

/* "turn 8, bob (White, o) to move" or the result. */
void reply_text_status(const struct game *g, char *buf, size_t size);

/*
 * The turns before turn upto + 1 (all with upto 0), at most the last `last`
 * of them (0: all), with the notes of undo and draw offers among them.
 */
char *reply_text_history_upto(const struct game *g, int upto, int last, bool with_time);

char *reply_text_history(const struct game *g, int last, bool with_time);

const char *reply_text_plural(int n);

/* "A1", "A1 and B2", "A1, B2 and C3": the n points p[] of b. */
void reply_text_points(struct text *t, const struct rules_board *b, const int *p, int n);

/*
 * The stones colour c's placement at p would remove from b, into taken
 * (room for RULES_MAX_POINTS), in board order; returns how many.  scratch
 * is a board the caller provides (rules_board is large).
 */
int reply_text_taken_by(const struct rules_board *b, enum rules_color c, int p, struct rules_board *scratch,
    int *taken);

int reply_text_by_column(const void *a, const void *b);

/* Hex cells as their names read: row a first, then by number in the row. */
int reply_text_by_row(const void *a, const void *b);

/*
 * For the player to move: the capturing placements open to them now, each
 * with the stones it takes, or that there are none; "" for anyone else.
 */
char *reply_text_options(const struct game *g, const char *reader);

/*
 * {next} of a game mail, spoken to its reader: to the player to move,
 * "Your move" and the command to send; to the other, whom the board waits
 * for, whether their comment was passed on, and when they may swap.
 */
char *reply_text_next_for(const struct game *g, const struct reply_event *ev, const char *reader);

/* Whose turn it is and the command to send; "" once over. */
char *reply_text_next(const struct game *g);

/*
 * For a finished game: the command that starts a return game against the
 * same opponent, with every option of the game that ended: its size or hex
 * side, the colours reversed (the reader takes the colour the opponent
 * began with; the challenger plays Black unless told), the swap, the
 * robot's level, rated or not, its own reminder and time limit.  One
 * line, never wrapped: it is to be copied.
 */
char *reply_text_rematch(const struct game *g, const char *reader);
/*
 * The same return game as a reply by token says it (tokenreply.h: the
 * token stands for the user id and password), "challenge bob -size=9
 * -white", one line; the caller frees it, NULL when out of memory.
 */
char *reply_text_rematch_by_token(const struct game *g, const char *reader);

/*
 * The way out of an observer's mail that needs no password (RFC 2369
 * List-Unsubscribe, unsubtoken.h): the token of the reader and of what
 * they get the mail for, the board or every board.  Without the home's
 * secret the mail goes without it (and says so on stderr): a board mail is
 * not lost for it.
 */
void reply_text_unsub_make(struct reply_ctx *rc, const struct game *g, const struct reply_player *to, struct unsub *u);

/*
 * An observer's line, in place of a player's move prompt or return game:
 * that they observe, and the command that stops it.
 */
char *reply_text_observing(const struct game *g, const struct reply_player *to, const struct unsub *u);

/* What the event did, one or more lines. */
char *reply_text_happened(const struct game *g, const struct reply_event *ev);

/* Each line of text into t with indent before it (none before an empty line), each ending in a newline. */
void reply_text_indent(struct text *t, const char *text, const char *indent);

/* text with every line indented by two spaces (a player's words set apart), ending in a newline. */
char *reply_text_indented(const char *text);

/* "\nalice writes:\n  ...\n" for recipients other than the author; "" otherwise. */
char *reply_text_comment(const struct reply_event *ev, const char *recipient);

/* An observer's {next}: whose turn it is (never "your move"), then how to stop observing. */
char *reply_text_observer_next(const struct game *g, const struct reply_event *ev, const struct reply_player *to,
    const struct unsub *u);

char *reply_text_with_time_left(struct reply_ctx *rc, const struct game *g, const char *reader, char *next);

/* "6 days 23 hours", "less than an hour": secs (>= 0) down to the hour (reply_text.c). */
void reply_text_duration(int64_t secs, char *buf, size_t size);

/* What reply_text_with_time_left() says on a board with clocks (rc->clock.on) into t (reply_clock.c). */
void reply_clock_text(struct reply_ctx *rc, const struct game *g, const char *reader, struct text *t);

/* ---- reply_board.c ---- */

/*
 * web_url set: a mail about a board ends with the address of the board's
 * page (web.h: board/<id>.html under the site).  *body (or given, when the
 * body is not from a template) is replaced by the text with the line added.
 */
enum mail_status reply_board_web_link(struct reply_ctx *rc, const struct game *g, char **body, const char *given);

/*
 * Where a turn refused in its middle stopped (reply_error, r->stop): the
 * placements made before the refusal with what each captured, the board
 * there (this turn's stones in upper case), and what may follow: the
 * placements open there, or, when the turn was already over, the command
 * that plays it up to its end.  Plain text, the drawing kept as it is
 * (REPLY_VERBATIM) unless plain; NULL when out of memory.
 */
char *reply_board_stop(const struct game *g, const struct reply_stop *stop, bool plain);

/* ---- reply_preview.c ---- */

/*
 * The legal placements opts[0..n) of colour c on b: the capturing ones
 * first, each with what it takes (with stones: which, else how many), then
 * the others; "none" when there are none.
 */
void reply_preview_legal(struct text *t, const struct rules_board *b, enum rules_color c,
    const struct preview_option *opts, int n, bool stones);

#endif
