/* monoclock: the monotonic clock (monoclock.h). */
#include "base/monoclock.h"

#include <time.h>

int64_t monoclock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t monoclock_ms(void)
{
	return monoclock_ns() / 1000000;
}
