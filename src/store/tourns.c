/* tourns: the tournament files (tourns.h). */
#include "store/tourns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/tournfile.h"

enum store_status tourns_lock(struct store *st, unsigned long timeout_ms, struct store_lock *lock, char *err)
{
	enum store_status ss;

	ss = store_mkdir(st, TOURNS_DIR);
	if (ss == STORE_OK)
		ss = store_lock_path(st, TOURNS_LOCK, timeout_ms, lock);
	if (ss != STORE_OK)
		snprintf(err, TOURNS_ERR_MAX, "cannot lock %s: %s", TOURNS_LOCK, store_error(st));
	return ss;
}

enum store_status tourns_load(struct store *st, unsigned id, struct tourn **out, char *err)
{
	char rel[64], *text = NULL;
	enum store_status ss;
	size_t len;

	*out = NULL;
	snprintf(rel, sizeof rel, "%s/%u", TOURNS_DIR, id);
	ss = store_read_file(st, rel, TOURNS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND) {
		snprintf(err, TOURNS_ERR_MAX, "there is no tournament T%u", id);
		return ss;
	}
	if (ss != STORE_OK) {
		snprintf(err, TOURNS_ERR_MAX, "cannot read %s: %s", rel, store_error(st));
		return ss;
	}
	if (!tournfile_parse(rel, text, len, out, err)) {
		ss = STORE_CORRUPT;
	} else if ((*out)->id != id) {
		snprintf(err, TOURNS_ERR_MAX, "%s: says it is T%u", rel, (*out)->id);
		tourn_free(*out);
		*out = NULL;
		ss = STORE_CORRUPT;
	}
	free(text);
	return ss;
}

enum store_status tourns_save(struct store *st, const struct tourn *t, char *err)
{
	enum store_status ss;
	char rel[64], *text;
	size_t len;

	snprintf(rel, sizeof rel, "%s/%u", TOURNS_DIR, t->id);
	text = tournfile_format(t, &len);
	if (text == NULL) {
		snprintf(err, TOURNS_ERR_MAX, "out of memory writing %s", rel);
		return STORE_TEMPFAIL;
	}
	ss = store_write_capped(st, rel, text, len, TOURNS_FILE_MAX);
	if (ss != STORE_OK)
		snprintf(err, TOURNS_ERR_MAX, "cannot write %s: %s", rel, store_error(st));
	free(text);
	return ss;
}

static int id_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

enum store_status tourns_list(struct store *st, unsigned **ids, size_t *n)
{
	char **names = NULL, *end;
	size_t count = 0, i;
	enum store_status ss;
	unsigned long v;

	*ids = NULL;
	*n = 0;
	ss = store_list_dir(st, TOURNS_DIR, &names, &count);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	*ids = malloc((count + 1) * sizeof **ids);
	if (*ids == NULL) {
		store_free_names(names, count);
		return STORE_TEMPFAIL;
	}
	for (i = 0; i < count; i++) {
		if (names[i][0] < '1' || names[i][0] > '9')
			continue;
		v = strtoul(names[i], &end, 10);
		if (*end == '\0' && v <= 999999)
			(*ids)[(*n)++] = (unsigned)v;
	}
	store_free_names(names, count);
	qsort(*ids, *n, sizeof **ids, id_cmp);
	return STORE_OK;
}

enum store_status tourns_next_id(struct store *st, unsigned *id, char *err)
{
	enum store_status ss;
	unsigned *ids = NULL;
	long long count = 0, bytes = 0;
	size_t n = 0;

	/* the folder's caps (filecaps.c counts it too) */
	ss = store_folder_usage(st, TOURNS_DIR, &count, &bytes);
	if (ss == STORE_OK && (count >= TOURNS_DIR_COUNT || bytes >= TOURNS_DIR_BYTES)) {
		snprintf(err, TOURNS_ERR_MAX, "%s holds %lld files, %lld bytes: full (%d files, %ld bytes)", TOURNS_DIR,
		    count, bytes, TOURNS_DIR_COUNT, TOURNS_DIR_BYTES);
		return STORE_FULL;
	}
	ss = tourns_list(st, &ids, &n);
	if (ss != STORE_OK) {
		snprintf(err, TOURNS_ERR_MAX, "cannot list %s: %s", TOURNS_DIR, store_error(st));
		return ss;
	}
	*id = n > 0 ? ids[n - 1] + 1 : 1;
	free(ids);
	if (*id > 999999) {
		snprintf(err, TOURNS_ERR_MAX, "no tournament id is left");
		return STORE_FULL;
	}
	return STORE_OK;
}

enum store_status tourns_create(struct store *st, struct tourn *t, char *err)
{
	enum store_status ss;

	ss = tourns_next_id(st, &t->id, err);
	if (ss != STORE_OK)
		return ss;
	return tourns_save(st, t, err);
}
