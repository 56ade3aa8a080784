/*
 * glicko: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2022).
 */
#include "base/glicko.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

struct glicko_rating glicko_from(double r, double rd, double sigma)
{
	struct glicko_rating g;

	/* step 2 */
	g.mu = (r - GLICKO_R0) / GLICKO_SCALE;
	g.phi = rd / GLICKO_SCALE;
	g.sigma = sigma;
	return g;
}

double glicko_g(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

double glicko_e(double mu, double mu_j, double phi_j)
{
	return 1.0 / (1.0 + exp(-glicko_g(phi_j) * (mu - mu_j)));
}

/* Step 5.1's f(x). */
static double vol_f(double x, double delta2, double phi2, double v, double a, double tau)
{
	double ex = exp(x), d = phi2 + v + ex;

	return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

double glicko_volatility(double sigma, double phi, double v, double delta, double tau)
{
	double a = log(sigma * sigma), delta2 = delta * delta, phi2 = phi * phi;
	double A = a, B, C, fA, fB, fC;
	int k;

	if (delta2 > phi2 + v) {
		B = log(delta2 - phi2 - v);
	} else {
		k = 1;
		while (vol_f(a - k * tau, delta2, phi2, v, a, tau) < 0.0)
			k++;
		B = a - k * tau;
	}
	fA = vol_f(A, delta2, phi2, v, a, tau);
	fB = vol_f(B, delta2, phi2, v, a, tau);
	while (fabs(B - A) > GLICKO_EPSILON) {
		C = A + (A - B) * fA / (fB - fA);
		fC = vol_f(C, delta2, phi2, v, a, tau);
		if (fC * fB <= 0.0) {
			A = B;
			fA = fB;
		} else {
			fA = fA / 2.0;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

struct glicko_rating glicko_update(const struct glicko_rating *p, const struct glicko_outcome *o, size_t n,
    double tau)
{
	struct glicko_rating out = *p;
	double inv_v = 0.0, sum = 0.0, v, delta, phi_star, gj, ej;
	size_t j;

	if (n == 0) {
		/* the paper's note to step 6: without games only phi changes */
		out.phi = sqrt(p->phi * p->phi + p->sigma * p->sigma);
		return out;
	}
	/* steps 3 and 4 */
	for (j = 0; j < n; j++) {
		gj = glicko_g(o[j].opp.phi);
		ej = glicko_e(p->mu, o[j].opp.mu, o[j].opp.phi);
		inv_v += gj * gj * ej * (1.0 - ej);
		sum += gj * (o[j].score - ej);
	}
	v = 1.0 / inv_v;
	delta = v * sum;
	/* step 5 */
	out.sigma = glicko_volatility(p->sigma, p->phi, v, delta, tau);
	/* steps 6 and 7 */
	phi_star = sqrt(p->phi * p->phi + out.sigma * out.sigma);
	out.phi = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	out.mu = p->mu + out.phi * out.phi * sum;
	return out;
}

struct glicko_rating glicko_idle(const struct glicko_rating *p, int64_t periods)
{
	struct glicko_rating out = *p;
	double cap = GLICKO_RD0 / GLICKO_SCALE, phi2;

	if (periods <= 0)
		return out;
	/* step 6 once per period: phi^2 grows by sigma^2 each time */
	phi2 = p->phi * p->phi + (double)periods * p->sigma * p->sigma;
	out.phi = phi2 >= cap * cap ? cap : sqrt(phi2);
	if (p->phi > cap)
		out.phi = p->phi;
	return out;
}

struct glicko_rating glicko_at(const struct glicko_player *p, int64_t now)
{
	if (p->games == 0)
		return glicko_from(GLICKO_R0, GLICKO_RD0, GLICKO_SIGMA0);
	return glicko_idle(&p->r, now - p->last_period);
}

/* The player's rating as it enters period (its idle periods before it counted). */
static struct glicko_rating entering(const struct glicko_player *p, int64_t period)
{
	return glicko_at(p, period - 1);
}

static int side_cmp(const void *x, const void *y)
{
	const struct glicko_side *a = x, *b = y;

	if (a->player != b->player)
		return a->player < b->player ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

void glicko_run(struct glicko_player *players, size_t nplayers, const struct glicko_game *games, size_t ngames,
    double tau, struct glicko_side *work, struct glicko_outcome *outs)
{
	size_t i;

	for (i = 0; i < nplayers; i++) {
		players[i].r = glicko_from(GLICKO_R0, GLICKO_RD0, GLICKO_SIGMA0);
		players[i].last_period = 0;
		players[i].games = 0;
	}
	glicko_continue(players, nplayers, games, ngames, tau, work, outs);
}

void glicko_continue(struct glicko_player *players, size_t nplayers, const struct glicko_game *games,
    size_t ngames, double tau, struct glicko_side *work, struct glicko_outcome *outs)
{
	struct glicko_rating self;
	size_t s, e, k, n, first, p;

	for (s = 0; s < ngames; s = e) {
		for (e = s + 1; e < ngames && games[e].period == games[s].period; e++)
			;
		assert(e == ngames || games[e].period > games[s].period);
		n = 2 * (e - s);
		/* every outcome against the opponent's rating at the period's start, before any update */
		for (k = 0; k < n; k++) {
			const struct glicko_game *gm = &games[s + k / 2];

			assert(gm->a != gm->b && gm->a < nplayers && gm->b < nplayers);
			work[k].player = k % 2 == 0 ? gm->a : gm->b;
			work[k].order = k;
			work[k].o.opp = entering(&players[k % 2 == 0 ? gm->b : gm->a], gm->period);
			work[k].o.score = k % 2 == 0 ? gm->score_a : 1.0 - gm->score_a;
		}
		/* each player's games of the period together */
		qsort(work, n, sizeof *work, side_cmp);
		for (first = 0; first < n; first = k) {
			p = work[first].player;
			for (k = first; k < n && work[k].player == p; k++)
				outs[k] = work[k].o;
			self = entering(&players[p], games[s].period);
			players[p].r = glicko_update(&self, outs + first, k - first, tau);
			players[p].last_period = games[s].period;
			players[p].games += k - first;
		}
	}
}
