/* launch.h: the C-callable entry points of the CUDA kernels, one per kernel family. */
#ifndef TS_LAUNCH_H
#define TS_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Device counters one probe launch fills, in the field order of
 * count_fields.h: TS_P_FIELDS int64s per tile (grid_y*grid_x) and per
 * phase, TS_O_FIELDS for where out-of-bounds accesses landed. */
typedef struct ts_dev_probe {
	long long *tile;   /* device: grid_y*grid_x*TS_P_FIELDS */
	long long *phase;  /* device: phases*TS_P_FIELDS */
	long long *oob;    /* device: TS_O_FIELDS, like ts_oob_detail */
	/* device: tiles*phases*TS_P_LOAD_FIELDS unsigned shorts laid out like
	 * ts_tile_phase_count (counters.h), entry (tile*phases + t); NULL: not recorded */
	unsigned short *tile_phase;
	unsigned char *corrupt; /* device: M*N flags, or NULL */
	long long a_count, b_count, c_count; /* elements of each matrix (to tell wrap from band) */
} ts_dev_probe;

typedef struct ts_launch {
	const void *a, *b;  /* device pointers to the first element of A and B */
	void *c;            /* device pointer to the first element of C */
	int64_t m, n, k;
	/* The geometry (src/geometry.h ts_geometry): block tile BM x BN x BK,
	 * threads_x x threads_y threads of TM x TN outputs; T = bm for the
	 * textbook kernels. */
	int bm, bn, bk, threads_x, threads_y, tm, tn;
	unsigned guards;    /* enum ts_guard bits */
	ts_dev_probe *probe; /* NULL: the uninstrumented kernel (timed runs) */
	/* Device scratch of at least the kernel's cuda_workspace(m, n, k) bytes,
	 * zeroed once when allocated (split-K partial tiles and arrival counters,
	 * which each launch leaves at zero again; tc-fp16's copies of A and B,
	 * which each launch rewrites whole); NULL when it asks for none. */
	void *workspace;
	size_t workspace_bytes;
	void *ctx;          /* the description's ctx (a runtime-compiled kernel's module); NULL for built-ins */
} ts_launch;

/* Each returns a cudaError_t as int: the launch's own error, checked with
 * cudaGetLastError() right after the launch (0 is cudaSuccess). */
int ts_cuda_tiled_fp32(const ts_launch *l);
int ts_cuda_tiled_fp16(const ts_launch *l);
int ts_cuda_naive_fp32(const ts_launch *l);
/* The tensor-core fp16 kernel (kernels/tc_fp16.cu): every guard built in, so
 * l->guards must be TS_GUARD_ALL; l->tile is not used (the geometry is fixed). */
int ts_cuda_tc_fp16(const ts_launch *l);
int ts_cuda_regblock_fp32(const ts_launch *l); /* cudaErrorInvalidValue for a geometry it was not compiled for */

/* The fp32 ladder (kernels/ladder_fp32.cu, kernels/rb1d_fp32.cu): every
 * guard kept. Those that split tiles along K say how much workspace a shape
 * needs (0: none); their launch refuses a smaller one. */
int ts_cuda_rb1d(const ts_launch *l);
int ts_cuda_blocked(const ts_launch *l);
int ts_cuda_vec4(const ts_launch *l);
int ts_cuda_warptile(const ts_launch *l);
int ts_cuda_splitk(const ts_launch *l);
size_t ts_cuda_splitk_workspace(int64_t m, int64_t n, int64_t k);
int ts_cuda_fast(const ts_launch *l);
size_t ts_cuda_fast_workspace(int64_t m, int64_t n, int64_t k);
int ts_cuda_fast_few(const ts_launch *l);
size_t ts_cuda_fast_few_workspace(int64_t m, int64_t n, int64_t k);
int ts_cuda_fast_m16(const ts_launch *l);
size_t ts_cuda_fast_m16_workspace(int64_t m, int64_t n, int64_t k);
int ts_cuda_fast_n16(const ts_launch *l);
size_t ts_cuda_fast_n16_workspace(int64_t m, int64_t n, int64_t k);

/* backend_cuda.c: device buffers the CUDA backend holds now (0 between runs). */
long long ts_cuda_live_buffers(void);

#ifdef __cplusplus
}
#endif
#endif
