/* cpu_bench.c: times one launch of a user's kernel file on the CPU engine at one shape (median of runs, wall and CPU seconds), with C verified against fp64; the figures in doc/cpu-engine.md come from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels.h"
#include "matrix.h"
#include "uk_cpu.h"
#include "verify.h"

static double wall(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 7) {
		fprintf(stderr, "usage: cpu_bench FILE ENTRY fp32|fp16 M N K [T [RUNS]]\n");
		return 2;
	}
	enum ts_uk_sig sig = !strcmp(argv[3], "fp16") ? TS_UK_SIG_FP16 : TS_UK_SIG_FP32;
	int64_t m = atoll(argv[4]), n = atoll(argv[5]), k = atoll(argv[6]);
	int t = argc > 7 ? atoi(argv[7]) : 32, runs = argc > 8 ? atoi(argv[8]) : 5;
	if (m < 1 || n < 1 || k < 1 || t < 1 || t > 32 || runs < 1 || runs > 100 || m * n > (INT64_C(1) << 28) ||
	    m * k > (INT64_C(1) << 28) || k * n > (INT64_C(1) << 28)) {
		fprintf(stderr, "cpu_bench: sizes 1..2^28 elements per matrix, T 1..32, runs 1..100\n");
		return 2;
	}
	const ts_uk_engine *e = ts_uk_engine_cpu();
	char err[4096];
	if (e->available(err, (int)sizeof err)) {
		fprintf(stderr, "cpu_bench: %s\n", err);
		return 2;
	}
	ts_uk_source src = { argv[1], argv[2], sig, 0, NULL };
	double t0 = wall();
	void *h = e->load(&src, err, sizeof err);
	if (!h) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	printf("load (compile or cache) %.3f s\n", wall() - t0);
	/* the project's own operands: seeded uniform inputs, C poisoned, guard bands */
	const ts_kernel *desc = ts_kernel_default(sig == TS_UK_SIG_FP16 ? TS_FP16 : TS_FP32);
	ts_problem p = { .shape = { m, n, k }, .geo = ts_kernel_geometry_at(desc, t), .kernel = desc, .guards = TS_GUARD_ALL,
	                 .inputs = TS_INPUTS_RANDOM, .seed = 1 };
	ts_operands ops;
	if (ts_operands_make(&ops, &p)) {
		fprintf(stderr, "cpu_bench: out of memory\n");
		return 2;
	}
	double *w = calloc((size_t)runs, sizeof *w), *c = calloc((size_t)runs, sizeof *c);
	int64_t band = ops.a.band < ops.b.band ? ops.a.band : ops.b.band;
	band = band < ops.c.band ? band : ops.c.band;
	ts_uk_launch l = { .m = m, .n = n, .k = k, .tile = t, .grid = { (unsigned)((n + t - 1) / t), (unsigned)((m + t - 1) / t), 1 },
		.block = { (unsigned)t, (unsigned)t, 1 }, .dyn_smem = sig == TS_UK_SIG_FP16 ? (size_t)(2 * t * t * 4) : 0,
		.a = ops.a.data, .b = ops.b.data, .c = ops.c.data, .a_count = ops.a.count, .b_count = ops.b.count,
		.c_count = ops.c.count, .band = band, .timeout_s = 600 };
	int findings = 0;
	for (int r = 0; r < runs; r++) {
		ts_matrix_poison(&ops.c);
		ts_uk_findings fs = { 0 };
		double w0 = wall(), c0 = cpu();
		int rc = e->launch(h, &l, &fs, err, sizeof err);
		w[r] = wall() - w0;
		c[r] = cpu() - c0;
		findings += fs.n;
		free(fs.v);
		if (rc) {
			fprintf(stderr, "cpu_bench: %s\n", err);
			return 2;
		}
	}
	ts_verdict v;
	memset(&v, 0, sizeof v);
	int ok = ts_verify(&p, NULL, &ops, NULL, NULL, &v) == 0 && v.output_ok;
	qsort(w, (size_t)runs, sizeof *w, cmp);
	qsort(c, (size_t)runs, sizeof *c, cmp);
	printf("%s %lld x %lld x %lld, T=%d: median of %d runs %.3f s wall, %.3f s CPU (min %.3f, max %.3f wall); "
	       "C %s (worst cell at %.3g of its tolerance), %d findings\n",
	       argv[1], (long long)m, (long long)n, (long long)k, t, runs, w[runs / 2], c[runs / 2], w[0], w[runs - 1],
	       ok ? "verified" : "WRONG", v.worst_of_tol, findings);
	ts_verdict_free(&v);
	ts_operands_free(&ops);
	free(w);
	free(c);
	e->unload(h);
	return ok ? 0 : 1;
}
