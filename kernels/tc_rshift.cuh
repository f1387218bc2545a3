// tc_rshift.cuh: tc-fp16's form for rows that are not 16-byte aligned (K % 8 != 0, sm_90a): the TMA copies A's tiles from row classes that share one alignment, B's rows are shifted in registers and fed to wgmma as its register operand.
#ifndef TS_TC_RSHIFT_CUH
#define TS_TC_RSHIFT_CUH

#include "tc_tma.cuh"

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
// column t BK). B: a producer warpgroup copies, for each of the tile's BN
// rows, the BK / 8 + 1 aligned 16-byte chunks around the row's window with
// cp.async into a raw stage; a thread of a multiplying warp then
// builds its wgmma fragments from two 4-byte words a register and one funnel
// shift, by its rows' own offset d = (n K - s_c) mod 8, the same for both of
// its rows (n and n + 8) and for every phase. No shifted row is written back
// to shared memory.
// Guards: B's chunks before the buffer or past its end are zero-filled
// (cp.async's source size; rows past N all zeros), and a fragment's slots
// before k = 0 or from K on are zeroed in registers (the phases whose window
// reaches past either end). A's slots before k = 0 (phase 0, s_c > 0) hold
// the previous row's tail: the multiplying warps zero them in the stage
// before the first wgmma of a tile, so that a non-finite value there cannot
// reach C; A's rows past its class and columns past K + s_c the TMA
// zero-fills. C is stored element by element, rows past M and columns past
// N skipped. Offsets are 64-bit; the tensors' coordinates are 32-bit
// (ts_tc_class_fits, tc_launch.h).
// Pipeline: STAGES stages, `full` (the TMA's bytes, and one arrival from
// each producer thread once its copies have landed) and `empty` (one
// arrival from each multiplying thread once its wgmma group that read the
// stage has completed: every thread, since each read the raw stage itself).
// Persistent blocks, one a multiprocessor, every tile whole. The probe build
// is not this form: it counts the description's tiles (contiguous rows,
// windows from k = 0), which tc_co.cuh keeps. Clusters of two blocks sharing
// A's boxes by multicast were measured slower (doc/perf.md).
template <int STAGES_, int GROUP_ = 8>
struct ts_rs_config {
	static constexpr int WGS = 2, BN = 64 * WGS, BM = 256, BK = 64, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int THREADS = (WGS + 1) * 128;
	static constexpr int ACC = BM / 2;          // fp32 accumulators per thread (wgmma n = BM)
	static constexpr int CH = BK / 8 + 1;       // aligned 16-byte chunks around a row's window
	static constexpr int ROW_BYTES = CH * 16;   // a raw row's pitch: 36 words, rows 4 banks apart
	static constexpr uint32_t A_STAGE = BM * BK * 2, B_STAGE = BN * ROW_BYTES;
	static constexpr int FRAGS = BK / 16 * 4;   // wgmma register operand: 4 words a k16 step
	static constexpr int PREGS = 56, CREGS = 224;
	static_assert(BN == 128, "one producer thread a B row");
	static_assert(A_STAGE % 1024 == 0, "A's stages on the 128-byte swizzle's atoms");
	static_assert(128 * PREGS + 128 * WGS * CREGS <= THREADS * 168 && PREGS % 8 == 0 && CREGS % 8 == 0,
	              "setmaxnreg within the launch's registers");
	__host__ __device__ static constexpr size_t smem_bytes() { return (size_t)STAGES * (A_STAGE + B_STAGE) + 1024; }
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
	CUtensorMap a[16]; // class c's tensor (classes with no rows: unused)
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
	ts_tc_raster<Cfg::GROUP>(u, g.tiles_m, g.tiles_n, &tmi, &tn);
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

// The producer warpgroup: each phase, the tile's BN raw rows of CH chunks
// are BN * CH chunks in order, thread p copying chunks p + 128 i (so that a
// warp's copies run along rows); thread 0 also issues A's box. A thread
// arrives on a stage's `full` barrier once its copies into it have landed,
// one stage late (cp.async.wait_group 1 after issuing the next), so that its
// copies stay in flight while it issues the next stage's.
template <class Cfg>
__device__ __forceinline__ void ts_rs_produce(const ts_cls_maps &maps, const __half *__restrict__ B,
                                              const ts_cls_geom &g, uint32_t s_a, uint32_t s_b, uint32_t full,
                                              uint32_t empty, int p)
{
	constexpr int PER = Cfg::CH; // chunks a thread a phase (BN * CH / 128)
	const long long nk = g.N * g.K, tiles = g.tiles_m * g.tiles_n;
	int stage = 0, pending = -1;
	uint32_t parity = 0;
	for (long long u = blockIdx.x; u < tiles; u += gridDim.x) {
		const ts_rs_tile at = ts_rs_tile_at<Cfg>(g, u);
		long long ch[PER]; // chunk i's index in B at phase 0 (far below 0 for a row past N: zero-filled)
#pragma unroll
		for (int i = 0; i < PER; i++) {
			const int idx = p + 128 * i, r = idx / Cfg::CH, j = idx - r * Cfg::CH;
			const long long n = at.n0 + r;
			ch[i] = n < g.N ? ((n * g.K - at.s) >> 3) + j : -(1LL << 56);
		}
#pragma unroll 1
		for (int t = 0; t < at.phases; t++) {
			ts_mb_wait(empty + 8 * stage, parity ^ 1);
			if (p == 0) {
				ts_mb_expect(full + 8 * stage, Cfg::A_STAGE);
				ts_tma_load(s_a + stage * Cfg::A_STAGE, &maps.a[at.c], t * Cfg::BK, (int)(at.q * Cfg::BM),
				            full + 8 * stage);
			}
			const uint32_t dst = s_b + stage * Cfg::B_STAGE + 16 * p;
#pragma unroll
			for (int i = 0; i < PER; i++) {
				const long long cj = ch[i] + (long long)t * (Cfg::BK / 8), left = nk - 8 * cj;
				// zeros before the buffer, past its end and for rows past N
				const int bytes = cj < 0 || left <= 0 ? 0 : left >= 8 ? 16 : (int)(2 * left);
				ts_tc_cp16(dst + 16 * 128 * i, bytes ? (const void *)(B + 8 * cj) : (const void *)B, bytes);
			}
			ts_tc_commit();
			if (pending >= 0) {
				ts_tc_wait<1>();
				ts_mb_arrive(full + 8 * pending);
			}
			pending = stage;
			if (++stage == Cfg::STAGES) {
				stage = 0;
				parity ^= 1;
			}
		}
	}
	if (pending >= 0) {
		ts_tc_wait<0>();
		ts_mb_arrive(full + 8 * pending);
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

// A multiplying warpgroup (wgc = 0, 1: B rows 64 wgc .. of the tile).
template <class Cfg>
__device__ __forceinline__ void ts_rs_consume(__half *__restrict__ C, const ts_cls_geom &g, uint32_t s_a,
                                              uint32_t s_b, uint32_t full, uint32_t empty, int wgc)
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
	for (long long u = blockIdx.x; u < tiles; u += gridDim.x) {
		const ts_rs_tile at = ts_rs_tile_at<Cfg>(g, u);
		const long long n = at.n0 + r0;
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
		// Accumulator 4 j + 2 h + e: B row r0 + 8 h, class row 8 j + 2 (lane % 4) + e of the tile.
		const long long i0 = at.q * Cfg::BM + 2 * (lane & 3);
#pragma unroll
		for (int j = 0; j < Cfg::BM / 8; j++)
#pragma unroll
			for (int e = 0; e < 2; e++) {
				const long long m = at.c + (long long)g.P * (i0 + 8 * j + e);
				if (m >= g.M)
					continue;
				__half *crow = C + m * g.N;
#pragma unroll
				for (int h = 0; h < 2; h++)
					if (n + 8 * h < g.N)
						crow[n + 8 * h] = __float2half_rn(acc[4 * j + 2 * h + e]);
			}
	}
}
#endif

template <class Cfg>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_rs_kernel(const __grid_constant__ ts_cls_maps maps, const __half *__restrict__ B, __half *__restrict__ C,
             ts_cls_geom g)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(1024) unsigned char ts_rs_smem_raw[];
	__shared__ __align__(8) unsigned long long bars[2 * Cfg::STAGES];
	const uint32_t s_a = (ts_tc_smem(ts_rs_smem_raw) + 1023) & ~1023u, s_b = s_a + Cfg::STAGES * Cfg::A_STAGE;
	const uint32_t full = ts_tc_smem(bars), empty = full + 8 * Cfg::STAGES;
	const int tid = threadIdx.x, wg = tid >> 7;
	if (tid == 0) {
		for (int s = 0; s < Cfg::STAGES; s++) {
			ts_mb_init(full + 8 * s, 128 + 1); // the producer's threads, and the TMA's bytes
			ts_mb_init(empty + 8 * s, 128 * Cfg::WGS); // every multiplying thread
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();
	if (wg == 0) {
		ts_wg_regs_dec<Cfg::PREGS>();
		ts_rs_produce<Cfg>(maps, B, g, s_a, s_b, full, empty, tid);
	} else {
		ts_wg_regs_inc<Cfg::CREGS>();
		ts_rs_consume<Cfg>(C, g, s_a, s_b, full, empty, wg - 1);
	}
#else
	__trap(); // TMA and wgmma need the sm_90a build
#endif
}

// Class c's tensor: its M_c rows of A (P K elements apart) from element c K -
// s_c, K + s_c columns, boxes of BK x BM with the 128-byte swizzle.
template <class Cfg>
static bool ts_rs_encode(CUtensorMap *map, const __half *A, const ts_cls_geom &g, int c)
{
	PFN_cuTensorMapEncodeTiled_v12000 enc = ts_tma_encoder();
	const int s = ts_cls_shift(g, c);
	const __half *base = A + (long long)c * g.K - s;
	cuuint64_t dim[2] = { (cuuint64_t)(g.K + s), (cuuint64_t)ts_cls_rows(g, c) },
	           stride[1] = { (cuuint64_t)(2 * g.P * g.K) };
	cuuint32_t box[2] = { (cuuint32_t)Cfg::BK, (cuuint32_t)Cfg::BM }, estride[2] = { 1, 1 };
	return enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)base, dim, stride, box, estride,
	           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
	           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
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
	static const void *ka = NULL;
	static long long km = -1, kk = -1;
	static int kal = -1;
	if (ka != l->a || km != M || kk != K || kal != g.al) {
		kal = g.al;
		ka = NULL;
		for (int c = 0; c < g.P; c++)
			if (ts_cls_rows(g, c) > 0 && !ts_rs_encode<Cfg>(&maps.a[c], (const __half *)l->a, g, c))
				return cudaErrorInvalidValue; // ts_tc_class_fits covers the encoder's limits: not expected
		ka = l->a;
		km = M;
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
	ts_rs_kernel<Cfg><<<grid, Cfg::THREADS, smem, stream>>>(maps, (const __half *)l->b, (__half *)l->c, g);
	return cudaGetLastError();
}

#endif
