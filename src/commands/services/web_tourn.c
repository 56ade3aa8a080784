/*
 * web_tourn: the page of each tournament (tournament/T1.html: its options,
 * players, standings with tie-breaks, a round robin's crosstable, the
 * pairings of each round with links to the boards) and tournaments.txt,
 * what they were made from (web.h).
 *
 * Which tournaments changed is read from their files, not told: each line
 * of tournaments.txt keeps its file's inode, mtime and size (a file is
 * rewritten whole by a rename, store/tourns.h), so that after any mail,
 * cleanup or admin command only the pages of the tournaments whose file
 * changed are made again, whatever changed it, and a page a failure
 * missed is made at the next run.
 */
#include "commands/services/web_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/msg.h"
#include "base/strbuf.h"
#include "game/html.h"
#include "store/tourns.h"

/* ---- tournaments.txt ---- */

#define TSUM_FIELDS 13

/* "-", or user ids joined by commas */
static bool winners_ok(const char *s)
{
	char id[IDENT_USERID_MAX + 2];
	size_t n;

	if (strcmp(s, "-") == 0)
		return true;
	for (;;) {
		n = strcspn(s, ",");
		if (n == 0 || n >= sizeof id)
			return false;
		memcpy(id, s, n);
		id[n] = '\0';
		if (!ident_userid_ok(id))
			return false;
		if (s[n] == '\0')
			return true;
		s += n + 1;
	}
}

static bool tsum_parse(char *line, struct web_tsum *ts)
{
	char *f[TSUM_FIELDS], *p = line, *tab;
	int i;

	memset(ts, 0, sizeof *ts);
	for (i = 0; i < TSUM_FIELDS; i++) {
		f[i] = p;
		tab = i < TSUM_FIELDS - 1 ? strchr(p, '\t') : NULL;
		if (i < TSUM_FIELDS - 1 && tab == NULL)
			return false;
		if (tab != NULL) {
			*tab = '\0';
			p = tab + 1;
		}
	}
	ts->id = (unsigned)strtoul(f[0], NULL, 10);
	if (ts->id == 0 || !tourn_format_parse(f[2], &ts->format) || !tourn_state_parse(f[3], &ts->state))
		return false;
	snprintf(ts->sig, sizeof ts->sig, "%s", f[1]);
	ts->twice = strcmp(f[4], "double") == 0;
	ts->created = strtoll(f[5], NULL, 10);
	ts->started = strtoll(f[6], NULL, 10);
	ts->ended = strtoll(f[7], NULL, 10);
	if (sscanf(f[8], "%d/%d-%d", &ts->nplayers, &ts->min_players, &ts->max_players) != 3)
		return false;
	snprintf(ts->winner, sizeof ts->winner, "%s", f[9]);
	snprintf(ts->director, sizeof ts->director, "%s", f[10]);
	snprintf(ts->name, sizeof ts->name, "%s", f[12]);
	/* the names become links */
	return ident_userid_ok(ts->director) && winners_ok(ts->winner);
}

static void tsum_line(struct strbuf *b, const struct web_tsum *ts)
{
	strbuf_printf(b, "%u\t%s\t%s\t%s\t%s\t%lld\t%lld\t%lld\t%d/%d-%d\t%s\t%s\t-\t%s\n", ts->id, ts->sig,
	    tourn_format_name(ts->format), tourn_state_name(ts->state), ts->twice ? "double" : "single", ts->created,
	    ts->started, ts->ended, ts->nplayers, ts->min_players, ts->max_players, ts->winner, ts->director, ts->name);
}

/* tournaments.txt into *out (sorted by id as written); absent: none. */
static enum process_status tsum_load(struct web *w, struct web_tsum **out, size_t *n)
{
	char path[PATH_MAX + 32], line[TOURN_NAME_MAX + 400];
	struct web_tsum ts, *v = NULL, *nv;
	size_t a = 0;
	FILE *f;

	*out = NULL;
	*n = 0;
	snprintf(path, sizeof path, "%s/" WEB_TOURNS, w->dir);
	f = fopen(path, "re");
	if (f == NULL)
		return errno == ENOENT ? PROCESS_OK : web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (!tsum_parse(line, &ts))
			continue;	/* not ours: made again from its file */
		if (*n == a) {
			a = a != 0 ? 2 * a : 16;
			nv = realloc(v, a * sizeof *v);
			if (nv == NULL) {
				fclose(f);
				free(v);
				return web_fail(w, PROCESS_NOMEM, "out of memory");
			}
			v = nv;
		}
		v[(*n)++] = ts;
	}
	fclose(f);
	*out = v;
	return PROCESS_OK;
}

/* ---- the page ---- */

static const char *format_words(enum tourn_format f)
{
	static const char *const words[] = { "round robin", "Swiss", "knockout", "ladder" };

	return (size_t)f < sizeof words / sizeof words[0] ? words[f] : "tournament";
}

/* Half points as text, "2", "2½" in HTML. */
static void score_html(struct strbuf *b, int score2)
{
	if (score2 % 2 == 0)
		strbuf_printf(b, "%d", score2 / 2);
	else if (score2 == 1)
		strbuf_puts(b, "&frac12;");
	else
		strbuf_printf(b, "%d&frac12;", score2 / 2);
}

/* Quarter points: "6", "6.25", "6.5", "6.75" (as the mail says them). */
static void quarters_html(struct strbuf *b, long q)
{
	static const char *const frac[] = { "", ".25", ".5", ".75" };

	strbuf_printf(b, "%ld%s", q / 4, frac[q % 4]);
}

static void name_html(struct strbuf *b, const struct tourn *t, int p)
{
	html_escape(b, t->players[p].userid);
	if (t->players[p].robot > 0)
		strbuf_printf(b, " (robot, level %d)", t->players[p].robot);
	if (t->players[p].left)
		strbuf_printf(b, " <span class=\"left\">(left%s)</span>", t->players[p].annulled ? ", annulled" : "");
}

/* The crosstable cell of row player a against column player b: one mark per game between them. */
static void cell_html(struct strbuf *b, const struct tourn *t, int a, int c)
{
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];
		const char *m;

		if (!((g->black == a && g->white == c) || (g->black == c && g->white == a)))
			continue;
		switch (g->result) {
		case TOURN_PENDING: m = "."; break;
		case TOURN_DRAW: m = "&frac12;"; break;
		case TOURN_ANNULLED: m = "x"; break;
		case TOURN_BLACK_FORFEIT:
		case TOURN_WHITE_FORFEIT: m = tourn_winner(g) == a ? "+" : "&minus;"; break;
		default: m = tourn_winner(g) == a ? "1" : "0"; break;
		}
		if (g->board > 0 && g->result != TOURN_ANNULLED)
			strbuf_printf(b, "<a href=\"../board/%ld.html\">%s</a>", g->board, m);
		else
			strbuf_puts(b, m);
	}
}

static const char *reached_words(const struct tourn *t, long r, char buf[32])
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

/* Won, lost, drawn of player p (annulled games and byes left out). */
static void wld(const struct tourn *t, int p, int *won, int *lost, int *drawn)
{
	size_t k;

	*won = *lost = *drawn = 0;
	for (k = 0; k < t->ngames; k++) {
		const struct tourn_game *g = &t->games[k];

		if ((g->black != p && g->white != p) || g->white < 0 || g->result == TOURN_PENDING ||
		    g->result == TOURN_ANNULLED)
			continue;
		if (g->result == TOURN_DRAW)
			(*drawn)++;
		else if (tourn_winner(g) == p)
			(*won)++;
		else
			(*lost)++;
	}
}

/* The standings of one division: a round robin's as its crosstable, the others' as a table. */
static void standings_html(struct strbuf *b, const struct tourn *t, const struct tourn_row *rows, size_t n)
{
	char rb[32];
	size_t i, j;
	int won, lost, drawn;

	strbuf_puts(b, "<table class=\"standings\">\n<thead><tr><th>#</th><th>Player</th><th>Rating</th>");
	if (t->format == TOURN_ROUNDROBIN) {
		for (j = 0; j < n; j++)
			strbuf_printf(b, "<th>%zu</th>", j + 1);
		strbuf_puts(b, "<th>Score</th><th>S-B</th><th>Direct</th>");
	} else if (t->format == TOURN_SWISS) {
		strbuf_puts(b, "<th>Score</th><th>Buchholz</th><th>S-B</th>");
	} else if (t->format == TOURN_KNOCKOUT) {
		strbuf_puts(b, "<th>Seed</th><th>Reached</th>");
	} else {
		strbuf_puts(b, "<th>Won</th><th>Lost</th><th>Drawn</th>");
	}
	strbuf_puts(b, "</tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		const struct tourn_player *p = &t->players[rows[i].player];

		strbuf_puts(b, "<tr>");
		if (rows[i].rank > 0)
			strbuf_printf(b, "<td>%d</td><td>", rows[i].rank);
		else
			strbuf_puts(b, "<td>&ndash;</td><td>");
		name_html(b, t, rows[i].player);
		strbuf_printf(b, "</td><td>%d</td>", p->rating);
		if (t->format == TOURN_ROUNDROBIN) {
			for (j = 0; j < n; j++) {
				strbuf_puts(b, "<td>");
				if (i == j)
					strbuf_puts(b, "&times;");
				else
					cell_html(b, t, rows[i].player, rows[j].player);
				strbuf_puts(b, "</td>");
			}
		}
		if (t->format == TOURN_ROUNDROBIN || t->format == TOURN_SWISS) {
			strbuf_puts(b, "<td>");
			score_html(b, rows[i].score2);
			strbuf_puts(b, "</td><td>");
			quarters_html(b, rows[i].tb1);
			strbuf_puts(b, "</td><td>");
			quarters_html(b, rows[i].tb2);
			strbuf_puts(b, "</td>");
		} else if (t->format == TOURN_KNOCKOUT) {
			strbuf_printf(b, "<td>%d</td><td>%s</td>", p->seed, reached_words(t, rows[i].tb1, rb));
		} else {
			wld(t, rows[i].player, &won, &lost, &drawn);
			strbuf_printf(b, "<td>%d</td><td>%d</td><td>%d</td>", won, lost, drawn);
		}
		strbuf_puts(b, "</tr>\n");
	}
	strbuf_puts(b, "</tbody>\n</table>\n");
}

static void result_html(struct strbuf *b, const struct tourn *t, const struct tourn_game *g)
{
	switch (g->result) {
	case TOURN_PENDING: strbuf_puts(b, "being played"); break;
	case TOURN_DRAW: strbuf_puts(b, "drawn"); break;
	case TOURN_ANNULLED: strbuf_puts(b, "annulled"); break;
	case TOURN_BYE: strbuf_puts(b, "bye"); break;
	case TOURN_BLACK_FORFEIT:
	case TOURN_WHITE_FORFEIT:
		html_escape(b, t->players[tourn_winner(g)].userid);
		strbuf_puts(b, " won by forfeit");
		break;
	default:
		html_escape(b, t->players[tourn_winner(g)].userid);
		strbuf_puts(b, " won");
		break;
	}
}

/* Every round's pairings (a ladder's games), with the boards. */
static void pairings_html(struct strbuf *b, const struct tourn *t)
{
	int d, nd = tourn_divisions(t), last_r = -1, last_d = -1;
	bool open = false;
	size_t i;

	for (d = 1; d <= nd; d++) {
		for (i = 0; i < t->ngames; i++) {
			const struct tourn_game *g = &t->games[i];

			if (g->division != d)
				continue;
			if (t->format != TOURN_LADDER ? g->round != last_r || d != last_d : last_r < 0) {
				if (open)
					strbuf_puts(b, "</tbody>\n</table>\n");
				if (t->format == TOURN_LADDER)
					strbuf_puts(b, "<h3>Ladder games</h3>\n");
				else if (nd > 1)
					strbuf_printf(b, "<h3 id=\"d%d-r%d\">Division %d, round %d</h3>\n", d, g->round, d, g->round);
				else
					strbuf_printf(b, "<h3 id=\"r%d\">Round %d</h3>\n", g->round, g->round);
				strbuf_puts(b, "<table class=\"pairings\">\n<thead><tr><th>Table</th><th>Black</th><th>White</th>"
				    "<th>Board</th><th>Result</th></tr></thead>\n<tbody>\n");
				open = true;
				last_r = g->round;
				last_d = d;
			}
			strbuf_printf(b, "<tr><td>%d</td><td>", g->slot);
			name_html(b, t, g->black);
			strbuf_puts(b, "</td><td>");
			if (g->white < 0) {
				strbuf_puts(b, "&ndash;</td><td>&ndash;</td><td>bye</td></tr>\n");
				continue;
			}
			name_html(b, t, g->white);
			if (g->board > 0)
				strbuf_printf(b, "</td><td><a href=\"../board/%ld.html\">%ld</a></td><td>", g->board, g->board);
			else
				strbuf_puts(b, "</td><td>not made yet</td><td>");
			result_html(b, t, g);
			strbuf_puts(b, "</td></tr>\n");
		}
	}
	if (open)
		strbuf_puts(b, "</tbody>\n</table>\n");
	else
		strbuf_puts(b, "<p>No games yet.</p>\n");
}

static void options_html(struct strbuf *b, const struct tourn *t)
{
	strbuf_puts(b, "<ul class=\"options\">\n<li>Boards: ");
	if (t->options[0] != '\0') {
		strbuf_puts(b, "<code>");
		html_escape(b, t->options);
		strbuf_puts(b, "</code>");
	} else {
		strbuf_puts(b, "the server's defaults");
	}
	strbuf_printf(b, "</li>\n<li>Players: %d to %d</li>\n", t->min_players, t->max_players);
	if (t->twice)
		strbuf_puts(b, "<li>Each pair plays twice, colours reversed</li>\n");
	if (t->format == TOURN_SWISS)
		strbuf_printf(b, "<li>Rounds: %d</li>\n", t->rounds);
	if (t->format == TOURN_LADDER)
		strbuf_printf(b, "<li>A player may challenge up to %d places above; idle for %d days: to the bottom</li>\n",
		    t->reach, t->idle_days);
	if (t->repeat)
		strbuf_puts(b, "<li>A new edition with the same players when it ends</li>\n");
	/* the editions' pages sit side by side in tournament/ */
	if (t->previous != 0)
		strbuf_printf(b, "<li>Edition %d: the edition before it is <a href=\"T%u.html\">T%u</a></li>\n", t->edition,
		    t->previous, t->previous);
	if (t->next != 0)
		strbuf_printf(b, "<li>Next edition: <a href=\"T%u.html\">T%u</a></li>\n", t->next, t->next);
	strbuf_puts(b, "</ul>\n");
}

/* tournament/T<id>.html */
static enum process_status tourn_page(struct web *w, const struct tourn *t)
{
	struct strbuf b = STRBUF_INIT;
	struct tourn_row *rows = NULL;
	char title[TOURN_NAME_MAX + 40], rel[64], stamp[GAMEFILE_TIME_SIZE], *content;
	enum process_status s;
	int d, nd = tourn_divisions(t);
	size_t i, n;

	web_when(t->created, stamp);
	strbuf_printf(&b, "<p>A %s%s directed by ", t->twice ? "double " : "", format_words(t->format));
	html_escape(&b, t->director);
	strbuf_printf(&b, ", made %s UTC: <strong>%s</strong>", stamp, t->state == TOURN_OPEN ? "taking players" :
	    t->state == TOURN_RUNNING ? "being played" : "ended");
	if (t->state == TOURN_RUNNING && (t->format == TOURN_SWISS || t->format == TOURN_KNOCKOUT))
		strbuf_printf(&b, ", round %d of %d", t->round, t->rounds);
	strbuf_puts(&b, ".</p>\n");
	options_html(&b, t);
	if (t->state == TOURN_OPEN) {
		strbuf_printf(&b, "<h2>Players (%zu)</h2>\n", t->nplayers);
		if (t->nplayers == 0)
			strbuf_puts(&b, "<p>None yet.</p>\n");
		else
			strbuf_puts(&b, "<table class=\"players\">\n<thead><tr><th>Player</th><th>Rating</th></tr></thead>\n"
			    "<tbody>\n");
		for (i = 0; i < t->nplayers; i++) {
			strbuf_puts(&b, "<tr><td>");
			name_html(&b, t, (int)i);
			strbuf_printf(&b, "</td><td>%d</td></tr>\n", t->players[i].rating);
		}
		if (t->nplayers > 0)
			strbuf_puts(&b, "</tbody>\n</table>\n");
		strbuf_printf(&b, "<p>To join, send by mail to <a href=\"mailto:");
		html_escape(&b, w->cfg->from_address);
		strbuf_puts(&b, "\">");
		html_escape(&b, w->cfg->from_address);
		strbuf_printf(&b, "</a>:</p>\n<pre class=\"command\">join T%u &lt;userid&gt; &lt;password&gt;</pre>\n", t->id);
		goto done;
	}
	rows = calloc(t->nplayers + 1, sizeof *rows);
	if (rows == NULL) {
		strbuf_release(&b);
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	}
	strbuf_printf(&b, "<h2>%s</h2>\n", t->state == TOURN_FINISHED ? "Final standings" : "Standings");
	for (d = 1; d <= nd; d++) {
		n = tourn_standings(t, d, rows);
		if (n == 0)
			continue;
		if (nd > 1)
			strbuf_printf(&b, "<h3>Division %d</h3>\n", d);
		standings_html(&b, t, rows, n);
	}
	if (t->format == TOURN_ROUNDROBIN)
		strbuf_puts(&b, "<p class=\"key\">1 won, 0 lost, &frac12; drawn, + won by forfeit, &minus; lost by forfeit, "
		    "x annulled, . being played; each mark links to its board. S-B: Sonneborn-Berger; Direct: the points "
		    "among the players level on score and S-B; then the rating.</p>\n");
	else if (t->format == TOURN_SWISS)
		strbuf_puts(&b, "<p class=\"key\">A bye scores 1. Tie-breaks: Buchholz, then Sonneborn-Berger (S-B), then "
		    "the rating.</p>\n");
	for (i = 0; i < t->nplayers; i++) {
		if (!t->players[i].left)
			continue;
		strbuf_puts(&b, "<p class=\"left\">");
		html_escape(&b, t->players[i].userid);
		strbuf_printf(&b, " left %s.</p>\n", t->players[i].annulled ?
		    "before half of their games: none of their results counts" :
		    "after half of their games: their unplayed games are lost by forfeit");
	}
	strbuf_puts(&b, "<h2>Pairings</h2>\n<p>Black moves first.</p>\n");
	pairings_html(&b, t);
done:
	strbuf_printf(&b, "<p>By mail: <code>tournament T%u</code>. <a href=\"../tournaments.html\">All the "
	    "tournaments</a>.</p>\n", t->id);
	free(rows);
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust tournament T%u: %s", t->id, t->name);
	snprintf(rel, sizeof rel, "tournament/T%u.html", t->id);
	s = web_page(w, rel, "../", title, content);
	free(content);
	return s;
}

/* ---- the run ---- */

/* The signature of tournaments/<id>: "" when it cannot be read. */
static void file_sig(struct web *w, unsigned id, char sig[80])
{
	char path[PATH_MAX + 64];
	struct stat sb;

	snprintf(path, sizeof path, "%s/%s/%u", store_home(w->st), TOURNS_DIR, id);
	if (stat(path, &sb) != 0) {
		sig[0] = '\0';
		return;
	}
	snprintf(sig, 80, "%llu.%lld.%09ld.%lld", (unsigned long long)sb.st_ino, (long long)sb.st_mtim.tv_sec,
	    (long)sb.st_mtim.tv_nsec, (long long)sb.st_size);
}

/*
 * When the tournament's games began (the first board's creation) or ended
 * (the last board's last move), from the boards' headers: the same for an
 * update and a rebuild.  first: the earliest of the first round's boards;
 * else the latest last move of every board.
 */
static long long boards_time(struct web *w, const struct tourn *t, bool first)
{
	long long best = 0, v;
	struct game g;
	char *text;
	size_t i, len;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *tg = &t->games[i];

		if (tg->board == 0 || tg->white < 0 || (first && tg->round != t->games[0].round))
			continue;
		if (store_board_read(w->st, tg->board, &text, &len) != STORE_OK)
			continue;
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK) {
			v = first ? (long long)g.created : (long long)g.last_move;
			if (best == 0 || (first ? v < best : v > best))
				best = v;
		}
		free(text);
	}
	return best;
}

/* ts from t (old: its line before, or NULL: the times it had kept). */
static void tsum_of(struct web *w, const struct tourn *t, const struct web_tsum *old, struct web_tsum *ts)
{
	struct tourn_row *rows;

	memset(ts, 0, sizeof *ts);
	ts->id = t->id;
	ts->format = t->format;
	ts->state = t->state;
	ts->twice = t->twice;
	ts->created = (long long)t->created;
	ts->nplayers = (int)t->nplayers;
	ts->min_players = t->min_players;
	ts->max_players = t->max_players;
	snprintf(ts->director, sizeof ts->director, "%s", t->director);
	snprintf(ts->name, sizeof ts->name, "%s", t->name);
	/* a name holds no tab nor line end (tourn's), but an admin's edit may: one line all the same */
	for (char *p = ts->name; *p != '\0'; p++)
		if (*p == '\t' || *p == '\n' || *p == '\r')
			*p = ' ';
	snprintf(ts->winner, sizeof ts->winner, "-");
	if (t->state != TOURN_OPEN) {
		ts->started = old != NULL && old->started > 0 ? old->started : boards_time(w, t, true);
		if (ts->started == 0)
			ts->started = ts->created;
	}
	if (t->state == TOURN_FINISHED) {
		ts->ended = old != NULL && old->ended > 0 ? old->ended : boards_time(w, t, false);
		if (ts->ended < ts->started)
			ts->ended = ts->started;
		rows = calloc(t->nplayers + 1, sizeof *rows);
		if (rows != NULL) {
			size_t k, n = tourn_standings(t, 1, rows), len = 0;

			/* the first place, shared when the tie-breaks left a tie */
			for (k = 0; k < n && rows[k].rank == 1; k++) {
				const char *id = t->players[rows[k].player].userid;

				if (len + strlen(id) + 2 > sizeof ts->winner)
					break;
				len += (size_t)snprintf(ts->winner + len, sizeof ts->winner - len, "%s%s", k > 0 ? "," : "", id);
			}
			if (len == 0)
				snprintf(ts->winner, sizeof ts->winner, "-");
		}
		free(rows);
	}
}

/* The boards of t whose pages lag: not on the site yet, or ended for t while the site says playing. */
static enum process_status lagging_boards(struct web *w, const struct tourn *t, long **boards, size_t *n, size_t *a)
{
	struct entry key, *e;
	long *nb;
	size_t i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourn_game *g = &t->games[i];

		if (g->board == 0 || g->white < 0)
			continue;
		key.board = g->board;
		e = w->n > 0 ? bsearch(&key, w->e, w->n, sizeof *w->e, web_entry_cmp) : NULL;
		if (e != NULL && !(g->result != TOURN_PENDING && strcmp(e->result, "playing") == 0))
			continue;
		if (*n == *a) {
			*a = *a != 0 ? 2 * *a : 64;
			nb = realloc(*boards, *a * sizeof *nb);
			if (nb == NULL)
				return web_fail(w, PROCESS_NOMEM, "out of memory");
			*boards = nb;
		}
		(*boards)[(*n)++] = g->board;
	}
	return PROCESS_OK;
}

enum process_status web_tourns_sync(struct web *w, bool all)
{
	struct web_tsum *old = NULL, *now = NULL;
	char err[TOURNS_ERR_MAX], sig[80];
	struct strbuf b = STRBUF_INIT;
	enum process_status s;
	unsigned *ids = NULL;
	size_t nold = 0, nids = 0, i, k = 0, nb = 0, ab = 0;
	long *boards = NULL;
	bool changed = false;
	char *text;

	s = tsum_load(w, &old, &nold);
	if (s != PROCESS_OK)
		return s;
	if (tourns_list(w->st, &ids, &nids) != STORE_OK) {
		s = web_fail(w, PROCESS_DATAERR, "tournaments: %s", store_error(w->st));
		goto out;
	}
	now = calloc(nids + 1, sizeof *now);
	if (now == NULL) {
		s = web_fail(w, PROCESS_NOMEM, "out of memory");
		goto out;
	}
	changed = nold != nids;
	for (i = 0; s == PROCESS_OK && i < nids; i++) {
		struct web_tsum *o = NULL;
		struct tourn *t = NULL;
		char rel[64];

		while (k < nold && old[k].id < ids[i])
			k++;
		if (k < nold && old[k].id == ids[i])
			o = &old[k];
		file_sig(w, ids[i], sig);
		snprintf(rel, sizeof rel, "tournament/T%u.html", ids[i]);
		if (!all && o != NULL && sig[0] != '\0' && strcmp(o->sig, sig) == 0 && web_has_page(w, rel)) {
			now[i] = *o;
			continue;
		}
		changed = true;
		/* read without the tournaments' lock: a file is replaced whole (tourns.h), never seen half written */
		if (tourns_load(w->st, ids[i], &t, err) != STORE_OK) {
			msg_warn("web: %s", err);	/* a damaged file (fsck names it) keeps the others on the site */
			if (o != NULL)
				now[i] = *o;
			else
				now[i].id = 0;
			continue;
		}
		tsum_of(w, t, all ? NULL : o, &now[i]);
		snprintf(now[i].sig, sizeof now[i].sig, "%s", sig);
		s = tourn_page(w, t);
		if (s == PROCESS_OK && !all && !w->loaded)
			s = web_summary_load(w);
		if (s == PROCESS_OK && !all)
			s = lagging_boards(w, t, &boards, &nb, &ab);
		tourn_free(t);
	}
	if (s == PROCESS_OK && nb > 0)
		s = web_boards_refresh(w, boards, nb);
	/* a site whose first change is a tournament's: the index links it */
	if (s == PROCESS_OK && !web_has_page(w, "index.html")) {
		if (!w->loaded)
			s = web_summary_load(w);
		if (s == PROCESS_OK)
			s = web_index_page(w);
	}
	if (s != PROCESS_OK)
		goto out;
	/* a tournament file removed by hand leaves the site's list (its page stays for its links) */
	for (i = 0; i < nids; i++)
		if (now[i].id != 0)
			tsum_line(&b, &now[i]);
	text = strbuf_finish(&b);
	if (text == NULL) {
		s = web_fail(w, PROCESS_NOMEM, "out of memory");
		goto out;
	}
	s = changed || !web_has_page(w, WEB_TOURNS) ? web_put(w, WEB_TOURNS, text) : PROCESS_OK;
	free(text);
	if (s == PROCESS_OK) {
		size_t m = 0;

		for (i = 0; i < nids; i++)
			if (now[i].id != 0)
				now[m++] = now[i];
		s = web_feed_pages(w, now, m);
	}
out:
	free(boards);
	free(ids);
	free(old);
	free(now);
	return s;
}
