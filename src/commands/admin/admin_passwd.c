/* admin_passwd: oustpbm passwd [--stdin] USERID, a new password; the passwords of adduser too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/msg.h"
#include "commands/admin/admincmd.h"
#include "store/throttle.h"

#define PASSWORD_LEN 12		/* characters of a generated password: about 69 bits */

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
static enum process_status read_password(char pw[ADMIN_PASSWORD_LINE])
{
	size_t n;

	if (fgets(pw, ADMIN_PASSWORD_LINE, stdin) == NULL) {
		msg_warn("--stdin: no password on standard input");
		return PROCESS_DATAERR;
	}
	n = strlen(pw);
	if (n > 0 && pw[n - 1] != '\n' && !feof(stdin)) {
		msg_warn("a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		return PROCESS_DATAERR;
	}
	while (n > 0 && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
		pw[--n] = '\0';
	if (!store_password_ok(pw)) {
		msg_warn("a password is 1 to %d printable ASCII characters without spaces",
		    STORE_PASSWORD_MAX);
		return PROCESS_DATAERR;
	}
	return PROCESS_OK;
}

/* The password for adduser/passwd: from stdin with --stdin, else generated (*shown true). */
enum process_status admin_password_get(bool from_stdin, char pw[ADMIN_PASSWORD_LINE], bool *shown)
{
	*shown = !from_stdin;
	if (from_stdin)
		return read_password(pw);
	if (!generate_password(pw)) {
		msg_warn("no random numbers for a password");
		return PROCESS_SOFTWARE;
	}
	return PROCESS_OK;
}

enum process_status admin_passwd_run(struct admin *a)
{
	char pw[ADMIN_PASSWORD_LINE];
	bool from_stdin = false, shown;
	enum process_status as;
	enum store_status ss;
	struct store_user u;
	char **args = a->args;
	int n = a->nargs;

	if (n > 0 && strcmp(args[0], "--stdin") == 0)
		from_stdin = true, args++, n--;
	if (n != 1)
		return admin_usage_error();
	ss = store_user_find(a->srv.st, args[0], &u);
	if (ss != STORE_OK) {
		if (ss == STORE_NOT_FOUND)
			store_complain(a->srv.st, "there is no user %s", args[0]);
		else
			store_complain(a->srv.st, "passwd %s: %s", args[0], store_error(a->srv.st));
		return admin_of_store(ss);
	}
	as = admin_password_get(from_stdin, pw, &shown);
	if (as != PROCESS_OK)
		return as;
	ss = store_user_set_password(a->srv.st, u.userid, pw, NULL);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "passwd %s: %s", u.userid, store_error(a->srv.st));
		return admin_of_store(ss);
	}
	/* a new password ends a lockout for guessing (throttle.h) */
	ss = throttle_clear(a->srv.st, &a->srv.cfg, u.userid, a->srv.now);
	if (ss != STORE_OK)
		msg_warn("passwd %s: the password is set, but a lockout could not be ended: %s",
		    u.userid, store_error(a->srv.st));
	store_log(a->srv.st, "%s admin passwd %s", a->srv.stamp, u.userid);
	if (shown)
		printf("%s\n", pw);
	return admin_output_done();
}
