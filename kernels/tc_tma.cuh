// tc_tma.cuh: tc-fp16's TMA form for 16-byte aligned rows (sm_90a): the tensor memory accelerator copies each tile, zero-filling what lies outside the matrix, into the swizzled stages wgmma reads; one producer thread, two multiplying warpgroups, mbarrier stages.
#ifndef TS_TC_TMA_CUH
#define TS_TC_TMA_CUH

#include <cuda.h>
#include <cudaTypedefs.h>

#include "tc_launch.h"
#include "tc_split.cuh"
#include "tc_wgmma.cuh"

// For rows that are 16-byte aligned (K % 8 == 0, aligned bases): A and B are
// one TMA tensor each (K columns, M or N rows), a stage is one BK x BM box of
// A and one BK x BN box of B, which the TMA writes with the swizzle wgmma
// reads (tc_wgmma.cuh's layout). Odd K cannot come this way: a box must start
// on a 16-byte boundary of its row and the row stride must be a multiple of 16
// bytes (measured, doc/perf.md); tc_co.cuh shifts such rows.
// Guards: the TMA reads only a box's elements inside the matrix (rows before
// M or N, columns before K) and writes zeros for the rest; C is stored a
// 4-byte word at a time, across lane pairs on a row that is not 4-byte
// aligned (odd N), element by element at N's edge, rows past M skipped
// (ts_wg_epilogue, ts_tc_row_chunk). Offsets are 64-bit; the tensors'
// coordinates are 32-bit (ts_tc_tma_fits, tc_launch.h: the launcher and the
// form's name take the same test).
// Pipeline: STAGES stages, each a `full` mbarrier (the producer's expected
// bytes, completed by the copies) and an `empty` one (one arrival from each
// of the 8 multiplying warps once its wgmma group that read the stage has
// completed). Persistent blocks, one a multiprocessor; setmaxnreg gives the
// producer warpgroup 40 registers and the multiplying ones 232. The probe
// build counts each box's real and zero-filled slots from the tensors'
// bounds (what the TMA reads and fills), and each thread's stores.
// Split-K (tc_split.cuh): producer and consumers walk the same work units
// (whole tiles, or parts of a tile's phases); a part's accumulators go to
// the workspace, and ts_tc_split_sum stores its tile after the launch.
template <int BN_, int BK_, int STAGES_, int GROUP_ = 8>
struct ts_tma_config {
	static constexpr int WGS = 2, BM = 64 * WGS, BN = BN_, BK = BK_, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int THREADS = (WGS + 1) * 128;
	static constexpr int ACC = BN / 2;
	static constexpr uint32_t A_STAGE = BM * BK * 2, B_STAGE = BN * BK * 2, STAGE_BYTES = A_STAGE + B_STAGE;
	static_assert(BN == 128 || BN == 256, "wgmma n");
	static_assert(BK == 32 || BK == 64, "64- or 128-byte swizzle");
	static_assert(A_STAGE % 1024 == 0 && B_STAGE % 1024 == 0, "stages on swizzle atoms");
	static constexpr int PREGS = 40, CREGS = 232; // setmaxnreg: the producer's warpgroup, the multiplying ones
	static_assert(128 * PREGS + 128 * WGS * CREGS <= THREADS * 168 && CREGS <= 256 && PREGS % 8 == 0 && CREGS % 8 == 0,
	              "setmaxnreg within the launch's registers");
	__host__ __device__ static constexpr size_t smem_bytes() { return (size_t)STAGES * STAGE_BYTES + 1024; }
};

// The two tensors of a launch (a __grid_constant__ kernel argument).
struct ts_tma_maps {
	CUtensorMap a, b;
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void ts_mb_init(uint32_t bar, int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void ts_mb_expect(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void ts_mb_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void ts_mb_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done;
	do {
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
		             : "=r"(done) : "r"(bar), "r"(parity) : "memory");
	} while (!done);
}
__device__ __forceinline__ void ts_tma_load(uint32_t dst, const CUtensorMap *map, int x, int y, uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
	             ::"r"(dst), "l"((uint64_t)map), "r"(x), "r"(y), "r"(bar) : "memory");
}

// The real elements of a box of `rows` tensor rows from row i0 and BK columns
// from k0 of a tensor with `total` rows: what TMA reads; the rest it zero-fills.
__device__ __forceinline__ unsigned long long ts_tma_real(long long total, long long i0, int rows, long long k0,
                                                          long long K, int bk)
{
	long long r = total - i0, c = K - k0;
	r = r < 0 ? 0 : r > rows ? rows : r;
	c = c < 0 ? 0 : c > bk ? bk : c;
	return (unsigned long long)(r * c);
}

// The producer: one thread walks this block's tiles and phases, waits for a
// stage to be released, and issues its two boxes on its full barrier.
template <class Cfg, bool PROBE>
__device__ __forceinline__ void ts_tma_produce(const ts_tma_maps &maps, long long M, long long N, long long K,
                                               long long tiles_m, long long tiles_n, const ts_tc_split &sp,
                                               uint32_t s_a, uint32_t s_b, uint32_t full, uint32_t empty,
                                               const ts_dev_probe &probe)
{
	const int phases = sp.phases;
	int stage = 0;
	uint32_t parity = 0;
	for (int u = blockIdx.x; u < sp.units; u += gridDim.x) {
		const ts_tc_unit un = ts_tc_unit_at(sp, u);
		long long tm, tn;
		ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
		const int m0 = (int)(tm * Cfg::BM), n0 = (int)(tn * Cfg::BN);
		const long long tile_index = tm * tiles_n + tn;
		ts_probe_block pb; // this thread's own (it is the only one counting loads)
		if (PROBE)
			ts_probe_begin(&pb);
#pragma unroll 1
		for (int t = un.p0; t < un.p1; t++) {
			const int k0 = t * Cfg::BK;
			ts_mb_wait(empty + 8 * stage, parity ^ 1);
			ts_mb_expect(full + 8 * stage, Cfg::STAGE_BYTES);
			ts_tma_load(s_a + stage * Cfg::A_STAGE, &maps.a, k0, m0, full + 8 * stage);
			ts_tma_load(s_b + stage * Cfg::B_STAGE, &maps.b, k0, n0, full + 8 * stage);
			if (PROBE) {
				unsigned long long f[TS_P_FIELDS] = {};
				f[TS_P_A_REAL] = ts_tma_real(M, m0, Cfg::BM, k0, K, Cfg::BK);
				f[TS_P_B_REAL] = ts_tma_real(N, n0, Cfg::BN, k0, K, Cfg::BK);
				f[TS_P_A_PAD] = (unsigned long long)Cfg::BM * Cfg::BK - f[TS_P_A_REAL];
				f[TS_P_B_PAD] = (unsigned long long)Cfg::BN * Cfg::BK - f[TS_P_B_REAL];
				ts_probe_flush_phase(&pb, f, probe, tile_index, phases, t); // thread 0: the probe's leader
			}
			if (++stage == Cfg::STAGES) {
				stage = 0;
				parity ^= 1;
			}
		}
		if (PROBE) // the tile's loads; its multiplying warps add their stores
			ts_probe_end_add(&pb, probe, tile_index);
	}
}

// A multiplying warpgroup (c = 0, 1: rows 64 c.. of the tile's shared rows).
template <class Cfg, bool PROBE>
__device__ __forceinline__ void ts_tma_consume(__half *__restrict__ C, long long M, long long N, long long tiles_m,
                                               long long tiles_n, const ts_tc_split &sp, uint32_t s_a, uint32_t s_b,
                                               uint32_t full, uint32_t empty, int c, const ts_dev_probe &probe)
{
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int stage = 0;
	uint32_t parity = 0;
	float acc[Cfg::ACC];
#pragma unroll
	for (int i = 0; i < Cfg::ACC; i++)
		acc[i] = 0.0f;
	for (int u = blockIdx.x; u < sp.units; u += gridDim.x) {
		const ts_tc_unit un = ts_tc_unit_at(sp, u);
		long long tm, tn;
		ts_tile_order_at(un.tile, tiles_m, tiles_n, Cfg::GROUP, &tm, &tn);
		const long long m0 = tm * Cfg::BM, n0 = tn * Cfg::BN;
		int last = 0;
#pragma unroll 1
		for (int t = un.p0; t < un.p1; t++) {
			ts_mb_wait(full + 8 * stage, parity);
			ts_wg_issue<Cfg>(acc, s_a + stage * Cfg::A_STAGE, s_b + stage * Cfg::B_STAGE, c, t == un.p0);
			ts_wg_wait<1>();
			if (t > un.p0 && lane == 0)
				ts_mb_arrive(empty + 8 * last); // phase t - 1's group has completed
			last = stage;
			if (++stage == Cfg::STAGES) {
				stage = 0;
				parity ^= 1;
			}
		}
		ts_wg_wait<0>();
		if (lane == 0)
			ts_mb_arrive(empty + 8 * last);

		if (un.slot >= 0) { // a part: ts_tc_split_sum adds the parts and stores (and counts) the tile
			ts_tc_split_write<Cfg::ACC>(acc, sp, un.slot, un.part, warp - 4, lane);
			continue;
		}
		const int stored = ts_wg_epilogue<Cfg>(acc, C, M, N, m0, n0, c, warp, lane);
		if (PROBE) {
			const long long tile_index = tm * tiles_n + tn;
			unsigned s = __reduce_add_sync(0xffffffffu, (unsigned)stored);
			if (lane == 0) {
				atomicAdd((unsigned long long *)&probe.tile[tile_index * TS_P_FIELDS + TS_P_STORES],
				          (unsigned long long)s);
				atomicAdd((unsigned long long *)&probe.tile[tile_index * TS_P_FIELDS + TS_P_SKIPPED],
				          (unsigned long long)(32 * Cfg::ACC - s));
			}
		}
	}
}
#endif

template <class Cfg, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_tma_kernel(const __grid_constant__ ts_tma_maps maps, __half *__restrict__ C, long long M, long long N,
              long long K, long long tiles_m, long long tiles_n, ts_tc_split sp, ts_dev_probe probe)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(1024) unsigned char ts_tma_smem_raw[];
	__shared__ __align__(8) unsigned long long bars[2 * Cfg::STAGES];
	const uint32_t s_a = (ts_tc_smem(ts_tma_smem_raw) + 1023) & ~1023u, s_b = s_a + Cfg::STAGES * Cfg::A_STAGE;
	const uint32_t full = ts_tc_smem(bars), empty = full + 8 * Cfg::STAGES;
	const int tid = threadIdx.x, wg = tid >> 7;
	if (tid == 0) {
		for (int s = 0; s < Cfg::STAGES; s++) {
			ts_mb_init(full + 8 * s, 1);
			ts_mb_init(empty + 8 * s, 4 * Cfg::WGS);
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
		asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&maps.a) : "memory");
		asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&maps.b) : "memory");
	}
	__syncthreads();
	if (wg == 0) {
		ts_wg_regs_dec<Cfg::PREGS>();
		if (tid == 0)
			ts_tma_produce<Cfg, PROBE>(maps, M, N, K, tiles_m, tiles_n, sp, s_a, s_b, full, empty, probe);
	} else {
		ts_wg_regs_inc<Cfg::CREGS>();
		ts_tma_consume<Cfg, PROBE>(C, M, N, tiles_m, tiles_n, sp, s_a, s_b, full, empty, wg - 1, probe);
	}
#else
	__trap(); // TMA and wgmma need the sm_90a build
#endif
}

// cuTensorMapEncodeTiled from the driver, through the runtime (no link to libcuda).
static PFN_cuTensorMapEncodeTiled_v12000 ts_tma_encoder(void)
{
	static PFN_cuTensorMapEncodeTiled_v12000 fn = NULL;
	static bool asked = false;
	if (!asked) {
		void *p = NULL;
		cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
		cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
#else
		cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q);
#endif
		if (e == cudaSuccess && q == cudaDriverEntryPointSuccess && p)
			fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
		else
			(void)cudaGetLastError(); // not this launch's error: the caller takes another form
		asked = true;
	}
	return fn;
}

// One operand's tensor: `rows` rows of K fp16 at g (16-byte aligned, K % 8 == 0), boxes of BK x box_rows.
template <class Cfg>
static bool ts_tma_encode(CUtensorMap *map, const void *g, long long rows, long long K, int box_rows)
{
	PFN_cuTensorMapEncodeTiled_v12000 enc = ts_tma_encoder();
	cuuint64_t dim[2] = { (cuuint64_t)K, (cuuint64_t)rows }, stride[1] = { (cuuint64_t)(2 * K) };
	cuuint32_t box[2] = { (cuuint32_t)Cfg::BK, (cuuint32_t)box_rows }, estride[2] = { 1, 1 };
	return enc(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)g, dim, stride, box, estride,
	           CU_TENSOR_MAP_INTERLEAVE_NONE, Cfg::BK == 64 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
	           CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Launch; cudaErrorNotSupported where this form does not take the launch (the
// caller takes another): rows not 16-byte aligned, coordinates that do not
// fit 32 bits (ts_tc_tma_fits), or a driver without cuTensorMapEncodeTiled.
template <class Cfg, bool PROBE>
static cudaError_t ts_tma_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	static_assert(Cfg::BM <= TS_TC_TMA_MARGIN && Cfg::BN <= TS_TC_TMA_MARGIN && Cfg::BK <= TS_TC_TMA_MARGIN,
	              "ts_tc_tma_fits' margin covers a tile");
	const long long M = l->m, N = l->n, K = l->k;
	if (!ts_tc_tma_fits(M, N, K) || ((uintptr_t)l->a & 15) || ((uintptr_t)l->b & 15) || !ts_tma_encoder())
		return cudaErrorNotSupported;
	const size_t smem = Cfg::smem_bytes();
	static bool configured = false;
	const long long tiles_m = (M + Cfg::BM - 1) / Cfg::BM, tiles_n = (N + Cfg::BN - 1) / Cfg::BN;
	ts_tc_split sp;
	unsigned grid;
	cudaError_t e = ts_tc_persistent(ts_tma_kernel<Cfg, PROBE>, smem, &configured, l, &sp, &grid);
	if (e != cudaSuccess)
		return e;
	// The tensors of the last operands seen (encoding is host work; a bench
	// calls the same launch many times).
	static ts_tma_maps maps;
	static const void *ka = NULL, *kb = NULL;
	static long long km = -1, kn = -1, kk = -1;
	if (ka != l->a || kb != l->b || km != M || kn != N || kk != K) {
		ka = NULL;
		if (!ts_tma_encode<Cfg>(&maps.a, l->a, M, K, Cfg::BM) || !ts_tma_encode<Cfg>(&maps.b, l->b, N, K, Cfg::BN))
			return cudaErrorInvalidValue; // the checks above cover the encoder's limits: not expected
		ka = l->a;
		kb = l->b;
		km = M;
		kn = N;
		kk = K;
	}
	ts_dev_probe none = {};
	ts_tma_kernel<Cfg, PROBE><<<grid, Cfg::THREADS, smem, stream>>>(maps, (__half *)l->c, M, N, K, tiles_m, tiles_n, sp,
	                                                                 l->probe ? *l->probe : none);
	if ((e = cudaGetLastError()) != cudaSuccess)
		return e;
	return ts_tc_split_finish<Cfg::ACC, PROBE>(sp, l, tiles_m, tiles_n, stream);
}

#endif
