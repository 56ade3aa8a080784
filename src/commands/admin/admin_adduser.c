/* admin_adduser: oustpbm adduser [--stdin] USERID ADDRESS [NAME...], an account made by the admin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/ident.h"
#include "base/msg.h"
#include "commands/admin/admincmd.h"

#define NAME_MAX_IN (STORE_FULLNAME_MAX + 1)


enum process_status admin_adduser_run(struct admin *a)
{
	char pw[ADMIN_PASSWORD_LINE], name[NAME_MAX_IN * 2];
	bool from_stdin = false, shown;
	enum process_status as;
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
		store_complain(a->srv.st, "'%s' is not a user id (1 to %d of a-z 0-9 _ -, starting with a letter "
		    "or digit)", args[0], IDENT_USERID_MAX);
		return PROCESS_DATAERR;
	}
	if (game_user_is_robot(args[0])) {
		msg_warn("the user id %s is the built-in robot player's", GAME_ROBOT_USERID);
		return PROCESS_EXISTS;
	}
	if (!mailaddr_deliverable(args[1], &why)) {
		store_complain(a->srv.st, "address '%s' %s", args[1], why);
		return PROCESS_DATAERR;
	}
	/* the full name is the other words joined by spaces */
	name[0] = '\0';
	for (i = 2; i < n; i++) {
		int w = snprintf(name + len, sizeof name - len, "%s%s", i > 2 ? " " : "", args[i]);

		if (w < 0 || (size_t)w >= sizeof name - len) {
			store_complain(a->srv.st, "the full name is longer than %d characters", IDENT_FULLNAME_MAX);
			return PROCESS_DATAERR;
		}
		len += (size_t)w;
	}
	as = admin_password_get(from_stdin, pw, &shown);
	if (as != PROCESS_OK)
		return as;
	ss = store_user_add(a->srv.st, args[0], args[1], pw, name);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "adduser %s: %s", args[0], store_error(a->srv.st));
		return admin_of_store(ss);
	}
	store_log(a->srv.st, "%s admin adduser %s <%s>", a->srv.stamp, args[0], args[1]);
	if (shown)
		printf("%s\n", pw);
	return admin_output_done();
}
