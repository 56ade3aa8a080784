/*
 * tokens: what the home keeps for the reply tokens of board mails
 * (mail/token.h makes and checks them):
 *   token.secret  TOKENS_SECRET_BYTES random bytes, mode 0600, made by
 *                 `oustpbm init`, or on first use in a home made before;
 *                 never shown anywhere.  Replacing it ends every token.
 *   tokens        one "userid N" or "userid N off" line per account that
 *                 sent `tokens <userid> <password> off|new`: N, the
 *                 generation its tokens are made with (each `new` adds
 *                 one, so the older ones end); off, its tokens authorise
 *                 nothing until the next `new`.  An account without a line: generation 0, on.
 *                 Rewritten whole and durably under tokens.lock; '#'
 *                 lines are comments; a damaged line is refused naming it.
 */
#ifndef OUSTPBM_TOKENS_H
#define OUSTPBM_TOKENS_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

#define TOKENS_SECRET_BYTES 32
#define TOKENS_FILE_MAX (4L * 1024 * 1024)
#define TOKENS_ERR_MAX 300
#define TOKENS_GEN_MAX 999999999UL

/*
 * The home's secret into out, made (under token.secret.lock, durably,
 * 0600) if the home has none yet.  err: what failed.
 */
enum store_status tokens_secret(struct store *st, unsigned long timeout_ms, unsigned char out[TOKENS_SECRET_BYTES],
    char *err);

/* userid's tokens: *off true if turned off, else *gen their generation. */
enum store_status tokens_state(struct store *st, const char *userid, bool *off, unsigned long *gen, char *err);

/*
 * tokens ... off (off true) or new (a generation past the current one, and
 * on again); *gen the generation now.
 */
enum store_status tokens_set(struct store *st, unsigned long timeout_ms, const char *userid, bool off,
    unsigned long *gen, char *err);

#endif
