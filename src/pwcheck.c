/* pwcheck: a password check on a second thread (see pwcheck.h). */
#include "pwcheck.h"

#include <string.h>

static void *check(void *arg)
{
	struct pwcheck *pc = arg;

	pc->verdict = store_user_check_password(&pc->user, pc->password);
	return NULL;
}

void pwcheck_start(struct pwcheck *pc, const struct store_user *user, const char *password)
{
	size_t n = strnlen(password, sizeof pc->password);

	pc->started = true;
	pc->running = false;
	pc->verdict = false;
	pc->user = *user;
	if (n >= sizeof pc->password)
		return;		/* longer than any password: never a match */
	memcpy(pc->password, password, n + 1);
	if (pthread_create(&pc->thread, NULL, check, pc) == 0)
		pc->running = true;
	else
		check(pc);	/* no thread to be had: the same check, now */
}

bool pwcheck_pending(const struct pwcheck *pc)
{
	return pc->started;
}

bool pwcheck_result(struct pwcheck *pc)
{
	if (pc->running) {
		pthread_join(pc->thread, NULL);
		pc->running = false;
	}
	return pc->started && pc->verdict;
}

void pwcheck_release(struct pwcheck *pc)
{
	pwcheck_result(pc);
	explicit_bzero(pc->password, sizeof pc->password);
	pc->started = false;
	pc->verdict = false;
}
