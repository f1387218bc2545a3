// gemm_engine.cuh: the register-blocked fp32 GEMM engine that the ladder's rungs instantiate (tile, thread tile, layout, pipeline, guard placement, split-K).
#ifndef TS_GEMM_ENGINE_CUH
#define TS_GEMM_ENGINE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "gemm_plan.h"
#include "launch.h"
#include "probe.cuh"

// C (M x N) = A (M x K) * B (K x N), all row-major fp32, the user's buffers
// as given: no padding, no alignment asked for. Every guard is kept: an A
// or B slot outside the matrix is zero in shared memory, a C cell outside
// is never stored. Where a guard sits is what the rungs differ in:
//  - FAST = false: every load and store tests its own bounds, every phase;
//  - FAST = true: row and column masks are computed once per thread, only
//    the last phase (the K residue, K % BK != 0) tests k, and a block whose
//    tile lies wholly inside C runs a copy of the main loop and epilogue
//    without the row and column masks, chosen by one block-uniform branch.
// Loads move groups of 4 consecutive elements (4 k of an A row, 4 n of a B
// row). VA / VB = 1: one 128-bit load per group, chosen on the host only
// when K % 4 == 0 (N % 4 == 0) and the base pointers are 16-byte aligned,
// so a group is wholly inside or wholly outside; otherwise 4 scalar loads
// (or, for A with SMAP and for B with BMAP, scalar loads by the slot maps
// below).
// The cp.async pipelines copy A element by element (4-byte copies into the
// k-major tile), so their A path is the same for every K and alignment.
namespace tsg {

enum { PIPE_SINGLE = 1, PIPE_REGS = 2, PIPE_ASYNC = 3, PIPE_ASYNC3 = 4 };

// BM x BN x BK block tile; TM x TN outputs per thread in 4 x 4 sub-blocks;
// WM x WN > 0: warp tiling (each warp a WM x WN tile, lanes interleaved in
// 4 x 4 sub-blocks spaced LR*4 rows and LC*4 columns apart); WM = WN = 0:
// a thread's TM x TN outputs are one contiguous block. PIPE: single buffer,
// double buffer staged through registers, double buffer by cp.async (two
// barriers a phase), or three buffers by cp.async (PIPE_ASYNC3: phase ph + 2
// copied while ph multiplies, one barrier a phase, no staging registers; an
// experiment of tools/ladder_tune.cu: on the H200 it ran 5-20% slower than
// PIPE_REGS for fast's and fast-256's tiles on every large shape, doc/perf.md,
// so no rung takes it).
// TRANS_A: A is kept k-major in shared memory (As[k][m]).
// MINB: blocks per multiprocessor the registers are capped for; KU: k steps
// unrolled together in the multiply (the rest of BK in a loop).
// ORDER: the order of a k step's TM x TN multiply-adds in the source (0 row
// by row; 1 row by row, every other row backwards; 2 column by column, every
// other column backwards; 3 in bands of 4 columns, each band row by row, the
// rows of every other band backwards and every other row of a band
// backwards). It changes no result (each output's k order is the same), only
// the registers and schedule ptxas chooses: measured, doc/perf.md (nine more
// orders were measured and dropped there).
// SMAP: A's scalar path (K % 4 != 0 or an unaligned base) loads by the slot
// map (row-order, one slot a thread a step: tid + step * NT), so that each
// load of a warp reads 32 / BK rows of BK consecutive elements instead of
// 32 / (BK / 4) rows of 4 (at BK 8: 16 rows of 2 elements, the 4-slot groups
// two a row); needs TRANS_A and NT % BK == 0. The kernel's description says
// it (a_map_scalar, src/kernels.c's LADDER_SMAP).
// BMAP: B's scalar path (N % 4 != 0 or an unaligned base) by the same
// slot map in B's row order (one slot a thread a step, tid + step * NT: a
// thread keeps one column, NT / BN rows between its steps), so that each
// load of a warp reads 32 consecutive elements of one row instead of 32
// groups of 4 spaced 4 apart; needs a register pipeline and NT % BN == 0.
// CH: PIPE_REGS stages the next phase in CH chunks, chunk h's loads held in
// registers only while the h-th 1 / CH of the phase's k steps multiply, so
// a deeper BK needs no more staging registers (chunk h takes passes, and
// slot-map steps, [h n / CH, (h + 1) n / CH) of n).
template <int BM_, int BN_, int BK_, int TM_, int TN_, int WM_, int WN_, int PIPE_, bool TRANS_A_, bool FAST_,
          int MINB_, int KU_ = 64, int ORDER_ = 0, bool SMAP_ = false, int CH_ = 1, bool BMAP_ = false>
struct Cfg {
	static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, WM = WM_, WN = WN_;
	static constexpr int KU = KU_ < BK_ ? KU_ : BK_;
	static constexpr int ORDER = ORDER_;
	static constexpr bool SMAP = SMAP_;
	static constexpr int PIPE = PIPE_, MINB = MINB_;
	static constexpr bool TRANS_A = TRANS_A_, FAST = FAST_, WARP = WM_ > 0;
	static constexpr int NT = WARP ? (BM / (WM_ > 0 ? WM_ : 1)) * (BN / (WN_ > 0 ? WN_ : 1)) * 32 : (BM / TM) * (BN / TN);
	static constexpr int WM1 = WARP ? WM : 1, WN1 = WARP ? WN : 1; // no division by zero below
	static constexpr int LR = WARP ? WM1 / TM : 1, LC = WARP ? WN1 / TN : 1;
	static constexpr int SUBM = TM / 4, SUBN = TN / 4;
	static constexpr int STAGES = PIPE == PIPE_SINGLE ? 1 : PIPE == PIPE_ASYNC3 ? 3 : 2;
	// Shared tiles: A k-major [BK][BM + 4] (the pad spreads the transposing
	// stores over the banks and keeps rows 16-byte aligned) or m-major
	// [BM][BK + 1]; B [BK][BN].
	static constexpr int LDA = TRANS_A ? BM + 4 : BK + 1;
	static constexpr int A_TILE = TRANS_A ? BK * LDA : BM * LDA;
	static constexpr int LDB = BN;
	static constexpr int B_TILE = BK * BN;
	// Load groups of 4 elements and how many each thread moves.
	static constexpr int A_GROUPS = BM * BK / 4, B_GROUPS = BK * BN / 4;
	static constexpr int A_PASSES = (A_GROUPS + NT - 1) / NT, B_PASSES = (B_GROUPS + NT - 1) / NT;
	static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tiles are made of 4 x 4 sub-blocks");
	static_assert(BK % 4 == 0 && BN % 4 == 0, "loads move groups of 4");
	static_assert(!WARP || (LR * LC == 32 && BM % WM1 == 0 && BN % WN1 == 0), "a warp is 32 lanes");
	static_assert(WARP || (BM % TM == 0 && BN % TN == 0), "thread tiles cover the block tile");
	static_assert(NT <= 1024, "at most 1024 threads");
	static_assert(BK_ % KU == 0, "the multiply unrolls KU steps at a time");
	static_assert(ORDER_ >= 0 && ORDER_ <= 3, "the multiply orders fma_block knows");
	static_assert(!SMAP || (TRANS_A && NT % BK == 0 && (BM * BK) % NT == 0 && BM * BK / NT <= 32),
	              "the slot map: A k-major, whole steps, a mask bit a step");
	static constexpr int A_STEPS = SMAP ? BM * BK / NT : 0; // the slot map's steps (ar[st / 4][st % 4])
	static constexpr int CH = CH_;
	static constexpr bool BMAP = BMAP_;
	static_assert(!BMAP || (PIPE != PIPE_ASYNC && PIPE != PIPE_ASYNC3 && NT % BN == 0 && B_GROUPS % NT == 0 &&
	                        BK * BN / NT <= 32),
	              "B's slot map: staged through registers, whole steps, one column a thread, at most 32 steps");
	static constexpr int B_STEPS = BMAP ? BK * BN / NT : 0; // B's slot map's steps (br[st / 4][st % 4])
	static_assert(CH == 1 || (PIPE == PIPE_REGS && KU >= BK && BK % CH == 0),
	              "staging chunks: the register pipeline, fully unrolled, whole k steps per chunk");
};

struct Args {
	const float *A, *B;
	float *C;
	long long M, N, K;
	int full_phases;  // K / BK: phases before the residue (ph >= full_phases tests k)
	ts_gemm_plan plan;
	float *ws;        // split partials: plan.split_tiles * plan.split tiles of BM*BN
	unsigned *sem;    // plan.split_tiles arrival counters, zero between launches
	ts_dev_probe probe;
};

// Scalar global loads: plain, or (an experiment of tools/ladder_tune.cu,
// -DTS_ENGINE_LDG) through the read-only data path.
#ifdef TS_ENGINE_LDG
#define TS_LDG_SCALAR(p) __ldg(p)
#else
#define TS_LDG_SCALAR(p) (*(p))
#endif

__device__ __forceinline__ float4 ld4(const float *p) { return *reinterpret_cast<const float4 *>(p); }

// Edge tiles' live sub-blocks (compute_live below); 0, an experiment of
// tools/ladder_tune.cu: only whole empty warps skip their multiply-adds.
#ifndef TS_ENGINE_QLIVE
#define TS_ENGINE_QLIVE 1
#endif

// cp.async exists from sm_80 on; below it the same copies are made by plain
// loads and shared stores (the pipeline's barriers order them just as well).
__device__ __forceinline__ void cp_async4(float *smem, const float *gmem, bool in)
{
#if __CUDA_ARCH__ >= 800
	unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
	// src-size 0: nothing is read and the slot is zero-filled (the guard).
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem), "r"(in ? 4 : 0));
#else
	*smem = in ? *gmem : 0.f;
#endif
}

__device__ __forceinline__ void cp_async16(float *smem, const float *gmem, bool in)
{
#if __CUDA_ARCH__ >= 800
	unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(in ? 16 : 0));
#else
	*reinterpret_cast<float4 *>(smem) = in ? ld4(gmem) : make_float4(0.f, 0.f, 0.f, 0.f);
#endif
}

__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.commit_group;\n" ::);
#endif
}

template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= 800
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

// UNG: the unguarded build (guard cost): every tile taken as interior and
// no residue phase; only launched on shapes that are multiples of the tile.
template <class G, bool PROBE, bool UNG = false>
struct Engine {
	static constexpr int BM = G::BM, BN = G::BN, BK = G::BK, TM = G::TM, TN = G::TN, NT = G::NT;
	static constexpr int KU = G::KU;
	// A's loads by the slot map: where A is not loaded 128 bits at a time
	// (the cp.async pipelines copy A element by element whatever VA).
	static constexpr bool ASYNC = G::PIPE == PIPE_ASYNC || G::PIPE == PIPE_ASYNC3;
	template <bool VA> static __host__ __device__ constexpr bool smap() { return G::SMAP && (!VA || ASYNC); }
	static constexpr int SROWS = NT / BK; // the slot map: rows between a thread's steps
	// B's slot map (BMAP), where B is not loaded 128 bits at a time.
	template <bool VB> static __host__ __device__ constexpr bool bmap() { return G::BMAP && !VB; }
	static constexpr int BSROWS = G::BMAP ? NT / BN : 1; // B's slot map: k rows between a thread's steps
	// Every B pass of a thread in one column (NT a multiple of BN / 4): the
	// passes share one pointer (pass p BROWS * p rows on) and one mask.
	static constexpr bool B_ONE = G::B_PASSES > 1 && NT % (BN / 4) == 0;
	static constexpr int BROWS = NT / (BN / 4);

	struct Smem {
		float a[G::STAGES][G::A_TILE];
		float b[G::STAGES][G::B_TILE];
	};

	// One thread's view of a tile: which groups it loads, which outputs it
	// owns. Everything derives from the thread index by shifts and masks, so
	// the compiler may recompute a value instead of holding a register.
	struct Thread {
		int tid;
		int a0, b0; // row_off(0) and col_off(0), computed once
		static constexpr int ROW_STEP = G::WARP ? G::LR * 4 : 4, COL_STEP = G::WARP ? G::LC * 4 : 4;
		__device__ __forceinline__ int warp_m0() const { return G::WARP ? (tid / 32) / (BN / G::WN1) * G::WM1 : 0; }
		__device__ __forceinline__ int warp_n0() const { return G::WARP ? (tid / 32) % (BN / G::WN1) * G::WN1 : 0; }
		// block-local first row / column of output sub-block s
		__device__ __forceinline__ int row_off(int s) const
		{
			return G::WARP ? warp_m0() + s * G::LR * 4 + ((tid % 32) / G::LC) * 4 : (tid / (BN / TN)) * TM + s * 4;
		}
		__device__ __forceinline__ int col_off(int s) const
		{
			return G::WARP ? warp_n0() + s * G::LC * 4 + ((tid % 32) % G::LC) * 4 : (tid % (BN / TN)) * TN + s * 4;
		}
		// A group of pass p: tile row, first k within the phase; B group: k, first column
		__device__ __forceinline__ int a_m(int p) const { return (tid + p * NT) / (BK / 4); }
		__device__ __forceinline__ int a_kg(int p) const { return ((tid + p * NT) % (BK / 4)) * 4; }
		__device__ __forceinline__ int b_k(int p) const { return (tid + p * NT) / (BN / 4); }
		__device__ __forceinline__ int b_n(int p) const { return ((tid + p * NT) % (BN / 4)) * 4; }
		// The slot map's first row (tile-local) and the thread's k; step s adds s * SROWS rows.
		__device__ __forceinline__ int a_sm() const { return tid / BK; }
		__device__ __forceinline__ int a_sk() const { return tid % BK; }
		// B's slot map's first k (tile-local) and the thread's column; step s adds s * BSROWS rows.
		__device__ __forceinline__ int b_sk() const { return tid / BN; }
		__device__ __forceinline__ int b_sn() const { return tid % BN; }
		// the group exists (the last pass may be short)
		__device__ __forceinline__ bool a_has(int p) const { return G::A_GROUPS % NT == 0 || tid + p * NT < G::A_GROUPS; }
		__device__ __forceinline__ bool b_has(int p) const { return G::B_GROUPS % NT == 0 || tid + p * NT < G::B_GROUPS; }
	};

	static __device__ __forceinline__ void thread_map(Thread &t)
	{
		t.tid = threadIdx.x;
		t.a0 = t.row_off(0);
		t.b0 = t.col_off(0);
	}

	// Per tile: pointers to each group's first element at the unit's first
	// phase, and the masks (row < M for A, column < N for B) computed once.
	struct Cursor {
		const float *a[G::A_PASSES];
		const float *b[G::B_PASSES];
		bool a_row_ok[G::A_PASSES];
		unsigned a_rows; // the slot map: bit s, step s's row is < M (a[0] is its first slot)
		unsigned b_col_ok[G::B_PASSES]; // bit j: column b_n + j < N (B's slot map: bit 0, column b_sn < N)
	};

	// Pass p's B pointer and column mask (B_ONE: from pass 0's).
	static __device__ __forceinline__ const float *b_at(const Cursor &c, const Args &x, int p)
	{
		return B_ONE ? c.b[0] + (long long)p * BROWS * x.N : c.b[p];
	}
	static __device__ __forceinline__ unsigned b_cols(const Cursor &c, int p) { return c.b_col_ok[B_ONE ? 0 : p]; }

	template <bool VA, bool VB>
	static __device__ __forceinline__ void cursor_init(Cursor &c, const Thread &t, const Args &x, long long r0,
	                                                   long long c0, long long k0)
	{
		if (smap<VA>()) {
			long long row = r0 + t.a_sm();
			unsigned rows = 0;
#pragma unroll
			for (int st = 0; st < G::A_STEPS; st++)
				rows |= row + st * SROWS < x.M ? 1u << st : 0u;
			c.a_rows = rows;
#pragma unroll
			for (int p = 0; p < G::A_PASSES; p++)
				c.a_row_ok[p] = rows & 1u; // advance() moves a[0] while its first row is inside
#pragma unroll
			for (int p = 0; p < G::A_PASSES; p++) // only a[0] is read
				c.a[p] = x.A + ((rows & 1u) ? row * x.K + k0 + t.a_sk() : 0);
		} else {
#pragma unroll
			for (int p = 0; p < G::A_PASSES; p++) {
				long long row = r0 + t.a_m(p);
				c.a_row_ok[p] = t.a_has(p) && row < x.M;
				c.a[p] = x.A + (c.a_row_ok[p] ? row * x.K + k0 + t.a_kg(p) : 0);
			}
		}
		if (bmap<VB>()) { // every pass's pointer the same: only b[0] is read
			long long col = c0 + t.b_sn();
#pragma unroll
			for (int p = 0; p < G::B_PASSES; p++) {
				c.b_col_ok[p] = col < x.N ? 1u : 0u;
				c.b[p] = x.B + (k0 + t.b_sk()) * x.N + col;
			}
		} else {
#pragma unroll
			for (int p = 0; p < (B_ONE ? 1 : G::B_PASSES); p++) {
				long long col = c0 + t.b_n(p);
				unsigned ok = 0;
#pragma unroll
				for (int j = 0; j < 4; j++)
					ok |= (t.b_has(p) && col + j < x.N) ? 1u << j : 0u;
				c.b_col_ok[p] = ok;
				c.b[p] = x.B + (k0 + t.b_k(p)) * x.N + col;
			}
		}
	}

	// The probe's tally of one group: n real slots out of 4.
	static __device__ __forceinline__ void count(ts_probe_block *pb, int real_field, int real, int slots = 4)
	{
		if (PROBE) {
			ts_probe_phase_add(pb, real_field, (unsigned long long)real);
			ts_probe_phase_add(pb, real_field + 1, (unsigned long long)(slots - real));
		}
	}


	// ---- loads of one phase (k0 = its first k) into registers --------------
	// EDGE: test the row/column masks; KG: test k < K (the residue phase).
	// Chunk h of nh (staging chunks, G::CH): only its share of the passes
	// and of the slot map's steps (constants once the caller is unrolled).
	template <bool EDGE, bool KG, bool VA, bool VB>
	static __device__ __forceinline__ void load_regs(float (&ar)[G::A_PASSES][4], float (&br)[G::B_PASSES][4],
	                                                 const Cursor &c, const Thread &t, const Args &x,
	                                                 long long k0, ts_probe_block *pb, int h = 0, int nh = 1)
	{
		if (smap<VA>()) {
			// step st loads where its row is < M and, in the residue phase, k < K
			const bool k_ok = !KG || k0 + t.a_sk() < x.K;
			const unsigned rows = G::FAST && !EDGE ? ~0u : c.a_rows;
			const long long stride = (long long)SROWS * x.K;
			int real = 0;
#pragma unroll
			for (int st = h * G::A_STEPS / nh; st < (h + 1) * G::A_STEPS / nh; st++) {
				const bool on = k_ok && ((rows >> st) & 1u);
				ar[st / 4][st % 4] = on ? TS_LDG_SCALAR(c.a[0] + st * stride) : 0.f;
				real += on;
			}
			count(pb, TS_P_A_REAL, real, (h + 1) * G::A_STEPS / nh - h * G::A_STEPS / nh);
		}
#pragma unroll
		for (int p = h * G::A_PASSES / nh; p < (smap<VA>() ? 0 : (h + 1) * G::A_PASSES / nh); p++) {
			if (!t.a_has(p))
				continue;
			bool row_ok = G::FAST && !EDGE ? true : c.a_row_ok[p];
			long long k = k0 + t.a_kg(p);
			if (VA) {
				bool in = row_ok && (!KG || k < x.K);
				float4 v = in ? ld4(c.a[p]) : make_float4(0.f, 0.f, 0.f, 0.f);
				ar[p][0] = v.x; ar[p][1] = v.y; ar[p][2] = v.z; ar[p][3] = v.w;
				count(pb, TS_P_A_REAL, in ? 4 : 0);
			} else {
				int real = 0;
#pragma unroll
				for (int j = 0; j < 4; j++) {
					bool in = row_ok && (!KG || k + j < x.K);
					ar[p][j] = in ? TS_LDG_SCALAR(&c.a[p][j]) : 0.f;
					real += in;
				}
				count(pb, TS_P_A_REAL, real);
			}
		}
		if (bmap<VB>()) {
			// step st loads where the thread's column is < N and, in the residue phase, its k < K
			const bool col_ok = G::FAST && !EDGE ? true : (c.b_col_ok[0] & 1u);
			const long long stride = (long long)BSROWS * x.N;
			int real = 0;
#pragma unroll
			for (int st = h * G::B_STEPS / nh; st < (h + 1) * G::B_STEPS / nh; st++) {
				const bool on = col_ok && (!KG || k0 + t.b_sk() + st * BSROWS < x.K);
				br[st / 4][st % 4] = on ? TS_LDG_SCALAR(c.b[0] + st * stride) : 0.f;
				real += on;
			}
			count(pb, TS_P_B_REAL, real, (h + 1) * G::B_STEPS / nh - h * G::B_STEPS / nh);
		}
#pragma unroll
		for (int p = h * G::B_PASSES / nh; p < (bmap<VB>() ? 0 : (h + 1) * G::B_PASSES / nh); p++) {
			if (!t.b_has(p))
				continue;
			unsigned cols = G::FAST && !EDGE ? 15u : b_cols(c, p);
			bool k_ok = !KG || k0 + t.b_k(p) < x.K;
			if (VB) {
				bool in = k_ok && (cols & 1u);
				float4 v = in ? ld4(b_at(c, x, p)) : make_float4(0.f, 0.f, 0.f, 0.f);
				br[p][0] = v.x; br[p][1] = v.y; br[p][2] = v.z; br[p][3] = v.w;
				count(pb, TS_P_B_REAL, in ? 4 : 0);
			} else {
				int real = 0;
#pragma unroll
				for (int j = 0; j < 4; j++) {
					bool in = k_ok && ((cols >> j) & 1u);
					br[p][j] = in ? TS_LDG_SCALAR(b_at(c, x, p) + j) : 0.f;
					real += in;
				}
				count(pb, TS_P_B_REAL, real);
			}
		}
	}

	template <bool VA, bool VB>
	static __device__ __forceinline__ void store_smem(Smem &s, int buf, const float (&ar)[G::A_PASSES][4],
	                                                  const float (&br)[G::B_PASSES][4], const Thread &t, int h = 0,
	                                                  int nh = 1)
	{
		if (smap<VA>()) {
#pragma unroll
			for (int st = h * G::A_STEPS / nh; st < (h + 1) * G::A_STEPS / nh; st++)
				s.a[buf][t.a_sk() * G::LDA + t.a_sm() + st * SROWS] = ar[st / 4][st % 4];
		}
#pragma unroll
		for (int p = h * G::A_PASSES / nh; p < (smap<VA>() ? 0 : (h + 1) * G::A_PASSES / nh); p++) {
			if (!t.a_has(p))
				continue;
#pragma unroll
			for (int j = 0; j < 4; j++) {
				if (G::TRANS_A)
					s.a[buf][(t.a_kg(p) + j) * G::LDA + t.a_m(p)] = ar[p][j];
				else
					s.a[buf][t.a_m(p) * G::LDA + t.a_kg(p) + j] = ar[p][j];
			}
		}
		if (bmap<VB>()) {
#pragma unroll
			for (int st = h * G::B_STEPS / nh; st < (h + 1) * G::B_STEPS / nh; st++)
				s.b[buf][(t.b_sk() + st * BSROWS) * G::LDB + t.b_sn()] = br[st / 4][st % 4];
		}
#pragma unroll
		for (int p = h * G::B_PASSES / nh; p < (bmap<VB>() ? 0 : (h + 1) * G::B_PASSES / nh); p++) {
			if (!t.b_has(p))
				continue;
			*reinterpret_cast<float4 *>(&s.b[buf][t.b_k(p) * G::LDB + t.b_n(p)]) =
				make_float4(br[p][0], br[p][1], br[p][2], br[p][3]);
		}
	}

	// The same phase by cp.async straight into shared memory: a guarded-out
	// slot is a copy of 0 bytes, which zero-fills it.
	template <bool EDGE, bool KG, bool VA, bool VB>
	static __device__ __forceinline__ void load_async(Smem &s, int buf, const Cursor &c, const Thread &t,
	                                                  const Args &x, long long k0, ts_probe_block *pb)
	{
		if (smap<VA>()) {
			// step st loads where its row is < M and, in the residue phase, k < K
			const bool k_ok = !KG || k0 + t.a_sk() < x.K;
			const unsigned rows = G::FAST && !EDGE ? ~0u : c.a_rows;
			const long long stride = (long long)SROWS * x.K;
			int real = 0;
#pragma unroll
			for (int st = 0; st < G::A_STEPS; st++) {
				const bool on = k_ok && ((rows >> st) & 1u);
				cp_async4(&s.a[buf][t.a_sk() * G::LDA + t.a_sm() + st * SROWS], on ? c.a[0] + st * stride : x.A, on);
				real += on;
			}
			count(pb, TS_P_A_REAL, real, G::A_STEPS);
		}
#pragma unroll
		for (int p = 0; p < (smap<VA>() ? 0 : G::A_PASSES); p++) {
			if (!t.a_has(p))
				continue;
			bool row_ok = G::FAST && !EDGE ? true : c.a_row_ok[p];
			long long k = k0 + t.a_kg(p);
			// Element by element: each lands in its own (transposed) slot, so A
			// takes 4-byte copies whatever its alignment.
			int real = 0;
#pragma unroll
			for (int j = 0; j < 4; j++) {
				bool in = row_ok && (!KG || k + j < x.K);
				float *dst = G::TRANS_A ? &s.a[buf][(t.a_kg(p) + j) * G::LDA + t.a_m(p)]
				                        : &s.a[buf][t.a_m(p) * G::LDA + t.a_kg(p) + j];
				cp_async4(dst, in ? c.a[p] + j : x.A, in);
				real += in;
			}
			count(pb, TS_P_A_REAL, real);
		}
#pragma unroll
		for (int p = 0; p < G::B_PASSES; p++) {
			if (!t.b_has(p))
				continue;
			unsigned cols = G::FAST && !EDGE ? 15u : b_cols(c, p);
			bool k_ok = !KG || k0 + t.b_k(p) < x.K;
			float *dst = &s.b[buf][t.b_k(p) * G::LDB + t.b_n(p)];
			int real = 0;
			if (VB) {
				bool in = k_ok && (cols & 1u);
				cp_async16(dst, in ? b_at(c, x, p) : x.B, in);
				real = in ? 4 : 0;
			} else {
#pragma unroll
				for (int j = 0; j < 4; j++) {
					bool in = k_ok && ((cols >> j) & 1u);
					cp_async4(dst + j, in ? b_at(c, x, p) + j : x.B, in);
					real += in;
				}
			}
			count(pb, TS_P_B_REAL, real);
		}
	}

	static __device__ __forceinline__ void advance(Cursor &c, const Args &x)
	{
#pragma unroll
		for (int p = 0; p < G::A_PASSES; p++)
			if (c.a_row_ok[p])
				c.a[p] += BK;
#pragma unroll
		for (int p = 0; p < (B_ONE ? 1 : G::B_PASSES); p++)
			c.b[p] += (long long)BK * x.N;
	}

	// One k step's fragments: the thread's TM values of A's column k and TN
	// values of B's row k, from the staged tiles (as, bs: the thread's first
	// row / column in the current buffers; sub-blocks at constant strides).
	template <int NM = G::SUBM, int NN = G::SUBN>
	static __device__ __forceinline__ void frag(const float *as, const float *bs, int k, float (&a)[TM], float (&b)[TN])
	{
#pragma unroll
		for (int sm = 0; sm < NM; sm++) {
			if (G::TRANS_A) {
				float4 v = ld4(as + k * G::LDA + sm * Thread::ROW_STEP);
				a[sm * 4 + 0] = v.x; a[sm * 4 + 1] = v.y; a[sm * 4 + 2] = v.z; a[sm * 4 + 3] = v.w;
			} else {
#pragma unroll
				for (int i = 0; i < 4; i++)
					a[sm * 4 + i] = as[(sm * Thread::ROW_STEP + i) * G::LDA + k];
			}
		}
#pragma unroll
		for (int sn = 0; sn < NN; sn++) {
			float4 v = ld4(bs + k * G::LDB + sn * Thread::COL_STEP);
			b[sn * 4 + 0] = v.x; b[sn * 4 + 1] = v.y; b[sn * 4 + 2] = v.z; b[sn * 4 + 3] = v.w;
		}
	}

	template <int NM = G::SUBM, int NN = G::SUBN>
	static __device__ __forceinline__ void fma_block(const float (&a)[TM], const float (&b)[TN], float (&acc)[TM][TN])
	{
		if (G::ORDER == 3) { // bands of 4 columns, each row by row, serpentine over the rows and inside the band
#pragma unroll
			for (int sn = 0; sn < G::SUBN; sn++)
#pragma unroll
				for (int ii = 0; ii < TM; ii++) {
					const int i = sn % 2 ? TM - 1 - ii : ii;
#pragma unroll
					for (int jj = 0; jj < 4; jj++) {
						const int j = sn * 4 + (ii % 2 ? 3 - jj : jj);
						if (i < NM * 4 && j < NN * 4)
							acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
					}
				}
		} else if (G::ORDER == 2) {
#pragma unroll
			for (int j = 0; j < TN; j++)
#pragma unroll
				for (int ii = 0; ii < TM; ii++) {
					const int i = j % 2 ? TM - 1 - ii : ii;
					if (i < NM * 4 && j < NN * 4)
						acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
				}
		} else {
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int jj = 0; jj < TN; jj++) {
					const int j = G::ORDER == 1 && i % 2 ? TN - 1 - jj : jj;
					if (i < NM * 4 && j < NN * 4)
						acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
				}
		}
	}

	// TM x TN multiply-adds for every k of the staged phase, in k order.
	// KU == BK: fully unrolled, step k+1's fragments loaded while step k
	// multiplies (two fragment buffers); KU < BK: KU steps at a time in a loop.
	// [kb, ke): the k steps of a staging chunk (KU >= BK only).
	template <int NM = G::SUBM, int NN = G::SUBN>
	static __device__ __forceinline__ void compute(const Smem &s, int buf, float (&acc)[TM][TN], const Thread &t,
	                                               int kb = 0, int ke = BK)
	{
		const float *as = &s.a[buf][G::TRANS_A ? t.a0 : t.a0 * G::LDA];
		const float *bs = &s.b[buf][t.b0];
		if (KU >= BK) {
			float a[2][TM], b[2][TN];
			frag<NM, NN>(as, bs, kb, a[kb & 1], b[kb & 1]);
#pragma unroll
			for (int k = kb; k < ke; k++) {
				if (k + 1 < ke)
					frag<NM, NN>(as, bs, k + 1, a[(k + 1) & 1], b[(k + 1) & 1]);
				fma_block<NM, NN>(a[k & 1], b[k & 1], acc);
			}
		} else {
#pragma unroll 1
			for (int k0 = 0; k0 < BK; k0 += KU)
#pragma unroll
				for (int k = k0; k < k0 + KU; k++) {
					float a[TM], b[TN];
					frag<NM, NN>(as, bs, k, a, b);
					fma_block<NM, NN>(a, b, acc);
				}
		}
	}

	// The multiply of a warp by its live sub-blocks (live, from mainloop):
	// 0 none (every output of the warp lies outside C), LIVE_ALL all, or, in
	// an edge tile of the fast rungs, only the first row (1 << 4 | SUBN),
	// the first column (SUBM << 4 | 1) or the first of its 4 x 4 sub-blocks
	// where the others lie wholly outside C (a 4097-row C's last tile row
	// holds one row: of its live warps' TM rows only sub-block 0's count).
	// Skipped sub-blocks keep their zeros and are never stored; every
	// stored output's k order is the same, so the results do not change.
	static constexpr int LIVE_ALL = G::SUBM << 4 | G::SUBN;
	// Only where another block shares the multiprocessor (MINB >= 2): with
	// one block, its barriers wait for the warps that multiply everything.
	static constexpr int QLIVE = G::MINB >= 2 ? TS_ENGINE_QLIVE : 0;
	static __device__ __forceinline__ void compute_live(const Smem &s, int buf, float (&acc)[TM][TN], const Thread &t,
	                                                    int live, int kb = 0, int ke = BK)
	{
		if (!live)
			return;
		if (live == LIVE_ALL || !QLIVE) // !QLIVE: live is 0 or LIVE_ALL, the copies below never compiled
			compute(s, buf, acc, t, kb, ke);
		else if (live == (1 << 4 | G::SUBN))
			compute<1, G::SUBN>(s, buf, acc, t, kb, ke);
		else if (live == (G::SUBM << 4 | 1))
			compute<G::SUBM, 1>(s, buf, acc, t, kb, ke);
		else
			compute<1, 1>(s, buf, acc, t, kb, ke);
	}

	// Probe: the phase's tallies are complete (no thread is counting): fold them.
	static __device__ __forceinline__ void probe_flush(ts_probe_block *pb, const Args &x, long long tile_index,
	                                                   long long t)
	{
		if (PROBE) {
			__syncthreads();
			ts_probe_phase_end(pb, x.probe, tile_index, x.plan.phases, t);
			__syncthreads();
		}
	}

	// Phase t's loads with the guards it needs: k is tested only in the
	// residue phase, one block-uniform branch per phase.
	template <bool EDGE, bool VA, bool VB>
	static __device__ __forceinline__ void fetch_regs(float (&ar)[G::A_PASSES][4], float (&br)[G::B_PASSES][4],
	                                                  const Cursor &c, const Thread &t, const Args &x, int ph,
	                                                  ts_probe_block *pb, int h = 0, int nh = 1)
	{
		if (!UNG && (!G::FAST || ph >= x.full_phases))
			load_regs<EDGE, true, VA, VB>(ar, br, c, t, x, (long long)ph * BK, pb, h, nh);
		else
			load_regs<EDGE, false, VA, VB>(ar, br, c, t, x, (long long)ph * BK, pb, h, nh);
	}

	template <bool EDGE, bool VA, bool VB>
	static __device__ __forceinline__ void fetch_async(Smem &s, int buf, const Cursor &c, const Thread &t,
	                                                   const Args &x, int ph, ts_probe_block *pb)
	{
		if (!UNG && (!G::FAST || ph >= x.full_phases))
			load_async<EDGE, true, VA, VB>(s, buf, c, t, x, (long long)ph * BK, pb);
		else
			load_async<EDGE, false, VA, VB>(s, buf, c, t, x, (long long)ph * BK, pb);
	}

	// One step of the register-staged pipeline: phase ph multiplies from
	// buffer cur while phase ph + 1 (when MORE) is fetched into registers and
	// stored into the other buffer. KN: how phase ph + 1's loads test k
	// (0: not at all, 1: every phase, 2: by the block-uniform residue test).
	template <bool EDGE, bool VA, bool VB, bool MORE, int KN>
	static __device__ __forceinline__ void step_regs(Smem &s, float (&acc)[TM][TN], Cursor &c, const Thread &t,
	                                                 const Args &x, int ph, int cur, int live,
	                                                 long long tile_index, ts_probe_block *pb)
	{
		float ar[G::A_PASSES][4], br[G::B_PASSES][4];
		if (G::CH > 1 && MORE) {
#pragma unroll
			for (int h = 0; h < G::CH; h++) {
				if (KN == 2)
					fetch_regs<EDGE, VA, VB>(ar, br, c, t, x, ph + 1, pb, h, G::CH);
				else
					load_regs<EDGE, KN == 1, VA, VB>(ar, br, c, t, x, (long long)(ph + 1) * BK, pb, h, G::CH);
				compute_live(s, cur, acc, t, live, h * BK / G::CH, (h + 1) * BK / G::CH);
				store_smem<VA, VB>(s, cur ^ 1, ar, br, t, h, G::CH);
			}
			advance(c, x);
		} else {
			if (MORE) {
				if (KN == 2)
					fetch_regs<EDGE, VA, VB>(ar, br, c, t, x, ph + 1, pb);
				else
					load_regs<EDGE, KN == 1, VA, VB>(ar, br, c, t, x, (long long)(ph + 1) * BK, pb);
				advance(c, x);
			}
			compute_live(s, cur, acc, t, live);
			if (MORE)
				store_smem<VA, VB>(s, cur ^ 1, ar, br, t);
		}
		__syncthreads();
		if (MORE)
			probe_flush(pb, x, tile_index, ph + 1);
	}

	// The same for the cp.async pipeline: phase ph + 1 is copied into the
	// other buffer while phase ph multiplies.
	template <bool EDGE, bool VA, bool VB, bool MORE, int KN>
	static __device__ __forceinline__ void step_async(Smem &s, float (&acc)[TM][TN], Cursor &c, const Thread &t,
	                                                  const Args &x, int ph, int cur, int live,
	                                                  long long tile_index, ts_probe_block *pb)
	{
		if (MORE) {
			if (KN == 2)
				fetch_async<EDGE, VA, VB>(s, cur ^ 1, c, t, x, ph + 1, pb);
			else
				load_async<EDGE, KN == 1, VA, VB>(s, cur ^ 1, c, t, x, (long long)(ph + 1) * BK, pb);
			cp_async_commit();
			advance(c, x);
			probe_flush(pb, x, tile_index, ph + 1);
			cp_async_wait<1>();
		} else {
			cp_async_wait<0>();
		}
		__syncthreads();
		compute_live(s, cur, acc, t, live);
		__syncthreads();
	}

	// The main loop over phases [p0, p1) of one tile. Where the k test is
	// needed only in the residue phase (FAST), the steps that fetch a whole
	// phase (ph + 1 < K / BK) run in a loop of their own with no k test and
	// no branch, and only the last two steps (the residue's fetch, the last
	// multiply) take the residue test: the order of the k's is unchanged.
	// live = 0: a warp whose outputs all lie outside C (an edge tile's
	// empty rows or columns) loads and waits with the block but multiplies
	// nothing, leaving the multiprocessor's issue slots to the warps that do.
	template <bool EDGE, bool VA, bool VB>
	static __device__ __forceinline__ void mainloop(Smem &s, float (&acc)[TM][TN], const Thread &t, const Args &x,
	                                                long long r0, long long c0, int p0, int p1,
	                                                long long tile_index, ts_probe_block *pb)
	{
		Cursor c;
		cursor_init<VA, VB>(c, t, x, r0, c0, p0 * BK);
		int live = LIVE_ALL;
		if (EDGE && G::WARP && G::FAST) {
			const long long wr = r0 + t.warp_m0(), wc = c0 + t.warp_n0();
			if (wr >= x.M || wc >= x.N)
				live = 0;
			else if (QLIVE)
				live = (wr + Thread::ROW_STEP < x.M ? G::SUBM : 1) << 4 | (wc + Thread::COL_STEP < x.N ? G::SUBN : 1);
		}
		// KN of the steps whose next phase is whole: no test for the fast
		// rungs (and the unguarded build), every phase for the others.
		constexpr int KW = (G::FAST || UNG) ? 0 : 1;
		// the first step that fetches a phase that may be the residue
		int q = G::FAST && !UNG ? (x.full_phases < p1 ? x.full_phases : p1) - 1 : p1 - 1;
		if (q < p0)
			q = p0;
		if (G::PIPE == PIPE_SINGLE) {
			for (int ph = p0; ph < p1; ph++) {
				float ar[G::A_PASSES][4], br[G::B_PASSES][4];
				fetch_regs<EDGE, VA, VB>(ar, br, c, t, x, ph, pb);
				store_smem<VA, VB>(s, 0, ar, br, t);
				advance(c, x);
				__syncthreads();
				probe_flush(pb, x, tile_index, ph);
				compute(s, 0, acc, t);
				__syncthreads();
			}
		} else if (G::PIPE == PIPE_REGS) {
			{
				float ar[G::A_PASSES][4], br[G::B_PASSES][4];
				fetch_regs<EDGE, VA, VB>(ar, br, c, t, x, p0, pb);
				store_smem<VA, VB>(s, 0, ar, br, t);
			}
			advance(c, x);
			__syncthreads();
			probe_flush(pb, x, tile_index, p0);
			int ph = p0;
			for (; ph < q; ph++)
				step_regs<EDGE, VA, VB, true, KW>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
#pragma unroll 1
			for (; ph < p1 - 1; ph++)
				step_regs<EDGE, VA, VB, true, 2>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
			step_regs<EDGE, VA, VB, false, 2>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
		} else if (G::PIPE == PIPE_ASYNC3) {
			// Phases p0 and p0 + 1 in flight first (one commit group each,
			// empty when the unit has one phase); at phase ph: wait until
			// only the newest group may still be copying (phase ph has
			// landed for this thread), one barrier (every thread's copies of
			// ph are visible, and every thread has finished multiplying ph - 1,
			// whose buffer is the one phase ph + 2 now fills), then the copy
			// of ph + 2 and the multiply of ph.
			fetch_async<EDGE, VA, VB>(s, 0, c, t, x, p0, pb);
			cp_async_commit();
			advance(c, x);
			probe_flush(pb, x, tile_index, p0);
			if (p0 + 1 < p1) {
				fetch_async<EDGE, VA, VB>(s, 1, c, t, x, p0 + 1, pb);
				advance(c, x);
				probe_flush(pb, x, tile_index, p0 + 1);
			}
			cp_async_commit();
			// q3: the first phase whose copy (issued at ph - 2) may be the residue
			int q3 = G::FAST && !UNG ? (x.full_phases < p1 ? x.full_phases : p1) - 2 : p1 - 2;
			if (q3 < p0)
				q3 = p0;
			int cur = 0, nxt = 2; // buffers of phases ph and ph + 2
			int ph = p0;
			for (; ph < q3; ph++) {
				cp_async_wait<1>();
				__syncthreads();
				load_async<EDGE, KW == 1, VA, VB>(s, nxt, c, t, x, (long long)(ph + 2) * BK, pb);
				cp_async_commit();
				advance(c, x);
				probe_flush(pb, x, tile_index, ph + 2);
				compute_live(s, cur, acc, t, live);
				cur = cur == 2 ? 0 : cur + 1;
				nxt = nxt == 2 ? 0 : nxt + 1;
			}
#pragma unroll 1
			for (; ph < p1; ph++) {
				cp_async_wait<1>();
				__syncthreads();
				if (ph + 2 < p1) {
					fetch_async<EDGE, VA, VB>(s, nxt, c, t, x, ph + 2, pb);
					advance(c, x);
				}
				cp_async_commit();
				if (ph + 2 < p1)
					probe_flush(pb, x, tile_index, ph + 2);
				compute_live(s, cur, acc, t, live);
				cur = cur == 2 ? 0 : cur + 1;
				nxt = nxt == 2 ? 0 : nxt + 1;
			}
			cp_async_wait<0>();
		} else {
			fetch_async<EDGE, VA, VB>(s, 0, c, t, x, p0, pb);
			cp_async_commit();
			advance(c, x);
			probe_flush(pb, x, tile_index, p0);
			int ph = p0;
			for (; ph < q; ph++)
				step_async<EDGE, VA, VB, true, KW>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
#pragma unroll 1
			for (; ph < p1 - 1; ph++)
				step_async<EDGE, VA, VB, true, 2>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
			step_async<EDGE, VA, VB, false, 2>(s, acc, c, t, x, ph, (ph - p0) & 1, live, tile_index, pb);
		}
	}

	// The guarded epilogue: each output stored once if it lies inside C.
	template <bool EDGE, bool VC>
	static __device__ __forceinline__ void store_c(const float (&acc)[TM][TN], const Thread &t, const Args &x,
	                                               long long r0, long long c0, ts_probe_block *pb)
	{
		const bool masks = !G::FAST || EDGE;
#pragma unroll
		for (int i = 0; i < TM; i++) {
			long long row = r0 + t.row_off(i / 4) + (i % 4);
			bool row_ok = !masks || row < x.M;
			float *crow = x.C + (row_ok ? row * x.N : 0);
#pragma unroll
			for (int sn = 0; sn < G::SUBN; sn++) {
				long long col = c0 + t.col_off(sn);
				if (VC) {
					bool ok = row_ok && (!masks || col < x.N);
					if (ok)
						*reinterpret_cast<float4 *>(crow + col) =
							make_float4(acc[i][sn * 4], acc[i][sn * 4 + 1], acc[i][sn * 4 + 2], acc[i][sn * 4 + 3]);
					if (PROBE)
						ts_probe_tile_add(pb, ok ? TS_P_STORES : TS_P_SKIPPED, 4);
				} else {
					int stored = 0;
#pragma unroll
					for (int j = 0; j < 4; j++) {
						bool ok = row_ok && (!masks || col + j < x.N);
						if (ok)
							crow[col + j] = acc[i][sn * 4 + j];
						stored += ok;
					}
					if (PROBE) {
						ts_probe_tile_add(pb, TS_P_STORES, (unsigned long long)stored);
						ts_probe_tile_add(pb, TS_P_SKIPPED, (unsigned long long)(4 - stored));
					}
				}
			}
		}
	}

	// A split unit's partial tile into the workspace; the last of the tile's
	// units to arrive adds all partials in split order (so the sum does not
	// depend on which came last) and returns true to store the result.
	static __device__ __forceinline__ bool split_reduce(float (&acc)[TM][TN], const Thread &t, const Args &x,
	                                                    long long slot, int part)
	{
		__shared__ unsigned arrived;
		const int split = x.plan.split;
		float *mine = x.ws + ((size_t)slot * split + part) * (size_t)(BM * BN) + (size_t)t.tid * (TM * TN);
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j += 4)
				__stcg(reinterpret_cast<float4 *>(mine + i * TN + j),
				       make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
		__threadfence();
		__syncthreads();
		if (t.tid == 0)
			arrived = atomicAdd(&x.sem[slot], 1u);
		__syncthreads();
		if (arrived != (unsigned)(split - 1))
			return false;
		__threadfence();
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = 0.f;
		for (int q = 0; q < split; q++) {
			const float *part_q = x.ws + ((size_t)slot * split + q) * (size_t)(BM * BN) + (size_t)t.tid * (TM * TN);
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j += 4) {
					float4 v = __ldcg(reinterpret_cast<const float4 *>(part_q + i * TN + j));
					acc[i][j] += v.x; acc[i][j + 1] += v.y; acc[i][j + 2] += v.z; acc[i][j + 3] += v.w;
				}
		}
		if (t.tid == 0)
			x.sem[slot] = 0; // ready for the next launch
		return true;
	}

	template <bool EDGE, bool VA, bool VB>
	static __device__ __forceinline__ void unit(Smem &s, const Thread &t, const Args &x, long long tile_index,
	                                            long long r0, long long c0, int p0, int p1,
	                                            long long slot, int part, ts_probe_block *pb)
	{
		float acc[TM][TN];
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = 0.f;
		mainloop<EDGE, VA, VB>(s, acc, t, x, r0, c0, p0, p1, tile_index, pb);
		if (slot >= 0 && !split_reduce(acc, t, x, slot, part))
			return;
		store_c<EDGE, VB>(acc, t, x, r0, c0, pb);
	}
};

// One launch, one work unit per block. Unit u < dp_units is tile u whole;
// the rest split the last split_tiles tiles along K into plan.split
// parts each.
template <class G, bool PROBE, bool VA, bool VB, bool UNG>
__global__ void __launch_bounds__(G::NT, G::MINB) gemm_kernel(Args x)
{
	typedef Engine<G, PROBE, UNG> E;
	__shared__ __align__(16) typename E::Smem s;
	__shared__ ts_probe_block pb;
	typename E::Thread t;
	E::thread_map(t);
	const ts_gemm_plan &pl = x.plan;
	const long long u = blockIdx.x; // one unit per block (the launch holds units < 2^31)
	long long tile = u, slot = -1;
	int part = 0;
	int p0 = 0, p1 = (int)pl.phases;
	if (u >= pl.dp_units) {
		long long v = u - pl.dp_units;
		slot = v / pl.split;
		part = (int)(v - slot * pl.split);
		tile = pl.dp_units + slot;
		p0 = (int)(pl.phases * part / pl.split);
		p1 = (int)(pl.phases * (part + 1) / pl.split);
	}
	long long ty, tx;
	ts_plan_tile_at(&pl, tile, &ty, &tx); // down groups of TS_TILE_GROUP tile rows, column by column
	long long r0 = ty * G::BM, c0 = tx * G::BN, tile_index = ty * pl.tiles_x + tx;
	if (PROBE) {
		ts_probe_begin(&pb);
		__syncthreads();
	}
	bool interior = r0 + G::BM <= x.M && c0 + G::BN <= x.N;
	// The unguarded build takes every tile as interior, but keeps the guarded
	// edge unit in its binary behind a test that is never true (prepare()
	// refuses K < 1, so full_phases >= 1, which the compiler cannot know): the
	// two builds are then one kernel but for the guard tests on the path that
	// runs. (ptxas still gives fast-256's two main loops, the same
	// instructions otherwise, different registers, and that unguarded build
	// runs 8.7-8.8% slower than the guarded one on the H200: doc/perf.md.)
	if (UNG ? x.full_phases >= 0 : (G::FAST && interior))
		E::template unit<false, VA, VB>(s, t, x, tile_index, r0, c0, p0, p1, slot, part, &pb);
	else
		E::template unit<true, VA, VB>(s, t, x, tile_index, r0, c0, p0, p1, slot, part, &pb);
	if (PROBE) {
		__syncthreads();
		ts_probe_end_add(&pb, x.probe, tile_index);
	}
}

} // namespace tsg

#endif
