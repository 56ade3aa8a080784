/*
 * bench_standings: what the standings command and a game's end cost in
 * the ratings, with 10,000 rated players in the standard class made from
 * 25,000 rated games over a year (random pairs, the same every run).
 *
 * Per repetition (argv[1], default 5) one line:
 *   standings players=10000 games=25000 reply_ms=... full_ms=... incremental_ms=...
 * reply_ms: the ratings file's text parsed (its players, as standings
 * reads it), 2,000 active boards counted in, and the standings text made:
 * the standings command's own work, without the mail around it (see
 * bench_standings.sh for the whole process).  full_ms: what the end of a
 * rated game cost before the incremental update (and still costs without
 * a matching state file): the file parsed whole, one result added, every
 * rating computed again, the text made.  incremental_ms: the same with
 * the state file (ratings.h): the file and the state parsed, the game's
 * two players updated, the file's and the state's texts made.  The three
 * interleaved, each a median of 9 runs.  run-bench takes medians of the
 * lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "commands/services/standings.h"
#include "store/active.h"
#include "store/ratings.h"

#define PLAYERS 10000
#define GAMES 25000
#define ACTIVE 2000
#define RUNS 9
#define T0 INT64_C(1700000000)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5, rep, k;
	struct ratings r = { 0 }, p;
	struct ratings_result res;
	struct active_count *act;
	enum store_status ss;
	char *text = NULL, *out, *again, *state, *st2, err[RATINGS_ERR_MAX];
	size_t len, i, alen, slen, l2;
	double t, reply[RUNS], settle[RUNS], incr[RUNS];
	bool incremental;

	for (i = 0; i < GAMES; i++) {
		unsigned a = 1 + bench_random() % PLAYERS, b = 1 + bench_random() % PLAYERS, x = bench_random() % 100;

		if (a == b)
			b = a % PLAYERS + 1;
		memset(&res, 0, sizeof res);
		res.board = 1000 + (long)i;
		res.cls = RATINGS_STANDARD;
		res.ended = T0 - 365 * 86400 + (int64_t)i * (365 * 86400 / GAMES);
		snprintf(res.black, sizeof res.black, "p%05u", a);
		snprintf(res.white, sizeof res.white, "p%05u", b);
		res.result = x < 48 ? RULES_BLACK_WINS : x < 96 ? RULES_WHITE_WINS : RULES_DRAW;
		ratings_set_result(&r, &res, &ss);
	}
	if (ratings_compute(&r) != STORE_OK || ratings_format(&r, &text, &len) != STORE_OK)
		return 1;
	state = ratings_state_format(&r, text, len, &slen);
	if (state == NULL)
		return 1;
	act = calloc(2 * ACTIVE, sizeof *act);
	if (act == NULL)
		return 1;
	for (i = 0; i < 2 * ACTIVE; i++) {
		snprintf(act[i].userid, sizeof act[i].userid, "p%05zu", i + 1);
		act[i].count = 1;
	}
	alen = 2 * ACTIVE;
	res.board = 999999;
	res.ended = T0;
	for (rep = 0; rep < reps; rep++) {
		for (k = 0; k < RUNS; k++) {
			t = bench_now();
			if (ratings_parse(text, len, true, &p, err) != STORE_OK)
				return 1;
			out = standings_text(&p, RATINGS_STANDARD, act, alen, NULL, 0, T0 + 60);
			reply[k] = (bench_now() - t) * 1e3;
			if (out == NULL)
				return 1;
			free(out);
			ratings_release(&p);
			t = bench_now();
			if (ratings_parse(text, len, false, &p, err) != STORE_OK)
				return 1;
			ratings_set_result(&p, &res, &ss);
			if (ratings_compute(&p) != STORE_OK || ratings_format(&p, &again, &l2) != STORE_OK)
				return 1;
			settle[k] = (bench_now() - t) * 1e3;
			free(again);
			ratings_release(&p);
			t = bench_now();
			if (ratings_parse(text, len, false, &p, err) != STORE_OK || !ratings_state_apply(&p, text, len, state, slen))
				return 1;
			/* the text kept, as ratings_load() keeps it */
			p.from = malloc(len + 1);
			if (p.from == NULL)
				return 1;
			memcpy(p.from, text, len + 1);
			p.from_len = len;
			ratings_add_result(&p, &res, &incremental, &ss);
			if (!incremental || ratings_format(&p, &again, &l2) != STORE_OK ||
			    (st2 = ratings_state_format(&p, again, l2, &l2)) == NULL)
				return 1;
			incr[k] = (bench_now() - t) * 1e3;
			free(again);
			free(st2);
			ratings_release(&p);
			/* the file as it was */
			free(text);
			ratings_format(&r, &text, &len);
		}
		printf("standings players=%zu games=%d reply_ms=%.2f full_ms=%.2f incremental_ms=%.2f\n", r.nplayers,
		    GAMES, median(reply, RUNS), median(settle, RUNS), median(incr, RUNS));
	}
	free(act);
	free(state);
	free(text);
	ratings_release(&r);
	return 0;
}
