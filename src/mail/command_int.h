/*
 * command_int: what the parts of the command parser share (command.c,
 * command_slots.c, command_placements.c, command_options.c,
 * command_usage.c, command_mask.c, command_subject.c); not for callers
 * outside them, who include command.h.
 */
#ifndef OUSTPBM_COMMAND_INT_H
#define OUSTPBM_COMMAND_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "mail/command.h"


#define MAX_WORDS (COMMAND_LINE_MAX / 2 + 1)

#define QUOTE_MAX 40		/* bytes of a culprit quoted in an error */

/* A command's row, as the parser reads it. */
#define keyword command_syntax

/* ---- words ---- */

struct word {
	const char *s;
	size_t len;
};

/* ---- the layout of a command's words, parsed or not ---- */

/*
 * Where the argument words a[0..na) of keyword k go, for command_mask(),
 * for naming what is missing and for the command to send.  With a word for
 * every slot the positions are the parser's (positional).  With too few,
 * the shapes decide what can be decided: a first word that is no board
 * number is taken for a missing board, and trailing placements (move) or
 * options (challenge) for the tail.  The middle slots (user id, password,
 * opponent, address) are told apart by the readings left: every way of
 * putting the k middle words, in order, into the m slots, less the ones
 * the words' shapes rule out (a user id slot takes a user id; with the
 * sender's accounts known, the sender's own user id and nothing else).
 * With too many words (no tail to take them) a middle word may stand in
 * any slot from its index minus the surplus to its index.
 */
#define READINGS_MAX 16		/* 2^4: m <= 4 middle slots */

struct layout {
	bool board;		/* a[0] takes the board slot */
	bool board_missing;
	char mid[4];		/* the middle slots' letters (u p o a n) */
	size_t m;		/* how many middle slots */
	size_t mid0, k;		/* the middle words: a[mid0 .. mid0 + k) */
	char tail;		/* 'L', 'O', 'N', 'T', 'W', 'B', '*' or 0 */
	size_t tail0;		/* the tail words: a[tail0 .. na) */
	bool tail_missing;	/* the placements of a move */
	bool positional;	/* k == m: word j in slot j */
	unsigned char at[READINGS_MAX][4];	/* k < m: reading r puts middle word j in slot at[r][j] */
	size_t nreadings;
};

/* ---- command.c ---- */

/* The tail slot of k ('L', 'O', 'N', 'T', 'C', 'W', 'B', '*'), or 0. */
char command_tail_of(const struct keyword *k);

/* Is argument i of k a password? */
bool command_password_slot(const struct keyword *k, size_t i);

/* A blank between words: a space or a tab. */
bool command_blank(char c);

/* Split line into at most max words at spaces and tabs; returns how many. */
size_t command_split(const char *line, struct word *w, size_t max);

/* Is w the word s (any case)? */
bool command_word_is(const struct word *w, const char *s);

/* The first row of g whose keyword w is, or NULL. */
const struct keyword *command_keyword_find(const struct command_grammar *g, const struct word *w);

/* Index of the keyword: 1 after a leading "oust" that is followed by a word, else 0. */
size_t command_keyword_index(const struct word *w, size_t n);

enum command_result command_fail(struct command *out, enum command_result st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A culprit for an error message: at most QUOTE_MAX bytes, cut at a character, "..." if cut. */
const char *command_quote(const char *s, size_t len, char buf[QUOTE_MAX + 4]);

/* Unicode spaces in s made ASCII spaces, zero-width characters dropped, in place. */
void command_unicode_blanks(char *s);

/* ---- command_placements.c ---- */

/* The digits d[0..n) of a #turn: 1 to COMMAND_TURN_MAX without a leading zero, into *turn. */
bool command_placements_turn(const char *d, size_t n, int *turn);

/* A word of one letter ("b" of "b 3"). */
bool command_placements_lone_letter(const char *s, size_t len);

/* A word of one to three digits ("3" of "b 3"). */
bool command_placements_lone_number(const char *s, size_t len);

/*
 * Is text made only of placements, mistyped ones, commas and blanks?  Only
 * such text is quoted in an error: when words before are missing, the
 * placement text may hold the password.
 */
bool command_placements_shape(const char *text);

/*
 * The placements: text runs to the end of the line, vertices joined by
 * commas or blanks (they are the last words of the command, so a blank
 * cannot be anything else), a trailing comma allowed, pbmserv's #turn
 * on the last one read as the board's ("D4#5").  A mistyping with one
 * reading ("5E", "E5F5", "b 3") is refused with the whole list as it
 * was meant in fix, for the command to send; fix is "" otherwise.
 */
enum command_result command_placements_parse(struct command *out, const char *text, char *fix, size_t fixsize);

/*
 * "E5", "E5,F5", "E5,", ",F5", ",": the shapes of a placement list cut at
 * spaces; with near, mistyped placements ("E55") count too.
 */
bool command_placements_word(const struct word *w, bool near);

/* The placements of out, joined by commas, into buf. */
const char *command_placements_text(const struct command *out, char *buf, size_t size);

/* ---- command_options.c ---- */

/*
 * The challenge options.  Each may be given once (two colours, or the same
 * option twice, is a mistake worth a question rather than a guess), and a
 * size is written without leading zeros, as a board number is.
 */
enum command_result command_options_parse(struct command *out, const struct word *w, size_t n);

/* Is w a challenge option (-size=9, -black; a number out of range too)?  No password, then. */
bool command_options_word(const struct word *w);

/* Is w an option of the board's shape, as a study board takes it (-size=N, -hex, -hex=S)? */
bool command_options_shape(const struct word *w);

/* s[0..n) as a number: one to nine digits, nothing else, into *v. */
bool command_options_digits(const char *s, size_t n, int *v);

/* ---- command_slots.c ---- */

/* Is w one of the words of k's last "[a|b|c]" (a 'W' tail)? */
bool command_slots_alternative(const struct keyword *k, const struct word *w);

/* Is w a board number, with a #turn of digits or none? */
bool command_slots_board_word(const struct word *w);

/* Is w a user id (ident.h)? */
bool command_slots_userid_word(const struct word *w);

/* Is w the name of a board class of g (struct command_classes)?  Its class into *c. */
bool command_slots_class_word(const struct command_grammar *g, const struct word *w, int *c);

/*
 * Parse the words of out->line by the slots of its keyword; kw is the
 * keyword's index in w.  A keyword may have several rows ("subscribe
 * <board> ..." and "subscribe <userid> <password> all"): they are tried in
 * order, the first that parses wins; when none does, the error is that of
 * the first row taking as many words, else of the first row.
 */
enum command_result command_slots_parse(struct command *out, const struct command_grammar *g,
    const struct word *w, size_t n, size_t kw);

/* ---- command_usage.c ---- */

/* A keyword, a board, a user id or a placement (the brief's list). */
bool command_usage_recognisable(const struct command_grammar *g, const struct word *w);

/* Lay the argument words a[0..na) of row k out on its slots (struct layout) into l. */
void command_usage_layout(const struct command *out, const struct keyword *k, const struct word *a, size_t na,
    struct layout *l);

/* May middle word j stand in a password slot, or be a word too many? */
bool command_usage_maybe_password(const struct layout *l, size_t j);

/*
 * Is tail word w of l kept in the clear?  Placements, mistyped ones too,
 * and known options; a full name or a text is not (it may be the
 * password, shifted there by a missing word).
 */
bool command_usage_tail_keep(const struct command_grammar *g, const struct layout *l, const struct word *w);

/*
 * Add the command to send to out->error (command_usage_add_send), if it
 * fits, made from the words a[0..na) of keyword k laid out in l: each
 * word in its slot, the password's slot as its "<name>", a missing slot
 * as its "<name>" (a user id the sender's one, when the sender has one
 * account), the tail as tail (NULL: the tail words kept by tail_keep).
 */
void command_usage_send(struct command *out, const struct keyword *k, const struct layout *l, const struct word *a,
    size_t na, const char *tail);

/* Add ". Send: <the command>" to out->error (after a '?', " Send: ..."), if it fits. */
void command_usage_add_send(struct command *out, const char *line);

/*
 * "move needs: ...; missing: your password. Send: move 101#2 bob
 * <password> D3": the usage, naming what is missing (or how many words
 * are too many) as far as the readings of the words tell, and the command
 * to send with the words given in their places.
 */
enum command_result command_usage_error(struct command *out, const struct keyword *k, const struct word *a, size_t na);

/*
 * A line of placements alone ("C3", "c3 d4", "C3,D4"): a reply to a board
 * mail that forgot the command.  The placements are parsed into out and
 * the error says what to send; command_parse() adds the board of the
 * Subject.
 */
bool command_usage_placements_only(struct command *out, const struct word *w, size_t n);

/*
 * "unknown command 'mvoe' (did you mean move?); the commands are
 * register, ... and help": the keywords of g, and the nearest one when a
 * word is one edit from it (two for a word of five letters or more).
 */
enum command_result command_usage_unknown(struct command *out, const struct command_grammar *g, const struct word *w);

#endif
