/* game: the pending part of a turn and the conditional turns (game.h). */
#include "game/game.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- the pending part of a turn ---- */

bool game_pending_points(const struct game *g, int *points, int *n, struct rules_game *after, char *why, size_t size)
{
	struct rules_game rg = g->rg;
	struct rules_event ev;
	const char *p = g->pending, *e;
	char name[8];
	int len;

	*n = 0;
	while (*p != '\0') {
		e = strchr(p, ',');
		len = e != NULL ? (int)(e - p) : (int)strlen(p);
		if (len < 2 || len > 3 || *n >= RULES_MAX_POINTS) {
			snprintf(why, size, "'%.*s' is no placement", len > 8 ? 8 : len, p);
			return false;
		}
		memcpy(name, p, (size_t)len);
		name[len] = '\0';
		points[*n] = rules_parse_point(&rg.board, name, len);
		if (points[*n] == RULES_NO_POINT) {
			snprintf(why, size, "%s is not a point of the board", name);
			return false;
		}
		if (!rules_is_legal(rules_game_play(&rg, points[*n], &ev))) {
			snprintf(why, size, "%s is not legal there (%s)", name, rules_verdict_str(ev.verdict));
			return false;
		}
		(*n)++;
		if (ev.turn_over) {
			snprintf(why, size, "the turn is over after %s: it is no part of a turn", name);
			return false;
		}
		p = e != NULL ? e + 1 : p + len;
	}
	if (after != NULL)
		*after = rg;
	return true;
}

/* ---- conditional turns ---- */

void game_queue_clear(struct game *g)
{
	g->queue_owner[0] = '\0';
	g->queue[0] = '\0';
}

/* Where a line's failure is said: the line's number, and the buffer for why. */
struct queue_why {
	int k;
	char *why;
	size_t size;
};

/* Placements "E5, F6" (s[0..n)) of line w->k into l's answer (mine) or their turn on g's board; false with why. */
static bool queue_points(const struct game *g, const struct queue_why *w, bool mine, const char *s, size_t n,
    struct game_queue_line *l)
{
	const int k = w->k;
	char *why = w->why;
	const size_t size = w->size;
	const char *side = mine ? "your answer" : "their turn";
	int *pts = mine ? l->mine : l->their, *np = mine ? &l->nmine : &l->ntheir;
	size_t i = 0, j, a, b;

	*np = 0;
	for (;;) {
		for (j = i; j < n && s[j] != ','; j++)
			;
		for (a = i; a < j && (s[a] == ' ' || s[a] == '\t'); a++)
			;
		for (b = j; b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'); b--)
			;
		if (a == b) {
			snprintf(why, size, "line %d: %s has an empty placement", k, side);
			return false;
		}
		if (*np == GAME_QUEUE_POINTS) {
			snprintf(why, size, "line %d: more than %d placements in %s", k, GAME_QUEUE_POINTS, side);
			return false;
		}
		pts[*np] = rules_parse_point(&g->rg.board, s + a, (int)(b - a));
		if (pts[*np] == RULES_NO_POINT) {
			char dims[GAME_DIMENSIONS_SIZE];

			snprintf(why, size, "line %d: '%.*s' is not a point of the %s board", k, (int)(b - a > 20 ? 20 : b - a),
			    s + a, game_dimensions(g, false, dims));
			return false;
		}
		(*np)++;
		if (j == n)
			return true;
		i = j + 1;
	}
}

bool game_queue_parse(const struct game *g, const char *text, struct game_queue *out, char *why, size_t size)
{
	const char *p = text, *end, *arrow, *a, *b;
	struct game_queue_line *l;
	int k = 0;

	memset(out, 0, sizeof(*out));
	for (;;) {
		end = strchr(p, ';');
		if (end == NULL)
			end = p + strlen(p);
		for (a = p; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		k++;
		if (a == end && *end == '\0' && k > 1)
			break;	/* a ';' at the end */
		if (a == end) {
			snprintf(why, size, "line %d is empty", k);
			return false;
		}
		if (out->n == GAME_QUEUE_LINES) {
			snprintf(why, size, "more than %d lines", GAME_QUEUE_LINES);
			return false;
		}
		l = &out->line[out->n];
		arrow = strstr(a, "=>");
		if (arrow == NULL || arrow >= end) {
			snprintf(why, size, "line %d: '=>' is missing between their turn and yours", k);
			return false;
		}
		for (b = arrow; b > a && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (b == a) {
			snprintf(why, size, "line %d: their turn is missing before '=>'", k);
			return false;
		}
		if (b - a == 4 && strncasecmp(a, "swap", 4) == 0)
			l->swap = true;
		else if (!queue_points(g, &(struct queue_why){ k, why, size }, false, a, (size_t)(b - a), l))
			return false;
		for (a = arrow + 2; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		for (b = end; b > a && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (a == b) {
			snprintf(why, size, "line %d: your answer is missing after '=>'", k);
			return false;
		}
		if (memchr(a, '=', (size_t)(b - a)) != NULL) {
			snprintf(why, size, "line %d: two '=>' (lines are separated by ';')", k);
			return false;
		}
		if (!queue_points(g, &(struct queue_why){ k, why, size }, true, a, (size_t)(b - a), l))
			return false;
		out->n++;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	return true;
}

bool game_queue_format(const struct game *g, const struct game_queue *q, char *buf, size_t size)
{
	size_t n = 0;
	char name[4];
	int i, j;

#define PUT(s) do { size_t len_ = strlen(s); if (n + len_ >= size) return false; memcpy(buf + n, s, len_ + 1); \
	n += len_; } while (0)
	buf[0] = '\0';
	for (i = 0; i < q->n; i++) {
		const struct game_queue_line *l = &q->line[i];

		if (i > 0)
			PUT(";");
		if (l->swap)
			PUT("swap");
		for (j = 0; j < l->ntheir; j++) {
			if (j > 0)
				PUT(",");
			PUT(rules_point_name(&g->rg.board, l->their[j], name));
		}
		PUT("=>");
		for (j = 0; j < l->nmine; j++) {
			if (j > 0)
				PUT(",");
			PUT(rules_point_name(&g->rg.board, l->mine[j], name));
		}
	}
#undef PUT
	return true;
}

bool game_queue_matches(const struct game *g, const struct game_queue_line *l, const struct game_turn *t)
{
	if (t->action == GAME_SWAP)
		return l->swap;
	if (t->action != GAME_PLACE || l->swap || l->ntheir != t->npoints)
		return false;
	return memcmp(l->their, game_turn_points(g, t), (size_t)t->npoints * sizeof(int)) == 0;
}
