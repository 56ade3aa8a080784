/*
 * ident: what a user id and a board id may look like.  Both become parts of
 * file paths and of mail text, so they are checked here, once, before use.
 */
#ifndef OUSTPBM_IDENT_H
#define OUSTPBM_IDENT_H

#include <stdbool.h>
#include <stddef.h>

#define IDENT_USERID_MAX 32	/* characters in a user id */
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
 * Parse a board number: decimal digits only, no sign or leading zero,
 * IDENT_BOARD_MIN..IDENT_BOARD_MAX.  Returns false if s is anything else.
 */
bool ident_board_parse(const char *s, size_t len, long *out);

#endif
