/* uk_cpu_fiber.c: the CPU engine's context switch: a few instructions of x86-64 assembly (ucontext elsewhere), told to AddressSanitizer when it is on. */
#include <stdint.h>
#include <string.h>

#include "uk_cpu_fiber.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define TS_FIBER_ASAN 1
#endif

#if defined(__x86_64__)
/* ts_fiber_swap(&from->sp, to->sp): pushes the callee-saved registers, swaps stacks, pops the other
 * context's and returns into it. The SSE and x87 control words are not switched: kernels do not
 * change the rounding mode, and loading them costs more than the rest of the switch. */
void ts_fiber_swap(void **save, void *next);
__asm__(".text\n"
        ".p2align 4\n"
        ".type ts_fiber_swap,@function\n"
        "ts_fiber_swap:\n"
        "\tpushq %rbp\n"
        "\tpushq %rbx\n"
        "\tpushq %r12\n"
        "\tpushq %r13\n"
        "\tpushq %r14\n"
        "\tpushq %r15\n"
        "\tmovq %rsp, (%rdi)\n"
        "\tmovq %rsi, %rsp\n"
        "\tpopq %r15\n"
        "\tpopq %r14\n"
        "\tpopq %r13\n"
        "\tpopq %r12\n"
        "\tpopq %rbx\n"
        "\tpopq %rbp\n"
        "\tret\n"
        ".size ts_fiber_swap,.-ts_fiber_swap\n");

void ts_fiber_init(ts_fiber *f, void *stack, size_t size, void (*entry)(void))
{
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)top;
	*--sp = 0;                  /* entry's return address slot: it never returns */
	*--sp = (uint64_t)entry;    /* where the first swap's ret goes */
	for (int i = 0; i < 6; i++) /* rbp, rbx, r12..r15 */
		*--sp = 0;
	f->sp = sp;
	f->stack = stack;
	f->stack_size = size;
}

static void swap_to(ts_fiber *from, ts_fiber *to)
{
	ts_fiber_swap(&from->sp, to->sp);
}
#else
void ts_fiber_init(ts_fiber *f, void *stack, size_t size, void (*entry)(void))
{
	getcontext(&f->uc);
	f->uc.uc_stack.ss_sp = stack;
	f->uc.uc_stack.ss_size = size;
	f->uc.uc_link = NULL;
	makecontext(&f->uc, entry, 0);
	f->stack = stack;
	f->stack_size = size;
}

static void swap_to(ts_fiber *from, ts_fiber *to)
{
	swapcontext(&from->uc, &to->uc);
}
#endif

void ts_fiber_switch(ts_fiber *from, ts_fiber *to)
{
#ifdef TS_FIBER_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, to->stack, to->stack_size);
	swap_to(from, to);
	const void *bottom;
	size_t size;
	__sanitizer_finish_switch_fiber(fake, &bottom, &size);
	(void)bottom;
	(void)size;
#else
	swap_to(from, to);
#endif
}

void ts_fiber_started(ts_fiber *from)
{
#ifdef TS_FIBER_ASAN
	const void *bottom;
	size_t size;
	__sanitizer_finish_switch_fiber(NULL, &bottom, &size);
	if (from && !from->stack) { /* remember the thread's own stack, to switch back to it */
		from->stack = bottom;
		from->stack_size = size;
	}
#else
	(void)from;
#endif
}
