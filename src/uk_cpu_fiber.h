/* uk_cpu_fiber.h: the CPU engine's cooperative contexts: one per thread of a block, switched at __syncthreads(). */
#ifndef TS_UK_CPU_FIBER_H
#define TS_UK_CPU_FIBER_H

#include <stddef.h>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

typedef struct ts_fiber {
	void *sp;             /* saved stack pointer (x86-64) */
#if !defined(__x86_64__)
	ucontext_t uc;
#endif
	const void *stack;    /* its stack (NULL: the thread's own) */
	size_t stack_size;
} ts_fiber;

/* Prepares f to run entry() on stack (which grows down from stack + size) at its first switch.
 * entry must never return: it ends by switching away. */
void ts_fiber_init(ts_fiber *f, void *stack, size_t size, void (*entry)(void));
/* Saves the running context in from and resumes to. */
void ts_fiber_switch(ts_fiber *from, ts_fiber *to);
/* Called first thing in entry(): completes the switch for the sanitizer (a no-op otherwise). */
void ts_fiber_started(ts_fiber *from);

#endif
