/*
 * engine_int: what engine.c and engineopt.c share.  Private to src/game/engine*.c.
 */
#ifndef OUSTPBM_ENGINE_INT_H
#define OUSTPBM_ENGINE_INT_H

#define ENGINE_QUOTE_MAX 40	/* bytes of a culprit quoted in an error */

/* The culprit s, or its first ENGINE_QUOTE_MAX bytes with "..." after in buf. */
const char *engine_quote(const char *s, char buf[ENGINE_QUOTE_MAX + 4]);

#endif
