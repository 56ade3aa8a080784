/*
 * engine: GTP version 2 engine for Oust with the GoGui rules commands.
 * See engine.h for the protocol as this engine speaks it.
 */
#include "game/engine.h"
#include "game/engine_int.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/version.h"
#include "game/ai.h"
#include "game/board.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/rules.h"

#define ENGINE_REPLY_MAX 8192	/* fits a 25 x 25 legal list and a file name of a whole line */
#define ENGINE_MAX_ARGS 8	/* no command takes more than 2 */

struct engine {
	struct rules_game rg;	/* the current turn state */
	char black[GAME_NAME_SIZE];	/* names on the showboard players line */
	char white[GAME_NAME_SIZE];
	int last[RULES_MAX_POINTS];	/* the last turn's placements (upper case) */
	int nlast;
	uint64_t rng;		/* splitmix64 state for genmove's seeds */
	struct engine_options opt;
	struct ai *ai;		/* the search, kept between genmoves; NULL until the first */
	double search_cpu;	/* process CPU seconds of the last search (oustpbm-search) */
	/* GTP time control (time_settings, time_left), in seconds */
	bool timed;
	double main_time, byo_time;
	int byo_stones;
	bool have_left[3];
	double left[3];
	int left_stones[3];
	bool quit;
	size_t rlen;
	char reply[ENGINE_REPLY_MAX];	/* the answer's text, without "= " and the blank line */
};

struct command {
	const char *name;
	int min_args, max_args;
	const char *usage;	/* arguments, for the error message */
	bool (*run)(struct engine *e, int argc, char **argv);
};

/* ---- replies ---- */

static void say(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct engine *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->rlen >= sizeof(e->reply) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(e->reply + e->rlen, sizeof(e->reply) - e->rlen, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->rlen += (size_t)n < sizeof(e->reply) - e->rlen ? (size_t)n :
		    sizeof(e->reply) - e->rlen - 1;
}

/* Replace the reply by an error message; returns false for the handlers to return. */
static bool fail(struct engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct engine *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->reply, sizeof(e->reply), fmt, ap);
	va_end(ap);
	e->rlen = n < 0 ? 0 : (size_t)n < sizeof(e->reply) ? (size_t)n : sizeof(e->reply) - 1;
	e->reply[e->rlen] = '\0';
	return false;
}

/* ---- state ---- */

static void new_game(struct engine *e, enum rules_shape shape, int size)
{
	rules_game_init_shape(&e->rg, shape, size, false);
	snprintf(e->black, sizeof(e->black), "%s", "black");
	snprintf(e->white, sizeof(e->white), "%s", "white");
	e->nlast = 0;
}

static uint64_t next_random(struct engine *e)
{
	/* splitmix64: any state, zero included, is a good one */
	uint64_t z = (e->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t seed(const struct engine_options *o)
{
	const char *s = getenv("OUSTPBM_ENGINE_SEED");
	struct timespec ts;

	if (o->seeded)
		return o->seed;
	if (s != NULL) /* FNV-1a of the text: the same string, the same games */
		return hash_fnv1a64_str(HASH_FNV64_BASIS, s);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^
	    (uint64_t)getpid() << 32;
}

/* ---- arguments ---- */

/* b, black, w, white in any case; RULES_EMPTY for anything else. */
static enum rules_color parse_color(const char *s)
{
	if (strcasecmp(s, "b") == 0 || strcasecmp(s, "black") == 0)
		return RULES_BLACK;
	if (strcasecmp(s, "w") == 0 || strcasecmp(s, "white") == 0)
		return RULES_WHITE;
	return RULES_EMPTY;
}

static bool bad_color(struct engine *e, const char *s)
{
	char q[ENGINE_QUOTE_MAX + 4];

	return fail(e, "invalid color '%s' (b, black, w or white)", engine_quote(s, q));
}

/*
 * The cell of vertex s on the current board, or RULES_NO_POINT after
 * writing the error: "invalid vertex" for text that is no vertex at all,
 * "illegal move" for a vertex off this board (as GTP play answers).
 */
static int parse_vertex(struct engine *e, const char *s)
{
	const struct rules_board *b = &e->rg.board;
	char q[ENGINE_QUOTE_MAX + 4];
	size_t n = strlen(s);
	int p = rules_parse_point(b, s, (int)(n < 4 ? n : 4));

	char why[128];

	if (n <= 3 && p != RULES_NO_POINT)
		return p;
	if (strcasecmp(s, "pass") == 0)
		fail(e, "illegal move: passes are automatic");
	else if ((n == 2 || n == 3) && isalpha((unsigned char)s[0]) &&
	    (b->shape == RULES_HEX || toupper((unsigned char)s[0]) != 'I') && s[1] >= '1' && s[1] <= '9' &&
	    isdigit((unsigned char)s[n - 1]))
		fail(e, "illegal move: %s", rules_offboard_why(b, s, (int)n, why, sizeof(why)));
	else
		fail(e, "invalid vertex '%s'", engine_quote(s, q));
	return RULES_NO_POINT;
}

/* ---- playing ---- */

/* Why colour c may not place at p (verdict v), after "illegal move: ". */
static bool illegal(struct engine *e, enum rules_color c, int p, enum rules_verdict v)
{
	char name[4];
	struct rules_check chk;
	enum rules_color to_move = e->rg.to_move;

	switch (v) {
	case RULES_OCCUPIED:
		return fail(e, "illegal move: %s is occupied", rules_point_name(&e->rg.board, p,
		    name));
	case RULES_NO_ENEMY:
		rules_check(&e->rg.board, c, p, &chk);
		return fail(e, "illegal move: %s would form a group of %d that touches no enemy "
		    "group", rules_point_name(&e->rg.board, p, name), chk.new_group);
	case RULES_NOT_LARGER:
		rules_check(&e->rg.board, c, p, &chk);
		return fail(e, "illegal move: %s would form a group of %d, not larger than the "
		    "enemy group of %d it touches", rules_point_name(&e->rg.board, p, name),
		    chk.new_group, chk.largest_enemy);
	case RULES_NOT_YOUR_TURN:
		if (e->rg.placed > 0)
			return fail(e, "illegal move: it is %s's turn (%s places again after a "
			    "capture)", rules_color_name(to_move), rules_color_name(to_move));
		return fail(e, "illegal move: it is %s's turn", rules_color_name(to_move));
	case RULES_GAME_OVER:
		return fail(e, "illegal move: the game is over");
	default:
		return fail(e, "illegal move: %s", rules_verdict_str(v));
	}
}

/* One placement by c at p through the rules; keeps the last turn's stones. */
static bool place(struct engine *e, enum rules_color c, int p)
{
	struct rules_event ev;
	bool new_turn = e->rg.placed == 0;
	enum rules_verdict v = rules_game_play_color(&e->rg, c, p, &ev);

	if (!rules_is_legal(v))
		return illegal(e, c, p, v);
	if (new_turn)
		e->nlast = 0;
	e->last[e->nlast++] = p;
	/* After an automatic pass the last turn is the pass: nothing upper case (as game files). */
	if (ev.npasses > 0)
		e->nlast = 0;
	return true;
}

/*
 * The legal placements of the side to move, sorted as the conformance
 * traces sort them: by column then row on square boards, by row then
 * number (the cells' order) on hex boards; returns how many.
 */
static int sorted_legal(struct engine *e, uint16_t *out)
{
	const struct rules_board *b = &e->rg.board;
	uint8_t at[RULES_MAX_CELLS];
	int i, n = rules_game_legal(&e->rg, out), x, y, k = 0;

	if (b->shape == RULES_HEX) {
		memset(at, 0, (size_t)b->ncells);
		for (i = 0; i < n; i++)
			at[out[i]] = 1;
		for (i = 0; i < b->ncells; i++)
			if (at[i])
				out[k++] = (uint16_t)i;
		return k;
	}
	memset(at, 0, sizeof(at));
	for (i = 0; i < n; i++)
		at[rules_x(b, out[i]) * RULES_MAX_SIZE + rules_y(b, out[i])] = 1;
	for (x = 0; x < b->size; x++)
		for (y = 0; y < b->size; y++)
			if (at[x * RULES_MAX_SIZE + y])
				out[k++] = (uint16_t)rules_point(b, x, y);
	return k;
}

/* ---- commands ---- */

/* These two read the command table, defined after them. */
static bool cmd_known_command(struct engine *e, int argc, char **argv);
static bool cmd_list_commands(struct engine *e, int argc, char **argv);

static bool cmd_protocol_version(struct engine *e, int argc, char **argv)
{
	say(e, "2");
	return true;
}

static bool cmd_name(struct engine *e, int argc, char **argv)
{
	say(e, "oustpbm");
	return true;
}

static bool cmd_version(struct engine *e, int argc, char **argv)
{
	say(e, "%s", OUSTPBM_VERSION);
	return true;
}

static bool cmd_quit(struct engine *e, int argc, char **argv)
{
	e->quit = true;
	return true;
}

static bool cmd_boardsize(struct engine *e, int argc, char **argv)
{
	char q[ENGINE_QUOTE_MAX + 4];
	const char *s = argv[0];
	long n = 0;

	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return fail(e, "syntax error: board size '%s' is not a number", engine_quote(s, q));
	for (; *s != '\0' && n <= RULES_MAX_SIZE; s++)
		n = n * 10 + (*s - '0');
	if (n > RULES_MAX_SIZE || !rules_size_ok((int)n))
		return fail(e, "unacceptable size");
	new_game(e, RULES_SQUARE, (int)n);
	return true;
}

/* oustpbm-board square N | hex S: the shape and size, and an empty board. */
static bool cmd_oustpbm_board(struct engine *e, int argc, char **argv)
{
	char q[ENGINE_QUOTE_MAX + 4];
	enum rules_shape shape;
	const char *s = argv[1];
	long n = 0;

	if (strcasecmp(argv[0], "square") == 0)
		shape = RULES_SQUARE;
	else if (strcasecmp(argv[0], "hex") == 0)
		shape = RULES_HEX;
	else
		return fail(e, "syntax error: unknown shape '%s' (square or hex)", engine_quote(argv[0], q));
	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return fail(e, "syntax error: size '%s' is not a number", engine_quote(s, q));
	for (; *s != '\0' && n <= RULES_MAX_SIZE; s++)
		n = n * 10 + (*s - '0');
	if (n > RULES_MAX_SIZE || !rules_shape_ok(shape, (int)n)) {
		if (shape == RULES_HEX)
			return fail(e, "unacceptable size: a hex side is from %d to %d", RULES_HEX_MIN_SIDE,
			    RULES_HEX_MAX_SIDE);
		return fail(e, "unacceptable size: a square size is odd, from %d to %d", RULES_MIN_SIZE,
		    RULES_MAX_SIZE);
	}
	new_game(e, shape, (int)n);
	return true;
}

static bool cmd_clear_board(struct engine *e, int argc, char **argv)
{
	new_game(e, e->rg.board.shape, e->rg.board.size);
	return true;
}

static bool cmd_play(struct engine *e, int argc, char **argv)
{
	enum rules_color c = parse_color(argv[0]);
	int p;

	if (c == RULES_EMPTY)
		return bad_color(e, argv[0]);
	p = parse_vertex(e, argv[1]);
	if (p == RULES_NO_POINT)
		return false;
	return place(e, c, p);
}

/* Think time for c's next placement in seconds: the option, or less when the clock is short. */
static double think_time(const struct engine *e, enum rules_color c)
{
	double t = e->opt.seconds, left, per;
	int stones, moves;

	if (!e->timed || !e->have_left[c])
		return t;
	left = e->left[c];
	stones = e->left_stones[c];
	if (e->main_time <= 0 && e->byo_time <= 0)
		return t; /* time_settings 0 0 0: no limit */
	if (stones > 0) {
		per = left / stones; /* byo-yomi: the period over its stones */
	} else {
		/* Main time over the placements this game may still need, at least 10. */
		moves = e->rg.board.nempty / 3;
		if (moves < 10)
			moves = 10;
		per = left / moves;
		if (e->byo_time > 0 && e->byo_stones > 0 && per < e->byo_time / e->byo_stones)
			per = e->byo_time / e->byo_stones;
	}
	/* Keep back a margin for the answer's way over a pipe or the network. */
	per = per * 0.9 - 0.05;
	if (per < 0.01)
		per = 0.01;
	return per < t ? per : t;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool cmd_genmove(struct engine *e, int argc, char **argv)
{
	enum rules_color c = parse_color(argv[0]);
	uint16_t legal[RULES_MAX_POINTS];
	struct ai_options o = { 0 };
	struct ai_search search;
	struct ai_turn *t = NULL;
	struct timespec now;
	enum game_status st;
	char name[4];
	int n, p;
	bool ok = false;

	if (c == RULES_EMPTY)
		return bad_color(e, argv[0]);
	if (e->rg.result != RULES_PLAYING)
		return fail(e, "game is over");
	if (c != e->rg.to_move)
		return fail(e, "it is %s's turn", rules_color_name(e->rg.to_move));
	/* Sorted first, so that a seed gives the same games whatever the core's order. */
	n = sorted_legal(e, legal);
	assert(n > 0); /* while playing, a side with no placement has passed already */
	t = malloc(sizeof(*t));
	if (t == NULL)
		return fail(e, "out of memory");
	o.seed = next_random(e);
	if (e->opt.player == ENGINE_RANDOM) {
		p = legal[o.seed % (uint64_t)n];
	} else if (e->opt.player == ENGINE_GREEDY) {
		st = ai_baseline_turn(&e->rg, AI_GREEDY, o.seed, t);
		if (st != GAME_OK || t->action != AI_PLACE || t->n < 1) {
			fail(e, "cannot choose a placement: %s", game_status_str(st));
			goto out;
		}
		p = t->points[0];
	} else {
		if (e->ai == NULL && (e->ai = ai_new()) == NULL) {
			fail(e, "cannot choose a placement: %s", game_status_str(GAME_NO_MEMORY));
			goto out;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		o.level = e->opt.level;
		o.playouts = e->opt.playouts;
		o.deadline_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec +
		    (int64_t)(think_time(e, c) * 1e9);
		e->search_cpu = cpu_seconds();
		st = ai_genmove(e->ai, &e->rg, &o, t);
		e->search_cpu = cpu_seconds() - e->search_cpu;
		if (st != GAME_OK || t->action != AI_PLACE || t->n != 1) {
			fail(e, "cannot choose a placement: %s", game_status_str(st != GAME_OK ? st :
			    GAME_INTERNAL));
			goto out;
		}
		p = t->points[0];
		ai_last_search(e->ai, &search);
		if (e->opt.resign && search.playouts >= ENGINE_RESIGN_PLAYOUTS &&
		    search.value < ENGINE_RESIGN_BELOW) {
			/* The search sees no chance: the game ends here, as it would by mail. */
			rules_game_resign(&e->rg, c);
			say(e, "resign");
			ok = true;
			goto out;
		}
	}
	if (!place(e, c, p))
		goto out;
	say(e, "%s", rules_point_name(&e->rg.board, p, name));
	ok = true;
out:
	free(t);
	return ok;
}

/* A number of seconds (GTP float or int) at least 0; false on anything else. */
static bool parse_seconds(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return *s != '\0' && *end == '\0' && errno == 0 && *out >= 0 && *out <= 1e9;
}

static bool parse_count(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

static bool cmd_time_settings(struct engine *e, int argc, char **argv)
{
	char q[ENGINE_QUOTE_MAX + 4];
	double m, b;
	int s;

	if (!parse_seconds(argv[0], &m))
		return fail(e, "syntax error: main time '%s' is not a number of seconds",
		    engine_quote(argv[0], q));
	if (!parse_seconds(argv[1], &b))
		return fail(e, "syntax error: byo-yomi time '%s' is not a number of seconds",
		    engine_quote(argv[1], q));
	if (!parse_count(argv[2], &s))
		return fail(e, "syntax error: byo-yomi stones '%s' is not a count", engine_quote(argv[2], q));
	e->timed = true;
	e->main_time = m;
	e->byo_time = b;
	e->byo_stones = s;
	/* Both clocks start full. */
	e->have_left[RULES_BLACK] = e->have_left[RULES_WHITE] = false;
	return true;
}

static bool cmd_time_left(struct engine *e, int argc, char **argv)
{
	char q[ENGINE_QUOTE_MAX + 4];
	enum rules_color c = parse_color(argv[0]);
	double t;
	int s;

	if (c == RULES_EMPTY)
		return bad_color(e, argv[0]);
	if (!parse_seconds(argv[1], &t))
		return fail(e, "syntax error: time '%s' is not a number of seconds", engine_quote(argv[1], q));
	if (!parse_count(argv[2], &s))
		return fail(e, "syntax error: stones '%s' is not a count", engine_quote(argv[2], q));
	e->timed = true;
	e->have_left[c] = true;
	e->left[c] = t;
	e->left_stones[c] = s;
	return true;
}

static bool cmd_showboard(struct engine *e, int argc, char **argv)
{
	char text[BOARD_TEXT_MAX];
	const char *s, *nl;

	board_render(&e->rg.board, e->black, e->white, e->last, e->nlast, text);
	/* One line each, blank ones left out: an empty line would end the answer. */
	for (s = text; (nl = strchr(s, '\n')) != NULL; s = nl + 1)
		if (nl > s)
			say(e, "\n%.*s", (int)(nl - s), s);
	return true;
}

/* The file's bytes (at most ENGINE_FILE_MAX), NUL-terminated, or NULL after writing the error. */
static char *read_game_file(struct engine *e, const char *path, size_t *len)
{
	const size_t max = (size_t)ENGINE_FILE_MAX;
	FILE *f = fopen(path, "rb");
	char *data = NULL, *r, msg[128];
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		goto sys;
	do {
		if (n + 1 >= cap) {
			/* up to max + 1 bytes and a NUL: one byte more than allowed tells "too big" */
			cap = cap == 0 ? 64 * 1024 : cap * 2;
			if (cap > max + 2)
				cap = max + 2;
			r = realloc(data, cap);
			if (r == NULL) {
				fail(e, "%s: out of memory", path);
				goto out;
			}
			data = r;
		}
		got = fread(data + n, 1, cap - 1 - n, f);
		n += got;
	} while (got > 0 && n <= max);
	if (n > max) {
		fail(e, "%s: larger than %zu bytes", path, max);
		goto out;
	}
	if (ferror(f))
		goto sys;
	fclose(f);
	data[n] = '\0';
	*len = n;
	return data;
sys:
	/* strerror's text, lower case as our messages are */
	snprintf(msg, sizeof(msg), "%s", strerror(errno));
	msg[0] = (char)tolower((unsigned char)msg[0]);
	fail(e, "%s: cannot read: %s", path, msg);
out:
	if (f != NULL)
		fclose(f);
	free(data);
	return NULL;
}

static bool cmd_loadgame(struct engine *e, int argc, char **argv)
{
	struct gamefile_error err;
	struct game *g = NULL;
	const int *last;
	size_t len;
	char *text = read_game_file(e, argv[0], &len);
	bool ok = false;
	int n;

	if (text == NULL)
		return false;
	g = malloc(sizeof(*g));
	if (g == NULL) {
		fail(e, "%s: out of memory", argv[0]);
		goto out;
	}
	if (gamefile_parse(text, len, g, &err) != GAME_OK) {
		/* err.msg starts "line N: " when it is about a line */
		fail(e, "%s%s%s", argv[0], err.line > 0 ? " " : ": ", err.msg);
		game_release(g);
		goto out;
	}
	e->rg = g->rg;
	snprintf(e->black, sizeof(e->black), "%s", g->black);
	snprintf(e->white, sizeof(e->white), "%s", g->white);
	n = game_last_placements(g, &last);
	if (n > RULES_MAX_POINTS)
		n = RULES_MAX_POINTS;
	if (n > 0)
		memcpy(e->last, last, sizeof(*last) * (size_t)n);
	e->nlast = n;
	game_release(g);
	ok = true;
out:
	free(g);
	free(text);
	return ok;
}

static bool cmd_rules_game_id(struct engine *e, int argc, char **argv)
{
	say(e, "Oust");
	return true;
}

static bool cmd_rules_board_size(struct engine *e, int argc, char **argv)
{
	say(e, "%d", e->rg.board.size);
	return true;
}

static bool cmd_rules_side_to_move(struct engine *e, int argc, char **argv)
{
	say(e, "%s", rules_color_name(e->rg.to_move));
	return true;
}

static bool cmd_rules_legal_moves(struct engine *e, int argc, char **argv)
{
	uint16_t legal[RULES_MAX_POINTS];
	char name[4];
	int i, n = sorted_legal(e, legal);

	for (i = 0; i < n; i++)
		say(e, "%s%s", i > 0 ? " " : "", rules_point_name(&e->rg.board, legal[i], name));
	return true;
}

static bool cmd_rules_board(struct engine *e, int argc, char **argv)
{
	const struct rules_board *b = &e->rg.board;
	static const char sym[] = { '.', 'X', 'O' };
	int x, y, first, off;

	/* Rows top first; a hex board's rows are indented by half a cell, as drawn. */
	for (y = b->width - 1; y >= 0; y--) {
		first = rules_row_first(b, y);
		off = b->shape != RULES_HEX ? 0 : y >= b->size ? y - b->size + 1 : b->size - 1 - y;
		say(e, "\n%*s", off, "");
		for (x = first; x < first + rules_row_len(b, y); x++)
			say(e, "%s%c", x == first ? "" : " ", sym[rules_at(b, rules_point(b, x, y))]);
	}
	return true;
}

static bool cmd_rules_final_result(struct engine *e, int argc, char **argv)
{
	say(e, "%s", rules_result_str(e->rg.result));
	return true;
}

/* What the last genmove's search did: for strength matches and calibrating budgets. */
static bool cmd_oustpbm_search(struct engine *e, int argc, char **argv)
{
	struct ai_search s = { 0 };

	if (e->ai != NULL)
		ai_last_search(e->ai, &s);
	say(e, "playouts %ld nodes %lu cap %lu value %.3f cpu %.3f", s.playouts, s.nodes,
	    s.node_cap, s.value, e->search_cpu);
	return true;
}

static bool cmd_analyze_commands(struct engine *e, int argc, char **argv)
{
	/* GoGui asks a rules program for these (its manual, "Rules"). */
	say(e, "string/Game Id/gogui-rules_game_id\n"
	    "string/Board Size/gogui-rules_board_size\n"
	    "string/Side to Move/gogui-rules_side_to_move\n"
	    "plist/Legal Moves/gogui-rules_legal_moves\n"
	    "string/Rules Board/gogui-rules_board\n"
	    "string/Final Result/gogui-rules_final_result\n"
	    "string/Show Board/showboard");
	return true;
}

static const struct command commands[] = {
	{ "protocol_version", 0, 0, "", cmd_protocol_version },
	{ "name", 0, 0, "", cmd_name },
	{ "version", 0, 0, "", cmd_version },
	{ "known_command", 1, 1, " <command>", cmd_known_command },
	{ "list_commands", 0, 0, "", cmd_list_commands },
	{ "quit", 0, 0, "", cmd_quit },
	{ "boardsize", 1, 1, " <size>", cmd_boardsize },
	{ "oustpbm-board", 2, 2, " square|hex <size>", cmd_oustpbm_board },
	{ "clear_board", 0, 0, "", cmd_clear_board },
	{ "play", 2, 2, " <color> <vertex>", cmd_play },
	{ "genmove", 1, 1, " <color>", cmd_genmove },
	{ "oustpbm-search", 0, 0, "", cmd_oustpbm_search },
	{ "time_settings", 3, 3, " <main_time> <byo_yomi_time> <byo_yomi_stones>",
	    cmd_time_settings },
	{ "time_left", 3, 3, " <color> <time> <stones>", cmd_time_left },
	{ "showboard", 0, 0, "", cmd_showboard },
	{ "loadgame", 1, 1, " <file>", cmd_loadgame },
	{ "gogui-analyze_commands", 0, 0, "", cmd_analyze_commands },
	{ "gogui-rules_game_id", 0, 0, "", cmd_rules_game_id },
	{ "gogui-rules_board_size", 0, 0, "", cmd_rules_board_size },
	{ "gogui-rules_side_to_move", 0, 0, "", cmd_rules_side_to_move },
	{ "gogui-rules_legal_moves", 0, 0, "", cmd_rules_legal_moves },
	{ "gogui-rules_board", 0, 0, "", cmd_rules_board },
	{ "gogui-rules_final_result", 0, 0, "", cmd_rules_final_result },
	{ NULL, 0, 0, NULL, NULL }
};

static const struct command *find_command(const char *name)
{
	const struct command *c;

	for (c = commands; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static bool cmd_known_command(struct engine *e, int argc, char **argv)
{
	say(e, "%s", find_command(argv[0]) != NULL ? "true" : "false");
	return true;
}

static bool cmd_list_commands(struct engine *e, int argc, char **argv)
{
	const struct command *c;

	for (c = commands; c->name != NULL; c++)
		say(e, "%s%s", c == commands ? "" : "\n", c->name);
	return true;
}

/* ---- the loop ---- */

/*
 * Read one line, preprocessed as GTP 2 says (section 3.1): control
 * characters other than HT and LF removed, HT made a space, everything from
 * '#' on dropped.  At most cap - 1 bytes are kept; *too_long is set if more
 * came.  Returns false at end of input with nothing read.
 */
static bool read_line(FILE *in, char *buf, size_t cap, size_t *len, bool *too_long)
{
	bool any = false, comment = false;
	size_t n = 0;
	int c;

	*too_long = false;
	while ((c = getc(in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (comment || (c < 32 && c != '\t') || c == 127)
			continue;
		if (c == '#') {
			comment = true;
			continue;
		}
		if (n + 1 >= cap) {
			*too_long = true;
			continue;
		}
		buf[n++] = c == '\t' ? ' ' : (char)c;
	}
	buf[n] = '\0';
	*len = n;
	return any;
}

/* Split s on spaces in place; returns the number of words (at most max; *more if there were more). */
static int split(char *s, char **argv, int max, bool *more)
{
	int n = 0;

	*more = false;
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			return n;
		if (n == max) {
			*more = true;
			return n;
		}
		argv[n++] = s;
		while (*s != '\0' && *s != ' ')
			s++;
		if (*s == ' ')
			*s++ = '\0';
	}
}

/* Run the command in the words of one line; fills e->reply; returns success. */
static bool execute(struct engine *e, int argc, char **argv, bool more)
{
	const struct command *c = find_command(argv[0]);
	char q[ENGINE_QUOTE_MAX + 4];

	if (c == NULL)
		return fail(e, "unknown command '%s'", engine_quote(argv[0], q));
	if (more || argc - 1 < c->min_args || argc - 1 > c->max_args)
		return fail(e, "syntax error: usage: %s%s", c->name, c->usage);
	return c->run(e, argc - 1, argv + 1);
}

enum game_status engine_run(FILE *in, FILE *out)
{
	struct engine_options o;

	engine_options_init(&o);
	return engine_run_opts(in, out, &o);
}

enum game_status engine_run_opts(FILE *in, FILE *out, const struct engine_options *o)
{
	struct engine e;
	enum game_status st = GAME_OK;
	char line[ENGINE_LINE_MAX + 1], *argv[ENGINE_MAX_ARGS + 2], *words;
	const char *id;
	size_t len;
	bool too_long, more, ok;
	int argc;

	memset(&e, 0, sizeof(e));
	e.opt = *o;
	new_game(&e, RULES_SQUARE, RULES_DEFAULT_SIZE);
	e.rng = seed(o);
	while (!e.quit && read_line(in, line, sizeof(line), &len, &too_long)) {
		/* The id: a leading number, whole (not cut by the length cap). */
		id = "";
		words = line;
		while (*words == ' ')
			words++;
		if (isdigit((unsigned char)*words)) {
			char *end = words + strspn(words, "0123456789");

			if (*end == ' ' || (*end == '\0' && !too_long)) {
				id = words;
				words = *end == '\0' ? end : end + 1;
				*end = '\0';
			}
		}
		argc = split(words, argv, ENGINE_MAX_ARGS + 1, &more);
		if (argc == 0 && !too_long && id[0] == '\0')
			continue; /* empty, blank or comment only */
		e.rlen = 0;
		e.reply[0] = '\0';
		if (too_long)
			ok = fail(&e, "line longer than %d bytes", ENGINE_LINE_MAX);
		else if (argc == 0)
			ok = fail(&e, "no command after the id");
		else
			ok = execute(&e, argc, argv, more);
		if (fprintf(out, "%c%s %s\n\n", ok ? '=' : '?', id, e.reply) < 0 ||
		    fflush(out) != 0) {
			st = GAME_IO;
			goto out;
		}
	}
	if (ferror(in))
		st = GAME_IO;
out:
	ai_free(e.ai);
	return st;
}
