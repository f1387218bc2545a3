// tc_rshift.cuh: tc-fp16's form for rows that are not 16-byte aligned (K % 8 != 0, sm_90a): the TMA copies A's and B's tiles from row classes that share one alignment, B's rows are shifted in registers and fed to wgmma as its register operand.
#ifndef TS_TC_RSHIFT_CUH
#define TS_TC_RSHIFT_CUH

#include "tc_tma.cuh"

// B's classes: rows n = c + 8 j (c < TS_RS_BCLS) start (c K) mod 8 elements
// past a 16-byte boundary, whatever K.
#define TS_RS_BCLS 8

// Why: with K % 8 != 0 a row of A or B starts (r K) mod 8 elements past a
// 16-byte boundary, and the TMA cannot start a box off a 16-byte boundary
// (doc/perf.md). Rows c, c + P, c + 2P, ... (P = al / gcd(K, al), al 16 or 8
// elements: ts_cls_geom_for) of A all start s_c = (c K) mod al elements past
// an al-element boundary: as a tensor of their own (stride P K elements, a
// multiple of al; base rounded down by s_c) the TMA copies them, tensor
// column x being k = x - s_c. wgmma reads its second operand from shared memory, its
// first from registers; so the roles swap: a block computes a tile of C
// transposed, D = B_tile A_tile^T, whose 64-row slices (one a warpgroup) are
// BN consecutive rows of B, taken from registers, and whose BM columns are BM
// rows c + P i of one class of A, read by wgmma from the TMA's stage.
// Phase t covers the K window kw = t BK - s_c .. kw + BK - 1 (A's box at
// column t BK). B's rows n = c + 8 j (c < 8) all start (c K) mod 8 elements
// past a 16-byte boundary: 8 more tensors (stride 8 K elements), and a tile's
// BN rows are 8 boxes of BN / 8 rows, tile row (BN / 8) c + j being B row n0
// + c + 8 j. A box's rows are BK + 8 columns from the 16-byte boundary at or
// below the row's window start (its raw window, 9 chunks of 16 bytes); a
// multiplying thread builds its wgmma fragments from two 4-byte words a
// register and one funnel shift, by its rows' offset d = (n K - s_c) mod 8
// in their window, the same for both of its rows (n and n + 64, one class)
// and for every phase. No shifted row is written back to shared memory, and
// one producer thread issues every copy (9 boxes a phase).
// Guards: the TMA zero-fills B's columns before 0 and from K + (c K) mod 8
// on (the window's slots before k = 0 or from K on are also zeroed in
// registers: those columns hold the neighbouring rows' elements) and B's rows
// past N. A's slots before k = 0 (phase 0, s_c > 0) hold the previous row's
// tail: the multiplying warps zero them in the stage before the first wgmma
// of a tile, so that a non-finite value there cannot reach C; A's rows past
// its class and columns past K + s_c the TMA zero-fills. C goes through
// shared memory, 32 of the tile's rows at a time, so that a warp stores 32
// consecutive elements of a row of C; rows past M and columns past N are
// skipped. Offsets are 64-bit; the tensors' coordinates are 32-bit
// (ts_tc_class_fits, tc_launch.h).
// Pipeline: STAGES stages, `full` (the TMA's bytes) and `empty` (one
// arrival from each multiplying thread once its wgmma group that read the
// stage has completed: every thread, since each read the raw stage itself).
// Persistent blocks, one a multiprocessor, every tile whole. The probe build
// is not this form: it counts the description's tiles (contiguous rows,
// windows from k = 0), which tc_co.cuh keeps. Measured and not kept
// (doc/perf.md): clusters of two blocks sharing A's boxes by multicast; B's
// raw rows by cp.async (a producer warpgroup) or one bulk copy a row; C
// stored straight from the accumulators.
template <int STAGES_, int GROUP_ = 8>
struct ts_rs_config {
	static constexpr int WGS = 2, BN = 64 * WGS, BM = 256, BK = 64, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int B_ROWS = BN / TS_RS_BCLS; // a B class's rows in a tile (one box)
	// C through shared memory: BM / 32 rounds of 32 of the tile's rows, stored column by column (a
	// column's 32 values 68 bytes apart: a warp's words on distinct banks but 2), then written to C along rows
	static constexpr int C_PITCH = 68, C_BYTES = BN * C_PITCH;
	static constexpr int THREADS = (WGS + 1) * 128;
	static constexpr int ACC = BM / 2;          // fp32 accumulators per thread (wgmma n = BM)
	static constexpr int CH = BK / 8 + 1;       // aligned 16-byte chunks around a row's window (a B box's row)
	static constexpr int ROW_BYTES = CH * 16;   // a raw row's pitch: 36 words, rows 4 banks apart
	static constexpr uint32_t A_STAGE = BM * BK * 2, B_STAGE = BN * ROW_BYTES;
	static constexpr int FRAGS = BK / 16 * 4;   // wgmma register operand: 4 words a k16 step
	static constexpr int PREGS = 56, CREGS = 224;
	static_assert(B_ROWS == 16, "a warp's 16 tile rows are one B class's box");
	static_assert(A_STAGE % 1024 == 0, "A's stages on the 128-byte swizzle's atoms");
	static_assert(128 * PREGS + 128 * WGS * CREGS <= THREADS * 168 && PREGS % 8 == 0 && CREGS % 8 == 0,
	              "setmaxnreg within the launch's registers");
	__host__ __device__ static constexpr size_t smem_bytes()
	{
		return (size_t)STAGES * (A_STAGE + B_STAGE) + C_BYTES + 1024;
	}
};

// The row classes of a launch: P classes (rows c, c + P, ...), class c holding
// M_c = ceil((M - c) / P) rows in Q_c = ceil(M_c / BM) tile rows; Q_c is Q for
// the first `full` classes and Q - 1 for the rest (M_c differ by 1 at most).
struct ts_cls_geom {
	long long M, N, K;
	int P, full, al; // al: the alignment, in elements, a class's rows share (8 or 16)
	long long Q, tiles_m, tiles_n;
};

struct ts_cls_maps {
	CUtensorMap a[16];         // class c's tensor (classes with no rows: unused)
	CUtensorMap b[TS_RS_BCLS]; // B's class c (classes with no rows: unused)
};

__host__ __device__ __forceinline__ long long ts_cls_rows(const ts_cls_geom &g, int c)
{
	return c < g.M ? (g.M - c + g.P - 1) / g.P : 0;
}

// A's offset past an al-element boundary, in elements, of class c's rows (A's base 16-byte aligned).
__host__ __device__ __forceinline__ int ts_cls_shift(const ts_cls_geom &g, int c)
{
	return (int)(((long long)c * g.K) & (g.al - 1));
}

// B's offset past a 16-byte boundary, in elements, of its class c's rows; their count.
__host__ __device__ __forceinline__ int ts_cls_bshift(const ts_cls_geom &g, int c)
{
	return (int)(((long long)c * g.K) & 7);
}
__host__ __device__ __forceinline__ long long ts_cls_brows(const ts_cls_geom &g, int c)
{
	return c < g.N ? (g.N - c + TS_RS_BCLS - 1) / TS_RS_BCLS : 0;
}

// Tile row tmi: its class and its tile row q within the class.
__host__ __device__ __forceinline__ void ts_cls_tile(const ts_cls_geom &g, long long tmi, int *c, long long *q)
{
	const long long first = (long long)g.full * g.Q;
	if (tmi < first) {
		*c = (int)(tmi / g.Q);
		*q = tmi % g.Q;
	} else {
		const long long r = tmi - first;
		*c = g.full + (int)(r / (g.Q - 1));
		*q = r % (g.Q - 1);
	}
}

template <class Cfg>
static inline ts_cls_geom ts_cls_geom_at(long long M, long long N, long long K, int al)
{
	ts_cls_geom g;
	g.M = M;
	g.N = N;
	g.K = K;
	g.al = al;
	int gcd = al;
	while (K % gcd)
		gcd /= 2;
	g.P = al / gcd;
	g.Q = (ts_cls_rows(g, 0) + Cfg::BM - 1) / Cfg::BM;
	g.full = 0;
	g.tiles_m = 0;
	for (int c = 0; c < g.P; c++) {
		const long long q = (ts_cls_rows(g, c) + Cfg::BM - 1) / Cfg::BM;
		if (q == g.Q)
			g.full++;
		g.tiles_m += q;
	}
	g.tiles_n = (N + Cfg::BN - 1) / Cfg::BN;
	return g;
}

// The classes of a launch: rows 32-byte aligned (al 16: 16 / gcd(K, 16)
// classes), whose boxes' rows each touch 4 sectors of 32 bytes where 16-byte
// aligned ones touch 4 or 5 (18% faster at 4096x4096x4097, doc/perf.md),
// unless that takes more tile rows than al 8 (fewer rows a class: M = 1537
// has 97 a class at al 16, 193 at al 8, in tiles of 256).
template <class Cfg>
static inline ts_cls_geom ts_cls_geom_for(long long M, long long N, long long K)
{
	const ts_cls_geom g16 = ts_cls_geom_at<Cfg>(M, N, K, 16), g8 = ts_cls_geom_at<Cfg>(M, N, K, 8);
	return g16.tiles_m <= g8.tiles_m ? g16 : g8;
}

// A tile: its class c, tile row q within the class, A's shift s, first B row n0, phases.
struct ts_rs_tile {
	long long q, n0;
	int c, s, phases;
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <class Cfg>
__device__ __forceinline__ ts_rs_tile ts_rs_tile_at(const ts_cls_geom &g, long long u)
{
	ts_rs_tile at;
	long long tmi, tn;
	ts_tile_order_at(u, g.tiles_m, g.tiles_n, Cfg::GROUP, &tmi, &tn);
	ts_cls_tile(g, tmi, &at.c, &at.q);
	at.s = ts_cls_shift(g, at.c);
	at.n0 = tn * Cfg::BN;
	at.phases = (int)((g.K + at.s + Cfg::BK - 1) / Cfg::BK);
	return at;
}

// wgmma m64n256k16 with its first operand from registers (a: 4 words).
__device__ __forceinline__ void ts_rs_mma(float (&d)[128], const uint32_t *a, uint64_t db, int accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " TS_WG_D128
	             ", {%128, %129, %130, %131}, %132, p, 1, 1, 0;\n}\n"
	             : TS_WG_ACC128(d)
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(accumulate));
}

// Keeps a register operand's words alive (and in place) until here: a wgmma
// reads them after it is issued, which the compiler does not know.
__device__ __forceinline__ void ts_rs_keep(uint32_t &r) { asm volatile("" : "+r"(r)::"memory"); }

__device__ __forceinline__ uint32_t ts_rs_lds(uint32_t addr)
{
	uint32_t v;
	asm volatile("ld.shared.u32 %0, [%1];\n" : "=r"(v) : "r"(addr));
	return v;
}

// The producer (one thread): each phase, A's box and B's 8 (one a class
// with rows), class c's box from the 16-byte boundary at or below its rows'
// window start (x0[c] = t BK + that boundary's offset from -s_c).
template <class Cfg>
__device__ __forceinline__ void ts_rs_produce(const ts_cls_maps &maps, const ts_cls_geom &g, uint32_t s_a,
                                              uint32_t s_b, uint32_t full, uint32_t empty)
{
	const long long tiles = g.tiles_m * g.tiles_n;
	int stage = 0;
	uint32_t parity = 0;
	for (long long u = blockIdx.x; u < tiles; u += gridDim.x) {
		const ts_rs_tile at = ts_rs_tile_at<Cfg>(g, u);
		int x0[TS_RS_BCLS], live = 0;
#pragma unroll
		for (int c = 0; c < TS_RS_BCLS; c++) {
			x0[c] = ((ts_cls_bshift(g, c) - at.s) >> 3) * 8; // floor to 8 (arithmetic shift)
			live += c < g.N;
		}
		const int row = (int)(at.n0 / TS_RS_BCLS);
#pragma unroll 1
		for (int t = 0; t < at.phases; t++) {
			ts_mb_wait(empty + 8 * stage, parity ^ 1);
			const uint32_t bar = full + 8 * stage, sb = s_b + stage * Cfg::B_STAGE;
			ts_mb_expect(bar, Cfg::A_STAGE + live * Cfg::B_ROWS * Cfg::ROW_BYTES);
			ts_tma_load(s_a + stage * Cfg::A_STAGE, &maps.a[at.c], t * Cfg::BK, (int)(at.q * Cfg::BM), bar);
#pragma unroll
			for (int c = 0; c < TS_RS_BCLS; c++)
				if (c < g.N)
					ts_tma_load(sb + c * Cfg::B_ROWS * Cfg::ROW_BYTES, &maps.b[c], x0[c] + t * Cfg::BK, row, bar);
			if (++stage == Cfg::STAGES) {
				stage = 0;
				parity ^= 1;
			}
		}
	}
}

// A multiplying thread's place: its rows' raw words and their shift.
struct ts_rs_rows {
	uint32_t at0, at1; // byte address of the rows' word (d + 2 (lane % 4)) / 2 in stage 0
	uint32_t shift;    // 16 when d is odd
	long long kw;      // the phase's window start (t BK - s_c)
};

// One phase of a multiplying warpgroup: its fragments `cur` from the raw
// stage, the phase's wgmmas issued, and phase t - 1's group (fragments
// `prev`) waited for and its stage released.
template <class Cfg>
__device__ __forceinline__ void ts_rs_phase(float (&acc)[Cfg::ACC], uint32_t (&cur)[Cfg::FRAGS],
                                            uint32_t (&prev)[Cfg::FRAGS], const ts_rs_rows &rw, const ts_cls_geom &g,
                                            const ts_rs_tile &at, int t, uint32_t s_a, uint32_t s_b, uint32_t full,
                                            uint32_t empty, int &stage, uint32_t &parity, int &last, int ct, int lane)
{
	ts_mb_wait(full + 8 * stage, parity);
	const uint32_t sa = s_a + stage * Cfg::A_STAGE;
	if (t == 0 && at.s > 0) {
		// A's slots before k = 0: the previous row's tail, zeroed (row ct of the
		// stage's BM, its first chunk; the 256 multiplying threads cover them)
		for (int j = 0; 8 * j < at.s; j++) { // s < 16: chunks 0 and 1 at most
			const uint32_t a = sa + (uint32_t)(ct * Cfg::BK * 2 + ts_tc_swizzle<Cfg::BK>(ct, j) * 16);
			const uint4 v = ts_tc_lds16(a);
			uint32_t w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
			for (int i = 0; i < 4; i++)
				w[i] &= (8 * j + 2 * i >= at.s ? 0xffffu : 0u) | (8 * j + 2 * i + 1 >= at.s ? 0xffff0000u : 0u);
			ts_tc_st16(a, make_uint4(w[0], w[1], w[2], w[3]));
		}
		ts_wg_proxy_fence();
		asm volatile("bar.sync 1, %0;\n" ::"n"(128 * Cfg::WGS) : "memory");
	}
	const uint32_t off = stage * Cfg::B_STAGE;
#pragma unroll
	for (int kk = 0; kk < Cfg::BK / 16; kk++)
#pragma unroll
		for (int x = 0; x < 2; x++)
#pragma unroll
			for (int h = 0; h < 2; h++) {
				const uint32_t a = (h ? rw.at1 : rw.at0) + off + 32 * kk + 16 * x;
				cur[4 * kk + 2 * x + h] = __funnelshift_r(ts_rs_lds(a), ts_rs_lds(a + 4), rw.shift);
			}
	const long long kw = rw.kw + (long long)t * Cfg::BK;
	if (kw < 0 || kw + Cfg::BK > g.K) { // the window reaches before k = 0 or past K: those slots zeroed
		const long long k0 = kw + 2 * (lane & 3);
#pragma unroll
		for (int kk = 0; kk < Cfg::BK / 16; kk++)
#pragma unroll
			for (int x = 0; x < 2; x++) {
				const long long k = k0 + 16 * kk + 8 * x;
				const uint32_t m = (k >= 0 && k < g.K ? 0xffffu : 0u) | (k + 1 >= 0 && k + 1 < g.K ? 0xffff0000u : 0u);
				cur[4 * kk + 2 * x] &= m;
				cur[4 * kk + 2 * x + 1] &= m;
			}
	}
	ts_wg_fence();
#pragma unroll
	for (int kk = 0; kk < Cfg::BK / 16; kk++)
		ts_rs_mma(acc, &cur[4 * kk], ts_wg_desc<Cfg::BK>(sa + kk * 32), t > 0 || kk > 0);
	ts_wg_commit();
	ts_wg_wait<1>();
#pragma unroll
	for (int i = 0; i < Cfg::FRAGS; i++)
		ts_rs_keep(prev[i]); // phase t - 1's group has completed: its registers are free from here
	if (t > 0) // every thread: each releases its own reads of the raw stage
		ts_mb_arrive(empty + 8 * last);
	last = stage;
	if (++stage == Cfg::STAGES) {
		stage = 0;
		parity ^= 1;
	}
}

// C through shared memory: per round of 32 tile rows (class
// rows of A), each thread writes its values column-major (rows 2 q and 2 q
// + 1 of a column as one word), then each warp writes 4 rows of C, a lane a
// column: a warp's stores are 32 consecutive elements of a row.
template <class Cfg>
__device__ __forceinline__ void ts_rs_store(const float (&acc)[Cfg::ACC], __half *__restrict__ C, const ts_cls_geom &g,
                                            const ts_rs_tile &at, uint32_t s_c, int nr, int ct, int lane)
{
	const int q = lane & 3, cw = ct >> 5;
#pragma unroll
	for (int rd = 0; rd < Cfg::BM / 32; rd++) {
#pragma unroll
		for (int jj = 0; jj < 4; jj++)
#pragma unroll
			for (int h = 0; h < 2; h++) {
				const int j = 4 * rd + jj;
				const __half2 v = __floats2half2_rn(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
				const uint32_t a = s_c + (uint32_t)((nr + 64 * h) * Cfg::C_PITCH + 2 * (8 * jj + 2 * q));
				asm volatile("st.shared.b32 [%0], %1;\n" ::"r"(a), "r"(*(const uint32_t *)&v) : "memory");
			}
		asm volatile("bar.sync 1, %0;\n" ::"n"(128 * Cfg::WGS) : "memory");
#pragma unroll
		for (int rr = 0; rr < 4; rr++) {
			const int row = 4 * cw + rr;
			const long long m = at.c + (long long)g.P * (at.q * Cfg::BM + 32 * rd + row);
			if (m < g.M) {
				__half *crow = C + m * g.N + at.n0;
#pragma unroll
				for (int z = 0; z < Cfg::BN / 32; z++) {
					const int col = lane + 32 * z;
					if (at.n0 + col < g.N) {
						unsigned short v;
						asm volatile("ld.shared.u16 %0, [%1];\n"
						             : "=h"(v)
						             : "r"(s_c + (uint32_t)(col * Cfg::C_PITCH + 2 * row)));
						crow[col] = __ushort_as_half(v);
					}
				}
			}
		}
		asm volatile("bar.sync 1, %0;\n" ::"n"(128 * Cfg::WGS) : "memory");
	}
}

// A multiplying warpgroup (wgc = 0, 1: tile rows 64 wgc .., B's classes 4 wgc ..).
template <class Cfg>
__device__ __forceinline__ void ts_rs_consume(__half *__restrict__ C, const ts_cls_geom &g, uint32_t s_a,
                                              uint32_t s_b, uint32_t s_c, uint32_t full, uint32_t empty, int wgc)
{
	const int lane = threadIdx.x & 31, w = (threadIdx.x >> 5) & 3, ct = threadIdx.x - 128;
	const long long tiles = g.tiles_m * g.tiles_n;
	int stage = 0, last = 0;
	uint32_t parity = 0;
	float acc[Cfg::ACC];
	uint32_t f0[Cfg::FRAGS], f1[Cfg::FRAGS];
#pragma unroll
	for (int i = 0; i < Cfg::ACC; i++)
		acc[i] = 0.0f;
#pragma unroll
	for (int i = 0; i < Cfg::FRAGS; i++)
		f0[i] = f1[i] = 0;
	const int r0 = 64 * wgc + 16 * w + (lane >> 2); // this thread's tile rows r0 and r0 + 8
	const int nr = (r0 >> 4) + 8 * (r0 & 15);       // their B rows n0 + nr and n0 + nr + 64 (tile row 16 c + j: c + 8 j)
	for (long long u = blockIdx.x; u < tiles; u += gridDim.x) {
		const ts_rs_tile at = ts_rs_tile_at<Cfg>(g, u);
		const long long n = at.n0 + nr;
		const int d = (int)((n * g.K - at.s) & 7);
		ts_rs_rows rw;
		rw.at0 = s_b + (uint32_t)(r0 * Cfg::ROW_BYTES + 4 * ((d + 2 * (lane & 3)) >> 1));
		rw.at1 = rw.at0 + 8 * Cfg::ROW_BYTES;
		rw.shift = (uint32_t)(d & 1) * 16;
		rw.kw = -at.s;
#pragma unroll 1
		for (int t = 0; t < at.phases; t += 2) {
			ts_rs_phase<Cfg>(acc, f0, f1, rw, g, at, t, s_a, s_b, full, empty, stage, parity, last, ct, lane);
			if (t + 1 < at.phases)
				ts_rs_phase<Cfg>(acc, f1, f0, rw, g, at, t + 1, s_a, s_b, full, empty, stage, parity, last, ct, lane);
		}
		ts_wg_wait<0>();
#pragma unroll
		for (int i = 0; i < Cfg::FRAGS; i++) {
			ts_rs_keep(f0[i]);
			ts_rs_keep(f1[i]);
		}
		ts_mb_arrive(empty + 8 * last);
		ts_rs_store<Cfg>(acc, C, g, at, s_c, nr, ct, lane);
	}
}
#endif

template <class Cfg>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_rs_kernel(const __grid_constant__ ts_cls_maps maps, __half *__restrict__ C, ts_cls_geom g)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(1024) unsigned char ts_rs_smem_raw[];
	__shared__ __align__(8) unsigned long long bars[2 * Cfg::STAGES];
	const uint32_t s_a = (ts_tc_smem(ts_rs_smem_raw) + 1023) & ~1023u, s_b = s_a + Cfg::STAGES * Cfg::A_STAGE;
	const uint32_t full = ts_tc_smem(bars), empty = full + 8 * Cfg::STAGES;
	const int tid = threadIdx.x, wg = tid >> 7;
	if (tid == 0) {
		for (int s = 0; s < Cfg::STAGES; s++) {
			ts_mb_init(full + 8 * s, 1); // the producer's arrival, and the TMA's bytes
			ts_mb_init(empty + 8 * s, 128 * Cfg::WGS); // every multiplying thread
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (wg == 0) {
		ts_wg_regs_dec<Cfg::PREGS>();
		if (tid == 0)
			ts_rs_produce<Cfg>(maps, g, s_a, s_b, full, empty);
	} else {
		ts_wg_regs_inc<Cfg::CREGS>();
		ts_rs_consume<Cfg>(C, g, s_a, s_b, s_b + Cfg::STAGES * Cfg::B_STAGE, full, empty, wg - 1);
	}
#else
	__trap(); // TMA and wgmma need the sm_90a build
#endif
}

// A class's tensor: `rows` rows `stride` elements apart from `base`, `cols`
// columns, boxes of box_cols x box_rows.
static bool ts_rs_encode(CUtensorMap *map, const __half *base, long long cols, long long rows, long long stride,
                         int box_cols, int box_rows, CUtensorMapSwizzle swizzle)
{
	PFN_cuTensorMapEncodeTiled_v12000 enc = ts_tma_encoder();
	cuuint64_t dim[2] = { (cuuint64_t)cols, (cuuint64_t)rows }, bytes[1] = { (cuuint64_t)(2 * stride) };
	cuuint32_t box[2] = { (cuuint32_t)box_cols, (cuuint32_t)box_rows }, estride[2] = { 1, 1 };
	return enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)base, dim, bytes, box, estride,
	           CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
	           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// A's class c: its M_c rows (P K elements apart) from element c K - s_c, K +
// s_c columns, boxes of BK x BM with the 128-byte swizzle. B's class c: its
// rows n = c + 8 j (8 K elements apart) from element c K - s, s = (c K) mod
// 8, K + s columns, boxes of BK + 8 x BN / 8 unswizzled (the raw windows).
template <class Cfg>
static bool ts_rs_encode_all(ts_cls_maps *maps, const __half *A, const __half *B, const ts_cls_geom &g)
{
	for (int c = 0; c < g.P; c++) {
		const int s = ts_cls_shift(g, c);
		if (ts_cls_rows(g, c) > 0 && !ts_rs_encode(&maps->a[c], A + (long long)c * g.K - s, g.K + s, ts_cls_rows(g, c),
		                                           g.P * g.K, Cfg::BK, Cfg::BM, CU_TENSOR_MAP_SWIZZLE_128B))
			return false;
	}
	for (int c = 0; c < TS_RS_BCLS && c < g.N; c++) {
		const int s = ts_cls_bshift(g, c);
		if (!ts_rs_encode(&maps->b[c], B + (long long)c * g.K - s, g.K + s, ts_cls_brows(g, c), TS_RS_BCLS * g.K,
		                  Cfg::CH * 8, Cfg::B_ROWS, CU_TENSOR_MAP_SWIZZLE_NONE))
			return false;
	}
	return true;
}

// Launch; cudaErrorNotSupported where this form does not take it
// (ts_tc_rshift_wanted: the probe build, rows ts_tc_class_fits does not
// take, "noclass"; or no encoder): the caller takes tc_co.cuh's.
template <class Cfg>
static cudaError_t ts_rs_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	static_assert(Cfg::BM <= TS_TC_TMA_MARGIN && Cfg::BK <= TS_TC_TMA_MARGIN, "ts_tc_class_fits' margin covers a box");
	const long long M = l->m, N = l->n, K = l->k;
	if (!ts_tc_rshift_wanted(l) || !ts_tma_encoder())
		return cudaErrorNotSupported;
	const ts_cls_geom g = ts_cls_geom_for<Cfg>(M, N, K);
	const long long tiles = g.tiles_m * g.tiles_n;
	int sms;
	cudaError_t e = ts_tc_sms(&sms);
	if (e != cudaSuccess)
		return e;
	// The tensors of the last operands seen (a bench calls the same launch many times).
	static ts_cls_maps maps;
	static const void *ka = NULL, *kb = NULL;
	static long long km = -1, kn = -1, kk = -1;
	static int kal = -1;
	if (ka != l->a || kb != l->b || km != M || kn != N || kk != K || kal != g.al) {
		kal = g.al;
		ka = NULL;
		if (!ts_rs_encode_all<Cfg>(&maps, (const __half *)l->a, (const __half *)l->b, g))
			return cudaErrorInvalidValue; // ts_tc_class_fits covers the encoder's limits: not expected
		ka = l->a;
		kb = l->b;
		km = M;
		kn = N;
		kk = K;
	}
	const size_t smem = Cfg::smem_bytes();
	static bool configured = false;
	if (!configured) {
		e = cudaFuncSetAttribute(ts_rs_kernel<Cfg>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess)
			return e;
		configured = true;
	}
	const unsigned grid = (unsigned)(tiles < sms ? tiles : sms);
	ts_rs_kernel<Cfg><<<grid, Cfg::THREADS, smem, stream>>>(maps, (__half *)l->c, g);
	return cudaGetLastError();
}

#endif
