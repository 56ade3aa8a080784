/* command_usage: where the words of a command go, the usage errors and the command to send (command.h). */
#include "mail/command_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A keyword, a board, a user id or a placement (the brief's list). */
bool command_usage_recognisable(const struct command_grammar *g, const struct word *w)
{
	return command_keyword_find(g, w) != NULL || command_word_is(w, "oust") || command_slots_board_word(w) ||
	    command_slots_userid_word(w) || command_placements_word(w, false);
}

/* Is w one of the sender's user ids (command_parse_as)? */
static bool sender_word(const struct command *out, const struct word *w)
{
	size_t i;

	for (i = 0; i < out->nsenders; i++)
		if (command_word_is(w, out->senders[i]))
			return true;
	return false;
}

/* Could w stand in a middle slot of this letter? */
static bool slot_fits(const struct command *out, char slot, const struct word *w)
{
	switch (slot) {
	case 'u':
		return command_slots_userid_word(w) && (out->nsenders == 0 || sender_word(out, w));
	case 'o':
		return command_slots_userid_word(w) && !sender_word(out, w);
	case 'a':
		return memchr(w->s, '@', w->len) != NULL;
	default:
		/* a password: anything but the sender's user id */
		return !sender_word(out, w);
	}
}

/* The readings of k middle words a[0..k) in the m slots of l, those the shapes allow if any do. */
static void readings(const struct command *out, const struct word *a, struct layout *l)
{
	unsigned set, n;
	size_t j, s, pass;
	bool fits;

	l->nreadings = 0;
	for (pass = 0; pass < 2 && l->nreadings == 0; pass++) {
		for (set = 0; set < (1u << l->m); set++) {
			for (n = 0, s = 0; s < l->m; s++)
				n += (set >> s) & 1;
			if (n != l->k)
				continue;
			fits = true;
			for (j = 0, s = 0; s < l->m; s++) {
				if (!((set >> s) & 1))
					continue;
				l->at[l->nreadings][j] = (unsigned char)s;
				fits = fits && (pass == 1 || slot_fits(out, l->mid[s], &a[j]));
				j++;
			}
			if (fits)
				l->nreadings++;
		}
	}
}

/* Two words, a letter and a number ("b 3"), end at a[t - 1]. */
static bool split_placement_end(const struct word *a, size_t t, size_t i)
{
	return t >= i + 2 && command_placements_lone_number(a[t - 1].s, a[t - 1].len) &&
	    command_placements_lone_letter(a[t - 2].s, a[t - 2].len);
}

void command_usage_layout(const struct command *out, const struct keyword *k, const struct word *a, size_t na,
    struct layout *l)
{
	const char *s = k->slots;
	size_t fixed = 0, required, i = 0, t;

	memset(l, 0, sizeof *l);
	for (; *s != '\0'; s++) {
		if ((*s >= 'A' && *s <= 'Z') || *s == '*')
			l->tail = *s;
		else if (((*s != 'b' && *s != 't' && *s != 'v') || s != k->slots) && l->m < sizeof l->mid)
			l->mid[l->m++] = *s;
		fixed++;
	}
	if (l->tail != 0)
		fixed--;
	required = fixed + (l->tail == 'L' || l->tail == 'T');
	if (k->slots[0] == 'b' || k->slots[0] == 't' || k->slots[0] == 'v') {
		if (na > 0 && (na >= required || command_slots_board_word(&a[0]))) {
			l->board = true;
			i = 1;
		} else {
			l->board_missing = true;
		}
	}
	t = na;
	if ((l->tail == 'L' || l->tail == 'N' || l->tail == 'T') && na >= i + l->m + (l->tail != 'N')) {
		t = i + l->m;	/* a word for every slot: the parser's positions */
	} else if (l->tail == 'N' || l->tail == 'T' || l->tail == 'C' || l->tail == 'W' || l->tail == 'B') {
		t = i + l->m < na ? i + l->m : na;
	} else if (l->tail == 'L') {
		for (;;) {
			if (t > i && command_placements_word(&a[t - 1], true))
				t--;
			else if (split_placement_end(a, t, i))
				t -= 2;
			else
				break;
		}
		l->tail_missing = t == na;
	} else if (l->tail == 'O') {
		while (t > i && a[t - 1].s[0] == '-')
			t--;
	}
	l->mid0 = i;
	l->k = t - i;
	l->tail0 = t;
	l->positional = l->k == l->m;
	if (l->k < l->m)
		readings(out, &a[i], l);
}

/* May middle word j stand in a password slot, or be a word too many? */
bool command_usage_maybe_password(const struct layout *l, size_t j)
{
	size_t lo, s, r;

	if (l->positional)
		return l->mid[j] == 'p';
	if (l->k > l->m) {
		lo = l->k - l->m;
		if (j < lo || j >= l->m)
			return true;	/* a word too many: it could be anything */
		for (s = j - lo; s <= j; s++)
			if (l->mid[s] == 'p')
				return true;
		return false;
	}
	for (r = 0; r < l->nreadings; r++)
		if (l->mid[l->at[r][j]] == 'p')
			return true;
	return false;
}

/* Middle slot s of l: the word every reading puts there (its index in *j), else false. */
static bool slot_word(const struct layout *l, size_t s, size_t *j)
{
	size_t r, w, found = SIZE_MAX;

	if (l->positional) {
		*j = s;
		return true;
	}
	if (l->k > l->m || l->nreadings == 0)
		return false;
	for (r = 0; r < l->nreadings; r++) {
		for (w = 0; w < l->k && l->at[r][w] != s; w++)
			;
		if (w == l->k || (found != SIZE_MAX && found != w))
			return false;
		found = w;
	}
	*j = found;
	return true;
}

/* Is middle slot s empty in every reading? */
static bool slot_empty(const struct layout *l, size_t s)
{
	size_t r, w;

	if (l->positional || l->k > l->m)
		return false;
	for (r = 0; r < l->nreadings; r++)
		for (w = 0; w < l->k; w++)
			if (l->at[r][w] == s)
				return false;
	return true;
}

/*
 * The name of argument n of k's usage, into buf: its "<...>" ("<password>",
 * "<board>" of "<board>[#turn]"), or the word itself for a word the
 * command takes as it is ("all", "on|off").  An argument runs to the next
 * space outside "<...>" and "[...]".
 */
static const char *slot_name(const struct keyword *k, size_t n, char *buf, size_t size)
{
	const char *p = k->synopsis + strcspn(k->synopsis, " "), *e, *lt, *gt;
	int depth;

	for (;;) {
		while (*p == ' ')
			p++;
		if (*p == '\0') {
			snprintf(buf, size, "a word");
			return buf;
		}
		for (e = p, depth = 0; *e != '\0' && (depth > 0 || *e != ' '); e++)
			depth += (*e == '<' || *e == '[') - (*e == '>' || *e == ']');
		if (n-- == 0)
			break;
		p = e;
	}
	lt = memchr(p, '<', (size_t)(e - p));
	gt = lt != NULL ? memchr(lt, '>', (size_t)(e - lt)) : NULL;
	if (gt != NULL)
		snprintf(buf, size, "%.*s", (int)(gt - lt + 1), lt);
	else
		snprintf(buf, size, "%.*s", (int)(e - p), p);
	return buf;
}

/* A missing slot in words: "your password", "your user id", else its "<name>". */
static const char *missing_name(const struct keyword *k, size_t n, char *buf, size_t size)
{
	slot_name(k, n, buf, size);
	if (strcmp(buf, "<password>") == 0)
		snprintf(buf, size, "your password");
	else if (strcmp(buf, "<userid>") == 0)
		snprintf(buf, size, "your user id");
	return buf;
}

/*
 * Is tail word w of l kept in the clear?  Placements, mistyped ones too,
 * and known options; a full name or a text is not (it may be the
 * password, shifted there by a missing word).
 */
bool command_usage_tail_keep(const struct command_grammar *g, const struct layout *l, const struct word *w)
{
	char fix[COMMAND_LINE_MAX + 1];

	if (l->tail == 'C')
		return command_slots_class_word(g, w, &(int){ 0 });
	if (l->tail == 'B')
		return command_slots_board_word(w);
	if (l->tail == 'L')
		return w->len <= COMMAND_LINE_MAX && command_placements_word(w, true) ? true :
		    (memcpy(fix, w->s, w->len), fix[w->len] = '\0', command_placements_shape(fix));
	return l->tail == 'O' && command_options_word(w);
}

void command_usage_send(struct command *out, const struct keyword *k, const struct layout *l, const struct word *a,
    size_t na, const char *tail)
{
	char name[40], buf[COMMAND_ERROR_MAX];
	const size_t size = sizeof buf;
	size_t used = 0, s, j, first;
	bool tail_words = false;

#define PUT(...) (used += (size_t)snprintf(buf + used, used < size ? size - used : 0, __VA_ARGS__))
	PUT("%s", k->name);
	first = l->board || l->board_missing ? 1 : 0;
	if (l->board)
		PUT(" %.*s", (int)a[0].len, a[0].s);
	else if (l->board_missing && out->subject_board > 0)
		PUT(" %ld", out->subject_board);	/* the board the Subject names (Re: Oust Board 101 ...) */
	else if (l->board_missing)
		PUT(" %s", slot_name(k, 0, name, sizeof name));
	for (s = 0; s < l->m; s++) {
		if (l->mid[s] != 'p' && slot_word(l, s, &j))
			PUT(" %.*s", (int)a[l->mid0 + j].len, a[l->mid0 + j].s);
		else if (l->mid[s] == 'u' && out->nsenders == 1)
			PUT(" %s", out->senders[0]);
		else
			PUT(" %s", slot_name(k, first + s, name, sizeof name));
	}
	if (tail != NULL) {
		PUT(" %s", tail);
	} else {
		for (j = l->tail0; j < na; j++) {
			if (!command_usage_tail_keep(out->grammar, l, &a[j]))
				continue;
			PUT(" %.*s", (int)a[j].len, a[j].s);
			tail_words = true;
		}
		if (!tail_words && (l->tail == 'L' || l->tail == 'T'))
			PUT(" %s", slot_name(k, first + l->m, name, sizeof name));
	}
#undef PUT
	if (used < size)
		command_usage_add_send(out, buf);
}

/* Add ". Send: <the command>" to out->error (after a '?', " Send: ..."), if it fits. */
void command_usage_add_send(struct command *out, const char *line)
{
	size_t used = strlen(out->error);
	int w = snprintf(out->error + used, sizeof out->error - used, "%s Send: %s",
	    used > 0 && out->error[used - 1] == '?' ? "" : ".", line);

	if (w < 0 || (size_t)w >= sizeof out->error - used)
		out->error[used] = '\0';
}

/*
 * "move needs: ...; missing: your password. Send: move 101#2 bob
 * <password> D3": the usage, naming what is missing (or how many words
 * are too many) as far as the readings of the words tell, and the command
 * to send with the words given in their places.
 */
enum command_result command_usage_error(struct command *out, const struct keyword *k, const struct word *a, size_t na)
{
	static const char *const counts[] = { "", "one", "two", "three" };
	char what[COMMAND_ERROR_MAX], name[40];
	struct layout l;
	size_t used = 0, s, first, missing, unsure = 0, listed = 0, j;
	long board;

	command_usage_layout(out, k, a, na, &l);
	if (l.board) {
		/* the board, for the Subject of the error (the turn does not matter here) */
		const char *hash = memchr(a[0].s, '#', a[0].len);

		if (ident_board_parse(a[0].s, hash != NULL ? (size_t)(hash - a[0].s) : a[0].len, &board))
			out->board = board;
	} else if (l.board_missing && out->subject_board > 0) {
		out->board = out->subject_board;
	}
	what[0] = '\0';
#define ADD(...) (used += (size_t)snprintf(what + used, sizeof what - used, __VA_ARGS__), \
	    used = used < sizeof what ? used : sizeof what - 1)
	first = l.board || l.board_missing ? 1 : 0;
	if (l.board_missing)
		ADD("%s", slot_name(k, 0, name, sizeof name));
	if (l.k < l.m) {
		missing = l.m - l.k;
		for (s = 0; s < l.m; s++)
			unsure += !slot_empty(&l, s) && !slot_word(&l, s, &j);
		if (used > 0)
			ADD(", ");
		if (unsure == 0) {
			/* every reading leaves the same slots empty: "your user id, your password and <placements>" */
			for (s = 0; s < l.m; s++)
				if (slot_empty(&l, s))
					ADD("%s%s", listed++ == 0 ? "" : listed == missing + !!l.tail_missing ? " and " : ", ",
					    missing_name(k, first + s, name, sizeof name));
		} else {
			/* the slots some reading leaves empty */
			for (s = 0, unsure = 0; s < l.m; s++)
				unsure += !slot_word(&l, s, &j);
			if (unsure > 2)
				ADD("%s of ", counts[missing < 4 ? missing : 0]);
			for (s = 0; s < l.m; s++)
				if (!slot_word(&l, s, &j))
					ADD("%s%s", listed++ == 0 ? "" : unsure > 2 ? " " : " or ",
					    slot_name(k, first + s, name, sizeof name));
		}
	}
	if (l.tail_missing)
		ADD("%s%s", used == 0 ? "" : listed > 0 ? " and " : " ", slot_name(k, first + l.m, name, sizeof name));
#undef ADD
	if (used > 0) {
		command_fail(out, COMMAND_USAGE, "%s needs: %s; missing: %s", k->name, k->synopsis, what);
		command_usage_send(out, k, &l, a, na, NULL);
		return COMMAND_USAGE;
	}
	if ((l.tail == 'C' || l.tail == 'W') && na > l.tail0 + 1)
		return command_fail(out, COMMAND_USAGE, "%s needs: %s; %zu word%s too many", k->name, k->synopsis,
		    na - l.tail0 - 1, na - l.tail0 - 1 == 1 ? "" : "s");
	if (l.tail == 0 && l.k > l.m)
		return command_fail(out, COMMAND_USAGE, "%s needs: %s; %zu word%s too many", k->name, k->synopsis,
		    l.k - l.m, l.k - l.m == 1 ? "" : "s");
	return command_fail(out, COMMAND_USAGE, "%s needs: %s", k->name, k->synopsis);
}

/*
 * A line of placements alone ("C3", "c3 d4", "C3,D4"): a reply to a board
 * mail that forgot the command.  The placements are parsed into out and
 * the error says what to send; command_parse() adds the board of the
 * Subject.
 */
bool command_usage_placements_only(struct command *out, const struct word *w, size_t n)
{
	char text[COMMAND_LINE_MAX + 1], list[COMMAND_LINE_MAX + 1];
	size_t i, used = 0;

	for (i = 0; i < n; i++)
		if (!command_placements_word(&w[i], false))
			return false;
	for (i = 0; i < n; i++) {
		if (i > 0 && text[used - 1] != ',' && w[i].s[0] != ',')
			text[used++] = ',';
		memcpy(text + used, w[i].s, w[i].len);
		used += w[i].len;
	}
	text[used] = '\0';
	if (command_placements_parse(out, text, list, sizeof list) != COMMAND_OK)
		return false;
	command_fail(out, COMMAND_PLACEMENTS_ONLY, "'%s' alone is not a command. Send: move <board>[#turn] "
	    "<userid> <password> %s", command_placements_text(out, list, sizeof list), list);
	return true;
}

/*
 * "unknown command 'mvoe' (did you mean move?); the commands are
 * register, ... and help": the keywords of g, and the nearest one when a
 * word is one edit from it (two for a word of five letters or more).
 */
enum command_result command_usage_unknown(struct command *out, const struct command_grammar *g, const struct word *w)
{
	char q[QUOTE_MAX + 4], near[80] = "", list[COMMAND_ERROR_MAX];
	size_t i, d, best = SIZE_MAX, used = 0, n = g->n;
	const char *name;

	list[0] = '\0';
	for (i = 0; i < n; i++) {
		name = command_grammar_row(g, i)->name;
		if (command_grammar_find(g, name) != command_grammar_row(g, i))
			continue;	/* a keyword's second row */
		d = ident_keyword_distance(w->s, w->len, name);
		if (d < best && ident_keyword_near(w->s, w->len, name)) {
			best = d;
			snprintf(near, sizeof near, " (did you mean %s?)", name);
		}
		if (used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" :
			    i + 1 == n ? " and " : ", ", name);
	}
	return command_fail(out, COMMAND_UNKNOWN, "unknown command '%s'%s; the commands are %s",
	    command_quote(w->s, w->len, q), near, list);
}
