/* outbox: the queued and the failed replies listed (outbox queue). */
#include "outbox/outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "outbox/outbox_int.h"

/* --- listing --- */

/* The Subject of the header of msg, unfolded, into out (OUTBOX_SUBJECT_MAX + 1 bytes). */
static void header_subject(const char *msg, size_t len, char *out)
{
	const char *p = msg, *end = msg + len;
	size_t n = 0;

	out[0] = '\0';
	while (p < end && *p != '\n' && !(*p == '\r' && p + 1 < end && p[1] == '\n')) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl != NULL ? nl : end;

		if (eol - p >= 8 && strncasecmp(p, "subject:", 8) == 0) {
			const char *v = p + 8;

			for (;;) {
				for (; v < eol && n < OUTBOX_SUBJECT_MAX; v++) {
					if (*v == '\r')
						continue;
					if (n == 0 && (*v == ' ' || *v == '\t'))
						continue;
					out[n++] = (unsigned char)*v < 0x20 || *v == 0x7f ? ' ' : *v;
				}
				/* RFC 5322 2.2.3: a line starting with a blank continues the field */
				if (eol >= end || eol + 1 >= end || (eol[1] != ' ' && eol[1] != '\t'))
					break;
				v = eol + 1;
				nl = memchr(v, '\n', (size_t)(end - v));
				eol = nl != NULL ? nl : end;
			}
			out[n] = '\0';
			return;
		}
		p = nl != NULL ? nl + 1 : end;
	}
}

/* The queue files of outbox/<dir>/ (new or failed), as outbox_list says. */
static enum outbox_status list_dir(struct outbox *ob, const char *dir, struct outbox_entry **entries,
    size_t *count)
{
	struct outbox_entry *list = NULL;
	enum outbox_status result;
	char **names = NULL, path[PATH_BUF];
	size_t n = 0, i, k = 0;

	*entries = NULL;
	*count = 0;
	snprintf(path, sizeof path, "outbox/%s", dir);
	result = outbox_from_store(ob, store_list_dir(ob->st, path, &names, &n));
	if (result != OUTBOX_OK)
		return result;
	list = calloc(n > 0 ? n : 1, sizeof *list);
	if (list == NULL) {
		store_free_names(names, n);
		outbox_set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	for (i = 0; i < n; i++) {
		struct outbox_entry *e = &list[k];
		struct queue_file q;
		const char *why = NULL;
		char *text = NULL;
		bool gone;

		if (!outbox_id_ok(names[i]))
			continue;
		result = outbox_queue_read(ob, dir, names[i], &text, &q, &gone, &why);
		if (result != OUTBOX_OK) {
			free(text);
			break;
		}
		if (gone) {
			free(text);
			continue;	/* sent meanwhile */
		}
		snprintf(e->id, sizeof e->id, "%s", names[i]);
		if (why == NULL) {
			snprintf(e->rcpt, sizeof e->rcpt, "%s", q.rcpt);
			header_subject(q.msg, q.len, e->subject);
			e->attempts = q.attempts;
			e->next = q.next;
			snprintf(e->error, sizeof e->error, "%s", q.error);
			snprintf(e->reply, sizeof e->reply, "%s", q.reply);
		} else {
			e->damaged = true;
			snprintf(e->error, sizeof e->error, "%s", why);
		}
		free(text);
		k++;
	}
	store_free_names(names, n);
	if (result != OUTBOX_OK) {
		free(list);
		return result;
	}
	*entries = list;
	*count = k;
	return OUTBOX_OK;
}

enum outbox_status outbox_list(struct outbox *ob, struct outbox_entry **entries, size_t *count)
{
	return list_dir(ob, "new", entries, count);
}

enum outbox_status outbox_list_failed(struct outbox *ob, struct outbox_entry **entries, size_t *count)
{
	return list_dir(ob, "failed", entries, count);
}
