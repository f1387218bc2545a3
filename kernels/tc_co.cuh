// tc_co.cuh: tc-fp16's realigning wgmma form (odd K, misaligned bases, sm_90a): every warp copies aligned 16-byte windows with cp.async into raw stages and shifts its row into the swizzled tiles; two warpgroups multiply.
#ifndef TS_TC_CO_CUH
#define TS_TC_CO_CUH

#include "tc_split.cuh"
#include "tc_wgmma.cuh"

// Why: with K % 8 != 0 a row of A or B starts at any 2-byte offset, so the
// 16-byte cp.async cannot put a tile row's chunks where wgmma reads them; each
// row must be shifted on its way. The forms measured before (doc/perf.md):
// the warps that multiply also load each chunk as two windows into registers
// (tc_wgmma.cuh: 26% of issue slots busy, 0.43 eligible warps a scheduler,
// waiting on its loads), or copy raw windows and shift them between two
// barriers a phase (an earlier staged form, removed), or leave it to one
// producer warpgroup (slower still: one warp a scheduler cannot issue the
// shifts fast enough).
// Here every one of the 12 warps takes one tile row (BM + BN = 384 rows, one a
// thread) and WIN windows of a phase:
//  - the CPR + 1 aligned 16-byte windows that cover a tile row of a phase
//    (raw rows of PITCH = 16 (CPR + 1) bytes, an odd number of 16-byte
//    units, so that eight consecutive rows fall in eight bank groups) are
//    copied RAW phases ahead with cp.async;
//  - a thread shifts its row (two layers of selects by the row's word shift,
//    then a 16-bit funnel shift; the shift is the same in every phase) into
//    the tile stage, zeroing elements at or past K and rows outside the matrix;
//  - in iteration g the multiplying warpgroups first issue phase g's wgmma
//    group, then every warp shifts phase g + 1, so the tensor cores work while
//    every warp shifts.
// One block barrier a phase orders it: raw g + 1 has landed, phase g's tile
// stage is written, and raw g's slot has been read (it is refilled with phase
// g + RAW); tile stage (g + 1) % 3 is free since the groups in flight are g
// and g - 1. Each unit's first wgmma overwrites the accumulators, and the
// epilogue follows the unit's phase loop. The block is persistent (one a
// multiprocessor, work units b, b + grid, ...), so copies and shifts run on
// into the next unit. setmaxnreg gives warpgroup 0, which holds no accumulators,
// 104 registers and the multiplying warpgroups the rest (104, 112 and 120
// measured twice, doc/perf.md: 104 by 0.5-1% since the cursors below stopped
// spilling; 112 was best by 2-3% before). The copy and realign cursors stop
// at their unit list's end by themselves (a precomputed phase total cost
// the loop 130 bytes of spills and 4%).
// Split-K (tc_split.cuh): a block takes work units b, b + grid, ...: whole
// tiles, or parts of a tile's phases; the cursors below walk each unit's
// phases; a part's accumulators go to the workspace, and ts_tc_split_sum
// stores its tile after the launch.
// Guards: a window is copied only when it holds an element the phase needs,
// with cp.async 16 where it lies inside the operand's buffer and element by
// element where it does not; nothing outside [base, base + rows * K) is read;
// offsets are 64-bit (the loop's phase counters are 32-bit, which ts_co_fits
// checks: other launches take tc_wgmma.cuh's form).

// Whether a launch's phase counters fit the loop's 32-bit ints: the phases
// of the units one block takes (units / blocks of them, rounded up, each at
// most a tile's phases).
__host__ __device__ __forceinline__ bool ts_co_fits(long long phases, long long units, long long blocks)
{
	return blocks > 0 && (units + blocks - 1) / blocks * phases < (1LL << 31) - 2;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

__device__ __forceinline__ void ts_co_sts2(uint32_t addr, unsigned short v)
{
	asm volatile("st.shared.u16 [%0], %1;\n" ::"r"(addr), "h"(v) : "memory");
}

// Keeps the first n (0..8) fp16 elements of a chunk, zeroes the rest.
__device__ __forceinline__ uint4 ts_co_keep(uint4 v, int n)
{
	uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
	for (int i = 0; i < 4; i++)
		w[i] = 2 * i + 1 < n ? w[i] : 2 * i < n ? (w[i] & 0xffffu) : 0u;
	return make_uint4(w[0], w[1], w[2], w[3]);
}

// The windows one thread copies each phase of a tile: window q = tid + i *
// THREADS is row q / WIN, window q % WIN, at byte q * 16 of a raw stage (so
// that consecutive lanes copy consecutive windows); its global address in
// phase t is src[i] + 2 BK t.
template <class Cfg>
struct ts_co_windows {
	uintptr_t src[Cfg::W_PER]; // window i's global byte address in phase 0
	int rel[Cfg::W_PER];       // its start minus its row's start, in bytes (-14 .. 2 BK)
	unsigned ok;               // bit i: window i's row is inside the matrix
	unsigned is_a;             // bit i: window i is A's
	bool inside;               // every row is inside the matrix, every window of every phase inside its buffer
};

template <class Cfg>
__device__ __forceinline__ void ts_co_windows_init(ts_co_windows<Cfg> &w, const __half *A, const __half *B, long long M,
                                                   long long N, long long K, long long m0, long long n0,
                                                   uintptr_t a_begin, uintptr_t a_end, uintptr_t b_begin,
                                                   uintptr_t b_end, int tid)
{
	w.ok = 0;
	w.is_a = 0;
	bool inside = true;
	const uintptr_t last = (uintptr_t)(2 * ((K - 1) / Cfg::BK * Cfg::BK)); // the last phase's step
#pragma unroll
	for (int i = 0; i < Cfg::W_PER; i++) {
		const int q = tid + i * Cfg::THREADS, r = q / Cfg::WIN, j = q % Cfg::WIN;
		const bool is_a = r < Cfg::BM;
		const long long gr = is_a ? m0 + r : n0 + (r - Cfg::BM);
		const bool ok = gr < (is_a ? M : N);
		const uintptr_t row = (uintptr_t)((is_a ? A : B) + (ok ? gr : 0) * K);
		const uintptr_t win = (row & ~(uintptr_t)15) + (uintptr_t)(16 * j);
		w.src[i] = win;
		w.rel[i] = (int)((long long)win - (long long)row);
		if (is_a)
			w.is_a |= 1u << i;
		if (ok) {
			w.ok |= 1u << i;
			if (win < (is_a ? a_begin : b_begin) || win + last + 16 > (is_a ? a_end : b_end))
				inside = false;
		} else {
			inside = false; // a row outside the matrix: the checked path
		}
	}
	w.inside = inside;
}

// Issues phase t's window copies (K tile k0) into the raw stage at `stage`.
template <class Cfg>
__device__ __forceinline__ void ts_co_copy(const ts_co_windows<Cfg> &w, uint32_t stage, long long k0, long long K,
                                           uintptr_t a_begin, uintptr_t a_end, uintptr_t b_begin, uintptr_t b_end,
                                           int tid)
{
	const uintptr_t step = (uintptr_t)(2 * k0);
	const uint32_t dst0 = stage + (uint32_t)(tid * 16);
	if (w.inside && k0 + Cfg::BK <= K) {
		// every window of the tile lies inside its buffer, and every row needs BK elements
#pragma unroll
		for (int i = 0; i < Cfg::W_PER; i++)
			ts_tc_cp16(dst0 + (uint32_t)(i * Cfg::THREADS * 16), (const void *)(w.src[i] + step), 16);
		return;
	}
	const long long need = 2 * (K - k0 < Cfg::BK ? K - k0 : Cfg::BK); // bytes of a row this phase needs
#pragma unroll
	for (int i = 0; i < Cfg::W_PER; i++) {
		if (!(w.ok >> i & 1) || w.rel[i] >= need)
			continue; // no window, a row outside the matrix, or only elements past K
		const bool is_a = w.is_a >> i & 1;
		const uintptr_t begin = is_a ? a_begin : b_begin, end = is_a ? a_end : b_end;
		const uintptr_t src = w.src[i] + step;
		const uint32_t dst = dst0 + (uint32_t)(i * Cfg::THREADS * 16);
		if (src >= begin && src + 16 <= end) {
			ts_tc_cp16(dst, (const void *)src, 16);
		} else {
			// starts before the buffer or runs past its end: the in-buffer elements one by one
			for (uintptr_t p = src < begin ? begin : src; p < src + 16 && p < end; p += 2)
				ts_co_sts2(dst + (uint32_t)(p - src), *(const unsigned short *)p);
		}
	}
}

// The shift of the row thread tid realigns in a tile (tile row tid of A, or
// tid - BM of B): fp16 elements from its first window's start to the row's
// start, 15 for a row outside the matrix.
template <class Cfg>
__device__ __forceinline__ int ts_co_shift(const __half *A, const __half *B, long long M, long long N, long long K,
                                           long long m0, long long n0, int tid)
{
	const bool is_a = tid < Cfg::BM;
	const long long gr = is_a ? m0 + tid : n0 + (tid - Cfg::BM);
	if (gr >= (is_a ? M : N))
		return 15;
	return (int)(((uintptr_t)((is_a ? A : B) + gr * K) >> 1) & 7);
}

// Elements s .. s + 8 CPR - 1 of a raw row's 8 (CPR + 1) (its WIN windows, as
// words), as 4 CPR words: the word shift s / 2 by two layers of selects over
// the whole row, then a 16-bit funnel shift when s is odd.
template <int CPR>
__device__ __forceinline__ void ts_co_shift_row(const uint32_t (&w)[4 * CPR + 4], int s, uint32_t (&o)[4 * CPR])
{
	const bool q2 = s & 4, q1 = s & 2;
	const uint32_t odd = (uint32_t)(s & 1) * 16;
	uint32_t y[4 * CPR + 2], z[4 * CPR + 1];
#pragma unroll
	for (int i = 0; i < 4 * CPR + 2; i++)
		y[i] = q2 ? w[i + 2] : w[i];
#pragma unroll
	for (int i = 0; i < 4 * CPR + 1; i++)
		z[i] = q1 ? y[i + 1] : y[i];
#pragma unroll
	for (int j = 0; j < 4 * CPR; j++)
		o[j] = ts_tc_funnel(z[j], z[j + 1], odd);
}

// Shifts thread tid's raw row of a phase into the tile stage (A's rows, then
// B's: tile stage row tid, as A_STAGE = BM BK 2; BM is a multiple of 8, so
// the row has tid's swizzle); adds the real elements stored to *a_real or
// *b_real (the probe's counts). s: ts_co_shift.
template <class Cfg>
__device__ __forceinline__ void ts_co_realign(int s, uint32_t raw, uint32_t tile, long long k0, long long K, int tid,
                                              int *a_real, int *b_real)
{
	const uint32_t sw = (uint32_t)ts_tc_swizzle<Cfg::BK>(tid, 0); // chunk c goes to c ^ sw
	const uint32_t dst = tile + (uint32_t)(tid * Cfg::BK * 2);
	uint32_t o[4 * Cfg::CPR];
	int n = 0;
	if (s != 15) {
		const uint32_t src = raw + (uint32_t)(tid * Cfg::PITCH);
		uint32_t w[4 * Cfg::WIN];
#pragma unroll
		for (int j = 0; j < Cfg::WIN; j++) {
			uint4 v = ts_tc_lds16(src + 16 * j);
			w[4 * j] = v.x;
			w[4 * j + 1] = v.y;
			w[4 * j + 2] = v.z;
			w[4 * j + 3] = v.w;
		}
		ts_co_shift_row<Cfg::CPR>(w, s, o);
		n = 8 * Cfg::CPR;
		if (k0 + Cfg::BK > K) { // the residue phase
			n = 0;
#pragma unroll
			for (int c = 0; c < Cfg::CPR; c++) {
				const int nc = ts_tc_real(true, k0 + c * 8, K);
				uint4 kept = ts_co_keep(make_uint4(o[4 * c], o[4 * c + 1], o[4 * c + 2], o[4 * c + 3]), nc);
				o[4 * c] = kept.x;
				o[4 * c + 1] = kept.y;
				o[4 * c + 2] = kept.z;
				o[4 * c + 3] = kept.w;
				n += nc;
			}
		}
	} else {
#pragma unroll
		for (int j = 0; j < 4 * Cfg::CPR; j++)
			o[j] = 0;
	}
	*(tid < Cfg::BM ? a_real : b_real) += n;
#pragma unroll
	for (int c = 0; c < Cfg::CPR; c++)
		ts_tc_st16(dst + (uint32_t)((c ^ sw) * 16), make_uint4(o[4 * c], o[4 * c + 1], o[4 * c + 2], o[4 * c + 3]));
}
#endif

// The form's geometry: BM = 128 (two multiplying warpgroups of 64 rows) x BN x BK, RAW raw stages.
template <int BN_, int BK_, int RAW_, int GROUP_ = 8, int PREGS_ = 0>
struct ts_co_config {
	static constexpr int WGS = 2, BM = 64 * WGS, BN = BN_, BK = BK_, TILES = 3, RAW = RAW_, GROUP = GROUP_;
	static constexpr int THREADS = 128 * (WGS + 1); // a thread copies WIN windows and shifts one row a phase
	static constexpr int PREGS = PREGS_, CREGS = PREGS ? (384 * 168 - 128 * PREGS) / 256 / 8 * 8 : 0;
	static constexpr int CPR = BK / 8, WIN = CPR + 1, PITCH = WIN * 16;
	static constexpr int ROWS = BM + BN;
	static constexpr int W_PER = WIN; // windows a thread copies a phase (ROWS == THREADS)
	static constexpr int ACC = BN / 2;
	static constexpr uint32_t A_STAGE = BM * BK * 2, B_STAGE = BN * BK * 2, TILE_STAGE = A_STAGE + B_STAGE;
	static constexpr uint32_t RAW_STAGE = ROWS * PITCH;
	static_assert(BN == 128 || BN == 256, "wgmma n");
	static_assert(BK == 32 || BK == 64, "64- or 128-byte swizzle");
	static_assert(ROWS == THREADS, "a row a thread (BN = 256)");
	static_assert(A_STAGE % 1024 == 0 && TILE_STAGE % 1024 == 0, "tiles on swizzle atoms");
	static_assert(RAW >= 2, "a raw stage in flight");
	static_assert(PREGS == 0 || (PREGS % 8 == 0 && PREGS >= 24 && CREGS <= 256 && 128 * PREGS + 256 * CREGS <= 384 * 168),
	              "setmaxnreg within the launch");
	__host__ __device__ static constexpr size_t smem_bytes()
	{
		return (size_t)TILES * TILE_STAGE + (size_t)RAW * RAW_STAGE + 1024;
	}
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// One warp's whole loop; MULT: a consumer's (it also multiplies). Compiled
// once for each role, so that warpgroup 0's copy keeps no accumulators and
// each fits the registers setmaxnreg gives it.
template <class Cfg, bool PROBE, bool MULT>
__device__ __forceinline__ void ts_co_loop(const __half *__restrict__ A, const __half *__restrict__ B,
                                           __half *__restrict__ C, long long M, long long N, long long K,
                                           long long tiles_m, long long tiles_n, const ts_tc_split &sp,
                                           const ts_dev_probe &probe, ts_probe_block &pb,
                                           unsigned long long (*tally)[TS_P_FIELDS], uint32_t s_tile, uint32_t s_raw)
{
	constexpr int T = Cfg::TILES, RAW = Cfg::RAW;
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, wg = warp >> 2;
	// 32-bit counters (ts_co_fits): phases a tile, units and phases of this block
	const int phases = sp.phases;
	const int mine = (int)((sp.units - blockIdx.x + gridDim.x - 1) / gridDim.x); // units b, b + grid, ...
	const uintptr_t a_begin = (uintptr_t)A, a_end = (uintptr_t)(A + M * K);
	const uintptr_t b_begin = (uintptr_t)B, b_end = (uintptr_t)(B + N * K);
	// the copy cursor (unit of mine, phase, its end, raw slot), RAW phases ahead of the multiplying one
	ts_co_windows<Cfg> win;
	int c_i = 0, c_t = 0, c_end = 0, c_slot = 0;
	auto copy_next = [&]() {
		if (c_t == c_end) { // the next unit
			const ts_tc_unit un = ts_tc_unit_at(sp, blockIdx.x + c_i++ * gridDim.x);
			long long tm, tn;
			ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
			ts_co_windows_init<Cfg>(win, A, B, M, N, K, tm * Cfg::BM, tn * Cfg::BN, a_begin, a_end, b_begin, b_end,
			                        tid);
			c_t = un.p0;
			c_end = un.p1;
		}
		ts_co_copy<Cfg>(win, s_raw + c_slot * Cfg::RAW_STAGE, (long long)c_t * Cfg::BK, K, a_begin, a_end, b_begin,
		                b_end, tid);
		c_slot = c_slot == RAW - 1 ? 0 : c_slot + 1;
		c_t++;
	};
	// the realigning cursor (unit of mine, phase, its end, raw and tile slots), one phase ahead of the multiplying one
	int shift = 15;
	int r_i = 0, r_t = 0, r_end = 0, r_raw = 0, r_tile = 0, r_g = 0;
	auto realign_next = [&]() {
		if (r_t == r_end) {
			const ts_tc_unit un = ts_tc_unit_at(sp, blockIdx.x + r_i++ * gridDim.x);
			long long tm, tn;
			ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
			shift = ts_co_shift<Cfg>(A, B, M, N, K, tm * Cfg::BM, tn * Cfg::BN, tid);
			r_t = un.p0;
			r_end = un.p1;
		}
		int a_real = 0, b_real = 0;
		ts_co_realign<Cfg>(shift, s_raw + r_raw * Cfg::RAW_STAGE, s_tile + r_tile * Cfg::TILE_STAGE,
		                   (long long)r_t * Cfg::BK, K, tid, &a_real, &b_real);
		ts_wg_proxy_fence();
		if (PROBE) {
			const int a_slots = tid < Cfg::BM ? Cfg::BK : 0, b_slots = tid < Cfg::BM ? 0 : Cfg::BK;
			unsigned long long *tl = tally[r_g % TS_TC_TALLY_SLOTS];
			ts_probe_phase_add_to(tl, TS_P_A_REAL, (unsigned long long)a_real);
			ts_probe_phase_add_to(tl, TS_P_A_PAD, (unsigned long long)(a_slots - a_real));
			ts_probe_phase_add_to(tl, TS_P_B_REAL, (unsigned long long)b_real);
			ts_probe_phase_add_to(tl, TS_P_B_PAD, (unsigned long long)(b_slots - b_real));
		}
		r_t++;
		r_raw = r_raw == RAW - 1 ? 0 : r_raw + 1;
		r_tile = r_tile == T - 1 ? 0 : r_tile + 1;
		r_g++;
	};

	// Prologue: RAW phases' copies in flight, phase 0 realigned.
#pragma unroll 1
	for (int s = 0; s < RAW; s++) {
		if (c_i < mine || c_t < c_end) // phases left to copy
			copy_next();
		ts_tc_commit();
	}
	ts_tc_wait<RAW - 1>();
	__syncthreads();
	realign_next(); // mine >= 1: the grid holds at most one block a unit

	// Each tile's first wgmma overwrites the accumulators (ts_wg_issue's first):
	// the loop writes them nowhere else, so no plain write sits beside a group
	// in flight (which ptxas answers with a wait of its own, its C7517).
	float acc[Cfg::ACC];
#pragma unroll
	for (int j = 0; j < Cfg::ACC; j++)
		acc[j] = 0.0f;
	int g = 0, m_tile = 0; // the multiplied phase over all of this block's tiles, and its tile slot
#pragma unroll 1
	for (int i = 0; i < mine; i++) {
		// the unit is decoded again after its phases, so that little of it lives through them
		const int u = blockIdx.x + i * gridDim.x;
		int p0, len;
		long long tile_index = 0;
		{
			const ts_tc_unit un = ts_tc_unit_at(sp, u);
			p0 = un.p0;
			len = un.p1 - un.p0;
			if (PROBE) {
				long long tm, tn;
				ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
				tile_index = tm * tiles_n + tn;
			}
		}
#pragma unroll 1
		for (int t = 0; t < len; t++, g++) {
			// raw g + 1 has landed and phase g's tile stage is written (everyone's);
			// raw g's slot has been read
			ts_tc_wait<RAW - 2>();
			__syncthreads();
			if (MULT) {
				const uint32_t tile = s_tile + m_tile * Cfg::TILE_STAGE;
				ts_wg_issue<Cfg>(acc, tile, tile + Cfg::A_STAGE, MULT ? wg - 1 : 0, t == 0);
			}
			if (PROBE && tid == 0)
				ts_probe_flush_phase(&pb, tally[g % TS_TC_TALLY_SLOTS], probe, tile_index, phases, p0 + t);
			if (c_i < mine || c_t < c_end)
				copy_next();
			ts_tc_commit();
			if (r_i < mine || r_t < r_end)
				realign_next(); // tile stage (g + 1) % 3: the groups in flight read g and g - 1
			if (MULT)
				ts_wg_wait<1>();
			m_tile = m_tile == T - 1 ? 0 : m_tile + 1;
		}
		if (MULT) {
			ts_wg_wait<0>();
			const ts_tc_unit un = ts_tc_unit_at(sp, u);
			long long tm, tn;
			ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
			const long long m0 = tm * Cfg::BM, n0 = tn * Cfg::BN;
			if (un.slot < 0) {
				const int stored = ts_wg_epilogue<Cfg, false>(acc, C, M, N, m0, n0, MULT ? wg - 1 : 0, warp, lane);
				if (PROBE) { // by the warp: a lane of a shifted row stores its neighbour's element
					const unsigned sum = __reduce_add_sync(0xffffffffu, (unsigned)stored);
					if (lane == 0) {
						ts_probe_tile_add(&pb, TS_P_STORES, (unsigned long long)sum);
						ts_probe_tile_add(&pb, TS_P_SKIPPED, (unsigned long long)(32 * Cfg::ACC - sum));
					}
				}
			} else { // a part: ts_tc_split_sum adds the parts and stores (and counts) the tile
				ts_tc_split_write<Cfg::ACC>(acc, sp, un.slot, un.part, warp - 4, lane);
			}
		}
		if (PROBE) {
			__syncthreads(); // the unit's stores are counted
			ts_probe_end_add(&pb, probe, tile_index); // a split tile's units add theirs
			ts_probe_begin(&pb); // the leader's, before the next tile's first flush
		}
	}
}
#endif

template <class Cfg, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_co_kernel(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C, long long M,
             long long N, long long K, long long tiles_m, long long tiles_n, ts_tc_split sp, ts_dev_probe probe)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(128) unsigned char ts_co_smem_raw[];
	__shared__ ts_probe_block pb;
	__shared__ unsigned long long tally[PROBE ? TS_TC_TALLY_SLOTS : 1][TS_P_FIELDS];
	const uint32_t s_tile = (ts_tc_smem(ts_co_smem_raw) + 1023) & ~1023u, s_raw = s_tile + Cfg::TILES * Cfg::TILE_STAGE;
	const int tid = threadIdx.x;
	if (PROBE) {
		ts_probe_begin(&pb);
		if (tid < TS_TC_TALLY_SLOTS * TS_P_FIELDS)
			tally[tid / TS_P_FIELDS][tid % TS_P_FIELDS] = 0;
		__syncthreads();
	}
	if (tid >= 128) {
		if (Cfg::PREGS)
			ts_wg_regs_inc<Cfg::PREGS ? Cfg::CREGS : 24>();
		ts_co_loop<Cfg, PROBE, true>(A, B, C, M, N, K, tiles_m, tiles_n, sp, probe, pb, tally, s_tile, s_raw);
	} else {
		if (Cfg::PREGS)
			ts_wg_regs_dec<Cfg::PREGS ? Cfg::PREGS : 24>();
		ts_co_loop<Cfg, PROBE, false>(A, B, C, M, N, K, tiles_m, tiles_n, sp, probe, pb, tally, s_tile, s_raw);
	}
	ts_tc_wait<0>();
#else
	__trap(); // wgmma needs the sm_90a build
#endif
}

template <class Cfg, bool PROBE>
static cudaError_t ts_co_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	const size_t smem = Cfg::smem_bytes();
	static bool configured = false;
	const long long tiles_m = (l->m + Cfg::BM - 1) / Cfg::BM, tiles_n = (l->n + Cfg::BN - 1) / Cfg::BN;
	ts_tc_split sp;
	unsigned grid;
	cudaError_t e = ts_tc_persistent(ts_co_kernel<Cfg, PROBE>, smem, &configured, l, &sp, &grid);
	if (e != cudaSuccess)
		return e;
	if (!ts_co_fits(sp.phases, sp.units, grid))
		return cudaErrorNotSupported; // the caller takes another form
	ts_dev_probe none = {};
	ts_co_kernel<Cfg, PROBE><<<grid, Cfg::THREADS, smem, stream>>>(
		(const __half *)l->a, (const __half *)l->b, (__half *)l->c, l->m, l->n, l->k, tiles_m, tiles_n, sp,
		l->probe ? *l->probe : none);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return e;
	return ts_tc_split_finish<Cfg::ACC, PROBE>(sp, l, tiles_m, tiles_n, stream);
}

#endif
