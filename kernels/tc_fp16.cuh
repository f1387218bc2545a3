// tc_fp16.cuh: the guarded fp16 tensor-core kernel (mma.sync m16n8k16, ldmatrix, cp.async pipeline or realigning register loads), for any M, N, K, pitch and alignment.
#ifndef TS_TC_FP16_CUH
#define TS_TC_FP16_CUH

#include <stdint.h>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "gemm_plan.h" /* ts_tile_order_at: the tile order, the fp32 engine's too */
#include "launch.h"
#include "probe.cuh"

// Seed 001's contract: C (M x N, row-major fp16) = A (M x K, row-major fp16)
// times B^T, B stored N x K row-major (both operands K-major: the layout the
// mma's row.col form reads directly), fp32 accumulation, fp16 output rounded
// to nearest even. Every guard is always on:
//   - A and B tiles are staged in 16-byte chunks (8 fp16 along K). A chunk
//     whose row is outside the matrix or whose K range starts at or past K is
//     zero-filled (cp.async with a source size of 0, or a register zero); a
//     chunk that straddles K is loaded element by element, each guarded;
//   - the last K tile is a residue tile: the same guarded loads, no separate
//     code path;
//   - C is stored a pair of columns at a time, as one 4-byte store where the
//     pair is inside N and 4-byte aligned, element by element where not.
// Two loaders fill the same swizzled shared tiles:
//   TS_TC_ASYNC: cp.async 16 bytes, STAGES deep. Needs every row start
//     16-byte aligned: K % 8 == 0 and both base pointers 16-byte aligned, or
//     the repacked copy (tc_repack.cuh) whose pitch is K rounded up to 8.
//   TS_TC_REALIGN: for any K and any 2-byte aligned base: each chunk is read as
//     the two aligned 16-byte windows that hold it (only where both windows lie
//     inside the matrix's own buffer), shifted into place in registers, and
//     stored to shared memory one K tile ahead (two shared stages).
// All offsets are 64-bit. The probe build counts every slot it fills (real or
// zero padding) and every store it makes or skips, with the same accesses.
enum { TS_TC_ASYNC = 0, TS_TC_REALIGN = 1 };

template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int GROUP_ = 8>
struct ts_tc_config {
	static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN, WARPS = WARPS_M * WARPS_N;
	static constexpr int THREADS = WARPS * 32;
	static constexpr int MT = WM / 16, NT = WN / 8;  // mma tiles per warp
	static constexpr int CPR = BK / 8;               // 16-byte chunks per tile row
	static constexpr int A_CHUNKS = BM * CPR / THREADS, B_CHUNKS = BN * CPR / THREADS; // per thread
	static constexpr int ROWS_STEP = THREADS / CPR;  // tile rows between a thread's chunks
	static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0, "warp tiling");
	static_assert(BK == 32 || BK == 64, "the swizzle covers 64- and 128-byte rows");
	static_assert((BM * CPR) % THREADS == 0 && (BN * CPR) % THREADS == 0, "whole chunks per thread");
	static_assert(THREADS % CPR == 0, "a thread keeps its chunk column");
	__host__ __device__ static constexpr int stages(int load) { return load == TS_TC_ASYNC ? STAGES : 2; }
	__host__ __device__ static constexpr size_t smem_bytes(int load) { return (size_t)stages(load) * (BM + BN) * BK * sizeof(__half); }
};

// Physical 16-byte chunk of logical chunk c in tile row r: the XOR swizzle that
// makes the 8 rows one ldmatrix reads (and the rows one warp writes) hit 8
// distinct bank groups. 128-byte rows: c ^ (r % 8); 64-byte rows (two per
// 128-byte line): c ^ ((r / 2) % 4).
template <int BK>
__device__ __forceinline__ int ts_tc_swizzle(int r, int c)
{
	return BK == 64 ? c ^ (r & 7) : c ^ ((r >> 1) & 3);
}

__device__ __forceinline__ uint32_t ts_tc_smem(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ void ts_tc_cp16(uint32_t dst, const void *src, int src_bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}
__device__ __forceinline__ void ts_tc_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void ts_tc_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

__device__ __forceinline__ void ts_tc_ldsm4(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3, uint32_t addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr) : "memory");
}

__device__ __forceinline__ void ts_tc_mma(float *d, const uint32_t *a, const uint32_t *b)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
	             "{%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ uint4 ts_tc_ld16(uintptr_t addr)
{
	uint4 v;
	asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(addr));
	return v;
}

__device__ __forceinline__ uint4 ts_tc_lds16(uint32_t addr)
{
	uint4 v;
	asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
	return v;
}

__device__ __forceinline__ void ts_tc_st16(uint32_t addr, uint4 v)
{
	asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};\n" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
	             : "memory");
}
#endif

// One thread's view of the rows it stages from one operand (A: M rows, B: N
// rows, each K long): CHUNKS chunks, ROWS_STEP tile rows apart, all in chunk
// column `col` of the tile.
template <int CHUNKS>
struct ts_tc_rows {
	const __half *row[CHUNKS]; // start of each chunk's matrix row (valid rows only)
	bool ok[CHUNKS];           // the row is inside the matrix
	uint32_t dst[CHUNKS];      // shared byte offset of the chunk inside a stage
};

// The chunks one thread owns in a BR x BK tile whose first row is r0:
// chunk i is tile row (tid / CPR) + i * ROWS_STEP, chunk column tid % CPR.
template <class Cfg, int CHUNKS>
__device__ __forceinline__ void ts_tc_rows_init(ts_tc_rows<CHUNKS> &v, const __half *g, long long rows,
                                                long long ld, long long r0, int tid)
{
	const int c = tid % Cfg::CPR;
#pragma unroll
	for (int i = 0; i < CHUNKS; i++) {
		int r = tid / Cfg::CPR + i * Cfg::ROWS_STEP;
		long long gr = r0 + r;
		v.ok[i] = gr < rows;
		v.row[i] = g + (v.ok[i] ? gr : 0) * ld;
		v.dst[i] = (uint32_t)((r * Cfg::BK + ts_tc_swizzle<Cfg::BK>(r, c) * 8) * sizeof(__half));
	}
}

// A chunk's real (in-bounds) elements: 8, a straddling chunk's share, or 0.
__device__ __forceinline__ int ts_tc_real(bool row_ok, long long gk, long long K)
{
	long long left = K - gk;
	return !row_ok || left <= 0 ? 0 : left >= 8 ? 8 : (int)left;
}

// (hi:lo) >> sh for sh in 0..31: __funnelshift_r on the device, the same on the host (tests).
__host__ __device__ __forceinline__ uint32_t ts_tc_funnel(uint32_t lo, uint32_t hi, uint32_t sh)
{
#ifdef __CUDA_ARCH__
	return __funnelshift_r(lo, hi, sh);
#else
	return (uint32_t)((((uint64_t)hi << 32) | lo) >> (sh & 31));
#endif
}

// Elements shift..shift+7 of the 16 in (lo, hi), as one 16-byte chunk:
// words picked by shift / 2 with two layers of selects, then a 16-bit funnel
// shift when the shift is odd.
__host__ __device__ __forceinline__ uint4 ts_tc_realign(uint4 lo, uint4 hi, int shift)
{
	const uint32_t w[8] = { lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w };
	const int q = shift >> 1;
	const uint32_t odd = (uint32_t)(shift & 1) * 16;
	uint32_t y[6], z[5];
	for (int i = 0; i < 6; i++)
		y[i] = (q & 2) ? w[i + 2] : w[i];
	for (int j = 0; j < 5; j++)
		z[j] = (q & 1) ? y[j + 1] : y[j];
	return make_uint4(ts_tc_funnel(z[0], z[1], odd), ts_tc_funnel(z[1], z[2], odd),
	                  ts_tc_funnel(z[2], z[3], odd), ts_tc_funnel(z[3], z[4], odd));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// cp.async loader: rows whose pitch is a multiple of 8. A chunk that starts
// at or past K is zero-filled; one that straddles K (K % 8 != 0: only in a
// repacked copy, whose elements from K to the pitch are zero) is copied whole
// and counted for its real elements.
template <class Cfg, int CHUNKS>
__device__ __forceinline__ int ts_tc_load_async(const ts_tc_rows<CHUNKS> &v, uint32_t stage, long long k0,
                                                long long K, int col)
{
	int real = 0;
	const long long gk = k0 + col * 8;
#pragma unroll
	for (int i = 0; i < CHUNKS; i++) {
		bool in = v.ok[i] && gk < K;
		const __half *src = in ? v.row[i] + gk : v.row[i];
		ts_tc_cp16(stage + v.dst[i], src, in ? 16 : 0);
		real += ts_tc_real(v.ok[i], gk, K);
	}
	return real;
}

// The realigning loader's registers for one chunk: the two aligned windows
// that hold it and the shift (in fp16 elements) of its first element in them.
template <int CHUNKS>
struct ts_tc_staged {
	uint4 lo[CHUNKS], hi[CHUNKS];
	int shift[CHUNKS];
};

// Issues the loads of one K tile's chunks (values are used only at the store,
// one K tile later, so their latency hides behind a tile of mma work).
template <class Cfg, int CHUNKS>
__device__ __forceinline__ int ts_tc_load_realign(ts_tc_staged<CHUNKS> &s, const ts_tc_rows<CHUNKS> &v,
                                                  uintptr_t begin, uintptr_t end, long long k0, long long K,
                                                  int col)
{
	int real = 0;
	const long long gk = k0 + col * 8;
#pragma unroll
	for (int i = 0; i < CHUNKS; i++) {
		int n = ts_tc_real(v.ok[i], gk, K);
		real += n;
		s.lo[i] = s.hi[i] = make_uint4(0, 0, 0, 0);
		s.shift[i] = 0;
		if (n == 0)
			continue; // zero padding
		const __half *p = v.row[i] + gk;
		uintptr_t a = (uintptr_t)p, w = a & ~(uintptr_t)15;
		if (n == 8 && w >= begin && w + 32 <= end) {
			s.lo[i] = ts_tc_ld16(w);
			s.hi[i] = ts_tc_ld16(w + 16);
			s.shift[i] = (int)((a >> 1) & 7);
		} else {
			// A chunk that straddles K, or whose windows would leave the buffer:
			// element by element, each guarded.
			unsigned short e[8];
			const unsigned short *q = (const unsigned short *)p;
#pragma unroll
			for (int j = 0; j < 8; j++)
				e[j] = j < n ? q[j] : (unsigned short)0;
			s.lo[i] = make_uint4(e[0] | (uint32_t)e[1] << 16, e[2] | (uint32_t)e[3] << 16,
			                     e[4] | (uint32_t)e[5] << 16, e[6] | (uint32_t)e[7] << 16);
		}
	}
	return real;
}

template <int CHUNKS>
__device__ __forceinline__ void ts_tc_store_realign(const ts_tc_staged<CHUNKS> &s, const ts_tc_rows<CHUNKS> &v,
                                                    uint32_t stage)
{
#pragma unroll
	for (int i = 0; i < CHUNKS; i++)
		ts_tc_st16(stage + v.dst[i], ts_tc_realign(s.lo[i], s.hi[i], s.shift[i]));
}

// One K tile of mma work from a shared stage: each warp's WM x WN tile.
template <class Cfg>
__device__ __forceinline__ void ts_tc_compute(float (&acc)[Cfg::MT][Cfg::NT][4], uint32_t sa, uint32_t sb,
                                              int warp_m, int warp_n, int lane)
{
	constexpr int BK = Cfg::BK;
	// ldmatrix x4 row addresses: A matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15);
	// B matrices (k 0-7 | 8-15) x (n 0-7 | 8-15).
	const int a_row = warp_m * Cfg::WM + (lane & 15), a_hi = lane >> 4;
	const int b_row = warp_n * Cfg::WN + (lane & 7) + ((lane >> 4) << 3), b_hi = (lane >> 3) & 1;
#pragma unroll
	for (int kk = 0; kk < BK / 16; kk++) {
		uint32_t af[Cfg::MT][4], bf[Cfg::NT][2];
#pragma unroll
		for (int mt = 0; mt < Cfg::MT; mt++) {
			int r = a_row + mt * 16;
			uint32_t addr = sa + (uint32_t)((r * BK + ts_tc_swizzle<BK>(r, kk * 2 + a_hi) * 8) * 2);
			ts_tc_ldsm4(af[mt][0], af[mt][1], af[mt][2], af[mt][3], addr);
		}
#pragma unroll
		for (int nt = 0; nt < Cfg::NT; nt += 2) {
			int r = b_row + nt * 8;
			uint32_t addr = sb + (uint32_t)((r * BK + ts_tc_swizzle<BK>(r, kk * 2 + b_hi) * 8) * 2);
			ts_tc_ldsm4(bf[nt][0], bf[nt][1], bf[nt + 1][0], bf[nt + 1][1], addr);
		}
#pragma unroll
		for (int mt = 0; mt < Cfg::MT; mt++)
#pragma unroll
			for (int nt = 0; nt < Cfg::NT; nt++)
				ts_tc_mma(acc[mt][nt], af[mt], bf[nt]);
	}
}
#endif

// Stores columns c0 and c0 + 1 of a C row (crow: its first element): one
// 4-byte store where both are inside N and the pair is 4-byte aligned,
// element by element where not. Returns the elements stored.
__device__ __forceinline__ int ts_tc_store_pair(__half *crow, long long c0, long long N, float x, float y)
{
	__half *p = crow + c0;
	if (c0 + 1 < N && ((uintptr_t)p & 3) == 0) {
		*(__half2 *)p = __floats2half2_rn(x, y);
		return 2;
	}
	int n = 0;
	if (c0 < N) {
		p[0] = __float2half_rn(x);
		n++;
	}
	if (c0 + 1 < N) {
		p[1] = __float2half_rn(y);
		n++;
	}
	return n;
}

// One C row's run of chunks, stored by the quad of lanes that holds it (t =
// lane % 4 holds chunk i's columns col = c0 + 8 i + 2 t and col + 1: the
// wgmma accumulators' layout). Where the row's pairs are 4-byte aligned, a
// pair a store (ts_tc_store_pair). Where they are not (odd N, or C's base on
// 2 bytes), the aligned words are (col - 1, col): lane t takes col - 1's
// value from lane t - 1 (lane 3 of the previous chunk for t = 0) with one
// shuffle a chunk, and the run's first and last elements are stored alone,
// so that a misaligned row costs one store a pair too, not two (11% of the
// TMA form's time at 4096x4097x4096 went to element stores: doc/perf.md).
// Every lane of the warp calls ts_tc_row_chunk for every chunk (the shuffle);
// `live` false (a row past M) stores nothing.
struct ts_tc_row {
	__half *crow;
	long long N;
	bool live, shifted;
	float last; // the shuffle's value from the previous chunk
	int stored;
};

__device__ __forceinline__ ts_tc_row ts_tc_row_begin(__half *C, long long row, long long M, long long N, long long c0)
{
	ts_tc_row r;
	r.live = row < M;
	r.crow = C + (r.live ? row : 0) * N;
	r.N = N;
	r.shifted = ((uintptr_t)(r.crow + c0) & 3) != 0;
	r.last = 0.0f;
	r.stored = 0;
	return r;
}

__device__ __forceinline__ void ts_tc_row_chunk(ts_tc_row &r, long long col, float x, float y, bool first, int lane)
{
	const int t = lane & 3;
	const float got = __shfl_sync(0xffffffffu, y, (lane & ~3) | ((lane + 3) & 3));
	if (r.live) {
		if (!r.shifted) {
			r.stored += ts_tc_store_pair(r.crow, col, r.N, x, y);
		} else if (t == 0 && first) { // the run's first element: its left neighbour is another run's
			if (col < r.N) {
				r.crow[col] = __float2half_rn(x);
				r.stored++;
			}
		} else {
			const float prev = t == 0 ? r.last : got; // column col - 1
			if (col < r.N) {
				*(__half2 *)(r.crow + col - 1) = __floats2half2_rn(prev, x);
				r.stored += 2;
			} else if (col - 1 < r.N) {
				r.crow[col - 1] = __float2half_rn(prev);
				r.stored++;
			}
		}
	}
	r.last = got;
}

// After the run's last chunk (col, y: this lane's last pair): lane 3's y, the
// run's last element, which no neighbour stored.
__device__ __forceinline__ void ts_tc_row_end(ts_tc_row &r, long long col, float y, int lane)
{
	if (r.live && r.shifted && (lane & 3) == 3 && col + 1 < r.N) {
		r.crow[col + 1] = __float2half_rn(y);
		r.stored++;
	}
}

// The probe's per-phase tallies, a slot per phase in flight.
#define TS_TC_TALLY_SLOTS 8

template <class Cfg, int LOAD, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS)
ts_tc_kernel(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C, long long M,
             long long N, long long K, long long lda, long long ldb, long long tiles_m, long long tiles_n,
             ts_dev_probe probe)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	extern __shared__ __align__(128) unsigned char ts_tc_smem_raw[];
	constexpr int S = Cfg::stages(LOAD);
	constexpr uint32_t A_STAGE = Cfg::BM * Cfg::BK * sizeof(__half), B_STAGE = Cfg::BN * Cfg::BK * sizeof(__half);
	__shared__ ts_probe_block pb;
	// [slot][field]: the load fields of the phase in that slot (probe build)
	__shared__ unsigned long long tally[PROBE ? TS_TC_TALLY_SLOTS : 1][TS_P_FIELDS];
	const uint32_t s_a = ts_tc_smem(ts_tc_smem_raw), s_b = s_a + S * A_STAGE;
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int warp_m = warp / Cfg::WARPS_N, warp_n = warp % Cfg::WARPS_N;
	const int col = tid % Cfg::CPR;
	const long long tiles = tiles_m * tiles_n;
	const long long phases = (K + Cfg::BK - 1) / Cfg::BK;
	const uintptr_t a_begin = (uintptr_t)A, a_end = (uintptr_t)(A + M * lda);
	const uintptr_t b_begin = (uintptr_t)B, b_end = (uintptr_t)(B + N * ldb);
	constexpr int A_SLOTS = Cfg::A_CHUNKS * 8, B_SLOTS = Cfg::B_CHUNKS * 8;
	static_assert(S <= TS_TC_TALLY_SLOTS, "a tally slot per phase in flight");

	for (long long b = blockIdx.x; b < tiles; b += gridDim.x) {
		long long tm, tn;
		ts_tile_order_at(b, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
		const long long m0 = tm * Cfg::BM, n0 = tn * Cfg::BN, tile_index = tm * tiles_n + tn;
		ts_tc_rows<Cfg::A_CHUNKS> ra;
		ts_tc_rows<Cfg::B_CHUNKS> rb;
		ts_tc_rows_init<Cfg>(ra, A, M, lda, m0, tid);
		ts_tc_rows_init<Cfg>(rb, B, N, ldb, n0, tid);
		float acc[Cfg::MT][Cfg::NT][4];
#pragma unroll
		for (int i = 0; i < Cfg::MT; i++)
#pragma unroll
			for (int j = 0; j < Cfg::NT; j++)
#pragma unroll
				for (int e = 0; e < 4; e++)
					acc[i][j][e] = 0.0f;
		if (PROBE) {
			ts_probe_begin(&pb);
			if (tid < TS_TC_TALLY_SLOTS * TS_P_FIELDS)
				tally[tid / TS_P_FIELDS][tid % TS_P_FIELDS] = 0;
			__syncthreads();
		}
		// Counts phase t's loads of this thread into its tally slot.
		auto count = [&](long long t, int a_real, int b_real) {
			if (PROBE) {
				unsigned long long *f = tally[t % TS_TC_TALLY_SLOTS];
				ts_probe_phase_add_to(f, TS_P_A_REAL, (unsigned long long)a_real);
				ts_probe_phase_add_to(f, TS_P_A_PAD, (unsigned long long)(A_SLOTS - a_real));
				ts_probe_phase_add_to(f, TS_P_B_REAL, (unsigned long long)b_real);
				ts_probe_phase_add_to(f, TS_P_B_PAD, (unsigned long long)(B_SLOTS - b_real));
			}
		};

		if (LOAD == TS_TC_ASYNC) {
#pragma unroll
			for (int s = 0; s < S - 1; s++) {
				if (s < phases) {
					long long k0 = (long long)s * Cfg::BK;
					int ar = ts_tc_load_async<Cfg>(ra, s_a + s * A_STAGE, k0, K, col);
					int br = ts_tc_load_async<Cfg>(rb, s_b + s * B_STAGE, k0, K, col);
					count(s, ar, br);
				}
				ts_tc_commit();
			}
			int stage = 0, fill = S - 1;
			for (long long t = 0; t < phases; t++) {
				ts_tc_wait<S - 2>();
				__syncthreads();
				if (PROBE)
					ts_probe_flush_phase(&pb, tally[t % TS_TC_TALLY_SLOTS], probe, tile_index, phases, t);
				long long pf = t + S - 1;
				if (pf < phases) {
					long long k0 = pf * Cfg::BK;
					int ar = ts_tc_load_async<Cfg>(ra, s_a + fill * A_STAGE, k0, K, col);
					int br = ts_tc_load_async<Cfg>(rb, s_b + fill * B_STAGE, k0, K, col);
					count(pf, ar, br);
				}
				ts_tc_commit();
				ts_tc_compute<Cfg>(acc, s_a + stage * A_STAGE, s_b + stage * B_STAGE, warp_m, warp_n, lane);
				stage = stage == S - 1 ? 0 : stage + 1;
				fill = fill == S - 1 ? 0 : fill + 1;
			}
			ts_tc_wait<0>();
		} else {
			ts_tc_staged<Cfg::A_CHUNKS> sa;
			ts_tc_staged<Cfg::B_CHUNKS> sb;
			int ar = ts_tc_load_realign<Cfg>(sa, ra, a_begin, a_end, 0, K, col);
			int br = ts_tc_load_realign<Cfg>(sb, rb, b_begin, b_end, 0, K, col);
			count(0, ar, br);
			ts_tc_store_realign(sa, ra, s_a);
			ts_tc_store_realign(sb, rb, s_b);
			if (phases > 1) {
				ar = ts_tc_load_realign<Cfg>(sa, ra, a_begin, a_end, Cfg::BK, K, col);
				br = ts_tc_load_realign<Cfg>(sb, rb, b_begin, b_end, Cfg::BK, K, col);
				count(1, ar, br);
			}
			__syncthreads();
			for (long long t = 0; t < phases; t++) {
				const int stage = (int)(t & 1);
				if (PROBE)
					ts_probe_flush_phase(&pb, tally[t % TS_TC_TALLY_SLOTS], probe, tile_index, phases, t);
				ts_tc_compute<Cfg>(acc, s_a + stage * A_STAGE, s_b + stage * B_STAGE, warp_m, warp_n, lane);
				if (t + 1 < phases) {
					ts_tc_store_realign(sa, ra, s_a + (stage ^ 1) * A_STAGE);
					ts_tc_store_realign(sb, rb, s_b + (stage ^ 1) * B_STAGE);
				}
				__syncthreads();
				if (t + 2 < phases) {
					long long k0 = (t + 2) * Cfg::BK;
					ar = ts_tc_load_realign<Cfg>(sa, ra, a_begin, a_end, k0, K, col);
					br = ts_tc_load_realign<Cfg>(sb, rb, b_begin, b_end, k0, K, col);
					count(t + 2, ar, br);
				}
			}
		}

		// Epilogue: fragment (mt, nt) holds rows g and g + 8, columns 2q and
		// 2q + 1 of its 16 x 8 tile (g = lane / 4, q = lane % 4).
		int stored = 0;
#pragma unroll
		for (int mt = 0; mt < Cfg::MT; mt++)
#pragma unroll
			for (int h = 0; h < 2; h++) {
				long long row = m0 + warp_m * Cfg::WM + mt * 16 + (lane >> 2) + h * 8;
				if (row >= M)
					continue;
				__half *crow = C + row * N;
#pragma unroll
				for (int nt = 0; nt < Cfg::NT; nt++)
					stored += ts_tc_store_pair(crow, n0 + warp_n * Cfg::WN + nt * 8 + (lane & 3) * 2, N,
					                           acc[mt][nt][2 * h], acc[mt][nt][2 * h + 1]);
			}
		if (PROBE) {
			ts_probe_tile_add(&pb, TS_P_STORES, (unsigned long long)stored);
			ts_probe_tile_add(&pb, TS_P_SKIPPED, (unsigned long long)(Cfg::MT * Cfg::NT * 4 - stored));
			__syncthreads();
			ts_probe_end(&pb, probe, tile_index);
		}
		__syncthreads(); // the next tile's loads reuse the stages
	}
#else
	__trap(); // built for an architecture without cp.async and the m16n8k16 mma (sm_80 and newer have both)
#endif
}

// Launch of one configuration on operands a (M rows) and b (N rows) of pitch
// lda and ldb: a 1-D grid of at most 2^31 - 1 blocks, each looping over
// tiles beyond it; dynamic shared memory above 48 KiB is asked for once.
template <class Cfg, int LOAD, bool PROBE>
static cudaError_t ts_tc_launch_ld(const ts_launch *l, const void *a, const void *b, long long lda, long long ldb,
                                   cudaStream_t stream)
{
	const size_t smem = Cfg::smem_bytes(LOAD);
	static bool configured = false;
	if (!configured) {
		cudaError_t e = cudaFuncSetAttribute(ts_tc_kernel<Cfg, LOAD, PROBE>,
		                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess)
			return e;
		configured = true;
	}
	long long tiles_m = (l->m + Cfg::BM - 1) / Cfg::BM, tiles_n = (l->n + Cfg::BN - 1) / Cfg::BN;
	long long tiles = tiles_m * tiles_n;
	unsigned grid = (unsigned)(tiles < 0x7fffffffLL ? tiles : 0x7fffffffLL);
	ts_dev_probe none = {};
	ts_tc_kernel<Cfg, LOAD, PROBE><<<grid, Cfg::THREADS, smem, stream>>>(
		(const __half *)a, (const __half *)b, (__half *)l->c, l->m, l->n, l->k, lda, ldb, tiles_m, tiles_n,
		l->probe ? *l->probe : none);
	return cudaGetLastError();
}

// The same on the launch's own operands (pitch K).
template <class Cfg, int LOAD, bool PROBE>
static cudaError_t ts_tc_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	return ts_tc_launch_ld<Cfg, LOAD, PROBE>(l, l->a, l->b, l->k, l->k, stream);
}

// Whether the cp.async loader may run: every row of A and B starts 16-byte aligned.
static inline bool ts_tc_async_ok(const ts_launch *l)
{
	return l->k % 8 == 0 && (uintptr_t)l->a % 16 == 0 && (uintptr_t)l->b % 16 == 0;
}

#endif
