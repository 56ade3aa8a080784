/*
 * tournfile: a tournament file, tournaments/<n>, as text an administrator
 * can read and edit (doc/game-file.md: Tournament files):
 *
 *   # oustpbm tournament file (doc/game-file.md)
 *   tournament: T1
 *   name: Spring round robin
 *   format: roundrobin
 *   ...header lines "key: value"...
 *   player: alice 1500 seed=1 division=1
 *   game: 1 1 1 alice bob 101 1-0
 *
 * A damaged file is refused with its line number ("tournaments/1:12:
 * ..."), never half read.  No file I/O here: tourns.h reads and writes.
 */
#ifndef OUSTPBM_TOURNFILE_H
#define OUSTPBM_TOURNFILE_H

#include <stddef.h>

#include "game/tourn.h"

#define TOURNFILE_ERR_MAX 300
#define TOURNFILE_LINE_MAX 400

/*
 * Parse text (len bytes; file names it in errors); *out is the tournament,
 * the caller's to tourn_free().  False with err (TOURNFILE_ERR_MAX bytes)
 * naming the line when the text is no tournament file or memory ran out.
 */
bool tournfile_parse(const char *file, const char *text, size_t len, struct tourn **out, char *err);

/* The file's text of t; the caller frees it; NULL when out of memory. */
char *tournfile_format(const struct tourn *t, size_t *len);

/* "T12", "t12" -> 12; false for anything else (ids 1 to 999999). */
bool tournfile_id_parse(const char *s, unsigned *id);

#endif
