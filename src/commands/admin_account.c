/* admin_account: the admin commands on accounts, adduser and passwd. */
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "commands/admincmd.h"
#include "commands/robot.h"
#include "store/throttle.h"

#define PASSWORD_LEN 12		/* characters of a generated password: about 69 bits */
#define LINE_MAX_IN (STORE_PASSWORD_MAX + 3)	/* a password line read from stdin, CR LF included */
#define NAME_MAX_IN (STORE_FULLNAME_MAX + 1)

/* ---- passwords ---- */

/* A random password of PASSWORD_LEN letters and digits (no 0 O 1 l I, which are easily mixed up). */
static bool generate_password(char out[PASSWORD_LEN + 1])
{
	static const char alphabet[] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
	const size_t n = sizeof alphabet - 1;	/* 57 */
	unsigned char b;
	int i = 0;

	while (i < PASSWORD_LEN) {
		if (getrandom(&b, 1, 0) != 1)
			return false;
		if (b >= 256 - 256 % n)
			continue;	/* no modulo bias */
		out[i++] = alphabet[b % n];
	}
	out[i] = '\0';
	return true;
}

/* The first line of standard input, without its line end, into pw. */
static enum admin_status read_password(char pw[LINE_MAX_IN])
{
	size_t n;

	if (fgets(pw, LINE_MAX_IN, stdin) == NULL) {
		fprintf(stderr, "oustpbm: --stdin: no password on standard input\n");
		return ADMIN_DATAERR;
	}
	n = strlen(pw);
	if (n > 0 && pw[n - 1] != '\n' && !feof(stdin)) {
		fprintf(stderr, "oustpbm: a password is 1 to %d printable ASCII characters without spaces\n",
		    STORE_PASSWORD_MAX);
		return ADMIN_DATAERR;
	}
	while (n > 0 && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
		pw[--n] = '\0';
	if (!store_password_ok(pw)) {
		fprintf(stderr, "oustpbm: a password is 1 to %d printable ASCII characters without spaces\n",
		    STORE_PASSWORD_MAX);
		return ADMIN_DATAERR;
	}
	return ADMIN_OK;
}

/* The password for adduser/passwd: from stdin with --stdin, else generated (*shown true). */
static enum admin_status get_password(bool from_stdin, char pw[LINE_MAX_IN], bool *shown)
{
	*shown = !from_stdin;
	if (from_stdin)
		return read_password(pw);
	if (!generate_password(pw)) {
		fprintf(stderr, "oustpbm: no random numbers for a password\n");
		return ADMIN_SOFTWARE;
	}
	return ADMIN_OK;
}

enum admin_status admin_adduser(struct admin *a)
{
	char pw[LINE_MAX_IN], name[NAME_MAX_IN * 2];
	bool from_stdin = false, shown;
	enum admin_status as;
	enum store_status ss;
	const char *why;
	char **args = a->args;
	int n = a->nargs, i;
	size_t len = 0;

	if (n > 0 && strcmp(args[0], "--stdin") == 0)
		from_stdin = true, args++, n--;
	if (n < 2)
		return admin_usage_error();
	if (!ident_userid_ok(args[0])) {
		store_complain(a->st, "'%s' is not a user id (1 to %d of a-z 0-9 _ -, starting with a letter "
		    "or digit)", args[0], IDENT_USERID_MAX);
		return ADMIN_DATAERR;
	}
	if (robot_is(args[0])) {
		fprintf(stderr, "oustpbm: the user id %s is the built-in robot player's\n", ROBOT_USERID);
		return ADMIN_EXISTS;
	}
	if (!mailaddr_deliverable(args[1], &why)) {
		store_complain(a->st, "address '%s' %s", args[1], why);
		return ADMIN_DATAERR;
	}
	/* the full name is the other words joined by spaces */
	name[0] = '\0';
	for (i = 2; i < n; i++) {
		int w = snprintf(name + len, sizeof name - len, "%s%s", i > 2 ? " " : "", args[i]);

		if (w < 0 || (size_t)w >= sizeof name - len) {
			store_complain(a->st, "the full name is longer than %d characters", IDENT_FULLNAME_MAX);
			return ADMIN_DATAERR;
		}
		len += (size_t)w;
	}
	as = get_password(from_stdin, pw, &shown);
	if (as != ADMIN_OK)
		return as;
	ss = store_user_add(a->st, args[0], args[1], pw, name);
	if (ss != STORE_OK) {
		store_complain(a->st, "adduser %s: %s", args[0], store_error(a->st));
		return admin_of_store(ss);
	}
	store_log(a->st, "%s admin adduser %s <%s>", a->stamp, args[0], args[1]);
	if (shown)
		printf("%s\n", pw);
	return admin_output_done();
}

enum admin_status admin_passwd(struct admin *a)
{
	char pw[LINE_MAX_IN];
	bool from_stdin = false, shown;
	enum admin_status as;
	enum store_status ss;
	struct store_user u;
	char **args = a->args;
	int n = a->nargs;

	if (n > 0 && strcmp(args[0], "--stdin") == 0)
		from_stdin = true, args++, n--;
	if (n != 1)
		return admin_usage_error();
	ss = store_user_find(a->st, args[0], &u);
	if (ss != STORE_OK) {
		if (ss == STORE_NOT_FOUND)
			store_complain(a->st, "there is no user %s", args[0]);
		else
			store_complain(a->st, "passwd %s: %s", args[0], store_error(a->st));
		return admin_of_store(ss);
	}
	as = get_password(from_stdin, pw, &shown);
	if (as != ADMIN_OK)
		return as;
	ss = store_user_set_password(a->st, u.userid, pw, NULL);
	if (ss != STORE_OK) {
		store_complain(a->st, "passwd %s: %s", u.userid, store_error(a->st));
		return admin_of_store(ss);
	}
	/* a new password ends a lockout for guessing (throttle.h) */
	ss = throttle_clear(a->st, &a->cfg, u.userid, a->now);
	if (ss != STORE_OK)
		fprintf(stderr, "oustpbm: passwd %s: the password is set, but a lockout could not be ended: %s\n",
		    u.userid, store_error(a->st));
	store_log(a->st, "%s admin passwd %s", a->stamp, u.userid);
	if (shown)
		printf("%s\n", pw);
	return admin_output_done();
}
