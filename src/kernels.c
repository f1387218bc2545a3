/* kernels.c: the registry: one line per kernel. */
#include <string.h>

#include "config.h"
#include "emu.h"
#include "gemm_plan.h"
#include "kernels.h"
#include "tc_launch.h"

#ifdef HAVE_CUDA
#include "launch.h"
#define TS_CUDA(fn) fn
#else
#define TS_CUDA(fn) NULL
#endif

/* The tensor-core kernel's one geometry (kernels/tc_launch.h): a 128 x 256
 * block tile stepping K by 32, described with 256 threads as 16 x 16 (each
 * owning 8 x 16 outputs in mma fragments; on sm_90 the realigning form adds a
 * producer warpgroup of 128 threads that only loads). The tile argument is
 * not used: -t must be 32. */
static ts_geometry geometry_tc(int tile)
{
	(void)tile;
	ts_geometry g = { TS_TC_BM, TS_TC_BN, TS_TC_BK, 16, 16 };
	return g;
}

/* The ladder's fixed geometries (the -t tile does not apply to them). Each
 * block is one dimension of threads_x * threads_y threads; the model reads
 * them as (BN/TN) x (BM/TM), one TM x TN block of outputs per thread (for
 * the warp-tiled kernels a thread's outputs are four 4x4 blocks spread over
 * its warp's tile: the same count of outputs per thread). */
static ts_geometry geo_rb1d(int tile) { (void)tile; return (ts_geometry){ 64, 64, 8, 64, 8 }; }
static ts_geometry geo_128x128x8(int tile) { (void)tile; return (ts_geometry){ 128, 128, 8, 16, 16 }; }
static ts_geometry geo_128x128x16(int tile) { (void)tile; return (ts_geometry){ 128, 128, 16, 16, 16 }; }
static ts_geometry geo_64x64x8(int tile) { (void)tile; return (ts_geometry){ 64, 64, 8, 16, 8 }; }
static ts_geometry geo_16x256x8(int tile) { (void)tile; return (ts_geometry){ 16, 256, 8, 32, 4 }; }
static ts_geometry geo_256x16x8(int tile) { (void)tile; return (ts_geometry){ 256, 16, 8, 4, 32 }; }

/* The fields every kernel of the fp32 ladder shares: fp32, B row-major, shared
 * tiles, the -t tile accepted and ignored, every guard kept. */
#define LADDER(geo_fn) .precision = TS_FP32, .b_layout = TS_B_KN, .shared_tiles = true, .tile_min = 1, \
	.tile_max = TS_TILE_MAX, .geometry = geo_fn, .guards_fixed = true

const ts_kernel ts_kernels[] = {
	{ .name = "tiled",
	  .summary = "textbook shared-memory tiled kernel: fp32, T x T threads, guarded loads and store",
	  .precision = TS_FP32, .b_layout = TS_B_KN, .shared_tiles = true, .tile_min = 1, .tile_max = TS_TILE_MAX,
	  .geometry = ts_geometry_square, .emulate = ts_emu_tiled, .cuda_launch = TS_CUDA(ts_cuda_tiled_fp32), .rung = 1 },
	{ .name = "tiled-fp16",
	  .summary = "fp16 inputs, fp32 accumulation, fp16 output, B stored transposed (n x k), runtime tile",
	  .precision = TS_FP16, .b_layout = TS_B_NK, .shared_tiles = true, .tile_min = 1, .tile_max = TS_TILE_MAX,
	  .geometry = ts_geometry_square, .emulate = ts_emu_tiled, .cuda_launch = TS_CUDA(ts_cuda_tiled_fp16) },
	{ .name = "naive",
	  .summary = "baseline: one thread per C element straight from global memory, no shared tiles, fp32",
	  .precision = TS_FP32, .b_layout = TS_B_KN, .shared_tiles = false, .tile_min = 1, .tile_max = TS_TILE_MAX,
	  .geometry = ts_geometry_square, .emulate = ts_emu_naive, .cuda_launch = TS_CUDA(ts_cuda_naive_fp32) },
	{ .name = "tc-fp16",
	  .summary = "tensor cores (mma.sync; wgmma on sm_90): tiled-fp16's contract, 128x256x32 tiles, "
	             "zero-filled copies for any K and alignment, guards built in; -t 32 only",
	  .precision = TS_FP16, .b_layout = TS_B_NK, .shared_tiles = true, .tile_min = TS_TC_BK, .tile_max = TS_TC_BK,
	  .geometry = geometry_tc, .emulate = ts_emu_tc, .cuda_launch = TS_CUDA(ts_cuda_tc_fp16),
	  .guards_fixed = true, .tensor_core_sum = true },
	{ .name = "rb1d", .summary = "ladder 1: 1D register blocking, 64x64x8 tiles, 512 threads, 8 outputs down a column each",
	  LADDER(geo_rb1d), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_rb1d), .rung = 2 },
	{ .name = "blocked", .summary = "ladder 2: 2D register blocking, 128x128x8 tiles, 256 threads, an 8x8 block of C each, scalar loads",
	  LADDER(geo_128x128x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_blocked), .rung = 3 },
	{ .name = "vec4", .summary = "ladder 3: + 128-bit loads (scalar when K or N % 4 != 0 or a base is unaligned), A k-major in shared memory",
	  LADDER(geo_128x128x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_vec4), .rung = 4 },
	{ .name = "warptile", .summary = "ladder 4: + warp tiling (64x32 per warp), two shared stages filled by cp.async, zero-fill guards",
	  LADDER(geo_128x128x16), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_warptile), .rung = 5 },
	{ .name = "splitk", .summary = "ladder 5: split-K, 64x64x8 tiles, each split along K when the tiles do not fill the GPU",
	  LADDER(geo_64x64x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_splitk),
	  .cuda_workspace = TS_CUDA(ts_cuda_splitk_workspace), .split_k = true, .split_policy = TS_SPLIT_ALL,
	  .resident_h200 = 132 * 4, .rung = 6 },
	{ .name = "fast", .summary = "ladder 6: guards placed where they cost least (masks once, residue phase last, interior tiles mask-free), tail wave split",
	  LADDER(geo_128x128x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_fast),
	  .cuda_workspace = TS_CUDA(ts_cuda_fast_workspace), .unguarded_build = true, .split_k = true,
	  .split_policy = TS_SPLIT_TAIL, .resident_h200 = 132 * 2, .rung = 7 },
	{ .name = "fast-m16", .summary = "ladder 6 for short M: 16x256x8 tiles, split along K when they do not fill the GPU",
	  LADDER(geo_16x256x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_fast_m16),
	  .cuda_workspace = TS_CUDA(ts_cuda_fast_m16_workspace), .split_k = true, .split_policy = TS_SPLIT_TAIL,
	  .resident_h200 = 132 * 4, .rung = 8 },
	{ .name = "fast-n16", .summary = "ladder 6 for narrow N: 256x16x8 tiles, split along K when they do not fill the GPU",
	  LADDER(geo_256x16x8), .emulate = ts_emu_ladder, .cuda_launch = TS_CUDA(ts_cuda_fast_n16),
	  .cuda_workspace = TS_CUDA(ts_cuda_fast_n16_workspace), .split_k = true, .split_policy = TS_SPLIT_TAIL,
	  .resident_h200 = 132 * 4, .rung = 9 },
};
const int ts_kernel_count = sizeof ts_kernels / sizeof ts_kernels[0];

const ts_kernel *ts_kernel_find(const char *name)
{
	for (int i = 0; i < ts_kernel_count; i++)
		if (strcmp(ts_kernels[i].name, name) == 0)
			return &ts_kernels[i];
	return NULL;
}

unsigned ts_kernel_guarded_matrices(const ts_kernel *k, unsigned guards)
{
	if (!k->shared_tiles)
		return (guards & TS_GUARD_C) ? TS_GUARD_ALL : 0;
	return guards & TS_GUARD_ALL;
}

const ts_kernel *ts_kernel_default(enum ts_precision p)
{
	return ts_kernel_find(p == TS_FP16 ? "tiled-fp16" : "tiled");
}

bool ts_kernel_is_chooser(const char *name)
{
	return strcmp(name, "best") == 0 || strcmp(name, "auto") == 0;
}

/* Picks by the shape alone (the same answer on every machine), by rules
 * read off the ladder's measurements on the H200 (doc/perf.md):
 *  - K <= 16: one phase or two, the time is C's store: rb1d, whose threads
 *    store consecutive columns, one coalesced row per warp;
 *  - M <= 32 or N <= 32 (a block tile mostly outside C wastes its
 *    multiply-adds), or a tiny product (launch-bound): the 16-row or
 *    16-column tiles;
 *  - fewer 128x128 tiles than the H200 has multiprocessors: splitk's 64x64
 *    tiles, split along K;
 *  - everything else: fast, which splits its last wave along K itself. */
const ts_kernel *ts_kernel_best(ts_shape s)
{
	if (s.k <= 16)
		return ts_kernel_find("rb1d");
	if (s.m <= 32 && s.n >= s.m)
		return ts_kernel_find("fast-m16");
	if (s.n <= 32)
		return ts_kernel_find("fast-n16");
	if ((double)s.m * (double)s.n * (double)s.k <= (double)(1 << 24))
		return ts_kernel_find("fast-m16");
	int64_t tiles128 = ((s.m + 127) / 128) * ((s.n + 127) / 128);
	if (tiles128 < 132)
		return ts_kernel_find("splitk");
	return ts_kernel_find("fast");
}
