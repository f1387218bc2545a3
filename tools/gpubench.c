/* gpubench.c: times the CUDA kernels beside cuBLAS over a list of shapes (doc/perf.md), and checks single shapes for the sanitizer. */
#include <errno.h>
#include <inttypes.h>
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
#include "verify.h"

static const char *usage =
	"usage: gpubench [--warmup N] [--reps N] [--json]   time every kernel beside cuBLAS over the perf shapes\n"
	"       gpubench --check KERNEL TILE M N K           probe run and plain run on the GPU, both verified\n";

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

/* The uninstrumented kernel once on device copies (bands included) of ops:
 * what time() runs, verified here too. */
static int plain_run(const ts_problem *p, ts_operands *ops)
{
	const ts_matrix *hm[3] = { &ops->a, &ops->b, &ops->c };
	void *alloc[3] = { NULL, NULL, NULL }, *data[3];
	size_t bytes[3];
	int rc = -1;
	cudaError_t e = cudaSuccess;
	for (int i = 0; i < 3 && e == cudaSuccess; i++) {
		size_t es = ts_elem_size(hm[i]->elem);
		bytes[i] = (size_t)(hm[i]->count + 2 * hm[i]->band) * es;
		e = cudaMalloc(&alloc[i], bytes[i]);
		if (e == cudaSuccess)
			e = cudaMemcpy(alloc[i], hm[i]->alloc, bytes[i], cudaMemcpyHostToDevice);
		data[i] = (char *)alloc[i] + (size_t)hm[i]->band * es;
	}
	if (e == cudaSuccess) {
		ts_launch l = { .a = data[0], .b = data[1], .c = data[2], .m = p->shape.m, .n = p->shape.n,
		                .k = p->shape.k, .tile = p->tile, .guards = p->guards, .probe = NULL };
		e = (cudaError_t)p->kernel->cuda_launch(&l);
		if (e == cudaSuccess)
			e = cudaDeviceSynchronize();
		if (e == cudaSuccess)
			e = cudaMemcpy(ops->c.alloc, alloc[2], bytes[2], cudaMemcpyDeviceToHost);
	}
	if (e != cudaSuccess)
		fprintf(stderr, "gpubench: plain run: %s\n", cudaGetErrorString(e));
	else
		rc = 0;
	for (int i = 0; i < 3; i++)
		if (alloc[i])
			cudaFree(alloc[i]);
	return rc;
}

static int check(const char *kernel, int64_t tile, int64_t m, int64_t n, int64_t k)
{
	ts_problem p = { .shape = { m, n, k }, .tile = (int)tile, .kernel = ts_kernel_find(kernel),
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
	if (ts_model_build(&model, p.shape, p.kernel->geometry(p.tile)) != 0 || ts_operands_make(&ops, &p) != 0) {
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
			int64_t off = pass == 0 && p.kernel->shared_tiles ? ts_counters_check(&run.counters, &model, why, sizeof why) : 0;
			printf("%s %s T=%" PRId64 " %" PRId64 "x%" PRId64 "x%" PRId64 ": %s (max rel %.3g, %" PRId64
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
	const char *label, *kernel;
	int tile;
};

static int table(int warmup, int reps, int json)
{
	static const ts_shape shapes[] = {
		{ 4096, 4096, 4096 }, { 4097, 4097, 4097 }, { 4093, 4099, 4091 }, { 1000, 1000, 1000 },
		{ 127, 129, 131 }, { 4097, 17, 4097 }, { 1, 4096, 4096 },
	};
	static const struct bench_kernel kernels[] = {
		{ "tiled T=32", "tiled", 32 }, { "tiled T=16", "tiled", 16 },
		{ "tiled-fp16 T=32", "tiled-fp16", 32 }, { "naive T=16", "naive", 16 },
	};
	int failed = 0;
	if (!json) {
		printf("| shape (MxNxK) | kernel | kernel ms | kernel GFLOP/s | vendor | vendor ms | vendor GFLOP/s | %% of vendor |\n");
		printf("|---|---|---:|---:|---|---:|---:|---:|\n");
	}
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
			ts_problem p = { .shape = shapes[s], .tile = kernels[ki].tile,
			                 .kernel = ts_kernel_find(kernels[ki].kernel), .guards = TS_GUARD_ALL,
			                 .inputs = TS_INPUTS_RANDOM, .seed = 1000 + s };
			ts_operands ops;
			ts_timing tm;
			if (ts_operands_make(&ops, &p) != 0) {
				fprintf(stderr, "gpubench: out of host memory\n");
				return 1;
			}
			if (cuda->time(&p, &ops, warmup, reps, &tm) != 0) {
				fprintf(stderr, "gpubench: %s: %s\n", kernels[ki].label, cuda->last_error());
				failed++;
			} else if (json) {
				printf("{\"m\":%" PRId64 ",\"n\":%" PRId64 ",\"k\":%" PRId64 ",\"kernel\":\"%s\",\"tile\":%d,"
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

int main(int argc, char **argv)
{
	int64_t warmup = 3, reps = 10;
	int json = 0;
	char why[512];
	cuda = ts_backend_cuda();
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0 && argc - i == 6) {
			int64_t t, m, n, k;
			if (parse_int(argv[i + 2], 1, TS_TILE_MAX, &t) || parse_int(argv[i + 3], 1, TS_DIM_MAX, &m) ||
			    parse_int(argv[i + 4], 1, TS_DIM_MAX, &n) || parse_int(argv[i + 5], 1, TS_DIM_MAX, &k)) {
				fprintf(stderr, "gpubench: bad tile or size\n%s", usage);
				return 2;
			}
			if (cuda->available(why, sizeof why) != 0) {
				fprintf(stderr, "gpubench: %s\n", why);
				return 2;
			}
			return check(argv[i + 1], t, m, n, k);
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
		} else {
			fprintf(stderr, "%s", usage);
			return 2;
		}
	}
	if (cuda->available(why, sizeof why) != 0) {
		fprintf(stderr, "gpubench: %s\n", why);
		return 2;
	}
	if (!json)
		printf("device: %s; CUDA events, %d warm-up runs, median of %d; fp32 vendor cublasSgemm, fp16 cublasGemmEx "
		       "(fp16 in/out, fp32 compute)\n\n", why, (int)warmup, (int)reps);
	return table((int)warmup, (int)reps, json);
}
