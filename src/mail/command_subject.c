/* command_subject: the Subject of a mail, stripped, and what it names (command.h). */
#include "mail/command_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- finding the command ---- */

/*
 * The subject without reply and forward prefixes and [tags], repeated:
 * "Re: [oust] Fwd: AW: move ..." -> "move ...".  Re[2]: and Re(2): count too.
 */
const char *command_subject_strip(const char *s)
{
	/*
	 * English, German (AW, WG), Dutch (Antw), Nordic (SV), French (TR),
	 * Italian (R, RIF), Polish (Odp); and "Oust:" before a command
	 */
	static const char *const prefixes[] = { "antw", "oust", "fwd", "rif", "odp", "enc", "re", "fw", "aw", "wg",
		"sv", "tr", "vs", "r" };
	const char *p = s, *e;
	size_t i, n;

	for (;;) {
		while (command_blank(*s))
			s++;
		if (*s == '[') {
			e = strchr(s, ']');
			if (e == NULL)
				return s;
			s = e + 1;
			continue;
		}
		for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
			n = strlen(prefixes[i]);
			if (strncasecmp(s, prefixes[i], n) != 0)
				continue;
			p = s + n;
			if (*p == '[' || *p == '(') {
				e = p + 1;
				while (*e >= '0' && *e <= '9')
					e++;
				if (e > p + 1 && *e == (*p == '[' ? ']' : ')'))
					p = e + 1;
			}
			while (command_blank(*p))
				p++;
			if (*p == ':')
				break;
		}
		if (i == sizeof prefixes / sizeof prefixes[0])
			return s;
		s = p + 1;
	}
}

/* Whether text starts with a command keyword, after an optional "oust". */
static bool starts_with_command(const struct command_grammar *g, const char *text)
{
	struct word w[2];
	size_t n = command_split(text, w, 2);

	return n > 0 && command_keyword_find(g, &w[command_keyword_index(w, n)]) != NULL;
}

long command_subject_board(const char *stripped)
{
	char line[COMMAND_LINE_MAX + 1];
	struct word w[4];
	size_t n, i = 0;
	long board;

	snprintf(line, sizeof line, "%s", stripped);
	command_unicode_blanks(line);
	n = command_split(line, w, 4);

	if (n > 0 && command_word_is(&w[0], "new"))
		i = 1;	/* the Subject of a new board's mail */
	if (n >= i + 3 && command_word_is(&w[i], "oust") && command_word_is(&w[i + 1], "board") &&
	    ident_board_parse(w[i + 2].s, w[i + 2].len, &board))
		return board;
	return 0;
}

bool command_subject_chat(const char *stripped)
{
	char line[COMMAND_LINE_MAX + 1];
	struct word w[5];
	size_t n;

	snprintf(line, sizeof line, "%s", stripped);
	command_unicode_blanks(line);
	n = command_split(line, w, 5);

	return command_subject_board(stripped) > 0 && n == 5 && command_word_is(&w[3], "chat") &&
	    command_word_is(&w[4], "from");
}

bool command_line_keyword(const struct command_grammar *g, const char *s, size_t len)
{
	char line[COMMAND_LINE_MAX + 1];

	if (len > COMMAND_LINE_MAX)
		len = COMMAND_LINE_MAX;
	memcpy(line, s, len);
	line[len] = '\0';
	command_unicode_blanks(line);
	return starts_with_command(g, line);
}
