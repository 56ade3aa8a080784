/* test_store: home layout, atomic writes, locks, board counter, ids, users, log. */
#include "store/store.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "t.h"
#include "t_home.h"

static struct config cfg;
static char err[STORE_ERR_MAX];

/* The password is right (a check that could not be computed is not). */
static bool right(const struct store_user *u, const char *password)
{
	bool r;

	return store_user_check_password(u, password, &r) == STORE_OK && r;
}

/* True if dir holds a file whose name starts with '.' or ends with ".tmp". */
static bool has_temp_file(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	bool found = false;

	if (d == NULL)
		return false;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (de->d_name[0] == '.' || (n > 4 && strcmp(de->d_name + n - 4, ".tmp") == 0))
			found = true;
	}
	closedir(d);
	return found;
}

static void test_status(void)
{
	enum store_status s;
	int i, j;

	for (i = STORE_OK; i <= STORE_RESERVED; i++)
		for (j = i + 1; j <= STORE_RESERVED; j++)
			if (strcmp(store_status_str((enum store_status)i), store_status_str((enum store_status)j)) == 0)
				ok(0, "status strings %d and %d differ", i, j);
	ok(strcmp(store_status_str(STORE_TIMEOUT), "lock timeout") == 0, "status string for a timeout");
	for (s = STORE_OK; s <= STORE_RESERVED; s++)
		if (store_status_temporary(s) != (s == STORE_TIMEOUT || s == STORE_TEMPFAIL || s == STORE_NO_SPACE ||
		    s == STORE_DISK_ERROR))
			ok(0, "temporary classification of %s", store_status_str(s));
	ok(store_status_temporary(STORE_TIMEOUT) && store_status_temporary(STORE_TEMPFAIL) &&
	    store_status_temporary(STORE_NO_SPACE) && store_status_temporary(STORE_DISK_ERROR) &&
	    !store_status_temporary(STORE_IO) && !store_status_temporary(STORE_NOT_FOUND),
	    "lock timeout and disk errors are temporary, others not");
}

static void test_open(void)
{
	char *base = t_home_new();
	char *home = NULL, *deep = NULL, *bare = NULL;
	struct store *st = NULL;
	struct stat sb;

	if (asprintf(&home, "%s/home", base) < 0 || asprintf(&deep, "%s/no/such/home", base) < 0 ||
	    asprintf(&bare, "%s/bare", base) < 0)
		abort();
	/* issue 13: a mistyped home is an error, never a new, empty server */
	ok_int(store_open(home, &cfg, &st, err, sizeof err), STORE_NO_HOME, "store_open never creates a home");
	ok(st == NULL && stat(home, &sb) != 0, "... nothing was made");
	ok(strstr(err, home) != NULL && strstr(err, "oustpbm init") != NULL, "... the message names it: %s", err);
	ok(!store_status_temporary(STORE_NO_HOME), "... and it is not temporary");
	mkdir(bare, 0700);
	ok_int(store_open(bare, &cfg, &st, err, sizeof err), STORE_NO_HOME,
	    "a directory with neither oustpbm.conf nor games/ is not a home");
	ok(strstr(err, "is not an oustpbm home") != NULL, "... says so: %s", err);
	t_spew(t_path(bare, "oustpbm.conf"), "", 0);
	ok_int(store_open(bare, &cfg, &st, err, sizeof err), STORE_OK, "with oustpbm.conf it is one");
	ok(stat(t_path(bare, "games"), &sb) == 0 && S_ISDIR(sb.st_mode), "... games/ created");
	store_close(st);

	ok_int(store_create_home(home, err, sizeof err), STORE_OK, "store_create_home makes a home");
	ok(stat(t_path(home, "games"), &sb) == 0 && S_ISDIR(sb.st_mode), "games/ created");
	ok(stat(home, &sb) == 0 && (sb.st_mode & 077) == 0, "home is private (0700)");
	ok_int(store_open(home, &cfg, &st, err, sizeof err), STORE_OK, "store_open on it");
	ok_str(store_home(st), home, "store_home");
	ok(store_home_owner(st) == geteuid(), "store_home_owner");
	store_close(st);
	ok_int(store_create_home(home, err, sizeof err), STORE_OK, "store_create_home on an existing home");

	ok_int(store_create_home(deep, err, sizeof err), STORE_NOT_FOUND,
	    "store_create_home with a missing parent fails");
	ok(strstr(err, "cannot create home directory") != NULL && strstr(err, deep) != NULL,
	    "message names the home: %s", err);
	ok_int(store_open(deep, &cfg, &st, err, sizeof err), STORE_NO_HOME, "store_open there too");
	ok(st == NULL, "no store on failure");

	t_spew(t_path(base, "file"), "x", 1);
	ok_int(store_open(t_path(base, "file"), &cfg, &st, err, sizeof err), STORE_NO_HOME, "a home that is a file fails");
	ok(strstr(err, "Not a directory") != NULL, "message says why: %s", err);

	/* issue 13: another user's home is refused (main.c makes root its owner first: owner.h) */
	if (geteuid() == 0) {
		ok(chown(home, 1, 1) == 0, "chown the home to uid 1");
		ok_int(store_open(home, &cfg, &st, err, sizeof err), STORE_NOT_OWNER, "another user's home is refused");
		ok(strstr(err, "or as root (which acts as") != NULL, "... saying what to do: %s", err);
	}
	free(home);
	free(deep);
	free(bare);
	t_home_free(base);
}

static void test_files(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char *data = NULL;
	size_t len = 0;
	struct stat sb;

	ok_int(store_write_file(st, "games/x.txt", "first", 5), STORE_OK, "atomic write creates a file");
	ok_int(store_read_file(st, "games/x.txt", 100, &data, &len), STORE_OK, "read it back");
	ok(len == 5 && strcmp(data, "first") == 0, "content written");
	free(data);
	ok_int(store_write_file(st, "games/x.txt", "second version", 14), STORE_OK, "atomic write replaces");
	ok_int(store_read_file(st, "games/x.txt", 100, &data, &len), STORE_OK, "read the replacement");
	ok(len == 14 && strcmp(data, "second version") == 0, "content replaced whole");
	free(data);
	ok(!has_temp_file(t_path(home, "games")), "no temp file left beside it");
	ok(stat(t_path(home, "games/x.txt"), &sb) == 0 && (sb.st_mode & 0777) == 0600, "file mode 0600");
	ok_int(store_write_file(st, "top", "", 0), STORE_OK, "atomic write at the top of the home, empty");
	ok(!has_temp_file(home), "no temp file left in the home");

	ok_int(store_read_file(st, "games/x.txt", 13, &data, &len), STORE_TOO_BIG, "read over the cap refused");
	ok(data == NULL, "nothing returned over the cap");
	ok(strstr(store_error(st), "is larger than 13 bytes") != NULL, "cap message: %s", store_error(st));
	ok_int(store_read_file(st, "games/none", 100, &data, &len), STORE_NOT_FOUND, "missing file: not found");
	ok_int(store_read_file(st, "games", 100, &data, &len), STORE_NOT_REGULAR, "a directory is not read");
	ok(strstr(store_error(st), "games is a directory, not a regular file") != NULL, "directory message: %s",
	    store_error(st));
	ok(!store_status_temporary(STORE_NOT_REGULAR), "... and that is not temporary");

	mkdir(t_path(home, "games/adir"), 0700);
	ok_int(store_write_file(st, "games/adir", "x", 1), STORE_IO, "replacing a directory fails (permanent)");
	ok(strstr(store_error(st), "cannot rename") != NULL, "rename message: %s", store_error(st));
	ok(!has_temp_file(t_path(home, "games")), "the temp file is removed after a failure");
	ok_int(store_write_file(st, "nodir/x", "x", 1), STORE_NOT_FOUND, "write into a missing directory fails");

	/* a symbolic link is never followed, to a file or a device */
	symlink("/dev/full", t_path(home, "full"));
	ok_int(store_create_file(st, "full", "data", 4), STORE_NOT_REGULAR, "a link to a device is not written through");
	ok(strstr(store_error(st), "full is a symbolic link, not a regular file") != NULL, "link message: %s",
	    store_error(st));
	ok_int(store_append_file(st, "full", "data", 4), STORE_NOT_REGULAR, "... nor appended to");
	ok_int(store_read_file(st, "full", 100, &data, &len), STORE_NOT_REGULAR, "... nor read");
	mkfifo(t_path(home, "fifo"), 0600);
	ok_int(store_read_file(st, "fifo", 100, &data, &len), STORE_NOT_REGULAR, "a FIFO is not read (and no wait)");
	ok(strstr(store_error(st), "fifo is a FIFO, not a regular file") != NULL, "FIFO message: %s", store_error(st));
	ok_int(store_append_file(st, "fifo", "x", 1), STORE_NOT_REGULAR, "... nor appended to");

	ok_int(store_create_file(st, "games/y", "abc", 3), STORE_OK, "create a file in place");
	ok_int(store_rename(st, "games/y", "games/z"), STORE_OK, "rename");
	ok_int(store_rename(st, "games/y", "games/z"), STORE_NOT_FOUND, "rename of a missing file");
	ok_int(store_unlink(st, "games/z"), STORE_OK, "unlink");
	ok_int(store_unlink(st, "games/z"), STORE_NOT_FOUND, "unlink of a missing file");
	ok_int(store_sync_dir(st, "."), STORE_OK, "fsync the home");
	ok_int(store_sync_dir(st, "nodir"), STORE_NOT_FOUND, "fsync of a missing directory");
	ok_int(store_mkdir(st, "d"), STORE_OK, "mkdir");
	ok_int(store_mkdir(st, "d"), STORE_OK, "mkdir of an existing directory");
	ok_int(store_mkdir(st, "no/d"), STORE_NOT_FOUND, "mkdir under a missing directory");
	{
		char **names = NULL;
		size_t n = 0;

		t_spew(t_path(home, "d/b"), "", 0);
		t_spew(t_path(home, "d/a"), "", 0);
		t_spew(t_path(home, "d/.hidden"), "", 0);
		mkdir(t_path(home, "d/sub"), 0700);
		ok_int(store_list_dir(st, "d", &names, &n), STORE_OK, "list a directory");
		ok(n == 2 && strcmp(names[0], "a") == 0 && strcmp(names[1], "b") == 0,
		    "plain files, sorted, no dot files, no directories");
		store_free_names(names, n);
		ok_int(store_list_dir(st, "nodir", &names, &n), STORE_NOT_FOUND, "list a missing directory");
	}
	store_close(st);
	t_home_free(home);
}

static void test_locks(void)
{
	char *home = t_home_new();
	struct store *st;
	struct store_lock a = STORE_LOCK_INIT, b = STORE_LOCK_INIT;
	long t0, waited, board = 0;
	int release;
	pid_t child;
	char *data = NULL;
	size_t len;

	cfg.lock_timeout_ms = 300;
	st = t_store_open(home, &cfg);
	ok_int(store_lock_board(st, 101, &a), STORE_OK, "lock board 101");
	ok(access(t_path(home, "games/101.lock"), F_OK) == 0, "lock file games/101.lock");
	ok_int(store_trylock_board(st, 101, &b), STORE_TIMEOUT, "a second lock on 101 is refused at once");
	ok_int(store_trylock_board(st, 102, &b), STORE_OK, "board 102 is independent");
	store_unlock(&b);
	store_unlock(&a);
	store_unlock(&a);
	ok(a.fd == -1, "unlock twice is harmless");
	ok_int(store_trylock_board(st, 101, &a), STORE_OK, "101 free again after unlock");
	store_unlock(&a);

	/* another process holds the board lock: bounded wait, then TIMEOUT */
	child = t_hold_lock(t_path(home, "games/101.lock"), &release);
	ok(child > 0, "child process holds games/101.lock");
	t0 = t_ms();
	ok_int(store_lock_board(st, 101, &a), STORE_TIMEOUT, "lock held elsewhere: timeout");
	waited = t_ms() - t0;
	ok(waited >= 290 && waited < 1500, "timed out after about lock_timeout_ms (%ld ms)", waited);
	ok(strstr(store_error(st), "games/101.lock is locked by another process") != NULL, "timeout message: %s",
	    store_error(st));
	ok(store_status_temporary(STORE_TIMEOUT), "a timeout means exit 75");
	t_release(child, release);
	ok_int(store_lock_board(st, 101, &a), STORE_OK, "lock obtained once the child is gone");
	store_unlock(&a);

	/* a killed holder leaves no stale lock */
	child = t_hold_lock(t_path(home, "games/101.lock"), &release);
	kill(child, SIGKILL);
	t_release(child, release);
	ok_int(store_lock_board(st, 101, &a), STORE_OK, "lock of a killed process is gone");
	store_unlock(&a);

	/* the store lock guards the counter and the users file */
	child = t_hold_lock(t_path(home, "store.lock"), &release);
	ok(child > 0, "child process holds store.lock");
	ok_int(store_next_board_id(st, &board), STORE_TIMEOUT, "board counter waits for the store lock");
	ok(board == 0 && access(t_path(home, "games/next-board"), F_OK) != 0, "counter untouched on timeout");
	ok_int(store_user_add(st, "alice", "alice@example.com", "pw", "Alice"), STORE_TIMEOUT,
	    "user add waits for the store lock");
	ok(access(t_path(home, "users"), F_OK) != 0, "users file untouched on timeout");
	t_release(child, release);
	ok_int(store_lock_store(st, &a), STORE_OK, "store lock free again");
	store_unlock(&a);
	ok_int(store_next_board_id(st, &board), STORE_OK, "board counter works after the timeout");
	ok_int(board, 101, "and hands out 101");

	cfg.lock_timeout_ms = 0;
	store_close(st);
	st = t_store_open(home, &cfg);
	child = t_hold_lock(t_path(home, "games/102.lock"), &release);
	t0 = t_ms();
	ok_int(store_lock_board(st, 102, &a), STORE_TIMEOUT, "lock_timeout_ms 0: no wait at all");
	ok(t_ms() - t0 < 100, "returned at once");
	t_release(child, release);
	ok_int(store_lock_path(st, "nodir/x.lock", 10, &a), STORE_NOT_FOUND, "lock file in a missing directory");
	ok_int(store_read_file(st, "games/next-board", 100, &data, &len), STORE_OK, "counter file readable");
	free(data);
	store_close(st);
	cfg.lock_timeout_ms = 10000;
	t_home_free(home);
}

static void test_boards(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char *text = NULL;
	size_t len = 0, n = 0;
	long board = 0, *list = NULL;
	static const char *const bad_ids[] = { "../../etc/passwd", "101/../102", "123456789", "0101", "100",
		"", "101 ", "-101", "1e3" };
	size_t i;

	ok_int(store_next_board_id(st, &board), STORE_OK, "first board number");
	ok_int(board, 101, "boards start at 101");
	ok_int(store_next_board_id(st, &board), STORE_OK, "second board number");
	ok_int(board, 102, "then 102");
	text = t_slurp(t_path(home, "games/next-board"), NULL);
	ok_str(text, "103\n", "counter file holds the next number");
	free(text);
	t_spew(t_path(home, "games/103.game"), "restored", 8);
	ok_int(store_next_board_id(st, &board), STORE_OK, "number after an existing game");
	ok_int(board, 104, "an existing game file is never reused");
	ok(!has_temp_file(t_path(home, "games")), "counter writes leave no temp file");

	t_spew(t_path(home, "games/next-board"), "abc\n", 4);
	ok_int(store_next_board_id(st, &board), STORE_CORRUPT, "damaged counter refused");
	ok(strstr(store_error(st), "'abc' is not a board number") != NULL, "counter message: %s", store_error(st));
	t_spew(t_path(home, "games/next-board"), "100000000\n", 10);
	ok_int(store_next_board_id(st, &board), STORE_FULL, "counter past the last number: full");
	t_spew(t_path(home, "games/next-board"), "99999999\n", 9);
	ok_int(store_next_board_id(st, &board), STORE_OK, "last number");
	ok_int(board, 99999999, "the last number is handed out");
	ok_int(store_next_board_id(st, &board), STORE_FULL, "then the store is full");

	ok_int(store_board_exists(st, 101), STORE_NOT_FOUND, "board 101 has no game yet");
	ok_int(store_board_read(st, 101, &text, &len), STORE_NOT_FOUND, "reading a missing game");
	ok_str(store_error(st), "board 101 does not exist", "missing game message");
	ok_int(store_board_write(st, 101, "game 101\n", 9), STORE_OK, "write game 101");
	ok_int(store_board_exists(st, 101), STORE_OK, "board 101 exists");
	ok_int(store_board_read(st, 101, &text, &len), STORE_OK, "read game 101");
	ok(len == 9 && strcmp(text, "game 101\n") == 0, "game content");
	free(text);
	ok_int(store_board_write(st, 101, "game 101 turn 2\n", 16), STORE_OK, "rewrite game 101");
	ok(!has_temp_file(t_path(home, "games")), "board writes leave no temp file");

	/* ids are checked before any path is made */
	for (i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++)
		ok(!ident_board_parse(bad_ids[i], strlen(bad_ids[i]), &board), "board id '%s' refused", bad_ids[i]);
	ok_int(t_count_entries(t_path(home, "games")), 3, "games/ before the bad numbers");
	ok_int(store_board_read(st, 100, &text, &len), STORE_BAD_ID, "board 100 refused");
	ok_int(store_board_write(st, 0, "x", 1), STORE_BAD_ID, "board 0 refused");
	ok_int(store_board_write(st, -101, "x", 1), STORE_BAD_ID, "board -101 refused");
	ok_int(store_board_exists(st, 100000000), STORE_BAD_ID, "board 100000000 refused");
	ok_int(store_lock_board(st, 99, &(struct store_lock)STORE_LOCK_INIT), STORE_BAD_ID, "lock of board 99 refused");
	ok_str(store_error(st), "board number 99 is out of range (101..99999999)", "bad board message");
	ok_int(t_count_entries(t_path(home, "games")), 3, "no file made for any bad number");
	ok_int(store_board_write(st, 105, "x", (size_t)STORE_BOARD_FILE_MAX + 1), STORE_TOO_BIG,
	    "an oversized game is refused");

	t_spew(t_path(home, "games/250.game"), "", 0);
	t_spew(t_path(home, "games/0102.game"), "", 0);
	t_spew(t_path(home, "games/abc.game"), "", 0);
	t_spew(t_path(home, "games/.104.game.1.1.tmp"), "", 0);
	t_spew(t_path(home, "games/107.gamex"), "", 0);
	ok_int(store_list_boards(st, &list, &n), STORE_OK, "list boards");
	ok(n == 3 && list[0] == 101 && list[1] == 103 && list[2] == 250, "boards 101 103 250, in order, junk ignored");
	free(list);
	store_close(st);
	t_home_free(home);
}

static void test_users(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_user u, v;
	char *before, *after, *text;
	static const char *const bad_users[] = { "../../etc/passwd", "101/../102", "a:b", "", "-alice",
		"al ice", "abcdefghijklmnopqrstuvwxyz0123456" };
	size_t i;

	ok_int(store_user_find(st, "alice", &u), STORE_NOT_FOUND, "no users file: not found");
	ok_int(store_user_set_password(st, "alice", "x", NULL), STORE_NOT_FOUND, "no users file: no password change");
	ok_int(store_user_add(st, "Alice", "alice@example.com", "s3cret!", "Alice: Liddell"), STORE_OK, "add alice");
	text = t_slurp(t_path(home, "users"), NULL);
	ok(text != NULL && text[0] == '#', "users file starts with its comment");
	ok(text != NULL && strstr(text, "\nalice:alice@example.com:$y$") != NULL, "line userid:address:hash...");
	ok(text != NULL && strstr(text, ":Alice: Liddell\tsince=") != NULL, "full name last, ':' kept, then since");
	free(text);

	ok_int(store_user_find(st, "alice", &u), STORE_OK, "find alice");
	ok(u.since > 0 && u.since == (int64_t)store_now(st), "member since the time it was made");
	ok_str(u.fullname, "Alice: Liddell", "... the full name without it");
	ok_str(u.userid, "alice", "user id folded to lower case");
	ok_str(u.address, "alice@example.com", "address");
	ok_str(u.fullname, "Alice: Liddell", "full name with ':'");
	ok(strncmp(u.hash, "$y$", 3) == 0, "yescrypt hash: %s", u.hash);
	ok(strstr(u.hash, "s3cret") == NULL, "no clear password");
	ok_int(store_user_find(st, "ALICE", &v), STORE_OK, "find is case-insensitive");
	ok(right(&u, "s3cret!"), "right password accepted");
	ok(!right(&u, "s3cret"), "wrong password refused");
	ok(!right(&u, "S3cret!"), "passwords are case-sensitive");
	ok(!right(&u, ""), "empty password refused");
	v = u;
	v.hash[strlen(v.hash) - 1] = v.hash[strlen(v.hash) - 1] == 'a' ? 'b' : 'a';
	ok(!right(&v, "s3cret!"), "a hash differing in its last character refuses");
	snprintf(v.hash, sizeof v.hash, "*");
	ok(!right(&v, "s3cret!"), "a locked account ('*') refuses");
	snprintf(v.hash, sizeof v.hash, "$y$");
	ok(!right(&v, "s3cret!"), "a broken hash refuses");
	{
		bool r = true;

		/* a cost yescrypt cannot allocate for: no verdict, a temporary failure */
		snprintf(v.hash, sizeof v.hash, "$y$jRT$0QrLOiWQNCJ.uwyPTYBPT.$YmjZZC1JlW2uM.2tSDzmZh6t06cWK21g2kfwiWBPNIC");
		ok_int(store_user_check_password(&v, "s3cret!", &r), STORE_TEMPFAIL,
		    "a hash that cannot be computed is a temporary failure");
		ok(!r, "and never right");
		snprintf(v.hash, sizeof v.hash, "*");
		ok_int(store_user_check_password(&v, "s3cret!", &r), STORE_OK, "a locked account is a verdict");
	}

	ok_int(store_user_add(st, "ALICE", "other@example.com", "pw", ""), STORE_USER_EXISTS, "duplicate id refused");
	ok(strstr(store_error(st), "'alice' is already taken") != NULL, "duplicate message: %s", store_error(st));
	ok_int(store_user_add(st, "alice2", "alice@example.com", "pw2", NULL), STORE_OK,
	    "second account for the same address");
	ok_int(store_user_add(st, "bob", "bob@example.net", "hunter2", "Bob"), STORE_OK, "add bob");
	{
		char ids[2][IDENT_USERID_MAX + 1];
		size_t nids = 9;

		ok_int(store_user_ids_of(st, "ALICE@example.com", ids, 2, &nids), STORE_OK, "ids of an address");
		ok_int((int)nids, 2, "ids of an address: both accounts, the address compared without case");
		ok_str(ids[0], "alice", "ids of an address: the first, in the file's order");
		ok_str(ids[1], "alice2", "ids of an address: the second");
		ok_int(store_user_ids_of(st, "alice@example.com", ids, 1, &nids), STORE_OK, "ids, at most one");
		ok_int((int)nids, 1, "ids: the cap kept");
		ok_int(store_user_ids_of(st, "nobody@example.com", ids, 2, &nids), STORE_OK, "ids of an unknown address");
		ok_int((int)nids, 0, "ids of an unknown address: none");
	}
	ok_int(store_user_find(st, "alice2", &v), STORE_OK, "find alice2");
	ok_str(v.fullname, "", "no full name");
	ok_int(store_user_find(st, "carol", &v), STORE_NOT_FOUND, "unknown user");
	ok_str(store_error(st), "no user 'carol'", "unknown user message");

	for (i = 0; i < sizeof bad_users / sizeof bad_users[0]; i++) {
		ok_int(store_user_find(st, bad_users[i], &v), STORE_BAD_ID, "user id '%s' refused", bad_users[i]);
		ok_int(store_user_add(st, bad_users[i], "x@example.com", "pw", ""), STORE_BAD_ID,
		    "user id '%s' not added", bad_users[i]);
	}
	ok_int(store_user_add(st, "carol", "carol", "pw", ""), STORE_BAD_ADDRESS, "address without '@' refused");
	ok_int(store_user_add(st, "carol", "carol@x:y", "pw", ""), STORE_BAD_ADDRESS, "address with ':' refused");
	ok_int(store_user_add(st, "carol", "carol@example.com\nbob:x", "pw", ""), STORE_BAD_ADDRESS,
	    "address with a newline refused");
	ok_int(store_user_add(st, "carol", "carol@example.com", "", ""), STORE_BAD_PASSWORD, "empty password refused");
	ok_int(store_user_add(st, "carol", "carol@example.com", "two words", ""), STORE_BAD_PASSWORD,
	    "password with a space refused");
	ok_int(store_user_add(st, "carol", "carol@example.com",
		   "12345678901234567890123456789012345678901234567890123456789012345", ""),
	    STORE_BAD_PASSWORD, "65-character password refused");
	ok(store_password_ok("1234567890123456789012345678901234567890123456789012345678901234"),
	    "64-character password allowed");
	ok(!store_password_ok("caf\xc3\xa9"), "non-ASCII password refused");
	ok_int(store_user_add(st, "carol", "carol@example.com", "pw", "Carol\nbob:x:y:z"), STORE_BAD_NAME,
	    "full name with a newline refused");
	{
		char longname[STORE_FULLNAME_MAX + 2];

		memset(longname, 'n', sizeof longname - 1);
		longname[sizeof longname - 1] = '\0';
		ok_int(store_user_add(st, "carol", "carol@example.com", "pw", longname), STORE_BAD_NAME,
		    "full name over %d bytes refused", STORE_FULLNAME_MAX);
	}
	ok_int(store_user_find(st, "carol", &v), STORE_NOT_FOUND, "no refused add left a user");

	/* password change touches only that line's hash */
	before = t_slurp(t_path(home, "users"), NULL);
	ok_int(store_user_set_password(st, "Alice", "n3w-pass", NULL), STORE_OK, "change alice's password");
	after = t_slurp(t_path(home, "users"), NULL);
	ok_int(store_user_find(st, "alice", &u), STORE_OK, "find alice again");
	ok(!right(&u, "s3cret!"), "old password no longer accepted");
	ok(right(&u, "n3w-pass"), "new password accepted");
	ok_str(u.fullname, "Alice: Liddell", "full name kept");
	ok(before != NULL && after != NULL && strstr(after, "\nbob:bob@example.net:") != NULL &&
	    strcmp(strstr(before, "\nbob:"), strstr(after, "\nbob:")) == 0, "other lines unchanged");
	free(before);
	free(after);
	ok_int(store_user_set_password(st, "carol", "x", NULL), STORE_NOT_FOUND, "no password change for a missing user");
	ok_int(store_user_set_password(st, "alice", "a b", NULL), STORE_BAD_PASSWORD, "bad new password refused");
	ok_int(store_user_set_password(st, "../x", "ab", NULL), STORE_BAD_ID, "bad id on password change refused");
	{
		struct store_user old_u, new_u;

		/* a change decided on a hash no longer stored is not made */
		ok_int(store_user_find(st, "alice", &old_u), STORE_OK, "alice old_u the race");
		ok_int(store_user_set_password(st, "alice", "first", old_u.hash), STORE_OK,
		    "the first change against the hash checked is made");
		ok_int(store_user_set_password(st, "alice", "second", old_u.hash), STORE_CHANGED,
		    "a second change against the same, new_u stale, hash is refused");
		ok_int(store_user_find(st, "alice", &new_u), STORE_OK, "alice after the race");
		ok(right(&new_u, "first") && !right(&new_u, "second"), "the first change stands");
		ok_int(store_user_set_password(st, "alice", "n3w-pass", new_u.hash), STORE_OK, "changed back");
	}

	/* hand edits: comments, CRLF, upper case survive; damage is reported with its line */
	text = t_slurp(t_path(home, "users"), NULL);
	{
		char *edited = NULL;

		if (asprintf(&edited, "%s\n  # admin note\nDave:dave@example.org:*:Dave\r\n", text) < 0)
			abort();
		t_spew(t_path(home, "users"), edited, strlen(edited));
		free(edited);
	}
	ok_int(store_user_find(st, "dave", &v), STORE_OK, "hand-added user found");
	ok_str(v.fullname, "Dave", "CR of a CRLF line dropped");
	ok(!right(&v, "anything"), "account locked with '*'");
	ok_int(store_user_add(st, "erin", "erin@example.org", "pw", ""), STORE_OK, "add after hand edits");
	after = t_slurp(t_path(home, "users"), NULL);
	ok(after != NULL && strstr(after, "  # admin note\n") != NULL, "comment kept on rewrite");
	free(after);
	free(text);

	text = t_slurp(t_path(home, "users"), NULL);
	{
		char *damaged = NULL;

		if (asprintf(&damaged, "%sgarbage line\n", text) < 0)
			abort();
		t_spew(t_path(home, "users"), damaged, strlen(damaged));
		free(damaged);
	}
	free(text);
	before = t_slurp(t_path(home, "users"), NULL);
	ok_int(store_user_add(st, "frank", "frank@example.org", "pw", ""), STORE_CORRUPT, "damaged users file not rewritten");
	ok(strstr(store_error(st), "users line") != NULL && strstr(store_error(st), "fewer than four") != NULL,
	    "damage message names the line: %s", store_error(st));
	ok_int(store_user_set_password(st, "alice", "zz", NULL), STORE_CORRUPT, "no password change in a damaged file");
	after = t_slurp(t_path(home, "users"), NULL);
	ok(before != NULL && after != NULL && strcmp(before, after) == 0, "damaged file left byte for byte");
	free(before);
	free(after);
	ok_int(store_user_find(st, "bob", &v), STORE_OK, "other users still found in a damaged file");
	t_spew(t_path(home, "users"), "bob:not-an-address:$y$x:Bob\n", 28);
	ok_int(store_user_find(st, "bob", &v), STORE_CORRUPT, "a damaged line of the user asked for is reported");
	ok(strstr(store_error(st), "line 1 has an invalid address") != NULL, "message: %s", store_error(st));
	store_close(st);
	t_home_free(home);
}

/* Registration caps and the users file limit. */
static void test_register_caps(void)
{
	struct store_register_caps caps = { .per_hour = 3, .per_domain = 2, .now = 1700000000 };
	char *home = t_home_new(), *text, big[2048];
	struct store *st = t_store_open(home, &cfg);
	size_t len;
	FILE *f;

	ok_int(store_user_register(st, "a1", "a1@Example.org", "pw", "", &caps), STORE_OK, "1st from example.org");
	ok_int(store_user_register(st, "a2", "a2@example.ORG", "pw", "", &caps), STORE_OK, "2nd from example.org");
	ok_int(store_user_register(st, "a3", "a3@example.org", "pw", "", &caps), STORE_LIMIT,
	    "3rd from example.org: over the domain cap");
	ok_str(store_error(st), "2 accounts with an address at example.org were registered in the last hour "
	    "(max_registrations_per_domain = 2)", "the domain cap named");
	ok_int(store_user_add(st, "a3", "a3@example.org", "pw", ""), STORE_OK, "the admin is not capped");
	ok_int(store_user_register(st, "b1", "b1@example.com", "pw", "", &caps), STORE_OK, "another domain");
	ok_int(store_user_register(st, "c1", "c1@example.net", "pw", "", &caps), STORE_LIMIT,
	    "4th registration in the hour: over the server cap");
	caps.now += 3600;
	ok_int(store_user_register(st, "c1", "c1@example.net", "pw", "", &caps), STORE_OK, "an hour later");
	text = t_slurp(t_path(home, "registrations"), &len);
	ok_str(text, "1700000000 example.org\n1700000000 example.org\n1700000000 example.com\n1700003600 example.net\n",
	    "the times, one line each");
	free(text);

	/* the users file limit: padded to just under it */
	f = fopen(t_path(home, "users"), "a");
	memset(big, 'x', sizeof big - 1);
	big[0] = '#';
	big[sizeof big - 2] = '\n';
	big[sizeof big - 1] = '\0';
	while (f != NULL && ftell(f) < STORE_USERS_FILE_MAX - 2 * (long)sizeof big)
		fputs(big, f);
	while (f != NULL && ftell(f) < STORE_USERS_FILE_MAX - 100)
		fputs("#\n", f);
	if (f != NULL)
		fclose(f);
	ok_int(store_user_add(st, "toolongtobefitted0123456789", "someone@example.org", "pw", "A name to pass it"),
	    STORE_TOO_BIG, "an account that would pass the users file limit is refused");
	ok_int(store_user_find(st, "c1", &(struct store_user){ 0 }), STORE_OK, "the file is still read");
	store_close(st);
	t_home_free(home);
}

static void test_cost(void)
{
	char *home = t_home_new();
	struct store *st;
	struct store_user u, v;

	cfg.password_cost = 1;
	st = t_store_open(home, &cfg);
	ok_int(store_user_add(st, "quick", "q@example.com", "pw", ""), STORE_OK, "add with password_cost 1");
	ok_int(store_user_find(st, "quick", &u), STORE_OK, "find it");
	ok(strncmp(u.hash, "$y$j75$", 7) == 0, "cost 1 in the hash parameters: %s", u.hash);
	ok(right(&u, "pw"), "check with cost 1");
	ok(store_hash_current(st, u.hash), "a cost-1 hash is current at cost 1");
	store_close(st);
	cfg.password_cost = 0;	/* the default: libxcrypt's */
	st = t_store_open(home, &cfg);
	ok(!store_hash_current(st, u.hash), "... not at the default cost");
	ok(!store_hash_current(st, "$6$salt$sha512hash"), "a SHA-512 hash is not current");
	ok_int(store_user_rehash(st, "quick", "$y$j75$other$hash", "pw"), STORE_OK,
	    "rehash against a hash that changed meanwhile: ok");
	ok_int(store_user_find(st, "quick", &v), STORE_OK, "... found");
	ok_str(v.hash, u.hash, "... and nothing written");
	ok_int(store_user_rehash(st, "quick", u.hash, "pw"), STORE_OK, "rehash at the default cost");
	ok_int(store_user_find(st, "quick", &v), STORE_OK, "... found");
	ok(strncmp(v.hash, "$y$j9T$", 7) == 0, "... libxcrypt's default cost in the hash: %s", v.hash);
	ok(store_hash_current(st, v.hash), "... current now");
	ok(right(&v, "pw"), "... and the password still checks");
	ok_int(store_user_add(st, "slow", "s@example.com", "pw2", ""), STORE_OK, "add with the default cost");
	ok_int(store_user_find(st, "slow", &v), STORE_OK, "find it");
	ok(strncmp(v.hash, "$y$j9T$", 7) == 0, "a new hash at the default cost: %s", v.hash);
	store_close(st);
	cfg.password_cost = 1;
	t_home_free(home);
}

static void test_log(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char *text, big[STORE_LOG_LINE_MAX * 2];
	int k;
	pid_t kids[4];
	size_t len;
	bool intact = true;
	int lines = 0;
	char *p;

	ok_int(store_log(st, "%s mail %s board %d", "2024-01-01T00:00:00Z", "<id@x>", 101), STORE_OK, "log a line");
	ok_int(store_log(st, "evil\ninjected\rline\x1b"), STORE_OK, "log a line with control characters");
	text = t_slurp(t_path(home, "log"), NULL);
	/* a line that does not start with its time gets one: "2024-01-01T00:00:00Z " is 21 bytes */
	p = text != NULL ? strchr(text, '\n') : NULL;
	ok(p != NULL && strncmp(text, "2024-01-01T00:00:00Z mail <id@x> board 101\n", (size_t)(p - text) + 1) == 0 &&
	    strlen(p + 1) == 21 + 20 && p[1 + 4] == '-' && p[1 + 10] == 'T' && p[1 + 19] == 'Z' &&
	    strcmp(p + 1 + 21, "evil?injected?line?\n") == 0,
	    "one line per call, control characters shown as '?', each with its time first: %s", text);
	free(text);

	memset(big, 'b', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ok_int(store_log(st, "%s", big), STORE_OK, "log an overlong line");
	text = t_slurp(t_path(home, "log"), &len);
	p = text != NULL ? strstr(text, "bbb") : NULL;
	ok(p != NULL && p - text >= 21 && p[-1] == ' ' && p[-2] == 'Z' && strlen(p - 21) == STORE_LOG_LINE_MAX &&
	    p[STORE_LOG_LINE_MAX - 21 - 1] == '\n',
	    "an overlong line is cut to %d bytes with its time and newline", STORE_LOG_LINE_MAX);
	free(text);
	remove(t_path(home, "log"));

	/* concurrent writers never interleave inside a line */
	fflush(stdout);
	for (k = 0; k < 4; k++) {
		kids[k] = fork();
		if (kids[k] == 0) {
			int j;

			for (j = 0; j < 200; j++)
				store_log(st, "writer %d line %03d %s", k, j, "....................................");
			_exit(0);
		}
	}
	for (k = 0; k < 4; k++)
		waitpid(kids[k], NULL, 0);
	text = t_slurp(t_path(home, "log"), &len);
	for (p = text; p != NULL && *p != '\0'; lines++) {
		char *nl = strchr(p, '\n');
		int w, j;
		char tail[64];

		if (nl == NULL || nl - p != 21 + 54 || sscanf(p + 21, "writer %d line %d %63s", &w, &j, tail) != 3 ||
		    strncmp(tail, "....................................", 36) != 0)
			intact = false;
		p = nl != NULL ? nl + 1 : NULL;
	}
	ok(intact && lines == 800, "800 lines from 4 processes, all whole (%d)", lines);
	free(text);

	remove(t_path(home, "log"));
	symlink("/dev/full", t_path(home, "log"));
	ok_int(store_log(st, "x"), STORE_NO_SPACE, "a full disk (ENOSPC) makes logging fail: STORE_NO_SPACE");
	ok(store_status_temporary(STORE_NO_SPACE), "... which is temporary");
	store_close(st);
	t_home_free(home);
}

/* store_write_file in two steps: nothing is visible until install; discard leaves nothing */
static void test_staged(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_staged sf;
	char *text = NULL;
	size_t len = 0;

	ok_int(store_board_write(st, 101, "turn 1\n", 7), STORE_OK, "board 101 at turn 1");
	ok_int(store_board_stage(st, 101, "turn 2\n", 7, &sf), STORE_OK, "stage turn 2");
	ok(sf.live && has_temp_file(t_path(home, "games")), "the staged text waits in a temp file");
	ok_int(store_board_read(st, 101, &text, &len), STORE_OK, "read while staged");
	ok_str(text, "turn 1\n", "readers still see turn 1");
	free(text);
	store_discard(st, &sf);
	ok(!sf.live && !has_temp_file(t_path(home, "games")), "discard removes the temp file");
	store_discard(st, &sf);
	ok(!has_temp_file(t_path(home, "games")), "discarding twice is harmless");
	ok_int(store_board_read(st, 101, &text, &len), STORE_OK, "read after discard");
	ok_str(text, "turn 1\n", "a discarded stage changed nothing");
	free(text);

	ok_int(store_board_stage(st, 101, "turn 2\n", 7, &sf), STORE_OK, "stage turn 2 again");
	ok_int(store_install(st, &sf), STORE_OK, "install it");
	ok(!sf.live && !has_temp_file(t_path(home, "games")), "no temp file after install");
	ok_int(store_board_read(st, 101, &text, &len), STORE_OK, "read after install");
	ok_str(text, "turn 2\n", "the installed text is the board");
	free(text);

	{
		bool same = true;

		ok_int(store_board_holds(st, 101, 7, store_text_hash("turn 2\n", 7), &same), STORE_OK, "holds: read");
		ok(same, "board 101 holds the installed text");
		ok_int(store_board_holds(st, 101, 7, store_text_hash("turn 1\n", 7), &same), STORE_OK, "holds: read again");
		ok(!same, "board 101 does not hold the text before it");
		ok_int(store_board_holds(st, 102, 7, store_text_hash("turn 2\n", 7), &same), STORE_OK,
		    "holds: a board without a file is no error");
		ok(!same, "a board without a file holds nothing");
		ok_int(store_board_holds(st, 99, 7, 0, &same), STORE_BAD_ID, "holds: a bad board number is refused");
	}
	ok_int(store_board_stage(st, 101, "x", (size_t)STORE_BOARD_FILE_MAX + 1, &sf), STORE_TOO_BIG,
	    "an oversized stage is refused");
	ok(!sf.live, "nothing staged when refused");
	ok_int(store_board_stage(st, 99, "x", 1, &sf), STORE_BAD_ID, "a bad board number is refused");

	mkdir(t_path(home, "games/adir"), 0700);
	ok_int(store_stage_file(st, "games/adir", "x", 1, &sf), STORE_OK, "stage over a directory");
	ok_int(store_install(st, &sf), STORE_IO, "installing over a directory fails");
	ok(sf.live, "the temp file is still the caller's after a failed install");
	store_discard(st, &sf);
	ok(!has_temp_file(t_path(home, "games")), "discard after a failed install cleans up");
	ok_int(store_stage_file(st, "nodir/x", "x", 1, &sf), STORE_NOT_FOUND, "staging in a missing directory fails");
	ok(!sf.live, "nothing staged in a missing directory");
	store_close(st);
	t_home_free(home);
}

/* Deferred fsyncs (store.h): the same files and names, paid at the end or before a rename. */
static void test_deferred(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	struct store_staged sf;
	char *text;

	ok_int(store_mkdir(st, "d"), STORE_OK, "a directory");
	store_defer_begin(st);
	ok_int(store_write_file(st, "d/a", "one\n", 4), STORE_OK, "a durable write while deferring");
	text = t_slurp(t_path(home, "d/a"), NULL);
	ok_str(text, "one\n", "in place at once");
	free(text);
	ok_int(store_stage_file(st, "d/b", "two\n", 4, &sf), STORE_OK, "a staged file");
	ok_int(store_append_file(st, "d/c", "x\n", 2), STORE_OK, "an append creates");
	ok_int(store_append_file(st, "d/c", "y\n", 2), STORE_OK, "an append adds");
	ok_int(store_install(st, &sf), STORE_OK, "installed (its sync paid first)");
	ok(!has_temp_file(t_path(home, "d")), "no temp file left");
	ok_int(store_create_file(st, "d/e.tmp", "three\n", 6), STORE_OK, "a file created");
	ok_int(store_rename(st, "d/e.tmp", "d/e"), STORE_OK, "and renamed");
	ok_int(store_sync(st), STORE_OK, "store_sync pays what is owed");
	ok_int(store_sync(st), STORE_OK, "and again with nothing owed");
	ok_int(store_defer_end(st), STORE_OK, "the deferring ends");
	text = t_slurp(t_path(home, "d/c"), NULL);
	ok_str(text, "x\ny\n", "appended in order");
	free(text);
	text = t_slurp(t_path(home, "d/e"), NULL);
	ok_str(text, "three\n", "the renamed file");
	free(text);
	ok_int(store_append_file(st, "d/c", "z\n", 2), STORE_OK, "an append without deferring");
	ok_int(store_append_file(st, "no/such/dir", "z\n", 2), STORE_NOT_FOUND, "an append where there is no directory");
	ok(strstr(store_error(st), "cannot open") != NULL && strstr(store_error(st), "no/such/dir") != NULL,
	    "its error names the file: %s", store_error(st));
	store_close(st);
	t_home_free(home);
}

/* A record of test_records: "name N". */
struct rec {
	char name[16];
	int n;
};

static bool rec_parse(const char *line, size_t len, void *out, const char **why)
{
	struct rec *r = out;
	char buf[40];
	int used = 0;

	*why = "is not 'name N'";
	if (len >= sizeof buf)
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	return sscanf(buf, "%15s %d%n", r->name, &r->n, &used) == 2 && (size_t)used == len;
}

/* store_read_records: the one reader of the line files (reserved, codes, vacations). */
static void test_records(void)
{
	static const char text[] = "# a comment\n\nalice 1\r\n   \n  # indented comment\nbob 22\ncarol 3";
	static const char bad[] = "alice 1\n# fine\nbob two\n";
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	void *v = NULL;
	struct rec *r;
	unsigned *lines = NULL;
	size_t n = 9;

	ok_int(store_read_records(st, &(struct store_records){ "recs", 1000, sizeof *r, rec_parse }, &v, &lines, &n),
	    STORE_NOT_FOUND,
	    "records of a missing file: not found");
	ok(v == NULL && lines == NULL && n == 0, "... and none");
	ok(t_spew(t_path(home, "recs"), text, strlen(text)) == 0, "a file of records");
	ok_int(store_read_records(st, &(struct store_records){ "recs", 1000, sizeof *r, rec_parse }, &v, &lines, &n),
	    STORE_OK, "read");
	r = v;
	ok(n == 3 && strcmp(r[0].name, "alice") == 0 && r[0].n == 1 && strcmp(r[1].name, "bob") == 0 &&
	    r[1].n == 22 && strcmp(r[2].name, "carol") == 0 && r[2].n == 3,
	    "blank lines and comments skipped, a CR dropped, a last line without line end read");
	ok(lines != NULL && lines[0] == 3 && lines[1] == 6 && lines[2] == 7, "each record's line number");
	free(v);
	free(lines);
	ok_int(store_read_records(st, &(struct store_records){ "recs", 1000, sizeof *r, rec_parse }, &v, NULL, &n),
	    STORE_OK,
	    "read without line numbers");
	ok(n == 3, "... the same records");
	free(v);
	ok_int(store_read_records(st, &(struct store_records){ "recs", 10, sizeof *r, rec_parse }, &v, NULL, &n),
	    STORE_TOO_BIG,
	    "a file over its cap");
	ok(t_spew(t_path(home, "recs"), bad, strlen(bad)) == 0, "a damaged line");
	ok_int(store_read_records(st, &(struct store_records){ "recs", 1000, sizeof *r, rec_parse }, &v, &lines, &n),
	    STORE_CORRUPT,
	    "refused");
	ok(strstr(store_error(st), "/recs line 3 is not 'name N'") != NULL, "naming the file and line: %s",
	    store_error(st));
	ok(v == NULL && lines == NULL && n == 0, "... and nothing returned");
	store_close(st);
	t_home_free(home);
}

/*
 * A write past the file size limit (RLIMIT_FSIZE, ulimit -f: EFBIG, with
 * SIGXFSZ ignored as main does) is a full disk to the store: STORE_NO_SPACE
 * by value, the errno kept, the old file whole and no temporary file left.
 */
static void test_no_space(void)
{
	char *home = t_home_new();
	struct store *st = NULL;
	struct rlimit old, small;
	static char big[64 * 1024];
	char *data = NULL;
	size_t len = 0;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);

	ok_int(store_open(home, &cfg, &st, err, sizeof err), STORE_OK, "open for the full-disk test");
	ok_int(store_write_file(st, "games/f", "old", 3), STORE_OK, "a file written before the limit");
	memset(big, 'x', sizeof big);
	if (getrlimit(RLIMIT_FSIZE, &old) != 0) {
		ok(0, "getrlimit: %s", strerror(errno));
		goto out;
	}
	small = old;
	small.rlim_cur = 4096;
	if (setrlimit(RLIMIT_FSIZE, &small) != 0) {
		ok(0, "setrlimit: %s", strerror(errno));
		goto out;
	}
	ok_int(store_write_file(st, "games/f", big, sizeof big), STORE_NO_SPACE,
	    "a write past the file size limit: STORE_NO_SPACE");
	ok_int(store_errno(st), EFBIG, "... its errno EFBIG kept");
	ok_int(store_append_file(st, "games/g", big, sizeof big), STORE_NO_SPACE, "an append past it: the same");
	ok(setrlimit(RLIMIT_FSIZE, &old) == 0, "limit restored");
	ok_int(store_read_file(st, "games/f", 100, &data, &len), STORE_OK, "the old file is still there");
	ok(len == 3 && memcmp(data, "old", 3) == 0, "... whole");
	ok(!has_temp_file(t_path(home, "games")), "... and no temporary file is left");
	free(data);
out:
	signal(SIGXFSZ, was);
	store_close(st);
	t_home_free(home);
}

int main(void)
{
	config_defaults(&cfg);
	cfg.password_cost = 1;	/* the cheapest: test_cost checks the default */
	test_status();
	test_open();
	test_files();
	test_locks();
	test_boards();
	test_staged();
	test_deferred();
	test_users();
	test_cost();
	test_register_caps();
	test_log();
	test_no_space();
	test_records();
	return t_done();
}
