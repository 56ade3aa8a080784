/*
 * tourn_text: a tournament as text (tourn.h): the pairings with their
 * boards, the standings with their tie-breaks and a round robin's
 * crosstable, as the mails and `tournament <id>` show them.  Plain ASCII,
 * in columns, for a fixed-width mail font.
 */
#include "game/tourn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

void tourn_text_score(int score2, char buf[16])
{
	snprintf(buf, 16, "%d%s", score2 / 2, score2 % 2 ? ".5" : "");
}

/* Quarter points as text: "6", "6.25", "6.5", "6.75". */
static void quarters(long q, char buf[24])
{
	static const char *const frac[] = { "", ".25", ".5", ".75" };

	snprintf(buf, 24, "%ld%s", q / 4, frac[q % 4]);
}

/* The widest user id of division (at least 6, "Player"). */
static int name_width(const struct tourn *t, int division)
{
	int w = 6, l;
	size_t i;

	for (i = 0; i < t->nplayers; i++) {
		if (division > 0 && t->players[i].division != division)
			continue;
		l = (int)strlen(t->players[i].userid) + (t->players[i].left ? 7 : 0);
		if (l > w)
			w = l;
	}
	return w;
}

static void name(const struct tourn *t, int p, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", t->players[p].userid, t->players[p].left ? " (left)" : "");
}

/* The cell of row player a against column player b: one character per game between them. */
static void cell(const struct tourn *t, int a, int b, char *buf, size_t size)
{
	size_t i, n = 0;
	char c;

	for (i = 0; i < t->ngames && n + 1 < size; i++) {
		const struct tourn_game *g = &t->games[i];

		if (!((g->black == a && g->white == b) || (g->black == b && g->white == a)))
			continue;
		switch (g->result) {
		case TOURN_PENDING:
			c = '.';
			break;
		case TOURN_DRAW:
			c = '=';
			break;
		case TOURN_ANNULLED:
			c = 'x';
			break;
		case TOURN_BLACK_FORFEIT:
		case TOURN_WHITE_FORFEIT:
			c = tourn_winner(g) == a ? '+' : '-';
			break;
		default:
			c = tourn_winner(g) == a ? '1' : '0';
			break;
		}
		buf[n++] = c;
	}
	buf[n] = '\0';
}

static void crosstable(const struct tourn *t, const struct tourn_row *rows, size_t n, struct strbuf *out)
{
	int w = name_width(t, t->players[rows[0].player].division), cw = t->twice ? 3 : 2;
	char nm[IDENT_USERID_MAX + 8], c[8], sc[16], q1[24], q2[24];
	size_t i, j;

	strbuf_printf(out, " #  %-*s  %6s ", w, "Player", "Rating");
	for (j = 0; j < n; j++)
		strbuf_printf(out, " %*zu", cw, j + 1);
	strbuf_puts(out, "  Score    S-B  Direct\n");
	for (i = 0; i < n; i++) {
		name(t, rows[i].player, nm, sizeof nm);
		if (rows[i].rank > 0)
			strbuf_printf(out, "%2d  %-*s  %6d ", rows[i].rank, w, nm, t->players[rows[i].player].rating);
		else
			strbuf_printf(out, " -  %-*s  %6d ", w, nm, t->players[rows[i].player].rating);
		for (j = 0; j < n; j++) {
			if (i == j)
				snprintf(c, sizeof c, "%s", t->twice ? "**" : "*");
			else
				cell(t, rows[i].player, rows[j].player, c, sizeof c);
			strbuf_printf(out, " %*s", cw, c);
		}
		tourn_text_score(rows[i].score2, sc);
		quarters(rows[i].tb1, q1);
		quarters(rows[i].tb2, q2);
		strbuf_printf(out, "  %5s %6s %7s\n", sc, q1, q2);
	}
}

static const char *reached_name(const struct tourn *t, long r, char buf[32])
{
	if (t->state == TOURN_FINISHED && r > t->rounds)
		return "winner";
	if (r == t->rounds)
		return t->state == TOURN_FINISHED ? "final" : "in the final";
	if (r == t->rounds - 1)
		return "semi-final";
	snprintf(buf, 32, "round %ld", r);
	return buf;
}

static void standings_table(const struct tourn *t, const struct tourn_row *rows, size_t n, struct strbuf *out)
{
	int w = name_width(t, 0);
	char nm[IDENT_USERID_MAX + 8], sc[16], q1[24], q2[24], rk[16], rb[32];
	size_t i;

	switch (t->format) {
	case TOURN_SWISS:
		strbuf_printf(out, " #  %-*s  %6s  Score  Buchholz    S-B\n", w, "Player", "Rating");
		break;
	case TOURN_KNOCKOUT:
		strbuf_printf(out, " #  %-*s  %6s  Seed  Reached\n", w, "Player", "Rating");
		break;
	default:
		strbuf_printf(out, " #  %-*s  %6s  Won  Lost  Drawn\n", w, "Player", "Rating");
		break;
	}
	for (i = 0; i < n; i++) {
		const struct tourn_player *p = &t->players[rows[i].player];

		name(t, rows[i].player, nm, sizeof nm);
		if (rows[i].rank > 0)
			snprintf(rk, sizeof rk, "%2d", rows[i].rank);
		else
			snprintf(rk, sizeof rk, " -");
		strbuf_printf(out, "%s  %-*s  %6d", rk, w, nm, p->rating);
		tourn_text_score(rows[i].score2, sc);
		quarters(rows[i].tb1, q1);
		quarters(rows[i].tb2, q2);
		if (t->format == TOURN_SWISS) {
			strbuf_printf(out, "  %5s  %8s %6s\n", sc, q1, q2);
		} else if (t->format == TOURN_KNOCKOUT) {
			strbuf_printf(out, "  %4d  %s\n", p->seed, reached_name(t, rows[i].tb1, rb));
		} else {
			int won = 0, lost = 0, drawn = 0;
			size_t k;

			for (k = 0; k < t->ngames; k++) {
				const struct tourn_game *g = &t->games[k];

				if ((g->black != rows[i].player && g->white != rows[i].player) || g->white < 0 ||
				    g->result == TOURN_PENDING || g->result == TOURN_ANNULLED)
					continue;
				if (g->result == TOURN_DRAW)
					drawn++;
				else if (tourn_winner(g) == rows[i].player)
					won++;
				else
					lost++;
			}
			strbuf_printf(out, "  %3d  %4d  %5d\n", won, lost, drawn);
		}
	}
}

void tourn_text_standings(const struct tourn *t, struct strbuf *out)
{
	struct tourn_row *rows = calloc(t->nplayers + 1, sizeof *rows);
	int d, nd = tourn_divisions(t);
	size_t n;

	if (rows == NULL) {
		strbuf_puts(out, "(out of memory)\n");
		return;
	}
	for (d = 1; d <= nd; d++) {
		n = tourn_standings(t, d, rows);
		if (n == 0)
			continue;
		if (nd > 1)
			strbuf_printf(out, "%sDivision %d\n", d > 1 ? "\n" : "", d);
		if (t->format == TOURN_ROUNDROBIN)
			crosstable(t, rows, n, out);
		else
			standings_table(t, rows, n, out);
	}
	if (t->format == TOURN_ROUNDROBIN)
		strbuf_puts(out, "\n1 won, 0 lost, = drawn, + won by forfeit, - lost by forfeit, x annulled, . being played.\n"
		    "S-B: Sonneborn-Berger; Direct: the points among the players level on score and S-B.\n");
	else if (t->format == TOURN_SWISS)
		strbuf_puts(out, "\nA bye scores 1. Tie-breaks: Buchholz, then Sonneborn-Berger (S-B), then the rating.\n");
	free(rows);
}

static void game_line(const struct tourn *t, const struct tourn_game *g, struct strbuf *out)
{
	char nb[IDENT_USERID_MAX + 8], nw[IDENT_USERID_MAX + 8], board[32];
	int w = name_width(t, 0);

	name(t, g->black, nb, sizeof nb);
	if (g->white < 0) {
		strbuf_printf(out, "      %-*s   bye\n", w, nb);
		return;
	}
	name(t, g->white, nw, sizeof nw);
	if (g->board > 0)
		snprintf(board, sizeof board, "board %ld", g->board);
	else
		snprintf(board, sizeof board, "no board yet");
	strbuf_printf(out, "  %2d. %-*s - %-*s  %-12s %s\n", g->slot, w, nb, w, nw, board, tourn_result_name(g->result));
}

void tourn_text_pairings(const struct tourn *t, struct strbuf *out)
{
	int d, nd = tourn_divisions(t), r, last_r = -1, last_d = -1;
	size_t i;

	for (d = 1; d <= nd; d++) {
		for (i = 0; i < t->ngames; i++) {
			const struct tourn_game *g = &t->games[i];

			if (g->division != d)
				continue;
			/* a Swiss or a knockout: the rounds so far; a round robin: every round */
			r = g->round;
			if (r != last_r || d != last_d) {
				if (t->format == TOURN_LADDER)
					strbuf_printf(out, "%s", last_r < 0 ? "Ladder games (Black first)\n" : "");
				else if (nd > 1)
					strbuf_printf(out, "Division %d, round %d (Black first)\n", d, r);
				else
					strbuf_printf(out, "Round %d (Black first)\n", r);
				last_r = t->format == TOURN_LADDER ? 0 : r;
				last_d = d;
			}
			game_line(t, g, out);
		}
	}
	if (t->ngames == 0)
		strbuf_puts(out, "No games yet.\n");
}

void tourn_text_player_pairings(const struct tourn *t, int p, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];
		int o;

		if (g->black != p && g->white != p)
			continue;
		if (g->white < 0) {
			strbuf_printf(out, "Round %d: a bye.\n", g->round);
			continue;
		}
		o = g->black == p ? g->white : g->black;
		strbuf_printf(out, "Round %d: %s against %s, board %ld.\n", g->round, g->black == p ? "Black" : "White",
		    t->players[o].userid, g->board);
	}
}
