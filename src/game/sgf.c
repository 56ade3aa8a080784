/*
 * sgf: a game as an SGF file and back (sgf.h says what goes where).
 * SGF FF[4]: https://www.red-bean.com/sgf/ (sgf4.html: the grammar, the
 * setup properties AB, AW and AE, and the root properties).
 */
#include "game/sgf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "base/strbuf.h"
#include "base/version.h"
#include "game/gamefile.h"
#include "game/rules.h"

#define ID_MAX 15		/* letters in a property identifier */
#define PROPS_PER_NODE 64

/* ---- the nodes after the root, as the history makes them ---- */

struct step {
	int turn;		/* index in g->turns */
	bool first;		/* the first node of its turn */
	int point;		/* the placement, RULES_NO_POINT for a turn without one */
	enum rules_color color;	/* the placement's colour */
	size_t removed;		/* index of its first removed stone in steps.removed */
	int nremoved;
	bool more;		/* a placement of the same turn follows */
	bool over;		/* the game ended with this node */
};

struct steps {
	struct step *v;
	int n, alloc;
	int *removed;
	size_t nremoved, aremoved;
};

static void steps_release(struct steps *s)
{
	free(s->v);
	free(s->removed);
	memset(s, 0, sizeof(*s));
}

static bool steps_add(struct steps *s, const struct step *st, const int *removed, int nremoved)
{
	void *p;
	size_t na;
	int nv;

	if (s->n == s->alloc) {
		nv = s->alloc ? 2 * s->alloc : 64;
		p = realloc(s->v, (size_t)nv * sizeof(*s->v));
		if (p == NULL)
			return false;
		s->v = p;
		s->alloc = nv;
	}
	if (s->nremoved + (size_t)nremoved > s->aremoved) {
		na = s->aremoved ? 2 * s->aremoved : 256;
		while (na < s->nremoved + (size_t)nremoved)
			na *= 2;
		p = realloc(s->removed, na * sizeof(*s->removed));
		if (p == NULL)
			return false;
		s->removed = p;
		s->aremoved = na;
	}
	s->v[s->n] = *st;
	s->v[s->n].removed = s->nremoved;
	s->v[s->n].nremoved = nremoved;
	if (nremoved > 0)
		memcpy(s->removed + s->nremoved, removed, (size_t)nremoved * sizeof(*removed));
	s->nremoved += (size_t)nremoved;
	s->n++;
	return true;
}

static enum sgf_status fail(struct sgf_error *err, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static enum sgf_status fail(struct sgf_error *err, int line, int column, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	if (err == NULL)
		return SGF_BAD;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err->line = line;
	err->column = column;
	if (line > 0)
		snprintf(err->msg, sizeof(err->msg), "line %d, column %d: %s", line, column, msg);
	else
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	return SGF_BAD;
}

/*
 * Replay g's history placement by placement (the history is legal:
 * game_replay() said so) into one step per node.
 */
static enum sgf_status make_steps(const struct game *g, struct steps *s)
{
	static const struct step zero;
	struct rules_game *rg;
	struct rules_event ev;
	struct step st;
	uint8_t before[RULES_MAX_CELLS];
	int removed[RULES_MAX_POINTS], nremoved, i, j, p;
	const int *points;
	enum sgf_status ret = SGF_NO_MEMORY;

	rg = malloc(sizeof(*rg));
	if (rg == NULL)
		return SGF_NO_MEMORY;
	rules_game_init_shape(rg, g->shape, g->size, g->swap);
	for (i = 0; i < g->nturns; i++) {
		const struct game_turn *t = &g->turns[i];

		st = zero;
		st.turn = i;
		st.first = true;
		st.color = t->color;
		switch (t->action) {
		case GAME_PLACE:
			points = game_turn_points(g, t);
			for (j = 0; j < t->npoints; j++) {
				memcpy(before, rg->board.color, sizeof(before));
				rules_game_play(rg, points[j], &ev);
				nremoved = 0;
				for (p = 0; p < rg->board.ncells; p++)
					if (before[p] != rg->board.color[p] && p != points[j])
						removed[nremoved++] = p;
				st.point = points[j];
				st.first = j == 0;
				st.more = j < t->npoints - 1;
				st.over = rg->result != RULES_PLAYING;
				if (!steps_add(s, &st, removed, nremoved))
					goto out;
			}
			continue;
		case GAME_SWAP:
			rules_game_swap(rg);
			break;
		case GAME_RESIGN:
		case GAME_TIMEOUT:
			rules_game_resign(rg, t->color);
			break;
		case GAME_PASS:
			/* the rules passed for the side without a placement */
			break;
		}
		st.point = RULES_NO_POINT;
		st.over = rg->result != RULES_PLAYING;
		if (!steps_add(s, &st, NULL, 0))
			goto out;
	}
	ret = SGF_OK;
out:
	free(rg);
	return ret;
}

/* ---- writing ---- */

void sgf_point_name(const struct rules_board *b, int p, char out[3])
{
	out[0] = (char)('a' + rules_x(b, p));
	out[1] = (char)('a' + b->width - 1 - rules_y(b, p));
	out[2] = '\0';
}

/* A property value, ']' and '\' escaped (SGF 3.2: Text and SimpleText). */
static void put_value(struct strbuf *b, const char *s)
{
	strbuf_add(b, "[", 1);
	for (; *s != '\0'; s++) {
		if (*s == ']' || *s == '\\')
			strbuf_add(b, "\\", 1);
		strbuf_add(b, s, 1);
	}
	strbuf_add(b, "]", 1);
}

static void put_prop(struct strbuf *b, const char *id, const char *value)
{
	strbuf_puts(b, id);
	put_value(b, value);
}

static const char *color_word(enum rules_color c)
{
	return c == RULES_BLACK ? "Black" : "White";
}

static const char *result_str(const struct game *g, char buf[4])
{
	const char *side = g->rg.result == RULES_BLACK_WINS ? "B+" : "W+";

	if (g->rg.result == RULES_DRAW)
		return "0";
	snprintf(buf, 4, "%s%s", side, g->end == GAME_END_RESIGN ? "R" : g->end == GAME_END_TIMEOUT ? "T" : "");
	return buf;
}

/* The comment of a node: what the turn was, what a capture did, how the game ended. */
static void node_comment(struct strbuf *c, const struct game *g, const struct step *st,
    const char *black0, const char *white0)
{
	const struct game_turn *t = &g->turns[st->turn];
	const char *winner;
	char name[4];
	int j;

	if (st->first) {
		strbuf_printf(c, "Turn %d: %s (%s)", t->number, t->player, color_word(t->color));
		switch (t->action) {
		case GAME_PLACE:
			for (j = 0; j < t->npoints; j++) {
				rules_point_name(&g->rg.board, game_turn_points(g, t)[j], name);
				strbuf_printf(c, "%s%s", j == 0 ? " " : ",", name);
			}
			strbuf_puts(c, ".");
			break;
		case GAME_PASS:
			strbuf_puts(c, " has no placement and passes.");
			break;
		case GAME_SWAP:
			strbuf_printf(c, " swaps: %s now plays Black, %s White.", white0, black0);
			break;
		case GAME_RESIGN:
			strbuf_puts(c, " resigns.");
			break;
		case GAME_TIMEOUT:
			strbuf_puts(c, " lost on time.");
			break;
		}
	}
	if (st->nremoved > 0) {
		rules_point_name(&g->rg.board, st->point, name);
		strbuf_printf(c, "%s%s removes %d %s stone%s%s%s.", c->len ? "\n" : "", name,
		    st->nremoved, st->color == RULES_BLACK ? "white" : "black", st->nremoved == 1 ? "" : "s",
		    st->more ? "; places again: " : "", st->more ? t->player : "");
	}
	if (st->over) {
		winner = game_player_of(g, g->rg.result == RULES_BLACK_WINS ? RULES_BLACK : RULES_WHITE);
		if (g->rg.result == RULES_DRAW)
			strbuf_printf(c, "%sNeither side can place: a draw.", c->len ? "\n" : "");
		else
			strbuf_printf(c, "%s%s (%s) wins%s.", c->len ? "\n" : "", winner,
			    g->rg.result == RULES_BLACK_WINS ? "Black" : "White",
			    g->end == GAME_END_CAPTURE ? ": no enemy stone is left" : "");
	}
}

/* A note of undo, draw by agreement or chat: a node of its own, OUSTNOTE[] as the file writes it, and a comment. */
static void note_node(struct strbuf *b, const struct game *g, const struct game_note *n)
{
	char line[GAMEFILE_NOTE_SIZE], c[160];

	put_prop(b, ";OUSTNOTE", gamefile_note_text(n, line));
	switch (n->kind) {
	case GAME_NOTE_UNDO:
		snprintf(c, sizeof c, "%s asks to take back their last turn.", n->player);
		break;
	case GAME_NOTE_PROPOSE:
		snprintf(c, sizeof c, "%s offers a draw.", n->player);
		break;
	case GAME_NOTE_ACCEPT:
		if (n->undo)
			snprintf(c, sizeof c, "%s agrees: the turns from turn %d on are taken back.", n->player,
			    n->undo_from);
		else
			snprintf(c, sizeof c, "%s accepts: the game is drawn by agreement.", n->player);
		break;
	case GAME_NOTE_REJECT:
		snprintf(c, sizeof c, "%s declines the %s.", n->player, n->undo ? "undo" : "draw");
		break;
	case GAME_NOTE_CHAT:
		/* the text went by mail and is not kept (game.h) */
		snprintf(c, sizeof c, "%s chats.", n->player);
		break;
	}
	put_prop(b, "C", c);
	strbuf_puts(b, "\n");
	(void)g;
}

enum sgf_status sgf_format(const struct game *g, char **out, size_t *len, struct sgf_error *err)
{
	struct strbuf b = STRBUF_INIT, c = STRBUF_INIT;
	struct steps s = { 0 };
	struct game_replay *r;
	const struct rules_board *bd = &g->rg.board;
	char tbuf[GAMEFILE_TIME_SIZE], pt[3], num[32], res[4], *text;
	const char *black0, *white0;
	enum sgf_status ret;
	bool swapped = g->nturns >= 2 && g->turns[1].action == GAME_SWAP;
	int i, j, k, x, y;

	*out = NULL;
	*len = 0;
	r = malloc(sizeof(*r));
	if (r == NULL)
		return SGF_NO_MEMORY;
	if (game_verify(g, r) != GAME_OK) {
		ret = fail(err, 0, 0, "board %ld: its history does not lead to its position (%s): "
		    "the record would show another game", g->board, r->why);
		goto out;
	}
	ret = make_steps(g, &s);
	if (ret != SGF_OK)
		goto out;
	/* the players at turn 1: a swap exchanged the names (game.h) */
	black0 = swapped ? g->white : g->black;
	white0 = swapped ? g->black : g->white;

	strbuf_printf(&b, "(;FF[4]GM[%d]CA[UTF-8]AP[oustpbm:%s]SZ[%d]\n", bd->shape == RULES_HEX ? 11 : 1,
	    OUSTPBM_VERSION, bd->width);
	snprintf(num, sizeof(num), "Oust board %ld", g->board);
	put_prop(&b, "GN", num);
	put_prop(&b, "PB", black0);
	put_prop(&b, "PW", white0);
	gamefile_time_str(g->created, tbuf);
	tbuf[10] = '\0';
	put_prop(&b, "DT", tbuf);
	if (game_over(g))
		put_prop(&b, "RE", result_str(g, res));
	strbuf_puts(&b, "\n");
	if (bd->shape == RULES_HEX)
		strbuf_printf(&c, "Oust, by Mark Steere: board %ld, a hex-hex board of side %d drawn on a "
		    "Hex board of %d (the dimmed corners are not part of it), swap %s.", g->board, g->size,
		    bd->width, g->swap ? "on" : "off");
	else
		strbuf_printf(&c, "Oust, by Mark Steere: board %ld, %dx%d, swap %s.", g->board, g->size,
		    g->size, g->swap ? "on" : "off");
	strbuf_puts(&c, " Each node shows what one placement changed: the stone placed (AB, AW) "
	    "and the stones it removed (AE).");
	if (c.failed) {
		ret = SGF_NO_MEMORY;
		goto out;
	}
	put_prop(&b, "C", c.s);
	strbuf_release(&c);
	strbuf_puts(&b, "\n");
	if (bd->shape == RULES_HEX) {
		strbuf_puts(&b, "DD");
		for (y = bd->width - 1; y >= 0; y--)
			for (x = 0; x < bd->width; x++)
				if (x < rules_row_first(bd, y) || x >= rules_row_first(bd, y) + rules_row_len(bd, y))
					strbuf_printf(&b, "[%c%c]", 'a' + x, 'a' + bd->width - 1 - y);
		strbuf_puts(&b, "\n");
	}
	snprintf(num, sizeof(num), "%ld", g->board);
	put_prop(&b, "OUSTBOARD", num);
	if (bd->shape == RULES_HEX)
		put_prop(&b, "OUSTSHAPE", "hex");
	put_prop(&b, "OUSTSWAP", g->swap ? "on" : "off");
	put_prop(&b, "OUSTCREATED", gamefile_time_str(g->created, tbuf));
	put_prop(&b, "OUSTLASTMOVE", gamefile_time_str(g->last_move, tbuf));
	if (g->remind > 0)
		put_prop(&b, "OUSTREMIND", gamefile_time_str(g->remind, tbuf));
	if (g->thread[0] != '\0')
		put_prop(&b, "OUSTTHREAD", g->thread);
	if (g->robot_level > 0) {
		snprintf(num, sizeof(num), "%d", g->robot_level);
		put_prop(&b, "OUSTROBOTLEVEL", num);
	}
	strbuf_puts(&b, "\n");

	for (i = 0, k = 0; i < s.n; i++) {
		const struct step *st = &s.v[i];
		const struct game_turn *t = &g->turns[st->turn];

		/* the notes before this turn, a node each (game.h: they stand between the turns) */
		for (; st->first && k < g->nnotes && g->notes[k].after < t->number; k++)
			note_node(&b, g, &g->notes[k]);
		strbuf_puts(&b, ";");
		if (st->first) {
			strbuf_printf(&b, "OUSTTURN[%d %s %c %s", t->number, gamefile_time_str(t->time, tbuf),
			    t->color == RULES_BLACK ? 'x' : 'o', t->player);
			if (t->action != GAME_PLACE)
				strbuf_printf(&b, " %s", game_action_str(t->action));
			strbuf_puts(&b, "]");
		}
		if (st->point != RULES_NO_POINT) {
			sgf_point_name(bd, st->point, pt);
			strbuf_printf(&b, "%s[%s]", st->color == RULES_BLACK ? "AB" : "AW", pt);
		}
		if (st->nremoved > 0) {
			strbuf_puts(&b, "AE");
			for (j = 0; j < st->nremoved; j++) {
				sgf_point_name(bd, s.removed[st->removed + (size_t)j], pt);
				strbuf_printf(&b, "[%s]", pt);
			}
		}
		node_comment(&c, g, st, black0, white0);
		if (c.len > 0 && !c.failed)
			put_prop(&b, "C", c.s);
		if (c.failed)
			b.failed = true;
		strbuf_release(&c);
		strbuf_puts(&b, "\n");
	}
	for (; k < g->nnotes; k++)
		note_node(&b, g, &g->notes[k]);
	strbuf_puts(&b, ")\n");
	ret = SGF_NO_MEMORY;
	*len = b.len;
	text = strbuf_finish(&b);
	if (text == NULL) {
		*len = 0;
		goto out;
	}
	*out = text;
	ret = SGF_OK;
out:
	strbuf_release(&b);
	strbuf_release(&c);
	steps_release(&s);
	free(r);
	return ret;
}

/* ---- reading: the main line of the first game tree ---- */

struct value {
	size_t off, len;	/* in tree.text */
	int line, column;
};

struct prop {
	char id[ID_MAX + 1];
	int first, n;		/* its values: tree.vals[first .. first + n) */
	int line, column;
};

struct node {
	int first, n;		/* its properties: tree.props[first .. first + n) */
	int line, column;
};

struct tree {
	struct node *nodes;
	int nnodes, anodes;
	struct prop *props;
	int nprops, aprops;
	struct value *vals;
	int nvals, avals;
	struct strbuf text;	/* the values, each NUL-terminated */
};

struct parser {
	const char *s;
	size_t len, pos;
	int line, column;
	int depth;
	struct tree *t;
	struct sgf_error *err;
};

static void tree_release(struct tree *t)
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

static enum sgf_status here(struct parser *ps, const char *what)
{
	int c = peek(ps);

	if (c < 0)
		return fail(ps->err, ps->line, ps->column, "%s, but the file ends", what);
	if (isprint(c))
		return fail(ps->err, ps->line, ps->column, "%s, not '%c'", what, c);
	return fail(ps->err, ps->line, ps->column, "%s, not byte 0x%02x", what, (unsigned)c);
}

/* PropValue: "[" text "]", with "\" escaping the next character and "\" newline a soft break. */
static enum sgf_status parse_value(struct parser *ps, bool keep)
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
			return fail(ps->err, line, column, "the property value opened here is not closed with ']'");
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
				return fail(ps->err, line, column, "a property value of more than %d bytes",
				    SGF_VALUE_MAX);
			strbuf_add(&t->text, ps->s + ps->pos, 1);
		}
		advance(ps);
	}
	advance(ps);	/* ']' */
	if (!keep)
		return SGF_OK;
	strbuf_add(&t->text, "", 1);
	if (t->text.failed || !grow((void **)&t->vals, &t->avals, t->nvals, sizeof(*t->vals)))
		return SGF_NO_MEMORY;
	v.len = t->text.len - 1 - v.off;
	t->vals[t->nvals++] = v;
	return SGF_OK;
}

/* Node: ";" { PropIdent PropValue { PropValue } }; kept when keep (the main line). */
static enum sgf_status parse_node(struct parser *ps, bool keep)
{
	struct tree *t = ps->t;
	struct node *nd = NULL;
	struct prop pr;
	enum sgf_status st;
	size_t k;
	int c, i;

	if (keep) {
		if (t->nnodes >= SGF_MAX_NODES)
			return fail(ps->err, ps->line, ps->column, "more than %d nodes", SGF_MAX_NODES);
		if (!grow((void **)&t->nodes, &t->anodes, t->nnodes, sizeof(*t->nodes)))
			return SGF_NO_MEMORY;
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
			return SGF_OK;
		/* PropIdent: upper-case letters (FF[3]'s lower-case ones are dropped) */
		memset(&pr, 0, sizeof(pr));
		pr.line = ps->line;
		pr.column = ps->column;
		k = 0;
		while (ps->pos < ps->len && isalpha((unsigned char)ps->s[ps->pos])) {
			if (isupper((unsigned char)ps->s[ps->pos])) {
				if (k == ID_MAX)
					return fail(ps->err, pr.line, pr.column, "a property name of more than %d letters",
					    ID_MAX);
				pr.id[k++] = ps->s[ps->pos];
			}
			advance(ps);
		}
		if (k == 0)
			return fail(ps->err, pr.line, pr.column, "a property name without an upper-case letter");
		skip_space(ps);
		if (peek(ps) != '[')
			return here(ps, "expected '[' after the property name");
		pr.first = keep ? t->nvals : 0;
		while (peek(ps) == '[') {
			st = parse_value(ps, keep);
			if (st != SGF_OK)
				return st;
			pr.n++;
			skip_space(ps);
		}
		if (!keep)
			continue;
		for (i = nd->first; i < nd->first + nd->n; i++)
			if (strcmp(t->props[i].id, pr.id) == 0)
				return fail(ps->err, pr.line, pr.column, "property %s twice in one node", pr.id);
		if (nd->n >= PROPS_PER_NODE)
			return fail(ps->err, pr.line, pr.column, "more than %d properties in one node", PROPS_PER_NODE);
		if (!grow((void **)&t->props, &t->aprops, t->nprops, sizeof(*t->props)))
			return SGF_NO_MEMORY;
		t->props[t->nprops++] = pr;
		nd->n++;
	}
}

/* GameTree: "(" Sequence { GameTree } ")"; the first subtree continues the main line. */
static enum sgf_status parse_tree(struct parser *ps, bool main_line)
{
	enum sgf_status st;
	bool first = true;
	int line = ps->line, column = ps->column;

	if (++ps->depth > SGF_MAX_DEPTH)
		return fail(ps->err, line, column, "variations nested more than %d deep", SGF_MAX_DEPTH);
	advance(ps);	/* '(' */
	skip_space(ps);
	if (peek(ps) != ';')
		return here(ps, "expected ';' to start a node");
	while (peek(ps) == ';') {
		st = parse_node(ps, main_line);
		if (st != SGF_OK)
			return st;
		skip_space(ps);
	}
	while (peek(ps) == '(') {
		st = parse_tree(ps, main_line && first);
		if (st != SGF_OK)
			return st;
		first = false;
		skip_space(ps);
	}
	if (peek(ps) < 0)
		return fail(ps->err, line, column, "the game tree opened here is not closed with ')'");
	if (peek(ps) != ')')
		return here(ps, "expected ';', '(' or ')'");
	advance(ps);
	ps->depth--;
	return SGF_OK;
}

/* ---- reading: from the nodes to the game ---- */

static const struct prop *find(const struct tree *t, const struct node *nd, const char *id)
{
	int i;

	for (i = nd->first; i < nd->first + nd->n; i++)
		if (strcmp(t->props[i].id, id) == 0)
			return &t->props[i];
	return NULL;
}

static const char *val(const struct tree *t, const struct prop *p, int k)
{
	return t->text.s + t->vals[p->first + k].off;
}

/* The single value of property id of node nd, or NULL (absent); a list is an error. */
static enum sgf_status single(const struct tree *t, const struct node *nd, const char *id, bool needed,
    const char **out, struct sgf_error *err)
{
	const struct prop *p = find(t, nd, id);

	*out = NULL;
	if (p == NULL) {
		if (needed && strncmp(id, "OUST", 4) == 0)
			return fail(err, nd->line, nd->column, "the root node has no %s[]: not a record written by "
			    "oustpbm export", id);
		if (needed)
			return fail(err, nd->line, nd->column, "the root node has no %s[]", id);
		return SGF_OK;
	}
	if (p->n != 1)
		return fail(err, p->line, p->column, "%s has %d values, expected one", id, p->n);
	*out = val(t, p, 0);
	return SGF_OK;
}

struct reader {
	const struct tree *t;
	struct rules_board board;	/* for the shape and names of points */
	struct sgf_error *err;
};

/* An SGF point "cd" of the board into a cell, or RULES_NO_POINT. */
static int sgf_point(const struct rules_board *b, const char *s, size_t len)
{
	int x, y;

	if (len != 2 || s[0] < 'a' || s[0] >= 'a' + b->width || s[1] < 'a' || s[1] >= 'a' + b->width)
		return RULES_NO_POINT;
	x = s[0] - 'a';
	y = b->width - 1 - (s[1] - 'a');
	if (x < rules_row_first(b, y) || x >= rules_row_first(b, y) + rules_row_len(b, y))
		return RULES_NO_POINT;
	return rules_point(b, x, y);
}

/* A list of points (SGF's compressed "ab:cd" rectangles too) into a sorted array. */
static enum sgf_status point_list(struct reader *rd, const struct prop *p, int *out, int *n)
{
	const struct value *v;
	const char *s;
	int i, x, y, x0, y0, x1, y1, q;

	*n = 0;
	for (i = 0; i < p->n; i++) {
		v = &rd->t->vals[p->first + i];
		s = rd->t->text.s + v->off;
		if (v->len == 5 && s[2] == ':') {
			x0 = s[0] - 'a';
			y0 = s[1] - 'a';
			x1 = s[3] - 'a';
			y1 = s[4] - 'a';
		} else {
			x0 = x1 = s[0] - 'a';
			y0 = y1 = v->len >= 2 ? s[1] - 'a' : -1;
		}
		if ((v->len != 2 && v->len != 5) || x0 < 0 || y0 < 0 || x1 < x0 || y1 < y0 ||
		    x1 >= rd->board.width || y1 >= rd->board.width)
			return fail(rd->err, v->line, v->column, "%s[%s]: not a point of the %dx%d grid", p->id, s,
			    rd->board.width, rd->board.width);
		for (y = y0; y <= y1; y++)
			for (x = x0; x <= x1; x++) {
				char two[2] = { (char)('a' + x), (char)('a' + y) };

				q = sgf_point(&rd->board, two, 2);
				if (q == RULES_NO_POINT)
					return fail(rd->err, v->line, v->column, "%s[%s]: %c%c is not a cell of the "
					    "hex board", p->id, s, two[0], two[1]);
				if (*n >= RULES_MAX_POINTS)
					return fail(rd->err, v->line, v->column, "%s lists more points than the board has",
					    p->id);
				out[(*n)++] = q;
			}
	}
	for (i = 1; i < *n; i++) {	/* insertion sort: short lists */
		q = out[i];
		for (x = i; x > 0 && out[x - 1] > q; x--)
			out[x] = out[x - 1];
		out[x] = q;
	}
	for (i = 1; i < *n; i++)
		if (out[i] == out[i - 1])
			return fail(rd->err, p->line, p->column, "%s lists a point twice", p->id);
	return SGF_OK;
}

static void names(const struct rules_board *b, const int *v, int n, char *buf, size_t size)
{
	char name[4];
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && k + 8 < size; i++) {
		rules_point_name(b, v[i], name);
		k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? " " : "", name);
	}
	if (n == 0)
		snprintf(buf, size, "nothing");
}

static bool time_value(const char *s, int64_t *out)
{
	return s != NULL && gamefile_time_parse(s, strlen(s), out);
}

/* The root's game settings into g (game_init_shape with the turn-1 players). */
static enum sgf_status read_root(struct reader *rd, struct game *g)
{
	const struct tree *t = rd->t;
	const struct node *root = &t->nodes[0];
	const char *gm, *sz, *board, *shape, *swap, *pb, *pw, *created, *last, *remind, *thread, *level, *ff;
	char lb[GAME_NAME_SIZE], lw[GAME_NAME_SIZE];
	enum rules_shape sh;
	enum sgf_status st;
	long n;
	int size, width, k;
	int64_t tc, tl, tr = 0;

	if ((st = single(t, root, "FF", false, &ff, rd->err)) != SGF_OK ||
	    (st = single(t, root, "GM", false, &gm, rd->err)) != SGF_OK ||
	    (st = single(t, root, "SZ", true, &sz, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTBOARD", true, &board, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTSHAPE", false, &shape, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTSWAP", true, &swap, rd->err)) != SGF_OK ||
	    (st = single(t, root, "PB", true, &pb, rd->err)) != SGF_OK ||
	    (st = single(t, root, "PW", true, &pw, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTCREATED", true, &created, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTLASTMOVE", true, &last, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTREMIND", false, &remind, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTTHREAD", false, &thread, rd->err)) != SGF_OK ||
	    (st = single(t, root, "OUSTROBOTLEVEL", false, &level, rd->err)) != SGF_OK)
		return st;
#define AT(id) find(t, root, id)->line, find(t, root, id)->column
	if (ff != NULL && strcmp(ff, "4") != 0)
		return fail(rd->err, AT("FF"), "FF[%s]: only SGF FF[4] is read", ff);
	if (shape != NULL && strcmp(shape, "hex") != 0)
		return fail(rd->err, AT("OUSTSHAPE"), "OUSTSHAPE[%s]: the only other shape is hex", shape);
	sh = shape != NULL ? RULES_HEX : RULES_SQUARE;
	if (gm != NULL && strcmp(gm, sh == RULES_HEX ? "11" : "1") != 0)
		return fail(rd->err, AT("GM"), "GM[%s]: a %s board is written as GM[%s]", gm,
		    sh == RULES_HEX ? "hex" : "square", sh == RULES_HEX ? "11" : "1");
	width = 0;
	for (k = 0; isdigit((unsigned char)sz[k]) && k < 3; k++)
		width = 10 * width + (sz[k] - '0');
	size = sh == RULES_HEX ? (width + 1) / 2 : width;
	if (sz[k] != '\0' || k == 0 || !rules_shape_ok(sh, size) || (sh == RULES_HEX && width != 2 * size - 1))
		return fail(rd->err, AT("SZ"), sh == RULES_HEX ? "SZ[%s]: not 2S-1 for a hex side S of 3 to 10" :
		    "SZ[%s]: not an odd board size from 5 to 25", sz);
	if (!ident_board_parse(board, strlen(board), &n))
		return fail(rd->err, AT("OUSTBOARD"), "OUSTBOARD[%s]: not a board number", board);
	if (strcmp(swap, "on") != 0 && strcmp(swap, "off") != 0)
		return fail(rd->err, AT("OUSTSWAP"), "OUSTSWAP[%s]: not on or off", swap);
	if (!ident_userid_ok(pb))
		return fail(rd->err, AT("PB"), "PB[%s]: not a user id", pb);
	if (!ident_userid_ok(pw))
		return fail(rd->err, AT("PW"), "PW[%s]: not a user id", pw);
	if (!time_value(created, &tc))
		return fail(rd->err, AT("OUSTCREATED"), "OUSTCREATED[%s]: not a time like 2026-11-21T18:41:07Z",
		    created);
	if (!time_value(last, &tl))
		return fail(rd->err, AT("OUSTLASTMOVE"), "OUSTLASTMOVE[%s]: not a time like 2026-11-21T18:41:07Z",
		    last);
	if (remind != NULL && !time_value(remind, &tr))
		return fail(rd->err, AT("OUSTREMIND"), "OUSTREMIND[%s]: not a time like 2026-11-21T18:41:07Z",
		    remind);
	if (thread != NULL) {
		for (k = 0; thread[k] != '\0'; k++)
			if (thread[k] <= ' ' || thread[k] > '~')
				break;
		if (thread[k] != '\0' || k == 0 || k > GAME_THREAD_MAX)
			return fail(rd->err, AT("OUSTTHREAD"), "OUSTTHREAD: not 1 to %d printable characters "
			    "without spaces", GAME_THREAD_MAX);
	}
	if (level != NULL && (strlen(level) != 1 || level[0] < '0' + GAME_ROBOT_LEVEL_MIN ||
	    level[0] > '0' + GAME_ROBOT_LEVEL_MAX))
		return fail(rd->err, AT("OUSTROBOTLEVEL"), "OUSTROBOTLEVEL[%s]: not a level from %d to %d", level,
		    GAME_ROBOT_LEVEL_MIN, GAME_ROBOT_LEVEL_MAX);
#undef AT
	for (k = 0; pb[k] != '\0'; k++)
		lb[k] = (char)tolower((unsigned char)pb[k]);
	lb[k] = '\0';
	for (k = 0; pw[k] != '\0'; k++)
		lw[k] = (char)tolower((unsigned char)pw[k]);
	lw[k] = '\0';
	game_init_shape(g, n, sh, size, strcmp(swap, "on") == 0, lb, lw, tc);
	g->last_move = tl;
	g->remind = tr;
	if (thread != NULL)
		snprintf(g->thread, sizeof(g->thread), "%s", thread);
	g->robot_level = level != NULL ? level[0] - '0' : 0;
	rules_board_init_shape(&rd->board, sh, size);
	return SGF_OK;
}

/* One turn read from the nodes: the history entry and where it came from. */
struct pending {
	struct game_turn t;
	int points[RULES_MAX_POINTS];
	const struct node *node;
	bool open;
};

static enum sgf_status add_turn(struct reader *rd, struct game *g, struct pending *pt)
{
	if (!pt->open)
		return SGF_OK;
	pt->open = false;
	if (pt->t.action == GAME_PLACE && pt->t.npoints == 0)
		return fail(rd->err, pt->node->line, pt->node->column, "turn %d: no placement (AB or AW)",
		    pt->t.number);
	return game_history_add(g, &pt->t, pt->points) == GAME_OK ? SGF_OK : SGF_NO_MEMORY;
}

/* OUSTTURN[number time colour player [action]] */
static enum sgf_status read_turn(struct reader *rd, const struct game *g, const struct prop *p,
    struct pending *pt)
{
	static const char *const actions[] = { "pass", "swap", "resign", "timeout" };
	static const enum game_action codes[] = { GAME_PASS, GAME_SWAP, GAME_RESIGN, GAME_TIMEOUT };
	char word[5][64], *s;
	const char *v;
	int nw = 0, len, i, num;

	if (p->n != 1)
		return fail(rd->err, p->line, p->column, "OUSTTURN has %d values, expected one", p->n);
	v = val(rd->t, p, 0);
	while (*v != '\0') {
		while (*v == ' ')
			v++;
		if (*v == '\0')
			break;
		for (len = 0; v[len] != '\0' && v[len] != ' '; len++)
			;
		if (nw == 5 || len >= (int)sizeof(word[0]))
			return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: not 'number time colour player "
			    "[action]'", val(rd->t, p, 0));
		memcpy(word[nw], v, (size_t)len);
		word[nw++][len] = '\0';
		v += len;
	}
	if (nw < 4)
		return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: not 'number time colour player [action]'",
		    val(rd->t, p, 0));
	memset(&pt->t, 0, sizeof(pt->t));
	num = (int)strtol(word[0], &s, 10);
	if (*s != '\0' || s == word[0] || num != g->nturns + 1)
		return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: turn %s, expected %d", val(rd->t, p, 0),
		    word[0], g->nturns + 1);
	pt->t.number = num;
	if (!gamefile_time_parse(word[1], strlen(word[1]), &pt->t.time))
		return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not a time like "
		    "2026-11-21T18:41:07Z", val(rd->t, p, 0), word[1]);
	if (strcmp(word[2], "x") != 0 && strcmp(word[2], "o") != 0)
		return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: colour '%s' is not x or o",
		    val(rd->t, p, 0), word[2]);
	pt->t.color = word[2][0] == 'x' ? RULES_BLACK : RULES_WHITE;
	for (i = 0; word[3][i] != '\0'; i++)
		word[3][i] = (char)tolower((unsigned char)word[3][i]);
	if (!ident_userid_ok(word[3]))
		return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not a user id", val(rd->t, p, 0),
		    word[3]);
	memcpy(pt->t.player, word[3], strlen(word[3]) + 1);	/* a user id fits (ident.h) */
	pt->t.action = GAME_PLACE;
	if (nw == 5) {
		for (i = 0; i < 4 && strcmp(word[4], actions[i]) != 0; i++)
			;
		if (i == 4)
			return fail(rd->err, p->line, p->column, "OUSTTURN[%s]: '%s' is not pass, swap, resign or "
			    "timeout", val(rd->t, p, 0), word[4]);
		pt->t.action = codes[i];
	}
	pt->t.npoints = 0;
	pt->open = true;
	return SGF_OK;
}

static enum game_end end_of(const struct game *g)
{
	enum game_action last = g->nturns > 0 ? g->turns[g->nturns - 1].action : GAME_PLACE;
	const struct game_note *n = game_last_offer_note(g);

	if (g->rg.result == RULES_PLAYING)
		return GAME_END_NONE;
	if (g->rg.result == RULES_DRAW && n != NULL && n->kind == GAME_NOTE_ACCEPT && !n->undo)
		return GAME_END_AGREEMENT;
	if (g->rg.result == RULES_DRAW)
		return GAME_END_NO_PLACEMENTS;
	return last == GAME_RESIGN ? GAME_END_RESIGN : last == GAME_TIMEOUT ? GAME_END_TIMEOUT :
	    GAME_END_CAPTURE;
}

static enum sgf_status read_game(struct reader *rd, struct game *g)
{
	const struct tree *t = rd->t;
	struct pending *pt;
	struct game_replay *r = NULL;
	struct steps s = { 0 };
	const struct node **at = NULL;	/* the node of each step */
	const struct prop *p, *ab, *aw, *ae, *turn, *note;
	const struct game_note *agreed;
	struct gamefile_error gerr;
	const char *re, *v;
	char want[4], got[RULES_MAX_POINTS * 4], exp[RULES_MAX_POINTS * 4];
	int list[RULES_MAX_POINTS], nlist, i, k, nat = 0;
	enum sgf_status st;

	pt = calloc(1, sizeof(*pt));
	r = malloc(sizeof(*r));
	at = malloc((size_t)t->nnodes * sizeof(*at));
	if (pt == NULL || r == NULL || at == NULL) {
		st = SGF_NO_MEMORY;
		goto out;
	}
	st = read_root(rd, g);
	if (st != SGF_OK)
		goto out;
	for (i = 1; i < t->nnodes; i++) {
		const struct node *nd = &t->nodes[i];

		turn = find(t, nd, "OUSTTURN");
		note = find(t, nd, "OUSTNOTE");
		if (note != NULL) {
			/* a note stands after the turn before it (game.h) */
			if ((st = add_turn(rd, g, pt)) != SGF_OK)
				goto out;
			for (k = 0; k < note->n; k++) {
				v = val(t, note, k);
				if (gamefile_parse_note(v, strlen(v), 0, g, &gerr) != GAMEFILE_OK) {
					st = fail(rd->err, note->line, note->column, "OUSTNOTE[%s]: %s", v, strstr(gerr.msg, ": ") != NULL ? strstr(gerr.msg, ": ") + 2 : gerr.msg);
					goto out;
				}
			}
		}
		ab = find(t, nd, "AB");
		aw = find(t, nd, "AW");
		ae = find(t, nd, "AE");
		if (turn == NULL && ab == NULL && aw == NULL && ae == NULL)
			continue;	/* a node a viewer added: nothing of the game */
		if (turn != NULL) {
			if ((st = add_turn(rd, g, pt)) != SGF_OK || (st = read_turn(rd, g, turn, pt)) != SGF_OK)
				goto out;
			pt->node = nd;
		} else if (!pt->open || pt->t.action != GAME_PLACE) {
			st = fail(rd->err, nd->line, nd->column, "node %d: a placement without the OUSTTURN[] of "
			    "its turn", i);
			goto out;
		}
		if (pt->t.action != GAME_PLACE) {
			p = ab != NULL ? ab : aw != NULL ? aw : ae;
			if (p != NULL) {
				st = fail(rd->err, p->line, p->column, "turn %d is a %s: %s[] has no place in it",
				    pt->t.number, game_action_str(pt->t.action), p->id);
				goto out;
			}
			at[nat++] = nd;
			continue;
		}
		if ((ab != NULL) == (aw != NULL)) {
			st = fail(rd->err, nd->line, nd->column, "node %d: %s", i, ab != NULL ?
			    "both AB[] and AW[]: a node is one placement" : "AE[] without the placement (AB or AW)");
			goto out;
		}
		p = ab != NULL ? ab : aw;
		if ((p == ab) != (pt->t.color == RULES_BLACK)) {
			st = fail(rd->err, p->line, p->column, "%s[] in turn %d, which is %s's", p->id, pt->t.number,
			    rules_color_name(pt->t.color));
			goto out;
		}
		if (p->n != 1 || t->vals[p->first].len != 2) {
			st = fail(rd->err, p->line, p->column, "%s[]: one point per node, the placement", p->id);
			goto out;
		}
		if ((st = point_list(rd, p, list, &nlist)) != SGF_OK)
			goto out;
		pt->points[pt->t.npoints++] = list[0];
		at[nat++] = nd;
	}
	if ((st = add_turn(rd, g, pt)) != SGF_OK)
		goto out;
	if (g->nturns >= 2 && g->turns[1].action == GAME_SWAP) {
		/* the game names the owners after the swap (game.h); PB and PW were those at turn 1 */
		char name[GAME_NAME_SIZE];

		memcpy(name, g->black, sizeof(name));
		memcpy(g->black, g->white, sizeof(name));
		memcpy(g->white, name, sizeof(name));
	}

	/* the history must be one the rules allow */
	if (game_replay(g, g->nturns, r) != GAME_OK) {
		const struct node *nd = &t->nodes[0];

		for (i = 0, k = 0; i < nat; i++) {
			p = find(t, at[i], "OUSTTURN");
			if (p != NULL && ++k == r->bad_turn) {
				nd = at[i];
				break;
			}
		}
		st = fail(rd->err, nd->line, nd->column, "%s", r->why);
		goto out;
	}
	g->rg = r->rg;
	memcpy(g->black, r->black, sizeof(g->black));
	memcpy(g->white, r->white, sizeof(g->white));
	/* a draw the players agreed ends a game the turns leave running */
	agreed = game_last_offer_note(g);
	if (g->rg.result == RULES_PLAYING && agreed != NULL && agreed->kind == GAME_NOTE_ACCEPT && !agreed->undo &&
	    agreed->after == g->nturns)
		g->rg.result = RULES_DRAW;
	g->end = end_of(g);
	if (game_over(g) && g->remind > 0) {
		p = find(t, &t->nodes[0], "OUSTREMIND");
		st = fail(rd->err, p->line, p->column, "OUSTREMIND[] on a finished game");
		goto out;
	}
	if ((st = single(t, &t->nodes[0], "RE", false, &re, rd->err)) != SGF_OK)
		goto out;
	if ((re != NULL || game_over(g)) && (re == NULL || !game_over(g) || strcmp(re, result_str(g, want)) != 0)) {
		p = find(t, &t->nodes[0], "RE");
		st = fail(rd->err, p != NULL ? p->line : t->nodes[0].line, p != NULL ? p->column : t->nodes[0].column,
		    "RE[%s], but the history gives %s", re != NULL ? re : "", game_over(g) ? result_str(g, want) :
		    "a game still playing");
		goto out;
	}

	/* every node's setup as the replay makes it */
	if ((st = make_steps(g, &s)) != SGF_OK)
		goto out;
	if (s.n != nat) {
		st = fail(rd->err, 0, 0, "%d nodes of the game, but the history makes %d", nat, s.n);
		goto out;
	}
	for (i = 0; i < s.n; i++) {
		ae = find(t, at[i], "AE");
		nlist = 0;
		if (ae != NULL && (st = point_list(rd, ae, list, &nlist)) != SGF_OK)
			goto out;
		if (nlist != s.v[i].nremoved ||
		    (nlist > 0 && memcmp(list, s.removed + s.v[i].removed, (size_t)nlist * sizeof(int)) != 0)) {
			char name[4];

			names(&rd->board, list, nlist, got, sizeof(got));
			names(&rd->board, s.removed + s.v[i].removed, s.v[i].nremoved, exp, sizeof(exp));
			rules_point_name(&rd->board, s.v[i].point, name);
			st = fail(rd->err, at[i]->line, at[i]->column, "AE[] removes %s, but the placement %s "
			    "removes %s", got, name, exp);
			goto out;
		}
	}
	st = SGF_OK;
out:
	steps_release(&s);
	free(at);
	free(pt);
	free(r);
	return st;
}

enum sgf_status sgf_parse(const char *text, size_t len, struct game *out, struct sgf_error *err)
{
	struct tree t = { 0 };
	struct parser ps = { 0 };
	struct reader rd = { 0 };
	enum sgf_status st;

	memset(out, 0, sizeof(*out));
	if (err != NULL)
		memset(err, 0, sizeof(*err));
	if (len > SGF_MAX_BYTES) {
		st = fail(err, 0, 0, "%zu bytes: an SGF game record is at most %d", len, SGF_MAX_BYTES);
		goto out;
	}
	ps.s = text;
	ps.len = len;
	ps.line = 1;
	ps.column = 1;
	ps.t = &t;
	ps.err = err;
	skip_space(&ps);
	if (peek(&ps) != '(') {
		st = here(&ps, "expected '(' to start an SGF game tree");
		goto out;
	}
	st = parse_tree(&ps, true);
	if (st != SGF_OK)
		goto out;
	/* further game trees of a collection are not read */
	rd.t = &t;
	rd.err = err;
	st = read_game(&rd, out);
out:
	if (st == SGF_NO_MEMORY && err != NULL)
		fail(err, 0, 0, "out of memory");
	if (st != SGF_OK) {
		game_release(out);
		memset(out, 0, sizeof(*out));
	}
	tree_release(&t);
	return st;
}

const char *sgf_status_str(enum sgf_status s)
{
	switch (s) {
	case SGF_OK:
		return "ok";
	case SGF_BAD:
		return "not a valid game record";
	case SGF_NO_MEMORY:
		return "out of memory";
	}
	return "unknown status";
}
