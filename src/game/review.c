/* review: a game replayed by the AI.  See review.h. */
#include "game/review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hash.h"
#include "base/monoclock.h"
#include "base/strbuf.h"
#include "game/ai.h"
#include "game/solve.h"

const char *review_status_str(enum review_status s)
{
	switch (s) {
	case REVIEW_OK:
		return "ok";
	case REVIEW_BAD_HISTORY:
		return "the history does not replay";
	case REVIEW_TOO_LONG:
		return "the game is too long to review";
	case REVIEW_BAD_FILE:
		return "malformed review";
	case REVIEW_NO_MEMORY:
		return "out of memory";
	case REVIEW_INTERNAL:
		return "the AI failed";
	}
	return "unknown";
}

void review_release(struct review *r)
{
	free(r->turns);
	memset(r, 0, sizeof *r);
}

double review_drop(const struct review_turn *t)
{
	return t->color == RULES_BLACK ? t->before - t->after : t->after - t->before;
}

/* On a solved board a value is 0, 0.5 or 1: the player's result got worse. */
static bool lost_a_win(const struct review_turn *t)
{
	double mine_before = t->color == RULES_BLACK ? t->before : 1 - t->before;
	double mine_after = t->color == RULES_BLACK ? t->after : 1 - t->after;

	return mine_after < mine_before - 0.25;
}

enum review_kind review_kind_of(const struct review *r, const struct review_turn *t)
{
	double d = review_drop(t);

	if (r->exact)
		return lost_a_win(t) ? REVIEW_BLUNDER : REVIEW_FINE;
	/* the chances are kept to 4 decimals: a drop of exactly the threshold counts */
	if (d >= REVIEW_BLUNDER_DROP - 1e-6)
		return REVIEW_BLUNDER;
	if (d >= REVIEW_MISTAKE_DROP - 1e-6)
		return REVIEW_MISTAKE;
	return REVIEW_FINE;
}

const char *review_kind_str(enum review_kind k)
{
	switch (k) {
	case REVIEW_MISTAKE:
		return "mistake";
	case REVIEW_BLUNDER:
		return "blunder";
	case REVIEW_FINE:
		break;
	}
	return "";
}

int review_worst(const struct review *r, int idx[REVIEW_WORST_MAX])
{
	int n = 0, i, j, k;

	for (i = 0; i < r->nturns; i++) {
		if (review_kind_of(r, &r->turns[i]) == REVIEW_FINE)
			continue;
		/* insertion by drop, the costliest first; equal drops in turn order */
		for (j = 0; j < n && review_drop(&r->turns[idx[j]]) >= review_drop(&r->turns[i]); j++)
			;
		if (j >= REVIEW_WORST_MAX)
			continue;
		for (k = n < REVIEW_WORST_MAX ? n : REVIEW_WORST_MAX - 1; k > j; k--)
			idx[k] = idx[k - 1];
		idx[j] = i;
		if (n < REVIEW_WORST_MAX)
			n++;
	}
	return n;
}

/* ---- the search ---- */

static double result_value(enum rules_result res)
{
	return res == RULES_BLACK_WINS ? 1.0 : res == RULES_WHITE_WINS ? 0.0 : 0.5;
}

struct search {
	const struct review_options *o;
	struct review *r;
	int64_t end_ns;		/* searching by time: when this part of the review is to end */
	int left;		/* searches left in it */
	struct ai_options ao;
};

/*
 * The next search's budget: by time, an equal share of what is left of
 * the part, so that a search that overran (a busy machine) is made up by
 * the next ones; at least 10 ms.
 */
static void set_budget(struct search *s, uint64_t seed)
{
	int64_t now = monoclock_ns(), share = (s->end_ns - now) / (s->left > 0 ? s->left : 1);

	memset(&s->ao, 0, sizeof s->ao);
	s->ao.level = AI_MAX_LEVEL;
	s->ao.seed = seed;
	s->ao.playouts = s->o->playouts;
	s->ao.deadline_ns = s->o->playouts > 0 ? 0 : now + (share > 10000000 ? share : 10000000);
	if (s->left > 1)
		s->left--;
}

/* Black's chance at rg (not over): the search's value, or the solver's. */
static enum review_status value_at(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    double *out)
{
	struct ai_turn t;
	struct ai_search as;
	enum ai_status st;
	enum rules_result res;

	if (s->r->exact && solve_result(rg, &res)) {
		*out = result_value(res);
		return REVIEW_OK;
	}
	set_budget(s, seed);
	st = ai_genmove(a, rg, &s->ao, &t);
	if (st == AI_NO_MEMORY)
		return REVIEW_NO_MEMORY;
	if (st != AI_OK)
		return REVIEW_INTERNAL;
	ai_last_search(a, &as);
	s->r->playouts += as.playouts;
	*out = rg->to_move == RULES_BLACK ? as.value : 1.0 - as.value;
	return REVIEW_OK;
}

/*
 * The AI's whole turn at rg (a copy is played on): into t (its swap, or its
 * placements and what they capture).  On a solved board the solver's turn.
 */
static enum review_status better_turn(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    struct review_turn *t)
{
	static struct rules_game w;	/* large: not on the stack */
	struct ai_turn one;
	struct rules_event ev;
	enum ai_status st;
	int start = rg->turn, p;

	w = *rg;
	t->nbetter = 0;
	t->better_captured = 0;
	t->better_swap = false;
	while (w.result == RULES_PLAYING && w.turn == start && t->nbetter < REVIEW_BETTER_MAX) {
		if (s->r->exact && solve_best(&w, &p)) {
			one.action = p == RULES_NO_POINT ? AI_SWAP : AI_PLACE;
			one.points[0] = p;
		} else {
			set_budget(s, seed + (uint64_t)t->nbetter);
			st = ai_genmove(a, &w, &s->ao, &one);
			if (st == AI_NO_MEMORY)
				return REVIEW_NO_MEMORY;
			if (st != AI_OK)
				return REVIEW_INTERNAL;
		}
		if (one.action == AI_SWAP) {
			t->better_swap = true;
			return REVIEW_OK;
		}
		if (one.action != AI_PLACE || !rules_is_legal(rules_game_play(&w, one.points[0], &ev)))
			return REVIEW_INTERNAL;
		t->better[t->nbetter++] = one.points[0];
		t->better_captured += ev.captured;
	}
	return REVIEW_OK;
}

/* Is the better turn the one played (turn k of g)? */
static bool same_as_played(const struct game *g, int k, const struct review_turn *t)
{
	const struct game_turn *gt = &g->turns[k - 1];
	const int *pts = game_turn_points(g, gt);

	if (t->better_swap)
		return gt->action == GAME_SWAP;
	if (gt->action != GAME_PLACE || gt->npoints != t->nbetter)
		return false;
	return memcmp(pts, t->better, sizeof(int) * (size_t)t->nbetter) == 0;
}

enum review_status review_compute(const struct game *g, const struct review_options *o, struct review *out)
{
	struct game_replay *rp = NULL;
	struct search s;
	struct ai *a = NULL;
	double *value = NULL;
	enum review_status rs = REVIEW_NO_MEMORY;
	enum game_status gs;
	int i, flagged = 0, searches;
	int64_t start;

	memset(out, 0, sizeof *out);
	out->board = g->board;
	if (g->nturns > REVIEW_MAX_TURNS)
		return REVIEW_TOO_LONG;
	out->nturns = g->nturns;
	out->exact = solve_knows(g->shape, g->size);
	rp = malloc(sizeof *rp);
	value = calloc((size_t)g->nturns + 1, sizeof *value);
	out->turns = calloc((size_t)g->nturns + 1, sizeof *out->turns);
	a = ai_new();
	if (rp == NULL || value == NULL || out->turns == NULL || a == NULL)
		goto out;
	memset(&s, 0, sizeof s);
	s.o = o;
	s.r = out;
	/* three quarters of the time for the values, the rest for the better turns */
	searches = g->nturns + 1;
	start = monoclock_ns();
	s.end_ns = start + (int64_t)(o->seconds * 1e9 * 0.75);
	s.left = searches;
	for (i = 0; i <= g->nturns; i++) {
		if (i > 0 && g->turns[i - 1].action == GAME_PASS) {
			value[i] = value[i - 1];	/* a pass changes nothing on the board */
			continue;
		}
		gs = game_replay(g, i, rp);
		if (gs != GAME_OK) {
			rs = REVIEW_BAD_HISTORY;
			goto out;
		}
		if (rp->rg.result != RULES_PLAYING) {
			value[i] = result_value(rp->rg.result);
			continue;
		}
		rs = value_at(&s, a, &rp->rg, hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)i), &value[i]);
		if (rs != REVIEW_OK)
			goto out;
	}
	/* the game over by a resignation or on time: the last value is the result */
	if (game_over(g))
		value[g->nturns] = result_value(g->rg.result);
	for (i = 0; i < g->nturns; i++) {
		out->turns[i].number = i + 1;
		out->turns[i].color = g->turns[i].color;
		out->turns[i].action = g->turns[i].action;
		out->turns[i].before = value[i];
		out->turns[i].after = value[i + 1];
		if (review_kind_of(out, &out->turns[i]) != REVIEW_FINE && g->turns[i].action != GAME_PASS)
			flagged++;
	}
	/* a better turn has a few placements: a share each, as many as an average turn's */
	s.end_ns = start + (int64_t)(o->seconds * 1e9);
	s.left = flagged * (g->nturns > 0 ? (int)((g->npoints + (size_t)g->nturns - 1) / (size_t)g->nturns) : 1);
	for (i = 0; i < g->nturns; i++) {
		struct review_turn *t = &out->turns[i];

		if (review_kind_of(out, t) == REVIEW_FINE || t->action == GAME_PASS || t->action == GAME_TIMEOUT)
			continue;
		gs = game_replay(g, i, rp);
		if (gs != GAME_OK) {
			rs = REVIEW_BAD_HISTORY;
			goto out;
		}
		if (rp->rg.result != RULES_PLAYING)
			continue;
		rs = better_turn(&s, a, &rp->rg, hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)i ^ 0x5eedULL), t);
		if (rs != REVIEW_OK)
			goto out;
		if (same_as_played(g, i + 1, t)) {
			t->nbetter = 0;
			t->better_swap = false;
			t->better_captured = 0;
		}
	}
	rs = REVIEW_OK;
out:
	ai_free(a);
	free(rp);
	free(value);
	return rs;
}

/* ---- the kept file ---- */

/*
 * "oustpbm review 1", then "board N", "turns N", "exact yes|no",
 * "playouts N", then a line a turn:
 *   turn K x|o BEFORE AFTER [swap | better E5,F5 captures N]
 * with the chances as 0.0000..1.0000.
 */
enum review_status review_format(const struct review *r, const struct game *g, char **out, size_t *len)
{
	struct strbuf b = STRBUF_INIT;
	char name[4];
	int i, k;

	strbuf_printf(&b, "oustpbm review 1\nboard %ld\nturns %d\nexact %s\nplayouts %ld\n", r->board, r->nturns,
	    r->exact ? "yes" : "no", r->playouts);
	for (i = 0; i < r->nturns; i++) {
		const struct review_turn *t = &r->turns[i];

		strbuf_printf(&b, "turn %d %c %.4f %.4f", t->number, t->color == RULES_BLACK ? 'x' : 'o', t->before,
		    t->after);
		if (t->better_swap)
			strbuf_puts(&b, " swap");
		else if (t->nbetter > 0) {
			strbuf_puts(&b, " better ");
			for (k = 0; k < t->nbetter; k++)
				strbuf_printf(&b, "%s%s", k > 0 ? "," : "", rules_point_name(&g->rg.board, t->better[k], name));
			strbuf_printf(&b, " captures %d", t->better_captured);
		}
		strbuf_puts(&b, "\n");
	}
	*out = strbuf_finish(&b);
	if (*out == NULL)
		return REVIEW_NO_MEMORY;
	*len = strlen(*out);
	return REVIEW_OK;
}

static enum review_status bad(char *why, size_t whylen, int line, const char *what)
{
	snprintf(why, whylen, "line %d: %s", line, what);
	return REVIEW_BAD_FILE;
}

/* One turn line's placements, "E5,F5", into t. */
static bool parse_points(const struct game *g, const char *s, struct review_turn *t)
{
	const char *e;
	int p;

	t->nbetter = 0;
	for (;;) {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		if (t->nbetter >= REVIEW_BETTER_MAX || e - s < 2 || e - s > 3)
			return false;
		p = rules_parse_point(&g->rg.board, s, (int)(e - s));
		if (p == RULES_NO_POINT)
			return false;
		t->better[t->nbetter++] = p;
		if (*e == '\0')
			return true;
		s = e + 1;
	}
}

enum review_status review_parse(const char *text, size_t len, const struct game *g, struct review *out,
    char *why, size_t whylen)
{
	char *copy = NULL, *line, *save = NULL;
	char c, exact[8], pts[200], word[16];
	enum review_status rs = REVIEW_BAD_FILE;
	int n = 0, lineno = 0, num, got;
	double before, after;
	struct review_turn *t;

	memset(out, 0, sizeof *out);
	why[0] = '\0';
	if (len > REVIEW_FILE_MAX || memchr(text, '\0', len) != NULL)
		return bad(why, whylen, 0, "too long, or a NUL byte");
	copy = malloc(len + 1);
	if (copy == NULL)
		return REVIEW_NO_MEMORY;
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = strtok_r(copy, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		switch (lineno) {
		case 1:
			if (strcmp(line, "oustpbm review 1") != 0) {
				rs = bad(why, whylen, lineno, "not a review of this version");
				goto out;
			}
			continue;
		case 2:
			if (sscanf(line, "board %ld", &out->board) != 1 || out->board != g->board) {
				rs = bad(why, whylen, lineno, "not this board's");
				goto out;
			}
			continue;
		case 3:
			if (sscanf(line, "turns %d", &out->nturns) != 1 || out->nturns < 0 || out->nturns > g->nturns) {
				rs = bad(why, whylen, lineno, "more turns than the game has");
				goto out;
			}
			out->turns = calloc((size_t)out->nturns + 1, sizeof *out->turns);
			if (out->turns == NULL) {
				rs = REVIEW_NO_MEMORY;
				goto out;
			}
			continue;
		case 4:
			if (sscanf(line, "exact %7s", exact) != 1 || (strcmp(exact, "yes") != 0 && strcmp(exact, "no") != 0)) {
				rs = bad(why, whylen, lineno, "no exact yes|no");
				goto out;
			}
			out->exact = exact[0] == 'y';
			continue;
		case 5:
			if (sscanf(line, "playouts %ld", &out->playouts) != 1) {
				rs = bad(why, whylen, lineno, "no playouts");
				goto out;
			}
			continue;
		default:
			break;
		}
		if (n >= out->nturns) {
			rs = bad(why, whylen, lineno, "more turn lines than turns");
			goto out;
		}
		t = &out->turns[n];
		pts[0] = word[0] = '\0';
		got = sscanf(line, "turn %d %c %lf %lf %15s %199s captures %d", &num, &c, &before, &after, word, pts,
		    &t->better_captured);
		if (got < 4 || num != n + 1 || (c != 'x' && c != 'o') || !(before >= 0 && before <= 1) ||
		    !(after >= 0 && after <= 1) || (got >= 5 && strcmp(word, "swap") != 0 && strcmp(word, "better") != 0) ||
		    (got >= 5 && word[0] == 'b' && (got != 7 || !parse_points(g, pts, t)))) {
			rs = bad(why, whylen, lineno, "not a turn line in order");
			goto out;
		}
		t->number = num;
		t->color = c == 'x' ? RULES_BLACK : RULES_WHITE;
		t->action = g->turns[n].action;
		t->before = before;
		t->after = after;
		t->better_swap = got >= 5 && word[0] == 's';
		n++;
	}
	if (lineno < 5 || n != out->nturns) {
		rs = bad(why, whylen, lineno, "fewer turn lines than turns");
		goto out;
	}
	rs = REVIEW_OK;
out:
	free(copy);
	if (rs != REVIEW_OK) {
		free(out->turns);
		out->turns = NULL;
		out->nturns = 0;
	}
	return rs;
}
