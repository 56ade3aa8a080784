/* store_file: locks, and files under the home written whole and durably (store.h). */
#include "base/monoclock.h"
#include "base/strbuf.h"
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

#define LOCK_SLEEP_MIN_US 1000
#define LOCK_SLEEP_MAX_US 20000
#define ACCOUNTS_LOCK_FILE "accounts.lock"

enum store_status store_lock_path(struct store *st, const char *relpath, unsigned long timeout_ms,
    struct store_lock *lock)
{
	struct flock fl;
	int64_t start;
	enum store_status status;
	long sleep_us = LOCK_SLEEP_MIN_US;
	int fd;

	lock->fd = -1;
	fd = store_open_regular(st, relpath, O_RDWR | O_CREAT, "cannot open lock file", &status);
	if (fd < 0)
		return status;
	start = monoclock_ms();
	for (;;) {
		long waited, left;
		struct timespec ts;

		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(fd, F_OFD_SETLK, &fl) == 0) {
			lock->fd = fd;
			return STORE_OK;
		}
		if (errno != EAGAIN && errno != EACCES && errno != EINTR) {
			int e = errno;

			close(fd);
			return store_sys_fail(st, e, "cannot lock", relpath);
		}
		waited = (long)(monoclock_ms() - start);
		if (waited >= (long)timeout_ms) {
			close(fd);
			set_err(st, "%s/%s is locked by another process (waited %ld ms)", st->home, relpath,
			    waited);
			return STORE_TIMEOUT;
		}
		left = ((long)timeout_ms - waited) * 1000;
		if (sleep_us > left)
			sleep_us = left;
		ts.tv_sec = sleep_us / 1000000;
		ts.tv_nsec = (sleep_us % 1000000) * 1000;
		nanosleep(&ts, NULL);
		if (sleep_us < LOCK_SLEEP_MAX_US / 2)
			sleep_us *= 2;
		else
			sleep_us = LOCK_SLEEP_MAX_US;
	}
}

void store_unlock(struct store_lock *lock)
{
	if (lock->fd >= 0)
		close(lock->fd);	/* closing the description releases an OFD lock */
	lock->fd = -1;
}

enum store_status store_lock_accounts(struct store *st, bool wait, struct store_lock *lock)
{
	return store_lock_path(st, ACCOUNTS_LOCK_FILE, wait ? st->lock_timeout_ms : 0, lock);
}

enum store_status store_lock_store(struct store *st, struct store_lock *lock)
{
	return store_lock_path(st, "store.lock", st->lock_timeout_ms, lock);
}

/* --- files --- */

static enum store_status write_all(struct store *st, int fd, const void *data, size_t len, const char *relpath)
{
	const char *p = data;

	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return store_sys_fail(st, errno, "cannot write", relpath);
		}
		p += w;
		len -= (size_t)w;
	}
	return STORE_OK;
}

/* write, fsync and close fd; fd is closed in every case */
static enum store_status finish_file(struct store *st, int fd, const void *data, size_t len, const char *relpath)
{
	enum store_status status = write_all(st, fd, data, len, relpath);

	store_crash_point();
	if (status == STORE_OK && store_sync_or_owe(st, fd, false) != 0)
		status = store_sys_fail(st, errno, "cannot fsync", relpath);
	if (close(fd) != 0 && status == STORE_OK)
		status = store_sys_fail(st, errno, "cannot close", relpath);
	return status;
}

/* finish_file() without the fsync: the data is durable in the caller's record */
static enum store_status finish_unsynced(struct store *st, int fd, const void *data, size_t len, const char *relpath)
{
	enum store_status status = write_all(st, fd, data, len, relpath);

	if (close(fd) != 0 && status == STORE_OK)
		status = store_sys_fail(st, errno, "cannot close", relpath);
	return status;
}

enum store_status store_sync_file(struct store *st, const char *relpath)
{
	enum store_status status;
	int fd = store_open_regular(st, relpath, O_RDONLY, "cannot open", &status);

	if (fd < 0)
		return status;
	status = STORE_OK;
	store_crash_point();
	if (store_sync_or_owe(st, fd, false) != 0)
		status = store_sys_fail(st, errno, "cannot fsync", relpath);
	if (close(fd) != 0 && status == STORE_OK)
		status = store_sys_fail(st, errno, "cannot close", relpath);
	return status;
}

enum store_status store_read_file(struct store *st, const char *relpath, size_t cap, char **data, size_t *len)
{
	enum store_status status;
	struct stat sb;
	char *buf = NULL;
	size_t have = 0, size;
	int fd;

	*data = NULL;
	*len = 0;
	fd = store_open_regular(st, relpath, O_RDONLY, "cannot open", &status);
	if (fd < 0)
		return status;
	if (fstat(fd, &sb) != 0) {
		status = store_sys_fail(st, errno, "cannot stat", relpath);
		goto out;
	}
	if ((unsigned long long)sb.st_size > cap) {
		set_err(st, "%s/%s is larger than %zu bytes", st->home, relpath, cap);
		status = STORE_TOO_BIG;
		goto out;
	}
	/* st_size is a hint; the file may change under an unlocked reader */
	size = (size_t)sb.st_size + 1;
	buf = malloc(size + 1);
	if (buf == NULL) {
		status = store_nomem(st);
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (have == size) {
			char *bigger;

			if (size > cap) {
				set_err(st, "%s/%s is larger than %zu bytes", st->home, relpath, cap);
				status = STORE_TOO_BIG;
				goto out;
			}
			size = size * 2 > cap + 1 ? cap + 1 : size * 2;
			bigger = realloc(buf, size + 1);
			if (bigger == NULL) {
				status = store_nomem(st);
				goto out;
			}
			buf = bigger;
		}
		r = read(fd, buf + have, size - have);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			status = store_sys_fail(st, errno, "cannot read", relpath);
			goto out;
		}
		if (r == 0)
			break;
		have += (size_t)r;
	}
	if (have > cap) {
		set_err(st, "%s/%s is larger than %zu bytes", st->home, relpath, cap);
		status = STORE_TOO_BIG;
		goto out;
	}
	buf[have] = '\0';
	*data = buf;
	*len = have;
	buf = NULL;
	status = STORE_OK;
out:
	free(buf);
	close(fd);
	return status;
}

enum store_status store_stage_file(struct store *st, const char *relpath, const void *data, size_t len,
    struct store_staged *out)
{
	enum store_status status;
	const char *slash = strrchr(relpath, '/');
	const char *base = slash != NULL ? slash + 1 : relpath;
	int fd, tries;

	out->live = false;
	if (!store_mkpath(st, out->dst, sizeof out->dst, "%s", relpath))
		return STORE_IO;
	store_dir_of(relpath, out->dir, sizeof out->dir);
	for (tries = 0;; tries++) {
		if (!store_mkpath(st, out->tmp, sizeof out->tmp, "%s/.%s.%ld.%lu.tmp", out->dir, base, (long)getpid(),
			st->tmp_counter++))
			return STORE_IO;
		fd = openat(st->home_fd, out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		/* left by a crashed process that had our pid: try the next name */
		if (errno != EEXIST || tries >= 100)
			return store_sys_fail(st, errno, "cannot create", out->tmp);
	}
	out->live = true;
	status = finish_file(st, fd, data, len, out->tmp);
	if (status != STORE_OK)
		store_discard(st, out);
	return status;
}

enum store_status store_install(struct store *st, struct store_staged *sf)
{
	enum store_status status;

	assert(sf->live);
	/* a name never reaches data that is not durable: pay an owed sync first */
	status = st->owed_data ? store_sync(st) : STORE_OK;
	if (status != STORE_OK)
		return status;
	store_crash_point();
	if (renameat(st->home_fd, sf->tmp, st->home_fd, sf->dst) != 0)
		return store_sys_fail(st, errno, "cannot rename to", sf->dst);
	sf->live = false;
	/* the rename happened: a failing directory fsync leaves the new content */
	return store_sync_dir(st, sf->dir);
}

void store_discard(struct store *st, struct store_staged *sf)
{
	if (sf->live)
		unlinkat(st->home_fd, sf->tmp, 0);
	sf->live = false;
}

int store_lines_next(struct store_lines *it, char *line, size_t size, char *err, size_t errlen)
{
	size_t i, e;

	while (it->pos < it->len) {
		i = it->pos;
		it->lineno++;
		for (e = i; e < it->len && it->text[e] != '\n'; e++)
			;
		if (e == it->len) {
			errbuf_set(err, errlen, "%s:%d: the last line has no line end", it->file, it->lineno);
			return -1;
		}
		it->pos = e + 1;
		if (e == i || it->text[i] == '#')
			continue;
		if (e - i >= size) {
			errbuf_set(err, errlen, "%s:%d: the line is too long", it->file, it->lineno);
			return -1;
		}
		memcpy(line, it->text + i, e - i);
		line[e - i] = '\0';
		return 1;
	}
	return 0;
}

enum store_status store_write_records(struct store *st, const char *relpath, long cap, const char *header,
    size_t n, store_line_fn *line, const void *ctx)
{
	struct strbuf b = STRBUF_INIT;
	enum store_status status;
	size_t i, len;
	char *text;

	strbuf_puts(&b, header);
	for (i = 0; i < n; i++)
		line(ctx, i, &b);
	len = b.len;
	text = strbuf_finish(&b);
	if (text == NULL)
		return store_nomem(st);
	status = store_write_capped(st, relpath, text, len, cap);
	free(text);
	return status;
}

enum store_status store_write_capped(struct store *st, const char *relpath, const void *data, size_t len,
    long cap)
{
	if (len > (size_t)cap) {
		set_err(st, "%s/%s is full: it would be %zu bytes, over its cap of %ld", st->home, relpath, len, cap);
		return STORE_TOO_BIG;
	}
	return store_write_file(st, relpath, data, len);
}

enum store_status store_write_file(struct store *st, const char *relpath, const void *data, size_t len)
{
	struct store_staged sf;
	enum store_status status;

	status = store_stage_file(st, relpath, data, len, &sf);
	if (status != STORE_OK)
		return status;
	status = store_install(st, &sf);
	store_discard(st, &sf);
	return status;
}

static enum store_status create_file(struct store *st, const char *relpath, const void *data, size_t len,
    bool synced)
{
	enum store_status status;
	int fd = store_open_regular(st, relpath, O_WRONLY | O_CREAT, "cannot create", &status);

	if (fd < 0)
		return status;
	/* truncated only once known to be a regular file */
	if (ftruncate(fd, 0) != 0) {
		status = store_sys_fail(st, errno, "cannot truncate", relpath);
		close(fd);
		return status;
	}
	status = synced ? finish_file(st, fd, data, len, relpath) : finish_unsynced(st, fd, data, len, relpath);
	if (status != STORE_OK)
		unlinkat(st->home_fd, relpath, 0);	/* nothing half-written is left (a full disk, ulimit -f) */
	return status;
}

enum store_status store_create_file(struct store *st, const char *relpath, const void *data, size_t len)
{
	return create_file(st, relpath, data, len, true);
}

enum store_status store_create_file_unsynced(struct store *st, const char *relpath, const void *data, size_t len)
{
	return create_file(st, relpath, data, len, false);
}

enum store_status store_append_file(struct store *st, const char *relpath, const void *data, size_t len)
{
	enum store_status status;
	int fd = store_open_regular(st, relpath, O_WRONLY | O_CREAT | O_APPEND, "cannot open", &status);

	if (fd < 0)
		return status;
	return finish_file(st, fd, data, len, relpath);
}

enum store_status store_rename(struct store *st, const char *from, const char *to)
{
	enum store_status status = st->owed_data ? store_sync(st) : STORE_OK;	/* as in store_install() */

	if (status != STORE_OK)
		return status;
	store_crash_point();
	if (renameat(st->home_fd, from, st->home_fd, to) != 0)
		return store_sys_fail(st, errno, "cannot rename to", to);
	return STORE_OK;
}

enum store_status store_unlink(struct store *st, const char *relpath)
{
	store_crash_point();
	if (unlinkat(st->home_fd, relpath, 0) != 0)
		return store_sys_fail(st, errno, "cannot remove", relpath);
	return STORE_OK;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void store_free_names(char **names, size_t count)
{
	size_t i;

	if (names == NULL)
		return;
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

enum store_status store_list_dir(struct store *st, const char *reldir, char ***names, size_t *count)
{
	enum store_status status = STORE_OK;
	char **list = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd;

	*names = NULL;
	*count = 0;
	fd = openat(st->home_fd, reldir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return store_sys_fail(st, errno, "cannot open directory", reldir);
	d = fdopendir(fd);
	if (d == NULL) {
		status = store_sys_fail(st, errno, "cannot read directory", reldir);
		close(fd);
		return status;
	}
	for (;;) {
		struct stat sb;

		errno = 0;
		de = readdir(d);
		if (de == NULL) {
			if (errno != 0)
				status = store_sys_fail(st, errno, "cannot read directory", reldir);
			break;
		}
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_UNKNOWN) {
			if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
				continue;
		} else if (de->d_type != DT_REG) {
			continue;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **bigger = realloc(list, ncap * sizeof *list);

			if (bigger == NULL) {
				status = store_nomem(st);
				break;
			}
			list = bigger;
			cap = ncap;
		}
		list[n] = strdup(de->d_name);
		if (list[n] == NULL) {
			status = store_nomem(st);
			break;
		}
		n++;
	}
	closedir(d);
	if (status != STORE_OK) {
		store_free_names(list, n);
		return status;
	}
	if (n > 1)
		qsort(list, n, sizeof *list, cmp_names);
	*names = list;
	*count = n;
	return STORE_OK;
}

/* ".<name>.<pid>.<n>.tmp", as store_stage_file() names its temp files */
static bool tmp_name(const char *name)
{
	size_t len = strlen(name), dots = 0;
	const char *p;

	if (name[0] != '.' || len < 9 || strcmp(name + len - 4, ".tmp") != 0)
		return false;
	/* the two numbers before ".tmp" */
	for (p = name + len - 4; p > name + 1 && dots < 2; p--) {
		if (p[-1] == '.')
			dots++;
		else if (p[-1] < '0' || p[-1] > '9')
			return false;
	}
	return dots == 2 && p > name + 1;
}

enum store_status store_remove_stale_tmp(struct store *st, const char *reldir, time_t before, unsigned *removed)
{
	enum store_status status = STORE_OK;
	struct dirent *de;
	struct stat sb;
	DIR *d;
	int fd;

	fd = openat(st->home_fd, reldir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? STORE_OK : store_sys_fail(st, errno, "cannot open directory", reldir);
	d = fdopendir(fd);
	if (d == NULL) {
		status = store_sys_fail(st, errno, "cannot read directory", reldir);
		close(fd);
		return status;
	}
	while ((de = readdir(d)) != NULL) {
		if (!tmp_name(de->d_name) || fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode) || sb.st_mtime >= before)
			continue;
		store_crash_point();
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			(*removed)++;
	}
	closedir(d);
	return status;
}
