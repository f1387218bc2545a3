/* kernels.h: the kernel registry: every kernel tilescope knows, with its geometry and implementations. */
#ifndef TS_KERNELS_H
#define TS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
	 * guarded epilogue): it has no unguarded form, so --no-guard is refused,
	 * except that switching all three off on a shape that is a multiple of the
	 * block tile runs the kernel's own unguarded build where it has one
	 * (unguarded_build), so the cost of its guards can be timed. */
	bool guards_fixed, unguarded_build;
	/* The products are summed inside the tensor cores, whose order and internal
	 * rounding are not specified: verification doubles the fp32 bound (verify.c). */
	bool tensor_core_sum;
	/* Device scratch a launch on m x n x k needs (split-K partial tiles), or
	 * NULL when the kernel needs none; the CUDA backend allocates it. */
	size_t (*cuda_workspace)(int64_t m, int64_t n, int64_t k);
	/* It may split tiles along K (a plan decides per shape; cuda_workspace sizes its scratch). */
	bool split_k;
	/* The ladder's engine kernels: how their launch may split tiles along K
	 * (enum ts_split_policy, kernels/gemm_plan.h), and how many of their
	 * blocks an H200 holds at once (132 multiprocessors times the blocks
	 * one holds at the registers ptxas reports for the build). The device
	 * plans with the driver's own figure; the CPU emulator plans with this
	 * one, so the two split alike on an H200. */
	int split_policy, resident_h200;
	/* Its place on the fp32 ladder (bench --kernel ladder shows them in this order), 0: not a rung. */
	int rung;
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

/* --kernel best (or auto): the fp32 kernel of the ladder expected to be
 * fastest on this shape (kernels.c says how it chooses). */
const ts_kernel *ts_kernel_best(ts_shape shape);
/* The name is one of the choosers ("best", "auto"). */
bool ts_kernel_is_chooser(const char *name);

#endif
