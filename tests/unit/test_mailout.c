/*
 * Unit tests for mailout: composed replies parsed back with GMime (headers,
 * byte-exact bodies, no header injection), templates and their loader.
 */
#include "mail/mailout.h"
#include "t.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>

static const char board[] =
    "x: alice 3/4   o: bob 2/3\n"
    "\n"
    "    A B C D E\n"
    " 5  . . . o .   5\n"
    " 4  . X x . .   4\n"
    " 3  , o . , .   3\n"
    " 2  . . x o .   2\n"
    " 1  . . . . .   1\n"
    "    A B C D E\n";

static struct mailout_spec base(void)
{
	struct mailout_spec s = {
		.from_addr = "oust@example.net",
		.from_name = "Oust server",
		.to_addr = "alice@example.org",
		.to_name = "Alice Liddell",
		.subject = "Oust Board 101 bob",
		.body = board,
		.date = 1700000000,
		.message_id = "1700000000.42.1@example.net",
		.in_reply_to = "in.1@example.org",
		.references = "root.101@example.net srv.7@example.net",
		.root_id = "root.101@example.net",
	};
	return s;
}

/* The composed message parsed back with GMime; the caller unrefs it. */
static GMimeMessage *parse_back(const char *text, size_t len)
{
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(text, len);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);

	g_object_unref(parser);
	g_object_unref(stream);
	return msg;
}

/* The decoded body of msg (g_free it). */
static char *body_of(GMimeMessage *msg)
{
	GMimeObject *part = g_mime_message_get_mime_part(msg);
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *bytes;
	char *s;

	g_mime_data_wrapper_write_to_stream(g_mime_part_get_content(GMIME_PART(part)), mem);
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	s = g_strndup((const char *)bytes->data, bytes->len);
	g_object_unref(mem);
	return s;
}

static int count_headers(GMimeMessage *msg, const char *name)
{
	GMimeHeaderList *list = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	int i, n = 0;

	for (i = 0; i < g_mime_header_list_get_count(list); i++)
		if (g_ascii_strcasecmp(g_mime_header_get_name(g_mime_header_list_get_header_at(list, i)), name) == 0)
			n++;
	return n;
}

/* The header section: only printable ASCII, each line a header or a folded continuation. */
static int headers_clean(const char *text)
{
	const char *p = text;

	while (*p != '\0' && *p != '\n') {
		const char *eol = strchr(p, '\n');

		if (eol == NULL)
			return 0;
		if (*p != ' ' && *p != '\t' && memchr(p, ':', (size_t)(eol - p)) == NULL)
			return 0;
		for (; p < eol; p++)
			if ((unsigned char)*p < 0x20 && *p != '\t')
				return 0;
			else if ((unsigned char)*p >= 0x7f)
				return 0;
		p = eol + 1;
	}
	return *p == '\n';
}

/* A header value with the tabs of folding turned into spaces, in a static buffer. */
static const char *unfolded(const char *v)
{
	static char buf[4096];
	size_t i;

	for (i = 0; v != NULL && v[i] != '\0' && i + 1 < sizeof buf; i++)
		buf[i] = v[i] == '\t' ? ' ' : v[i];
	buf[i] = '\0';
	return buf;
}

static const char *header(GMimeMessage *msg, const char *name)
{
	return g_mime_object_get_header(GMIME_OBJECT(msg), name);
}

static void test_compose(void)
{
	struct mailout_spec s = base();
	GMimeMessage *msg;
	InternetAddress *ia;
	GMimeContentType *ct;
	char *out, *body;
	size_t len;

	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "compose: ok");
	ok(len == strlen(out), "compose: length and NUL");
	ok(headers_clean(out), "compose: header section is clean");
	ok(strstr(out, "\r") == NULL, "compose: LF line ends");
	msg = parse_back(out, len);
	ok(msg != NULL, "compose: parses back");
	ia = internet_address_list_get_address(g_mime_message_get_from(msg), 0);
	ok_str(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)), "oust@example.net", "From address");
	ok_str(internet_address_get_name(ia), "Oust server", "From name");
	ia = internet_address_list_get_address(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), 0);
	ok_str(internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)), "alice@example.org", "To address");
	ok_str(internet_address_get_name(ia), "Alice Liddell", "To name");
	ok_str(g_mime_message_get_subject(msg), "Oust Board 101 bob", "Subject");
	ok_str(header(msg, "Date"), "Tue, 14 Nov 2023 22:13:20 +0000", "Date from the given time, UTC");
	ok_str(g_mime_message_get_message_id(msg), "1700000000.42.1@example.net", "Message-ID given");
	ok_str(header(msg, "In-Reply-To"), "<in.1@example.org>", "In-Reply-To");
	ok_str(header(msg, "References"), "<root.101@example.net> <srv.7@example.net> <in.1@example.org>",
	    "References: root first, no repeats, then the incoming id");
	ok_str(header(msg, "Auto-Submitted"), "auto-replied", "Auto-Submitted");
	{
		struct mailout_spec g = base();
		GMimeMessage *gm;
		char *gout;
		size_t glen;

		g.generated = true;
		ok_int(mailout_compose(&g, &gout, &glen), MAIL_OK, "compose a mail that answers none");
		gm = parse_back(gout, glen);
		ok(gm != NULL && strcmp(header(gm, "Auto-Submitted"), "auto-generated") == 0,
		    "it says Auto-Submitted: auto-generated");
		if (gm != NULL)
			g_object_unref(gm);
		free(gout);
	}
	ok_str(header(msg, "MIME-Version"), "1.0", "MIME-Version");
	ct = g_mime_object_get_content_type(g_mime_message_get_mime_part(msg));
	ok(g_mime_content_type_is_type(ct, "text", "plain"), "text/plain");
	ok_str(g_mime_content_type_get_parameter(ct, "charset"), "utf-8", "charset=utf-8");
	ok(g_mime_content_type_get_parameter(ct, "format") == NULL, "no format=flowed");
	ok_str(g_mime_object_get_header(g_mime_message_get_mime_part(msg), "Content-Transfer-Encoding"), "7bit",
	    "ASCII body: sent as it is (7bit)");
	body = body_of(msg);
	ok_str(body, board, "board body byte-exact");
	ok(strstr(out, board) != NULL, "ASCII board readable as is in the raw message");
	g_free(body);
	g_object_unref(msg);
	free(out);
}

/* The decoded text of part (g_free it). */
static char *text_of(GMimeObject *part)
{
	return GMIME_IS_TEXT_PART(part) ? g_mime_text_part_get_text(GMIME_TEXT_PART(part)) : NULL;
}

static void test_alternative(void)
{
	static const char html[] = "<!DOCTYPE html>\n<html><body><table><tr><td style=\"background:#111\">"
	    "&middot;</td></tr></table><p>caf\xc3\xa9</p></body></html>\n";
	struct mailout_spec s = base(), p = base();
	GMimeMessage *msg;
	GMimeObject *top, *a, *b;
	char *out, *plain_out, *again, *t, *bnd;
	size_t len, plen, alen;

	s.html = html;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "alternative: composed");
	ok_int(mailout_compose(&p, &plain_out, &plen), MAIL_OK, "the same without HTML");
	msg = parse_back(out, len);
	top = msg != NULL ? g_mime_message_get_mime_part(msg) : NULL;
	ok(top != NULL && GMIME_IS_MULTIPART(top) &&
	    g_mime_content_type_is_type(g_mime_object_get_content_type(top), "multipart", "alternative") &&
	    g_mime_multipart_get_count(GMIME_MULTIPART(top)) == 2, "multipart/alternative of two parts");
	a = top != NULL && GMIME_IS_MULTIPART(top) ? g_mime_multipart_get_part(GMIME_MULTIPART(top), 0) : NULL;
	b = top != NULL && GMIME_IS_MULTIPART(top) ? g_mime_multipart_get_part(GMIME_MULTIPART(top), 1) : NULL;
	ok(a != NULL && g_mime_content_type_is_type(g_mime_object_get_content_type(a), "text", "plain"),
	    "text/plain first (RFC 2046 5.1.4: the preferred, richer part last)");
	ok(b != NULL && g_mime_content_type_is_type(g_mime_object_get_content_type(b), "text", "html") &&
	    strcmp(g_mime_content_type_get_parameter(g_mime_object_get_content_type(b), "charset"), "utf-8") == 0,
	    "then text/html; charset=utf-8");
	t = a != NULL ? text_of(a) : NULL;
	ok_str(t, board, "the text part byte-exact");
	g_free(t);
	t = b != NULL ? text_of(b) : NULL;
	ok_str(t, html, "the HTML part byte-exact");
	g_free(t);
	ok(b != NULL && strcmp(g_mime_object_get_header(b, "Content-Transfer-Encoding"), "quoted-printable") == 0,
	    "the HTML (non-ASCII) quoted-printable");
	/* the text part's raw section is the single-part body, as it was */
	ok(strstr(out, "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 7bit\n\n") != NULL &&
	    strstr(out, strstr(plain_out, "\n\n") + 2) != NULL, "the raw text part holds the single-part body as is");
	ok(headers_clean(out), "alternative: header section is clean");
	bnd = strstr(out, "boundary=\"=_oust_");
	ok(bnd != NULL, "the boundary starts with =_ (never in quoted-printable)");
	ok_int(mailout_compose(&s, &again, &alen), MAIL_OK, "composed again");
	ok(alen == len && memcmp(again, out, len) == 0, "the same reply is the same bytes (the boundary from the id)");
	free(again);
	if (msg != NULL)
		g_object_unref(msg);
	free(plain_out);
	/* a text holding the boundary: another one is chosen */
	if (bnd != NULL) {
		char b0[64], *body2, *o2;
		size_t n = strcspn(bnd + 10, "\""), l2;

		snprintf(b0, sizeof b0, "%.*s", (int)n, bnd + 10);
		body2 = malloc(strlen(board) + 100);
		sprintf(body2, "%s--%s\n", board, b0);
		s.body = body2;
		ok_int(mailout_compose(&s, &o2, &l2), MAIL_OK, "a text that holds the boundary");
		ok(strstr(o2, "boundary=\"") != NULL && strncmp(strstr(o2, "boundary=\"") + 10, b0, n + 1) != 0,
		    "... gets another boundary");
		msg = parse_back(o2, l2);
		top = msg != NULL ? g_mime_message_get_mime_part(msg) : NULL;
		t = top != NULL && GMIME_IS_MULTIPART(top) ? text_of(g_mime_multipart_get_part(GMIME_MULTIPART(top), 0)) : NULL;
		ok_str(t, body2, "... and parses back whole");
		g_free(t);
		if (msg != NULL)
			g_object_unref(msg);
		free(o2);
		free(body2);
	}
	free(out);
	s = base();
	s.html = "<p>\xff</p>";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_BODY, "HTML that is not UTF-8 is refused");
}

static void test_encodings(void)
{
	struct mailout_spec s = base();
	GMimeMessage *msg;
	InternetAddress *ia;
	char *out, *body, longline[2100];
	const char *text;
	size_t len;

	text = "Gr\xc3\xbc\xc3\x9f" "e, J\xc3\xbcrgen!\n  trailing spaces   \n\tand a tab\nFrom the start\n.\n";
	s.body = text;
	s.to_name = "J\xc3\xbcrgen \"J\" M\xc3\xbcller, Jr.";
	s.subject = "Oust Board 101 j\xc3\xbcrgen";
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "non-ASCII: compose");
	ok(headers_clean(out), "non-ASCII: header section is 7-bit clean");
	ok(strstr(out, "=?UTF-8?") != NULL || strstr(out, "=?utf-8?") != NULL, "non-ASCII: encoded words in UTF-8");
	ok(strstr(out, "Content-Transfer-Encoding: quoted-printable") != NULL, "non-ASCII body: quoted-printable");
	msg = parse_back(out, len);
	body = body_of(msg);
	ok_str(body, text, "non-ASCII body byte-exact after decoding");
	g_free(body);
	ia = internet_address_list_get_address(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), 0);
	ok_str(internet_address_get_name(ia), "J\xc3\xbcrgen \"J\" M\xc3\xbcller, Jr.", "non-ASCII name with specials decodes back");
	ok_int(internet_address_list_length(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO)), 1,
	    "name with a comma stays one address");
	ok_str(g_mime_message_get_subject(msg), "Oust Board 101 j\xc3\xbcrgen", "non-ASCII subject decodes back");
	g_object_unref(msg);
	free(out);

	memset(longline, 'x', 2000);
	memcpy(longline + 2000, "\nend\n", 6);
	s = base();
	s.body = longline;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "2000-byte line: compose");
	ok(strstr(out, "Content-Transfer-Encoding: quoted-printable") != NULL, "long line: quoted-printable");
	msg = parse_back(out, len);
	body = body_of(msg);
	ok_str(body, longline, "long line byte-exact after decoding");
	g_free(body);
	g_object_unref(msg);
	free(out);

	s = base();
	s.body = "no final newline";
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "body without final LF: compose");
	msg = parse_back(out, len);
	body = body_of(msg);
	ok_str(body, "no final newline\n", "body without final LF: one LF added");
	g_free(body);
	g_object_unref(msg);
	free(out);

	s = base();
	s.body = "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe6\x96\x87\n";
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "all non-ASCII: compose");
	ok(strstr(out, "Content-Transfer-Encoding: quoted-printable") != NULL, "all non-ASCII: quoted-printable, not base64");
	msg = parse_back(out, len);
	body = body_of(msg);
	ok_str(body, s.body, "all non-ASCII: byte-exact");
	g_free(body);
	g_object_unref(msg);
	free(out);

	s = base();
	s.body = NULL;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "NULL body: compose");
	free(out);
}

static void test_injection(void)
{
	struct mailout_spec s = base();
	GMimeMessage *msg;
	InternetAddress *ia;
	char *out, *body;
	size_t len;

	s.to_name = "Eve\r\nBcc: victim@example.org";
	s.from_name = "Oust\nX-Evil: 1";
	s.subject = "Oust Board 101 eve\r\nBcc: victim@example.org\r\n\r\nfake body\x01\x7f";
	s.in_reply_to = "x@y>\r\nBcc: victim@example.org";
	s.references = "good@example.org bad\r\nBcc:<victim@example.org> <angle@x> ok@example.org";
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "hostile header values: compose");
	ok(headers_clean(out), "hostile header values: header section clean");
	ok(strstr(out, "\nBcc:") == NULL && strstr(out, "\nX-Evil:") == NULL, "no injected header line");
	msg = parse_back(out, len);
	ok_int(count_headers(msg, "Bcc"), 0, "no Bcc header");
	ok_int(count_headers(msg, "X-Evil"), 0, "no X-Evil header");
	ok_int(count_headers(msg, "In-Reply-To"), 0, "an In-Reply-To that is no id is left out");
	ok_str(g_mime_message_get_subject(msg), "Oust Board 101 eve Bcc: victim@example.org  fake body",
	    "subject: CR/LF become spaces, controls removed, one line");
	ia = internet_address_list_get_address(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), 0);
	ok_str(internet_address_get_name(ia), "Eve Bcc: victim@example.org", "To name: one line");
	ok_int(internet_address_list_length(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO)), 1,
	    "To: still one address");
	ok_str(header(msg, "References"), "<root.101@example.net> <good@example.org> <ok@example.org>",
	    "References: ids that are no ids skipped");
	body = body_of(msg);
	ok_str(body, board, "subject text did not reach the body");
	g_free(body);
	g_object_unref(msg);
	free(out);
}

static void test_ids(void)
{
	struct mailout_spec s = base();
	char refs[4000], *p, *out, *out2, want[4000];
	GMimeMessage *msg;
	const char *id1;
	char *id1copy;
	size_t len;
	int i;

	s.message_id = NULL;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "generated id: compose");
	ok_int(mailout_compose(&s, &out2, &len), MAIL_OK, "generated id: compose again");
	msg = parse_back(out, strlen(out));
	id1 = g_mime_message_get_message_id(msg);
	id1copy = g_strdup(id1);
	ok(id1 != NULL && strncmp(id1, "1700000000.", 11) == 0 && strstr(id1, "@example.net") != NULL,
	    "generated id: <time.pid.counter@domain of From>: %s", id1 != NULL ? id1 : "(none)");
	g_object_unref(msg);
	msg = parse_back(out2, strlen(out2));
	ok(strcmp(id1copy, g_mime_message_get_message_id(msg)) != 0, "generated ids differ");
	g_object_unref(msg);
	g_free(id1copy);
	free(out);
	free(out2);

	s = base();
	p = refs;
	for (i = 1; i <= 20; i++)
		p += sprintf(p, "%sr%d@example.org", i > 1 ? " " : "", i);
	s.references = refs;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "20 references: compose");
	msg = parse_back(out, len);
	p = want + sprintf(want, "<root.101@example.net>");
	for (i = 11; i <= 20; i++)
		p += sprintf(p, " <r%d@example.org>", i);
	sprintf(p, " <in.1@example.org>");
	ok_str(unfolded(header(msg, "References")), want, "References capped at %d: the root and the last ones",
	    MAILOUT_REFERENCES_MAX);
	g_object_unref(msg);
	free(out);

	s = base();
	s.root_id = NULL;
	s.references = NULL;
	s.in_reply_to = NULL;
	ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "no threading ids: compose");
	msg = parse_back(out, len);
	ok(count_headers(msg, "References") == 0 && count_headers(msg, "In-Reply-To") == 0,
	    "no threading ids: no References, no In-Reply-To");
	g_object_unref(msg);
	free(out);
}

static void test_errors(void)
{
	struct mailout_spec s;
	char *out = (char *)"x";
	size_t len = 7;

	s = base();
	s.from_addr = "not an address";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ADDRESS, "bad from address");
	ok(out == NULL && len == 0, "on error: *out NULL, *len 0");
	s = base();
	s.to_addr = "alice@example.org\r\nBcc: victim@example.org";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ADDRESS, "to address with CR/LF");
	s = base();
	s.to_addr = NULL;
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ADDRESS, "no to address");
	s = base();
	s.body = "bell\x07";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_BODY, "control character in body");
	s = base();
	s.body = "cr\r\nlf";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_BODY, "CR in body");
	s = base();
	s.body = "bad \xff utf-8";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_BODY, "invalid UTF-8 in body");
	s = base();
	s.message_id = "two words@example.net";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ID, "message id with a space");
	s = base();
	s.message_id = "<x@example.net>";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ID, "message id with brackets");
	{
		static const char *const bad_roots[] = { "root\n@example.net", "a\"b@c", "a<b@c", "a@b>x", "@c",
		    "a@", "a..b@c" };
		size_t i;

		/* a bad root (a hand-edited thread:) is left out: the reply still goes */
		for (i = 0; i < sizeof bad_roots / sizeof bad_roots[0]; i++) {
			s = base();
			s.root_id = bad_roots[i];
			ok_int(mailout_compose(&s, &out, &len), MAIL_OK, "bad root id %zu: composed", i);
			ok(out != NULL && strstr(out, "References: <") != NULL && strstr(out, bad_roots[i]) == NULL,
			    "bad root id %zu: left out of References, the other ids kept", i);
			free(out);
			out = NULL;
		}
	}
	s = base();
	s.message_id = NULL;
	s.from_addr = "oust@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa."
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb."
	    "ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc."
	    "ddddddddddddddddddddddddddddddddddddddddddddddddddddd.example";
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_ID, "generated id too long for a 247-byte domain");
	s = base();
	s.date = (time_t)400000000000LL;
	ok_int(mailout_compose(&s, &out, &len), MAIL_BAD_DATE, "date in the year 14645");
}

static void test_expand(void)
{
	static const struct mailout_var vars[] = {
		{ "board", "    A B\n 1  . .\n" },
		{ "player", "alice" },
		{ "turn_no", "7" },
		{ "empty", NULL },
	};
	char *out, err[MAILOUT_ERR_MAX];

	ok_int(mailout_template_expand("Oust Board {turn_no} {player}\n\n{board}--\n{{literal} and } {empty}.",
	    vars, 4, &out, err, sizeof err), MAIL_OK, "expand: ok");
	ok_str(out, "Oust Board 7 alice\n\n    A B\n 1  . .\n--\n{literal} and } .", "expand: values, {{, lone }");
	free(out);
	ok_int(mailout_template_expand("", vars, 4, &out, err, sizeof err), MAIL_OK, "expand: empty template");
	ok_str(out, "", "expand: empty result");
	free(out);
	ok_int(mailout_template_expand("{player}{player}", vars, 4, &out, err, sizeof err), MAIL_OK,
	    "expand: adjacent placeholders");
	ok_str(out, "alicealice", "expand: twice");
	free(out);

	ok_int(mailout_template_expand("a\nb\nhello {bord}\n", vars, 4, &out, err, sizeof err),
	    MAIL_BAD_TEMPLATE, "expand: unknown placeholder");
	ok_str(err, "line 3: unknown placeholder '{bord}'", "expand: unknown placeholder named, with its line");
	ok(out == NULL, "expand: no output on error");
	ok_int(mailout_template_expand("x\n{ player }", vars, 4, &out, err, sizeof err), MAIL_BAD_TEMPLATE,
	    "expand: '{ player }'");
	ok_str(err, "line 2: '{' opens no placeholder; write '{{' for a literal '{'", "expand: stray '{' message");
	ok_int(mailout_template_expand("{}", vars, 4, &out, err, sizeof err), MAIL_BAD_TEMPLATE, "expand: '{}'");
	ok_int(mailout_template_expand("{player", vars, 4, &out, err, sizeof err), MAIL_BAD_TEMPLATE,
	    "expand: unterminated placeholder");
	ok_int(mailout_template_expand("end {", vars, 4, &out, err, sizeof err), MAIL_BAD_TEMPLATE,
	    "expand: '{' at the end");
	ok_int(mailout_template_expand("{player}", NULL, 0, &out, NULL, 0), MAIL_BAD_TEMPLATE,
	    "expand: no variables, no error buffer");
}

static void put_file(const char *dir, const char *name, const char *data, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, len, f) != len)
		exit(1);
	fclose(f);
}

static void test_load(void)
{
	static const char *const names[] = { "move.txt", "bad.txt", "ctl.txt", "nul.txt", "big.txt", "max.txt" };
	char dir[] = "/tmp/oustpbm-test-mailout.XXXXXX", path[512], err[MAILOUT_ERR_MAX], *out, *big;
	char longdir[5000];
	size_t i;

	if (mkdtemp(dir) == NULL)
		exit(1);
	put_file(dir, "move.txt", "Oust Board {board}\r\n{player} moved\r\n", 36);
	ok_int(mailout_template_load(dir, "move", &out, err, sizeof err), MAIL_OK, "load: ok");
	ok_str(out, "Oust Board {board}\n{player} moved\n", "load: CRLF became LF");
	free(out);

	ok_int(mailout_template_load(dir, "missing", &out, err, sizeof err), MAIL_NO_TEMPLATE, "load: missing");
	snprintf(path, sizeof path, "%s/missing.txt: No such file or directory", dir);
	ok_str(err, path, "load: missing file named");
	ok_int(mailout_template_load(dir, "../move", &out, err, sizeof err), MAIL_BAD_TEMPLATE_NAME, "load: '../move'");
	ok_str(err, "'../move' is not a template name", "load: bad name message");
	ok_int(mailout_template_load(dir, "", &out, err, sizeof err), MAIL_BAD_TEMPLATE_NAME, "load: empty name");

	put_file(dir, "bad.txt", "one\ntwo\nthree \xff\n", 15);
	ok_int(mailout_template_load(dir, "bad", &out, err, sizeof err), MAIL_BAD_TEMPLATE, "load: invalid UTF-8");
	ok(strstr(err, "bad.txt line 3: not UTF-8 text (byte 0xff)") != NULL, "load: line of the bad byte: %s", err);
	put_file(dir, "ctl.txt", "a\x07", 2);
	ok_int(mailout_template_load(dir, "ctl", &out, err, sizeof err), MAIL_BAD_TEMPLATE, "load: control character");
	put_file(dir, "nul.txt", "a\0b", 3);
	ok_int(mailout_template_load(dir, "nul", &out, err, sizeof err), MAIL_BAD_TEMPLATE, "load: NUL byte");

	big = malloc(MAILOUT_TEMPLATE_MAX + 1);
	memset(big, 'a', MAILOUT_TEMPLATE_MAX + 1);
	put_file(dir, "big.txt", big, MAILOUT_TEMPLATE_MAX + 1);
	ok_int(mailout_template_load(dir, "big", &out, err, sizeof err), MAIL_TEMPLATE_TOO_BIG, "load: over the cap");
	put_file(dir, "max.txt", big, MAILOUT_TEMPLATE_MAX);
	ok_int(mailout_template_load(dir, "max", &out, err, sizeof err), MAIL_OK, "load: exactly the cap");
	ok_int(strlen(out), MAILOUT_TEMPLATE_MAX, "load: all of it");
	free(out);
	free(big);

	snprintf(path, sizeof path, "%s/dir.txt", dir);
	mkdir(path, 0700);
	ok_int(mailout_template_load(dir, "dir", &out, err, sizeof err), MAIL_TEMPLATE_IO, "load: a directory: MAIL_TEMPLATE_IO");

	memset(longdir, 'd', sizeof longdir - 1);
	longdir[sizeof longdir - 1] = '\0';
	ok_int(mailout_template_load(longdir, "move", &out, err, sizeof err), MAIL_TEMPLATE_IO, "load: path too long");

	rmdir(path);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

static void test_names(void)
{
	ok_str(mail_status_str(MAIL_BAD_ID), "bad message id", "status name");
	ok_str(mail_status_str((enum mail_status)99), "unknown mail status", "unknown status name");
}

int main(void)
{
	test_compose();
	test_alternative();
	test_encodings();
	test_injection();
	test_ids();
	test_errors();
	test_expand();
	test_load();
	test_names();
	mailout_shutdown();
	mailout_shutdown();
	return t_done();
}
