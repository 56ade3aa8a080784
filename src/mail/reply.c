/* reply: the template engine of the replies (templates, placeholders, wrapping) and their composing. */
#include "mail/reply_int.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/utf8.h"
#include "game/board.h"
#include "game/gamefile.h"
#include "mail/mailout.h"

#ifndef OUSTPBM_DATADIR
#define OUSTPBM_DATADIR "/usr/local/share/oustpbm"
#endif

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

enum mail_status reply_templates_dir(const struct config *cfg, const char *home, char *out, size_t size,
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
			return MAIL_TEMPLATE;
		}
		return MAIL_OK;
	}
	r = snprintf(out, size, "%s/templates", home);
	if (r > 0 && (size_t)r < size && is_dir(out))
		return MAIL_OK;
	r = snprintf(out, size, "%s/templates", OUSTPBM_DATADIR);
	if (r > 0 && (size_t)r < size && is_dir(out))
		return MAIL_OK;
	/* run from a source checkout: templates/ beside ./oustpbm */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			r = snprintf(out, size, "%s/templates", exe);
			if (r > 0 && (size_t)r < size && is_dir(out))
				return MAIL_OK;
		}
	}
	out[0] = '\0';
	snprintf(err, errlen, "no templates directory: none in %s/templates, %s/templates or beside the "
	    "program; set 'templates' in %s", home, OUSTPBM_DATADIR, CONFIG_FILE);
	return MAIL_TEMPLATE;
}

/* ---- wrapping ---- */

/* Columns of s[0..n): characters of UTF-8 (a byte that is not valid UTF-8 counts one). */
size_t reply_columns(const char *s, size_t n)
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
void reply_wrap_line(struct text *t, const char *line, size_t n, size_t indent)
{
	size_t col, pos, start, end, gap;
	bool empty = true;

	if (n > 0 && line[0] == REPLY_VERBATIM) {
		tadd(t, line + 1, n - 1);
		return;
	}
	if (reply_columns(line, n) <= REPLY_WRAP) {
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
	col = reply_columns(line, pos);
	while (pos < n) {
		/* the spaces before the next word, then the word */
		for (start = pos; start < n && line[start] == ' '; start++)
			;
		if (start == n)
			break;	/* trailing spaces of a wrapped line go */
		for (end = start; end < n && line[end] != ' '; end++)
			;
		gap = start - pos;
		if (!empty && col + gap + reply_columns(line + start, end - start) > REPLY_WRAP) {
			tputs(t, "\n");
			tprintf(t, "%*s", (int)indent, "");
			col = indent;
			gap = 0;
		}
		tadd(t, line + pos, gap);
		tadd(t, line + start, end - start);
		col += gap + reply_columns(line + start, end - start);
		empty = false;
		pos = end;
	}
}

_Static_assert(REPLY_GLUE == '\002', "the sentences' glued commands write REPLY_GLUE as \\002");

/* s with every REPLY_GLUE turned into the space it stands for. */
void reply_unglue(char *s)
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
		reply_wrap_line(&t, p, nl != NULL ? (size_t)(nl - p) : strlen(p), (size_t)-1);
		if (nl == NULL)
			break;
		tputs(&t, "\n");
		p = nl + 1;
	}
	out = tfinish(&t);
	reply_unglue(out);
	return out;
}

/* text with REPLY_VERBATIM before each line: reply_wrap leaves it as it is.  NULL if out of memory. */
char *reply_verbatim(const char *text)
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

/*
 * Expand template name with vs plus the variables every template has.  A
 * text template's result is wrapped (reply_wrap), the board drawing (the
 * variable drawing) excepted.
 */
enum mail_status reply_expand(struct reply_ctx *rc, const char *name, struct vars *vs, char **body)
{
	enum mail_status ms;
	char *text = NULL, *drawing = NULL, *wrapped, *server, err[MAILOUT_ERR_MAX * 4];
	const char *given = NULL;
	enum mail_status st;
	bool html, mailhtml;
	size_t i, at = 0, n0;

	*body = NULL;
	if (!rc->have_tdir) {
		st = reply_templates_dir(rc->cfg, rc->home, rc->tdir, sizeof rc->tdir, rc->err, sizeof rc->err);
		if (st != MAIL_OK)
			return st;
		rc->have_tdir = true;
	}
	n0 = vs->n;
	/* any .html template (mail.html, a digest's) is expanded as HTML; mail.html alone has its own cache */
	html = strlen(name) > 5 && strcmp(name + strlen(name) - 5, ".html") == 0;
	mailhtml = strcmp(name, "mail.html") == 0;
	/* the server's name is a name: the signature never breaks inside it */
	server = html ? NULL : glued(rc->cfg->server_name);
	if (!html && server == NULL) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return MAIL_NOMEM;
	}
	var(vs, "server", html ? rc->cfg->server_name : server);
	var(vs, "address", rc->cfg->from_address);
	err[0] = '\0';
	for (i = 0; i < vs->n && !html; i++) {
		if (strcmp(vs->v[i].name, "drawing") != 0)
			continue;
		drawing = reply_verbatim(vs->v[i].value);
		if (drawing == NULL) {
			snprintf(rc->err, sizeof rc->err, "out of memory");
			free(server);
			return MAIL_NOMEM;
		}
		given = vs->v[i].value;
		at = i;
		vs->v[i].value = drawing;
	}
	if ((mailhtml && rc->cached_html != NULL) ||
	    (!mailhtml && rc->cached != NULL && strcmp(rc->cached_name, name) == 0)) {
		ms = MAIL_OK;
	} else {
		ms = mailout_template_load(rc->tdir, name, &text, err, sizeof err);
		rc->html_missing = html && ms == MAIL_NO_TEMPLATE;
		if (ms == MAIL_OK && mailhtml) {
			rc->cached_html = text;
			text = NULL;
		} else if (ms == MAIL_OK && strlen(name) < sizeof rc->cached_name) {
			free(rc->cached);
			rc->cached = text;
			memcpy(rc->cached_name, name, strlen(name) + 1);
			text = NULL;
		}
	}
	if (ms == MAIL_OK) {
		ms = mailout_template_expand(text != NULL ? text : mailhtml ? rc->cached_html : rc->cached, vs->v, vs->n,
		    body, err, sizeof err);
		if (ms == MAIL_BAD_TEMPLATE)
			snprintf(rc->err, sizeof rc->err, "%.500s/%.64s%s %.600s", rc->tdir, name, html ? "" : ".txt",
			    err);
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
	if (ms == MAIL_OK && !html) {
		wrapped = reply_wrap(*body);
		free(*body);
		*body = wrapped;
		if (wrapped == NULL)
			ms = MAIL_NOMEM;
	} else if (ms == MAIL_OK) {
		reply_unglue(*body);	/* the texts the HTML shows are the text part's, glue and all */
	}
	if (ms == MAIL_NOMEM) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return MAIL_NOMEM;
	}
	return ms == MAIL_OK ? MAIL_OK : MAIL_TEMPLATE;
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
static enum mail_status compose(struct reply_ctx *rc, const struct reply_parts *rp, const char *body,
    const char *html, struct reply_mail *out)
{
	const struct game *g = rp->g;
	const struct reply_file *file = rp->file;
	const char *to_addr = rp->to_addr;
	struct mailout_spec spec;
	enum mail_status ms;
	char id[MAILOUT_ID_MAX + 1], root[GAME_THREAD_MAX + 1];
	size_t n;

	assert(rc->cfg != NULL);	/* reply_init() was called */
	memset(out, 0, sizeof *out);
	rc->counter++;
	if (rp->id_board > 0 && rp->id_part > 0)
		/* the part of a turn pending: a reply to it continues the turn (mailfind.h) */
		snprintf(id, sizeof id, "%ld.%dp%d.%s.%lld@%s", rp->id_board, rp->id_turn, rp->id_part, rp->id_user,
		    (long long)rc->now, domain_of(rc->cfg->from_address));
	else if (rp->id_board > 0)
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
	spec.id_key = rc->id_key_set ? rc->id_key : NULL;
	if (file != NULL) {
		spec.attachment = file->data;
		spec.attachment_len = file->len;
		spec.attachment_type = file->type;
		spec.attachment_name = file->name;
	}
	if (strlen(to_addr) > MAILADDR_MAX) {
		snprintf(rc->err, sizeof rc->err, "recipient address too long");
		return MAIL_COMPOSE;
	}
	ms = mailout_compose(&spec, &out->msg, &out->len);
	if (ms == MAIL_NOMEM) {
		snprintf(rc->err, sizeof rc->err, "out of memory");
		return MAIL_NOMEM;
	}
	if (ms != MAIL_OK) {
		snprintf(rc->err, sizeof rc->err, "reply to %s: %s", to_addr, mail_status_str(ms));
		return MAIL_COMPOSE;
	}
	if (out->len > (size_t)MAILOUT_MESSAGE_MAX) {
		/* only a template can make it so long (the texts filled in are bounded): the admin's to fix */
		snprintf(rc->err, sizeof rc->err, "the reply \"%.200s\" is %zu bytes, larger than the %ld bytes "
		    "the outbox takes: a template makes it too long", rp->subject, out->len, MAILOUT_MESSAGE_MAX);
		free(out->msg);
		out->msg = NULL;
		out->len = 0;
		return MAIL_TEMPLATE;
	}
	snprintf(out->rcpt, sizeof out->rcpt, "%s", to_addr);
	return MAIL_OK;
}

char *reply_time_str(int64_t t, char buf[REPLY_TIME_SIZE])
{
	char iso[GAMEFILE_TIME_SIZE];

	/* "2026-11-21T18:41:07Z" -> "2026-11-21 18:41 UTC" */
	gamefile_time_str(t, iso);
	snprintf(buf, REPLY_TIME_SIZE, "%.10s %.5s UTC", iso, iso + 11);
	return buf;
}

enum mail_status reply_finish(struct reply_ctx *rc, enum mail_status st, struct reply_parts *rp,
    struct reply_mail *out)
{
	char *body = NULL, *html = NULL;

	memset(out, 0, sizeof *out);
	if (st != MAIL_OK)
		goto out;
	assert((rp->tmpl != NULL) != (rp->body != NULL));
	assert(rp->hm == NULL || rp->g != NULL);
	assert(rp->hm == NULL || rp->html == NULL);
	if (rp->tmpl != NULL)
		st = reply_expand(rc, rp->tmpl, &rp->vs, &body);
	if (st == MAIL_OK && rp->g != NULL && rc->cfg->web_url[0] != '\0')
		st = reply_board_web_link(rc, rp->g, &body, rp->body);
	if (st == MAIL_OK && rp->hm != NULL)
		st = reply_html_body(rc, rp->g, rp->hm, &html);
	else if (st == MAIL_OK && rp->html != NULL && (html = strdup(rp->html)) == NULL)
		st = MAIL_NOMEM;
	if (st == MAIL_OK)
		st = compose(rc, rp, body != NULL ? body : rp->body, html, out);
out:
	if (st == MAIL_NOMEM)
		snprintf(rc->err, sizeof rc->err, "out of memory");
	free(body);
	free(html);
	return st;
}
