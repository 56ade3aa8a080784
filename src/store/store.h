/*
 * store: the files of one oustpbm home directory, their locks and durable
 * writes, the users file, the board counter and the log.  One header for
 * the module; its parts are store.c (the home, errors, durable steps),
 * store_file.c (locks, files), store_board.c (board files and numbers),
 * store_user.c (the users file), store_password.c (hashes),
 * store_register.c (reserved ids, registration caps) and store_log.c,
 * sharing store_int.h.
 *
 * Layout under <home> (created by store_open as needed; directories 0700,
 * files 0600: the home belongs to the user the server runs as):
 *   oustpbm.conf                 settings (config.h), never written here
 *   users                        accounts, see "Users file" below
 *   store.lock                   store-wide lock: board counter, users file
 *   accounts.lock                an account change and its confirmation
 *   log                          one line per handled mail (store_log)
 *   registrations                times of the accounts made by mail (caps)
 *   pending                      registrations waiting for their confirm (pending.h)
 *   reserved                     user ids of signed-off accounts, see below
 *   codes                        one-time codes of accounts (accounts.h)
 *   watchers, watchers.lock      observers of every board (audience.h)
 *   bounces, bounces.lock        addresses mail bounced from (bounces.h)
 *   games/<board>.game           one game, e.g. games/101.game
 *   games/<board>.lock           its lock file (never removed; see Locks)
 *   games/next-board             next board number to hand out, first 101
 *   outbox/, mail/               outbox.h and transport.h
 *
 * Paths are only made from numbers checked against IDENT_BOARD_MIN..MAX and
 * from user ids passing ident_userid_ok(); other text never becomes a path.
 *
 * Durable writes (as git and OpenSMTPD do): the new content goes to a temp
 * file in the same directory, named ".<name>.<pid>.<n>.tmp" so it is never
 * taken for data, which is fsync'ed, renamed over the old file, and then the
 * directory is fsync'ed.  A reader sees the old file or the new one, whole.
 *
 * Locks: fcntl open-file-description locks (F_OFD_SETLK) on a lock file kept
 * beside the data.  The kernel drops them when the process ends, so a crash
 * leaves no stale lock.  Waits are bounded: the lock is polled with short
 * sleeps for at most lock_timeout_ms, then STORE_TIMEOUT is returned and
 * nothing has been changed.  The functions that take the store-wide lock
 * themselves (store_next_board_id, store_user_add, store_user_set_password)
 * must not be called while the same process holds it.
 *
 * Test hook: OUSTPBM_TEST_CRASH=n kills the process (SIGKILL) just before
 * its n-th durable step: file fsync, rename, directory fsync, unlink, log
 * write (tests/sh/crash.sh).  Every durable write of oustpbm goes through
 * this module, so the hook is in this one place.
 *
 * Data files are opened with O_NOFOLLOW and O_NONBLOCK and used only if they
 * are regular files (STORE_NOT_REGULAR otherwise, the message naming what
 * is there): a FIFO never hangs a mail, a symbolic link is never followed.
 * A home that cannot be written (a read-only filesystem, EROFS; a permission
 * the admin got wrong, EACCES, EPERM) is a temporary failure: the mail waits
 * in the MTA's queue until the admin fixes it, never bounced.
 *
 * Errors: every function returns an enum store_status; on failure
 * store_error() says what failed, naming the file.  store_status_temporary()
 * tells a failure worth retrying later (lock timeout, disk full, I/O error)
 * from a permanent one, so main can exit 75 (EX_TEMPFAIL).  A full disk
 * (STORE_NO_SPACE) and an I/O error (STORE_DISK_ERROR) have values of their
 * own, so that the layers above tell the admin which by the value.
 */
#ifndef OUSTPBM_STORE_H
#define OUSTPBM_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "base/config.h"
#include "base/ident.h"
#include "base/mailaddr.h"

#define STORE_ERR_MAX 600
#define STORE_BOARD_FILE_MAX (4L * 1024 * 1024)	/* bytes in a game file */
#define STORE_USERS_FILE_MAX (16L * 1024 * 1024)	/* bytes in the users file */
#define STORE_REGISTRATIONS_FILE_MAX (4L * 1024 * 1024)	/* bytes read of the registrations file */
#define STORE_PASSWORD_MAX IDENT_PASSWORD_MAX	/* characters in a password (ident.h) */
#define STORE_FULLNAME_MAX IDENT_FULLNAME_BYTES	/* bytes in a full name (64 characters) */
#define STORE_HASH_MAX 127	/* characters in a stored password hash */
#define STORE_LOG_LINE_MAX 8192	/* bytes in one log line: a server's whole reply fits (outbox.h) */

enum store_status {
	STORE_OK,
	STORE_NOT_FOUND,	/* no such board, user or file */
	STORE_USER_EXISTS,	/* store_user_add: the user id is taken */
	STORE_BAD_ID,		/* board or user id invalid: no path was made */
	STORE_BAD_ADDRESS,	/* address fails mailaddr_ok() */
	STORE_BAD_PASSWORD,	/* not 1..64 printable ASCII characters without spaces */
	STORE_BAD_NAME,		/* full name: too long, control or bidi formatting characters */
	STORE_TOO_BIG,		/* a file is larger than its cap */
	STORE_CORRUPT,		/* users file or board counter cannot be parsed */
	STORE_FULL,		/* no board number left */
	STORE_CHANGED,		/* the account changed since its password was checked */
	STORE_LIMIT,		/* over a configured cap (registrations per hour) */
	STORE_TIMEOUT,		/* lock not obtained within lock_timeout_ms (temporary) */
	STORE_TEMPFAIL,		/* ENOMEM, EACCES, EROFS...: try again later */
	STORE_IO,		/* any other system error (ENOTDIR, EISDIR...) */
	STORE_NO_SPACE,		/* ENOSPC, EDQUOT, EFBIG: a full disk or quota, a file past ulimit -f (temporary) */
	STORE_DISK_ERROR,	/* EIO: the disk failed a read or write (temporary) */
	STORE_NO_HOME,		/* store_open: the home does not exist or is not one */
	STORE_NOT_OWNER,	/* store_open: the home belongs to another user */
	STORE_NOT_REGULAR,	/* a FIFO, directory, symbolic link... where a data file should be */
	STORE_RESERVED,		/* store_user_add: the user id is reserved (a signed-off account) */
};

const char *store_status_str(enum store_status status);

/* True for the failures after which the same mail may succeed later. */
bool store_status_temporary(enum store_status status);

struct store;

/* A held lock; STORE_LOCK_INIT when not held. */
struct store_lock {
	int fd;
};
#define STORE_LOCK_INIT { -1 }

/* One account as read from the users file. */
struct store_user {
	char userid[IDENT_USERID_MAX + 1];	/* lower case */
	char address[MAILADDR_MAX + 1];
	char hash[STORE_HASH_MAX + 1];		/* crypt(3) string, "$y$..." */
	char fullname[STORE_FULLNAME_MAX + 1];	/* may be empty */
	int64_t since;				/* member since (made), 0: a line from before it was kept */
};

/*
 * Open the home directory.  It is never created here (oustpbm init does
 * that, store_create_home): STORE_NO_HOME if home does not exist or holds
 * neither oustpbm.conf nor games/.  STORE_NOT_OWNER if its owner is not the
 * effective user (files written would belong to the wrong user and the
 * server would then fail on them; root becomes the owner first: owner.h).
 * games/ is created if missing.  cfg supplies lock_timeout_ms and
 * password_cost; it is copied.  On success the caller owns *out
 * (store_close); on failure *out is NULL and err (errlen bytes) says why.
 */
enum store_status store_open(const char *home, const struct config *cfg, struct store **out,
    char *err, size_t errlen);
void store_close(struct store *st);

/* oustpbm init: make home (one level, 0700; an existing one is fine) and its games/, durably. */
enum store_status store_create_home(const char *home, char *err, size_t errlen);

/* The user who owns the home (fsck reports files of other owners). */
uid_t store_home_owner(const struct store *st);

/* The message of the last failure of a call on st. */
const char *store_error(const struct store *st);

/* The errno of that failure when a system call failed, else 0 (alert.h classifies it). */
int store_errno(const struct store *st);

/* Set what store_error() says, for the modules that keep their own files in the home (accounts.h). */
void store_set_error(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The home directory as given to store_open. */
const char *store_home(const struct store *st);

/* --- locks --- */

/* Lock board (held across read-modify-write), waiting at most lock_timeout_ms. */
enum store_status store_lock_board(struct store *st, long board, struct store_lock *lock);

/* The same without waiting: STORE_TIMEOUT at once if another holds it. */
enum store_status store_trylock_board(struct store *st, long board, struct store_lock *lock);

/* The store-wide lock (store.lock). */
enum store_status store_lock_store(struct store *st, struct store_lock *lock);

/*
 * Lock the file relpath (relative to the home, made by the caller from
 * constants), waiting at most timeout_ms.  For modules with their own lock
 * files (outbox).
 */
enum store_status store_lock_path(struct store *st, const char *relpath, unsigned long timeout_ms,
    struct store_lock *lock);

/* Release a lock; harmless on a lock not held. */
void store_unlock(struct store_lock *lock);

/* --- files under the home; relpath is made by the caller from checked parts --- */

/*
 * A line file's record: line[0..len) (without its line end and CR, neither
 * blank nor a '#' comment) parsed into *rec; false, with *why saying what
 * is wrong ("has no time 'since'"), when it is not one.
 */
typedef bool store_record_fn(const char *line, size_t len, void *rec, const char **why);

/* A line file of records: its name in the home, its cap in bytes, a record's size and its parser. */
struct store_records {
	const char *relpath;
	size_t cap;
	size_t size;
	store_record_fn *parse;
};

/*
 * The records of the line file f->relpath (at most f->cap bytes: the
 * reserved ids, the one-time codes): each line that is neither blank nor a
 * '#' comment parsed by f->parse into an element of f->size bytes, in file
 * order, into *list, with their line numbers into *lines when lines is not
 * NULL; *count of them.  The caller frees *list and *lines (NULL when
 * none).  STORE_NOT_FOUND if the file does not exist; a line parse refuses
 * is STORE_CORRUPT, store_error() naming it: "HOME/relpath line 4 why".
 */
enum store_status store_read_records(struct store *st, const struct store_records *f, void **list, unsigned **lines,
    size_t *count);

/*
 * A walk over the text of a small line file (seeks, the tokens' state):
 * set text, len and file (its name, for messages), pos and lineno 0.
 */
struct store_lines {
	const char *text;
	size_t len, pos;
	int lineno;		/* of the line last returned */
	const char *file;
};

/*
 * The next line that is neither empty nor a '#' comment, NUL-terminated
 * into line (size bytes): 1; 0 at the end; -1 with err (errlen bytes)
 * saying "FILE:N: the last line has no line end" or "... is too long".
 */
int store_lines_next(struct store_lines *it, char *line, size_t size, char *err, size_t errlen);

struct strbuf;
/* Append record i's line (with its newline) to out, or nothing to leave it out. */
typedef void store_line_fn(const void *ctx, size_t i, struct strbuf *out);

/*
 * Rewrite the line file relpath (store_write_capped(), at most cap bytes):
 * header (its '#' lines), then the lines line() makes of records 0 to n-1.
 */
enum store_status store_write_records(struct store *st, const char *relpath, long cap, const char *header,
    size_t n, store_line_fn *line, const void *ctx);

/*
 * Read relpath whole, NUL-terminated.  STORE_NOT_FOUND if it does not exist,
 * STORE_TOO_BIG if it has more than cap bytes.  The caller owns *data.
 */
enum store_status store_read_file(struct store *st, const char *relpath, size_t cap, char **data,
    size_t *len);

/* Replace relpath by data, durably and atomically (see above). */
enum store_status store_write_file(struct store *st, const char *relpath, const void *data, size_t len);

/*
 * store_write_file() of a file read with cap: refused (STORE_TOO_BIG,
 * nothing written, the error naming the file and its cap) when len passes
 * cap, so that the file never grows past what its readers read (a file
 * over its read cap fails every command that reads it).  The caller's
 * reply says the server is full for now; fsck warns at STORE_CAP_WARN_PCT.
 */
enum store_status store_write_capped(struct store *st, const char *relpath, const void *data, size_t len,
    long cap);
#define STORE_CAP_WARN_PCT 80	/* fsck warns of a file this full (percent of its cap) */

/*
 * store_write_file() in two steps, so that the slow half (temp file written
 * and fsync'ed) can run while something else is decided, and the commit
 * point (rename, directory fsync) comes only after:
 *   store_stage_file()   temp file beside relpath, written and fsync'ed
 *                        (or its fsync owed: store_defer_begin below);
 *   store_install()      renamed over relpath, directory fsync'ed;
 *   store_discard()      temp file removed (after a failed install too).
 * Every staged file is installed or discarded by its caller.
 */
#define STORE_RELPATH_MAX 1024
struct store_staged {
	char tmp[STORE_RELPATH_MAX];
	char dst[STORE_RELPATH_MAX];
	char dir[STORE_RELPATH_MAX];
	bool live;		/* the temp file exists */
};

enum store_status store_stage_file(struct store *st, const char *relpath, const void *data, size_t len,
    struct store_staged *out);
/* Afterwards sf->live is false if the rename happened (even if the directory fsync failed). */
enum store_status store_install(struct store *st, struct store_staged *sf);
void store_discard(struct store *st, struct store_staged *sf);

/*
 * Create relpath with data and fsync it, without renaming (for Maildir-style
 * tmp/ then new/).  An existing file of that name is replaced in place.
 */
enum store_status store_create_file(struct store *st, const char *relpath, const void *data, size_t len);

/*
 * store_create_file() without the fsync, for a file whose data the caller
 * has made durable in a record of its own first (outbox.h's batch record:
 * one fsync for every mail of a commit).
 */
enum store_status store_create_file_unsynced(struct store *st, const char *relpath, const void *data, size_t len);

/* fsync the existing file relpath (a test kill point: store.h); STORE_NOT_FOUND if absent. */
enum store_status store_sync_file(struct store *st, const char *relpath);

/*
 * Append data to relpath (created if missing, not its directory entry made
 * durable) and fsync it.  A crash may leave a part of data at the end: the
 * reader must recognise an unfinished last line.
 */
enum store_status store_append_file(struct store *st, const char *relpath, const void *data, size_t len);

/* rename(2) within the home; neither directory is fsync'ed. */
enum store_status store_rename(struct store *st, const char *from, const char *to);

/* unlink(2) within the home; STORE_NOT_FOUND if absent. */
enum store_status store_unlink(struct store *st, const char *relpath);

/* fsync the directory reldir ("." for the home). */
enum store_status store_sync_dir(struct store *st, const char *reldir);

/*
 * Grouped durability, with sync = filesystem (config.h; the default, sync =
 * file, makes every fsync of a file and of its directory as it comes, and
 * these calls change nothing).  Each fsync is a synchronous write and a
 * flush of the device's cache; a move that made them one by one paid ten.  Between
 * store_defer_begin() and store_defer_end() the file and directory fsyncs
 * of the functions above are not made one by one: the store notes that a
 * sync is owed and pays it with one syncfs(2) of the home's filesystem (its
 * dirty data and metadata written, then one cache flush):
 *   - before the next rename (store_install, store_rename) when a file's
 *     fsync is owed, so a name never reaches data that is not durable yet
 *     (the rule behind "fsync, then rename" in the Maildir and lockfile
 *     protocols); an owed directory fsync does not hold a rename up;
 *   - at store_sync(), for a caller that needs its writes durable now, or
 *     one rename durable before the next (there is no order between two
 *     renames otherwise);
 *   - at store_defer_end(), which the caller reaches on every path.
 * A file on another filesystem than the home (a mounted mail/) is fsync'ed
 * at once, as without deferring.  syncfs() also writes what other programs
 * left dirty on that filesystem: a home on a busy shared disk pays for it.
 * Without syncfs() (not Linux) deferring changes nothing.
 */
void store_defer_begin(struct store *st);
/*
 * store_defer_begin() whatever `sync` says, for a batch of many files (a
 * tournament's start: hundreds of boards and mails; a flush of many
 * mails): one syncfs(2) of the home costs less than the hundreds of
 * fsyncs it replaces, even on a shared disk whose other dirty data it
 * writes too.  Ended by store_defer_end() as the other.
 */
void store_defer_begin_batch(struct store *st);
enum store_status store_sync(struct store *st);
enum store_status store_defer_end(struct store *st);

/* mkdir reldir (one level, 0700) unless it exists; a new one is made durable. */
enum store_status store_mkdir(struct store *st, const char *reldir);

/*
 * List the plain files of reldir whose names do not start with '.', sorted
 * by strcmp.  The caller owns *names and each string (store_free_names).
 */
enum store_status store_list_dir(struct store *st, const char *reldir, char ***names, size_t *count);
void store_free_names(char **names, size_t count);

/* The regular files right under reldir: *count of them, *bytes in all (0 and 0 with no folder). */
enum store_status store_folder_usage(struct store *st, const char *reldir, long long *count, long long *bytes);

/*
 * Remove the temp files (".<name>.<pid>.<n>.tmp", see Durable writes) of
 * reldir last modified before the time before: what a crashed write left.
 * No write keeps its temp file for long, so one older than a day is junk.
 * *removed counts them; a file that cannot be removed is skipped.
 */
enum store_status store_remove_stale_tmp(struct store *st, const char *reldir, time_t before, unsigned *removed);

/* --- boards --- */

/* STORE_OK if games/<board>.game exists, STORE_NOT_FOUND if not. */
enum store_status store_board_exists(struct store *st, long board);

/*
 * Read games/<board>.game (at most STORE_BOARD_FILE_MAX bytes), NUL-terminated.
 * The caller owns *text.
 */
enum store_status store_board_read(struct store *st, long board, char **text, size_t *len);

/*
 * Remove games/<board>.game (a declined or withdrawn challenge), the
 * directory fsync'ed; the caller holds the board lock, and the lock file
 * stays.  STORE_NOT_FOUND if there is none.
 */
enum store_status store_board_remove(struct store *st, long board);

/* Replace games/<board>.game durably; the caller holds the board lock. */
enum store_status store_board_write(struct store *st, long board, const char *text, size_t len);

/*
 * FNV-1a 64 of a text: how the outbox tags a batch and the redelivery record
 * a pending move with the game text about to be written, so that whoever
 * comes next can tell whether that text was committed.
 */
uint64_t store_text_hash(const char *text, size_t len);

/*
 * Does games/<board>.game hold the text of length len and store_text_hash
 * hash?  *same is false when there is no game file, unless len is 0: a
 * board removed (store_board_remove) holds the empty text, so a removal is
 * committed by the outbox's and the redelivery record's protocol as a
 * write is (a game file is never empty).
 */
enum store_status store_board_holds(struct store *st, long board, size_t len, uint64_t hash, bool *same);

/* store_board_write() in two steps (store_stage_file above): stage, then install or discard. */
enum store_status store_board_stage(struct store *st, long board, const char *text, size_t len,
    struct store_staged *out);

/*
 * Remove the staged game files (".<n>.game.<pid>.<k>.tmp", store_board_stage)
 * of boards[0..n) that a process killed before their install left; the
 * caller holds each board's lock, so none is another's write under way.
 * One pass over games/; *removed counts them.
 */
enum store_status store_board_unstage(struct store *st, const long *boards, size_t n, unsigned *removed);

/*
 * Hand out a new board number under the store lock: the counter in
 * games/next-board (101 when absent), skipping numbers whose game file
 * exists; the counter is advanced past it durably before returning.
 */
enum store_status store_next_board_id(struct store *st, long *board);

/* n new board numbers at once into boards[] (ascending), the counter written once past the last. */
enum store_status store_next_board_ids(struct store *st, long *boards, size_t n);

/*
 * Give back a board number from store_next_board_id() whose game was never
 * written (a failed challenge): the counter moves back to it only if it is
 * still the last number handed out and no such game file exists.
 */
void store_release_board_id(struct store *st, long board);

/*
 * Advance the counter of games/next-board past board (a board written with
 * its own number: import), under the store lock, durably; nothing when it
 * is past it already.  STORE_CORRUPT for a counter that is not a number.
 */
enum store_status store_claim_board_id(struct store *st, long board);

/* The boards in games/, ascending.  The caller owns *boards (free). */
enum store_status store_list_boards(struct store *st, long **boards, size_t *count);

/* --- users ---
 *
 * Users file, <home>/users: plain text, one account per line,
 *     userid:address:hash:full name[<TAB>since=TIME]
 * userid       ident_userid_ok(), stored lower case; ids compare folded
 * address      the address the account is bound to (mailaddr_ok: no ':')
 * hash         crypt(3) output, yescrypt "$y$..." (contains no ':'); an
 *              admin may put "*" or "!" here to lock an account
 * full name    the rest of the line, may be empty and may contain ':'
 * since        when the account was made (UTC, "2026-11-29T15:00:00Z", as
 *              the game files write times), after a TAB, which no full name
 *              holds; written by every new account.  A line without it (an
 *              account older than the key) loads with since 0: a member from
 *              the start, whose vacation bank is full (vacations.h)
 * Lines starting with '#' and blank lines are ignored; the file starts with
 * a comment saying this.  Several accounts may share one address.  A line is
 * only ever appended or has its hash replaced; other lines stay byte for byte.
 * Lookups read only the line of the user asked for; writes check every line
 * and refuse (STORE_CORRUPT, naming the line) to rewrite a damaged file.
 */

/*
 * Add an account.  The password is hashed before the store lock is taken.
 * STORE_BAD_ID, STORE_BAD_ADDRESS (not mailaddr_deliverable), STORE_BAD_PASSWORD,
 * STORE_BAD_NAME (not ident_fullname_ok) for bad arguments (checked in that
 * order), STORE_USER_EXISTS if the id is taken, STORE_RESERVED if it is
 * reserved (store_user_remove), STORE_TOO_BIG if the users
 * file would pass STORE_USERS_FILE_MAX (it could no longer be read: every
 * mail would fail).  fullname may be NULL or "".
 */
enum store_status store_user_add(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname);

/*
 * Caps on the accounts made by mail (register): at most per_hour in the
 * last hour, and per_domain of them with an address in the domain of the
 * new one (compared without case); 0 is no cap.  The times are kept in
 * <home>/registrations, one "<time> <domain>" line per account, old lines
 * dropped as it grows.
 */
struct store_register_caps {
	unsigned long per_hour;
	unsigned long per_domain;
	int64_t now;
};

/*
 * store_user_add() under caps, counted and recorded under the store lock:
 * STORE_LIMIT when one is reached (store_error() says which).
 */
enum store_status store_user_register(struct store *st, const char *userid, const char *address,
    const char *password, const char *fullname, const struct store_register_caps *caps);

/*
 * The same in two steps, for a caller that tags its reply with the new
 * hash before the users file is written (outbox.h's account batches):
 * store_password_hash() makes a new yescrypt hash of password (no lock;
 * the slow part), store_user_register_hashed() and store_user_set_hash()
 * write it as store_user_register() and store_user_set_password() do (hash
 * must be one store_password_hash() made).
 */
enum store_status store_password_hash(struct store *st, const char *password, char out[STORE_HASH_MAX + 1]);
enum store_status store_user_register_hashed(struct store *st, const char *userid, const char *address,
    const char *hash, const char *fullname, const struct store_register_caps *caps);
enum store_status store_user_set_hash(struct store *st, const char *userid, const char *hash,
    const char *expect_hash);

/*
 * accounts.lock: held by whoever changes an account together with its
 * confirmation (from staging the reply to committing it), and by whoever
 * settles such a reply a crash left (outbox.h).  wait false: one try,
 * STORE_TIMEOUT at once if held; else at most lock_timeout_ms.
 */
enum store_status store_lock_accounts(struct store *st, bool wait, struct store_lock *lock);

/* Find an account by id (any case).  STORE_NOT_FOUND if there is none. */
enum store_status store_user_find(struct store *st, const char *userid, struct store_user *user);

/*
 * The display name of mail to address (the one To: rule of every mail the
 * server sends, README): the full name of the account userid (NULL: none)
 * when it is bound to address, else the full name of the accounts bound to
 * address when they all have the same one.  "" when no account is bound to
 * address (an unknown sender gets the address alone), when the accounts
 * bound to it have different names, or when the users file cannot be read:
 * a name is never guessed, nor taken from the incoming mail.
 */
void store_user_display_name(struct store *st, const char *address, const char *userid,
    char name[STORE_FULLNAME_MAX + 1]);

/*
 * The user ids of the accounts bound to address (compared without case),
 * at most max of them, in the users file's order, into ids[0..*n).  An
 * absent users file holds none.
 */
enum store_status store_user_ids_of(struct store *st, const char *address, char ids[][IDENT_USERID_MAX + 1],
    size_t max, size_t *n);

/*
 * Is password the account's?  STORE_OK with *right set (the hashes compared
 * in constant time; a locked account, "*", is never right); STORE_TEMPFAIL
 * when the hash could not be computed (out of memory under ulimit -v or for
 * a high cost, or a damaged hash): the password is neither right nor wrong,
 * and the mail is tried again later.  Touches nothing but its arguments, so
 * it may run on another thread (pwcheck.h).
 */
enum store_status store_user_check_password(const struct store_user *user, const char *password, bool *right);

/*
 * Replace the password hash of userid.  With expect_hash (the hash the old
 * password was checked against), only if the stored hash is still that one,
 * compared under the store lock: else STORE_CHANGED and nothing is written
 * (another change, an admin's lock or reset came first), and the caller
 * reads the account and checks the old password again.  expect_hash NULL:
 * whatever is there (the admin's passwd).
 */
enum store_status store_user_set_password(struct store *st, const char *userid, const char *password,
    const char *expect_hash);

/*
 * Every account of the users file in file order with its line number, and
 * the file's size, for fsck.  The caller owns *users and *lines (free).
 * STORE_NOT_FOUND without a users file; STORE_CORRUPT naming a bad line.
 */
enum store_status store_user_all(struct store *st, struct store_user **users, unsigned **lines, size_t *count,
    size_t *size);

/*
 * True if hash was made with the method and cost new hashes get (yescrypt
 * at password_cost): its "$y$<parameters>$" prefix is the one a new salt
 * gets.  A hash of another cost or method is made again when its owner
 * next gives the right password (store_user_rehash).
 */
bool store_hash_current(const struct store *st, const char *hash);

/*
 * Replace userid's hash old_hash, under the store lock, by a new hash of
 * password (which the caller checked against old_hash) at password_cost.
 * If the hash changed meanwhile (a new password, a locked account) nothing
 * is written and the result is STORE_OK.
 */
enum store_status store_user_rehash(struct store *st, const char *userid, const char *old_hash,
    const char *password);

/*
 * Replace the address of userid by address (mailaddr_deliverable, else
 * STORE_BAD_ADDRESS), under the store lock.  With expect_address, only if
 * the stored address is still that one (compared without case), else
 * STORE_CHANGED and nothing is written.  The rest of the line stays byte
 * for byte.
 */
enum store_status store_user_set_address(struct store *st, const char *userid, const char *address,
    const char *expect_address);

/*
 * Reserved user ids, <home>/reserved: the ids of accounts that signed off
 * or that the admin deleted, which store_user_add() refuses (STORE_RESERVED)
 * until their time is up, so that old games never name a stranger.
 * Plain text, one id per line:
 *     userid until since [hash]
 * userid ident_userid_ok(), lower case; until and since epoch seconds:
 * reserved before until, removed at since; hash the account's last
 * password hash, so that a copy of its signoff mail (a redelivery after a
 * crash) is known by its password and dropped, not refused.  '#' lines and blank lines are
 * ignored; the file starts with a comment saying this.  A line that does
 * not parse makes the file STORE_CORRUPT, the message naming the line;
 * a rewrite (store_user_remove) refuses to drop it.  One line per id.
 */
struct store_reserved {
	char userid[IDENT_USERID_MAX + 1];
	int64_t until;
	int64_t since;
	char hash[STORE_HASH_MAX + 1];	/* "" if the line has none */
};

/*
 * Remove userid's account, under the store lock: its id is first recorded
 * in the reserved file (reserved from since until until; an earlier line of
 * the id replaced, lines whose time is up dropped), then its line removed
 * from the users file, so the id is never free in between.  With
 * expect_hash, only if the stored hash is still that one (STORE_CHANGED).
 */
enum store_status store_user_remove(struct store *st, const char *userid, const char *expect_hash,
    int64_t since, int64_t until);

/*
 * The reserved line of userid into *out, whether its time is up or not;
 * STORE_NOT_FOUND if there is none.  Whether it still holds: out->until >
 * now.
 */
enum store_status store_reserved_find(struct store *st, const char *userid, struct store_reserved *out);

/*
 * Every line of the reserved file with its line number, for fsck.  The
 * caller owns *list and *lines (free).  STORE_NOT_FOUND without the file;
 * STORE_CORRUPT naming a bad line.
 */
enum store_status store_reserved_all(struct store *st, struct store_reserved **list, unsigned **lines,
    size_t *count);

/* The time the store counts with: OUSTPBM_TEST_TIME's, else time(NULL) (config_now). */
time_t store_now(const struct store *st);

/* True if password is acceptable: 1..STORE_PASSWORD_MAX of '!'..'~'. */
bool store_password_ok(const char *password);

/* --- log --- */

/*
 * Append one line to <home>/log with a single O_APPEND write.  The caller
 * formats everything (time, Message-ID, sender, command with the password
 * masked, board, result).  Control characters become '?' and a line longer
 * than STORE_LOG_LINE_MAX is cut, so one call is always one line.
 */
enum store_status store_log(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A failure the admin must see: "oustpbm: MESSAGE" on standard error and,
 * when st is not NULL, "PREFIX failed: MESSAGE" in the log, PREFIX being
 * what store_set_log_prefix() set (a time stamp and the command).
 */
#define STORE_LOG_PREFIX_MAX 160
void store_set_log_prefix(struct store *st, const char *prefix);
void store_complain(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
