/*
 * t_home.h: the helpers the unit tests share: scratch home directories
 * (made with mkdtemp under $TMPDIR, or /tmp, and removed again), their
 * store opened, files of the source tree read, small file helpers.
 */
#ifndef OUSTPBM_T_HOME_H
#define OUSTPBM_T_HOME_H

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/config.h"
#include "store/store.h"

/* A new home: an empty directory but for games/; the caller frees it with t_home_free. */
static __attribute__((unused)) char *t_home_new(void)
{
	const char *base = getenv("TMPDIR");
	char *path = NULL, *games = NULL;

	if (base == NULL || base[0] == '\0')
		base = "/tmp";
	if (asprintf(&path, "%s/oustpbm-test.XXXXXX", base) < 0)
		abort();
	if (mkdtemp(path) == NULL) {
		perror("mkdtemp");
		abort();
	}
	/* games/ makes it a home store_open accepts, as oustpbm init would */
	if (asprintf(&games, "%s/games", path) < 0 || mkdir(games, 0700) != 0)
		abort();
	free(games);
	return path;
}

static __attribute__((unused)) int t_home_rm(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove the directory and everything in it, and free path. */
static __attribute__((unused)) void t_home_free(char *path)
{
	if (path == NULL)
		return;
	nftw(path, t_home_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(path);
}

/* "<a>/<b>" in a static buffer (one at a time). */
static __attribute__((unused)) const char *t_path(const char *a, const char *b)
{
	static char buf[4096];

	snprintf(buf, sizeof buf, "%s/%s", a, b);
	return buf;
}

/* Entries of dir other than . and .. (-1 if it cannot be opened). */
static __attribute__((unused)) int t_count_entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/* The first entry of dir other than . and .., malloc'ed; NULL if none. */
static __attribute__((unused)) char *t_first_entry(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char *name = NULL;

	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			name = strdup(de->d_name);
			break;
		}
	closedir(d);
	return name;
}

/* The whole file, NUL-terminated, malloc'ed; NULL if it cannot be read. */
static __attribute__((unused)) char *t_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (cap - n < 4096) {
			char *bigger = realloc(buf, cap + 65536);

			if (bigger == NULL)
				abort();
			buf = bigger;
			cap += 65536;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

/* Write len bytes of text to path (created or truncated); 0 on success. */
static __attribute__((unused)) int t_spew(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	int rc;

	if (f == NULL)
		return -1;
	rc = fwrite(text, 1, len, f) == len ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* The top of the source tree: $OUSTPBM_TOP, else the current directory. */
static __attribute__((unused)) const char *t_top(void)
{
	const char *top = getenv("OUSTPBM_TOP");

	return top != NULL && top[0] != '\0' ? top : ".";
}

/* <top>/tests/data/<name>, in a static buffer (one at a time). */
static __attribute__((unused)) const char *t_data(const char *name)
{
	static char path[4096];

	snprintf(path, sizeof path, "%s/tests/data/%s", t_top(), name);
	return path;
}

/* <top>/<dir>/<name> whole, NUL-terminated, malloc'ed; the test exits if it cannot be read. */
static __attribute__((unused)) char *t_load(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	char *buf;

	snprintf(path, sizeof path, "%s/%s/%s", t_top(), dir, name);
	buf = t_slurp(path, len);
	if (buf == NULL) {
		printf("# cannot open %s\n", path);
		exit(1);
	}
	return buf;
}

/* The configuration the store tests open a home with: the defaults, locks given up after 200 ms. */
static __attribute__((unused)) const struct config *t_store_config(void)
{
	static struct config cfg;

	config_defaults(&cfg);
	cfg.lock_timeout_ms = 200;
	return &cfg;
}

/* The store of home opened with cfg; the test aborts if it cannot be. */
static __attribute__((unused)) struct store *t_store_open(const char *home, const struct config *cfg)
{
	struct store *st = NULL;
	char err[STORE_ERR_MAX];

	if (store_open(home, cfg, &st, err, sizeof err) != STORE_OK) {
		printf("# store_open %s: %s\n", home, err);
		abort();
	}
	return st;
}

/*
 * A child process that takes an fcntl OFD write lock on path (creating it)
 * and holds it until t_release().  Returns the child's pid, -1 if the child
 * could not lock; *release_fd is what t_release() closes.
 */
static __attribute__((unused)) pid_t t_hold_lock(const char *path, int *release_fd)
{
	int go[2], ready[2];
	char c = 'n';
	pid_t pid;

	if (pipe(go) != 0 || pipe(ready) != 0)
		abort();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		struct flock fl;
		int fd = open(path, O_RDWR | O_CREAT, 0600);

		close(go[1]);
		close(ready[0]);
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		c = fd >= 0 && fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 'y' : 'n';
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		c = 'n';
	close(ready[0]);
	*release_fd = go[1];
	if (c != 'y') {
		close(go[1]);
		*release_fd = -1;
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* Let the child of t_hold_lock end (its lock goes with it) and reap it. */
static __attribute__((unused)) void t_release(pid_t pid, int release_fd)
{
	if (release_fd >= 0)
		close(release_fd);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/* Milliseconds on the monotonic clock. */
static __attribute__((unused)) long t_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
