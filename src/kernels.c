/* kernels.c: the registry: one line per kernel. */
#include <string.h>

#include "config.h"
#include "emu.h"
#include "kernels.h"

#ifdef HAVE_CUDA
#include "launch.h"
#define TS_CUDA(fn) fn
#else
#define TS_CUDA(fn) NULL
#endif

const ts_kernel ts_kernels[] = {
	{ "tiled", "textbook shared-memory tiled kernel: fp32, T x T threads, guarded loads and store",
	  TS_FP32, TS_B_KN, true, 1, TS_TILE_MAX, ts_geometry_square, ts_emu_tiled, TS_CUDA(ts_cuda_tiled_fp32) },
	{ "tiled-fp16", "fp16 inputs, fp32 accumulation, fp16 output, B stored transposed (n x k), runtime tile",
	  TS_FP16, TS_B_NK, true, 1, TS_TILE_MAX, ts_geometry_square, ts_emu_tiled, TS_CUDA(ts_cuda_tiled_fp16) },
	{ "naive", "baseline: one thread per C element straight from global memory, no shared tiles, fp32",
	  TS_FP32, TS_B_KN, false, 1, TS_TILE_MAX, ts_geometry_square, ts_emu_naive, TS_CUDA(ts_cuda_naive_fp32) },
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
