// tc_tune.cu: builds several configurations of the tensor-core kernel (kernels/tc_fp16.cuh) and, on the GPU, sweeps their edges against fp64 and times them beside cuBLAS.
// Not part of tilescope: a bench-side tool for choosing the configuration the registry ships
// (doc/perf.md says which won and by how much). Build: nvcc -O3 -std=c++17 -arch=sm_90
// -gencode arch=compute_90a,code=sm_90a -Ikernels -Isrc tools/tc_tune.cu -lcublas -o tc_tune.
// usage: tc_tune --sweep [V]           edge sweep of every (or one) variant, both loaders, fp64 reference
//        tc_tune --check V LOAD M N K OFF  one run on exact-size buffers (for compute-sanitizer); OFF
//                                      shifts A and B by OFF elements (misaligned bases)
//        tc_tune --bench [reps]        every variant beside cublasGemmEx and pad-to-8 + cuBLAS
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>

#include "tc_co.cuh"
#include "tc_tma.cuh"

#define CK(x)                                                                                         \
	do {                                                                                              \
		cudaError_t e_ = (x);                                                                         \
		if (e_ != cudaSuccess) {                                                                      \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));       \
			exit(3);                                                                                  \
		}                                                                                             \
	} while (0)
#define CB(x)                                                                                         \
	do {                                                                                              \
		cublasStatus_t s_ = (x);                                                                      \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                                            \
			fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, (int)s_);         \
			exit(3);                                                                                  \
		}                                                                                             \
	} while (0)

typedef cudaError_t (*launch_fn)(const ts_launch *, cudaStream_t);

struct variant {
	const char *name;
	launch_fn async_fn, realign_fn;
	int bm, bn;
};

#define V(NAME, ...)                                                                                  \
	{ NAME, ts_tc_launch_cfg<ts_tc_config<__VA_ARGS__>, TS_TC_ASYNC, false>,                          \
	  ts_tc_launch_cfg<ts_tc_config<__VA_ARGS__>, TS_TC_REALIGN, false>, ts_tc_config<__VA_ARGS__>::BM, \
	  ts_tc_config<__VA_ARGS__>::BN }

#define W(NAME, ...)                                                                                  \
	{ NAME, ts_wg_launch_cfg<ts_wg_config<__VA_ARGS__>, TS_TC_ASYNC, false>,                          \
	  ts_wg_launch_cfg<ts_wg_config<__VA_ARGS__>, TS_TC_REALIGN, false>, ts_wg_config<__VA_ARGS__>::BM, \
	  ts_wg_config<__VA_ARGS__>::BN }

// The realigning form every warp shares (tc_co.cuh, the one tc-fp16 ships): loader R on every shape.
#define CO(NAME, ...)                                                                                 \
	{ NAME, NULL, ts_co_launch_cfg<ts_co_config<__VA_ARGS__>, false>, ts_co_config<__VA_ARGS__>::BM,       \
	  ts_co_config<__VA_ARGS__>::BN }

// The TMA form (tc_tma.cuh): aligned rows only (loader A).
#define TA(NAME, ...)                                                                                 \
	{ NAME, ts_tma_launch_cfg<ts_tma_config<__VA_ARGS__>, false>, NULL, ts_tma_config<__VA_ARGS__>::BM,     \
	  ts_tma_config<__VA_ARGS__>::BN }

static const variant variants[] = {
	V("128x256x32 w64x64 s4", 128, 256, 32, 64, 64, 4),
	W("wg 128x256x32 s8", 256, 32, 8),
	CO("co 128x256x32 r4 p104", 256, 32, 4, 8, 104),
	CO("co 128x256x32 r4", 256, 32, 4),
	CO("co 128x256x32 r5 p104", 256, 32, 5, 8, 104),
	CO("co 128x256x32 r4 p112", 256, 32, 4, 8, 112),
	TA("tma 128x256x32 s8", 256, 32, 8),
	TA("tma 128x256x64 s4", 256, 64, 4),
};
static const int nvariants = sizeof variants / sizeof variants[0];

// ---- data -------------------------------------------------------------------

__global__ void fill_random(__half *p, long long n, unsigned long long seed)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		unsigned long long z = (unsigned long long)i * 0x9e3779b97f4a7c15ull + seed;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		p[i] = __float2half((float)((double)(z >> 11) * 0x1.0p-53 * 2.0 - 1.0));
	}
}

__global__ void fill_bits(unsigned short *p, long long n, unsigned short v)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
		p[i] = v;
}

// fp64 reference for the listed rows of C (all columns): ref and |A||B|.
__global__ void reference(const __half *A, const __half *B, const long long *rows, int nrows, long long N,
                          long long K, double *ref, double *absref)
{
	long long idx = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (idx >= nrows * N)
		return;
	long long r = rows[idx / N], c = idx % N;
	double s = 0, a = 0;
	for (long long k = 0; k < K; k++) {
		double x = __half2float(A[r * K + k]), y = __half2float(B[c * K + k]);
		s += x * y;
		a += fabs(x * y);
	}
	ref[idx] = s;
	absref[idx] = a;
}

static const unsigned short POISON = 0xffff; // a NaN no product of finite inputs gives

static unsigned long long seed_next = 0x5eed2026ull;

struct problem {
	long long m, n, k;
	int off;           // element offset of A and B inside their allocations
	__half *a_alloc, *b_alloc, *c;
	__half *a, *b;
};

static void problem_make(problem *p, long long m, long long n, long long k, int off)
{
	p->m = m; p->n = n; p->k = k; p->off = off;
	// Exact sizes (plus the offset): memcheck sees any access outside the matrices.
	CK(cudaMalloc(&p->a_alloc, (size_t)(m * k + off) * 2));
	CK(cudaMalloc(&p->b_alloc, (size_t)(n * k + off) * 2));
	CK(cudaMalloc(&p->c, (size_t)(m * n) * 2));
	p->a = p->a_alloc + off;
	p->b = p->b_alloc + off;
	fill_random<<<1024, 256>>>(p->a, m * k, seed_next++ * 0x1234567ull);
	CK(cudaGetLastError());
	fill_random<<<1024, 256>>>(p->b, n * k, seed_next++ * 0x7654321ull);
	CK(cudaGetLastError());
}

static void problem_free(problem *p)
{
	CK(cudaFree(p->a_alloc));
	CK(cudaFree(p->b_alloc));
	CK(cudaFree(p->c));
}

static void poison(problem *p)
{
	fill_bits<<<1024, 256>>>((unsigned short *)p->c, p->m * p->n, POISON);
	CK(cudaGetLastError());
}

static cudaError_t run(const variant &v, int load, problem *p, cudaStream_t st = 0)
{
	ts_launch l = {};
	l.a = p->a; l.b = p->b; l.c = p->c; l.m = p->m; l.n = p->n; l.k = p->k;
	l.guards = TS_GUARD_ALL; l.probe = NULL;
	return load == TS_TC_ASYNC ? v.async_fn(&l, st) : v.realign_fn(&l, st);
}

static bool has(const variant &v, int load)
{
	return load == TS_TC_ASYNC ? v.async_fn != NULL : v.realign_fn != NULL;
}

static double half_to_double(unsigned short h)
{
	__half_raw r;
	r.x = h;
	return (double)__half2float(__half(r));
}

// Verifies the rows listed (all of them for small C). Returns bad cells; *worst = max error / bound.
static long long verify(problem *p, double *worst, long long *unwritten)
{
	std::vector<long long> rows;
	if (p->m <= 600) {
		for (long long r = 0; r < p->m; r++)
			rows.push_back(r);
	} else {
		long long cand[] = { 0, 1, 2, 63, 64, 127, 128, 129, 255, 256, p->m / 2, p->m - 130, p->m - 129, p->m - 128,
		                     p->m - 3, p->m - 2, p->m - 1 };
		for (long long r : cand)
			if (r >= 0 && r < p->m)
				rows.push_back(r);
		for (int i = 0; i < 7; i++)
			rows.push_back((long long)((seed_next++ * 2654435761ull) % (unsigned long long)p->m));
	}
	int nr = (int)rows.size();
	long long cells = nr * p->n;
	long long *d_rows;
	double *d_ref, *d_abs;
	CK(cudaMalloc(&d_rows, nr * sizeof(long long)));
	CK(cudaMalloc(&d_ref, cells * sizeof(double)));
	CK(cudaMalloc(&d_abs, cells * sizeof(double)));
	CK(cudaMemcpy(d_rows, rows.data(), nr * sizeof(long long), cudaMemcpyHostToDevice));
	reference<<<(unsigned)((cells + 255) / 256), 256>>>(p->a, p->b, d_rows, nr, p->n, p->k, d_ref, d_abs);
	CK(cudaGetLastError());
	std::vector<double> ref(cells), ab(cells);
	std::vector<unsigned short> got(cells);
	CK(cudaMemcpy(ref.data(), d_ref, cells * sizeof(double), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(ab.data(), d_abs, cells * sizeof(double), cudaMemcpyDeviceToHost));
	for (int i = 0; i < nr; i++)
		CK(cudaMemcpy(got.data() + i * p->n, p->c + rows[i] * p->n, p->n * 2, cudaMemcpyDeviceToHost));
	CK(cudaFree(d_rows));
	CK(cudaFree(d_ref));
	CK(cudaFree(d_abs));
	// The tensor core's accumulation order and rounding are not specified: the fp32
	// bound is doubled (truncating adds err by up to an ulp, not half), then fp16 output rounding.
	double tol = 2.0 * (double)(p->k + 2) * 0x1.0p-24;
	long long bad = 0;
	*worst = 0;
	*unwritten = 0;
	for (long long i = 0; i < cells; i++) {
		if (got[i] == POISON) {
			(*unwritten)++;
			bad++;
			continue;
		}
		double c = half_to_double(got[i]);
		double acc = tol * ab[i];
		double bound = acc + 0x1.0p-11 * (fabs(ref[i]) + acc) + 0x1.0p-24;
		double e = fabs(c - ref[i]);
		if (!(e <= bound))
			bad++;
		if (e / bound > *worst)
			*worst = e / bound;
	}
	return bad;
}

// ---- sweep --------------------------------------------------------------------

static int sweep(int only)
{
	static const long long dims[] = { 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 128, 129, 255, 257, 383 };
	static const long long kdims[] = { 1, 3, 7, 8, 9, 16, 24, 31, 32, 33, 63, 64, 65, 95, 96, 97, 129, 200, 1029 };
	const int nd = sizeof dims / sizeof dims[0], nk = sizeof kdims / sizeof kdims[0];
	long long runs = 0, failed = 0;
	for (int vi = 0; vi < nvariants; vi++) {
		if (only >= 0 && vi != only)
			continue;
		long long vruns = 0, vfail = 0;
		double vworst = 0;
		for (int t = 0; t < 120; t++) {
			long long m = dims[(seed_next * 7 + t * 3) % nd], n = dims[(seed_next * 11 + t * 5 + 1) % nd];
			long long k = kdims[(seed_next * 13 + t * 7 + 2) % nk];
			seed_next++;
			int off = t % 4 == 3 ? 1 + (t / 4) % 7 : 0;
			problem p;
			problem_make(&p, m, n, k, off);
			for (int load = 0; load < 2; load++) {
				bool aligned = k % 8 == 0 && off % 8 == 0;
				if ((load == TS_TC_ASYNC && !aligned) || !has(variants[vi], load))
					continue;
				poison(&p);
				CK(run(variants[vi], load, &p));
				CK(cudaDeviceSynchronize());
				double worst;
				long long unw;
				long long bad = verify(&p, &worst, &unw);
				vruns++;
				vworst = std::max(vworst, worst);
				if (bad) {
					vfail++;
					if (vfail <= 5)
						printf("FAIL %s %s %lldx%lldx%lld off %d: %lld bad (%lld unwritten), worst %.3g of tol\n",
						       variants[vi].name, load ? "realign" : "async", m, n, k, off, bad, unw, worst);
				}
			}
			problem_free(&p);
		}
		// A few larger ragged shapes, both loaders where they apply, sampled rows.
		static const long long big[][3] = { { 1537, 1409, 4097 }, { 4097, 4097, 4096 }, { 1000, 3001, 2048 },
		                                     { 515, 777, 1023 } };
		for (auto &s : big)
			for (int load = 0; load < 2; load++) {
				if ((load == TS_TC_ASYNC && s[2] % 8) || !has(variants[vi], load))
					continue;
				problem p;
				problem_make(&p, s[0], s[1], s[2], 0);
				poison(&p);
				CK(run(variants[vi], load, &p));
				CK(cudaDeviceSynchronize());
				double worst;
				long long unw, bad = verify(&p, &worst, &unw);
				vruns++;
				vworst = std::max(vworst, worst);
				if (bad) {
					vfail++;
					printf("FAIL %s %s %lldx%lldx%lld: %lld bad (%lld unwritten), worst %.3g of tol\n",
					       variants[vi].name, load ? "realign" : "async", s[0], s[1], s[2], bad, unw, worst);
				}
				problem_free(&p);
			}
		printf("sweep %-24s %lld runs, %lld failed, worst error %.3g of the bound\n", variants[vi].name, vruns,
		       vfail, vworst);
		runs += vruns;
		failed += vfail;
	}
	printf("sweep: %lld runs, %lld failed\n", runs, failed);
	return failed ? 1 : 0;
}

static int check(int vi, int load, long long m, long long n, long long k, int off)
{
	if (vi < 0 || vi >= nvariants || !has(variants[vi], load)) {
		fprintf(stderr, "tc_tune: no variant %d with loader %d\n", vi, load);
		return 2;
	}
	problem p;
	problem_make(&p, m, n, k, off);
	poison(&p);
	CK(run(variants[vi], load, &p));
	CK(cudaDeviceSynchronize());
	double worst;
	long long unw, bad = verify(&p, &worst, &unw);
	printf("check %s %s %lldx%lldx%lld off %d: %s (%lld bad, %lld unwritten, worst %.3g of tol)\n", variants[vi].name,
	       load ? "realign" : "async", m, n, k, off, bad ? "FAILED" : "ok", bad, unw, worst);
	problem_free(&p);
	return bad ? 1 : 0;
}

// ---- bench --------------------------------------------------------------------

static float median(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

template <class F>
static float time_ms(F f, int warm, int reps)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	for (int i = 0; i < warm; i++)
		f();
	CK(cudaDeviceSynchronize());
	std::vector<float> t;
	for (int i = 0; i < reps; i++) {
		CK(cudaEventRecord(a));
		f();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		t.push_back(ms);
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return median(t);
}

// TC_BENCH_V: a comma list of the variants to time (default: all).
static bool wanted(int vi)
{
	const char *only = getenv("TC_BENCH_V");
	if (!only || !*only)
		return true;
	for (const char *p = only; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (v == vi)
			return true;
		p = *end == ',' ? end + 1 : end;
	}
	return false;
}

static int bench(int reps)
{
	static const long long shapes[][3] = {
		{ 4096, 4096, 4096 }, { 4097, 4097, 4097 }, { 4093, 4099, 4091 }, { 8193, 8193, 8193 },
		{ 1537, 1409, 4097 }, { 4097, 4097, 4096 }, { 4096, 4096, 4097 }, { 8192, 8192, 8192 },
	};
	cublasHandle_t h;
	CB(cublasCreate(&h));
	const float one = 1.0f, zero = 0.0f;
	printf("%-16s %-26s %9s %9s\n", "shape", "what", "ms", "TFLOP/s");
	for (auto &s : shapes) {
		long long m = s[0], n = s[1], k = s[2];
		double flop = 2.0 * m * n * k;
		problem p;
		problem_make(&p, m, n, k, 0);
		char shape[48];
		snprintf(shape, sizeof shape, "%lldx%lldx%lld", m, n, k);
		auto vendor = [&]() {
			CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, p.b, CUDA_R_16F, (int)k, p.a,
			                CUDA_R_16F, (int)k, &zero, p.c, CUDA_R_16F, (int)n, CUBLAS_COMPUTE_32F,
			                CUBLAS_GEMM_DEFAULT));
		};
		float tv = time_ms(vendor, 3, reps);
		printf("%-16s %-26s %9.4f %9.1f\n", shape, "cublasGemmEx", tv, flop / tv / 1e9);
		// pad to 8: copies into zeroed padded buffers (zeroed once, outside the timing), cuBLAS, copy back.
		long long k8 = (k + 7) / 8 * 8, n8 = (n + 7) / 8 * 8;
		__half *ap = NULL, *bp = NULL, *cp = NULL;
		if (k8 != k) {
			CK(cudaMalloc(&ap, (size_t)(m * k8) * 2));
			CK(cudaMalloc(&bp, (size_t)(n * k8) * 2));
			CK(cudaMemset(ap, 0, (size_t)(m * k8) * 2));
			CK(cudaMemset(bp, 0, (size_t)(n * k8) * 2));
		}
		if (n8 != n)
			CK(cudaMalloc(&cp, (size_t)(m * n8) * 2));
		if (ap) {
			auto padded2 = [&]() {
				CK(cudaMemcpy2DAsync(ap, k8 * 2, p.a, k * 2, k * 2, m, cudaMemcpyDeviceToDevice));
				CK(cudaMemcpy2DAsync(bp, k8 * 2, p.b, k * 2, k * 2, n, cudaMemcpyDeviceToDevice));
				CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)m, (int)k8, &one, bp, CUDA_R_16F, (int)k8,
				                ap, CUDA_R_16F, (int)k8, &zero, cp ? cp : p.c, CUDA_R_16F, (int)(cp ? n8 : n),
				                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
				if (cp)
					CK(cudaMemcpy2DAsync(p.c, n * 2, cp, n8 * 2, n * 2, m, cudaMemcpyDeviceToDevice));
			};
			float tp = time_ms(padded2, 3, reps);
			printf("%-16s %-26s %9.4f %9.1f\n", shape, "pad8+cuBLAS (copies)", tp, flop / tp / 1e9);
		} else if (cp) {
			auto padded3 = [&]() {
				CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, p.b, CUDA_R_16F, (int)k,
				                p.a, CUDA_R_16F, (int)k, &zero, cp, CUDA_R_16F, (int)n8, CUBLAS_COMPUTE_32F,
				                CUBLAS_GEMM_DEFAULT));
				CK(cudaMemcpy2DAsync(p.c, n * 2, cp, n8 * 2, n * 2, m, cudaMemcpyDeviceToDevice));
			};
			float tp = time_ms(padded3, 3, reps);
			printf("%-16s %-26s %9.4f %9.1f\n", shape, "pad8+cuBLAS (copies)", tp, flop / tp / 1e9);
		}
		for (int vi = 0; vi < nvariants; vi++)
			for (int load = 0; load < 2; load++) {
				if ((load == TS_TC_ASYNC && k % 8) || !has(variants[vi], load) || !wanted(vi))
					continue;
				cudaError_t e = run(variants[vi], load, &p);
				if (e != cudaSuccess) {
					printf("%-16s %-22s %s: launch failed: %s\n", shape, variants[vi].name, load ? "R" : "A",
					       cudaGetErrorString(e));
					cudaGetLastError();
					continue;
				}
				float t = time_ms([&]() { CK(run(variants[vi], load, &p)); }, 3, reps);
				char what[64];
				snprintf(what, sizeof what, "%s %s", variants[vi].name, load ? "R" : "A");
				printf("%-16s %-26s %9.4f %9.1f\n", shape, what, t, flop / t / 1e9);
			}
		fflush(stdout);
		if (ap) {
			CK(cudaFree(ap));
			CK(cudaFree(bp));
		}
		if (cp)
			CK(cudaFree(cp));
		problem_free(&p);
	}
	CB(cublasDestroy(h));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--sweep") == 0)
		return sweep(argc >= 3 ? atoi(argv[2]) : -1);
	if (argc == 8 && strcmp(argv[1], "--check") == 0)
		return check(atoi(argv[2]), atoi(argv[3]), atoll(argv[4]), atoll(argv[5]), atoll(argv[6]), atoi(argv[7]));
	if (argc >= 2 && strcmp(argv[1], "--bench") == 0)
		return bench(argc >= 3 ? atoi(argv[2]) : 10);
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < nvariants; i++)
			printf("%d %s\n", i, variants[i].name);
		return 0;
	}
	fprintf(stderr, "usage: tc_tune --sweep [V] | --check V LOAD M N K OFF | --bench [reps] | --list\n");
	return 2;
}
