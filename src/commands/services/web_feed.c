/*
 * web_feed: the open challenges (open.txt), the index of the tournaments
 * and open challenges (tournaments.html) and the Atom feed of both
 * (feed.atom, RFC 4287), made from tournaments.txt, open.txt and the
 * players seeking games (store/seeks.h) (web.h).
 *
 * The feed is made from the store alone, never from the clock, so that an
 * update and a rebuild write the same bytes and a commit that changes
 * nothing of it leaves it alone.  Its ids are tag: URIs (RFC 4151) of the
 * server's mail domain, each dated by what it names, so that they never
 * change (RFC 4287 section 4.2.6).
 */
#include "commands/services/web_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "game/html.h"
#include "store/seeks.h"

#define FEED_ENTRIES_MAX 200	/* the newest entries of the feed */
#define FEED_TAG_DATE "2026"	/* the feed's own tag: date, fixed forever (RFC 4151) */

/* ---- open.txt ---- */

static int open_cmp(const void *a, const void *b)
{
	long x = ((const struct web_open *)a)->board, y = ((const struct web_open *)b)->board;

	return x < y ? -1 : x > y;
}

static enum process_status open_add(struct web *w, const struct web_open *o)
{
	struct web_open *v;
	size_t a;

	if (w->nopen == w->aopen) {
		a = w->aopen != 0 ? 2 * w->aopen : 16;
		v = realloc(w->open, a * sizeof *v);
		if (v == NULL)
			return web_fail(w, PROCESS_NOMEM, "out of memory");
		w->open = v;
		w->aopen = a;
	}
	w->open[w->nopen++] = *o;
	return PROCESS_OK;
}

enum process_status web_open_load(struct web *w)
{
	char path[PATH_MAX + 32], line[GAME_NAME_SIZE + GAME_DIMENSIONS_SIZE + 120], *f[5], *p, *tab;
	struct web_open o;
	enum process_status s = PROCESS_OK;
	FILE *fp;
	int i;

	if (w->open_read)
		return PROCESS_OK;
	w->open_read = true;
	w->nopen = 0;
	snprintf(path, sizeof path, "%s/" WEB_OPEN, w->dir);
	fp = fopen(path, "re");
	if (fp == NULL)
		return errno == ENOENT ? PROCESS_OK : web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	while (s == PROCESS_OK && fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		for (i = 0, p = line; i < 5; i++) {
			f[i] = p;
			tab = i < 4 ? strchr(p, '\t') : NULL;
			if (i < 4 && tab == NULL)
				break;
			if (tab != NULL) {
				*tab = '\0';
				p = tab + 1;
			}
		}
		if (i < 5)
			continue;	/* not ours */
		memset(&o, 0, sizeof o);
		o.board = strtol(f[0], NULL, 10);
		o.created = strtoll(f[1], NULL, 10);
		snprintf(o.challenger, sizeof o.challenger, "%s", f[2]);
		snprintf(o.seat, sizeof o.seat, "%s", strcmp(f[3], "White") == 0 ? "White" : "Black");
		snprintf(o.what, sizeof o.what, "%s", f[4]);
		if (o.board < IDENT_BOARD_MIN || !ident_userid_ok(o.challenger))
			continue;
		s = open_add(w, &o);
	}
	fclose(fp);
	if (s == PROCESS_OK && w->nopen > 0)
		qsort(w->open, w->nopen, sizeof *w->open, open_cmp);
	return s;
}

enum process_status web_open_note(struct web *w, long board, const struct game *g)
{
	struct web_open o, key, *at;
	char dims[GAME_DIMENSIONS_SIZE];
	enum process_status s = web_open_load(w);

	if (s != PROCESS_OK)
		return s;
	key.board = board;
	at = w->nopen > 0 ? bsearch(&key, w->open, w->nopen, sizeof *w->open, open_cmp) : NULL;
	if (g == NULL || !game_is_open(g)) {
		if (at != NULL) {
			memmove(at, at + 1, (size_t)(w->open + w->nopen - at - 1) * sizeof *at);
			w->nopen--;
			w->open_changed = true;
		}
		return PROCESS_OK;
	}
	memset(&o, 0, sizeof o);
	o.board = board;
	o.created = (long long)g->created;
	snprintf(o.challenger, sizeof o.challenger, "%s", game_open_challenger(g));
	snprintf(o.seat, sizeof o.seat, "%s", strcmp(g->black, GAME_OPEN_SEAT) == 0 ? "Black" : "White");
	snprintf(o.what, sizeof o.what, "%s%s%s", game_dimensions(g, false, dims), g->swap ? "" : ", no swap",
	    g->unrated ? ", unrated" : "");
	for (char *p = o.what; *p != '\0'; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	if (at != NULL) {
		if (memcmp(at, &o, sizeof o) != 0) {
			*at = o;
			w->open_changed = true;
		}
		return PROCESS_OK;
	}
	s = open_add(w, &o);
	if (s == PROCESS_OK) {
		qsort(w->open, w->nopen, sizeof *w->open, open_cmp);
		w->open_changed = true;
	}
	return s;
}

enum process_status web_open_save(struct web *w)
{
	struct strbuf b = STRBUF_INIT;
	enum process_status s;
	size_t i, m = 0;
	char *text;

	s = web_open_load(w);
	if (s != PROCESS_OK)
		return s;
	/* a challenge that expired or was withdrawn without a commit here (cleanup): its board is gone */
	for (i = 0; i < w->nopen; i++) {
		if (store_board_exists(w->st, w->open[i].board) == STORE_NOT_FOUND) {
			w->open_changed = true;
			continue;
		}
		w->open[m++] = w->open[i];
	}
	w->nopen = m;
	if (!w->open_changed && web_has_page(w, WEB_OPEN))
		return PROCESS_OK;
	for (i = 0; i < w->nopen; i++)
		strbuf_printf(&b, "%ld\t%lld\t%s\t%s\t%s\n", w->open[i].board, w->open[i].created, w->open[i].challenger,
		    w->open[i].seat, w->open[i].what);
	text = strbuf_finish(&b);
	if (text == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	s = web_put(w, WEB_OPEN, text);
	free(text);
	w->open_changed = false;
	return s;
}

/* The winners "ann,bob,cat" as words: "ann, bob and cat"; *shared when more than one. */
static void winners_words(const char *winners, char *buf, size_t size, bool *shared)
{
	size_t n = 0, k, commas = 0, seen = 0;

	for (k = 0; winners[k] != '\0'; k++)
		commas += winners[k] == ',';
	*shared = commas > 0;
	for (k = 0; winners[k] != '\0' && n + 6 < size; k++) {
		if (winners[k] != ',') {
			buf[n++] = winners[k];
			continue;
		}
		n += (size_t)snprintf(buf + n, size - n, "%s", ++seen == commas ? " and " : ", ");
	}
	buf[n < size ? n : size - 1] = '\0';
}

/* ---- tournaments.html ---- */

static const char *format_words(enum tourn_format f, bool twice)
{
	static const char *const words[] = { "round robin", "Swiss", "knockout", "ladder" };

	if (f == TOURN_ROUNDROBIN && twice)
		return "double round robin";
	return (size_t)f < sizeof words / sizeof words[0] ? words[f] : "tournament";
}

static const char *state_words(enum tourn_state s)
{
	return s == TOURN_OPEN ? "taking players" : s == TOURN_RUNNING ? "being played" : "ended";
}

static enum process_status index_page(struct web *w, const struct web_tsum *ts, size_t n, const struct seeks_entry *sk,
    size_t nsk)
{
	struct strbuf b = STRBUF_INIT;
	char stamp[GAMEFILE_TIME_SIZE], *content;
	enum process_status s;
	size_t i;

	strbuf_printf(&b, "<p>New tournaments, starts, ends and open challenges also come as an <a href=\"%s\">Atom "
	    "feed</a>.</p>\n<h2>Tournaments (%zu)</h2>\n", WEB_FEED, n);
	if (n == 0)
		strbuf_puts(&b, "<p>None yet.</p>\n");
	else
		strbuf_puts(&b, "<table class=\"tournaments\">\n<thead><tr><th>Id</th><th>Name</th><th>Format</th>"
		    "<th>State</th><th>Players</th><th>Winner</th></tr></thead>\n<tbody>\n");
	/* the newest first */
	for (i = n; i-- > 0;) {
		strbuf_printf(&b, "<tr><td><a href=\"tournament/T%u.html\">T%u</a></td><td>", ts[i].id, ts[i].id);
		html_text(&b, ts[i].name);
		strbuf_printf(&b, "</td><td>%s</td><td>%s</td><td>%d", format_words(ts[i].format, ts[i].twice),
		    state_words(ts[i].state), ts[i].nplayers);
		if (ts[i].state == TOURN_OPEN)
			strbuf_printf(&b, " (%d to %d)", ts[i].min_players, ts[i].max_players);
		strbuf_puts(&b, "</td><td>");
		if (strcmp(ts[i].winner, "-") != 0) {
			char words[WEB_WINNERS_MAX + 40];
			bool shared;

			winners_words(ts[i].winner, words, sizeof words, &shared);
			strbuf_puts(&b, words);
		}
		strbuf_puts(&b, "</td></tr>\n");
	}
	if (n > 0)
		strbuf_puts(&b, "</tbody>\n</table>\n");
	strbuf_printf(&b, "<h2 id=\"open\">Open challenges (%zu)</h2>\n", w->nopen);
	if (w->nopen == 0)
		strbuf_puts(&b, "<p>None.</p>\n");
	else
		strbuf_puts(&b, "<table class=\"open\">\n<thead><tr><th>Board</th><th>Boards</th><th>Challenger</th>"
		    "<th>Open seat</th><th>Since (UTC)</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < w->nopen; i++) {
		web_when(w->open[i].created, stamp);
		strbuf_printf(&b, "<tr><td>%ld</td><td>", w->open[i].board);
		html_escape(&b, w->open[i].what);
		strbuf_printf(&b, "</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", w->open[i].challenger, w->open[i].seat,
		    stamp);
	}
	if (w->nopen > 0)
		strbuf_puts(&b, "</tbody>\n</table>\n<p>To take a seat: <code>accept &lt;board&gt; &lt;userid&gt; "
		    "&lt;password&gt;</code>.</p>\n");
	strbuf_printf(&b, "<h2 id=\"seeking\">Players seeking games (%zu)</h2>\n", nsk);
	if (nsk == 0)
		strbuf_puts(&b, "<p>None.</p>\n");
	for (i = 0; i < nsk; i++)
		strbuf_printf(&b, "%s%s (%u)%s", i == 0 ? "<p>" : ", ", sk[i].userid, sk[i].count, i + 1 == nsk ? "</p>\n" : "");
	if (nsk > 0)
		strbuf_puts(&b, "<p>To play one: <code>challenge &lt;userid&gt; &lt;password&gt; &lt;them&gt;</code>.</p>\n");
	strbuf_puts(&b, "<p>By mail: <code>tournaments</code>, <code>challenges</code>.</p>\n");
	content = strbuf_finish(&b);
	if (content == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	s = web_page(w, "tournaments.html", "", "Oust tournaments and open challenges", content);
	free(content);
	return s;
}

/* ---- feed.atom ---- */

struct fentry {
	long long updated;
	char id[200];
	char title[TOURN_NAME_MAX + WEB_WINNERS_MAX + 120];
	char link[120];		/* relative to the site */
	char summary[TOURN_NAME_MAX + 400];
};

static int fentry_cmp(const void *a, const void *b)
{
	const struct fentry *x = a, *y = b;

	if (x->updated != y->updated)
		return x->updated > y->updated ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* RFC 3339 (RFC 4287 section 3.3): "2026-11-21T18:41:07Z" */
static void rfc3339(long long t, char buf[GAMEFILE_TIME_SIZE])
{
	gamefile_time_str((int64_t)t, buf);
}

/* "2026-11-21", a tag: URI's date (RFC 4151). */
static void tag_date(long long t, char buf[16])
{
	char s[GAMEFILE_TIME_SIZE];

	gamefile_time_str((int64_t)t, s);
	snprintf(buf, 16, "%.10s", s);
}

/* The mail domain: the tag: URIs' authority, lower case; "localhost" without one. */
static void domain_of(const char *from, char *buf, size_t size)
{
	const char *at = strrchr(from, '@');
	size_t i, n = 0;

	if (at != NULL)
		for (i = 1; at[i] != '\0' && at[i] != '>' && n + 1 < size; i++)
			if (isalnum((unsigned char)at[i]) || at[i] == '.' || at[i] == '-')
				buf[n++] = (char)tolower((unsigned char)at[i]);
	buf[n] = '\0';
	if (n == 0)
		snprintf(buf, size, "localhost");
}

/* The site's address for rel: web_url and rel, or rel alone (resolved against the feed's own address). */
static void url(struct strbuf *b, const struct web *w, const char *rel)
{
	const char *base = w->cfg->web_url;
	size_t n = strlen(base);

	html_escape(b, base);
	if (n > 0 && base[n - 1] != '/')
		strbuf_puts(b, "/");
	html_escape(b, rel);
}

static struct fentry *fentry_next(struct fentry **v, size_t *n, size_t *a)
{
	struct fentry *nv;

	if (*n == *a) {
		*a = *a != 0 ? 2 * *a : 32;
		nv = realloc(*v, *a * sizeof *nv);
		if (nv == NULL)
			return NULL;
		*v = nv;
	}
	memset(&(*v)[*n], 0, sizeof **v);
	return &(*v)[(*n)++];
}

/* The entries: each tournament made, begun and ended; each open challenge; each player seeking games. */
static struct fentry *entries(const struct web *w, const struct web_tsum *ts, size_t n, const struct seeks_entry *sk,
    size_t nsk, long long seek_time, size_t *count)
{
	struct fentry *v = NULL, *e;
	char dom[120], day[16];
	size_t i, m = 0, a = 0;

	domain_of(w->cfg->from_address, dom, sizeof dom);
	for (i = 0; i < n; i++) {
		const struct web_tsum *t = &ts[i];
		const char *f = format_words(t->format, t->twice);

		tag_date(t->created, day);
		if ((e = fentry_next(&v, &m, &a)) == NULL)
			goto fail;
		e->updated = t->created;
		snprintf(e->id, sizeof e->id, "tag:%s,%s:oustpbm/tournament/T%u/made", dom, day, t->id);
		snprintf(e->title, sizeof e->title, "New tournament T%u: %s (%s)", t->id, t->name, f);
		snprintf(e->link, sizeof e->link, "tournament/T%u.html", t->id);
		snprintf(e->summary, sizeof e->summary, "A %s directed by %s, for %d to %d players. To join: join T%u "
		    "<userid> <password>", f, t->director, t->min_players, t->max_players, t->id);
		if (t->state == TOURN_OPEN)
			continue;
		if ((e = fentry_next(&v, &m, &a)) == NULL)
			goto fail;
		e->updated = t->started;
		snprintf(e->id, sizeof e->id, "tag:%s,%s:oustpbm/tournament/T%u/begun", dom, day, t->id);
		snprintf(e->title, sizeof e->title, "Tournament T%u has begun: %s", t->id, t->name);
		snprintf(e->link, sizeof e->link, "tournament/T%u.html", t->id);
		snprintf(e->summary, sizeof e->summary, "The %s T%u has begun with %d players.", f, t->id, t->nplayers);
		if (t->state != TOURN_FINISHED)
			continue;
		if ((e = fentry_next(&v, &m, &a)) == NULL)
			goto fail;
		e->updated = t->ended;
		snprintf(e->id, sizeof e->id, "tag:%s,%s:oustpbm/tournament/T%u/ended", dom, day, t->id);
		if (strcmp(t->winner, "-") != 0) {
			char words[WEB_WINNERS_MAX + 40];
			bool shared;

			winners_words(t->winner, words, sizeof words, &shared);
			snprintf(e->title, sizeof e->title, "Tournament T%u has ended, %s %s: %s", t->id,
			    shared ? "the first place shared by" : "won by", words, t->name);
		} else {
			snprintf(e->title, sizeof e->title, "Tournament T%u has ended: %s", t->id, t->name);
		}
		snprintf(e->link, sizeof e->link, "tournament/T%u.html", t->id);
		snprintf(e->summary, sizeof e->summary, "The %s T%u has ended: its final standings and crosstable are on "
		    "its page.", f, t->id);
	}
	for (i = 0; i < w->nopen; i++) {
		const struct web_open *o = &w->open[i];

		tag_date(o->created, day);
		if ((e = fentry_next(&v, &m, &a)) == NULL)
			goto fail;
		e->updated = o->created;
		snprintf(e->id, sizeof e->id, "tag:%s,%s:oustpbm/board/%ld/open", dom, day, o->board);
		snprintf(e->title, sizeof e->title, "Open challenge: board %ld, %s, %s waits for a %s player", o->board,
		    o->what, o->challenger, strcmp(o->seat, "Black") == 0 ? "Black" : "White");
		snprintf(e->link, sizeof e->link, "tournaments.html#open");
		snprintf(e->summary, sizeof e->summary, "%s challenges anyone on board %ld (%s); the open seat is %s. To "
		    "take it: accept %ld <userid> <password>", o->challenger, o->board, o->what, o->seat, o->board);
	}
	for (i = 0; i < nsk; i++) {
		if ((e = fentry_next(&v, &m, &a)) == NULL)
			goto fail;
		e->updated = seek_time;
		snprintf(e->id, sizeof e->id, "tag:%s,%s:oustpbm/seeking/%s", dom, FEED_TAG_DATE, sk[i].userid);
		snprintf(e->title, sizeof e->title, "%s seeks %u game%s", sk[i].userid, sk[i].count, sk[i].count == 1 ? "" : "s");
		snprintf(e->link, sizeof e->link, "tournaments.html#seeking");
		snprintf(e->summary, sizeof e->summary, "%s wants %u more game%s. To play one: challenge <userid> "
		    "<password> %s", sk[i].userid, sk[i].count, sk[i].count == 1 ? "" : "s", sk[i].userid);
	}
	if (m > 0)
		qsort(v, m, sizeof *v, fentry_cmp);
	*count = m;
	return v;
fail:
	free(v);
	return NULL;
}

static enum process_status feed(struct web *w, const struct fentry *v, size_t n)
{
	struct strbuf b = STRBUF_INIT;
	char dom[120], stamp[GAMEFILE_TIME_SIZE], *text;
	enum process_status s;
	size_t i;

	domain_of(w->cfg->from_address, dom, sizeof dom);
	/* the newest entry's time: no clock, so that an unchanged feed is not written again */
	rfc3339(n > 0 ? v[0].updated : 0, stamp);
	strbuf_puts(&b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
	strbuf_puts(&b, "<title>");
	html_escape(&b, w->cfg->server_name);
	strbuf_puts(&b, ": Oust tournaments and open challenges</title>\n");
	strbuf_printf(&b, "<id>tag:%s,%s:oustpbm/feed</id>\n<updated>%s</updated>\n", dom, FEED_TAG_DATE, stamp);
	strbuf_puts(&b, "<author><name>");
	html_escape(&b, w->cfg->server_name);
	strbuf_puts(&b, "</name><email>");
	html_escape(&b, w->cfg->from_address);
	strbuf_puts(&b, "</email></author>\n<link rel=\"self\" type=\"application/atom+xml\" href=\"");
	url(&b, w, WEB_FEED);
	strbuf_puts(&b, "\"/>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
	url(&b, w, "tournaments.html");
	strbuf_puts(&b, "\"/>\n");
	for (i = 0; i < n && i < FEED_ENTRIES_MAX; i++) {
		rfc3339(v[i].updated, stamp);
		strbuf_puts(&b, "<entry>\n<id>");
		html_escape(&b, v[i].id);
		strbuf_puts(&b, "</id>\n<title>");
		html_escape(&b, v[i].title);
		strbuf_printf(&b, "</title>\n<updated>%s</updated>\n<link rel=\"alternate\" type=\"text/html\" href=\"", stamp);
		url(&b, w, v[i].link);
		strbuf_puts(&b, "\"/>\n<summary>");
		html_escape(&b, v[i].summary);
		strbuf_puts(&b, "</summary>\n</entry>\n");
	}
	strbuf_puts(&b, "</feed>\n");
	text = strbuf_finish(&b);
	if (text == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	s = web_put(w, WEB_FEED, text);
	free(text);
	return s;
}

enum process_status web_feed_pages(struct web *w, const struct web_tsum *ts, size_t n)
{
	char path[PATH_MAX + 32], err[SEEKS_ERR_MAX];
	struct seeks_entry *sk = NULL;
	struct fentry *v = NULL;
	enum process_status s;
	size_t nsk = 0, nv = 0;
	long long seek_time = 0;
	struct stat sb;

	s = web_open_save(w);
	if (s != PROCESS_OK)
		return s;
	if (seeks_load(w->st, SEEKS_SEEK, &sk, &nsk, err) != STORE_OK)
		return web_fail(w, PROCESS_DATAERR, "seeking: %s", err);
	/* the seekers' entries change when the file does (it keeps no time of its own) */
	snprintf(path, sizeof path, "%s/seeking", store_home(w->st));
	if (nsk > 0 && stat(path, &sb) == 0)
		seek_time = (long long)sb.st_mtim.tv_sec;
	s = index_page(w, ts, n, sk, nsk);
	if (s == PROCESS_OK) {
		v = entries(w, ts, n, sk, nsk, seek_time, &nv);
		s = v == NULL && nv == 0 && (n > 0 || w->nopen > 0 || nsk > 0) ? web_fail(w, PROCESS_NOMEM, "out of memory") :
		    feed(w, v, nv);
	}
	free(v);
	free(sk);
	return s;
}
