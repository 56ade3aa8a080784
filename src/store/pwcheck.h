/*
 * pwcheck: a password check that runs on a second thread.  A yescrypt check
 * takes about a millisecond, as long as the rest of a move together; the mail
 * processor starts it as soon as it knows the user, goes on reading the board
 * and preparing the turn, and asks for the verdict before anything is
 * committed or answered, so a mail costs the longer of the two, not their sum.
 *
 *   struct pwcheck pc = PWCHECK_INIT;
 *   pwcheck_start(&pc, &user, password);
 *   ... work that changes nothing durable ...
 *   if (pwcheck_result(&pc) != PWCHECK_RIGHT) refuse (or try later);
 *   pwcheck_release(&pc);
 *
 * The thread only hashes (store_user_check_password, crypt_r with its own
 * data); it touches nothing else.  If no thread can be started the check runs
 * at once in pwcheck_start: same verdict, no overlap.
 */
#ifndef OUSTPBM_PWCHECK_H
#define OUSTPBM_PWCHECK_H

#include <pthread.h>
#include <stdbool.h>

#include "store/store.h"

enum pwcheck_verdict {
	PWCHECK_WRONG = 0,	/* no match, or never started */
	PWCHECK_RIGHT,
	PWCHECK_FAILED		/* the hash could not be computed: try again later */
};

struct pwcheck {
	pthread_t thread;
	bool running;		/* started and not yet joined */
	bool started;		/* pwcheck_start was called */
	enum pwcheck_verdict verdict;	/* valid once joined */
	struct store_user user;
	char password[STORE_PASSWORD_MAX + 2];
};

#define PWCHECK_INIT { .running = false, .started = false, .verdict = PWCHECK_WRONG }

/* Start checking password against user's hash (both are copied). */
void pwcheck_start(struct pwcheck *pc, const struct store_user *user, const char *password);

/* True if pc was started and not yet released. */
bool pwcheck_pending(const struct pwcheck *pc);

/* Wait for the check and return its verdict (PWCHECK_WRONG if never started). */
enum pwcheck_verdict pwcheck_result(struct pwcheck *pc);

/* Wait for the check if it runs, and wipe the copied password. */
void pwcheck_release(struct pwcheck *pc);

#endif
