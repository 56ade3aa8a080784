/* ratings_store: the ratings file in the store, its state file and its commit protocol (ratings.h). */
#include "store/ratings.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "game/gamefile.h"
#include "store/ratings_int.h"

/*
 * A game file read for the ratings: the header, and the history too when
 * the header says a rated game is over (ratings_game_counts counts its
 * turns).  The caller releases *g.
 */
static enum game_status parse_for_ratings(const char *text, size_t len, struct game *g,
    struct gamefile_error *ge)
{
	enum game_status gs = gamefile_parse_header(text, len, g, ge);

	if (gs != GAME_OK || !game_over(g) || !ratings_game_rated(g))
		return gs;
	game_release(g);
	memset(g, 0, sizeof *g);
	return gamefile_parse(text, len, g, ge);
}

static enum store_status store_fail(struct store *st, enum store_status ss, char *err, const char *what)
{
	snprintf(err, RATINGS_ERR_MAX, "%s: %s", what, store_error(st));
	return ss;
}

/* A double's 64 bits, as 16 hex digits: exact, and quick to read back. */
static size_t put_bits(char *s, double d)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof u);
	for (i = 15; i >= 0; i--, u >>= 4)
		s[i] = hex[u & 15];
	s[16] = ' ';
	return 17;
}

static bool get_bits(const char **p, double *d)
{
	uint64_t u = 0;
	int i, c;

	for (i = 0; i < 16; i++) {
		c = (unsigned char)(*p)[i];
		if (c >= '0' && c <= '9')
			u = u << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			u = u << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	if ((*p)[16] != ' ')
		return false;
	memcpy(d, &u, sizeof *d);
	*p += 17;
	return true;
}

/* A decimal number, then a space or the line's end. */
static bool get_num(const char **p, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(*p, &end, 10);
	if (end == *p || errno != 0 || (*end != ' ' && *end != '\n'))
		return false;
	*p = end + 1;
	return true;
}

char *ratings_state_format(const struct ratings *r, const char *text, size_t len, size_t *slen)
{
	size_t cap = 256 + r->nplayers * (RATINGS_NAME_SIZE + 200), n = 0, i;
	char *s = malloc(cap);

	if (s == NULL)
		return NULL;
	n += (size_t)snprintf(s + n, cap - n, "# oustpbm: the exact ratings beside the ratings file "
	    "(src/store/ratings.h); made again from it when it does not match\nhash: %016" PRIx64 "\nperiod: %" PRId64
	    "\n", store_text_hash(text, len), r->period);
	/* per player, in the file's order: class, name, then now and entered: mu phi sigma (bits) games period */
	for (i = 0; i < r->nplayers; i++) {
		const struct ratings_player *p = &r->players[i];
		const struct glicko_player *g[2] = { &p->now, &p->entered };
		int k;

		n += (size_t)snprintf(s + n, cap - n, "%d %s ", (int)p->cls, p->name);
		for (k = 0; k < 2; k++) {
			n += put_bits(s + n, g[k]->r.mu);
			n += put_bits(s + n, g[k]->r.phi);
			n += put_bits(s + n, g[k]->r.sigma);
			n += (size_t)snprintf(s + n, cap - n, "%lu %" PRId64 "%c", g[k]->games, g[k]->last_period,
			    k == 0 ? ' ' : '\n');
		}
	}
	assert(n < cap);
	s[n] = '\0';
	*slen = n;
	return s;
}

/* One state line into p's exact values, if it names p; false otherwise.  *next: past the line. */
static bool state_line(const char *line, struct ratings_player *p, const char **next)
{
	struct glicko_player g[2];
	const char *q = line;
	long long cls, v;
	size_t n;
	int k;

	if (!get_num(&q, &cls) || cls != (long long)p->cls)
		return false;
	n = strlen(p->name);
	if (strncmp(q, p->name, n) != 0 || q[n] != ' ')
		return false;
	q += n + 1;
	for (k = 0; k < 2; k++) {
		if (!get_bits(&q, &g[k].r.mu) || !get_bits(&q, &g[k].r.phi) || !get_bits(&q, &g[k].r.sigma))
			return false;
		if (!get_num(&q, &v) || v < 0)
			return false;
		g[k].games = (unsigned long)v;
		if (!get_num(&q, &v))
			return false;
		g[k].last_period = v;
	}
	if (q[-1] != '\n' || g[0].games != p->games)
		return false;
	p->now = g[0];
	p->entered = g[1];
	p->r = g[0].r;
	*next = q;
	return true;
}

bool ratings_state_apply(struct ratings *r, const char *text, size_t len, const char *s, size_t slen)
{
	const char *line;
	char want[40];
	struct ratings_player *saved = NULL;
	long long period = 0;
	size_t i = 0;
	bool ok = false;

	r->exact = false;
	if (slen == 0 || s[slen] != '\0' || memchr(s, '\0', slen) != NULL)
		return false;
	saved = malloc((r->nplayers + 1) * sizeof *saved);
	if (saved == NULL)
		goto out;
	memcpy(saved, r->players, r->nplayers * sizeof *saved);
	snprintf(want, sizeof want, "hash: %016" PRIx64 "\nperiod: ", store_text_hash(text, len));
	line = strchr(s, '\n');
	if (line == NULL || strncmp(line + 1, want, strlen(want)) != 0)
		goto out;
	line += 1 + strlen(want);
	if (!get_num(&line, &period) || line[-1] != '\n')
		goto out;
	for (; *line != '\0' && i < r->nplayers; i++)
		if (!state_line(line, &r->players[i], &line))
			goto out;
	ok = i == r->nplayers && *line == '\0';
out:
	if (ok) {
		r->exact = true;
		r->period = period;
	} else if (saved != NULL) {
		memcpy(r->players, saved, r->nplayers * sizeof *saved);	/* as the ratings file says */
	}
	free(saved);
	return ok;
}

/* The state file into r (parsed from the ratings file's text[0..len)), if it is there and matches. */
static void state_load(struct store *st, struct ratings *r, const char *text, size_t len)
{
	char *s = NULL;
	size_t slen;

	r->exact = false;
	if (store_read_file(st, RATINGS_STATE_FILE, RATINGS_FILE_MAX, &s, &slen) == STORE_OK)
		ratings_state_apply(r, text, len, s, slen);
	free(s);
}

/*
 * Write r's text, durably, and the state file beside it (a failure of the
 * latter costs only time); state_only: r's text is the file's already.
 */
static enum store_status ratings_write(struct store *st, const struct ratings *r, bool state_only, char *err)
{
	char *text = NULL, *s = NULL;
	enum store_status ss;
	size_t len, slen;

	ss = ratings_format(r, &text, &len);
	if (ss != STORE_OK) {
		snprintf(err, RATINGS_ERR_MAX, "out of memory writing the ratings file");
		return ss;
	}
	ss = state_only ? STORE_OK : store_write_capped(st, RATINGS_FILE, text, len, RATINGS_FILE_MAX);
	if (ss != STORE_OK) {
		store_fail(st, ss, err, "cannot write the ratings file");
		free(text);
		return ss;
	}
	/* the state after the file it matches: a crash between leaves a state no file matches */
	if (r->exact && (s = ratings_state_format(r, text, len, &slen)) != NULL &&
	    store_write_file(st, RATINGS_STATE_FILE, s, slen) != STORE_OK)
		store_complain(st, "ratings: cannot write %s (the next game's end computes every rating): %s",
		    RATINGS_STATE_FILE, store_error(st));
	free(s);
	free(text);
	return STORE_OK;
}


enum store_status ratings_load(struct store *st, bool players_only, struct ratings *out, char *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	memset(out, 0, sizeof *out);
	ss = store_read_file(st, RATINGS_FILE, RATINGS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;	/* no rated game yet */
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot read the ratings file");
	ss = ratings_parse(text, len, players_only, out, err);
	if (ss == STORE_TEMPFAIL)
		snprintf(err, RATINGS_ERR_MAX, "out of memory reading the ratings file");
	/* the exact values, for a result added incrementally */
	if (ss == STORE_OK && !players_only)
		state_load(st, out, text, len);
	if (ss == STORE_OK && out->exact) {
		/* kept: one incremental result changes only a line of it (ratings_format) */
		out->from = text;
		out->from_len = len;
		text = NULL;
	}
	free(text);
	return ss;
}

enum store_status ratings_mark(struct store *st, long board, char *err)
{
	enum store_status ss;
	char path[64];

	ss = store_mkdir(st, RATINGS_PENDING_DIR);
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot make " RATINGS_PENDING_DIR);
	snprintf(path, sizeof path, "%s/%ld", RATINGS_PENDING_DIR, board);
	ss = store_create_file(st, path, "", 0);
	if (ss == STORE_OK)
		ss = store_sync_dir(st, RATINGS_PENDING_DIR);
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot mark the board for the ratings");
	return STORE_OK;
}

/*
 * Bring the result of board into r from its game file.  *done: its mark
 * may go (the file says what the ratings say).  A game not over whose
 * board's lock is held elsewhere is being committed: its mark stays.
 */
static enum store_status settle_board(struct store *st, struct ratings *r, long board, bool *changed, bool *full,
    bool *done, char *err)
{
	bool incremental;

	struct store_lock lock = STORE_LOCK_INIT;
	struct gamefile_error ge;
	struct ratings_result res;
	struct game g;
	enum store_status ss;
	char *text = NULL;
	size_t len;
	bool over, counts;

	*done = false;
	memset(&g, 0, sizeof g);
	ss = store_board_read(st, board, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		/* no game file (removed by the admin): no result, as --rebuild would find */
		if (ratings_drop_result(r, board))
			*changed = *full = true;
		*done = true;
		return STORE_OK;
	}
	if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot read a marked game");
	if (parse_for_ratings(text, len, &g, &ge) != GAME_OK) {
		/* fsck's business: the mark stays until the admin mends it */
		snprintf(err, RATINGS_ERR_MAX, "games/%ld.game: %s", board, ge.msg);
		free(text);
		return STORE_CORRUPT;
	}
	free(text);
	over = game_over(&g);
	counts = over && ratings_game_counts(&g);
	if (counts)
		ratings_result_of(&g, &res);
	game_release(&g);
	if (counts) {
		if (ratings_add_result(r, &res, &incremental, &ss)) {
			*changed = true;
			*full |= !incremental;
		}
		*done = ss == STORE_OK;
	} else if (over || store_trylock_board(st, board, &lock) == STORE_OK) {
		/* unrated, or not over and nobody committing it (a crash before its commit, an edit) */
		if (ratings_drop_result(r, board))
			*changed = *full = true;
		*done = true;
	}
	store_unlock(&lock);
	game_release(&g);
	if (ss != STORE_OK)
		snprintf(err, RATINGS_ERR_MAX, "out of memory settling the ratings");
	return ss;
}

/* Settle the marks with ratings.lock held; r is the file's content, written if changed. */
static enum store_status settle_locked(struct store *st, struct ratings *r, bool changed, char *err)
{
	char **names = NULL, path[64];
	enum store_status ss, first = STORE_OK;
	size_t count = 0, i;
	bool *done = NULL, full = changed;
	long board;

	ss = store_list_dir(st, RATINGS_PENDING_DIR, &names, &count);
	if (ss == STORE_NOT_FOUND)
		count = 0;
	else if (ss != STORE_OK)
		return store_fail(st, ss, err, "cannot list " RATINGS_PENDING_DIR);
	done = calloc(count + 1, sizeof *done);
	if (done == NULL) {
		store_free_names(names, count);
		snprintf(err, RATINGS_ERR_MAX, "out of memory settling the ratings");
		return STORE_TEMPFAIL;
	}
	for (i = 0; i < count; i++) {
		if (!ident_board_parse(names[i], strlen(names[i]), &board))
			continue;	/* not a mark: left for the admin */
		ss = settle_board(st, r, board, &changed, &full, &done[i], err);
		if (ss != STORE_OK && first == STORE_OK)
			first = ss;	/* the others are settled all the same */
	}
	ss = STORE_OK;
	if (changed) {
		/* every rating made again, unless each new result updated its two players (ratings.h) */
		ss = full || !r->exact ? ratings_compute(r) : STORE_OK;
		if (ss != STORE_OK)
			snprintf(err, RATINGS_ERR_MAX, "out of memory computing the ratings");
		else
			ss = ratings_write(st, r, false, err);
	} else if (count > 0 && !r->exact && r->nresults > 0) {
		/* nothing new, but no state matches the file (a crash between the two writes): made again */
		if (ratings_compute(r) == STORE_OK)
			ratings_write(st, r, true, err);
		err[0] = '\0';
	}
	/* the marks go only once the ratings file that counts them is durable */
	for (i = 0; i < count && ss == STORE_OK; i++) {
		if (!done[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", RATINGS_PENDING_DIR, names[i]);
		if (store_unlink(st, path) != STORE_OK)
			break;	/* settled again next time: harmless */
	}
	free(done);
	store_free_names(names, count);
	return ss != STORE_OK ? ss : first;
}

static enum store_status lock_ratings(struct store *st, unsigned long timeout_ms, struct store_lock *lock,
    char *err)
{
	enum store_status ss = store_lock_path(st, RATINGS_LOCK_FILE, timeout_ms, lock);

	if (ss == STORE_TIMEOUT)
		snprintf(err, RATINGS_ERR_MAX, "the ratings file is locked by another process: try again later");
	else if (ss != STORE_OK)
		store_fail(st, ss, err, "cannot lock the ratings file");
	return ss;
}

enum store_status ratings_settle(struct store *st, unsigned long timeout_ms, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct ratings r;
	enum store_status ss;
	char **names = NULL;
	size_t count = 0;

	err[0] = '\0';
	/* nothing marked: nothing to lock or read (most mails) */
	ss = store_list_dir(st, RATINGS_PENDING_DIR, &names, &count);
	store_free_names(names, count);
	if (ss == STORE_NOT_FOUND || (ss == STORE_OK && count == 0))
		return STORE_OK;
	ss = lock_ratings(st, timeout_ms, &lock, err);
	if (ss != STORE_OK)
		return ss;
	ss = ratings_load(st, false, &r, err);
	if (ss == STORE_OK)
		ss = settle_locked(st, &r, false, err);
	ratings_release(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status ratings_rebuild(struct store *st, unsigned long timeout_ms, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct ratings r = { 0 };
	struct ratings_result res;
	struct gamefile_error ge;
	struct game g;
	enum store_status ss;
	long *boards = NULL;
	size_t nboards = 0, i, len;
	char *text;
	bool counts;

	err[0] = '\0';
	ss = lock_ratings(st, timeout_ms, &lock, err);
	if (ss != STORE_OK)
		return ss;
	ss = store_list_boards(st, &boards, &nboards);
	if (ss != STORE_OK) {
		store_fail(st, ss, err, "cannot list the games");
		goto out;
	}
	for (i = 0; i < nboards; i++) {
		ss = store_board_read(st, boards[i], &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;	/* removed meanwhile */
		if (ss != STORE_OK) {
			store_fail(st, ss, err, "cannot read a game");
			goto out;
		}
		memset(&g, 0, sizeof g);
		if (parse_for_ratings(text, len, &g, &ge) != GAME_OK) {
			free(text);
			snprintf(err, RATINGS_ERR_MAX, "games/%ld.game: %s (oustpbm fsck)", boards[i], ge.msg);
			ss = STORE_CORRUPT;
			goto out;
		}
		free(text);
		counts = game_over(&g) && ratings_game_counts(&g);
		if (counts)
			ratings_result_of(&g, &res);
		game_release(&g);
		if (counts) {
			ratings_set_result(&r, &res, &ss);
			if (ss != STORE_OK) {
				snprintf(err, RATINGS_ERR_MAX, "out of memory rebuilding the ratings");
				goto out;
			}
		}
	}
	/* written even when nothing changed: --rebuild makes the file whole */
	ss = settle_locked(st, &r, true, err);
out:
	free(boards);
	ratings_release(&r);
	store_unlock(&lock);
	return ss;
}

enum store_status ratings_before_commit(struct store *st, const struct game *g, char *err)
{
	if (!game_over(g) || !ratings_game_counts(g))
		return STORE_OK;
	return ratings_mark(st, g->board, err);
}

void ratings_cancel(struct store *st, const struct game *g)
{
	char path[64];

	if (!game_over(g) || !ratings_game_counts(g))
		return;
	snprintf(path, sizeof path, "%s/%ld", RATINGS_PENDING_DIR, g->board);
	/* a mark left (the unlink failing) is dropped by the next settle: the game is not over there */
	(void)store_unlink(st, path);
}

void ratings_after_commit(struct store *st, unsigned long timeout_ms)
{
	char err[RATINGS_ERR_MAX];

	if (ratings_settle(st, timeout_ms, err) != STORE_OK)
		store_complain(st, "ratings: %s (settled again by the next game's end or oustpbm cleanup)", err);
}
