/* reply: the texts of oustpbm's replies, from templates, composed with mailout. */
#include "mail/reply.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/strbuf.h"
#include "base/utf8.h"
#include "game/board.h"
#include "game/gamefile.h"
#include "game/html.h"
#include "game/rules.h"
#include "game/review.h"
#include "game/sgf.h"
#include "mail/mailout.h"
#include "mail/unsubtoken.h"
#include "mail/tap.h"

#ifndef OUSTPBM_DATADIR
#define OUSTPBM_DATADIR "/usr/local/share/oustpbm"
#endif

#define VARS_MAX 24

/*
 * How a reply is made.  Each reply_*() function builds only what is its
 * own: its subject, the placeholders of its template, what the HTML of a
 * board mail shows.  It puts them in a struct reply_parts and ends in
 * reply_finish(), which expands the template, adds the text/html
 * alternative, composes the mail (recipient, subject, Message-ID,
 * threading) and frees what it made itself:
 *
 *	struct reply_parts rp = { .tmpl = "help", .subject = "Oust help",
 *	    .to_addr = to_addr, .to_name = to_name };
 *
 *	var(&rp.vs, "commands", commands);
 *	return reply_finish(rc, REPLY_OK, &rp, out);
 *
 * A reply that allocates pieces of its own starts from st = REPLY_NOMEM,
 * jumps to out when one fails, sets st = REPLY_OK once all are made, and
 * has one exit:
 *
 *	out:
 *		st = reply_finish(rc, st, &rp, out);
 *		free(...its own pieces...);
 *		return st;
 */

/* The placeholders of a template (mailout.h); var() adds one. */
struct vars {
	struct mailout_var v[VARS_MAX];
	size_t n;
};

/* A file attached to a reply (mailout.h): its bytes, NUL-terminated, media type and name. */
struct reply_file {
	const char *data;
	size_t len;
	const char *type, *name;
};

/* What the HTML of a mail about a board shows; NULL or "" leaves a piece out. */
struct html_mail {
	const char *title;	/* the subject */
	const char *intro;	/* plain text: what happened, the error... */
	const char *echo;	/* plain text: the command an error refused, passwords masked, or NULL */
	const char *send;	/* plain text: the command an error gives to send instead, or NULL */
	const char *stop;	/* plain text with a drawing: where a refused turn stopped, or NULL */
	const char *comment_by;	/* the author of comment */
	const char *comment;	/* plain text from a player */
	int upto;		/* the position after this turn */
	bool next;		/* with the command to send next */
	const char *next_body;	/* plain text: that command as the reader's own, or NULL */
	const char *recent;	/* plain text: history lines */
	const char *ratings;	/* plain text: the players' ratings line (ratings_mail_line), NULL or "" for none */
	const char *html;	/* HTML made by the game layer (a review's chart: game/review.h), after the intro, or NULL */
	const char *tap_subject;	/* to the player to move with a token: the Subject its links reply with (tap.h) */
};

/*
 * A reply's parts, for reply_finish().  Every pointer is borrowed: the
 * caller keeps what it points to alive until reply_finish() returns and
 * frees it afterwards.  Members left 0 are not used.
 */
struct reply_parts {
	const char *tmpl;	/* the text template, templates/<tmpl>.txt, filled with vs */
	struct vars vs;		/* its placeholders besides {server} and {address} */
	const char *body;	/* or, with tmpl NULL, a text made already (reply_show) */
	const char *subject;
	const char *to_addr, *to_name;	/* the recipient; to_name may be "" */
	const struct game *g;	/* the board the mail is about: its thread goes in References; or NULL */
	const struct html_mail *hm;	/* what g's text/html alternative shows; NULL: text alone */
	long id_board;		/* > 0: a game Message-ID <board.turn.user.time@domain> */
	int id_turn;
	const char *id_user;
	const struct reply_file *file;	/* an attachment, or NULL */
	const char *list_unsubscribe;	/* an observer's List-Unsubscribe value, or NULL */
};

/* An observer's token and List-Unsubscribe value (unsub_make); "" for none. */
struct unsub {
	char token[UNSUBTOKEN_MAX + 1];
	char header[UNSUBTOKEN_URI_MAX + 1];
};

/*
 * Finish a reply: st is how making rp went.  REPLY_OK: expand rp->tmpl,
 * make rp->hm's HTML, compose the mail into out (the caller owns it:
 * reply_mail_release()).  Otherwise, or when a step fails, out is left
 * empty and st returned, with "out of memory" in rc->err for REPLY_NOMEM
 * (the other failures have set rc->err already).  Frees only what it made.
 */
static enum reply_status reply_finish(struct reply_ctx *rc, enum reply_status st, struct reply_parts *rp,
    struct reply_mail *out);

const char *reply_status_str(enum reply_status st)
{
	switch (st) {
	case REPLY_OK: return "ok";
	case REPLY_NOMEM: return "out of memory";
	case REPLY_TEMPLATE: return "template error";
	case REPLY_COMPOSE: return "the reply could not be composed";
	}
	return "unknown reply status";
}

/* ---- a growing string: strbuf.h under the names this file uses ---- */

struct text {
	struct strbuf b;
};

static void tadd(struct text *t, const char *s, size_t n)
{
	strbuf_add(&t->b, s, n);
}

static void tputs(struct text *t, const char *s)
{
	strbuf_puts(&t->b, s);
}

#define tprintf(t, ...) strbuf_printf(&(t)->b, __VA_ARGS__)

/* The spaces t got from offset from on become REPLY_GLUE: a line never wrapped (a history row). */
static void tglue_from(struct text *t, size_t from)
{
	size_t i;

	for (i = from; t->b.s != NULL && !t->b.failed && i < t->b.len; i++)
		if (t->b.s[i] == ' ')
			t->b.s[i] = REPLY_GLUE;
}

/* The text so far ("" if empty), or NULL after a failure; t is emptied. */
static char *tfinish(struct text *t)
{
	return strbuf_finish(&t->b);
}

/* ---- set-up ---- */

void reply_init(struct reply_ctx *rc, const struct config *cfg, const char *home, time_t now,
    const char *in_id, const char *in_refs, const char *sender)
{
	char pid[32];

	memset(rc, 0, sizeof *rc);
	rc->cfg = cfg;
	rc->home = home;
	rc->now = now;
	rc->answering = in_id != NULL;
	rc->in_id = in_id != NULL ? in_id : "";
	rc->in_refs = in_refs != NULL ? in_refs : "";
	rc->hash = hash_fnv1a32_str(HASH_FNV32_BASIS, rc->in_id);
	rc->hash = hash_fnv1a32_str(rc->hash, " ");
	rc->hash = hash_fnv1a32_str(rc->hash, sender != NULL ? sender : "");
	if (!cfg->test_time_set) {
		/* two mails with one Message-ID in one second still get distinct ids */
		snprintf(pid, sizeof pid, " %ld", (long)getpid());
		rc->hash = hash_fnv1a32_str(rc->hash, pid);
	}
}

void reply_release(struct reply_ctx *rc)
{
	free(rc->cached);
	rc->cached = NULL;
	free(rc->cached_html);
	rc->cached_html = NULL;
	rc->cached_name[0] = '\0';
}

void reply_mail_release(struct reply_mail *m)
{
	free(m->msg);
	memset(m, 0, sizeof *m);
}

static bool is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

enum reply_status reply_templates_dir(const struct config *cfg, const char *home, char *out, size_t size,
    char *err, size_t errlen)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;
	int r;

	if (cfg->templates[0] != '\0') {
		if (cfg->templates[0] == '/')
			r = snprintf(out, size, "%s", cfg->templates);
		else
			r = snprintf(out, size, "%s/%s", home, cfg->templates);
		if (r < 0 || (size_t)r >= size) {
			snprintf(err, errlen, "templates directory '%s': the path is too long", cfg->templates);
			return REPLY_TEMPLATE;
		}
		return REPLY_OK;
	}
	r = snprintf(out, size, "%s/templates", home);
	if (r > 0 && (size_t)r < size && is_dir(out))
		return REPLY_OK;
	r = snprintf(out, size, "%s/templates", OUSTPBM_DATADIR);
	if (r > 0 && (size_t)r < size && is_dir(out))
		return REPLY_OK;
	/* run from a source checkout: templates/ beside ./oustpbm */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			r = snprintf(out, size, "%s/templates", exe);
			if (r > 0 && (size_t)r < size && is_dir(out))
				return REPLY_OK;
		}
	}
	out[0] = '\0';
	snprintf(err, errlen, "no templates directory: none in %s/templates, %s/templates or beside the "
	    "program; set 'templates' in %s", home, OUSTPBM_DATADIR, CONFIG_FILE);
	return REPLY_TEMPLATE;
}

/* ---- wrapping ---- */

/* Columns of s[0..n): characters of UTF-8 (a byte that is not valid UTF-8 counts one). */
static size_t columns(const char *s, size_t n)
{
	size_t cols = 0, i = 0, k;
	uint32_t cp;

	while (i < n) {
		k = utf8_decode(s + i, n - i, &cp);
		i += k > 0 ? k : 1;
		cols++;
	}
	return cols;
}

/*
 * One line (no newline) into t, wrapped, each continuation indented by
 * indent columns, or by the line's own leading spaces if indent is
 * (size_t)-1; see reply_wrap.
 */
static void wrap_line(struct text *t, const char *line, size_t n, size_t indent)
{
	size_t col, pos, start, end, gap;
	bool empty = true;

	if (n > 0 && line[0] == REPLY_VERBATIM) {
		tadd(t, line + 1, n - 1);
		return;
	}
	if (columns(line, n) <= REPLY_WRAP) {
		tadd(t, line, n);
		return;
	}
	if (indent == (size_t)-1) {
		for (indent = 0; indent < n && line[indent] == ' '; indent++)
			;
		if (indent > REPLY_WRAP / 2)
			indent = REPLY_WRAP / 2;	/* a continuation still has room for words */
	} else if (indent > REPLY_WRAP - 20) {
		indent = REPLY_WRAP - 20;	/* a column too far right: 20 columns for its words */
	}
	/* the first line keeps its own leading spaces */
	for (pos = 0; pos < n && line[pos] == ' '; pos++)
		;
	tadd(t, line, pos);
	col = columns(line, pos);
	while (pos < n) {
		/* the spaces before the next word, then the word */
		for (start = pos; start < n && line[start] == ' '; start++)
			;
		if (start == n)
			break;	/* trailing spaces of a wrapped line go */
		for (end = start; end < n && line[end] != ' '; end++)
			;
		gap = start - pos;
		if (!empty && col + gap + columns(line + start, end - start) > REPLY_WRAP) {
			tputs(t, "\n");
			tprintf(t, "%*s", (int)indent, "");
			col = indent;
			gap = 0;
		}
		tadd(t, line + pos, gap);
		tadd(t, line + start, end - start);
		col += gap + columns(line + start, end - start);
		empty = false;
		pos = end;
	}
}

_Static_assert(REPLY_GLUE == '\002', "the sentences' glued commands write REPLY_GLUE as \\002");

/* s with every REPLY_GLUE turned into the space it stands for. */
static void unglue(char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		if (*s == REPLY_GLUE)
			*s = ' ';
}

/* A copy of s whose spaces are REPLY_GLUE: never broken by the wrapping.  NULL if out of memory. */
static char *glued(const char *s)
{
	char *g = strdup(s), *p;

	for (p = g; p != NULL && *p != '\0'; p++)
		if (*p == ' ')
			*p = REPLY_GLUE;
	return g;
}

char *reply_wrap(const char *text)
{
	struct text t = { 0 };
	const char *p = text, *nl;
	char *out;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		wrap_line(&t, p, nl != NULL ? (size_t)(nl - p) : strlen(p), (size_t)-1);
		if (nl == NULL)
			break;
		tputs(&t, "\n");
		p = nl + 1;
	}
	out = tfinish(&t);
	unglue(out);
	return out;
}

/* text with REPLY_VERBATIM before each line: reply_wrap leaves it as it is.  NULL if out of memory. */
static char *verbatim(const char *text)
{
	struct text t = { 0 };
	const char *p = text, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		tputs(&t, (char[]){ REPLY_VERBATIM, '\0' });
		tadd(&t, p, nl != NULL ? (size_t)(nl - p + 1) : strlen(p));
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return tfinish(&t);
}

/* ---- templates ---- */

static void var(struct vars *vs, const char *name, const char *value)
{
	if (vs->n < VARS_MAX) {
		vs->v[vs->n].name = name;
		vs->v[vs->n].value = value != NULL ? value : "";
		vs->n++;
	}
}

/*
 * Expand template name with vs plus the variables every template has.  A
 * text template's result is wrapped (reply_wrap), the board drawing (the
 * variable drawing) excepted.
 */
static enum reply_status expand(struct reply_ctx *rc, const char *name, struct vars *vs, char **body)
{
	enum mailout_status ms;
	char *text = NULL, *drawing = NULL, *wrapped, *server, err[MAILOUT_ERR_MAX * 4];
	const char *given = NULL;
	enum reply_status st;
	bool html;
	size_t i, at = 0, n0;

	*body = NULL;
	if (!rc->have_tdir) {
		st = reply_templates_dir(rc->cfg, rc->home, rc->tdir, sizeof rc->tdir, rc->err, sizeof rc->err);
		if (st != REPLY_OK)
			return st;
		rc->have_tdir = true;
	}
	n0 = vs->n;
	html = strcmp(name, "mail.html") == 0;
	/* the server's name is a name: the signature never breaks inside it */
	server = html ? NULL : glued(rc->cfg->server_name);
	if (!html && server == NULL) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return REPLY_NOMEM;
	}
	var(vs, "server", html ? rc->cfg->server_name : server);
	var(vs, "address", rc->cfg->from_address);
	err[0] = '\0';
	for (i = 0; i < vs->n && !html; i++) {
		if (strcmp(vs->v[i].name, "drawing") != 0)
			continue;
		drawing = verbatim(vs->v[i].value);
		if (drawing == NULL) {
			snprintf(rc->err, sizeof rc->err, "out of memory");
			free(server);
			return REPLY_NOMEM;
		}
		given = vs->v[i].value;
		at = i;
		vs->v[i].value = drawing;
	}
	if ((html && rc->cached_html != NULL) || (!html && rc->cached != NULL && strcmp(rc->cached_name, name) == 0)) {
		ms = MAILOUT_OK;
	} else {
		ms = mailout_template_load(rc->tdir, name, &text, err, sizeof err);
		rc->html_missing = html && ms == MAILOUT_NOT_FOUND;
		if (ms == MAILOUT_OK && html) {
			rc->cached_html = text;
			text = NULL;
		} else if (ms == MAILOUT_OK && strlen(name) < sizeof rc->cached_name) {
			free(rc->cached);
			rc->cached = text;
			memcpy(rc->cached_name, name, strlen(name) + 1);
			text = NULL;
		}
	}
	if (ms == MAILOUT_OK) {
		ms = mailout_template_expand(text != NULL ? text : html ? rc->cached_html : rc->cached, vs->v, vs->n,
		    body, err, sizeof err);
		if (ms == MAILOUT_BAD_TEMPLATE)
			snprintf(rc->err, sizeof rc->err, "%.500s/%.64s%s %.600s", rc->tdir, name, html ? "" : ".txt", err);
	} else {
		snprintf(rc->err, sizeof rc->err, "template %.64s: %.1000s", name, err);
	}
	free(text);
	free(server);
	vs->n = n0;	/* server and address: this expansion's own */
	if (drawing != NULL) {
		vs->v[at].value = given;
		free(drawing);
	}
	if (ms == MAILOUT_OK && !html) {
		wrapped = reply_wrap(*body);
		free(*body);
		*body = wrapped;
		if (wrapped == NULL)
			ms = MAILOUT_NOMEM;
	} else if (ms == MAILOUT_OK) {
		unglue(*body);	/* the texts the HTML shows are the text part's, glue and all */
	}
	if (ms == MAILOUT_NOMEM) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return REPLY_NOMEM;
	}
	return ms == MAILOUT_OK ? REPLY_OK : REPLY_TEMPLATE;
}

/* ---- composing ---- */

static const char *domain_of(const char *addr)
{
	const char *at = strrchr(addr, '@');

	return at != NULL ? at + 1 : "localhost";
}

/*
 * Compose body (and html, if not NULL) into out for rp's recipient, with
 * rp's subject, threading and attachment.  rp->id_board > 0 makes a game
 * id (board.turn.user.time), else an id from the incoming mail's hash.
 */
static enum reply_status compose(struct reply_ctx *rc, const struct reply_parts *rp, const char *body,
    const char *html, struct reply_mail *out)
{
	const struct game *g = rp->g;
	const struct reply_file *file = rp->file;
	const char *to_addr = rp->to_addr;
	struct mailout_spec spec;
	enum mailout_status ms;
	char id[MAILOUT_ID_MAX + 1], root[GAME_THREAD_MAX + 1];
	size_t n;

	assert(rc->cfg != NULL);	/* reply_init() was called */
	memset(out, 0, sizeof *out);
	rc->counter++;
	if (rp->id_board > 0)
		snprintf(id, sizeof id, "%ld.%d.%s.%lld@%s", rp->id_board, rp->id_turn, rp->id_user,
		    (long long)rc->now, domain_of(rc->cfg->from_address));
	else
		snprintf(id, sizeof id, "oust.%lld.%08x.%u@%s", (long long)rc->now, rc->hash, rc->counter,
		    domain_of(rc->cfg->from_address));
	root[0] = '\0';
	if (g != NULL && g->thread[0] != '\0') {
		/* stored with its brackets, as a header value */
		n = strlen(g->thread);
		if (g->thread[0] == '<' && n >= 2 && g->thread[n - 1] == '>')
			snprintf(root, sizeof root, "%.*s", (int)(n - 2), g->thread + 1);
		else
			snprintf(root, sizeof root, "%s", g->thread);
	}
	memset(&spec, 0, sizeof spec);
	spec.from_addr = rc->cfg->from_address;
	spec.from_name = rc->cfg->server_name;
	spec.to_addr = to_addr;
	spec.to_name = rp->to_name;
	spec.subject = rp->subject;
	spec.body = body;
	spec.html = html;
	spec.date = rc->now;
	spec.message_id = id;
	spec.in_reply_to = rc->in_id;
	spec.references = rc->in_refs;
	spec.root_id = root;
	spec.generated = !rc->answering;
	spec.list_unsubscribe = rp->list_unsubscribe;
	if (file != NULL) {
		spec.attachment = file->data;
		spec.attachment_len = file->len;
		spec.attachment_type = file->type;
		spec.attachment_name = file->name;
	}
	if (strlen(to_addr) > MAILADDR_MAX) {
		snprintf(rc->err, sizeof rc->err, "recipient address too long");
		return REPLY_COMPOSE;
	}
	ms = mailout_compose(&spec, &out->msg, &out->len);
	if (ms == MAILOUT_NOMEM) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return REPLY_NOMEM;
	}
	if (ms != MAILOUT_OK) {
		snprintf(rc->err, sizeof rc->err, "reply to %s: %s", to_addr, mailout_status_str(ms));
		return REPLY_COMPOSE;
	}
	if (out->len > (size_t)MAILOUT_MESSAGE_MAX) {
		/* only a template can make it so long (the texts filled in are bounded): the admin's to fix */
		snprintf(rc->err, sizeof rc->err, "the reply \"%.200s\" is %zu bytes, larger than the %ld bytes "
		    "the outbox takes: a template makes it too long", rp->subject, out->len, MAILOUT_MESSAGE_MAX);
		free(out->msg);
		out->msg = NULL;
		out->len = 0;
		return REPLY_TEMPLATE;
	}
	snprintf(out->rcpt, sizeof out->rcpt, "%s", to_addr);
	return REPLY_OK;
}

/* ---- pieces of text about a game ---- */

static char symbol(enum rules_color c)
{
	return c == RULES_BLACK ? 'x' : 'o';
}

static const char *colour_name(enum rules_color c)
{
	return c == RULES_BLACK ? "Black" : "White";
}

/* The winner's name, or NULL for a draw or a game still running. */
static const char *winner(const struct game *g)
{
	if (g->rg.result == RULES_BLACK_WINS)
		return g->black;
	if (g->rg.result == RULES_WHITE_WINS)
		return g->white;
	return NULL;
}

static const char *loser(const struct game *g)
{
	if (g->rg.result == RULES_BLACK_WINS)
		return g->white;
	if (g->rg.result == RULES_WHITE_WINS)
		return g->black;
	return NULL;
}

/* "Oust Board 101 bob", "Oust Board 101 won by alice", "Oust Board 101 drawn" */
static void status_subject(const struct game *g, char *buf, size_t size)
{
	if (!game_over(g))
		snprintf(buf, size, "Oust Board %ld %s", g->board, game_player_to_move(g));
	else if (winner(g) != NULL)
		snprintf(buf, size, "Oust Board %ld won by %s", g->board, winner(g));
	else
		snprintf(buf, size, "Oust Board %ld drawn", g->board);
}

/* How the game ended, one sentence without the final period. */
static void result_text(const struct game *g, char *buf, size_t size)
{
	/* gamefile.c checks that a won game has a winner; "?" only guards the format */
	const char *w = winner(g) != NULL ? winner(g) : "?", *l = loser(g) != NULL ? loser(g) : "?";

	switch (g->end) {
	case GAME_END_CAPTURE:
		snprintf(buf, size, "%s won: %s has no stones left", w, l);
		break;
	case GAME_END_RESIGN:
		snprintf(buf, size, "%s won: %s resigned", w, l);
		break;
	case GAME_END_TIMEOUT:
		snprintf(buf, size, "%s won: %s ran out of time", w, l);
		break;
	case GAME_END_NO_PLACEMENTS:
		snprintf(buf, size, "the game is drawn: neither player can place");
		break;
	case GAME_END_AGREEMENT:
		snprintf(buf, size, "the game is drawn by agreement");
		break;
	case GAME_END_NONE:
		snprintf(buf, size, "the game goes on");
		break;
	}
}

/* "turn 8, bob (White, o) to move" or the result. */
static void status_text(const struct game *g, char *buf, size_t size)
{
	if (game_over(g))
		result_text(g, buf, size);
	else if (game_is_open(g))
		snprintf(buf, size, "an open challenge of %s's, waiting for a player", game_open_challenger(g));
	else
		snprintf(buf, size, "turn %d, %s (%s, %c) to move", g->rg.turn, game_player_to_move(g),
		    colour_name(g->rg.to_move), symbol(g->rg.to_move));
}

/* The placements of history entry t, "E5,F5". */
static void placements_text(struct text *t, const struct game *g, const struct game_turn *e)
{
	const int *p = game_turn_points(g, e);
	char name[4];
	int i;

	for (i = 0; i < e->npoints; i++) {
		if (i > 0)
			tputs(t, ",");
		tputs(t, rules_point_name(&g->rg.board, p[i], name));
	}
}

static int name_width(const struct game *g)
{
	int a = (int)strlen(g->black), b = (int)strlen(g->white);

	return a > b ? a : b;
}

char *reply_time_str(int64_t t, char buf[REPLY_TIME_SIZE])
{
	char iso[GAMEFILE_TIME_SIZE];

	/* "2026-11-21T18:41:07Z" -> "2026-11-21 18:41 UTC" */
	gamefile_time_str(t, iso);
	snprintf(buf, REPLY_TIME_SIZE, "%.10s %.5s UTC", iso, iso + 11);
	return buf;
}

/* One history line: "   7  x alice  E5,F5", with its time when with_time. */
static void history_line(struct text *t, const struct game *g, const struct game_turn *e, bool with_time)
{
	char stamp[REPLY_TIME_SIZE];
	size_t from = t->b.len;

	tprintf(t, "%4d  ", e->number);
	if (with_time)
		tprintf(t, "%s  ", reply_time_str(e->time, stamp));
	tprintf(t, "%c %-*s  ", symbol(e->color), name_width(g), e->player);
	switch (e->action) {
	case GAME_PLACE:
		placements_text(t, g, e);
		break;
	case GAME_PASS:
		tputs(t, "pass (no placement)");
		break;
	case GAME_SWAP:
		/* who holds which stones from here on: the rows above were played in the old colours */
		tprintf(t, "swap: now %s plays x, %s o", e->player,
		    strcmp(g->black, e->player) == 0 ? g->white : g->black);
		break;
	case GAME_RESIGN:
		tputs(t, "resign");
		break;
	case GAME_TIMEOUT:
		tputs(t, "out of time");
		break;
	}
	tglue_from(t, from);	/* a row of a table: never broken inside */
	tputs(t, "\n");
}

/* One note of undo or draw by agreement: "   -  x alice  propose (offers a draw)". */
static void note_line(struct text *t, const struct game *g, const struct game_note *n, bool with_time)
{
	char stamp[REPLY_TIME_SIZE];
	size_t from = t->b.len;

	tputs(t, "   -  ");
	if (with_time)
		tprintf(t, "%s  ", reply_time_str(n->time, stamp));
	tprintf(t, "%c %-*s  %s ", symbol(n->color), name_width(g), n->player, game_note_str(n->kind));
	switch (n->kind) {
	case GAME_NOTE_UNDO:
		tputs(t, "(asks to take back the last turn)");
		break;
	case GAME_NOTE_PROPOSE:
		tputs(t, "(offers a draw)");
		break;
	case GAME_NOTE_ACCEPT:
		if (n->undo)
			tprintf(t, "(the turns from %d on taken back)", n->undo_from);
		else
			tputs(t, "(a draw agreed)");
		break;
	case GAME_NOTE_REJECT:
		tprintf(t, "(%s declined)", n->undo ? "undo" : "draw");
		break;
	case GAME_NOTE_CHAT:
		tputs(t, "(wrote to the board's readers)");
		break;
	}
	tglue_from(t, from);
	tputs(t, "\n");
}

/*
 * The turns before turn upto + 1 (all with upto 0), at most the last `last`
 * of them (0: all), with the notes of undo and draw offers among them.
 */
static char *history_upto(const struct game *g, int upto, int last, bool with_time)
{
	struct text t = { 0 };
	int end = upto > 0 && upto < g->nturns ? upto : g->nturns;
	int i = last > 0 && end > last ? end - last : 0, k = 0;

	if (end == 0 && g->nnotes == 0)
		tputs(&t, "   (no turns yet)\n");
	while (k < g->nnotes && g->notes[k].after < i)
		k++;
	for (; i < end; i++) {
		for (; k < g->nnotes && g->notes[k].after <= i; k++)
			note_line(&t, g, &g->notes[k], with_time);
		history_line(&t, g, &g->turns[i], with_time);
	}
	for (; end == g->nturns && k < g->nnotes; k++)
		note_line(&t, g, &g->notes[k], with_time);
	return tfinish(&t);
}

static char *history_text(const struct game *g, int last, bool with_time)
{
	return history_upto(g, 0, last, with_time);
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* "A1", "A1 and B2", "A1, B2 and C3": the n points p[] of b. */
static void points_text(struct text *t, const struct rules_board *b, const int *p, int n)
{
	char name[4];
	int i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			tputs(t, i == n - 1 ? " and " : ", ");
		tputs(t, rules_point_name(b, p[i], name));
	}
}

/*
 * The stones colour c's placement at p would remove from b, into taken
 * (room for RULES_MAX_POINTS), in board order; returns how many.  scratch
 * is a board the caller provides (rules_board is large).
 */
static int taken_by(const struct rules_board *b, enum rules_color c, int p, struct rules_board *scratch,
    int *taken)
{
	int q, n = 0;

	*scratch = *b;
	if (rules_place(scratch, c, p, NULL) != RULES_CAPTURE)
		return 0;
	for (q = 0; q < b->ncells; q++)
		if (rules_at(b, q) == RULES_OTHER(c) && rules_at(scratch, q) == RULES_EMPTY)
			taken[n++] = q;
	return n;
}

/* A point with its column and row, to sort by. */
struct place_xy {
	int p, x, y;
};

static int by_column(const void *a, const void *b)
{
	const struct place_xy *u = a, *v = b;

	return u->x != v->x ? u->x - v->x : u->y - v->y;
}

/* Hex cells as their names read: row a first, then by number in the row. */
static int by_row(const void *a, const void *b)
{
	const struct place_xy *u = a, *v = b;

	return u->y != v->y ? u->y - v->y : u->x - v->x;
}

/*
 * For the player to move: the capturing placements open to them now, each
 * with the stones it takes, or that there are none; "" for anyone else.
 */
static char *options_text(const struct game *g, const char *reader)
{
	struct rules_board *b = NULL;	/* b[0] the position, b[1] scratch */
	struct place_xy *caps = NULL;
	uint16_t *legal = NULL;
	int *taken = NULL, n, i, ncaps = 0, k;
	const char *who = game_player_to_move(g);
	enum rules_color c = g->rg.to_move;
	struct text t = { 0 };
	struct rules_check chk;

	if (who == NULL || strcmp(who, reader) != 0 || game_user_is_robot(who) || game_is_open(g))
		return strdup("");
	b = malloc(2 * sizeof *b);
	legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	taken = malloc(RULES_MAX_POINTS * sizeof *taken);
	caps = malloc(RULES_MAX_POINTS * sizeof *caps);
	if (b == NULL || legal == NULL || taken == NULL || caps == NULL) {
		t.b.failed = true;
		goto out;
	}
	b[0] = g->rg.board;
	n = rules_legal(&b[0], c, legal);
	for (i = 0; i < n; i++)
		if (rules_check(&b[0], c, legal[i], &chk) == RULES_CAPTURE) {
			caps[ncaps].p = legal[i];
			caps[ncaps].x = rules_x(&b[0], legal[i]);
			caps[ncaps].y = rules_y(&b[0], legal[i]);
			ncaps++;
		}
	qsort(caps, (size_t)ncaps, sizeof *caps, by_column);
	if (ncaps == 0) {
		tputs(&t, "Your capturing placements: none: every placement is non-capturing.\n\n");
		goto out;
	}
	tprintf(&t, "Your capturing placement%s (after each you place again):\n", plural(ncaps));
	for (i = 0; i < ncaps && i < REPLY_OPTIONS_MAX; i++) {
		char name[4];

		k = taken_by(&b[0], c, caps[i].p, &b[1], taken);
		tprintf(&t, "  %s takes ", rules_point_name(&b[0], caps[i].p, name));
		points_text(&t, &b[0], taken, k);
		tputs(&t, "\n");
	}
	if (ncaps > REPLY_OPTIONS_MAX)
		tprintf(&t, "  and %d more\n", ncaps - REPLY_OPTIONS_MAX);
	tputs(&t, "\n");
out:
	free(b);
	free(legal);
	free(taken);
	free(caps);
	return tfinish(&t);
}

/*
 * {next} of a game mail, spoken to its reader: to the player to move,
 * "Your move" and the command to send; to the other, whom the board waits
 * for, whether their comment was passed on, and when they may swap.
 */
static char *next_for(const struct game *g, const struct reply_event *ev, const char *reader)
{
	struct text t = { 0 };
	const char *who;
	enum rules_color c = g->rg.to_move;

	if (game_over(g))
		return strdup("");
	if (game_is_open(g)) {
		tprintf(&t, "This is an open challenge: it waits for a player. Anyone may take it by sending:\n\n"
		    "    accept %ld <userid> <password>\n\nTo withdraw it before then, send:\n\n"
		    "    decline %ld %s <password>\n", g->board, g->board, reader);
		return tfinish(&t);
	}
	who = game_player_to_move(g);
	if (strcmp(who, reader) == 0) {
		tprintf(&t, "Your move, %s (turn %d, you play %s, %c). To play, send:\n\n", who, g->rg.turn,
		    colour_name(c), symbol(c));
		tprintf(&t, "    move %ld#%d %s <password> <placements>\n", g->board, g->rg.turn, who);
		if (g->swap && rules_game_can_swap(&g->rg)) {
			tprintf(&t, "\nor, to take over Black's stones instead (the pie rule), send:\n\n");
			tprintf(&t, "    swap %ld#%d %s <password>\n", g->board, g->rg.turn, who);
		}
		return tfinish(&t);
	}
	tprintf(&t, "Waiting for %s (%s, %c) to play turn %d%s.\n", who, colour_name(c), symbol(c), g->rg.turn,
	    game_user_is_robot(who) ? ": its answer comes by mail within minutes" : "");
	if (ev->comment != NULL && ev->comment[0] != '\0' && strcmp(ev->actor, reader) == 0 && !game_user_is_robot(who))
		tprintf(&t, "Your comment was passed on to %s.\n", who);
	if (g->swap && g->rg.turn == 1 && game_color_of(g, reader) == RULES_WHITE)
		tprintf(&t, "After %s's first turn you may swap (the pie rule):\ntake over Black's stones instead "
		    "of placing.\n", who);
	return tfinish(&t);
}

/* Whose turn it is and the command to send; "" once over. */
static char *next_text(const struct game *g)
{
	struct text t = { 0 };
	const char *who;

	if (game_over(g))
		return strdup("");
	who = game_player_to_move(g);
	if (game_user_is_robot(who)) {
		/* nobody sends the robot's turns (robot.h) */
		tprintf(&t, "It is %s's turn (turn %d, %s plays %s, %c): its answer comes by mail within minutes.\n", who,
		    g->rg.turn, who, colour_name(g->rg.to_move), symbol(g->rg.to_move));
		return tfinish(&t);
	}
	tprintf(&t, "It is %s's turn (turn %d, %s plays %s, %c). To play, send:\n\n", who, g->rg.turn, who,
	    colour_name(g->rg.to_move), symbol(g->rg.to_move));
	tprintf(&t, "    move %ld#%d %s <password> <placements>\n", g->board, g->rg.turn, who);
	if (g->swap && rules_game_can_swap(&g->rg)) {
		tprintf(&t, "\nor, to take over Black's stones instead (the pie rule), send:\n\n");
		tprintf(&t, "    swap %ld#%d %s <password>\n", g->board, g->rg.turn, who);
	}
	return tfinish(&t);
}


/*
 * "C1 (capturing A1 and B2), then E1": turn e's placements with the
 * stones each took; false (nothing written) if the history cannot be
 * replayed or memory runs out.
 */
static bool captures_text(struct text *t, const struct game *g, const struct game_turn *e)
{
	const int *p = game_turn_points(g, e);
	struct game_captures gc;
	char name[4];
	size_t idx;
	int i;

	if (game_captures(g, &gc) != GAME_OK)
		return false;
	for (i = 0; i < e->npoints; i++) {
		idx = e->first + (size_t)i;
		tprintf(t, "%s%s", i > 0 ? ", then " : "", rules_point_name(&g->rg.board, p[i], name));
		if (gc.n[idx] > 0) {
			tputs(t, " (capturing ");
			points_text(t, &g->rg.board, gc.stones + gc.first[idx], gc.n[idx]);
			tputs(t, ")");
		}
	}
	game_captures_release(&gc);
	return true;
}

/* Did g's players exchange colours (a swap among its turns)? */
static bool swapped(const struct game *g)
{
	int i;

	for (i = 0; i < g->nturns; i++)
		if (g->turns[i].action == GAME_SWAP)
			return true;
	return false;
}

/*
 * For a finished game: the command that starts a return game against the
 * same opponent, with every option of the game that ended: its size or hex
 * side, the reader's colour at its start (the challenger plays Black
 * unless told), the swap, the robot's level, rated or not, its own
 * reminder and time limit.  One line, never wrapped: it is to be copied.
 */
static char *rematch_text(const struct game *g, const char *reader)
{
	struct text t = { 0 };
	const char *opponent = strcmp(reader, g->black) == 0 ? g->white : g->black;
	bool was_black = (strcmp(reader, g->black) == 0) != swapped(g);
	size_t from;

	if (game_user_is_robot(reader))
		return strdup("");
	tputs(&t, "For a return game, send:\n\n    ");
	from = t.b.len;
	tprintf(&t, "challenge %s <password> %s ", reader, opponent);
	if (g->shape == RULES_HEX)
		tprintf(&t, "-hex=%d", g->size);
	else
		tprintf(&t, "-size=%d", g->size);
	if (!was_black)
		tputs(&t, " -white");
	if (!g->swap)
		tputs(&t, " -noswap");
	if (game_user_is_robot(opponent) && g->robot_level != 0)
		tprintf(&t, " -level=%d", g->robot_level);
	if (g->unrated)
		tputs(&t, " -unrated");
	if (g->remind_days > 0)
		tprintf(&t, " -remind=%d", g->remind_days);
	if (g->timeout_days > 0)
		tprintf(&t, " -timeout=%d", g->timeout_days);
	tglue_from(&t, from);
	tputs(&t, "\n");
	return tfinish(&t);
}

/*
 * The way out of an observer's mail that needs no password (RFC 2369
 * List-Unsubscribe, unsubtoken.h): the token of the reader and of what
 * they get the mail for, the board or every board.  Without the home's
 * secret the mail goes without it (and says so on stderr): a board mail is
 * not lost for it.
 */
static void unsub_make(struct reply_ctx *rc, const struct game *g, const struct reply_player *to, struct unsub *u)
{
	enum unsubtoken_status st;
	long scope = to->role == REPLY_ROLE_OBSERVER || to->role == REPLY_ROLE_NOTIFY ? g->board : 0;

	u->token[0] = u->header[0] = '\0';
	if (to->role == REPLY_ROLE_PLAYER)
		return;
	st = unsubtoken_make(rc->home, to->userid, scope, u->token);
	if (st == UNSUBTOKEN_OK && unsubtoken_header(rc->cfg->from_address, u->token, u->header))
		return;
	fprintf(stderr, "oustpbm: no List-Unsubscribe for %s: %s\n", to->userid, unsubtoken_status_str(st));
	u->token[0] = u->header[0] = '\0';
}

/*
 * An observer's line, in place of a player's move prompt or return game:
 * that they observe, and the command that stops it.
 */
static char *observing_text(const struct game *g, const struct reply_player *to, const struct unsub *u)
{
	struct text t = { 0 };

	switch (to->role) {
	case REPLY_ROLE_OBSERVER:
		tprintf(&t, "You observe board %ld (subscribe): this is a read-only view, you do not play on it.\n"
		    "To stop, send:\n\n    unsubscribe %ld %s <password>\n", g->board, g->board, to->userid);
		break;
	case REPLY_ROLE_NOTIFY:
		tprintf(&t, "You asked for the result of board %ld (notify); you do not play on it.\n"
		    "To stop, send:\n\n    notify %s <password> off %ld\n", g->board, to->userid, g->board);
		break;
	case REPLY_ROLE_WATCH_ALL:
		tprintf(&t, "You observe every board (subscribe ... all): this is a read-only view, you do not play "
		    "on board %ld.\nTo stop, send:\n\n    unsubscribe %s <password> all\n", g->board, to->userid);
		break;
	case REPLY_ROLE_WATCH_RESULTS:
		tprintf(&t, "You asked for the result of every board (notify); you do not play on board %ld.\n"
		    "To stop, send:\n\n    notify %s <password> off\n", g->board, to->userid);
		break;
	case REPLY_ROLE_PLAYER:
		break;
	}
	if (to->role != REPLY_ROLE_PLAYER && u->token[0] != '\0')
		tprintf(&t, "\nTo stop these mails, reply with the Subject below, or use your mail\nprogram's "
		    "unsubscribe button (no password needed):\n\n    unsubscribe %s\n", u->token);
	return tfinish(&t);
}

/* What the event did, one or more lines. */
static char *happened_text(const struct game *g, const struct reply_event *ev)
{
	struct text t = { 0 };
	const struct game_turn *e;
	enum rules_color c;
	int i;

	switch (ev->what) {
	case REPLY_CHALLENGE:
		/* the first line of the mail gives the board, its size, the swap and the colours */
		if (game_is_open(g)) {
			tprintf(&t, "%s offers an open challenge: a new game against whoever accepts it first%s; %s "
			    "plays %s, and Black moves first.\n", ev->actor, ev->random ?
			    " (the colours were drawn at random)" : "", ev->actor,
			    strcmp(ev->actor, g->black) == 0 ? "Black (x)" : "White (o)");
			break;
		}
		tprintf(&t, "%s challenges %s to a new game%s; Black moves first.\n", ev->actor,
		    strcmp(ev->actor, g->black) == 0 ? g->white : g->black,
		    ev->random ? " (the colours were drawn at random)" : "");
		if (g->robot_level != 0)
			tprintf(&t, "%s, the server's robot player, plays at level %d (of %d to %d).\n", GAME_ROBOT_USERID,
			    g->robot_level, GAME_ROBOT_LEVEL_MIN, GAME_ROBOT_LEVEL_MAX);
		break;
	case REPLY_MOVE:
		if (ev->first < 1 || ev->first > g->nturns)
			break;
		e = &g->turns[ev->first - 1];
		tprintf(&t, "Turn %d: %s played ", e->number, e->player);
		if (ev->captured == 0 || !captures_text(&t, g, e)) {
			placements_text(&t, g, e);
			if (ev->captured > 0)
				tprintf(&t, ", capturing %d stone%s", ev->captured, plural(ev->captured));
		}
		if (g->end == GAME_END_CAPTURE && ev->first == g->nturns && loser(g) != NULL)
			tprintf(&t, ", the last of %s's", loser(g));
		else if (ev->dead_end)
			tputs(&t, ", and had no placement left, so the turn ended there");
		if (ev->queued)
			tprintf(&t, " (a queued turn: %s's answer, given in advance, to that turn)", ev->actor);
		tputs(&t, ".\n");
		/* the passes that followed, up to the next change told */
		for (i = ev->first; i < (ev->then != NULL ? ev->then->first - 1 : g->nturns); i++) {
			e = &g->turns[i];
			if (e->action == GAME_PASS)
				tprintf(&t, "Turn %d: %s has no placement and passes.\n", e->number, e->player);
		}
		if (g->end == GAME_END_NO_PLACEMENTS && ev->then == NULL)
			tputs(&t, "Neither player can place any more: the game is drawn.\n");
		break;
	case REPLY_SWAP:
		c = game_color_of(g, ev->actor);
		tprintf(&t, "Turn %d: %s swapped (the pie rule): %s now owns the black stones (x), and %s "
		    "plays White (o).\n", ev->first, ev->actor, ev->actor,
		    game_player_of(g, c == RULES_BLACK ? RULES_WHITE : RULES_BLACK));
		break;
	case REPLY_RESIGN:
		tprintf(&t, "Turn %d: %s resigned.\n", ev->first, ev->actor);
		break;
	case REPLY_ACCEPT:
		tprintf(&t, "%s accepted the open challenge of %s: %s plays Black (x), %s White (o); Black moves "
		    "first.\n", ev->actor, strcmp(ev->actor, g->black) == 0 ? g->white : g->black, g->black, g->white);
		break;
	case REPLY_TIMEOUT:
		tprintf(&t, "Turn %d: %s did not play within %d day%s and lost on time.\n", ev->first, ev->actor,
		    ev->days, plural(ev->days));
		break;
	case REPLY_UNDO_ASKED:
	case REPLY_DRAW_PROPOSED:
		if (ev->what == REPLY_UNDO_ASKED && ev->first >= 1 && ev->first <= g->nturns) {
			e = &g->turns[ev->first - 1];
			tprintf(&t, "%s asks to take back turn %d (", ev->actor, ev->first);
			if (e->action == GAME_PLACE)
				placements_text(&t, g, e);
			else
				tputs(&t, game_action_str(e->action));
			tputs(&t, ").\n");
		} else {
			tprintf(&t, "%s proposes a draw.\n", ev->actor);
		}
		c = game_color_of(g, ev->actor);
		/* the command in the sentence is glued (REPLY_GLUE): never broken over two lines */
		tprintf(&t, "%s: to agree, send \"move\002%ld\002%s\002<password>\002accept\"; to decline, "
		    "\"...\002reject\". "
		    "A turn by either player lets the offer lapse.\n", game_player_of(g, RULES_OTHER(c)), g->board,
		    game_player_of(g, RULES_OTHER(c)));
		break;
	case REPLY_UNDO_ACCEPTED:
		tprintf(&t, "%s agreed to %s's undo: the turns from turn %d on are taken back, and %s plays turn %d "
		    "again.\n", ev->actor, ev->offerer, ev->first, ev->offerer, ev->first);
		break;
	case REPLY_UNDO_REJECTED:
		tprintf(&t, "%s declined %s's undo: the turns stand.\n", ev->actor, ev->offerer);
		break;
	case REPLY_DRAW_ACCEPTED:
		tprintf(&t, "%s accepted %s's offer of a draw.\n", ev->actor, ev->offerer);
		break;
	case REPLY_DRAW_REJECTED:
		tprintf(&t, "%s declined %s's offer of a draw: the game goes on.\n", ev->actor, ev->offerer);
		break;
	}
	if (ev->then != NULL) {
		char *more = happened_text(g, ev->then);

		if (more == NULL) {
			free(tfinish(&t));
			return NULL;
		}
		tputs(&t, more);
		free(more);
	}
	return tfinish(&t);
}

/* text with every line indented by two spaces (a player's words set apart), ending in a newline. */
static char *indented(const char *text)
{
	struct text t = { 0 };
	const char *p = text, *nl;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (nl > p)
			tputs(&t, "  ");
		tadd(&t, p, (size_t)(nl - p));
		tputs(&t, "\n");
		p = *nl != '\0' ? nl + 1 : nl;
	}
	return tfinish(&t);
}

/* "\nalice writes:\n  ...\n" for recipients other than the author; "" otherwise. */
static char *comment_text(const struct reply_event *ev, const char *recipient)
{
	struct text t = { 0 };
	char *said;

	/* the server's notice: a paragraph of its own, not a player's words */
	if (ev->notice != NULL && ev->notice[0] != '\0') {
		tprintf(&t, "\n%s\n", ev->notice);
		return tfinish(&t);
	}
	if (ev->comment == NULL || ev->comment[0] == '\0' || strcmp(recipient, ev->actor) == 0)
		return strdup("");
	said = indented(ev->comment);
	if (said == NULL)
		return NULL;
	tprintf(&t, "\n%s writes:\n\n%s", ev->actor, said);
	free(said);
	return tfinish(&t);
}

/* ---- the HTML alternative ---- */

/*
 * A preformatted block at any width (a phone's 400 CSS pixels): its prose
 * lines wrap at spaces only, never inside a word (the cell around it
 * breaks long words anywhere: not here); a line that starts with a space
 * (a command to copy, a history row, a drawing's row) is never wrapped,
 * and the block scrolls sideways when one is wider than the screen.
 */
#define PRE_STYLE "margin:6px 0;padding:8px;background:#f3eedf;color:#1a1a1a;font:13px/1.35 Menlo,Consolas," \
	"'DejaVu Sans Mono',monospace;white-space:pre-wrap;word-break:normal;overflow-wrap:normal;overflow-x:auto"
#define ROW_STYLE "white-space:pre"

/* html_escape() or html_text() of the text part's words: their REPLY_GLUE as the spaces they are. */
static void html_of_text(struct strbuf *b, const char *text, bool pre)
{
	char *copy = strdup(text);

	if (copy == NULL) {
		b->failed = true;
		return;
	}
	unglue(copy);
	if (pre)
		html_escape(b, copy);
	else
		html_text(b, copy);
	free(copy);
}

static void html_pre(struct strbuf *b, const char *text)
{
	const char *p = text, *nl;
	char *line;

	strbuf_puts(b, "<pre style=\"" PRE_STYLE "\">");
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		line = strndup(p, (size_t)(nl - p));
		if (line == NULL) {
			b->failed = true;
			break;
		}
		if (line[0] == ' ' || strchr(line, REPLY_GLUE) != NULL) {
			/* a command set apart goes without its indent: a phone has no columns to spare */
			bool command = strncmp(line, "    ", 4) == 0 && line[4] != ' ' && line[4] != '\0';

			strbuf_puts(b, "<span style=\"" ROW_STYLE "\">");
			html_of_text(b, command ? line + 4 : line, true);
			strbuf_puts(b, "</span>");
		} else {
			html_of_text(b, line, true);
		}
		free(line);
		if (*nl == '\0')
			break;
		strbuf_puts(b, "\n");
		p = nl + 1;
	}
	strbuf_puts(b, "</pre>\n");
}

/*
 * The text/html alternative of a mail about g (mail.html), into *out; *out
 * stays NULL when html_mail is off.
 */
static enum reply_status html_body(struct reply_ctx *rc, const struct game *g, const struct html_mail *hm,
    char **out)
{
	struct strbuf pieces[8] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	    STRBUF_INIT, STRBUF_INIT };
	enum { TITLE, INTRO, COMMENT, PLAYERS, BOARD, STATUS, NEXT, RECENT };
	static const char *const names[] = { "title", "intro", "comment", "players", "board", "status", "next",
	    "recent" };
	char *vals[8] = { NULL }, status[200], black[GAME_NAME_SIZE], white[GAME_NAME_SIZE], *next = NULL;
	struct html_board *hb = NULL;
	struct html_links *links = NULL;
	char *href = NULL;
	struct vars vs = { .n = 0 };
	enum reply_status st = REPLY_NOMEM;
	struct strbuf srv = STRBUF_INIT, addr = STRBUF_INIT;
	char *srvs = NULL, *addrs = NULL;
	int i;

	*out = NULL;
	if (strcmp(rc->cfg->html_mail, "off") == 0)
		return REPLY_OK;
	hb = malloc(sizeof *hb);
	if (hb == NULL)
		goto out;
	if (html_board_of_game(g, hm->upto, hb, black, white) != GAME_OK) {
		/* a board that cannot be drawn goes without its HTML */
		st = REPLY_OK;
		goto out;
	}
	html_escape(&pieces[TITLE], hm->title);
	if (hm->intro != NULL && hm->intro[0] != '\0') {
		strbuf_puts(&pieces[INTRO], "<p style=\"margin:0 0 10px\">");
		html_of_text(&pieces[INTRO], hm->intro, false);
		strbuf_puts(&pieces[INTRO], "</p>");
	}
	if (hm->html != NULL)
		strbuf_puts(&pieces[INTRO], hm->html);
	if (hm->send != NULL && hm->send[0] != '\0') {
		/* as the text part sets it apart: one line to copy, never broken */
		strbuf_puts(&pieces[INTRO], "\n<p style=\"margin:0\">Send this command instead:</p>");
		html_pre(&pieces[INTRO], hm->send);
	}
	if (hm->echo != NULL) {
		/* the command echoed, set apart as in the text part: kept whole when it is one */
		struct text t = { 0 };
		char *e;

		tprintf(&t, "%s%s\n", columns(hm->echo, strlen(hm->echo)) <= REPLY_WRAP ? "    " : "", hm->echo);
		e = tfinish(&t);
		if (e == NULL)
			goto out;
		strbuf_puts(&pieces[INTRO], "\n<p style=\"margin:0\">Your command (passwords masked):</p>");
		html_pre(&pieces[INTRO], e);
		free(e);
	}
	if (hm->stop != NULL && hm->stop[0] != '\0')
		html_pre(&pieces[INTRO], hm->stop);
	if (hm->comment != NULL && hm->comment[0] != '\0') {
		/* a user id (ident.h) needs no escaping; escaped all the same, as everything from outside */
		strbuf_puts(&pieces[COMMENT], "<p style=\"margin:0 0 4px\"><b>");
		html_escape(&pieces[COMMENT], hm->comment_by);
		strbuf_puts(&pieces[COMMENT], "</b> writes:</p>\n<blockquote style=\"margin:0 0 10px;padding:4px 10px;"
		    "border-left:3px solid #c9a24e;background:#faf6ea;color:#1a1a1a\">");
		html_text(&pieces[COMMENT], hm->comment);
		strbuf_puts(&pieces[COMMENT], "</blockquote>");
	}
	strbuf_printf(&pieces[PLAYERS], "<p style=\"margin:10px 0 0\"><span style=\"color:#111111\">&#9679;</span> "
	    "<b>%s</b> (Black, x) %d/%d &nbsp; <span style=\"color:#8a8a8a\">&#9675;</span> <b>%s</b> (White, o) "
	    "%d/%d <span style=\"color:#555555\">(largest group/stones)</span></p>", black, hb->largest[0],
	    hb->stones[0], white, hb->largest[1], hb->stones[1]);
	if (hm->ratings != NULL && hm->ratings[0] != '\0') {
		strbuf_puts(&pieces[PLAYERS], "\n<p style=\"margin:2px 0 0;font-size:13px;color:#555555\">");
		html_text(&pieces[PLAYERS], hm->ratings);
		strbuf_puts(&pieces[PLAYERS], "</p>");
	}
	/* a board wider than a phone (25x25 is about 600 pixels) scrolls in its box, the page does not */
	strbuf_puts(&pieces[BOARD], "<div style=\"overflow-x:auto;white-space:nowrap;word-break:normal;overflow-wrap:normal\">"
	    "<div style=\"width:max-content\">\n");
	if (hm->tap_subject != NULL) {
		/* tap.h: the board of the player to move, its placements links */
		links = malloc(sizeof *links);
		if (links == NULL || !tap_links(g, &g->rg, rc->cfg->from_address, hm->tap_subject, links, &href))
			goto out;
		html_board_table_links(&pieces[BOARD], hb, links);
		strbuf_puts(&pieces[BOARD], "</div></div>");
		tap_html_after(&pieces[BOARD], &g->rg, g->swap, href);
	} else {
		html_board_table(&pieces[BOARD], hb);
		strbuf_puts(&pieces[BOARD], "</div></div>");
	}
	if (hm->upto != g->nturns)
		strbuf_printf(&pieces[STATUS], "<p style=\"margin:0\">The position after turn %d of %d.</p>\n",
		    hm->upto, g->nturns);
	status_text(g, status, sizeof status);
	/* "Turn 8, bob (White, o) to move." or "Game over: alice won: bob resigned." */
	strbuf_printf(&pieces[STATUS], "<p style=\"margin:0 0 10px\"><b>%s%c%s.</b></p>", game_over(g) ? "Game over: " : "",
	    game_over(g) ? status[0] : toupper((unsigned char)status[0]), status + 1);
	if (hm->next && (!game_over(g) || hm->next_body != NULL)) {
		/* the command to send next; once over, the return game's (the text part's {rematch}) */
		next = hm->next_body != NULL ? strdup(hm->next_body) : next_text(g);
		if (next == NULL)
			goto out;
		if (next[0] != '\0')
			html_pre(&pieces[NEXT], next);
	}
	if (hm->recent != NULL && hm->recent[0] != '\0') {
		strbuf_puts(&pieces[RECENT], "<p style=\"margin:10px 0 0\">Turns:</p>\n");
		html_pre(&pieces[RECENT], hm->recent);
	}
	if (rc->cfg->web_url[0] != '\0') {
		/* web_url: the board's page, as the text part's last line (web_link) */
		const char *url = rc->cfg->web_url;

		strbuf_puts(&pieces[RECENT], "\n<p style=\"margin:10px 0 0\"><a style=\"color:#6b3d00\" href=\"");
		html_escape(&pieces[RECENT], url);
		strbuf_printf(&pieces[RECENT], "%sboard/%ld.html\">The board on the web</a></p>",
		    url[strlen(url) - 1] == '/' ? "" : "/", g->board);
	}
	for (i = 0; i < 8; i++) {
		vals[i] = strbuf_finish(&pieces[i]);
		if (vals[i] == NULL)
			goto out;
		var(&vs, names[i], vals[i]);
	}
	html_escape(&srv, rc->cfg->server_name);
	html_escape(&addr, rc->cfg->from_address);
	srvs = strbuf_finish(&srv);
	addrs = strbuf_finish(&addr);
	if (srvs == NULL || addrs == NULL)
		goto out;
	/* expand() adds these two as they are: the escaped ones come first and win */
	var(&vs, "server", srvs);
	var(&vs, "address", addrs);
	st = expand(rc, "mail.html", &vs, out);
	if (st == REPLY_TEMPLATE && rc->html_missing) {
		/* a templates directory from before mail.html: the text alone, as with html_mail = off */
		st = REPLY_OK;
	}
out:
	if (st == REPLY_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	for (i = 0; i < 8; i++) {
		strbuf_release(&pieces[i]);
		free(vals[i]);
	}
	free(srvs);
	free(addrs);
	free(next);
	free(hb);
	free(links);
	free(href);
	return st;
}

/* An observer's {next}: whose turn it is (never "your move"), then how to stop observing. */
static char *observer_next(const struct game *g, const struct reply_event *ev, const struct reply_player *to,
    const struct unsub *u)
{
	struct text t = { 0 };
	const char *who = game_player_to_move(g);
	enum rules_color c = g->rg.to_move;
	char *stop;

	if (game_is_open(g))
		tprintf(&t, "This is an open challenge of %s's: anyone may take it.\n", game_open_challenger(g));
	else
		tprintf(&t, "Turn %d: %s (%s, %c) to move.\n", g->rg.turn, who, colour_name(c), symbol(c));
	stop = observing_text(g, to, u);
	if (stop == NULL) {
		t.b.failed = true;
		return tfinish(&t);
	}
	tprintf(&t, "\n%s", stop);
	free(stop);
	(void)ev;
	return tfinish(&t);
}

/* "6 days 23 hours", "1 day", "5 hours", "less than an hour": secs (>= 0) down to the hour. */
static void duration_text(int64_t secs, char *buf, size_t size)
{
	int64_t days = secs / GAME_DAY, hours = secs % GAME_DAY / 3600;

	if (days == 0 && hours == 0)
		snprintf(buf, size, "less than an hour");
	else if (days == 0)
		snprintf(buf, size, "%lld hour%s", (long long)hours, hours == 1 ? "" : "s");
	else if (hours == 0)
		snprintf(buf, size, "%lld day%s", (long long)days, days == 1 ? "" : "s");
	else
		snprintf(buf, size, "%lld day%s %lld hour%s", (long long)days, days == 1 ? "" : "s", (long long)hours,
		    hours == 1 ? "" : "s");
}

/*
 * next (taken over: freed, or returned longer) and then, on a board with a
 * time limit (its own -timeout=, else timeout_days), the time left to the
 * player to move: to them (reader), "You have ..."; to anyone else, "bob
 * has ...".  NULL when out of memory.
 */
void reply_set_away(struct reply_ctx *rc, const struct vacation *v)
{
	memset(&rc->away, 0, sizeof rc->away);
	if (v != NULL)
		rc->away = *v;
}

static char *with_time_left(struct reply_ctx *rc, const struct game *g, const char *reader, char *next)
{
	int64_t at = game_timeout_at(g, rc->cfg->timeout_days), left, until, now = (int64_t)rc->now;
	char when[REPLY_TIME_SIZE], how[64], back[REPLY_TIME_SIZE];
	const char *who;
	bool you, away = false;
	struct text t = { 0 };

	if (next == NULL || at == 0)
		return next;
	who = game_player_to_move(g);
	you = reader != NULL && strcmp(who, reader) == 0;
	until = at;
	left = at - now;
	if (rc->away.userid[0] != '\0' && strcmp(rc->away.userid, who) == 0) {
		/* the clock stood still while they were away since the last turn (cleanup.c's clock_stopped) */
		left += vacation_stopped(&rc->away, g->last_move, now);
		away = vacation_away(&rc->away, now) && rc->away.start < at;
		/* away now: the time left waits for their return */
		until = away ? rc->away.end + left : now + left;
	}
	if (left < 0)
		left = 0;
	duration_text(left, how, sizeof how);
	tputs(&t, next);
	free(next);
	if (t.b.len > 0 && t.b.s[t.b.len - 1] != '\n')
		tputs(&t, "\n");
	if (t.b.len > 0)
		tputs(&t, "\n");
	if (away)
		tprintf(&t, "%s away until %s (vacation): the clock stands still until then.\n",
		    you ? "You are" : who, reply_time_str(rc->away.end, back));
	if (you)
		tprintf(&t, "You have %s to move, until %s: then the game is lost on time.\n", how,
		    reply_time_str(until, when));
	else
		tprintf(&t, "%s has %s to move, until %s.\n", who, how, reply_time_str(until, when));
	return tfinish(&t);
}

/* ---- the replies ---- */

/*
 * web_url set: a mail about a board ends with the address of the board's
 * page (web.h: board/<id>.html under the site).  *body (or given, when the
 * body is not from a template) is replaced by the text with the line added.
 */
static enum reply_status web_link(struct reply_ctx *rc, const struct game *g, char **body, const char *given)
{
	const char *text = *body != NULL ? *body : given, *url = rc->cfg->web_url;
	size_t n;
	char *out = NULL;

	if (text == NULL)
		return REPLY_OK;
	n = strlen(text);
	if (asprintf(&out, "%s%s\nThe board on the web: %s%sboard/%ld.html\n", text,
	    n > 0 && text[n - 1] != '\n' ? "\n" : "", url, url[strlen(url) - 1] == '/' ? "" : "/", g->board) < 0) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return REPLY_NOMEM;
	}
	free(*body);
	*body = out;
	return REPLY_OK;
}

static enum reply_status reply_finish(struct reply_ctx *rc, enum reply_status st, struct reply_parts *rp,
    struct reply_mail *out)
{
	char *body = NULL, *html = NULL;

	memset(out, 0, sizeof *out);
	if (st != REPLY_OK)
		goto out;
	assert((rp->tmpl != NULL) != (rp->body != NULL));
	assert(rp->hm == NULL || rp->g != NULL);
	if (rp->tmpl != NULL)
		st = expand(rc, rp->tmpl, &rp->vs, &body);
	if (st == REPLY_OK && rp->g != NULL && rc->cfg->web_url[0] != '\0')
		st = web_link(rc, rp->g, &body, rp->body);
	if (st == REPLY_OK && rp->hm != NULL)
		st = html_body(rc, rp->g, rp->hm, &html);
	if (st == REPLY_OK)
		st = compose(rc, rp, body != NULL ? body : rp->body, html, out);
out:
	if (st == REPLY_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	free(body);
	free(html);
	return st;
}

enum reply_status reply_game(struct reply_ctx *rc, const struct game *g, const struct reply_event *ev,
    const struct reply_player *to, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], board[24], size[8], turn[16], result[200], days[16], day_count[32];
	char dims[GAME_DIMENSIONS_SIZE];
	char *happened = NULL, *comment = NULL, *next = NULL, *hist = NULL;
	char *options = NULL, *next_html = NULL, *rematch = NULL, *last_turns = NULL, *intro = NULL;
	struct html_mail hm = { .title = subject, .upto = g->nturns, .next = true };
	struct reply_parts rp = { .subject = subject, .to_addr = to->address, .to_name = to->fullname, .g = g,
	    .hm = &hm, .id_board = g->board, .id_turn = g->nturns, .id_user = to->userid };
	enum reply_status st = REPLY_NOMEM;
	bool observer = to->role != REPLY_ROLE_PLAYER;
	struct unsub unsub;

	unsub_make(rc, g, to, &unsub);
	if (unsub.header[0] != '\0')
		rp.list_unsubscribe = unsub.header;
	board_render_game(g, drawing);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	snprintf(turn, sizeof turn, "%d", g->rg.turn);
	if (ev->what == REPLY_CHALLENGE)
		snprintf(subject, sizeof subject, "New Oust Board %ld %s", g->board,
		    game_is_open(g) ? "open" : game_player_to_move(g));
	else
		status_subject(g, subject, sizeof subject);
	if (to->token != NULL && to->token[0] != '\0' && !observer && !game_over(g) && !game_is_open(g)) {
		/* the reply token and the turn it was written for (mail/token.h): a reply plays */
		if (ev->part > 0)
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d.%d [%s]",
			    g->rg.turn, ev->part, to->token);
		else
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d [%s]", g->rg.turn,
			    to->token);
		if (strcmp(game_player_to_move(g), to->userid) == 0)
			hm.tap_subject = subject;
	}
	happened = happened_text(g, ev);
	/* the players' words are for each other: an observer reads the board, not them */
	comment = observer ? strdup("") : comment_text(ev, to->userid);
	if (happened == NULL || comment == NULL)
		goto out;
	if (ev->note != NULL && ev->note_to != NULL && strcmp(ev->note_to, to->userid) == 0) {
		/* for that player alone: the other one never learns what was queued */
		char *more = malloc(strlen(happened) + strlen(ev->note) + 2);

		if (more == NULL)
			goto out;
		sprintf(more, "%s%s\n", happened, ev->note);
		free(happened);
		happened = more;
	}
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "happened", happened);
	var(&rp.vs, "comment", comment);
	var(&rp.vs, "drawing", drawing);
	var(&rp.vs, "ratings", ev->ratings != NULL ? ev->ratings : "");
	if (game_over(g)) {
		result_text(g, result, sizeof result);
		hist = history_text(g, 0, true);
		if (observer) {
			rematch = observing_text(g, to, &unsub);
		} else if (ev->closed) {
			/* no challenge to an account that is gone */
			rematch = malloc(strlen(ev->actor) + 64);
			if (rematch != NULL)
				sprintf(rematch, "There is no return game: %s closed the account.\n", ev->actor);
		} else {
			rematch = rematch_text(g, to->userid);
		}
		if (hist == NULL || rematch == NULL)
			goto out;
		var(&rp.vs, "result", result);
		var(&rp.vs, "history", hist);
		var(&rp.vs, "rematch", rematch);
		hm.next_body = rematch;	/* the HTML shows it too */
		if (ev->what == REPLY_TIMEOUT) {
			/* the time-loss wording is its own template */
			snprintf(days, sizeof days, "%d", ev->days);
			snprintf(day_count, sizeof day_count, "%d day%s", ev->days, ev->days == 1 ? "" : "s");
			var(&rp.vs, "loser", ev->actor);
			var(&rp.vs, "days", days);
			var(&rp.vs, "day_count", day_count);
			rp.tmpl = "timeout";
		} else {
			rp.tmpl = "end";
		}
	} else {
		next = with_time_left(rc, g, observer ? NULL : to->userid,
		    observer ? observer_next(g, ev, to, &unsub) : next_for(g, ev, to->userid));
		if (next != NULL && hm.tap_subject != NULL) {
			char *more = malloc(strlen(next) + 200);

			if (more != NULL)
				sprintf(more, "%s\nOr reply to this mail with your placements alone (D4, or D3,F6):\n"
				    "its Subject stands for your password.\n", next);
			free(next);
			next = more;
		}
		options = observer ? strdup("") : options_text(g, to->userid);
		hist = history_text(g, REPLY_RECENT, false);
		if (next == NULL || options == NULL || hist == NULL)
			goto out;
		var(&rp.vs, "turn", turn);
		var(&rp.vs, "swap", g->swap ? "on" : "off");
		var(&rp.vs, "next", next);
		var(&rp.vs, "options", options);
		/* a new board has no turns to list: the section is left out */
		last_turns = g->nturns > 0 ? malloc(strlen(hist) + 20) : strdup("");
		if (last_turns == NULL)
			goto out;
		if (g->nturns > 0)
			sprintf(last_turns, "Last turns:\n%s\n", hist);
		var(&rp.vs, "last_turns", last_turns);
		var(&rp.vs, "recent", hist);
		rp.tmpl = "game";
	}
	hm.intro = happened;
	hm.ratings = ev->ratings;
	if (ev->notice != NULL && ev->notice[0] != '\0') {
		/* the server's words go with what happened, not as a player's comment */
		intro = malloc(strlen(happened) + strlen(ev->notice) + 2);
		if (intro == NULL)
			goto out;
		sprintf(intro, "%s\n%s", happened, ev->notice);
		hm.intro = intro;
	} else if (ev->comment != NULL && strcmp(to->userid, ev->actor) != 0 && !observer) {
		hm.comment_by = ev->actor;
		hm.comment = ev->comment;
	}
	if (next != NULL) {
		/* the reader's own words and options, as in the text */
		next_html = malloc(strlen(next) + strlen(options) + 2);
		if (next_html == NULL)
			goto out;
		sprintf(next_html, "%s%s%s", next, options[0] != '\0' ? "\n" : "", options);
		if (options[0] != '\0')
			next_html[strlen(next_html) - 1] = '\0';	/* the blank line after the options */
		hm.next_body = next_html;
	}
	hm.recent = hist;
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(happened);
	free(comment);
	free(next);
	free(options);
	free(next_html);
	free(rematch);
	free(intro);
	free(last_turns);
	free(hist);
	return st;
}

/*
 * Where a turn refused in its middle stopped (reply_error_at): the
 * placements made before the refusal with what each captured, the board
 * there (this turn's stones in upper case), and what may follow: the
 * placements open there, or, when the turn was already over, the command
 * that plays it up to its end.  Plain text, the drawing kept as it is
 * (REPLY_VERBATIM) unless plain; NULL when out of memory.
 */
static char *stop_text(const struct game *g, const struct reply_stop *stop, bool plain)
{
	struct rules_game *rg = NULL;
	struct rules_board *b = NULL;	/* b[0] before a placement, b[1] scratch */
	struct place_xy *caps = NULL, *others = NULL;
	uint16_t *legal = NULL;
	int *taken = NULL, i, n, k, q, ncaps = 0, nothers = 0;
	enum rules_color c = g->rg.to_move;
	const char *who = game_player_to_move(g);
	char drawing[BOARD_TEXT_MAX], name[4], *kept;
	struct text t = { 0 };
	struct rules_event ev;
	struct rules_check chk;

	rg = malloc(sizeof *rg);
	b = malloc(2 * sizeof *b);
	legal = malloc(RULES_MAX_POINTS * sizeof *legal);
	taken = malloc(RULES_MAX_POINTS * sizeof *taken);
	caps = malloc(RULES_MAX_POINTS * sizeof *caps);
	others = malloc(RULES_MAX_POINTS * sizeof *others);
	if (rg == NULL || b == NULL || legal == NULL || taken == NULL || caps == NULL || others == NULL || who == NULL) {
		t.b.failed = true;
		goto out;
	}
	*rg = g->rg;
	tprintf(&t, "Where your turn stopped: after ");
	for (i = 0; i < stop->k; i++) {
		b[0] = rg->board;
		if (!rules_is_legal(rules_game_play(rg, stop->points[i], &ev))) {
			t.b.failed = true;	/* the rules refused what they reported as made */
			goto out;
		}
		for (n = 0, q = 0; q < b[0].ncells; q++)
			if (rules_at(&b[0], q) == RULES_OTHER(c) && rules_at(&rg->board, q) == RULES_EMPTY)
				taken[n++] = q;
		tprintf(&t, "%s%s", i > 0 ? ", then " : "", rules_point_name(&rg->board, stop->points[i], name));
		if (n > 0) {
			tputs(&t, " (capturing ");
			points_text(&t, &rg->board, taken, n);
			tputs(&t, ")");
		} else {
			tputs(&t, " (capturing nothing)");
		}
	}
	tputs(&t, ". The board there, this turn's stones in upper case:\n\n");
	board_render(&rg->board, g->black, g->white, stop->points, stop->k, drawing);
	kept = plain ? strdup(drawing) : verbatim(drawing);
	if (kept == NULL) {
		t.b.failed = true;
		goto out;
	}
	tputs(&t, kept);
	free(kept);
	tputs(&t, "\n");
	if (stop->ended) {
		/* the turn was over there: a win, a capture with no placement left, or no capture */
		rules_point_name(&rg->board, stop->points[stop->k - 1], name);
		if (rg->result == RULES_BLACK_WINS || rg->result == RULES_WHITE_WINS)
			tprintf(&t, "%s took the last of %s's stones: that wins the game, and the turn ends there. "
			    "To win, send the turn without the placements after it:\n\n    ", name,
			    game_player_of(g, RULES_OTHER(c)));
		else if (ev.dead_end)
			tprintf(&t, "Your turn ended with %s: after that capture no placement was left. To play the "
			    "turn up to there, send:\n\n    ", name);
		else
			tprintf(&t, "Your turn ended with %s: only a capture lets you place again. To play the turn "
			    "up to there, send:\n\n    ", name);
		n = (int)t.b.len;
		tprintf(&t, "move %ld#%d %s <password> ", g->board, g->rg.turn, who);
		for (i = 0; i < stop->k; i++)
			tprintf(&t, "%s%s", i > 0 ? "," : "", rules_point_name(&g->rg.board, stop->points[i], name));
		tglue_from(&t, (size_t)n);
		tputs(&t, "\n\n");
		goto out;
	}
	n = rules_legal(&rg->board, c, legal);
	for (i = 0; i < n; i++) {
		struct place_xy *to = rules_check(&rg->board, c, legal[i], &chk) == RULES_CAPTURE ?
		    &caps[ncaps++] : &others[nothers++];

		to->p = legal[i];
		to->x = rules_x(&rg->board, legal[i]);
		to->y = rules_y(&rg->board, legal[i]);
	}
	qsort(caps, (size_t)ncaps, sizeof *caps, rg->board.shape == RULES_HEX ? by_row : by_column);
	qsort(others, (size_t)nothers, sizeof *others, rg->board.shape == RULES_HEX ? by_row : by_column);
	tputs(&t, "There you place again.");
	if (ncaps > 0) {
		tprintf(&t, " Your capturing placement%s (after each you place again):\n", plural(ncaps));
		for (i = 0; i < ncaps && i < REPLY_OPTIONS_MAX; i++) {
			k = taken_by(&rg->board, c, caps[i].p, &b[1], taken);
			tprintf(&t, "  %s takes ", rules_point_name(&rg->board, caps[i].p, name));
			points_text(&t, &rg->board, taken, k);
			tputs(&t, "\n");
		}
		if (ncaps > REPLY_OPTIONS_MAX)
			tprintf(&t, "  and %d more\n", ncaps - REPLY_OPTIONS_MAX);
	} else {
		tputs(&t, " No placement there captures.\n");
	}
	if (nothers > 0) {
		tprintf(&t, "%s placement%s that end%s the turn: ", ncaps > 0 ? "Or one of the" : "The", plural(nothers),
		    nothers == 1 ? "s" : "");
		for (i = 0; i < nothers && i < REPLY_OPTIONS_MAX; i++)
			tprintf(&t, "%s%s", i > 0 ? ", " : "", rules_point_name(&rg->board, others[i].p, name));
		if (nothers > REPLY_OPTIONS_MAX)
			tprintf(&t, " and %d more", nothers - REPLY_OPTIONS_MAX);
		tputs(&t, ".\n");
	}
	tputs(&t, "\n");
out:
	free(rg);
	free(b);
	free(legal);
	free(taken);
	free(caps);
	free(others);
	return tfinish(&t);
}

/*
 * An error "why. Send: the command" (or "why? Send: ...") as its parts:
 * the reason, ending with its punctuation ('.' added when it has none),
 * and the command to send as a paragraph of its own ("" when there is
 * none), indented as the echoed command is, so it can be copied without
 * a full stop stuck to it.  False when a part does not fit.
 */
static bool split_send(const char *error, char *why, size_t wsize, char *send, size_t ssize)
{
	const char *at = NULL, *p = error;
	char *q;
	size_t n, w;

	while ((p = strstr(p, " Send: ")) != NULL) {
		if (p > error && (p[-1] == '.' || p[-1] == '?'))
			at = p;
		p++;
	}
	n = at != NULL ? (size_t)(at - error) : strlen(error);
	if (n > 0 && error[n - 1] == '.')
		n--;
	w = (size_t)snprintf(why, wsize, "%.*s%s", (int)n, error,
	    n > 0 && (error[n - 1] == '?' || error[n - 1] == '!') ? "" : ".");
	if (w >= wsize)
		return false;
	send[0] = '\0';
	if (at == NULL)
		return true;
	w = (size_t)snprintf(send, ssize, "\nSend this command instead:\n\n    %s\n", at + 7);
	if (w >= ssize)
		return false;
	/* the command to copy stands on one line, never broken */
	for (q = send + strlen("\nSend this command instead:\n\n    "); *q != '\0' && *q != '\n'; q++)
		if (*q == ' ')
			*q = REPLY_GLUE;
	return true;
}

enum reply_status reply_error(struct reply_ctx *rc, const char *to_addr, const char *to_name, long board,
    const struct game *g, const char *command, const char *error, struct reply_mail *out)
{
	return reply_error_at(rc, to_addr, to_name, board, g, NULL, command, error, out);
}

enum reply_status reply_error_at(struct reply_ctx *rc, const char *to_addr, const char *to_name, long board,
    const struct game *g, const struct reply_stop *stop, const char *command, const char *error,
    struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], status[200];
	struct text t = { 0 };
	enum reply_status st = REPLY_NOMEM;
	char *section = NULL, *kept, intro[REPLY_NOTE_MAX + REPLY_ERR_MAX + 64];
	char why[REPLY_ERR_MAX], send[REPLY_ERR_MAX + 40], *stopped = NULL, *stopped_plain = NULL, *note = NULL;
	struct html_mail hm = { .title = subject };
	struct reply_parts rp = { .tmpl = "error", .subject = subject, .to_addr = to_addr, .to_name = to_name,
	    .g = g };

	if (board > 0)
		snprintf(subject, sizeof subject, "Oust Board %ld error", board);
	else
		snprintf(subject, sizeof subject, "Oust error");
	if (rc->error_token != NULL && g != NULL && g->board == board && !game_over(g)) {
		int part = 0;
		const char *p;

		/* a turn begun by reply (game.h's pending): its part counted, and no links from the board before it */
		/* the part is the mover's alone: the opponent never learns of it */
		for (p = g->pending; *p != '\0' && strcmp(game_player_to_move(g), rc->error_player) == 0; p++)
			part += p == g->pending || *p == ',';
		if (part > 0)
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d.%d [%s]", g->rg.turn,
			    part, rc->error_token);
		else
			snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d [%s]", g->rg.turn,
			    rc->error_token);
		if (part == 0 && strcmp(game_player_to_move(g), rc->error_player) == 0)
			hm.tap_subject = subject;
	}
	if (g != NULL) {
		board_render_game(g, drawing);
		status_text(g, status, sizeof status);
		kept = verbatim(drawing);	/* reply_wrap leaves the drawing as it is */
		if (kept == NULL)
			goto out;
		if (stop != NULL && stop->k > 0) {
			/* the position where the turn stopped first, then the board as it stands */
			stopped = stop_text(g, stop, false);
			stopped_plain = stop_text(g, stop, true);
			if (stopped == NULL || stopped_plain == NULL) {
				free(kept);
				goto out;
			}
			tputs(&t, stopped);
		}
		tprintf(&t, "Board %ld now (%s)%s:\n\n%s", g->board, status, stopped != NULL ? ", before your turn" : "",
		    kept);
		free(kept);
	}
	section = tfinish(&t);
	if (section == NULL)
		goto out;
	if (!split_send(error, why, sizeof why, send, sizeof send))
		goto out;
	/* a reply to an old board mail: the note, then the board, and the command to send only after them */
	if (g != NULL && rc->note[0] != '\0') {
		struct text nt = { 0 };

		tprintf(&nt, "%s\n\n%s\n", rc->note, section);
		note = tfinish(&nt);
		if (note == NULL)
			goto out;
		section[0] = '\0';
	}
	var(&rp.vs, "note_section", note != NULL ? note : "");
	var(&rp.vs, "error", why);
	var(&rp.vs, "send_section", send);
	var(&rp.vs, "command", command != NULL && command[0] != '\0' ? command : "(no command found)");
	var(&rp.vs, "board_section", section);
	if (g != NULL) {
		/* the text part's parts: the note on an old mail, the reason, the command
		 * to send set apart, the command echoed */
		snprintf(intro, sizeof intro, "%s%s%s", rc->note, rc->note[0] != '\0' ? "\n" : "", why);
		hm.intro = intro;
		hm.echo = command != NULL && command[0] != '\0' ? command : "(no command found)";
		hm.send = send[0] != '\0' ? strstr(send, "    ") : NULL;
		hm.stop = stopped_plain;
		hm.upto = g->nturns;
		rp.hm = &hm;
	}
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(stopped);
	free(stopped_plain);
	free(section);
	free(note);
	return st;
}

enum reply_status reply_show_body(struct reply_ctx *rc, const struct game *g, int upto, const char *drawing,
    char **body)
{
	char now[BOARD_TEXT_MAX], status[200], title[400], dims[GAME_DIMENSIONS_SIZE], now_text[300];
	char *next = NULL, *hist = NULL;
	struct vars vs = { .n = 0 };
	enum reply_status st = REPLY_NOMEM;
	char board[24];

	*body = NULL;
	snprintf(board, sizeof board, "%ld", g->board);
	status_text(g, status, sizeof status);
	if (drawing == NULL) {
		board_render_game(g, now);
		drawing = now;
		snprintf(title, sizeof title, "Oust board %ld (%s, swap %s): %s.", g->board,
		    game_dimensions(g, false, dims), g->swap ? "on" : "off", status);
		now_text[0] = '\0';
	} else {
		/* a past position: the present (and what to send now) is kept apart, at the end */
		snprintf(title, sizeof title, "Oust board %ld (%s, swap %s): the position after turn %d of %d.",
		    g->board, game_dimensions(g, false, dims), g->swap ? "on" : "off", upto, g->nturns);
		snprintf(now_text, sizeof now_text, "Board %ld now: %s. Send \"show %ld\" for the board as it is.\n\n",
		    g->board, status, g->board);
	}
	next = drawing == now ? with_time_left(rc, g, NULL, next_text(g)) : strdup("");
	if (next != NULL && next[0] != '\0') {
		/* a blank line after the command to send, none when there is none */
		char *more = realloc(next, strlen(next) + 2);

		if (more == NULL)
			goto out;
		next = more;
		strcat(next, "\n");
	}
	/* show 101#5: the turns that led to the position shown, not the game's last ones */
	hist = history_upto(g, upto, REPLY_RECENT, false);
	if (next == NULL || hist == NULL)
		goto out;
	var(&vs, "board", board);
	var(&vs, "title", title);
	var(&vs, "status", status);
	var(&vs, "drawing", drawing);
	var(&vs, "next", next);
	var(&vs, "recent", hist);
	var(&vs, "now", now_text);
	st = expand(rc, "show", &vs, body);
out:
	if (st == REPLY_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	free(next);
	free(hist);
	return st;
}

enum reply_status reply_show(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, int upto, const char *drawing, struct reply_mail *out)
{
	enum reply_status st;
	char subject[200], *body = NULL, *hist = NULL;
	/* a past position is kept apart from what to send now */
	struct html_mail hm = { .title = subject, .upto = drawing == NULL ? g->nturns : upto,
	    .next = drawing == NULL };
	struct reply_parts rp = { .subject = subject, .to_addr = to_addr, .to_name = to_name, .g = g, .hm = &hm };

	status_subject(g, subject, sizeof subject);
	st = reply_show_body(rc, g, upto, drawing, &body);
	if (st == REPLY_OK) {
		/* the turns the text part lists: up to the position shown (show 101#3), none later */
		hist = history_upto(g, upto, REPLY_RECENT, false);
		if (hist == NULL)
			st = REPLY_NOMEM;
	}
	rp.body = body;
	hm.recent = hist;
	st = reply_finish(rc, st, &rp, out);
	free(body);
	free(hist);
	return st;
}

enum reply_status reply_reminder(struct reply_ctx *rc, const struct game *g, const struct reply_player *to,
    int days, int64_t timeout_at, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], board[24], size[8], turn[16], ndays[16], last[REPLY_TIME_SIZE];
	char day_count[32];
	char dims[GAME_DIMENSIONS_SIZE];
	char deadline[GAMEFILE_TIME_SIZE + 100], id_user[GAME_NAME_SIZE + 16];
	char *next = NULL, *hist = NULL, intro[GAMEFILE_TIME_SIZE + 300];
	struct html_mail hm = { .title = subject, .intro = intro, .upto = g->nturns, .next = true };
	/* its own Message-ID: <101.7.bob.reminder.T@domain>, threaded under the board */
	struct reply_parts rp = { .tmpl = "remind", .subject = subject, .to_addr = to->address,
	    .to_name = to->fullname, .g = g, .hm = &hm, .id_board = g->board, .id_turn = g->nturns,
	    .id_user = id_user };
	enum reply_status st = REPLY_NOMEM;

	board_render_game(g, drawing);
	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	snprintf(turn, sizeof turn, "%d", g->rg.turn);
	snprintf(ndays, sizeof ndays, "%d", days);
	snprintf(day_count, sizeof day_count, "%d day%s", days, days == 1 ? "" : "s");
	snprintf(subject, sizeof subject, "Oust Board %ld reminder %s", g->board, to->userid);
	snprintf(id_user, sizeof id_user, "%s.reminder", to->userid);
	reply_time_str(g->last_move, last);
	deadline[0] = '\0';
	if (timeout_at > 0) {
		char t[REPLY_TIME_SIZE];

		snprintf(deadline, sizeof deadline, "If you have not played by %s, you lose the game on time.\n",
		    reply_time_str(timeout_at, t));
	}
	snprintf(intro, sizeof intro, "You have not played on board %ld since %s UTC (%d day%s).%s%s", g->board,
	    last, days, plural(days), deadline[0] != '\0' ? "\n" : "", deadline);
	next = next_text(g);
	hist = history_text(g, REPLY_RECENT, false);
	if (next == NULL || hist == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "turn", turn);
	var(&rp.vs, "userid", to->userid);
	var(&rp.vs, "days", ndays);
	var(&rp.vs, "day_count", day_count);
	var(&rp.vs, "last_move", last);
	var(&rp.vs, "deadline", deadline);
	var(&rp.vs, "next", next);
	var(&rp.vs, "drawing", drawing);
	var(&rp.vs, "recent", hist);
	hm.recent = hist;
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(next);
	free(hist);
	return st;
}

enum reply_status reply_history(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, struct reply_mail *out)
{
	char drawing[BOARD_TEXT_MAX], subject[200], status[200], board[24], size[8], created[REPLY_TIME_SIZE];
	char dims[GAME_DIMENSIONS_SIZE];
	char *hist = NULL;
	struct html_mail hm = { .title = subject, .upto = g->nturns };
	struct reply_parts rp = { .tmpl = "history", .subject = subject, .to_addr = to_addr, .to_name = to_name,
	    .g = g, .hm = &hm };
	enum reply_status st = REPLY_NOMEM;

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(size, sizeof size, "%d", g->size);
	status_subject(g, subject, sizeof subject);
	status_text(g, status, sizeof status);
	board_render_game(g, drawing);
	reply_time_str(g->created, created);
	hist = history_text(g, 0, true);
	if (hist == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "size", size);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "swap", g->swap ? "on" : "off");
	var(&rp.vs, "created", created);
	var(&rp.vs, "status", status);
	var(&rp.vs, "history", hist);
	var(&rp.vs, "drawing", drawing);
	hm.recent = hist;
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(hist);
	return st;
}

enum reply_status reply_sgf(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, const char *sgf, size_t len, struct reply_mail *out)
{
	char subject[200], status[200], board[24], filename[40], turns[16], dims[GAME_DIMENSIONS_SIZE];
	struct reply_file file = { .data = sgf, .len = len, .type = SGF_MIME_TYPE, .name = filename };
	struct reply_parts rp = { .tmpl = "sgf", .subject = subject, .to_addr = to_addr, .to_name = to_name,
	    .g = g, .file = &file };

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld record", g->board);
	snprintf(filename, sizeof filename, "oust-%ld.sgf", g->board);
	snprintf(turns, sizeof turns, "%d", g->nturns);
	status_text(g, status, sizeof status);
	var(&rp.vs, "board", board);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "turns", turns);
	var(&rp.vs, "status", status);
	var(&rp.vs, "filename", filename);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_review(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, const struct reply_review *rv, struct reply_mail *out)
{
	char subject[200], status[200], board[24], filename[48], turns[16], dims[GAME_DIMENSIONS_SIZE];
	char mistake[8], blunder[8];
	struct reply_file file = { .data = rv->sgf, .len = rv->sgf_len, .type = SGF_MIME_TYPE, .name = filename };
	struct html_mail hm = { .title = subject, .upto = g->nturns, .html = rv->chart_html };
	struct reply_parts rp = { .tmpl = "review", .subject = subject, .to_addr = to_addr, .to_name = to_name,
	    .g = g, .hm = &hm, .file = &file };

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld review", g->board);
	snprintf(filename, sizeof filename, "oust-%ld-review.sgf", g->board);
	snprintf(turns, sizeof turns, "%d", g->nturns);
	snprintf(mistake, sizeof mistake, "%d", (int)(REVIEW_MISTAKE_DROP * 100 + 0.5));
	snprintf(blunder, sizeof blunder, "%d", (int)(REVIEW_BLUNDER_DROP * 100 + 0.5));
	status_text(g, status, sizeof status);
	hm.intro = rv->how;
	hm.stop = rv->worst;
	var(&rp.vs, "board", board);
	var(&rp.vs, "dimensions", game_dimensions(g, false, dims));
	var(&rp.vs, "black", g->black);
	var(&rp.vs, "white", g->white);
	var(&rp.vs, "turns", turns);
	var(&rp.vs, "status", status);
	var(&rp.vs, "how", rv->how);
	var(&rp.vs, "mistake", mistake);
	var(&rp.vs, "blunder", blunder);
	var(&rp.vs, "drawing", rv->table);
	var(&rp.vs, "worst", rv->worst);
	var(&rp.vs, "filename", filename);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_review_queued(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, int ahead, struct reply_mail *out)
{
	char subject[200], board[24], waiting[80], turns[16], minutes[24];
	struct reply_parts rp = { .tmpl = "reviewqueued", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name, .g = g };

	snprintf(board, sizeof board, "%ld", g->board);
	snprintf(subject, sizeof subject, "Oust Board %ld review queued", g->board);
	snprintf(turns, sizeof turns, "%d", g->nturns);
	if (ahead == 0)
		snprintf(waiting, sizeof waiting, "no other review waits before it");
	else
		snprintf(waiting, sizeof waiting, "%d other review%s wait%s before it", ahead, ahead == 1 ? "" : "s",
		    ahead == 1 ? "s" : "");
	var(&rp.vs, "board", board);
	var(&rp.vs, "turns", turns);
	var(&rp.vs, "waiting", waiting);
	/* the robot's cron run comes every 5 minutes (scripts/crontab); each review before takes its time */
	snprintf(minutes, sizeof minutes, "%lu",
	    5 + ((unsigned long)ahead + 1) * rc->cfg->review_seconds / 60 + 1);
	var(&rp.vs, "minutes", minutes);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

const char *reply_games_filter_str(enum reply_games_filter f)
{
	switch (f) {
	case REPLY_GAMES_ALL: return "all";
	case REPLY_GAMES_ACTIVE: return "active";
	case REPLY_GAMES_NEXT: return "next";
	case REPLY_GAMES_FINISHED: return "finished";
	}
	return "all";
}

bool reply_games_filter_parse(const char *word, enum reply_games_filter *out)
{
	enum reply_games_filter f;

	for (f = REPLY_GAMES_ALL; f <= REPLY_GAMES_FINISHED; f++)
		if (strcasecmp(word, reply_games_filter_str(f)) == 0) {
			*out = f;
			return true;
		}
	return false;
}

/* Does g pass filter f for userid? */
static bool games_pass(const struct game *g, const char *userid, enum reply_games_filter f)
{
	switch (f) {
	case REPLY_GAMES_ACTIVE:
		return !game_over(g);
	case REPLY_GAMES_NEXT:
		return !game_over(g) && strcmp(game_player_to_move(g), userid) == 0;
	case REPLY_GAMES_FINISHED:
		return game_over(g);
	case REPLY_GAMES_ALL:
		break;
	}
	return true;
}

enum reply_status reply_games(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const char *userid, bool own, enum reply_games_filter filter, const struct game *games, size_t n,
    const char *away, struct reply_mail *out)
{
	char subject[200], status[200], who[100], count[32], row[400], which[200];
	size_t indent;
	struct text t = { 0 };
	struct reply_parts rp = { .tmpl = "games", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name };
	enum reply_status st = REPLY_NOMEM;
	char *list = NULL;
	size_t i, playing = 0, shown = 0, skip;
	int width = 7;

	snprintf(subject, sizeof subject, "Oust games %s", userid);
	for (i = 0; i < n; i++) {
		int w = (int)(strlen(games[i].black) + strlen(games[i].white) + 11);

		if (games_pass(&games[i], userid, filter))
			width = w > width ? w : width;
	}
	for (i = 0; i < n; i++) {
		if (!game_over(&games[i]))
			playing++;
		if (games_pass(&games[i], userid, filter))
			shown++;
	}
	switch (filter) {
	case REPLY_GAMES_ALL:
		which[0] = '\0';	/* all of them: nothing to say */
		break;
	case REPLY_GAMES_ACTIVE:
		snprintf(which, sizeof which, "\nBeing played (games %s active): %zu\n", userid, shown);
		break;
	case REPLY_GAMES_NEXT:
		snprintf(which, sizeof which, "\nWhere it is %s's move (games %s next): %zu\n", userid, userid, shown);
		break;
	case REPLY_GAMES_FINISHED:
		snprintf(which, sizeof which, "\nFinished (games %s finished): %zu\n", userid, shown);
		break;
	}
	if (shown > 0)
		tprintf(&t, "  %-9s  %-5s  %-*s  %s\n", "board", "size", width, "players", "state");
	/* a long list is cut to the newest boards: the reply stays a mail, not a file */
	skip = shown > REPLY_GAMES_MAX ? shown - REPLY_GAMES_MAX : 0;
	for (i = 0; i < n; i++) {
		const struct game *g = &games[i];
		char size[16];

		if (!games_pass(g, userid, filter) || (skip > 0 && skip--))
			continue;
		game_dimensions(g, true, size);
		snprintf(who, sizeof who, "%s (x) - %s (o)", g->black, g->white);
		if (game_over(g))
			result_text(g, status, sizeof status);
		else if (game_is_open(g))
			snprintf(status, sizeof status, "open challenge: waiting for a player (accept %ld)", g->board);
		else
			snprintf(status, sizeof status, "turn %d, %s to move%s", g->rg.turn, game_player_to_move(g),
			    own && strcmp(game_player_to_move(g), userid) == 0 ? ": your move" : "");
		/* a long state goes on under its own column (wrap_line), not under the board's */
		snprintf(row, sizeof row, "  %-9ld  %-5s  %-*s  ", g->board, size, width, who);
		indent = columns(row, strlen(row));
		snprintf(row + strlen(row), sizeof row - strlen(row), "%s", status);
		wrap_line(&t, row, strlen(row), indent);
		tputs(&t, "\n");
	}
	if (shown > REPLY_GAMES_MAX)
		tprintf(&t, "  (the %zu older boards are not listed: only the newest %d are)\n",
		    shown - (size_t)REPLY_GAMES_MAX, REPLY_GAMES_MAX);
	if (n == 0)
		tprintf(&t, "  (%s plays on no board)\n", userid);
	else if (shown == 0)
		tprintf(&t, "  (none)\n");
	list = tfinish(&t);
	if (list == NULL)
		goto out;
	snprintf(count, sizeof count, "%zu", n);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "games", list);
	var(&rp.vs, "count", count);
	snprintf(status, sizeof status, "%zu", playing);
	var(&rp.vs, "playing", status);
	var(&rp.vs, "filter", reply_games_filter_str(filter));
	var(&rp.vs, "which", which);
	var(&rp.vs, "away", away);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(list);
	return st;
}

enum reply_status reply_finished(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *const *games, size_t n, size_t total, struct reply_mail *out)
{
	char status[200], row[400], when[REPLY_TIME_SIZE], count[32], listed[32], size[16];
	struct text t = { 0 };
	struct reply_parts rp = { .tmpl = "finished", .subject = "Oust finished games", .to_addr = to_addr,
	    .to_name = to_name };
	enum reply_status st = REPLY_NOMEM;
	char *list = NULL;
	size_t i;

	/* two lines a board: the board and its players; when and how it ended */
	for (i = 0; i < n; i++) {
		const struct game *g = games[i];

		game_dimensions(g, true, size);
		result_text(g, status, sizeof status);
		tprintf(&t, "  %-9ld  %-5s  %s (x) - %s (o)\n", g->board, size, g->black, g->white);
		snprintf(row, sizeof row, "             %s, %s", reply_time_str(g->last_move, when), status);
		wrap_line(&t, row, strlen(row), 13);
		tputs(&t, "\n");
	}
	if (n == 0)
		tputs(&t, "  (no board has finished yet)\n");
	list = tfinish(&t);
	if (list == NULL)
		goto out;
	snprintf(count, sizeof count, "%zu", total);
	snprintf(listed, sizeof listed, "%zu", n);
	var(&rp.vs, "games", list);
	var(&rp.vs, "count", count);
	var(&rp.vs, "listed", listed);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(list);
	return st;
}

enum reply_status reply_chat(struct reply_ctx *rc, const struct game *g, const char *sender, const char *text,
    const struct reply_player *to, struct reply_mail *out)
{
	char subject[200], board[24], status[200], *quoted = NULL, *answer = NULL, id_user[IDENT_USERID_MAX + 16];
	/*
	 * in the board's thread (its root id in References), as the board's
	 * mails are; its own id <101.7.bob.chatHASH.T@domain> tells an answer to
	 * it (mailfind.h)
	 */
	struct reply_parts rp = { .tmpl = "chat", .subject = subject, .to_addr = to->address,
	    .to_name = to->fullname, .g = g, .id_board = g->board, .id_turn = g->nturns, .id_user = id_user };
	enum reply_status st = REPLY_NOMEM;
	struct unsub unsub;

	/* "chat" and the incoming mail's hash: two chats to one reader in one second differ */
	snprintf(id_user, sizeof id_user, "%s.chat%08x", to->userid, rc->hash + rc->counter);

	unsub_make(rc, g, to, &unsub);
	if (unsub.header[0] != '\0')
		rp.list_unsubscribe = unsub.header;
	snprintf(subject, sizeof subject, "Oust Board %ld chat from %s", g->board, sender);
	if (to->token != NULL && to->token[0] != '\0' && to->role == REPLY_ROLE_PLAYER)
		snprintf(subject + strlen(subject), sizeof subject - strlen(subject), " #%d [%s]", g->rg.turn,
		    to->token);
	snprintf(board, sizeof board, "%ld", g->board);
	status_text(g, status, sizeof status);
	quoted = indented(text);
	if (quoted == NULL)
		goto out;
	/* a player may answer; an observer is told how to stop (observers do not chat) */
	if (to->role == REPLY_ROLE_PLAYER) {
		struct text t = { 0 };

		if (to->token != NULL && to->token[0] != '\0')
			tprintf(&t, "To answer, reply to this mail with your text (its Subject stands\nfor your "
			    "password), or send \"chat %ld %s <password>\" with your\ntext below the command line. ",
			    g->board, to->userid);
		else
			tprintf(&t, "To answer, send \"chat %ld %s <password>\" with your text\nbelow the command "
			    "line. ", g->board, to->userid);
		answer = tfinish(&t);
	} else {
		char *obs = observing_text(g, to, &unsub);

		if (obs != NULL) {
			struct text t = { 0 };

			tprintf(&t, "%s\n", obs);
			answer = tfinish(&t);
			free(obs);
		}
	}
	if (answer == NULL)
		goto out;
	var(&rp.vs, "answer", answer);
	var(&rp.vs, "board", board);
	var(&rp.vs, "sender", sender);
	var(&rp.vs, "userid", to->userid);
	var(&rp.vs, "status", status);
	var(&rp.vs, "text", quoted);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(answer);
	free(quoted);
	return st;
}

enum reply_status reply_chat_answer(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, const char *userid, const char *text, struct reply_mail *out)
{
	char subject[200], board[24];
	struct reply_parts rp = { .tmpl = "chatanswer", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name, .g = g };
	struct text t = { 0 };
	enum reply_status st = REPLY_NOMEM;
	const char *p = text, *nl;
	char *block;

	snprintf(subject, sizeof subject, "Oust Board %ld chat not sent", g->board);
	snprintf(board, sizeof board, "%ld", g->board);
	/* the command and the text as one block, indented alike, to copy whole */
	tprintf(&t, "    chat %ld %s <password>\n", g->board, userid);
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (nl > p)
			tputs(&t, "    ");
		tadd(&t, p, (size_t)(nl - p));
		tputs(&t, "\n");
		p = *nl != '\0' ? nl + 1 : nl;
	}
	block = tfinish(&t);
	if (block == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "block", block);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(block);
	return st;
}

enum reply_status reply_chat_sent(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, const char *readers, const char *text, struct reply_mail *out)
{
	char subject[200], board[24], *quoted = NULL;
	struct reply_parts rp = { .tmpl = "chatsent", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name, .g = g };
	enum reply_status st = REPLY_NOMEM;

	snprintf(subject, sizeof subject, "Oust Board %ld chat sent", g->board);
	snprintf(board, sizeof board, "%ld", g->board);
	quoted = indented(text);
	if (quoted == NULL)
		goto out;
	var(&rp.vs, "board", board);
	var(&rp.vs, "readers", readers);
	var(&rp.vs, "text", quoted);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(quoted);
	return st;
}

/*
 * The legal placements opts[0..n) of colour c on b: the capturing ones
 * first, each with what it takes (with stones: which, else how many), then
 * the others; "none" when there are none.
 */
static void legal_text(struct text *t, const struct rules_board *b, enum rules_color c,
    const struct preview_option *opts, int n, bool stones)
{
	struct rules_board *scratch = NULL;
	int *taken = NULL, i, k, ncaps = 0, shown = 0;
	char name[4];

	for (i = 0; i < n; i++)
		ncaps += opts[i].captured > 0;
	if (n == 0) {
		tputs(t, "  none\n");
		return;
	}
	if (stones) {
		scratch = malloc(sizeof *scratch);
		taken = malloc(RULES_MAX_POINTS * sizeof *taken);
		if (scratch == NULL || taken == NULL) {
			t->b.failed = true;
			goto out;
		}
	}
	if (ncaps > 0)
		tprintf(t, "  capturing (%d; after each, place again):\n", ncaps);
	for (i = 0; i < n; i++) {
		if (opts[i].captured == 0)
			continue;
		if (shown++ == REPLY_OPTIONS_MAX) {
			tprintf(t, "    and %d more\n", ncaps - REPLY_OPTIONS_MAX);
			break;
		}
		tprintf(t, "    %s takes ", rules_point_name(b, opts[i].point, name));
		if (stones) {
			k = taken_by(b, c, opts[i].point, scratch, taken);
			points_text(t, b, taken, k);
			tputs(t, "\n");
		} else {
			tprintf(t, "%d stone%s\n", opts[i].captured, plural(opts[i].captured));
		}
	}
	if (n > ncaps) {
		struct text line = { 0 };
		char *s;

		tprintf(&line, "  not capturing (%d; each ends the turn):", n - ncaps);
		for (i = 0; i < n; i++)
			if (opts[i].captured == 0)
				tprintf(&line, " %s", rules_point_name(b, opts[i].point, name));
		s = tfinish(&line);
		if (s == NULL) {
			t->b.failed = true;
			goto out;
		}
		/* wrapped under its list (reply_wrap keeps the indent) */
		wrap_line(t, s, strlen(s), 4);
		tputs(t, "\n");
		free(s);
	}
out:
	free(scratch);
	free(taken);
}

/* Why placement i of pv was refused, one sentence without its period. */
static void preview_why(const struct reply_preview *pv, int i, char *buf, size_t size)
{
	const struct preview_step *s = &pv->p->steps[i];
	const char *name = pv->names[i];

	switch (pv->p->why) {
	case PREVIEW_OFF_BOARD:
		rules_offboard_why(pv->board, name, (int)strlen(name), buf, size);
		return;
	case PREVIEW_AFTER_END:
		snprintf(buf, size, "%s comes after the turn ended with %s: only a capture lets a player place "
		    "again", name, pv->names[i - 1]);
		return;
	case PREVIEW_RULES:
		break;
	}
	switch (s->check.verdict) {
	case RULES_OCCUPIED:
		snprintf(buf, size, "%s is occupied", name);
		break;
	case RULES_NO_ENEMY:
		snprintf(buf, size, "%s would join %s's stones into a group of %d that touches no enemy stone: "
		    "a placement next to one's own stones must capture", name, pv->who, s->check.new_group);
		break;
	case RULES_NOT_LARGER:
		snprintf(buf, size, "%s would make a group of %d, not larger than the enemy group of %d it "
		    "touches: a capturing group must be larger than every enemy group it touches", name,
		    s->check.new_group, s->check.largest_enemy);
		break;
	default:
		snprintf(buf, size, "%s: %s", name, rules_verdict_str(s->check.verdict));
		break;
	}
}

/* The steps of a preview: each placement, the board after a capture and at the end. */
static void preview_steps(struct text *t, const struct reply_preview *pv)
{
	const struct preview *p = pv->p;
	char why[400], *kept;
	int i;

	for (i = 0; i < p->nsteps; i++) {
		const struct preview_step *s = &p->steps[i];

		if (p->outcome == PREVIEW_ILLEGAL && i == p->nsteps - 1) {
			preview_why(pv, i, why, sizeof why);
			tprintf(t, "%d. %s: illegal (see below).\n\n", i + 1, pv->names[i]);
			break;
		}
		if (s->captured > 0) {
			tprintf(t, "%d. %s captures %d stone%s: ", i + 1, pv->names[i], s->captured, plural(s->captured));
			points_text(t, pv->board, s->taken, s->ntaken);
			tputs(t, p->last.result != RULES_PLAYING && i == p->nsteps - 1 ? "; the last of them.\n" :
			    i == p->nsteps - 1 && p->outcome == PREVIEW_COMPLETE ?
			    "; no placement is left, the turn ends.\n" : "; place again.\n");
		} else {
			tprintf(t, "%d. %s does not capture: the turn ends.\n", i + 1, pv->names[i]);
		}
		if (s->drawing[0] != '\0') {
			kept = verbatim(s->drawing);
			if (kept == NULL) {
				t->b.failed = true;
				return;
			}
			tprintf(t, "\n%s", kept);
			free(kept);
		}
		tputs(t, "\n");
	}
}

enum reply_status reply_preview(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct reply_preview *pv, struct reply_mail *out)
{
	const struct preview *p = pv->p;
	const struct game *g = pv->g;
	/* the title quotes the whole list: room for it beside the rest */
	char subject[200], title[REPLY_PLACEMENTS_MAX + 400], verdict[800], why[400];
	char dims[GAME_DIMENSIONS_SIZE], list[REPLY_PLACEMENTS_MAX];
	struct text steps = { 0 }, legal = { 0 }, send = { 0 };
	char *steps_s = NULL, *legal_s = NULL, *send_s = NULL, *start = NULL;
	struct reply_parts rp = { .tmpl = "preview", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name, .g = g };
	enum reply_status st = REPLY_NOMEM;
	size_t used = 0;
	int i, last = p->nsteps - (p->outcome == PREVIEW_ILLEGAL);

	list[0] = '\0';
	for (i = 0; i < pv->n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? "," : "", pv->names[i]);
	if (g != NULL) {
		snprintf(subject, sizeof subject, "Oust Board %ld preview", g->board);
		snprintf(title, sizeof title, "A preview of turn %d on board %ld (%s)%s: %s (%s, %c) places %s. "
		    "Nothing is played.", pv->turn, g->board, game_dimensions(g, false, dims),
		    pv->past ? ", from the position before it in the board's history" : "", pv->who,
		    colour_name(p->color), symbol(p->color), list);
	} else {
		snprintf(subject, sizeof subject, "Oust preview");
		if (pv->board->shape == RULES_HEX)
			snprintf(dims, sizeof dims, "hex side %d", pv->board->size);
		else
			snprintf(dims, sizeof dims, "%dx%d", pv->board->size, pv->board->size);
		snprintf(title, sizeof title, "A preview on an empty %s study board: Black (x) places %s.", dims, list);
	}
	switch (p->outcome) {
	case PREVIEW_COMPLETE:
		used = (size_t)snprintf(verdict, sizeof verdict, "The turn would be complete");
		if (p->captured > 0)
			used += (size_t)snprintf(verdict + used, sizeof verdict - used, ", capturing %d stone%s",
			    p->captured, plural(p->captured));
		if (p->last.result == RULES_DRAW)
			snprintf(verdict + used, sizeof verdict - used, ", and the game would be drawn: neither side "
			    "could place.");
		else if (p->last.result != RULES_PLAYING)
			snprintf(verdict + used, sizeof verdict - used, ", and %s would win: no enemy stone left.",
			    pv->who);
		else if (p->last.npasses > 0)
			snprintf(verdict + used, sizeof verdict - used, "; %s would have no legal placement and pass, "
			    "so %s would move again.", pv->next_who, pv->who);
		else
			snprintf(verdict + used, sizeof verdict - used, "; %s would move next.", pv->next_who);
		break;
	case PREVIEW_ILLEGAL:
		preview_why(pv, p->nsteps - 1, why, sizeof why);
		snprintf(verdict, sizeof verdict, "The turn would be illegal at placement %d, %s: %s. A move with "
		    "these placements would be refused.", p->nsteps, pv->names[p->nsteps - 1], why);
		break;
	case PREVIEW_UNFINISHED:
		snprintf(verdict, sizeof verdict, "The turn would be unfinished: after the capture at %s, %s must "
		    "place again.", pv->names[last - 1], pv->who);
		break;
	}
	preview_steps(&steps, pv);
	if (p->outcome == PREVIEW_COMPLETE && p->last.result != RULES_PLAYING)
		tputs(&legal, "None: the game would be over.\n");
	else {
		tprintf(&legal, "The legal placements of %s %s:\n",
		    p->legal_color == p->color ? pv->who : pv->next_who,
		    p->outcome == PREVIEW_COMPLETE ? "after the turn" : p->outcome == PREVIEW_ILLEGAL ?
		    "before that placement" : "now");
		legal_text(&legal, pv->board, p->legal_color, p->legal, p->nlegal, false);
	}
	if (g != NULL && !pv->past && p->outcome == PREVIEW_COMPLETE)
		tprintf(&send, "To play it, send:\n\n    move %ld#%d %s <password> %s\n\n", g->board, pv->turn,
		    pv->who, list);
	start = verbatim(p->drawing_start);
	steps_s = tfinish(&steps);
	legal_s = tfinish(&legal);
	send_s = tfinish(&send);
	if (steps_s == NULL || legal_s == NULL || send_s == NULL || start == NULL)
		goto out;
	var(&rp.vs, "title", title);
	var(&rp.vs, "start", start);
	var(&rp.vs, "steps", steps_s);
	var(&rp.vs, "verdict", verdict);
	var(&rp.vs, "legal", legal_s);
	var(&rp.vs, "send", send_s);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(start);
	free(steps_s);
	free(legal_s);
	free(send_s);
	return st;
}

enum reply_status reply_moves(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const struct game *g, const struct preview_option *opts, int n, struct reply_mail *out)
{
	char subject[200], title[400], drawing[BOARD_TEXT_MAX], count[16], board[24];
	struct text legal = { 0 };
	char *legal_s = NULL;
	struct reply_parts rp = { .tmpl = "moves", .subject = subject, .to_addr = to_addr, .to_name = to_name,
	    .g = g };
	enum reply_status st = REPLY_NOMEM;
	enum rules_color c = g->rg.to_move;

	snprintf(subject, sizeof subject, "Oust Board %ld moves", g->board);
	snprintf(title, sizeof title, "Board %ld, turn %d: the legal placements of %s (%s, %c).", g->board,
	    g->rg.turn, game_player_to_move(g), colour_name(c), symbol(c));
	snprintf(count, sizeof count, "%d", n);
	board_render_game(g, drawing);
	legal_text(&legal, &g->rg.board, c, opts, n, true);
	if (g->swap && rules_game_can_swap(&g->rg) && !game_user_is_robot(game_player_to_move(g))) {
		/* White's first turn may be the pie rule instead of a placement */
		size_t from;

		tputs(&legal, "  or, instead of placing, swap (the pie rule: take over Black's stones):\n    ");
		from = legal.b.len;
		tprintf(&legal, "swap %ld#%d %s <password>", g->board, g->rg.turn, game_player_to_move(g));
		tglue_from(&legal, from);
		tputs(&legal, "\n");
	}
	legal_s = tfinish(&legal);
	if (legal_s == NULL)
		goto out;
	var(&rp.vs, "title", title);
	snprintf(board, sizeof board, "%ld", g->board);
	var(&rp.vs, "board", board);
	var(&rp.vs, "count", count);
	var(&rp.vs, "legal", legal_s);
	var(&rp.vs, "drawing", drawing);
	st = REPLY_OK;
out:
	st = reply_finish(rc, st, &rp, out);
	free(legal_s);
	return st;
}

enum reply_status reply_help(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const char *commands, struct reply_mail *out)
{
	struct reply_parts rp = { .tmpl = "help", .subject = "Oust help", .to_addr = to_addr,
	    .to_name = to_name };

	var(&rp.vs, "commands", commands);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_registered(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const char *userid, const char *fullname, const char *address, struct reply_mail *out)
{
	char subject[200];
	struct reply_parts rp = { .tmpl = "registered", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name };

	snprintf(subject, sizeof subject, "Oust registration %s", userid);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "fullname", fullname != NULL && fullname[0] != '\0' ? fullname : "(none given)");
	var(&rp.vs, "registered_address", address);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_lockout(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const char *userid, unsigned long failures, const char *sender, const char *until, struct reply_mail *out)
{
	char subject[200], count[24];
	struct reply_parts rp = { .tmpl = "lockout", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name };

	snprintf(subject, sizeof subject, "Oust password attempts for %s refused", userid);
	snprintf(count, sizeof count, "%lu", failures);
	var(&rp.vs, "userid", userid);
	var(&rp.vs, "failures", count);
	var(&rp.vs, "sender", sender);
	var(&rp.vs, "until", until);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_password(struct reply_ctx *rc, const char *to_addr, const char *to_name,
    const char *userid, struct reply_mail *out)
{
	char subject[200];
	struct reply_parts rp = { .tmpl = "password", .subject = subject, .to_addr = to_addr,
	    .to_name = to_name };

	snprintf(subject, sizeof subject, "Oust password %s", userid);
	var(&rp.vs, "userid", userid);
	return reply_finish(rc, REPLY_OK, &rp, out);
}

enum reply_status reply_account(struct reply_ctx *rc, const char *to_addr, const char *to_name, const char *tmpl,
    const char *subject, const struct reply_var *vars, size_t n, struct reply_mail *out)
{
	struct reply_parts rp = { .tmpl = tmpl, .subject = subject, .to_addr = to_addr, .to_name = to_name };
	size_t i;

	for (i = 0; i < n; i++)
		var(&rp.vs, vars[i].name, vars[i].value);
	return reply_finish(rc, REPLY_OK, &rp, out);
}
