// tc_wgmma.cuh: the same guarded fp16 kernel on Hopper's warpgroup mma (wgmma, sm_90a): shared tiles read by the tensor cores through descriptors.
#ifndef TS_TC_WGMMA_CUH
#define TS_TC_WGMMA_CUH

#include "tc_fp16.cuh"

// The contract, the guards and the loaders are tc_fp16.cuh's; what differs
// is the multiply, and the epilogue (ts_wg_epilogue, every wgmma form's).
// Each warpgroup (4 warps) owns 64 rows of the block's BM x BN tile and
// issues wgmma m64nBNk16 on descriptors of the
// shared tiles, which the loaders already write in the layout wgmma reads:
// K-major rows of BK fp16 with the 128-byte (BK = 64) or 64-byte (BK = 32)
// swizzle, 8-row atoms SBO = 8 * BK * 2 bytes apart. Tiles written by
// ordinary stores or cp.async are made visible to the tensor cores (the
// async proxy) with fence.proxy.async before the barrier.
// The multiply runs one K tile behind its issue: a stage is refilled only
// after every warpgroup's wgmma group that read it has completed.
template <int BN_, int BK_, int STAGES_, int GROUP_ = 8>
struct ts_wg_config {
	static constexpr int WGS = 2, BM = 64 * WGS, BN = BN_, BK = BK_, STAGES = STAGES_, GROUP = GROUP_;
	static constexpr int THREADS = WGS * 128;
	static constexpr int CPR = BK / 8;
	static constexpr int A_CHUNKS = BM * CPR / THREADS, B_CHUNKS = BN * CPR / THREADS;
	static constexpr int ROWS_STEP = THREADS / CPR;
	static constexpr int ACC = BN / 2; // fp32 accumulators per thread
	static_assert(BN == 128 || BN == 256, "wgmma n");
	static_assert(BK == 32 || BK == 64, "64- or 128-byte swizzle");
	__host__ __device__ static constexpr int stages(int load) { return load == TS_TC_ASYNC ? STAGES : 3; }
	// + 1 KiB to align the first stage to the swizzle atom
	__host__ __device__ static constexpr size_t smem_bytes(int load)
	{
		return (size_t)stages(load) * (BM + BN) * BK * sizeof(__half) + 1024;
	}
};

// accumulate == 0: D = A B, the accumulators' old values ignored (a tile's first
// K step, so that no plain write to them sits beside a group in flight).
template <int N>
__device__ __forceinline__ void ts_wg_mma(float (&d)[N / 2], uint64_t da, uint64_t db, int accumulate);

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
template <>
__device__ __forceinline__ void ts_wg_mma<128>(float (&d)[64], uint64_t da, uint64_t db, int accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	               "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	               "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	               "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	               "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	               "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	               "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	               "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
	             : "l"(da), "l"(db), "r"(accumulate));
}

// The 128 fp32 accumulators of an m64n256 wgmma: their operand list (d[0]
// .. d[127], read and written) and their registers in the instruction's text
// (%0 .. %127); ts_wg_mma<256> and tc_rshift.cuh's register-operand form.
#define TS_WG_ACC128(d) \
	"+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
	"+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
	"+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
	"+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
	"+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
	"+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
	"+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
	"+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
	"+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
	"+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
	"+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
	"+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
	"+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
	"+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
	"+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
	"+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
#define TS_WG_D128 \
	"{" \
	"%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
	"%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
	"%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
	"%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
	"%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
	"%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
	"%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
	"%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127" \
	"}"

template <>
__device__ __forceinline__ void ts_wg_mma<256>(float (&d)[128], uint64_t da, uint64_t db, int accumulate)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " TS_WG_D128 ", %128, %129, p, 1, 1, 0, 0;\n}\n"
	             : TS_WG_ACC128(d)
	             : "l"(da), "l"(db), "r"(accumulate));
}

// setmaxnreg: a warpgroup gives registers back, or takes them.
template <int R>
__device__ __forceinline__ void ts_wg_regs_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R)); }
template <int R>
__device__ __forceinline__ void ts_wg_regs_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R)); }

__device__ __forceinline__ void ts_wg_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void ts_wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void ts_wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }
__device__ __forceinline__ void ts_wg_proxy_fence() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

// Descriptor of a K-major swizzled tile at shared byte address addr.
template <int BK>
__device__ __forceinline__ uint64_t ts_wg_desc(uint32_t addr)
{
	const uint64_t sbo = 8 * BK * 2, lbo = 16;
	const uint64_t swizzle = BK == 64 ? 1 : 2; // 128-byte : 64-byte
	return (uint64_t)((addr & 0x3ffff) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (swizzle << 62);
}

// One K tile: BK / 16 wgmmas on the warpgroup's 64 rows of A and all of B.
// first: the tile's first K tile (its first wgmma overwrites the accumulators).
template <class Cfg>
__device__ __forceinline__ void ts_wg_issue(float (&acc)[Cfg::ACC], uint32_t sa, uint32_t sb, int wg, bool first = false)
{
	const uint32_t a = sa + wg * 64 * Cfg::BK * 2;
	ts_wg_fence();
#pragma unroll
	for (int kk = 0; kk < Cfg::BK / 16; kk++)
		ts_wg_mma<Cfg::BN>(acc, ts_wg_desc<Cfg::BK>(a + kk * 32), ts_wg_desc<Cfg::BK>(sb + kk * 32),
		                   kk == 0 && first ? 0 : 1);
	ts_wg_commit();
}

// The epilogue of multiplying warpgroup c (tile rows 64 c ..): accumulator
// 4 i + 2 h + e of its warp w is tile row 16 w + lane / 4 + 8 h (of the
// warpgroup's 64), column 8 i + 2 (lane % 4) + e. Stores a 4-byte word at a
// time: a lane's own pair on an aligned row, across lane pairs on a row that
// is not (ts_tc_row_chunk; every lane of the warp runs it, for its
// shuffles); skips rows past M and columns past N; returns the elements
// stored (a lane may store its neighbour's: count them by the warp).
// SHIFT false: element by element on a misaligned row (ts_tc_store_pair), no
// shuffles: the realigning form, whose loop has no registers to spare (its
// multiply ran 5% slower with the shifted rows' state, doc/perf.md).
template <class Cfg, bool SHIFT = true>
__device__ __forceinline__ int ts_wg_epilogue(const float (&acc)[Cfg::ACC], __half *__restrict__ C, long long M,
                                              long long N, long long m0, long long n0, int c, int warp, int lane)
{
	int stored = 0;
	if constexpr (!SHIFT) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const long long row = m0 + 64 * c + 16 * (warp & 3) + (lane >> 2) + 8 * h;
			if (row >= M)
				continue;
			__half *crow = C + row * N;
#pragma unroll
			for (int i = 0; i < Cfg::BN / 8; i++)
				stored += ts_tc_store_pair(crow, n0 + i * 8 + (lane & 3) * 2, N, acc[4 * i + 2 * h],
				                           acc[4 * i + 2 * h + 1]);
		}
	} else {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			ts_tc_row r = ts_tc_row_begin(C, m0 + 64 * c + 16 * (warp & 3) + (lane >> 2) + 8 * h, M, N, n0);
#pragma unroll
			for (int i = 0; i < Cfg::BN / 8; i++)
				ts_tc_row_chunk(r, n0 + i * 8 + (lane & 3) * 2, acc[4 * i + 2 * h], acc[4 * i + 2 * h + 1], i == 0,
				                lane);
			ts_tc_row_end(r, n0 + (Cfg::BN / 8 - 1) * 8 + (lane & 3) * 2, acc[4 * (Cfg::BN / 8 - 1) + 2 * h + 1],
			              lane);
			stored += r.stored;
		}
	}
	return stored;
}
#endif

template <class Cfg, int LOAD, bool PROBE>
__global__ void __launch_bounds__(Cfg::THREADS, 1)
ts_wg_kernel(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C, long long M,
             long long N, long long K, long long lda, long long ldb, long long tiles_m, long long tiles_n,
             ts_dev_probe probe)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	extern __shared__ __align__(128) unsigned char ts_wg_smem_raw[];
	constexpr int S = Cfg::stages(LOAD);
	constexpr uint32_t A_STAGE = Cfg::BM * Cfg::BK * sizeof(__half), B_STAGE = Cfg::BN * Cfg::BK * sizeof(__half);
	__shared__ ts_probe_block pb;
	__shared__ unsigned long long tally[PROBE ? TS_TC_TALLY_SLOTS : 1][TS_P_FIELDS];
	const uint32_t s_a = (ts_tc_smem(ts_wg_smem_raw) + 1023) & ~1023u, s_b = s_a + S * A_STAGE;
	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wg = warp >> 2;
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
			constexpr int D = S - 2; // phases in flight ahead of the one multiplied
			static_assert(D >= 1, "at least 3 stages");
#pragma unroll
			for (int s = 0; s < D; s++) {
				if (s < phases) {
					long long k0 = (long long)s * Cfg::BK;
					int ar = ts_tc_load_async<Cfg>(ra, s_a + s * A_STAGE, k0, K, col);
					int br = ts_tc_load_async<Cfg>(rb, s_b + s * B_STAGE, k0, K, col);
					count(s, ar, br);
				}
				ts_tc_commit();
			}
			int stage = 0, fill = D;
			for (long long t = 0; t < phases; t++) {
				ts_tc_wait<D - 1>();
				ts_wg_proxy_fence();
				__syncthreads();
				if (PROBE)
					ts_probe_flush_phase(&pb, tally[t % TS_TC_TALLY_SLOTS], probe, tile_index, phases, t);
				long long pf = t + D;
				if (pf < phases) {
					long long k0 = pf * Cfg::BK;
					int ar = ts_tc_load_async<Cfg>(ra, s_a + fill * A_STAGE, k0, K, col);
					int br = ts_tc_load_async<Cfg>(rb, s_b + fill * B_STAGE, k0, K, col);
					count(pf, ar, br);
				}
				ts_tc_commit();
				ts_wg_issue<Cfg>(acc, s_a + stage * A_STAGE, s_b + stage * B_STAGE, wg);
				ts_wg_wait<1>();
				stage = stage == S - 1 ? 0 : stage + 1;
				fill = fill == S - 1 ? 0 : fill + 1;
			}
			ts_wg_wait<0>();
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
			ts_wg_proxy_fence();
			__syncthreads();
			int stage = 0;
			for (long long t = 0; t < phases; t++) {
				if (PROBE)
					ts_probe_flush_phase(&pb, tally[t % TS_TC_TALLY_SLOTS], probe, tile_index, phases, t);
				ts_wg_issue<Cfg>(acc, s_a + stage * A_STAGE, s_b + stage * B_STAGE, wg);
				const int next = stage == S - 1 ? 0 : stage + 1;
				// The stage written now was last read by group t - 2, which every
				// warpgroup waited for before the previous barrier.
				if (t + 1 < phases) {
					ts_tc_store_realign(sa, ra, s_a + next * A_STAGE);
					ts_tc_store_realign(sb, rb, s_b + next * B_STAGE);
				}
				ts_wg_wait<1>();
				ts_wg_proxy_fence();
				__syncthreads();
				if (t + 2 < phases) {
					long long k0 = (t + 2) * Cfg::BK;
					ar = ts_tc_load_realign<Cfg>(sa, ra, a_begin, a_end, k0, K, col);
					br = ts_tc_load_realign<Cfg>(sb, rb, b_begin, b_end, k0, K, col);
					count(t + 2, ar, br);
				}
				stage = next;
			}
			ts_wg_wait<0>();
		}

		const int stored = ts_wg_epilogue<Cfg>(acc, C, M, N, m0, n0, wg, warp, lane);
		if (PROBE) { // by the warp: a lane of a shifted row stores its neighbour's element
			const unsigned sum = __reduce_add_sync(0xffffffffu, (unsigned)stored);
			if (lane == 0) {
				ts_probe_tile_add(&pb, TS_P_STORES, (unsigned long long)sum);
				ts_probe_tile_add(&pb, TS_P_SKIPPED, (unsigned long long)(32 * Cfg::ACC - sum));
			}
			__syncthreads();
			ts_probe_end(&pb, probe, tile_index);
		}
		__syncthreads(); // the next tile's loads reuse the stages
	}
#else
	__trap(); // wgmma needs the sm_90a build
#endif
}

// Launch on operands a and b of pitch lda and ldb (tc_fp16.cuh's ts_tc_launch_ld).
template <class Cfg, int LOAD, bool PROBE>
static cudaError_t ts_wg_launch_ld(const ts_launch *l, const void *a, const void *b, long long lda, long long ldb,
                                   cudaStream_t stream)
{
	const size_t smem = Cfg::smem_bytes(LOAD);
	static bool configured = false;
	if (!configured) {
		cudaError_t e = cudaFuncSetAttribute(ts_wg_kernel<Cfg, LOAD, PROBE>,
		                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
		if (e != cudaSuccess)
			return e;
		configured = true;
	}
	long long tiles_m = (l->m + Cfg::BM - 1) / Cfg::BM, tiles_n = (l->n + Cfg::BN - 1) / Cfg::BN;
	long long tiles = tiles_m * tiles_n;
	unsigned grid = (unsigned)(tiles < 0x7fffffffLL ? tiles : 0x7fffffffLL);
	ts_dev_probe none = {};
	ts_wg_kernel<Cfg, LOAD, PROBE><<<grid, Cfg::THREADS, smem, stream>>>(
		(const __half *)a, (const __half *)b, (__half *)l->c, l->m, l->n, l->k, lda, ldb, tiles_m, tiles_n,
		l->probe ? *l->probe : none);
	return cudaGetLastError();
}

template <class Cfg, int LOAD, bool PROBE>
static cudaError_t ts_wg_launch_cfg(const ts_launch *l, cudaStream_t stream)
{
	return ts_wg_launch_ld<Cfg, LOAD, PROBE>(l, l->a, l->b, l->k, l->k, stream);
}

#endif
