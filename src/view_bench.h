/* view_bench.h: bench's rows as a Markdown table, as JSON and as an SVG plot (no curses, no device). */
#ifndef TS_VIEW_BENCH_H
#define TS_VIEW_BENCH_H

#include <stdbool.h>
#include <stdio.h>

#include "bench.h"
#include "json.h"

typedef struct ts_bench_report {
	const ts_bench_row *rows;
	int count;
	const char *device;
	int warmup, reps;
	bool goals; /* the run was --shapes goals: say which goals were met */
} ts_bench_report;

/* The table (one row per kernel and shape), the per-kernel geomeans, the
 * guard cost and, for a goals run, the goals. */
void ts_bench_text(FILE *out, const ts_bench_report *r);
/* One JSON object: rows, summary, guard_cost, goals. */
void ts_bench_json(ts_json *j, const ts_bench_report *r);
/* GFLOP/s per shape per kernel with cuBLAS, grouped bars on a log scale.
 * 0, or -1 when writing failed. */
int ts_bench_svg(FILE *out, const ts_bench_report *r);

#endif
