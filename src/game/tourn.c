/* tourn: a tournament's players, games and steps (tourn.h). */
#include "game/tourn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = { "roundrobin", "swiss", "knockout", "ladder" };
static const char *const state_names[] = { "open", "running", "finished" };
static const char *const result_names[] = { "*", "1-0", "0-1", "1/2", "+-", "-+", "annulled", "bye" };

#define NAMES(a) (sizeof(a) / sizeof((a)[0]))

static int name_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (int)i;
	return -1;
}

bool tourn_format_parse(const char *s, enum tourn_format *out)
{
	int i = name_index(format_names, NAMES(format_names), s);

	if (i < 0)
		return false;
	*out = (enum tourn_format)i;
	return true;
}

const char *tourn_format_name(enum tourn_format f)
{
	return (size_t)f < NAMES(format_names) ? format_names[f] : NULL;
}

bool tourn_state_parse(const char *s, enum tourn_state *out)
{
	int i = name_index(state_names, NAMES(state_names), s);

	if (i < 0)
		return false;
	*out = (enum tourn_state)i;
	return true;
}

const char *tourn_state_name(enum tourn_state s)
{
	return (size_t)s < NAMES(state_names) ? state_names[s] : NULL;
}

bool tourn_result_parse(const char *s, enum tourn_result *out)
{
	int i = name_index(result_names, NAMES(result_names), s);

	if (i < 0)
		return false;
	*out = (enum tourn_result)i;
	return true;
}

const char *tourn_result_name(enum tourn_result r)
{
	return (size_t)r < NAMES(result_names) ? result_names[r] : NULL;
}

struct tourn *tourn_new(unsigned id, enum tourn_format format)
{
	struct tourn *t = calloc(1, sizeof *t);

	if (t == NULL)
		return NULL;
	t->id = id;
	t->format = format;
	t->state = TOURN_OPEN;
	t->min_players = format == TOURN_KNOCKOUT || format == TOURN_LADDER ? 2 : 3;
	t->max_players = format == TOURN_ROUNDROBIN ? 50 : TOURN_PLAYERS_MAX;
	t->rounds = format == TOURN_SWISS ? 3 : 0;
	t->reach = TOURN_REACH_DEFAULT;
	t->idle_days = TOURN_IDLE_DEFAULT;
	t->edition = 1;
	return t;
}

void tourn_free(struct tourn *t)
{
	if (t == NULL)
		return;
	free(t->players);
	free(t->games);
	free(t);
}

int tourn_find(const struct tourn *t, const char *userid)
{
	size_t i;

	for (i = 0; i < t->nplayers; i++)
		if (strcmp(t->players[i].userid, userid) == 0)
			return (int)i;
	return -1;
}

static int bottom_place(const struct tourn *t)
{
	int max = 0;
	size_t i;

	for (i = 0; i < t->nplayers; i++)
		if (!t->players[i].left && t->players[i].place > max)
			max = t->players[i].place;
	return max;
}

int tourn_add_player(struct tourn *t, const char *userid, int rating, int robot)
{
	struct tourn_player *np, *p;
	size_t alloc;

	if (t->nplayers >= TOURN_PLAYERS_MAX || strlen(userid) > IDENT_USERID_MAX)
		return -1;
	if (t->nplayers == t->aplayers) {
		alloc = t->aplayers != 0 ? 2 * t->aplayers : 16;
		np = realloc(t->players, alloc * sizeof *np);
		if (np == NULL)
			return -1;
		t->players = np;
		t->aplayers = alloc;
	}
	p = &t->players[t->nplayers];
	memset(p, 0, sizeof *p);
	memcpy(p->userid, userid, strlen(userid) + 1);
	p->rating = rating;
	p->robot = robot;
	p->division = 1;
	if (t->format == TOURN_LADDER && t->state == TOURN_RUNNING)
		p->place = bottom_place(t) + 1;
	return (int)t->nplayers++;
}

bool tourn_remove_player(struct tourn *t, int p)
{
	if (t->state != TOURN_OPEN || p < 0 || (size_t)p >= t->nplayers)
		return false;
	memmove(&t->players[p], &t->players[p + 1], (t->nplayers - (size_t)p - 1) * sizeof *t->players);
	t->nplayers--;
	return true;
}

int tourn_add_game(struct tourn *t, const struct tourn_game *g)
{
	struct tourn_game *ng;
	size_t alloc;

	if (t->ngames == t->agames) {
		alloc = t->agames != 0 ? 2 * t->agames : 32;
		ng = realloc(t->games, alloc * sizeof *ng);
		if (ng == NULL)
			return -1;
		t->games = ng;
		t->agames = alloc;
	}
	t->games[t->ngames] = *g;
	return (int)t->ngames++;
}

int tourn_game_of_board(const struct tourn *t, long board)
{
	size_t i;

	if (board <= 0)
		return -1;
	for (i = 0; i < t->ngames; i++)
		if (t->games[i].board == board)
			return (int)i;
	return -1;
}

/* Highest rating first; equal ratings by user id, so that the order never depends on the join. */
static int by_rating(const void *a, const void *b)
{
	const struct tourn_player *x = a, *y = b;

	if (x->rating != y->rating)
		return x->rating > y->rating ? -1 : 1;
	return strcmp(x->userid, y->userid);
}

int tourn_divisions(const struct tourn *t)
{
	int max = 1;
	size_t i;

	for (i = 0; i < t->nplayers; i++)
		if (t->players[i].division > max)
			max = t->players[i].division;
	return max;
}

bool tourn_begin(struct tourn *t, int64_t now, char *why)
{
	size_t i, n = t->nplayers, d, ndiv, base, extra, k, at;
	bool ok;

	if (t->state != TOURN_OPEN) {
		snprintf(why, TOURN_ERR_MAX, "T%u has begun already", t->id);
		return false;
	}
	if ((int)n < t->min_players || n < 2) {
		snprintf(why, TOURN_ERR_MAX, "T%u has %zu player%s, and needs %d to begin", t->id, n,
		    n == 1 ? "" : "s", t->min_players < 2 ? 2 : t->min_players);
		return false;
	}
	/* the seeding: by rating, the highest first (the file keeps that order from now on) */
	qsort(t->players, n, sizeof *t->players, by_rating);
	ndiv = t->format == TOURN_ROUNDROBIN ? (n + TOURN_DIVISION_MAX - 1) / TOURN_DIVISION_MAX : 1;
	/* divisions as equal as can be (sizes differ by one at most), the strongest first */
	base = n / ndiv;
	extra = n % ndiv;
	at = 0;
	for (d = 0; d < ndiv; d++) {
		k = base + (d < extra ? 1 : 0);
		for (i = 0; i < k; i++, at++) {
			t->players[at].division = (int)d + 1;
			t->players[at].seed = (int)i + 1;
		}
	}
	for (i = 0; i < n; i++) {
		t->players[i].place = t->format == TOURN_LADDER ? (int)i + 1 : 0;
		t->players[i].last = now;
	}
	t->state = TOURN_RUNNING;
	t->round = 1;
	switch (t->format) {
	case TOURN_ROUNDROBIN:
		ok = tourn_pair_roundrobin(t);
		break;
	case TOURN_SWISS:
		ok = tourn_pair_swiss(t, 1);
		break;
	case TOURN_KNOCKOUT:
		ok = tourn_pair_knockout(t, 1);
		break;
	default:
		ok = true;
		t->round = 0;
		break;
	}
	if (!ok)
		snprintf(why, TOURN_ERR_MAX, "out of memory pairing T%u", t->id);
	return ok;
}

size_t tourn_to_start(const struct tourn *t, size_t *idx, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < t->ngames && n < max; i++)
		if (t->games[i].board == 0 && t->games[i].white >= 0 && t->games[i].result == TOURN_PENDING)
			idx[n++] = i;
	return n;
}

static bool round_done(const struct tourn *t, int round)
{
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].round == round && t->games[i].result == TOURN_PENDING)
			return false;
	return true;
}

/* A knockout round: a drawn match's last game replayed, colours reversed; false when out of memory. */
static bool knockout_replays(struct tourn *t, int round, bool *added)
{
	struct tourn_game g;
	size_t i, j;
	bool later;

	*added = false;
	for (i = 0; i < t->ngames; i++) {
		if (t->games[i].round != round || t->games[i].result != TOURN_DRAW)
			continue;
		later = false;
		for (j = i + 1; j < t->ngames; j++)
			if (t->games[j].round == round && t->games[j].slot == t->games[i].slot)
				later = true;
		if (later)
			continue;
		g = t->games[i];
		g.black = t->games[i].white;
		g.white = t->games[i].black;
		g.board = 0;
		g.result = TOURN_PENDING;
		if (tourn_add_game(t, &g) < 0)
			return false;
		*added = true;
	}
	return true;
}

static void finish(struct tourn *t, enum tourn_step *step)
{
	t->state = TOURN_FINISHED;
	*step = TOURN_STEP_END;
}

/* After a result or a departure: the round's next step, if its last game has ended. */
static void advance(struct tourn *t, enum tourn_step *step, int64_t now)
{
	bool added;
	size_t before = t->ngames;

	*step = TOURN_STEP_NONE;
	if (t->state != TOURN_RUNNING)
		return;
	switch (t->format) {
	case TOURN_ROUNDROBIN:
		for (size_t i = 0; i < t->ngames; i++)
			if (t->games[i].result == TOURN_PENDING)
				return;
		finish(t, step);
		return;
	case TOURN_SWISS:
		while (round_done(t, t->round)) {
			if (t->round >= t->rounds) {
				finish(t, step);
				return;
			}
			t->round++;
			if (!tourn_pair_swiss(t, t->round)) {
				t->round--;
				return;
			}
			if (t->ngames > before)
				*step = TOURN_STEP_ROUND;
			if (!round_done(t, t->round))
				return;
		}
		return;
	case TOURN_KNOCKOUT:
		while (round_done(t, t->round)) {
			if (!knockout_replays(t, t->round, &added))
				return;
			if (added) {
				*step = TOURN_STEP_ROUND;
				return;
			}
			if (t->round >= t->rounds) {
				finish(t, step);
				return;
			}
			t->round++;
			if (!tourn_pair_knockout(t, t->round)) {
				t->round--;
				return;
			}
			if (!round_done(t, t->round)) {
				*step = TOURN_STEP_ROUND;
				return;
			}
		}
		return;
	case TOURN_LADDER:
		(void)tourn_ladder_idle(t, now);
		if (t->rounds > 0) {
			size_t i;
			int done = 0;

			for (i = 0; i < t->ngames; i++) {
				if (t->games[i].result == TOURN_PENDING)
					return;
				done++;
			}
			if (done >= t->rounds)
				finish(t, step);
		}
		return;
	}
}

/* Ladder: the challenger (slot 1: Black, 2: White) beat the player above: the places change. */
static void ladder_climb(struct tourn *t, const struct tourn_game *g)
{
	int c, d, pc, pd;
	size_t i;

	c = g->slot == 2 ? g->white : g->black;
	d = g->slot == 2 ? g->black : g->white;
	if (tourn_winner(g) != c || t->players[c].left || t->players[d].left)
		return;
	pc = t->players[c].place;
	pd = t->players[d].place;
	if (pd >= pc)
		return;
	for (i = 0; i < t->nplayers; i++)
		if (!t->players[i].left && t->players[i].place >= pd && t->players[i].place < pc)
			t->players[i].place++;
	t->players[c].place = pd;
}

bool tourn_result_of(struct tourn *t, long board, enum tourn_result result, int64_t now, enum tourn_step *step)
{
	int gi = tourn_game_of_board(t, board);
	struct tourn_game *g;

	*step = TOURN_STEP_NONE;
	if (gi < 0 || t->games[gi].result != TOURN_PENDING)
		return false;
	if (result != TOURN_BLACK_WINS && result != TOURN_WHITE_WINS && result != TOURN_DRAW)
		return false;
	g = &t->games[gi];
	g->result = result;
	if (t->format == TOURN_LADDER) {
		t->players[g->black].last = now;
		t->players[g->white].last = now;
		ladder_climb(t, g);
	}
	advance(t, step, now);
	return true;
}

bool tourn_board_gone(struct tourn *t, long board, enum tourn_step *step)
{
	int gi = tourn_game_of_board(t, board);

	*step = TOURN_STEP_NONE;
	if (gi < 0 || t->games[gi].result != TOURN_PENDING)
		return false;
	t->games[gi].result = TOURN_ANNULLED;
	advance(t, step, 0);
	return true;
}

void tourn_player_games(const struct tourn *t, int p, int *played, int *total)
{
	size_t i;
	int n = 0, all = 0, size = 0;
	const struct tourn_game *g;

	for (i = 0; i < t->ngames; i++) {
		g = &t->games[i];
		if (g->white < 0 || (g->black != p && g->white != p))
			continue;
		all++;
		if (g->result == TOURN_BLACK_WINS || g->result == TOURN_WHITE_WINS || g->result == TOURN_DRAW)
			n++;
	}
	*played = n;
	switch (t->format) {
	case TOURN_ROUNDROBIN:
		for (i = 0; i < t->nplayers; i++)
			if (t->players[i].division == t->players[p].division)
				size++;
		*total = (size - 1) * (t->twice ? 2 : 1);
		break;
	case TOURN_SWISS:
		*total = t->rounds;
		break;
	default:
		*total = all;
		break;
	}
}

void tourn_leave(struct tourn *t, int p, enum tourn_step *step)
{
	struct tourn_player *pl = &t->players[p];
	struct tourn_game *g;
	int played, total, place;
	size_t i;

	*step = TOURN_STEP_NONE;
	if (pl->left)
		return;
	tourn_player_games(t, p, &played, &total);
	pl->left = true;
	/* the rule of the players' guide: before half of their games, nothing of theirs counts */
	pl->annulled = (t->format == TOURN_ROUNDROBIN || t->format == TOURN_SWISS) && 2 * played < total;
	for (i = 0; i < t->ngames; i++) {
		g = &t->games[i];
		if (g->black != p && g->white != p)
			continue;
		if (pl->annulled && g->result != TOURN_BYE)
			g->result = TOURN_ANNULLED;
		else if (g->result == TOURN_PENDING)
			g->result = g->black == p ? TOURN_WHITE_FORFEIT : TOURN_BLACK_FORFEIT;
	}
	if (t->format == TOURN_LADDER) {
		place = pl->place;
		for (i = 0; i < t->nplayers; i++)
			if (!t->players[i].left && t->players[i].place > place)
				t->players[i].place--;
		pl->place = 0;
	}
	advance(t, step, 0);
}

bool tourn_ladder_may(const struct tourn *t, int challenger, int target, char *why)
{
	const struct tourn_player *c = &t->players[challenger], *d = &t->players[target];
	size_t i;

	if (t->format != TOURN_LADDER || t->state != TOURN_RUNNING) {
		snprintf(why, TOURN_ERR_MAX, "T%u is no running ladder", t->id);
		return false;
	}
	if (c->left || d->left || challenger == target) {
		snprintf(why, TOURN_ERR_MAX, "%s is not on the ladder of T%u", c->left ? c->userid : d->userid, t->id);
		return false;
	}
	if (d->place >= c->place || c->place - d->place > t->reach) {
		snprintf(why, TOURN_ERR_MAX, "%s is at place %d of T%u and %s at place %d: a challenge goes 1 to %d "
		    "places up", c->userid, c->place, t->id, d->userid, d->place, t->reach);
		return false;
	}
	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];
		int gc = g->slot == 2 ? g->white : g->black;

		if (g->result == TOURN_PENDING && gc == challenger) {
			snprintf(why, TOURN_ERR_MAX, "%s has an open ladder challenge in T%u already (board %ld)",
			    c->userid, t->id, g->board);
			return false;
		}
	}
	return true;
}

static bool in_pending(const struct tourn *t, int p)
{
	size_t i;

	for (i = 0; i < t->ngames; i++)
		if (t->games[i].result == TOURN_PENDING && (t->games[i].black == p || t->games[i].white == p))
			return true;
	return false;
}

int tourn_ladder_idle(struct tourn *t, int64_t now)
{
	int dropped = 0, place, bottom;
	size_t i, j, best;
	bool any;

	if (t->format != TOURN_LADDER || t->state != TOURN_RUNNING || t->idle_days <= 0 || now <= 0)
		return 0;
	/* from the top down, so that the idle keep their order among themselves at the bottom */
	for (;;) {
		any = false;
		best = 0;
		for (i = 0; i < t->nplayers; i++) {
			const struct tourn_player *p = &t->players[i];

			if (p->left || in_pending(t, (int)i) || now - p->last <= (int64_t)t->idle_days * 86400)
				continue;
			if (!any || p->place < t->players[best].place) {
				best = i;
				any = true;
			}
		}
		if (!any)
			break;
		place = t->players[best].place;
		bottom = bottom_place(t);
		for (j = 0; j < t->nplayers; j++)
			if (!t->players[j].left && t->players[j].place > place)
				t->players[j].place--;
		t->players[best].place = bottom;
		t->players[best].last = now;
		dropped++;
	}
	return dropped;
}
