/* test_lifecycle: the installed and retired stamps of a home (store/lifecycle.h), and root becoming its owner (store/owner.h). */
#include "store/lifecycle.h"
#include "store/owner.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t.h"
#include "t_home.h"

static struct config cfg;

static void test_stamps(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, &cfg);
	char *text = NULL;
	size_t len = 0;
	int64_t when = 1;

	ok_int(lifecycle_read(st, LIFECYCLE_RETIRED_FILE, &when), STORE_NOT_FOUND, "no stamp: not found");
	ok(when == 0, "... the time 0");
	ok_int(lifecycle_mark(st, LIFECYCLE_RETIRED_FILE, 1700000000), STORE_OK, "a stamp written");
	ok(store_read_file(st, LIFECYCLE_RETIRED_FILE, 100, &text, &len) == STORE_OK &&
	    strcmp(text, "2023-11-14T22:13:20Z\n") == 0, "... one line, the time: %s", text != NULL ? text : "");
	free(text);
	ok_int(lifecycle_read(st, LIFECYCLE_RETIRED_FILE, &when), STORE_OK, "read back");
	ok(when == 1700000000, "... the same time");
	ok_int(lifecycle_clear(st, LIFECYCLE_RETIRED_FILE), STORE_OK, "cleared");
	ok_int(lifecycle_clear(st, LIFECYCLE_RETIRED_FILE), STORE_NOT_FOUND, "... twice: not found");
	ok_int(lifecycle_read(st, LIFECYCLE_RETIRED_FILE, &when), STORE_NOT_FOUND, "... gone");

	/* damaged: said so, the time 0 (a retired one still refuses mail: process.c) */
	t_spew(t_path(home, LIFECYCLE_INSTALLED_FILE), "yesterday\n", 10);
	ok_int(lifecycle_read(st, LIFECYCLE_INSTALLED_FILE, &when), STORE_CORRUPT, "no time stamp: corrupt");
	ok(when == 0 && strstr(store_error(st), "installed does not hold a time stamp") != NULL, "... said so: %s",
	    store_error(st));
	t_spew(t_path(home, LIFECYCLE_INSTALLED_FILE), "2023-11-14T22:13:20Z\r\n", 22);
	ok_int(lifecycle_read(st, LIFECYCLE_INSTALLED_FILE, &when), STORE_OK, "CR LF: read");
	{
		char big[LIFECYCLE_FILE_MAX + 10];

		memset(big, '2', sizeof big);
		t_spew(t_path(home, LIFECYCLE_INSTALLED_FILE), big, sizeof big);
	}
	ok_int(lifecycle_read(st, LIFECYCLE_INSTALLED_FILE, &when), STORE_CORRUPT, "over the cap: corrupt, not read");
	store_close(st);
	t_home_free(home);
}

/* owner_become in a child (it changes the process for good): its exit status says what it found. */
static int child_become(const char *path, bool parent, uid_t want_uid)
{
	char err[512];
	pid_t pid = fork();
	int ws;

	if (pid == 0) {
		bool switched;
		enum store_status ss = owner_become(path, parent, err, sizeof err, &switched);

		if (ss == STORE_OK && switched)
			_exit(getuid() == want_uid && geteuid() == want_uid && setuid(0) != 0 ? 10 : 11);
		_exit(ss == STORE_OK ? 20 : 30);
	}
	if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
		return -1;
	return WEXITSTATUS(ws);
}

static void test_owner(void)
{
	char *home = t_home_new();

	if (geteuid() != 0) {
		ok(child_become(home, false, 0) == 20, "not root: nothing to do");
		t_home_free(home);
		return;
	}
	ok(child_become(home, false, 0) == 20, "root on root's home: nothing to do");
	ok(child_become(t_path(home, "none"), false, 0) == 20, "no such path: nothing to do");
	ok(chmod(home, 0755) == 0 && chown(home, 4242, 4243) == 0, "the home given to uid 4242 (no passwd entry)");
	ok(child_become(home, false, 4242) == 10, "root becomes uid 4242, for good");
	ok(child_become(t_path(home, "new"), true, 4242) == 10, "a path to be made: its folder's owner");
	ok(child_become(t_path(home, "new/"), true, 4242) == 10, "... a trailing slash too");
	ok(child_become(t_path(home, "new"), false, 0) == 20, "... not for a command other than init");
	ok(chown(home, 0, 0) == 0, "back to root");
	t_home_free(home);
}

int main(void)
{
	config_defaults(&cfg);
	test_stamps();
	test_owner();
	return t_done();
}
