/*
 * active: the index of boards being played (active.h).
 */
#include "store/active.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"

#define NAME_MAX_LEN (16 + 2 * (IDENT_USERID_MAX + 1))

/* The entry's path; false if a name cannot be one (not a user id). */
static bool entry_path(long board, const char *black, const char *white, char *path, size_t size)
{
	const char *a = strcmp(black, white) <= 0 ? black : white, *b = a == black ? white : black;

	if (!ident_userid_ok(a) || !ident_userid_ok(b))
		return false;
	snprintf(path, size, "%s/%ld.%s.%s", ACTIVE_DIR, board, a, b);
	return true;
}

enum store_status active_add(struct store *st, long board, const char *black, const char *white)
{
	char path[sizeof ACTIVE_DIR + NAME_MAX_LEN + 2];
	enum store_status ss;

	if (!entry_path(board, black, white, path, sizeof path))
		return STORE_BAD_ID;
	ss = store_mkdir(st, ACTIVE_DIR);
	if (ss == STORE_OK)
		ss = store_create_file(st, path, "", 0);
	if (ss == STORE_OK)
		ss = store_sync_dir(st, ACTIVE_DIR);
	return ss;
}

enum store_status active_add_unsynced(struct store *st, long board, const char *black, const char *white)
{
	char path[sizeof ACTIVE_DIR + NAME_MAX_LEN + 2];
	enum store_status ss;

	if (!entry_path(board, black, white, path, sizeof path))
		return STORE_BAD_ID;
	ss = store_mkdir(st, ACTIVE_DIR);
	if (ss == STORE_OK)
		ss = store_create_file_unsynced(st, path, "", 0);
	return ss;
}

enum store_status active_sync_dir(struct store *st)
{
	return store_sync_dir(st, ACTIVE_DIR);
}

enum store_status active_remove(struct store *st, long board, const char *black, const char *white)
{
	char path[sizeof ACTIVE_DIR + NAME_MAX_LEN + 2];
	enum store_status ss;

	if (!entry_path(board, black, white, path, sizeof path))
		return STORE_BAD_ID;
	ss = store_unlink(st, path);
	return ss == STORE_NOT_FOUND ? STORE_OK : ss;
}

/* Split "<board>.<a>.<b>"; false if the name is not an entry. */
static bool entry_parse(const char *name, long *board, char a[IDENT_USERID_MAX + 1], char b[IDENT_USERID_MAX + 1])
{
	const char *d1 = strchr(name, '.'), *d2 = d1 != NULL ? strchr(d1 + 1, '.') : NULL;
	size_t la, lb;

	if (d1 == NULL || d2 == NULL || !ident_board_parse(name, (size_t)(d1 - name), board))
		return false;
	la = (size_t)(d2 - d1 - 1);
	lb = strlen(d2 + 1);
	if (la == 0 || la > IDENT_USERID_MAX || lb == 0 || lb > IDENT_USERID_MAX)
		return false;
	memcpy(a, d1 + 1, la);
	a[la] = '\0';
	memcpy(b, d2 + 1, lb + 1);
	return ident_userid_ok(a) && ident_userid_ok(b);
}

static int count_cmp(const void *x, const void *y)
{
	return strcmp(((const struct active_count *)x)->userid, ((const struct active_count *)y)->userid);
}

enum store_status active_counts(struct store *st, struct active_count **out, size_t *n)
{
	char **names = NULL, a[IDENT_USERID_MAX + 1], b[IDENT_USERID_MAX + 1];
	struct active_count *c = NULL;
	enum store_status ss;
	size_t count = 0, i, k = 0, m;
	long board;

	*out = NULL;
	*n = 0;
	ss = store_list_dir(st, ACTIVE_DIR, &names, &count);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	c = malloc((2 * count + 1) * sizeof *c);
	if (c == NULL) {
		store_free_names(names, count);
		return STORE_TEMPFAIL;
	}
	for (i = 0; i < count; i++) {
		if (!entry_parse(names[i], &board, a, b))
			continue;
		snprintf(c[k].userid, sizeof c[k].userid, "%s", a);
		c[k++].count = 1;
		if (strcmp(a, b) != 0) {
			snprintf(c[k].userid, sizeof c[k].userid, "%s", b);
			c[k++].count = 1;
		}
	}
	store_free_names(names, count);
	qsort(c, k, sizeof *c, count_cmp);
	for (i = 0, m = 0; i < k; i++) {
		if (m > 0 && strcmp(c[m - 1].userid, c[i].userid) == 0)
			c[m - 1].count++;
		else
			c[m++] = c[i];
	}
	*out = c;
	*n = m;
	return STORE_OK;
}

unsigned active_count_of(const struct active_count *counts, size_t n, const char *userid)
{
	struct active_count key;
	const struct active_count *hit;

	if (n == 0)
		return 0;
	snprintf(key.userid, sizeof key.userid, "%s", userid);
	hit = bsearch(&key, counts, n, sizeof *counts, count_cmp);
	return hit != NULL ? hit->count : 0;
}

enum store_status active_sync(struct store *st, const struct active_board *playing, size_t n, unsigned *fixed)
{
	char **names = NULL, path[sizeof ACTIVE_DIR + NAME_MAX_LEN + 2], want[sizeof path];
	char a[IDENT_USERID_MAX + 1], b[IDENT_USERID_MAX + 1];
	enum store_status ss;
	size_t count = 0, i, j;
	long board;
	bool found;

	*fixed = 0;
	ss = store_list_dir(st, ACTIVE_DIR, &names, &count);
	if (ss == STORE_NOT_FOUND) {
		count = 0;	/* no index yet: every entry is added */
		ss = STORE_OK;
	} else if (ss != STORE_OK) {
		return ss;
	}
	/* entries of boards not being played, or with other players: removed */
	for (i = 0; i < count && ss == STORE_OK; i++) {
		found = false;
		if (entry_parse(names[i], &board, a, b)) {
			for (j = 0; j < n && !found; j++) {
				if (playing[j].board != board)
					continue;
				entry_path(board, playing[j].black, playing[j].white, path, sizeof path);
				found = strcmp(path + sizeof ACTIVE_DIR, names[i]) == 0;
			}
		}
		if (!found && names[i][0] != '.') {
			snprintf(path, sizeof path, "%s/%s", ACTIVE_DIR, names[i]);
			ss = store_unlink(st, path);
			if (ss == STORE_NOT_FOUND)
				ss = STORE_OK;	/* removed meanwhile by the game's end */
			(*fixed)++;
		}
	}
	/* boards being played without an entry: added */
	for (j = 0; j < n && ss == STORE_OK; j++) {
		if (!entry_path(playing[j].board, playing[j].black, playing[j].white, path, sizeof path))
			continue;
		snprintf(want, sizeof want, "%s", path + sizeof ACTIVE_DIR);
		found = false;
		for (i = 0; i < count && !found; i++)
			found = strcmp(names[i], want) == 0;
		if (!found) {
			ss = store_mkdir(st, ACTIVE_DIR);
			if (ss == STORE_OK)
				ss = store_create_file(st, path, "", 0);
			(*fixed)++;
		}
	}
	store_free_names(names, count);
	return ss;
}
