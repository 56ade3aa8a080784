/*
 * libFuzzer harness: the GTP engine's input (engine_run over fmemopen
 * streams).  Output goes to /dev/null.  loadgame only reads files.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
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
	engine_run(in, out);
	fclose(in);
	return 0;
}
