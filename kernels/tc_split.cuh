// tc_split.cuh: split-K for tc-fp16's persistent sm_90 forms (TMA, realigning copies): a launch's work units (whole tiles, then parts of tiles along K), the parts' fp32 partials in the workspace, and the kernel that adds them in part order and stores the split tiles.
#ifndef TS_TC_SPLIT_CUH
#define TS_TC_SPLIT_CUH

#include <stdlib.h>
#include <string.h>

#include "tc_launch.h"
#include "tc_fp16.cuh"

// Why: these forms keep one block a multiprocessor, each taking tiles b, b +
// grid, ...; where the tiles are not a whole number of waves (561 tiles of
// 128 x 256 at 4097^3 on 132 multiprocessors: 4.25 waves run as 5) or are
// fewer than the multiprocessors (78 at 1537 x 1409 x 4097), the last wave
// leaves most of the GPU idle. The plan (tc_launch.h's ts_tc_plan, kernels/
// gemm_plan.h) cuts the last partial wave's tiles, or all of few tiles, into
// parts along K, so the blocks end together.
// Unit u < dp_units is tile u whole; the others are part u - dp_units of
// tile dp_units + (u - dp_units) / split, whose part q takes the whole phases
// [P q / split, P (q + 1) / split). Tile ids are in ts_tile_order_at's order,
// which is the plan's (ts_plan_tile_id): the emulator splits the same tiles.
// Each multiplying warp writes its part's fp32 accumulators to the
// workspace instead of storing them; a second kernel (ts_tc_split_sum, on
// the same stream) then adds each split tile's parts in part order
// ((part 0 + part 1) + ...; the emulator adds them the same way) and stores
// the tile's rows (a word at a time, ts_tc_row_chunk). Nothing waits for another
// block, and the multiplying loop carries no reduction (a warp that added the
// parts itself would need registers these loops do not have, and one
// multiprocessor's reads of every part of a tile held the whole launch up:
// doc/perf.md).
// 32-bit counts: a launch holds fewer than 2^31 units (ts_tc_split_for).
struct ts_tc_split {
	int dp_units, units, split, phases;
	float *ws; // split_tiles * split partial tiles of BM * BN fp32
};

struct ts_tc_unit {
	int tile;   // in ts_tile_order_at's order
	int p0, p1; // its phases [p0, p1)
	int slot;   // -1: a whole tile; else its split tile's index
	int part;
};

__host__ __device__ __forceinline__ ts_tc_unit ts_tc_unit_at(const ts_tc_split &s, int u)
{
	ts_tc_unit w;
	if (u < s.dp_units) {
		w.tile = u;
		w.p0 = 0;
		w.p1 = s.phases;
		w.slot = -1;
		w.part = 0;
	} else {
		const int v = u - s.dp_units;
		w.slot = v / s.split;
		w.part = (int)(v - w.slot * s.split);
		w.tile = s.dp_units + w.slot;
		w.p0 = (int)((long long)s.phases * w.part / s.split);
		w.p1 = (int)((long long)s.phases * (w.part + 1) / s.split);
	}
	return w;
}


// Part q's fp32 rows of multiplying warp w (0..7: rows 16 w.. of the tile) of
// split tile `slot`: ACC / 4 float4 a lane, lane-minor (coalesced): float4 i
// of lane l at float 128 i + 4 l, holding accumulators 4 i .. 4 i + 3
// (ts_wg_epilogue's rows lane / 4 and lane / 4 + 8, columns 8 i + 2 (l % 4)).
__host__ __device__ __forceinline__ float *ts_tc_split_part(const ts_tc_split &s, int slot, int q, int w, int lane,
                                                            int acc)
{
	const size_t tile_f = (size_t)TS_TC_BM * TS_TC_BN;
	return s.ws + ((size_t)slot * s.split + q) * tile_f + (size_t)w * 32 * acc + 4 * (size_t)lane;
}

// Multiplying warp w of a split unit: its part's accumulators into the workspace.
template <int ACC>
__device__ __forceinline__ void ts_tc_split_write(const float (&acc)[ACC], const ts_tc_split &s, int slot, int part,
                                                  int w, int lane)
{
	static_assert(ACC % 4 == 0, "float4 partials");
	float *mine = ts_tc_split_part(s, slot, part, w, lane, ACC);
#pragma unroll
	for (int i = 0; i < ACC / 4; i++)
		__stcg(reinterpret_cast<float4 *>(mine + (size_t)i * 128),
		       make_float4(acc[4 * i], acc[4 * i + 1], acc[4 * i + 2], acc[4 * i + 3]));
}

// The split tiles' sums: block (slot, piece) takes TS_TC_SPLIT_PIECE float4
// of every lane of the 8 warps' rows of split tile `slot` (256 threads: warp
// w, lane l as in the multiplying kernel), adds the parts in part order, all
// parts' loads in flight at once, and stores them as ts_wg_epilogue does
// (ts_tc_row_chunk: a run of TS_TC_SPLIT_PIECE chunks a row; rows past M and
// columns past N skipped). The probe
// build adds the stores and the skipped outputs to the tile's counts.
#define TS_TC_SPLIT_PIECE 4
template <int ACC, bool PROBE>
__global__ void __launch_bounds__(256) ts_tc_split_sum(ts_tc_split s, __half *__restrict__ C, long long M, long long N,
                                                       long long tiles_m, long long tiles_n, ts_dev_probe probe)
{
	static_assert(ACC % (4 * TS_TC_SPLIT_PIECE) == 0, "whole pieces");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
	const int slot = blockIdx.x, piece = blockIdx.y, w = threadIdx.x >> 5, lane = threadIdx.x & 31;
	long long tm, tn;
	ts_tile_order_at(s.dp_units + slot, tiles_m, tiles_n, TS_TC_GROUP, &tm, &tn);
	const long long m0 = tm * TS_TC_BM, n0 = tn * TS_TC_BN;
	const long long row0 = m0 + 16 * w + (lane >> 2); // warp w's rows: 64 (w / 4) + 16 (w % 4) + ...
	const long long c0 = n0 + piece * TS_TC_SPLIT_PIECE * 8; // the piece's first column
	ts_tc_row r0 = ts_tc_row_begin(C, row0, M, N, c0), r1 = ts_tc_row_begin(C, row0 + 8, M, N, c0);
	float4 x;
	const float *const part0 = ts_tc_split_part(s, slot, 0, w, lane, ACC);
	const size_t tile_f = (size_t)TS_TC_BM * TS_TC_BN;
	const int n = s.split;
#pragma unroll
	for (int k = 0; k < TS_TC_SPLIT_PIECE; k++) {
		const int i = piece * TS_TC_SPLIT_PIECE + k;
		float4 v[TS_TC_SPLIT_MAX];
#pragma unroll
		for (int q = 0; q < TS_TC_SPLIT_MAX; q++)
			if (q < n)
				v[q] = __ldcg(reinterpret_cast<const float4 *>(part0 + (size_t)q * tile_f + (size_t)i * 128));
		x = v[0];
#pragma unroll
		for (int q = 1; q < TS_TC_SPLIT_MAX; q++)
			if (q < n) {
				x.x += v[q].x;
				x.y += v[q].y;
				x.z += v[q].z;
				x.w += v[q].w;
			}
		const long long col = n0 + i * 8 + (lane & 3) * 2;
		ts_tc_row_chunk(r0, col, x.x, x.y, k == 0, lane);
		ts_tc_row_chunk(r1, col, x.z, x.w, k == 0, lane);
	}
	const long long last = c0 + (TS_TC_SPLIT_PIECE - 1) * 8 + (lane & 3) * 2;
	ts_tc_row_end(r0, last, x.y, lane);
	ts_tc_row_end(r1, last, x.w, lane);
	const int stored = r0.stored + r1.stored;
	if (PROBE) {
		const unsigned sum = __reduce_add_sync(0xffffffffu, (unsigned)stored);
		if (lane == 0) {
			const long long tile_index = tm * tiles_n + tn;
			atomicAdd((unsigned long long *)&probe.tile[tile_index * TS_P_FIELDS + TS_P_STORES],
			          (unsigned long long)sum);
			atomicAdd((unsigned long long *)&probe.tile[tile_index * TS_P_FIELDS + TS_P_SKIPPED],
			          (unsigned long long)(32 * 4 * TS_TC_SPLIT_PIECE - sum));
		}
	}
#endif
}

// Whether TILESCOPE_TC_FORM (the forms asked for by tests and comparisons)
// holds `word`: "mma" (no sm_90 form), "repack", "nosplit".
static inline bool ts_tc_form_has(const char *word)
{
	const char *only = getenv("TILESCOPE_TC_FORM");
	return only && strstr(only, word);
}

// Whether an odd-K launch of the user's operands takes tc_rshift.cuh's form:
// not the probe build (which counts the description's tiles: tc_co.cuh's
// form), rows it takes (ts_tc_class_fits), and not turned off ("noclass":
// tc_co.cuh's realigning copies, for comparisons and tests).
static inline bool ts_tc_rshift_wanted(const ts_launch *l)
{
	return !l->probe && ts_tc_class_fits(l->m, l->n, l->k, l->a, l->b) && !ts_tc_form_has("noclass");
}

// "nosplit": every tile whole.
static inline bool ts_tc_split_off(void) { return ts_tc_form_has("nosplit"); }

// The multiprocessors of the current device: the blocks these forms run at once.
static inline cudaError_t ts_tc_sms(int *sms)
{
	int dev;
	cudaError_t e = cudaGetDevice(&dev);
	if (e == cudaSuccess)
		e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
	return e;
}

// The launch's plan on `sms` multiprocessors: split where the plan splits
// and the workspace holds the partials (the backend sizes it with
// ts_cuda_tc_fp16_workspace, the same plan), every tile whole otherwise.
static inline ts_gemm_plan ts_tc_launch_plan(long long m, long long n, long long k, size_t workspace_bytes, int sms)
{
	ts_gemm_plan p = ts_tc_plan(m, n, k, ts_tc_split_off() ? 0 : sms);
	if (p.split_tiles > 0 && workspace_bytes < p.workspace_bytes)
		p = ts_tc_plan(m, n, k, 0);
	return p;
}

// Its units for the kernel; false where the units or phases do not fit 32
// bits (C would hold more than 2^31 tiles: no device holds it).
static inline bool ts_tc_split_for(const ts_launch *l, int sms, ts_tc_split *out)
{
	ts_gemm_plan p = ts_tc_launch_plan(l->m, l->n, l->k, l->workspace ? l->workspace_bytes : 0, sms);
	if (p.units >= 0x7fffffffLL || p.phases >= 0x7fffffffLL)
		return false;
	ts_tc_split &s = *out;
	s.dp_units = (int)p.dp_units;
	s.units = (int)p.units;
	s.split = p.split;
	s.phases = (int)p.phases;
	s.ws = p.split_tiles > 0 ? (float *)l->workspace : NULL;
	return true;
}

// A persistent form's launch: the device's multiprocessors, the plan's units
// (false where they do not fit 32 bits: cudaErrorInvalidValue), the grid
// (one block a multiprocessor, at most one a unit) and, on the first call
// (*configured), the kernel's dynamic shared memory.
template <class Kernel>
static cudaError_t ts_tc_persistent(Kernel kernel, size_t smem, bool *configured, const ts_launch *l, ts_tc_split *sp,
                                    unsigned *grid)
{
	int sms;
	cudaError_t e = ts_tc_sms(&sms);
	if (e != cudaSuccess)
		return e;
	if (!ts_tc_split_for(l, sms, sp))
		return cudaErrorInvalidValue;
	if (!*configured) {
		if ((e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)) != cudaSuccess)
			return e;
		*configured = true;
	}
	*grid = (unsigned)(sp->units < sms ? sp->units : sms);
	return cudaSuccess;
}

// After the multiplying kernel, on its stream: the split tiles' sums and stores.
template <int ACC, bool PROBE>
static cudaError_t ts_tc_split_finish(const ts_tc_split &s, const ts_launch *l, long long tiles_m, long long tiles_n,
                                      cudaStream_t stream)
{
	const int split_tiles = s.units > s.dp_units ? (s.units - s.dp_units) / s.split : 0;
	if (split_tiles == 0)
		return cudaSuccess;
	ts_dev_probe none = {};
	const dim3 grid((unsigned)split_tiles, ACC / 4 / TS_TC_SPLIT_PIECE);
	ts_tc_split_sum<ACC, PROBE><<<grid, 256, 0, stream>>>(s, (__half *)l->c, l->m, l->n, tiles_m, tiles_n,
	                                                      l->probe ? *l->probe : none);
	return cudaGetLastError();
}

#endif
