/* store: the home (create, open, owner), the store's errors, and the durable steps every write takes. */
#include "game/engine.h"
#include "base/testhook.h"
#include "store/store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The engine (oustpbm engine) can analyse any game file the store keeps. */
_Static_assert(ENGINE_FILE_MAX == STORE_BOARD_FILE_MAX, "engine and store file caps differ");


const char *store_status_str(enum store_status status)
{
	switch (status) {
	case STORE_OK:
		return "ok";
	case STORE_NOT_FOUND:
		return "not found";
	case STORE_USER_EXISTS:
		return "user id already taken";
	case STORE_BAD_ID:
		return "invalid id";
	case STORE_BAD_ADDRESS:
		return "invalid address";
	case STORE_BAD_PASSWORD:
		return "invalid password";
	case STORE_BAD_NAME:
		return "invalid full name";
	case STORE_TOO_BIG:
		return "file too big";
	case STORE_CORRUPT:
		return "damaged file";
	case STORE_FULL:
		return "no board number left";
	case STORE_CHANGED:
		return "changed meanwhile";
	case STORE_LIMIT:
		return "over a configured limit";
	case STORE_TIMEOUT:
		return "lock timeout";
	case STORE_TEMPFAIL:
		return "temporary system error";
	case STORE_IO:
		return "system error";
	case STORE_NO_SPACE:
		return "no space left (disk full, quota or file size limit)";
	case STORE_DISK_ERROR:
		return "disk input/output error";
	case STORE_NO_HOME:
		return "no such home";
	case STORE_NOT_OWNER:
		return "home owned by another user";
	case STORE_NOT_REGULAR:
		return "not a regular file";
	case STORE_RESERVED:
		return "user id reserved";
	}
	return "unknown status";
}

bool store_status_temporary(enum store_status status)
{
	return status == STORE_TIMEOUT || status == STORE_TEMPFAIL || status == STORE_NO_SPACE ||
	    status == STORE_DISK_ERROR;
}

/*
 * The status of a failed system call by its errno value.  A full disk, a
 * quota, a file past its size limit (ulimit -f; SIGXFSZ is ignored) are
 * STORE_NO_SPACE and an input/output error STORE_DISK_ERROR: values of
 * their own, so the layers above tell the admin which by the value, never
 * by the message's text; both are temporary, as STORE_TEMPFAIL is for
 * the other failures after which the same operation may well succeed
 * later.  ENOENT is the caller's to read (not found, or no home).
 */
enum store_status store_status_of_errno(int e)
{
	switch (e) {
	case ENOSPC:
	case EFBIG:
	case EDQUOT:
		return STORE_NO_SPACE;
	case EIO:
		return STORE_DISK_ERROR;
	case ENOMEM:
	case EMFILE:
	case ENFILE:
	case ENOLCK:
	case EAGAIN:
	case EINTR:
	case EBUSY:
	case ETXTBSY:
	case ESTALE:
	/*
	 * A permission or a read-only filesystem under the home is the
	 * admin's to fix (chown, remount); meanwhile the MTA keeps the mail
	 * and delivers it again (exit 75), rather than bouncing it.
	 */
	case EACCES:
	case EPERM:
	case EROFS:
		return STORE_TEMPFAIL;
	default:
		return STORE_IO;
	}
}

/* Record "<what> <home>/<relpath>: <strerror(e)>" and classify e. */
enum store_status store_sys_fail(struct store *st, int e, const char *what, const char *relpath)
{
	set_err(st, "%s %s/%s: %s", what, st->home, relpath, strerror(e));
	st->sys_errno = e;
	if (e == ENOENT)
		return STORE_NOT_FOUND;
	return store_status_of_errno(e);
}

enum store_status store_nomem(struct store *st)
{
	set_err(st, "out of memory");
	return STORE_TEMPFAIL;
}

/* What a file of mode m is, for a message. */
static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	return "not a regular file";
}

/* "<home>/<relpath> is a FIFO, not a regular file", and STORE_NOT_REGULAR. */
enum store_status store_not_regular(struct store *st, mode_t m, const char *relpath)
{
	set_err(st, "%s/%s is %s, not a regular file", st->home, relpath, file_kind(m));
	return STORE_NOT_REGULAR;
}

/*
 * Open a data file (a game file, users, seen, a queue file) with flags:
 * never through a symbolic link, never blocking on a FIFO (either would let
 * a stray file hang every mail or have another file's text quoted back),
 * and only if it is a regular file.  -1 with the error set otherwise.
 */
int store_open_regular(struct store *st, const char *relpath, int flags, const char *what,
    enum store_status *status)
{
	struct stat sb;
	int fd = openat(st->home_fd, relpath, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);

	if (fd < 0) {
		int e = errno;

		if (e == ELOOP && fstatat(st->home_fd, relpath, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(sb.st_mode))
			*status = store_not_regular(st, sb.st_mode, relpath);
		else if (e == EISDIR)
			*status = store_not_regular(st, S_IFDIR, relpath);
		else if (e == ENXIO && fstatat(st->home_fd, relpath, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			*status = store_not_regular(st, sb.st_mode, relpath);	/* a FIFO opened for writing */
		else
			*status = store_sys_fail(st, e, what, relpath);
		return -1;
	}
	if (fstat(fd, &sb) != 0) {
		*status = store_sys_fail(st, errno, "cannot stat", relpath);
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		*status = store_not_regular(st, sb.st_mode, relpath);
		close(fd);
		return -1;
	}
	/* back to blocking I/O: O_NONBLOCK was only for the open */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		*status = store_sys_fail(st, errno, "cannot open", relpath);
		close(fd);
		return -1;
	}
	*status = STORE_OK;
	return fd;
}

const char *store_error(const struct store *st)
{
	return st->err;
}

int store_errno(const struct store *st)
{
	return st->sys_errno;
}

void store_set_error(struct store *st, const char *fmt, ...)
{
	va_list ap;

	st->sys_errno = 0;
	va_start(ap, fmt);
	errbuf_vset(st->err, sizeof st->err, fmt, ap);
	va_end(ap);
}

const char *store_home(const struct store *st)
{
	return st->home;
}

/* snprintf into a path buffer; false (and an error) if it does not fit */
bool store_mkpath(struct store *st, char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		set_err(st, "path too long under %s", st->home);
		return false;
	}
	return true;
}

/*
 * Test hook for the crash-safety test (tests/sh/crash.sh): with
 * OUSTPBM_TEST_CRASH=n in the environment the process kills itself with
 * SIGKILL just before its n-th durable step (a file fsync, a rename, a
 * directory fsync, an unlink, the log write).  Every durable step of
 * oustpbm goes through this file, so this is the only hook.  Unset or not a
 * positive number: nothing happens.
 */
void store_crash_point(void)
{
	static long left = -1;	/* steps to go; 0: off */

	if (left < 0) {
		const char *v = testhook_env("OUSTPBM_TEST_CRASH");
		char *end;

		left = v != NULL ? strtol(v, &end, 10) : 0;
		if (v == NULL || *end != '\0' || left < 0)
			left = 0;
	}
	if (left > 0 && --left == 0)
		raise(SIGKILL);
}

/*
 * fsync fd, or, while deferring, note that a sync is owed when fd is on the
 * home's filesystem (store_sync() covers it); a file elsewhere is fsync'ed
 * at once.  -1 with errno on failure.
 */
int store_sync_or_owe(struct store *st, int fd, bool dir)
{
	struct stat sb;

	if (st->defer && fstat(fd, &sb) == 0 && sb.st_dev == st->home_dev) {
		if (dir)
			st->owed_names = true;
		else
			st->owed_data = true;
		return 0;
	}
	return fsync(fd);
}

void store_defer_begin(struct store *st)
{
#ifdef __linux__
	st->defer = st->sync_filesystem;
#else
	(void)st;	/* no syncfs(2): every fsync is made as it comes */
#endif
}

void store_defer_begin_batch(struct store *st)
{
#ifdef __linux__
	st->defer = true;
#else
	(void)st;
#endif
}

enum store_status store_sync(struct store *st)
{
	if (!st->owed_data && !st->owed_names)
		return STORE_OK;
	store_crash_point();
#ifdef __linux__
	/* Linux waits for the writes and flushes the device cache (syncfs(2)), and reports write errors since 5.8 */
	if (syncfs(st->home_fd) != 0)
		return store_sys_fail(st, errno, "cannot sync the filesystem of", ".");
#endif
	st->owed_data = st->owed_names = false;
	return STORE_OK;
}

enum store_status store_defer_end(struct store *st)
{
	enum store_status status = store_sync(st);

	st->defer = false;
	return status;
}

enum store_status store_sync_dir(struct store *st, const char *reldir)
{
	int fd = openat(st->home_fd, reldir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return store_sys_fail(st, errno, "cannot open directory", reldir);
	store_crash_point();
	if (store_sync_or_owe(st, fd, true) != 0) {
		int e = errno;

		close(fd);
		return store_sys_fail(st, e, "cannot fsync directory", reldir);
	}
	close(fd);
	return STORE_OK;
}

/* The directory part of relpath into dir ("." if none). */
void store_dir_of(const char *relpath, char *dir, size_t size)
{
	const char *slash = strrchr(relpath, '/');
	size_t n = slash != NULL ? (size_t)(slash - relpath) : 0;

	if (n == 0 || n >= size) {
		snprintf(dir, size, ".");
		return;
	}
	memcpy(dir, relpath, n);
	dir[n] = '\0';
}

enum store_status store_mkdir(struct store *st, const char *reldir)
{
	char parent[PATH_BUF];

	if (mkdirat(st->home_fd, reldir, 0700) != 0) {
		if (errno == EEXIST)
			return STORE_OK;
		return store_sys_fail(st, errno, "cannot create directory", reldir);
	}
	store_dir_of(reldir, parent, sizeof parent);
	return store_sync_dir(st, parent);
}

/* The name of a user id, or its number. */
static void user_name(uid_t uid, char *buf, size_t size)
{
	struct passwd *pw = getpwuid(uid);

	if (pw != NULL)
		snprintf(buf, size, "%s", pw->pw_name);
	else
		snprintf(buf, size, "%lu", (unsigned long)uid);
}

/* fsync the directory that holds path (after path was created in it). */
static int fsync_parent(const char *path)
{
	char *copy = strdup(path), *slash;
	int fd, r = -1;

	if (copy == NULL) {
		errno = ENOMEM;
		return -1;
	}
	slash = strrchr(copy, '/');
	if (slash == copy)
		slash[1] = '\0';
	else if (slash != NULL)
		*slash = '\0';
	fd = open(slash != NULL ? copy : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd >= 0) {
		r = fsync(fd);
		if (r != 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		close(fd);
	}
	return r;
}

enum store_status store_create_home(const char *home, char *err, size_t errlen)
{
	enum store_status status;
	int fd = -1, e;

	if (mkdir(home, 0700) != 0 && errno != EEXIST) {
		e = errno;
		snprintf(err, errlen, "cannot create home directory %s: %s", home, strerror(e));
		return e == ENOENT ? STORE_NOT_FOUND : store_status_of_errno(e);
	}
	fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open home directory %s: %s", home, strerror(e));
		return store_status_of_errno(e);
	}
	if (mkdirat(fd, "games", 0700) != 0 && errno != EEXIST) {
		e = errno;
		snprintf(err, errlen, "cannot create directory %s/games: %s", home, strerror(e));
		status = store_status_of_errno(e);
		goto out;
	}
	if (fsync(fd) != 0 || fsync_parent(home) != 0) {
		e = errno;
		snprintf(err, errlen, "cannot fsync %s or its parent: %s", home, strerror(e));
		status = store_status_of_errno(e);
		goto out;
	}
	status = STORE_OK;
out:
	close(fd);
	return status;
}

enum store_status store_open(const char *home, const struct config *cfg, struct store **out,
    char *err, size_t errlen)
{
	enum store_status status = STORE_TEMPFAIL;
	struct store *st = NULL;
	struct stat sb;

	*out = NULL;
	st = calloc(1, sizeof *st);
	if (st == NULL || (st->home = strdup(home)) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	st->home_fd = -1;
	st->lock_timeout_ms = cfg->lock_timeout_ms;
	st->password_cost = cfg->password_cost;
	st->test_time_set = cfg->test_time_set;
	st->test_time = cfg->test_time;
	/* a home is never made here: a mistyped -d must not become a second, empty server */
	st->home_fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->home_fd < 0) {
		int e = errno;

		if (e == ENOENT || e == ENOTDIR) {
			status = STORE_NO_HOME;
			snprintf(err, errlen, "there is no oustpbm home %s (%s): 'oustpbm init %s' makes one", home,
			    strerror(e), home);
		} else {
			status = store_status_of_errno(e);
			snprintf(err, errlen, "cannot open home directory %s: %s", home, strerror(e));
		}
		goto out;
	}
	if (fstat(st->home_fd, &sb) != 0) {
		status = STORE_IO;
		snprintf(err, errlen, "cannot stat home directory %s: %s", home, strerror(errno));
		goto out;
	}
	st->home_dev = sb.st_dev;
	st->home_uid = sb.st_uid;
	st->sync_filesystem = strcmp(cfg->sync, "filesystem") == 0;
	/* a directory that is no home (a user's ~) is called so, whoever owns it */
	if (faccessat(st->home_fd, CONFIG_FILE, F_OK, 0) != 0 && faccessat(st->home_fd, "games", F_OK, 0) != 0) {
		status = STORE_NO_HOME;
		snprintf(err, errlen, "%s is not an oustpbm home (it has neither %s nor games/): 'oustpbm init DIR' makes "
		    "one in a new or empty directory", home, CONFIG_FILE);
		goto out;
	}
	/* root became the owner before (store/owner.h): another user would leave files the owner cannot use */
	if (sb.st_uid != geteuid()) {
		char owner[64], me[64];

		user_name(sb.st_uid, owner, sizeof owner);
		user_name(geteuid(), me, sizeof me);
		status = STORE_NOT_OWNER;
		snprintf(err, errlen, "the home %s belongs to %s, not to %s: run oustpbm as %s, or as root (which "
		    "acts as %s)", home, owner, me, owner, owner);
		goto out;
	}
	status = store_mkdir(st, "games");
	if (status != STORE_OK) {
		snprintf(err, errlen, "%s", st->err);
		goto out;
	}
	*out = st;
	st = NULL;
	status = STORE_OK;
out:
	store_close(st);
	return status;
}

void store_close(struct store *st)
{
	if (st == NULL)
		return;
	if (st->home_fd >= 0)
		close(st->home_fd);
	free(st->home);
	free(st);
}

time_t store_now(const struct store *st)
{
	return st->test_time_set ? st->test_time : time(NULL);
}

uid_t store_home_owner(const struct store *st)
{
	return st->home_uid;
}

enum store_status store_folder_usage(struct store *st, const char *dir, long long *count, long long *bytes)
{
	char path[4096], **names = NULL;
	struct stat sb;
	enum store_status ss;
	size_t n = 0, i;

	*count = 0;
	*bytes = 0;
	ss = store_list_dir(st, dir, &names, &n);
	if (ss == STORE_NOT_FOUND)
		return STORE_OK;
	if (ss != STORE_OK)
		return ss;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s/%s", store_home(st), dir, names[i]);
		if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		(*count)++;
		*bytes += (long long)sb.st_size;
	}
	store_free_names(names, n);
	return STORE_OK;
}
