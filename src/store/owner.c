/* owner: root acts as the home's owner.  See owner.h. */
#include "store/owner.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder path is in ("." for a bare name, trailing slashes ignored). */
static void folder_of(const char *path, char *buf, size_t size)
{
	char *slash;
	size_t n;

	snprintf(buf, size, "%s", path);
	n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL)
		snprintf(buf, size, ".");
	else if (slash == buf)
		buf[1] = '\0';
	else
		*slash = '\0';
}

enum store_status owner_become(const char *path, bool parent, char *err, size_t errlen, bool *switched)
{
	char dir[PATH_MAX], name[256] = "", pwdir[PATH_MAX] = "";
	struct passwd *pw;
	struct stat sb;
	uid_t uid;
	gid_t gid;

	*switched = false;
	if (geteuid() != 0)
		return STORE_OK;
	if (stat(path, &sb) != 0) {
		/* no home: the command says so; init's new one belongs to its folder's owner */
		if (!parent || errno != ENOENT)
			return STORE_OK;
		folder_of(path, dir, sizeof dir);
		if (stat(dir, &sb) != 0)
			return STORE_OK;
	}
	if (sb.st_uid == 0)
		return STORE_OK;
	uid = sb.st_uid;
	/* copied: initgroups reads the group database, which may reuse getpwuid's static buffers */
	pw = getpwuid(uid);
	gid = sb.st_gid;
	if (pw != NULL) {
		gid = pw->pw_gid;
		snprintf(name, sizeof name, "%s", pw->pw_name);
		snprintf(pwdir, sizeof pwdir, "%s", pw->pw_dir);
	}
	if (name[0] != '\0' ? initgroups(name, gid) != 0 : setgroups(1, &gid) != 0) {
		snprintf(err, errlen, "cannot take the groups of %s's owner (uid %lu): %s", path, (unsigned long)uid,
		    strerror(errno));
		return STORE_NOT_OWNER;
	}
	if (setgid(gid) != 0) {
		snprintf(err, errlen, "cannot set the group id %lu of %s's owner: %s", (unsigned long)gid, path,
		    strerror(errno));
		return STORE_NOT_OWNER;
	}
	if (setuid(uid) != 0) {
		snprintf(err, errlen, "cannot become %s's owner (uid %lu): %s", path, (unsigned long)uid, strerror(errno));
		return STORE_NOT_OWNER;
	}
	/* all of it took, and root cannot come back (CERT POS37-C) */
	if (getuid() != uid || geteuid() != uid || getgid() != gid || getegid() != gid || setuid(0) == 0) {
		snprintf(err, errlen, "the switch to %s's owner (uid %lu) did not take whole", path, (unsigned long)uid);
		return STORE_NOT_OWNER;
	}
	if (name[0] != '\0' && (setenv("HOME", pwdir, 1) != 0 || setenv("USER", name, 1) != 0 ||
	    setenv("LOGNAME", name, 1) != 0)) {
		snprintf(err, errlen, "cannot set the environment of %s: %s", name, strerror(errno));
		return STORE_NOT_OWNER;
	}
	*switched = true;
	return STORE_OK;
}
