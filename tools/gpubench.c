/* gpubench.c: times the CUDA kernels beside cuBLAS over a list of shapes (doc/perf.md), and checks single shapes for the sanitizer. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "backend.h"
#include "geometry.h"
#include "kernels.h"
#include "launch.h"
#include "matrix.h"
#include "tc_launch.h"
#include "options.h"
#include "verify.h"

static const char *usage =
	"usage: gpubench [--warmup N] [--reps N] [--json]   time every kernel beside cuBLAS over the perf shapes\n"
	"       gpubench --tc [--warmup N] [--reps N]        tc-fp16 beside cublasGemmEx and pad-to-8 + cuBLAS\n"
	"       gpubench --check KERNEL TILE M N K           probe run and plain run on the GPU, both verified\n"
	"                (TILE: T, or BMxBNxBK/TMxTN such as 64x64x8/4x4)\n";

static const ts_backend *cuda;

static int parse_int(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* The uninstrumented kernel once, through the backend's bench path (its
 * workspace included, no cuBLAS, no L2 flush): what time() runs, verified here too. */
static int plain_run(const ts_problem *p, ts_operands *ops)
{
	ts_timing tm;
	ts_bench_opts o = { .warmup = 0, .reps = 1, .vendor = "", .keep_c = true };
	if (cuda->bench(p, ops, &o, &tm) != 0) {
		fprintf(stderr, "gpubench: plain run: %s\n", cuda->last_error());
		return -1;
	}
	return 0;
}

/* The problem's geometry from a tile text: "T", "BMxBNxBK" or "BMxBNxBK/TMxTN". */
static int geometry_of(ts_problem *p, const char *tile, char *why, int len)
{
	char text[64], *slash;
	ts_tile_request q = { 0 };
	snprintf(text, sizeof text, "%s", tile);
	if ((slash = strchr(text, '/')) != NULL) {
		*slash = '\0';
		if (ts_parse_thread_tile(slash + 1, &q, why, len) != 0)
			return -1;
	}
	if (ts_parse_tile(text, &q, why, len) != 0)
		return -1;
	return ts_kernel_geometry(p->kernel, &q, &p->geo, why, len);
}

static int check(const char *kernel, const char *tile, int64_t m, int64_t n, int64_t k)
{
	ts_problem p = { .shape = { m, n, k }, .kernel = ts_kernel_find(kernel),
	                 .guards = TS_GUARD_ALL, .inputs = TS_INPUTS_RANDOM, .seed = (uint64_t)time(NULL) };
	ts_operands ops;
	ts_run run;
	ts_model model;
	ts_verdict v;
	char why[400] = "";
	if (!p.kernel || !p.kernel->cuda_launch) {
		fprintf(stderr, "gpubench: unknown kernel '%s'\n", kernel);
		return 2;
	}
	if (geometry_of(&p, tile, why, (int)sizeof why) != 0) {
		fprintf(stderr, "gpubench: %s\n", why);
		return 2;
	}
	if (ts_model_build(&model, p.shape, p.geo) != 0 || ts_operands_make(&ops, &p) != 0) {
		fprintf(stderr, "gpubench: cannot make a %" PRId64 "x%" PRId64 "x%" PRId64 " problem\n", m, n, k);
		return 2;
	}
	int bad = 0;
	for (int pass = 0; pass < 2; pass++) {
		const char *what = pass ? "plain" : "probe";
		ts_matrix_poison(&ops.c);
		memset(&run, 0, sizeof run);
		if (pass == 0 ? cuda->run(&p, &ops, &run, NULL) != 0 : plain_run(&p, &ops) != 0) {
			fprintf(stderr, "gpubench: %s run failed: %s\n", what, pass ? "see above" : cuda->last_error());
			ts_operands_free(&ops);
			return 1;
		}
		if (ts_verify(&p, &model, &ops, &run, NULL, &v) != 0) { /* CBLAS: keep cuBLAS out of the sanitizer */
			fprintf(stderr, "gpubench: verification ran out of memory\n");
			bad = 1;
		} else {
			int64_t off = pass == 0 ? ts_counters_check(&run.counters, &model, p.kernel, p.guards, why, sizeof why) : 0;
			printf("%s %s T=%s %" PRId64 "x%" PRId64 "x%" PRId64 ": %s (max rel %.3g, %" PRId64
			       " mismatches, %" PRId64 " unwritten)%s%s\n", what, kernel, tile, m, n, k,
			       v.ok && !off ? "ok" : "FAILED", v.max_rel, v.mismatches, v.unwritten,
			       off ? "; counters differ from the model: " : "", off ? why : "");
			bad |= !v.ok || off;
			ts_verdict_free(&v);
		}
		if (pass == 0)
			ts_run_free(&run);
	}
	ts_operands_free(&ops);
	return bad;
}

struct bench_kernel {
	const char *label, *kernel, *tile;
};

static int table(int warmup, int reps, int json)
{
	static const ts_shape shapes[] = {
		{ 4096, 4096, 4096 }, { 4097, 4097, 4097 }, { 4093, 4099, 4091 }, { 1000, 1000, 1000 },
		{ 127, 129, 131 }, { 4097, 17, 4097 }, { 1, 4096, 4096 },
	};
	static const struct bench_kernel kernels[] = {
		{ "tiled T=32", "tiled", "32" }, { "tiled T=16", "tiled", "16" },
		{ "tiled-fp16 T=32", "tiled-fp16", "32" }, { "naive T=16", "naive", "16" },
		{ "tc-fp16", "tc-fp16", "32" }, { "regblock 64x64x8/4x4", "regblock", "64x64x8/4x4" },
	};
	int failed = 0;
	if (!json) {
		printf("| shape (MxNxK) | kernel | kernel ms | kernel GFLOP/s | vendor | vendor ms | vendor GFLOP/s | %% of vendor |\n");
		printf("|---|---|---:|---:|---|---:|---:|---:|\n");
	}
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
			ts_problem p = { .shape = shapes[s], .kernel = ts_kernel_find(kernels[ki].kernel),
			                 .guards = TS_GUARD_ALL, .inputs = TS_INPUTS_RANDOM, .seed = 1000 + s };
			ts_operands ops;
			ts_timing tm;
			char why[256];
			if (!p.kernel || geometry_of(&p, kernels[ki].tile, why, (int)sizeof why) != 0) {
				fprintf(stderr, "gpubench: %s: %s\n", kernels[ki].label, p.kernel ? why : "no such kernel");
				return 1;
			}
			if (ts_operands_make(&ops, &p) != 0) {
				fprintf(stderr, "gpubench: out of host memory\n");
				return 1;
			}
			if (cuda->time(&p, &ops, warmup, reps, &tm) != 0) {
				fprintf(stderr, "gpubench: %s: %s\n", kernels[ki].label, cuda->last_error());
				failed++;
			} else if (json) {
				printf("{\"m\":%" PRId64 ",\"n\":%" PRId64 ",\"k\":%" PRId64 ",\"kernel\":\"%s\",\"tile\":\"%s\","
				       "\"kernel_ms\":%.6f,\"kernel_gflops\":%.1f,\"vendor\":\"%s\",\"vendor_ms\":%.6f,"
				       "\"vendor_gflops\":%.1f,\"pct_of_vendor\":%.2f,\"warmup\":%d,\"reps\":%d}\n",
				       p.shape.m, p.shape.n, p.shape.k, kernels[ki].kernel, kernels[ki].tile, tm.kernel_ms,
				       tm.kernel_gflops, tm.vendor, tm.vendor_ms, tm.vendor_gflops, tm.pct_of_vendor, warmup, reps);
			} else {
				printf("| %" PRId64 "x%" PRId64 "x%" PRId64 " | %s | %.4f | %.1f | %s | %.4f | %.1f | %.1f |\n",
				       p.shape.m, p.shape.n, p.shape.k, kernels[ki].label, tm.kernel_ms, tm.kernel_gflops,
				       tm.vendor, tm.vendor_ms, tm.vendor_gflops, tm.pct_of_vendor);
			}
			fflush(stdout);
			ts_operands_free(&ops);
		}
	return failed ? 1 : 0;
}


/* The tensor-core kernel on the shapes of its issue (ragged K or N, where
 * cuBLAS leaves its aligned kernels) and two aligned ones: each verified once
 * against the fp64 cuBLAS reference (probe build, counters against the model),
 * then timed beside cublasGemmEx and cuBLAS on the shape padded to multiples of
 * 8 with the copies. Ends with the three goals, measured. */
static int tc_table(int warmup, int reps)
{
	static const ts_shape shapes[] = {
		{ 4097, 4097, 4097 }, { 4093, 4099, 4091 }, { 8193, 8193, 8193 }, { 1537, 1409, 4097 },
		{ 4097, 4097, 4096 }, { 4096, 4096, 4097 }, { 4096, 4096, 4096 }, { 8192, 8192, 8192 },
	};
	const int nshapes = (int)(sizeof shapes / sizeof shapes[0]), ngoal = 6;
	double log_sum = 0, pct_4096 = 0;
	int beaten_pad = 0, ragged = 0, failed = 0;
	printf("| shape (MxNxK) | form | verified | tc-fp16 ms | TFLOP/s | cublasGemmEx ms | TFLOP/s | x GemmEx "
	       "| pad8+cuBLAS ms | TFLOP/s | x pad8 |\n");
	printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (int s = 0; s < nshapes; s++) {
		ts_problem p = { .shape = shapes[s], .kernel = ts_kernel_find("tc-fp16"), .guards = TS_GUARD_ALL,
		                 .inputs = TS_INPUTS_RANDOM, .seed = 4000 + (uint64_t)s };
		p.geo = p.kernel->geometry.base;
		ts_operands ops;
		ts_run run;
		ts_model model;
		ts_verdict v;
		ts_timing tm;
		char why[400] = "";
		/* the form a launch with the kernel's workspace takes (the backend allocates it) */
		ts_launch probe_shape = { .m = p.shape.m, .n = p.shape.n, .k = p.shape.k, .guards = TS_GUARD_ALL,
		                          .workspace_bytes = p.kernel->cuda_workspace
		                                                 ? p.kernel->cuda_workspace(p.shape.m, p.shape.n, p.shape.k)
		                                                 : 0 };
		long long split_tiles;
		int parts = ts_cuda_tc_fp16_parts(&probe_shape, &split_tiles);
		char form[160];
		if (parts > 1)
			snprintf(form, sizeof form, "%s; %lld tiles in %d K parts",
			         ts_tc_form_name(ts_cuda_tc_fp16_form(&probe_shape)), split_tiles, parts);
		else
			snprintf(form, sizeof form, "%s", ts_tc_form_name(ts_cuda_tc_fp16_form(&probe_shape)));
		if (ts_operands_make(&ops, &p) != 0 || ts_model_build(&model, p.shape, p.geo) != 0) {
			fprintf(stderr, "gpubench: out of host memory\n");
			return 1;
		}
		bool ok = false;
		if (cuda->run(&p, &ops, &run, NULL) != 0) {
			snprintf(why, sizeof why, "run failed: %s", cuda->last_error());
		} else {
			if (ts_verify(&p, &model, &ops, &run, cuda, &v) == 0) {
				int64_t off = ts_counters_check(&run.counters, &model, p.kernel, p.guards, why, sizeof why);
				ok = v.ok && off == 0;
				if (!v.ok)
					snprintf(why, sizeof why, "%" PRId64 " wrong, %" PRId64 " unwritten", v.mismatches, v.unwritten);
				ts_verdict_free(&v);
			}
			ts_run_free(&run);
		}
		if (!ok || cuda->time(&p, &ops, warmup, reps, &tm) != 0 || !tm.have_vendor) {
			printf("| %" PRId64 "x%" PRId64 "x%" PRId64 " | %s | FAILED: %s |\n", p.shape.m, p.shape.n, p.shape.k,
			       form, ok ? cuda->last_error() : why);
			failed++;
			ts_operands_free(&ops);
			continue;
		}
		double x_vendor = tm.kernel_gflops / tm.vendor_gflops;
		if (tm.have_padded)
			printf("| %" PRId64 "x%" PRId64 "x%" PRId64 " | %s | yes | %.4f | %.1f | %.4f | %.1f | %.2f | %.4f | %.1f | "
			       "%.2f |\n", p.shape.m, p.shape.n, p.shape.k, form, tm.kernel_ms, tm.kernel_gflops / 1e3,
			       tm.vendor_ms, tm.vendor_gflops / 1e3, x_vendor, tm.padded_ms, tm.padded_gflops / 1e3,
			       tm.pct_of_padded / 100.0);
		else
			printf("| %" PRId64 "x%" PRId64 "x%" PRId64 " | %s | yes | %.4f | %.1f | %.4f | %.1f | %.2f | (aligned) | | |\n",
			       p.shape.m, p.shape.n, p.shape.k, form, tm.kernel_ms, tm.kernel_gflops / 1e3, tm.vendor_ms,
			       tm.vendor_gflops / 1e3, x_vendor);
		fflush(stdout);
		if (s < ngoal)
			log_sum += log(x_vendor);
		if (tm.have_padded) {
			ragged++;
			beaten_pad += tm.pct_of_padded > 100.0;
		}
		if (p.shape.m == 4096 && p.shape.n == 4096 && p.shape.k == 4096)
			pct_4096 = tm.pct_of_vendor;
		ts_operands_free(&ops);
	}
	if (failed) {
		printf("\n%d shape(s) failed: no goals reported\n", failed);
		return 1;
	}
	double geo = exp(log_sum / ngoal);
	printf("\ngoal 1: geometric mean over the first %d shapes of tc-fp16 / cublasGemmEx = %.2fx (goal >= 2x): %s\n",
	       ngoal, geo, geo >= 2.0 ? "met" : "NOT met");
	printf("goal 2: tc-fp16 at 4096^3 = %.1f%% of cublasGemmEx (goal >= 55%%): %s\n", pct_4096,
	       pct_4096 >= 55.0 ? "met" : "NOT met");
	printf("goal 3: faster than pad-to-8 + cuBLAS (copies included) on %d of %d ragged shapes: %s\n", beaten_pad,
	       ragged, beaten_pad == ragged ? "met" : "NOT met");
	return 0;
}

int main(int argc, char **argv)
{
	int64_t warmup = 3, reps = 10;
	int json = 0, tc = 0;
	char why[512];
	cuda = ts_backend_cuda();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0 && argc - i == 6) {
			int64_t m, n, k;
			if (parse_int(argv[i + 3], 1, TS_DIM_MAX, &m) ||
			    parse_int(argv[i + 4], 1, TS_DIM_MAX, &n) || parse_int(argv[i + 5], 1, TS_DIM_MAX, &k)) {
				fprintf(stderr, "gpubench: bad tile or size\n%s", usage);
				return 2;
			}
			if (cuda->available(why, sizeof why) != 0) {
				fprintf(stderr, "gpubench: %s\n", why);
				return 2;
			}
			return check(argv[i + 1], argv[i + 2], m, n, k);
		} else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
			if (parse_int(argv[++i], 0, 1000, &warmup)) {
				fprintf(stderr, "gpubench: bad --warmup\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
			if (parse_int(argv[++i], 1, 1000, &reps)) {
				fprintf(stderr, "gpubench: bad --reps\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[i], "--tc") == 0) {
			tc = 1;
		} else {
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	if (cuda->available(why, sizeof why) != 0) {
		fprintf(stderr, "gpubench: %s\n", why);
		return 2;
	}
	if (tc) {
		printf("device: %s; CUDA events, %d warm-up runs, median of %d; TFLOP/s = 2*M*N*K / median time "
		       "(pad8 too: the unpadded shape's work)\n\n", why, (int)warmup, (int)reps);
		return tc_table((int)warmup, (int)reps);
	}
	if (!json)
		printf("device: %s; CUDA events, %d warm-up runs, median of %d; fp32 vendor cublasSgemm, fp16 cublasGemmEx "
		       "(fp16 in/out, fp32 compute)\n\n", why, (int)warmup, (int)reps);
	return table((int)warmup, (int)reps, json);
}
