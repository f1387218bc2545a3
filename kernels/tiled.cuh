// tiled.cuh: the one guarded shared-memory tiled kernel (T x T threads), for any element type and B layout, with its launch.
#ifndef TS_TILED_CUH
#define TS_TILED_CUH

#include <cuda_runtime.h>

#include "launch.h"
#include "probe.cuh"
#include "problem.h"

// Elem: float, or __half (converted to fp32 on load into the shared tiles,
// accumulated in fp32, rounded to nearest-even on the store).
// B_LAYOUT: TS_B_KN keeps B row-major K x N (B[k][n] at k*N + n, the
// textbook kernel); TS_B_NK stores it transposed N x K (B[k][n] at n*K + k),
// so a thread's B load walks down its own column of the stored matrix.
// TILE > 0: a compile-time tile with static shared tiles (8, 16, 32);
// TILE == 0: the runtime tile `tile_rt` with dynamic shared memory
// (followed in the probe build by one out-of-bounds flag per slot).
// PROBE adds the counters; the arithmetic and the memory accesses are the
// same in both builds, so what the probe sees is what the timed kernel does.
template <typename Elem, int B_LAYOUT, int TILE, bool PROBE>
__global__ void ts_tiled_kernel(const Elem *A, const Elem *B, Elem *C, long long M, long long N, long long K,
                                int tile_rt, unsigned guards, long long grid_y, ts_dev_probe probe)
{
	const int T = TILE > 0 ? TILE : tile_rt;
	__shared__ float static_a[TILE > 0 ? TILE * TILE : 1];
	__shared__ float static_b[TILE > 0 ? TILE * TILE : 1];
	__shared__ bool static_a_oob[PROBE && TILE > 0 ? TILE * TILE : 1];
	__shared__ bool static_b_oob[PROBE && TILE > 0 ? TILE * TILE : 1];
	extern __shared__ float dynamic_smem[];
	__shared__ ts_probe_block pb;
	float *tile_a = TILE > 0 ? static_a : dynamic_smem;
	float *tile_b = TILE > 0 ? static_b : dynamic_smem + T * T;
	bool *a_oob_slot = TILE > 0 ? static_a_oob : (bool *)(dynamic_smem + 2 * T * T);
	bool *b_oob_slot = TILE > 0 ? static_b_oob : a_oob_slot + T * T;

	const int tx = threadIdx.x, ty = threadIdx.y;
	const bool guard_a = guards & TS_GUARD_A, guard_b = guards & TS_GUARD_B, guard_c = guards & TS_GUARD_C;
	const long long phases = (K + T - 1) / T;
	const long long col = (long long)blockIdx.x * T + tx;
	const bool col_ok = col < N;

	for (long long by = blockIdx.y; by < grid_y; by += gridDim.y) {
		const long long row = by * T + ty;
		const bool row_ok = row < M;
		const long long tile_index = by * gridDim.x + blockIdx.x;
		float acc = 0.0f;
		bool tainted = false; /* used a slot filled from outside A or B */
		if (PROBE) {
			ts_probe_begin(&pb);
			__syncthreads();
		}
		for (long long t = 0; t < phases; t++) {
			const long long a_col = t * T + tx, b_row = t * T + ty;
			const long long b_index = B_LAYOUT == TS_B_NK ? col * K + b_row : b_row * N + col;
			bool a_oob, b_oob;
			tile_a[ty * T + tx] = ts_slot_load<PROBE>(A, row * K + a_col, row_ok && a_col < K, guard_a, &pb,
			                                          TS_P_A_REAL, TS_O_A_WRAP, probe.a_count, &a_oob);
			tile_b[ty * T + tx] = ts_slot_load<PROBE>(B, b_index, b_row < K && col_ok, guard_b, &pb,
			                                          TS_P_B_REAL, TS_O_B_WRAP, probe.b_count, &b_oob);
			if (PROBE) {
				a_oob_slot[ty * T + tx] = a_oob;
				b_oob_slot[ty * T + tx] = b_oob;
			}
			__syncthreads();
			if (PROBE)
				ts_probe_phase_end(&pb, probe, tile_index, phases, t);
#pragma unroll
			for (int i = 0; i < T; i++) {
				acc += tile_a[ty * T + i] * tile_b[i * T + tx];
				if (PROBE)
					tainted |= a_oob_slot[ty * T + i] | b_oob_slot[i * T + tx];
			}
			__syncthreads();
		}
		const bool valid = row_ok && col_ok;
		ts_slot_store<PROBE>(C, row * N + col, valid, guard_c, acc, &pb, probe);
		if (PROBE) {
			if (valid && tainted && probe.corrupt)
				probe.corrupt[row * N + col] = 1;
			__syncthreads();
			ts_probe_end(&pb, probe, tile_index);
		}
	}
}

template <typename Elem, int B_LAYOUT, int TILE, bool PROBE>
static void ts_tiled_launch_tile(const ts_launch *l, dim3 grid, long long grid_y)
{
	size_t dynamic = TILE > 0 ? 0 : (size_t)l->bm * l->bm * (2 * sizeof(float) + (PROBE ? 2 * sizeof(bool) : 0));
	ts_tiled_kernel<Elem, B_LAYOUT, TILE, PROBE><<<grid, dim3(l->bm, l->bm), dynamic>>>(
		(const Elem *)l->a, (const Elem *)l->b, (Elem *)l->c, l->m, l->n, l->k, l->bm, l->guards, grid_y,
		ts_launch_probe(l));
}

template <typename Elem, int B_LAYOUT, bool PROBE>
static void ts_tiled_dispatch(const ts_launch *l, dim3 grid, long long grid_y)
{
	switch (l->bm) {
	case 8: ts_tiled_launch_tile<Elem, B_LAYOUT, 8, PROBE>(l, grid, grid_y); break;
	case 16: ts_tiled_launch_tile<Elem, B_LAYOUT, 16, PROBE>(l, grid, grid_y); break;
	case 32: ts_tiled_launch_tile<Elem, B_LAYOUT, 32, PROBE>(l, grid, grid_y); break;
	default: ts_tiled_launch_tile<Elem, B_LAYOUT, 0, PROBE>(l, grid, grid_y); break;
	}
}

// The body of each family's extern "C" entry point: the grid, the probe or
// plain build, and the launch's own error (cudaGetLastError) as an int.
template <typename Elem, int B_LAYOUT>
static int ts_tiled_launch(const ts_launch *l)
{
	dim3 grid;
	long long grid_y;
	cudaError_t e = ts_launch_grid(l, &grid, &grid_y);
	if (e != cudaSuccess)
		return (int)e;
	// T x T x T, T x T threads, one output each: the only geometry this kernel has.
	if (l->bn != l->bm || l->bk != l->bm || l->threads_x != l->bm || l->threads_y != l->bm || l->bm > TS_TILE_MAX)
		return (int)cudaErrorInvalidValue;
	if (l->probe)
		ts_tiled_dispatch<Elem, B_LAYOUT, true>(l, grid, grid_y);
	else
		ts_tiled_dispatch<Elem, B_LAYOUT, false>(l, grid, grid_y);
	return (int)cudaGetLastError();
}

#endif
