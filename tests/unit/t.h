/*
 * t.h: the unit tests' few macros.  Each check prints one line, "ok N - what"
 * or "not ok N - what (file:line)", as TAP does; tests/run-tests counts them.
 * t_done() prints the plan and returns the exit status.
 */
#ifndef OUSTPBM_T_H
#define OUSTPBM_T_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int t_n, t_fail;

static void t_report(int pass, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void t_report(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	t_n++;
	if (!pass)
		t_fail++;
	printf("%sok %d - ", pass ? "" : "not ", t_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!pass)
		printf(" (%s:%d)", file, line);
	putchar('\n');
	fflush(stdout);
}

/* ok(condition, "description %d", ...) */
#define ok(cond, ...) t_report(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Compare strings; on a mismatch show both. */
#define ok_str(got, want, ...) do { \
	const char *t_g_ = (got), *t_w_ = (want); \
	int t_p_ = t_g_ && t_w_ && strcmp(t_g_, t_w_) == 0; \
	t_report(t_p_, __FILE__, __LINE__, __VA_ARGS__); \
	if (!t_p_) \
		printf("# got:\n%s\n# want:\n%s\n", t_g_ ? t_g_ : "(null)", t_w_ ? t_w_ : "(null)"); \
} while (0)

#define ok_int(got, want, ...) do { \
	long t_g_ = (long)(got), t_w_ = (long)(want); \
	t_report(t_g_ == t_w_, __FILE__, __LINE__, __VA_ARGS__); \
	if (t_g_ != t_w_) \
		printf("# got %ld, want %ld\n", t_g_, t_w_); \
} while (0)

static inline int t_done(void)
{
	printf("1..%d\n", t_n);
	return t_fail ? 1 : 0;
}

#endif
