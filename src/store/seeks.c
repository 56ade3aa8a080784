/*
 * seeks: the players seeking games (seeks.h).
 */
#include "store/seeks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"

static const char *const files[] = { "seeking", "limits" };
static const char *const locks[] = { "seeking.lock", "limits.lock" };
static const char *const heads[] = {
	"# oustpbm: games sought, \"userid N\" (seek <userid> <password> N)\n",
	"# oustpbm: the most active games each player wants, \"userid N\" (limit <userid> <password> N)\n"
};

unsigned seeks_of(const struct seeks_entry *v, size_t n, const char *userid)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(v[mid].userid, userid);
		if (c == 0)
			return v[mid].count;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct seeks_entry *)a)->userid, ((const struct seeks_entry *)b)->userid);
}

/* Parse the file's text; STORE_CORRUPT with err naming the line. */
static enum store_status parse(const char *file, const char *text, size_t len, struct seeks_entry **out, size_t *n,
    char *err)
{
	struct store_lines it = { text, len, 0, 0, file };
	struct seeks_entry *v = NULL, *nv;
	size_t alloc = 0, k;
	char line[80], *sp, *end;
	unsigned long c;
	int more;

	*out = NULL;
	*n = 0;
	while ((more = store_lines_next(&it, line, sizeof line, err, SEEKS_ERR_MAX)) > 0) {
		sp = strchr(line, ' ');
		if (sp == NULL) {
			snprintf(err, SEEKS_ERR_MAX, "%s:%d: want 'userid N', not '%s'", file, it.lineno, line);
			goto bad;
		}
		*sp = '\0';
		c = strtoul(sp + 1, &end, 10);
		if (!ident_userid_ok(line) || *end != '\0' || sp[1] < '1' || sp[1] > '9' || c > SEEKS_MAX) {
			snprintf(err, SEEKS_ERR_MAX, "%s:%d: want 'userid N' (N 1 to %d), not '%s %s'", file, it.lineno,
			    SEEKS_MAX, line, sp + 1);
			goto bad;
		}
		if (*n == alloc) {
			alloc = alloc != 0 ? 2 * alloc : 64;
			nv = realloc(v, alloc * sizeof *v);
			if (nv == NULL) {
				snprintf(err, SEEKS_ERR_MAX, "out of memory reading %s", file);
				free(v);
				return STORE_TEMPFAIL;
			}
			v = nv;
		}
		memcpy(v[*n].userid, line, strlen(line) + 1);	/* a user id: 32 characters at most */
		v[(*n)++].count = (unsigned)c;
	}
	if (more < 0)
		goto bad;
	if (*n > 0)
		qsort(v, *n, sizeof *v, entry_cmp);
	for (k = 1; k < *n; k++) {
		if (strcmp(v[k].userid, v[k - 1].userid) == 0) {
			snprintf(err, SEEKS_ERR_MAX, "%s: %s has two lines", file, v[k].userid);
			goto bad;
		}
	}
	*out = v;
	return STORE_OK;
bad:
	free(v);
	*n = 0;
	return STORE_CORRUPT;
}

enum store_status seeks_load(struct store *st, enum seeks_kind kind, struct seeks_entry **out, size_t *n,
    char *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	*out = NULL;
	*n = 0;
	ss = store_read_file(st, files[kind], SEEKS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK) {
		snprintf(err, SEEKS_ERR_MAX, "cannot read %s: %s", files[kind], store_error(st));
		return ss;
	}
	ss = parse(files[kind], text, len, out, n, err);
	free(text);
	return ss;
}

enum store_status seeks_set(struct store *st, unsigned long timeout_ms, enum seeks_kind kind, const char *userid,
    unsigned count, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct seeks_entry *v = NULL;
	enum store_status ss;
	size_t n = 0, i, len = 0, cap;
	char *text = NULL;
	bool done = false;

	ss = store_lock_path(st, locks[kind], timeout_ms, &lock);
	if (ss != STORE_OK) {
		snprintf(err, SEEKS_ERR_MAX, "cannot lock %s: %s", files[kind], store_error(st));
		return ss;
	}
	ss = seeks_load(st, kind, &v, &n, err);
	if (ss != STORE_OK)
		goto out;
	cap = 128 + (n + 1) * (IDENT_USERID_MAX + 8);
	text = malloc(cap);
	if (text == NULL) {
		snprintf(err, SEEKS_ERR_MAX, "out of memory writing %s", files[kind]);
		ss = STORE_TEMPFAIL;
		goto out;
	}
	len = (size_t)snprintf(text, cap, "%s", heads[kind]);
	/* the list stays sorted: the new line goes in its place */
	for (i = 0; i <= n; i++) {
		if (!done && count > 0 && (i == n || strcmp(userid, v[i].userid) < 0)) {
			len += (size_t)snprintf(text + len, cap - len, "%s %u\n", userid, count);
			done = true;
		}
		if (i < n && strcmp(v[i].userid, userid) != 0)
			len += (size_t)snprintf(text + len, cap - len, "%s %u\n", v[i].userid, v[i].count);
	}
	ss = store_write_capped(st, files[kind], text, len, SEEKS_FILE_MAX);
	if (ss != STORE_OK)
		snprintf(err, SEEKS_ERR_MAX, "cannot write %s: %s", files[kind], store_error(st));
out:
	free(text);
	free(v);
	store_unlock(&lock);
	return ss;
}
