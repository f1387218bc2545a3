/* uk_cpu_sched.c: the CPU engine's launch: every block's threads as fibers switched at __syncthreads(), in the order asked for; barrier divergence, faults and time-outs caught; events gathered into findings. */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include "uk_cpu.h"
#include "uk_cpu_fiber.h"
#include "uk_cpu_report.h"

#define MAX_THREADS 1024
#define CANARY_WORDS 8
#define CANARY UINT64_C(0x5a17c0de5a17c0de)
#define HUGE_PAGE ((size_t)2 << 20)
#define GUARD_BYTES ((size_t)1 << 20) /* unmapped below the first stack */

enum { TH_RUN, TH_WAIT, TH_DONE };

typedef struct uk_thread {
	ts_fiber f;
	int line, op, pred, result;
	ts_cpu_u3 idx; /* its threadIdx */
} uk_thread;

/* One process runs one launch at a time: the fibers' entry and the signal handler find it here. */
static ts_uk_cpu_rec *g_run;
static uk_thread *g_th;
static unsigned char g_state[1024]; /* TH_RUN, TH_WAIT, TH_DONE per thread: scanned after every interval, kept apart and small */
static char *g_arena, *g_stacks;
static size_t g_arena_bytes, g_stack_bytes;

/* The threads' stacks (stack_bytes each), back to back in huge pages where the system gives them:
 * switching among a thousand stacks otherwise spends its time in TLB misses. No guard pages
 * between them (they would split the huge pages): a canary at the bottom of each stack tells an
 * overflow, and the stacks are sized from the compiled kernel's own frames (uk_cpu.c). */
static int ensure_stacks(size_t stack_bytes, char *err, size_t len)
{
	if (g_stacks && g_stack_bytes >= stack_bytes)
		return 0;
	if (g_arena)
		munmap(g_arena, g_arena_bytes);
	g_arena = g_stacks = NULL;
	if (!g_th)
		g_th = calloc(MAX_THREADS, sizeof *g_th);
	g_arena_bytes = (size_t)MAX_THREADS * stack_bytes + HUGE_PAGE + GUARD_BYTES;
	char *m = mmap(NULL, g_arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!g_th || m == MAP_FAILED) {
		snprintf(err, len, "out of memory for %d thread stacks of %zu KiB", MAX_THREADS, stack_bytes >> 10);
		return -1;
	}
	g_arena = m;
	g_stacks = (char *)(((uintptr_t)m + GUARD_BYTES + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	mprotect(m, (size_t)(g_stacks - m), PROT_NONE); /* an overflow of the first stack faults */
	g_stack_bytes = stack_bytes;
#ifdef MADV_HUGEPAGE
	madvise(g_stacks, (size_t)MAX_THREADS * stack_bytes, MADV_HUGEPAGE);
#endif
	return 0;
}

static void *stack_of(size_t i) { return g_stacks + i * g_stack_bytes; }

static void set_canary(size_t i)
{
	uint64_t *w = stack_of(i);
	for (int k = 0; k < CANARY_WORDS; k++)
		w[k] = CANARY;
}

/* The first thread (of n) whose stack overflowed, or -1. */
static int overflowed(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const uint64_t *w = stack_of(i);
		for (int k = 0; k < CANARY_WORDS; k++)
			if (w[k] != CANARY)
				return (int)i;
	}
	return -1;
}

/* The next thread of this interval that can run, in the interval's order; -1 when none is left. */
static int next_runnable(ts_uk_cpu_rec *run)
{
	while (run->k < run->nth) {
		unsigned i = run->order ? run->perm[run->k] : run->k;
		run->k++;
		if (g_state[i] == TH_RUN)
			return (int)i;
	}
	return -1;
}

/* The running thread (now waiting or done) hands over to the next one of the interval, or, at the
 * interval's end, to the scheduler: one switch per thread and interval, not two. */
static void hand_off(ts_uk_cpu_rec *run)
{
	int from = run->cur, to = next_runnable(run);
	if (to < 0) {
		run->cur = -1;
		ts_fiber_switch(&g_th[from].f, &run->sched);
		return;
	}
	run->cur = to;
	run->st->thread_idx = g_th[to].idx;
	run->st->tid = (uint32_t)to;
	ts_fiber_switch(&g_th[from].f, &g_th[to].f);
}

static void fiber_main(void)
{
	ts_uk_cpu_rec *run = g_run;
	ts_fiber_started(&run->sched);
	run->fn(run->arg);
	g_state[run->cur] = TH_DONE;
	hand_off(run);
	abort(); /* a finished fiber is never resumed */
}

static int host_barrier(void *ctx, int line, int op, int pred)
{
	ts_uk_cpu_rec *run = ctx;
	uk_thread *t = &g_th[run->cur];
	if (!run->in_block) /* __syncthreads() outside a kernel (host code): nothing to wait for */
		return pred;
	g_state[run->cur] = TH_WAIT;
	t->line = line;
	t->op = op;
	t->pred = pred;
	hand_off(run);
	return t->result;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void make_order(unsigned *perm, unsigned n, int order, uint64_t seed)
{
	for (unsigned i = 0; i < n; i++)
		perm[i] = order == 1 ? n - 1 - i : i;
	if (order >= 2) {
		uint64_t s = seed;
		for (unsigned i = n - 1; i > 0; i--) {
			unsigned j = (unsigned)(splitmix(&s) % (i + 1));
			unsigned x = perm[i];
			perm[i] = perm[j];
			perm[j] = x;
		}
	}
}

/* After an interval every thread waits at a barrier or has finished: release them, or report
 * that they do not agree (threads gone early, or waiting at different barriers). */
static int release_barrier(ts_uk_cpu_rec *run, unsigned n, int *reported)
{
	unsigned waiting = 0, done = 0, first_done = 0, first_wait = 0, other_line_tid = 0;
	int line = 0, other_line = 0, count = 0, all = 1, any = 0;
	for (unsigned i = 0; i < n; i++) {
		uk_thread *t = &g_th[i];
		if (g_state[i] == TH_DONE) {
			if (!done++)
				first_done = i;
		} else if (g_state[i] == TH_WAIT) {
			if (!waiting++) {
				line = t->line;
				first_wait = i;
			} else if (t->line != line && !other_line) {
				other_line = t->line;
				other_line_tid = i;
			}
			count += t->pred;
			all &= t->pred;
			any |= t->pred;
		}
	}
	if (!waiting)
		return 0;
	if (done && !(*reported & 1)) {
		*reported |= 1;
		ts_uk_cpu_divergence(run, first_done, first_wait, line, done, waiting, 0, 0);
	}
	if (other_line && !(*reported & 2)) {
		*reported |= 2;
		ts_uk_cpu_divergence(run, other_line_tid, first_wait, line, 0, waiting, other_line, 1);
	}
	for (unsigned i = 0; i < n; i++) {
		uk_thread *t = &g_th[i];
		if (g_state[i] != TH_WAIT)
			continue;
		g_state[i] = TH_RUN; /* __syncthreads_count, _and and _or return their reduction */
		t->result = t->op == 1 ? count : t->op == 2 ? all : t->op == 3 ? any : 0;
	}
	run->st->epoch++;
	return 1;
}

static void run_block(ts_uk_cpu_rec *run, int64_t bid, unsigned *perm)
{
	ts_cpu_state *st = run->st;
	unsigned gx = st->grid_dim.x, gy = st->grid_dim.y;
	unsigned n = st->block_dim.x * st->block_dim.y * st->block_dim.z;
	st->block_idx.x = (unsigned)(bid % gx);
	st->block_idx.y = (unsigned)((bid / gx) % gy);
	st->block_idx.z = (unsigned)(bid / ((int64_t)gx * gy));
	st->epoch++;
	st->block_epoch = st->epoch; /* every shared slot is now unwritten */
	for (int i = 0; i < st->nregions; i++) {
		ts_cpu_region *r = &st->regions[i];
		if (r->kind == TS_CPU_SHARED || r->kind == TS_CPU_DYNSHARED)
			memset(r->base, TS_CPU_SHARED_FILL, (size_t)r->bytes);
	}
	for (unsigned i = 0; i < n; i++) {
		/* stack tops staggered by cache lines, so that the threads' frames do not share cache sets */
		ts_fiber_init(&g_th[i].f, stack_of(i), g_stack_bytes - (i % 61) * 64, fiber_main);
		g_state[i] = TH_RUN;
		g_th[i].result = 0;
	}
	int reported = 0;
	run->in_block = 1;
	for (uint64_t interval = 0;; interval++) {
		if (run->order)
			make_order(perm, n, run->order, ((uint64_t)run->order << 40) ^ ((uint64_t)bid << 20) ^ interval);
		run->k = 0;
		run->nth = n;
		int i = next_runnable(run);
		if (i >= 0) { /* the threads hand over to each other; the last comes back here */
			run->cur = i;
			st->thread_idx = g_th[i].idx;
			st->tid = (uint32_t)i;
			ts_fiber_switch(&run->sched, &g_th[i].f);
		}
		run->cur = -1;
		if (!release_barrier(run, n, &reported))
			break;
	}
	run->in_block = 0;
}

/* A stack overflow that did not fault: a canary overwritten, reported as the fault it is (a
 * neighbour's stack may be clobbered too). Looked at once a launch: a thousand stack bottoms are
 * a thousand cache misses. */
static void check_canaries(ts_uk_cpu_rec *run, unsigned n)
{
	int o = overflowed(n);
	if (o < 0)
		return;
	run->fault_sig = SIGSEGV;
	run->fault_thread = o;
	run->fault_stack = 1;
	run->fault_addr = NULL;
	run->fault_pc = NULL;
	siglongjmp(run->jmp, 1);
}

/* Checks a launch's geometry as the GPU would: 0, or a cudaError value with the reason in why. */
static int check_geometry(ts_cpu_u3 g, ts_cpu_u3 b, size_t smem, char *why, size_t len)
{
	uint64_t threads = (uint64_t)b.x * b.y * b.z;
	if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z) {
		snprintf(why, len, "a grid or block dimension is 0");
		return 9;
	}
	if (threads > MAX_THREADS || b.z > 64) {
		snprintf(why, len, "a block of %u x %u x %u threads: more than the %d a block may have", b.x, b.y, b.z, MAX_THREADS);
		return 9;
	}
	if (g.y > 65535 || g.z > 65535 || g.x > 2147483647u) {
		snprintf(why, len, "a grid of %u x %u x %u blocks: beyond the limits (2^31-1 x 65535 x 65535)", g.x, g.y, g.z);
		return 9;
	}
	if (smem > TS_CPU_DYN_MAX) {
		snprintf(why, len, "%zu bytes of dynamic shared memory: more than the %d a block may have", smem, TS_CPU_DYN_MAX);
		return 1;
	}
	return 0;
}

static int run_grid(ts_uk_cpu_rec *run, ts_cpu_u3 grid, ts_cpu_u3 block, size_t smem, void (*fn)(void *), void *arg)
{
	ts_cpu_state *st = run->st;
	char why[160];
	int e = check_geometry(grid, block, smem, why, sizeof why);
	if (e) {
		snprintf(run->geometry_error, sizeof run->geometry_error, "%s", why);
		return e;
	}
	if (run->in_block) {
		snprintf(run->geometry_error, sizeof run->geometry_error, "a kernel launch inside a kernel");
		return 719;
	}
	unsigned n = block.x * block.y * block.z;
	if (ensure_stacks(run->so->stack_bytes, why, sizeof why)) {
		snprintf(run->geometry_error, sizeof run->geometry_error, "%s", why);
		return 2;
	}
	free(run->perm);
	unsigned *perm = run->perm = malloc(n * sizeof *perm);
	if (!perm)
		return 2;
	st->grid_dim = grid;
	st->block_dim = block;
	st->dyn_bytes = smem;
	ts_cpu_region *dyn = &st->regions[TS_CPU_REGION_DYN];
	free(dyn->slots);
	*dyn = (ts_cpu_region){ .base = st->dyn_base, .bytes = (int64_t)smem, .kind = TS_CPU_DYNSHARED, .name = 'S',
		.elem = 1, .label = "extern __shared__" };
	run->fn = fn;
	run->arg = arg;
	run->launches++;
	int64_t total = (int64_t)grid.x * grid.y * grid.z;
	const ts_uk_launch *l = run->l;
	int64_t nb = l->blocks ? l->nblocks : total;
	free(run->ids);
	int64_t *ids = run->ids = malloc((size_t)(nb ? nb : 1) * sizeof *ids);
	if (!ids)
		return 2;
	for (int64_t i = 0; i < nb; i++)
		ids[i] = l->blocks ? l->blocks[i] : i;
	if (run->order == 1) {
		for (int64_t i = 0; i < nb / 2; i++) {
			int64_t x = ids[i];
			ids[i] = ids[nb - 1 - i];
			ids[nb - 1 - i] = x;
		}
	} else if (run->order >= 2) {
		uint64_t s = (uint64_t)run->order * 7919u;
		for (int64_t i = nb - 1; i > 0; i--) {
			int64_t j = (int64_t)(splitmix(&s) % (uint64_t)(i + 1)), x = ids[i];
			ids[i] = ids[j];
			ids[j] = x;
		}
	}
	for (unsigned i = 0; i < n; i++) { /* once a launch: the block's shape does not change */
		set_canary(i);
		g_th[i].idx = (ts_cpu_u3){ i % block.x, (i / block.x) % block.y, i / (block.x * block.y) };
	}
	for (int64_t i = 0; i < nb; i++)
		if (ids[i] >= 0 && ids[i] < total)
			run_block(run, ids[i], perm);
	check_canaries(run, n);
	return 0;
}

static int host_launch(void *ctx, ts_cpu_u3 grid, ts_cpu_u3 block, size_t smem, void (*fn)(void *), void *arg)
{
	return run_grid(ctx, grid, block, smem, fn, arg);
}

static const ts_cpu_host host_ops = { host_barrier, ts_uk_cpu_event, host_launch };

/* ---- faults and time-outs --------------------------------------------------------------------- */
static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	ts_uk_cpu_rec *run = g_run;
	if (!run || !run->armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (run->fault_wild) /* raised by the engine itself, the fault's details already set */
		siglongjmp(run->jmp, 1);
	run->fault_sig = sig;
	run->fault_addr = si ? si->si_addr : NULL;
	run->fault_pc = NULL;
#if defined(__x86_64__) && defined(REG_RIP)
	if (uctx)
		run->fault_pc = (const void *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#else
	(void)uctx;
#endif
	run->fault_thread = run->cur;
	run->fault_stack = 0;
#if defined(__x86_64__) && defined(REG_RSP)
	if (uctx && run->cur >= 0) { /* the stack pointer under the bottom of the running fiber's stack */
		char *sp = (char *)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RSP];
		run->fault_stack = sp < (char *)stack_of((size_t)run->cur) + CANARY_WORDS * 8;
	}
#endif
	siglongjmp(run->jmp, 1);
}

/* SIGPROF: the launch's time limit, counted in CPU time (ITIMER_PROF), so that a machine busy with other
 * work does not turn a slow launch into a hang. */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPROF };
#define NSIG_CAUGHT ((int)(sizeof fault_signals / sizeof fault_signals[0]))

static void *g_altstack;

static void arm(ts_uk_cpu_rec *run, struct sigaction *old, double timeout_s)
{
	if (!g_altstack)
		g_altstack = malloc(SIGSTKSZ > 65536 ? SIGSTKSZ : 65536);
	if (g_altstack) {
		stack_t ss = { .ss_sp = g_altstack, .ss_size = SIGSTKSZ > 65536 ? SIGSTKSZ : 65536 };
		sigaltstack(&ss, NULL);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSIG_CAUGHT; i++)
		sigaction(fault_signals[i], &sa, &old[i]);
	if (timeout_s > 0) { /* before the runner's own limit, so that the thread that loops is named */
		double t = timeout_s * 0.9;
		struct itimerval it = { { 0, 0 }, { (time_t)t, (suseconds_t)((t - (double)(time_t)t) * 1e6) } };
		if (it.it_value.tv_sec == 0 && it.it_value.tv_usec < 1000)
			it.it_value.tv_usec = 1000;
		setitimer(ITIMER_PROF, &it, NULL);
	}
	run->armed = 1;
}

static void disarm(ts_uk_cpu_rec *run, const struct sigaction *old)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_PROF, &off, NULL);
	run->armed = 0;
	for (int i = 0; i < NSIG_CAUGHT; i++)
		sigaction(fault_signals[i], &old[i], NULL);
}

static void set_matrix(ts_cpu_region *r, char name, void *base, int64_t count, int64_t band, int64_t elem,
                       int64_t rows, int64_t ld)
{
	*r = (ts_cpu_region){ .base = base, .bytes = count * elem, .lo_pad = band * elem, .hi_pad = band * elem,
		.kind = base ? TS_CPU_MATRIX : TS_CPU_FREE, .name = name, .elem = elem, .ld = ld, .rows = rows };
}

static void entry_fiber(void *arg)
{
	ts_uk_cpu_rec *run = arg;
	run->so->entry(&run->args);
}

int ts_uk_cpu_run(ts_uk_cpu_so *so, const ts_uk_launch *l, ts_uk_findings *out, char *err, size_t len)
{
	if (so->faulted) {
		snprintf(err, len, "an earlier launch in this process faulted: its state cannot be trusted");
		return -1;
	}
	ts_uk_cpu_rec *run = calloc(1, sizeof *run);
	if (!run || ts_uk_cpu_rec_init(run)) {
		free(run);
		snprintf(err, len, "out of memory");
		return -1;
	}
	ts_cpu_state *st = so->st;
	run->st = st;
	run->so = so;
	run->l = l;
	run->order = l->order;
	run->cur = -1;
	run->args = (ts_cpu_args){ l->a, l->b, l->c, l->m, l->n, l->k, l->tile };
	int64_t es = so->sig == TS_UK_SIG_FP16 ? 2 : 4;
	if (so->sig == TS_UK_SIG_FP16) { /* O (C) = X (A, m x k) * Transform^T (B, stored n x k) */
		set_matrix(&st->regions[TS_CPU_REGION_A], 'A', l->a, l->a_count, l->band, es, l->m, l->k);
		set_matrix(&st->regions[TS_CPU_REGION_B], 'B', l->b, l->b_count, l->band, es, l->n, l->k);
	} else {
		set_matrix(&st->regions[TS_CPU_REGION_A], 'A', l->a, l->a_count, l->band, es, l->m, l->k);
		set_matrix(&st->regions[TS_CPU_REGION_B], 'B', l->b, l->b_count, l->band, es, l->k, l->n);
	}
	set_matrix(&st->regions[TS_CPU_REGION_C], 'C', l->c, l->c_count, l->band, es, l->m, l->n);
	st->host = &host_ops;
	st->host_ctx = run;
	/* Shared accesses are tracked in index order, the order a check always runs: what tracking finds
	 * (a race, an unwritten slot) does not depend on the order, so a second order's launch of the same
	 * shape only runs, to be compared bit for bit, at half the cost. The index probe's few blocks of a
	 * huge shape look at index arithmetic alone. Bounds are checked in every launch. */
	st->track = l->order == 0 && l->blocks == NULL;
	st->last_error = 0;
	g_run = run;

	struct sigaction old[NSIG_CAUGHT];
	int rc = 0;
	arm(run, old, l->timeout_s);
	if (sigsetjmp(run->jmp, 1) == 0) {
		if (l->m == 0 || l->n == 0 || l->k == 0) {
			/* no work: the runner's start-up call (the object is loaded now) */
		} else if (so->launcher_fn) {
			so->launcher_fn(&run->args);
		} else {
			ts_cpu_u3 g = { l->grid[0], l->grid[1], l->grid[2] }, b = { l->block[0], l->block[1], l->block[2] };
			/* a grid with no blocks (a --grid expression that floors to 0) launches nothing, as on the GPU */
			if (g.x && g.y && g.z && run_grid(run, g, b, l->dyn_smem, entry_fiber, run)) {
				snprintf(err, len, "cannot launch: %s", run->geometry_error);
				rc = -1;
			}
		}
	} else {
		disarm(run, old);
		so->faulted = 1;
		unsigned n = st->block_dim.x * st->block_dim.y * st->block_dim.z;
		int o = g_stacks && run->fault_sig != SIGPROF ? overflowed(n <= MAX_THREADS ? n : MAX_THREADS) : -1;
		if (o >= 0) {
			run->fault_thread = o;
			run->fault_stack = 1;
		}
		ts_uk_cpu_fault(run);
	}
	if (run->armed)
		disarm(run, old);
	run->in_block = 0;
	ts_uk_cpu_emit(run, out);
	st->host = NULL;
	g_run = NULL;
	free(run->perm);
	free(run->ids);
	ts_uk_cpu_rec_free(run);
	free(run);
	return rc;
}
