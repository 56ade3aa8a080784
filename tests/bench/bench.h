/*
 * bench.h: what the benchmark programs share: a seedable random number
 * generator (xorshift64*, so every run plays the same games), a
 * monotonic clock in seconds, and the process's CPU time in seconds (for
 * the benchmarks of work that does not wait: other processes on a busy
 * machine do not count in it).
 */
#ifndef OUSTPBM_BENCH_H
#define OUSTPBM_BENCH_H

#include <stdint.h>
#include <time.h>

static uint64_t bench_rng = 0x9e3779b97f4a7c15ULL; /* any non-zero seed */

static inline uint32_t bench_random(void)
{
	bench_rng ^= bench_rng >> 12;
	bench_rng ^= bench_rng << 25;
	bench_rng ^= bench_rng >> 27;
	return (uint32_t)((bench_rng * 2685821657736338717ULL) >> 32);
}

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline double bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
