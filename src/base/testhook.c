/* The test hooks' one gate (testhook.h): this file alone is compiled twice. */
#include "base/testhook.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const char *testhook_env(const char *name)
{
	assert(strncmp(name, "OUSTPBM_TEST_", 13) == 0);
#ifdef OUSTPBM_TEST_HOOKS
	return getenv(name);
#else
	(void)name;
	return NULL;
#endif
}

bool testhook_enabled(void)
{
#ifdef OUSTPBM_TEST_HOOKS
	return true;
#else
	return false;
#endif
}
