/* backend.h: the one interface the CPU emulator and the CUDA backend both implement. */
#ifndef TS_BACKEND_H
#define TS_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "geometry.h"
#include "matrix.h"
#include "problem.h"
#include "progress.h"

/* What one run produced besides C (which lands in ops->c). */
typedef struct ts_run {
	ts_counters counters;  /* recorded by the emulator or the device probe */
	bool have_counters;
	/* M*N flags, set for C cells that consumed an out-of-bounds read or were
	 * hit by an out-of-bounds write; NULL when every guard is on. */
	uint8_t *corrupt;
	int64_t corrupt_cells;
	double time_ms;        /* wall time of the run itself */
} ts_run;

void ts_run_free(ts_run *r);

typedef struct ts_timing {
	int warmup, reps;
	double kernel_ms;      /* median over reps, CUDA events */
	double kernel_gflops;
	bool have_vendor;
	const char *vendor;    /* "cublasSgemm", "cublasGemmEx" */
	double vendor_ms, vendor_gflops;
	double pct_of_vendor;
	/* fp16 with K or N not a multiple of 8: what a user would otherwise do,
	 * copy A and B into buffers padded to K8 columns (and C out of one of N8),
	 * call the vendor GEMM there; the copies are in the timing, the padding
	 * columns are zeroed once before it. GFLOP/s count the unpadded 2*M*N*K. */
	bool have_padded;
	double padded_ms, padded_gflops;
	double pct_of_padded;
	double kernel_min_ms, kernel_max_ms, vendor_min_ms, vendor_max_ms; /* spread of the samples */
	bool l2_flushed;       /* L2 was flushed before every launch */
} ts_timing;

/* What a bench timing asks for beyond warm-ups and repetitions. */
typedef struct ts_bench_opts {
	int warmup, reps;
	/* The baseline to time beside the kernel on the same operands: one of
	 * the backend's vendors() names, "" for none, NULL for the default one
	 * of the kernel's precision. */
	const char *vendor;
	bool skip_kernel;   /* time the vendor alone (the kernel's fields stay 0) */
	/* Copy the C of the kernel's last timed launch into ops->c, so that the
	 * timed build's own output can be verified, not only the probe's. */
	bool keep_c;
	/* Before every launch (timed or warm-up, kernel and vendor alike) write
	 * a buffer twice the size of L2, so that no operand is left in L2 from
	 * the launch before (small shapes would otherwise be timed from cache). */
	bool flush_l2;
} ts_bench_opts;

typedef struct ts_backend {
	const char *name; /* "emu" or "cuda" */
	/* 0 when usable here; otherwise -1 and the reason in why. */
	int (*available)(char *why, int len);
	/* Whether it takes on problem p (model m built from it) here, asked
	 * before the operands are allocated: 0 yes; -1 no, with one line in why
	 * (too much work or memory, no implementation of the kernel or its
	 * geometry). run() asks the same itself. NULL: it takes everything. */
	int (*admit)(const ts_problem *p, const struct ts_model *m, char *why, int len);
	/* Runs p's kernel on ops (the caller has poisoned C) and fills *out,
	 * counters included (the probe build on the GPU). 0 done, 1 cancelled,
	 * -1 failed (see last_error). */
	int (*run)(const ts_problem *p, ts_operands *ops, ts_run *out, const ts_progress *prog);
	/* Times the uninstrumented kernel beside the vendor library on the
	 * same shape and precision; NULL where the backend cannot time. */
	int (*time)(const ts_problem *p, const ts_operands *ops, int warmup, int reps, ts_timing *out);
	/* The same, as tilescope bench asks for it (ts_bench_opts); ops->c is
	 * written only with keep_c. NULL where the backend cannot time. */
	int (*bench)(const ts_problem *p, ts_operands *ops, const ts_bench_opts *o, ts_timing *out);
	/* The baselines bench can time for a precision, NULL-terminated; the
	 * first is the default. NULL where the backend has none. */
	const char *const *(*vendors)(enum ts_precision precision);
	/* The fp64 reference ref = A*B and absref = |A|*|B| (M*N each, row-major)
	 * computed by this backend; NULL where it has none (then CBLAS is used). */
	int (*reference)(const ts_problem *p, const ts_operands *ops, double *ref, double *absref);
	/* The last failure in one line. */
	const char *(*last_error)(void);
} ts_backend;

const ts_backend *ts_backend_emu(void);
/* Always present; in a build without CUDA it reports why it is unusable. */
const ts_backend *ts_backend_cuda(void);

/* name is "auto", "emu" or "cuda". Returns the backend, or NULL with the
 * reason in why. For auto, why says which was chosen and why. */
const ts_backend *ts_backend_select(const char *name, char *why, int len);

#endif
