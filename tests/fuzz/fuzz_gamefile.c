/*
 * libFuzzer harness: the game-file parser.  A text that parses must format
 * and parse again to the same text (games/README.md: writing then reading
 * a file gives back the same bytes); the header-only parse must never
 * accept what the full parse would not read at all.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/gamefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gamefile_error err;
	struct game g, g2, h;
	char *text = NULL, *text2 = NULL;
	size_t len, len2;

	if (gamefile_parse_header((const char *)data, size, &h, &err) == GAME_OK)
		game_release(&h);
	if (gamefile_parse((const char *)data, size, &g, &err) != GAME_OK)
		return 0;
	if (gamefile_format(&g, &text, &len) == GAME_OK) {
		if (gamefile_parse(text, len, &g2, &err) != GAME_OK)
			abort();	/* what we write we must read */
		if (gamefile_format(&g2, &text2, &len2) != GAME_OK || len2 != len || memcmp(text, text2, len) != 0)
			abort();	/* and it must be a fixed point */
		game_release(&g2);
	}
	free(text);
	free(text2);
	game_release(&g);
	return 0;
}
