/*
 * standings: the texts of the ratings (standings.h), for the mail commands
 * standings and rating (keywords/standings.c) and the web site's page.
 */
#include "commands/services/standings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "game/gamefile.h"
#include "mail/reply.h"

/* A table line: kept as it is by the reply's wrapping (reply.h's REPLY_VERBATIM). */
#define ROW "\001"
_Static_assert(REPLY_VERBATIM == '\001', "ROW is REPLY_VERBATIM");

/* What each player's line counts besides the ratings: its boards being played and its games sought. */
struct counts {
	const struct active_count *active;
	size_t nactive;
	const struct seeks_entry *seeks;
	size_t nseeks;
};

/* One class: its players are r->players[first..end), by rating. */
static void one_class(struct strbuf *b, const struct ratings *r, size_t first, size_t end, const struct counts *c,
    int64_t now)
{
	static const char *const heads[3] = {
		"Established", "Provisional (a deviation over 110: too few games yet)",
		"Inactive (no rated game in this class for half a year)"
	};
	enum ratings_class cls = r->players[first].cls;
	enum ratings_standing want, s;
	struct glicko_rating g;
	size_t i, count[3] = { 0, 0, 0 };
	unsigned long rank;
	char wld[40];
	int w = 6;		/* the player column: the longest name listed */

	for (i = first; i < end; i++) {
		count[ratings_standing(&r->players[i], now)]++;
		if ((int)strlen(r->players[i].name) > w)
			w = (int)strlen(r->players[i].name);
	}
	strbuf_printf(b, "Standings: %s (%s), %zu player%s\n", ratings_class_name(cls), ratings_class_sizes(cls),
	    end - first, end - first == 1 ? "" : "s");
	for (want = RATINGS_ESTABLISHED; want <= RATINGS_INACTIVE; want++) {
		if (count[want] == 0)
			continue;
		strbuf_printf(b, "\n%s: %zu\n", heads[want], count[want]);
		strbuf_printf(b, ROW "  %5s  %-*s  %6s  %9s  %5s  %14s  %6s  %5s\n", "#", w, "player", "rating", "deviation",
		    "games", "won-lost-drawn", "active", "seeks");
		rank = 0;
		for (i = first; i < end; i++) {
			const struct ratings_player *p = &r->players[i];

			s = ratings_standing(p, now);
			if (s != want)
				continue;
			if (rank == STANDINGS_LIST_MAX) {
				strbuf_printf(b, "  (and %zu more: send \"rating <userid>\" for any player)\n",
				    count[want] - STANDINGS_LIST_MAX);
				break;
			}
			g = ratings_now(p, now);
			snprintf(wld, sizeof wld, "%lu-%lu-%lu", p->won, p->lost, p->drawn);
			strbuf_printf(b, ROW "  %5lu  %-*s  %6ld  %9ld  %5lu  %14s  %6u  %5u\n", ++rank, w, p->name,
			    lround(glicko_r(&g)), lround(glicko_rd(&g)), p->games, wld,
			    active_count_of(c->active, c->nactive, p->name), seeks_of(c->seeks, c->nseeks, p->name));
		}
	}
}

char *standings_text(const struct ratings *r, int cls, const struct active_count *active, size_t nactive,
    const struct seeks_entry *seeks, size_t nseeks, int64_t now)
{
	const struct counts c = { active, nactive, seeks, nseeks };
	struct strbuf b = STRBUF_INIT;
	size_t i, e, shown = 0;

	for (i = 0; i < r->nplayers; i = e) {
		for (e = i + 1; e < r->nplayers && r->players[e].cls == r->players[i].cls; e++)
			;
		if (cls >= 0 && (int)r->players[i].cls != cls)
			continue;
		if (shown++ > 0)
			strbuf_puts(&b, "\n");
		one_class(&b, r, i, e, &c, now);
	}
	if (shown == 0 && cls >= 0)
		strbuf_printf(&b, "Standings: %s (%s): nobody has a rated game in this class yet.\n",
		    ratings_class_name((enum ratings_class)cls), ratings_class_sizes((enum ratings_class)cls));
	else if (shown == 0)
		strbuf_puts(&b, "Standings: nobody has a rated game yet.\n");
	return strbuf_finish(&b);
}

/* Is name the player, or (name "robot") one of the robot's levels? */
static bool is_player(const char *rated, const char *name)
{
	size_t n = strlen(name);

	if (strcmp(rated, name) == 0)
		return true;
	return strcmp(name, RATINGS_ROBOT) == 0 && strncmp(rated, name, n) == 0 && rated[n] == ':';
}

char *standings_rating_text(const struct ratings *r, const char *name, int64_t now)
{
	struct strbuf b = STRBUF_INIT;
	struct glicko_rating g;
	char t[GAMEFILE_TIME_SIZE], wld[40];
	size_t i, found = 0, shown = 0;
	const char *opp, *res, *level;
	bool black, robot = strcmp(name, RATINGS_ROBOT) == 0;
	int w = 7;		/* the opponent column: the longest name listed */

	strbuf_printf(&b, "Ratings of %s (Glicko-2):\n", name);
	for (i = 0; i < r->nplayers; i++) {
		const struct ratings_player *p = &r->players[i];

		if (!is_player(p->name, name))
			continue;
		/* the robot is rated at each level: a column more */
		if (found++ == 0)
			strbuf_printf(&b, ROW "  %-12s%s  %6s  %9s  %5s  %-9s  %s\n", "class", robot ? "  level" : "",
			    "rating", "deviation", "games", "W-L-D", "standing");
		g = ratings_now(p, now);
		level = strchr(p->name, ':');
		snprintf(wld, sizeof wld, "%lu-%lu-%lu", p->won, p->lost, p->drawn);
		strbuf_printf(&b, ROW "  %-12s", ratings_class_name(p->cls));
		if (robot)
			strbuf_printf(&b, "  %5s", level != NULL ? level + 1 : "");
		strbuf_printf(&b, "  %6ld  %9ld  %5lu  %-9s  %s\n", lround(glicko_r(&g)), lround(glicko_rd(&g)), p->games,
		    wld, ratings_standing_str(ratings_standing(p, now)));
	}
	if (found == 0)
		strbuf_printf(&b, "  (%s has no rated game yet: a new player's rating is 1500, deviation 350)\n", name);
	for (i = r->nresults; i-- > 0 && shown < STANDINGS_RECENT; shown++) {
		const struct ratings_result *x = &r->results[i];
		int n;

		if (!is_player(x->black, name) && !is_player(x->white, name)) {
			shown--;
			continue;
		}
		n = (int)strlen(is_player(x->black, name) ? x->white : x->black);
		w = n > w ? n : w;
	}
	shown = 0;
	for (i = r->nresults; i-- > 0 && shown < STANDINGS_RECENT;) {
		const struct ratings_result *x = &r->results[i];

		if (!is_player(x->black, name) && !is_player(x->white, name))
			continue;
		if (shown++ == 0)
			strbuf_printf(&b, "\nLatest rated games:\n" ROW "  %-6s  %-12s  %-16s  %-*s  %s\n", "board", "class",
			    "ended (UTC)", w, "against", "result");
		black = is_player(x->black, name);
		opp = black ? x->white : x->black;
		res = x->result == RULES_DRAW ? "drawn" : (x->result == RULES_BLACK_WINS) == black ? "won" : "lost";
		gamefile_time_str(x->ended, t);
		t[10] = ' ';
		t[16] = '\0';	/* "2026-11-21 18:41" */
		strbuf_printf(&b, ROW "  %-6ld  %-12s  %-16s  %-*s  %s (%s)\n", x->board, ratings_class_name(x->cls), t, w,
		    opp, res, black ? "x" : "o");
	}
	return strbuf_finish(&b);
}

static int reserved_cmp(const void *a, const void *b)
{
	return strcmp(((const struct store_reserved *)a)->userid, ((const struct store_reserved *)b)->userid);
}

enum store_status standings_drop_closed(struct store *st, struct ratings *r)
{
	struct store_reserved *list = NULL, key;
	unsigned *lines = NULL;
	enum store_status ss;
	size_t n = 0, i, k = 0;

	ss = store_reserved_all(st, &list, &lines, &n);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	if (n > 0) {
		qsort(list, n, sizeof *list, reserved_cmp);
		for (i = 0; i < r->nplayers; i++) {
			snprintf(key.userid, sizeof key.userid, "%s", r->players[i].name);
			if (bsearch(&key, list, n, sizeof *list, reserved_cmp) == NULL)
				r->players[k++] = r->players[i];
		}
		r->nplayers = k;
	}
	free(list);
	free(lines);
	return STORE_OK;
}
