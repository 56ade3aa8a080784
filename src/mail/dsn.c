/* dsn: delivery status notifications (RFC 3464) read with GMime.  See dsn.h. */
#include "mail/dsn.h"
#include "mail/mailin.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

/* What the walk of the MIME tree found (borrowed from the message). */
struct found {
	GMimeObject *status;	/* the message/delivery-status part */
	GMimeObject *headers;	/* text/rfc822-headers, or NULL */
	GMimeMessage *original;	/* the message/rfc822 returned, or NULL */
};

static bool is_type(GMimeObject *obj, const char *type, const char *subtype)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);

	return ct != NULL && g_mime_content_type_is_type(ct, type, subtype);
}

static void walk(GMimeObject *obj, int depth, struct found *f)
{
	if (obj == NULL || depth > DSN_DEPTH_MAX)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		int i, n = g_mime_multipart_get_count(GMIME_MULTIPART(obj));

		for (i = 0; i < n; i++)
			walk(g_mime_multipart_get_part(GMIME_MULTIPART(obj), i), depth + 1, f);
		return;
	}
	if (f->status == NULL &&
	    (is_type(obj, "message", "delivery-status") || is_type(obj, "message", "global-delivery-status"))) {
		f->status = obj;
		return;
	}
	if (GMIME_IS_MESSAGE_PART(obj)) {
		/* the returned mail: its Message-ID; a report inside it is not ours to read */
		if (f->original == NULL)
			f->original = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		return;
	}
	if (f->headers == NULL && (is_type(obj, "text", "rfc822-headers") || is_type(obj, "message", "global-headers")))
		f->headers = obj;
}

/* The bytes written into mem, NUL-terminated, at most cap of them; NULL without memory. */
static char *stream_bytes(GMimeStream *mem, size_t cap, size_t *len)
{
	GByteArray *ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	char *out;

	*len = ba != NULL && ba->len < cap ? ba->len : ba != NULL ? cap : 0;
	out = malloc(*len + 1);
	if (out == NULL)
		return NULL;
	if (*len > 0)
		memcpy(out, ba->data, *len);
	out[*len] = '\0';
	return out;
}

/* The decoded content of a leaf part, NUL-terminated, at most cap bytes; NULL if none. */
static char *part_bytes(GMimeObject *obj, size_t cap, size_t *len)
{
	GMimeDataWrapper *dw;
	GMimeStream *mem;
	char *out = NULL;

	*len = 0;
	if (GMIME_IS_MESSAGE_PART(obj)) {
		/* a parser that took the fields for a message: they are its text as written */
		GMimeMessage *m = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));

		if (m == NULL)
			return NULL;
		mem = g_mime_stream_mem_new();
		if (g_mime_object_write_to_stream(GMIME_OBJECT(m), NULL, mem) >= 0)
			out = stream_bytes(mem, cap, len);
		g_object_unref(mem);
		return out;
	}
	if (!GMIME_IS_PART(obj))
		return NULL;
	dw = g_mime_part_get_content(GMIME_PART(obj));
	if (dw == NULL)
		return NULL;
	mem = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(dw, mem) >= 0)
		out = stream_bytes(mem, cap, len);
	g_object_unref(mem);
	return out;
}

/*
 * One block of header-like fields (RFC 3464 2.1: RFC 822 syntax), parsed
 * by GMime as the header of an empty part.  The caller unrefs it.
 */
static GMimeObject *parse_block(const char *text, size_t len)
{
	GMimeParserOptions *opts = g_mime_parser_options_new();
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeObject *obj;
	GByteArray *ba = g_byte_array_new();

	g_byte_array_append(ba, (const guint8 *)text, (guint)len);
	g_byte_array_append(ba, (const guint8 *)"\n\n", 2);
	stream = g_mime_stream_mem_new_with_byte_array(ba);	/* owns ba */
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	obj = g_mime_parser_construct_part(parser, opts);
	g_object_unref(parser);
	g_object_unref(stream);
	g_mime_parser_options_free(opts);
	return obj;
}

/* A field of obj, unfolded, surrounding space dropped, into out; false if missing or empty. */
static bool field(GMimeObject *obj, const char *name, char *out, size_t size)
{
	const char *v = g_mime_object_get_header(obj, name);
	size_t n = 0;

	if (v == NULL)
		return false;
	for (; *v != '\0' && n + 1 < size; v++) {
		if (*v == '\r' || *v == '\n')
			continue;
		if (isspace((unsigned char)*v) && (n == 0 || out[n - 1] == ' '))
			continue;
		out[n++] = isspace((unsigned char)*v) ? ' ' : *v;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return n > 0;
}

/*
 * "rfc822; <alice@example.org>" (any case, brackets or none) into addr;
 * false for another address type or an address mailaddr_ok() refuses.
 */
static bool recipient_addr(const char *v, char addr[MAILADDR_MAX + 1])
{
	const char *semi = strchr(v, ';'), *p;
	size_t n;

	if (semi == NULL || (size_t)(semi - v) != 6 || strncasecmp(v, "rfc822", 6) != 0)
		return false;
	for (p = semi + 1; *p == ' ' || *p == '<'; p++)
		;
	n = strcspn(p, " >");
	if (n == 0 || n > MAILADDR_MAX)
		return false;
	memcpy(addr, p, n);
	addr[n] = '\0';
	return mailaddr_ok(addr, NULL);
}

/* One per-recipient block into d (if it names an address). */
static void recipient_block(GMimeObject *obj, struct dsn *d)
{
	char v[512], action[64] = "", status[64] = "";
	struct dsn_recipient *r;
	size_t n;

	if (d->n == DSN_RECIPIENTS_MAX)
		return;
	r = &d->rcpt[d->n];
	memset(r, 0, sizeof *r);
	if (!(field(obj, "Final-Recipient", v, sizeof v) && recipient_addr(v, r->addr)) &&
	    !(field(obj, "Original-Recipient", v, sizeof v) && recipient_addr(v, r->addr)))
		return;
	/* the address the mail was sent to, when the receiving side rewrote it (an alias) */
	if (!(field(obj, "Original-Recipient", v, sizeof v) && recipient_addr(v, r->orig_addr)))
		r->orig_addr[0] = '\0';
	field(obj, "Action", action, sizeof action);
	field(obj, "Status", status, sizeof status);
	/* "5.1.1 (bad destination mailbox address)": the code alone */
	n = strspn(status, "0123456789.");
	if (n > DSN_STATUS_MAX)
		n = DSN_STATUS_MAX;
	memcpy(r->status, status, n);
	r->status[n] = '\0';
	action[strcspn(action, " (;")] = '\0';
	if (strcasecmp(action, "failed") == 0 && r->status[0] == '5')
		r->action = DSN_FAILED;
	else if (strcasecmp(action, "failed") == 0 || strcasecmp(action, "delayed") == 0)
		r->action = DSN_DELAYED;
	else
		r->action = DSN_OTHER;
	d->n++;
}

/* The blocks of a delivery-status part: the first is about the message, each next one a recipient. */
static void read_fields(const char *text, size_t len, struct dsn *d)
{
	const char *p = text, *end = text + len;
	bool first = true;

	while (p < end) {
		const char *q = p, *stop;
		GMimeObject *obj;

		/* a block ends at a line that is empty or only blanks */
		while (q < end) {
			const char *nl = memchr(q, '\n', (size_t)(end - q)), *e = nl != NULL ? nl : end, *s = q;

			while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
				s++;
			if (s == e && q != p)
				break;
			if (s == e) {	/* blank lines before the block */
				p = q = nl != NULL ? nl + 1 : end;
				continue;
			}
			q = nl != NULL ? nl + 1 : end;
		}
		stop = q;
		if (stop > p) {
			obj = parse_block(p, (size_t)(stop - p));
			if (obj != NULL) {
				if (!first)
					recipient_block(obj, d);
				/* a report whose first block names a recipient (no per-message fields) */
				else if (g_mime_object_get_header(obj, "Final-Recipient") != NULL)
					recipient_block(obj, d);
				g_object_unref(obj);
			}
			first = false;
		}
		p = stop;
	}
}

/* "<id>" or "id" into out, without brackets or spaces. */
static void copy_id(const char *v, char out[DSN_ID_MAX + 1])
{
	size_t n;

	if (v == NULL)
		return;
	while (*v == ' ' || *v == '\t' || *v == '<')
		v++;
	n = strcspn(v, "> \t\r\n");
	if (n > DSN_ID_MAX)
		return;
	memcpy(out, v, n);
	out[n] = '\0';
}

/* The first "Message-ID:" line of text at a line's start, any case. */
static void id_in_text(const char *text, size_t len, char out[DSN_ID_MAX + 1])
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if ((size_t)(end - p) > 11 && strncasecmp(p, "Message-ID:", 11) == 0) {
			char line[DSN_ID_MAX + 16];
			size_t n = (size_t)((nl != NULL ? nl : end) - (p + 11));

			if (n >= sizeof line)
				n = sizeof line - 1;
			memcpy(line, p + 11, n);
			line[n] = '\0';
			copy_id(line, out);
			return;
		}
		p = nl != NULL ? nl + 1 : end;
	}
}

/* The original Message-ID: the returned message, its headers, or a line in the raw mail's body. */
static void original_id(const struct found *f, const char *buf, size_t len, struct dsn *d)
{
	const char *body;
	char *text;
	size_t n;

	if (f->original != NULL) {
		copy_id(g_mime_message_get_message_id(f->original), d->orig_id);
		if (d->orig_id[0] != '\0')
			return;
	}
	if (f->headers != NULL) {
		text = part_bytes(f->headers, DSN_FIELDS_MAX, &n);
		if (text != NULL)
			id_in_text(text, n, d->orig_id);
		free(text);
		if (d->orig_id[0] != '\0')
			return;
	}
	/* past the report's own header: the copy of the mail in a plain-text bounce (buf has no NUL) */
	body = memmem(buf, len, "\n\n", 2);
	if (body == NULL)
		body = memmem(buf, len, "\r\n\r\n", 4);
	if (body != NULL)
		id_in_text(body, len - (size_t)(body - buf), d->orig_id);
}

/* Exim's plain-text bounces: X-Failed-Recipients: a@x, b@y */
static void failed_recipients(GMimeMessage *msg, struct dsn *d)
{
	char v[2048], *p, *tok, *save = NULL;

	if (!field(GMIME_OBJECT(msg), "X-Failed-Recipients", v, sizeof v))
		return;
	for (p = v; (tok = strtok_r(p, ", ", &save)) != NULL && d->n < DSN_RECIPIENTS_MAX; p = NULL) {
		struct dsn_recipient *r = &d->rcpt[d->n];

		if (strlen(tok) > MAILADDR_MAX || !mailaddr_ok(tok, NULL))
			continue;
		snprintf(r->addr, sizeof r->addr, "%s", tok);
		r->action = DSN_FAILED;
		snprintf(r->status, sizeof r->status, "5.0.0");
		d->n++;
	}
}

enum mail_status dsn_parse(const char *buf, size_t len, struct dsn *out)
{
	GMimeParserOptions *opts;
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	struct found f = { NULL, NULL, NULL };
	enum mail_status st = MAIL_NOT_A_REPORT;
	char *text;
	size_t n;

	memset(out, 0, sizeof *out);
	mailin_init();
	opts = g_mime_parser_options_new();
	stream = g_mime_stream_mem_new_with_buffer(buf, len);	/* copies */
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, opts);
	if (msg == NULL)
		goto out;
	walk(g_mime_message_get_mime_part(msg), 0, &f);
	if (f.status != NULL) {
		text = part_bytes(f.status, DSN_FIELDS_MAX, &n);
		if (text != NULL) {
			read_fields(text, n, out);
			free(text);
			st = MAIL_OK;
		}
	}
	if (st != MAIL_OK) {
		failed_recipients(msg, out);
		if (out->n > 0)
			st = MAIL_OK;
	}
	if (st == MAIL_OK)
		original_id(&f, buf, len, out);
out:
	if (msg != NULL)
		g_object_unref(msg);
	g_object_unref(parser);
	g_object_unref(stream);
	g_mime_parser_options_free(opts);
	return st;
}

size_t dsn_failed_count(const struct dsn *d)
{
	size_t i, k = 0;

	for (i = 0; i < d->n; i++)
		if (d->rcpt[i].action == DSN_FAILED)
			k++;
	return k;
}
