/* lifecycle: the installed and retired stamps of a home.  See lifecycle.h. */
#include "store/lifecycle.h"

#include <stdlib.h>
#include <string.h>

#include "game/gamefile.h"

enum store_status lifecycle_mark(struct store *st, const char *file, time_t now)
{
	char stamp[GAMEFILE_TIME_SIZE + 1];
	size_t n;

	gamefile_time_str((int64_t)now, stamp);
	n = strlen(stamp);
	stamp[n++] = '\n';
	return store_write_file(st, file, stamp, n);
}

enum store_status lifecycle_read(struct store *st, const char *file, int64_t *when)
{
	enum store_status ss;
	char *text = NULL;
	size_t len = 0;

	*when = 0;
	ss = store_read_file(st, file, LIFECYCLE_FILE_MAX, &text, &len);
	if (ss == STORE_TOO_BIG)
		ss = STORE_CORRUPT;
	if (ss != STORE_OK)
		goto out;
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	if (!gamefile_time_parse(text, len, when)) {
		*when = 0;
		store_set_error(st, "%s does not hold a time stamp (YYYY-MM-DDTHH:MM:SSZ)", file);
		ss = STORE_CORRUPT;
	}
out:
	free(text);
	return ss;
}

enum store_status lifecycle_clear(struct store *st, const char *file)
{
	enum store_status ss = store_unlink(st, file);

	if (ss != STORE_OK)
		return ss;
	return store_sync_dir(st, ".");
}
