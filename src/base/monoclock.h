/*
 * monoclock: the monotonic clock (CLOCK_MONOTONIC), for durations and
 * deadlines within one run; never a time of day.
 */
#ifndef OUSTPBM_MONOCLOCK_H
#define OUSTPBM_MONOCLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary start. */
int64_t monoclock_ns(void);
/* Milliseconds since the same start. */
int64_t monoclock_ms(void);

#endif
