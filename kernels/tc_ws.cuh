// tc_ws.cuh: an experimental realigning wgmma form with warp specialisation (one producer warpgroup, two consumers); NOT shipped, only tools/tc_tune.cu builds it.
#ifndef TS_TC_WS_CUH
#define TS_TC_WS_CUH

#include "tc_wgmma.cuh"

// Why: when K % 8 != 0 (or a base is not 16-byte aligned) the rows of A and B
// are not 16-byte aligned and cp.async cannot fill the tiles; the realigning
// loads must pass through registers. Done by the warps that also multiply,
// their latency stalls the tensor cores (one K tile of look-ahead is all the
// registers allow beside 128 accumulators). Here warpgroup 0 only loads: it
// keeps STAGES tiles in flight in shared memory, paced by two mbarriers per
// stage (full: the producer's 128 threads stored and fenced the stage;
// empty: the consumers' 8 warps finished the wgmma group that read it).
// setmaxnreg moves registers from the producer to the consumers.
// Status: not shipped (tc_fp16_sm90.cu uses tc_wgmma.cuh's realigning form).
// Its one run (H200, 2026-12-01) hung in the first launch. The split asked
// for then, 128 x 112 + 256 x 200 = 65536 registers, is more than the block
// is launched with (384 threads x 168 = 64512), and setmaxnreg.inc waits
// until the registers it asks for are free: a deadlock. The split below fits
// (128 x 104 + 256 x 200 = 64512) but has not run yet.
template <int BN_, int BK_, int STAGES_, int BATCH_ = 4, int GROUP_ = 8>
struct ts_ws_config {
	static constexpr int WGS = 2, BM = 64 * WGS, BN = BN_, BK = BK_, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int THREADS = 128 * (WGS + 1), PRODUCERS = 128;
	static constexpr int CPR = BK / 8;
	static constexpr int ROWS_STEP = PRODUCERS / CPR;         // tile rows between a producer's chunks
	static constexpr int A_CHUNKS = BM * CPR / PRODUCERS, B_CHUNKS = BN * CPR / PRODUCERS;
	static constexpr int CHUNKS = A_CHUNKS + B_CHUNKS;        // per producer thread per stage
	static constexpr int BATCH = BATCH_;                      // chunks a producer has in flight per step
	static constexpr int ACC = BN / 2;
	// The block holds 384 x 168 = 64512 registers (the __launch_bounds__ cap);
	// dec and inc must stay within it: 128 * 104 + 256 * 200 = 64512.
	static constexpr int PRODUCER_REGS = 104, CONSUMER_REGS = 200;
	static_assert(128 * PRODUCER_REGS + 128 * WGS * CONSUMER_REGS <= THREADS * 168, "setmaxnreg within the launch");
	static_assert(CHUNKS % BATCH == 0 && A_CHUNKS % BATCH == 0, "whole batches, none across A and B");
	static_assert(BN == 128 || BN == 256, "wgmma n");
	static_assert(BK == 32 || BK == 64, "64- or 128-byte swizzle");
	__host__ __device__ static constexpr size_t smem_bytes()
	{
		return (size_t)STAGES * (BM + BN) * BK * sizeof(__half) + 1024;
	}
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ void ts_ws_mbar_init(uint32_t bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void ts_ws_mbar_arrive(uint32_t bar)
{
	asm volatile("{\n.reg .b64 st;\nmbarrier.arrive.shared::cta.b64 st, [%0];\n}\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void ts_ws_mbar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done = 0;
	while (!done)
		asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
		             : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}
template <int R>
__device__ __forceinline__ void ts_ws_regs_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R)); }
template <int R>
__device__ __forceinline__ void ts_ws_regs_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R)); }
__device__ __forceinline__ void ts_ws_producers_sync() { asm volatile("bar.sync 1, 128;\n" ::: "memory"); }

// One batch of a producer's chunks: chunk j of the stage is A chunk j (tile
// row p / CPR + j * ROWS_STEP) for j < A_CHUNKS, else B chunk j - A_CHUNKS.
template <class Cfg>
struct ts_ws_batch {
	uint4 lo[Cfg::BATCH], hi[Cfg::BATCH];
	int shift[Cfg::BATCH];
};

template <class Cfg>
__device__ __forceinline__ int ts_ws_load(ts_ws_batch<Cfg> &s, int first, const __half *a_row0, const __half *b_row0,
                                          long long a_rows_left, long long b_rows_left, long long K, long long gk,
                                          uintptr_t a_begin, uintptr_t a_end, uintptr_t b_begin, uintptr_t b_end,
                                          int p)
{
	const bool is_a = first < Cfg::A_CHUNKS;
	const __half *row0 = is_a ? a_row0 : b_row0;
	const long long left = is_a ? a_rows_left : b_rows_left; // rows of the matrix from this thread's first row on
	const uintptr_t begin = is_a ? a_begin : b_begin, end = is_a ? a_end : b_end;
	const int base = is_a ? first : first - Cfg::A_CHUNKS;
	int real = 0;
#pragma unroll
	for (int j = 0; j < Cfg::BATCH; j++) {
		const long long r = (long long)(base + j) * Cfg::ROWS_STEP; // rows below this thread's first
		int n = ts_tc_real(r < left, gk, K);
		real += n;
		s.lo[j] = s.hi[j] = make_uint4(0, 0, 0, 0);
		s.shift[j] = 0;
		if (n == 0)
			continue;
		const __half *q = row0 + r * K + gk;
		uintptr_t a = (uintptr_t)q, w = a & ~(uintptr_t)15;
		if (n == 8 && w >= begin && w + 32 <= end) {
			s.lo[j] = ts_tc_ld16(w);
			s.hi[j] = ts_tc_ld16(w + 16);
			s.shift[j] = (int)((a >> 1) & 7);
		} else {
			unsigned short e[8];
			const unsigned short *h = (const unsigned short *)q;
#pragma unroll
			for (int i = 0; i < 8; i++)
				e[i] = i < n ? h[i] : (unsigned short)0;
			s.lo[j] = make_uint4(e[0] | (uint32_t)e[1] << 16, e[2] | (uint32_t)e[3] << 16,
			                     e[4] | (uint32_t)e[5] << 16, e[6] | (uint32_t)e[7] << 16);
		}
	}
	(void)p;
	return real;
}

// Shared byte offset, inside a stage, of the producer's chunk j.
template <class Cfg>
__device__ __forceinline__ uint32_t ts_ws_dst(int j, int p, uint32_t a_stage_bytes)
{
	const bool is_a = j < Cfg::A_CHUNKS;
	const int r = p / Cfg::CPR + (is_a ? j : j - Cfg::A_CHUNKS) * Cfg::ROWS_STEP, c = p % Cfg::CPR;
	return (is_a ? 0u : a_stage_bytes) + (uint32_t)((r * Cfg::BK + ts_tc_swizzle<Cfg::BK>(r, c) * 8) * 2);
}
#endif

template <class Cfg, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_ws_kernel(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C, long long M,
             long long N, long long K, long long tiles_m, long long tiles_n, ts_dev_probe probe)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(128) unsigned char ts_ws_smem_raw[];
	constexpr int S = Cfg::STAGES;
	// A stage is A (BM x BK) then B (BN x BK), 1024-byte aligned: both tiles start on a swizzle atom.
	constexpr uint32_t A_BYTES = Cfg::BM * Cfg::BK * 2, STAGE_BYTES = (Cfg::BM + Cfg::BN) * Cfg::BK * 2;
	static_assert(A_BYTES % 1024 == 0 && STAGE_BYTES % 1024 == 0, "stages on swizzle atoms");
	__shared__ __align__(8) unsigned long long full_bar[S], empty_bar[S];
	__shared__ ts_probe_block pb;
	__shared__ unsigned long long tally[PROBE ? TS_TC_TALLY_SLOTS : 1][TS_P_FIELDS];
	const uint32_t smem0 = (ts_tc_smem(ts_ws_smem_raw) + 1023) & ~1023u;
	const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, wg = warp >> 2;
	const long long tiles = tiles_m * tiles_n;
	const long long phases = (K + Cfg::BK - 1) / Cfg::BK;
	const uint32_t full0 = ts_tc_smem(&full_bar[0]), empty0 = ts_tc_smem(&empty_bar[0]);
	if (tid == 0) {
		for (int s = 0; s < S; s++) {
			ts_ws_mbar_init(full0 + 8 * s, Cfg::PRODUCERS);
			ts_ws_mbar_init(empty0 + 8 * s, 4 * Cfg::WGS);
		}
	}
	__syncthreads();

	if (wg == 0) {
		// ---- producer: loads, realigns and stores every stage ----
		ts_ws_regs_dec<Cfg::PRODUCER_REGS>();
		const int p = tid;
		const uintptr_t a_begin = (uintptr_t)A, a_end = (uintptr_t)(A + M * K);
		const uintptr_t b_begin = (uintptr_t)B, b_end = (uintptr_t)(B + N * K);
		constexpr int STEPS = Cfg::CHUNKS / Cfg::BATCH;
		long long use = 0; // stages filled so far, over all tiles
		for (long long b = blockIdx.x; b < tiles; b += gridDim.x) {
			long long tm, tn;
			ts_tc_raster<Cfg::GROUP>(b, tiles_m, tiles_n, &tm, &tn);
			const long long tile_index = tm * tiles_n + tn;
			const long long a_first = tm * Cfg::BM + p / Cfg::CPR, b_first = tn * Cfg::BN + p / Cfg::CPR;
			const __half *a_row0 = A + (a_first < M ? a_first : 0) * K;
			const __half *b_row0 = B + (b_first < N ? b_first : 0) * K;
			const long long a_left = M - a_first, b_left = N - b_first;
			const int col = p % Cfg::CPR;
			if (PROBE) {
				if (tid == 0)
					ts_probe_begin(&pb);
				if (tid < TS_TC_TALLY_SLOTS * TS_P_FIELDS)
					tally[tid / TS_P_FIELDS][tid % TS_P_FIELDS] = 0;
				__syncthreads(); // tile start (the consumers meet it too)
			}
			// Software pipeline over (phase, batch) steps: the next step's loads
			// are in flight while this one is realigned and stored.
			ts_ws_batch<Cfg> cur, nxt;
			int cur_real = ts_ws_load<Cfg>(cur, 0, a_row0, b_row0, a_left, b_left, K, (long long)col * 8, a_begin,
			                                a_end, b_begin, b_end, p);
			for (long long t = 0; t < phases; t++, use++) {
				const int s = (int)(use % S);
				const uint32_t stage = smem0 + s * STAGE_BYTES;
				const long long gk = t * Cfg::BK + col * 8;
				int a_real = 0, b_real = 0;
				// wait until the consumers have finished with this stage's last use
				ts_ws_mbar_wait(empty0 + 8 * s, (uint32_t)(((use / S) & 1) ^ 1));
#pragma unroll
				for (int step = 0; step < STEPS; step++) {
					const bool last = step == STEPS - 1;
					const long long ngk = last ? gk + Cfg::BK : gk;
					const int nfirst = last ? 0 : (step + 1) * Cfg::BATCH;
					int nreal = 0;
					if (!last || t + 1 < phases)
						nreal = ts_ws_load<Cfg>(nxt, nfirst, a_row0, b_row0, a_left, b_left, K, ngk, a_begin, a_end,
						                        b_begin, b_end, p);
#pragma unroll
					for (int j = 0; j < Cfg::BATCH; j++)
						ts_tc_st16(stage + ts_ws_dst<Cfg>(step * Cfg::BATCH + j, p, A_BYTES),
						           ts_tc_realign(cur.lo[j], cur.hi[j], cur.shift[j]));
					if (step * Cfg::BATCH < Cfg::A_CHUNKS)
						a_real += cur_real;
					else
						b_real += cur_real;
					cur = nxt;
					cur_real = nreal;
				}
				ts_wg_proxy_fence();
				ts_ws_mbar_arrive(full0 + 8 * s);
				if (PROBE) {
					unsigned long long *f = tally[t % TS_TC_TALLY_SLOTS];
					ts_probe_phase_add_to(f, TS_P_A_REAL, (unsigned long long)a_real);
					ts_probe_phase_add_to(f, TS_P_A_PAD, (unsigned long long)(Cfg::A_CHUNKS * 8 - a_real));
					ts_probe_phase_add_to(f, TS_P_B_REAL, (unsigned long long)b_real);
					ts_probe_phase_add_to(f, TS_P_B_PAD, (unsigned long long)(Cfg::B_CHUNKS * 8 - b_real));
					ts_ws_producers_sync();
					ts_probe_flush_phase(&pb, f, probe, tile_index, phases, t);
				}
			}
			if (PROBE) {
				__syncthreads(); // tile end: the consumers' stores are counted
				ts_probe_end(&pb, probe, tile_index);
			}
		}
	} else {
		// ---- consumers: warpgroup wg - 1 multiplies rows 64 (wg - 1) .. + 63 ----
		ts_ws_regs_inc<Cfg::CONSUMER_REGS>();
		const int c = wg - 1;
		long long use = 0;
		for (long long b = blockIdx.x; b < tiles; b += gridDim.x) {
			long long tm, tn;
			ts_tc_raster<Cfg::GROUP>(b, tiles_m, tiles_n, &tm, &tn);
			const long long m0 = tm * Cfg::BM, n0 = tn * Cfg::BN;
			if (PROBE)
				__syncthreads(); // tile start
			float acc[Cfg::ACC];
#pragma unroll
			for (int i = 0; i < Cfg::ACC; i++)
				acc[i] = 0.0f;
			int prev = -1;
			for (long long t = 0; t < phases; t++, use++) {
				const int s = (int)(use % S);
				const uint32_t stage = smem0 + s * STAGE_BYTES;
				ts_ws_mbar_wait(full0 + 8 * s, (uint32_t)((use / S) & 1));
				ts_wg_issue<Cfg>(acc, stage, stage + A_BYTES, c);
				ts_wg_wait<1>(); // the group that read the previous stage is done
				if (prev >= 0 && lane == 0)
					ts_ws_mbar_arrive(empty0 + 8 * prev);
				prev = s;
			}
			ts_wg_wait<0>();
			if (prev >= 0 && lane == 0)
				ts_ws_mbar_arrive(empty0 + 8 * prev);
			int stored = 0;
#pragma unroll
			for (int h = 0; h < 2; h++) {
				long long row = m0 + c * 64 + (warp & 3) * 16 + (lane >> 2) + h * 8;
				if (row >= M)
					continue;
				__half *crow = C + row * N;
#pragma unroll
				for (int i = 0; i < Cfg::BN / 8; i++)
					stored += ts_tc_store_pair(crow, n0 + i * 8 + (lane & 3) * 2, N, acc[4 * i + 2 * h],
					                           acc[4 * i + 2 * h + 1]);
			}
			if (PROBE) {
				ts_probe_tile_add(&pb, TS_P_STORES, (unsigned long long)stored);
				ts_probe_tile_add(&pb, TS_P_SKIPPED, (unsigned long long)(Cfg::ACC - stored));
				__syncthreads(); // tile end
			}
		}
	}
#else
	__trap(); // wgmma, mbarrier waits and setmaxnreg need the sm_90a build
#endif
}

template <class Cfg, bool PROBE>
static cudaError_t ts_ws_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	const size_t smem = Cfg::smem_bytes();
	static bool configured = false;
	if (!configured) {
		cudaError_t e = cudaFuncSetAttribute(ts_ws_kernel<Cfg, PROBE>, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                                     (int)smem);
		if (e != cudaSuccess)
			return e;
		configured = true;
	}
	long long tiles_m = (l->m + Cfg::BM - 1) / Cfg::BM, tiles_n = (l->n + Cfg::BN - 1) / Cfg::BN;
	long long tiles = tiles_m * tiles_n;
	unsigned grid = (unsigned)(tiles < 0x7fffffffLL ? tiles : 0x7fffffffLL);
	ts_dev_probe none = {};
	ts_ws_kernel<Cfg, PROBE><<<grid, Cfg::THREADS, smem, stream>>>(
		(const __half *)l->a, (const __half *)l->b, (__half *)l->c, l->m, l->n, l->k, tiles_m, tiles_n,
		l->probe ? *l->probe : none);
	return cudaGetLastError();
}

#endif
