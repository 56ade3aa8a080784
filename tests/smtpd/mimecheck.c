/*
 * mimecheck: parse a message stored by sink.py with GMime and print what the
 * tests compare: the From, To, Subject and Message-ID headers as GMime
 * decodes them, the body's MIME type and charset, then "--", then the decoded text of the first
 * text/plain part.  Exit 1 if the message does not parse or has no text.
 *     mimecheck FILE
 */
#include <gmime/gmime.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	GMimeObject *body;
	const char *h[] = { "From", "To", "Subject", "Message-ID" };
	size_t i;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: mimecheck FILE\n");
		return 2;
	}
	g_mime_init();
	stream = g_mime_stream_file_open(argv[1], "r", NULL);
	if (stream == NULL) {
		fprintf(stderr, "mimecheck: cannot open %s\n", argv[1]);
		return 1;
	}
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	if (msg == NULL) {
		fprintf(stderr, "mimecheck: %s does not parse\n", argv[1]);
		goto out;
	}
	for (i = 0; i < sizeof h / sizeof h[0]; i++) {
		const char *v = g_mime_object_get_header(GMIME_OBJECT(msg), h[i]);
		char *dec = v != NULL ? g_mime_utils_header_decode_text(NULL, v) : NULL;

		printf("%s: %s\n", h[i], dec != NULL ? dec : "");
		g_free(dec);
	}
	/* the first text/plain part: the body itself, or the first part of a multipart/alternative */
	body = g_mime_message_get_mime_part(msg);
	if (body != NULL && GMIME_IS_MULTIPART(body)) {
		GMimeMultipart *mp = GMIME_MULTIPART(body);
		int k;

		body = NULL;
		for (k = 0; k < g_mime_multipart_get_count(mp) && body == NULL; k++)
			if (g_mime_content_type_is_type(g_mime_object_get_content_type(g_mime_multipart_get_part(mp, k)),
			    "text", "plain"))
				body = g_mime_multipart_get_part(mp, k);
	}
	if (body != NULL) {
		GMimeContentType *ct = g_mime_object_get_content_type(body);
		char *type = g_mime_content_type_get_mime_type(ct);
		const char *cs = g_mime_content_type_get_parameter(ct, "charset");

		printf("Content-Type: %s; charset=%s\n", type, cs != NULL ? cs : "");
		g_free(type);
	}
	printf("--\n");
	if (body != NULL && GMIME_IS_TEXT_PART(body)) {
		char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(body));

		if (text != NULL) {
			fputs(text, stdout);
			rc = 0;
		}
		g_free(text);
	}
	g_object_unref(msg);
out:
	g_object_unref(parser);
	g_object_unref(stream);
	return rc;
}
