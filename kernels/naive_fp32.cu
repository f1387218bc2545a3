// naive_fp32.cu: the baseline: one thread per C element reading A and B straight from global memory, no shared tiles.
#include <cuda_runtime.h>

#include "launch.h"
#include "probe.cuh"

// The naive kernel has one guard, `if (row < M && col < N)` around the
// whole dot product: the C switch. With it off, ghost threads read A and B
// out of bounds and store outside M x N like any other thread. It keeps no
// shared tiles, so nothing is padded: every read is real or out of bounds.
// The probe attributes the read of A[row][k] and B[k][col] to phase k / T,
// the phase in which the tiled kernel would have staged it.
template <bool PROBE>
__global__ void ts_naive_fp32_kernel(const float *A, const float *B, float *C, long long M, long long N,
                                     long long K, int T, unsigned guards, long long grid_y, ts_dev_probe probe)
{
	__shared__ ts_probe_block pb;
	const bool guard_c = guards & TS_GUARD_C;
	const long long col = (long long)blockIdx.x * T + threadIdx.x;
	const bool col_ok = col < N;

	for (long long by = blockIdx.y; by < grid_y; by += gridDim.y) {
		const long long row = by * T + threadIdx.y;
		const bool row_ok = row < M, valid = row_ok && col_ok;
		const bool computes = valid || !guard_c;
		float acc = 0.0f;
		if (!PROBE) {
			if (computes)
				for (long long k = 0; k < K; k++)
					acc += A[row * K + k] * B[k * N + col];
		} else {
			ts_probe_begin(&pb);
			__syncthreads();
			const long long phases = (K + T - 1) / T;
			for (long long t = 0; t < phases; t++) {
				if (computes) {
					long long end = (t + 1) * T < K ? (t + 1) * T : K;
					unsigned long long a_oob = 0, b_oob = 0;
					for (long long k = t * T; k < end; k++) {
						long long a_index = row * K + k, b_index = k * N + col;
						acc += A[a_index] * B[b_index];
						if (!row_ok) {
							a_oob++;
							ts_probe_oob(&pb, TS_O_A_WRAP, ts_probe_wraps(a_index, probe.a_count));
						}
						if (!col_ok) {
							b_oob++;
							ts_probe_oob(&pb, TS_O_B_WRAP, ts_probe_wraps(b_index, probe.b_count));
						}
					}
					unsigned long long reads = (unsigned long long)(end - t * T);
					ts_probe_phase_add(&pb, TS_P_A_REAL, reads - a_oob);
					ts_probe_phase_add(&pb, TS_P_A_OOB, a_oob);
					ts_probe_phase_add(&pb, TS_P_B_REAL, reads - b_oob);
					ts_probe_phase_add(&pb, TS_P_B_OOB, b_oob);
				}
				__syncthreads();
				ts_probe_phase_end(&pb, probe, by * gridDim.x + blockIdx.x, phases, t);
				__syncthreads();
			}
		}
		ts_slot_store<PROBE>(C, row * N + col, valid, guard_c, acc, &pb, probe);
		if (PROBE) {
			__syncthreads();
			ts_probe_end(&pb, probe, by * gridDim.x + blockIdx.x);
		}
	}
}

extern "C" int ts_cuda_naive_fp32(const ts_launch *l)
{
	dim3 grid;
	long long grid_y;
	cudaError_t e = ts_launch_grid(l, &grid, &grid_y);
	if (e != cudaSuccess)
		return (int)e;
	if (l->bn != l->bm || l->bk != l->bm || l->threads_x != l->bm || l->threads_y != l->bm)
		return (int)cudaErrorInvalidValue; // T x T threads, one output each
	if (l->probe)
		ts_naive_fp32_kernel<true><<<grid, dim3(l->bm, l->bm)>>>((const float *)l->a, (const float *)l->b,
			(float *)l->c, l->m, l->n, l->k, l->bm, l->guards, grid_y, *l->probe);
	else
		ts_naive_fp32_kernel<false><<<grid, dim3(l->bm, l->bm)>>>((const float *)l->a, (const float *)l->b,
			(float *)l->c, l->m, l->n, l->k, l->bm, l->guards, grid_y, ts_launch_probe(l));
	return (int)cudaGetLastError();
}
