/* admin_init_run: oustpbm init DIR, the one way to make a home. */
#include <dirent.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "store/lifecycle.h"
#include "store/tokens.h"

static void guess_address(char *buf, size_t size)
{
	struct passwd *pw = getpwuid(geteuid());
	char host[256];
	int n;

	if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
		snprintf(host, sizeof host, "localhost");
	host[sizeof host - 1] = '\0';
	n = snprintf(buf, size, "%s@%s", pw != NULL && pw->pw_name != NULL ? pw->pw_name : "oust", host);
	if (n < 0 || (size_t)n >= size || !mailaddr_ok(buf, NULL))
		snprintf(buf, size, "oust@localhost");
}

/* A file that exists, for the lines init prints: the installed one, else the checkout's. */
static void find_script(const char *exe, const char *name, char *buf, size_t size)
{
	char *copy = strdup(exe), *slash;

	snprintf(buf, size, "%s/scripts/%s", OUSTPBM_DATADIR, name);
	if (access(buf, R_OK) == 0 || copy == NULL) {
		free(copy);
		return;
	}
	slash = strrchr(copy, '/');
	if (slash != NULL) {
		*slash = '\0';
		snprintf(buf, size, "%s/scripts/%s", copy, name);
		if (access(buf, R_OK) != 0)
			snprintf(buf, size, "%s/scripts/%s", OUSTPBM_DATADIR, name);
	}
	free(copy);
}

/* True if path is a directory with something in it. */
static bool dir_has_entries(const char *path)
{
	struct dirent *de;
	bool found = false;
	DIR *d = opendir(path);

	if (d == NULL)
		return false;
	while (!found && (de = readdir(d)) != NULL)
		found = strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	closedir(d);
	return found;
}

/*
 * oustpbm init [DIR]: the one command that makes a home: DIR (one level,
 * 0700) with games/, a commented oustpbm.conf holding every key (its
 * replies handed to the local MTA) and the installed stamp (lifecycle.h),
 * then the transport's lines and those for ~/.forward, ~/.procmailrc and
 * the crontab of that home.
 */
enum process_status admin_init_run(struct admin *a)
{
	unsigned char secret[TOKENS_SECRET_BYTES];
	char err[CONFIG_ERR_MAX + STORE_ERR_MAX], from[MAILADDR_MAX + 1], exe[PATH_MAX], home[PATH_MAX];
	char rc[PATH_MAX + 64], *dir, *text = NULL;
	struct store *st = NULL;
	enum store_status ss;
	size_t len = 0;
	ssize_t n;
	FILE *f;
	struct stat sb;
	enum process_status as;

	if (a->nargs > 1)
		return admin_usage_error();
	if (a->nargs == 1)
		a->srv.home = a->args[0];
	if (a->srv.home[0] == '\0')
		return admin_usage_error();
	if (stat(a->srv.home, &sb) == 0 && S_ISDIR(sb.st_mode) &&
	    store_open(a->srv.home, &a->srv.cfg, &st, err, sizeof err) == STORE_OK) {
		store_close(st);
		msg_warn("%s is already an oustpbm home", a->srv.home);
		return PROCESS_EXISTS;
	}
	/* a user's home or a project folder must not become a server's home, its files mixed in */
	if (stat(a->srv.home, &sb) == 0 && S_ISDIR(sb.st_mode) && dir_has_entries(a->srv.home)) {
		msg_warn("%s is not empty and is not an oustpbm home: init makes a home in a new or "
		    "empty directory (say %s/%s)", a->srv.home, a->srv.home, CONFIG_HOME_NAME);
		return PROCESS_EXISTS;
	}
	ss = store_create_home(a->srv.home, err, sizeof err);
	if (ss != STORE_OK) {
		msg_warn("%s", err);
		return ss == STORE_NOT_FOUND ? PROCESS_CANTCREAT : admin_of_store(ss);
	}
	ss = store_open(a->srv.home, &a->srv.cfg, &st, err, sizeof err);
	if (ss != STORE_OK) {
		msg_warn("%s", err);
		return ss == STORE_NOT_OWNER ? PROCESS_NOPERM : admin_of_store(ss);
	}
	store_set_log_prefix(st, "init");
	guess_address(from, sizeof from);
	f = open_memstream(&text, &len);
	if (f == NULL || config_write_sample(f, from) != 0 || fclose(f) != 0) {
		store_complain(st, "out of memory");
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	ss = store_write_file(st, CONFIG_FILE, text, len);
	if (ss != STORE_OK) {
		store_complain(st, "%s", store_error(st));
		as = admin_of_store(ss);
		goto out;
	}
	/* the reply tokens' secret (store/tokens.h), 0600 as every file of the home */
	ss = tokens_secret(st, a->srv.cfg.lock_timeout_ms, secret, err);
	explicit_bzero(secret, sizeof secret);
	if (ss != STORE_OK) {
		store_complain(st, "%s", err);
		as = admin_of_store(ss);
		goto out;
	}
	/* when the server was installed: status gives cron its first runs before it warns */
	ss = lifecycle_mark(st, LIFECYCLE_INSTALLED_FILE, a->srv.now);
	if (ss != STORE_OK) {
		store_complain(st, "%s", store_error(st));
		as = admin_of_store(ss);
		goto out;
	}
	store_log(st, "%s admin init %s", a->srv.stamp, a->srv.home);
	/* the lines below name absolute paths: cron and procmail do not start in the home */
	if (realpath(a->srv.home, home) == NULL)
		snprintf(home, sizeof home, "%s", a->srv.home);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		snprintf(exe, sizeof exe, "oustpbm");
	else
		exe[n] = '\0';
	dir = strdup(exe);
	if (dir == NULL) {
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	if (strrchr(dir, '/') != NULL)
		*strrchr(dir, '/') = '\0';
	find_script(exe, "procmailrc", rc, sizeof rc);
	printf("oustpbm: made the home %s; check from_address in %s/%s (now %s)\n\n"
	    "# replies leave by the local MTA (oustpbm.conf; transport = maildir keeps them here):\n"
	    "transport = smtp\n"
	    "smtp_url = %s\n\n"
	    "# ~/.forward of the account the server runs as:\n"
	    "\"|exec /usr/bin/procmail\"\n\n"
	    "# ~/.procmailrc of that account:\n"
	    "OUSTPBM=%s\n"
	    "OUSTPBM_HOME=%s\n"
	    "INCLUDERC=%s\n\n"
	    "# its crontab (crontab -e), with MAILTO set to your own address:\n"
	    "PATH=%s:/usr/bin:/bin\n"
	    "MAILTO=postmaster@example.org\n"
	    "OUSTPBM_HOME=%s\n"
	    "*/5 * * * *\toustpbm flush\n"
	    "*/5 * * * *\toustpbm robot\n"
	    "17 * * * *\toustpbm cleanup\n",
	    home, home, CONFIG_FILE, from, CONFIG_LOCAL_MTA_URL, exe, home, rc, dir, home);
	free(dir);
	as = admin_output_done();
out:
	free(text);
	store_close(st);
	return as;
}
