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

/* A chance in 0..1 (a win rate's estimate can stray past either end). */
static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

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
static enum game_status value_at(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    double *out)
{
	struct ai_turn t;
	struct ai_search as;
	enum game_status st;
	enum rules_result res;

	if (s->r->exact && solve_result(rg, &res)) {
		*out = result_value(res);
		return GAME_OK;
	}
	set_budget(s, seed);
	st = ai_genmove(a, rg, &s->ao, &t);
	if (st == GAME_NO_MEMORY)
		return GAME_NO_MEMORY;
	if (st != GAME_OK)
		return GAME_INTERNAL;
	ai_last_search(a, &as);
	s->r->playouts += as.playouts;
	*out = clamp01(rg->to_move == RULES_BLACK ? as.value : 1.0 - as.value);
	return GAME_OK;
}

/* A whole turn of the AI: its swap, or its placements and what they capture. */
struct whole {
	bool swap;
	int n;
	int pts[REVIEW_BETTER_MAX];
	int captured;
};

/* The AI's whole turn at rg (a copy is played on) into w.  On a solved board the solver's turn. */
static enum game_status whole_turn(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    struct whole *wt)
{
	static struct rules_game w;	/* large: not on the stack */
	struct ai_turn one;
	struct rules_event ev;
	enum game_status st;
	int start = rg->turn, p;

	w = *rg;
	memset(wt, 0, sizeof *wt);
	while (w.result == RULES_PLAYING && w.turn == start && wt->n < REVIEW_BETTER_MAX) {
		if (s->r->exact && solve_best(&w, &p)) {
			one.action = p == RULES_NO_POINT ? AI_SWAP : AI_PLACE;
			one.points[0] = p;
		} else {
			set_budget(s, seed + (uint64_t)wt->n);
			st = ai_genmove(a, &w, &s->ao, &one);
			if (st == GAME_NO_MEMORY)
				return GAME_NO_MEMORY;
			if (st != GAME_OK)
				return GAME_INTERNAL;
		}
		if (one.action == AI_SWAP) {
			wt->swap = true;
			return GAME_OK;
		}
		if (one.action != AI_PLACE || !rules_is_legal(rules_game_play(&w, one.points[0], &ev)))
			return GAME_INTERNAL;
		wt->pts[wt->n++] = one.points[0];
		wt->captured += ev.captured;
	}
	return GAME_OK;
}

/* The AI's turn at rg as turn t's better turn. */
static enum game_status better_turn(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    struct review_turn *t)
{
	struct whole w;
	enum game_status rs = whole_turn(s, a, rg, seed, &w);

	if (rs != GAME_OK)
		return rs;
	t->better_swap = w.swap;
	t->nbetter = w.n;
	memcpy(t->better, w.pts, sizeof w.pts);
	t->better_captured = w.captured;
	return GAME_OK;
}

/* The AI's turn at rg, the position after turn t, as the opponent's answer to t. */
static enum game_status answer_turn(struct search *s, struct ai *a, const struct rules_game *rg, uint64_t seed,
    struct review_turn *t)
{
	struct whole w;
	enum game_status rs = whole_turn(s, a, rg, seed, &w);

	if (rs != GAME_OK)
		return rs;
	t->answer_swap = w.swap;
	t->nanswer = w.n;
	memcpy(t->answer, w.pts, sizeof w.pts);
	t->answer_captured = w.captured;
	return GAME_OK;
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

enum game_status review_compute(const struct game *g, const struct review_options *o, struct review *out)
{
	struct game_replay *rp = NULL;
	struct search s;
	struct ai *a = NULL;
	double *value = NULL;
	enum game_status rs = GAME_NO_MEMORY;
	enum game_status gs;
	int i, flagged = 0, searches, idx[REVIEW_WORST_MAX], nworst, avg;
	int64_t start;

	memset(out, 0, sizeof *out);
	out->board = g->board;
	if (g->nturns > REVIEW_MAX_TURNS)
		return GAME_TOO_LONG;
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
			rs = GAME_BAD_HISTORY;
			goto out;
		}
		if (rp->rg.result != RULES_PLAYING) {
			value[i] = result_value(rp->rg.result);
			continue;
		}
		rs = value_at(&s, a, &rp->rg, hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)i), &value[i]);
		if (rs != GAME_OK)
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
	/*
	 * a better turn, and an answer to each of the costliest turns, has a few
	 * placements: a share each, as many as an average turn's
	 */
	nworst = review_worst(out, idx);
	avg = g->nturns > 0 ? (int)((g->npoints + (size_t)g->nturns - 1) / (size_t)g->nturns) : 1;
	s.end_ns = start + (int64_t)(o->seconds * 1e9);
	s.left = (flagged + nworst) * (avg > 0 ? avg : 1);
	for (i = 0; i < g->nturns; i++) {
		struct review_turn *t = &out->turns[i];

		if (review_kind_of(out, t) == REVIEW_FINE || t->action == GAME_PASS || t->action == GAME_TIMEOUT)
			continue;
		gs = game_replay(g, i, rp);
		if (gs != GAME_OK) {
			rs = GAME_BAD_HISTORY;
			goto out;
		}
		if (rp->rg.result != RULES_PLAYING)
			continue;
		rs = better_turn(&s, a, &rp->rg, hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)i ^ 0x5eedULL), t);
		if (rs != GAME_OK)
			goto out;
		if (same_as_played(g, i + 1, t)) {
			t->nbetter = 0;
			t->better_swap = false;
			t->better_captured = 0;
		}
	}
	/* the refutations: the opponent's best answer at the position after each costliest turn */
	for (i = 0; i < nworst; i++) {
		struct review_turn *t = &out->turns[idx[i]];

		gs = game_replay(g, t->number, rp);
		if (gs != GAME_OK) {
			rs = GAME_BAD_HISTORY;
			goto out;
		}
		if (rp->rg.result != RULES_PLAYING)
			continue;
		rs = answer_turn(&s, a, &rp->rg, hash_mix64((uint64_t)g->board << 32 ^ (uint64_t)t->number ^ 0xa45eULL),
		    t);
		if (rs != GAME_OK)
			goto out;
	}
	rs = GAME_OK;
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
 *   turn K x|o BEFORE AFTER [swap | better E5,F5 captures N] [answer swap | answer D4 captures N]
 * with the chances as 0.0000..1.0000 ("answer": the opponent's best answer
 * to the turn played, for the costliest turns; a file without it reads).
 */
enum game_status review_format(const struct review *r, const struct game *g, char **out, size_t *len)
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
		if (t->answer_swap)
			strbuf_puts(&b, " answer swap");
		else if (t->nanswer > 0) {
			strbuf_puts(&b, " answer ");
			for (k = 0; k < t->nanswer; k++)
				strbuf_printf(&b, "%s%s", k > 0 ? "," : "", rules_point_name(&g->rg.board, t->answer[k], name));
			strbuf_printf(&b, " captures %d", t->answer_captured);
		}
		strbuf_puts(&b, "\n");
	}
	*out = strbuf_finish(&b);
	if (*out == NULL)
		return GAME_NO_MEMORY;
	*len = strlen(*out);
	return GAME_OK;
}

static enum game_status bad(char *why, size_t whylen, int line, const char *what)
{
	snprintf(why, whylen, "line %d: %s", line, what);
	return GAME_BAD_REVIEW;
}

/* One turn line's placements, "E5,F5", into pts (*n of them). */
static bool parse_points(const struct game *g, const char *s, int pts[REVIEW_BETTER_MAX], int *n)
{
	const char *e;
	int p;

	*n = 0;
	for (;;) {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		if (*n >= REVIEW_BETTER_MAX || e - s < 2 || e - s > 3)
			return false;
		p = rules_parse_point(&g->rg.board, s, (int)(e - s));
		if (p == RULES_NO_POINT)
			return false;
		pts[(*n)++] = p;
		if (*e == '\0')
			return true;
		s = e + 1;
	}
}

/* A count "N" of 0..RULES_MAX_POINTS into *out. */
static bool parse_count(const char *s, int *out)
{
	char *end;
	long v;

	if (s == NULL || *s < '0' || *s > '9')
		return false;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v > RULES_MAX_POINTS)
		return false;
	*out = (int)v;
	return true;
}

/* A chance: a finite number, brought into 0..1 (a file kept before the clamp: review.h). */
static bool parse_chance(const char *s, double *out)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		return false;
	v = strtod(s, &end);
	if (*end != '\0' || !(v > -1e9 && v < 1e9))
		return false;
	*out = clamp01(v);
	return true;
}

/*
 * A turn line, "turn K x|o BEFORE AFTER [swap | better PTS captures N]
 * [answer swap | answer PTS captures N]", split in place, into t (turn n + 1).
 */
static bool parse_turn(const struct game *g, char *line, int n, struct review_turn *t)
{
	char *w[16], *save = NULL, *tok;
	int nw = 0, i;

	for (tok = strtok_r(line, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
		if (nw == 16)
			return false;
		w[nw++] = tok;
	}
	if (nw < 5 || strcmp(w[0], "turn") != 0 || !parse_count(w[1], &t->number) || t->number != n + 1 ||
	    (strcmp(w[2], "x") != 0 && strcmp(w[2], "o") != 0) || !parse_chance(w[3], &t->before) ||
	    !parse_chance(w[4], &t->after))
		return false;
	t->color = w[2][0] == 'x' ? RULES_BLACK : RULES_WHITE;
	i = 5;
	if (i < nw && strcmp(w[i], "swap") == 0) {
		t->better_swap = true;
		i++;
	} else if (i < nw && strcmp(w[i], "better") == 0) {
		if (i + 3 >= nw)
			return false;
		if (!parse_points(g, w[i + 1], t->better, &t->nbetter) || strcmp(w[i + 2], "captures") != 0 ||
		    !parse_count(w[i + 3], &t->better_captured))
			return false;
		i += 4;
	}
	if (i < nw && strcmp(w[i], "answer") == 0) {
		if (i + 1 < nw && strcmp(w[i + 1], "swap") == 0) {
			t->answer_swap = true;
			i += 2;
		} else {
			if (i + 3 >= nw)
				return false;
			if (!parse_points(g, w[i + 1], t->answer, &t->nanswer) || strcmp(w[i + 2], "captures") != 0 ||
			    !parse_count(w[i + 3], &t->answer_captured))
				return false;
			i += 4;
		}
	}
	return i == nw;
}

enum game_status review_parse(const char *text, size_t len, const struct game *g, struct review *out,
    char *why, size_t whylen)
{
	char *copy = NULL, *line, *save = NULL;
	char exact[8];
	enum game_status rs = GAME_BAD_REVIEW;
	int n = 0, lineno = 0;
	struct review_turn *t;

	memset(out, 0, sizeof *out);
	why[0] = '\0';
	if (len > REVIEW_FILE_MAX || memchr(text, '\0', len) != NULL)
		return bad(why, whylen, 0, "too long, or a NUL byte");
	copy = malloc(len + 1);
	if (copy == NULL)
		return GAME_NO_MEMORY;
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
				rs = GAME_NO_MEMORY;
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
		if (!parse_turn(g, line, n, t)) {
			rs = bad(why, whylen, lineno, "not a turn line in order");
			goto out;
		}
		t->action = g->turns[n].action;
		n++;
	}
	if (lineno < 5 || n != out->nturns) {
		rs = bad(why, whylen, lineno, "fewer turn lines than turns");
		goto out;
	}
	rs = GAME_OK;
out:
	free(copy);
	if (rs != GAME_OK) {
		free(out->turns);
		out->turns = NULL;
		out->nturns = 0;
	}
	return rs;
}
