/*
 * sgf_int: what the parts of the SGF codec share (sgf_steps.c: the nodes
 * after the root as the history makes them, the errors; sgf_write.c: the
 * writer; sgf_tree.c: the syntax, into a tree of nodes; sgf_read.c: the
 * tree into a game).  Not for other modules: they use sgf.h.
 */
#ifndef OUSTPBM_SGF_INT_H
#define OUSTPBM_SGF_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/strbuf.h"
#include "game/game.h"
#include "game/rules.h"
#include "game/sgf.h"

#define ID_MAX 15		/* letters in a property identifier */

/* "line L, column C: <fmt>" into *err (may be NULL); returns GAME_BAD_SGF. */
enum game_status sgf_fail(struct sgf_error *err, int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- the nodes after the root, as the history makes them (sgf_steps.c) ---- */

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

/*
 * Replay g's history placement by placement (the history is legal:
 * game_replay() said so) into one step per node.
 */
enum game_status sgf_steps_make(const struct game *g, struct steps *s);
void sgf_steps_release(struct steps *s);

/* The RE[] of a finished g: "B+R", "W+", "0"... (sgf_write.c). */
const char *sgf_write_result(const struct game *g, char buf[4]);

/* ---- the main line of the first game tree (sgf_tree.c) ---- */

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

/* The len bytes of text, an SGF collection, into *t (the first game tree's main line). */
enum game_status sgf_tree_parse(const char *text, size_t len, struct tree *t, struct sgf_error *err);
void sgf_tree_release(struct tree *t);

#endif
