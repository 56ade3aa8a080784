/*
 * engineopt: the options of `oustpbm engine` (engine.h), and the quoting of a
 * culprit that engine.c's error messages share (engine_int.h).
 */
#include "game/engine.h"
#include "game/engine_int.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/ai.h"

/* The culprit s, cut to ENGINE_QUOTE_MAX bytes with "..." after. */
const char *engine_quote(const char *s, char buf[ENGINE_QUOTE_MAX + 4])
{
	size_t n = strlen(s);

	if (n <= ENGINE_QUOTE_MAX)
		return s;
	memcpy(buf, s, ENGINE_QUOTE_MAX);
	memcpy(buf + ENGINE_QUOTE_MAX, "...", 4);
	return buf;
}

void engine_options_init(struct engine_options *o)
{
	memset(o, 0, sizeof(*o));
	o->player = ENGINE_AI;
	o->level = AI_DEFAULT_LEVEL;
	o->seconds = ENGINE_DEFAULT_SECONDS;
}

/* The value of option `name` at argv[*i]: after '=' or the next word; NULL if missing. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static bool is_option(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

bool engine_parse_options(int argc, char **argv, struct engine_options *o, char *err, size_t errlen)
{
	char q[ENGINE_QUOTE_MAX + 4], *end;
	const char *v;
	int i;

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (is_option(arg, "--level")) {
			if ((v = option_value(argc, argv, &i, "--level")) == NULL)
				goto missing;
			errno = 0;
			long l = strtol(v, &end, 10);
			if (*v == '\0' || *end != '\0' || l < AI_MIN_LEVEL || l > AI_MAX_LEVEL) {
				snprintf(err, errlen, "engine: --level '%s': a level from %d to %d",
				    engine_quote(v, q), AI_MIN_LEVEL, AI_MAX_LEVEL);
				return false;
			}
			o->level = (int)l;
		} else if (is_option(arg, "--seconds")) {
			if ((v = option_value(argc, argv, &i, "--seconds")) == NULL)
				goto missing;
			errno = 0;
			double s = strtod(v, &end);
			if (*v == '\0' || *end != '\0' || errno != 0 || !(s > 0) ||
			    s > ENGINE_MAX_SECONDS) {
				snprintf(err, errlen, "engine: --seconds '%s': a number of seconds "
				    "above 0, at most %.0f", engine_quote(v, q), ENGINE_MAX_SECONDS);
				return false;
			}
			o->seconds = s;
		} else if (is_option(arg, "--seed")) {
			if ((v = option_value(argc, argv, &i, "--seed")) == NULL)
				goto missing;
			errno = 0;
			unsigned long long s = strtoull(v, &end, 10);
			if (*v == '\0' || *v == '-' || *end != '\0' || errno != 0) {
				snprintf(err, errlen, "engine: --seed '%s': a whole number from 0 to "
				    "%llu", engine_quote(v, q), (unsigned long long)UINT64_MAX);
				return false;
			}
			o->seeded = true;
			o->seed = (uint64_t)s;
		} else if (is_option(arg, "--playouts")) {
			if ((v = option_value(argc, argv, &i, "--playouts")) == NULL)
				goto missing;
			errno = 0;
			long n = strtol(v, &end, 10);
			if (*v == '\0' || *end != '\0' || errno != 0 || n < 1 || n > 100000000) {
				snprintf(err, errlen, "engine: --playouts '%s': a count from 1 to "
				    "100000000", engine_quote(v, q));
				return false;
			}
			o->playouts = n;
		} else if (is_option(arg, "--player")) {
			if ((v = option_value(argc, argv, &i, "--player")) == NULL)
				goto missing;
			if (strcmp(v, "ai") == 0)
				o->player = ENGINE_AI;
			else if (strcmp(v, "random") == 0)
				o->player = ENGINE_RANDOM;
			else if (strcmp(v, "greedy") == 0)
				o->player = ENGINE_GREEDY;
			else {
				snprintf(err, errlen, "engine: --player '%s': ai, random or greedy",
				    engine_quote(v, q));
				return false;
			}
		} else if (strcmp(arg, "--resign") == 0) {
			o->resign = true;
		} else {
			snprintf(err, errlen, "engine: unknown option '%s'", engine_quote(arg, q));
			return false;
		}
	}
	return true;
missing:
	snprintf(err, errlen, "engine: %s needs a value", engine_quote(argv[i], q));
	return false;
}
