/* store_board: the board files games/<n>.game, their locks, and the board numbers (store.h). */
#include "base/hash.h"
#include "base/ident.h"
#include "store/store_int.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COUNTER_FILE "games/next-board"
#define COUNTER_FILE_MAX 64

static bool board_ok(struct store *st, long board)
{
	if (board < IDENT_BOARD_MIN || board > IDENT_BOARD_MAX) {
		set_err(st, "board number %ld is out of range (%d..%d)", board, IDENT_BOARD_MIN,
		    IDENT_BOARD_MAX);
		return false;
	}
	return true;
}

static enum store_status board_path(struct store *st, long board, const char *ext, char *buf, size_t size)
{
	if (!board_ok(st, board))
		return STORE_BAD_ID;
	if (!store_mkpath(st, buf, size, "games/%ld.%s", board, ext))
		return STORE_IO;
	return STORE_OK;
}

static enum store_status lock_board(struct store *st, long board, unsigned long timeout_ms,
    struct store_lock *lock)
{
	char path[PATH_BUF];
	enum store_status status;

	lock->fd = -1;
	status = board_path(st, board, "lock", path, sizeof path);
	if (status != STORE_OK)
		return status;
	return store_lock_path(st, path, timeout_ms, lock);
}

enum store_status store_lock_board(struct store *st, long board, struct store_lock *lock)
{
	return lock_board(st, board, st->lock_timeout_ms, lock);
}

enum store_status store_trylock_board(struct store *st, long board, struct store_lock *lock)
{
	return lock_board(st, board, 0, lock);
}

enum store_status store_board_exists(struct store *st, long board)
{
	enum store_status status;
	char path[PATH_BUF];
	struct stat sb;

	status = board_path(st, board, "game", path, sizeof path);
	if (status != STORE_OK)
		return status;
	if (fstatat(st->home_fd, path, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return store_sys_fail(st, errno, "cannot stat", path);
	if (!S_ISREG(sb.st_mode))
		return store_not_regular(st, sb.st_mode, path);
	return STORE_OK;
}

enum store_status store_board_read(struct store *st, long board, char **text, size_t *len)
{
	enum store_status status;
	char path[PATH_BUF];

	*text = NULL;
	*len = 0;
	status = board_path(st, board, "game", path, sizeof path);
	if (status != STORE_OK)
		return status;
	status = store_read_file(st, path, STORE_BOARD_FILE_MAX, text, len);
	if (status == STORE_NOT_FOUND)
		set_err(st, "board %ld does not exist", board);
	return status;
}

enum store_status store_board_write(struct store *st, long board, const char *text, size_t len)
{
	struct store_staged sf;
	enum store_status status;

	status = store_board_stage(st, board, text, len, &sf);
	if (status != STORE_OK)
		return status;
	status = store_install(st, &sf);
	store_discard(st, &sf);
	return status;
}

enum store_status store_board_holds(struct store *st, long board, size_t len, uint64_t hash, bool *same)
{
	enum store_status status;
	char *text = NULL;
	size_t have;

	*same = false;
	status = store_board_read(st, board, &text, &have);
	if (status == STORE_NOT_FOUND) {
		*same = len == 0;	/* a removed board holds the empty text (store_board_remove) */
		return STORE_OK;
	}
	if (status != STORE_OK)
		return status;
	*same = have == len && store_text_hash(text, have) == hash;
	free(text);
	return STORE_OK;
}

enum store_status store_board_remove(struct store *st, long board)
{
	char path[PATH_BUF];
	enum store_status status;

	status = board_path(st, board, "game", path, sizeof path);
	if (status != STORE_OK)
		return status;
	status = store_unlink(st, path);
	if (status == STORE_OK)
		status = store_sync_dir(st, "games");
	return status;
}

uint64_t store_text_hash(const char *text, size_t len)
{
	return hash_fnv1a64(HASH_FNV64_BASIS, text, len);
}

enum store_status store_board_stage(struct store *st, long board, const char *text, size_t len,
    struct store_staged *out)
{
	enum store_status status;
	char path[PATH_BUF];

	out->live = false;
	status = board_path(st, board, "game", path, sizeof path);
	if (status != STORE_OK)
		return status;
	if (len > STORE_BOARD_FILE_MAX) {
		set_err(st, "game file for board %ld would be larger than %ld bytes", board,
		    STORE_BOARD_FILE_MAX);
		return STORE_TOO_BIG;
	}
	return store_stage_file(st, path, text, len, out);
}

/* The counter holds the next number, IDENT_BOARD_MIN..IDENT_BOARD_MAX + 1 (= full). */
static bool parse_counter(const char *s, size_t len, long *out)
{
	long v = 0;
	size_t i;

	if (len > 0 && s[len - 1] == '\n')
		len--;
	if (len == 0 || len > 9 || s[0] == '0')
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < IDENT_BOARD_MIN || v > IDENT_BOARD_MAX + 1L)
		return false;
	*out = v;
	return true;
}

enum store_status store_next_board_ids(struct store *st, long *boards, size_t n)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status status;
	char *text = NULL, buf[32];
	size_t len, i;
	long next;

	for (i = 0; i < n; i++)
		boards[i] = 0;
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	status = store_read_file(st, COUNTER_FILE, COUNTER_FILE_MAX, &text, &len);
	if (status == STORE_NOT_FOUND) {
		next = IDENT_BOARD_MIN;
	} else if (status == STORE_TOO_BIG) {
		set_err(st, "%s/%s is not a board number", st->home, COUNTER_FILE);
		status = STORE_CORRUPT;
		goto out;
	} else if (status != STORE_OK) {
		goto out;
	} else if (!parse_counter(text, len, &next)) {
		char q[COUNTER_FILE_MAX + 1];

		for (i = 0; i < len && text[i] != '\n'; i++)
			q[i] = (text[i] < 0x20 || text[i] == 0x7f) ? '?' : text[i];
		q[i] = '\0';
		set_err(st, "%s/%s: '%s' is not a board number", st->home, COUNTER_FILE, q);
		status = STORE_CORRUPT;
		goto out;
	}
	for (i = 0; i < n; i++, next++) {
		/* never reuse a number whose game exists (a restored or hand-made file) */
		for (;;) {
			if (next > IDENT_BOARD_MAX) {
				set_err(st, "all board numbers up to %d are used", IDENT_BOARD_MAX);
				status = STORE_FULL;
				goto out;
			}
			status = store_board_exists(st, next);
			if (status == STORE_NOT_FOUND)
				break;
			if (status != STORE_OK && status != STORE_NOT_REGULAR)	/* a stray entry: skipped too */
				goto out;
			next++;
		}
		boards[i] = next;
	}
	/* one durable write of the counter for them all (a tournament's start numbers its boards at once) */
	snprintf(buf, sizeof buf, "%ld\n", next);
	status = store_write_file(st, COUNTER_FILE, buf, strlen(buf));
out:
	if (status != STORE_OK)
		for (i = 0; i < n; i++)
			boards[i] = 0;
	free(text);
	store_unlock(&lock);
	return status;
}

enum store_status store_next_board_id(struct store *st, long *board)
{
	return store_next_board_ids(st, board, 1);
}

/*
 * Give back board, handed out by store_next_board_id() but never written:
 * the counter moves back to it if it is still the last number handed out.
 * Anything else (a later board made meanwhile) leaves the counter alone.
 */
void store_release_board_id(struct store *st, long board)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char *text = NULL, buf[32];
	size_t len;
	long next;

	if (store_lock_store(st, &lock) != STORE_OK)
		return;
	if (store_board_exists(st, board) == STORE_NOT_FOUND &&
	    store_read_file(st, COUNTER_FILE, COUNTER_FILE_MAX, &text, &len) == STORE_OK &&
	    parse_counter(text, len, &next) && next == board + 1) {
		snprintf(buf, sizeof buf, "%ld\n", board);
		store_write_file(st, COUNTER_FILE, buf, strlen(buf));
	}
	free(text);
	store_unlock(&lock);
}

enum store_status store_claim_board_id(struct store *st, long board)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status status;
	char *text = NULL, buf[32];
	size_t len;
	long next = IDENT_BOARD_MIN;

	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	status = store_read_file(st, COUNTER_FILE, COUNTER_FILE_MAX, &text, &len);
	if (status == STORE_OK && !parse_counter(text, len, &next)) {
		set_err(st, "%s/%s is not a board number", st->home, COUNTER_FILE);
		status = STORE_CORRUPT;
	} else if (status == STORE_TOO_BIG) {
		set_err(st, "%s/%s is not a board number", st->home, COUNTER_FILE);
		status = STORE_CORRUPT;
	} else if (status == STORE_OK || status == STORE_NOT_FOUND) {
		status = STORE_OK;
		if (next <= board) {
			snprintf(buf, sizeof buf, "%ld\n", board + 1);
			status = store_write_file(st, COUNTER_FILE, buf, strlen(buf));
		}
	}
	free(text);
	store_unlock(&lock);
	return status;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

enum store_status store_list_boards(struct store *st, long **boards, size_t *count)
{
	enum store_status status;
	char **names = NULL;
	size_t n = 0, i, k = 0;
	long *ids = NULL;

	*boards = NULL;
	*count = 0;
	status = store_list_dir(st, "games", &names, &n);
	if (status != STORE_OK)
		return status;
	ids = malloc((n ? n : 1) * sizeof *ids);
	if (ids == NULL) {
		status = store_nomem(st);
		goto out;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		long id;

		if (len > 5 && strcmp(names[i] + len - 5, ".game") == 0 &&
		    ident_board_parse(names[i], len - 5, &id))
			ids[k++] = id;
	}
	qsort(ids, k, sizeof *ids, cmp_long);
	*boards = ids;
	*count = k;
	ids = NULL;
out:
	free(ids);
	store_free_names(names, n);
	return status;
}


/* The board of a staged game file's name ".<n>.game.<pid>.<k>.tmp", or 0. */
static long staged_board(const char *name)
{
	const char *p = name + 1, *q;
	char *end;
	long board;
	int dots = 0;

	if (name[0] != '.' || *p < '1' || *p > '9')
		return 0;
	board = strtol(p, &end, 10);
	if (strncmp(end, ".game.", 6) != 0)
		return 0;
	for (q = end + 6; *q != '\0' && strcmp(q, ".tmp") != 0; q++) {
		if (*q == '.')
			dots++;
		else if (!isdigit((unsigned char)*q))
			return 0;
	}
	return *q != '\0' && dots == 1 ? board : 0;
}

enum store_status store_board_unstage(struct store *st, const long *boards, size_t n, unsigned *removed)
{
	enum store_status status = STORE_OK;
	struct dirent *de;
	size_t i;
	long b;
	DIR *d;
	int fd;

	*removed = 0;
	if (n == 0)
		return STORE_OK;
	fd = openat(st->home_fd, "games", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? STORE_OK : store_sys_fail(st, errno, "cannot open directory", "games");
	d = fdopendir(fd);
	if (d == NULL) {
		status = store_sys_fail(st, errno, "cannot read directory", "games");
		close(fd);
		return status;
	}
	while ((de = readdir(d)) != NULL) {
		b = staged_board(de->d_name);
		for (i = 0; b != 0 && i < n && boards[i] != b; i++)
			;
		if (b == 0 || i == n)
			continue;
		store_crash_point();
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			(*removed)++;
		else if (errno != ENOENT && status == STORE_OK)
			status = store_sys_fail(st, errno, "cannot remove a staged file of", "games");
	}
	closedir(d);
	return status;
}
