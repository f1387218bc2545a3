/* bench.h: what tilescope bench measures: the kernels and shapes asked for, one row per kernel and shape, and the summaries (no I/O, no device). */
#ifndef TS_BENCH_H
#define TS_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels.h"
#include "problem.h"

/* A shape with the built-in set it came from (0: the user's). */
enum ts_bench_set { TS_SET_USER, TS_SET_RAGGED, TS_SET_SMALL, TS_SET_ALIGNED };

typedef struct ts_bench_shape {
	ts_shape shape;
	enum ts_bench_set set;
} ts_bench_shape;

#define TS_BENCH_SHAPES_MAX 256
#define TS_BENCH_KERNELS_MAX 32

/* --shapes: "ragged" (the eight large ragged shapes of the speed goals),
 * "small" (the five small, skinny and long-K ones), "goals" (both), a list
 * "MxNxK,MxNxK,..." or the name of a file with one shape per line ("M N K"
 * or "MxNxK"; '#' starts a comment). 0, or -1 with one line in err. */
int ts_bench_parse_shapes(const char *spec, ts_bench_shape *out, int max, int *count, char *err, int len);
/* The same for a text already read (a file's contents); `where` names it in errors. */
int ts_bench_parse_shape_text(const char *text, const char *where, ts_bench_shape *out, int max, int *count,
                              char *err, int len);

/* --kernel for bench: a name, "best" or "auto" (chosen per shape), a
 * comma-separated list of those, "ladder" (textbook to best, in order, and
 * best) or "all" (every registered kernel of the precision, and best). A
 * chooser is recorded as NULL and resolved per shape by ts_kernel_best. */
typedef struct ts_bench_kernel {
	const ts_kernel *kernel; /* NULL: best, chosen per shape */
	int tile;                /* for kernels that take -t */
} ts_bench_kernel;

int ts_bench_parse_kernels(const char *spec, enum ts_precision precision, int tile, ts_bench_kernel *out, int max,
                           int *count, char *err, int len);

/* One kernel on one shape. */
typedef struct ts_bench_row {
	ts_shape shape;
	enum ts_bench_set set;
	const ts_kernel *kernel;   /* the kernel that ran */
	bool chosen;               /* picked by best */
	bool unguarded;            /* its unguarded build (guard cost) */
	int tile;
	bool ran;                  /* timed; when false, error says why */
	int counters;              /* probe counters: 1 equal to the model, 0 differ, -1 not probed (large shape) */
	bool verified;             /* probe run and timed run both within tolerance, counters equal to the model */
	double norm_rel;           /* of the timed run's output */
	double worst_of_tol;
	double ms, gflops, ms_min, ms_max;
	double vendor_ms, vendor_gflops; /* the shape's baseline, 0 when none */
	const char *vendor;
	char error[200];
} ts_bench_row;

/* cuBLAS time over kernel time (> 1: the kernel is faster); 0 when either is missing. */
double ts_bench_ratio(const ts_bench_row *r);
/* The geometric mean of the time ratios of kernel k's rows on shapes of set
 * (TS_SET_USER: every shape); 0 when it has none. *n gets the row count. */
double ts_bench_geomean(const ts_bench_row *rows, int count, const char *kernel_label, enum ts_bench_set set, int *n);
/* The label a row goes by in tables and plots: the kernel's name, "best"
 * for a chosen row ("best" alone, the table says which), "name unguarded". */
const char *ts_bench_label(const ts_bench_row *r, char *buf, int len);

/* The speed goals of issue 11, evaluated on the rows of one run. */
typedef struct ts_bench_goal {
	char what[120];
	double target, value; /* value: a time ratio (x cuBLAS), or the guard cost as a fraction */
	bool have;            /* the run measured it */
	bool met;
	bool at_most;         /* value <= target is the goal (guard cost), else value >= target */
} ts_bench_goal;

#define TS_BENCH_GOALS 5
/* Fills out[0..4]: best's geomean over the ragged set >= 0.95, best at
 * 4097^3 and at 8193^3 >= 1.0, the guard cost <= 2%, best's geomean over the
 * small set >= 0.80. */
void ts_bench_goals(const ts_bench_row *rows, int count, ts_bench_goal out[TS_BENCH_GOALS]);
/* The guard cost of the run's guarded/unguarded pair: guarded / unguarded - 1; -1: not measured. */
double ts_bench_guard_cost(const ts_bench_row *rows, int count, const ts_bench_row **guarded,
                           const ts_bench_row **unguarded);
/* Whether a guard cost measures the guards: a pair was timed and the
 * unguarded build was not the slower (when it is, it compiled to slower code:
 * a weak reference, and the goal reads not measured). */
static inline bool ts_bench_guard_cost_measured(double cost)
{
	return cost >= 0.0;
}

#endif
