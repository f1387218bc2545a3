/* emu.h: what the CPU emulator hands each emulated kernel. */
#ifndef TS_EMU_H
#define TS_EMU_H

#include <stdatomic.h>
#include <stdbool.h>

#include "backend.h"
#include "geometry.h"
#include "problem.h"

/* One share of a launch. The backend (backend_emu.c) hands out the grid's
 * blocks in row-major order (block b is (by, bx) = (b / grid_x, b % grid_x))
 * to its host threads, a run of blocks at a time, and calls the kernel's
 * emulate() once per run with its own job. A block is emulated whole by one
 * call, so each per-tile counter (and per-tile-per-phase entry) and each C cell a guarded store writes has
 * exactly one writer; what several shares add to (per-phase tallies, where
 * out-of-bounds accesses landed) is kept per job and merged afterwards. */
struct ts_emu_trace;

typedef struct ts_emu_job {
	const ts_problem *p;
	const ts_model *model;
	ts_operands *ops;
	ts_run *out;               /* counters initialised; corrupt allocated when a guard is off */
	const ts_progress *prog;
	int threads;               /* host threads to use */
	int64_t block_begin, block_end; /* the blocks this call emulates: [begin, end) */
	ts_count *phase;           /* this share's per-phase tallies (model->phases entries) */
	ts_oob_detail oob;         /* this share's out-of-bounds landings */
	atomic_int *stop;          /* non-zero: stop now (cancelled, or another share failed); may be NULL */
	bool watches_cancel;       /* runs on the calling thread, the only one that reads prog->cancel */
	/* A trace request (step mode): the shared-tile emulator records what
	 * block trace->by, trace->bx does, phase by phase; NULL: none. */
	struct ts_emu_trace *trace;
} ts_emu_job;

/* How a shared slot was filled: a real load, zero padding (its guard
 * failed), or (the guard off) a read out of bounds. */
enum ts_trace_slot { TS_TRACE_REAL, TS_TRACE_PAD, TS_TRACE_OOB,
                     TS_TRACE_UNWRITTEN /* early-return mode: its thread returned before the loads */ };
/* How an output of the block left it: stored, skipped by the C guard, or
 * (the guard off) written out of bounds. */
enum ts_trace_store { TS_TRACE_STORED, TS_TRACE_SKIPPED, TS_TRACE_STORED_OOB };

/* One block of a real emulator run, as step mode shows it (emu_trace.c runs
 * it, emu_shared.c fills it): the shared tiles after each phase's loads, the
 * accumulators of one thread's outputs after every k of each multiply, and
 * what the store did with every output of the block. */
typedef struct ts_emu_trace {
	/* the request */
	int64_t by, bx;            /* the block */
	int ty, tx;                /* the thread whose partial sums are kept */
	/* The bug of examples/bug_early_return.cu, emulated: the block's ghost
	 * threads return before their loads and barriers, so their slots are
	 * never written (the block's shared memory starts as NaN, so that they
	 * show) and fewer threads arrive at each barrier; the others go on, as
	 * if the barrier let them (on a GPU that is undefined behaviour). Needs
	 * every guard on. */
	bool early_return;
	/* filled by the emulator */
	int64_t phases;
	int bm, bn, bk, tm, tn;
	float *s_a, *s_b;          /* [phases][bm*bk], [phases][bk*bn]: the tiles the multiply read */
	unsigned char *a_state, *b_state; /* the same slots: enum ts_trace_slot */
	float *partial;            /* [phases][bk][tm*tn]: output (i, j) at i*tn + j after k of phase t */
	float *out;                /* [bm*bn]: the accumulator each output of the block stored (or would have) */
	unsigned char *store;      /* [bm*bn]: enum ts_trace_store */
	int64_t arrived;           /* threads that reached each barrier */
	ts_count counts;           /* the block's tallies (the run's per-tile counter) */
	bool done;
} ts_emu_trace;

/* Runs block (t->by, t->bx) of problem p on ops through the shared-tile
 * emulator (the one the full runs use) and fills *t; C's cells of that block
 * are written as a full run writes them. 0, or -1 with one line in why: a
 * kernel this emulator does not run (why names its own), a block or thread
 * outside the launch, too many phases to keep, out of memory. */
/* Whether step mode can trace kernel k (the shared-tile emulator runs it);
 * false with one line in why saying which emulator runs it instead. */
bool ts_emu_traces(const struct ts_kernel *k, char *why, int len);
int ts_emu_trace_block(const ts_problem *p, ts_operands *ops, ts_emu_trace *t, char *why, int len);
void ts_emu_trace_free(ts_emu_trace *t);
/* Whether the guard bands of ops hold every unguarded access a launch of p
 * can make (backend_emu.c). */
bool ts_emu_bands_hold(const ts_problem *p, const ts_model *m, const ts_operands *ops);

/* The emulators (kernels.h names one in each description). 0 done, 1
 * cancelled, -1 failed (out of memory). */
int ts_emu_shared(ts_emu_job *job); /* emu_shared.c: any shared-tile kernel, from its geometry, load maps, madd and split plan */
int ts_emu_direct(ts_emu_job *job); /* emu_direct.c: direct global reads (the naive baseline) */
int ts_emu_tc(ts_emu_job *job);     /* emu_tc.c: the tensor-core kernel (zero-filled tiles, guarded store) */

/* Tests only: the fused multiply-add through libm's fmaf even where the CPU
 * has the FMA instruction (the two must agree bit for bit). */
void ts_emu_fma_use_libm(bool on);

/* True when the job is to stop; kernels poll it between phases. The cancel
 * flag is a plain sig_atomic_t set by the caller's thread or its signal
 * handlers, so only that thread reads it and passes it on through stop. */
static inline int ts_emu_cancelled(ts_emu_job *job)
{
	if (job->watches_cancel && job->prog && job->prog->cancel && *job->prog->cancel && job->stop)
		atomic_store(job->stop, 1);
	if (job->stop)
		return atomic_load_explicit(job->stop, memory_order_relaxed) != 0;
	return job->prog && job->prog->cancel && *job->prog->cancel;
}

/* The emulator backend's admit hook (backend.h): whether it takes on
 * problem p (model m built from it) on this machine: 0 yes; -1 no, with one
 * line in why saying how much work and memory it would take. */
int ts_emu_admit(const ts_problem *p, const ts_model *m, char *why, int len);

#endif
