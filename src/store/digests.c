/* digests: the last digest each player was sent.  See digests.h. */
#include "store/digests.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char header[] = "# oustpbm digests: userid, the hour (epoch seconds) of the last digest sent\n";

#define LINE_BYTES (IDENT_USERID_MAX + 24)

struct line {
	char userid[IDENT_USERID_MAX + 1];
	int64_t slot;
};

/* The file's lines into *list (none without the file); the caller frees it. */
static enum store_status read_all(struct store *st, struct line **list, size_t *n)
{
	char *text = NULL, *p, *nl;
	enum store_status ss;
	size_t len, alloc = 0;
	unsigned lineno = 0;

	*list = NULL;
	*n = 0;
	ss = store_read_file(st, DIGESTS_FILE, DIGESTS_FILE_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	for (p = text; *p != '\0'; p = nl + 1) {
		struct line l;
		long long slot;
		int used = 0;
		char end;

		lineno++;
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		end = *nl;
		*nl = '\0';
		if (p[0] == '#' || p[0] == '\0') {
			if (end == '\0')
				break;
			continue;
		}
		if (sscanf(p, "%32s %lld%n", l.userid, &slot, &used) != 2 || p[used] != '\0' || slot < 0 ||
		    !ident_userid_ok(l.userid)) {
			store_set_error(st, "%s line %u: not \"userid slot\"", DIGESTS_FILE, lineno);
			free(text);
			free(*list);
			*list = NULL;
			*n = 0;
			return STORE_CORRUPT;
		}
		l.slot = (int64_t)slot;
		if (*n == alloc) {
			struct line *more;

			alloc = alloc != 0 ? 2 * alloc : 16;
			more = realloc(*list, alloc * sizeof *more);
			if (more == NULL) {
				store_set_error(st, "out of memory");
				free(text);
				free(*list);
				*list = NULL;
				*n = 0;
				return STORE_TEMPFAIL;
			}
			*list = more;
		}
		(*list)[(*n)++] = l;
		if (end == '\0')
			break;
	}
	free(text);
	return STORE_OK;
}

enum store_status digests_find(struct store *st, const char *userid, int64_t *slot)
{
	struct line *list;
	enum store_status ss;
	size_t n, i;

	ss = read_all(st, &list, &n);
	if (ss != STORE_OK)
		return ss;
	ss = STORE_NOT_FOUND;
	for (i = 0; i < n; i++)
		if (strcasecmp(list[i].userid, userid) == 0) {
			*slot = list[i].slot;
			ss = STORE_OK;
		}
	free(list);
	return ss;
}

enum store_status digests_set(struct store *st, const char *userid, int64_t slot)
{
	struct line *list;
	enum store_status ss;
	char *out;
	size_t n, i, used, cap;

	ss = read_all(st, &list, &n);
	if (ss != STORE_OK)
		return ss;
	cap = sizeof header + (n + 1) * (LINE_BYTES + 2);
	out = malloc(cap);
	if (out == NULL) {
		free(list);
		store_set_error(st, "out of memory");
		return STORE_TEMPFAIL;
	}
	memcpy(out, header, sizeof header - 1);
	used = sizeof header - 1;
	for (i = 0; i < n; i++)
		if (strcasecmp(list[i].userid, userid) != 0)
			used += (size_t)snprintf(out + used, cap - used, "%s %" PRId64 "\n", list[i].userid,
			    list[i].slot);
	used += (size_t)snprintf(out + used, cap - used, "%s %" PRId64 "\n", userid, slot);
	ss = store_write_capped(st, DIGESTS_FILE, out, used, DIGESTS_FILE_MAX);
	free(out);
	free(list);
	return ss;
}

void digests_token(int64_t slot, char buf[DIGESTS_TOKEN_MAX + 1])
{
	snprintf(buf, DIGESTS_TOKEN_MAX + 1, "digest %" PRId64, slot);
}
