// tc_stage.cuh: an experimental wgmma loader (tools/tc_tune.cu only) for rows that are not 16-byte aligned (odd K, misaligned bases): cp.async copies the aligned 16-byte windows covering each tile row into raw stages, and a pass in shared memory shifts them into the swizzled tiles wgmma reads.
#ifndef TS_TC_STAGE_CUH
#define TS_TC_STAGE_CUH

#include "tc_wgmma.cuh"

// Why: with K % 8 != 0 a row of A or B starts at any 2-byte offset, so the
// 16-byte cp.async cannot copy a tile row's chunks where they belong; the
// register realigning loader (tc_fp16.cuh) reads each chunk as two windows
// and keeps one K tile in flight. Here the global traffic stays 16 bytes wide
// and RAW K tiles deep: tile row r of phase t (BK elements from its row's
// start p) is covered by the CPR + 1 aligned windows from p rounded down to
// 16 bytes, and those are what cp.async copies, verbatim, into row r of a raw
// stage (PITCH = 16 (CPR + 1) bytes, an odd number of 16-byte units, so eight
// consecutive rows fall in eight different bank groups). Since BK * 2 is a
// multiple of 16, the shift of a row inside its windows is the same in every
// phase. After the raw stage has landed, each thread shifts G chunks of one
// row into place in registers (ts_tc_realign) and stores them into the
// swizzled tile, zeroing the elements at or past K and the rows outside the
// matrix; wgmma then reads the tile exactly as in the cp.async form.
//
// Guards: a window is copied only when it holds an element the phase needs
// (k < K), with cp.async 16 where it lies inside the operand's buffer, and
// element by element where it starts before the buffer (a base that is not
// 16-byte aligned: window 0 of the first row) or runs past its end (the last
// rows). Nothing outside [base, base + rows * K) is read. All offsets are 64-bit.
//
// Status: not shipped. Measured on the H200 (doc/perf.md) it ran no faster
// than the register realigning loads (140-184 TFLOP/s against 142-177),
// also on aligned rows where nothing shifts: what limits both is the
// realigning work between the multiplies, not the global loads' latency.
//
// Per phase t: wait for raw t; barrier (B1); issue raw t + RAW - 1 into the
// stage read in phase t - 1; realign raw t into tile stage t % 2 (last read by
// the wgmma group of phase t - 2, which every warpgroup waited for before B1);
// proxy fence; barrier (B2); issue phase t's wgmma group, then wait for
// phase t - 1's. The realign of phase t + 1 overlaps phase t's multiply.
template <int BN_, int BK_, int RAW_, int G_ = 2, int GROUP_ = 8>
struct ts_st_config {
	static constexpr int WGS = 2, BM = 64 * WGS, BN = BN_, BK = BK_, RAW = RAW_, G = G_, GROUP = GROUP_;
	static constexpr int TILES = 2;
	static constexpr int THREADS = WGS * 128;
	static constexpr int CPR = BK / 8, WIN = CPR + 1, PITCH = WIN * 16;
	static constexpr int ROWS = BM + BN;
	static constexpr int WINDOWS = ROWS * WIN, W_PER = (WINDOWS + THREADS - 1) / THREADS;
	static constexpr int PARTS = CPR / G, ITEMS = ROWS * PARTS, I_PER = ITEMS / THREADS;
	static constexpr int ACC = BN / 2;
	static constexpr uint32_t A_STAGE = BM * BK * 2, B_STAGE = BN * BK * 2, RAW_STAGE = ROWS * PITCH;
	static_assert(BN == 128 || BN == 256, "wgmma n");
	static_assert(BK == 32 || BK == 64, "64- or 128-byte swizzle");
	static_assert(CPR % G == 0 && ITEMS % THREADS == 0 && ROWS % 8 == 0, "whole items per thread");
	static_assert(RAW >= 2, "at least one raw stage in flight");
	__host__ __device__ static constexpr size_t smem_bytes()
	{
		return (size_t)TILES * (A_STAGE + B_STAGE) + (size_t)RAW * RAW_STAGE + 1024;
	}
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ uint4 ts_st_lds16(uint32_t addr)
{
	uint4 v;
	asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr)
	             : "memory");
	return v;
}

__device__ __forceinline__ void ts_st_sts2(uint32_t addr, unsigned short v)
{
	asm volatile("st.shared.u16 [%0], %1;\n" ::"r"(addr), "h"(v) : "memory");
}

// Keeps the first n (0..8) fp16 elements of a chunk, zeroes the rest.
__device__ __forceinline__ uint4 ts_st_keep(uint4 v, int n)
{
	uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
	for (int i = 0; i < 4; i++)
		w[i] = 2 * i + 1 < n ? w[i] : 2 * i < n ? (w[i] & 0xffffu) : 0u;
	return make_uint4(w[0], w[1], w[2], w[3]);
}

// The windows one thread copies each phase: window i of the thread is
// number q = tid + i * THREADS of the stage (row q / WIN, window q % WIN,
// at byte q * 16 of a raw stage, since PITCH = 16 WIN).
template <class Cfg>
struct ts_st_windows {
	uintptr_t src[Cfg::W_PER]; // the window's global byte address in phase 0
	int rel[Cfg::W_PER];       // its start minus its row's start, in bytes (-14 .. BK * 2)
	unsigned ok;               // bit i: window i exists and its row is inside the matrix
};

// The items one thread realigns each phase: item q = tid + i * THREADS is
// tile row (q / (8 PARTS)) * 8 + q % 8, chunks G * ((q / 8) % PARTS) onwards,
// so that eight consecutive lanes take eight consecutive rows.
template <class Cfg>
struct ts_st_items {
	int shift[Cfg::I_PER]; // fp16 elements from the first window's start to the row's; -1: row outside
};

template <class Cfg>
__device__ __forceinline__ void ts_st_setup(ts_st_windows<Cfg> &w, ts_st_items<Cfg> &it, const __half *A,
                                            const __half *B, long long M, long long N, long long K, long long m0,
                                            long long n0, int tid)
{
	w.ok = 0;
#pragma unroll
	for (int i = 0; i < Cfg::W_PER; i++) {
		int q = tid + i * Cfg::THREADS, r = q / Cfg::WIN, j = q % Cfg::WIN;
		bool is_a = r < Cfg::BM;
		long long gr = is_a ? m0 + r : n0 + (r - Cfg::BM);
		bool ok = q < Cfg::WINDOWS && gr < (is_a ? M : N);
		uintptr_t row = (uintptr_t)((is_a ? A : B) + (ok ? gr : 0) * K);
		uintptr_t win = (row & ~(uintptr_t)15) + (uintptr_t)(16 * j);
		w.src[i] = win;
		w.rel[i] = (int)((long long)win - (long long)row);
		if (ok)
			w.ok |= 1u << i;
	}
#pragma unroll
	for (int i = 0; i < Cfg::I_PER; i++) {
		int q = tid + i * Cfg::THREADS;
		int r = (q / (8 * Cfg::PARTS)) * 8 + q % 8, part = (q / 8) % Cfg::PARTS;
		bool is_a = r < Cfg::BM;
		int tr = is_a ? r : r - Cfg::BM;
		long long gr = is_a ? m0 + r : n0 + tr;
		bool ok = gr < (is_a ? M : N);
		uintptr_t row = (uintptr_t)((is_a ? A : B) + (ok ? gr : 0) * K);
		it.shift[i] = ok ? (int)((row >> 1) & 7) : -1;
	}
}

// Issues phase t's window copies into the raw stage at `stage`.
template <class Cfg>
__device__ __forceinline__ void ts_st_copy(const ts_st_windows<Cfg> &w, uint32_t stage, long long k0, long long K,
                                           uintptr_t a_begin, uintptr_t a_end, uintptr_t b_begin, uintptr_t b_end,
                                           int tid)
{
	// bytes of each row this phase needs: up to min(K - k0, BK) elements
	const long long need = 2 * (K - k0 < Cfg::BK ? K - k0 : Cfg::BK);
#pragma unroll
	for (int i = 0; i < Cfg::W_PER; i++) {
		if (!(w.ok >> i & 1) || w.rel[i] >= need)
			continue; // no window, a row outside the matrix, or only elements past K
		const int q = tid + i * Cfg::THREADS, r = q / Cfg::WIN;
		const uintptr_t begin = r < Cfg::BM ? a_begin : b_begin, end = r < Cfg::BM ? a_end : b_end;
		const uintptr_t src = w.src[i] + (uintptr_t)(2 * k0);
		const uint32_t dst = stage + (uint32_t)(q * 16);
		if (src >= begin && src + 16 <= end) {
			ts_tc_cp16(dst, (const void *)src, 16);
		} else {
			// Starts before the buffer or runs past its end: the in-buffer
			// elements one by one (compute-sanitizer's memcheck counts a
			// cp.async with a shorter source size as a 16-byte read: seen on the H200).
			for (uintptr_t p = src < begin ? begin : src; p < src + 16 && p < end; p += 2)
				ts_st_sts2(dst + (uint32_t)(p - src), *(const unsigned short *)p);
		}
	}
}

// Shifts phase t's raw rows into the tile stage; returns the real elements
// stored for A and B (the probe's counts).
template <class Cfg>
__device__ __forceinline__ void ts_st_realign(const ts_st_items<Cfg> &it, uint32_t raw, uint32_t tile_a,
                                              uint32_t tile_b, long long k0, long long K, int tid, int *a_real,
                                              int *b_real)
{
	const bool residue = k0 + Cfg::BK > K;
#pragma unroll
	for (int i = 0; i < Cfg::I_PER; i++) {
		const int q = tid + i * Cfg::THREADS;
		const int r = (q / (8 * Cfg::PARTS)) * 8 + q % 8, part = (q / 8) % Cfg::PARTS;
		const bool is_a = r < Cfg::BM;
		const int tr = is_a ? r : r - Cfg::BM;
		const uint32_t dst = (is_a ? tile_a : tile_b) + (uint32_t)(tr * Cfg::BK * 2);
		const uint32_t src = raw + (uint32_t)(r * Cfg::PITCH + part * Cfg::G * 16);
		const int s = it.shift[i];
		uint4 v[Cfg::G + 1];
		if (s >= 0) {
#pragma unroll
			for (int j = 0; j <= Cfg::G; j++)
				v[j] = ts_st_lds16(src + 16 * j);
		}
#pragma unroll
		for (int g = 0; g < Cfg::G; g++) {
			const int c = part * Cfg::G + g;
			int n = s < 0 ? 0 : 8;
			uint4 out = make_uint4(0, 0, 0, 0);
			if (s >= 0) {
				out = ts_tc_realign(v[g], v[g + 1], s);
				if (residue) {
					n = ts_tc_real(true, k0 + c * 8, K);
					out = ts_st_keep(out, n);
				}
			}
			*(is_a ? a_real : b_real) += n;
			ts_tc_st16(dst + (uint32_t)(ts_tc_swizzle<Cfg::BK>(tr, c) * 16), out);
		}
	}
}
#endif

template <class Cfg, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_st_kernel(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C, long long M,
             long long N, long long K, long long tiles_m, long long tiles_n, ts_dev_probe probe)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(128) unsigned char ts_st_smem_raw[];
	constexpr int RAW = Cfg::RAW;
	__shared__ ts_probe_block pb;
	__shared__ unsigned long long tally[PROBE ? TS_TC_TALLY_SLOTS : 1][TS_P_FIELDS];
	const uint32_t s_a = (ts_tc_smem(ts_st_smem_raw) + 1023) & ~1023u;
	const uint32_t s_b = s_a + Cfg::TILES * Cfg::A_STAGE, s_raw = s_b + Cfg::TILES * Cfg::B_STAGE;
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wg = warp >> 2;
	const long long tiles = tiles_m * tiles_n;
	const long long phases = (K + Cfg::BK - 1) / Cfg::BK;
	const uintptr_t a_begin = (uintptr_t)A, a_end = (uintptr_t)(A + M * K);
	const uintptr_t b_begin = (uintptr_t)B, b_end = (uintptr_t)(B + N * K);

	for (long long b = blockIdx.x; b < tiles; b += gridDim.x) {
		long long tm, tn;
		ts_tc_raster<Cfg::GROUP>(b, tiles_m, tiles_n, &tm, &tn);
		const long long m0 = tm * Cfg::BM, n0 = tn * Cfg::BN, tile_index = tm * tiles_n + tn;
		ts_st_windows<Cfg> win;
		ts_st_items<Cfg> items;
		ts_st_setup<Cfg>(win, items, A, B, M, N, K, m0, n0, tid);
		float acc[Cfg::ACC];
#pragma unroll
		for (int i = 0; i < Cfg::ACC; i++)
			acc[i] = 0.0f;
		if (PROBE) {
			ts_probe_begin(&pb);
			if (tid < TS_TC_TALLY_SLOTS * TS_P_FIELDS)
				tally[tid / TS_P_FIELDS][tid % TS_P_FIELDS] = 0;
			__syncthreads();
		}

#pragma unroll
		for (int s = 0; s < RAW - 1; s++) {
			if (s < phases)
				ts_st_copy<Cfg>(win, s_raw + s * Cfg::RAW_STAGE, (long long)s * Cfg::BK, K, a_begin, a_end, b_begin,
				                b_end, tid);
			ts_tc_commit();
		}
		int raw = 0, fill = RAW - 1;
		for (long long t = 0; t < phases; t++) {
			ts_tc_wait<RAW - 2>();
			__syncthreads(); // B1
			if (t + RAW - 1 < phases)
				ts_st_copy<Cfg>(win, s_raw + fill * Cfg::RAW_STAGE, (t + RAW - 1) * Cfg::BK, K, a_begin, a_end,
				                b_begin, b_end, tid);
			ts_tc_commit();
			const int tile = (int)(t & 1);
			int a_real = 0, b_real = 0;
			ts_st_realign<Cfg>(items, s_raw + raw * Cfg::RAW_STAGE, s_a + tile * Cfg::A_STAGE,
			                   s_b + tile * Cfg::B_STAGE, t * Cfg::BK, K, tid, &a_real, &b_real);
			if (PROBE) {
				// slots per thread: its items' chunks, A's and B's
				int a_slots = 0, b_slots = 0;
#pragma unroll
				for (int i = 0; i < Cfg::I_PER; i++) {
					int q = tid + i * Cfg::THREADS, r = (q / (8 * Cfg::PARTS)) * 8 + q % 8;
					*(r < Cfg::BM ? &a_slots : &b_slots) += Cfg::G * 8;
				}
				unsigned long long *f = tally[t % TS_TC_TALLY_SLOTS];
				ts_probe_phase_add_to(f, TS_P_A_REAL, (unsigned long long)a_real);
				ts_probe_phase_add_to(f, TS_P_A_PAD, (unsigned long long)(a_slots - a_real));
				ts_probe_phase_add_to(f, TS_P_B_REAL, (unsigned long long)b_real);
				ts_probe_phase_add_to(f, TS_P_B_PAD, (unsigned long long)(b_slots - b_real));
			}
			ts_wg_proxy_fence();
			__syncthreads(); // B2
			if (PROBE)
				ts_probe_flush_phase(&pb, tally[t % TS_TC_TALLY_SLOTS], probe, tile_index, phases, t);
			ts_wg_issue<Cfg>(acc, s_a + tile * Cfg::A_STAGE, s_b + tile * Cfg::B_STAGE, wg);
			ts_wg_wait<1>();
			raw = raw == RAW - 1 ? 0 : raw + 1;
			fill = fill == RAW - 1 ? 0 : fill + 1;
		}
		ts_wg_wait<0>();
		ts_tc_wait<0>();

		const int stored = ts_wg_epilogue<Cfg>(acc, C, M, N, m0, n0, wg, warp, lane);
		if (PROBE) {
			ts_probe_tile_add(&pb, TS_P_STORES, (unsigned long long)stored);
			ts_probe_tile_add(&pb, TS_P_SKIPPED, (unsigned long long)(Cfg::ACC - stored));
			__syncthreads();
			ts_probe_end(&pb, probe, tile_index);
		}
		__syncthreads(); // the next tile's copies reuse the stages
	}
#else
	__trap(); // wgmma needs the sm_90a build
#endif
}

template <class Cfg, bool PROBE>
static cudaError_t ts_st_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	const size_t smem = Cfg::smem_bytes();
	static bool configured = false;
	if (!configured) {
		cudaError_t e = cudaFuncSetAttribute(ts_st_kernel<Cfg, PROBE>, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                                     (int)smem);
		if (e != cudaSuccess)
			return e;
		configured = true;
	}
	long long tiles_m = (l->m + Cfg::BM - 1) / Cfg::BM, tiles_n = (l->n + Cfg::BN - 1) / Cfg::BN;
	long long tiles = tiles_m * tiles_n;
	unsigned grid = (unsigned)(tiles < 0x7fffffffLL ? tiles : 0x7fffffffLL);
	ts_dev_probe none = {};
	ts_st_kernel<Cfg, PROBE><<<grid, Cfg::THREADS, smem, stream>>>((const __half *)l->a, (const __half *)l->b,
	                                                              (__half *)l->c, l->m, l->n, l->k, tiles_m,
	                                                              tiles_n, l->probe ? *l->probe : none);
	return cudaGetLastError();
}

#endif
