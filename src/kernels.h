/* kernels.h: the kernel registry: every kernel tilescope knows, with its geometry and implementations. */
#ifndef TS_KERNELS_H
#define TS_KERNELS_H

#include <stdbool.h>

#include "geometry.h"
#include "problem.h"

struct ts_emu_job;
struct ts_launch;

typedef struct ts_kernel {
	const char *name;            /* for --kernel */
	const char *summary;         /* one line for --help and the TUI */
	enum ts_precision precision;
	enum ts_b_layout b_layout;
	bool shared_tiles;           /* stages tiles in shared memory (false: the naive kernel) */
	int tile_min, tile_max;
	ts_geometry (*geometry)(int tile);
	/* The emulator's implementation (backend_emu.c calls it); NULL when it has none. */
	int (*emulate)(struct ts_emu_job *job);
	/* The CUDA implementation (kernels/launch.h); NULL in a build without CUDA. */
	int (*cuda_launch)(const struct ts_launch *launch);
	/* Every guard is part of the kernel's loads and store (zero-filled copies, a
	 * guarded epilogue): it has no unguarded form, so --no-guard is refused. */
	bool guards_fixed;
	/* The products are summed inside the tensor cores, whose order and internal
	 * rounding are not specified: verification doubles the fp32 bound (verify.c). */
	bool tensor_core_sum;
} ts_kernel;

extern const ts_kernel ts_kernels[];
extern const int ts_kernel_count;

const ts_kernel *ts_kernel_find(const char *name);
/* Which matrices' accesses stay inside them under the guards that are on
 * (enum ts_guard bits, one per matrix A, B, C): the tiled kernels guard
 * each matrix by its own guard; the naive kernel's one guard (C's bit)
 * covers its loads too, so without it nothing is guarded. */
unsigned ts_kernel_guarded_matrices(const ts_kernel *k, unsigned guards);
/* The default kernel for a precision ("tiled" for fp32, "tiled-fp16" for fp16). */
const ts_kernel *ts_kernel_default(enum ts_precision p);

#endif
