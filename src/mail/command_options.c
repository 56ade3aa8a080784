/* command_options: the options of a challenge (-size=N, -hex, -black...), one table (command.h). */
#include "mail/command_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "game/gameclock.h"

enum option_kind {
	OPTION_FLAG,		/* the word alone: -noswap, -black */
	OPTION_NUMBER,		/* -name=N; the word alone means bare, or is refused when bare is 0 */
	OPTION_NUMBER_OR_EMPTY,	/* as a number, and "-name=" with nothing after it is this option too */
	OPTION_CLOCK		/* -name=D+I/C, days (game/gameclock.h) */
};

/* Options of one group exclude each other: one shape of board, one colour. */
enum option_group {
	GROUP_NONE = 0,
	GROUP_SHAPE,
	GROUP_COLOUR,
	GROUP_TIME,		/* -timeout=DAYS or -clock=D+I/C */
	GROUPS
};

/* Where a challenge option goes in struct command. */
enum option_field {
	FIELD_SIZE,		/* size (a square board) */
	FIELD_HEX,		/* size and hex (a hex-hex board) */
	FIELD_COLOUR,		/* color = value */
	FIELD_NOSWAP,
	FIELD_LEVEL,
	FIELD_UNRATED,
	FIELD_REMIND,
	FIELD_TIMEOUT,
	FIELD_CLOCK,
	FIELD_WEEKENDS,
	FIELD_LADDER		/* tournament: a ladder's id, T<n> or n */
};

struct option {
	const char *name;	/* "-size", matched in any case */
	enum option_kind kind;
	enum option_group group;
	enum option_field field;
	int value;		/* a flag's value (a colour) */
	int min, max;		/* a number's range */
	int bare;		/* a number's value when given without "=N"; 0: refused */
	bool odd;		/* a number must be odd */
	bool repeats;		/* may be given twice (the last one counts) */
	const char *usage;	/* its forms in the list of options: "-hex, -hex=S" */
	const char *range;	/* a number out of range: printf of the word, min and max */
	const char *zero;	/* a number with a leading zero, or NULL: range says it */
};

/*
 * The options, in the order the list of them in an error gives them.
 * Each is given once (two colours, or the same option twice, is a
 * mistake worth a question rather than a guess), a number without a
 * leading zero, as a board number is.
 */
static const struct option options[] = {
	{ "-size", OPTION_NUMBER, GROUP_SHAPE, FIELD_SIZE, 0, RULES_MIN_SIZE, RULES_MAX_SIZE, 0, true, false,
	  "-size=N", "%s: the size must be odd, from %d to %d",
	  "%s: write the size without leading zeros, as in -size=9" },
	{ "-hex", OPTION_NUMBER, GROUP_SHAPE, FIELD_HEX, 0, RULES_HEX_MIN_SIDE, RULES_HEX_MAX_SIDE,
	  RULES_HEX_DEFAULT_SIDE, false, false, "-hex, -hex=S", "%s: the hex side must be from %d to %d",
	  "%s: write the side without leading zeros, as in -hex=7" },
	{ "-black", OPTION_FLAG, GROUP_COLOUR, FIELD_COLOUR, COMMAND_COLOR_BLACK, 0, 0, 0, false, false, "-black",
	  NULL, NULL },
	{ "-white", OPTION_FLAG, GROUP_COLOUR, FIELD_COLOUR, COMMAND_COLOR_WHITE, 0, 0, 0, false, false, "-white",
	  NULL, NULL },
	{ "-random", OPTION_FLAG, GROUP_COLOUR, FIELD_COLOUR, COMMAND_COLOR_RANDOM, 0, 0, 0, false, false, "-random",
	  NULL, NULL },
	{ "-noswap", OPTION_FLAG, GROUP_NONE, FIELD_NOSWAP, 1, 0, 0, 0, false, false, "-noswap", NULL, NULL },
	{ "-level", OPTION_NUMBER_OR_EMPTY, GROUP_NONE, FIELD_LEVEL, 0, COMMAND_LEVEL_MIN, COMMAND_LEVEL_MAX, 0, false,
	  true, "-level=N", "%s: the level must be from %d to %d", NULL },
	{ "-unrated", OPTION_FLAG, GROUP_NONE, FIELD_UNRATED, 1, 0, 0, 0, false, false, "-unrated", NULL, NULL },
	{ "-remind", OPTION_NUMBER_OR_EMPTY, GROUP_NONE, FIELD_REMIND, 0, 1, COMMAND_REMIND_MAX, 0, false, false,
	  "-remind=DAYS", "%s: the time before a reminder is a number of days, from %d to %d, as in -remind=3",
	  NULL },
	{ "-timeout", OPTION_NUMBER_OR_EMPTY, GROUP_TIME, FIELD_TIMEOUT, 0, 1, COMMAND_TIMEOUT_MAX, 0, false, false,
	  "-timeout=DAYS", "%s: the time to move before losing on time is a number of days, from %d to %d, as in "
	  "-timeout=14", NULL },
	{ "-clock", OPTION_CLOCK, GROUP_TIME, FIELD_CLOCK, 0, 0, GAMECLOCK_DAYS_MAX, 0, false, false, "-clock=D+I/C",
	  "%s: a clock is D+I/C in days, fractions allowed (D to start, I added each turn, never past C; "
	  "0 < D <= C <= %d), as in -clock=3+1.5/5", NULL },
	{ "-weekends", OPTION_FLAG, GROUP_NONE, FIELD_WEEKENDS, 1, 0, 0, 0, false, false, "-weekends", NULL, NULL },
	{ "-ladder", OPTION_NUMBER, GROUP_NONE, FIELD_LADDER, 0, 1, 999999, 0, false, false, "-ladder=ID",
	  "%s: a ladder is a tournament id, as in -ladder=T1", NULL },
};

#define NOPTIONS (sizeof options / sizeof options[0])

/* The row of options w is, or NULL; *eq the offset of its '=' (0 if none). */
static const struct option *option_of(const struct word *w, size_t *eq)
{
	const struct option *o;
	size_t n;

	for (o = options; o < options + NOPTIONS; o++) {
		n = strlen(o->name);
		if (w->len < n || strncasecmp(w->s, o->name, n) != 0)
			continue;
		*eq = 0;
		if (w->len == n)
			return o;
		if (o->kind == OPTION_FLAG || w->s[n] != '=' || (o->kind == OPTION_NUMBER && w->len == n + 1))
			continue;
		*eq = n;
		return o;
	}
	return NULL;
}

bool command_options_digits(const char *s, size_t n, int *v)
{
	size_t i;

	*v = 0;
	if (n == 0 || n > 9)
		return false;	/* nine digits fit an int; every range here is smaller */
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* The number of option o given as word w (its '=' at eq, 0 for none) into *v; false if refused. */
static bool option_number(const struct option *o, const struct word *w, size_t eq, int *v)
{
	if (eq == 0) {
		*v = o->bare;
		return o->bare != 0;
	}
	/* a tournament id as the tournament commands write it: T1 */
	if (o->field == FIELD_LADDER && w->len > eq + 2 && (w->s[eq + 1] == 'T' || w->s[eq + 1] == 't'))
		eq++;
	return command_options_digits(w->s + eq + 1, w->len - eq - 1, v) && w->s[eq + 1] != '0' && *v >= o->min &&
	    *v <= o->max && (!o->odd || *v % 2 == 1);
}

static void option_set(struct command *out, const struct option *o, int v)
{
	switch (o->field) {
	case FIELD_SIZE: out->size = v; break;
	case FIELD_HEX: out->size = v; out->hex = true; break;
	case FIELD_COLOUR: out->color = (enum command_color)o->value; break;
	case FIELD_NOSWAP: out->noswap = true; break;
	case FIELD_LEVEL: out->level = v; break;
	case FIELD_UNRATED: out->unrated = true; break;
	case FIELD_REMIND: out->remind_days = v; break;
	case FIELD_TIMEOUT: out->timeout_days = v; break;
	case FIELD_CLOCK: break;	/* read by option_clock */
	case FIELD_WEEKENDS: out->weekends = true; break;
	case FIELD_LADDER: out->tournament = (unsigned)v; break;
	}
}

/* "unknown option '...' (use -size=N, ..., -remind=DAYS or -timeout=DAYS)": the list from the table. */
static enum command_result unknown_option(struct command *out, const struct word *w)
{
	char q[QUOTE_MAX + 4], list[256];
	size_t i, used = 0;

	list[0] = '\0';
	for (i = 0; i < NOPTIONS && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : i + 1 == NOPTIONS ?
		    " or " : ", ", options[i].usage);
	return command_fail(out, COMMAND_BAD_OPTION, "unknown option '%s' (use %s)", command_quote(w->s, w->len, q),
	    list);
}

/* The word that gave the option of field f (seen by row), or NULL. */
static const struct word *given(const struct word *const seen[NOPTIONS], enum option_field f)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (options[i].field == f)
			return seen[i];
	return NULL;
}

enum command_result command_options_parse(struct command *out, const struct word *w, size_t n)
{
	const struct word *seen[NOPTIONS] = { 0 }, *group[GROUPS] = { 0 }, *remind, *timeout, *clock;
	const struct option *o;
	char q[QUOTE_MAX + 4], q2[QUOTE_MAX + 4];
	size_t i, k, eq;
	int v = 0;

	out->size = RULES_DEFAULT_SIZE;
	out->color = COMMAND_COLOR_BLACK;
	for (i = 0; i < n; i++) {
		o = option_of(&w[i], &eq);
		if (o == NULL)
			return unknown_option(out, &w[i]);
		k = (size_t)(o - options);
		if (seen[k] != NULL && !o->repeats)
			return command_fail(out, COMMAND_BAD_OPTION, "'%s' is given twice: give each option once",
			    command_quote(w[i].s, w[i].len, q));
		if (o->group != GROUP_NONE && group[o->group] != NULL && seen[k] == NULL)
			return command_fail(out, COMMAND_BAD_OPTION, "'%s' contradicts '%s': choose %s",
			    command_quote(w[i].s, w[i].len, q),
			    command_quote(group[o->group]->s, group[o->group]->len, q2),
			    o->group == GROUP_SHAPE ? "a square or a hex board" : o->group == GROUP_COLOUR ? "one colour" :
			    "-timeout=DAYS or -clock=D+I/C");
		if (o->kind == OPTION_CLOCK && (eq == 0 || !gameclock_parse(w[i].s + eq + 1, w[i].len - eq - 1,
		    &out->clock_base, &out->clock_inc, &out->clock_cap)))
			return command_fail(out, COMMAND_BAD_OPTION, o->range, command_quote(w[i].s, w[i].len, q), o->max);
		if (o->kind != OPTION_FLAG && o->kind != OPTION_CLOCK && !option_number(o, &w[i], eq, &v)) {
			if (eq > 0 && eq + 1 < w[i].len && w[i].s[eq + 1] == '0' && o->zero != NULL)
				return command_fail(out, COMMAND_BAD_OPTION, o->zero,
				    command_quote(w[i].s, w[i].len, q));
			return command_fail(out, COMMAND_BAD_OPTION, o->range, command_quote(w[i].s, w[i].len, q),
			    o->min, o->max);
		}
		seen[k] = &w[i];
		if (o->group != GROUP_NONE)
			group[o->group] = &w[i];
		option_set(out, o, v);
	}
	remind = given(seen, FIELD_REMIND);
	timeout = given(seen, FIELD_TIMEOUT);
	clock = given(seen, FIELD_CLOCK);
	if (remind != NULL && clock != NULL)
		return command_fail(out, COMMAND_BAD_OPTION, "%s with %s: a board with a clock warns as each player's "
		    "warn setting says, not by -remind", command_quote(remind->s, remind->len, q),
		    command_quote(clock->s, clock->len, q2));
	if (given(seen, FIELD_WEEKENDS) != NULL && clock == NULL)
		return command_fail(out, COMMAND_BAD_OPTION, "-weekends stops the clocks at weekends: give -clock=D+I/C "
		    "with it");
	if (remind != NULL && timeout != NULL && out->remind_days >= out->timeout_days)
		return command_fail(out, COMMAND_BAD_OPTION,
		    "%s is not shorter than %s: the reminder must come before the "
		    "loss on time", command_quote(remind->s, remind->len, q),
		    command_quote(timeout->s, timeout->len, q2));
	return COMMAND_OK;
}

bool command_options_word(const struct word *w)
{
	const struct option *o;
	size_t eq, i, digits;
	int m;

	o = option_of(w, &eq);
	if (o == NULL)
		return false;
	if (o->kind == OPTION_FLAG || eq == 0)
		return eq == 0 && (o->kind == OPTION_FLAG || o->bare != 0);
	/* a clock: days, '.', '+' and '/' (a password rarely is), right or wrong, an option */
	if (o->kind == OPTION_CLOCK)
		return w->len > eq + 1 && w->len - eq - 1 <= GAMECLOCK_SPEC_SIZE &&
		    strspn(w->s + eq + 1, "0123456789.+/") >= w->len - eq - 1;
	/* a number of as many digits as the largest one: in range or not, an option, no password */
	for (digits = 1, m = o->max; m >= 10; m /= 10)
		digits++;
	if (w->len == eq + 1 || w->len - eq - 1 > digits)
		return false;
	for (i = eq + 1; i < w->len; i++)
		if (w->s[i] < '0' || w->s[i] > '9')
			return false;
	return true;
}

bool command_options_shape(const struct word *w)
{
	size_t eq;
	const struct option *o = option_of(w, &eq);

	return o != NULL && o->group == GROUP_SHAPE && (eq > 0 || o->bare != 0);
}
