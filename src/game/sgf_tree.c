/* sgf: the SGF syntax (sgf4.html, the EBNF), the main line of the first game tree into nodes. */
#include "game/sgf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/sgf_int.h"

#define PROPS_PER_NODE 64

struct parser {
	const char *s;
	size_t len, pos;
	int line, column;
	int depth;
	struct tree *t;
	struct sgf_error *err;
};

void sgf_tree_release(struct tree *t)
{
	free(t->nodes);
	free(t->props);
	free(t->vals);
	strbuf_release(&t->text);
	memset(t, 0, sizeof(*t));
}

static bool grow(void **v, int *alloc, int n, size_t size)
{
	void *p;
	int na;

	if (n < *alloc)
		return true;
	na = *alloc ? 2 * *alloc : 64;
	p = realloc(*v, (size_t)na * size);
	if (p == NULL)
		return false;
	*v = p;
	*alloc = na;
	return true;
}

static int peek(const struct parser *ps)
{
	return ps->pos < ps->len ? (unsigned char)ps->s[ps->pos] : -1;
}

static void advance(struct parser *ps)
{
	if (ps->s[ps->pos] == '\n') {
		ps->line++;
		ps->column = 1;
	} else {
		ps->column++;
	}
	ps->pos++;
}

static void skip_space(struct parser *ps)
{
	while (ps->pos < ps->len && isspace((unsigned char)ps->s[ps->pos]))
		advance(ps);
}

static enum game_status here(struct parser *ps, const char *what)
{
	int c = peek(ps);

	if (c < 0)
		return sgf_fail(ps->err, ps->line, ps->column, "%s, but the file ends", what);
	if (isprint(c))
		return sgf_fail(ps->err, ps->line, ps->column, "%s, not '%c'", what, c);
	return sgf_fail(ps->err, ps->line, ps->column, "%s, not byte 0x%02x", what, (unsigned)c);
}

/* PropValue: "[" text "]", with "\" escaping the next character and "\" newline a soft break. */
static enum game_status parse_value(struct parser *ps, bool keep)
{
	struct tree *t = ps->t;
	struct value v;
	int line = ps->line, column = ps->column;
	size_t start;

	advance(ps);	/* '[' */
	v.off = t->text.len;
	v.line = line;
	v.column = column;
	start = t->text.len;
	for (;;) {
		if (ps->pos >= ps->len)
			return sgf_fail(ps->err, line, column, "the property value opened here is not closed with ']'");
		if (ps->s[ps->pos] == ']')
			break;
		if (ps->s[ps->pos] == '\\') {
			advance(ps);
			if (ps->pos >= ps->len)
				continue;
			if (ps->s[ps->pos] == '\r' || ps->s[ps->pos] == '\n') {
				/* a soft line break: removed with its CR LF, LF CR, CR or LF */
				char first = ps->s[ps->pos];

				advance(ps);
				if (ps->pos < ps->len && (ps->s[ps->pos] == '\r' || ps->s[ps->pos] == '\n') &&
				    ps->s[ps->pos] != first)
					advance(ps);
				continue;
			}
		}
		if (keep) {
			if (t->text.len - start >= SGF_VALUE_MAX)
				return sgf_fail(ps->err, line, column, "a property value of more than %d bytes",
				    SGF_VALUE_MAX);
			strbuf_add(&t->text, ps->s + ps->pos, 1);
		}
		advance(ps);
	}
	advance(ps);	/* ']' */
	if (!keep)
		return GAME_OK;
	strbuf_add(&t->text, "", 1);
	if (t->text.failed || !grow((void **)&t->vals, &t->avals, t->nvals, sizeof(*t->vals)))
		return GAME_NO_MEMORY;
	v.len = t->text.len - 1 - v.off;
	t->vals[t->nvals++] = v;
	return GAME_OK;
}

/* Node: ";" { PropIdent PropValue { PropValue } }; kept when keep (the main line). */
static enum game_status parse_node(struct parser *ps, bool keep)
{
	struct tree *t = ps->t;
	struct node *nd = NULL;
	struct prop pr;
	enum game_status st;
	size_t k;
	int c, i;

	if (keep) {
		if (t->nnodes >= SGF_MAX_NODES)
			return sgf_fail(ps->err, ps->line, ps->column, "more than %d nodes", SGF_MAX_NODES);
		if (!grow((void **)&t->nodes, &t->anodes, t->nnodes, sizeof(*t->nodes)))
			return GAME_NO_MEMORY;
		nd = &t->nodes[t->nnodes++];
		nd->first = t->nprops;
		nd->n = 0;
		nd->line = ps->line;
		nd->column = ps->column;
	}
	advance(ps);	/* ';' */
	for (;;) {
		skip_space(ps);
		c = peek(ps);
		if (c < 0 || !isalpha(c))
			return GAME_OK;
		/* PropIdent: upper-case letters (FF[3]'s lower-case ones are dropped) */
		memset(&pr, 0, sizeof(pr));
		pr.line = ps->line;
		pr.column = ps->column;
		k = 0;
		while (ps->pos < ps->len && isalpha((unsigned char)ps->s[ps->pos])) {
			if (isupper((unsigned char)ps->s[ps->pos])) {
				if (k == ID_MAX)
					return sgf_fail(ps->err, pr.line, pr.column, "a property name of more than %d letters",
					    ID_MAX);
				pr.id[k++] = ps->s[ps->pos];
			}
			advance(ps);
		}
		if (k == 0)
			return sgf_fail(ps->err, pr.line, pr.column, "a property name without an upper-case letter");
		skip_space(ps);
		if (peek(ps) != '[')
			return here(ps, "expected '[' after the property name");
		pr.first = keep ? t->nvals : 0;
		while (peek(ps) == '[') {
			st = parse_value(ps, keep);
			if (st != GAME_OK)
				return st;
			pr.n++;
			skip_space(ps);
		}
		if (!keep)
			continue;
		for (i = nd->first; i < nd->first + nd->n; i++)
			if (strcmp(t->props[i].id, pr.id) == 0)
				return sgf_fail(ps->err, pr.line, pr.column, "property %s twice in one node", pr.id);
		if (nd->n >= PROPS_PER_NODE)
			return sgf_fail(ps->err, pr.line, pr.column, "more than %d properties in one node", PROPS_PER_NODE);
		if (!grow((void **)&t->props, &t->aprops, t->nprops, sizeof(*t->props)))
			return GAME_NO_MEMORY;
		t->props[t->nprops++] = pr;
		nd->n++;
	}
}

/* GameTree: "(" Sequence { GameTree } ")"; the first subtree continues the main line. */
static enum game_status parse_tree(struct parser *ps, bool main_line)
{
	enum game_status st;
	bool first = true;
	int line = ps->line, column = ps->column;

	if (++ps->depth > SGF_MAX_DEPTH)
		return sgf_fail(ps->err, line, column, "variations nested more than %d deep", SGF_MAX_DEPTH);
	advance(ps);	/* '(' */
	skip_space(ps);
	if (peek(ps) != ';')
		return here(ps, "expected ';' to start a node");
	while (peek(ps) == ';') {
		st = parse_node(ps, main_line);
		if (st != GAME_OK)
			return st;
		skip_space(ps);
	}
	while (peek(ps) == '(') {
		st = parse_tree(ps, main_line && first);
		if (st != GAME_OK)
			return st;
		first = false;
		skip_space(ps);
	}
	if (peek(ps) < 0)
		return sgf_fail(ps->err, line, column, "the game tree opened here is not closed with ')'");
	if (peek(ps) != ')')
		return here(ps, "expected ';', '(' or ')'");
	advance(ps);
	ps->depth--;
	return GAME_OK;
}

enum game_status sgf_tree_parse(const char *text, size_t len, struct tree *t, struct sgf_error *err)
{
	struct parser ps = { 0 };

	ps.s = text;
	ps.len = len;
	ps.line = 1;
	ps.column = 1;
	ps.t = t;
	ps.err = err;
	skip_space(&ps);
	if (peek(&ps) != '(')
		return here(&ps, "expected '(' to start an SGF game tree");
	return parse_tree(&ps, true);
}
