/* web: the static web site of the boards.  See web.h. */
#include "commands/services/web_int.h"

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
#include "mail/mailout.h"
#include "mail/reply.h"

#define SUMMARY "boards.txt"
#define PAGE_MAX (64L * 1024 * 1024)	/* bytes of an existing page compared */

enum process_status web_fail(struct web *w, enum process_status s, const char *fmt, ...)
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

static enum process_status mkdir_one(struct web *w, const char *path)
{
	if (mkdir(path, WEB_DIR_MODE) == 0) {
		if (chmod(path, WEB_DIR_MODE) != 0)
			return web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	} else if (errno != EEXIST) {
		return web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	}
	return PROCESS_OK;
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
enum process_status web_put(struct web *w, const char *rel, const char *text)
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
		return PROCESS_OK;
	}
	slash = strrchr(rel, '/');
	if (slash != NULL)
		snprintf(tmp, sizeof tmp, "%s/%.*s/.%s.%ld.tmp", w->dir, (int)(slash - rel), rel, slash + 1,
		    (long)getpid());
	else
		snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", w->dir, rel, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, WEB_FILE_MODE);
	if (fd < 0)
		return web_fail(w, PROCESS_IOERR, "%s: %s", tmp, strerror(errno));
	if (fchmod(fd, WEB_FILE_MODE) != 0) {
		web_fail(w, PROCESS_IOERR, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return PROCESS_IOERR;
	}
	while (off < len) {
		r = write(fd, text + off, len - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			web_fail(w, PROCESS_IOERR, "%s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return PROCESS_IOERR;
		}
		off += (size_t)r;
	}
	if (close(fd) != 0) {
		web_fail(w, PROCESS_IOERR, "%s: %s", tmp, strerror(errno));
		unlink(tmp);
		return PROCESS_IOERR;
	}
	if (rename(tmp, path) != 0) {
		web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return PROCESS_IOERR;
	}
	w->written++;
	return PROCESS_OK;
}

/* ---- open, lock ---- */

static enum process_status lock_site(struct web *w)
{
	struct flock fl;
	struct timespec ts = { 0, 2000000 };
	char path[PATH_MAX + 16];
	unsigned long waited = 0;

	snprintf(path, sizeof path, "%s/.lock", w->dir);
	w->lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (w->lockfd < 0)
		return web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	for (;;) {
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(w->lockfd, F_OFD_SETLK, &fl) == 0)
			return PROCESS_OK;
		if (errno != EAGAIN && errno != EACCES && errno != EINTR)
			return web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
		if (waited >= w->cfg->lock_timeout_ms)
			return web_fail(w, PROCESS_TEMPFAIL, "%s: held by another process for %lu ms", path, waited);
		nanosleep(&ts, NULL);
		waited += 2;
	}
}

enum process_status web_open(const struct config *cfg, struct store *st, const char *dir, struct web **out,
    char *err, size_t errlen)
{
	char tdir[PATH_MAX], terr[REPLY_ERR_MAX], sub[PATH_MAX + 16];
	enum mail_status ms;
	enum process_status s;
	struct web *w;
	int r;

	*out = NULL;
	w = calloc(1, sizeof *w);
	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return PROCESS_NOMEM;
	}
	w->cfg = cfg;
	w->st = st;
	w->lockfd = -1;
	if (dir[0] == '/')
		r = snprintf(w->dir, sizeof w->dir, "%s", dir);
	else
		r = snprintf(w->dir, sizeof w->dir, "%s/%s", store_home(st), dir);
	if (r < 0 || (size_t)r >= sizeof w->dir - 64) {
		s = web_fail(w, PROCESS_IOERR, "web directory '%s': the path is too long", dir);
		goto out;
	}
	if (reply_templates_dir(cfg, store_home(st), tdir, sizeof tdir, terr, sizeof terr) != MAIL_OK) {
		s = web_fail(w, PROCESS_CONFIG, "%s", terr);
		goto out;
	}
	ms = mailout_template_load(tdir, "web.html", &w->tmpl, terr, sizeof terr);
	if (ms != MAIL_OK) {
		s = web_fail(w, ms == MAIL_NOMEM ? PROCESS_NOMEM : PROCESS_CONFIG, "template %s", terr);
		goto out;
	}
	s = mkdir_one(w, w->dir);
	if (s == PROCESS_OK) {
		snprintf(sub, sizeof sub, "%s/board", w->dir);
		s = mkdir_one(w, sub);
	}
	if (s == PROCESS_OK) {
		snprintf(sub, sizeof sub, "%s/player", w->dir);
		s = mkdir_one(w, sub);
	}
	if (s == PROCESS_OK) {
		snprintf(sub, sizeof sub, "%s/tournament", w->dir);
		s = mkdir_one(w, sub);
	}
	if (s == PROCESS_OK)
		s = lock_site(w);
out:
	if (s != PROCESS_OK) {
		snprintf(err, errlen, "%s", w->err);
		web_close(w);
		return s;
	}
	*out = w;
	return PROCESS_OK;
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
	free(w->open);
	free(w);
}

/* ---- boards.txt ---- */

int web_entry_cmp(const void *a, const void *b)
{
	long x = ((const struct entry *)a)->board, y = ((const struct entry *)b)->board;

	return x < y ? -1 : x > y;
}

void web_entry_of(const struct game *g, struct entry *e)
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

enum process_status web_entries_add(struct web *w, const struct entry *e)
{
	struct entry *ne;
	size_t na;

	if (w->n == w->alloc) {
		na = w->alloc != 0 ? 2 * w->alloc : 256;
		ne = realloc(w->e, na * sizeof *ne);
		if (ne == NULL)
			return web_fail(w, PROCESS_NOMEM, "out of memory");
		w->e = ne;
		w->alloc = na;
	}
	w->e[w->n++] = *e;
	return PROCESS_OK;
}

enum process_status web_summary_load(struct web *w)
{
	char path[PATH_MAX + 16], *data, *line, *nl;
	struct entry e;
	enum process_status s = PROCESS_OK;
	size_t len;
	int r;

	w->n = 0;
	free(w->raw);
	w->raw = NULL;
	w->rawlen = 0;
	w->clean = false;
	w->loaded = true;
	snprintf(path, sizeof path, "%s/" SUMMARY, w->dir);
	r = read_whole(path, &data, &len);
	if (r < 0)
		return web_fail(w, PROCESS_IOERR, "%s: %s", path, strerror(errno));
	if (r == 0)
		return PROCESS_OK;
	w->clean = true;
	for (line = data; s == PROCESS_OK && line < data + len; line = nl + 1) {
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
			s = web_entries_add(w, &e);
		} else {
			w->clean = false;
		}
	}
	w->raw = data;
	w->rawlen = len;
	if (!w->clean)
		qsort(w->e, w->n, sizeof *w->e, web_entry_cmp);
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

/* boards.txt written from b (its text taken). */
static enum process_status put_summary(struct web *w, struct strbuf *b)
{
	char *text = strbuf_finish(b);
	enum process_status s;

	if (text == NULL)
		return web_fail(w, PROCESS_NOMEM, "out of memory");
	s = web_put(w, SUMMARY, text);
	free(text);
	return s;
}

enum process_status web_summary_save(struct web *w)
{
	struct strbuf b = STRBUF_INIT;
	size_t i;

	for (i = 0; i < w->n; i++)
		add_line(&b, &w->e[i]);
	return put_summary(w, &b);
}

/*
 * boards.txt after a change of entry e (at index i of w->e, now holding
 * e's new values): the file read, with e's line replaced or inserted, when
 * it was read cleanly; else written whole.
 */
enum process_status web_summary_splice(struct web *w, size_t i, bool inserted)
{
	struct strbuf b = STRBUF_INIT;
	size_t at, skip = 0;

	if (!w->clean)
		return web_summary_save(w);
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
	return put_summary(w, &b);
}

