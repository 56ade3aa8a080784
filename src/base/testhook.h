#ifndef OUSTPBM_BASE_TESTHOOK_H
#define OUSTPBM_BASE_TESTHOOK_H

/*
 * The test hooks: the OUSTPBM_TEST_* variables of the environment
 * (OUSTPBM_TEST_TIME fixes the clock, OUSTPBM_TEST_CODE every code,
 * OUSTPBM_TEST_CRASH kills at a durable step...).  Only the build made for
 * the tests (make TEST_HOOKS=1, build/test/oustpbm: -DOUSTPBM_TEST_HOOKS)
 * reads them; in the installed program they do not exist, so nobody who
 * can set a variable in the mail handler's environment can fix its codes
 * or its clock.
 */

#include <stdbool.h>

/* The value of test variable name ("OUSTPBM_TEST_..."), NULL when unset or
 * in a build without test hooks; not to be freed. */
const char *testhook_env(const char *name);

/* Whether this build reads the test variables. */
bool testhook_enabled(void);

#endif
