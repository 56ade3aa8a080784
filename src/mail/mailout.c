/*
 * mailout: compose replies with GMime; expand and load templates.
 *
 * Ownership: each GMime object made in mailout_compose() is owned by that
 * function and released on its single exit; GMime keeps references of its
 * own to what is added to the message.  An address is released as soon as
 * the list holds it.  Nothing GMime allocates leaves this file: the message
 * is copied into malloc'd memory.
 */
#include "base/errbuf.h"
#include "base/hash.h"
#include "base/mailaddr.h"
#include "base/msgid.h"
#include "mail/idmac.h"
#include "base/utf8.h"
#include "mail/mailgmime.h"
#include "mail/mailout.h"
#include "mail/mailtext.h"
#include "mail/robotmac.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

static bool gmime_up;

void mailout_init(void)
{
	mailgmime_hold(&gmime_up);
}

void mailout_shutdown(void)
{
	mailgmime_release(&gmime_up);
}

#define set_err errbuf_set

/* ---- growing buffer ---- */

struct buf {
	char *s;
	size_t len, size;
};

static bool buf_add(struct buf *b, const char *s, size_t n)
{
	size_t nsize;
	char *ns;

	if (b->size - b->len < n + 1) {
		nsize = b->size != 0 ? b->size : 256;
		while (nsize - b->len < n + 1) {
			if (nsize > SIZE_MAX / 2)
				return false;
			nsize *= 2;
		}
		ns = realloc(b->s, nsize);
		if (ns == NULL)
			return false;
		b->s = ns;
		b->size = nsize;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

/* ---- header values ---- */

static bool empty(const char *s)
{
	return s == NULL || *s == '\0';
}

/* One header line's worth of s: cleaned (utf8.h UTF8_LINE), trimmed, at most max bytes. */
static char *clean_line(const char *s, size_t max)
{
	return mailtext_clean_line(s, max, UTF8_LINE);
}

/* RFC 5322 3.6.4 msg-id content (msgid.h), bounded. */
static bool id_ok(const char *id, size_t len)
{
	return len > 0 && len <= MAILOUT_ID_MAX && msgid_ok(id, len);
}

struct idlist {
	const char *id[MAILOUT_REFERENCES_MAX + 1];
	size_t len[MAILOUT_REFERENCES_MAX + 1];
	size_t n;
	bool have_root;
};

/* Append an id unless present; past the cap, drop the oldest id after the root. */
static void idlist_add(struct idlist *l, const char *id, size_t len)
{
	size_t i, first = l->have_root ? 1 : 0;

	if (!id_ok(id, len))
		return;
	for (i = 0; i < l->n; i++)
		if (l->len[i] == len && memcmp(l->id[i], id, len) == 0)
			return;
	if (l->n == MAILOUT_REFERENCES_MAX) {
		memmove(&l->id[first], &l->id[first + 1], (l->n - first - 1) * sizeof l->id[0]);
		memmove(&l->len[first], &l->len[first + 1], (l->n - first - 1) * sizeof l->len[0]);
		l->n--;
	}
	l->id[l->n] = id;
	l->len[l->n] = len;
	l->n++;
}

/* References per RFC 5322 3.6.4, with the board's root id first: "<a> <b> ..." */
static char *references(const struct mailout_spec *spec)
{
	struct idlist l = { .n = 0 };
	struct buf b = { NULL, 0, 0 };
	const char *p, *e;
	size_t i;

	if (!empty(spec->root_id)) {
		idlist_add(&l, spec->root_id, strlen(spec->root_id));
		l.have_root = l.n == 1;
	}
	for (p = spec->references != NULL ? spec->references : ""; *p != '\0'; p = e) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		for (e = p; *e != '\0' && *e != ' ' && *e != '\t' && *e != '\n'; e++)
			;
		idlist_add(&l, p, (size_t)(e - p));
	}
	if (!empty(spec->in_reply_to))
		idlist_add(&l, spec->in_reply_to, strlen(spec->in_reply_to));
	if (!buf_add(&b, "", 0))
		return NULL;
	for (i = 0; i < l.n; i++)
		if (!buf_add(&b, i != 0 ? " <" : "<", i != 0 ? 2 : 1) || !buf_add(&b, l.id[i], l.len[i]) ||
		    !buf_add(&b, ">", 1)) {
			free(b.s);
			return NULL;
		}
	return b.s;
}

/* Add a mailbox whose name is encoded, when it must be, as UTF-8 (RFC 2047). */
static enum mail_status add_mailbox(GMimeMessage *msg, GMimeAddressType type, const char *name,
    const char *addr)
{
	InternetAddress *ia;	/* owned until the list holds it */
	char *clean;

	if (!mailaddr_ok(addr, NULL))
		return MAIL_BAD_ADDRESS;
	clean = clean_line(name, MAILOUT_NAME_MAX);
	if (clean == NULL)
		return MAIL_NOMEM;
	ia = internet_address_mailbox_new(clean, addr);
	free(clean);
	internet_address_set_charset(ia, "utf-8");
	internet_address_list_add(g_mime_message_get_addresses(msg, type), ia);	/* list refs ia */
	g_object_unref(ia);
	return MAIL_OK;
}

/*
 * <time.pid.counter@domain-of-from>, unique for this host (RFC 5322 3.6.4),
 * into buf; false if it would be longer than MAILOUT_ID_MAX.
 */
static bool generate_id(const struct mailout_spec *spec, char buf[MAILOUT_ID_MAX + 1])
{
	static unsigned counter;
	const char *domain = strrchr(spec->from_addr, '@') + 1;
	int n;

	n = snprintf(buf, MAILOUT_ID_MAX + 1, "%lld.%ld.%u@%s", (long long)spec->date, (long)getpid(),
	    ++counter, domain);
	return n > 0 && n <= MAILOUT_ID_MAX;
}

/* Whether text[0..n) is ASCII without NUL or CR, in lines of at most 998 bytes. */
static bool seven_bit(const char *text, size_t n)
{
	size_t i, line = 0;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)text[i];
		if (c == '\n') {
			line = 0;
			continue;
		}
		if (c == 0 || c == '\r' || c >= 0x80 || ++line > 998)
			return false;
	}
	return true;
}

/*
 * A text/<subtype>; charset=utf-8 part holding text[0..tlen) as given, plus
 * a final LF: the content is set as bytes, not through a charset.  *out
 * is the caller's.
 */
static enum mail_status text_part(const char *subtype, const char *text, size_t tlen, GMimeTextPart **out)
{
	GMimeTextPart *part;
	GMimeStream *body;
	GMimeDataWrapper *content;
	GMimeContentEncoding enc;
	char *shown = NULL;
	bool seven;

	/* invisible and bidirectional characters shown as <U+202E>, never obeyed (utf8.h; the HTML drops them) */
	if (strcmp(subtype, "plain") == 0) {
		shown = utf8_visible(text, tlen, &tlen);
		if (shown == NULL)
			return MAIL_NOMEM;
		text = shown;
	}
	part = g_mime_text_part_new_with_subtype(subtype);
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(part), "charset", "utf-8");
	body = g_mime_stream_mem_new_with_buffer(text, tlen);	/* copies */
	if (tlen == 0 || text[tlen - 1] != '\n') {
		g_mime_stream_seek(body, 0, GMIME_STREAM_SEEK_END);
		if (g_mime_stream_write(body, "\n", 1) != 1) {
			g_object_unref(body);
			g_object_unref(part);
			free(shown);
			return MAIL_WRITE;
		}
		g_mime_stream_reset(body);
	}
	/*
	 * 7bit when it can be; else quoted-printable, never base64: the raw
	 * reply stays readable.  ASCII in lines of at most 998 bytes is 7bit
	 * (RFC 5322 2.1.1) as it stands: neither GMime's scan of the whole part
	 * nor a filter when it is written.
	 */
	seven = seven_bit(text, tlen);
	free(shown);
	content = g_mime_data_wrapper_new_with_stream(body, seven ? GMIME_CONTENT_ENCODING_7BIT :
	    GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(GMIME_PART(part), content);
	g_object_unref(content);
	g_object_unref(body);
	enc = seven ? GMIME_CONTENT_ENCODING_7BIT :
	    g_mime_part_get_best_content_encoding(GMIME_PART(part), GMIME_ENCODING_CONSTRAINT_7BIT);
	g_mime_part_set_content_encoding(GMIME_PART(part),
	    enc == GMIME_CONTENT_ENCODING_7BIT || enc == GMIME_CONTENT_ENCODING_DEFAULT ?
	    GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	*out = part;
	return MAIL_OK;
}

/*
 * A multipart boundary: "=_", a hash of the Message-ID and of what the
 * multipart is ("alternative", "mixed"), then a counter bumped until no
 * part holds it (RFC 2046 5.1.1).
 */
static void boundary(const char *id, const char *what, const char *const parts[], size_t nparts, char out[40])
{
	uint64_t h = hash_fnv1a64_str(HASH_FNV64_BASIS, id);
	unsigned k;
	size_t i;

	if (strcmp(what, "alternative") != 0)
		h = hash_fnv1a64_str(h, what);
	for (k = 0;; k++) {
		snprintf(out, 40, "=_oust_%016llx_%u", (unsigned long long)h, k);
		for (i = 0; i < nparts && (parts[i] == NULL || strstr(parts[i], out) == NULL); i++)
			;
		if (i == nparts)
			return;
	}
}

static bool attachment_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 64 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n &&
	    s[0] != '.';
}

/* The attached file of spec as a part (the caller's); its type checked as "type/subtype". */
static enum mail_status attachment_part(const struct mailout_spec *spec, GMimePart **out)
{
	GMimePart *part;
	GMimeStream *body;
	GMimeDataWrapper *content;
	GMimeContentEncoding enc;
	char type[64];
	const char *slash = strchr(spec->attachment_type, '/');

	if (slash == NULL || slash == spec->attachment_type || (size_t)(slash - spec->attachment_type) >= sizeof type ||
	    slash[1] == '\0' || !attachment_name_ok(spec->attachment_name))
		return MAIL_BAD_BODY;
	snprintf(type, sizeof type, "%.*s", (int)(slash - spec->attachment_type), spec->attachment_type);
	part = g_mime_part_new_with_type(type, slash + 1);
	body = g_mime_stream_mem_new_with_buffer(spec->attachment, spec->attachment_len);	/* copies */
	content = g_mime_data_wrapper_new_with_stream(body, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(part, content);
	g_object_unref(content);
	g_object_unref(body);
	g_mime_object_set_disposition(GMIME_OBJECT(part), GMIME_DISPOSITION_ATTACHMENT);
	g_mime_part_set_filename(part, spec->attachment_name);
	enc = g_mime_part_get_best_content_encoding(part, GMIME_ENCODING_CONSTRAINT_7BIT);
	g_mime_part_set_content_encoding(part, enc == GMIME_CONTENT_ENCODING_7BIT ||
	    enc == GMIME_CONTENT_ENCODING_DEFAULT ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	*out = part;
	return MAIL_OK;
}

enum mail_status mailout_compose(const struct mailout_spec *spec, char **out, size_t *len)
{
	GMimeMessage *msg = NULL;	/* owned */
	GMimeTextPart *part = NULL;	/* owned */
	GMimeTextPart *html = NULL;	/* owned */
	GMimeMultipart *alt = NULL;	/* owned */
	GMimeMultipart *mixed = NULL;	/* owned */
	GMimePart *att = NULL;		/* owned */
	GMimeObject *top;		/* borrowed: the text, or the alternative */
	GMimeStream *mem = NULL;	/* owned */
	GDateTime *dt = NULL;		/* owned */
	GByteArray *bytes;		/* borrowed from mem */
	enum mail_status st;
	char *subject = NULL, *refs = NULL, *irt = NULL, id[MAILOUT_ID_MAX + 1], sent_id[MAILOUT_ID_MAX + 1], bnd[40];
	const char *text = spec->body != NULL ? spec->body : "";
	size_t tlen = strlen(text), n;

	*out = NULL;
	*len = 0;
	if (!mailaddr_ok(spec->from_addr, NULL) || !mailaddr_ok(spec->to_addr, NULL))
		return MAIL_BAD_ADDRESS;
	if (!utf8_text_ok(text, tlen, NULL) || (!empty(spec->html) && !utf8_text_ok(spec->html, strlen(spec->html), NULL)))
		return MAIL_BAD_BODY;
	if (spec->attachment != NULL && (spec->attachment_type == NULL || spec->attachment_name == NULL ||
	    memchr(spec->attachment, '\0', spec->attachment_len) != NULL))
		return MAIL_BAD_BODY;
	/* a bad root_id (a hand-edited thread:) is left out by references(), like any bad id */
	if (!empty(spec->message_id) && !id_ok(spec->message_id, strlen(spec->message_id)))
		return MAIL_BAD_ID;
	if (!empty(spec->message_id))
		memcpy(id, spec->message_id, strlen(spec->message_id) + 1);
	else if (!generate_id(spec, id))
		return MAIL_BAD_ID;
	/* the boundaries stay a hash of the stem (id): only the Message-ID carries the mac */
	if (spec->id_key == NULL)
		memcpy(sent_id, id, strlen(id) + 1);
	else if (!idmac_sign(spec->id_key, id, spec->to_addr, sent_id, sizeof sent_id))
		return MAIL_BAD_ID;
	mailout_init();

	st = MAIL_NOMEM;
	subject = clean_line(spec->subject, MAILOUT_SUBJECT_MAX);
	refs = references(spec);
	if (subject == NULL || refs == NULL)
		goto out;

	msg = g_mime_message_new(TRUE);
	if ((st = add_mailbox(msg, GMIME_ADDRESS_TYPE_FROM, spec->from_name, spec->from_addr)) != MAIL_OK ||
	    (st = add_mailbox(msg, GMIME_ADDRESS_TYPE_TO, spec->to_name, spec->to_addr)) != MAIL_OK)
		goto out;
	g_mime_message_set_subject(msg, subject, "utf-8");
	dt = g_date_time_new_from_unix_utc((gint64)spec->date);
	if (dt == NULL) {
		st = MAIL_BAD_DATE;
		goto out;
	}
	g_mime_message_set_date(msg, dt);
	g_mime_message_set_message_id(msg, sent_id);
	if (!empty(spec->in_reply_to) && id_ok(spec->in_reply_to, strlen(spec->in_reply_to))) {
		n = strlen(spec->in_reply_to) + 3;
		irt = malloc(n);
		if (irt == NULL) {
			st = MAIL_NOMEM;
			goto out;
		}
		snprintf(irt, n, "<%s>", spec->in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", irt, NULL);
	}
	if (*refs != '\0')
		g_mime_object_set_header(GMIME_OBJECT(msg), "References", refs, NULL);
	/* an observer's way out (RFC 2369 3.2): a mailto, made by unsubtoken.h, ASCII */
	if (spec->list_unsubscribe != NULL && spec->list_unsubscribe[0] != '\0') {
		GMimeHeader *h;
		char *raw;

		g_mime_object_set_header(GMIME_OBJECT(msg), "List-Unsubscribe", spec->list_unsubscribe, NULL);
		/* as given: GMime would make a long one RFC 2047 words, which no mail program reads as a URI */
		h = g_mime_header_list_get_header(g_mime_object_get_header_list(GMIME_OBJECT(msg)), "List-Unsubscribe");
		raw = g_strdup_printf(" %s\n", spec->list_unsubscribe);
		if (h != NULL)
			g_mime_header_set_raw_value(h, raw);
		g_free(raw);
	}
	/* the board mail to a robot host: what proves it is the server's (robotmac.h) */
	if (spec->robot_mac != NULL && spec->robot_mac[0] != '\0')
		g_mime_object_set_header(GMIME_OBJECT(msg), ROBOTMAC_HEADER, spec->robot_mac, NULL);
	/* RFC 3834 5.1: made by a program, in answer to a mail or not */
	g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted", spec->generated ? "auto-generated" :
	    "auto-replied", NULL);

	st = text_part("plain", text, tlen, &part);
	if (st != MAIL_OK)
		goto out;
	if (!empty(spec->html)) {
		st = text_part("html", spec->html, strlen(spec->html), &html);
		if (st != MAIL_OK)
			goto out;
		const char *parts[] = { text, spec->html, spec->attachment };

		alt = g_mime_multipart_new_with_subtype("alternative");
		boundary(id, "alternative", parts, 3, bnd);
		g_mime_multipart_set_boundary(alt, bnd);
		/* RFC 2046 5.1.4: the plainest first, the preferred last */
		g_mime_multipart_add(alt, GMIME_OBJECT(part));
		g_mime_multipart_add(alt, GMIME_OBJECT(html));
		top = GMIME_OBJECT(alt);
	} else {
		top = GMIME_OBJECT(part);
	}
	if (spec->attachment != NULL) {
		const char *parts[] = { text, spec->html, spec->attachment };

		st = attachment_part(spec, &att);
		if (st != MAIL_OK)
			goto out;
		mixed = g_mime_multipart_new_with_subtype("mixed");
		boundary(id, "mixed", parts, 3, bnd);
		g_mime_multipart_set_boundary(mixed, bnd);
		g_mime_multipart_add(mixed, top);
		g_mime_multipart_add(mixed, GMIME_OBJECT(att));
		top = GMIME_OBJECT(mixed);
	}
	g_mime_message_set_mime_part(msg, top);

	mem = g_mime_stream_mem_new();
	if (g_mime_object_write_to_stream(GMIME_OBJECT(msg), NULL, mem) < 0) {
		st = MAIL_WRITE;
		goto out;
	}
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	*out = malloc(bytes->len + 1);
	if (*out == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	memcpy(*out, bytes->data, bytes->len);
	(*out)[bytes->len] = '\0';
	*len = bytes->len;
	st = MAIL_OK;
out:
	if (mem != NULL)
		g_object_unref(mem);
	if (mixed != NULL)
		g_object_unref(mixed);
	if (att != NULL)
		g_object_unref(att);
	if (alt != NULL)
		g_object_unref(alt);
	if (html != NULL)
		g_object_unref(html);
	if (part != NULL)
		g_object_unref(part);
	if (dt != NULL)
		g_date_time_unref(dt);
	if (msg != NULL)
		g_object_unref(msg);
	free(subject);
	free(refs);
	free(irt);
	return st;
}

/* ---- templates ---- */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

enum mail_status mailout_template_expand(const char *template_text, const struct mailout_var *vars,
    size_t nvars, char **out, char *err, size_t errlen)
{
	struct buf b = { NULL, 0, 0 };
	const char *p = template_text, *name, *v;
	size_t n, i;
	int line = 1;

	*out = NULL;
	if (!buf_add(&b, "", 0))
		return MAIL_NOMEM;
	while (*p != '\0') {
		n = strcspn(p, "{\n");
		if (!buf_add(&b, p, n))
			goto nomem;
		p += n;
		if (*p == '\n') {
			line++;
			if (!buf_add(&b, "\n", 1))
				goto nomem;
			p++;
			continue;
		}
		if (*p == '\0')
			break;
		if (p[1] == '{') {
			if (!buf_add(&b, "{", 1))
				goto nomem;
			p += 2;
			continue;
		}
		name = p + 1;
		for (n = 0; name_char(name[n]); n++)
			;
		if (n == 0 || name[n] != '}') {
			set_err(err, errlen, "line %d: '{' opens no placeholder; write '{{' for a literal '{'",
			    line);
			free(b.s);
			return MAIL_BAD_TEMPLATE;
		}
		for (i = 0; i < nvars; i++)
			if (strlen(vars[i].name) == n && memcmp(vars[i].name, name, n) == 0)
				break;
		if (i == nvars) {
			set_err(err, errlen, "line %d: unknown placeholder '{%.*s}'", line,
			    n > 64 ? 64 : (int)n, name);
			free(b.s);
			return MAIL_BAD_TEMPLATE;
		}
		v = vars[i].value != NULL ? vars[i].value : "";
		if (!buf_add(&b, v, strlen(v)))
			goto nomem;
		p = name + n + 1;
	}
	*out = b.s;
	return MAIL_OK;
nomem:
	free(b.s);
	return MAIL_NOMEM;
}

enum mail_status mailout_template_load(const char *dir, const char *name, char **out,
    char *err, size_t errlen)
{
	enum mail_status st;
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0, i, j, bad;
	ssize_t n;
	int fd = -1, line;
	bool html;

	*out = NULL;
	for (i = 0; name[i] != '\0'; i++)
		if (!name_char(name[i]) && name[i] != '-')
			break;
	/* "game" is game.txt; "mail.html" names an HTML template */
	html = strcmp(name + i, ".html") == 0;
	if (i == 0 || (name[i] != '\0' && !html) || i > 64) {
		set_err(err, errlen, "'%.64s' is not a template name", name);
		return MAIL_BAD_TEMPLATE_NAME;
	}
	if ((size_t)snprintf(path, sizeof path, "%s/%s%s", dir, name, html ? "" : ".txt") >= sizeof path) {
		set_err(err, errlen, "%s: the path is too long", name);
		return MAIL_TEMPLATE_IO;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? MAIL_NO_TEMPLATE : MAIL_TEMPLATE_IO;
	}
	buf = malloc(MAILOUT_TEMPLATE_MAX + 2);
	if (buf == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	/* read one byte beyond the cap to tell an oversize file */
	while (len < MAILOUT_TEMPLATE_MAX + 1) {
		n = read(fd, buf + len, MAILOUT_TEMPLATE_MAX + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			set_err(err, errlen, "%s: %s", path, strerror(errno));
			st = MAIL_TEMPLATE_IO;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > MAILOUT_TEMPLATE_MAX) {
		set_err(err, errlen, "%s: larger than %d bytes", path, MAILOUT_TEMPLATE_MAX);
		st = MAIL_TEMPLATE_TOO_BIG;
		goto out;
	}
	/* CRLF -> LF, for templates edited on Windows */
	for (i = j = 0; i < len; i++)
		if (!(buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))
			buf[j++] = buf[i];
	len = j;
	buf[len] = '\0';
	if (!utf8_text_ok(buf, len, &bad)) {
		for (line = 1, i = 0; i < bad; i++)
			line += buf[i] == '\n';
		set_err(err, errlen, "%s line %d: not UTF-8 text (byte 0x%02x)", path, line,
		    (unsigned char)buf[bad]);
		st = MAIL_BAD_TEMPLATE;
		goto out;
	}
	*out = buf;
	buf = NULL;
	st = MAIL_OK;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return st;
}
