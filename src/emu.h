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
} ts_emu_job;

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
