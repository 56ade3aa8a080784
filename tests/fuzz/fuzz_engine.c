/*
 * libFuzzer harness: the GTP engine's input (engine_run_opts over fmemopen
 * streams).  Output goes to /dev/null.  loadgame only reads files.  The
 * computer player searches a small fixed budget, so that each genmove is
 * quick and every input behaves the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	struct engine_options o;
	FILE *in;

	if (size == 0)
		return 0;
	if (out == NULL)
		out = fopen("/dev/null", "w");
	in = fmemopen((void *)data, size, "r");
	if (in == NULL || out == NULL) {
		if (in != NULL)
			fclose(in);
		return 0;
	}
	engine_options_init(&o);
	o.level = 3;
	o.playouts = 64;
	o.seeded = true;
	engine_run_opts(in, out, &o);
	fclose(in);
	return 0;
}
