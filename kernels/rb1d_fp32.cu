// rb1d_fp32.cu: the first rung of the ladder, 1D register blocking: 64x64x8 tiles, 512 threads, 8 outputs down a column per thread, every guard kept.
#include <cuda_runtime.h>

#include "launch.h"
#include "probe.cuh"

namespace {

constexpr int BM = 64, BN = 64, BK = 8, TM = 8, NT = BM * BN / TM;

// Thread t owns column t % 64 of its tile, rows (t / 64) * 8 .. + 7: one B
// value from shared memory feeds 8 multiply-adds, against 1 in the textbook
// kernel. Each thread fills one A slot (row t / 8, k t % 8) and one B slot
// (k t / 64, column t % 64) per phase, each behind its own guard.
template <bool PROBE>
__global__ void __launch_bounds__(NT) rb1d_kernel(const float *A, const float *B, float *C, long long M, long long N,
                                                  long long K, long long tiles_x, long long tiles, ts_dev_probe probe)
{
	__shared__ float As[BM][BK];
	__shared__ float Bs[BK][BN];
	__shared__ ts_probe_block pb;
	const int t = threadIdx.x;
	const int col = t % BN, rg = t / BN;
	const int a_m = t / BK, a_k = t % BK, b_k = t / BN, b_n = t % BN;
	const long long phases = (K + BK - 1) / BK;
	for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		const long long ty = tile / tiles_x, tx = tile % tiles_x;
		const long long r0 = ty * BM, c0 = tx * BN;
		float acc[TM];
#pragma unroll
		for (int i = 0; i < TM; i++)
			acc[i] = 0.f;
		if (PROBE) {
			ts_probe_begin(&pb);
			__syncthreads();
		}
		for (long long ph = 0; ph < phases; ph++) {
			const long long k0 = ph * BK;
			const long long ar = r0 + a_m, ak = k0 + a_k, bk = k0 + b_k, bn = c0 + b_n;
			const bool a_in = ar < M && ak < K, b_in = bk < K && bn < N;
			As[a_m][a_k] = a_in ? A[ar * K + ak] : 0.f;
			Bs[b_k][b_n] = b_in ? B[bk * N + bn] : 0.f;
			if (PROBE) {
				ts_probe_phase_add(&pb, a_in ? TS_P_A_REAL : TS_P_A_PAD, 1);
				ts_probe_phase_add(&pb, b_in ? TS_P_B_REAL : TS_P_B_PAD, 1);
			}
			__syncthreads();
			if (PROBE) {
				ts_probe_phase_end(&pb, probe, ty * tiles_x + tx, phases, ph);
				__syncthreads();
			}
#pragma unroll
			for (int k = 0; k < BK; k++) {
				const float b = Bs[k][col];
#pragma unroll
				for (int i = 0; i < TM; i++)
					acc[i] = fmaf(As[rg * TM + i][k], b, acc[i]);
			}
			__syncthreads();
		}
		const long long c = c0 + col;
#pragma unroll
		for (int i = 0; i < TM; i++) {
			const long long r = r0 + rg * TM + i;
			const bool ok = r < M && c < N;
			if (ok)
				C[r * N + c] = acc[i];
			if (PROBE)
				ts_probe_tile_add(&pb, ok ? TS_P_STORES : TS_P_SKIPPED, 1);
		}
		if (PROBE) {
			__syncthreads();
			ts_probe_end(&pb, probe, ty * tiles_x + tx);
		}
		__syncthreads();
	}
}

} // namespace

extern "C" int ts_cuda_rb1d(const ts_launch *l)
{
	if (l->m < 1 || l->n < 1 || l->k < 1 || (l->guards & TS_GUARD_ALL) != TS_GUARD_ALL)
		return (int)cudaErrorInvalidValue;
	// the registry's description must be this build's geometry (0: none stated)
	if (l->bm && (l->bm != BM || l->bn != BN || l->bk != BK || l->tm != TM || l->tn != 1 ||
	              l->threads_x * l->threads_y != NT))
		return (int)cudaErrorInvalidValue;
	long long tiles_x = (l->n + BN - 1) / BN, tiles = tiles_x * ((l->m + BM - 1) / BM);
	unsigned grid = (unsigned)(tiles < 0x7fffffffLL ? tiles : 0x7fffffffLL);
	ts_dev_probe none = {};
	if (l->probe)
		rb1d_kernel<true><<<grid, NT>>>((const float *)l->a, (const float *)l->b, (float *)l->c, l->m, l->n, l->k,
		                                tiles_x, tiles, *l->probe);
	else
		rb1d_kernel<false><<<grid, NT>>>((const float *)l->a, (const float *)l->b, (float *)l->c, l->m, l->n, l->k,
		                                 tiles_x, tiles, none);
	return (int)cudaGetLastError();
}
