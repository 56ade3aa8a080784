/* edit: oustpbm edit BOARD.  See edit.h. */
#include "commands/services/edit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/services/fsck.h"
#include "store/ratings.h"

#define EDIT_RATINGS_WAIT_MS 10000	/* the admin at the terminal waits for the ratings lock */

#define EDIT_PATH_MAX 4096

/* Write len bytes of text to a new file in $TMPDIR; its name into path. */
static bool write_copy(long board, const char *text, size_t len, char path[EDIT_PATH_MAX])
{
	const char *tmp = getenv("TMPDIR");
	size_t off = 0;
	int fd;

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	if (snprintf(path, EDIT_PATH_MAX, "%s/oustpbm-edit-%ld.XXXXXX.game", tmp, board) >= EDIT_PATH_MAX)
		return false;
	fd = mkstemps(path, 5);
	if (fd < 0)
		return false;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			unlink(path);
			return false;
		}
		off += (size_t)w;
	}
	return close(fd) == 0;
}

/* Read path whole (at most STORE_BOARD_FILE_MAX bytes); the caller owns *text. */
static bool read_copy(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n;

	*text = NULL;
	if (f == NULL)
		return false;
	buf = malloc(STORE_BOARD_FILE_MAX + 2);
	if (buf == NULL) {
		fclose(f);
		return false;
	}
	n = fread(buf, 1, STORE_BOARD_FILE_MAX + 1, f);
	if (ferror(f) || n > STORE_BOARD_FILE_MAX) {
		fclose(f);
		free(buf);
		return false;
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return true;
}

/* Run the editor on path, on the admin's terminal; its exit status, or -1. */
static int run_editor(const char *path)
{
	const char *ed = getenv("VISUAL");
	pid_t pid;
	int status;

	if (ed == NULL || ed[0] == '\0')
		ed = getenv("EDITOR");
	if (ed == NULL || ed[0] == '\0')
		ed = "vi";
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* the shell splits "emacs -nw" as the admin wrote it; the file is "$1", never split */
		char *cmd = NULL;

		if (asprintf(&cmd, "%s \"$1\"", ed) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* games/<board>.game.<time>.bak, with -2, -3... if two edits share a second. */
static enum store_status backup(struct store *st, long board, time_t now, const char *text, size_t len,
    char *name, size_t size)
{
	char when[32];
	struct tm tm;
	char *data = NULL;
	size_t have;
	int k;

	if (gmtime_r(&now, &tm) == NULL || strftime(when, sizeof when, "%Y%m%dT%H%M%SZ", &tm) == 0)
		snprintf(when, sizeof when, "%lld", (long long)now);
	for (k = 1; k < 100; k++) {
		enum store_status ss;

		if (k == 1)
			snprintf(name, size, "games/%ld.game.%s.bak", board, when);
		else
			snprintf(name, size, "games/%ld.game.%s-%d.bak", board, when, k);
		ss = store_read_file(st, name, STORE_BOARD_FILE_MAX, &data, &have);
		free(data);
		data = NULL;
		if (ss == STORE_NOT_FOUND)
			return store_write_file(st, name, text, len);
		if (ss != STORE_OK && ss != STORE_TOO_BIG)
			return ss;
	}
	return store_write_file(st, name, text, len);
}

enum process_status edit_board(struct store *st, long board, time_t now, const char *stamp)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum process_status as = PROCESS_OK;
	enum store_status ss;
	char copy[EDIT_PATH_MAX] = "", bak[256], file[64], rerr[RATINGS_ERR_MAX];
	char *old = NULL, *text = NULL;
	size_t oldlen = 0, len = 0;
	unsigned problems = 0;
	bool keep = false;
	int rc;

	ss = store_lock_board(st, board, &lock);
	if (ss != STORE_OK) {
		store_complain(st, "board %ld: %s", board, store_error(st));
		return store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
	}
	ss = store_board_read(st, board, &old, &oldlen);
	if (ss == STORE_NOT_FOUND) {
		store_complain(st, "board %ld does not exist", board);
		as = PROCESS_NOINPUT;
		goto out;
	}
	if (ss != STORE_OK) {
		store_complain(st, "%s", store_error(st));
		as = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	if (!write_copy(board, old, oldlen, copy)) {
		store_complain(st, "board %ld: cannot write a copy to edit in %s: %s", board,
		    copy[0] != '\0' ? copy : "$TMPDIR", strerror(errno));
		copy[0] = '\0';
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	rc = run_editor(copy);
	if (rc != 0) {
		store_complain(st, "board %ld: the editor exited with status %d: nothing changed", board, rc);
		as = PROCESS_SOFTWARE;
		goto out;
	}
	if (!read_copy(copy, &text, &len)) {
		store_complain(st, "board %ld: cannot read the edited copy %s (more than %ld bytes, or gone): "
		    "nothing changed", board, copy, STORE_BOARD_FILE_MAX);
		as = PROCESS_DATAERR;
		goto out;
	}
	if (len == oldlen && memcmp(text, old, len) == 0) {
		printf("oustpbm: board %ld unchanged\n", board);
		store_log(st, "%s admin edit board=%ld: unchanged", stamp, board);
		goto out;
	}
	/* the same checks as oustpbm fsck BOARD, on the copy, before anything is installed */
	snprintf(file, sizeof file, "games/%ld.game", board);
	if (fsck_game(st, board, file, text, len, stderr, &problems) != PROCESS_OK || problems > 0) {
		keep = true;
		store_complain(st, "board %ld: the edited file has %u problem%s (above): nothing installed; "
		    "the edited copy is kept in %s", board, problems, problems == 1 ? "" : "s", copy);
		as = PROCESS_DATAERR;
		goto out;
	}
	ss = backup(st, board, now, old, oldlen, bak, sizeof bak);
	/* an edit may end, reopen or change a rated game: its board is settled again (ratings.h) */
	if (ss == STORE_OK && (ss = ratings_mark(st, board, rerr)) != STORE_OK)
		msg_warn("%s", rerr);
	if (ss == STORE_OK)
		ss = store_board_write(st, board, text, len);
	if (ss != STORE_OK) {
		keep = true;
		store_complain(st, "board %ld: %s: nothing installed; the edited copy is kept in %s", board,
		    store_error(st), copy);
		as = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	store_log(st, "%s admin edit board=%ld: installed; the old file is %s", stamp, board, bak);
	ratings_after_commit(st, EDIT_RATINGS_WAIT_MS);
	printf("oustpbm: board %ld installed; the old file is %s/%s\n", board, store_home(st), bak);
	if (fflush(stdout) != 0)
		as = PROCESS_IOERR;
out:
	if (copy[0] != '\0' && !keep)
		unlink(copy);
	store_unlock(&lock);
	free(old);
	free(text);
	return as;
}
