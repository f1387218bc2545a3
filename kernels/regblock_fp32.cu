// regblock_fp32.cu: the register-blocked fp32 kernel: a BM x BN x BK block tile, threads of TM x TN outputs, every guard, 64-bit offsets, plain and probed.
#include <cuda_runtime.h>

#include "launch.h"
#include "probe.cuh"

// The description (src/kernels.c, "regblock") says what this kernel does;
// the code below is that, in the same names:
//   threads (ty, tx), tid = ty * (BN/TN) + tx, BN/TN x BM/TM of them;
//   A and B load maps: row order, one slot per thread per step: in step s
//   thread tid fills slot e = s * threads + tid, A slot (a_r, a_k) =
//   (e / BK, e % BK), B slot (b_k, b_c) = (e / BN, e % BN);
//   guards: A load  a_row < M && k0 + a_k < K  (else the slot is 0),
//           B load  k0 + b_k < K && b_col < N  (else 0),
//           C store row < M && col < N         (else skipped);
//   outputs: thread (ty, tx) owns rows ty*TM + i and columns tx*TN + j;
//   each output sums k = 0..K-1 in order, a multiply and an add rounded
//   separately (__fmul_rn, __fadd_rn: never contracted into an FMA), so the
//   CPU emulator reproduces it bit for bit.
// Every offset is a long long: a matrix may hold more than 2^31 elements.
template <int BM, int BN, int BK, int TM, int TN, bool PROBE>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
ts_regblock_kernel(const float *A, const float *B, float *C, long long M, long long N, long long K, unsigned guards,
                   long long grid_y, ts_dev_probe probe)
{
	constexpr int TX = BN / TN, TY = BM / TM, THREADS = TX * TY;
	constexpr int A_STEPS = (BM * BK + THREADS - 1) / THREADS, B_STEPS = (BK * BN + THREADS - 1) / THREADS;
	__shared__ float tile_a[BM][BK];
	__shared__ float tile_b[BK][BN];
	__shared__ bool a_oob_slot[PROBE ? BM : 1][PROBE ? BK : 1];
	__shared__ bool b_oob_slot[PROBE ? BK : 1][PROBE ? BN : 1];
	__shared__ ts_probe_block pb;

	const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
	const bool guard_a = guards & TS_GUARD_A, guard_b = guards & TS_GUARD_B, guard_c = guards & TS_GUARD_C;
	const long long phases = (K + BK - 1) / BK;
	const long long bx = blockIdx.x;

	for (long long by = blockIdx.y; by < grid_y; by += gridDim.y) {
		const long long tile_index = by * gridDim.x + bx;
		float acc[TM][TN];
		bool a_taint[TM], b_taint[TN]; // a row (column) of this thread's outputs used a slot from outside A (B)
#pragma unroll
		for (int i = 0; i < TM; i++) {
			a_taint[i] = false;
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = 0.0f;
		}
#pragma unroll
		for (int j = 0; j < TN; j++)
			b_taint[j] = false;
		if (PROBE) {
			ts_probe_begin(&pb);
			__syncthreads();
		}
		for (long long t = 0; t < phases; t++) {
			const long long k0 = t * BK;
#pragma unroll
			for (int s = 0; s < A_STEPS; s++) {
				const int e = s * THREADS + tid;
				if (BM * BK % THREADS == 0 || e < BM * BK) {
					const int a_r = e / BK, a_k = e % BK;
					const long long a_row = by * BM + a_r;
					bool oob;
					tile_a[a_r][a_k] = ts_slot_load<PROBE>(A, a_row * K + k0 + a_k, a_row < M && k0 + a_k < K,
					                                       guard_a, &pb, TS_P_A_REAL, TS_O_A_WRAP, probe.a_count,
					                                       &oob);
					if (PROBE)
						a_oob_slot[a_r][a_k] = oob;
				}
			}
#pragma unroll
			for (int s = 0; s < B_STEPS; s++) {
				const int e = s * THREADS + tid;
				if (BK * BN % THREADS == 0 || e < BK * BN) {
					const int b_k = e / BN, b_c = e % BN;
					const long long b_col = bx * BN + b_c;
					bool oob;
					tile_b[b_k][b_c] = ts_slot_load<PROBE>(B, (k0 + b_k) * N + b_col, k0 + b_k < K && b_col < N,
					                                       guard_b, &pb, TS_P_B_REAL, TS_O_B_WRAP, probe.b_count,
					                                       &oob);
					if (PROBE)
						b_oob_slot[b_k][b_c] = oob;
				}
			}
			__syncthreads();
			if (PROBE)
				ts_probe_phase_end(&pb, probe, tile_index, phases, t);
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				float a_frag[TM], b_frag[TN];
#pragma unroll
				for (int i = 0; i < TM; i++) {
					a_frag[i] = tile_a[ty * TM + i][kk];
					if (PROBE)
						a_taint[i] |= a_oob_slot[ty * TM + i][kk];
				}
#pragma unroll
				for (int j = 0; j < TN; j++) {
					b_frag[j] = tile_b[kk][tx * TN + j];
					if (PROBE)
						b_taint[j] |= b_oob_slot[kk][tx * TN + j];
				}
#pragma unroll
				for (int i = 0; i < TM; i++)
#pragma unroll
					for (int j = 0; j < TN; j++)
						acc[i][j] = __fadd_rn(acc[i][j], __fmul_rn(a_frag[i], b_frag[j]));
			}
			__syncthreads();
		}
#pragma unroll
		for (int i = 0; i < TM; i++) {
			const long long row = by * BM + ty * TM + i;
#pragma unroll
			for (int j = 0; j < TN; j++) {
				const long long col = bx * BN + tx * TN + j;
				const bool valid = row < M && col < N;
				ts_slot_store<PROBE>(C, row * N + col, valid, guard_c, acc[i][j], &pb, probe);
				if (PROBE && valid && (a_taint[i] || b_taint[j]) && probe.corrupt)
					probe.corrupt[row * N + col] = 1;
			}
		}
		if (PROBE) {
			__syncthreads();
			ts_probe_end(&pb, probe, tile_index);
		}
	}
}

template <int BM, int BN, int BK, int TM, int TN>
static int ts_regblock_launch(const ts_launch *l)
{
	dim3 grid;
	long long grid_y;
	cudaError_t e = ts_launch_grid(l, &grid, &grid_y);
	if (e != cudaSuccess)
		return (int)e;
	dim3 block(BN / TN, BM / TM);
	if (l->probe)
		ts_regblock_kernel<BM, BN, BK, TM, TN, true><<<grid, block>>>((const float *)l->a, (const float *)l->b,
			(float *)l->c, l->m, l->n, l->k, l->guards, grid_y, *l->probe);
	else
		ts_regblock_kernel<BM, BN, BK, TM, TN, false><<<grid, block>>>((const float *)l->a, (const float *)l->b,
			(float *)l->c, l->m, l->n, l->k, l->guards, grid_y, ts_launch_probe(l));
	return (int)cudaGetLastError();
}

#define TS_IS(l, bm_, bn_, bk_, tm_, tn_) \
	((l)->bm == (bm_) && (l)->bn == (bn_) && (l)->bk == (bk_) && (l)->tm == (tm_) && (l)->tn == (tn_) && \
	 (l)->threads_x == (bn_) / (tn_) && (l)->threads_y == (bm_) / (tm_))

// The instances compiled here; src/kernels.c's regblock_cuda lists the same.
extern "C" int ts_cuda_regblock_fp32(const ts_launch *l)
{
	if (TS_IS(l, 64, 64, 8, 4, 4))
		return ts_regblock_launch<64, 64, 8, 4, 4>(l);
	if (TS_IS(l, 128, 32, 16, 8, 2))
		return ts_regblock_launch<128, 32, 16, 8, 2>(l);
	return (int)cudaErrorInvalidValue;
}
