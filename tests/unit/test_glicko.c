/*
 * Tests of Glicko-2 (src/base/glicko.h): Glickman's worked example from
 * "Example of the Glicko-2 system", checked at each step to the precision
 * the paper prints, and the rating periods of glicko_run().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/glicko.h"
#include "t.h"

/* x printed with d decimals is want (the paper rounds half away from zero). */
static int printed(double x, int d, const char *want)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.*f", d, x);
	if (strcmp(buf, want) != 0) {
		printf("# got %s, want %s\n", buf, want);
		return 0;
	}
	return 1;
}

static void glickman_example(void)
{
	/* step 1: the player 1500/200, sigma 0.06, tau 0.5; three opponents, results 1, 0, 0 */
	struct glicko_rating p = glicko_from(1500, 200, 0.06), out;
	struct glicko_outcome o[3];
	const double r[3] = { 1400, 1550, 1700 }, rd[3] = { 30, 100, 300 }, s[3] = { 1, 0, 0 };
	const char *mu[3] = { "-0.5756", "0.2878", "1.1513" }, *phi[3] = { "0.1727", "0.5756", "1.7269" };
	const char *g[3] = { "0.9955", "0.9531", "0.7242" }, *e[3] = { "0.639", "0.432", "0.303" };
	double inv_v = 0, sum = 0, v, delta, gj, ej, phi_star;
	int j;

	/* step 2 */
	ok(printed(p.mu, 4, "0.0000"), "step 2: mu = 0");
	ok(printed(p.phi, 4, "1.1513"), "step 2: phi = 1.1513");
	for (j = 0; j < 3; j++) {
		o[j].opp = glicko_from(r[j], rd[j], 0.06);
		o[j].score = s[j];
		ok(printed(o[j].opp.mu, 4, mu[j]), "step 2: opponent %d mu = %s", j + 1, mu[j]);
		ok(printed(o[j].opp.phi, 4, phi[j]), "step 2: opponent %d phi = %s", j + 1, phi[j]);
		gj = glicko_g(o[j].opp.phi);
		ej = glicko_e(p.mu, o[j].opp.mu, o[j].opp.phi);
		ok(printed(gj, 4, g[j]), "step 3: g(phi_%d) = %s", j + 1, g[j]);
		ok(printed(ej, 3, e[j]), "step 3: E(mu, mu_%d, phi_%d) = %s", j + 1, j + 1, e[j]);
		inv_v += gj * gj * ej * (1 - ej);
		sum += gj * (s[j] - ej);
	}
	/*
	 * The paper works on with g and E rounded as printed (E to three
	 * decimals): its v and delta are those of the rounded values, and its
	 * step 5 starts from them.  The same arithmetic here gives its figures.
	 */
	inv_v = sum = 0;
	for (j = 0; j < 3; j++) {
		gj = atof(g[j]);
		ej = atof(e[j]);
		inv_v += gj * gj * ej * (1 - ej);
		sum += gj * (s[j] - ej);
	}
	v = 1 / inv_v;
	delta = v * sum;
	ok(printed(v, 4, "1.7785"), "step 3: v = 1.7785");
	ok(printed(delta, 4, "-0.4834"), "step 4: delta = -0.4834");
	/* sigma' is 0.0599960: the paper writes its first five decimals */
	ok(printed(floor(glicko_volatility(0.06, atof("1.1513"), atof("1.7785"), atof("-0.4834"), 0.5) * 1e5) / 1e5,
	    5, "0.05999"), "step 5 from the paper's v and delta: sigma' = 0.05999");
	phi_star = sqrt(atof("1.1513") * atof("1.1513") + atof("0.05999") * atof("0.05999"));
	ok(printed(phi_star, 6, "1.152862"), "step 6: phi* = 1.152862");

	/* the whole update at full precision: the paper's results, within its rounding */
	out = glicko_update(&p, o, 3, 0.5);
	ok(fabs(out.sigma - 0.05999) < 0.00001, "step 5: sigma' = %.6f, the paper's 0.05999", out.sigma);
	ok(printed(out.phi, 4, "0.8722"), "step 7: phi' = 0.8722");
	ok(printed(out.mu, 4, "-0.2069"), "step 7: mu' = -0.2069");
	ok(fabs(glicko_r(&out) - 1464.06) <= 0.01, "step 8: r' = %.4f, the paper's 1464.06", glicko_r(&out));
	ok(printed(glicko_rd(&out), 2, "151.52"), "step 8: RD' = 151.52");
}

static void idle(void)
{
	struct glicko_rating p = glicko_from(1500, 50, 0.06), q;
	struct glicko_outcome none;

	q = glicko_update(&p, &none, 0, 0.5);
	ok(printed(q.phi, 6, "0.294010"), "a period without games: phi* = sqrt(phi^2 + sigma^2)");
	ok(q.mu == p.mu && q.sigma == p.sigma, "a period without games keeps mu and sigma");
	q = glicko_idle(&p, 10);
	ok(printed(glicko_rd(&q), 2, "59.89"), "ten idle periods: RD 50 -> %.2f", glicko_rd(&q));
	q = glicko_idle(&p, 100000);
	ok(printed(glicko_rd(&q), 2, "350.00"), "a long absence: RD back to 350, no more");
	q = glicko_idle(&p, 0);
	ok(q.phi == p.phi, "no idle period: no change");
}

static void periods(void)
{
	/* Glickman's example as one period of glicko_run (players: 0 the player, 1..3 the opponents) */
	struct glicko_player pl[4];
	struct glicko_game gm[6];
	struct glicko_side work[12];
	struct glicko_outcome outs[12];
	struct glicko_rating a, b;
	int i;

	for (i = 0; i < 3; i++) {
		gm[i].period = 7;
		gm[i].a = 0;
		gm[i].b = (size_t)i + 1;
		gm[i].score_a = i == 0 ? 1 : 0;
	}
	glicko_run(pl, 4, gm, 3, 0.5, work, outs);
	ok_int(pl[0].games, 3, "three games counted for the player");
	ok_int(pl[1].games, 1, "one game for each opponent");
	ok_int(pl[0].last_period, 7, "the period of the games");
	ok(glicko_r(&pl[1].r) < 1500 && glicko_r(&pl[2].r) > 1500, "the loser goes down, the winner up");

	/* the order of games within a period does not matter; across periods it does */
	gm[0] = (struct glicko_game){ 3, 0, 1, 1 };
	gm[1] = (struct glicko_game){ 3, 1, 2, 0.5 };
	gm[2] = (struct glicko_game){ 3, 2, 0, 0 };
	glicko_run(pl, 3, gm, 3, 0.5, work, outs);
	a = pl[0].r;
	gm[0] = (struct glicko_game){ 3, 0, 2, 1 };
	gm[1] = (struct glicko_game){ 3, 2, 1, 0.5 };
	gm[2] = (struct glicko_game){ 3, 1, 0, 0 };
	glicko_run(pl, 3, gm, 3, 0.5, work, outs);
	b = pl[0].r;
	ok(a.mu == b.mu && a.phi == b.phi && a.sigma == b.sigma, "one period: the same ratings in any order");

	/* idle periods between two games widen the deviation first: game in period 3, then in 13 */
	{
		struct glicko_player two[2];
		struct glicko_game g2[2] = { { 3, 0, 1, 1 }, { 13, 0, 1, 0 } };
		struct glicko_rating x0 = glicko_from(1500, 350, 0.06), y0 = x0, x1, y1, x2, xi, yi;
		struct glicko_outcome ox, oy;

		glicko_run(two, 2, g2, 2, 0.5, work, outs);
		ox = (struct glicko_outcome){ y0, 1 };
		oy = (struct glicko_outcome){ x0, 0 };
		x1 = glicko_update(&x0, &ox, 1, 0.5);
		y1 = glicko_update(&y0, &oy, 1, 0.5);
		xi = glicko_idle(&x1, 9);
		yi = glicko_idle(&y1, 9);
		ox = (struct glicko_outcome){ yi, 0 };
		x2 = glicko_update(&xi, &ox, 1, 0.5);
		ok(two[0].r.mu == x2.mu && two[0].r.phi == x2.phi && two[0].r.sigma == x2.sigma,
		    "nine idle periods counted before the second game");
		ok(two[0].games == 2 && two[0].last_period == 13, "two games, the last in period 13");
		xi = glicko_at(&two[0], 20);
		ok(xi.phi > two[0].r.phi, "seven periods later the deviation has grown");
	}
}

int main(void)
{
	glickman_example();
	idle();
	periods();
	return t_done();
}
