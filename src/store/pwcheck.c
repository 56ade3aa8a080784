/* pwcheck: a password check on a second thread (see pwcheck.h). */
#include "store/pwcheck.h"

#include <sched.h>
#include <string.h>

static void *check(void *arg)
{
	struct pwcheck *pc = arg;

	bool right;

	if (store_user_check_password(&pc->user, pc->password, &right) != STORE_OK)
		pc->verdict = PWCHECK_FAILED;
	else
		pc->verdict = right ? PWCHECK_RIGHT : PWCHECK_WRONG;
	return NULL;
}

/*
 * Start the check on a CPU other than this one when there is one: Linux
 * wakes a new thread on its creator's CPU, where it waited until the
 * creator blocked, and the overlap was lost (measured: about 0.4 ms of a
 * move).  Without the affinity call, or on one CPU, the thread goes where
 * the scheduler puts it.
 */
static bool start_thread(struct pwcheck *pc)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int cpu = sched_getcpu();
	bool started;

	if (pthread_attr_init(&attr) != 0)
		return pthread_create(&pc->thread, NULL, check, pc) == 0;
	if (cpu >= 0 && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_ISSET(cpu, &set) &&
	    CPU_COUNT(&set) > 1) {
		CPU_CLR(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof set, &set);	/* failing, it runs unpinned */
	}
	started = pthread_create(&pc->thread, &attr, check, pc) == 0;
	pthread_attr_destroy(&attr);
	return started;
}

void pwcheck_start(struct pwcheck *pc, const struct store_user *user, const char *password)
{
	size_t n = strnlen(password, sizeof pc->password);

	pc->started = true;
	pc->running = false;
	pc->verdict = PWCHECK_WRONG;
	pc->user = *user;
	if (n >= sizeof pc->password)
		return;		/* longer than any password: never a match */
	memcpy(pc->password, password, n + 1);
	if (start_thread(pc))
		pc->running = true;
	else
		check(pc);	/* no thread to be had: the same check, now */
}

bool pwcheck_pending(const struct pwcheck *pc)
{
	return pc->started;
}

enum pwcheck_verdict pwcheck_result(struct pwcheck *pc)
{
	if (pc->running) {
		pthread_join(pc->thread, NULL);
		pc->running = false;
	}
	return pc->started ? pc->verdict : PWCHECK_WRONG;
}

void pwcheck_release(struct pwcheck *pc)
{
	pwcheck_result(pc);
	explicit_bzero(pc->password, sizeof pc->password);
	pc->started = false;
	pc->verdict = PWCHECK_WRONG;
}
