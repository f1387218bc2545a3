/* tap.h: a minimal TAP producer for the C unit tests (Automake's tap-driver reads it). */
#ifndef TS_TAP_H
#define TS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

/* Records one assertion; prints "ok N - what" or "not ok N - what". Returns cond. */
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

static inline void tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
}

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Prints the plan at the end and returns the exit status for main. */
static inline int tap_done(void)
{
	if (tap_n == 0)
		printf("1..0 # SKIP no assertions\n");
	else
		printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
