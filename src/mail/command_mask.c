/* command_mask: the command line with its secrets masked, and the comment passed on (command.h). */
#include "base/utf8.h"
#include "mail/command_int.h"
#include "mail/mailtext.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- masking ---- */

/*
 * Is argument word i of an unparsed command (or a word after "help") kept
 * in the clear?  The brief's rule: the word in the password's position is
 * masked, and so is every word not recognisable as a keyword, a board, a
 * user id or a placement; every other word is echoed.  Where the
 * position is not certain (words are missing), a word is masked if any
 * reading left puts it where the password goes (a word too many
 * included).  The sender's accounts make most readings certain:
 * "move 101#2 bob D3" from bob's address is "bob" in the user id's place
 * and the password missing, so it is echoed whole; from an address
 * without an account, bob may be the password and is masked.  Placements
 * (mistyped ones too) and known options of the tail are kept, a full name
 * is not.
 */
static bool unparsed_keep(const struct command_grammar *g, const struct keyword *k, const struct layout *l,
    const struct word *a, size_t i)
{
	size_t j;

	if (k->slots[0] == 'v' && command_word_is(&a[0], "new")) {
		/* preview new <size> <placements>: the size is digits or a shape option, no password */
		if (i == 0)
			return true;
		if (i >= 2)
			return command_placements_word(&a[i], true);
		for (j = 0; j < a[i].len && j < 3 && a[i].s[j] >= '0' && a[i].s[j] <= '9'; j++)
			;
		return (j == a[i].len && j > 0) || command_options_word(&a[i]);
	}
	if (l->board && i == 0) {
		/* "101#x": a bad turn after a good board is no password either */
		const char *hash = memchr(a[0].s, '#', a[0].len);
		long b;

		return command_usage_recognisable(g, &a[0]) ||
		    (hash != NULL && ident_board_parse(a[0].s, (size_t)(hash - a[0].s), &b));
	}
	if (i >= l->tail0)
		return command_usage_tail_keep(g, l, &a[i]) || command_keyword_find(g, &a[i]) != NULL ||
		    (l->tail == 'C' && command_usage_recognisable(g, &a[i])) ||
		    (l->tail == 'W' && i == l->tail0 && command_slots_alternative(k, &a[i]));
	if (l->tail == '*' || command_usage_maybe_password(l, i - l->mid0))
		return false;
	return command_usage_recognisable(g, &a[i]);
}

/*
 * unparsed_keep() by every row of k's keyword: a word is kept only if no
 * row could take it for a password ("subscribe <board> <userid>
 * <password>" and "subscribe <userid> <password> all").
 */
static bool unparsed_keep_any(const struct command *cmd, const struct command_grammar *g, const struct keyword *k,
    const struct word *a, size_t na, size_t j)
{
	const struct keyword *r;
	struct layout l;
	size_t i;

	for (i = 0; i < g->n; i++) {
		r = command_grammar_row(g, i);
		if (strcmp(r->name, k->name) != 0)
			continue;
		command_usage_layout(cmd, r, a, na, &l);
		if (!unparsed_keep(g, r, &l, a, j))
			return false;
	}
	return true;
}

char *command_mask(const struct command *cmd)
{
	struct word w[MAX_WORDS];
	const struct keyword *k;
	struct layout l;
	size_t n, kw, i, used = 0;
	bool keep, parsed, only_placements;
	char *res;

	n = command_split(cmd->line, w, MAX_WORDS);
	res = malloc(strlen(cmd->line) + 4 * n + 6);
	if (res == NULL)
		return NULL;
	res[0] = '\0';
	if (n == 0)
		return res;
	kw = command_keyword_index(w, n);
	k = command_keyword_find(cmd->grammar, &w[kw]);
	/* placements sent alone (COMMAND_PLACEMENTS_ONLY) are shown whole */
	only_placements = k == NULL;
	for (i = 0; i < n && only_placements; i++)
		only_placements = command_placements_word(&w[i], false);
	/*
	 * Parsed: exactly the password words are masked (help's ignored words
	 * too).  Unknown first word: only it is kept, the rest is one "****".
	 * Known keyword, not parsed: unparsed_keep() decides word by word.
	 */
	parsed = cmd->syntax != NULL;
	if (parsed)
		k = cmd->syntax;	/* the row that parsed, of a keyword's several */
	if (k != NULL)
		command_usage_layout(cmd, k, &w[kw + 1], n - kw - 1, &l);
	for (i = 0; i < n; i++) {
		if (k == NULL && i > kw && !only_placements) {
			memcpy(res + used, " ****", 5);
			used += 5;
			break;
		}
		if (i <= kw || only_placements)
			keep = true;
		else if (parsed)
			/* a '*' tail (help's words, a queue's turns) is masked too */
			keep = !command_password_slot(k, i - kw - 1) &&
			    !(command_tail_of(k) == '*' && i - kw - 1 >= strlen(k->slots) - 1);
		else
			keep = unparsed_keep_any(cmd, cmd->grammar, k, &w[kw + 1], n - kw - 1, i - kw - 1);
		if (i != 0)
			res[used++] = ' ';
		if (keep) {
			memcpy(res + used, w[i].s, w[i].len);
			used += w[i].len;
		} else {
			memcpy(res + used, "****", 4);
			used += 4;
		}
	}
	res[used] = '\0';
	return res;
}

/* ---- the comment ---- */

/* Does s[0..len) hold pw (not empty)? */
static bool holds(const char *s, size_t len, const char *pw)
{
	size_t n = strlen(pw), i;

	for (i = 0; n > 0 && i + n <= len; i++)
		if (memcmp(s + i, pw, n) == 0)
			return true;
	return false;
}

/*
 * A line the comment must not pass on: one holding the sender's password
 * (anywhere, in any word), or one repeating the command: its keyword, after
 * an optional "oust", then the same board or user id.  A player who writes
 * the command in the Subject and again in the body would otherwise send the
 * password to the opponent.
 */
static bool private_line(const struct command *cmd, const char *s, size_t len)
{
	struct word w[3];
	char line[COMMAND_LINE_MAX + 1];
	size_t n, kw;
	long board;

	if (holds(s, len, cmd->password) || holds(s, len, cmd->new_password))
		return true;
	if (len > COMMAND_LINE_MAX)
		len = COMMAND_LINE_MAX;
	memcpy(line, s, len);
	line[len] = '\0';
	n = command_split(line, w, 3);
	kw = command_keyword_index(w, n);
	if (kw + 1 >= n || cmd->syntax == NULL || !command_word_is(&w[kw], cmd->syntax->name))
		return false;
	if (cmd->board != 0) {
		const char *hash = memchr(w[kw + 1].s, '#', w[kw + 1].len);

		return ident_board_parse(w[kw + 1].s, hash != NULL ? (size_t)(hash - w[kw + 1].s) : w[kw + 1].len,
		    &board) && board == cmd->board;
	}
	return w[kw + 1].len == strlen(cmd->userid) && strncasecmp(w[kw + 1].s, cmd->userid, w[kw + 1].len) == 0;
}

char *command_comment(const struct command *cmd, const char *body)
{
	const char *s;
	char *keep = NULL, *res = NULL;
	size_t blen, n, used = 0, start, end, cut;
	enum mailtext_kind kind;

	if (body == NULL)
		body = "";
	blen = strlen(body);
	s = body + (cmd->source == COMMAND_FROM_BODY && cmd->body_rest <= blen ? cmd->body_rest : 0);
	keep = malloc(blen + 2);
	if (keep == NULL)
		return NULL;
	/* the lines kept, each without trailing blanks */
	while (s != NULL && *s != '\0') {
		n = mailtext_line_len(s);
		kind = mailtext_kind(s, n);
		if (kind == MAILTEXT_END)
			break;
		if ((kind == MAILTEXT_TEXT || kind == MAILTEXT_BLANK) && !private_line(cmd, s, n)) {
			while (n > 0 && (command_blank(s[n - 1]) || s[n - 1] == '\r'))
				n--;
			memcpy(keep + used, s, n);
			used += n;
			keep[used++] = '\n';
		}
		s = mailtext_after(s, kind);
	}
	/* without leading and trailing blank lines */
	start = 0;
	while (start < used && keep[start] == '\n')
		start++;
	end = used;
	while (end > start && keep[end - 1] == '\n')
		end--;
	res = utf8_clean(keep + start, end - start, UTF8_TEXT, 0, &n);
	if (res == NULL)
		goto out;
	cut = utf8_prefix(res, COMMAND_COMMENT_MAX);
	res[cut] = '\0';
out:
	free(keep);
	return res;
}
