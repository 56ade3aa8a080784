/* web: the static web site of the boards.  See web.h. */
#include "commands/services/web.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <math.h>

#include "base/strbuf.h"
#include "commands/pipeline/hooks.h"
#include "commands/services/standings.h"
#include "game/board.h"
#include "game/gamefile.h"
#include "game/html.h"
#include "game/review.h"
#include "mail/mailout.h"
#include "mail/reply.h"
#include "store/reviews.h"

#define SUMMARY "boards.txt"
#define PAGE_MAX (64L * 1024 * 1024)	/* bytes of an existing page compared */

/* One board as boards.txt lists it. */
struct entry {
	long board;
	int size;		/* N, or the side of a hex board */
	bool hex;		/* boards.txt writes its size "hex7" */
	char black[GAME_NAME_SIZE];
	char white[GAME_NAME_SIZE];
	int nturns;
	int turn;		/* the turn in progress, or the last one once over */
	char to_move[GAME_NAME_SIZE];	/* "-" once over */
	long long last_move;
	size_t off, len;	/* its line in the boards.txt read (LF included) */
	char result[GAME_NAME_SIZE + 32];	/* "playing" or how it ended: "won by alice (no-placements)" */
};

struct web {
	const struct config *cfg;
	struct store *st;
	char dir[PATH_MAX];
	char *tmpl;		/* web.html */
	int lockfd;
	size_t written;
	struct entry *e;	/* boards.txt, sorted by board */
	size_t n, alloc;
	char *raw;		/* boards.txt as read */
	size_t rawlen;
	bool clean;		/* every line of raw was read, in order: a changed line can be spliced in */
	char err[WEB_ERR_MAX];
};

const char *web_status_str(enum web_status s)
{
	switch (s) {
	case WEB_OK: return "ok";
	case WEB_NOMEM: return "out of memory";
	case WEB_IO: return "cannot write the web site";
	case WEB_TIMEOUT: return "the web site is locked";
	case WEB_TEMPLATE: return "web template error";
	case WEB_STORE: return "cannot read the store";
	}
	return "unknown web status";
}

static enum web_status fail(struct web *w, enum web_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static enum web_status fail(struct web *w, enum web_status s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
	return s;
}

const char *web_error(const struct web *w)
{
	return w->err;
}

size_t web_pages_written(const struct web *w)
{
	return w->written;
}

/* ---- files ---- */

/*
 * The site is for a web server running as another user: folders 0755 and
 * pages 0644 whatever the umask of the writer (procmail's is 077).
 */
#define WEB_DIR_MODE 0755
#define WEB_FILE_MODE 0644

static enum web_status mkdir_one(struct web *w, const char *path)
{
	if (mkdir(path, WEB_DIR_MODE) == 0) {
		if (chmod(path, WEB_DIR_MODE) != 0)
			return fail(w, WEB_IO, "%s: %s", path, strerror(errno));
	} else if (errno != EEXIST) {
		return fail(w, WEB_IO, "%s: %s", path, strerror(errno));
	}
	return WEB_OK;
}

/* Read path whole (at most PAGE_MAX bytes): 1 read, 0 absent or too big, -1 error. */
static int read_whole(const char *path, char **data, size_t *len)
{
	struct stat sb;
	char *buf;
	size_t got = 0;
	ssize_t r;
	int fd;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &sb) != 0 || sb.st_size > PAGE_MAX) {
		close(fd);
		return 0;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (buf == NULL) {
		close(fd);
		return -1;
	}
	while (got < (size_t)sb.st_size) {
		r = read(fd, buf + got, (size_t)sb.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 1;
}

/* Does path hold exactly text[0..len)? */
static bool holds(const char *path, const char *text, size_t len)
{
	struct stat sb;
	char buf[65536];
	size_t off = 0;
	ssize_t r;
	int fd;
	bool same = false;

	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || (size_t)sb.st_size != len)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (;;) {
		r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || off + (size_t)r > len)
			break;
		if (r == 0) {
			same = off == len;
			break;
		}
		if (memcmp(buf, text + off, (size_t)r) != 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	return same;
}

/* Write rel (under the site) atomically unless it already holds text. */
static enum web_status put(struct web *w, const char *rel, const char *text)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 96];
	const char *slash;
	size_t len = strlen(text), off = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof path, "%s/%s", w->dir, rel);
	if (holds(path, text, len)) {
		/* a page an older version wrote under a strict umask becomes readable */
		struct stat sb;

		if (stat(path, &sb) == 0 && (sb.st_mode & 07777) != WEB_FILE_MODE)
			(void)chmod(path, WEB_FILE_MODE);
		return WEB_OK;
	}
	slash = strrchr(rel, '/');
	if (slash != NULL)
		snprintf(tmp, sizeof tmp, "%s/%.*s/.%s.%ld.tmp", w->dir, (int)(slash - rel), rel, slash + 1,
		    (long)getpid());
	else
		snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", w->dir, rel, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, WEB_FILE_MODE);
	if (fd < 0)
		return fail(w, WEB_IO, "%s: %s", tmp, strerror(errno));
	if (fchmod(fd, WEB_FILE_MODE) != 0) {
		fail(w, WEB_IO, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return WEB_IO;
	}
	while (off < len) {
		r = write(fd, text + off, len - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fail(w, WEB_IO, "%s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return WEB_IO;
		}
		off += (size_t)r;
	}
	if (close(fd) != 0) {
		fail(w, WEB_IO, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return WEB_IO;
	}
	if (rename(tmp, path) != 0) {
		fail(w, WEB_IO, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return WEB_IO;
	}
	w->written++;
	return WEB_OK;
}

/* ---- open, lock ---- */

static enum web_status lock_site(struct web *w)
{
	struct flock fl;
	struct timespec ts = { 0, 2000000 };
	char path[PATH_MAX + 16];
	unsigned long waited = 0;

	snprintf(path, sizeof path, "%s/.lock", w->dir);
	w->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (w->lockfd < 0)
		return fail(w, WEB_IO, "%s: %s", path, strerror(errno));
	for (;;) {
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(w->lockfd, F_OFD_SETLK, &fl) == 0)
			return WEB_OK;
		if (errno != EAGAIN && errno != EACCES && errno != EINTR)
			return fail(w, WEB_IO, "%s: %s", path, strerror(errno));
		if (waited >= w->cfg->lock_timeout_ms)
			return fail(w, WEB_TIMEOUT, "%s: held by another process for %lu ms", path, waited);
		nanosleep(&ts, NULL);
		waited += 2;
	}
}

enum web_status web_open(const struct config *cfg, struct store *st, const char *dir, struct web **out,
    char *err, size_t errlen)
{
	char tdir[PATH_MAX], terr[REPLY_ERR_MAX], sub[PATH_MAX + 16];
	enum mailout_status ms;
	enum web_status s;
	struct web *w;
	int r;

	*out = NULL;
	w = calloc(1, sizeof *w);
	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return WEB_NOMEM;
	}
	w->cfg = cfg;
	w->st = st;
	w->lockfd = -1;
	if (dir[0] == '/')
		r = snprintf(w->dir, sizeof w->dir, "%s", dir);
	else
		r = snprintf(w->dir, sizeof w->dir, "%s/%s", store_home(st), dir);
	if (r < 0 || (size_t)r >= sizeof w->dir - 64) {
		s = fail(w, WEB_IO, "web directory '%s': the path is too long", dir);
		goto out;
	}
	if (reply_templates_dir(cfg, store_home(st), tdir, sizeof tdir, terr, sizeof terr) != REPLY_OK) {
		s = fail(w, WEB_TEMPLATE, "%s", terr);
		goto out;
	}
	ms = mailout_template_load(tdir, "web.html", &w->tmpl, terr, sizeof terr);
	if (ms != MAILOUT_OK) {
		s = fail(w, ms == MAILOUT_NOMEM ? WEB_NOMEM : WEB_TEMPLATE, "template %s", terr);
		goto out;
	}
	s = mkdir_one(w, w->dir);
	if (s == WEB_OK) {
		snprintf(sub, sizeof sub, "%s/board", w->dir);
		s = mkdir_one(w, sub);
	}
	if (s == WEB_OK) {
		snprintf(sub, sizeof sub, "%s/player", w->dir);
		s = mkdir_one(w, sub);
	}
	if (s == WEB_OK)
		s = lock_site(w);
out:
	if (s != WEB_OK) {
		snprintf(err, errlen, "%s", w->err);
		web_close(w);
		return s;
	}
	*out = w;
	return WEB_OK;
}

void web_close(struct web *w)
{
	if (w == NULL)
		return;
	if (w->lockfd >= 0)
		close(w->lockfd);
	free(w->tmpl);
	free(w->e);
	free(w->raw);
	free(w);
}

/* ---- boards.txt ---- */

static int entry_cmp(const void *a, const void *b)
{
	long x = ((const struct entry *)a)->board, y = ((const struct entry *)b)->board;

	return x < y ? -1 : x > y;
}

static void entry_of(const struct game *g, struct entry *e)
{
	const char *who = game_player_to_move(g);

	memset(e, 0, sizeof *e);
	e->board = g->board;
	e->size = g->size;
	e->hex = g->shape == RULES_HEX;
	snprintf(e->black, sizeof e->black, "%s", g->black);
	snprintf(e->white, sizeof e->white, "%s", g->white);
	e->nturns = g->nturns;
	e->turn = game_over(g) ? g->nturns : g->rg.turn;
	snprintf(e->to_move, sizeof e->to_move, "%s", who != NULL ? who : "-");
	e->last_move = (long long)g->last_move;
	if (!game_over(g))
		snprintf(e->result, sizeof e->result, "playing");
	else if (g->rg.result == RULES_BLACK_WINS || g->rg.result == RULES_WHITE_WINS)
		snprintf(e->result, sizeof e->result, "won by %s (%s)",
		    g->rg.result == RULES_BLACK_WINS ? g->black : g->white, game_end_str(g->end));
	else
		snprintf(e->result, sizeof e->result, "drawn (%s)", game_end_str(g->end));
}

/* A decimal number of n digits (no sign), at most 18 of them; -1 if it is not one. */
static long long number(const char *s, size_t n)
{
	long long v = 0;
	size_t i;

	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Copy s[0..n) into dst of size bytes; false if it does not fit. */
static bool field(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		return false;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return true;
}

/*
 * Parse one line of n bytes (without its LF); false for a line that is not
 * one of ours (it is dropped).  By hand, not with sscanf: a move reads every
 * line of a store's boards.txt.
 */
static bool entry_parse(const char *line, size_t n, struct entry *e)
{
	const char *f[9], *end = line + n, *tab;
	size_t len[9];
	long long v[9];
	int i;

	for (i = 0; i < 9; i++) {
		f[i] = line;
		tab = i < 8 ? memchr(line, '\t', (size_t)(end - line)) : end;
		if (tab == NULL)
			return false;
		len[i] = (size_t)(tab - line);
		line = tab + 1;
	}
	/* a hex board's size is "hex" and its side */
	e->hex = len[1] > 3 && memcmp(f[1], "hex", 3) == 0;
	if (e->hex)
		f[1] += 3, len[1] -= 3;
	for (i = 0; i < 9; i++)
		v[i] = number(f[i], len[i]);
	if (e->hex && !rules_shape_ok(RULES_HEX, (int)v[1]))
		return false;
	if (v[0] < IDENT_BOARD_MIN || v[0] > IDENT_BOARD_MAX || v[1] < 0 || v[1] > RULES_MAX_SIZE || v[4] < 0 ||
	    v[4] > GAME_MAX_TURNS || v[5] < 0 || v[5] > GAME_MAX_TURNS + 1 || v[7] < 0)
		return false;
	if (!field(e->black, sizeof e->black, f[2], len[2]) || !field(e->white, sizeof e->white, f[3], len[3]) ||
	    !field(e->to_move, sizeof e->to_move, f[6], len[6]) || !field(e->result, sizeof e->result, f[8], len[8]))
		return false;
	/* the names become file names and links */
	if (!ident_userid_ok(e->black) || !ident_userid_ok(e->white) ||
	    (strcmp(e->to_move, "-") != 0 && !ident_userid_ok(e->to_move)))
		return false;
	e->board = (long)v[0];
	e->size = (int)v[1];
	e->nturns = (int)v[4];
	e->turn = (int)v[5];
	e->last_move = v[7];
	return true;
}

static enum web_status entries_add(struct web *w, const struct entry *e)
{
	struct entry *ne;
	size_t na;

	if (w->n == w->alloc) {
		na = w->alloc != 0 ? 2 * w->alloc : 256;
		ne = realloc(w->e, na * sizeof *ne);
		if (ne == NULL)
			return fail(w, WEB_NOMEM, "out of memory");
		w->e = ne;
		w->alloc = na;
	}
	w->e[w->n++] = *e;
	return WEB_OK;
}

static enum web_status summary_load(struct web *w)
{
	char path[PATH_MAX + 16], *data, *line, *nl;
	struct entry e;
	enum web_status s = WEB_OK;
	size_t len;
	int r;

	w->n = 0;
	free(w->raw);
	w->raw = NULL;
	w->rawlen = 0;
	w->clean = false;
	snprintf(path, sizeof path, "%s/" SUMMARY, w->dir);
	r = read_whole(path, &data, &len);
	if (r < 0)
		return fail(w, WEB_IO, "%s: %s", path, strerror(errno));
	if (r == 0)
		return WEB_OK;
	w->clean = true;
	for (line = data; s == WEB_OK && line < data + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(data + len - line));
		if (nl == NULL) {
			w->clean = false;	/* an unfinished last line is not ours */
			break;
		}
		if (entry_parse(line, (size_t)(nl - line), &e)) {
			e.off = (size_t)(line - data);
			e.len = (size_t)(nl + 1 - line);
			if (w->n > 0 && w->e[w->n - 1].board >= e.board)
				w->clean = false;
			s = entries_add(w, &e);
		} else {
			w->clean = false;
		}
	}
	w->raw = data;
	w->rawlen = len;
	if (!w->clean)
		qsort(w->e, w->n, sizeof *w->e, entry_cmp);
	return s;
}

static void add_number(struct strbuf *b, long long v, char sep)
{
	char d[24];
	int n = (int)sizeof d;

	d[--n] = sep;
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	strbuf_add(b, d + n, sizeof d - (size_t)n);
}

static void add_field(struct strbuf *b, const char *s, char sep)
{
	strbuf_puts(b, s);
	strbuf_add(b, &sep, 1);
}

/* One line of boards.txt: by hand, not with printf (a rebuild writes every line). */
static void add_line(struct strbuf *b, const struct entry *e)
{
	add_number(b, e->board, '\t');
	if (e->hex)
		strbuf_puts(b, "hex");
	add_number(b, e->size, '\t');
	add_field(b, e->black, '\t');
	add_field(b, e->white, '\t');
	add_number(b, e->nturns, '\t');
	add_number(b, e->turn, '\t');
	add_field(b, e->to_move, '\t');
	add_number(b, e->last_move, '\t');
	add_field(b, e->result, '\n');
}

static enum web_status summary_save(struct web *w)
{
	struct strbuf b = STRBUF_INIT;
	enum web_status s;
	size_t i;
	char *text;

	for (i = 0; i < w->n; i++)
		add_line(&b, &w->e[i]);
	text = strbuf_finish(&b);
	if (text == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	s = put(w, SUMMARY, text);
	free(text);
	return s;
}

/*
 * boards.txt after a change of entry e (at index i of w->e, now holding
 * e's new values): the file read, with e's line replaced or inserted, when
 * it was read cleanly; else written whole.
 */
static enum web_status summary_splice(struct web *w, size_t i, bool inserted)
{
	struct strbuf b = STRBUF_INIT;
	enum web_status s;
	size_t at, skip = 0;
	char *text;

	if (!w->clean)
		return summary_save(w);
	if (!inserted) {
		at = w->e[i].off;
		skip = w->e[i].len;
	} else {
		at = i + 1 < w->n ? w->e[i + 1].off : w->rawlen;
	}
	strbuf_reserve(&b, w->rawlen + 256);
	strbuf_add(&b, w->raw, at);
	add_line(&b, &w->e[i]);
	strbuf_add(&b, w->raw + at + skip, w->rawlen - at - skip);
	text = strbuf_finish(&b);
	if (text == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	s = put(w, SUMMARY, text);
	free(text);
	return s;
}

/* ---- pieces of pages ---- */

/* "2026-11-21 18:41" */
static void when(long long t, char buf[GAMEFILE_TIME_SIZE])
{
	gamefile_time_str((int64_t)t, buf);
	buf[10] = ' ';
	buf[16] = '\0';
}

static void player_link(struct strbuf *b, const char *root, const char *userid)
{
	/* user ids are [a-z0-9_-]: safe in a path and in text */
	strbuf_printf(b, "<a href=\"%splayer/%s.html\">%s</a>", root, userid, userid);
}

static enum web_status page(struct web *w, const char *rel, const char *root, const char *title,
    const char *content)
{
	struct strbuf t = STRBUF_INIT, srv = STRBUF_INIT;
	struct mailout_var vars[4];
	enum mailout_status ms;
	enum web_status s;
	char *ts = NULL, *ss = NULL, *out = NULL, err[MAILOUT_ERR_MAX * 2];

	html_escape(&t, title);
	html_escape(&srv, w->cfg->server_name);
	ts = strbuf_finish(&t);
	ss = strbuf_finish(&srv);
	if (ts == NULL || ss == NULL) {
		s = fail(w, WEB_NOMEM, "out of memory");
		goto out;
	}
	vars[0] = (struct mailout_var){ "title", ts };
	vars[1] = (struct mailout_var){ "content", content };
	vars[2] = (struct mailout_var){ "root", root };
	vars[3] = (struct mailout_var){ "server", ss };
	ms = mailout_template_expand(w->tmpl, vars, 4, &out, err, sizeof err);
	if (ms != MAILOUT_OK) {
		s = fail(w, ms == MAILOUT_NOMEM ? WEB_NOMEM : WEB_TEMPLATE, "web.html %s", err);
		goto out;
	}
	s = put(w, rel, out);
out:
	free(ts);
	free(ss);
	free(out);
	return s;
}

/* The status line of a game: "Turn 8: bob (White) to move." or the result. */
static void status_html(struct strbuf *b, const struct game *g, const char *root)
{
	const char *who = game_player_to_move(g);
	const char *wn = g->rg.result == RULES_BLACK_WINS ? g->black : g->white;
	const char *ln = g->rg.result == RULES_BLACK_WINS ? g->white : g->black;

	if (who != NULL) {
		strbuf_printf(b, "<p class=\"status\">Turn %d: ", g->rg.turn);
		player_link(b, root, who);
		strbuf_printf(b, " (%s) to move.</p>\n", g->rg.to_move == RULES_BLACK ? "Black" : "White");
		return;
	}
	strbuf_puts(b, "<p class=\"status\">");
	if (g->rg.result == RULES_BLACK_WINS || g->rg.result == RULES_WHITE_WINS) {
		player_link(b, root, wn);
		strbuf_puts(b, " won: ");
		player_link(b, root, ln);
		switch (g->end) {
		case GAME_END_RESIGN: strbuf_puts(b, " resigned"); break;
		case GAME_END_TIMEOUT: strbuf_puts(b, " ran out of time"); break;
		default: strbuf_puts(b, " has no stones left"); break;
		}
		strbuf_puts(b, ".</p>\n");
	} else {
		strbuf_puts(b, g->end == GAME_END_AGREEMENT ? "The game is drawn: the players agreed a draw.</p>\n" :
		    "The game is drawn: neither player can place.</p>\n");
	}
}

/* The players with their full names and largest/total figures. */
static void players_html(struct web *w, struct strbuf *b, const struct html_board *hb, const char *black,
    const char *white, const char *root)
{
	const char *names[2] = { black, white };
	struct store_user u;
	int i;

	strbuf_puts(b, "<table class=\"players\">\n<tr><th>Colour</th><th>Player</th><th>Largest group / stones</th></tr>\n");
	for (i = 0; i < 2; i++) {
		strbuf_printf(b, "<tr><td>%s</td><td>", i == 0 ? "Black (x)" : "White (o)");
		player_link(b, root, names[i]);
		if (store_user_find(w->st, names[i], &u) == STORE_OK && u.fullname[0] != '\0') {
			strbuf_puts(b, " (");
			html_text(b, u.fullname);
			strbuf_puts(b, ")");
		}
		strbuf_printf(b, "</td><td>%d / %d</td></tr>\n", hb->largest[i], hb->stones[i]);
	}
	strbuf_puts(b, "</table>\n");
}

/* The SVG and its text alternative, the ASCII board. */
static void figure_html(struct strbuf *b, const struct html_board *hb, const char *title, const char *ascii)
{
	strbuf_puts(b, "<figure class=\"board\">\n");
	html_board_svg(b, hb, title, "ascii");
	strbuf_puts(b, "<figcaption><pre id=\"ascii\" class=\"ascii\">");
	html_escape(b, ascii);
	strbuf_puts(b, "</pre></figcaption>\n</figure>\n");
}

static void turn_text(struct strbuf *b, const struct game *g, const struct game_turn *t)
{
	const int *p = game_turn_points(g, t);
	char name[4];
	int i;

	switch (t->action) {
	case GAME_PLACE:
		for (i = 0; i < t->npoints; i++) {
			strbuf_puts(b, i > 0 ? "," : "");
			strbuf_puts(b, rules_point_name(&g->rg.board, p[i], name));
		}
		break;
	case GAME_PASS: strbuf_puts(b, "pass (no placement)"); break;
	case GAME_SWAP: strbuf_puts(b, "swap"); break;
	case GAME_RESIGN: strbuf_puts(b, "resign"); break;
	case GAME_TIMEOUT: strbuf_puts(b, "out of time"); break;
	}
}

/* ---- the pages ---- */

/* A finished board's kept review (store/reviews.h), if any: its chart as inline SVG. */
static void review_html(struct web *w, struct strbuf *b, const struct game *g)
{
	struct review r;
	char *text = NULL, *svg = NULL, why[200];
	size_t len;

	if (reviews_read(w->st, g->board, &text, &len) != STORE_OK)
		return;
	if (review_parse(text, len, g, &r, why, sizeof why) == REVIEW_OK && r.nturns == g->nturns)
		svg = review_chart_svg(g, &r);
	if (svg != NULL) {
		strbuf_puts(b, "<h2>Review</h2>\n<p>Black's chance to win after each turn, as the robot's review "
		    "found it; the marks are the mistakes and blunders.</p>\n");
		strbuf_puts(b, svg);
	}
	free(svg);
	free(text);
	review_release(&r);
}

static enum web_status board_page(struct web *w, const struct game *g)
{
	struct strbuf b = STRBUF_INIT;
	struct html_board *hb;
	enum web_status s;
	char ascii[BOARD_TEXT_MAX], title[200], rel[64], stamp[GAMEFILE_TIME_SIZE], dims[GAME_DIMENSIONS_SIZE];
	const char *who = game_player_to_move(g);
	char *content;
	int i;

	hb = malloc(sizeof *hb);
	if (hb == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	if (html_board_of_game(g, g->nturns, hb, NULL, NULL) != GAME_OK) {
		free(hb);
		return fail(w, WEB_STORE, "board %ld: its history cannot be replayed (oustpbm fsck %ld)", g->board,
		    g->board);
	}
	board_render_game(g, ascii);
	snprintf(title, sizeof title, "Oust board %ld", g->board);
	strbuf_printf(&b, "<p>%s, swap %s, started %s UTC.</p>\n", game_dimensions(g, false, dims),
	    g->swap ? "on" : "off", (when(g->created, stamp), stamp));
	status_html(&b, g, "../");
	players_html(w, &b, hb, g->black, g->white, "../");
	snprintf(title, sizeof title, "Board %ld after turn %d", g->board, g->nturns);
	figure_html(&b, hb, title, ascii);
	if (who != NULL) {
		strbuf_puts(&b, "<h2>To play</h2>\n<p>");
		player_link(&b, "../", who);
		strbuf_puts(&b, " sends a mail to <a href=\"mailto:");
		html_escape(&b, w->cfg->from_address);
		strbuf_puts(&b, "\">");
		html_escape(&b, w->cfg->from_address);
		strbuf_printf(&b, "</a> with the command:</p>\n<pre class=\"command\">move %ld#%d %s &lt;password&gt; "
		    "&lt;placements&gt;</pre>\n", g->board, g->rg.turn, who);
		if (g->swap && rules_game_can_swap(&g->rg))
			strbuf_printf(&b, "<p>or, to take over Black's stones (the pie rule):</p>\n<pre class=\"command\">"
			    "swap %ld#%d %s &lt;password&gt;</pre>\n", g->board, g->rg.turn, who);
	}
	if (game_over(g))
		review_html(w, &b, g);
	strbuf_puts(&b, "<h2>History</h2>\n");
	if (g->nturns == 0)
		strbuf_puts(&b, "<p>No turns yet.</p>\n");
	else
		strbuf_puts(&b, "<table class=\"history\">\n<tr><th>Turn</th><th>Time (UTC)</th><th>Player</th><th>Turn played</th></tr>\n");
	for (i = 0; i < g->nturns; i++) {
		const struct game_turn *t = &g->turns[i];

		when(t->time, stamp);
		strbuf_printf(&b, "<tr><td><a href=\"%ld-%d.html\">%d</a></td><td>%s</td><td>%c ", g->board, t->number,
		    t->number, stamp, t->color == RULES_BLACK ? 'x' : 'o');
		player_link(&b, "../", t->player);
		strbuf_puts(&b, "</td><td>");
		turn_text(&b, g, t);
		strbuf_puts(&b, "</td></tr>\n");
	}
	if (g->nturns > 0)
		strbuf_puts(&b, "</table>\n");
	free(hb);
	content = strbuf_finish(&b);
	if (content == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust board %ld", g->board);
	snprintf(rel, sizeof rel, "board/%ld.html", g->board);
	s = page(w, rel, "../", title, content);
	free(content);
	return s;
}

static enum web_status turn_page(struct web *w, const struct game *g, int k)
{
	struct strbuf b = STRBUF_INIT;
	struct html_board *hb;
	enum web_status s;
	char ascii[BOARD_TEXT_MAX], title[200], rel[64], stamp[GAMEFILE_TIME_SIZE];
	char black[GAME_NAME_SIZE], white[GAME_NAME_SIZE];
	const struct game_turn *t = &g->turns[k - 1];
	char *content;

	hb = malloc(sizeof *hb);
	if (hb == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	if (html_board_of_game(g, k, hb, black, white) != GAME_OK ||
	    board_render_turn(g, k, ascii) != GAME_OK) {
		free(hb);
		return fail(w, WEB_STORE, "board %ld: its history cannot be replayed (oustpbm fsck %ld)", g->board,
		    g->board);
	}
	when(t->time, stamp);
	strbuf_printf(&b, "<p class=\"nav\"><a href=\"%ld.html\">Board %ld now</a>", g->board, g->board);
	if (k > 1)
		strbuf_printf(&b, " &middot; <a href=\"%ld-%d.html\">turn %d</a>", g->board, k - 1, k - 1);
	if (k < g->nturns)
		strbuf_printf(&b, " &middot; <a href=\"%ld-%d.html\">turn %d</a>", g->board, k + 1, k + 1);
	strbuf_printf(&b, "</p>\n<p class=\"status\">Turn %d, %s UTC: %c ", k, stamp, t->color == RULES_BLACK ? 'x' : 'o');
	player_link(&b, "../", t->player);
	strbuf_puts(&b, " played ");
	turn_text(&b, g, t);
	strbuf_puts(&b, ".</p>\n");
	players_html(w, &b, hb, black, white, "../");
	snprintf(title, sizeof title, "Board %ld after turn %d", g->board, k);
	figure_html(&b, hb, title, ascii);
	free(hb);
	content = strbuf_finish(&b);
	if (content == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust board %ld, turn %d", g->board, k);
	snprintf(rel, sizeof rel, "board/%ld-%d.html", g->board, k);
	s = page(w, rel, "../", title, content);
	free(content);
	return s;
}

static bool entry_over(const struct entry *e)
{
	return strcmp(e->result, "playing") != 0;
}

/* A table of the boards e[idx[0..n)], in that order; over: the finished ones (a result column). */
static void boards_table(struct strbuf *b, const struct entry *e, const size_t *idx, size_t n,
    const char *root, bool over)
{
	char stamp[GAMEFILE_TIME_SIZE];
	size_t i;

	strbuf_printf(b, "<table class=\"boards\">\n<tr><th>Board</th><th>Size</th><th>Black</th><th>White</th>"
	    "<th>%s</th><th>Last move (UTC)</th></tr>\n", over ? "Result" : "State");
	for (i = 0; i < n; i++) {
		const struct entry *x = &e[idx[i]];

		when(x->last_move, stamp);
		strbuf_printf(b, "<tr><td><a href=\"%sboard/%ld.html\">%ld</a></td><td>", root, x->board, x->board);
		if (x->hex)
			strbuf_printf(b, "hex side %d</td><td>", x->size);
		else
			strbuf_printf(b, "%dx%d</td><td>", x->size, x->size);
		player_link(b, root, x->black);
		strbuf_puts(b, "</td><td>");
		player_link(b, root, x->white);
		if (over || entry_over(x)) {
			strbuf_puts(b, "</td><td>");
			html_escape(b, x->result);
		} else {
			strbuf_printf(b, "</td><td>%d, ", x->turn);
			player_link(b, root, x->to_move);
			strbuf_puts(b, " to move");
		}
		strbuf_printf(b, "</td><td>%s</td></tr>\n", stamp);
	}
	strbuf_puts(b, "</table>\n");
}

static const struct entry *sort_base;

/* Most recent first, then by board. */
static int recent_cmp(const void *a, const void *b)
{
	const struct entry *x = &sort_base[*(const size_t *)a], *y = &sort_base[*(const size_t *)b];

	if (x->last_move != y->last_move)
		return x->last_move > y->last_move ? -1 : 1;
	return x->board < y->board ? -1 : x->board > y->board;
}

/* The boards of userid (all when NULL), running ones in idx[0..*nrun), then the finished ones, most recent first. */
static size_t *select_boards(struct web *w, const char *userid, size_t *nrun, size_t *nover)
{
	size_t *idx = malloc((w->n + 1) * sizeof *idx), i, r = 0, o = 0;

	if (idx == NULL)
		return NULL;
	for (i = 0; i < w->n; i++)
		if (userid == NULL || strcmp(w->e[i].black, userid) == 0 || strcmp(w->e[i].white, userid) == 0)
			if (!entry_over(&w->e[i]))
				idx[r++] = i;
	for (i = 0; i < w->n; i++)
		if (userid == NULL || strcmp(w->e[i].black, userid) == 0 || strcmp(w->e[i].white, userid) == 0)
			if (entry_over(&w->e[i]))
				idx[r + o++] = i;
	sort_base = w->e;
	qsort(idx + r, o, sizeof *idx, recent_cmp);
	*nrun = r;
	*nover = o;
	return idx;
}

/* The shard of the full list that board is on: all-1.html holds boards 101.. */
static long shard_of(long board)
{
	return (board - IDENT_BOARD_MIN) / WEB_SHARD + 1;
}

static enum web_status index_page(struct web *w)
{
	struct strbuf b = STRBUF_INIT;
	size_t nrun, nover, *idx = select_boards(w, NULL, &nrun, &nover), i;
	enum web_status s;
	char *content;
	long k, last = 0;

	if (idx == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	sort_base = w->e;
	qsort(idx, nrun, sizeof *idx, recent_cmp);
	strbuf_printf(&b, "<h2>Boards being played (%zu)</h2>\n", nrun);
	if (nrun > WEB_INDEX_ACTIVE)
		strbuf_printf(&b, "<p>The %d with the latest moves; all the boards are listed below.</p>\n",
		    WEB_INDEX_ACTIVE);
	if (nrun > 0)
		boards_table(&b, w->e, idx, nrun < WEB_INDEX_ACTIVE ? nrun : WEB_INDEX_ACTIVE, "", false);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	strbuf_printf(&b, "<h2>Recently finished</h2>\n");
	if (nover > 0)
		boards_table(&b, w->e, idx + nrun, nover < WEB_RECENT ? nover : WEB_RECENT, "", true);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	if (w->n > 0) {
		strbuf_puts(&b, "<h2>All boards</h2>\n<p>");
		for (i = 0; i < w->n; i++) {
			k = shard_of(w->e[i].board);
			if (k != last)
				strbuf_printf(&b, "%s<a href=\"all-%ld.html\">%ld&ndash;%ld</a>", last != 0 ? " &middot; " : "",
				    k, IDENT_BOARD_MIN + (k - 1) * WEB_SHARD, IDENT_BOARD_MIN + k * WEB_SHARD - 1);
			last = k;
		}
		strbuf_puts(&b, "</p>\n");
	}
	strbuf_puts(&b, "<p><a href=\"standings.html\">Standings</a> of the rated players.</p>\n");
	strbuf_puts(&b, "<p>To play, send <code>help</code> by mail to <a href=\"mailto:");
	html_escape(&b, w->cfg->from_address);
	strbuf_puts(&b, "\">");
	html_escape(&b, w->cfg->from_address);
	strbuf_puts(&b, "</a>.</p>\n");
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	s = page(w, "index.html", "", "Oust boards", content);
	free(content);
	return s;
}

/* all-K.html: every board of shard k, by number. */
static enum web_status shard_page(struct web *w, long k)
{
	struct strbuf b = STRBUF_INIT;
	size_t i, n = 0, *idx = malloc((w->n + 1) * sizeof *idx);
	enum web_status s;
	char *content, title[100], rel[64];

	if (idx == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	for (i = 0; i < w->n; i++)
		if (shard_of(w->e[i].board) == k)
			idx[n++] = i;
	boards_table(&b, w->e, idx, n, "", false);
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust boards %ld to %ld", IDENT_BOARD_MIN + (k - 1) * WEB_SHARD,
	    IDENT_BOARD_MIN + k * WEB_SHARD - 1);
	snprintf(rel, sizeof rel, "all-%ld.html", k);
	s = page(w, rel, "", title, content);
	free(content);
	return s;
}

static enum web_status player_page(struct web *w, const char *userid)
{
	struct strbuf b = STRBUF_INIT;
	size_t nrun, nover, i, *idx = select_boards(w, userid, &nrun, &nover);
	struct store_user u;
	enum web_status s;
	char *content, title[100], rel[80];
	int won = 0, lost = 0, drawn = 0;

	if (idx == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	for (i = nrun; i < nrun + nover; i++) {
		const struct entry *e = &w->e[idx[i]];
		size_t n = strlen(userid);

		if (strncmp(e->result, "won by ", 7) == 0)
			(strncmp(e->result + 7, userid, n) == 0 && e->result[7 + n] == ' ') ? won++ : lost++;
		else
			drawn++;
	}
	if (store_user_find(w->st, userid, &u) == STORE_OK && u.fullname[0] != '\0') {
		strbuf_puts(&b, "<p class=\"fullname\">");
		html_text(&b, u.fullname);
		strbuf_puts(&b, "</p>\n");
	}
	strbuf_printf(&b, "<p>%zu boards being played; finished: %d won, %d lost, %d drawn.</p>\n", nrun, won, lost,
	    drawn);
	strbuf_puts(&b, "<p><a href=\"../standings.html\">Standings</a> of the rated players.</p>\n");
	strbuf_puts(&b, "<h2>Boards being played</h2>\n");
	if (nrun > 0)
		boards_table(&b, w->e, idx, nrun, "../", false);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	strbuf_puts(&b, "<h2>Finished boards</h2>\n");
	if (nover > 0)
		boards_table(&b, w->e, idx + nrun, nover, "../", true);
	else
		strbuf_puts(&b, "<p>None.</p>\n");
	free(idx);
	content = strbuf_finish(&b);
	if (content == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	snprintf(title, sizeof title, "Oust player %s", userid);
	snprintf(rel, sizeof rel, "player/%s.html", userid);
	s = page(w, rel, "../", title, content);
	free(content);
	return s;
}

/* Is the page rel there? */
static bool has_page(const struct web *w, const char *rel)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof path, "%s/%s", w->dir, rel);
	return access(path, F_OK) == 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* How many of the sorted names[0..n) are name. */
static unsigned count_of(const char *const *names, size_t n, const char *name)
{
	size_t lo = 0, hi = n, mid;
	unsigned c = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(names[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(names[lo], name) == 0; lo++)
		c++;
	return c;
}

/*
 * standings.html: per board class, every rated player (closed accounts
 * left out: standings.h) by rating, with deviation, games, won-lost-drawn,
 * standing, active boards (boards.txt's) and games sought.  The robot's
 * levels have no page.
 */
static enum web_status standings_page(struct web *w)
{
	static const char *const heads[] = { "established", "provisional", "inactive" };
	struct strbuf b = STRBUF_INIT;
	struct ratings r;
	struct seeks_entry *seeks = NULL;
	const char **playing = NULL;
	enum store_status ss;
	enum web_status s;
	size_t i, e, np = 0, nseeks = 0;
	char err[RATINGS_ERR_MAX > SEEKS_ERR_MAX ? RATINGS_ERR_MAX : SEEKS_ERR_MAX], *content = NULL;
	int64_t now = (int64_t)store_now(w->st);

	ss = ratings_load(w->st, true, &r, err);
	if (ss == STORE_OK && (ss = standings_drop_closed(w->st, &r)) != STORE_OK)
		snprintf(err, sizeof err, "%s", store_error(w->st));
	if (ss == STORE_OK)
		ss = seeks_load(w->st, SEEKS_SEEK, &seeks, &nseeks, err);
	if (ss != STORE_OK) {
		s = fail(w, ss == STORE_TEMPFAIL ? WEB_NOMEM : WEB_STORE, "standings: %s", err);
		goto out;
	}
	/* the players of the boards being played, sorted: each one's count by bisection */
	playing = malloc((2 * w->n + 1) * sizeof *playing);
	if (playing == NULL) {
		s = fail(w, WEB_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < w->n; i++) {
		if (entry_over(&w->e[i]))
			continue;
		playing[np++] = w->e[i].black;
		if (strcmp(w->e[i].white, w->e[i].black) != 0)
			playing[np++] = w->e[i].white;
	}
	qsort(playing, np, sizeof *playing, str_cmp);
	strbuf_puts(&b, "<p>Ratings are Glicko-2, one per board class; the deviation grows while a player has no "
	    "rated game (over 110: provisional; no rated game in the class for half a year: inactive).</p>\n");
	if (r.nplayers == 0)
		strbuf_puts(&b, "<p>Nobody has a rated game yet.</p>\n");
	for (i = 0; i < r.nplayers; i = e) {
		enum ratings_class cls = r.players[i].cls;
		unsigned long rank = 0;

		for (e = i + 1; e < r.nplayers && r.players[e].cls == cls; e++)
			;
		strbuf_printf(&b, "<h2 id=\"%s\">%s (%s): %zu player%s</h2>\n", ratings_class_name(cls),
		    ratings_class_name(cls), ratings_class_sizes(cls), e - i, e - i == 1 ? "" : "s");
		strbuf_puts(&b, "<table class=\"standings\">\n<thead><tr><th>#</th><th>player</th><th>rating</th>"
		    "<th>deviation</th><th>games</th><th>won-lost-drawn</th><th>standing</th><th>active</th>"
		    "<th>seeks</th></tr></thead>\n<tbody>\n");
		for (size_t k = i; k < e; k++) {
			const struct ratings_player *p = &r.players[k];
			struct glicko_rating g = ratings_now(p, now);

			strbuf_printf(&b, "<tr class=\"player\"><td>%lu</td><td>", ++rank);
			if (strchr(p->name, ':') != NULL)
				html_escape(&b, p->name);	/* a robot level: no page */
			else
				player_link(&b, "", p->name);
			strbuf_printf(&b, "</td><td>%ld</td><td>%ld</td><td>%lu</td><td>%lu-%lu-%lu</td><td>%s</td><td>%u</td>"
			    "<td>%u</td></tr>\n", lround(glicko_r(&g)), lround(glicko_rd(&g)), p->games, p->won, p->lost,
			    p->drawn, heads[ratings_standing(p, now)], count_of(playing, np, p->name),
			    seeks_of(seeks, nseeks, p->name));
		}
		strbuf_puts(&b, "</tbody>\n</table>\n");
	}
	strbuf_puts(&b, "<p>By mail: <code>standings [class]</code>, <code>rating &lt;userid&gt;</code>.</p>\n");
	content = strbuf_finish(&b);
	if (content == NULL) {
		s = fail(w, WEB_NOMEM, "out of memory");
		goto out;
	}
	s = page(w, "standings.html", "", "Oust standings", content);
out:
	free(content);
	free(playing);
	free(seeks);
	ratings_release(&r);
	return s;
}

/* The board's own pages: the board now and its turns from `from` on. */
static enum web_status game_pages(struct web *w, const struct game *g, int from)
{
	enum web_status s = board_page(w, g);
	int k;

	for (k = from < 1 ? 1 : from; s == WEB_OK && k <= g->nturns; k++)
		s = turn_page(w, g, k);
	return s;
}

enum web_status web_update(struct web *w, const struct game *g)
{
	struct entry e, *old = NULL, key;
	enum web_status s;
	bool inserted = false;
	int from = 1;
	size_t i;

	if (game_is_open(g))
		return WEB_OK;	/* not a game yet: on the site once someone accepts it */
	s = summary_load(w);
	if (s != WEB_OK)
		return s;
	entry_of(g, &e);
	key.board = g->board;
	if (w->n > 0)
		old = bsearch(&key, w->e, w->n, sizeof *w->e, entry_cmp);
	if (old != NULL) {
		/* the last turn page known gains its "next" link */
		from = old->nturns <= g->nturns ? old->nturns : 1;
		e.off = old->off;
		e.len = old->len;
		*old = e;
		i = (size_t)(old - w->e);
	} else {
		s = entries_add(w, &e);
		if (s != WEB_OK)
			return s;
		/* in place by number; the lines after keep their offsets */
		for (i = w->n - 1; i > 0 && w->e[i - 1].board > e.board; i--) {
			w->e[i] = w->e[i - 1];
			w->e[i - 1] = e;
		}
		inserted = true;
	}
	s = game_pages(w, g, from);
	if (s == WEB_OK)
		s = summary_splice(w, i, inserted);
	if (s == WEB_OK)
		s = index_page(w);
	if (s == WEB_OK)
		s = shard_page(w, shard_of(g->board));
	if (s == WEB_OK)
		s = player_page(w, g->black);
	if (s == WEB_OK && strcmp(g->white, g->black) != 0)
		s = player_page(w, g->white);
	/* a rated game's end changed the ratings (settled before the site is updated); or a site without it yet */
	if (s == WEB_OK && ((game_over(g) && ratings_game_counts(g)) || !has_page(w, "standings.html")))
		s = standings_page(w);
	return s;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

enum web_status web_build(struct web *w)
{
	struct gamefile_error gerr;
	enum store_status ss;
	enum web_status s = WEB_OK;
	struct entry e;
	struct game g;
	long *boards = NULL;
	size_t nb = 0, i, np = 0;
	char **players = NULL, *text;
	size_t len;

	w->n = 0;
	ss = store_list_boards(w->st, &boards, &nb);
	if (ss != STORE_OK)
		return fail(w, WEB_STORE, "%s", store_error(w->st));
	for (i = 0; s == WEB_OK && i < nb; i++) {
		ss = store_board_read(w->st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;
		if (ss != STORE_OK) {
			s = fail(w, WEB_STORE, "%s", store_error(w->st));
			break;
		}
		if (gamefile_parse(text, len, &g, &gerr) != GAMEFILE_OK) {
			/* one unreadable board does not keep the others off the site */
			fprintf(stderr, "oustpbm: web: games/%ld.game %s\n", boards[i], gerr.msg);
			free(text);
			continue;
		}
		free(text);
		if (game_is_open(&g)) {
			game_release(&g);
			continue;	/* not a game yet: on the site once someone accepts it */
		}
		s = game_pages(w, &g, 1);
		if (s == WEB_STORE) {
			fprintf(stderr, "oustpbm: web: %s\n", w->err);
			s = WEB_OK;
		}
		entry_of(&g, &e);
		game_release(&g);
		if (s == WEB_OK)
			s = entries_add(w, &e);
	}
	free(boards);
	if (s != WEB_OK)
		return s;
	qsort(w->e, w->n, sizeof *w->e, entry_cmp);
	s = summary_save(w);
	if (s == WEB_OK)
		s = index_page(w);
	for (i = 0; s == WEB_OK && i < w->n; i++)
		if (i == 0 || shard_of(w->e[i].board) != shard_of(w->e[i - 1].board))
			s = shard_page(w, shard_of(w->e[i].board));
	/* each player once */
	players = malloc((2 * w->n + 1) * sizeof *players);
	if (players == NULL)
		return fail(w, WEB_NOMEM, "out of memory");
	for (i = 0; i < w->n; i++) {
		players[np++] = w->e[i].black;
		players[np++] = w->e[i].white;
	}
	qsort(players, np, sizeof *players, name_cmp);
	for (i = 0; s == WEB_OK && i < np; i++)
		if (i == 0 || strcmp(players[i], players[i - 1]) != 0)
			s = player_page(w, players[i]);
	free(players);
	if (s == WEB_OK)
		s = standings_page(w);
	return s;
}

/* The standings page alone (web_standings_after), or g's pages (web_after_commit). */
static enum web_status after_pages(struct web *w, const struct game *g)
{
	enum web_status s;

	if (g != NULL)
		return web_update(w, g);
	s = summary_load(w);	/* the boards being played, counted in the page */
	if (s == WEB_OK)
		s = standings_page(w);
	return s;
}

/*
 * Open the site, write what follows a change (after_pages) and close it;
 * a failure is said on stderr and logged, never the command's: its change
 * is committed already, and `oustpbm web` writes the whole site again.
 */
static void after(const struct config *cfg, struct store *st, const struct game *g)
{
	char err[WEB_ERR_MAX], what[40];
	enum web_status s;
	struct web *w = NULL;

	if (cfg->web_dir[0] == '\0')
		return;
	s = web_open(cfg, st, cfg->web_dir, &w, err, sizeof err);
	if (s == WEB_OK) {
		s = after_pages(w, g);
		if (s != WEB_OK)
			snprintf(err, sizeof err, "%s", web_error(w));
		web_close(w);
	}
	if (s != WEB_OK) {
		if (g != NULL)
			snprintf(what, sizeof what, "board %ld", g->board);
		else
			snprintf(what, sizeof what, "standings");
		fprintf(stderr, "oustpbm: web: %s: %s\n", what, err);
		store_log(st, "web: %s: %s: %s", what, web_status_str(s), err);
	}
}

void web_standings_after(const struct config *cfg, struct store *st)
{
	after(cfg, st, NULL);
}

void web_after_commit(const struct config *cfg, struct store *st, const struct game *g)
{
	after(cfg, st, g);
}

/*
 * The web pages of the board a mail committed, after its replies were
 * flushed (pipeline/hooks.h): from its game file as committed (with a
 * robot's answer), read again once the game in hand is gone.  A failure
 * changes nothing but the site, and is logged.
 */
void web_hook_flushed(const struct config *cfg, struct store *st, long board)
{
	struct gamefile_error gerr;
	struct game g;
	char *text = NULL;
	size_t len;

	if (cfg->web_dir[0] == '\0')
		return;
	if (store_board_read(st, board, &text, &len) != STORE_OK) {
		store_log(st, "web: board %ld: cannot read the game file: %s", board, store_error(st));
		return;
	}
	if (gamefile_parse(text, len, &g, &gerr) != GAMEFILE_OK) {
		store_log(st, "web: board %ld: %s", board, gerr.msg);
		free(text);
		return;
	}
	free(text);
	web_after_commit(cfg, st, &g);
	game_release(&g);
}
