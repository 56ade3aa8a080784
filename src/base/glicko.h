/*
 * glicko: Glickman's Glicko-2 rating system, and its rating periods over a
 * list of results (Mark E. Glickman, "Example of the Glicko-2 system",
 * Boston University, 2022: steps 1 to 8 are cited below by number).
 *
 * Pure arithmetic: no I/O, no clock, no allocation but the work arrays of
 * glicko_run(), which the caller passes.  A rating is kept on the Glicko-2
 * scale (mu, phi, sigma); glicko_r() and glicko_rd() give the Glicko scale
 * players read (1500, 350).
 */
#ifndef OUSTPBM_GLICKO_H
#define OUSTPBM_GLICKO_H

#include <stddef.h>
#include <stdint.h>

#define GLICKO_SCALE 173.7178	/* step 2: the Glicko-2 scale's unit, 400 / ln 10 */
#define GLICKO_R0 1500.0	/* an unrated player: rating, deviation, volatility (step 1) */
#define GLICKO_RD0 350.0
#define GLICKO_SIGMA0 0.06
#define GLICKO_TAU 0.5		/* the system constant, step 1: 0.3 to 1.2; a smaller one changes volatility less */
#define GLICKO_EPSILON 0.000001	/* step 5's convergence tolerance */

/* One player's rating on the Glicko-2 scale. */
struct glicko_rating {
	double mu;
	double phi;
	double sigma;
};

/* One game of the period: the opponent's rating at its start, and the score (1 win, 0.5 draw, 0 loss). */
struct glicko_outcome {
	struct glicko_rating opp;
	double score;
};

/* A rating from the Glicko scale (step 2). */
struct glicko_rating glicko_from(double r, double rd, double sigma);
static inline double glicko_r(const struct glicko_rating *g)
{
	return GLICKO_SCALE * g->mu + GLICKO_R0;
}
static inline double glicko_rd(const struct glicko_rating *g)
{
	return GLICKO_SCALE * g->phi;
}

/* Step 3's g(phi) and E(mu, mu_j, phi_j). */
double glicko_g(double phi);
double glicko_e(double mu, double mu_j, double phi_j);

/* Step 5: the new volatility from sigma, phi, v and delta (the Illinois algorithm as the paper gives it). */
double glicko_volatility(double sigma, double phi, double v, double delta, double tau);

/*
 * The player p after a rating period with the n games o (steps 3 to 8),
 * with system constant tau.  n == 0 is a period without games: only the
 * deviation grows (step 6, phi* = sqrt(phi^2 + sigma^2)).
 */
struct glicko_rating glicko_update(const struct glicko_rating *p, const struct glicko_outcome *o, size_t n,
    double tau);

/*
 * The deviation after `periods` rating periods without games, each one
 * step 6 alone; never above the unrated player's GLICKO_RD0 (as Glicko's
 * own rule caps it), so a long absence makes a player new again, no more.
 */
struct glicko_rating glicko_idle(const struct glicko_rating *p, int64_t periods);

/* --- rating periods --- */

/* A rated game between players a and b (indices into the players) ending in period. */
struct glicko_game {
	int64_t period;		/* the rating period it ended in, ascending across the list */
	size_t a, b;		/* a != b */
	double score_a;		/* 1: a won, 0: b won, 0.5: a draw */
};

/* A player's state between periods. */
struct glicko_player {
	struct glicko_rating r;	/* after its last period with a game */
	int64_t last_period;	/* that period; meaningless while games == 0 */
	unsigned long games;	/* rated games played */
};

/*
 * Play the games, period by period, over the players (each first set to
 * the unrated player's GLICKO_R0, GLICKO_RD0, GLICKO_SIGMA0, games 0).
 * Within a period every player's games count against the opponents'
 * ratings at the period's start (Glicko-2's rule, so the order of games in
 * a period does not matter); a player's idle periods before it widen the
 * deviation (glicko_idle).  work and outs hold 2 * ngames each: the
 * caller's scratch.  games must be sorted by period.
 */
struct glicko_side {
	size_t player;
	size_t order;		/* 2 * game + 0 for a, 1 for b: keeps the sort stable */
	struct glicko_outcome o;
};
void glicko_run(struct glicko_player *players, size_t nplayers, const struct glicko_game *games, size_t ngames,
    double tau, struct glicko_side *work, struct glicko_outcome *outs);

/*
 * glicko_run() from the players as they are (not reset): the games'
 * periods come after every period the players have played.  Running the
 * games in two parts, cut between periods, gives exactly glicko_run()'s
 * result (the incremental ratings, ratings.h, rely on it).
 */
void glicko_continue(struct glicko_player *players, size_t nplayers, const struct glicko_game *games,
    size_t ngames, double tau, struct glicko_side *work, struct glicko_outcome *outs);

/* The player's rating as of period now (>= its last period): its idle periods since added. */
struct glicko_rating glicko_at(const struct glicko_player *p, int64_t now);

#endif
