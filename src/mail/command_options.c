/* command_options: the options of a challenge (-size=N, -hex, -black...), one table (command.h). */
#include "mail/command_int.h"

#include <stdint.h>
#include <strings.h>

/*
 * The challenge options.  Each may be given once (two colours, or the same
 * option twice, is a mistake worth a question rather than a guess), and a
 * size is written without leading zeros, as a board number is.
 */
enum command_status command_options_parse(struct command *out, const struct word *w, size_t n)
{
	char q[QUOTE_MAX + 4], q2[QUOTE_MAX + 4];
	const struct word *color = NULL, *shape = NULL, *noswap = NULL, *unrated = NULL, *remind = NULL, *timeout = NULL;
	enum command_color c;
	size_t i, j;
	int size;

	out->size = COMMAND_SIZE_DEFAULT;
	out->color = COMMAND_COLOR_BLACK;
	for (i = 0; i < n; i++) {
		if (w[i].len > 6 && strncasecmp(w[i].s, "-size=", 6) == 0) {
			if (shape != NULL && strncasecmp(shape->s, "-size", 5) == 0)
				goto repeated;
			if (shape != NULL)
				goto contradicts;
			if (w[i].s[6] == '0')
				return command_fail(out, COMMAND_BAD_OPTION, "%s: write the size without leading zeros, "
				    "as in -size=9", command_quote(w[i].s, w[i].len, q));
			size = 0;
			for (j = 6; j < w[i].len && j < 9; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				size = size * 10 + (w[i].s[j] - '0');
			}
			if (j != w[i].len || size < COMMAND_SIZE_MIN || size > COMMAND_SIZE_MAX || size % 2 == 0)
				goto bad_size;
			shape = &w[i];
			out->size = size;
			continue;
		}
		if (command_word_is(&w[i], "-size"))
			goto bad_size;
		if (command_word_is(&w[i], "-hex") || (w[i].len > 5 && strncasecmp(w[i].s, "-hex=", 5) == 0)) {
			if (shape != NULL && strncasecmp(shape->s, "-hex", 4) == 0)
				goto repeated;
			if (shape != NULL)
				goto contradicts;
			if (w[i].len > 5 && w[i].s[5] == '0')
				return command_fail(out, COMMAND_BAD_OPTION, "%s: write the side without leading zeros, "
				    "as in -hex=7", command_quote(w[i].s, w[i].len, q));
			size = w[i].len > 4 ? 0 : COMMAND_HEX_DEFAULT;
			for (j = 5; j < w[i].len && j < 7; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				size = size * 10 + (w[i].s[j] - '0');
			}
			if ((w[i].len > 4 && j != w[i].len) || size < COMMAND_HEX_MIN || size > COMMAND_HEX_MAX)
				return command_fail(out, COMMAND_BAD_OPTION, "%s: the hex side must be from %d to %d",
				    command_quote(w[i].s, w[i].len, q), COMMAND_HEX_MIN, COMMAND_HEX_MAX);
			shape = &w[i];
			out->hex = true;
			out->size = size;
			continue;
		}
		if (w[i].len >= 6 && strncasecmp(w[i].s, "-level", 6) == 0 &&
		    (w[i].len == 6 || w[i].s[6] == '=')) {
			/* the robot's level: -level=N, one digit */
			if (w[i].len != 8 || w[i].s[7] < '0' + COMMAND_LEVEL_MIN || w[i].s[7] > '0' + COMMAND_LEVEL_MAX)
				return command_fail(out, COMMAND_BAD_OPTION, "%s: the level must be from %d to %d",
				    command_quote(w[i].s, w[i].len, q), COMMAND_LEVEL_MIN, COMMAND_LEVEL_MAX);
			out->level = w[i].s[7] - '0';
			continue;
		}
		if ((w[i].len >= 7 && strncasecmp(w[i].s, "-remind", 7) == 0 && (w[i].len == 7 || w[i].s[7] == '=')) ||
		    (w[i].len >= 8 && strncasecmp(w[i].s, "-timeout", 8) == 0 && (w[i].len == 8 || w[i].s[8] == '='))) {
			/* the board's own time limits: -remind=DAYS, -timeout=DAYS, no leading zero */
			bool is_remind = w[i].s[1] == 'r' || w[i].s[1] == 'R';
			size_t at = is_remind ? 8 : 9;
			int max = is_remind ? COMMAND_REMIND_MAX : COMMAND_TIMEOUT_MAX, days = 0;

			if ((is_remind ? remind : timeout) != NULL)
				goto repeated;
			for (j = at; j < w[i].len && j < at + 5; j++) {
				if (w[i].s[j] < '0' || w[i].s[j] > '9')
					break;
				days = days * 10 + (w[i].s[j] - '0');
			}
			if (w[i].len <= at || j != w[i].len || w[i].s[at] == '0' || days < 1 || days > max)
				return command_fail(out, COMMAND_BAD_OPTION, "%s: %s is a number of days, from 1 to %d, as in %s=%d",
				    command_quote(w[i].s, w[i].len, q), is_remind ? "the time before a reminder" :
				    "the time to move before losing on time", max, is_remind ? "-remind" : "-timeout",
				    is_remind ? 3 : 14);
			if (is_remind) {
				out->remind_days = days;
				remind = &w[i];
			} else {
				out->timeout_days = days;
				timeout = &w[i];
			}
			continue;
		}
		if (command_word_is(&w[i], "-noswap")) {
			if (noswap != NULL)
				goto repeated;
			out->noswap = true;
			noswap = &w[i];
			continue;
		}
		if (command_word_is(&w[i], "-unrated")) {
			if (unrated != NULL)
				goto repeated;
			out->unrated = true;
			unrated = &w[i];
			continue;
		}
		if (command_word_is(&w[i], "-black"))
			c = COMMAND_COLOR_BLACK;
		else if (command_word_is(&w[i], "-white"))
			c = COMMAND_COLOR_WHITE;
		else if (command_word_is(&w[i], "-random"))
			c = COMMAND_COLOR_RANDOM;
		else
			return command_fail(out, COMMAND_BAD_OPTION,
			    "unknown option '%s' (use -size=N, -hex, -hex=S, -black, -white, -random, -noswap, -level=N, "
			    "-unrated, -remind=DAYS or -timeout=DAYS)",
			    command_quote(w[i].s, w[i].len, q));
		if (color != NULL && c != out->color)
			return command_fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose one colour",
			    command_quote(w[i].s, w[i].len, q), command_quote(color->s, color->len, q2));
		if (color != NULL)
			goto repeated;
		color = &w[i];
		out->color = c;
	}
	if (remind != NULL && timeout != NULL && out->remind_days >= out->timeout_days)
		return command_fail(out, COMMAND_BAD_OPTION, "%s is not shorter than %s: the reminder must come before the "
		    "loss on time", command_quote(remind->s, remind->len, q), command_quote(timeout->s, timeout->len, q2));
	return COMMAND_OK;
contradicts:
	return command_fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose a square or a hex board",
	    command_quote(w[i].s, w[i].len, q), command_quote(shape->s, shape->len, q2));
repeated:
	return command_fail(out, COMMAND_BAD_OPTION, "'%s' is given twice: give each option once",
	    command_quote(w[i].s, w[i].len, q));
bad_size:
	return command_fail(out, COMMAND_BAD_OPTION, "%s: the size must be odd, from %d to %d",
	    command_quote(w[i].s, w[i].len, q), COMMAND_SIZE_MIN, COMMAND_SIZE_MAX);
}

bool command_options_word(const struct word *w)
{
	size_t j;

	if (command_word_is(w, "-noswap") || command_word_is(w, "-unrated") || command_word_is(w, "-black") || command_word_is(w, "-white") || command_word_is(w, "-random") ||
	    command_word_is(w, "-hex"))
		return true;
	if (w->len == 8 && strncasecmp(w->s, "-level=", 7) == 0 && w->s[7] >= '0' && w->s[7] <= '9')
		return true;
	if (w->len > 8 && w->len <= 12 && strncasecmp(w->s, "-remind=", 8) == 0)
		j = 8;
	else if (w->len > 9 && w->len <= 13 && strncasecmp(w->s, "-timeout=", 9) == 0)
		j = 9;
	else
		j = 0;
	if (j > 0) {
		for (; j < w->len; j++)
			if (w->s[j] < '0' || w->s[j] > '9')
				return false;
		return true;
	}
	if (w->len > 5 && w->len <= 7 && strncasecmp(w->s, "-hex=", 5) == 0)
		j = 5;
	else if (w->len > 6 && w->len <= 8 && strncasecmp(w->s, "-size=", 6) == 0)
		j = 6;
	else
		return false;
	for (; j < w->len; j++)
		if (w->s[j] < '0' || w->s[j] > '9')
			return false;
	return true;
}
