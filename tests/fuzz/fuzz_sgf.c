/*
 * libFuzzer harness: the SGF reader (game/sgf.h).  Whatever the bytes, no
 * crash, no leak; a record that reads must be a game whose own record
 * reads back to the same game file (writing then reading is a fixed point).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/gamefile.h"
#include "game/sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sgf_error err;
	struct game g, g2;
	char *sgf = NULL, *a = NULL, *b = NULL;
	size_t len, la, lb;

	if (sgf_parse((const char *)data, size, &g, &err) != GAME_OK)
		return 0;
	if (sgf_format(&g, &sgf, &len, &err) != GAME_OK)
		abort();	/* a game read from a record replays, so it has a record */
	if (sgf_parse(sgf, len, &g2, &err) != GAME_OK)
		abort();	/* what we write we must read */
	if (gamefile_format(&g, &a, &la) != GAME_OK || gamefile_format(&g2, &b, &lb) != GAME_OK ||
	    la != lb || memcmp(a, b, la) != 0)
		abort();	/* the same game */
	free(a);
	free(b);
	free(sgf);
	game_release(&g2);
	game_release(&g);
	return 0;
}
