/* mailpart: one MIME part of a mail by its media type.  See mailpart.h. */
#include "mail/mailpart.h"

#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mailin.h"

/* The decoded content of part into *data, at most cap bytes. */
static enum mail_status content_of(GMimePart *part, size_t cap, char **data, size_t *dlen)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *out;
	GByteArray *ba;
	enum mail_status st = MAIL_OK;

	if (w == NULL)
		return MAIL_NO_PART;
	out = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(w, out) < 0) {
		st = MAIL_UNPARSABLE;
		goto out;
	}
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(out));
	if (ba->len > cap) {
		st = MAIL_PART_TOO_BIG;
		goto out;
	}
	*data = malloc(ba->len + 1);
	if (*data == NULL) {
		st = MAIL_NOMEM;
		goto out;
	}
	memcpy(*data, ba->data, ba->len);
	(*data)[ba->len] = '\0';
	*dlen = ba->len;
out:
	g_object_unref(out);
	return st;
}

enum mail_status mailpart_find(const char *buf, size_t len, const char *type, const char *subtype, size_t cap,
    char **data, size_t *dlen)
{
	GMimeStream *s;
	GMimeParser *p;
	GMimeMessage *m;
	GMimePartIter *it;
	GMimeObject *o;
	enum mail_status st = MAIL_NO_PART;

	*data = NULL;
	*dlen = 0;
	mailin_init();
	s = g_mime_stream_mem_new_with_buffer(buf, len);
	p = g_mime_parser_new_with_stream(s);
	m = g_mime_parser_construct_message(p, NULL);
	if (m == NULL) {
		st = MAIL_UNPARSABLE;
		goto out;
	}
	o = g_mime_message_get_mime_part(m);
	if (o != NULL && GMIME_IS_PART(o) && g_mime_content_type_is_type(g_mime_object_get_content_type(o), type,
	    subtype)) {
		st = content_of(GMIME_PART(o), cap, data, dlen);
		goto out;
	}
	it = g_mime_part_iter_new(GMIME_OBJECT(m));
	do {
		o = g_mime_part_iter_get_current(it);
		if (o != NULL && GMIME_IS_PART(o) &&
		    g_mime_content_type_is_type(g_mime_object_get_content_type(o), type, subtype)) {
			st = content_of(GMIME_PART(o), cap, data, dlen);
			break;
		}
	} while (g_mime_part_iter_next(it));
	g_mime_part_iter_free(it);
out:
	if (m != NULL)
		g_object_unref(m);
	g_object_unref(p);
	g_object_unref(s);
	return st;
}
