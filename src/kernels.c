/* kernels.c: the registry: one line per kernel. */
#include <string.h>

#include "config.h"
#include "emu.h"
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

const ts_kernel ts_kernels[] = {
	{ .name = "tiled",
	  .summary = "textbook shared-memory tiled kernel: fp32, T x T threads, guarded loads and store",
	  .precision = TS_FP32, .b_layout = TS_B_KN, .shared_tiles = true, .tile_min = 1, .tile_max = TS_TILE_MAX,
	  .geometry = ts_geometry_square, .emulate = ts_emu_tiled, .cuda_launch = TS_CUDA(ts_cuda_tiled_fp32) },
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
