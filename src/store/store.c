/* store: home directory files, locks, durable writes, users, board counter, log. */
#include "game/engine.h"
#include "base/testhook.h"
#include "base/utf8.h"
#include "store/store.h"

#include <assert.h>
#include <crypt.h>
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The engine (oustpbm engine) can analyse any game file the store keeps. */
_Static_assert(ENGINE_FILE_MAX == STORE_BOARD_FILE_MAX, "engine and store file caps differ");

#define PATH_BUF 1024		/* relative paths are short: mail/<254>/new/<name> */
#define LOCK_SLEEP_MIN_US 1000
#define LOCK_SLEEP_MAX_US 20000
#define USERS_FILE "users"
#define RESERVED_FILE "reserved"
#define ACCOUNTS_LOCK_FILE "accounts.lock"
#define COUNTER_FILE "games/next-board"
#define COUNTER_FILE_MAX 64

struct store {
	char *home;
	int home_fd;
	unsigned long lock_timeout_ms;
	unsigned long password_cost;
	unsigned long tmp_counter;	/* makes temp names unique within the process */
	dev_t home_dev;		/* the filesystem a deferred sync covers */
	uid_t home_uid;		/* the home's owner */
	bool sync_filesystem;	/* sync = filesystem: store_defer_begin() defers (config.h) */
	bool test_time_set;	/* config_now()'s OUSTPBM_TEST_TIME, for store_now() */
	time_t test_time;
	bool defer;		/* between store_defer_begin() and store_defer_end() */
	bool owed_data;		/* a deferred file fsync is owed: paid before a rename */
	bool owed_names;	/* a deferred directory fsync is owed: paid by store_sync() */
	char err[STORE_ERR_MAX];
	char log_prefix[STORE_LOG_PREFIX_MAX];	/* store_complain()'s log lines */
};

static const char reserved_header[] =
    "# oustpbm reserved user ids: accounts that signed off or were deleted.\n"
    "#   userid until since [hash]\n"
    "# Nobody can register userid before until; since is when the account went\n"
    "# (both epoch seconds); hash is its last password hash, which tells a copy of\n"
    "# its signoff mail.  Lines starting with '#' and blank lines are ignored.\n";

/* --force-owner: run on a home that belongs to another user (store_open) */
static bool force_owner;

static const char users_header[] =
    "# oustpbm users: one account per line, fields separated by ':'\n"
    "#   userid:address:hash:full name\n"
    "# userid: lower case [a-z0-9_-]; address: the e-mail address the account\n"
    "# is bound to; hash: yescrypt password hash from crypt(3) (\"*\" locks the\n"
    "# account); full name: the rest of the line, may be empty, may contain ':'.\n"
    "# Lines starting with '#' and blank lines are ignored.\n";

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
	return status == STORE_TIMEOUT || status == STORE_TEMPFAIL;
}

/* errno values after which the same operation may well succeed later */
static bool errno_temporary(int e)
{
	switch (e) {
	case ENOSPC:
	case EFBIG:	/* past the file size limit (ulimit -f; SIGXFSZ is ignored) */
	case EDQUOT:
	case EIO:
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
		return true;
	default:
		return false;
	}
}

static void set_err(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(struct store *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, sizeof st->err, fmt, ap);
	va_end(ap);
}

/* Record "<what> <home>/<relpath>: <strerror(e)>" and classify e. */
static enum store_status sys_fail(struct store *st, int e, const char *what, const char *relpath)
{
	set_err(st, "%s %s/%s: %s", what, st->home, relpath, strerror(e));
	if (e == ENOENT)
		return STORE_NOT_FOUND;
	return errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
}

static enum store_status nomem(struct store *st)
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
static enum store_status not_regular(struct store *st, mode_t m, const char *relpath)
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
static int open_regular(struct store *st, const char *relpath, int flags, const char *what,
    enum store_status *status)
{
	struct stat sb;
	int fd = openat(st->home_fd, relpath, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);

	if (fd < 0) {
		int e = errno;

		if (e == ELOOP && fstatat(st->home_fd, relpath, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(sb.st_mode))
			*status = not_regular(st, sb.st_mode, relpath);
		else if (e == EISDIR)
			*status = not_regular(st, S_IFDIR, relpath);
		else if (e == ENXIO && fstatat(st->home_fd, relpath, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			*status = not_regular(st, sb.st_mode, relpath);	/* a FIFO opened for writing */
		else
			*status = sys_fail(st, e, what, relpath);
		return -1;
	}
	if (fstat(fd, &sb) != 0) {
		*status = sys_fail(st, errno, "cannot stat", relpath);
		close(fd);
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		*status = not_regular(st, sb.st_mode, relpath);
		close(fd);
		return -1;
	}
	/* back to blocking I/O: O_NONBLOCK was only for the open */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		*status = sys_fail(st, errno, "cannot open", relpath);
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

void store_set_error(struct store *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, sizeof st->err, fmt, ap);
	va_end(ap);
}

const char *store_home(const struct store *st)
{
	return st->home;
}

/* snprintf into a path buffer; false (and an error) if it does not fit */
static bool mkpath(struct store *st, char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool mkpath(struct store *st, char *buf, size_t size, const char *fmt, ...)
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
static void crash_point(void)
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
static int sync_or_owe(struct store *st, int fd, bool dir)
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

enum store_status store_sync(struct store *st)
{
	if (!st->owed_data && !st->owed_names)
		return STORE_OK;
	crash_point();
#ifdef __linux__
	/* Linux waits for the writes and flushes the device cache (syncfs(2)), and reports write errors since 5.8 */
	if (syncfs(st->home_fd) != 0)
		return sys_fail(st, errno, "cannot sync the filesystem of", ".");
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

static enum store_status fsync_dir_at(struct store *st, const char *reldir)
{
	int fd = openat(st->home_fd, reldir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return sys_fail(st, errno, "cannot open directory", reldir);
	crash_point();
	if (sync_or_owe(st, fd, true) != 0) {
		int e = errno;

		close(fd);
		return sys_fail(st, e, "cannot fsync directory", reldir);
	}
	close(fd);
	return STORE_OK;
}

enum store_status store_sync_dir(struct store *st, const char *reldir)
{
	return fsync_dir_at(st, reldir);
}

/* The directory part of relpath into dir ("." if none). */
static void dir_of(const char *relpath, char *dir, size_t size)
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
		return sys_fail(st, errno, "cannot create directory", reldir);
	}
	dir_of(reldir, parent, sizeof parent);
	return fsync_dir_at(st, parent);
}

void store_set_force_owner(bool force)
{
	force_owner = force;
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
		return e == ENOENT ? STORE_NOT_FOUND : errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
	}
	fd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open home directory %s: %s", home, strerror(e));
		return errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
	}
	if (mkdirat(fd, "games", 0700) != 0 && errno != EEXIST) {
		e = errno;
		snprintf(err, errlen, "cannot create directory %s/games: %s", home, strerror(e));
		status = errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
		goto out;
	}
	if (fsync(fd) != 0 || fsync_parent(home) != 0) {
		e = errno;
		snprintf(err, errlen, "cannot fsync %s or its parent: %s", home, strerror(e));
		status = errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
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
			status = errno_temporary(e) ? STORE_TEMPFAIL : STORE_IO;
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
	if (sb.st_uid != geteuid() && !force_owner) {
		char owner[64], me[64];

		user_name(sb.st_uid, owner, sizeof owner);
		user_name(geteuid(), me, sizeof me);
		status = STORE_NOT_OWNER;
		snprintf(err, errlen, "the home %s belongs to %s, not to %s: run oustpbm as %s (su %s, or sudo -u %s "
		    "oustpbm ...), or give --force-owner", home, owner, me, owner, owner, owner);
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

/* --- locks --- */

static long elapsed_ms(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

enum store_status store_lock_path(struct store *st, const char *relpath, unsigned long timeout_ms,
    struct store_lock *lock)
{
	struct flock fl;
	struct timespec start;
	enum store_status status;
	long sleep_us = LOCK_SLEEP_MIN_US;
	int fd;

	lock->fd = -1;
	fd = open_regular(st, relpath, O_RDWR | O_CREAT, "cannot open lock file", &status);
	if (fd < 0)
		return status;
	clock_gettime(CLOCK_MONOTONIC, &start);
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
			return sys_fail(st, e, "cannot lock", relpath);
		}
		waited = elapsed_ms(&start);
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
	if (!mkpath(st, buf, size, "games/%ld.%s", board, ext))
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
			return sys_fail(st, errno, "cannot write", relpath);
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

	crash_point();
	if (status == STORE_OK && sync_or_owe(st, fd, false) != 0)
		status = sys_fail(st, errno, "cannot fsync", relpath);
	if (close(fd) != 0 && status == STORE_OK)
		status = sys_fail(st, errno, "cannot close", relpath);
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
	fd = open_regular(st, relpath, O_RDONLY, "cannot open", &status);
	if (fd < 0)
		return status;
	if (fstat(fd, &sb) != 0) {
		status = sys_fail(st, errno, "cannot stat", relpath);
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
		status = nomem(st);
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
				status = nomem(st);
				goto out;
			}
			buf = bigger;
		}
		r = read(fd, buf + have, size - have);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			status = sys_fail(st, errno, "cannot read", relpath);
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
	if (!mkpath(st, out->dst, sizeof out->dst, "%s", relpath))
		return STORE_IO;
	dir_of(relpath, out->dir, sizeof out->dir);
	for (tries = 0;; tries++) {
		if (!mkpath(st, out->tmp, sizeof out->tmp, "%s/.%s.%ld.%lu.tmp", out->dir, base, (long)getpid(),
			st->tmp_counter++))
			return STORE_IO;
		fd = openat(st->home_fd, out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0)
			break;
		/* left by a crashed process that had our pid: try the next name */
		if (errno != EEXIST || tries >= 100)
			return sys_fail(st, errno, "cannot create", out->tmp);
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
	crash_point();
	if (renameat(st->home_fd, sf->tmp, st->home_fd, sf->dst) != 0)
		return sys_fail(st, errno, "cannot rename to", sf->dst);
	sf->live = false;
	/* the rename happened: a failing directory fsync leaves the new content */
	return fsync_dir_at(st, sf->dir);
}

void store_discard(struct store *st, struct store_staged *sf)
{
	if (sf->live)
		unlinkat(st->home_fd, sf->tmp, 0);
	sf->live = false;
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

enum store_status store_create_file(struct store *st, const char *relpath, const void *data, size_t len)
{
	enum store_status status;
	int fd = open_regular(st, relpath, O_WRONLY | O_CREAT, "cannot create", &status);

	if (fd < 0)
		return status;
	/* truncated only once known to be a regular file */
	if (ftruncate(fd, 0) != 0) {
		status = sys_fail(st, errno, "cannot truncate", relpath);
		close(fd);
		return status;
	}
	status = finish_file(st, fd, data, len, relpath);
	if (status != STORE_OK)
		unlinkat(st->home_fd, relpath, 0);	/* nothing half-written is left (a full disk, ulimit -f) */
	return status;
}

enum store_status store_append_file(struct store *st, const char *relpath, const void *data, size_t len)
{
	enum store_status status;
	int fd = open_regular(st, relpath, O_WRONLY | O_CREAT | O_APPEND, "cannot open", &status);

	if (fd < 0)
		return status;
	return finish_file(st, fd, data, len, relpath);
}

enum store_status store_rename(struct store *st, const char *from, const char *to)
{
	enum store_status status = st->owed_data ? store_sync(st) : STORE_OK;	/* as in store_install() */

	if (status != STORE_OK)
		return status;
	crash_point();
	if (renameat(st->home_fd, from, st->home_fd, to) != 0)
		return sys_fail(st, errno, "cannot rename to", to);
	return STORE_OK;
}

enum store_status store_unlink(struct store *st, const char *relpath)
{
	crash_point();
	if (unlinkat(st->home_fd, relpath, 0) != 0)
		return sys_fail(st, errno, "cannot remove", relpath);
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
		return sys_fail(st, errno, "cannot open directory", reldir);
	d = fdopendir(fd);
	if (d == NULL) {
		status = sys_fail(st, errno, "cannot read directory", reldir);
		close(fd);
		return status;
	}
	for (;;) {
		struct stat sb;

		errno = 0;
		de = readdir(d);
		if (de == NULL) {
			if (errno != 0)
				status = sys_fail(st, errno, "cannot read directory", reldir);
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
				status = nomem(st);
				break;
			}
			list = bigger;
			cap = ncap;
		}
		list[n] = strdup(de->d_name);
		if (list[n] == NULL) {
			status = nomem(st);
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
		return errno == ENOENT ? STORE_OK : sys_fail(st, errno, "cannot open directory", reldir);
	d = fdopendir(fd);
	if (d == NULL) {
		status = sys_fail(st, errno, "cannot read directory", reldir);
		close(fd);
		return status;
	}
	while ((de = readdir(d)) != NULL) {
		if (!tmp_name(de->d_name) || fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(sb.st_mode) || sb.st_mtime >= before)
			continue;
		crash_point();
		if (unlinkat(dirfd(d), de->d_name, 0) == 0)
			(*removed)++;
	}
	closedir(d);
	return status;
}

/* --- boards --- */

enum store_status store_board_exists(struct store *st, long board)
{
	enum store_status status;
	char path[PATH_BUF];
	struct stat sb;

	status = board_path(st, board, "game", path, sizeof path);
	if (status != STORE_OK)
		return status;
	if (fstatat(st->home_fd, path, &sb, AT_SYMLINK_NOFOLLOW) != 0)
		return sys_fail(st, errno, "cannot stat", path);
	if (!S_ISREG(sb.st_mode))
		return not_regular(st, sb.st_mode, path);
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
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)text[i];
		h *= 1099511628211ULL;
	}
	return h;
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

enum store_status store_next_board_id(struct store *st, long *board)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status status;
	char *text = NULL, buf[32];
	size_t len;
	long next;

	*board = 0;
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
		size_t i;

		for (i = 0; i < len && text[i] != '\n'; i++)
			q[i] = (text[i] < 0x20 || text[i] == 0x7f) ? '?' : text[i];
		q[i] = '\0';
		set_err(st, "%s/%s: '%s' is not a board number", st->home, COUNTER_FILE, q);
		status = STORE_CORRUPT;
		goto out;
	}
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
	snprintf(buf, sizeof buf, "%ld\n", next + 1);
	status = store_write_file(st, COUNTER_FILE, buf, strlen(buf));
	if (status == STORE_OK)
		*board = next;
out:
	free(text);
	store_unlock(&lock);
	return status;
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
		status = nomem(st);
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

/* --- users --- */

bool store_password_ok(const char *password)
{
	size_t i;

	if (password == NULL || password[0] == '\0')
		return false;
	for (i = 0; password[i] != '\0'; i++)
		if (i >= STORE_PASSWORD_MAX || password[i] < '!' || password[i] > '~')
			return false;
	return true;
}

static bool fullname_ok(const char *name)
{
	const unsigned char *p;

	if (strlen(name) > STORE_FULLNAME_MAX)
		return false;
	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* Check and fold a user id into out; STORE_BAD_ID (no path, no lookup) otherwise. */
static enum store_status fold_userid(struct store *st, const char *userid, char out[IDENT_USERID_MAX + 1])
{
	if (!ident_userid_ok(userid)) {
		set_err(st, "invalid user id");
		return STORE_BAD_ID;
	}
	snprintf(out, IDENT_USERID_MAX + 1, "%s", userid);
	ident_userid_fold(out);
	return STORE_OK;
}

/* Copy s[0..n) into out (size outlen) if it fits. */
static bool copy_field(char *out, size_t outlen, const char *s, size_t n)
{
	if (n >= outlen)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* Parse one users line (without its newline); *why says what is wrong. */
static bool parse_user(const char *line, size_t n, struct store_user *u, const char **why)
{
	const char *c1, *c2, *c3, *end = line + n, *p;
	const char *awhy;

	memset(u, 0, sizeof *u);
	if (memchr(line, '\0', n) != NULL) {
		*why = "contains a NUL byte";
		return false;
	}
	c1 = memchr(line, ':', n);
	c2 = c1 != NULL ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
	c3 = c2 != NULL ? memchr(c2 + 1, ':', (size_t)(end - c2 - 1)) : NULL;
	if (c3 == NULL) {
		*why = "has fewer than four ':'-separated fields";
		return false;
	}
	if (!copy_field(u->userid, sizeof u->userid, line, (size_t)(c1 - line)) || !ident_userid_ok(u->userid)) {
		*why = "has an invalid user id";
		return false;
	}
	ident_userid_fold(u->userid);
	if (!copy_field(u->address, sizeof u->address, c1 + 1, (size_t)(c2 - c1 - 1)) ||
	    !mailaddr_ok(u->address, &awhy)) {
		*why = "has an invalid address";
		return false;
	}
	if (!copy_field(u->hash, sizeof u->hash, c2 + 1, (size_t)(c3 - c2 - 1)) || u->hash[0] == '\0') {
		*why = "has an empty or too long password hash";
		return false;
	}
	for (p = u->hash; *p != '\0'; p++)
		if (*p < '!' || *p > '~') {
			*why = "has a password hash with a space or control character";
			return false;
		}
	if (!copy_field(u->fullname, sizeof u->fullname, c3 + 1, (size_t)(end - c3 - 1)) ||
	    !fullname_ok(u->fullname)) {
		*why = "has a full name too long or with control characters";
		return false;
	}
	return true;
}

/* Walks the lines of the users text: start, length (no newline, no CR), number. */
struct line_iter {
	const char *text;
	size_t len, pos;
	unsigned lineno;
};

static bool next_line(struct line_iter *it, const char **line, size_t *n, size_t *start)
{
	for (;;) {
		const char *nl;
		size_t eol, k;

		if (it->pos >= it->len)
			return false;
		nl = memchr(it->text + it->pos, '\n', it->len - it->pos);
		eol = nl != NULL ? (size_t)(nl - it->text) : it->len;
		*start = it->pos;
		*line = it->text + it->pos;
		*n = eol - it->pos;
		it->pos = eol + 1;
		it->lineno++;
		if (*n > 0 && (*line)[*n - 1] == '\r')
			(*n)--;
		for (k = 0; k < *n && ((*line)[k] == ' ' || (*line)[k] == '\t'); k++)
			;
		if (k == *n || (*line)[k] == '#')
			continue;
		return true;
	}
}

enum store_status store_read_records(struct store *st, const char *relpath, size_t cap, size_t size,
    store_record_fn *parse, void **list, unsigned **lines, size_t *count)
{
	struct line_iter it = { NULL, 0, 0, 0 };
	enum store_status status;
	unsigned char *recs = NULL, *nr;
	unsigned *ln = NULL, *nl;
	const char *line, *why;
	char *text = NULL;
	size_t n = 0, alloc = 0, ll, start;

	*list = NULL;
	*count = 0;
	if (lines != NULL)
		*lines = NULL;
	status = store_read_file(st, relpath, cap, &text, &it.len);
	if (status != STORE_OK)
		return status;
	it.text = text;
	while (next_line(&it, &line, &ll, &start)) {
		if (n == alloc) {
			/* at most one record a line of a file of at most cap bytes: no overflow */
			alloc = alloc != 0 ? alloc * 2 : 16;
			nr = realloc(recs, alloc * size);
			if (nr == NULL) {
				status = nomem(st);
				goto out;
			}
			recs = nr;
			nl = realloc(ln, alloc * sizeof *ln);
			if (nl == NULL) {
				status = nomem(st);
				goto out;
			}
			ln = nl;
		}
		if (!parse(line, ll, recs + n * size, &why)) {
			set_err(st, "%s/%s line %u %s", st->home, relpath, it.lineno, why);
			status = STORE_CORRUPT;
			goto out;
		}
		ln[n++] = it.lineno;
	}
	*list = recs;
	*count = n;
	recs = NULL;
	if (lines != NULL) {
		*lines = ln;
		ln = NULL;
	}
out:
	free(recs);
	free(ln);
	free(text);
	return status;
}

/*
 * Find userid (folded) in text.  With check_all every line is parsed.
 * *at and *at_len locate the matching line; STORE_NOT_FOUND if none.
 */
static enum store_status scan_users(struct store *st, const char *text, size_t len, const char *userid,
    bool check_all, struct store_user *found, size_t *at, size_t *at_len)
{
	struct line_iter it = { text, len, 0, 0 };
	struct store_user u;
	size_t idlen = strlen(userid), n, start;
	const char *line, *why;
	bool have = false;

	while (next_line(&it, &line, &n, &start)) {
		bool mine = n > idlen && line[idlen] == ':' && strncasecmp(line, userid, idlen) == 0;

		if (!check_all && !mine)
			continue;
		if (!parse_user(line, n, &u, &why)) {
			set_err(st, "%s/%s line %u %s", st->home, USERS_FILE, it.lineno, why);
			return STORE_CORRUPT;
		}
		if (mine && !have) {
			have = true;
			if (found != NULL)
				*found = u;
			if (at != NULL) {
				*at = start;
				*at_len = n;
			}
			if (!check_all)
				return STORE_OK;
		}
	}
	if (!have) {
		set_err(st, "no user '%s'", userid);
		return STORE_NOT_FOUND;
	}
	return STORE_OK;
}

/* yescrypt hash of password with a fresh salt into out. */
enum store_status store_password_hash(struct store *st, const char *password, char out[STORE_HASH_MAX + 1])
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data *cd;
	enum store_status status = STORE_OK;
	const char *h, *test = testhook_env("OUSTPBM_TEST_SALT");
	char fixed[16] = { 0 };

	/*
	 * OUSTPBM_TEST_SALT: the golden tests' salt, as OUSTPBM_TEST_TIME fixes
	 * their times, so that the reply tokens bound to the hash are the same
	 * on every run (replytoken.h)
	 */
	if (test != NULL && test[0] != '\0')
		snprintf(fixed, sizeof fixed, "%s", test);
	if (crypt_gensalt_rn("$y$", st->password_cost, test != NULL && test[0] != '\0' ? fixed : NULL,
	    test != NULL && test[0] != '\0' ? (int)sizeof fixed : 0, setting, sizeof setting) == NULL) {
		set_err(st, "cannot make a password salt: %s", strerror(errno));
		return errno_temporary(errno) ? STORE_TEMPFAIL : STORE_IO;
	}
	cd = calloc(1, sizeof *cd);
	if (cd == NULL)
		return nomem(st);
	h = crypt_r(password, setting, cd);
	if (h == NULL || h[0] != '$' || strlen(h) > STORE_HASH_MAX) {
		/* our own setting: the computation failed (yescrypt out of memory), try later */
		set_err(st, "cannot compute a password hash with setting '%s' (out of memory?)", setting);
		status = STORE_TEMPFAIL;
	} else {
		memcpy(out, h, strlen(h) + 1);
	}
	explicit_bzero(cd, sizeof *cd);
	free(cd);
	return status;
}

enum store_status store_user_check_password(const struct store_user *user, const char *password, bool *right)
{
	char want[STORE_HASH_MAX + 1], got[STORE_HASH_MAX + 1];
	unsigned char diff = 0;
	struct crypt_data *cd;
	const char *h;
	size_t i, hl;
	bool computed = false;

	*right = false;
	if (!store_password_ok(password) || user->hash[0] != '$')
		return STORE_OK;
	cd = calloc(1, sizeof *cd);
	if (cd == NULL)
		return STORE_TEMPFAIL;
	memset(want, 0, sizeof want);
	memset(got, 0, sizeof got);
	memcpy(want, user->hash, strnlen(user->hash, STORE_HASH_MAX));
	h = crypt_r(password, user->hash, cd);
	/*
	 * "*0"/"*1" are crypt's failure tokens, never a match.  yescrypt gives
	 * the same EINVAL for a hash it cannot allocate for (ulimit -v, a high
	 * cost) as for a damaged one: neither says the password is wrong.
	 */
	if (h != NULL && h[0] == '$' && (hl = strlen(h)) <= STORE_HASH_MAX) {
		memcpy(got, h, hl);
		computed = true;
	}
	/* every byte of both fixed-size buffers, whatever matched so far */
	for (i = 0; i < sizeof want; i++)
		diff |= (unsigned char)(want[i] ^ got[i]);
	explicit_bzero(cd, sizeof *cd);
	explicit_bzero(got, sizeof got);
	free(cd);
	if (!computed)
		return STORE_TEMPFAIL;
	*right = diff == 0;
	return STORE_OK;
}

enum store_status store_user_find(struct store *st, const char *userid, struct store_user *user)
{
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	char *text = NULL;
	size_t len;

	memset(user, 0, sizeof *user);
	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len);
	if (status == STORE_NOT_FOUND)
		set_err(st, "no user '%s'", id);
	if (status != STORE_OK)
		return status;
	status = scan_users(st, text, len, id, false, user, NULL, NULL);
	free(text);
	return status;
}

void store_user_display_name(struct store *st, const char *address, const char *userid,
    char name[STORE_FULLNAME_MAX + 1])
{
	struct line_iter it;
	struct store_user u;
	const char *line, *why;
	char *text = NULL;
	size_t len, n, start;
	bool have = false, differ = false;

	name[0] = '\0';
	if (address == NULL || address[0] == '\0' ||
	    store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len) != STORE_OK)
		return;
	it = (struct line_iter){ text, len, 0, 0 };
	while (next_line(&it, &line, &n, &start)) {
		if (!parse_user(line, n, &u, &why) || strcasecmp(u.address, address) != 0)
			continue;	/* a damaged line is fsck's to report; it names nobody here */
		if (userid != NULL && strcasecmp(u.userid, userid) == 0) {
			snprintf(name, STORE_FULLNAME_MAX + 1, "%s", u.fullname);
			have = true;
			differ = false;
			break;
		}
		if (!have) {
			snprintf(name, STORE_FULLNAME_MAX + 1, "%s", u.fullname);
			have = true;
		} else if (strcmp(name, u.fullname) != 0) {
			differ = true;
		}
	}
	free(text);
	if (differ)
		name[0] = '\0';
}

enum store_status store_user_ids_of(struct store *st, const char *address, char ids[][IDENT_USERID_MAX + 1],
    size_t max, size_t *n)
{
	struct line_iter it;
	struct store_user u;
	const char *line, *why;
	char *text = NULL;
	size_t len, ln, start;
	enum store_status status;

	*n = 0;
	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, &len);
	if (status == STORE_NOT_FOUND)
		return STORE_OK;
	if (status != STORE_OK)
		return status;
	it = (struct line_iter){ text, len, 0, 0 };
	while (*n < max && next_line(&it, &line, &ln, &start)) {
		if (!parse_user(line, ln, &u, &why) || strcasecmp(u.address, address) != 0)
			continue;	/* a damaged line is fsck's to report */
		memcpy(ids[(*n)++], u.userid, sizeof u.userid);
	}
	free(text);
	return STORE_OK;
}

/* Read the users file for a rewrite: every line checked; absent = empty. */
static enum store_status read_users_checked(struct store *st, char **text, size_t *len)
{
	enum store_status status;

	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, text, len);
	if (status == STORE_NOT_FOUND) {
		*text = NULL;
		*len = 0;
		return STORE_OK;
	}
	if (status != STORE_OK)
		return status;
	/* "" is never a user id: this only checks the lines */
	status = scan_users(st, *text, *len, "", true, NULL, NULL, NULL);
	if (status == STORE_NOT_FOUND)
		status = STORE_OK;
	if (status != STORE_OK) {
		free(*text);
		*text = NULL;
	}
	return status;
}

#define REGISTRATIONS_FILE "registrations"
#define REGISTRATIONS_MAX STORE_REGISTRATIONS_FILE_MAX
#define REGISTRATIONS_COMPACT 65536		/* rewritten with the last hour only past this */

/* The domain of address, lower case, into out. */
static void address_domain(const char *address, char out[MAILADDR_MAX + 1])
{
	const char *at = strrchr(address, '@');
	size_t i;

	snprintf(out, MAILADDR_MAX + 1, "%s", at != NULL ? at + 1 : address);
	for (i = 0; out[i] != '\0'; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
}

/*
 * Under the store lock: refuse a registration over caps (STORE_LIMIT).
 * *text is the registrations file (NULL if none), kept for record_registration().
 */
static enum store_status check_caps(struct store *st, const struct store_register_caps *caps, const char *domain,
    char **text, size_t *len)
{
	enum store_status status;
	unsigned long all = 0, mine = 0;
	const char *p, *nl, *sp;
	long long t;
	char *end;

	*text = NULL;
	*len = 0;
	status = store_read_file(st, REGISTRATIONS_FILE, REGISTRATIONS_MAX, text, len);
	if (status == STORE_NOT_FOUND || status == STORE_TOO_BIG) {
		/* none yet; or too big to be ours: counted as empty, rewritten below */
		*text = NULL;
		*len = 0;
		status = STORE_OK;
	}
	if (status != STORE_OK)
		return status;
	for (p = *text; p != NULL && p < *text + *len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(*text + *len - p));
		if (nl == NULL)
			break;	/* an unfinished last line (a crash): not counted */
		t = strtoll(p, &end, 10);
		if (end == p || *end != ' ' || t <= caps->now - 3600 || t > caps->now)
			continue;
		all++;
		sp = end + 1;
		if ((size_t)(nl - sp) == strlen(domain) && memcmp(sp, domain, (size_t)(nl - sp)) == 0)
			mine++;
	}
	if (caps->per_hour > 0 && all >= caps->per_hour) {
		set_err(st, "%lu account%s registered in the last hour (max_registrations_per_hour = %lu)", all,
		    all == 1 ? " was" : "s were", caps->per_hour);
		return STORE_LIMIT;
	}
	if (caps->per_domain > 0 && mine >= caps->per_domain) {
		set_err(st, "%lu account%s with an address at %s %s registered in the last hour "
		    "(max_registrations_per_domain = %lu)", mine, mine == 1 ? "" : "s", domain,
		    mine == 1 ? "was" : "were", caps->per_domain);
		return STORE_LIMIT;
	}
	return STORE_OK;
}

/*
 * Under the store lock, after the account was written: note its time.  A
 * failure here loses one line of a count, never the account: not reported.
 */
static void record_registration(struct store *st, const struct store_register_caps *caps, const char *domain,
    const char *text, size_t len)
{
	char line[MAILADDR_MAX + 32], *out = NULL;
	const char *p, *nl;
	size_t used = 0;
	long long t;
	int n;

	n = snprintf(line, sizeof line, "%lld %s\n", (long long)caps->now, domain);
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	if (len + (size_t)n <= REGISTRATIONS_COMPACT) {
		store_append_file(st, REGISTRATIONS_FILE, line, (size_t)n);
		return;
	}
	/* grown: rewritten with the lines of the last hour */
	out = malloc(len + (size_t)n + 1);
	if (out == NULL)
		return;
	for (p = text; p != NULL && p < text + len; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (nl == NULL)
			break;
		t = strtoll(p, NULL, 10);
		if (t > caps->now - 3600 && t <= caps->now) {
			memcpy(out + used, p, (size_t)(nl + 1 - p));
			used += (size_t)(nl + 1 - p);
		}
	}
	memcpy(out + used, line, (size_t)n);
	used += (size_t)n;
	store_write_file(st, REGISTRATIONS_FILE, out, used);
	free(out);
}

enum store_status store_registration_take(struct store *st, const struct store_register_caps *caps,
    const char *address)
{
	char domain[MAILADDR_MAX + 1], *regs = NULL;
	enum store_status status;
	size_t len = 0;

	address_domain(address, domain);
	status = check_caps(st, caps, domain, &regs, &len);
	if (status == STORE_OK)
		record_registration(st, caps, domain, regs, len);
	free(regs);
	return status;
}

/* A hash as store_password_hash() makes it: fits a users line. */
static bool hash_ok(const char *hash)
{
	return hash[0] == '$' && strlen(hash) <= STORE_HASH_MAX && strpbrk(hash, ":\n") == NULL;
}

time_t store_now(const struct store *st)
{
	return st->test_time_set ? st->test_time : time(NULL);
}

/* Parse "userid until since [hash]"; *why says what is wrong. */
static bool parse_reserved(const char *line, size_t n, struct store_reserved *r, const char **why)
{
	char buf[IDENT_USERID_MAX + STORE_HASH_MAX + 64], *sp, *end;
	long long until, since;

	memset(r, 0, sizeof *r);
	if (n >= sizeof buf || memchr(line, '\0', n) != NULL) {
		*why = "is too long or holds a NUL byte";
		return false;
	}
	memcpy(buf, line, n);
	buf[n] = '\0';
	sp = strchr(buf, ' ');
	if (sp == NULL) {
		*why = "is not 'userid until since'";
		return false;
	}
	*sp = '\0';
	if (!ident_userid_ok(buf) || strlen(buf) > IDENT_USERID_MAX) {
		*why = "has an invalid user id";
		return false;
	}
	memcpy(r->userid, buf, strlen(buf) + 1);	/* at most IDENT_USERID_MAX, checked above */
	ident_userid_fold(r->userid);
	errno = 0;
	until = strtoll(sp + 1, &end, 10);
	if (end == sp + 1 || *end != ' ' || errno != 0 || until < 0 || sp[1] == '-' || sp[1] == '+') {
		*why = "has no time 'until' (epoch seconds)";
		return false;
	}
	sp = end;
	since = strtoll(sp + 1, &end, 10);
	if (end == sp + 1 || (*end != '\0' && *end != ' ') || errno != 0 || since < 0 || sp[1] == '-' ||
	    sp[1] == '+') {
		*why = "has no time 'since' (epoch seconds)";
		return false;
	}
	if (*end == ' ') {
		if (end[1] != '$' || strlen(end + 1) > STORE_HASH_MAX || strpbrk(end + 1, " :") != NULL) {
			*why = "has something else than a password hash after 'since'";
			return false;
		}
		snprintf(r->hash, sizeof r->hash, "%s", end + 1);
	}
	r->until = until;
	r->since = since;
	return true;
}

static bool reserved_record(const char *line, size_t n, void *rec, const char **why)
{
	return parse_reserved(line, n, rec, why);
}

/* Read and parse the reserved file; none is an empty list. */
static enum store_status read_reserved(struct store *st, struct store_reserved **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, RESERVED_FILE, STORE_USERS_FILE_MAX, sizeof **list, reserved_record, &recs,
	    lines, count);
	*list = recs;
	return status == STORE_NOT_FOUND ? STORE_OK : status;
}

enum store_status store_reserved_find(struct store *st, const char *userid, struct store_reserved *out)
{
	struct store_reserved *list = NULL;
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	size_t n = 0, i;

	memset(out, 0, sizeof *out);
	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	status = read_reserved(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	status = STORE_NOT_FOUND;
	for (i = 0; i < n; i++)
		if (strcmp(list[i].userid, id) == 0) {
			*out = list[i];
			status = STORE_OK;
		}
	if (status == STORE_NOT_FOUND)
		set_err(st, "user id '%s' is not reserved", id);
	free(list);
	return status;
}

enum store_status store_reserved_all(struct store *st, struct store_reserved **list, unsigned **lines,
    size_t *count)
{
	enum store_status status;
	void *recs = NULL;

	status = store_read_records(st, RESERVED_FILE, STORE_USERS_FILE_MAX, sizeof **list, reserved_record, &recs,
	    lines, count);
	*list = recs;
	return status;
}

/* Under the store lock: STORE_RESERVED if id (folded) is reserved at now. */
static enum store_status check_reserved(struct store *st, const char *id, int64_t now)
{
	struct store_reserved r;
	enum store_status status = store_reserved_find(st, id, &r);
	char stamp[32];
	struct tm tm;
	time_t t;

	if (status == STORE_NOT_FOUND)
		return STORE_OK;
	if (status != STORE_OK)
		return status;
	if (r.until <= now)
		return STORE_OK;
	t = (time_t)r.until;
	if (gmtime_r(&t, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)r.until);
	set_err(st, "user id '%s' is reserved until %s: its account was closed", id, stamp);
	return STORE_RESERVED;
}

/* Add an account with password, or with prehash made by store_password_hash() when password is NULL. */
static enum store_status add_user(struct store *st, const char *userid, const char *address,
    const char *password, const char *prehash, const char *fullname, const struct store_register_caps *caps)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char id[IDENT_USERID_MAX + 1], hash[STORE_HASH_MAX + 1], domain[MAILADDR_MAX + 1];
	enum store_status status;
	char *text = NULL, *out = NULL, *regs = NULL;
	const char *why;
	size_t len, outlen, regs_len = 0;
	int n;

	if (fullname == NULL)
		fullname = "";
	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	if (!mailaddr_deliverable(address, &why)) {
		set_err(st, "address %s", why);
		return STORE_BAD_ADDRESS;
	}
	if (password != NULL && !store_password_ok(password)) {
		set_err(st, "a password is 1 to %d printable characters without spaces", STORE_PASSWORD_MAX);
		return STORE_BAD_PASSWORD;
	}
	if (password == NULL && !hash_ok(prehash)) {
		set_err(st, "not a password hash");
		return STORE_BAD_PASSWORD;
	}
	if (!ident_fullname_ok(fullname, &why)) {
		set_err(st, "the full name %s", why);
		return STORE_BAD_NAME;
	}
	address_domain(address, domain);
	if (password == NULL) {
		snprintf(hash, sizeof hash, "%s", prehash);
	} else {
		/* hashing takes tens of milliseconds: not under the lock */
		status = store_password_hash(st, password, hash);
		if (status != STORE_OK)
			return status;
	}
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	if (caps != NULL) {
		status = check_caps(st, caps, domain, &regs, &regs_len);
		if (status != STORE_OK)
			goto out;
	}
	status = read_users_checked(st, &text, &len);
	if (status != STORE_OK)
		goto out;
	if (text != NULL && scan_users(st, text, len, id, false, NULL, NULL, NULL) == STORE_OK) {
		set_err(st, "user id '%s' is already taken", id);
		status = STORE_USER_EXISTS;
		goto out;
	}
	status = check_reserved(st, id, caps != NULL ? caps->now : (int64_t)store_now(st));
	if (status != STORE_OK)
		goto out;
	n = asprintf(&out, "%s%.*s%s%s:%s:%s:%s\n", len == 0 ? users_header : "", (int)len,
	    text != NULL ? text : "", len > 0 && text != NULL && text[len - 1] != '\n' ? "\n" : "", id, address,
	    hash, fullname);
	if (n < 0) {
		out = NULL;
		status = nomem(st);
		goto out;
	}
	outlen = (size_t)n;
	if (outlen > (size_t)STORE_USERS_FILE_MAX) {
		/* past it the file could not be read again, and every mail would fail */
		set_err(st, "the users file would pass %ld bytes", STORE_USERS_FILE_MAX);
		status = STORE_TOO_BIG;
		goto out;
	}
	status = store_write_file(st, USERS_FILE, out, outlen);
	if (status == STORE_OK && caps != NULL)
		record_registration(st, caps, domain, regs, regs_len);
out:
	free(out);
	free(text);
	free(regs);
	store_unlock(&lock);
	return status;
}

bool store_hash_current(const struct store *st, const char *hash)
{
	char setting[CRYPT_GENSALT_OUTPUT_SIZE];
	const char *end;
	size_t n;

	if (crypt_gensalt_rn("$y$", st->password_cost, NULL, 0, setting, sizeof setting) == NULL)
		return true;	/* no new hash could be made either */
	/* "$y$" then the parameters up to the next '$' */
	end = strchr(setting + 3, '$');
	if (end == NULL)
		return true;
	n = (size_t)(end + 1 - setting);
	return strncmp(hash, setting, n) == 0;
}

enum store_status store_user_add(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname)
{
	return add_user(st, userid, address, password, NULL, fullname, NULL);
}

enum store_status store_user_register(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname, const struct store_register_caps *caps)
{
	return add_user(st, userid, address, password, NULL, fullname, caps);
}

enum store_status store_user_register_hashed(struct store *st, const char *userid, const char *address,
    const char *hash, const char *fullname, const struct store_register_caps *caps)
{
	return add_user(st, userid, address, NULL, hash, fullname, caps);
}

enum store_status store_user_set_password(struct store *st, const char *userid, const char *password,
    const char *expect_hash)
{
	char hash[STORE_HASH_MAX + 1];
	enum store_status status;

	if (!store_password_ok(password)) {
		set_err(st, "a password is 1 to %d printable characters without spaces", STORE_PASSWORD_MAX);
		return STORE_BAD_PASSWORD;
	}
	status = store_password_hash(st, password, hash);
	if (status != STORE_OK)
		return status;
	return store_user_set_hash(st, userid, hash, expect_hash);
}

enum store_status store_user_set_hash(struct store *st, const char *userid, const char *hash,
    const char *expect_hash)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	char *text = NULL, *out = NULL;
	const char *c1, *c2, *c3;
	struct store_user cur;
	size_t len, at, at_len, hl, outlen;

	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	if (!hash_ok(hash)) {
		set_err(st, "not a password hash");
		return STORE_BAD_PASSWORD;
	}
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	status = read_users_checked(st, &text, &len);
	if (status != STORE_OK)
		goto out;
	if (text == NULL) {
		set_err(st, "no user '%s'", id);
		status = STORE_NOT_FOUND;
		goto out;
	}
	status = scan_users(st, text, len, id, false, &cur, &at, &at_len);
	if (status != STORE_OK)
		goto out;
	if (expect_hash != NULL && strcmp(cur.hash, expect_hash) != 0) {
		/* locked, reset or changed since the old password was checked */
		set_err(st, "the account '%s' changed while its password was checked", id);
		status = STORE_CHANGED;
		goto out;
	}
	/* the line parsed, so it has three ':' */
	c1 = memchr(text + at, ':', at_len);
	c2 = memchr(c1 + 1, ':', at_len - (size_t)(c1 + 1 - (text + at)));
	c3 = memchr(c2 + 1, ':', at_len - (size_t)(c2 + 1 - (text + at)));
	hl = strlen(hash);
	outlen = (size_t)(c2 + 1 - text) + hl + (len - (size_t)(c3 - text));
	out = malloc(outlen + 1);
	if (out == NULL) {
		status = nomem(st);
		goto out;
	}
	memcpy(out, text, (size_t)(c2 + 1 - text));
	memcpy(out + (c2 + 1 - text), hash, hl);
	memcpy(out + (c2 + 1 - text) + hl, c3, len - (size_t)(c3 - text));
	if (outlen > (size_t)STORE_USERS_FILE_MAX) {
		set_err(st, "the users file would pass %ld bytes", STORE_USERS_FILE_MAX);
		status = STORE_TOO_BIG;
		goto out;
	}
	status = store_write_file(st, USERS_FILE, out, outlen);
out:
	free(out);
	free(text);
	store_unlock(&lock);
	return status;
}

enum store_status store_user_rehash(struct store *st, const char *userid, const char *old_hash,
    const char *password)
{
	enum store_status status = store_user_set_password(st, userid, password, old_hash);

	return status == STORE_CHANGED ? STORE_OK : status;	/* changed meanwhile: that hash stands */
}

/*
 * Under the store lock (held by the caller): read the users file, every
 * line checked, and find id's line: *cur, its start *at and length *at_len
 * (without its newline).  The caller frees *text.
 */
static enum store_status users_line(struct store *st, const char *id, char **text, size_t *len,
    struct store_user *cur, size_t *at, size_t *at_len)
{
	enum store_status status = read_users_checked(st, text, len);

	if (status != STORE_OK)
		return status;
	if (*text == NULL) {
		set_err(st, "no user '%s'", id);
		return STORE_NOT_FOUND;
	}
	return scan_users(st, *text, *len, id, false, cur, at, at_len);
}

/* Write the users text made of text[0..cut) + mid + text[resume..len). */
static enum store_status users_splice(struct store *st, const char *text, size_t len, size_t cut,
    const char *mid, size_t resume)
{
	enum store_status status;
	size_t ml = strlen(mid), outlen = cut + ml + (len - resume);
	char *out;

	if (outlen > (size_t)STORE_USERS_FILE_MAX) {
		set_err(st, "the users file would pass %ld bytes", STORE_USERS_FILE_MAX);
		return STORE_TOO_BIG;
	}
	out = malloc(outlen + 1);
	if (out == NULL)
		return nomem(st);
	memcpy(out, text, cut);
	memcpy(out + cut, mid, ml);
	memcpy(out + cut + ml, text + resume, len - resume);
	status = store_write_file(st, USERS_FILE, out, outlen);
	free(out);
	return status;
}

enum store_status store_user_set_address(struct store *st, const char *userid, const char *address,
    const char *expect_address)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	struct store_user cur;
	char *text = NULL;
	const char *c1, *c2, *why;
	size_t len, at, at_len;

	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	if (!mailaddr_deliverable(address, &why)) {
		set_err(st, "address %s", why);
		return STORE_BAD_ADDRESS;
	}
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	status = users_line(st, id, &text, &len, &cur, &at, &at_len);
	if (status != STORE_OK)
		goto out;
	if (expect_address != NULL && strcasecmp(cur.address, expect_address) != 0) {
		set_err(st, "the address of '%s' changed meanwhile", id);
		status = STORE_CHANGED;
		goto out;
	}
	/* the line parsed: it has the ':' around the address */
	c1 = memchr(text + at, ':', at_len);
	c2 = memchr(c1 + 1, ':', at_len - (size_t)(c1 + 1 - (text + at)));
	status = users_splice(st, text, len, (size_t)(c1 + 1 - text), address, (size_t)(c2 - text));
out:
	free(text);
	store_unlock(&lock);
	return status;
}

/*
 * The reserved file with id's line (until, since, hash) in place of any
 * earlier one, lines whose time is up dropped.
 */
static enum store_status reserve_id(struct store *st, const char *id, int64_t since, int64_t until, const char *hash)
{
	struct store_reserved *list = NULL;
	enum store_status status;
	size_t n = 0, i, used = 0, cap;
	char *out = NULL;
	int k;

	status = read_reserved(st, &list, NULL, &n);
	if (status != STORE_OK)
		return status;
	cap = sizeof reserved_header + (n + 1) * (IDENT_USERID_MAX + STORE_HASH_MAX + 50);
	out = malloc(cap);
	if (out == NULL) {
		free(list);
		return nomem(st);
	}
	memcpy(out, reserved_header, sizeof reserved_header - 1);
	used = sizeof reserved_header - 1;
	for (i = 0; i < n; i++) {
		if (strcmp(list[i].userid, id) == 0 || list[i].until <= since)
			continue;
		k = snprintf(out + used, cap - used, "%s %lld %lld%s%s\n", list[i].userid, (long long)list[i].until,
		    (long long)list[i].since, list[i].hash[0] != '\0' ? " " : "", list[i].hash);
		used += (size_t)k;
	}
	k = snprintf(out + used, cap - used, "%s %lld %lld%s%s\n", id, (long long)until, (long long)since,
	    hash_ok(hash) ? " " : "", hash_ok(hash) ? hash : "");
	used += (size_t)k;
	status = store_write_capped(st, RESERVED_FILE, out, used, STORE_USERS_FILE_MAX);
	free(out);
	free(list);
	return status;
}

enum store_status store_user_remove(struct store *st, const char *userid, const char *expect_hash,
    int64_t since, int64_t until)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char id[IDENT_USERID_MAX + 1];
	enum store_status status;
	struct store_user cur;
	char *text = NULL;
	size_t len, at, at_len, resume;

	status = fold_userid(st, userid, id);
	if (status != STORE_OK)
		return status;
	if (since < 0 || until < since) {
		set_err(st, "reserved until %lld, before the account went at %lld", (long long)until,
		    (long long)since);
		return STORE_IO;
	}
	status = store_lock_store(st, &lock);
	if (status != STORE_OK)
		return status;
	status = users_line(st, id, &text, &len, &cur, &at, &at_len);
	if (status != STORE_OK)
		goto out;
	if (expect_hash != NULL && strcmp(cur.hash, expect_hash) != 0) {
		set_err(st, "the account '%s' changed while its password was checked", id);
		status = STORE_CHANGED;
		goto out;
	}
	/* reserved first: a crash between the two writes leaves the id taken, never free */
	status = reserve_id(st, id, since, until, cur.hash);
	if (status != STORE_OK)
		goto out;
	resume = at + at_len;
	while (resume < len && text[resume] != '\n')
		resume++;	/* a CR */
	if (resume < len)
		resume++;
	status = users_splice(st, text, len, at, "", resume);
out:
	free(text);
	store_unlock(&lock);
	return status;
}

enum store_status store_user_all(struct store *st, struct store_user **users, unsigned **lines, size_t *count,
    size_t *size)
{
	struct line_iter it = { NULL, 0, 0, 0 };
	struct store_user *u = NULL, *nu;
	enum store_status status;
	unsigned *ln = NULL, *nl;
	const char *line, *why;
	size_t n = 0, alloc = 0, ll, start;
	char *text = NULL;

	*users = NULL;
	*lines = NULL;
	*count = 0;
	*size = 0;
	status = store_read_file(st, USERS_FILE, STORE_USERS_FILE_MAX, &text, size);
	if (status != STORE_OK)
		return status;
	it.text = text;
	it.len = *size;
	while (next_line(&it, &line, &ll, &start)) {
		if (n == alloc) {
			alloc = alloc != 0 ? alloc * 2 : 64;
			nu = realloc(u, alloc * sizeof *u);
			nl = nu != NULL ? realloc(ln, alloc * sizeof *ln) : NULL;
			if (nu != NULL)
				u = nu;
			if (nl == NULL) {
				status = nomem(st);
				goto out;
			}
			ln = nl;
		}
		if (!parse_user(line, ll, &u[n], &why)) {
			set_err(st, "%s/%s line %u %s", st->home, USERS_FILE, it.lineno, why);
			status = STORE_CORRUPT;
			goto out;
		}
		ln[n++] = it.lineno;
	}
	*users = u;
	*lines = ln;
	*count = n;
	u = NULL;
	ln = NULL;
out:
	free(u);
	free(ln);
	free(text);
	return status;
}

/* --- log --- */

/* True if line starts with a time as the log writes it: 2026-01-31T12:00:00Z. */
static bool log_stamped(const char *line)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	for (i = 0; shape[i] != '\0'; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)line[i]) : line[i] != shape[i])
			return false;
	return true;
}

enum store_status store_log(struct store *st, const char *fmt, ...)
{
	char line[STORE_LOG_LINE_MAX + 1], *shown;
	enum store_status status = STORE_OK;
	size_t slen;
	struct rlimit rl;
	struct stat sb;
	struct tm tm;
	time_t now;
	va_list ap;
	size_t n, i, at = 0;
	ssize_t w;
	off_t end;
	int r, fd;

	/* every line has its time: one the caller's text does not start with is put first */
	va_start(ap, fmt);
	r = vsnprintf(line, STORE_LOG_LINE_MAX, fmt, ap);
	va_end(ap);
	if (r >= 0 && !log_stamped(line)) {
		now = store_now(st);
		if (gmtime_r(&now, &tm) != NULL)
			at = strftime(line, 32, "%Y-%m-%dT%H:%M:%SZ ", &tm);
		va_start(ap, fmt);
		r = vsnprintf(line + at, STORE_LOG_LINE_MAX - at, fmt, ap);
		va_end(ap);
		if (r >= 0)
			r += (int)at;
	}
	if (r < 0)
		r = 0;
	n = (size_t)r < STORE_LOG_LINE_MAX - 1 ? (size_t)r : STORE_LOG_LINE_MAX - 1;
	/* invisible and bidirectional characters written as <U+202E>: a log line reads as it is (utf8.h) */
	shown = utf8_visible(line, n, &slen);
	if (shown != NULL) {
		n = slen < STORE_LOG_LINE_MAX - 1 ? slen : STORE_LOG_LINE_MAX - 1;
		while (n > 0 && n < slen && ((unsigned char)shown[n] & 0xc0) == 0x80)
			n--;	/* cut at a character */
		memcpy(line, shown, n);
		free(shown);
	}
	for (i = 0; i < n; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	line[n++] = '\n';
	fd = openat(st->home_fd, "log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return sys_fail(st, errno, "cannot open", "log");
	/* a line that would pass the file size limit (ulimit -f) is not begun: whole or absent */
	if (fstat(fd, &sb) == 0 && getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (unsigned long long)sb.st_size + n > (unsigned long long)rl.rlim_cur) {
		close(fd);
		return sys_fail(st, EFBIG, "cannot write", "log");
	}
	/* one write: concurrent processes' lines never interleave */
	crash_point();
	w = write(fd, line, n);
	if (w < 0) {
		status = sys_fail(st, errno, "cannot write", "log");
	} else if ((size_t)w != n) {
		/* a part of the line (a full disk): cut it off again unless another line followed */
		end = lseek(fd, 0, SEEK_CUR);
		if (end >= w && fstat(fd, &sb) == 0 && sb.st_size == end)
			(void)ftruncate(fd, end - w);
		status = sys_fail(st, ENOSPC, "short write to", "log");
	}
	close(fd);
	return status;
}

void store_set_log_prefix(struct store *st, const char *prefix)
{
	snprintf(st->log_prefix, sizeof st->log_prefix, "%s", prefix);
}

void store_complain(struct store *st, const char *fmt, ...)
{
	char msg[STORE_LOG_LINE_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "oustpbm: %s\n", msg);
	if (st != NULL)
		store_log(st, "%s failed: %s", st->log_prefix, msg);
}

uid_t store_home_owner(const struct store *st)
{
	return st->home_uid;
}

