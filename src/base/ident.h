/*
 * ident: what a user id and a board id may look like.  Both become parts of
 * file paths and of mail text, so they are checked here, once, before use.
 */
#ifndef OUSTPBM_IDENT_H
#define OUSTPBM_IDENT_H

#include <stdbool.h>
#include <stddef.h>

#define IDENT_USERID_MAX 32	/* characters in a user id */
#define IDENT_PASSWORD_MAX 64	/* characters in a password (store.h's STORE_PASSWORD_MAX, mail's COMMAND_PASSWORD_MAX) */
#define IDENT_FULLNAME_MAX 64	/* characters in a full name */
#define IDENT_FULLNAME_BYTES (4 * IDENT_FULLNAME_MAX)	/* its bytes at most (UTF-8) */
#define IDENT_BOARD_MIN 101	/* pbmserv numbers boards from 101 */
#define IDENT_BOARD_MAX 99999999

/*
 * A user id: 1 to IDENT_USERID_MAX characters of [a-z0-9_-], starting with
 * a letter or digit.  Upper case is accepted and folded by ident_userid_fold().
 */
bool ident_userid_ok(const char *s);

/* Lower-case a user id in place (ASCII only). */
void ident_userid_fold(char *s);

/*
 * A full name as an account may take it (register, adduser): valid UTF-8,
 * at most IDENT_FULLNAME_MAX characters, no control character and no
 * bidirectional formatting character (utf8.h), so a name shows as what it
 * is in every reply.  May be "".  Otherwise false, and *why (if not NULL)
 * gets a static phrase: "is longer than 64 characters".
 */
bool ident_fullname_ok(const char *s, const char **why);

/*
 * Parse a board number: decimal digits only, no sign or leading zero,
 * IDENT_BOARD_MIN..IDENT_BOARD_MAX.  Returns false if s is anything else.
 */
bool ident_board_parse(const char *s, size_t len, long *out);

/*
 * How far the word s[0..len) is from the keyword kw (lower case): the edit
 * distance, ASCII letters compared without case, a swap of two neighbours
 * counting as one edit ("mvoe" is 1 from "move").  SIZE_MAX for words over
 * 16 bytes.  For "did you mean ...?".
 */
size_t ident_keyword_distance(const char *s, size_t len, const char *kw);

/* True if s[0..len) is near enough to kw to be taken for a misspelling of it. */
bool ident_keyword_near(const char *s, size_t len, const char *kw);

#endif
