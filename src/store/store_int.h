/*
 * store_int.h: what the parts of the store module share and no caller
 * sees: the store's state, the error and path helpers, the durable-write
 * primitives.  The parts: store.c (the home, errors, durable steps),
 * store_file.c (locks, files, directories), store_board.c (board files,
 * board numbers), store_user.c (the users file), store_password.c
 * (password hashing), store_register.c (reserved user ids, registration
 * caps), store_log.c (the log).  Include it from src/store/ only.
 */
#ifndef OUSTPBM_STORE_INT_H
#define OUSTPBM_STORE_INT_H

#include "base/errbuf.h"
#include "base/mailaddr.h"
#include "store/store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define PATH_BUF 1024		/* relative paths are short: mail/<254>/new/<name> */
#define USERS_FILE "users"

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
	int sys_errno;		/* the errno of the failure err tells, 0 for one of no system call */
	char log_prefix[STORE_LOG_PREFIX_MAX];	/* store_complain()'s log lines */
};

/* The store's message (store_error()), formatted. */
#define set_err(st, ...) ((st)->sys_errno = 0, errbuf_set((st)->err, sizeof (st)->err, __VA_ARGS__))

/* The status of a failed system call by its errno value (NO_SPACE, DISK_ERROR, TEMPFAIL, IO). */
enum store_status store_status_of_errno(int e);
/* Record "<what> <home>/<relpath>: <strerror(e)>" and classify e. */
enum store_status store_sys_fail(struct store *st, int e, const char *what, const char *relpath);
/* "out of memory", STORE_TEMPFAIL. */
enum store_status store_nomem(struct store *st);
/* "<home>/<relpath> is a FIFO, not a regular file", and STORE_NOT_REGULAR. */
enum store_status store_not_regular(struct store *st, mode_t m, const char *relpath);
/* Open a regular file under the home, never through a link, never blocking; -1 and *status otherwise. */
int store_open_regular(struct store *st, const char *relpath, int flags, const char *what,
    enum store_status *status);
/* snprintf into a path buffer; false (and an error) if it does not fit */
bool store_mkpath(struct store *st, char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The test hook before every durable step (OUSTPBM_TEST_CRASH, store.c). */
void store_crash_point(void);
/* fsync fd, or note the sync owed while deferring; -1 with errno on failure. */
int store_sync_or_owe(struct store *st, int fd, bool dir);
/* The directory part of relpath into dir ("." if none). */
void store_dir_of(const char *relpath, char *dir, size_t size);

/* Check and fold a user id into out; STORE_BAD_ID (no path, no lookup) otherwise. */
enum store_status store_fold_userid(struct store *st, const char *userid, char out[IDENT_USERID_MAX + 1]);
/* A hash as store_password_hash() makes it: fits a users line. */
bool store_hash_ok(const char *hash);

/* The domain of address, lower case, into out. */
void store_address_domain(const char *address, char out[MAILADDR_MAX + 1]);
/*
 * Under the store lock: refuse a registration over caps (STORE_LIMIT).
 * *text is the registrations file (NULL if none), kept for store_registration_note().
 */
enum store_status store_registration_check(struct store *st, const struct store_register_caps *caps,
    const char *domain, char **text, size_t *len);
/* Under the store lock, after the account was written: note its time (a failure is not reported). */
void store_registration_note(struct store *st, const struct store_register_caps *caps, const char *domain,
    const char *text, size_t len);
/* Under the store lock: STORE_RESERVED if id (folded) is reserved at now. */
enum store_status store_reserved_check(struct store *st, const char *id, int64_t now);
/* The reserved file with id's line (until, since, hash) in place of any earlier one. */
enum store_status store_reserve_id(struct store *st, const char *id, int64_t since, int64_t until,
    const char *hash);

#endif
