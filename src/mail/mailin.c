/*
 * mailin: read and parse the incoming mail with GMime.
 *
 * Ownership: every GMime object made here has one owner, the function that
 * made it, and is released on that function's single exit.  Pointers GMime
 * returns from getters (header values, address lists, parts, content) belong
 * to the message and are only borrowed; what reaches struct mailin_message is
 * always a malloc'd copy, so no GMime memory outlives mailin_parse().
 */
#include "base/mailaddr.h"
#include "base/utf8.h"
#include "mail/mailgmime.h"
#include "mail/mailin.h"
#include "mail/mailin_int.h"
#include "mail/mailtext.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <gmime/gmime.h>

static bool gmime_up;

void mailin_init(void)
{
	mailgmime_hold(&gmime_up);
}

void mailin_shutdown(void)
{
	mailgmime_release(&gmime_up);
}

/* ---- reading ---- */

/* Length of the header section of buf: through the first empty line, else through the last LF. */
static size_t header_section(const char *buf, size_t len)
{
	size_t i, last = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		last = i + 1;
		if (i + 1 < len && buf[i + 1] == '\n')
			return i + 2;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return i + 3;
	}
	return last != 0 ? last : len;
}

enum mail_status mailin_read(int fd, size_t cap, char **bufp, size_t *lenp)
{
	enum mail_status st = MAIL_OK;
	char *buf = NULL, *nbuf, sink[16384];
	size_t size = 0, len = 0, nsize;
	ssize_t n;

	*bufp = NULL;
	*lenp = 0;
	if (cap == 0)
		cap = MAILIN_CAP_DEFAULT;
	if (cap > SIZE_MAX / 4)
		cap = SIZE_MAX / 4;
	for (;;) {
		if (len == size) {
			/* one byte beyond the cap tells an oversize mail */
			if (size == cap + 1) {
				st = MAIL_TOO_BIG;
				break;
			}
			nsize = size == 0 ? 65536 : size * 2;
			if (nsize > cap + 1)
				nsize = cap + 1;
			nbuf = realloc(buf, nsize + 1);
			if (nbuf == NULL) {
				st = MAIL_NOMEM;
				goto out;
			}
			buf = nbuf;
			size = nsize;
		}
		n = read(fd, buf + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			st = MAIL_READ_ERROR;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (st == MAIL_TOO_BIG) {
		len = header_section(buf, cap);
		/* drain, so the MTA's write does not fail with EPIPE */
		while ((n = read(fd, sink, sizeof sink)) != 0)
			if (n < 0 && errno != EINTR)
				break;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	buf = NULL;
out:
	free(buf);
	return st;
}

/* ---- small string helpers ---- */

static char *clean_line(const char *s, size_t max)
{
	return mailtext_clean_line(s, max, UTF8_LINE);
}

/*
 * A message id as we keep it: printable ASCII other than '<', '>' and '"'
 * (RFC 5322 3.6.4 msg-id without its brackets), cut at MAILIN_ID_MAX.
 */
static char *clean_id(const char *id)
{
	size_t i, n = 0;
	char *c;

	if (id == NULL)
		id = "";
	c = malloc(strlen(id) + 1);
	if (c == NULL)
		return NULL;
	for (i = 0; id[i] != '\0' && n < MAILIN_ID_MAX; i++)
		if (id[i] > ' ' && id[i] < 0x7f && id[i] != '<' && id[i] != '>' && id[i] != '"')
			c[n++] = id[i];
	c[n] = '\0';
	return c;
}

/*
 * The whole Message-ID field as the key of a mail (mailin.h): line breaks
 * of folding dropped, surrounding white space trimmed, nothing else changed
 * and nothing cut, so two ids that differ anywhere are two keys.  NULL only
 * for lack of memory (then fill_empty fails too).
 */
static char *whole_id(const char *raw)
{
	size_t i, n = 0, len;
	char *c;

	if (raw == NULL)
		raw = "";
	len = strlen(raw);
	c = malloc(len + 1);
	if (c == NULL)
		return NULL;
	for (i = 0; i < len; i++)
		if (raw[i] != '\r' && raw[i] != '\n')
			c[n++] = raw[i];
	while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\t'))
		n--;
	c[n] = '\0';
	for (i = 0; c[i] == ' ' || c[i] == '\t'; i++)
		;
	/* the usual "<id>" is kept as "id", the form message_id has too */
	if (n - i >= 2 && c[i] == '<' && c[n - 1] == '>' && memchr(c + i + 1, '>', n - i - 2) == NULL) {
		i++;
		c[--n] = '\0';
	}
	memmove(c, c + i, n - i + 1);
	return c;
}

/* The local part of addr ("<MAILER-DAEMON@x>" and "MAILER-DAEMON" alike) is a system sender. */
static bool system_sender(const char *addr)
{
	static const char *const names[] = { "mailer-daemon", "postmaster" };
	size_t i, n;

	while (*addr == ' ' || *addr == '\t' || *addr == '<')
		addr++;
	n = strcspn(addr, "@> \t");
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (n == strlen(names[i]) && strncasecmp(addr, names[i], n) == 0)
			return true;
	return false;
}

/* ---- parsing ---- */

/*
 * A private copy of the mail for GMime: without a leading mbox "From "
 * line, with CRLF turned into LF, and NUL bytes (GMime cuts header values
 * at a NUL) dropped from the header, but in the Subject and after the
 * header kept as UTF8_NUL_MARK: there the command is looked for, and
 * command_parse refuses it rather than read "ev<NUL>il" as "evil".
 */
static char *normalise(const char *buf, size_t len, size_t *outlen)
{
	const char *nl;
	size_t i = 0, n = 0;
	bool header = true, keep = false, bol = true;
	char *out;

	if (len >= 5 && memcmp(buf, "From ", 5) == 0) {
		nl = memchr(buf, '\n', len);
		i = nl != NULL ? (size_t)(nl - buf) + 1 : len;
	}
	if (len - i > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(3 * (len - i) + 1);
	if (out == NULL)
		return NULL;
	for (; i < len; i++) {
		if (header && bol) {
			/* a new field, unless folded (RFC 5322 2.2.3); an empty line ends the header */
			if (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n'))
				header = false;
			else if (buf[i] != ' ' && buf[i] != '\t')
				keep = len - i >= 8 && strncasecmp(buf + i, "subject:", 8) == 0;
		}
		bol = buf[i] == '\n';
		if (buf[i] == '\0') {
			if (!header || keep) {
				memcpy(out + n, "\xef\xb7\x90", 3);	/* UTF8_NUL_MARK */
				n += 3;
			}
			continue;
		}
		if (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n')
			continue;
		out[n++] = buf[i];
	}
	out[n] = '\0';
	*outlen = n;
	return out;
}

/* Set out->automatic with a reason built from a header, unless already set. */
static enum mail_status automatic(struct mailin_message *out, const char *what, const char *value)
{
	char *v, *r;
	size_t n;

	if (out->automatic)
		return MAIL_OK;
	v = clean_line(value, 80);
	if (v == NULL)
		return MAIL_NOMEM;
	n = strlen(what) + strlen(v) + 3;
	r = malloc(n);
	if (r == NULL) {
		free(v);
		return MAIL_NOMEM;
	}
	snprintf(r, n, "%s%s%s", what, *v != '\0' ? ": " : "", v);
	free(v);
	free(out->automatic_reason);
	out->automatic_reason = r;
	out->automatic = true;
	return MAIL_OK;
}

/* The first word of a header value, before ';' or a comment, lower case, in buf. */
static void first_token(const char *value, char *buf, size_t size)
{
	size_t n = 0;

	if (value == NULL)
		value = "";
	while (*value == ' ' || *value == '\t')
		value++;
	while (*value != '\0' && strchr(" \t;(", *value) == NULL && n + 1 < size) {
		buf[n++] = (char)(*value >= 'A' && *value <= 'Z' ? *value - 'A' + 'a' : *value);
		value++;
	}
	buf[n] = '\0';
}

/*
 * RFC 3834 and common practice: mail that must never be answered.  Also
 * counts the From headers.
 */
static enum mail_status scan_headers(GMimeMessage *msg, struct mailin_message *out, int *nfrom)
{
	GMimeHeaderList *list = g_mime_object_get_header_list(GMIME_OBJECT(msg));	/* borrowed */
	GMimeObject *top;	/* borrowed */
	GMimeContentType *ct;
	enum mail_status st = MAIL_OK;
	const char *name, *value;
	char tok[32];
	int i, count = g_mime_header_list_get_count(list);

	*nfrom = 0;
	for (i = 0; i < count && st == MAIL_OK; i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(list, i);	/* borrowed */

		name = g_mime_header_get_name(h);
		value = g_mime_header_get_value(h);
		if (value == NULL)
			value = "";
		if (strcasecmp(name, "From") == 0) {
			(*nfrom)++;
		} else if (strcasecmp(name, "Return-Path") == 0) {
			first_token(value, tok, sizeof tok);
			if (strcmp(tok, "<>") == 0)
				st = automatic(out, "empty Return-Path (a bounce)", "");
			else if (system_sender(value))
				st = automatic(out, "Return-Path", value);
		} else if (strcasecmp(name, "Auto-Submitted") == 0) {
			first_token(value, tok, sizeof tok);
			if (strcmp(tok, "no") != 0)
				st = automatic(out, "Auto-Submitted", value);
		} else if (strcasecmp(name, "Precedence") == 0) {
			first_token(value, tok, sizeof tok);
			if (strcmp(tok, "bulk") == 0 || strcmp(tok, "list") == 0 || strcmp(tok, "junk") == 0)
				st = automatic(out, "Precedence", value);
		} else if (strcasecmp(name, "List-Id") == 0) {
			st = automatic(out, "List-Id", value);
		} else if (strcasecmp(name, "X-Cron-Env") == 0) {
			/* cron mails a job's output: never a command, even if MAILTO points here */
			st = automatic(out, "a mail from cron (X-Cron-Env)", "");
		}
	}
	/* RFC 3462: a delivery status report is a bounce whatever its sender */
	top = g_mime_message_get_mime_part(msg);
	ct = top != NULL ? g_mime_object_get_content_type(top) : NULL;
	if (st == MAIL_OK && ct != NULL && g_mime_content_type_is_type(ct, "multipart", "report"))
		st = automatic(out, "a delivery report (multipart/report)", "");
	return st;
}

/* A local part with non-ASCII bytes: an SMTPUTF8 address (RFC 6531), which replies cannot reach here. */
static bool utf8_local(const char *addr)
{
	const char *at = strrchr(addr, '@'), *p;

	for (p = addr; at != NULL && p < at; p++)
		if ((unsigned char)*p >= 0x80)
			return true;
	return false;
}

static enum mail_status parse_from(GMimeMessage *msg, int nfrom, struct mailin_message *out)
{
	InternetAddressList *list = g_mime_message_get_from(msg);	/* borrowed */
	InternetAddress *ia;
	const char *addr;
	char *at, tok[8];
	enum mail_status st;

	if (nfrom == 0)
		return MAIL_NO_FROM;
	if (nfrom > 1)
		return MAIL_TWO_FROM;
	if (list == NULL || internet_address_list_length(list) == 0) {
		/* "From: <>" or an empty From: the null sender of a bounce */
		first_token(g_mime_object_get_header(GMIME_OBJECT(msg), "From"), tok, sizeof tok);
		if (strcmp(tok, "<>") == 0 || tok[0] == '\0') {
			st = automatic(out, "empty sender address", "");
			if (st != MAIL_OK)
				return st;
		}
		return MAIL_BAD_FROM;
	}
	if (internet_address_list_length(list) != 1)
		return MAIL_BAD_FROM;
	ia = internet_address_list_get_address(list, 0);
	if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
		return MAIL_BAD_FROM;
	/*
	 * The domain as the DNS knows it: an internationalised domain, sent as
	 * UTF-8 (RFC 6532) or as punycode, comes back in its ASCII form
	 * (xn--...), the one replies are addressed to.  get_addr() would give
	 * the decoded UTF-8 form, which no ASCII address check passes.
	 */
	addr = internet_address_mailbox_get_idn_addr(INTERNET_ADDRESS_MAILBOX(ia));
	if (addr == NULL || *addr == '\0') {
		st = automatic(out, "empty sender address", "");
		return st != MAIL_OK ? st : MAIL_BAD_FROM;
	}
	if (system_sender(addr)) {
		st = automatic(out, "sender", addr);
		if (st != MAIL_OK)
			return st;
	}
	free(out->from_name);
	out->from_name = clean_line(internet_address_get_name(ia), MAILIN_NAME_MAX);
	if (out->from_name == NULL)
		return MAIL_NOMEM;
	if (!mailaddr_ok(addr, NULL))
		return utf8_local(addr) ? MAIL_UTF8_FROM : MAIL_BAD_FROM;
	free(out->from_addr);
	out->from_addr = strdup(addr);
	if (out->from_addr == NULL)
		return MAIL_NOMEM;
	/* domains are case-insensitive (RFC 5321 2.4); local parts are kept as sent */
	for (at = strrchr(out->from_addr, '@'); *at != '\0'; at++)
		if (*at >= 'A' && *at <= 'Z')
			*at = (char)(*at - 'A' + 'a');
	return MAIL_OK;
}

/* The first mailbox of To: as an addr-spec, "" if none (a mail of ours has one: the loop check reads it). */
static char *first_to(GMimeMessage *msg)
{
	InternetAddressList *list = g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO);	/* borrowed */
	InternetAddress *ia;
	const char *addr;
	int i, n = list != NULL ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		ia = internet_address_list_get_address(list, i);
		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		addr = internet_address_mailbox_get_idn_addr(INTERNET_ADDRESS_MAILBOX(ia));
		if (addr != NULL && mailaddr_ok(addr, NULL))
			return strdup(addr);
	}
	return strdup("");
}

/* Ids of a References or In-Reply-To value, space separated: the first or the last `keep`. */
static char *id_list(GMimeParserOptions *opts, const char *value, int keep, bool last)
{
	GMimeReferences *refs;	/* owned */
	char *res, *id;
	size_t used = 0;
	int i, n;

	if (value == NULL)
		return strdup("");
	refs = g_mime_references_parse(opts, value);
	n = refs != NULL ? g_mime_references_length(refs) : 0;
	res = malloc((size_t)keep * (MAILIN_ID_MAX + 1) + 1);
	if (res == NULL)
		goto out;
	res[0] = '\0';
	if (!last && n > keep)
		n = keep;
	for (i = last && n > keep ? n - keep : 0; i < n; i++) {
		id = clean_id(g_mime_references_get_message_id(refs, i));
		if (id == NULL) {
			free(res);
			res = NULL;
			goto out;
		}
		if (*id != '\0') {
			used += (size_t)sprintf(res + used, "%s%s", used != 0 ? " " : "", id);
		}
		free(id);
	}
out:
	if (refs != NULL)
		g_mime_references_free(refs);
	return res;
}

/*
 * Find the first text/plain part that is not an attachment, depth first,
 * and the first text/html one (*html), for a mail without plain text.
 */
static enum mail_status find_text(GMimeObject *obj, int depth, GMimeObject **found, GMimeObject **html)
{
	GMimeContentType *ct;
	GMimeContentDisposition *cd;
	enum mail_status st;
	int i, n;

	if (depth > MAILIN_MAX_DEPTH)
		return MAIL_TOO_DEEP;
	if (GMIME_IS_MULTIPART(obj)) {
		n = g_mime_multipart_get_count(GMIME_MULTIPART(obj));
		for (i = 0; i < n; i++) {
			st = find_text(g_mime_multipart_get_part(GMIME_MULTIPART(obj), i), depth + 1, found, html);
			if (st != MAIL_OK || *found != NULL)
				return st;
		}
		return MAIL_OK;
	}
	/* message/rfc822 parts are not searched: a forwarded mail's commands are not the sender's */
	if (!GMIME_IS_PART(obj))
		return MAIL_OK;
	ct = g_mime_object_get_content_type(obj);
	cd = g_mime_object_get_content_disposition(obj);
	if (ct == NULL || (cd != NULL && g_mime_content_disposition_is_attachment(cd)))
		return MAIL_OK;
	if (g_mime_content_type_is_type(ct, "text", "plain"))
		*found = obj;
	else if (*html == NULL && g_mime_content_type_is_type(ct, "text", "html"))
		*html = obj;
	return MAIL_OK;
}

/*
 * The decoded, converted and cleaned text of part into out->body (HTML made
 * text first, a format=flowed text unwrapped).
 */
static enum mail_status part_text(GMimeObject *part, bool html, struct mailin_message *out)
{
	GMimeDataWrapper *content = g_mime_part_get_content(GMIME_PART(part));	/* borrowed */
	GMimeStream *mem = NULL;	/* owned */
	GByteArray *bytes;		/* borrowed from mem */
	char *utf = NULL;
	const char *format;		/* borrowed from part */
	size_t ulen = 0;
	enum mail_status st = MAIL_NOMEM;

	if (content == NULL)
		return MAIL_OK;	/* out->body stays "" */
	mem = g_mime_stream_mem_new();
	/* decodes the Content-Transfer-Encoding (base64, quoted-printable) */
	if (g_mime_data_wrapper_write_to_stream(content, mem) < 0) {
		st = MAIL_OK;
		goto out;
	}
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	utf = mailin_text_to_utf8((const char *)bytes->data, bytes->len,
	    g_mime_object_get_content_type_parameter(part, "charset"), &ulen);
	if (utf == NULL)
		goto out;
	if (html) {
		char *text = mailin_text_from_html(utf, ulen, &ulen);

		free(utf);
		utf = text;
		if (utf == NULL)
			goto out;
	} else if ((format = g_mime_object_get_content_type_parameter(part, "format")) != NULL &&
	    g_ascii_strcasecmp(format, "flowed") == 0) {
		const char *delsp = g_mime_object_get_content_type_parameter(part, "delsp");
		char *text = mailin_text_unflow(utf, ulen, delsp != NULL && g_ascii_strcasecmp(delsp, "yes") == 0,
		    &ulen);

		free(utf);
		utf = text;
		if (utf == NULL)
			goto out;
	}
	free(out->body);
	out->body = utf8_clean(utf, ulen, UTF8_TEXT_KEEP, 0, &out->body_len);
	if (out->body != NULL)
		st = MAIL_OK;
out:
	free(utf);
	g_object_unref(mem);
	return st;
}

static enum mail_status fill_empty(struct mailin_message *out)
{
	char **fields[] = { &out->from_addr, &out->from_name, &out->subject, &out->message_id, &out->message_key,
		&out->to_addr, &out->in_reply_to, &out->references, &out->date, &out->body, &out->automatic_reason };
	size_t i;

	for (i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (*fields[i] == NULL && (*fields[i] = strdup("")) == NULL)
			return MAIL_NOMEM;
	return MAIL_OK;
}

enum mail_status mailin_parse(const char *buf, size_t len, struct mailin_message *out)
{
	static const char *fallback[] = { "utf-8", "windows-1252", NULL };
	GMimeParserOptions *opts = NULL;	/* owned */
	GMimeStream *stream = NULL;		/* owned */
	GMimeParser *parser = NULL;		/* owned */
	GMimeMessage *msg = NULL;		/* owned */
	GMimeObject *top, *text = NULL, *html = NULL;	/* borrowed from msg */
	bool is_html = false;
	GDateTime *dt;				/* owned */
	enum mail_status st, from_st, body_st;
	const char *date;
	char *copy;
	size_t clen;
	int nfrom;

	memset(out, 0, sizeof *out);
	out->date_time = -1;
	copy = normalise(buf, len, &clen);
	if (copy == NULL)
		return MAIL_NOMEM;
	mailin_init();
	opts = g_mime_parser_options_new();
	/* 8-bit header text that is not UTF-8 is read as windows-1252 */
	g_mime_parser_options_set_fallback_charsets(opts, fallback);
	stream = g_mime_stream_mem_new_with_buffer(copy, clen);	/* copies */
	free(copy);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, opts);
	if (msg == NULL ||
	    g_mime_header_list_get_count(g_mime_object_get_header_list(GMIME_OBJECT(msg))) == 0) {
		st = MAIL_UNPARSABLE;
		goto out;
	}

	st = scan_headers(msg, out, &nfrom);
	if (st != MAIL_OK)
		goto out;
	from_st = parse_from(msg, nfrom, out);
	if (from_st == MAIL_NOMEM) {
		st = from_st;
		goto out;
	}
	out->subject = mailtext_clean_line(g_mime_message_get_subject(msg), MAILIN_SUBJECT_MAX, UTF8_LINE_KEEP);
	out->message_id = clean_id(g_mime_message_get_message_id(msg));
	out->message_key = whole_id(g_mime_object_get_header(GMIME_OBJECT(msg), "Message-ID"));
	out->to_addr = first_to(msg);
	out->in_reply_to = id_list(opts, g_mime_object_get_header(GMIME_OBJECT(msg), "In-Reply-To"), 1, false);
	out->references = id_list(opts, g_mime_object_get_header(GMIME_OBJECT(msg), "References"),
	    MAILIN_REFERENCES_MAX, true);
	date = g_mime_object_get_header(GMIME_OBJECT(msg), "Date");
	out->date = clean_line(date, 100);
	if (date != NULL && (dt = g_mime_utils_header_decode_date(date)) != NULL) {
		out->date_time = (time_t)g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}

	body_st = MAIL_OK;
	top = g_mime_message_get_mime_part(msg);
	if (top != NULL)
		body_st = find_text(top, 0, &text, &html);
	/* an HTML-only mail (no text/plain part): its text, made from the HTML */
	if (body_st == MAIL_OK && text == NULL && html != NULL)
		text = html, is_html = true;
	if (body_st == MAIL_OK && text != NULL && part_text(text, is_html, out) != MAIL_OK) {
		st = MAIL_NOMEM;
		goto out;
	}
	if (fill_empty(out) != MAIL_OK) {
		st = MAIL_NOMEM;
		goto out;
	}
	st = from_st != MAIL_OK ? from_st : body_st;
out:
	if (msg != NULL)
		g_object_unref(msg);
	if (parser != NULL)
		g_object_unref(parser);
	if (stream != NULL)
		g_object_unref(stream);
	if (opts != NULL)
		g_mime_parser_options_free(opts);
	return st;
}

void mailin_message_release(struct mailin_message *out)
{
	free(out->from_addr);
	free(out->from_name);
	free(out->subject);
	free(out->message_id);
	free(out->message_key);
	free(out->to_addr);
	free(out->in_reply_to);
	free(out->references);
	free(out->date);
	free(out->body);
	free(out->automatic_reason);
	memset(out, 0, sizeof *out);
	out->date_time = -1;
}
