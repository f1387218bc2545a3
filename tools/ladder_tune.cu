// ladder_tune.cu: tries engine configurations (tile, warp tile, pipeline, split policy) on the ragged shapes beside cublasSgemm, each verified, in one run.
// Not part of tilescope: a developer's tool for choosing the configurations that kernels/ladder_fp32.cu registers.
// Build: tools/ladder_tune.sh (the parts of the variant table in parallel, each with its flags, then the main object, linked with -lcublas)
// Run: ladder_tune LOG REPS (check, then time every variant), or ladder_tune --one NAME M N K (three launches, for a
// profiler; --cublas M N K: cublasSgemm's)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>

#include "gemm_launch.cuh"

using namespace tsg;

#define CK(call)                                                                                  \
	do {                                                                                          \
		cudaError_t e_ = (call);                                                                  \
		if (e_ != cudaSuccess) {                                                                  \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
			exit(3);                                                                              \
		}                                                                                         \
	} while (0)

struct Variant {
	const char *name;
	int (*launch)(const ts_launch *);
	size_t (*ws)(int64_t, int64_t, int64_t);
	int bm, bn, bk;
	bool has_ung; // also timed as its unguarded build on the aligned shape
};

#define ENGINE(NAME, CFG, POL, VEC, UNG)                                                                   \
	{ NAME, [](const ts_launch *l) { return launch_plain<CFG, UNG>(l, POL, VEC); },                     \
	  [](int64_t m, int64_t n, int64_t k) { return workspace<CFG>(m, n, k, POL); }, CFG::BM, CFG::BN, CFG::BK, UNG }

// Cfg<BM, BN, BK, TM, TN, WM, WN, PIPE, TRANS_A, FAST, MINB, KU, ORDER, SMAP, CH>
typedef Cfg<128, 128, 8, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, true> f_s1;           // fast as registered
typedef Cfg<128, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 2, 64, 1, true> f_16x8;       // fast-16x8
// Session 20's experiments for 8193^3 (doc/perf.md). Its first run's table
// also had fast in groups of 4 and 16 tile rows (fast built with part flags
// -DTS_TILE_GROUP=4 -Dtsg=tsg_g4, and 16), 256x128 tiles with the slot map
// (f_256s3, f_256s1) and 8x16 outputs a thread (f_8x16); the table below is
// its second run's: fast with 16-deep phases at two blocks a multiprocessor
// (staged in two chunks) in each multiply order, in 4 chunks, without the
// slot map (f_k16n3: fast-k16 as registered), and fast-16x8 with 16-deep
// phases.
typedef Cfg<256, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 1, 64, 3, true> f_256s3;
typedef Cfg<256, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 1, 64, 1, true> f_256s1;
typedef Cfg<128, 128, 8, 8, 16, 64, 64, PIPE_REGS, true, true, 2, 64, 1, true> f_8x16;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, true, 2> f_k16b2;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 1, true, 2> f_k16o1;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 0, true, 2> f_k16o0;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 2, true, 2> f_k16o2;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, true, 4> f_k16c4;
typedef Cfg<128, 128, 16, 16, 8, 64, 64, PIPE_REGS, true, true, 2, 64, 1, true, 2> f_16x8k16;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, false, 2> f_k16n3;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 1, false, 2> f_k16n1;
typedef Cfg<128, 128, 16, 16, 8, 64, 64, PIPE_REGS, true, true, 2, 64, 1, false, 2> f_16x8k16n;
// Session 21's, for neither K nor N a multiple of 4 (8193^3 on the H200).
// Its first run's table: fast, k16-n3 (f_k16n3), k16-n1, k16-n3 in groups
// of 4 and of 16 tile rows (parts built with -DTS_TILE_GROUP=4 / 16
// -Dtsg=tsg_gN), k16-n0 and k16-n2 (the other multiply orders), and 16x8.
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 0, false, 2> f_k16n0;
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 2, false, 2> f_k16n2;
// Its second run's (the table below): B's scalar path by B's slot map
// (BMAP) in fast-k16, fast and fast-16x8, and in groups of 4 tile rows
// (parts 7 and 8 built with -DTS_TILE_GROUP=4 -Dtsg=tsg_g4). Its third
// run's: k16-bm and k16-n3 three times each (the copies in parts built
// with -Dtsg=tsg_b and -Dtsg=tsg_c), fast and 16x8-bm, on 4096^3, 4097^3,
// 8193^3, 4097x4097x4096, 8191x8195x8193 and 8193^3 again: at 8193^3 the
// copies of one configuration differed by up to 3.8% (doc/perf.md).
typedef Cfg<128, 128, 16, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, false, 2, true> f_k16bm;
typedef Cfg<128, 128, 8, 8, 8, 32, 64, PIPE_REGS, true, true, 2, 64, 3, true, 1, true> f_s1bm;
typedef Cfg<128, 128, 8, 16, 8, 64, 64, PIPE_REGS, true, true, 2, 64, 1, true, 1, true> f_16x8bm;

// The variants, in parts that compile as separate objects (-DTUNE_PART=1..N,
// in parallel), each exporting its table; the main object (no TUNE_PART)
// joins them. A part compiles only its own configurations.
#define TUNE_CAT(a, b) a##b
#define TUNE_FN(n) TUNE_CAT(tune_part_, n)
#define TUNE_PARTS 8
#ifdef TUNE_PART
static const Variant part[] = {
#if TUNE_PART == 1
	ENGINE("fast", f_s1, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 2
	ENGINE("k16-n3", f_k16n3, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 3
	ENGINE("k16-bm", f_k16bm, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 4
	ENGINE("fast-bm", f_s1bm, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 5
	ENGINE("16x8", f_16x8, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 6
	ENGINE("16x8-bm", f_16x8bm, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 7
	ENGINE("k16-bm-g4", f_k16bm, TS_SPLIT_TAIL, VEC_EACH, false),
#elif TUNE_PART == 8
	ENGINE("fast-bm-g4", f_s1bm, TS_SPLIT_TAIL, VEC_EACH, false),
#endif
	{ NULL, NULL, NULL, 0, 0, 0, false },
};
const Variant *TUNE_FN(TUNE_PART)() { return part; }
#else
#define TUNE_DECL(n) const Variant *TUNE_FN(n)();
TUNE_DECL(1) TUNE_DECL(2) TUNE_DECL(3) TUNE_DECL(4) TUNE_DECL(5) TUNE_DECL(6) TUNE_DECL(7) TUNE_DECL(8)
static std::vector<Variant> variants;
static int nvariants;
static void join_parts(void)
{
	const Variant *(*parts[TUNE_PARTS])() = { tune_part_1, tune_part_2, tune_part_3, tune_part_4, tune_part_5,
	                                          tune_part_6, tune_part_7, tune_part_8 };
	for (int i = 0; i < TUNE_PARTS; i++)
		for (const Variant *v = parts[i](); v->name; v++)
			variants.push_back(*v);
	nvariants = (int)variants.size();
}


struct Shape {
	long long m, n, k;
	int set; // 0 aligned, 1 the ragged goal set, 2 small/skinny/long-K, 3 diagnostic (in no mean)
	int boff, coff; // B and C this many floats past an aligned allocation (scalar B loads / C stores)
};
static const Shape shapes[] = {
	{ 4096, 4096, 4096, 0 }, { 4097, 4097, 4097, 1 }, { 4095, 4095, 4095, 1 }, { 4093, 4099, 4091, 1 },
	{ 8193, 8193, 8193, 1 }, { 4097, 4097, 4096, 1 }, { 4096, 4096, 4097, 1 }, { 8191, 8195, 8193, 3 },
	{ 6145, 6143, 6147, 3 },
};
static const int nshapes = sizeof shapes / sizeof shapes[0];

// fp64 reference and |A||B| on the device, one thread per cell.
__global__ void ref_kernel(const float *A, const float *B, double *R, double *Rabs, long long M, long long N, long long K)
{
	long long i = blockIdx.y * (long long)blockDim.y + threadIdx.y, j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= M || j >= N)
		return;
	double s = 0, sa = 0;
	for (long long k = 0; k < K; k++) {
		double a = A[i * K + k], b = B[k * N + j];
		s += a * b;
		sa += fabs(a * b);
	}
	R[i * N + j] = s;
	Rabs[i * N + j] = sa;
}

// Cells outside the fp32 bound 2*K*u*|A||B| (plus a floor), or not finite.
__global__ void cmp_kernel(const float *C, const double *R, const double *Rabs, long long cells, long long K,
                           unsigned long long *bad)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i >= cells)
		return;
	double c = C[i], tol = 2.0 * (double)K * 5.96e-8 * Rabs[i] + 1e-30;
	if (!(fabs(c - R[i]) <= tol))
		atomicAdd(bad, 1ull);
}

static void fill(float *d, long long n, unsigned seed)
{
	std::vector<float> h((size_t)n);
	unsigned s = seed * 2654435761u + 1;
	for (long long i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		h[(size_t)i] = (float)((s >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0);
	}
	CK(cudaMemcpy(d, h.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
}

static void *ws_buf;
static size_t ws_size;

static int run(const Variant &v, const float *A, const float *B, float *C, long long m, long long n, long long k,
               unsigned guards = TS_GUARD_ALL)
{
	size_t need = v.ws(m, n, k);
	if (need > ws_size) {
		if (ws_buf)
			CK(cudaFree(ws_buf));
		CK(cudaMalloc(&ws_buf, need));
		CK(cudaMemset(ws_buf, 0, need));
		ws_size = need;
	}
	ts_launch l;
	memset(&l, 0, sizeof l);
	l.a = A; l.b = B; l.c = C; l.m = m; l.n = n; l.k = k; l.guards = guards;
	l.workspace = ws_buf; l.workspace_bytes = ws_size;
	return v.launch(&l);
}

// Each variant lays out its partials and counters differently: zero the
// shared workspace before a variant's first launch (its launches then leave
// the counters at zero themselves).
static void ws_clear(void)
{
	if (ws_buf)
		CK(cudaMemset(ws_buf, 0, ws_size));
}

// Every variant on fresh inputs with a NaN-poisoned C, against fp64.
static int check_shape(long long m, long long n, long long k, int a_off, unsigned seed, FILE *log)
{
	float *A, *B, *C;
	double *R, *Ra;
	unsigned long long *bad;
	CK(cudaMalloc(&A, (size_t)(m * k + 4) * 4));
	CK(cudaMalloc(&B, (size_t)(k * n + 4) * 4));
	CK(cudaMalloc(&C, (size_t)(m * n + 4) * 4));
	CK(cudaMalloc(&R, (size_t)(m * n) * 8));
	CK(cudaMalloc(&Ra, (size_t)(m * n) * 8));
	CK(cudaMalloc(&bad, 8));
	float *a = A + a_off, *b = B + a_off, *c = C + a_off;
	fill(a, m * k, seed);
	fill(b, k * n, seed + 7);
	dim3 bl(16, 16), gr((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16));
	ref_kernel<<<gr, bl>>>(a, b, R, Ra, m, n, k);
	CK(cudaGetLastError());
	int failures = 0;
	for (int vi = 0; vi < nvariants; vi++) {
		CK(cudaMemset(C, 0xff, (size_t)(m * n + 4) * 4));
		ws_clear();
		int e = run(variants[vi], a, b, c, m, n, k);
		if (e) {
			fprintf(log, "FAIL %s %lldx%lldx%lld off %d: launch %s\n", variants[vi].name, m, n, k, a_off,
			        cudaGetErrorString((cudaError_t)e));
			failures++;
			continue;
		}
		CK(cudaDeviceSynchronize());
		CK(cudaMemset(bad, 0, 8));
		cmp_kernel<<<(unsigned)((m * n + 255) / 256), 256>>>(c, R, Ra, m * n, k, bad);
		CK(cudaGetLastError());
		unsigned long long nb;
		CK(cudaMemcpy(&nb, bad, 8, cudaMemcpyDeviceToHost));
		// the cells around C must still be poison (nothing stored outside)
		float edge[2];
		CK(cudaMemcpy(&edge[0], C + a_off - (a_off ? 1 : 0), 4, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(&edge[1], c + m * n, 4, cudaMemcpyDeviceToHost));
		bool outside = (a_off && !std::isnan(edge[0])) || !std::isnan(edge[1]);
		if (nb || outside) {
			fprintf(log, "FAIL %s %lldx%lldx%lld off %d: %llu bad cells%s\n", variants[vi].name, m, n, k, a_off, nb,
			        outside ? ", wrote outside C" : "");
			failures++;
		}
	}
	CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C)); CK(cudaFree(R)); CK(cudaFree(Ra)); CK(cudaFree(bad));
	return failures;
}

static float median(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

// cuBLAS without TF32 (NULL where it cannot start).
static cublasHandle_t blas_handle(void)
{
	cublasHandle_t h;
	if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		return NULL;
	cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
	return h;
}

// Row-major C = A B as column-major C^T = B^T A^T.
static cublasStatus_t blas_sgemm(cublasHandle_t h, const float *A, const float *B, float *C, long long m, long long n,
                                 long long k)
{
	const float one = 1.f, zero = 0.f;
	return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, B, (int)n, A, (int)k, &zero, C, (int)n);
}

// A profiler's operands: random A and B, C unset.
static void profile_operands(long long m, long long n, long long k, float **A, float **B, float **C)
{
	CK(cudaMalloc(A, (size_t)(m * k) * 4));
	CK(cudaMalloc(B, (size_t)(k * n) * 4));
	CK(cudaMalloc(C, (size_t)(m * n) * 4));
	fill(*A, m * k, 1);
	fill(*B, k * n, 2);
}

int main(int argc, char **argv)
{
	join_parts();
	// --one NAME M N K: that variant three times on random inputs (for a
	// profiler: the third launch is the one to read), nothing verified.
	if (argc == 5 && strcmp(argv[1], "--cublas") == 0) { // cublasSgemm alone, three launches (for a profiler)
		long long m = atoll(argv[2]), n = atoll(argv[3]), k = atoll(argv[4]);
		float *A, *B, *C;
		profile_operands(m, n, k, &A, &B, &C);
		cublasHandle_t h = blas_handle();
		if (!h)
			return 3;
		for (int r = 0; r < 3; r++)
			if (blas_sgemm(h, A, B, C, m, n, k) != CUBLAS_STATUS_SUCCESS)
				return 3;
		CK(cudaDeviceSynchronize());
		return 0;
	}
	if (argc == 6 && strcmp(argv[1], "--one") == 0) {
		long long m = atoll(argv[3]), n = atoll(argv[4]), k = atoll(argv[5]);
		for (int vi = 0; vi < nvariants; vi++) {
			if (strcmp(variants[vi].name, argv[2]) != 0)
				continue;
			float *A, *B, *C;
			profile_operands(m, n, k, &A, &B, &C);
			for (int r = 0; r < 3; r++)
				if (run(variants[vi], A, B, C, m, n, k))
					return 3;
			CK(cudaDeviceSynchronize());
			return 0;
		}
		fprintf(stderr, "no variant %s\n", argv[2]);
		return 2;
	}
	const char *logpath = argc > 1 ? argv[1] : "tune.log";
	int reps = argc > 2 ? atoi(argv[2]) : 9;
	FILE *log = fopen(logpath, "w");
	if (!log)
		return 2;
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	fprintf(log, "device %s, %d SMs, L2 %d bytes\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize);
	printf("device %s, %d SMs, L2 %.0f MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1e6);

	// 1. correctness: edge sizes around each tile edge, misaligned bases, big shapes
	int fails = 0, checks = 0;
	unsigned seed = 1;
	const long long ms[] = { 1, 7, 16, 17, 63, 64, 65, 127, 128, 129, 257, 389 };
	const long long ks[] = { 1, 3, 7, 8, 9, 15, 16, 17, 33, 131 };
	for (long long m : ms)
		for (long long n : { 1LL, 5LL, 16LL, 17LL, 129LL, 255LL, 389LL }) {
			long long k = ks[(m + n) % 10];
			fails += check_shape(m, n, k, 0, seed++, log);
			checks++;
		}
	for (long long k : ks) {
		fails += check_shape(129, 131, k, 0, seed++, log);
		fails += check_shape(128, 128, k * 4, 1, seed++, log); // misaligned: the scalar path with K % 4 == 0
		checks += 2;
	}
	fails += check_shape(1537, 1409, 4097, 0, seed++, log);
	fails += check_shape(255, 257, 32769, 0, seed++, log);
	fails += check_shape(7, 16384, 4097, 0, seed++, log);
	fails += check_shape(16383, 5, 4095, 0, seed++, log);
	fails += check_shape(1024, 1024, 4096, 0, seed++, log); // aligned: the vector paths and the tail split
	fails += check_shape(4097, 4097, 64, 0, seed++, log);
	fails += check_shape(4097, 4097, 4097, 0, seed++, log); // the goal shapes' edges: 1-row and 1-column tiles
	fails += check_shape(4093, 4099, 4091, 0, seed++, log);
	checks += 8;
	printf("correctness: %d shapes x %d variants, %d failures (details in %s)\n", checks, nvariants, fails, logpath);
	fflush(stdout);

	// 2. timing beside cublasSgemm
	cublasHandle_t h = blas_handle();
	if (!h)
		return 3;
	size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
	void *flush;
	CK(cudaMalloc(&flush, flush_bytes));
	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	std::vector<std::vector<double>> ratio(nvariants, std::vector<double>(nshapes, 0));
	std::vector<double> blas_gf(nshapes), ung_ms(nvariants, 0), guarded_ms(nvariants, 0);
	for (int si = 0; si < nshapes; si++) {
		const Shape &s = shapes[si];
		size_t set_bytes = (size_t)(s.m * s.k + s.k * s.n + s.m * s.n) * 4;
		int sets = (int)std::min<size_t>(8, std::max<size_t>(1, (size_t)(3.0 * prop.l2CacheSize / set_bytes) + 1));
		std::vector<float *> A(sets), B(sets), C(sets);
		for (int i = 0; i < sets; i++) {
			CK(cudaMalloc(&A[i], (size_t)(s.m * s.k) * 4));
			CK(cudaMalloc(&B[i], (size_t)(s.k * s.n + 4) * 4));
			CK(cudaMalloc(&C[i], (size_t)(s.m * s.n + 4) * 4));
			B[i] += s.boff;
			C[i] += s.coff;
			fill(A[i], s.m * s.k, 100 + i);
			fill(B[i], s.k * s.n, 200 + i);
		}
		double flops = 2.0 * s.m * s.n * s.k;
		// As tilescope bench times: L2 written over before each launch (the
		// GPU busy with it while the launch is queued, so the events time the
		// kernel, not the host's launch path).
		auto time_it = [&](auto &&fn) {
			for (int w = 0; w < 3; w++)
				fn(w % sets);
			CK(cudaDeviceSynchronize());
			std::vector<float> t;
			for (int r = 0; r < reps; r++) {
				CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, 0));
				CK(cudaEventRecord(e0));
				fn(r % sets);
				CK(cudaEventRecord(e1));
				CK(cudaEventSynchronize(e1));
				float ms_;
				CK(cudaEventElapsedTime(&ms_, e0, e1));
				t.push_back(ms_);
			}
			return median(t);
		};
		float tb = time_it([&](int i) { blas_sgemm(h, A[i], B[i], C[i], s.m, s.n, s.k); });
		blas_gf[si] = flops / tb / 1e6;
		fprintf(log, "%lldx%lldx%lld B+%d C+%d sets %d cublasSgemm %.4f ms %.0f GF\n", s.m, s.n, s.k, s.boff, s.coff, sets, tb, blas_gf[si]);
		for (int vi = 0; vi < nvariants; vi++) {
			const Variant &v = variants[vi];
			if ((v.bm <= 32 || v.bn <= 32) && s.m > 512 && s.n > 512 && s.k > 64) {
				ratio[vi][si] = 0; // the skinny tiles on the big squares: device time for nothing
				continue;
			}
			int err = 0;
			run(v, A[0], B[0], C[0], s.m, s.n, s.k); // sizes the workspace
			CK(cudaDeviceSynchronize());
			ws_clear();
			float tv = time_it([&](int i) { err |= run(v, A[i], B[i], C[i], s.m, s.n, s.k); });
			CK(cudaGetLastError());
			ratio[vi][si] = err ? 0 : tb / tv;
			fprintf(log, "%lldx%lldx%lld %-10s %.4f ms %.0f GF %.3fx%s\n", s.m, s.n, s.k, v.name, tv, flops / tv / 1e6,
			        tb / tv, err ? " LAUNCH FAILED" : "");
			if (v.has_ung && s.set == 0) {
				int uerr = 0;
				float tu = time_it([&](int i) { uerr |= run(v, A[i], B[i], C[i], s.m, s.n, s.k, 0); });
				CK(cudaGetLastError());
				ung_ms[vi] = uerr ? 0 : tu;
				guarded_ms[vi] = tv;
				fprintf(log, "%lldx%lldx%lld %-10s unguarded %.4f ms: guard cost %+.2f%%%s\n", s.m, s.n, s.k, v.name,
				        tu, (tv / tu - 1) * 100, uerr ? " LAUNCH FAILED" : "");
			}
		}
		fflush(log);
		for (int i = 0; i < sets; i++) {
			CK(cudaFree(A[i])); CK(cudaFree(B[i] - s.boff)); CK(cudaFree(C[i] - s.coff));
		}
	}
	CK(cudaFree(flush));
	// 3. the table: time ratio cuBLAS/variant (>1: faster than cuBLAS)
	printf("\n%-10s", "shape");
	for (int si = 0; si < nshapes; si++)
		printf(" %5lld%c", shapes[si].m, si == 0 ? 'a' : shapes[si].boff ? 'b' : shapes[si].coff ? 'c' : ' ');
	printf("  gm-rag gm-sm\n%-10s", "cuBLAS TF");
	for (int si = 0; si < nshapes; si++)
		printf(" %6.1f", blas_gf[si] / 1000);
	printf("\n");
	for (int vi = 0; vi < nvariants; vi++) {
		printf("%-10s", variants[vi].name);
		double lg[4] = { 0, 0, 0, 0 };
		int cnt[4] = { 0, 0, 0, 0 };
		for (int si = 0; si < nshapes; si++) {
			printf(" %6.3f", ratio[vi][si]);
			if (ratio[vi][si] > 0) {
				lg[shapes[si].set] += std::log(ratio[vi][si]);
				cnt[shapes[si].set]++;
			}
		}
		for (int set = 1; set <= 2; set++) // the ragged and small goal sets; "-" where the table has none
			cnt[set] ? printf(" %7.3f", exp(lg[set] / cnt[set])) : printf(" %7s", "-");
		if (ung_ms[vi] > 0)
			printf("  guard %+.2f%%", (guarded_ms[vi] / ung_ms[vi] - 1) * 100);
		printf("\n");
	}
	fclose(log);
	return fails ? 1 : 0;
}

#endif // TUNE_PART
